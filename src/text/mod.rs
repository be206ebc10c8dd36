//! Text from files, made safe to show.

pub mod sanitize;
