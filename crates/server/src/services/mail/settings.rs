//! Each account's address and what it wants mailed: setting an address (a link to
//! confirm it is mailed there, and nothing else is sent until it is followed), the
//! preferences per kind and per game, and unsubscribing by the key in a mail's link.

use crate::error::{ApiError, ApiResult};
use crate::model::{Account, GameId, MailScope};
use crate::services::mail::{self, Block, Kind, Reader};
use crate::store::{self, mail::AddressRow};
use crate::App;

/// The longest address accepted (RFC 5321's path limit).
pub const MAX_ADDRESS_CHARS: usize = 254;

/// An account's mail settings as the account page and the API show them.
pub struct Settings {
    pub address: Option<AddressRow>,
    /// The choices made, each for every game or one.
    pub prefs: Vec<store::mail::Pref>,
    pub options: store::mail::Options,
    /// How many mails wait for the digest, and when the next digest is due (with
    /// mails in it, or as chosen).
    pub held: i64,
    pub next_digest_ms: Option<i64>,
}

pub async fn settings(app: &App, account: &Account) -> ApiResult<Settings> {
    let options = store::mail::options(&app.db.read, account.id).await?;
    let store::mail::Held {
        count: held,
        due_ms: held_due,
    } = store::mail::held_count(&app.db.read, account.id).await?;
    let next_digest_ms = held_due.or_else(|| options.digest.then(|| next_digest(app.clock.now_ms(), &options)));
    Ok(Settings {
        address: store::mail::address(&app.db.read, account.id).await?,
        prefs: store::mail::prefs(&app.db.read, account.id).await?,
        options,
        held,
        next_digest_ms,
    })
}

/// The next digest after `now_ms` for these options.
fn next_digest(now_ms: i64, o: &store::mail::Options) -> i64 {
    mail::next_digest_ms(
        now_ms,
        u32::try_from(o.digest_hour.clamp(0, 23)).unwrap_or(0),
        mail::zone_of(o.time_zone.as_deref()).unwrap_or(chrono_tz::UTC),
    )
}

/// Writes the options and moves the mails held for a digest to the digest they now
/// wait for: the next one at the new hour or in the new zone, or, with the digest
/// turned off, one gathered at once (so that nothing held is lost or left waiting).
async fn save_options(app: &App, account: &Account, options: &store::mail::Options) -> ApiResult<()> {
    let now = app.clock.now_ms();
    let due = if options.digest { next_digest(now, options) } else { now };
    let mut tx = app.db.write.begin().await?;
    store::mail::set_options(&mut *tx, account.id, options).await?;
    store::mail::reschedule_held(&mut *tx, account.id, due).await?;
    tx.commit().await?;
    Ok(())
}

/// Chooses how mail comes: each mail as it comes (`digest` false), or one digest a day
/// at `hour`:00 in the account's zone. Urgent mail goes at once either way.
pub async fn set_digest(app: &App, account: &Account, digest: bool, hour: Option<i64>) -> ApiResult<Settings> {
    let mut options = store::mail::options(&app.db.read, account.id).await?;
    if let Some(h) = hour {
        if !(0..=23).contains(&h) {
            return Err(ApiError::unprocessable(format!(
                "the digest's hour is 0 to 23 (in your time zone), not {h}"
            )));
        }
        options.digest_hour = h;
    }
    options.digest = digest;
    save_options(app, account, &options).await?;
    settings(app, account).await
}

fn random_hex() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Sets the account's address and mails the link that confirms it, in one transaction.
pub async fn set_address(app: &App, account: &Account, address: &str) -> ApiResult<Settings> {
    if !app.mailer.sends() {
        return Err(ApiError::conflict(
            "this club sends no mail: its server runs without a mail transport (--smtp or --mail-dir)",
        ));
    }
    let address = address.trim();
    if address.chars().count() > MAX_ADDRESS_CHARS {
        return Err(ApiError::unprocessable(format!(
            "an address has at most {MAX_ADDRESS_CHARS} characters"
        )));
    }
    let parsed: lettre::Address = address
        .parse()
        .map_err(|e| ApiError::unprocessable(format!("`{address}` is not a mail address: {e}")))?;
    let address = parsed.to_string();
    let token = random_hex();
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    store::mail::set_address(&mut *tx, account.id, &address, &hash(&token), &random_hex(), now).await?;
    let link = format!("{}/mail/confirm/{token}", app.mailer.base_url);
    let blocks = [
        Block::Para(format!(
            "Someone, probably you, gave this address to the account {} of the Chancery club.",
            account.name
        )),
        Block::Link {
            label: "Confirm it".into(),
            url: link,
        },
        Block::Para(
            "Until the link is followed, the club mails nothing else here. If it was not you, ignore this mail.".into(),
        ),
    ];
    let reader = Reader {
        account_id: account.id,
        address: address.clone(),
        power: None,
        zone: None,
        digest_hour: None,
    };
    mail::enqueue(
        &mut tx,
        app,
        &reader,
        None,
        Kind::Confirm,
        "Confirm your address".into(),
        &blocks,
    )
    .await?;
    tx.commit().await?;
    app.mail_wake.notify_one();
    settings(app, account).await
}

pub async fn remove_address(app: &App, account: &Account) -> ApiResult<Settings> {
    store::mail::remove_address(&app.db.write, account.id).await?;
    settings(app, account).await
}

/// Follows a confirmation link.
pub async fn confirm(app: &App, token: &str) -> ApiResult<()> {
    match store::mail::confirm(&app.db.write, &hash(token), app.clock.now_ms()).await? {
        Some(_) => Ok(()),
        None => Err(ApiError::not_found(
            "this confirmation link is not valid (the address may have been changed since it was sent)",
        )),
    }
}

/// Turns a kind of mail on or off, for all games (`game` None) or one.
pub async fn set_pref(
    app: &App,
    account: &Account,
    kind: &str,
    game: Option<GameId>,
    enabled: bool,
) -> ApiResult<Settings> {
    let kind = Kind::parse(kind).ok_or_else(|| {
        let names: Vec<&str> = Kind::CHOSEN.iter().map(|k| k.as_str()).collect();
        ApiError::unprocessable(format!("the kinds of mail are {}", names.join(", ")))
    })?;
    if let Some(g) = game {
        // No game has an id below 1; the store keeps 0 for every game.
        if g.0 <= 0 {
            return Err(ApiError::unprocessable("a game id is positive"));
        }
        crate::services::games::load(&app.db.read, g).await?;
    }
    store::mail::set_pref(&app.db.write, account.id, MailScope::from(game), kind, enabled).await?;
    settings(app, account).await
}

/// The one-click unsubscribe of a mail's link: turns its kind off for its game (or for
/// all games). The key names the account; it allows nothing else.
pub async fn unsubscribe(app: &App, key: &str, kind: &str, game: Option<GameId>) -> ApiResult<String> {
    let kind = Kind::parse_link(kind).ok_or_else(|| ApiError::not_found("no such kind of mail"))?;
    let Some(row) = store::mail::by_unsubscribe_key(&app.db.read, key).await? else {
        return Err(ApiError::not_found("this unsubscribe link is not valid"));
    };
    // A link names a game by its id, never one below 1: such a number is read as no game.
    let scope = MailScope::from(game.filter(|g| g.0 > 0));
    // A digest gathers every kind: stopping it stops them all (turning the digest off
    // instead would send each mail on its own, the opposite of what was asked).
    let kinds = if kind == Kind::Digest {
        Kind::CHOSEN.to_vec()
    } else {
        vec![kind]
    };
    let mut tx = app.db.write.begin().await?;
    for k in kinds {
        store::mail::set_pref(&mut *tx, row.account_id, scope, k, false).await?;
    }
    tx.commit().await?;
    Ok(match scope.game() {
        Some(g) => format!("No more mails of {} for game {g}.", kind.label()),
        None => format!("No more mails of {}.", kind.label()),
    })
}

/// Sets the account's time zone, in which pages and mails give times beside UTC (and
/// the digest's hour is read); None or `UTC` for UTC alone.
pub async fn set_zone(app: &App, account: &Account, zone: Option<&str>) -> ApiResult<Settings> {
    let zone = match zone.map(str::trim).filter(|z| !z.is_empty()) {
        None => None,
        Some(z) => {
            let tz = crate::deadlines::parse_zone(z).map_err(ApiError::unprocessable)?;
            (tz != chrono_tz::UTC).then(|| tz.name().to_string())
        }
    };
    let mut options = store::mail::options(&app.db.read, account.id).await?;
    options.time_zone = zone;
    save_options(app, account, &options).await?;
    // Pages give times in the zone the session's account carries (auth::SessionCache).
    app.sessions.forget_account(account.id);
    settings(app, account).await
}
