//! `bids`: the Diplomacy Points bids of each power for a phase, secret to the bidder
//! and the GM.

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
    game_id: i64,
    seq: i64,
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
