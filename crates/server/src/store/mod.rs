//! The store: every SQL statement the server runs lives under this module, one module
//! per group of tables. A function takes the executor it runs on (the read pool, the
//! write pool, or `&mut *tx` inside a transaction the service holds) and returns typed
//! rows; it knows nothing of HTTP, viewers or rules. The services decide, the store
//! reads and writes.
//!
//! - [`games`]: `games`, the game row and its lock.
//! - [`members`]: players and observers of a game, and what its view reads beside them.
//! - [`events`]: each game's event log; [`press`]: the games' messages; [`press_reads`]:
//!   when each account last read them.
//! - [`accounts`]: the club's accounts.
//! - [`sessions`], [`logins`]: sessions and failed logins.
//! - [`mail`]: each account's address and mail preferences, and the outbox.
//! - [`votes`]: draw votes.
//! - [`forum`]: the forum's topics, posts and read marks; [`moderation`]: the
//!   club's moderators, suspensions, settings and the moderation log.
//! - [`players`]: the player records, read from `members` joined with `games`.
//! - [`phases`]: processed phases and rolled-back results; [`orders`]: orders and ready
//!   marks; [`bids`]: DP bids; [`disorder`]: civil-disorder declarations; [`set_aside`]:
//!   the orders and bids a rollback or a declaration took off a phase, kept.
//! - [`bots`]: the powers bots play, each bot's turn in a phase, and the games whose
//!   vacant seats bots take at the start.
//! - `words`: the enums the tables store as words (game status, press rule, how a
//!   phase was processed, a membership's role, a mail's kind), read and bound by sqlx
//!   as such.

pub mod accounts;
pub mod bids;
pub mod bots;
pub mod disorder;
pub mod events;
pub mod forum;
pub mod games;
pub mod logins;
pub mod mail;
pub mod members;
pub mod moderation;
pub mod orders;
pub mod phases;
pub mod players;
pub mod press;
pub mod press_reads;
pub mod sessions;
pub mod set_aside;
pub mod votes;
mod words;

use crate::model::GameId;
use sqlx::any::AnyRow;
use sqlx::Row;

/// How many of something a game has (its seated players, its bots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameCount {
    pub game_id: GameId,
    pub count: i64,
}

pub(crate) fn game_count(r: &AnyRow) -> Result<GameCount, sqlx::Error> {
    Ok(GameCount {
        game_id: r.try_get("game_id")?,
        count: r.try_get("n")?,
    })
}

/// A 0/1 column as a flag.
pub(crate) fn flag(r: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    Ok(r.try_get::<i64, _>(column)? != 0)
}

/// The power names a one-column query about one game lists (`$1` is the game's id).
pub async fn powers_where<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    e: E,
    sql: &str,
    game: GameId,
) -> sqlx::Result<Vec<String>> {
    sqlx::query(sql)
        .bind(game)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| r.try_get("power"))
        .collect()
}
