//! Where each pane goes. Wide terminals show every pane at once (agents and
//! diagnostics on the left; sources, inheritance and prompt on the right); narrow
//! ones show one pane at a time under a tab bar. The app uses the same function to
//! know pane heights (scrolling) and to hit-test mouse clicks, so what is drawn and
//! what is clicked always agree.

use ratatui::layout::{Constraint, Direction, Layout, Rect};

/// Below this the explorer shows only "terminal too small".
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 10;
/// From this width on, panes are side by side.
pub const WIDE: u16 = 120;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    Agents,
    Sources,
    Inherit,
    Prompt,
    Diagnostics,
}

/// Focus order for Tab.
pub const PANES: [Pane; 5] = [Pane::Agents, Pane::Sources, Pane::Inherit, Pane::Prompt, Pane::Diagnostics];

impl Pane {
    pub fn title(self) -> &'static str {
        match self {
            Pane::Agents => "Agents",
            Pane::Sources => "Sources",
            Pane::Inherit => "Inheritance",
            Pane::Prompt => "Prompt",
            Pane::Diagnostics => "Diagnostics",
        }
    }
}

/// The areas of one frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Areas {
    /// The tab bar, on narrow terminals.
    pub tabs: Option<Rect>,
    /// The visible panes and their areas (borders included).
    pub panes: Vec<(Pane, Rect)>,
    /// Overlays (diff, help) cover this.
    pub main: Rect,
    /// The bottom line: status, or the finder's query.
    pub status: Rect,
}

impl Areas {
    pub fn pane(&self, pane: Pane) -> Option<Rect> {
        self.panes.iter().find(|(p, _)| *p == pane).map(|(_, r)| *r)
    }

    /// Lines inside a pane's border.
    pub fn inner_height(&self, pane: Pane) -> usize {
        self.pane(pane).map(|r| r.height.saturating_sub(2) as usize).unwrap_or(0)
    }

    pub fn pane_at(&self, column: u16, row: u16) -> Option<Pane> {
        let hit = |r: &Rect| column >= r.x && column < r.x + r.width && row >= r.y && row < r.y + r.height;
        self.panes.iter().find(|(_, r)| hit(r)).map(|(p, _)| *p)
    }
}

/// The areas for a terminal of `size` with `focus` shown; `None` when it is too small.
pub fn compute(size: Rect, focus: Pane) -> Option<Areas> {
    if size.width < MIN_WIDTH || size.height < MIN_HEIGHT {
        return None;
    }
    let [main, status] = split(Direction::Vertical, size, [Constraint::Min(1), Constraint::Length(1)]);
    if size.width >= WIDE {
        let [left, right] =
            split(Direction::Horizontal, main, [Constraint::Percentage(45), Constraint::Percentage(55)]);
        let diag_height = (left.height / 4).clamp(3, 10);
        let [agents, diagnostics] =
            split(Direction::Vertical, left, [Constraint::Min(3), Constraint::Length(diag_height)]);
        let sources_height = (right.height / 5).clamp(3, 9);
        let [sources, inherit, prompt] = split(
            Direction::Vertical,
            right,
            [Constraint::Length(sources_height), Constraint::Percentage(45), Constraint::Min(3)],
        );
        let panes = vec![
            (Pane::Agents, agents),
            (Pane::Sources, sources),
            (Pane::Inherit, inherit),
            (Pane::Prompt, prompt),
            (Pane::Diagnostics, diagnostics),
        ];
        return Some(Areas { tabs: None, panes, main, status });
    }
    let [tabs, body] = split(Direction::Vertical, main, [Constraint::Length(1), Constraint::Min(1)]);
    Some(Areas { tabs: Some(tabs), panes: vec![(focus, body)], main, status })
}

fn split<const N: usize>(direction: Direction, area: Rect, constraints: [Constraint; N]) -> [Rect; N] {
    Layout::default().direction(direction).constraints(constraints).areas(area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shows_every_pane_narrow_one_and_tiny_none() {
        let wide = compute(Rect::new(0, 0, 160, 48), Pane::Agents).expect("wide");
        assert_eq!(wide.panes.len(), 5);
        assert!(wide.tabs.is_none());
        let narrow = compute(Rect::new(0, 0, 80, 24), Pane::Prompt).expect("narrow");
        assert_eq!(narrow.panes, vec![(Pane::Prompt, Rect::new(0, 1, 80, 22))]);
        assert_eq!(narrow.status, Rect::new(0, 23, 80, 1));
        assert!(compute(Rect::new(0, 0, 39, 24), Pane::Agents).is_none());
        assert!(compute(Rect::new(0, 0, 80, 3), Pane::Agents).is_none());
        assert_eq!(wide.pane_at(1, 1), Some(Pane::Agents));
    }
}
