//! A forum search as typed, read once and written for each backend's full-text engine:
//! SQLite's FTS5 `MATCH` and PostgreSQL's `to_tsquery`. Both are given the same parsed
//! query, so a search means the same on either: every word must be found (in any of its
//! forms: both stem English words, `armies` finds `army`), `"…"` is a phrase (its words
//! in that order, side by side), `or` between two terms lets either do, and `-word` or
//! `-"a phrase"` leaves out the posts that have it.
//!
//! Only letters and digits reach the engines (a word is a run of them; `a-ber` is the
//! phrase `a ber`), so nothing a member types can be read as the engines' own syntax.

use crate::error::{ApiError, ApiResult};

/// Most terms (words and phrases) in one search.
pub const MAX_TERMS: usize = 10;

/// A word, or a phrase of several words in order.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Term(Vec<String>);

/// Terms of which any one will do (`a or b`), or which must be absent.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Item {
    excluded: bool,
    any_of: Vec<Term>,
}

/// A parsed search: every item must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    items: Vec<Item>,
}

/// The pieces of the typed text: a phrase in quotes, or a run without blanks.
fn pieces(text: &str) -> Vec<(bool, bool, String)> {
    // (excluded, quoted, text)
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut excluded = false;
        if c == '-' {
            chars.next();
            excluded = true;
        }
        if chars.peek() == Some(&'"') {
            chars.next();
            let mut phrase = String::new();
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                phrase.push(c);
            }
            out.push((excluded, true, phrase));
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '"' {
                    break;
                }
                word.push(c);
                chars.next();
            }
            out.push((excluded, false, word));
        }
    }
    out
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

impl Search {
    /// Reads a search as a member typed it; 422 when nothing is left to look for or it
    /// has more than [`MAX_TERMS`] terms.
    pub fn parse(text: &str) -> ApiResult<Search> {
        let mut items: Vec<Item> = Vec::new();
        let mut or_next = false;
        let mut terms = 0;
        for (excluded, quoted, piece) in pieces(text) {
            if !quoted && !excluded && piece.eq_ignore_ascii_case("or") {
                or_next = items.last().is_some_and(|i| !i.excluded);
                continue;
            }
            let w = words(&piece);
            if w.is_empty() {
                continue;
            }
            terms += 1;
            let term = Term(w);
            match items.last_mut() {
                Some(last) if or_next && !excluded && !last.excluded => last.any_of.push(term),
                _ => items.push(Item {
                    excluded,
                    any_of: vec![term],
                }),
            }
            or_next = false;
        }
        if terms > MAX_TERMS {
            return Err(
                ApiError::unprocessable(format!("a search has at most {MAX_TERMS} words and phrases"))
                    .with(serde_json::json!({"field": "q"})),
            );
        }
        if !items.iter().any(|i| !i.excluded) {
            return Err(ApiError::unprocessable(
                "say what to look for: a search needs a word (letters or digits) that is not left out with `-`",
            )
            .with(serde_json::json!({"field": "q"})));
        }
        Ok(Search { items })
    }

    /// The words looked for (not those left out), for marking them in the results.
    pub fn wanted_words(&self) -> Vec<String> {
        self.items
            .iter()
            .filter(|i| !i.excluded)
            .flat_map(|i| i.any_of.iter().flat_map(|t| t.0.iter().cloned()))
            .collect()
    }

    /// The search as an FTS5 query: `"w"` and `"a b"` are strings (the tokenizer stems
    /// them as it stemmed the posts), `OR`, `AND` and `NOT` its operators.
    pub fn fts5(&self) -> String {
        let item = |i: &Item| {
            let terms: Vec<String> = i.any_of.iter().map(|t| format!("\"{}\"", t.0.join(" "))).collect();
            format!("({})", terms.join(" OR "))
        };
        let wanted: Vec<String> = self.items.iter().filter(|i| !i.excluded).map(item).collect();
        let mut q = format!("({})", wanted.join(" AND "));
        for i in self.items.iter().filter(|i| i.excluded) {
            q = format!("({q} NOT {})", item(i));
        }
        q
    }

    /// The search as a `to_tsquery` text: quoted lexemes (stemmed by the `english`
    /// configuration there), `<->` between a phrase's words, `|`, `&` and `!`.
    pub fn tsquery(&self) -> String {
        let term = |t: &Term| {
            let w: Vec<String> = t.0.iter().map(|w| format!("'{w}'")).collect();
            format!("({})", w.join(" <-> "))
        };
        self.items
            .iter()
            .map(|i| {
                let any: Vec<String> = i.any_of.iter().map(term).collect();
                format!("{}({})", if i.excluded { "!" } else { "" }, any.join(" | "))
            })
            .collect::<Vec<_>>()
            .join(" & ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_phrases_or_and_left_out() {
        let s = Search::parse(r#"Munich "hold  the line" or Berlin -Kiel -"bad faith""#).unwrap();
        assert_eq!(
            s.fts5(),
            r#"(((("munich") AND ("hold the line" OR "berlin")) NOT ("kiel")) NOT ("bad faith"))"#
        );
        assert_eq!(
            s.tsquery(),
            "(('munich')) & (('hold' <-> 'the' <-> 'line') | ('berlin')) & !(('kiel')) & !(('bad' <-> 'faith'))"
        );
        assert_eq!(s.wanted_words(), ["munich", "hold", "the", "line", "berlin"]);
    }

    #[test]
    fn only_letters_and_digits_reach_the_engines() {
        let s = Search::parse(r#"a-ber' NEAR(x) 100% "unclosed"#).unwrap();
        assert_eq!(s.fts5(), r#"(("a ber") AND ("near x") AND ("100") AND ("unclosed"))"#);
        assert!(!s.tsquery().contains('%') && !s.tsquery().contains("''"));
    }

    #[test]
    fn nothing_to_look_for_is_refused() {
        for q in ["-kiel", "%%% ???", "or", "\"\"", "-\"a b\" or"] {
            assert_eq!(Search::parse(q).unwrap_err().status(), 422, "{q}");
        }
        let many = "a b c d e f g h i j k";
        assert_eq!(Search::parse(many).unwrap_err().status(), 422);
        assert!(Search::parse("a b c d e f g h i j").is_ok());
    }

    #[test]
    fn a_leading_or_or_one_before_a_left_out_term_is_a_word_joiner_only() {
        let s = Search::parse("or army or -fleet").unwrap();
        assert_eq!(s.fts5(), r#"((("army")) NOT ("fleet"))"#);
    }
}
