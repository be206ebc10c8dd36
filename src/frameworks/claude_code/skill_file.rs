//! One skill file (`SKILL.md` or a command's `*.md`), as Claude Code 2.1.337 reads it:
//! `_ri` (front matter through the agents' reader; a block that does not parse is
//! dropped and the skill still loads), `t7e` (the keys it reads, the description from
//! the body when none is given), `Y$n` (control characters to spaces) and the
//! listing's per-skill text (`skillListingMaxDescChars`, 1536 by default).

use serde_json::{Map, Value as Json};

use super::definition::decode;
use super::frontmatter::{self, js_trim};
use crate::model::{Attributes, AttributesBuilder};

/// The most bytes Claude Code reads of a `SKILL.md` (`wk`).
pub const MAX_BYTES: u64 = 1_000_000;
/// The longest description text the listing shows whole (description and
/// `when_to_use` together); a longer one is cut to one less and `…` added.
pub const LISTING_MAX_CHARS: usize = 1536;
/// The longest front matter `name` kept as a display name (`q$`).
const MAX_NAME: usize = 256;

/// Keys Claude Code reads from a skill's front matter besides the ones agentry
/// resolves itself; shown as written.
pub const AS_WRITTEN: &[&str] = &[
    "allowed-tools", "disallowed-tools", "model", "disable-model-invocation", "context", "agent", "hooks", "paths", "effort",
    "shell", "version", "arguments", "background",
];

/// A skill file as the tool keeps it.
pub struct SkillDef {
    /// The front matter `name` (a `SKILL.md` only): the name shown for the skill,
    /// whose folder name stays its key.
    pub display: Option<String>,
    pub description: String,
    /// Whether the description was written (not taken from the body).
    pub own_description: bool,
    pub argument_hint: Option<String>,
    pub when_to_use: Option<String>,
    /// `disable-model-invocation`: the model is not told about it.
    pub model_disabled: bool,
    /// `user-invocable` (default true): the user can call it as `/name`.
    pub user_invocable: bool,
    /// What the model receives on invocation without arguments.
    pub body: String,
    pub frontmatter: Attributes,
    first_line: u32,
    lines: Vec<(String, Option<u32>)>,
    /// The block did not parse: the tool dropped it (its message).
    pub parse_error: Option<String>,
    pub retried: bool,
}

/// `tGe`: a boolean, or a string or number meaning one (`1`/`true`/`yes`/`on`,
/// `0`/`false`/`no`/`off`, any case, trimmed); anything else is unset.
fn flag(v: Option<&Json>) -> Option<bool> {
    let text = match v? {
        Json::Bool(b) => return Some(*b),
        Json::String(s) => s.clone(),
        v @ Json::Number(_) => frontmatter::js_string(v),
        _ => return None,
    };
    match text.trim().to_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// `Y$n`: control characters become spaces (a CRLF one space), the ends trimmed.
fn one_line(s: &str) -> String {
    let s = s.replace("\r\n", " ");
    // Invisible format characters too (zero-width space, bidi marks), joiners kept.
    let invisible = |c: char| matches!(c, '\u{200b}' | '\u{200e}' | '\u{200f}' | '\u{2060}' | '\u{feff}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    let s: String = s.chars().map(|c| if c.is_control() && c != '\t' || invisible(c) { ' ' } else { c }).collect();
    js_trim(&s).to_string()
}

/// The characters `iXe` refuses in a name shown to the user: control and format
/// characters, `<`, `>`, private-use and unassigned ones, the default-ignorable ones,
/// U+2800, blank-like spaces other than U+0020, object replacement and a few
/// invisible signs, a keycap mark.
static REFUSED_IN_NAME: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
    let ignorable = r"\u{AD}\u{34F}\u{61C}\u{115F}-\u{1160}\u{17B4}-\u{17B5}\u{180B}-\u{180F}\u{200B}-\u{200F}\u{202A}-\u{202E}\u{2060}-\u{206F}\u{3164}\u{FE00}-\u{FE0F}\u{FEFF}\u{FFA0}\u{FFF0}-\u{FFFB}\u{1107F}\u{13430}-\u{1343F}\u{16FE4}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}";
    let class = format!(r"[<>\p{{Cc}}\p{{Cf}}\p{{Co}}\p{{Cn}}\u{{2028}}\u{{2029}}{ignorable}\u{{2800}}\u{{FFFC}}\u{{1D159}}\u{{13441}}\u{{13442}}\u{{16910}}\u{{20E3}}]|[\p{{Zs}}&&[^ ]]|^ | $|  |\u{{263A}}\p{{M}}|\u{{FE0F}}[\u{{1F3FB}}-\u{{1F3FF}}]");
    // `ie`, first rules: a combining mark that follows no letter, digit or mark.
    let marks = r"[\p{M}\u{1160}-\u{11FF}\u{D7B0}-\u{D7FF}]";
    regex::Regex::new(&format!(r"{class}|^{marks}|[^\p{{L}}\p{{N}}\p{{M}}]{marks}|{marks}{{9}}")).ok()
});

/// `Run` and `Upe`: whether a front matter `name` is shown as the skill's name (at
/// most 256 UTF-16 units, none of the characters above). Not ported: the tool first
/// folds emoji sequences (so a joiner inside an emoji is accepted there) and has
/// further rules on marks after dotted letters.
fn shown_name_ok(name: &str) -> bool {
    !name.is_empty() && name.encode_utf16().count() <= MAX_NAME && REFUSED_IN_NAME.as_ref().is_some_and(|r| !r.is_match(name))
}

/// `String(v)` for a value the tool turns into text, `None` for null or absent.
fn text_of(v: Option<&Json>) -> Option<String> {
    match v? {
        Json::Null => None,
        v => Some(frontmatter::js_string(v)),
    }
}

/// `uHe`: a non-empty trimmed string, or a number or boolean as text.
fn written_description(v: Option<&Json>) -> Option<String> {
    match v? {
        Json::String(s) => Some(js_trim(s).to_string()).filter(|s| !s.is_empty()),
        v @ (Json::Number(_) | Json::Bool(_)) => Some(frontmatter::js_string(v)),
        _ => None,
    }
}

/// `L6e`: the body's first non-empty line, a leading Markdown heading mark dropped;
/// `fallback` when the body has none.
fn from_body(body: &str, fallback: &str) -> String {
    for line in body.lines() {
        let line = js_trim(line);
        if line.is_empty() {
            continue;
        }
        let heading = line.trim_start_matches('#');
        if heading.len() < line.len() && heading.starts_with([' ', '\t']) && !js_trim(heading).is_empty() {
            return js_trim(heading).to_string();
        }
        return line.to_string();
    }
    fallback.to_string()
}

/// How a place's files are read: whether the front matter `name` is the name shown
/// (not for a `.claude/commands` file), and the description when neither the front
/// matter nor the body gives one.
#[derive(Clone, Copy, Debug, Hash)]
pub struct Reading {
    pub reads_name: bool,
    pub fallback: &'static str,
}

pub const SKILL: Reading = Reading { reads_name: true, fallback: "Skill" };
pub const COMMAND: Reading = Reading { reads_name: false, fallback: "Custom command" };
pub const PLUGIN_SKILL: Reading = Reading { reads_name: true, fallback: "Plugin skill" };
pub const PLUGIN_COMMAND: Reading = Reading { reads_name: true, fallback: "Plugin command" };

/// Parses a skill file read as `reading` says.
pub fn parse(bytes: &[u8], reading: Reading) -> SkillDef {
    // `Ld`: the front matter is looked for after a leading BOM, but a file without
    // one is returned as read, BOM and all (observed in every skill place).
    let raw = String::from_utf8_lossy(bytes);
    let text = decode(bytes);
    let mut split = frontmatter::split(&text);
    if split.block.is_none() {
        split.body = &raw;
    }
    let (map, parse_error, retried) = match split.block {
        None => (Map::new(), None, false),
        Some(block) => {
            let parsed = frontmatter::parse_block(block);
            match parsed.value {
                Ok(Json::Object(m)) => (m, None, parsed.retried),
                Ok(_) => (Map::new(), None, parsed.retried),
                Err(e) => (Map::new(), Some(e), parsed.retried),
            }
        }
    };
    let body = split.body.replace("$ARGUMENTS", "");
    let written = written_description(map.get("description"));
    let description = one_line(&written.clone().unwrap_or_else(|| from_body(split.body, reading.fallback)));
    let display = if !reading.reads_name { None } else { text_of(map.get("name")).filter(|n| shown_name_ok(n)) };
    let line_of = |k: &str| split.block.and_then(|b| frontmatter::key_line(b, split.first_line, k));
    let mut packed = AttributesBuilder::default();
    let mut lines = Vec::new();
    for (k, v) in &map {
        let at = line_of(k);
        lines.push((k.clone(), at));
        packed.push(k, at.unwrap_or(split.first_line), v);
    }
    SkillDef {
        display,
        own_description: written.is_some(),
        description,
        argument_hint: text_of(map.get("argument-hint")).map(|s| one_line(&s)),
        when_to_use: text_of(map.get("when_to_use")).map(|s| one_line(&s)),
        model_disabled: flag(map.get("disable-model-invocation")).unwrap_or(false),
        // `lrr`: absent is true, but any written value that is not a recognised
        // flag (`maybe`, `2`, null, a list) is false (observed).
        user_invocable: map.get("user-invocable").is_none_or(|v| flag(Some(v)).unwrap_or(false)),
        body,
        frontmatter: packed.finish(),
        first_line: split.first_line,
        lines,
        parse_error,
        retried,
    }
}

impl SkillDef {
    /// The line `key` is written on.
    pub fn line(&self, key: &str) -> Option<u32> {
        self.lines.iter().find(|(k, _)| k == key).and_then(|(_, l)| *l)
    }

    /// The front matter's first line.
    pub fn first_line(&self) -> u32 {
        self.first_line
    }

    /// The front matter's value of `key`.
    pub fn value(&self, key: &str) -> Option<Json> {
        self.frontmatter.get(self.frontmatter.lines().position(|(k, _)| k == key)?).map(|a| a.value.to_json())
    }

    /// The text the listing gives the skill (`DESCRIPTION - WHEN_TO_USE`), cut as the
    /// listing cuts it; and whether it was cut.
    pub fn listing_text(&self) -> (String, bool) {
        let full = match &self.when_to_use {
            Some(w) => format!("{} - {w}", self.description),
            None => self.description.clone(),
        };
        if full.chars().count() > LISTING_MAX_CHARS {
            let cut: String = full.chars().take(LISTING_MAX_CHARS - 1).collect();
            (format!("{cut}…"), true)
        } else {
            (full, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_front_matter_is_dropped_and_the_body_gives_the_description() {
        let d = parse(b"---\ndescription: \"unclosed\nallowed-tools: Read\n---\nbad quote body\n", SKILL);
        assert!(d.parse_error.is_some());
        assert_eq!((d.description.as_str(), d.body.as_str()), ("bad quote body", "bad quote body\n"));
        let d = parse(b"---\nargument-hint: x\n---\n\n# Heading line\n\nText.\n", SKILL);
        assert_eq!((d.description.as_str(), d.argument_hint.as_deref()), ("Heading line", Some("x")));
        let d = parse(b"---\ndescription: never closed\nbody text\n", SKILL);
        assert_eq!(d.description, "---");
        assert_eq!(parse(b"", PLUGIN_SKILL).description, "Plugin skill");
    }

    #[test]
    fn names_shown_to_the_user() {
        for ok in ["shown name", "Déjà vu", "a:b", "42", "e\u{301}te"] {
            assert!(shown_name_ok(ok), "{ok:?}");
        }
        for refused in ["a\tb", "a  b", " lead", "trail ", "a<b", "nb\u{a0}sp", "zw\u{200b}j", "\u{301}mark", ""] {
            assert!(!shown_name_ok(refused), "{refused:?}");
        }
        assert!(!shown_name_ok(&"n".repeat(257)));
    }

    #[test]
    fn a_bom_stays_in_the_body_only_without_front_matter() {
        for reading in [SKILL, COMMAND, PLUGIN_SKILL, PLUGIN_COMMAND] {
            let d = parse("\u{feff}# Heading\n".as_bytes(), reading);
            assert_eq!((d.body.as_str(), d.description.as_str()), ("\u{feff}# Heading\n", "Heading"));
            let d = parse("\u{feff}---\ndescription: d\n---\nbody\n".as_bytes(), reading);
            assert_eq!((d.body.as_str(), d.description.as_str()), ("body\n", "d"));
        }
    }

    #[test]
    fn descriptions_flags_and_names() {
        let d = parse(b"---\nname: shown\ndescription: |\n  first line\n  second line\ndisable-model-invocation: \"true\"\nuser-invocable: false\n---\nFix $ARGUMENTS now.\n", SKILL);
        assert_eq!(d.description, "first line second line");
        assert!(d.model_disabled && !d.user_invocable);
        assert_eq!((d.display.as_deref(), d.body.as_str()), (Some("shown"), "Fix  now.\n"));
        assert_eq!(parse(b"---\nname: ignored\ndescription: 42\n---\n", COMMAND).display, None);
        assert_eq!(parse(b"---\ndescription: 42\n---\n", COMMAND).description, "42");
        let long = parse(format!("---\ndescription: d\nwhen_to_use: {}\n---\n", "w".repeat(2000)).as_bytes(), SKILL);
        let (text, cut) = long.listing_text();
        assert!(cut && text.chars().count() == LISTING_MAX_CHARS && text.ends_with('…'));
    }
}
