//! agentry's integration tests, linked into one binary (`it`) as ripgrep and helix
//! do: each former `tests/<name>.rs` is a module here, `support` (shared helpers and
//! the pseudo-terminal driver) is compiled once, and `cargo test` links one test
//! program instead of forty, each of which linked the whole crate.
//!
//! **Adding tests.** Put them in `tests/it/<name>.rs` and add `mod <name>;` below, in
//! name order. Write the file as a module, not a crate: `use crate::support;` where a
//! standalone file had `mod support;`, no `#![…]` crate attributes, and paths from
//! `env!("CARGO_MANIFEST_DIR")` (as `support::fixtures()` does) rather than relative to
//! the file. Every test of the binary shares one process: a scratch folder is named
//! after its module as well as the process (`support::Scratch::new("<name>-…")`), and no
//! test sets environment variables or changes the working folder (pass them to the
//! child process or into `LoadOptions` instead). Run one module with
//! `cargo test --test it <name>::`, one test with `cargo test --test it <test_name>`.
//! Snapshots (insta) live beside the module that asserts them, named
//! `it__<module path>__<name>.snap`.

mod support;

mod agentcard_rfc;
mod bad_inputs;
mod claude_code_release;
mod cli;
mod cli_diff;
mod codex_explorer;
mod codex_origins;
mod conformance;
mod copilot_yaml_goldens;
mod demo;
mod first_check;
mod first_hour;
mod fuzz_corpus;
mod imports;
mod gemini_qwen_skills;
mod incremental;
mod incremental_every_framework;
mod inert_text;
mod installed;
mod install;
mod jinja_tsugite;
mod kimi;
mod kimi_code_shared_folder;
mod kimi_code_yaml;
mod loader;
mod loader_reuse;
#[cfg(unix)]
mod npm_package;
mod one_file_many_tools;
mod opencode;
mod places;
mod pyyaml_goldens;
mod qwen_code;
mod qwen_code_yaml;
mod read_only;
mod refusal;
#[cfg(unix)]
mod release;
mod releases;
mod screenshot;
mod skills;
mod texts_on_disk;
mod tool_word;
mod toy_framework;
mod tsugite_inherit;
mod tui;
mod tui_e2e;
mod tui_live;
mod tui_texts;
mod views;
mod why_name_rule;
