//! `bids`: the Diplomacy Points bids of each power for a phase, secret to the bidder
//! and the GM.

use crate::model::{GameId, PhaseSeq};
use sqlx::{Any, Executor, Row};

/// A bid as stored: DPs on one minor unit with the order asked of it.
#[derive(Clone, Debug)]
pub struct BidRow {
    pub power: String,
    /// The minor unit's space, lower-case abbreviation.
    pub unit: String,
    pub dp: i64,
    /// The order, in the engine's notation.
    pub order: String,
}

/// The bids of phase `seq`, of one power or of all, by power and unit.
pub async fn for_phase<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    power: Option<&str>,
) -> sqlx::Result<Vec<BidRow>> {
    let rows = sqlx::query(
        "SELECT power, unit_key, dp, text FROM bids WHERE game_id = $1 AND seq = $2 ORDER BY power, unit_key",
    )
    .bind(game_id)
    .bind(seq)
    .fetch_all(e)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let bid = BidRow {
            power: r.try_get("power")?,
            unit: r.try_get("unit_key")?,
            dp: r.try_get("dp")?,
            order: r.try_get("text")?,
        };
        if power.is_none_or(|p| bid.power == p) {
            out.push(bid);
        }
    }
    Ok(out)
}

/// A bid with the phase it was given for.
#[derive(Clone, Debug)]
pub struct PhaseBid {
    pub seq: PhaseSeq,
    pub bid: BidRow,
}

/// Every bid of the game, with its phase, by phase, power and unit.
pub async fn of_game<'e, E: Executor<'e, Database = Any>>(e: E, game_id: GameId) -> sqlx::Result<Vec<PhaseBid>> {
    sqlx::query("SELECT seq, power, unit_key, dp, text FROM bids WHERE game_id = $1 ORDER BY seq, power, unit_key")
        .bind(game_id)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(PhaseBid {
                seq: r.try_get("seq")?,
                bid: BidRow {
                    power: r.try_get("power")?,
                    unit: r.try_get("unit_key")?,
                    dp: r.try_get("dp")?,
                    order: r.try_get("text")?,
                },
            })
        })
        .collect()
}

/// Deletes one power's bids in phase `seq`: all, or the one on the unit keyed `unit`.
pub async fn delete<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    power: &str,
    unit: Option<&str>,
) -> sqlx::Result<()> {
    match unit {
        Some(key) => {
            sqlx::query("DELETE FROM bids WHERE game_id = $1 AND seq = $2 AND power = $3 AND unit_key = $4")
                .bind(game_id)
                .bind(seq)
                .bind(power)
                .bind(key)
                .execute(e)
                .await?
        }
        None => {
            sqlx::query("DELETE FROM bids WHERE game_id = $1 AND seq = $2 AND power = $3")
                .bind(game_id)
                .bind(seq)
                .bind(power)
                .execute(e)
                .await?
        }
    };
    Ok(())
}

/// Stores a bid of `power`'s in phase `seq` (the unit's earlier bid deleted first).
pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    bid: &BidRow,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO bids (game_id, seq, power, unit_key, dp, text, submitted_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(game_id)
    .bind(seq)
    .bind(&bid.power)
    .bind(&bid.unit)
    .bind(bid.dp)
    .bind(&bid.order)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(())
}
