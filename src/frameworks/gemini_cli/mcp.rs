//! The nested schemas of an agent file: `mcpServerSchema` (each `mcp_servers` entry,
//! turned into the registry's `MCPServerConfig`) and `authConfigSchema` (a remote
//! agent's `auth`, turned by `convertFrontmatterAuthToConfig`). Zod objects that are
//! not `.strict()` drop unknown keys silently.

use serde_json::{json, Map, Value as Json};

use crate::jsyaml::Js;

/// A Zod issue below the object: path, message, whether it stops the branch.
pub type Issues = Vec<(String, String, bool)>;

fn expect(issues: &mut Issues, key: &str, expected: &str, got: &Js) {
    issues.push((key.into(), format!("Expected {expected}, received {}", got.type_word()), true));
}

fn strings(v: &Js) -> Option<Json> {
    match v {
        Js::Seq(items) if items.iter().all(|i| matches!(i, Js::Str(_))) => Some(v.to_json()),
        _ => None,
    }
}

fn string_record(v: &Js) -> Option<Json> {
    match v {
        Js::Map(entries) if entries.iter().all(|(_, v, _)| matches!(v, Js::Str(_))) => Some(v.to_json()),
        _ => None,
    }
}

/// One `mcp_servers` entry as the registry holds it (`MCPServerConfig`, camelCase).
pub fn server(v: &Js) -> Result<Json, Issues> {
    let Js::Map(entries) = v else {
        return Err(vec![(String::new(), format!("Expected object, received {}", v.type_word()), true)]);
    };
    let mut issues = Issues::new();
    let mut out = Map::new();
    for (key, value, _) in entries {
        let (field, ok): (&str, Option<Json>) = match key.as_str() {
            "command" | "cwd" | "url" | "tcp" | "description" => (key.as_str(), matches!(value, Js::Str(_)).then(|| value.to_json())),
            "http_url" => ("httpUrl", matches!(value, Js::Str(_)).then(|| value.to_json())),
            "args" => ("args", strings(value)),
            "include_tools" => ("includeTools", strings(value)),
            "exclude_tools" => ("excludeTools", strings(value)),
            "env" | "headers" => (key.as_str(), string_record(value)),
            "timeout" => ("timeout", matches!(value, Js::Num(n) if !n.is_nan()).then(|| value.to_json())),
            "trust" => ("trust", matches!(value, Js::Bool(_)).then(|| value.to_json())),
            "type" => {
                if !matches!(value, Js::Str(s) if s == "sse" || s == "http") {
                    issues.push(("type".into(), "Invalid enum value. Expected 'sse' | 'http'".into(), true));
                    continue;
                }
                ("type", Some(value.to_json()))
            }
            "auth" => {
                match server_auth(value) {
                    Ok((oauth, provider)) => {
                        out.insert("oauth".into(), oauth);
                        if let Some(p) = provider {
                            out.insert("authProviderType".into(), json!(p));
                        }
                    }
                    Err(m) => issues.push(("auth".into(), m, true)),
                }
                continue;
            }
            _ => continue,
        };
        match ok {
            Some(j) => {
                out.insert(field.into(), j);
            }
            None => expect(&mut issues, key, "the right type", value),
        }
    }
    if issues.is_empty() { Ok(Json::Object(out)) } else { Err(issues) }
}

fn opt_fields(v: &Js, keys: &[(&str, &str)]) -> Map<String, Json> {
    keys.iter().filter_map(|(from, to)| v.get(from).map(|x| ((*to).to_string(), x.to_json()))).collect()
}

/// An MCP server's `auth`: google-credentials or oauth.
fn server_auth(v: &Js) -> Result<(Json, Option<&'static str>), String> {
    match v.get("type") {
        Some(Js::Str(t)) if t == "google-credentials" => {
            let mut oauth = Map::new();
            oauth.insert("enabled".into(), json!(true));
            oauth.extend(opt_fields(v, &[("scopes", "scopes")]));
            Ok((Json::Object(oauth), Some("google_credentials")))
        }
        Some(Js::Str(t)) if t == "oauth" => {
            let mut oauth = Map::new();
            oauth.insert("enabled".into(), json!(true));
            oauth.extend(opt_fields(
                v,
                &[
                    ("client_id", "clientId"),
                    ("client_secret", "clientSecret"),
                    ("scopes", "scopes"),
                    ("authorization_url", "authorizationUrl"),
                    ("token_url", "tokenUrl"),
                    ("issuer", "issuer"),
                    ("audiences", "audiences"),
                    ("redirect_uri", "redirectUri"),
                    ("token_param_name", "tokenParamName"),
                    ("registration_url", "registrationUrl"),
                ],
            ));
            Ok((Json::Object(oauth), None))
        }
        _ => Err("Invalid input".into()),
    }
}

/// A remote agent's `auth` (`authConfigSchema`, then `convertFrontmatterAuthToConfig`).
pub fn remote_auth(v: &Js) -> Result<Json, Issues> {
    let err = |p: &str, m: &str| Err(vec![(p.to_string(), m.to_string(), true)]);
    let Js::Map(_) = v else { return err("", &format!("Expected object, received {}", v.type_word())) };
    let s = |k: &str| match v.get(k) {
        Some(Js::Str(x)) if !x.is_empty() => Some(x.clone()),
        _ => None,
    };
    match v.get("type") {
        Some(Js::Str(t)) if t == "apiKey" => match s("key") {
            // `name` is dropped by JSON when undefined.
            Some(key) => Ok(match s("name") {
                Some(name) => json!({"type": "apiKey", "key": key, "name": name}),
                None => json!({"type": "apiKey", "key": key}),
            }),
            None => err("key", "API key is required"),
        },
        Some(Js::Str(t)) if t == "http" => {
            let Some(scheme) = s("scheme") else { return err("scheme", "Required") };
            if let Some(value) = s("value") {
                return Ok(json!({"type": "http", "scheme": scheme, "value": value}));
            }
            match scheme.as_str() {
                "Bearer" => match s("token") {
                    Some(token) => Ok(json!({"type": "http", "scheme": "Bearer", "token": token})),
                    None => Err(vec![("token".into(), "Bearer scheme requires \"token\"".into(), false)]),
                },
                "Basic" => match (s("username"), s("password")) {
                    (Some(u), Some(p)) => Ok(json!({"type": "http", "scheme": "Basic", "username": u, "password": p})),
                    _ => Err(vec![("username".into(), "Basic authentication requires \"username\" and \"password\"".into(), false)]),
                },
                other => Err(vec![("value".into(), format!("HTTP scheme \"{other}\" requires \"value\""), false)]),
            }
        }
        Some(Js::Str(t)) if t == "google-credentials" => {
            let mut out = Map::new();
            out.insert("type".into(), json!("google-credentials"));
            out.extend(opt_fields(v, &[("scopes", "scopes")]));
            Ok(Json::Object(out))
        }
        Some(Js::Str(t)) if t == "oauth" => {
            let mut out = Map::new();
            out.insert("type".into(), json!("oauth2"));
            out.extend(opt_fields(
                v,
                &[
                    ("client_id", "client_id"),
                    ("client_secret", "client_secret"),
                    ("scopes", "scopes"),
                    ("authorization_url", "authorization_url"),
                    ("token_url", "token_url"),
                    ("issuer", "issuer"),
                    ("audiences", "audiences"),
                    ("redirect_uri", "redirect_uri"),
                    ("token_param_name", "token_param_name"),
                    ("registration_url", "registration_url"),
                ],
            ));
            Ok(Json::Object(out))
        }
        _ => err("type", "Invalid discriminator value. Expected 'apiKey' | 'http' | 'google-credentials' | 'oauth'"),
    }
}
