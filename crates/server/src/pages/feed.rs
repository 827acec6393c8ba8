//! A game as an Atom feed: each processed phase with its full results (what a judge
//! used to mail its players), public press and GM announcements, and the end. Feed
//! readers and a club's chat bots follow a game this way without an account, so the
//! feed holds only what a visitor may see.

use std::fmt::Write;

use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use chancery_engine::json::AdjudicationJson;
use sqlx::Row;

use super::layout::esc;
use crate::auth::Viewer;
use crate::clock::iso_utc;
use crate::error::{ApiError, ApiResult, Params, Path};
use crate::press::PressQuery;
use crate::services::games;
use crate::App;

/// How many phases and messages the feed carries, newest first.
const PHASES: i64 = 20;
const MESSAGES: i64 = 50;

struct Entry {
    id: String,
    title: String,
    updated_ms: i64,
    link: String,
    content: String,
}

/// A phase's results as plain text: one line per unit, then the centre counts.
fn results_text(result: &AdjudicationJson) -> String {
    let mut out = String::new();
    for r in &result.results {
        let order = r.order.as_deref().unwrap_or("no order");
        let _ = writeln!(out, "{}: {} — {}", r.power, order, r.reason);
    }
    let centres: Vec<String> = crate::history::centre_ranking(&result.next)
        .iter()
        .map(|(p, n)| format!("{p} {n}"))
        .collect();
    let _ = write!(out, "\nSupply centres: {}", centres.join(", "));
    if let Some(w) = &result.winner {
        let _ = write!(out, "\n{w} wins the game.");
    }
    out
}

pub async fn feed(State(app): State<App>, headers: HeaderMap, Path(id): Path<i64>) -> ApiResult<Response> {
    let game = games::load(&app.db.read, id).await?;
    // Links in a feed must be absolute; the host the reader used is the one it can reach.
    let host = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c)))
        .unwrap_or("127.0.0.1:8080");
    let base = format!("http://{host}");
    let mut entries = Vec::new();
    let phases = sqlx::query(
        "SELECT seq, phase, processed_ms, result_json FROM phases WHERE game_id = $1 ORDER BY seq DESC LIMIT $2",
    )
    .bind(id)
    .bind(PHASES)
    .fetch_all(&app.db.read)
    .await?;
    for row in &phases {
        let seq: i64 = row.get("seq");
        let result: AdjudicationJson = serde_json::from_str(&row.get::<String, _>("result_json")).map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("stored result: {e}"),
            )
        })?;
        entries.push(Entry {
            id: format!("urn:chancery:game:{id}:phase:{seq}"),
            title: format!("{}: results of {}", game.name, row.get::<String, _>("phase")),
            updated_ms: row.get("processed_ms"),
            link: format!("{base}/games/{id}/history/{seq}"),
            content: results_text(&result),
        });
    }
    // The press a visitor may read, exactly as the press API gives it to one.
    let axum::Json(press) = crate::press::read(
        State(app.clone()),
        Viewer(None),
        Path(id),
        Params(PressQuery {
            since_ms: None,
            before_ms: None,
            limit: Some(MESSAGES),
        }),
    )
    .await?;
    for m in press["messages"].as_array().into_iter().flatten() {
        let from = match (m["from_gm"].as_bool(), m["from"].as_str()) {
            (Some(true), _) => "The GM".to_string(),
            (_, Some(power)) => power.to_string(),
            _ => "Someone (grey press)".to_string(),
        };
        entries.push(Entry {
            id: format!("urn:chancery:game:{id}:press:{}", m["id"]),
            title: format!("{}: {from} to all", game.name),
            updated_ms: m["sent_ms"].as_i64().unwrap_or(0),
            link: format!("{base}/games/{id}#press-h"),
            content: m["body"].as_str().unwrap_or("").to_string(),
        });
    }
    entries.sort_by(|a, b| b.updated_ms.cmp(&a.updated_ms).then(b.id.cmp(&a.id)));
    let updated = entries.first().map(|e| e.updated_ms).unwrap_or(0);
    let mut xml = format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>{}</title><subtitle>A {} game on Chancery</subtitle><id>urn:chancery:game:{id}</id><updated>{}</updated><link rel="alternate" type="text/html" href="{base}/games/{id}"/><link rel="self" href="{base}/games/{id}/feed.atom"/><author><name>Chancery</name></author>"#,
        esc(&game.name),
        esc(&game.variant),
        iso_utc(updated)
    );
    for e in &entries {
        let _ = write!(
            xml,
            r#"<entry><id>{}</id><title>{}</title><updated>{}</updated><link href="{}"/><content type="text">{}</content></entry>"#,
            esc(&e.id),
            esc(&e.title),
            iso_utc(e.updated_ms),
            esc(&e.link),
            esc(&e.content)
        );
    }
    xml.push_str("</feed>");
    Ok(([(CONTENT_TYPE, "application/atom+xml; charset=utf-8")], xml).into_response())
}
