//! `accounts`: who is a member of the club.

use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

/// A row of `accounts`, without the password hash.
#[derive(Clone, Debug)]
pub struct AccountRow {
    pub id: i64,
    pub name: String,
    pub created_ms: i64,
}

fn from_row(r: &AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        created_ms: r.try_get("created_ms")?,
    })
}

/// The account of that name, in any case (names are unique regardless of case).
pub async fn by_name<'e, E: Executor<'e, Database = Any>>(e: E, name: &str) -> sqlx::Result<Option<AccountRow>> {
    sqlx::query("SELECT id, name, created_ms FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name)
        .fetch_optional(e)
        .await?
        .map(|r| from_row(&r))
        .transpose()
}
