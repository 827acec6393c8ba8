//! The lobby: every game, sorted into open (forming), running, finished and the
//! viewer's own, and the form to create a game.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use axum::extract::State;
use axum::response::IntoResponse;
use serde_json::Value;
use sqlx::Row;

use super::layout::{esc, frame, utc_text, PageResult};
use crate::auth::{Account, Viewer};
use crate::error::ApiError;
use crate::model::GameStatus;
use crate::App;

/// The games as a table; with `turns`, a column saying what each asks of the viewer.
fn table(games: &[&Value], empty: &str, turns: Option<&HashMap<i64, Turn>>) -> String {
    if games.is_empty() {
        return format!(r#"<p class="note">{empty}</p>"#);
    }
    let you = if turns.is_some() {
        r#"<th scope="col">You</th>"#
    } else {
        ""
    };
    let mut out = format!(
        r#"<div class="scroll"><table class="games"><thead><tr><th scope="col">Game</th><th scope="col">Variant</th><th scope="col">Phase</th><th scope="col">Deadline</th>{you}</tr></thead><tbody>"#,
    );
    for g in games {
        let id = g["id"].as_i64().unwrap_or_default();
        let deadline = g["deadline"].as_str().map(utc_text).unwrap_or_else(|| "—".into());
        let turn = match turns.map(|t| t.get(&id)) {
            None => String::new(),
            Some(None) => "<td></td>".into(),
            Some(Some(t)) => format!(r#"<td class="turn {}">{}</td>"#, t.class(), t.text()),
        };
        let _ = write!(
            out,
            r#"<tr data-game="{id}"><td><a href="/games/{id}">{}</a></td><td>{}</td><td>{}</td><td>{}</td>{turn}</tr>"#,
            esc(g["name"].as_str().unwrap_or("")),
            esc(g["variant"].as_str().unwrap_or("")),
            esc(g["phase"].as_str().unwrap_or("")),
            esc(&deadline)
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

/// What a running game's current phase asks of the viewer, as the lobby shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Gm,
    Waiting,
    NothingToOrder,
    OrdersDue,
    OrdersGiven,
    Ready,
}

impl Turn {
    fn text(self) -> &'static str {
        match self {
            Turn::Gm => "GM",
            Turn::Waiting => "waiting to start",
            Turn::NothingToOrder => "nothing to order",
            Turn::OrdersDue => "orders due",
            Turn::OrdersGiven => "orders given",
            Turn::Ready => "ready",
        }
    }

    fn class(self) -> &'static str {
        match self {
            Turn::OrdersDue => "due",
            _ => "done",
        }
    }
}

/// For each running game the viewer runs or plays in, what its phase asks of them.
async fn turns(app: &App, account: &Account) -> Result<HashMap<i64, Turn>, ApiError> {
    let rows = sqlx::query(
        "SELECT m.game_id, m.power, \
         (SELECT COUNT(*) FROM orders o WHERE o.game_id = g.id AND o.seq = g.seq AND o.power = m.power) AS given, \
         (SELECT COUNT(*) FROM ready r WHERE r.game_id = g.id AND r.seq = g.seq AND r.power = m.power) AS ready \
         FROM members m JOIN games g ON g.id = m.game_id \
         WHERE m.account_id = $1 AND m.active = 1 AND m.role = 'player' AND g.status <> 'finished'",
    )
    .bind(account.id)
    .fetch_all(&app.db.read)
    .await?;
    let mut out = HashMap::new();
    for r in rows {
        let id: i64 = r.get("game_id");
        let power: String = r.get("power");
        let game = crate::games::load(&app.db.read, id).await?;
        let v = game.variant(app)?;
        let state = game.state(&v)?;
        let turn = if game.status == GameStatus::Forming {
            Turn::Waiting
        } else if !crate::orders::has_choice(&v, &state, &power) {
            Turn::NothingToOrder
        } else if r.get::<i64, _>("ready") > 0 {
            Turn::Ready
        } else if r.get::<i64, _>("given") > 0 {
            Turn::OrdersGiven
        } else {
            Turn::OrdersDue
        };
        out.insert(id, turn);
    }
    let run = sqlx::query("SELECT id FROM games WHERE gm_id = $1 AND status IN ('active', 'paused', 'forming')")
        .bind(account.id)
        .fetch_all(&app.db.read)
        .await?;
    for r in run {
        out.insert(r.get("id"), Turn::Gm);
    }
    Ok(out)
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
<label class="check"><input type="checkbox" name="reveal_at_end" data-type="bool"> If anonymous, name the players when the game ends</label>
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
    let my_turns = match &viewer {
        Some(a) => turns(&app, a).await?,
        None => HashMap::new(),
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
                "You are in no game yet: join an open one or create one.",
                Some(&my_turns)
            )
        );
    }
    let _ = write!(
        body,
        r#"<section class="card" aria-labelledby="open-h"><h2 id="open-h">Open for players</h2>{}</section>
<section class="card" aria-labelledby="run-h"><h2 id="run-h">Running</h2>{}</section>
<section class="card" aria-labelledby="done-h"><h2 id="done-h">Finished</h2>{}</section>"#,
        table(
            &with(&|g| status(g, &["forming"])),
            "No game is waiting for players.",
            None
        ),
        table(
            &with(&|g| status(g, &["active", "paused"])),
            "No game is running.",
            None
        ),
        table(&with(&|g| status(g, &["finished"])), "No game has finished yet.", None)
    );
    if viewer.is_some() {
        body.push_str(&create_form());
    } else {
        body.push_str(r#"<p class="card"><a href="/login">Log in</a> or <a href="/register">register</a> to join or create a game.</p>"#);
    }
    Ok(frame("Lobby", viewer.as_ref(), &body, &[]).into_response())
}
