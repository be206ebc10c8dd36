//! `messages:` history files as `prompt_load.load_prompt` reads them: `.json` in
//! fast-agent's message format, anything else as delimited text (`---USER`,
//! `---ASSISTANT`, `---RESOURCE`). Files are read through the shared cache; URLs are
//! never fetched (the loader only accepts existing paths anyway).

use serde_json::Value as Json;

use super::raw::{decode_text, Message};

/// The messages of one history file, or why it cannot be read.
pub fn parse(file_name: &str, bytes: &[u8]) -> Result<Vec<Message>, String> {
    let is_json = crate::py::strip(crate::discover::suffix(file_name)).to_lowercase() == ".json";
    let text = decode_text(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    if is_json {
        parse_json(&text)
    } else {
        Ok(merge_roles(parse_delimited(&text)))
    }
}

/// `create_messages_with_resources` builds one `PromptMessageExtended` per run of
/// sections of one role (`PromptMessageExtended.to_extended` merges them), so
/// `all_text()` of a run is its sections' texts joined with `\n`.
fn merge_roles(messages: Vec<Message>) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::with_capacity(messages.len());
    for m in messages {
        match out.last_mut() {
            Some(last) if last.role == m.role => {
                last.text.push('\n');
                last.text.push_str(&m.text);
            }
            _ => out.push(m),
        }
    }
    out
}

/// `prompt_serialization.load_messages`: `{"messages": [{role, content: [...]}]}`;
/// a message's text is its text parts joined with `\n` (`all_text()`).
fn parse_json(text: &str) -> Result<Vec<Message>, String> {
    let doc: Json = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let messages = match &doc {
        Json::Object(o) => o.get("messages").and_then(Json::as_array).ok_or("no \"messages\" list")?,
        Json::Array(a) => a,
        _ => return Err("expected an object with a \"messages\" list".into()),
    };
    messages
        .iter()
        .map(|m| {
            let role = m.get("role").and_then(Json::as_str).ok_or("a message has no role")?;
            if role != "user" && role != "assistant" {
                return Err(format!("unknown role {role:?}"));
            }
            let parts: Vec<&Json> = match m.get("content") {
                Some(Json::Array(parts)) => parts.iter().collect(),
                Some(part @ Json::Object(_)) => vec![part],
                Some(Json::String(_)) | None => Vec::new(),
                Some(_) => return Err("message content must be a list".into()),
            };
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|p| match p.get("type").and_then(Json::as_str) {
                    Some("text") => p.get("text").and_then(Json::as_str),
                    Some("resource") => p.get("resource").and_then(|r| r.get("text")).and_then(Json::as_str),
                    _ => None,
                })
                .collect();
            Ok(Message { role: role.to_string(), text: texts.join("\n") })
        })
        .collect()
}

/// `PromptTemplate._parse_template`: without any delimiter the whole text is one user
/// message (untrimmed); otherwise each delimiter starts a message whose lines are
/// joined and trimmed, empty sections are dropped, and text before the first delimiter
/// becomes a user message.
pub fn parse_delimited(text: &str) -> Vec<Message> {
    let role_of = |line: &str| match crate::py::strip(line) {
        "---USER" => Some("user"),
        "---ASSISTANT" => Some("assistant"),
        "---RESOURCE" => Some("resource"),
        _ => None,
    };
    let lines: Vec<&str> = text.split('\n').collect();
    if !lines.iter().any(|l| role_of(l).is_some()) {
        return vec![Message { role: "user".into(), text: text.to_string() }];
    }
    let mut out = Vec::new();
    let mut role: Option<&str> = None;
    let mut current: Vec<&str> = Vec::new();
    let mut preamble: Vec<&str> = Vec::new();
    let flush = |role: Option<&str>, current: &[&str], out: &mut Vec<Message>| {
        if let Some(r) = role {
            if !current.is_empty() {
                out.push(Message { role: r.into(), text: crate::py::strip(&current.join("\n")).to_string() });
            }
        }
    };
    let mut i = 0;
    while i < lines.len() {
        match role_of(lines[i]) {
            // The next line names a resource attached to the current message; its
            // contents are not part of the message text.
            Some("resource") => i += 1,
            Some(r) => {
                if role.is_none() && !preamble.is_empty() {
                    let pre = crate::py::strip(&preamble.join("\n")).to_string();
                    if !pre.is_empty() {
                        out.push(Message { role: "user".into(), text: pre });
                    }
                    preamble.clear();
                }
                flush(role, &current, &mut out);
                role = Some(r);
                current.clear();
            }
            None if role.is_some() => current.push(lines[i]),
            None => preamble.push(lines[i]),
        }
        i += 1;
    }
    flush(role, &current, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(m: &[Message]) -> Vec<(&str, &str)> {
        m.iter().map(|m| (m.role.as_str(), m.text.as_str())).collect()
    }

    #[test]
    fn delimited_text() {
        let m = parse_delimited("intro\n---USER\nHello\n\n---ASSISTANT\nHi there\n---USER");
        assert_eq!(pairs(&m), vec![("user", "intro"), ("user", "Hello"), ("assistant", "Hi there")]);
        // A delimiter followed by a line end still has one (empty) line: an empty message.
        let trailing = parse_delimited("---USER\nHello\n---ASSISTANT\n");
        assert_eq!(pairs(&trailing), vec![("user", "Hello"), ("assistant", "")]);
        let plain = parse_delimited("Remember this.\n");
        assert_eq!(pairs(&plain), vec![("user", "Remember this.\n")]);
    }

    #[test]
    fn json_messages() {
        let m = parse(
            "h.JSON",
            br#"{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}"#,
        )
        .unwrap();
        assert_eq!(pairs(&m), vec![("user", "a\nb")]);
        assert!(parse("bad.json", b"{ not json").is_err());
    }
}
