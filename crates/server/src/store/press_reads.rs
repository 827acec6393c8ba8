//! `press_reads` and `press_thread_reads`: when each account last read a game's press, as
//! a whole and thread by thread.

use crate::model::{AccountId, GameId};
use sqlx::{Any, Executor, Row};

/// The time `account` last read the game's press; None if never.
pub async fn read_ms<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
) -> sqlx::Result<Option<i64>> {
    sqlx::query("SELECT read_ms FROM press_reads WHERE game_id = $1 AND account_id = $2")
        .bind(game)
        .bind(account)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("read_ms"))
        .transpose()
}

/// Records that `account` has read the game's press up to `ms` (never moving back).
pub async fn mark<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
    ms: i64,
) -> sqlx::Result<()> {
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

/// Up to when an account has read a press thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadMark {
    /// The thread's key, as the press service names threads.
    pub thread: String,
    pub read_ms: i64,
}

/// When `account` last read each thread of the game's press.
pub async fn thread_marks<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
) -> sqlx::Result<Vec<ThreadMark>> {
    sqlx::query("SELECT thread, read_ms FROM press_thread_reads WHERE game_id = $1 AND account_id = $2")
        .bind(game)
        .bind(account)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(ThreadMark {
                thread: r.try_get("thread")?,
                read_ms: r.try_get("read_ms")?,
            })
        })
        .collect()
}

/// Records that `account` has read the thread up to `ms` (never moving back).
pub async fn mark_thread<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
    thread: &str,
    ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO press_thread_reads (game_id, account_id, thread, read_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (game_id, account_id, thread) DO UPDATE SET read_ms = excluded.read_ms
         WHERE press_thread_reads.read_ms < excluded.read_ms",
    )
    .bind(game)
    .bind(account)
    .bind(thread)
    .bind(ms)
    .execute(e)
    .await?;
    Ok(())
}
