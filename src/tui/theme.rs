//! Themes: semantic roles (winner, shadowed, inherited, match, diff_add, …) mapped to
//! ratatui styles. The three built-in themes are `themes/{dark,light,mono}.toml`,
//! embedded in the binary; the config's `[roles]` table patches single roles on top.
//! Panes only ever ask for a role, never for a colour, so a theme (and `NO_COLOR`)
//! changes everything at once.

use std::collections::BTreeMap;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

use crate::model::{Provenance, Status};

const DARK: &str = include_str!("../../themes/dark.toml");
const LIGHT: &str = include_str!("../../themes/light.toml");
const MONO: &str = include_str!("../../themes/mono.toml");

/// The names `--theme` and the config accept.
pub const NAMES: [&str; 3] = ["dark", "light", "mono"];

pub use crate::config::StyleSpec;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: String,
    syntax: Option<String>,
    roles: BTreeMap<String, StyleSpec>,
}

macro_rules! roles {
    ($($role:ident),* $(,)?) => {
        /// Every semantic role a pane may use.
        #[derive(Clone, Debug, Default)]
        pub struct Theme {
            pub name: String,
            /// The syntect theme for highlighted prompts; `None` shows plain text.
            pub syntax: Option<String>,
            $(pub $role: Style,)*
        }

        /// The role names, as theme files and the config spell them.
        pub const ROLES: &[&str] = &[$(stringify!($role)),*];

        impl Theme {
            fn set(&mut self, role: &str, style: Style) -> bool {
                $(if role == stringify!($role).trim_start_matches("r#") {
                    self.$role = style;
                    return true;
                })*
                false
            }
        }
    };
}

roles!(
    text,
    title,
    header,
    border,
    border_focus,
    winner,
    shadowed,
    equivalent,
    invalid,
    held,
    skipped,
    undocumented,
    own,
    inherited,
    merged,
    default,
    r#match,
    selection,
    muted,
    error,
    warning,
    info,
    diff_add,
    diff_remove,
    diff_add_emph,
    diff_remove_emph,
    status,
    key,
);

impl Theme {
    /// A built-in theme by name; `None` for an unknown name.
    pub fn builtin(name: &str) -> Option<Theme> {
        let text = match name {
            "dark" => DARK,
            "light" => LIGHT,
            "mono" => MONO,
            _ => return None,
        };
        // The embedded files are tested below, so failing here is a build defect.
        Theme::parse(text).ok()
    }

    fn parse(text: &str) -> Result<Theme, String> {
        let file: ThemeFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut theme = Theme { name: file.name, syntax: file.syntax, ..Theme::default() };
        theme.patch(&file.roles)?;
        Ok(theme)
    }

    /// Applies role overrides (the config's `[roles]`); unknown roles and colours
    /// are errors, reported after every valid override has been applied.
    pub fn patch(&mut self, roles: &BTreeMap<String, StyleSpec>) -> Result<(), String> {
        let mut errors = Vec::new();
        for (role, spec) in roles {
            match spec.to_style() {
                Ok(style) => {
                    if !self.set(role.trim_start_matches("r#"), style) {
                        errors.push(format!("unknown theme role `{role}`"));
                    }
                }
                Err(e) => errors.push(format!("role `{role}`: {e}")),
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }

    pub fn status(&self, status: Status) -> Style {
        match status {
            Status::Wins => self.winner,
            Status::Shadowed => self.shadowed,
            Status::Equivalent => self.equivalent,
            Status::Invalid => self.invalid,
            Status::Held => self.held,
            Status::Skipped => self.skipped,
        }
    }

    pub fn provenance(&self, provenance: Provenance) -> Style {
        match provenance {
            Provenance::Own => self.own,
            Provenance::Inherited => self.inherited,
            Provenance::Merged => self.merged,
            Provenance::Default => self.default,
        }
    }
}

/// The theme to start with: the explicit choice (`--theme`, else the config), with
/// `NO_COLOR` selecting mono when nothing was chosen explicitly on the command line.
pub fn choose(cli: Option<&str>, config: &str, no_color: bool) -> Result<Theme, String> {
    let name = match cli {
        Some(name) => name,
        None if no_color => "mono",
        None if config == "auto" => "dark",
        None => config,
    };
    Theme::builtin(name).ok_or_else(|| format!("unknown theme `{name}` (known: {})", NAMES.join(", ")))
}

impl StyleSpec {
    pub fn to_style(&self) -> Result<Style, String> {
        let mut style = Style::default();
        if let Some(fg) = &self.fg {
            style = style.fg(parse_color(fg)?);
        }
        if let Some(bg) = &self.bg {
            style = style.bg(parse_color(bg)?);
        }
        let flags = [
            (self.bold, Modifier::BOLD),
            (self.italic, Modifier::ITALIC),
            (self.underline, Modifier::UNDERLINED),
            (self.dim, Modifier::DIM),
            (self.reversed, Modifier::REVERSED),
            (self.crossed_out, Modifier::CROSSED_OUT),
        ];
        for (on, modifier) in flags {
            if on {
                style = style.add_modifier(modifier);
            }
        }
        Ok(style)
    }
}

fn parse_color(text: &str) -> Result<Color, String> {
    text.parse::<Color>().map_err(|_| format!("unknown colour `{text}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_theme_parses_and_sets_every_role_it_names() {
        for name in NAMES {
            let text = match name {
                "dark" => DARK,
                "light" => LIGHT,
                _ => MONO,
            };
            let theme = Theme::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(theme.name, name);
            let file: ThemeFile = toml::from_str(text).expect("theme file");
            for role in ROLES {
                assert!(file.roles.contains_key(role.trim_start_matches("r#")), "{name} lacks role {role}");
            }
        }
    }

    #[test]
    fn mono_uses_no_colour_and_no_color_selects_it() {
        let mono = choose(None, "light", true).expect("mono");
        assert_eq!(mono.name, "mono");
        assert!(mono.syntax.is_none());
        for style in [mono.winner, mono.shadowed, mono.invalid, mono.r#match, mono.diff_add, mono.selection] {
            assert_eq!(style.fg, None);
            assert_eq!(style.bg, None);
        }
        assert_eq!(choose(Some("light"), "dark", true).expect("explicit").name, "light");
        assert!(choose(Some("neon"), "dark", false).is_err());
    }

    #[test]
    fn patch_reports_unknown_roles_and_keeps_the_rest() {
        let mut theme = Theme::builtin("dark").expect("dark");
        let mut roles = BTreeMap::new();
        roles.insert("winner".to_string(), StyleSpec { fg: Some("#ff0000".into()), ..StyleSpec::default() });
        roles.insert("sparkle".to_string(), StyleSpec::default());
        let err = theme.patch(&roles).expect_err("unknown role");
        assert!(err.contains("sparkle"));
        assert_eq!(theme.winner.fg, Some(Color::Rgb(255, 0, 0)));
    }
}
