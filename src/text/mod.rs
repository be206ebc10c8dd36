//! Text from files, made safe to show.

pub mod natural;
pub mod sanitize;
