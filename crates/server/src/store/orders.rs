//! `orders` and `ready`: the orders each power has given for a phase, and the powers
//! that have said they are done with it.

use crate::model::{GameId, PhaseSeq};
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
    game_id: GameId,
    seq: PhaseSeq,
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
pub async fn clear_ready<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM ready WHERE game_id = $1 AND seq = $2")
        .bind(game_id)
        .bind(seq)
        .execute(e)
        .await?;
    Ok(())
}

/// An order as a power reads it back: its unit's key and its canonical text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitOrder {
    /// The space (lower-case abbreviation), `space/type/n` in a stack, `waiveN` for a
    /// waived build.
    pub unit: String,
    pub text: String,
}

/// One power's orders for phase `seq`, by unit.
pub async fn of_power<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    power: &str,
) -> sqlx::Result<Vec<UnitOrder>> {
    sqlx::query("SELECT unit_key, text FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3 ORDER BY unit_key")
        .bind(game_id)
        .bind(seq)
        .bind(power)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(UnitOrder {
                unit: r.try_get("unit_key")?,
                text: r.try_get("text")?,
            })
        })
        .collect()
}

/// A power's order for a unit.
#[derive(Clone, Debug)]
pub struct PowerOrderRow {
    pub power: String,
    pub order: UnitOrder,
}

/// Every power's orders for phase `seq`, by power and in the order given.
pub async fn of_phase<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<Vec<PowerOrderRow>> {
    sqlx::query(
        "SELECT power, unit_key, text FROM orders WHERE game_id = $1 AND seq = $2 ORDER BY power, submitted_ms, unit_key",
    )
    .bind(game_id)
    .bind(seq)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(PowerOrderRow {
            power: r.try_get("power")?,
            order: UnitOrder {
                unit: r.try_get("unit_key")?,
                text: r.try_get("text")?,
            },
        })
    })
    .collect()
}

/// Deletes one power's orders for phase `seq`: all of them, or those of the unit keyed
/// `key` (with every unit of a stack there, `key/…`). Returns how many went.
pub async fn delete<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    power: &str,
    key: Option<&str>,
) -> sqlx::Result<u64> {
    let r = match key {
        Some(key) => sqlx::query(
            "DELETE FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3 AND (unit_key = $4 OR unit_key LIKE $5)",
        )
        .bind(game_id)
        .bind(seq)
        .bind(power)
        .bind(key)
        .bind(format!("{key}/%"))
        .execute(e)
        .await?,
        None => {
            sqlx::query("DELETE FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3")
                .bind(game_id)
                .bind(seq)
                .bind(power)
                .execute(e)
                .await?
        }
    };
    Ok(r.rows_affected())
}

/// Deletes one power's orders in phase `seq` for the units of one type in one space:
/// the key `space` (an order given before the space held a stack) and every `base/…`
/// (`base` is `space/type`).
pub async fn delete_stack<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    power: &str,
    space: &str,
    base: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "DELETE FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3 AND (unit_key = $4 OR unit_key LIKE $5)",
    )
    .bind(game_id)
    .bind(seq)
    .bind(power)
    .bind(space)
    .bind(format!("{base}/%"))
    .execute(e)
    .await?;
    Ok(())
}

/// Stores one power's orders for phase `seq` in one statement, each replacing the order
/// already stored for its unit key.
pub async fn upsert<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    power: &str,
    now_ms: i64,
    rows: &[(String, String)],
) -> sqlx::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    // $1–$4 are shared, then a key and a text per row.
    let values: Vec<String> = (0..rows.len())
        .map(|i| format!("($1, $2, $3, ${}, ${}, $4)", 5 + 2 * i, 6 + 2 * i))
        .collect();
    let sql = format!(
        "INSERT INTO orders (game_id, seq, power, unit_key, text, submitted_ms) VALUES {}
         ON CONFLICT (game_id, seq, power, unit_key) DO UPDATE SET text = excluded.text, submitted_ms = excluded.submitted_ms",
        values.join(", ")
    );
    let mut insert = sqlx::query(&sql).bind(game_id).bind(seq).bind(power).bind(now_ms);
    for (key, text) in rows {
        insert = insert.bind(key).bind(text);
    }
    insert.execute(e).await?;
    Ok(())
}

/// The powers marked ready in phase `seq`.
pub async fn ready_powers<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<Vec<String>> {
    sqlx::query("SELECT power FROM ready WHERE game_id = $1 AND seq = $2")
        .bind(game_id)
        .bind(seq)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| r.try_get("power"))
        .collect()
}

/// Marks `power` ready in phase `seq`, or takes the mark back.
pub async fn set_ready<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
    power: &str,
    ready: bool,
) -> sqlx::Result<()> {
    let sql = if ready {
        "INSERT INTO ready (game_id, seq, power) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
    } else {
        "DELETE FROM ready WHERE game_id = $1 AND seq = $2 AND power = $3"
    };
    sqlx::query(sql).bind(game_id).bind(seq).bind(power).execute(e).await?;
    Ok(())
}
