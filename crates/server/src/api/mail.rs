//! The account's mail settings as JSON: its address, the kinds of mail it wants and its
//! time zone; and a game's reminder times, which its GM sets.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::Account;
use crate::error::{ApiResult, Body, ErrorBody, Path};
use crate::model::{GameId, MailScope};
use crate::services::mail::reminders::{self, Reminders};
use crate::services::mail::settings::{self as mail_settings, Settings};
use crate::services::mail::Kind;
use crate::App;

#[derive(Serialize, ToSchema)]
pub struct MailAddress {
    pub address: String,
    /// The link mailed to it has been followed; until then only that mail is sent.
    pub confirmed: bool,
    /// The mail server refused the address for good, in its words; nothing more is sent
    /// to it until an address is set again.
    pub bounced: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct MailPref {
    /// 0: every game.
    #[schema(value_type = i64)]
    pub game_id: MailScope,
    pub kind: String,
    pub enabled: bool,
}

#[derive(Serialize, ToSchema)]
pub struct MailKind {
    pub kind: String,
    pub label: String,
    /// Whether it is sent to an account that has not chosen.
    pub on_by_default: bool,
}

#[derive(Serialize, ToSchema)]
pub struct MailSettings {
    pub address: Option<MailAddress>,
    /// The choices made; a kind without one has its default (`on_by_default`).
    pub prefs: Vec<MailPref>,
    pub kinds: Vec<MailKind>,
    /// The account's zone (an IANA name), in which pages and mails give times beside
    /// UTC and the digest's hour is read; null for UTC alone.
    pub time_zone: Option<String>,
    pub digest: DigestSettings,
}

/// How mail comes: each mail as it comes, or one digest a day.
#[derive(Serialize, ToSchema)]
pub struct DigestSettings {
    /// One mail a day gathers the others; address confirmations and mail to act on
    /// before the digest would come (a reminder in a deadline's last hours) still go
    /// at once.
    pub enabled: bool,
    /// The digest's hour, 0 to 23, in `time_zone`.
    pub hour: i64,
    /// Mails waiting for the digest.
    pub held: i64,
    /// When the next digest is due (ISO 8601, UTC); null when none is.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next: Option<String>,
}

impl From<Settings> for MailSettings {
    fn from(s: Settings) -> MailSettings {
        MailSettings {
            address: s.address.map(|a| MailAddress {
                address: a.address,
                confirmed: a.confirmed,
                bounced: a.bounced,
            }),
            prefs: s
                .prefs
                .into_iter()
                .map(|p| MailPref {
                    game_id: p.scope,
                    kind: p.kind.as_str().into(),
                    enabled: p.enabled,
                })
                .collect(),
            kinds: Kind::CHOSEN
                .iter()
                .map(|k| MailKind {
                    kind: k.as_str().into(),
                    label: k.label().into(),
                    on_by_default: k.on_by_default(),
                })
                .collect(),
            time_zone: s.options.time_zone,
            digest: DigestSettings {
                enabled: s.options.digest,
                hour: s.options.digest_hour,
                held: s.held,
                next: s.next_digest_ms.map(crate::clock::iso_utc),
            },
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"address": "alice@example.org"}))]
pub struct AddressChange {
    pub address: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "results", "game_id": 12, "enabled": false}))]
pub struct PrefChange {
    /// One of `kinds` in the settings: results, game, gm, board (replies in the forum, under its old name, as stored).
    pub kind: String,
    /// One game; absent for every game.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub game_id: Option<GameId>,
    pub enabled: bool,
}

/// Your mail settings.
#[utoipa::path(get, path = "/api/me/mail", operation_id = "mail_settings", tag = "accounts",
    responses(
        (status = 200, description = "The address and the kinds of mail chosen", body = MailSettings),
        (status = 401, description = "Not logged in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn get(State(app): State<App>, account: Account) -> ApiResult<Json<MailSettings>> {
    Ok(Json(mail_settings::settings(&app, &account).await?.into()))
}

/// Set your mail address; a link to confirm it is mailed there.
#[utoipa::path(put, path = "/api/me/mail/address", operation_id = "set_mail_address", tag = "accounts",
    request_body = AddressChange,
    responses(
        (status = 200, description = "Set, not yet confirmed", body = MailSettings),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 409, description = "The club sends no mail (no transport configured)", body = ErrorBody),
        (status = 422, description = "Not a mail address", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn set_address(
    State(app): State<App>,
    account: Account,
    Body(change): Body<AddressChange>,
) -> ApiResult<Json<MailSettings>> {
    Ok(Json(
        mail_settings::set_address(&app, &account, &change.address)
            .await?
            .into(),
    ))
}

/// Remove your mail address: nothing more is mailed.
#[utoipa::path(delete, path = "/api/me/mail/address", operation_id = "remove_mail_address", tag = "accounts",
    responses(
        (status = 200, description = "Removed", body = MailSettings),
        (status = 401, description = "Not logged in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn remove_address(State(app): State<App>, account: Account) -> ApiResult<Json<MailSettings>> {
    Ok(Json(mail_settings::remove_address(&app, &account).await?.into()))
}

/// Turn a kind of mail on or off, for every game or one.
#[utoipa::path(put, path = "/api/me/mail/prefs", operation_id = "set_mail_pref", tag = "accounts",
    request_body = PrefChange,
    responses(
        (status = 200, description = "Set", body = MailSettings),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 422, description = "No such kind of mail", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn set_pref(
    State(app): State<App>,
    account: Account,
    Body(change): Body<PrefChange>,
) -> ApiResult<Json<MailSettings>> {
    Ok(Json(
        mail_settings::set_pref(&app, &account, &change.kind, change.game_id, change.enabled)
            .await?
            .into(),
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"time_zone": "Europe/Berlin"}))]
pub struct OptionsChange {
    /// An IANA zone name (`Europe/Berlin`); null or `UTC` for UTC alone.
    #[serde(default)]
    pub time_zone: Option<String>,
}

/// Set your time zone: pages and mails give times in it beside UTC, and the digest's
/// hour is read in it.
#[utoipa::path(put, path = "/api/me/mail/options", operation_id = "set_mail_options", tag = "accounts",
    request_body = OptionsChange,
    responses(
        (status = 200, description = "Set", body = MailSettings),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 422, description = "Not a time zone name", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn set_options(
    State(app): State<App>,
    account: Account,
    Body(change): Body<OptionsChange>,
) -> ApiResult<Json<MailSettings>> {
    Ok(Json(
        mail_settings::set_zone(&app, &account, change.time_zone.as_deref())
            .await?
            .into(),
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"digest": true, "hour": 7}))]
pub struct DigestChange {
    /// True for one digest a day, false for each mail as it comes (what is held is then
    /// sent at once, as one digest).
    pub digest: bool,
    /// The digest's hour, 0 to 23, in the account's zone; absent to keep the one chosen
    /// (7 until one is).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 23)]
    pub hour: Option<i64>,
}

/// Choose each mail as it comes, or one digest a day at an hour of your time zone.
#[utoipa::path(put, path = "/api/me/mail/digest", operation_id = "set_mail_digest", tag = "accounts",
    request_body = DigestChange,
    responses(
        (status = 200, description = "Set", body = MailSettings),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 422, description = "An hour outside 0 to 23", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn set_digest(
    State(app): State<App>,
    account: Account,
    Body(change): Body<DigestChange>,
) -> ApiResult<Json<MailSettings>> {
    Ok(Json(
        mail_settings::set_digest(&app, &account, change.digest, change.hour)
            .await?
            .into(),
    ))
}

/// The game's reminder times: minutes before each deadline at which players who have
/// given no orders are mailed.
#[utoipa::path(get, path = "/api/games/{id}/gm/reminders", operation_id = "gm_reminders", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The reminder times", body = Reminders),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn get_reminders(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
) -> ApiResult<Json<Reminders>> {
    Ok(Json(reminders::get(&app, &account, id).await?))
}

/// Set the game's reminder times (1 minute to a week before the deadline, at most four;
/// `[]` for none). They apply to the current deadline too.
#[utoipa::path(put, path = "/api/games/{id}/gm/reminders", operation_id = "gm_set_reminders", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Reminders,
    responses(
        (status = 200, description = "Set", body = Reminders),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 422, description = "Times out of range or repeated", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn set_reminders(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(r): Body<Reminders>,
) -> ApiResult<Json<Reminders>> {
    Ok(Json(reminders::set(&app, &account, id, r).await?))
}
