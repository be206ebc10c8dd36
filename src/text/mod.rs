//! Text from files, made safe to show.

pub mod js;
pub mod natural;
pub mod sanitize;
