//! `agentry diff NAME [--against SOURCE]`: the winner of a name against another
//! definition of it, in three sections — the effective fields, the two files as
//! text, the two rendered prompts. Plain `diff -u` text by default (what a pipe
//! gets), ANSI colours with word-level emphasis on a terminal, two columns with
//! `--side-by-side`, the diff values as JSON with `--json`.
//!
//! The old side is always the other definition, the new side the winner. Every
//! string from a file passes [`sanitize`] before it is printed as text.

use std::io::{self, Write};
use std::path::Path;

use serde_json::{json, Value as Json};

use super::exit;
use super::output::{json_out, SCHEMA};
use crate::diff::{self, Change, DiffLine, FieldChange, Hunk, TextDiff};
use crate::discover::{FileCache, Hold};
use crate::model::{Agent, Catalog, Status};
use crate::text::sanitize;

/// How the text is laid out.
pub struct Style {
    pub colour: bool,
    pub side_by_side: bool,
    pub context: usize,
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
/// Changed words inside a changed line: reverse video on top of the line's colour.
const EMPHASIS: &str = "\x1b[7m";

/// The pair to compare, or the reason there is none.
fn choose<'a>(catalog: &'a Catalog, name: &str, against: Option<&str>) -> Result<(&'a Agent, &'a Agent), String> {
    let all: Vec<&Agent> = catalog.agents().filter(|a| a.name == name).collect();
    if all.is_empty() {
        return Err(format!("no agent or skill named `{}`", sanitize::line(name)));
    }
    // An agent and a skill may share the name: a winner is one of the same tool and kind.
    let winner_of = |other: &Agent| {
        all.iter().copied().find(|a| a.ecosystem == other.ecosystem && a.kind == other.kind && a.status == Status::Wins)
    };
    if let Some(s) = against {
        let other = all
            .iter()
            .copied()
            .find(|a| a.source.key() == s || *a.source.path == *Path::new(s) || a.source.rel == s)
            .ok_or_else(|| {
                let keys: Vec<String> = all.iter().map(|a| sanitize::line(&a.source.key()).into_owned()).collect();
                format!(
                    "`{}` has no definition at `{}` (its sources: {})",
                    sanitize::line(name),
                    sanitize::line(s),
                    keys.join(", ")
                )
            })?;
        let winner = winner_of(other)
            .ok_or_else(|| format!("`{}` has no winning definition in {}", sanitize::line(name), other.ecosystem))?;
        if std::ptr::eq(winner, other) {
            return Err(format!("`{}` is the winner itself; name a shadowed definition", sanitize::line(s)));
        }
        return Ok((winner, other));
    }
    for winner in all.iter().copied().filter(|a| a.status == Status::Wins) {
        let other = all
            .iter()
            .copied()
            .find(|a| a.ecosystem == winner.ecosystem && a.kind == winner.kind && matches!(a.status, Status::Shadowed | Status::Equivalent));
        if let Some(other) = other {
            return Ok((winner, other));
        }
    }
    Err(format!("`{}` has no shadowed definition to compare with its winner", sanitize::line(name)))
}

/// A definition's file text for diffing; a file that cannot be read shows as the
/// reason, and an agent compiled into the tool has no file (empty text).
fn file_text(a: &Agent) -> String {
    if a.source.is_compiled_in() {
        return String::new();
    }
    let path: &Path = &a.source.path;
    match FileCache::new().read(path, Hold::Kept) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => format!("<cannot read {}: {e}>\n", path.display()),
    }
}

/// How a definition is named in the diff: its path as every view prints one (the
/// project's relative, home's `~/…`), or for an agent compiled into the tool its
/// source key.
fn label(a: &Agent, roots: &crate::model::Roots) -> String {
    if a.source.is_compiled_in() {
        return a.source.key();
    }
    let mut shown = crate::views::shown(&a.source.path, roots);
    if let Some(card) = &a.source.card {
        shown = format!("{shown}#{card}");
    }
    shown
}

/// How a definition's file is named in the file diff.
fn file_label(a: &Agent, roots: &crate::model::Roots) -> String {
    if a.source.is_compiled_in() {
        format!("{} (compiled into the tool, no file)", a.source.key())
    } else {
        label(a, roots)
    }
}

/// What the model reads from a definition ([`AgentRecord::model_text`](crate::model::AgentRecord::model_text)), empty when unknown;
/// a prompt that cannot be read shows as the reason.
fn model_text(a: &Agent) -> String {
    match a.model_text() {
        Ok(text) => text.unwrap_or_default(),
        Err(e) => format!("<{e}>\n"),
    }
}

/// Everything compared, in the order it is printed.
struct Report<'a> {
    roots: &'a crate::model::Roots,
    winner: &'a Agent,
    other: &'a Agent,
    fields: Vec<FieldChange>,
    file: TextDiff,
    prompt: TextDiff,
}

impl<'a> Report<'a> {
    fn new(winner: &'a Agent, other: &'a Agent, context: usize, roots: &'a crate::model::Roots) -> Self {
        let same_file = winner.source.path == other.source.path;
        let file = if same_file {
            TextDiff::default()
        } else {
            diff::text(&file_text(other), &file_text(winner), context)
        };
        let prompt = diff::text(&model_text(other), &model_text(winner), context);
        Report { roots, winner, other, fields: diff::fields(winner, other), file, prompt }
    }

    fn json(&self) -> Json {
        let side =
            |a: &Agent| json!({ "source": a.source.key(), "path": a.source.path, "status": a.status, "rule": a.rule });
        let text = |d: &TextDiff, old: &str, new: &str| json!({ "identical": d.is_empty(), "unified": diff::unified(old, new, d), "hunks": d.hunks });
        let (old_key, new_key) = (self.other.source.key(), self.winner.source.key());
        json!({
            "schema": SCHEMA,
            "name": self.winner.name,
            "tool": self.winner.ecosystem,
            "winner": side(self.winner),
            "other": side(self.other),
            "fields": self.fields,
            "file": text(&self.file, &file_label(self.other, self.roots), &file_label(self.winner, self.roots)),
            "prompt": text(&self.prompt, &format!("{old_key} (prompt)"), &format!("{new_key} (prompt)")),
        })
    }
}

pub fn diff(
    catalog: &Catalog,
    name: &str,
    against: Option<&str>,
    json: bool,
    style: &Style,
    out: &mut dyn Write,
) -> io::Result<i32> {
    let (winner, other) = match choose(catalog, name, against) {
        Ok(pair) => pair,
        Err(message) => {
            if json {
                json_out(out, &json!({ "schema": SCHEMA, "name": name, "error": message }))?;
            } else {
                writeln!(out, "{message}")?;
            }
            return Ok(exit::FINDINGS);
        }
    };
    let report = Report::new(winner, other, style.context, &catalog.roots);
    if json {
        json_out(out, &report.json())?;
        return Ok(exit::OK);
    }
    let printer = Printer { style, out };
    printer.write(&report)?;
    Ok(exit::OK)
}

/// One line of a section, before layout: what `DiffLine` is for text, built by hand
/// for the field section.
fn line(tag: Change, text: String) -> DiffLine {
    DiffLine { tag, old_no: None, new_no: None, segments: vec![(false, text)], no_newline: false }
}

/// A changed scalar as a `-`/`+` pair, the words that differ emphasised.
fn changed_pair(old: String, new: String) -> Vec<DiffLine> {
    let d = diff::text(&old, &new, 0);
    let lines: Vec<DiffLine> = d.hunks.into_iter().flat_map(|h| h.lines).collect();
    if lines.len() == 2 {
        return lines.into_iter().map(|l| DiffLine { old_no: None, new_no: None, no_newline: false, ..l }).collect();
    }
    vec![line(Change::Removed, old), line(Change::Added, new)]
}

/// The field section as diff lines: unchanged fields as context, a changed scalar as
/// a `-`/`+` pair, a changed list item by item (`  - item`), a changed object entry
/// by entry (`  key: value`). Each line says whether it belongs to a changed field
/// (the unchanged `key:` line above changed items does).
fn field_lines(fields: &[FieldChange], context: usize) -> Vec<(DiffLine, bool)> {
    let mut lines = Vec::new();
    let value = |v: &Option<Json>| v.as_ref().map(Json::to_string).unwrap_or_default();
    for f in fields {
        match f.change {
            Change::Same => lines.push((line(Change::Same, format!("{}: {}", f.key, value(&f.new))), false)),
            Change::Added => lines.push((line(Change::Added, format!("{}: {}", f.key, value(&f.new))), true)),
            Change::Removed => lines.push((line(Change::Removed, format!("{}: {}", f.key, value(&f.old))), true)),
            Change::Changed if f.items.is_empty() => {
                let pair =
                    changed_pair(format!("{}: {}", f.key, value(&f.old)), format!("{}: {}", f.key, value(&f.new)));
                lines.extend(pair.into_iter().map(|l| (l, true)));
            }
            Change::Changed => {
                lines.push((line(Change::Same, format!("{}:", f.key)), true));
                // Inside a long list or object, unchanged items far from a change
                // shrink to one `…` line.
                let changed: Vec<usize> = (0..f.items.len()).filter(|&i| f.items[i].change != Change::Same).collect();
                let mut skipping = false;
                for (i, item) in f.items.iter().enumerate() {
                    if !changed.iter().any(|&c| i.abs_diff(c) <= context) {
                        if !skipping {
                            lines.push((line(Change::Same, "  …".into()), true));
                        }
                        skipping = true;
                        continue;
                    }
                    skipping = false;
                    let text = match item.value.as_object().filter(|_| f.new.as_ref().is_some_and(Json::is_object)) {
                        Some(entry) => entry.iter().map(|(k, v)| format!("  {k}: {v}")).collect(),
                        None => format!("  - {}", item.value),
                    };
                    lines.push((line(item.change, text), true));
                }
            }
        }
    }
    lines
}

/// Groups field lines like hunks: unchanged fields more than `context` lines away
/// from a change are left out, and each run of kept lines is one group.
fn field_groups(lines: Vec<(DiffLine, bool)>, context: usize) -> Vec<Hunk> {
    let changed: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].1).collect();
    let keep = |i: usize| changed.iter().any(|&c| i.abs_diff(c) <= context);
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut open = false;
    for (i, (l, _)) in lines.into_iter().enumerate() {
        if !keep(i) {
            open = false;
            continue;
        }
        if !open {
            hunks.push(Hunk { old_start: 1, new_start: 1, lines: Vec::new() });
            open = true;
        }
        if let Some(h) = hunks.last_mut() {
            h.lines.push(l);
        }
    }
    hunks
}

struct Printer<'a, 'w> {
    style: &'a Style,
    out: &'w mut dyn Write,
}

impl Printer<'_, '_> {
    fn write(mut self, r: &Report) -> io::Result<()> {
        let (old_key, new_key) = (label(r.other, r.roots), label(r.winner, r.roots));
        self.comment(&format!(
            "{} ({}): {} {} against {} {}",
            r.winner.name,
            r.winner.ecosystem,
            new_key,
            r.winner.status.word(),
            old_key,
            r.other.status.word()
        ))?;
        self.comment(&format!("why: {}", crate::views::quoted(&r.other.rule, r.roots)))?;

        let groups = field_groups(field_lines(&r.fields, self.style.context), self.style.context);
        if groups.is_empty() {
            self.comment("fields: identical")?;
        } else {
            self.section(&format!("{old_key} (fields)"), &format!("{new_key} (fields)"), &groups, false)?;
        }

        if r.winner.source.path == r.other.source.path {
            self.comment("file: both definitions are in the same file")?;
        } else if r.file.is_empty() {
            self.comment("file: identical")?;
        } else {
            let (old, new) = (file_label(r.other, r.roots), file_label(r.winner, r.roots));
            self.section(&old, &new, &r.file.hunks, true)?;
        }

        let unknown = |a: &Agent| a.system_prompt.is_none() && a.messages.is_empty();
        match (unknown(r.other), unknown(r.winner)) {
            (true, true) => self.comment("prompt: not known without running the agent")?,
            _ if r.prompt.is_empty() => self.comment("prompt: identical")?,
            _ => self.section(&format!("{old_key} (prompt)"), &format!("{new_key} (prompt)"), &r.prompt.hunks, true)?,
        }
        Ok(())
    }

    fn paint(&self, colour: &str, text: &str) -> String {
        if self.style.colour {
            format!("{colour}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    fn comment(&mut self, text: &str) -> io::Result<()> {
        let text = format!("# {}", sanitize::line(text));
        let painted = self.paint(BOLD, &text);
        writeln!(self.out, "{painted}")
    }

    /// One `---`/`+++` section. `numbered` hunks get `@@ -a,b +c,d @@` headers; the
    /// field section has no line numbers and gets a bare `@@ fields @@`.
    fn section(&mut self, old: &str, new: &str, hunks: &[Hunk], numbered: bool) -> io::Result<()> {
        let head = format!("--- {}\n+++ {}", sanitize::line(old), sanitize::line(new));
        let painted = self.paint(BOLD, &head);
        writeln!(self.out, "{painted}")?;
        for h in hunks {
            let header = if numbered { h.header() } else { "@@ fields @@".to_string() };
            let painted = self.paint(CYAN, &header);
            writeln!(self.out, "{painted}")?;
            if self.style.side_by_side {
                self.columns(&h.lines)?;
            } else {
                for l in &h.lines {
                    self.unified_line(l)?;
                }
            }
        }
        Ok(())
    }

    fn line_colour(tag: Change) -> &'static str {
        match tag {
            Change::Added => GREEN,
            Change::Removed => RED,
            _ => "",
        }
    }

    /// The segments of a line, sanitised, with emphasis when colouring.
    fn segments(&self, l: &DiffLine) -> String {
        let base = Self::line_colour(l.tag);
        let mut s = String::new();
        for (emphasised, text) in &l.segments {
            let text = sanitize::line(text);
            if self.style.colour && *emphasised && l.tag != Change::Same {
                s.push_str(&format!("{EMPHASIS}{text}{RESET}{base}"));
            } else {
                s.push_str(&text);
            }
        }
        s
    }

    fn unified_line(&mut self, l: &DiffLine) -> io::Result<()> {
        let text = format!("{}{}", l.tag.sign(), self.segments(l));
        let colour = Self::line_colour(l.tag);
        let painted = if colour.is_empty() { text } else { self.paint(colour, &text) };
        writeln!(self.out, "{painted}")?;
        if l.no_newline {
            writeln!(self.out, "\\ No newline at end of file")?;
        }
        Ok(())
    }

    /// Two columns: removed lines on the left paired with the added lines that
    /// replace them on the right, context on both sides.
    fn columns(&mut self, lines: &[DiffLine]) -> io::Result<()> {
        let width = terminal_width();
        let cell = width.saturating_sub(3) / 2;
        let mut i = 0;
        while i < lines.len() {
            if lines[i].tag == Change::Same {
                let l = &lines[i];
                self.row(Some(l), Some(l), cell)?;
                i += 1;
                continue;
            }
            let removed: Vec<&DiffLine> = lines[i..].iter().take_while(|l| l.tag == Change::Removed).collect();
            let after = i + removed.len();
            let added: Vec<&DiffLine> = lines[after..].iter().take_while(|l| l.tag == Change::Added).collect();
            for k in 0..removed.len().max(added.len()) {
                self.row(removed.get(k).copied(), added.get(k).copied(), cell)?;
            }
            i = after + added.len();
        }
        Ok(())
    }

    fn row(&mut self, left: Option<&DiffLine>, right: Option<&DiffLine>, cell: usize) -> io::Result<()> {
        let l = self.cell(left, left.and_then(|l| l.old_no), cell);
        let r = self.cell(right, right.and_then(|l| l.new_no), cell);
        let mark = match (left.map(|l| l.tag), right.map(|l| l.tag)) {
            (Some(Change::Same), Some(Change::Same)) => ' ',
            (Some(_), Some(_)) => '|',
            (Some(_), None) => '<',
            _ => '>',
        };
        let text = format!("{l} {mark} {r}");
        writeln!(self.out, "{}", text.trim_end())
    }

    /// A column cell of exactly `width` characters (cut with `…` when longer).
    fn cell(&self, l: Option<&DiffLine>, number: Option<usize>, width: usize) -> String {
        let Some(l) = l else { return " ".repeat(width) };
        let prefix = match number {
            Some(n) => format!("{n:>4} "),
            None => String::new(),
        };
        let budget = width.saturating_sub(prefix.chars().count());
        let base = Self::line_colour(l.tag);
        let mut used = 0;
        let mut body = String::new();
        for (emphasised, text) in &l.segments {
            let text = sanitize::line(text);
            let room = budget.saturating_sub(used);
            let count = text.chars().count();
            let shown: String = if count > room {
                text.chars().take(room.saturating_sub(1)).chain(std::iter::once('…')).collect()
            } else {
                text.into_owned()
            };
            used += shown.chars().count();
            if self.style.colour && *emphasised && l.tag != Change::Same {
                body.push_str(&format!("{EMPHASIS}{shown}{RESET}{base}"));
            } else {
                body.push_str(&shown);
            }
            if count > room {
                break;
            }
        }
        let pad = " ".repeat(budget.saturating_sub(used));
        if self.style.colour && !base.is_empty() {
            format!("{prefix}{base}{body}{RESET}{pad}")
        } else {
            format!("{prefix}{body}{pad}")
        }
    }
}

/// Columns for side-by-side output: `$COLUMNS` when set (shells export it to
/// terminals), else 160.
fn terminal_width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()).filter(|w: &usize| *w >= 40).unwrap_or(160)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{EcosystemReport, Field, FieldOrigin, Roots, Scope, Source};
    use std::path::PathBuf;

    struct Files(PathBuf);

    impl Drop for Files {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn agent(root: &Path, scope: Scope, rel: &str, status: Status, fields: &[(&str, Json)], prompt: &str) -> Agent {
        let rule = "the project is searched before the home folder".into();
        crate::model::AgentRecord {
            chain: Default::default(),
            fields: fields
                .iter()
                .map(|(k, v)| Field::new(k.to_string(), v.clone(), FieldOrigin::default("test")))
                .collect(),
            system_prompt: Some(prompt.into()),
            ..crate::model::AgentRecord::new("openhands", "reviewer".into(), Source::new(scope, root, root.join(rel)), status, rule)
        }
        .into()
    }

    /// A project winner and a user definition it shadows, with their files.
    fn workspace(tag: &str) -> (Files, Catalog) {
        let root = std::env::temp_dir().join(format!("agentry-clidiff-{tag}-{}", std::process::id()));
        let (project, home) = (root.join("p"), root.join("h"));
        std::fs::create_dir_all(project.join(".agents/agents")).unwrap();
        std::fs::create_dir_all(home.join(".agents/agents")).unwrap();
        std::fs::write(
            project.join(".agents/agents/reviewer.md"),
            "---\nmodel: opus\ntools: [read, bash]\n---\nReview pull requests carefully.\n",
        )
        .unwrap();
        std::fs::write(
            home.join(".agents/agents/reviewer.md"),
            "---\nmodel: sonnet\ntools: [read, edit]\ncolor: red\n---\nReview code \x1b]52;c;aGk=\x07quickly.\n",
        )
        .unwrap();
        let mut report = EcosystemReport::new("openhands");
        report.agents.push(agent(
            &project,
            Scope::Project,
            ".agents/agents/reviewer.md",
            Status::Wins,
            &[("model", json!("opus")), ("tools", json!(["read", "bash"]))],
            "Review pull requests carefully.",
        ));
        report.agents.push(agent(
            &home,
            Scope::User,
            ".agents/agents/reviewer.md",
            Status::Shadowed,
            &[("model", json!("sonnet")), ("tools", json!(["read", "edit"])), ("color", json!("red"))],
            "Review code \x1b]52;c;aGk=\x07quickly.",
        ));
        let catalog = Catalog {
            generation: 1,
            roots: Roots::new(project, home.clone(), home.join(".config"), None),
            reports: vec![std::sync::Arc::new(report)],
        };
        (Files(root), catalog)
    }

    fn run(catalog: &Catalog, against: Option<&str>, json: bool, style: Style) -> (i32, String) {
        let mut out = Vec::new();
        let code = diff(catalog, "reviewer", against, json, &style, &mut out).unwrap();
        (code, String::from_utf8(out).unwrap())
    }

    const PLAIN: Style = Style { colour: false, side_by_side: false, context: 3 };

    #[test]
    fn plain_output_is_a_unified_diff_with_escapes_made_inert() {
        let (files, catalog) = workspace("plain");
        let (code, text) = run(&catalog, None, false, PLAIN);
        assert_eq!(code, exit::OK);
        // Every path as the views print one: the project's relative, home's `~/…`.
        let _ = files;
        let expected = String::from(
            "# reviewer (openhands): .agents/agents/reviewer.md WINS against ~/.agents/agents/reviewer.md SHADOWED
# why: the project is searched before the home folder
--- ~/.agents/agents/reviewer.md (fields)
+++ .agents/agents/reviewer.md (fields)
@@ fields @@
-model: \"sonnet\"
+model: \"opus\"
 tools:
   - \"read\"
-  - \"edit\"
+  - \"bash\"
-color: \"red\"
--- ~/.agents/agents/reviewer.md
+++ .agents/agents/reviewer.md
@@ -1,6 +1,5 @@
 ---
-model: sonnet
-tools: [read, edit]
-color: red
+model: opus
+tools: [read, bash]
 ---
-Review code ^[]52;c;aGk=^Gquickly.
+Review pull requests carefully.
--- ~/.agents/agents/reviewer.md (prompt)
+++ .agents/agents/reviewer.md (prompt)
@@ -1 +1 @@
-Review code ^[]52;c;aGk=^Gquickly.
\\ No newline at end of file
+Review pull requests carefully.
\\ No newline at end of file
",
        );
        assert_eq!(text, expected);
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn colour_marks_lines_and_changed_words_but_never_passes_file_escapes() {
        let (_files, catalog) = workspace("colour");
        let (_, text) = run(&catalog, None, false, Style { colour: true, ..PLAIN });
        assert!(text.contains(
            &format!("{RED}-model: sonnet{RESET}").replace("sonnet", &format!("{EMPHASIS}sonnet{RESET}{RED}"))
        ));
        assert!(text.contains(&format!("{GREEN}+")));
        // The only ESC bytes are the ones agentry writes: each starts a known SGR code.
        for (i, _) in text.match_indices('\x1b') {
            let rest = &text[i..];
            assert!([RESET, BOLD, RED, GREEN, CYAN, EMPHASIS].iter().any(|c| rest.starts_with(c)), "{rest:.20?}");
        }
        assert!(text.contains("^[]52;c;aGk=^G"));
    }

    #[test]
    fn side_by_side_pairs_removed_and_added_lines() {
        let (_files, catalog) = workspace("columns");
        let (_, text) = run(&catalog, None, false, Style { side_by_side: true, ..PLAIN });
        let row = text.lines().find(|l| l.contains("model: sonnet")).expect("a model row");
        assert!(row.contains(" | ") && row.contains("model: opus"), "{row}");
        let gone = text.lines().find(|l| l.contains("color: red") && l.contains("   4 ")).expect("a color row");
        assert!(gone.trim_end().ends_with('<'), "{gone}");
    }

    #[test]
    fn the_prompt_section_includes_the_other_messages() {
        let (_files, mut catalog) = workspace("messages");
        let message = |text: &str| crate::model::Message { role: "user".into(), label: None, text: text.into() };
        std::sync::Arc::make_mut(&mut catalog.reports[0]).agents[0].messages = std::sync::Arc::new([message("Review branch <user prompt>.")]);
        std::sync::Arc::make_mut(&mut catalog.reports[0]).agents[1].messages = std::sync::Arc::new([message("Review <user prompt>.")]);
        let (_, text) = run(&catalog, None, false, PLAIN);
        let prompt = &text[text.find("(prompt)").expect("a prompt section")..];
        assert!(prompt.contains(" --- user message ---\n-Review <user prompt>.\n"), "{prompt}");
        assert!(prompt.contains("+Review branch <user prompt>.\n"), "{prompt}");
    }

    #[test]
    fn json_carries_field_and_text_diffs() {
        let (_files, catalog) = workspace("json");
        let (_, text) = run(&catalog, Some("user:.agents/agents/reviewer.md"), true, PLAIN);
        let v: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(v["winner"]["source"], "project:.agents/agents/reviewer.md");
        assert_eq!(v["other"]["status"], "SHADOWED");
        assert_eq!(
            v["fields"][0],
            json!({"key": "model", "change": "changed", "old": "sonnet", "new": "opus", "items": []})
        );
        assert_eq!(v["fields"][2]["change"], "removed");
        assert_eq!(v["file"]["identical"], false);
        assert!(v["prompt"]["unified"].as_str().unwrap().contains("+Review pull requests carefully."));
    }

    #[test]
    fn unchanged_fields_far_from_a_change_are_left_out() {
        let change = |key: &str, change, old: Option<Json>, new: Option<Json>| FieldChange {
            key: key.into(),
            change,
            items: match (&old, &new) {
                (Some(o), Some(n)) if change == Change::Changed => {
                    let w = agent(Path::new("/"), Scope::Project, "w", Status::Wins, &[("k", n.clone())], "");
                    let x = agent(Path::new("/"), Scope::Project, "x", Status::Shadowed, &[("k", o.clone())], "");
                    crate::diff::fields(&w, &x).remove(0).items
                }
                _ => Vec::new(),
            },
            old,
            new,
        };
        let fields = vec![
            change("a", Change::Same, Some(json!(1)), Some(json!(1))),
            change("b", Change::Same, Some(json!(2)), Some(json!(2))),
            change("kwargs", Change::Changed, Some(json!({})), Some(json!({"temperature": 0.2}))),
            change("c", Change::Same, Some(json!(3)), Some(json!(3))),
            change("d", Change::Same, Some(json!(4)), Some(json!(4))),
            change("e", Change::Same, Some(json!(5)), Some(json!(5))),
            change("model", Change::Changed, Some(json!("gpt-4o mini")), Some(json!("gpt-4o large"))),
        ];
        let groups = field_groups(field_lines(&fields, 1), 1);
        let text: Vec<Vec<String>> = groups
            .iter()
            .map(|h| h.lines.iter().map(|l| format!("{}{}", l.tag.sign(), l.content())).collect())
            .collect();
        assert_eq!(
            text,
            [
                vec![" b: 2", " kwargs:", "+  temperature: 0.2", " c: 3"],
                vec![" e: 5", "-model: \"gpt-4o mini\"", "+model: \"gpt-4o large\""],
            ]
        );
        let emphasised: Vec<&str> =
            groups[1].lines[2].segments.iter().filter(|(e, _)| *e).map(|(_, s)| s.as_str()).collect();
        assert_eq!(emphasised, ["large"]);
    }

    #[test]
    fn unknown_names_and_sources_are_findings() {
        let (_files, catalog) = workspace("missing");
        let mut out = Vec::new();
        assert_eq!(diff(&catalog, "nobody", None, false, &PLAIN, &mut out).unwrap(), exit::FINDINGS);
        let (code, text) = run(&catalog, Some("user:nowhere.md"), false, PLAIN);
        assert_eq!(code, exit::FINDINGS);
        assert!(text.contains("its sources: project:.agents/agents/reviewer.md, user:.agents/agents/reviewer.md"));
        let (code, text) = run(&catalog, Some("project:.agents/agents/reviewer.md"), false, PLAIN);
        assert_eq!(code, exit::FINDINGS);
        assert!(text.contains("is the winner itself"));
    }
}
