//! The player records: the seats an account held (`members` joined with `games`) and the
//! games it runs as GM.

use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use crate::model::{AccountId, GameId, GameOutcome, GameStatus};

/// A seat an account held in a game, with what the record shows of the game.
#[derive(Clone, Debug)]
pub struct SeatRow {
    pub game_id: GameId,
    pub power: String,
    /// Still the power's player (not replaced, not left).
    pub active: bool,
    pub joined_ms: i64,
    pub left_ms: Option<i64>,
    pub game_name: String,
    pub variant: String,
    pub status: GameStatus,
    pub outcome: Option<GameOutcome>,
    pub state_json: String,
}

fn seat(r: &AnyRow) -> Result<SeatRow, sqlx::Error> {
    Ok(SeatRow {
        game_id: r.try_get("game_id")?,
        power: r.try_get("power")?,
        active: super::flag(r, "active")?,
        joined_ms: r.try_get("joined_ms")?,
        left_ms: r.try_get("left_ms")?,
        game_name: r.try_get("name")?,
        variant: r.try_get("variant")?,
        status: r.try_get("status")?,
        outcome: r.try_get("outcome")?,
        state_json: r.try_get("state_json")?,
    })
}

/// The powers an account played, newest first. Anonymous games are left out while they
/// hide their players, unless `with_anonymous` (the account's own record).
pub async fn seats<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    with_anonymous: bool,
) -> sqlx::Result<Vec<SeatRow>> {
    sqlx::query(
        "SELECT m.game_id, m.power, m.active, m.joined_ms, m.left_ms, g.name, g.variant, g.status, g.outcome, g.state_json \
         FROM members m JOIN games g ON g.id = m.game_id \
         WHERE m.account_id = $1 AND m.role = 'player' \
         AND (g.anonymous = 0 OR (g.reveal_at_end = 1 AND g.status = 'finished') OR $2 = 1) \
         ORDER BY m.joined_ms DESC",
    )
    .bind(account)
    .bind(with_anonymous as i64)
    .fetch_all(e)
    .await?
    .iter()
    .map(seat)
    .collect()
}

/// A game as a line in a list.
#[derive(Clone, Debug)]
pub struct GameLine {
    pub id: GameId,
    pub name: String,
    pub variant: String,
    pub status: GameStatus,
}

/// The games an account runs as GM, newest first.
pub async fn run_by<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<Vec<GameLine>> {
    sqlx::query("SELECT id, name, variant, status FROM games WHERE gm_id = $1 ORDER BY created_ms DESC")
        .bind(account)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(GameLine {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                variant: r.try_get("variant")?,
                status: r.try_get("status")?,
            })
        })
        .collect()
}

/// A power an account plays in a game not finished, with whether it has given orders
/// and marked ready in the current phase.
#[derive(Clone, Debug)]
pub struct CurrentSeat {
    pub game_id: GameId,
    pub power: String,
    pub orders_given: bool,
    pub ready: bool,
}

/// The powers the account plays in games not yet finished.
pub async fn current_seats<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
) -> sqlx::Result<Vec<CurrentSeat>> {
    sqlx::query(
        "SELECT m.game_id, m.power, \
         (SELECT COUNT(*) FROM orders o WHERE o.game_id = g.id AND o.seq = g.seq AND o.power = m.power) AS given, \
         (SELECT COUNT(*) FROM ready r WHERE r.game_id = g.id AND r.seq = g.seq AND r.power = m.power) AS ready \
         FROM members m JOIN games g ON g.id = m.game_id \
         WHERE m.account_id = $1 AND m.active = 1 AND m.role = 'player' AND g.status <> 'finished'",
    )
    .bind(account)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(CurrentSeat {
            game_id: r.try_get("game_id")?,
            power: r.try_get("power")?,
            orders_given: r.try_get::<i64, _>("given")? > 0,
            ready: r.try_get::<i64, _>("ready")? > 0,
        })
    })
    .collect()
}

/// The games the account runs as GM and has not finished.
pub async fn running_as_gm<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<Vec<GameId>> {
    sqlx::query("SELECT id FROM games WHERE gm_id = $1 AND status IN ('active', 'paused', 'forming')")
        .bind(account)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| r.try_get("id"))
        .collect()
}

/// Every game the account runs or takes part in now.
pub async fn games_of<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<Vec<GameId>> {
    sqlx::query(
        "SELECT id AS game_id FROM games WHERE gm_id = $1 UNION SELECT game_id FROM members WHERE account_id = $1 AND active = 1",
    )
    .bind(account)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| r.try_get("game_id"))
    .collect()
}
