//! The explorer's state and how actions change it. Pure: no terminal, no disk, no
//! clock. Whatever needs the outside world (the editor, the clipboard, reading two
//! files for a diff, asking the loader to reload) is returned as an [`Effect`] for
//! the driver in `mod.rs`, which is why every key sequence can be tested here.

use std::cell::Cell;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use fuzzy_matcher::skim::SkimMatcherV2;
use ratatui::layout::Rect;

use super::action::{Action, Effect};
use super::finder::{rank, Filter, Finder};
use super::highlight::Highlighted;
use super::index::{Index, Row};
use super::keymap::{Context, Keymap};
use super::layout::{self, Pane, PANES};
use super::panes::diff::DiffView;
use super::reader::{ModelTexts, Shown};
use crate::model::{Agent, Catalog, Diagnostic};

/// Lines moved per mouse-wheel step.
const WHEEL_STEP: usize = 3;

/// A cursor in a list and the first line shown. The offset is adjusted when the
/// list is drawn (the draw knows the height) and read back by mouse clicks, so a
/// click hits the line that is on screen.
#[derive(Debug, Default)]
pub struct Scroll {
    pub cursor: usize,
    pub offset: Cell<usize>,
}

impl Scroll {
    /// The offset that shows the cursor, moving the view as little as possible.
    pub fn visible_offset(&self, height: usize) -> usize {
        let mut offset = self.offset.get();
        if height == 0 {
            return offset;
        }
        if self.cursor < offset {
            offset = self.cursor;
        } else if self.cursor >= offset + height {
            offset = self.cursor + 1 - height;
        }
        self.offset.set(offset);
        offset
    }

    fn reset(&mut self) {
        self.cursor = 0;
        self.offset.set(0);
    }
}

/// A text report drawn over the panes ([`crate::tui::overlays::report`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ReportOverlay {
    pub title: String,
    /// Already sanitised.
    pub lines: Vec<String>,
    pub scroll: usize,
}

/// The diff overlay: the winner against one of the other definitions of its name.
#[derive(Debug)]
pub struct DiffState {
    pub winner: String,
    /// The other definitions, by id, in precedence order.
    pub others: Vec<String>,
    pub current: usize,
    pub side_by_side: bool,
    pub scroll: usize,
    /// Built by the driver from the two files ([`Effect::OpenDiff`]).
    pub view: Option<DiffView>,
}

impl DiffState {
    pub fn other(&self) -> Option<&str> {
        self.others.get(self.current).map(String::as_str)
    }
}

pub struct App {
    pub index: Option<Index>,
    pub keymap: Keymap,
    /// Scores matches for ranking (fast path; see [`super::finder::ranker`]).
    pub ranker: SkimMatcherV2,
    /// Finds the matched characters of the rows on screen, for highlighting.
    pub matcher: SkimMatcherV2,
    pub size: Rect,
    pub focus: Pane,
    pub rows: Vec<Row>,
    pub list: Scroll,
    /// The selected agent's id: kept across snapshots, filters and the tree toggle.
    pub selected: Option<String>,
    pub tree: bool,
    pub filter: Option<Filter>,
    pub finder: Option<Finder>,
    /// The help overlay, with its scroll offset.
    pub help: Option<usize>,
    pub diff: Option<DiffState>,
    /// A text report over the panes: "why is NAME missing?" or one file's readings.
    pub report: Option<ReportOverlay>,
    /// The list is grouped by name across frameworks instead of by framework.
    pub by_name: bool,
    /// The tools' built-in agents are left out of the list (`B`).
    pub hide_builtins: bool,
    /// The one kind of definition the list shows (`K`); `None` is both.
    pub kind: Option<crate::model::Kind>,
    pub sources: Scroll,
    pub fields: Scroll,
    pub prompt_scroll: usize,
    pub diagnostics: Scroll,
    /// Files read so far while a load runs (`done`, `total`).
    pub progress: Option<(usize, usize)>,
    /// The frameworks still loading while the first load shows the others' agents
    /// (ids, in the catalog's order); empty once the catalog is complete.
    pub pending: Vec<&'static str>,
    /// The user has moved or chosen something. Until then the first agent is
    /// selected whatever arrives above it, so the explorer opens at the top of the
    /// list however the frameworks' loads happened to interleave.
    pub touched: bool,
    /// Live refresh, in words, for the status bar.
    pub watch: String,
    /// A one-off message (copied, editor failed); cleared by the next key.
    pub notice: Option<String>,
    /// A problem with the config, kept on the status bar.
    pub config_error: Option<String>,
    /// The selected prompt, highlighted (when the highlighter has finished it).
    pub highlighted: Option<Highlighted>,
    /// Prompts kept on disk, as the reader answered them.
    pub texts: ModelTexts,
    pub quit: bool,
}

impl App {
    pub fn new(keymap: Keymap, size: Rect) -> App {
        App {
            index: None,
            keymap,
            ranker: super::finder::ranker(),
            matcher: SkimMatcherV2::default(),
            size,
            focus: Pane::Agents,
            rows: Vec::new(),
            list: Scroll::default(),
            selected: None,
            tree: false,
            filter: None,
            finder: None,
            help: None,
            diff: None,
            report: None,
            by_name: false,
            hide_builtins: false,
            kind: None,
            sources: Scroll::default(),
            fields: Scroll::default(),
            prompt_scroll: 0,
            diagnostics: Scroll::default(),
            progress: Some((0, 0)),
            pending: Vec::new(),
            touched: false,
            watch: String::new(),
            notice: None,
            config_error: None,
            highlighted: None,
            texts: ModelTexts::default(),
            quit: false,
        }
    }

    pub fn catalog(&self) -> Option<&Catalog> {
        self.index.as_ref().map(|i| i.catalog.as_ref())
    }

    /// The selected agent's number in the index.
    pub fn selected_agent(&self) -> Option<usize> {
        let index = self.index.as_ref()?;
        index.by_id(self.selected.as_deref()?)
    }

    pub fn agent(&self) -> Option<&Agent> {
        let n = self.selected_agent()?;
        self.index.as_ref().map(|i| i.agent(n))
    }

    pub fn all_diagnostics(&self) -> Vec<&Diagnostic> {
        self.catalog().map(|c| c.diagnostics().collect()).unwrap_or_default()
    }

    /// The query whose matches are highlighted in the list: the open finder's,
    /// else the kept filter's.
    pub fn query(&self) -> Option<&str> {
        match (&self.finder, &self.filter) {
            (Some(f), _) => Some(f.query.as_str()),
            (None, Some(f)) => Some(f.query.as_str()),
            _ => None,
        }
        .filter(|q| !q.is_empty())
    }

    /// A new snapshot: everything derived is rebuilt; the selection, the filter's
    /// query and open views are kept when their agents still exist.
    pub fn on_snapshot(&mut self, catalog: Arc<Catalog>) -> Option<Effect> {
        self.on_index(Index::new(catalog))
    }

    /// Part of the first load: the frameworks arrived so far, the others still
    /// loading ([`crate::loader::LoaderEvent::Arrived`]).
    pub fn on_arrival(&mut self, catalog: Arc<Catalog>, pending: Vec<&'static str>) -> Option<Effect> {
        self.on_partial_index(Index::new(catalog), pending)
    }

    /// A new snapshot whose lookups were built elsewhere (the driver builds them off
    /// the UI thread: for 100,000 agents that takes a good part of a second).
    pub fn on_index(&mut self, index: Index) -> Option<Effect> {
        self.on_partial_index(index, Vec::new())
    }

    /// A snapshot holding the very reports already shown (the complete catalog
    /// after its last framework arrived): nothing to rebuild. `false` when the
    /// reports differ and the snapshot needs an index of its own.
    pub fn on_same_reports(&mut self, catalog: Arc<Catalog>) -> bool {
        let Some(index) = &mut self.index else { return false };
        let same = index.catalog.reports.len() == catalog.reports.len()
            && index.catalog.reports.iter().zip(&catalog.reports).all(|(a, b)| Arc::ptr_eq(a, b));
        if same {
            index.catalog = catalog;
            self.pending.clear();
            self.progress = None;
        }
        same
    }

    /// [`App::on_index`] for a catalog that lacks the `pending` frameworks. Rows
    /// come and go above and below the selected agent: it stays selected and on the
    /// same line of the list (unless the user has not touched anything yet: then
    /// the first agent is).
    pub fn on_partial_index(&mut self, index: Index, pending: Vec<&'static str>) -> Option<Effect> {
        if let Some(finder) = &mut self.finder {
            finder.rescore(&self.ranker, &index.haystacks);
        }
        if let Some(filter) = &mut self.filter {
            filter.matches = rank(&self.ranker, &index.haystacks, None, &filter.query);
        }
        let arriving = !pending.is_empty() || !self.pending.is_empty();
        self.index = Some(index);
        self.texts.forget_failures();
        if pending.is_empty() {
            self.progress = None;
        }
        self.pending = pending;
        if arriving && !self.touched {
            self.selected = None;
            self.list.reset();
        }
        let before = self.selected.clone();
        // The selected row's line in the list's pane, kept as rows are inserted.
        let line = self.list.cursor.checked_sub(self.list.offset.get());
        self.rebuild_rows();
        if let (Some(line), true) = (line, self.selected.is_some() && self.selected == before) {
            self.list.offset.set(self.list.cursor.saturating_sub(line));
        }
        if self.selected != before {
            self.on_selection_changed();
        }
        let diff = self.diff.take()?;
        let exists = |id: &str| self.index.as_ref().is_some_and(|i| i.by_id(id).is_some());
        if !exists(&diff.winner) || !diff.other().is_some_and(exists) {
            self.notice = Some("the compared definitions changed; diff closed".into());
            return None;
        }
        let effect =
            Effect::OpenDiff { winner: diff.winner.clone(), other: diff.other().unwrap_or_default().to_string() };
        self.diff = Some(DiffState { view: None, ..diff });
        Some(effect)
    }

    /// How many agents the finder or the kept filter lets through.
    pub fn match_count(&self) -> usize {
        match self.visible_matches() {
            Some(m) => m.len(),
            None => self.index.as_ref().map_or(0, |i| i.agents.len()),
        }
    }

    fn visible_matches(&self) -> Option<&[usize]> {
        match (&self.finder, &self.filter) {
            (Some(f), _) => f.matches.as_deref(),
            (None, Some(f)) => Some(&f.matches),
            _ => None,
        }
    }

    /// Rebuilds the list rows and puts the cursor back on the selected agent, or on
    /// the nearest agent when it is gone.
    fn rebuild_rows(&mut self) {
        let Some(index) = &self.index else { return };
        let mut only = self.visible_matches();
        let kept: Vec<usize>;
        if self.hide_builtins || self.kind.is_some() {
            let keep = |n: &usize| {
                let a = index.agent(*n);
                !(self.hide_builtins && a.source.scope == crate::model::Scope::Builtin) && self.kind.is_none_or(|k| a.kind == k)
            };
            kept = match only {
                Some(ns) => ns.iter().copied().filter(|n| keep(n)).collect(),
                None => (0..index.agents.len()).filter(|n| keep(n)).collect(),
            };
            only = Some(&kept);
        }
        self.rows = match (self.tree, self.by_name) {
            (true, _) => index.tree_rows(only),
            (false, true) => index.name_rows(only),
            (false, false) => index.flat_rows(only),
        };
        let found = self.selected.as_ref().and_then(|id| {
            let n = index.by_id(id)?;
            self.rows.iter().position(|r| matches!(r, Row::Agent { agent, .. } if *agent == n))
        });
        match found {
            Some(pos) => self.list.cursor = pos,
            None => {
                self.list.cursor = self.list.cursor.min(self.rows.len().saturating_sub(1));
                self.settle_cursor(true);
            }
        }
    }

    /// Moves the cursor off headings (forwards first) and selects its agent.
    fn settle_cursor(&mut self, forward: bool) {
        let is_agent = |r: &Row| matches!(r, Row::Agent { .. });
        let len = self.rows.len();
        let ahead = (self.list.cursor..len).find(|&i| is_agent(&self.rows[i]));
        let behind =
            (0..=self.list.cursor.min(len.saturating_sub(1))).rev().find(|&i| len > 0 && is_agent(&self.rows[i]));
        let pos = if forward { ahead.or(behind) } else { behind.or(ahead) };
        if let Some(p) = pos {
            self.list.cursor = p;
        }
        let new = self.rows.get(self.list.cursor).and_then(|r| match r {
            Row::Agent { agent, .. } => self.index.as_ref().map(|i| i.agent(*agent).id()),
            _ => None,
        });
        if new.is_some() && new != self.selected {
            self.selected = new;
            self.on_selection_changed();
        } else if new.is_none() && pos.is_none() {
            self.selected = None;
        }
    }

    fn on_selection_changed(&mut self) {
        self.fields.reset();
        self.prompt_scroll = 0;
        self.highlighted = None;
        let position = self.selected_agent().and_then(|n| {
            let index = self.index.as_ref()?;
            index.sources_of(n).iter().position(|&o| o == n)
        });
        self.sources.cursor = position.unwrap_or(0);
        self.sources.offset.set(0);
    }

    /// Selects an agent by id, clearing the filter if it hides it.
    pub fn select(&mut self, id: &str) {
        self.touched = true;
        self.selected = Some(id.to_string());
        self.rebuild_rows();
        if self.selected.as_deref() != Some(id) || !self.row_of_selected() {
            self.filter = None;
            self.selected = Some(id.to_string());
            self.rebuild_rows();
        }
        self.on_selection_changed();
    }

    fn row_of_selected(&self) -> bool {
        let Some(n) = self.selected_agent() else { return false };
        matches!(self.rows.get(self.list.cursor), Some(Row::Agent { agent, .. }) if *agent == n)
    }

    /// The key's context: the finder, the diff view, or the panes.
    fn context(&self) -> Context {
        if self.finder.is_some() {
            Context::Finder
        } else if self.diff.is_some() {
            Context::Diff
        } else {
            Context::Panes
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) -> Option<Effect> {
        self.notice = None;
        self.touched = true;
        let context = self.context();
        match self.keymap.action(context, &key) {
            Some(action) => self.apply(action),
            None if context == Context::Finder => {
                if let KeyCode::Char(c) = key.code {
                    if !key.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
                        self.finder_type(&c.to_string());
                    }
                }
                None
            }
            None => None,
        }
    }

    /// Pasted text goes to the finder's query (one line of it).
    pub fn on_paste(&mut self, text: &str) {
        self.touched = true;
        if self.finder.is_some() {
            let line: String = text.lines().next().unwrap_or("").chars().filter(|c| !c.is_control()).collect();
            self.finder_type(&line);
        }
    }

    pub fn on_resize(&mut self, width: u16, height: u16) {
        self.size = Rect::new(0, 0, width, height);
    }

    fn finder_type(&mut self, text: &str) {
        let (Some(finder), Some(index)) = (&mut self.finder, &self.index) else { return };
        finder.push(&self.ranker, &index.haystacks, text);
        self.list.cursor = 0;
        self.rebuild_rows_keep_top();
    }

    /// After the query changed: show the best match first.
    fn rebuild_rows_keep_top(&mut self) {
        let Some(index) = &self.index else { return };
        let only = self.visible_matches();
        self.rows = if self.tree { index.tree_rows(only) } else { index.flat_rows(only) };
        self.list.cursor = 0;
        self.list.offset.set(0);
        self.settle_cursor(true);
    }

    pub fn apply(&mut self, action: Action) -> Option<Effect> {
        match action {
            Action::Quit => {
                self.quit = true;
                return Some(Effect::Quit);
            }
            Action::Back => return self.back(),
            Action::Help => {
                self.help = if self.help.is_some() { None } else { Some(0) };
            }
            Action::Up | Action::Down | Action::PageUp | Action::PageDown | Action::Top | Action::Bottom => {
                self.navigate(action)
            }
            Action::NextPane | Action::PrevPane => {
                let i = PANES.iter().position(|p| *p == self.focus).unwrap_or(0);
                let step = if action == Action::NextPane { 1 } else { PANES.len() - 1 };
                self.focus = PANES[(i + step) % PANES.len()];
            }
            Action::Activate => return self.activate(),
            Action::Find => {
                self.help = None;
                self.finder = Some(Finder::open(self.filter.take(), self.selected.clone()));
                self.focus = Pane::Agents;
            }
            Action::ToggleTree => {
                self.tree = !self.tree;
                self.rebuild_rows();
            }
            Action::Diff => return self.open_diff(),
            Action::NextAgainst | Action::PrevAgainst => return self.step_diff(action == Action::NextAgainst),
            Action::ToggleSideBySide => {
                if let Some(d) = &mut self.diff {
                    d.side_by_side = !d.side_by_side;
                }
            }
            // An agent compiled into the tool has no file to open.
            Action::Edit => {
                return self.edit_target().filter(|(p, _)| !p.as_os_str().is_empty()).map(|(path, line)| Effect::Edit { path, line })
            }
            Action::CopyPath => {
                let path = self.agent().map(|a| if a.source.is_compiled_in() { a.source.key() } else { a.source.path.display().to_string() })?;
                self.notice = Some(format!("copied {}", crate::text::sanitize::line(&path)));
                return Some(Effect::Copy(path));
            }
            Action::Reload => return Some(Effect::Reload),
            Action::ToggleByName => {
                self.by_name = !self.by_name;
                self.rebuild_rows();
            }
            Action::ToggleBuiltins => {
                self.hide_builtins = !self.hide_builtins;
                self.notice = Some(if self.hide_builtins { "built-in agents hidden" } else { "built-in agents shown" }.into());
                self.rebuild_rows();
            }
            Action::CycleKind => {
                use crate::model::Kind;
                self.kind = match self.kind {
                    None => Some(Kind::Agent),
                    Some(Kind::Agent) => Some(Kind::Skill),
                    Some(Kind::Skill) => None,
                };
                self.notice = Some(match self.kind {
                    None => "agents and skills shown",
                    Some(Kind::Agent) => "agents only",
                    Some(Kind::Skill) => "skills only",
                }.into());
                self.rebuild_rows();
            }
            Action::Listing => self.open_listing(),
            Action::FileView => self.open_file_view(),
            Action::DiffReadings => return self.open_readings_diff(),
            Action::Why => self.open_why(),
            Action::FinderAccept if self.match_count() == 0 && self.finder.as_ref().is_some_and(|f| !f.query.is_empty()) => {
                self.open_why();
            }
            Action::FinderAccept => {
                if let Some(finder) = self.finder.take() {
                    self.filter = finder.into_filter();
                    self.rebuild_rows();
                }
            }
            Action::FinderCancel => {
                if let Some(finder) = self.finder.take() {
                    self.filter = finder.saved_filter;
                    self.selected = finder.saved_selection;
                    self.rebuild_rows();
                    self.on_selection_changed();
                }
            }
            Action::FinderUp => self.move_list(-1),
            Action::FinderDown => self.move_list(1),
            Action::FinderBackspace => {
                if let (Some(finder), Some(index)) = (&mut self.finder, &self.index) {
                    finder.backspace(&self.ranker, &index.haystacks);
                    self.rebuild_rows_keep_top();
                }
            }
            Action::FinderClear => {
                if let Some(finder) = &mut self.finder {
                    finder.clear();
                    self.rebuild_rows_keep_top();
                }
            }
        }
        None
    }

    /// Esc: closes the innermost thing open; quits when nothing is.
    /// "Why is NAME missing?" for the finder's query: the finder closes (the list
    /// as it was) and the report opens over the panes.
    fn open_why(&mut self) {
        let Some(query) = self.finder.as_ref().map(|f| f.query.trim().to_string()).filter(|q| !q.is_empty()) else { return };
        self.apply(Action::FinderCancel);
        let Some(catalog) = self.catalog() else { return };
        let report = crate::views::why::why(catalog, &crate::frameworks::loaded_in(catalog), &query);
        let mut lines = crate::views::why::lines(&report, &catalog.roots);
        if lines.is_empty() {
            lines.push("nothing close in any tool".into());
        }
        let title = format!("why is `{}` missing?", crate::text::sanitize::line(&query));
        self.report = Some(ReportOverlay { title, lines, scroll: 0 });
    }

    /// The selected definition's file as every framework reads it.
    fn open_file_view(&mut self) {
        let Some(catalog) = self.catalog() else { return };
        let Some(path) = self.agent().filter(|a| !a.source.is_compiled_in()).map(|a| a.source.path.to_path_buf()) else {
            self.notice = Some("a built-in agent has no file".into());
            return;
        };
        let frameworks = crate::frameworks::loaded_in(catalog);
        let report = crate::views::file::file(catalog, &frameworks, &path);
        let mut lines = crate::views::file::lines(&report, &catalog.roots);
        // A skill's folder (`.agents/skills/`) is read by several tools: its skills side by side.
        let skills_dir = path.parent().and_then(std::path::Path::parent).filter(|_| self.agent().is_some_and(|a| a.kind == crate::model::Kind::Skill));
        if let Some(dir) = skills_dir {
            lines.push(String::new());
            lines.extend(crate::views::folder::lines(&crate::views::folder::folder(catalog, &frameworks, dir), &catalog.roots));
        }
        let title = format!("{} as every tool reads it", crate::text::sanitize::line(&crate::views::shown(&path, &catalog.roots)));
        self.report = Some(ReportOverlay { title, lines, scroll: 0 });
    }

    fn open_listing(&mut self) {
        let Some(catalog) = self.catalog() else { return };
        let report = crate::views::listing::listing(catalog, &crate::frameworks::loaded_in(catalog));
        let lines = crate::views::listing::lines(&report, &catalog.roots);
        self.report = Some(ReportOverlay { title: "what each tool lists to its model".into(), lines, scroll: 0 });
    }

    fn back(&mut self) -> Option<Effect> {
        if self.help.is_some() {
            self.help = None;
        } else if self.report.is_some() {
            self.report = None;
        } else if self.diff.is_some() {
            self.diff = None;
        } else if self.finder.is_some() {
            return self.apply(Action::FinderCancel);
        } else if self.filter.is_some() {
            self.filter = None;
            self.rebuild_rows();
        } else {
            self.quit = true;
            return Some(Effect::Quit);
        }
        None
    }

    fn page(&self, pane: Pane) -> usize {
        layout::compute(self.size, pane).map(|a| a.inner_height(pane)).unwrap_or(1).max(2) - 1
    }

    fn navigate(&mut self, action: Action) {
        let page = self.page(self.focus) as isize;
        let delta: isize = match action {
            Action::Up => -1,
            Action::Down => 1,
            Action::PageUp => -page,
            Action::PageDown => page,
            Action::Top => isize::MIN / 2,
            _ => isize::MAX / 2,
        };
        if let Some(help) = &mut self.help {
            *help = help.saturating_add_signed(delta).min(self.keymap.rows.len());
            return;
        }
        if let Some(r) = &mut self.report {
            r.scroll = r.scroll.saturating_add_signed(delta).min(r.lines.len().saturating_sub(1));
            return;
        }
        if let Some(d) = &mut self.diff {
            d.scroll = d.scroll.saturating_add_signed(delta).min(d.view.as_ref().map_or(0, |v| v.len(d.side_by_side)));
            return;
        }
        self.move_in(self.focus, delta);
    }

    fn move_in(&mut self, pane: Pane, delta: isize) {
        let clamp = |cursor: usize, len: usize| cursor.saturating_add_signed(delta).min(len.saturating_sub(1));
        match pane {
            Pane::Agents => self.move_list(delta),
            Pane::Sources => {
                let len = self.selected_agent().and_then(|n| self.index.as_ref().map(|i| i.sources_of(n).len()));
                self.sources.cursor = clamp(self.sources.cursor, len.unwrap_or(0));
            }
            Pane::Inherit => {
                let len = self.agent().map_or(0, |a| a.fields.len());
                self.fields.cursor = clamp(self.fields.cursor, len);
            }
            Pane::Prompt => {
                let len = match self.agent().map(|a| self.texts.shown(a)) {
                    Some(Shown::Text(text)) => text.lines().count(),
                    _ => 0,
                };
                self.prompt_scroll = clamp(self.prompt_scroll, len);
            }
            Pane::Diagnostics => {
                let len = self.catalog().map_or(0, |c| c.diagnostics().count());
                self.diagnostics.cursor = clamp(self.diagnostics.cursor, len);
            }
        }
    }

    fn move_list(&mut self, delta: isize) {
        if self.rows.is_empty() {
            return;
        }
        self.list.cursor = self.list.cursor.saturating_add_signed(delta).min(self.rows.len() - 1);
        self.settle_cursor(delta >= 0);
        // At the first agent the headings above it come into view too (rows that
        // arrived above may have scrolled them off).
        if delta < 0 && !self.rows[..self.list.cursor].iter().any(|r| matches!(r, Row::Agent { .. })) {
            self.list.offset.set(0);
        }
    }

    fn activate(&mut self) -> Option<Effect> {
        match self.focus {
            Pane::Diagnostics => {
                let target = {
                    let index = self.index.as_ref()?;
                    let d = index.catalog.diagnostics().nth(self.diagnostics.cursor)?;
                    index.agent_of_diagnostic(d).map(|n| index.agent(n).id())
                };
                match target {
                    Some(id) => {
                        self.select(&id);
                        self.focus = Pane::Agents;
                    }
                    None => self.notice = Some("no agent was loaded from that file".into()),
                }
            }
            Pane::Sources => {
                let index = self.index.as_ref()?;
                let n = *index.sources_of(self.selected_agent()?).get(self.sources.cursor)?;
                let id = index.agent(n).id();
                self.select(&id);
            }
            Pane::Agents => self.focus = Pane::Inherit,
            _ => {}
        }
        None
    }

    /// `d`: the winner of the selected name against the selected definition when it
    /// is not the winner, else against the first other one.
    fn open_diff(&mut self) -> Option<Effect> {
        let index = self.index.as_ref()?;
        let n = self.selected_agent()?;
        let sources = index.sources_of(n);
        let winner = sources.iter().copied().find(|&o| index.agent(o).status.is_active());
        let Some(winner) = winner else {
            self.notice = Some("no definition of this name wins; nothing to compare".into());
            return None;
        };
        let others: Vec<String> = sources.iter().filter(|&&o| o != winner).map(|&o| index.agent(o).id()).collect();
        if others.is_empty() {
            self.notice = Some("only one definition of this name; nothing to compare".into());
            return None;
        }
        let current =
            if n == winner { 0 } else { others.iter().position(|id| *id == index.agent(n).id()).unwrap_or(0) };
        let winner = index.agent(winner).id();
        let effect = Effect::OpenDiff { winner: winner.clone(), other: others[current].clone() };
        self.help = None;
        self.diff = Some(DiffState { winner, others, current, side_by_side: false, scroll: 0, view: None });
        Some(effect)
    }

    /// The selected definition against the same file as each other framework reads
    /// it (`]`/`[` step through them): one file's two readings, field by field.
    fn open_readings_diff(&mut self) -> Option<Effect> {
        let index = self.index.as_ref()?;
        let n = self.selected_agent()?;
        let a = index.agent(n);
        let others: Vec<String> = (0..index.agents.len())
            .map(|o| index.agent(o))
            .filter(|b| b.ecosystem != a.ecosystem && !a.source.is_compiled_in() && b.source.path == a.source.path)
            .map(|b| b.id())
            .collect();
        if others.is_empty() {
            self.notice = Some("no other tool reads this file as an agent".into());
            return None;
        }
        let winner = a.id();
        let effect = Effect::OpenDiff { winner: winner.clone(), other: others[0].clone() };
        self.help = None;
        self.diff = Some(DiffState { winner, others, current: 0, side_by_side: false, scroll: 0, view: None });
        Some(effect)
    }

    fn step_diff(&mut self, forward: bool) -> Option<Effect> {
        let d = self.diff.as_mut()?;
        let len = d.others.len();
        d.current = if forward { (d.current + 1) % len } else { (d.current + len - 1) % len };
        d.scroll = 0;
        d.view = None;
        Some(Effect::OpenDiff { winner: d.winner.clone(), other: d.others[d.current].clone() })
    }

    /// The driver's answer to [`Effect::OpenDiff`].
    pub fn set_diff_view(&mut self, winner: &str, other: &str, view: DiffView) {
        if let Some(d) = &mut self.diff {
            if d.winner == winner && d.other() == Some(other) {
                d.view = Some(view);
            }
        }
    }

    /// The file and line `e` opens: the selected field's first site in the
    /// inheritance pane, the diagnostic's position in the diagnostics pane, else
    /// the agent's file.
    fn edit_target(&self) -> Option<(std::path::PathBuf, Option<u32>)> {
        let index = self.index.as_ref()?;
        if self.focus == Pane::Diagnostics {
            let d = index.catalog.diagnostics().nth(self.diagnostics.cursor)?;
            return Some((d.path.clone(), d.line));
        }
        let n = self.selected_agent()?;
        let agent = index.agent(n);
        if self.focus == Pane::Sources {
            let o = *index.sources_of(n).get(self.sources.cursor)?;
            return Some((index.agent(o).source.path.to_path_buf(), None));
        }
        if self.focus == Pane::Inherit {
            let field = agent.fields.get(self.fields.cursor);
            if let Some(site) = field.as_ref().and_then(|f| f.origin.sites.first()) {
                let path = index
                    .by_source_key(agent.ecosystem, &site.source)
                    .map(|o| index.agent(o).source.path.clone())
                    .unwrap_or_else(|| agent.source.path.clone());
                return Some((path.to_path_buf(), site.line));
            }
        }
        let line = agent.attributes.lines().map(|(_, line)| line).min();
        Some((agent.source.path.to_path_buf(), line))
    }

    pub fn on_mouse(&mut self, mouse: MouseEvent) -> Option<Effect> {
        self.touched = true;
        if self.help.is_some() || self.diff.is_some() {
            match mouse.kind {
                MouseEventKind::ScrollDown => (0..WHEEL_STEP).for_each(|_| self.navigate(Action::Down)),
                MouseEventKind::ScrollUp => (0..WHEEL_STEP).for_each(|_| self.navigate(Action::Up)),
                _ => {}
            }
            return None;
        }
        let areas = layout::compute(self.size, self.focus)?;
        if let Some(tabs) = areas.tabs {
            if mouse.row == tabs.y && matches!(mouse.kind, MouseEventKind::Down(MouseButton::Left)) {
                if let Some(pane) = super::panes::tab_at(mouse.column.saturating_sub(tabs.x)) {
                    self.focus = pane;
                }
                return None;
            }
        }
        let pane = areas.pane_at(mouse.column, mouse.row)?;
        match mouse.kind {
            MouseEventKind::ScrollDown => self.move_in(pane, WHEEL_STEP as isize),
            MouseEventKind::ScrollUp => self.move_in(pane, -(WHEEL_STEP as isize)),
            MouseEventKind::Down(MouseButton::Left) => {
                self.focus = pane;
                let rect = areas.pane(pane)?;
                let line = mouse.row.checked_sub(rect.y + 1)? as usize;
                if line + 2 > rect.height as usize {
                    return None;
                }
                match pane {
                    Pane::Agents => {
                        let row = self.list.offset.get() + line;
                        if row < self.rows.len() {
                            self.list.cursor = row;
                            self.settle_cursor(true);
                        }
                    }
                    Pane::Diagnostics => {
                        let row = self.diagnostics.offset.get() + line;
                        if row < self.catalog().map_or(0, |c| c.diagnostics().count()) {
                            self.diagnostics.cursor = row;
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        None
    }
}
