//! What is drawn over the panes: the help overlay and the finder's query line.

pub mod finder;
pub mod help;
pub mod report;
