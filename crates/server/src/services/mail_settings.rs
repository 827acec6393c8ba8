//! Each account's address and what it wants mailed: setting an address (a link to
//! confirm it is mailed there, and nothing else is sent until it is followed), the
//! preferences per kind and per game, and unsubscribing by the key in a mail's link.

use crate::error::{ApiError, ApiResult};
use crate::model::Account;
use crate::services::mail::{self, Block, Kind, Reader};
use crate::store::{self, mail::AddressRow};
use crate::App;

/// The longest address accepted (RFC 5321's path limit).
pub const MAX_ADDRESS_CHARS: usize = 254;

/// An account's mail settings as the account page and the API show them.
pub struct Settings {
    pub address: Option<AddressRow>,
    /// `(game, kind, enabled)`; game 0 for all games.
    pub prefs: Vec<(i64, String, bool)>,
    pub options: store::mail::Options,
}

pub async fn settings(app: &App, account: &Account) -> ApiResult<Settings> {
    Ok(Settings {
        address: store::mail::address(&app.db.read, account.id).await?,
        prefs: store::mail::prefs(&app.db.read, account.id).await?,
        options: store::mail::options(&app.db.read, account.id).await?,
    })
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
    game: Option<i64>,
    enabled: bool,
) -> ApiResult<Settings> {
    let kind = Kind::parse(kind).ok_or_else(|| {
        let names: Vec<&str> = Kind::CHOSEN.iter().map(|k| k.as_str()).collect();
        ApiError::unprocessable(format!("the kinds of mail are {}", names.join(", ")))
    })?;
    if let Some(g) = game {
        if g <= 0 {
            return Err(ApiError::unprocessable("a game id is positive"));
        }
        crate::services::games::load(&app.db.read, g).await?;
    }
    store::mail::set_pref(&app.db.write, account.id, game.unwrap_or(0), kind.as_str(), enabled).await?;
    settings(app, account).await
}

/// The one-click unsubscribe of a mail's link: turns its kind off for its game (or for
/// all games). The key names the account; it allows nothing else.
pub async fn unsubscribe(app: &App, key: &str, kind: &str, game: Option<i64>) -> ApiResult<String> {
    let kind = Kind::parse(kind).ok_or_else(|| ApiError::not_found("no such kind of mail"))?;
    let Some(row) = store::mail::by_unsubscribe_key(&app.db.read, key).await? else {
        return Err(ApiError::not_found("this unsubscribe link is not valid"));
    };
    let game = game.filter(|g| *g > 0);
    store::mail::set_pref(&app.db.write, row.account_id, game.unwrap_or(0), kind.as_str(), false).await?;
    Ok(match game {
        Some(g) => format!("No more mails of {} for game {g}.", kind.label()),
        None => format!("No more mails of {}.", kind.label()),
    })
}

/// Sets the zone mails give times in beside UTC; None or `UTC` for UTC alone.
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
    store::mail::set_options(&app.db.write, account.id, &options).await?;
    settings(app, account).await
}
