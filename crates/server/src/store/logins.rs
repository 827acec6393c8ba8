//! `login_failures`: failed logins per account name and address, in the database so that
//! servers sharing it throttle together and a restart forgets nothing. Counted per name
//! and address, and per address across names.

use sqlx::{Any, Executor, Row};

/// Failed logins counted over a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failures {
    pub count: i64,
    /// When the oldest of them was; None when there is none.
    pub oldest_ms: Option<i64>,
}

/// How many failures the name and address had since `since_ms`, and the oldest one's time.
pub async fn failures_since<'e, E: Executor<'e, Database = Any>>(
    e: E,
    name: &str,
    address: &str,
    since_ms: i64,
) -> sqlx::Result<Failures> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n, MIN(at_ms) AS oldest FROM login_failures WHERE name = $1 AND address = $2 AND at_ms > $3",
    )
    .bind(name)
    .bind(address)
    .bind(since_ms)
    .fetch_one(e)
    .await?;
    Ok(Failures {
        count: row.try_get("n")?,
        oldest_ms: row.try_get("oldest")?,
    })
}

/// How many failures the address had since `since_ms`, whatever the names tried, and the
/// oldest one's time: one address trying many names is password spraying.
pub async fn failures_from<'e, E: Executor<'e, Database = Any>>(
    e: E,
    address: &str,
    since_ms: i64,
) -> sqlx::Result<Failures> {
    let row =
        sqlx::query("SELECT COUNT(*) AS n, MIN(at_ms) AS oldest FROM login_failures WHERE address = $1 AND at_ms > $2")
            .bind(address)
            .bind(since_ms)
            .fetch_one(e)
            .await?;
    Ok(Failures {
        count: row.try_get("n")?,
        oldest_ms: row.try_get("oldest")?,
    })
}

pub async fn forget_before<'e, E: Executor<'e, Database = Any>>(e: E, before_ms: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM login_failures WHERE at_ms <= $1")
        .bind(before_ms)
        .execute(e)
        .await?;
    Ok(())
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    e: E,
    name: &str,
    address: &str,
    at_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO login_failures (name, address, at_ms) VALUES ($1, $2, $3)")
        .bind(name)
        .bind(address)
        .bind(at_ms)
        .execute(e)
        .await?;
    Ok(())
}

pub async fn clear<'e, E: Executor<'e, Database = Any>>(e: E, name: &str, address: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM login_failures WHERE name = $1 AND address = $2")
        .bind(name)
        .bind(address)
        .execute(e)
        .await?;
    Ok(())
}
