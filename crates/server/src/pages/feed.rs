//! A game as an Atom feed: each processed phase with its full results (what a judge
//! used to mail its players), public press and GM announcements, and the end. Feed
//! readers and a club's chat bots follow a game this way without an account, so the
//! feed holds only what a visitor may see.
//!
//! Written with `atom_syndication` (the Atom structure and its escaping), every text
//! first made XML-safe ([`xml_text`]), so that no stored text can make the document
//! invalid.

use std::fmt::Write;

use atom_syndication::{Content, Feed, FixedDateTime, Link, Person, Text};
use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use chancery_engine::json::AdjudicationJson;

use crate::error::{ApiError, ApiResult, Path};
use crate::model::GameId;
use crate::services::press::{self, PressQuery};
use crate::services::{games, history};
use crate::App;

/// How many phases and messages the feed carries, newest first.
const PHASES: i64 = 20;
const MESSAGES: i64 = 50;

/// An entry of a feed (this one, and the forum's in `forum.rs`).
pub(super) struct Entry {
    pub id: String,
    pub title: String,
    pub updated_ms: i64,
    pub link: String,
    pub content: String,
}

/// What a feed says of itself.
pub(super) struct About {
    pub title: String,
    pub subtitle: String,
    pub id: String,
    /// The page the feed follows, and the feed's own address.
    pub page: String,
    pub own: String,
}

/// A phase's results as plain text: one line per unit, then the centre counts.
fn results_text(result: &AdjudicationJson) -> String {
    let mut out = String::new();
    for r in &result.results {
        let order = r.order.as_deref().unwrap_or("no order");
        let _ = writeln!(out, "{}: {} — {}", r.power, order, r.reason);
    }
    let centres: Vec<String> = history::centre_ranking(&result.next)
        .iter()
        .map(|(p, n)| format!("{p} {n}"))
        .collect();
    let _ = write!(out, "\nSupply centres: {}", centres.join(", "));
    if let Some(w) = &result.winner {
        let _ = write!(out, "\n{w} wins the game.");
    }
    out
}

pub async fn feed(State(app): State<App>, headers: HeaderMap, Path(id): Path<GameId>) -> ApiResult<Response> {
    let game = games::load(&app.db.read, id).await?;
    let base = base_of(&headers);
    let mut entries = Vec::new();
    for phase in history::newest(&app, id, PHASES).await? {
        entries.push(Entry {
            id: format!("urn:chancery:game:{id}:phase:{}", phase.seq),
            title: format!("{}: results of {}", game.name, phase.phase),
            updated_ms: phase.processed_ms,
            link: format!("{base}/games/{id}/history/{}", phase.seq),
            content: results_text(&phase.result),
        });
    }
    // The press a visitor may read, exactly as the press API gives it to one.
    let everyone = PressQuery {
        since_ms: None,
        before_ms: None,
        before: None,
        limit: Some(MESSAGES),
    };
    for m in press::read(&app, None, id, &everyone).await?.messages {
        let from = match (m.from_gm, m.from) {
            (true, _) => "The GM".to_string(),
            (_, Some(power)) => power,
            _ => "Someone (grey press)".to_string(),
        };
        entries.push(Entry {
            id: format!("urn:chancery:game:{id}:press:{}", m.id),
            title: format!("{}: {from} to all", game.name),
            updated_ms: m.sent_ms,
            link: format!("{base}/games/{id}#press-h"),
            content: m.body,
        });
    }
    let about = About {
        title: game.name.clone(),
        subtitle: format!("A {} game on Chancery", game.variant),
        id: format!("urn:chancery:game:{id}"),
        page: format!("{base}/games/{id}"),
        own: format!("{base}/games/{id}/feed.atom"),
    };
    write(about, entries)
}

/// The absolute address of this server as the reader reached it (links in a feed must be
/// absolute; the host the reader used is the one it can reach).
pub(super) fn base_of(headers: &HeaderMap) -> String {
    let host = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c)))
        .unwrap_or("127.0.0.1:8080");
    format!("http://{host}")
}

/// The Atom document of `entries`, newest first.
pub(super) fn write(about: About, mut entries: Vec<Entry>) -> ApiResult<Response> {
    entries.sort_by(|a, b| b.updated_ms.cmp(&a.updated_ms).then(b.id.cmp(&a.id)));
    let updated = entries.first().map(|e| e.updated_ms).unwrap_or(0);
    let link = |href: String, rel: &str, mime: Option<&str>| Link {
        href: xml_text(&href),
        rel: rel.to_string(),
        mime_type: mime.map(str::to_string),
        ..Link::default()
    };
    let feed = Feed {
        title: Text::plain(xml_text(&about.title)),
        subtitle: Some(Text::plain(xml_text(&about.subtitle))),
        id: about.id,
        updated: moment(updated),
        links: vec![
            link(about.page, "alternate", Some("text/html")),
            link(about.own, "self", None),
        ],
        authors: vec![Person {
            name: "Chancery".to_string(),
            ..Person::default()
        }],
        entries: entries
            .into_iter()
            .map(|e| atom_syndication::Entry {
                id: xml_text(&e.id),
                title: Text::plain(xml_text(&e.title)),
                updated: moment(e.updated_ms),
                links: vec![link(e.link, "alternate", None)],
                content: Some(Content {
                    value: Some(xml_text(&e.content)),
                    content_type: Some("text".to_string()),
                    ..Content::default()
                }),
                ..atom_syndication::Entry::default()
            })
            .collect(),
        ..Feed::default()
    };
    let xml = feed.write_to(Vec::new()).map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("writing the feed: {e}"),
        )
    })?;
    Ok(([(CONTENT_TYPE, "application/atom+xml; charset=utf-8")], xml).into_response())
}

/// A time for the feed: milliseconds since 1970, in UTC.
fn moment(ms: i64) -> FixedDateTime {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .fixed_offset()
}

/// Text an XML 1.0 document can carry: every character XML does not allow (control
/// characters but tab and line breaks, U+FFFE, U+FFFF) becomes U+FFFD. The writer
/// escapes markup but passes such characters through, and text stored before the
/// boundary check (input.rs) may hold them.
fn xml_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'.. => c,
            _ => '\u{FFFD}',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_xml_characters_are_written() {
        assert_eq!(
            xml_text("a\u{0}b\u{1}\u{1b}[31m\u{FFFE}"),
            "a\u{FFFD}b\u{FFFD}\u{FFFD}[31m\u{FFFD}"
        );
        assert_eq!(xml_text("line\nand\ttab — Ελλάδα 😀"), "line\nand\ttab — Ελλάδα 😀");
    }
}
