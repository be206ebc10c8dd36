//! The one key table: every binding with its action, context and description. Input
//! dispatch, the `?` help overlay and README's key table are all made from
//! [`DEFAULTS`] (patched by the config's `[keys]`), so help can never drift from what
//! the keys do.

use std::collections::{BTreeMap, HashMap};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::Action;

/// Where a binding applies. `Global` keys work everywhere except in the finder's
/// query line, which takes every printable key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    Global,
    Panes,
    Diff,
    Finder,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "everywhere",
            Context::Panes => "panes",
            Context::Diff => "diff view",
            Context::Finder => "finder (/)",
        }
    }
}

/// One row of the key table.
pub struct Binding {
    pub action: Action,
    pub context: Context,
    pub keys: &'static [&'static str],
    pub description: &'static str,
}

const fn bind(action: Action, context: Context, keys: &'static [&'static str], description: &'static str) -> Binding {
    Binding { action, context, keys, description }
}

use Context::{Diff as D, Finder as F, Global as G, Panes as P};

/// The default bindings, in the order help lists them.
pub const DEFAULTS: &[Binding] = &[
    bind(Action::Quit, G, &["q", "ctrl-c"], "quit"),
    bind(Action::Back, G, &["esc"], "close overlay / clear filter / quit"),
    bind(Action::Help, G, &["?"], "this help"),
    bind(Action::Up, G, &["up", "k"], "move up / scroll up"),
    bind(Action::Down, G, &["down", "j"], "move down / scroll down"),
    bind(Action::PageUp, G, &["pageup", "ctrl-u"], "page up"),
    bind(Action::PageDown, G, &["pagedown", "ctrl-d"], "page down"),
    bind(Action::Top, G, &["home", "g"], "first line"),
    bind(Action::Bottom, G, &["end", "G"], "last line"),
    bind(Action::NextPane, P, &["tab", "l", "right"], "next pane"),
    bind(Action::PrevPane, P, &["backtab", "h", "left"], "previous pane"),
    bind(Action::Activate, P, &["enter"], "jump to the agent of a diagnostic / source"),
    bind(Action::Find, P, &["/"], "fuzzy finder over name, tool, path, description"),
    bind(Action::ToggleTree, P, &["t"], "toggle list / hierarchy tree"),
    bind(Action::Diff, P, &["d"], "diff the winner against a shadowed definition"),
    bind(Action::Edit, P, &["e"], "open $EDITOR at the file:line"),
    bind(Action::CopyPath, P, &["y"], "copy the path (OSC 52)"),
    bind(Action::Reload, P, &["r"], "reload the workspace"),
    bind(Action::ToggleByName, P, &["b"], "group by tool / by name (one name in every tool)"),
    bind(Action::FileView, P, &["f"], "the selected file as every tool reads it"),
    bind(Action::DiffReadings, P, &["x"], "diff the selected file's readings by two tools"),
    bind(Action::ToggleBuiltins, P, &["B"], "show / hide the tools' built-in agents"),
    bind(Action::CycleKind, P, &["K"], "show agents and skills / agents only / skills only"),
    bind(Action::Listing, P, &["L"], "what each tool lists to its model (agents, skills)"),
    bind(Action::NextAgainst, D, &["]", "n"], "compare with the next shadowed definition"),
    bind(Action::PrevAgainst, D, &["[", "p"], "compare with the previous shadowed definition"),
    bind(Action::ToggleSideBySide, D, &["s"], "unified / side by side"),
    bind(Action::FinderAccept, F, &["enter"], "keep the filter, select the match"),
    bind(Action::FinderCancel, F, &["esc"], "restore the list as it was"),
    bind(Action::FinderUp, F, &["up", "ctrl-p"], "previous match"),
    bind(Action::FinderDown, F, &["down", "ctrl-n"], "next match"),
    bind(Action::FinderBackspace, F, &["backspace"], "delete a character"),
    bind(Action::FinderClear, F, &["ctrl-u"], "clear the query"),
    bind(Action::Why, F, &["ctrl-w"], "why is the query missing? (enter, when nothing matches)"),
];

/// A key with its modifiers, normalised so `G` and `shift-g` are the same chord.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chord {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

impl Chord {
    pub fn from_event(key: &KeyEvent) -> Chord {
        let mut mods = key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match key.code {
            // Shift is already in the character (`G`, `?`); BackTab implies it.
            KeyCode::Char(c) => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::Char(if mods.contains(KeyModifiers::CONTROL) { c.to_ascii_lowercase() } else { c })
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            other => other,
        };
        Chord { code, mods }
    }

    /// Parses `q`, `G`, `ctrl-c`, `alt-x`, `shift-tab`, `enter`, `pageup`, `f1`, …
    pub fn parse(text: &str) -> Result<Chord, String> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = text;
        loop {
            let lower = rest.to_ascii_lowercase();
            let (prefix, m) = if lower.starts_with("ctrl-") {
                ("ctrl-", KeyModifiers::CONTROL)
            } else if lower.starts_with("alt-") {
                ("alt-", KeyModifiers::ALT)
            } else if lower.starts_with("shift-") && rest.len() > 6 {
                ("shift-", KeyModifiers::SHIFT)
            } else {
                break;
            };
            mods |= m;
            rest = &rest[prefix.len()..];
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => match rest.to_ascii_lowercase().as_str() {
                "esc" | "escape" => KeyCode::Esc,
                "enter" | "return" => KeyCode::Enter,
                "tab" if mods.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
                "tab" => KeyCode::Tab,
                "backtab" => KeyCode::BackTab,
                "backspace" => KeyCode::Backspace,
                "delete" | "del" => KeyCode::Delete,
                "space" => KeyCode::Char(' '),
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "pageup" => KeyCode::PageUp,
                "pagedown" => KeyCode::PageDown,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                f if f.starts_with('f') && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) => {
                    KeyCode::F(f[1..].parse().unwrap_or(1))
                }
                _ => return Err(format!("unknown key `{text}`")),
            },
        };
        let event = KeyEvent::new(code, mods);
        Ok(Chord::from_event(&event))
    }
}

/// One row of the effective table: a binding with its (possibly rebound) keys.
#[derive(Clone, Debug)]
pub struct Row {
    pub action: Action,
    pub context: Context,
    pub keys: Vec<String>,
    pub description: &'static str,
}

/// The effective keymap: the defaults with the config's rebindings applied.
#[derive(Clone, Debug)]
pub struct Keymap {
    pub rows: Vec<Row>,
    lookup: HashMap<(Context, Chord), Action>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap::new(&BTreeMap::new()).0
    }
}

impl Keymap {
    /// The defaults with `overrides` (action name → keys; an empty list unbinds)
    /// applied. Unknown actions and keys, and two actions on one key in one
    /// context, are reported; everything valid still applies.
    pub fn new(overrides: &BTreeMap<String, Vec<String>>) -> (Keymap, Vec<String>) {
        let mut problems = Vec::new();
        for name in overrides.keys() {
            if !DEFAULTS.iter().any(|b| b.action.name() == name) {
                problems.push(format!("[keys]: unknown action `{name}`"));
            }
        }
        let mut rows = Vec::new();
        let mut lookup = HashMap::new();
        for binding in DEFAULTS {
            let keys: Vec<String> = match overrides.get(binding.action.name()) {
                Some(keys) => keys.clone(),
                None => binding.keys.iter().map(|k| k.to_string()).collect(),
            };
            let mut valid = Vec::new();
            for key in keys {
                match Chord::parse(&key) {
                    Ok(chord) => {
                        if let Some(other) = lookup.insert((binding.context, chord), binding.action) {
                            problems.push(format!(
                                "[keys]: `{key}` is bound to both {} and {}; {} wins",
                                other.name(),
                                binding.action.name(),
                                binding.action.name()
                            ));
                        }
                        valid.push(key);
                    }
                    Err(e) => problems.push(format!("[keys] {}: {e}", binding.action.name())),
                }
            }
            rows.push(Row {
                action: binding.action,
                context: binding.context,
                keys: valid,
                description: binding.description,
            });
        }
        (Keymap { rows, lookup }, problems)
    }

    /// The action of a key in a context; outside the finder, global keys apply too.
    pub fn action(&self, context: Context, key: &KeyEvent) -> Option<Action> {
        let chord = Chord::from_event(key);
        if let Some(action) = self.lookup.get(&(context, chord)) {
            return Some(*action);
        }
        match context {
            Context::Finder => None,
            Context::Diff => self
                .lookup
                .get(&(Context::Global, chord))
                .or_else(|| self.lookup.get(&(Context::Panes, chord)))
                .copied(),
            _ => self.lookup.get(&(Context::Global, chord)).copied(),
        }
    }

    /// The first key of an action, for hints in the status bar.
    pub fn key_of(&self, action: Action) -> Option<&str> {
        self.rows.iter().find(|r| r.action == action).and_then(|r| r.keys.first()).map(String::as_str)
    }

    /// The key table as Markdown, for README.
    pub fn markdown(&self) -> String {
        let mut out = String::from("| context | keys | what it does | `[keys]` name |\n|---|---|---|---|\n");
        for row in &self.rows {
            let keys: Vec<String> = row.keys.iter().map(|k| format!("`{k}`")).collect();
            out.push_str(&format!(
                "| {} | {} | {} | `{}` |\n",
                row.context.title(),
                keys.join(" "),
                row.description,
                row.action.name()
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn default_keys_reach_their_actions_and_shifted_letters_normalise() {
        let km = Keymap::default();
        assert_eq!(km.action(Context::Panes, &key(KeyCode::Char('q'), KeyModifiers::NONE)), Some(Action::Quit));
        assert_eq!(km.action(Context::Panes, &key(KeyCode::Char('G'), KeyModifiers::SHIFT)), Some(Action::Bottom));
        assert_eq!(km.action(Context::Panes, &key(KeyCode::BackTab, KeyModifiers::SHIFT)), Some(Action::PrevPane));
        assert_eq!(km.action(Context::Panes, &key(KeyCode::Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
        // The finder's query line takes printable keys, not global ones.
        assert_eq!(km.action(Context::Finder, &key(KeyCode::Char('q'), KeyModifiers::NONE)), None);
        assert_eq!(km.action(Context::Finder, &key(KeyCode::Esc, KeyModifiers::NONE)), Some(Action::FinderCancel));
        assert_eq!(
            km.action(Context::Diff, &key(KeyCode::Char('s'), KeyModifiers::NONE)),
            Some(Action::ToggleSideBySide)
        );
    }

    #[test]
    fn overrides_rebind_unbind_and_report_problems() {
        let mut o = BTreeMap::new();
        o.insert("diff".to_string(), vec!["D".to_string()]);
        o.insert("help".to_string(), vec![]);
        o.insert("sparkle".to_string(), vec!["x".to_string()]);
        o.insert("reload".to_string(), vec!["ctrl-nope".to_string(), "t".to_string()]);
        let (km, problems) = Keymap::new(&o);
        assert_eq!(km.action(Context::Panes, &key(KeyCode::Char('D'), KeyModifiers::SHIFT)), Some(Action::Diff));
        assert_eq!(km.action(Context::Panes, &key(KeyCode::Char('d'), KeyModifiers::NONE)), None);
        assert_eq!(km.action(Context::Panes, &key(KeyCode::Char('?'), KeyModifiers::NONE)), None);
        assert!(problems.iter().any(|p| p.contains("sparkle")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("ctrl-nope")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("bound to both")), "{problems:?}");
        assert!(km.markdown().contains("| diff view | `]` `n` |"));
    }
}
