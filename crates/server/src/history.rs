//! Results and history: every processed phase stays readable by everyone. A result
//! holds every unit's order and outcome with its reason, and never a bid.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use chancery_engine::json::{AdjudicationJson, StateJson};
use serde_json::{json, Value};
use sqlx::Row;

use crate::clock::iso_utc;
use crate::error::{ApiError, ApiResult, Path};
use crate::games;
use crate::App;

/// The powers that gave no orders for a phase they had a decision in: public, as on
/// every judge ("no moves received"), so the table knows who let the others down.
pub fn missing(row: &sqlx::any::AnyRow) -> Vec<String> {
    row.get::<Option<String>, _>("missing")
        .map(|m| m.split(',').map(str::to_string).collect())
        .unwrap_or_default()
}

pub async fn list(State(app): State<App>, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    games::load(&app.db.read, id).await?;
    let rows = sqlx::query("SELECT seq, phase, processed_ms, how, missing FROM phases WHERE game_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(&app.db.read)
        .await?;
    let phases: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({"seq": r.get::<i64, _>("seq"), "phase": r.get::<String, _>("phase"),
                   "processed": iso_utc(r.get("processed_ms")), "how": r.get::<String, _>("how"),
                   "missing": missing(r)})
        })
        .collect();
    Ok(Json(json!({"game": id, "phases": phases})))
}

/// Each owner's number of supply centres in a position, by power name.
pub fn centre_counts(position: &StateJson) -> BTreeMap<&str, usize> {
    let mut centres: BTreeMap<&str, usize> = BTreeMap::new();
    for owner in position.owners.values() {
        *centres.entry(owner.as_str()).or_default() += 1;
    }
    centres
}

/// The counts largest first (ties by name), as the pages list them.
pub fn centre_ranking(position: &StateJson) -> Vec<(&str, usize)> {
    let mut counts: Vec<(&str, usize)> = centre_counts(position).into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts
}

pub async fn one(State(app): State<App>, Path((id, seq)): Path<(i64, i64)>) -> ApiResult<Json<Value>> {
    let row = sqlx::query(
        "SELECT phase, state_json, result_json, processed_ms, how, missing FROM phases WHERE game_id = $1 AND seq = $2",
    )
    .bind(id)
    .bind(seq)
    .fetch_optional(&app.db.read)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("game {id} has no processed phase {seq}")))?;
    let state: Value = serde_json::from_str(&row.get::<String, _>("state_json")).unwrap_or(Value::Null);
    let result: AdjudicationJson = serde_json::from_str(&row.get::<String, _>("result_json")).map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("stored result: {e}"),
        )
    })?;
    let centres = centre_counts(&result.next);
    Ok(Json(json!({
        "game": id, "seq": seq, "phase": row.get::<String, _>("phase"),
        "processed": iso_utc(row.get("processed_ms")), "how": row.get::<String, _>("how"),
        "position": state, "result": result, "centres": centres, "missing": missing(&row),
    })))
}
