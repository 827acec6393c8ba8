//! The check every string from a client passes at the boundary. The extractors every
//! handler reads a request with (`Body`, `OptionalBody`, `Params`, `Path` in
//! [`crate::error`]) run it on every string of the request before a handler sees it.
//!
//! Why one check here rather than in each handler: PostgreSQL refuses a NUL byte in text
//! (a 500 where SQLite stored it), XML cannot carry most control characters (the Atom feed
//! broke on them), and a name with a bidirectional override can pass for another. A new
//! endpoint gets the check by reading its request the only way there is.
//!
//! The rule, the same on both backends: no control character (Unicode `Cc`), no
//! bidirectional embedding, override or isolate, no U+FFFE or U+FFFF (not XML characters);
//! a line feed, tab and carriage return only in the fields that hold many lines
//! ([`MULTILINE_FIELDS`]); at most [`MAX_LINE_CHARS`] characters in a one-line field, or
//! [`MAX_TEXT_CHARS`] in a many-line one. A refusal is 422 with `field` naming where.

use serde_json::Value;

use crate::limits::{MAX_LINE_CHARS, MAX_TEXT_CHARS};

/// The JSON fields that hold text of many lines: a press message's `body`, and the
/// `text` of an uploaded variant file. Every other string is one line.
pub const MULTILINE_FIELDS: &[&str] = &["body", "text"];

/// A string refused: where it was, and why. Answered as 422 with `field`.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub field: String,
    pub why: String,
}

/// Checks one string from a client; `field` names it in the refusal.
pub fn check_text(field: &str, text: &str, multiline: bool) -> Result<(), Refusal> {
    let refuse = |why: String| {
        Err(Refusal {
            field: field.to_string(),
            why,
        })
    };
    let limit = if multiline { MAX_TEXT_CHARS } else { MAX_LINE_CHARS };
    let mut count = 0;
    for c in text.chars() {
        count += 1;
        let allowed_space = multiline && matches!(c, '\n' | '\t' | '\r');
        let bidi = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && !allowed_space) || bidi || matches!(c, '\u{FFFE}' | '\u{FFFF}') {
            let what = if c == '\n' || c == '\r' || c == '\t' {
                "a line break or tab is not allowed in a one-line field"
            } else {
                "control and formatting characters are not allowed"
            };
            return refuse(format!("{what} (U+{:04X})", c as u32));
        }
    }
    if count > limit {
        return refuse(format!("at most {limit} characters"));
    }
    Ok(())
}

/// Checks every string in a parsed JSON document, object keys included. A string is
/// many-line when the nearest key above it is in [`MULTILINE_FIELDS`].
pub fn check_json(value: &Value) -> Result<(), Refusal> {
    fn walk(path: &str, multiline: bool, v: &Value) -> Result<(), Refusal> {
        match v {
            Value::String(s) => check_text(if path.is_empty() { "body" } else { path }, s, multiline),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(&format!("{path}[{i}]"), multiline, item)?;
                }
                Ok(())
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let here = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    check_text(&here, key, false)?;
                    walk(&here, MULTILINE_FIELDS.contains(&key.as_str()), item)?;
                }
                Ok(())
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
        }
    }
    walk("", false, value)
}

/// `application/json`, or a `+json` type, with any parameters.
pub fn is_json_type(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn field_of(e: Refusal) -> String {
        e.field
    }

    #[test]
    fn control_characters_are_refused_with_the_field_named() {
        let v = json!({"name": "ok", "deadlines": {"at": "20:00\u{0}"}});
        assert_eq!(field_of(check_json(&v).unwrap_err()), "deadlines.at");
        let v = json!({"orders": ["A par h", "A mar h\u{1}"]});
        assert_eq!(field_of(check_json(&v).unwrap_err()), "orders[1]");
        let v = json!({"to": {"Fr\u{7f}": 1}});
        assert_eq!(field_of(check_json(&v).unwrap_err()), "to.Fr\u{7f}");
        assert!(check_text("name", "a\u{202E}b", false).is_err());
        assert!(check_text("name", "a\u{FFFF}", false).is_err());
        assert!(check_text("name", "a\u{85}", false).is_err());
    }

    #[test]
    fn many_lines_only_where_a_field_holds_them() {
        assert!(check_json(&json!({"to": [], "body": "line one\r\nline\ttwo"})).is_ok());
        assert!(check_json(&json!({"variant_file": {"name": "v", "text": "a\nb"}})).is_ok());
        assert_eq!(field_of(check_json(&json!({"name": "a\nb"})).unwrap_err()), "name");
        assert!(check_json(&json!({"body": "nul\u{0}"})).is_err());
        // Text in any script is welcome.
        assert!(check_json(&json!({"name": "Ελλάδα — مصر — 日本"})).is_ok());
    }

    #[test]
    fn lengths_are_bounded() {
        let long = "x".repeat(MAX_LINE_CHARS + 1);
        assert!(check_text("name", &long, false).is_err());
        assert!(check_text("body", &long, true).is_ok());
        assert!(check_text("name", &long[1..], false).is_ok());
    }

    #[test]
    fn json_content_types() {
        assert!(is_json_type("application/json"));
        assert!(is_json_type("Application/JSON; charset=utf-8"));
        assert!(is_json_type("application/merge-patch+json"));
        assert!(!is_json_type("text/plain"));
        assert!(!is_json_type("application/x-www-form-urlencoded"));
    }
}
