//! Delivering the outbox: the transport (SMTP through lettre, or a folder of `.eml`
//! files) and the sender task every server runs.
//!
//! A mail is written to the outbox in the transaction of the event that causes it
//! (by [`super`], the composing side), so it exists exactly when the event does. The
//! sender reads only the outbox, the store and the mail's [`super::map`], never the
//! composing side, which uses its settings ([`Mailer`]): the mail room has no import
//! circle. The sender claims one
//! row at a time (`store::mail::claim`: on PostgreSQL a row lock taken with `SKIP
//! LOCKED` and held while sending, so two servers never send one mail at once; on SQLite
//! a lease), and records it as sent in the database after the message's last byte and
//! before the dot that ends it ([`smtp`]): a sender killed before that commit leaves the
//! mail server with an unfinished message, which it discards, and the row unsent, for
//! this server or another to send; one killed after it has sent the mail and marked it.
//! Each mail is so delivered once, but for a kill between the commit's write and the
//! dot's (two system calls, one after the other, on PostgreSQL), which loses that mail.
//!
//! A temporary refusal (4xx, a connection that fails, and any refusal of the club's own
//! settings: the greeting, AUTH, the sender's address) moves the row's due time on with
//! a growing back-off; a recipient refused for good (5xx to RCPT) marks the mail failed
//! and the address bounced, so nothing more goes to it and the account page says so; a
//! message refused for good marks only the mail failed. A refusal of the message at its
//! end undoes the mark first. In a mail folder the file is named by the row, so a second
//! write replaces the first.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use askama::Template;
use lettre::message::header::ContentType;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;

use super::map::{self, Trouble};
use super::smtp;
use crate::db::{Backend, Tx};
use crate::error::ApiResult;
use crate::model::{GameId, MailKind};
use crate::store::{self, mail::OutboxRow};
use crate::App;

/// How long an SQLite lease keeps a claimed mail from being claimed again.
const LEASE_MS: i64 = 120_000;
/// The first retry after a temporary failure; each next one waits twice as long.
const FIRST_RETRY_MS: i64 = 5_000;
const LONGEST_RETRY_MS: i64 = 15 * 60_000;
/// After this long without success a mail is given up (a deadline reminder is stale by
/// then, and a mail server refusing for two days is refusing).
const GIVE_UP_MS: i64 = 2 * 24 * 3_600_000;

/// Where mail goes.
pub enum Transport {
    /// None: nothing is mailed, and nothing is written to the outbox
    /// (`services::mail::enqueue`).
    None,
    Smtp(Box<smtp::Smtp>),
    /// One `.eml` file per mail.
    Dir(PathBuf),
}

/// How the server sends mail: the options `--smtp`, `--mail-dir` and `--mail-from`.
pub struct Mailer {
    pub transport: Transport,
    pub from: Mailbox,
    /// The domain of the `Message-ID`s.
    pub domain: String,
    /// `scheme://host[:port]` the links in mails point at.
    pub base_url: String,
}

/// A PEM file of certificates to trust for the mail server, besides the system's.
pub const SMTP_CA_ENV: &str = "CHANCERY_SMTP_CA";

/// The outcome of one attempt.
enum Attempt {
    Sent,
    /// Try again later: the mail server's or the connection's words.
    Later(String),
    /// Never: the address was refused for good (it bounces).
    Refused(String),
    /// Never: this mail was refused for good; the address is not to blame.
    Rejected(String),
}

impl Mailer {
    /// Reads the options: `smtp` is an `smtp://` or `smtps://` URL (user and password in
    /// it when the server asks for them; see [`smtp::Config::parse`]). A PEM file named
    /// by `CHANCERY_SMTP_CA` is trusted besides the system's certificates (a club's own
    /// mail server).
    pub fn new(smtp: Option<&str>, dir: Option<&str>, from: Option<&str>, base_url: &str) -> Result<Mailer, String> {
        let domain = url_host(base_url).unwrap_or("localhost").to_string();
        let from: Mailbox = match from {
            Some(f) => f.parse().map_err(|e| format!("--mail-from `{f}`: {e}"))?,
            None => format!("Chancery <chancery@{domain}>")
                .parse()
                .map_err(|e| format!("the default sender address for `{domain}`: {e}; set --mail-from"))?,
        };
        let transport = match (smtp, dir) {
            (Some(_), Some(_)) => return Err("give --smtp or --mail-dir, not both".into()),
            (Some(url), None) => {
                let mut config = smtp::Config::parse(url, &domain)?;
                if let Some(path) = std::env::var_os(SMTP_CA_ENV).filter(|p| !p.is_empty()) {
                    let shown = std::path::Path::new(&path).display().to_string();
                    let pem = std::fs::read(&path).map_err(|e| format!("{SMTP_CA_ENV} {shown}: {e}"))?;
                    config.trust(&pem).map_err(|e| format!("{SMTP_CA_ENV} {shown}: {e}"))?;
                }
                Transport::Smtp(Box::new(smtp::Smtp::new(config)))
            }
            (None, Some(d)) => {
                std::fs::create_dir_all(d).map_err(|e| format!("--mail-dir {d}: {e}"))?;
                Transport::Dir(PathBuf::from(d))
            }
            (None, None) => Transport::None,
        };
        Ok(Mailer {
            transport,
            from,
            domain,
            base_url: base_url.trim_end_matches('/').to_string(),
        })
    }

    pub fn sends(&self) -> bool {
        !matches!(self.transport, Transport::None)
    }

    /// What the GM console says of the mail of this server.
    pub fn describe(&self) -> String {
        match &self.transport {
            Transport::None => "not sent: no mail transport is configured (--smtp or --mail-dir)".into(),
            Transport::Smtp(_) => "sent over SMTP".into(),
            Transport::Dir(d) => format!("written to {}", d.display()),
        }
    }
}

fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split('/').next()?;
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.starts_with('[') {
        return host.split(']').next().map(|h| h.trim_start_matches('['));
    }
    host.split(':').next().filter(|h| !h.is_empty())
}

/// The `Message-ID` every mail of a game refers to, so that a mail client threads them.
pub fn game_thread_id(game: GameId, domain: &str) -> String {
    format!("<game-{game}@{domain}>")
}

/// The sender: sends what is due, then waits a tick or a wake-up.
pub async fn run(app: App, tick_ms: u64) {
    if !app.mailer.sends() {
        return;
    }
    let tick = Duration::from_millis(tick_ms.max(10));
    loop {
        loop {
            match send_one(&app).await {
                Ok(true) => continue,
                Ok(false) => break,
                Err(e) => {
                    tracing::error!("mail: {}", e.message);
                    break;
                }
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = app.mail_wake.notified() => {}
        }
    }
}

/// Claims, sends and marks one due mail; false when none is due.
pub async fn send_one(app: &App) -> ApiResult<bool> {
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    let Some(row) = store::mail::claim(&mut tx, app.db.backend, now, LEASE_MS).await? else {
        return Ok(false);
    };
    // On PostgreSQL the claiming transaction holds the row until the mail is sent, and
    // the mark is written in it now, behind a savepoint that a failure rolls back to, so
    // that the commit is all that is left to do while the mail server waits for the
    // message's end. On SQLite the lease is committed at once, so that the database is
    // free while the mail server answers, and the mark is a transaction of its own.
    let mut held = match app.db.backend {
        Backend::Postgres => {
            // The commit's request is sent just before the dot and its reply read after
            // the mail server's (smtp::Smtp::send); not waiting for the log to reach the
            // disk keeps that reply quick. A crash of PostgreSQL itself that loses the
            // commit costs a resend.
            sqlx::query("SET LOCAL synchronous_commit TO OFF")
                .execute(&mut *tx)
                .await?;
            sqlx::query("SAVEPOINT sending").execute(&mut *tx).await?;
            store::mail::mark_sent(&mut *tx, row.id, now, &app.server_id).await?;
            Some(tx)
        }
        Backend::Sqlite => {
            tx.commit().await?;
            None
        }
    };
    let (attempt, marked) = attempt(app, &row, now, &mut held).await;
    if marked && matches!(attempt, Attempt::Sent) {
        return Ok(true);
    }
    // Still in the claim's savepoint (PostgreSQL) unless the commit was run.
    let in_savepoint = held.is_some();
    let mut tx = match held {
        // PostgreSQL, the mark not committed: the lock is still held.
        Some(mut tx) => {
            if !matches!(attempt, Attempt::Sent) {
                sqlx::query("ROLLBACK TO SAVEPOINT sending").execute(&mut *tx).await?;
            }
            tx
        }
        None => {
            let mut tx = app.db.write.begin().await?;
            if !matches!(attempt, Attempt::Sent) {
                // A mark committed before the mail server refused the message, or by
                // a commit whose answer was lost, is taken back.
                store::mail::unmark_sent(&mut *tx, row.id, now, &app.server_id).await?;
            }
            tx
        }
    };
    let now = app.clock.now_ms();
    match attempt {
        // A mail folder: written, and marked (on PostgreSQL already, in the savepoint).
        Attempt::Sent if in_savepoint => {}
        Attempt::Sent => store::mail::mark_sent(&mut *tx, row.id, now, &app.server_id).await?,
        Attempt::Later(why) if now - row.created_ms < GIVE_UP_MS => {
            let wait = FIRST_RETRY_MS
                .saturating_mul(1 << row.attempts.clamp(0, 20))
                .min(LONGEST_RETRY_MS);
            tracing::warn!(
                "mail {} to {} not sent ({why}); trying again in {} s",
                row.id,
                row.address,
                wait / 1000
            );
            store::mail::retry_at(&mut *tx, row.id, now + wait, &why).await?;
        }
        Attempt::Later(why) => {
            let why = format!("given up after two days: {why}");
            store::mail::mark_failed(&mut *tx, row.id, &why).await?;
        }
        Attempt::Refused(why) => {
            tracing::warn!("mail {} to {} refused: {why}", row.id, row.address);
            store::mail::mark_failed(&mut *tx, row.id, &why).await?;
            store::mail::bounced(&mut *tx, row.account_id, &row.address, &why, now).await?;
        }
        Attempt::Rejected(why) => {
            tracing::warn!("mail {} to {} rejected: {why}", row.id, row.address);
            store::mail::mark_failed(&mut *tx, row.id, &why).await?;
        }
    }
    tx.commit().await?;
    Ok(true)
}

/// One attempt at sending `row`; and whether its "sent" mark was committed (over SMTP,
/// just before the message's end: from `held` on PostgreSQL, a new transaction on
/// SQLite).
async fn attempt(app: &App, row: &OutboxRow, now: i64, held: &mut Option<Tx>) -> (Attempt, bool) {
    // The account's address as it is now: a mail for an address since changed or
    // bounced is not sent.
    let address = match store::mail::address(&app.db.read, row.account_id).await {
        Ok(a) => a,
        Err(e) => return (Attempt::Later(e.to_string()), false),
    };
    let key = match address {
        Some(a) if a.address != row.address => {
            return (Attempt::Refused("the account's address changed".into()), false)
        }
        Some(a) if a.bounced.is_some() => return (Attempt::Refused("the address bounced earlier".into()), false),
        Some(a) => a.unsubscribe_key,
        None => return (Attempt::Refused("the account has no address any more".into()), false),
    };
    let pictures = match pictures(app, row).await {
        Ok(p) => p,
        Err(later) => return (later, false),
    };
    let message = match build(&app.mailer, row, &key, &pictures) {
        Ok(m) => m,
        // Almost always an address the mail library cannot read: it bounces.
        Err(e) => return (Attempt::Refused(e), false),
    };
    match &app.mailer.transport {
        Transport::None => (Attempt::Later("no transport".into()), false),
        Transport::Dir(dir) => (write_file(dir, row, &message, now).await, false),
        Transport::Smtp(smtp) => {
            // PostgreSQL's commit is the claim's; the server applies it once sent.
            let applied_once_sent = held.is_some();
            let commit: smtp::Commit<'_> = match held {
                Some(_) => Box::pin(async move {
                    let tx = held.take().ok_or("the claim's transaction is gone")?;
                    tx.commit().await.map_err(|e| e.to_string())
                }),
                None => Box::pin(async move {
                    let mut tx = app.db.write.begin().await.map_err(|e| e.to_string())?;
                    store::mail::mark_sent(&mut *tx, row.id, now, &app.server_id)
                        .await
                        .map_err(|e| e.to_string())?;
                    tx.commit().await.map_err(|e| e.to_string())
                }),
            };
            let failed = |f: smtp::Failure| match f.kind {
                smtp::FailureKind::Later => Attempt::Later(f.why),
                smtp::FailureKind::Recipient => Attempt::Refused(f.why),
                smtp::FailureKind::Message => Attempt::Rejected(f.why),
            };
            match smtp
                .send(message.envelope(), &message.formatted(), commit, applied_once_sent)
                .await
            {
                smtp::Outcome::Taken => (Attempt::Sent, true),
                smtp::Outcome::TakenUnmarked(why) => {
                    tracing::warn!(
                        "mail {} was taken but its sent mark failed ({why}); marking it again",
                        row.id
                    );
                    (Attempt::Sent, false)
                }
                smtp::Outcome::NotTaken(f) => (failed(f), false),
                smtp::Outcome::Undo(f) => (failed(f), true),
            }
        }
    }
}

/// How many attempts a mail waits for a map that cannot be drawn yet (an uploaded
/// variant's map being shaped, a busy pool) before it goes without it.
const MAP_ATTEMPTS: i64 = 5;

/// The maps a mail shows, as `(Content-ID, PNG)`; a map that can never be drawn is left
/// out (the mail still links to the history page), one that cannot be drawn yet makes
/// the mail wait, a few times at most.
async fn pictures(app: &App, row: &OutboxRow) -> Result<Vec<(String, Arc<Vec<u8>>)>, Attempt> {
    let mut out = Vec::new();
    for m in &row.maps {
        match map::png(app, m.game_id, m.seq).await {
            Ok(png) => out.push((map::map_cid(&app.mailer.domain, m.game_id, m.seq), png)),
            Err(Trouble::Later(why)) if row.attempts < MAP_ATTEMPTS => return Err(Attempt::Later(why)),
            Err(Trouble::Later(why) | Trouble::Never(why)) => {
                tracing::warn!("mail {} goes without its map: {why}", row.id);
            }
        }
    }
    Ok(out)
}

/// The HTML part without the picture of `cid` (a map that could not be drawn).
fn without_picture(html: &str, cid: &str) -> String {
    let Some(start) = html.find(&format!("<img src=\"cid:{cid}\"")) else {
        return html.to_string();
    };
    let end = html[start..].find('>').map_or(html.len(), |e| start + e + 1);
    format!("{}{}", &html[..start], &html[end..])
}

/// `DIR/<created>-<row id>.eml`, written to a temporary name and renamed, so the folder
/// never holds half a mail and a second attempt replaces the first.
async fn write_file(dir: &std::path::Path, row: &OutboxRow, message: &Message, now: i64) -> Attempt {
    let name = mail_file_name(row);
    let temp = dir.join(format!(".{name}.{now}.tmp"));
    let bytes = message.formatted();
    let done = async {
        tokio::fs::write(&temp, &bytes).await?;
        tokio::fs::rename(&temp, dir.join(&name)).await
    };
    match done.await {
        Ok(()) => Attempt::Sent,
        Err(e) => Attempt::Later(format!("writing {name}: {e}")),
    }
}

pub fn mail_file_name(row: &OutboxRow) -> String {
    format!(
        "{}-{}.eml",
        crate::clock::iso_utc(row.created_ms).replace(':', ""),
        row.id
    )
}

/// The unsubscribe link of a mail: turns off its kind (for its game, when it has one).
pub fn unsubscribe_url(mailer: &Mailer, key: &str, kind: &str, game: Option<GameId>) -> String {
    match game {
        Some(g) => format!("{}/mail/unsubscribe/{key}?kind={kind}&game={g}", mailer.base_url),
        None => format!("{}/mail/unsubscribe/{key}?kind={kind}", mailer.base_url),
    }
}

/// The links at the end of a list mail's HTML part.
#[derive(Template)]
#[template(path = "mail/footer.html")]
struct Footer<'a> {
    unsubscribe: &'a str,
    settings: &'a str,
}

/// The message as sent: the stored subject and bodies, with the unsubscribe footer and
/// headers of its reader, threaded under its game, and the pictures its HTML part shows
/// (`(Content-ID, PNG)`) beside that part (`multipart/related`, RFC 2387).
pub fn build(
    mailer: &Mailer,
    row: &OutboxRow,
    key: &str,
    pictures: &[(String, Arc<Vec<u8>>)],
) -> Result<Message, String> {
    let to: Mailbox = row
        .address
        .parse()
        .map_err(|e| format!("the address `{}`: {e}", row.address))?;
    let unsubscribe = unsubscribe_url(mailer, key, row.kind.as_str(), row.game_id);
    let confirmation = row.kind == MailKind::Confirm;
    let mut stored_html = row.html_body.clone();
    for m in &row.maps {
        let cid = map::map_cid(&mailer.domain, m.game_id, m.seq);
        if !pictures.iter().any(|(c, _)| *c == cid) {
            stored_html = without_picture(&stored_html, &cid);
        }
    }
    let (text, html) = if confirmation {
        (row.text_body.clone(), stored_html)
    } else {
        let prefs = format!("{}/account", mailer.base_url);
        (
            format!(
                "{}\n-- \nStop these mails: {unsubscribe}\nAll your mail settings: {prefs}\n",
                row.text_body
            ),
            format!(
                "{}{}",
                stored_html,
                Footer {
                    unsubscribe: &unsubscribe,
                    settings: &prefs,
                }
                .render()
                .map_err(|e| format!("composing mail {}: {e}", row.id))?
            ),
        )
    };
    let date = UNIX_EPOCH + Duration::from_millis(u64::try_from(row.created_ms).unwrap_or(0));
    let mut builder = Message::builder()
        .message_id(Some(row.message_id.clone()))
        .date(date.max(UNIX_EPOCH))
        .from(mailer.from.clone())
        .to(to)
        .subject(row.subject.clone());
    if let Some(game) = row.game_id {
        let thread = game_thread_id(game, &mailer.domain);
        builder = builder.in_reply_to(thread.clone()).references(thread);
    }
    if !confirmation {
        builder = builder
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{unsubscribe}>"),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".into(),
            ));
    }
    let body = if pictures.is_empty() {
        MultiPart::alternative_plain_html(text, html)
    } else {
        let mut related = MultiPart::related().singlepart(SinglePart::html(html));
        for (cid, png) in pictures {
            let name = format!("{}.png", cid.split('@').next().unwrap_or("map"));
            related = related.singlepart(Attachment::new_inline_with_name(cid.clone(), name).body(
                png.to_vec(),
                ContentType::parse("image/png").map_err(|e| e.to_string())?,
            ));
        }
        MultiPart::alternative()
            .singlepart(SinglePart::plain(text))
            .multipart(related)
    };
    builder
        .multipart(body)
        .map_err(|e| format!("composing mail {}: {e}", row.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert_eq!(url_host("https://club.example:8443/x"), Some("club.example"));
        assert_eq!(url_host("smtp://u:p@127.0.0.1:2525"), Some("127.0.0.1"));
        assert_eq!(url_host("http://[::1]:80"), Some("::1"));
    }
}
