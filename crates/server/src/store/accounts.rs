//! `accounts`: who is a member of the club.

use crate::model::AccountId;
use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

/// A row of `accounts`, without the password hash.
#[derive(Clone, Debug)]
pub struct AccountRow {
    pub id: AccountId,
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

/// An account with its password hash, for a login.
#[derive(Clone, Debug)]
pub struct LoginRow {
    pub account: AccountRow,
    pub password_hash: String,
}

/// The account of that name with its password hash, for a login.
pub async fn with_hash<'e, E: Executor<'e, Database = Any>>(e: E, name: &str) -> sqlx::Result<Option<LoginRow>> {
    sqlx::query("SELECT id, name, created_ms, password_hash FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name)
        .fetch_optional(e)
        .await?
        .map(|r| {
            Ok(LoginRow {
                account: from_row(&r)?,
                password_hash: r.try_get("password_hash")?,
            })
        })
        .transpose()
}

pub async fn password_hash<'e, E: Executor<'e, Database = Any>>(e: E, id: AccountId) -> sqlx::Result<String> {
    sqlx::query("SELECT password_hash FROM accounts WHERE id = $1")
        .bind(id)
        .fetch_one(e)
        .await?
        .try_get("password_hash")
}

/// Adds an account; a name taken in another case fails as a unique violation.
pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: AccountId,
    name: &str,
    hash: &str,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO accounts (id, name, password_hash, created_ms) VALUES ($1, $2, $3, $4)")
        .bind(id)
        .bind(name)
        .bind(hash)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(())
}

pub async fn set_password<'e, E: Executor<'e, Database = Any>>(e: E, id: AccountId, hash: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1")
        .bind(id)
        .bind(hash)
        .execute(e)
        .await?;
    Ok(())
}

/// How many accounts the club has.
pub async fn count<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<i64> {
    sqlx::query("SELECT COUNT(*) AS n FROM accounts")
        .fetch_one(e)
        .await?
        .try_get("n")
}
