//! The club's player records: who played which power in which game and how it ended,
//! as a club's player database keeps them. Anonymous games stay out of every record but
//! the player's own while they hide their players (always, or until they end), so that
//! no record ties an account to a power the game hides.

use axum::extract::State;
use axum::Json;
use chancery_engine::json::StateJson;
use serde_json::{json, Value};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::auth::Viewer;
use crate::clock::iso_utc;
use crate::error::{ApiError, ApiResult, Path};
use crate::App;

/// How a power's game stands or ended, from the game's outcome text ("victory: X",
/// "draw: X, Y", "concession to X") and the power's last position.
fn result_for(power: &str, status: &str, outcome: Option<&str>, centres: usize, units: usize) -> &'static str {
    let named = |list: &str| list.split(", ").any(|p| p == power);
    match (status, outcome) {
        (_, Some(o)) if o.strip_prefix("victory: ").is_some_and(|w| w == power) => "won",
        (_, Some(o)) if o.strip_prefix("concession to ").is_some_and(|w| w == power) => "won",
        (_, Some(o)) if o.strip_prefix("draw: ").is_some_and(named) => "drew",
        _ if centres == 0 && units == 0 => "eliminated",
        ("finished", _) => "survived",
        ("forming", _) => "waiting to start",
        _ => "playing",
    }
}

fn counts(state_json: &str, power: &str) -> (usize, usize) {
    match serde_json::from_str::<StateJson>(state_json) {
        Ok(s) => (
            s.owners.values().filter(|o| *o == power).count(),
            s.units.iter().filter(|u| u.power == power).count(),
        ),
        Err(_) => (0, 0),
    }
}

fn game_entry(r: &AnyRow) -> Value {
    let power: String = r.get("power");
    let status: String = r.get("status");
    let outcome: Option<String> = r.get("outcome");
    let (centres, units) = counts(&r.get::<String, _>("state_json"), &power);
    let seated = r.get::<i64, _>("active") == 1;
    json!({
        "game": r.get::<i64, _>("game_id"),
        "name": r.get::<String, _>("name"),
        "variant": r.get::<String, _>("variant"),
        "power": power,
        "status": status,
        "outcome": outcome,
        "centres": centres,
        // A player who left or was replaced keeps the record of having played, without
        // the later result of a power someone else then played.
        "result": if seated { result_for(&power, &status, outcome.as_deref(), centres, units) } else { "left" },
        "joined": iso_utc(r.get("joined_ms")),
        "left": r.get::<Option<i64>, _>("left_ms").map(iso_utc),
    })
}

/// One account's record: the powers it played (anonymous games only for itself) and the
/// games it runs as GM.
pub async fn record(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(name): Path<String>,
) -> ApiResult<Json<Value>> {
    let account = sqlx::query("SELECT id, name, created_ms FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name.trim())
        .fetch_optional(&app.db.read)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no account is called `{}`", name.trim())))?;
    let id: i64 = account.get("id");
    let own = viewer.as_ref().is_some_and(|v| v.id == id);
    let played = sqlx::query(
        "SELECT m.game_id, m.power, m.active, m.joined_ms, m.left_ms, g.name, g.variant, g.status, g.outcome, g.state_json \
         FROM members m JOIN games g ON g.id = m.game_id \
         WHERE m.account_id = $1 AND m.role = 'player' \
         AND (g.anonymous = 0 OR (g.reveal_at_end = 1 AND g.status = 'finished') OR $2 = 1) \
         ORDER BY m.joined_ms DESC",
    )
    .bind(id)
    .bind(own as i64)
    .fetch_all(&app.db.read)
    .await?;
    let games: Vec<Value> = played.iter().map(game_entry).collect();
    let run: Vec<Value> =
        sqlx::query("SELECT id, name, variant, status FROM games WHERE gm_id = $1 ORDER BY created_ms DESC")
            .bind(id)
            .fetch_all(&app.db.read)
            .await?
            .iter()
            .map(|r| {
                json!({"game": r.get::<i64, _>("id"), "name": r.get::<String, _>("name"),
                   "variant": r.get::<String, _>("variant"), "status": r.get::<String, _>("status")})
            })
            .collect();
    let tally = |what: &str| games.iter().filter(|g| g["result"] == what).count();
    Ok(Json(json!({
        "name": account.get::<String, _>("name"),
        "member_since": iso_utc(account.get("created_ms")),
        "games": games,
        "finished": games.iter().filter(|g| g["status"] == "finished" && g["result"] != "left").count(),
        "won": tally("won"),
        "drew": tally("drew"),
        "gm_of": run,
    })))
}

#[cfg(test)]
mod tests {
    use super::result_for;

    #[test]
    fn results_read_the_outcome_and_the_board() {
        // (power, status, outcome, centres and units, expected)
        let cases = [
            ("France", "finished", Some("victory: France"), 18, "won"),
            ("France", "finished", Some("concession to France"), 9, "won"),
            ("France", "finished", Some("draw: England, France"), 9, "drew"),
            // "France" is not "Frances": names are matched whole.
            ("France", "finished", Some("draw: Frances, Russia"), 4, "survived"),
            ("Italy", "finished", Some("victory: France"), 0, "eliminated"),
            ("Italy", "active", None, 3, "playing"),
        ];
        for (power, status, outcome, n, expected) in cases {
            assert_eq!(
                result_for(power, status, outcome, n, n),
                expected,
                "{power} {outcome:?}"
            );
        }
    }
}
