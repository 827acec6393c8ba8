//! `sessions`: logged-in sessions, kept as hashes of their tokens.

use crate::model::AccountId;
use sqlx::{Any, Executor, Row};

use super::accounts::AccountRow;

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    e: E,
    token_hash: &str,
    account: AccountId,
    now_ms: i64,
    expires_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
        .bind(token_hash)
        .bind(account)
        .bind(now_ms)
        .bind(expires_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// A live session's account, with the account's time zone (a stored name, None for
/// UTC) and when the session expires.
#[derive(Clone, Debug)]
pub struct SessionRow {
    pub account: AccountRow,
    pub time_zone: Option<String>,
    pub expires_ms: i64,
}

/// The account whose session this is, unless it has expired by `now_ms`, its time zone
/// and when the session expires.
pub async fn account<'e, E: Executor<'e, Database = Any>>(
    e: E,
    token_hash: &str,
    now_ms: i64,
) -> sqlx::Result<Option<SessionRow>> {
    sqlx::query(
        "SELECT a.id, a.name, a.created_ms, o.time_zone, s.expires_ms FROM sessions s JOIN accounts a ON a.id = s.account_id \
         LEFT JOIN mail_options o ON o.account_id = a.id WHERE s.token_hash = $1 AND s.expires_ms > $2",
    )
    .bind(token_hash)
    .bind(now_ms)
    .fetch_optional(e)
    .await?
    .map(|r| {
        Ok(SessionRow {
            account: AccountRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                created_ms: r.try_get("created_ms")?,
            },
            time_zone: r.try_get("time_zone")?,
            expires_ms: r.try_get("expires_ms")?,
        })
    })
    .transpose()
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(e: E, token_hash: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(e)
        .await?;
    Ok(())
}

/// Ends every session of the account but `keep`; how many ended.
pub async fn delete_others<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    keep: &str,
) -> sqlx::Result<u64> {
    Ok(
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
            .bind(account)
            .bind(keep)
            .execute(e)
            .await?
            .rows_affected(),
    )
}
