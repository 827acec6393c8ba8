//! Delivering the outbox: the transport (SMTP through lettre, or a folder of `.eml`
//! files) and the sender task every server runs.
//!
//! A mail is written to the outbox in the transaction of the event that causes it
//! (`services::mail`), so it exists exactly when the event does. The sender claims one
//! row at a time (`store::mail::claim`: on PostgreSQL a row lock taken with `SKIP
//! LOCKED` and held while sending, so two servers never send one mail; on SQLite a
//! lease), sends it, and marks it sent. A temporary refusal (4xx, a connection that
//! fails) moves the row's due time on with a growing back-off; a permanent one (5xx)
//! marks the mail failed and the address bounced, so nothing more goes to it and the
//! account page says so.
//!
//! The one window left is a server that dies after the mail server has said 250 and
//! before its own commit: the mail is sent again, with the same `Message-ID`, `Date`
//! and body, which mail clients show once. In a mail folder the file is named by the
//! row, so a second write replaces the first.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use askama::Template;
use lettre::message::header::ContentType;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::db::Backend;
use crate::error::ApiResult;
use crate::services::mail_map::{self, Trouble};
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
    Smtp(Box<AsyncSmtpTransport<Tokio1Executor>>),
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

/// The outcome of one attempt.
enum Attempt {
    Sent,
    /// Try again later: the mail server's or the connection's words.
    Later(String),
    /// Never: the address or the mail was refused for good.
    Refused(String),
}

impl Mailer {
    /// Reads the options: `smtp` is an `smtp://` or `smtps://` URL (user and password in
    /// it when the server asks for them). `smtp://` uses STARTTLS and requires it, but to
    /// a loopback address, where plain SMTP is allowed; `smtps://` is TLS from the
    /// first byte; `?tls=opportunistic` takes STARTTLS only when offered.
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
            (Some(url), None) => Transport::Smtp(Box::new(smtp_transport(url)?)),
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

fn smtp_transport(url: &str) -> Result<AsyncSmtpTransport<Tokio1Executor>, String> {
    let shown = redact(url);
    let loopback = url_host(url)
        .is_some_and(|h| h == "localhost" || h.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback()));
    let url = if url.starts_with("smtp://") && !url.contains("tls=") && !loopback {
        format!("{url}{}tls=required", if url.contains('?') { '&' } else { '?' })
    } else {
        url.to_string()
    };
    Ok(AsyncSmtpTransport::<Tokio1Executor>::from_url(&url)
        .map_err(|e| format!("--smtp {shown}: {e}"))?
        .timeout(Some(Duration::from_secs(30)))
        .build())
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, rest)), Some(_)) => {
            let (userinfo, host) = rest.rsplit_once('@').unwrap_or(("", rest));
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{scheme}://{user}:…@{host}")
        }
        _ => url.to_string(),
    }
}

/// The `Message-ID` every mail of a game refers to, so that a mail client threads them.
pub fn game_thread_id(game: i64, domain: &str) -> String {
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
                    eprintln!("chancery-server: mail: {}", e.message);
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
    // On PostgreSQL the claiming transaction holds the row until the outcome is written
    // in it; on SQLite the lease is committed at once, so that the database is free
    // while the mail server answers, and the outcome is written in a new transaction.
    let held = match app.db.backend {
        Backend::Postgres => {
            // The commit that records the outcome ends the window in which a kill makes
            // the other server send this mail again; not waiting for the log to reach the
            // disk keeps that window to a round trip. (Set now, so that it costs no round
            // trip inside the window.) Losing that commit in a crash of PostgreSQL itself
            // costs the same as the window: one resend.
            sqlx::query("SET LOCAL synchronous_commit TO OFF")
                .execute(&mut *tx)
                .await?;
            // For the same reason the mail is marked sent before it is sent, behind a
            // savepoint that any other outcome rolls back to: after the mail server's
            // 250 only the commit is left to do.
            sqlx::query("SAVEPOINT sending").execute(&mut *tx).await?;
            store::mail::mark_sent(&mut *tx, row.id, now, &app.server_id).await?;
            Some(tx)
        }
        Backend::Sqlite => {
            tx.commit().await?;
            None
        }
    };
    let attempt = attempt(app, &row, now).await;
    let marked = held.is_some();
    let mut tx = match held {
        Some(tx) => tx,
        None => app.db.write.begin().await?,
    };
    if marked && !matches!(attempt, Attempt::Sent) {
        sqlx::query("ROLLBACK TO SAVEPOINT sending").execute(&mut *tx).await?;
    }
    let now = app.clock.now_ms();
    match attempt {
        Attempt::Sent if marked => {}
        Attempt::Sent => store::mail::mark_sent(&mut *tx, row.id, now, &app.server_id).await?,
        Attempt::Later(why) if now - row.created_ms < GIVE_UP_MS => {
            let wait = FIRST_RETRY_MS
                .saturating_mul(1 << row.attempts.clamp(0, 20))
                .min(LONGEST_RETRY_MS);
            eprintln!(
                "chancery-server: mail {} to {} not sent ({why}); trying again in {} s",
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
            eprintln!("chancery-server: mail {} to {} refused: {why}", row.id, row.address);
            store::mail::mark_failed(&mut *tx, row.id, &why).await?;
            store::mail::bounced(&mut *tx, row.account_id, &row.address, &why, now).await?;
        }
    }
    tx.commit().await?;
    Ok(true)
}

async fn attempt(app: &App, row: &OutboxRow, now: i64) -> Attempt {
    // The account's address as it is now: a mail for an address since changed or
    // bounced is not sent.
    let address = match store::mail::address(&app.db.read, row.account_id).await {
        Ok(a) => a,
        Err(e) => return Attempt::Later(e.to_string()),
    };
    let key = match address {
        Some(a) if a.address != row.address => return Attempt::Refused("the account's address changed".into()),
        Some(a) if a.bounced.is_some() => return Attempt::Refused("the address bounced earlier".into()),
        Some(a) => a.unsubscribe_key,
        None => return Attempt::Refused("the account has no address any more".into()),
    };
    let pictures = match pictures(app, row).await {
        Ok(p) => p,
        Err(later) => return later,
    };
    let message = match build(&app.mailer, row, &key, &pictures) {
        Ok(m) => m,
        Err(e) => return Attempt::Refused(e),
    };
    match &app.mailer.transport {
        Transport::None => Attempt::Later("no transport".into()),
        Transport::Dir(dir) => write_file(dir, row, &message, now).await,
        Transport::Smtp(smtp) => match smtp.send(message).await {
            Ok(_) => Attempt::Sent,
            Err(e) if e.is_permanent() => Attempt::Refused(e.to_string()),
            Err(e) => Attempt::Later(e.to_string()),
        },
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
    for (game, seq) in mail_map::parse_maps(row.maps.as_deref()) {
        match mail_map::png(app, game, seq).await {
            Ok(png) => out.push((mail_map::map_cid(&app.mailer.domain, game, seq), png)),
            Err(Trouble::Later(why)) if row.attempts < MAP_ATTEMPTS => return Err(Attempt::Later(why)),
            Err(Trouble::Later(why) | Trouble::Never(why)) => {
                eprintln!("chancery-server: mail {} goes without its map: {why}", row.id);
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
pub fn unsubscribe_url(mailer: &Mailer, key: &str, kind: &str, game: Option<i64>) -> String {
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
    let unsubscribe = unsubscribe_url(mailer, key, &row.kind, row.game_id);
    let confirmation = row.kind == "confirm";
    let mut stored_html = row.html_body.clone();
    for (game, seq) in mail_map::parse_maps(row.maps.as_deref()) {
        let cid = mail_map::map_cid(&mailer.domain, game, seq);
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
    fn hosts_and_redaction() {
        assert_eq!(url_host("https://club.example:8443/x"), Some("club.example"));
        assert_eq!(url_host("smtp://u:p@127.0.0.1:2525"), Some("127.0.0.1"));
        assert_eq!(url_host("http://[::1]:80"), Some("::1"));
        assert_eq!(
            redact("smtp://me:secret@mail.example:587"),
            "smtp://me:…@mail.example:587"
        );
        assert_eq!(redact("smtp://mail.example"), "smtp://mail.example");
    }

    // lettre's pool starts its cleanup task with the transport: a runtime is needed.
    #[tokio::test]
    async fn smtp_urls_are_read() {
        assert!(smtp_transport("smtp://u:p@127.0.0.1:2525").is_ok());
        assert!(smtp_transport("smtps://u:p@mail.example").is_ok());
        assert!(smtp_transport("smtp://mail.example:587").is_ok());
        assert!(smtp_transport("ftp://mail.example").is_err());
    }
}
