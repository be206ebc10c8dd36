//! What the user can ask for, independent of the key that asked, and what the app
//! asks its driver to do in return (the only side effects the pure state has).

use std::path::PathBuf;

/// One user intent. The keymap turns keys into these; tests drive the app with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    /// Close the top overlay, else clear the filter, else quit.
    Back,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    NextPane,
    PrevPane,
    /// Enter: on a diagnostic, jump to its agent; on a source, select it.
    Activate,
    Find,
    ToggleTree,
    Diff,
    /// In the diff view: the next or previous shadowed definition to compare with.
    NextAgainst,
    PrevAgainst,
    ToggleSideBySide,
    Help,
    Edit,
    CopyPath,
    Reload,
    /// "Why is NAME missing?" for the finder's query ([`crate::views::why`]).
    Why,
    /// The selected definition's file as every framework reads it.
    FileView,
    /// Group the list by framework or by name (one name's definitions in every tool).
    ToggleByName,
    /// Diff the selected file as one tool reads it against another tool's reading.
    DiffReadings,
    /// Show or hide the tools' built-in agents in the list.
    ToggleBuiltins,
    /// Shows agents and skills, agents only, skills only.
    CycleKind,
    /// What each tool tells its model exists (its listings).
    Listing,
    // Finder: the query line has the keyboard; these are its own keys.
    FinderAccept,
    FinderCancel,
    FinderUp,
    FinderDown,
    FinderBackspace,
    FinderClear,
}

impl Action {
    /// The name used in the config's `[keys]` table (`diff = ["d"]`).
    pub fn name(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Back => "back",
            Action::Up => "up",
            Action::Down => "down",
            Action::PageUp => "page_up",
            Action::PageDown => "page_down",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::NextPane => "next_pane",
            Action::PrevPane => "prev_pane",
            Action::Activate => "activate",
            Action::Find => "find",
            Action::ToggleTree => "toggle_tree",
            Action::Diff => "diff",
            Action::NextAgainst => "next_against",
            Action::PrevAgainst => "prev_against",
            Action::ToggleSideBySide => "toggle_side_by_side",
            Action::Help => "help",
            Action::Edit => "edit",
            Action::CopyPath => "copy_path",
            Action::Reload => "reload",
            Action::Why => "why",
            Action::FileView => "file_view",
            Action::ToggleByName => "toggle_by_name",
            Action::DiffReadings => "diff_readings",
            Action::ToggleBuiltins => "toggle_builtins",
            Action::CycleKind => "cycle_kind",
            Action::Listing => "listing",
            Action::FinderAccept => "finder_accept",
            Action::FinderCancel => "finder_cancel",
            Action::FinderUp => "finder_up",
            Action::FinderDown => "finder_down",
            Action::FinderBackspace => "finder_backspace",
            Action::FinderClear => "finder_clear",
        }
    }
}

/// A side effect the driver performs for the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Quit,
    /// Suspend the terminal and open `$EDITOR` at the file and line.
    Edit {
        path: PathBuf,
        line: Option<u32>,
    },
    /// Put the text on the clipboard (OSC 52).
    Copy(String),
    /// Read both files and build the diff view (`Agent::id()`s of winner and other).
    OpenDiff {
        winner: String,
        other: String,
    },
    /// Ask the loader for a fresh snapshot.
    Reload,
}
