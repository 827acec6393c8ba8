//! `club_roles`, `suspensions`, `club_settings`, `moderation_log`: who moderates the
//! club, who may not act in it for a while, its settings, and what moderators did.

use sqlx::{Any, Executor, Row};

use crate::model::{AccountId, GameCreation, GameId, GameStatus, ModerationAction, Visibility};

/// The one club role there is.
pub const MODERATOR: &str = "moderator";

pub async fn is_moderator<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<bool> {
    Ok(
        sqlx::query("SELECT 1 AS one FROM club_roles WHERE account_id = $1 AND role = $2")
            .bind(account)
            .bind(MODERATOR)
            .fetch_optional(e)
            .await?
            .is_some(),
    )
}

/// Makes `account` a moderator; false when it already was one.
pub async fn grant<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    by: Option<AccountId>,
    now_ms: i64,
) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "INSERT INTO club_roles (account_id, role, granted_by, granted_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id) DO NOTHING",
    )
    .bind(account)
    .bind(MODERATOR)
    .bind(by)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Ends `account`'s role; false when it had none.
pub async fn revoke<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<bool> {
    let r = sqlx::query("DELETE FROM club_roles WHERE account_id = $1")
        .bind(account)
        .execute(e)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// A moderator, with when and by whom the role was given (None: the command line).
pub struct ModeratorRow {
    pub name: String,
    pub granted_by: Option<String>,
    pub granted_ms: i64,
}

pub async fn moderators<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<Vec<ModeratorRow>> {
    sqlx::query(
        "SELECT a.name, b.name AS granted_by, c.granted_ms FROM club_roles c JOIN accounts a ON a.id = c.account_id
         LEFT JOIN accounts b ON b.id = c.granted_by WHERE c.role = $1 ORDER BY a.name",
    )
    .bind(MODERATOR)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(ModeratorRow {
            name: r.try_get("name")?,
            granted_by: r.try_get("granted_by")?,
            granted_ms: r.try_get("granted_ms")?,
        })
    })
    .collect()
}

/// A suspension in force or past.
pub struct SuspensionRow {
    pub name: String,
    pub reason: String,
    pub by: String,
    pub since_ms: i64,
    pub until_ms: Option<i64>,
}

fn suspension_row(r: &sqlx::any::AnyRow) -> sqlx::Result<SuspensionRow> {
    Ok(SuspensionRow {
        name: r.try_get("name")?,
        reason: r.try_get("reason")?,
        by: r.try_get("by_name")?,
        since_ms: r.try_get("since_ms")?,
        until_ms: r.try_get("until_ms")?,
    })
}

const SUSPENSION_SELECT: &str = "SELECT a.name, s.reason, b.name AS by_name, s.since_ms, s.until_ms FROM suspensions s
     JOIN accounts a ON a.id = s.account_id JOIN accounts b ON b.id = s.by_account";

/// The account's suspension, if one is in force at `now_ms`.
pub async fn suspension<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    now_ms: i64,
) -> sqlx::Result<Option<SuspensionRow>> {
    let sql = format!("{SUSPENSION_SELECT} WHERE s.account_id = $1 AND (s.until_ms IS NULL OR s.until_ms > $2)");
    sqlx::query(&sql)
        .bind(account)
        .bind(now_ms)
        .fetch_optional(e)
        .await?
        .as_ref()
        .map(suspension_row)
        .transpose()
}

/// Every suspension in force at `now_ms`.
pub async fn suspensions<'e, E: Executor<'e, Database = Any>>(e: E, now_ms: i64) -> sqlx::Result<Vec<SuspensionRow>> {
    let sql = format!("{SUSPENSION_SELECT} WHERE s.until_ms IS NULL OR s.until_ms > $1 ORDER BY a.name");
    sqlx::query(&sql)
        .bind(now_ms)
        .fetch_all(e)
        .await?
        .iter()
        .map(suspension_row)
        .collect()
}

/// Suspends `account` (replacing an earlier suspension).
pub async fn suspend<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    reason: &str,
    by: AccountId,
    since_ms: i64,
    until_ms: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO suspensions (account_id, reason, by_account, since_ms, until_ms) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id) DO UPDATE SET reason = excluded.reason, by_account = excluded.by_account,
         since_ms = excluded.since_ms, until_ms = excluded.until_ms",
    )
    .bind(account)
    .bind(reason)
    .bind(by)
    .bind(since_ms)
    .bind(until_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// Lifts the account's suspension; false when there was none in force.
pub async fn lift<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId, now_ms: i64) -> sqlx::Result<bool> {
    let r = sqlx::query("DELETE FROM suspensions WHERE account_id = $1 AND (until_ms IS NULL OR until_ms > $2)")
        .bind(account)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// The keys of `club_settings`. Who reads the forum is kept under the forum's old name,
/// as clubs' databases hold it.
const FORUM_VISIBILITY: &str = "board_visibility";
const GAME_CREATION: &str = "game_creation";

/// The club's settings; one never set has its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClubSettingsRow {
    pub forum: Visibility,
    pub game_creation: GameCreation,
}

/// Reads the club's settings (`club_settings`, a row per setting).
pub async fn club_settings<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<ClubSettingsRow> {
    let mut settings = ClubSettingsRow {
        forum: Visibility::Public,
        game_creation: GameCreation::Members,
    };
    let rows = sqlx::query("SELECT name, value FROM club_settings WHERE name IN ($1, $2)")
        .bind(FORUM_VISIBILITY)
        .bind(GAME_CREATION)
        .fetch_all(e)
        .await?;
    for r in rows {
        let name: String = r.try_get("name")?;
        match name.as_str() {
            FORUM_VISIBILITY => settings.forum = r.try_get("value")?,
            GAME_CREATION => settings.game_creation = r.try_get("value")?,
            _ => {}
        }
    }
    Ok(settings)
}

async fn set_setting<'e, E: Executor<'e, Database = Any>>(e: E, name: &str, value: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO club_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    )
    .bind(name)
    .bind(value)
    .execute(e)
    .await?;
    Ok(())
}

/// Sets who reads the forum.
pub async fn set_forum_visibility<'e, E: Executor<'e, Database = Any>>(e: E, v: Visibility) -> sqlx::Result<()> {
    set_setting(e, FORUM_VISIBILITY, v.as_str()).await
}

/// Sets who creates games.
pub async fn set_game_creation<'e, E: Executor<'e, Database = Any>>(e: E, g: GameCreation) -> sqlx::Result<()> {
    set_setting(e, GAME_CREATION, g.as_str()).await
}

/// An entry of the moderation log to write.
pub struct NewEntry<'a> {
    pub id: i64,
    pub at_ms: i64,
    /// None: the command line.
    pub moderator: Option<AccountId>,
    pub action: ModerationAction,
    pub target: &'a str,
    pub detail: &'a str,
}

pub async fn log<'e, E: Executor<'e, Database = Any>>(e: E, n: &NewEntry<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO moderation_log (id, at_ms, moderator, action, target, detail) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(n.id)
    .bind(n.at_ms)
    .bind(n.moderator)
    .bind(n.action)
    .bind(n.target)
    .bind(n.detail)
    .execute(e)
    .await?;
    Ok(())
}

/// An entry of the moderation log, with the moderator's name (None: the command line).
pub struct EntryRow {
    pub at_ms: i64,
    pub moderator: Option<String>,
    pub action: ModerationAction,
    pub target: String,
    pub detail: String,
}

/// One page of the log, newest first.
pub async fn entries<'e, E: Executor<'e, Database = Any>>(
    e: E,
    offset: i64,
    limit: i64,
) -> sqlx::Result<Vec<EntryRow>> {
    sqlx::query(
        "SELECT l.at_ms, a.name, l.action, l.target, l.detail FROM moderation_log l LEFT JOIN accounts a ON a.id = l.moderator
         ORDER BY l.at_ms DESC, l.id DESC LIMIT $1 OFFSET $2",
    )
    .bind(limit)
    .bind(offset)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(EntryRow {
            at_ms: r.try_get("at_ms")?,
            moderator: r.try_get("name")?,
            action: r.try_get("action")?,
            target: r.try_get("target")?,
            detail: r.try_get("detail")?,
        })
    })
    .collect()
}

pub async fn entry_count<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<i64> {
    sqlx::query("SELECT COUNT(*) AS n FROM moderation_log")
        .fetch_one(e)
        .await?
        .try_get("n")
}

/// A game a moderator may give a new GM: not finished.
pub struct GameRow {
    pub id: GameId,
    pub name: String,
    pub status: GameStatus,
    pub gm: String,
}

/// The newest `limit` games not finished, with their GMs, for the moderators' GM form.
pub async fn open_games<'e, E: Executor<'e, Database = Any>>(e: E, limit: i64) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query(
        "SELECT g.id, g.name, g.status, a.name AS gm FROM games g JOIN accounts a ON a.id = g.gm_id
         WHERE g.status <> 'finished' ORDER BY g.created_ms DESC, g.id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(GameRow {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            status: r.try_get("status")?,
            gm: r.try_get("gm")?,
        })
    })
    .collect()
}
