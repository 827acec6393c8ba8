//! A player's page: the record `/api/players/{name}` gives, as a table of games.

use std::fmt::Write;

use axum::extract::State;
use axum::response::IntoResponse;
use serde_json::Value;

use super::layout::{esc, frame, utc_text, PageResult};
use crate::auth::Viewer;
use crate::error::Path;
use crate::App;

fn played_table(games: &[Value]) -> String {
    if games.is_empty() {
        return r#"<p class="note">No game played here yet.</p>"#.into();
    }
    let mut rows = String::new();
    for g in games {
        let _ = write!(
            rows,
            r#"<tr data-game="{id}"><td><a href="/games/{id}">{}</a></td><td>{}</td><td>{}</td><td class="num">{}</td><td>{}</td></tr>"#,
            esc(g["name"].as_str().unwrap_or("")),
            esc(g["variant"].as_str().unwrap_or("")),
            esc(g["power"].as_str().unwrap_or("")),
            g["centres"],
            esc(g["result"].as_str().unwrap_or("")),
            id = g["game"],
        );
    }
    format!(
        r#"<div class="scroll"><table class="games"><thead><tr><th scope="col">Game</th><th scope="col">Variant</th><th scope="col">Power</th><th scope="col" class="num">Centres</th><th scope="col">Result</th></tr></thead><tbody>{rows}</tbody></table></div>"#
    )
}

pub async fn page(State(app): State<App>, viewer: Viewer, name: Path<String>) -> PageResult {
    let own = viewer.0.clone();
    let axum::Json(record) = crate::players::record(State(app), viewer, name).await?;
    let games = record["games"].as_array().cloned().unwrap_or_default();
    let name = record["name"].as_str().unwrap_or("");
    let finished = match record["finished"].as_u64().unwrap_or(0) {
        0 => "no finished game yet".to_string(),
        n => format!(
            "{n} finished game{}: {} won, {} drawn",
            if n == 1 { "" } else { "s" },
            record["won"],
            record["drew"]
        ),
    };
    let mut body = format!(
        r#"<h1>{}</h1><p class="meta">Member since {} · {finished}</p>"#,
        esc(name),
        esc(&utc_text(record["member_since"].as_str().unwrap_or("")))
    );
    let _ = write!(
        body,
        r#"<section class="card" aria-labelledby="played-h"><h2 id="played-h">Games played</h2>{}</section>"#,
        played_table(&games)
    );
    let run: Vec<String> = record["gm_of"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|g| {
            format!(
                r#"<li><a href="/games/{}">{}</a> ({}, {})</li>"#,
                g["game"],
                esc(g["name"].as_str().unwrap_or("")),
                esc(g["variant"].as_str().unwrap_or("")),
                esc(g["status"].as_str().unwrap_or(""))
            )
        })
        .collect();
    if !run.is_empty() {
        let _ = write!(
            body,
            r#"<section class="card" aria-labelledby="gm-h"><h2 id="gm-h">Game master of</h2><ul>{}</ul></section>"#,
            run.concat()
        );
    }
    Ok(frame(name, own.as_ref(), &body, &[]).into_response())
}
