//! The lobby: every game, sorted into open (forming), running, finished and the
//! viewer's own, and the form to create a game.

use std::collections::HashSet;
use std::fmt::Write;

use axum::extract::State;
use axum::response::IntoResponse;
use serde_json::Value;
use sqlx::Row;

use super::layout::{esc, frame, utc_text, PageResult};
use crate::auth::Viewer;
use crate::App;

fn table(games: &[&Value], empty: &str) -> String {
    if games.is_empty() {
        return format!(r#"<p class="note">{empty}</p>"#);
    }
    let mut out = String::from(
        r#"<div class="scroll"><table class="games"><thead><tr><th scope="col">Game</th><th scope="col">Variant</th><th scope="col">Phase</th><th scope="col">Deadline</th></tr></thead><tbody>"#,
    );
    for g in games {
        let id = g["id"].as_i64().unwrap_or_default();
        let deadline = g["deadline"].as_str().map(utc_text).unwrap_or_else(|| "—".into());
        let _ = write!(
            out,
            r#"<tr data-game="{id}"><td><a href="/games/{id}">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
            esc(g["name"].as_str().unwrap_or("")),
            esc(g["variant"].as_str().unwrap_or("")),
            esc(g["phase"].as_str().unwrap_or("")),
            esc(&deadline)
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

fn create_form() -> String {
    let mut options = String::new();
    for name in chancery_engine::builtin::builtin_names() {
        let _ = write!(options, r#"<option value="{0}">{0}</option>"#, esc(name));
    }
    format!(
        r#"<section class="card" aria-labelledby="create-h"><h2 id="create-h">Create a game</h2>
<form class="api-form grid" data-api="/api/games" data-method="POST" data-redirect="/games/{{id}}">
<label for="g-name">Name</label><input id="g-name" name="name" required maxlength="100">
<label for="g-variant">Variant</label><select id="g-variant" name="variant">{options}</select>
<label for="g-move">Movement deadline (minutes)</label><input id="g-move" name="deadlines.movement_minutes" type="number" min="1" value="1440" data-type="number">
<label for="g-retreat">Retreat deadline (minutes)</label><input id="g-retreat" name="deadlines.retreat_minutes" type="number" min="1" value="720" data-type="number">
<label for="g-adjust">Adjustment deadline (minutes)</label><input id="g-adjust" name="deadlines.adjustment_minutes" type="number" min="1" value="720" data-type="number">
{times}
<label for="g-press">Press</label><select id="g-press" name="press"><option value="full">Full: private and public</option><option value="public">Public only</option><option value="none">None</option></select>
<label class="check"><input type="checkbox" name="anonymous" data-type="bool"> Anonymous players</label>
<label class="check"><input type="checkbox" name="grey_press" data-type="bool"> Grey press allowed</label>
<button type="submit">Create game</button>
<p class="form-message" role="status" aria-live="polite"></p>
</form><p class="note">You will be the game's GM. It starts when every power has a player, or when you start it from the GM console. With a time of day, each deadline falls at that time, the first one at least the phase's length away.</p></section>"#,
        times = super::layout::deadline_time_fields("g", None, None)
    )
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer) -> PageResult {
    let axum::Json(list) = crate::games::list(State(app.clone())).await?;
    let games: Vec<Value> = list["games"].as_array().cloned().unwrap_or_default();
    let mine: HashSet<i64> = match &viewer {
        Some(a) => sqlx::query(
            "SELECT id AS game_id FROM games WHERE gm_id = $1 UNION SELECT game_id FROM members WHERE account_id = $1 AND active = 1",
        )
        .bind(a.id)
        .fetch_all(&app.db.read)
        .await?
        .iter()
        .map(|r| r.get::<i64, _>("game_id"))
        .collect(),
        None => HashSet::new(),
    };
    let with = |f: &dyn Fn(&Value) -> bool| games.iter().filter(|g| f(g)).collect::<Vec<_>>();
    let status = |g: &Value, s: &[&str]| s.contains(&g["status"].as_str().unwrap_or(""));
    let mut body = String::from(r#"<h1>Lobby</h1>"#);
    if viewer.is_some() {
        let _ = write!(
            body,
            r#"<section class="card" aria-labelledby="mine-h"><h2 id="mine-h">My games</h2>{}</section>"#,
            table(
                &with(&|g| mine.contains(&g["id"].as_i64().unwrap_or_default())),
                "You are in no game yet: join an open one or create one."
            )
        );
    }
    let _ = write!(
        body,
        r#"<section class="card" aria-labelledby="open-h"><h2 id="open-h">Open for players</h2>{}</section>
<section class="card" aria-labelledby="run-h"><h2 id="run-h">Running</h2>{}</section>
<section class="card" aria-labelledby="done-h"><h2 id="done-h">Finished</h2>{}</section>"#,
        table(&with(&|g| status(g, &["forming"])), "No game is waiting for players."),
        table(&with(&|g| status(g, &["active", "paused"])), "No game is running."),
        table(&with(&|g| status(g, &["finished"])), "No game has finished yet.")
    );
    if viewer.is_some() {
        body.push_str(&create_form());
    } else {
        body.push_str(r#"<p class="card"><a href="/login">Log in</a> or <a href="/register">register</a> to join or create a game.</p>"#);
    }
    Ok(frame("Lobby", viewer.as_ref(), &body, &[]).into_response())
}
