//! `orders` and `ready`: the orders each power has given for a phase, and the powers
//! that have said they are done with it.

use sqlx::{Any, Executor, Row};

/// An order as stored: the power that gave it and its canonical text.
#[derive(Clone, Debug)]
pub struct OrderRow {
    pub power: String,
    pub text: String,
}

/// Every power's orders for phase `seq`, in the order they were given.
pub async fn for_phase<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: i64,
    seq: i64,
) -> sqlx::Result<Vec<OrderRow>> {
    sqlx::query("SELECT power, text FROM orders WHERE game_id = $1 AND seq = $2 ORDER BY submitted_ms, unit_key")
        .bind(game_id)
        .bind(seq)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(OrderRow {
                power: r.try_get("power")?,
                text: r.try_get("text")?,
            })
        })
        .collect()
}

/// Forgets the ready marks of phase `seq` (a rollback reopens it).
pub async fn clear_ready<'e, E: Executor<'e, Database = Any>>(e: E, game_id: i64, seq: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM ready WHERE game_id = $1 AND seq = $2")
        .bind(game_id)
        .bind(seq)
        .execute(e)
        .await?;
    Ok(())
}
