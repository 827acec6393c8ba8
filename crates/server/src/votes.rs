//! Draw votes. Besides the GM's declaration, the players themselves may end a game as a
//! draw shared by every surviving power, as club players know from webDiplomacy and
//! Backstabbr: the draw passes when every survivor with a player has voted for it. Votes
//! are secret until then: a player reads only their own, the GM reads all.

use axum::extract::State;
use axum::Json;
use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, Variant};
use serde_json::{json, Value};
use sqlx::Row;

use crate::auth::Account;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult, Path};
use crate::games::{self, role_of, Role};
use crate::store::games::Game;
use crate::App;

/// The great powers still in the game: with a unit or a centre, and not turned into
/// minors by civil disorder. Factions share their player's fate (1936 rule 8).
pub fn survivors(v: &Variant, state: &GameState) -> Vec<String> {
    (0..v.powers.len())
        .map(|i| i as chancery_engine::PowerId)
        .filter(|&p| v.power(p).kind == PowerKind::Great && !state.in_disorder(p))
        .filter(|&p| state.unit_count(p) > 0 || state.centre_count(p) > 0)
        .map(|p| v.power(p).name.clone())
        .collect()
}

/// The powers that have voted for a draw.
pub async fn voters<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(e: E, game: i64) -> ApiResult<Vec<String>> {
    Ok(
        sqlx::query("SELECT power FROM draw_votes WHERE game_id = $1 ORDER BY power")
            .bind(game)
            .fetch_all(e)
            .await?
            .iter()
            .map(|r| r.get("power"))
            .collect(),
    )
}

/// The caller's power, when the caller plays one in a running game.
async fn voting_power(tx: &mut Tx, game: &Game, account: &Account) -> ApiResult<String> {
    if !game.status.running() {
        return Err(ApiError::conflict("the game is not running"));
    }
    match role_of(&mut **tx, game, Some(account)).await? {
        Role::Player(p) => Ok(p),
        _ => Err(ApiError::forbidden("only the game's players vote on a draw")),
    }
}

pub async fn vote(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = games::lock(&app, id).await?;
    let power = voting_power(&mut tx, &game, &account).await?;
    let v = game.variant(&app)?;
    let state = game.state(&v)?;
    let alive = survivors(&v, &state);
    if !alive.contains(&power) {
        return Err(ApiError::conflict(format!("{power} is out of the game")));
    }
    sqlx::query("INSERT INTO draw_votes (game_id, power, at_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(id)
        .bind(&power)
        .bind(app.clock.now_ms())
        .execute(&mut *tx)
        .await?;
    let seated: Vec<String> =
        sqlx::query("SELECT power FROM members WHERE game_id = $1 AND role = 'player' AND active = 1")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| r.get("power"))
            .collect();
    let votes = voters(&mut *tx, id).await?;
    // A survivor without a player (vacant, or in civil disorder while the GM looks for
    // someone) has nobody to vote and does not hold the others back.
    let agreed = alive.iter().filter(|p| seated.contains(p)).all(|p| votes.contains(p));
    let outcome = if agreed {
        let outcome = format!("draw: {}", alive.join(", "));
        crate::gm::finish(&app, &mut tx, &game, &outcome, game.gm_id, "the players' vote").await?;
        sqlx::query("DELETE FROM draw_votes WHERE game_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        Some(outcome)
    } else {
        None
    };
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "power": power, "draw_vote": true, "outcome": outcome}),
    ))
}

pub async fn withdraw(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = games::lock(&app, id).await?;
    let power = voting_power(&mut tx, &game, &account).await?;
    sqlx::query("DELETE FROM draw_votes WHERE game_id = $1 AND power = $2")
        .bind(id)
        .bind(&power)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "power": power, "draw_vote": false})))
}
