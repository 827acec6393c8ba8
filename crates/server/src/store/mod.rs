//! The store: every SQL statement the server runs lives under this module, one module
//! per group of tables. A function takes the executor it runs on (the read pool, the
//! write pool, or `&mut *tx` inside a transaction the service holds) and returns typed
//! rows; it knows nothing of HTTP, viewers or rules. The services decide, the store
//! reads and writes.
//!
//! - [`games`]: `games`, the game row and its lock.
//! - [`accounts`]: the club's accounts.
//! - [`sessions`], [`logins`]: sessions and failed logins.
//! - [`players`]: the player records, read from `members` joined with `games`.

pub mod accounts;
pub mod games;
pub mod logins;
pub mod players;
pub mod sessions;

use sqlx::any::AnyRow;
use sqlx::Row;

/// A 0/1 column as a flag.
pub(crate) fn flag(r: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    Ok(r.try_get::<i64, _>(column)? != 0)
}
