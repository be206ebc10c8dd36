//! fast-agent AgentCards (fast-agent-mcp 0.10.48), in two dialects of one module:
//! `fast-agent` (the released loader, the default) and `agentcard-rfc` (the AgentCard
//! RFC draft: bundles, inline history, instruction concatenation).
//!
//! Responsibilities: find the fast-agent home and its card folders (`home`), read
//! each card file (`parse` / `rfc`), validate it (`validate`, `values`),
//! register the cards as the `FastAgent` registry does (duplicate names, tool cards
//! replacing agent cards — `registry`), check workflow references and cycles, and
//! turn the result into agents with per-field origins and hierarchy edges. Nothing
//! is fetched, imported or run: `{{url:…}}` includes become diagnostics.
//!
//! fast-agent ships no built-in cards and has no user-level card folder (cards come
//! only from the project's fast-agent home), so no installed package is looked for.

mod agents;
mod attributes;
mod history;
mod home;
pub(crate) mod parse;
pub(crate) mod raw;
mod registry;
mod request_params;
pub mod rfc;
mod rules;
mod settings;
mod tool_schema;
pub(crate) mod validate;
mod values;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{Framework, LoadContext, RenderMode};
use crate::model::{DiagKind, Diagnostic, EcosystemReport, Place, Reach, Scope, Source};

/// The card files fast-agent reads from its card folders.
const CARDS: &[&str] = &[".md", ".markdown", ".yaml", ".yml"];
/// The settings files of a settings folder.
const SETTINGS: &[&str] =
    &["fast-agent.yaml", "fast-agent.config.yaml", "fastagent.config.yaml", "fast-agent.secrets.yaml", "fastagent.secrets.yaml"];

pub use rfc::Dialect;

pub const ID: &str = "fast-agent";

pub struct FastAgent;

impl Framework for FastAgent {
    fn evidence(&self) -> &'static [crate::model::toolset::Evidence] {
        use crate::model::toolset::Evidence as E;
        const EVIDENCE: &[E] = &[E::project("fastagent.config.yaml"), E::project(".fast-agent"), E::home(".fast-agent")];
        EVIDENCE
    }
    fn id(&self) -> &'static str {
        ID
    }

    fn title(&self) -> &'static str {
        "fast-agent"
    }

    fn release(&self) -> Option<crate::installed::Release> {
        Some(crate::installed::Release::python("fast-agent", "0.10.48", &["fast-agent-mcp"]).commands(&["fast-agent"]))
    }

    fn load(&self, cx: &LoadContext) -> EcosystemReport {
        let mut report = EcosystemReport::new(ID);
        let dialect = match cx.options.get("dialect").map(String::as_str) {
            None | Some("fast-agent") => Dialect::Released,
            Some("agentcard-rfc") => Dialect::Rfc,
            Some(other) => {
                report.diagnostics.push(Diagnostic::warning(
                    ID,
                    DiagKind::Dialect,
                    &cx.roots.project,
                    format!("unknown AgentCard dialect {other:?} (known: fast-agent, agentcard-rfc); using fast-agent"),
                ));
                Dialect::Released
            }
        };
        let env = environment(cx);
        let date = match cx.render {
            // The resolution report freezes the clock at 2025-01-15, as the oracle does.
            RenderMode::Export => raw::format_date(20_103),
            RenderMode::Live { .. } => raw::format_date(today()),
        };
        let project = crate::model::normalize(&cx.roots.project);
        for (i, folder) in home::settings_folders(&project, &env).into_iter().enumerate() {
            let label = format!(
                "settings only (fast-agent.yaml, fast-agent.config.yaml or fastagent.config.yaml, merged with fast-agent.secrets.yaml or fastagent.secrets.yaml), looked for {}",
                if i == 0 { "first, here in the fast-agent home" } else { "second, in the project folder (never in parent folders)" }
            );
            report.places.push(Place::agents(0, Scope::Project, &cx.roots.project, folder, Reach::top(SETTINGS), label));
        }
        let (home_dir, home_rule) = match home::settings(&project, &env, cx.files) {
            home::Settings::Home { home, rule } => (home, rule),
            home::Settings::Broken(problems) => {
                for (path, failure) in problems {
                    let key = source_of(cx, &path).key();
                    report.diagnostics.push(
                        Diagnostic::error(ID, failure.kind, &path, failure.message).at(failure.line, None).failing(key).fatal(),
                    );
                }
                return report;
            }
        };
        let folders = [(home_dir.join("agent-cards"), "agent cards"), (home_dir.join("tool-cards"), "tool cards")];
        let mut roots = Vec::new();
        for (i, (folder, what)) in folders.iter().enumerate() {
            let used = home::holds_card_file(cx.files, folder);
            let label = format!(
                "{what}, loaded {} ({home_rule}){}",
                if i == 0 { "first" } else { "second; a tool card replaces an agent card of the same name" },
                if used { "" } else { "; used only once it directly holds a .md/.markdown/.yaml/.yml file" }
            );
            let place = Place::agents(i, Scope::Project, &cx.roots.project, folder.clone(), Reach::top(CARDS), label);
            report.places.push(place.clone());
            if used {
                let real = cx.files.canonicalize(folder).unwrap_or_else(|| folder.clone());
                // A linked card folder is read at its real path.
                if real != *folder {
                    report.places.push(Place { dir: real.clone(), label: format!("{} (the folder it links to)", place.label), ..place });
                }
                roots.push(real);
            }
        }
        let mut files = Vec::new();
        for root in &roots {
            match home::card_files(root, cx.files, &mut report.diagnostics) {
                Ok(found) => files.extend(found),
                Err(e) => report.diagnostics.push(Diagnostic::error(ID, DiagKind::Io, root, format!("cannot list the folder: {e}"))),
            }
        }
        // A card file that links elsewhere is read at its real path.
        for file in &files {
            if let Some(real) = cx.files.canonicalize(file).filter(|r| r.parent() != file.parent()) {
                let scope = source_of(cx, &real).scope;
                report.places.push(Place::reached(scope, &cx.roots.project, real, Reach::FILE, "the file a linked card resolves to"));
            }
        }
        let key = crate::discover::context_key(&format!("{env:?}\0{date}"));
        let state = registry::LoadState { cx, env: &env, date: &date, dialect, key };
        // Loading a file and comparing its dialects depend on nothing registered
        // before it, so each file has both done in one go, in parallel (the other core
        // has work while a larger framework runs). The bytes its readers share are let
        // go as soon as both are done, not when the pass ends: a load's worst moment
        // sets the resident peak. Registration and reports keep discovery order.
        let (loads, differences): (Vec<_>, Vec<_>) = files
            .par_iter()
            .map(|path| {
                let loaded = registry::load_file(&state, path);
                let difference = rfc::difference(&state, path);
                cx.files.release_for_pass(path);
                (loaded, difference)
            })
            .unzip();
        registry::resolve(&state, &files, loads, &mut report);
        rfc::report_differences(&files, differences, &mut report);
        report
    }
}

/// The environment `${VAR}` sees (the user's, with `HOME` at the workspace's home).
/// The resolution report reproduces the oracle's: a
/// minimal environment with `HOME` and `XDG_CONFIG_HOME` pointing at the workspace
/// roots and no `FAST_AGENT_*` variables.
fn environment(cx: &LoadContext) -> BTreeMap<String, String> {
    match cx.render {
        RenderMode::Live { .. } => {
            // `--home` stands in for `~`, for `${HOME}` as for `~/` paths.
            let mut env = cx.env.clone();
            env.insert("HOME".into(), cx.roots.home.to_string_lossy().into_owned());
            env
        }
        RenderMode::Export => {
            let mut env = BTreeMap::new();
            for (k, v) in [
                ("LANG", "C.UTF-8"),
                ("LC_ALL", "C.UTF-8"),
                ("TZ", "UTC"),
                ("PYTHONHASHSEED", "0"),
                ("PYTHONDONTWRITEBYTECODE", "1"),
                ("PYTHONIOENCODING", "utf-8"),
                ("AGENTRY_FA_ORACLE_CHILD", "1"),
            ] {
                env.insert(k.to_string(), v.to_string());
            }
            // The oracle passes the roots resolved (`Path.resolve()`).
            let resolved = |p: &Path| cx.files.canonicalize(p).unwrap_or_else(|| crate::model::normalize(p));
            env.insert("HOME".into(), resolved(&cx.roots.home).to_string_lossy().into_owned());
            env.insert("XDG_CONFIG_HOME".into(), resolved(&cx.roots.xdg).to_string_lossy().into_owned());
            if let Some(path) = cx.env.get("PATH") {
                env.insert("PATH".into(), path.clone());
            }
            env
        }
    }
}

/// Days since 1970-01-01 (UTC) now.
fn today() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| (d.as_secs() / 86_400) as i64)
        .unwrap_or(0)
}

/// The report's source for a file (no built-ins: fast-agent ships no cards). Card
/// paths are resolved through symlinks, as the registry records them; when a root
/// itself sits behind a symlink (`/tmp` on some systems) the resolved prefix is mapped
/// back to the root as given, so scopes still match.
fn source_of(cx: &LoadContext, path: &Path) -> Source {
    let mut source = cx.roots.source(path, None);
    for root in [&cx.roots.project, &cx.roots.home, &cx.roots.xdg] {
        let Some(real) = cx.files.canonicalize(root) else { continue };
        let given = crate::model::normalize(root);
        if real != given && path.starts_with(&real) && !path.starts_with(&given) {
            if let Ok(rest) = path.strip_prefix(&real) {
                source = cx.roots.source(&given.join(rest), None);
                source.path = crate::store::shared_path(path);
            }
            break;
        }
    }
    source
}

/// `HOME` for `~` expansion.
fn home_of(env: &BTreeMap<String, String>) -> PathBuf {
    PathBuf::from(env.get("HOME").map(String::as_str).unwrap_or("/"))
}
