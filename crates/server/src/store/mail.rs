//! `mail_addresses`, `mail_prefs` and `outbox`: where each account's mail goes, which
//! kinds it wants, and every mail from its composition to its delivery.

use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use crate::db::{Backend, Tx};
use crate::model::{AccountId, GameId, MailKind, MailScope, PhaseSeq};

/// An account's address and its state.
#[derive(Clone, Debug)]
pub struct AddressRow {
    pub account_id: AccountId,
    pub address: String,
    pub confirmed: bool,
    pub unsubscribe_key: String,
    /// The mail server's words when it refused the address for good.
    pub bounced: Option<String>,
    pub bounced_ms: Option<i64>,
}

const ADDRESS_COLUMNS: &str = "account_id, address, confirmed, unsubscribe_key, bounced, bounced_ms";

fn address_from_row(r: &AnyRow) -> Result<AddressRow, sqlx::Error> {
    Ok(AddressRow {
        account_id: r.try_get("account_id")?,
        address: r.try_get("address")?,
        confirmed: super::flag(r, "confirmed")?,
        unsubscribe_key: r.try_get("unsubscribe_key")?,
        bounced: r.try_get("bounced")?,
        bounced_ms: r.try_get("bounced_ms")?,
    })
}

pub async fn address<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
) -> sqlx::Result<Option<AddressRow>> {
    sqlx::query(&format!(
        "SELECT {ADDRESS_COLUMNS} FROM mail_addresses WHERE account_id = $1"
    ))
    .bind(account)
    .fetch_optional(e)
    .await?
    .map(|r| address_from_row(&r))
    .transpose()
}

/// The account whose unsubscribe links carry `key`.
pub async fn by_unsubscribe_key<'e, E: Executor<'e, Database = Any>>(
    e: E,
    key: &str,
) -> sqlx::Result<Option<AddressRow>> {
    sqlx::query(&format!(
        "SELECT {ADDRESS_COLUMNS} FROM mail_addresses WHERE unsubscribe_key = $1"
    ))
    .bind(key)
    .fetch_optional(e)
    .await?
    .map(|r| address_from_row(&r))
    .transpose()
}

/// Sets a new, unconfirmed address (a new address is always confirmed again, and a
/// bounce recorded for the old one no longer holds).
pub async fn set_address<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    address: &str,
    confirm_hash: &str,
    unsubscribe_key: &str,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO mail_addresses (account_id, address, confirmed, confirm_hash, unsubscribe_key, updated_ms) VALUES ($1, $2, 0, $3, $4, $5) \
         ON CONFLICT (account_id) DO UPDATE SET address = excluded.address, confirmed = 0, confirm_hash = excluded.confirm_hash, bounced = NULL, bounced_ms = NULL, updated_ms = excluded.updated_ms",
    )
    .bind(account)
    .bind(address)
    .bind(confirm_hash)
    .bind(unsubscribe_key)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(())
}

pub async fn remove_address<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM mail_addresses WHERE account_id = $1")
        .bind(account)
        .execute(e)
        .await?;
    Ok(())
}

/// Confirms the address whose confirmation token hashes to `hash`; its account.
pub async fn confirm<'e, E: Executor<'e, Database = Any>>(
    e: E,
    hash: &str,
    now_ms: i64,
) -> sqlx::Result<Option<AccountId>> {
    sqlx::query("UPDATE mail_addresses SET confirmed = 1, updated_ms = $2 WHERE confirm_hash = $1 RETURNING account_id")
        .bind(hash)
        .bind(now_ms)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("account_id"))
        .transpose()
}

/// Records that the mail server refused `address` for good; only while it is still the
/// account's address.
pub async fn bounced<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    address: &str,
    why: &str,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE mail_addresses SET bounced = $3, bounced_ms = $4 WHERE account_id = $1 AND address = $2")
        .bind(account)
        .bind(address)
        .bind(why)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// A player of a game as a reader of its mail.
pub struct PlayerAddress {
    pub account_id: AccountId,
    pub power: String,
    pub address: String,
    /// The account's zone (an IANA name); None for UTC.
    pub time_zone: Option<String>,
    /// The hour of the account's daily digest; None when it takes each mail as it comes.
    pub digest_hour: Option<i64>,
}

/// The active players of a game with a confirmed address that has not bounced.
pub async fn players_with_address<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
) -> sqlx::Result<Vec<PlayerAddress>> {
    sqlx::query(
        "SELECT m.account_id, m.power, a.address, o.time_zone, o.digest, o.digest_hour FROM members m \
         JOIN mail_addresses a ON a.account_id = m.account_id \
         LEFT JOIN mail_options o ON o.account_id = m.account_id \
         WHERE m.game_id = $1 AND m.role = 'player' AND m.active = 1 AND a.confirmed = 1 AND a.bounced IS NULL ORDER BY m.power",
    )
    .bind(game)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        let digest: Option<i64> = r.try_get("digest")?;
        Ok(PlayerAddress {
            account_id: r.try_get("account_id")?,
            power: r.try_get("power")?,
            address: r.try_get("address")?,
            time_zone: r.try_get("time_zone")?,
            digest_hour: if digest.unwrap_or(0) != 0 {
                r.try_get("digest_hour")?
            } else {
                None
            },
        })
    })
    .collect()
}

/// A choice an account made about a kind of mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pref {
    /// Every game, or the one game it is for.
    pub scope: MailScope,
    pub kind: MailKind,
    pub enabled: bool,
}

/// The preferences an account has set.
pub async fn prefs<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<Vec<Pref>> {
    sqlx::query("SELECT game_id, kind, enabled FROM mail_prefs WHERE account_id = $1 ORDER BY game_id, kind")
        .bind(account)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(Pref {
                scope: r.try_get("game_id")?,
                kind: r.try_get("kind")?,
                enabled: super::flag(r, "enabled")?,
            })
        })
        .collect()
}

pub async fn set_pref<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    scope: MailScope,
    kind: MailKind,
    enabled: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO mail_prefs (account_id, game_id, kind, enabled) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (account_id, game_id, kind) DO UPDATE SET enabled = excluded.enabled",
    )
    .bind(account)
    .bind(scope)
    .bind(kind)
    .bind(i64::from(enabled))
    .execute(e)
    .await?;
    Ok(())
}

/// Takes back a per-game choice, so that the all-games one holds again.
pub async fn clear_pref<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    scope: MailScope,
    kind: MailKind,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM mail_prefs WHERE account_id = $1 AND game_id = $2 AND kind = $3")
        .bind(account)
        .bind(scope)
        .bind(kind)
        .execute(e)
        .await?;
    Ok(())
}

/// A mail as composed, to be written to the outbox.
#[derive(Clone, Debug)]
pub struct NewMail {
    pub id: i64,
    pub account_id: AccountId,
    pub address: String,
    pub game_id: Option<GameId>,
    pub kind: MailKind,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub message_id: String,
    pub created_ms: i64,
    pub due_ms: i64,
    /// The processed phases whose map the mail shows.
    pub maps: Vec<PhaseMap>,
    /// Held for the reader's digest due then; None to be sent on its own.
    pub digest_ms: Option<i64>,
}

pub async fn enqueue<'e, E: Executor<'e, Database = Any>>(e: E, m: &NewMail) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO outbox (id, account_id, address, game_id, kind, subject, text_body, html_body, message_id, created_ms, due_ms, attempts, maps, digest_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12, $13)",
    )
    .bind(m.id)
    .bind(m.account_id)
    .bind(&m.address)
    .bind(m.game_id)
    .bind(m.kind)
    .bind(&m.subject)
    .bind(&m.text_body)
    .bind(&m.html_body)
    .bind(&m.message_id)
    .bind(m.created_ms)
    .bind(m.due_ms)
    .bind(maps_text(&m.maps)?)
    .bind(m.digest_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// A processed phase whose map a mail shows as a picture, drawn when the mail is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseMap {
    pub game_id: GameId,
    pub seq: PhaseSeq,
}

/// `outbox.maps`: a JSON array of `[game, seq]` pairs (migration 32), NULL for none.
fn maps_of(r: &AnyRow) -> Result<Vec<PhaseMap>, sqlx::Error> {
    let Some(text) = r.try_get::<Option<String>, _>("maps")? else {
        return Ok(Vec::new());
    };
    let pairs: Vec<(GameId, PhaseSeq)> =
        serde_json::from_str(&text).map_err(|e| sqlx::Error::Decode(format!("outbox.maps `{text}`: {e}").into()))?;
    Ok(pairs
        .into_iter()
        .map(|(game_id, seq)| PhaseMap { game_id, seq })
        .collect())
}

fn maps_text(maps: &[PhaseMap]) -> Result<Option<String>, sqlx::Error> {
    if maps.is_empty() {
        return Ok(None);
    }
    let pairs: Vec<(GameId, PhaseSeq)> = maps.iter().map(|m| (m.game_id, m.seq)).collect();
    serde_json::to_string(&pairs)
        .map(Some)
        .map_err(|e| sqlx::Error::Encode(e.into()))
}

/// A row of the outbox.
#[derive(Clone, Debug)]
pub struct OutboxRow {
    pub id: i64,
    pub account_id: AccountId,
    pub address: String,
    pub game_id: Option<GameId>,
    pub kind: MailKind,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub message_id: String,
    pub created_ms: i64,
    pub attempts: i64,
    pub sent_ms: Option<i64>,
    pub failed: Option<String>,
    pub last_error: Option<String>,
    /// The processed phases whose map the mail shows.
    pub maps: Vec<PhaseMap>,
    /// Held for the reader's digest due then.
    pub digest_ms: Option<i64>,
    /// The digest mail that carried it.
    pub digest_id: Option<i64>,
}

const OUTBOX_COLUMNS: &str = "id, account_id, address, game_id, kind, subject, text_body, html_body, message_id, created_ms, attempts, sent_ms, failed, last_error, maps, digest_ms, digest_id";

fn outbox_from_row(r: &AnyRow) -> Result<OutboxRow, sqlx::Error> {
    Ok(OutboxRow {
        id: r.try_get("id")?,
        account_id: r.try_get("account_id")?,
        address: r.try_get("address")?,
        game_id: r.try_get("game_id")?,
        kind: r.try_get("kind")?,
        subject: r.try_get("subject")?,
        text_body: r.try_get("text_body")?,
        html_body: r.try_get("html_body")?,
        message_id: r.try_get("message_id")?,
        created_ms: r.try_get("created_ms")?,
        attempts: r.try_get("attempts")?,
        sent_ms: r.try_get("sent_ms")?,
        failed: r.try_get("failed")?,
        last_error: r.try_get("last_error")?,
        maps: maps_of(r)?,
        digest_ms: r.try_get("digest_ms")?,
        digest_id: r.try_get("digest_id")?,
    })
}

/// Claims one due mail for sending: of those due first, the one written first (`queued`
/// on PostgreSQL, the row id on SQLite; migration 22), so that the mails of one event
/// go in the order its transaction wrote them.
///
/// PostgreSQL: the row is locked `FOR UPDATE SKIP LOCKED` inside `tx`, which the sender
/// holds until the mail is sent and marked, so that another server skips it and a
/// server that dies mid-send releases it at once. SQLite (one writer, one server per
/// file): a lease of `lease_ms` is written and committed at once, so that the database
/// is not held while the mail server answers; a sender that dies leaves the lease to
/// run out. Either way the mail is marked sent (`mark_sent`) before the mail server can
/// have taken it (see `services::mail::smtp`).
pub async fn claim(tx: &mut Tx, backend: Backend, now_ms: i64, lease_ms: i64) -> sqlx::Result<Option<OutboxRow>> {
    match backend {
        Backend::Postgres => sqlx::query(&format!(
            "SELECT {OUTBOX_COLUMNS} FROM outbox WHERE sent_ms IS NULL AND failed IS NULL AND due_ms <= $1 AND digest_ms IS NULL \
             ORDER BY due_ms, queued LIMIT 1 FOR UPDATE SKIP LOCKED"
        ))
        .bind(now_ms)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| outbox_from_row(&r))
        .transpose(),
        Backend::Sqlite => sqlx::query(&format!(
            "UPDATE outbox SET leased_until_ms = $2 WHERE id = (SELECT id FROM outbox WHERE sent_ms IS NULL AND failed IS NULL AND due_ms <= $1 \
             AND digest_ms IS NULL AND (leased_until_ms IS NULL OR leased_until_ms <= $1) ORDER BY due_ms, rowid LIMIT 1) RETURNING {OUTBOX_COLUMNS}"
        ))
        .bind(now_ms)
        .bind(now_ms + lease_ms)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| outbox_from_row(&r))
        .transpose(),
    }
}

pub async fn mark_sent<'e, E: Executor<'e, Database = Any>>(e: E, id: i64, now_ms: i64, by: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE outbox SET sent_ms = $2, sent_by = $3, attempts = attempts + 1, leased_until_ms = NULL WHERE id = $1",
    )
    .bind(id)
    .bind(now_ms)
    .bind(by)
    .execute(e)
    .await?;
    Ok(())
}

/// Takes back this sender's mark of `id` as sent at `sent_ms` (the mail server refused
/// the message after the mark was committed, or the commit's answer was lost); nothing
/// when the row bears another mark.
pub async fn unmark_sent<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: i64,
    sent_ms: i64,
    by: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE outbox SET sent_ms = NULL, sent_by = NULL, attempts = attempts - 1 WHERE id = $1 AND sent_ms = $2 AND sent_by = $3",
    )
    .bind(id)
    .bind(sent_ms)
    .bind(by)
    .execute(e)
    .await?;
    Ok(())
}

/// A temporary failure: tried again at `due_ms`.
pub async fn retry_at<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: i64,
    due_ms: i64,
    error: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE outbox SET due_ms = $2, last_error = $3, attempts = attempts + 1, leased_until_ms = NULL WHERE id = $1",
    )
    .bind(id)
    .bind(due_ms)
    .bind(error)
    .execute(e)
    .await?;
    Ok(())
}

/// A permanent failure: never tried again.
pub async fn mark_failed<'e, E: Executor<'e, Database = Any>>(e: E, id: i64, why: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE outbox SET failed = $2, last_error = $2, attempts = attempts + 1, leased_until_ms = NULL WHERE id = $1",
    )
    .bind(id)
    .bind(why)
    .execute(e)
    .await?;
    Ok(())
}

/// The mails about a game, newest first (the GM console's list).
pub async fn of_game<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    limit: i64,
) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query(&format!(
        "SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game_id = $1 ORDER BY created_ms DESC, id DESC LIMIT $2"
    ))
    .bind(game)
    .bind(limit)
    .fetch_all(e)
    .await?
    .iter()
    .map(outbox_from_row)
    .collect()
}

/// Mails of `kind` about `game` written since `since_ms` (press is batched by it).
pub async fn count_since<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    game: GameId,
    kind: MailKind,
    since_ms: i64,
) -> sqlx::Result<i64> {
    sqlx::query(
        "SELECT COUNT(*) AS n FROM outbox WHERE account_id = $1 AND game_id = $2 AND kind = $3 AND created_ms >= $4",
    )
    .bind(account)
    .bind(game)
    .bind(kind)
    .bind(since_ms)
    .fetch_one(e)
    .await?
    .try_get("n")
}

/// Whether any mail is still waiting to be sent (tests and shutdown wait on it); mail
/// held for a digest is not.
pub async fn pending<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<i64> {
    sqlx::query("SELECT COUNT(*) AS n FROM outbox WHERE sent_ms IS NULL AND failed IS NULL AND digest_ms IS NULL")
        .fetch_one(e)
        .await?
        .try_get("n")
}

/// The account playing `power` in `game` now, if any.
pub async fn player_of<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    power: &str,
) -> sqlx::Result<Option<AccountId>> {
    sqlx::query("SELECT account_id FROM members WHERE game_id = $1 AND power = $2 AND role = 'player' AND active = 1")
        .bind(game)
        .bind(power)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("account_id"))
        .transpose()
}

/// An account's zone and digest choice (`mail_options`).
#[derive(Clone, Debug)]
pub struct Options {
    /// An IANA zone name; None for UTC.
    pub time_zone: Option<String>,
    /// One mail a day instead of single mails.
    pub digest: bool,
    /// The hour of the digest in the account's zone (0 to 23).
    pub digest_hour: i64,
}

/// The hour of a digest when the account has not chosen one.
pub const DEFAULT_DIGEST_HOUR: i64 = 7;

impl Default for Options {
    fn default() -> Options {
        Options {
            time_zone: None,
            digest: false,
            digest_hour: DEFAULT_DIGEST_HOUR,
        }
    }
}

pub async fn options<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<Options> {
    Ok(
        sqlx::query("SELECT time_zone, digest, digest_hour FROM mail_options WHERE account_id = $1")
            .bind(account)
            .fetch_optional(e)
            .await?
            .map(|r| -> sqlx::Result<Options> {
                Ok(Options {
                    time_zone: r.try_get("time_zone")?,
                    digest: super::flag(&r, "digest")?,
                    digest_hour: r.try_get("digest_hour")?,
                })
            })
            .transpose()?
            .unwrap_or_default(),
    )
}

pub async fn set_options<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    o: &Options,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO mail_options (account_id, time_zone, digest, digest_hour) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (account_id) DO UPDATE SET time_zone = excluded.time_zone, digest = excluded.digest, digest_hour = excluded.digest_hour",
    )
    .bind(account)
    .bind(o.time_zone.as_deref())
    .bind(i64::from(o.digest))
    .bind(o.digest_hour)
    .execute(e)
    .await?;
    Ok(())
}

/// Moves the account's held mails to the digest due at `digest_ms` (the account chose
/// another hour or zone, or no digest: then now).
pub async fn reschedule_held<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    digest_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE outbox SET digest_ms = $2 WHERE account_id = $1 AND digest_ms IS NOT NULL AND digest_id IS NULL AND sent_ms IS NULL AND failed IS NULL",
    )
    .bind(account)
    .bind(digest_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// The accounts with held mails whose digest is due by `now_ms`.
pub async fn digests_due<'e, E: Executor<'e, Database = Any>>(e: E, now_ms: i64) -> sqlx::Result<Vec<AccountId>> {
    sqlx::query(
        "SELECT DISTINCT account_id FROM outbox WHERE digest_ms IS NOT NULL AND digest_ms <= $1 AND digest_id IS NULL \
         AND sent_ms IS NULL AND failed IS NULL ORDER BY account_id LIMIT 500",
    )
    .bind(now_ms)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| r.try_get("account_id"))
    .collect()
}

/// The account's mails held for a digest due by `now_ms`, oldest first (read inside the
/// digest's transaction, after [`lock_digest`]).
pub async fn held(tx: &mut Tx, account: AccountId, now_ms: i64) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query(&format!(
        "SELECT {OUTBOX_COLUMNS} FROM outbox WHERE account_id = $1 AND digest_ms IS NOT NULL AND digest_ms <= $2 \
         AND digest_id IS NULL AND sent_ms IS NULL AND failed IS NULL ORDER BY created_ms, id"
    ))
    .bind(account)
    .bind(now_ms)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(outbox_from_row)
    .collect()
}

/// The mails of an account that wait for a digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub count: i64,
    /// When the first of them is due; None when none waits.
    pub due_ms: Option<i64>,
}

/// How many of the account's mails wait for a digest, and when the first is due.
pub async fn held_count<'e, E: Executor<'e, Database = Any>>(e: E, account: AccountId) -> sqlx::Result<Held> {
    let r = sqlx::query(
        "SELECT COUNT(*) AS n, MIN(digest_ms) AS due FROM outbox WHERE account_id = $1 AND digest_ms IS NOT NULL \
         AND digest_id IS NULL AND sent_ms IS NULL AND failed IS NULL",
    )
    .bind(account)
    .fetch_one(e)
    .await?;
    Ok(Held {
        count: r.try_get("n")?,
        due_ms: r.try_get("due")?,
    })
}

/// Locks the account's `mail_options` row while its digest is gathered. PostgreSQL:
/// `FOR UPDATE SKIP LOCKED`, false when another server holds it (that server is
/// gathering the same mails). SQLite has one writer, and one server per file.
pub async fn lock_digest(tx: &mut Tx, backend: Backend, account: AccountId) -> sqlx::Result<bool> {
    match backend {
        Backend::Postgres => Ok(sqlx::query(
            "SELECT account_id FROM mail_options WHERE account_id = $1 FOR UPDATE SKIP LOCKED",
        )
        .bind(account)
        .fetch_optional(&mut **tx)
        .await?
        .is_some()),
        Backend::Sqlite => Ok(true),
    }
}

/// Records that the digest `digest` carried mail `id`, which is thereby sent; false when
/// another digest took it first.
pub async fn digested<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: i64,
    digest: i64,
    now_ms: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE outbox SET digest_id = $2, sent_ms = $3, sent_by = 'digest', leased_until_ms = NULL \
         WHERE id = $1 AND digest_id IS NULL AND sent_ms IS NULL AND failed IS NULL",
    )
    .bind(id)
    .bind(digest)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A game's reminder times as stored (`1440,120`); None when the GM has not chosen.
pub async fn reminder_times<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Option<String>> {
    sqlx::query("SELECT minutes FROM mail_reminder_times WHERE game_id = $1")
        .bind(game)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("minutes"))
        .transpose()
}

pub async fn set_reminder_times<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    minutes: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO mail_reminder_times (game_id, minutes) VALUES ($1, $2) \
         ON CONFLICT (game_id) DO UPDATE SET minutes = excluded.minutes",
    )
    .bind(game)
    .bind(minutes)
    .execute(e)
    .await?;
    Ok(())
}

/// A running game whose deadline is near enough for a reminder.
pub struct ReminderCandidate {
    pub game_id: GameId,
    pub seq: PhaseSeq,
    pub deadline_ms: i64,
    /// The game's reminder times as stored.
    pub minutes: Option<String>,
    /// When the current phase opened (or was reopened): the game's last start,
    /// processing, rollback, roll forward or resumption.
    pub opened_ms: Option<i64>,
}

/// The running games with a deadline in `(now_ms, until_ms]`.
pub async fn reminder_candidates<'e, E: Executor<'e, Database = Any>>(
    e: E,
    now_ms: i64,
    until_ms: i64,
) -> sqlx::Result<Vec<ReminderCandidate>> {
    sqlx::query(
        "SELECT g.id, g.seq, g.deadline_ms, t.minutes, \
         (SELECT MAX(ev.at_ms) FROM events ev WHERE ev.game_id = g.id AND ev.kind IN ('started', 'processed', 'rolled_back', 'rolled_forward', 'resumed')) AS opened_ms \
         FROM games g LEFT JOIN mail_reminder_times t ON t.game_id = g.id \
         WHERE g.status = 'active' AND g.deadline_ms > $1 AND g.deadline_ms <= $2 ORDER BY g.deadline_ms",
    )
    .bind(now_ms)
    .bind(until_ms)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(ReminderCandidate {
            game_id: r.try_get("id")?,
            seq: r.try_get("seq")?,
            deadline_ms: r.try_get("deadline_ms")?,
            minutes: r.try_get("minutes")?,
            opened_ms: r.try_get("opened_ms")?,
        })
    })
    .collect()
}

/// Claims a reminder: true for the one transaction that records it first.
pub async fn claim_reminder<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    seq: PhaseSeq,
    deadline_ms: i64,
    minutes: i64,
    now_ms: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO mail_reminders_sent (game_id, seq, deadline_ms, minutes, sent_ms) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (game_id, seq, deadline_ms, minutes) DO NOTHING",
    )
    .bind(game)
    .bind(seq)
    .bind(deadline_ms)
    .bind(minutes)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks a game as having press to mail (in the message's transaction).
pub async fn note_press<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId, now_ms: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO mail_press_pending (game_id, first_ms, touches) VALUES ($1, $2, 1) \
         ON CONFLICT (game_id) DO UPDATE SET touches = mail_press_pending.touches + 1",
    )
    .bind(game)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// A game with press to mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PressPending {
    pub game_id: GameId,
    /// The time of the first message not yet mailed.
    pub first_ms: i64,
    /// How many messages marked it (the mark is taken back only if none came since).
    pub touches: i64,
}

/// The games with press to mail.
pub async fn press_pending<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<Vec<PressPending>> {
    sqlx::query("SELECT game_id, first_ms, touches FROM mail_press_pending ORDER BY first_ms LIMIT 500")
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(PressPending {
                game_id: r.try_get("game_id")?,
                first_ms: r.try_get("first_ms")?,
                touches: r.try_get("touches")?,
            })
        })
        .collect()
}

/// Unmarks a game whose press is all mailed, unless more came since it was read.
pub async fn press_done<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId, touches: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM mail_press_pending WHERE game_id = $1 AND touches = $2")
        .bind(game)
        .bind(touches)
        .execute(e)
        .await?;
    Ok(())
}

/// Up to which message time an account was mailed a game's press, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PressMark {
    pub upto_ms: i64,
    pub mailed_ms: i64,
}

/// Up to which message time the account was mailed the game's press, and when.
pub async fn press_mark<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    game: GameId,
) -> sqlx::Result<Option<PressMark>> {
    sqlx::query("SELECT upto_ms, mailed_ms FROM mail_press_marks WHERE account_id = $1 AND game_id = $2")
        .bind(account)
        .bind(game)
        .fetch_optional(e)
        .await?
        .map(|r| {
            Ok(PressMark {
                upto_ms: r.try_get("upto_ms")?,
                mailed_ms: r.try_get("mailed_ms")?,
            })
        })
        .transpose()
}

/// Moves the mark from `old` (as read) to `(upto_ms, mailed_ms)`; false when another
/// transaction moved it first.
pub async fn move_press_mark<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    game: GameId,
    old: Option<PressMark>,
    upto_ms: i64,
    mailed_ms: i64,
) -> sqlx::Result<bool> {
    let done = match old {
        None => {
            sqlx::query(
                "INSERT INTO mail_press_marks (account_id, game_id, upto_ms, mailed_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (account_id, game_id) DO NOTHING",
            )
            .bind(account)
            .bind(game)
            .bind(upto_ms)
            .bind(mailed_ms)
            .execute(e)
            .await?
        }
        Some(old) => {
            sqlx::query(
                "UPDATE mail_press_marks SET upto_ms = $3, mailed_ms = $4 \
                 WHERE account_id = $1 AND game_id = $2 AND upto_ms = $5 AND mailed_ms = $6",
            )
            .bind(account)
            .bind(game)
            .bind(upto_ms)
            .bind(mailed_ms)
            .bind(old.upto_ms)
            .bind(old.mailed_ms)
            .execute(e)
            .await?
        }
    };
    Ok(done.rows_affected() == 1)
}

/// A mail with the name of the account it is to.
#[derive(Clone, Debug)]
pub struct NamedMail {
    pub mail: OutboxRow,
    pub account_name: String,
}

/// The newest `limit` mails about a game, with the name of the account each is to
/// (the GM console's list).
pub async fn of_game_named<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    limit: i64,
) -> sqlx::Result<Vec<NamedMail>> {
    sqlx::query(&format!(
        "SELECT {}, a.name AS account_name FROM outbox o JOIN accounts a ON a.id = o.account_id \
         WHERE o.game_id = $1 ORDER BY o.created_ms DESC, o.id DESC LIMIT $2",
        OUTBOX_COLUMNS
            .split(", ")
            .map(|c| format!("o.{c}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
    .bind(game)
    .bind(limit)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(NamedMail {
            mail: outbox_from_row(r)?,
            account_name: r.try_get("account_name")?,
        })
    })
    .collect()
}
