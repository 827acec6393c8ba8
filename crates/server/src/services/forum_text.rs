//! A post's plain text as the forum shows it: paragraphs (split at blank lines), line
//! breaks kept, quotes (lines starting with `>`, nested up to [`MAX_QUOTE_DEPTH`]), and
//! `http`/`https` addresses as links. The result is typed pieces of text, never HTML:
//! the template escapes every piece, so nothing a member writes can become markup, and
//! only the two schemes can become a link (no `javascript:`, `data:` or `file:`).
//!
//! Links are found by `linkify`, which knows where an address ends (a trailing full
//! stop or a closing bracket around it is not part of it, one inside a Wikipedia
//! address is), which a hand-written pattern would get wrong.

use linkify::{LinkFinder, LinkKind};
use serde::Serialize;
use utoipa::ToSchema;

/// Quotes nest at most this deep; more `>` read as this depth.
pub const MAX_QUOTE_DEPTH: u8 = 3;

/// A piece of a line: text, or a link to show as its own address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "kind", content = "text", rename_all = "lowercase")]
pub enum Piece {
    Text(String),
    Link(String),
}

/// A paragraph, or a quoted one (`quote` deep), of lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Block {
    /// 0 for the member's own words, 1 for a quote, 2 for a quote inside a quote…
    pub quote: u8,
    pub lines: Vec<Vec<Piece>>,
}

/// The quote depth of a line and the line without its markers (`> > text`, `>>text`).
fn quote_depth(line: &str) -> (u8, &str) {
    let mut depth = 0u8;
    let mut rest = line.trim_start();
    while let Some(r) = rest.strip_prefix('>') {
        depth = depth.saturating_add(1);
        rest = r.trim_start_matches(' ');
    }
    (depth.min(MAX_QUOTE_DEPTH), rest)
}

/// A line's text split into text and links.
fn pieces(finder: &LinkFinder, line: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut at = 0;
    for link in finder.links(line) {
        let url = link.as_str();
        let lower = url.to_ascii_lowercase();
        // linkify finds any scheme (`ftp:`, `javascript:` with a `//`…); only the web's
        // two become links, the rest stay text.
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            continue;
        }
        if link.start() > at {
            out.push(Piece::Text(line[at..link.start()].to_string()));
        }
        out.push(Piece::Link(url.to_string()));
        at = link.end();
    }
    if at < line.len() {
        out.push(Piece::Text(line[at..].to_string()));
    }
    out
}

/// The blocks of a post's text.
pub fn format(text: &str) -> Vec<Block> {
    let mut finder = LinkFinder::new();
    finder.kinds(&[LinkKind::Url]);
    let mut blocks: Vec<Block> = Vec::new();
    let mut open = false;
    for raw in text.lines() {
        let (depth, line) = quote_depth(raw);
        if line.trim().is_empty() {
            // A blank line (a bare `>` too) ends the paragraph.
            open = false;
            continue;
        }
        match blocks.last_mut() {
            Some(b) if open && b.quote == depth => b.lines.push(pieces(&finder, line.trim_end())),
            _ => {
                blocks.push(Block {
                    quote: depth,
                    lines: vec![pieces(&finder, line.trim_end())],
                });
                open = true;
            }
        }
    }
    blocks
}

/// The post's text as plain lines for a mail or a feed, or a search result's excerpt:
/// at most `max` characters, cut at a word.
pub fn excerpt(text: &str, max: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let cut: String = flat.chars().take(max).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => &cut[..],
    };
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Piece {
        Piece::Text(s.into())
    }

    #[test]
    fn paragraphs_split_at_blank_lines_and_keep_their_lines() {
        let b = format("Hello all\nsecond line\n\n\nNew paragraph");
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].lines, vec![vec![text("Hello all")], vec![text("second line")]]);
        assert_eq!(b[1].lines, vec![vec![text("New paragraph")]]);
        assert!(b.iter().all(|b| b.quote == 0));
    }

    #[test]
    fn quotes_nest_and_end_with_their_lines() {
        let b = format("> anna wrote:\n> > who starts?\n>> me\nI agree");
        let depths: Vec<u8> = b.iter().map(|b| b.quote).collect();
        assert_eq!(depths, vec![1, 2, 0]);
        assert_eq!(b[1].lines, vec![vec![text("who starts?")], vec![text("me")]]);
        assert_eq!(format(">>>>>> deep")[0].quote, MAX_QUOTE_DEPTH);
    }

    #[test]
    fn only_web_addresses_become_links_and_trailing_punctuation_stays_text() {
        let b =
            format("See https://example.org/rules. Or (http://a.example/x_(y)) javascript://alert(1) ftp://f.example");
        let line = &b[0].lines[0];
        assert_eq!(line[0], text("See "));
        assert_eq!(line[1], Piece::Link("https://example.org/rules".into()));
        assert_eq!(line[2], text(". Or ("));
        assert_eq!(line[3], Piece::Link("http://a.example/x_(y)".into()));
        let links = line.iter().filter(|p| matches!(p, Piece::Link(_))).count();
        assert_eq!(links, 2, "{line:?}");
        let rest: String = line[4..]
            .iter()
            .map(|p| match p {
                Piece::Text(t) | Piece::Link(t) => t.as_str(),
            })
            .collect();
        assert!(rest.contains("javascript://alert(1)") && rest.contains("ftp://f.example"));
    }

    #[test]
    fn markup_stays_text() {
        let b = format("<script>alert(1)</script> <a href=\"https://x.example\">x</a>");
        let all: String = b[0].lines[0]
            .iter()
            .map(|p| match p {
                Piece::Text(t) | Piece::Link(t) => t.clone(),
            })
            .collect();
        assert!(all.starts_with("<script>"));
    }

    #[test]
    fn excerpts_cut_at_a_word() {
        assert_eq!(excerpt("a  b\n c", 10), "a b c");
        assert_eq!(excerpt("the quick brown fox jumps", 12), "the quick…");
    }
}
