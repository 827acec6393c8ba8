//! `press_reads`: when each account last read a game's press.

use sqlx::{Any, Executor, Row};

/// The time `account` last read the game's press; None if never.
pub async fn read_ms<'e, E: Executor<'e, Database = Any>>(e: E, game: i64, account: i64) -> sqlx::Result<Option<i64>> {
    sqlx::query("SELECT read_ms FROM press_reads WHERE game_id = $1 AND account_id = $2")
        .bind(game)
        .bind(account)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("read_ms"))
        .transpose()
}

/// Records that `account` has read the game's press up to `ms` (never moving back).
pub async fn mark<'e, E: Executor<'e, Database = Any>>(e: E, game: i64, account: i64, ms: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO press_reads (game_id, account_id, read_ms) VALUES ($1, $2, $3)
         ON CONFLICT (game_id, account_id) DO UPDATE SET read_ms = excluded.read_ms
         WHERE press_reads.read_ms < excluded.read_ms",
    )
    .bind(game)
    .bind(account)
    .bind(ms)
    .execute(e)
    .await?;
    Ok(())
}
