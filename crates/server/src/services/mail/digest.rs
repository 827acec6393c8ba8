//! The daily digest. An account that chose it gets, instead of each mail
//! as it comes, one mail a day at the hour it chose in its own time zone, with a section
//! per game. Mail that cannot wait still goes at once ([`super::hold_until`]): an address
//! confirmation, and any mail its reader must act on before the digest would reach
//! them (a reminder in a deadline's last hours, the start of a game whose first
//! deadline is near).
//!
//! A held mail is composed in its event's transaction like any other and written to the
//! outbox with the time of its digest (`outbox.digest_ms`), which the sender skips. The
//! digest pass here runs beside the sender ([`super::jobs`]), never on a request: for each
//! account whose digest is due it gathers the held mails into one new outbox row and
//! marks them carried by it (`digest_id`, and sent) in one transaction. On PostgreSQL
//! that transaction first locks the account's `mail_options` row with `FOR UPDATE SKIP
//! LOCKED`, so that a second server skips the account rather than build a second
//! digest; the conditional marking stops it too should it get that far. The digest row
//! is then sent by the sender like every other mail.

use askama::Template;
use chrono_tz::Tz;

use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::model::AccountId;
use crate::services::mail::{when, Kind};
use crate::store::{self, mail::NewMail, mail::OutboxRow};
use crate::App;

/// One game's part of a digest (or the club's, for mail about no game).
struct Section {
    title: String,
    mails: Vec<OutboxRow>,
}

/// The HTML part of a digest: each held mail's own HTML part (made by
/// `templates/mail/body.html`, which escaped its text) under its subject.
#[derive(Template)]
#[template(path = "mail/digest.html")]
struct DigestHtml<'a> {
    intro: &'a str,
    sections: &'a [Section],
}

/// Builds the digests due by now; how many were written.
pub async fn send_due(app: &App) -> ApiResult<usize> {
    let now = app.clock.now_ms();
    let mut written = 0;
    for account in store::mail::digests_due(&app.db.read, now).await? {
        if build(app, account, now).await? {
            written += 1;
        }
    }
    if written > 0 {
        app.mail_wake.notify_one();
    }
    Ok(written)
}

/// Gathers `account`'s held mails due by `now` into one digest, in one transaction;
/// false when there was nothing to gather or another server is gathering them.
async fn build(app: &App, account: AccountId, now: i64) -> ApiResult<bool> {
    let mut tx = app.db.write.begin().await?;
    if !store::mail::lock_digest(&mut tx, app.db.backend, account).await? {
        return Ok(false);
    }
    let held = store::mail::held(&mut tx, account, now).await?;
    if held.is_empty() {
        return Ok(false);
    }
    let address = store::mail::address(&mut *tx, account).await?;
    let Some(address) = address.filter(|a| a.confirmed && a.bounced.is_none()) else {
        // The address was removed, changed or refused since the mails were held: they
        // can go nowhere (a new address is confirmed first, and mail starts then).
        for row in &held {
            store::mail::mark_failed(&mut *tx, row.id, "no working address when the digest was due").await?;
        }
        tx.commit().await?;
        return Ok(false);
    };
    let options = store::mail::options(&mut *tx, account).await?;
    let zone: Option<Tz> = options.time_zone.as_deref().and_then(|z| z.parse().ok());
    let mut sections: Vec<Section> = Vec::new();
    for row in held.iter().cloned() {
        let title = match row.game_id {
            Some(g) => match store::games::by_id(&mut *tx, g).await? {
                Some(game) => game.name,
                None => format!("Game {g}"),
            },
            None => "The club".to_string(),
        };
        match sections.iter_mut().find(|s| s.title == title) {
            Some(s) => s.mails.push(row),
            None => sections.push(Section {
                title,
                mails: vec![row],
            }),
        }
    }
    let count = held.len();
    let mails = if count == 1 {
        "1 mail".to_string()
    } else {
        format!("{count} mails")
    };
    let intro = format!(
        "Your daily digest from the club: {mails} since {}, gathered at {}.",
        when(held[0].created_ms, zone),
        when(now, zone)
    );
    let mut text = format!("{intro}\n\n");
    for s in &sections {
        text.push_str(&format!("== {} ==\n\n", s.title));
        for m in &s.mails {
            text.push_str(&format!("-- {} ({})\n\n", m.subject, when(m.created_ms, zone)));
            text.push_str(m.text_body.trim_end());
            text.push_str("\n\n");
        }
    }
    let html = DigestHtml {
        intro: &intro,
        sections: &sections,
    }
    .render()
    .map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("composing a digest: {e}"),
        )
    })?;
    let mut maps = Vec::new();
    for one in held.iter().flat_map(|m| &m.maps) {
        if !maps.contains(one) {
            maps.push(*one);
        }
    }
    let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
    let id = new_id();
    let digest = NewMail {
        id,
        account_id: account,
        address: address.address,
        game_id: None,
        kind: Kind::Digest,
        subject: format!("Your digest: {mails} about {}", titles.join(", ")),
        text_body: text,
        html_body: html,
        message_id: format!("<{id}.digest@{}>", app.mailer.domain),
        created_ms: now,
        due_ms: now,
        maps,
        digest_ms: None,
    };
    store::mail::enqueue(&mut *tx, &digest).await?;
    for row in &held {
        if !store::mail::digested(&mut *tx, row.id, id, now).await? {
            // Another digest carried it first: this one is not written.
            tx.rollback().await?;
            return Ok(false);
        }
    }
    tx.commit().await?;
    Ok(true)
}
