//! The club's moderators' tools as JSON: settings, moderators, suspensions, the log.

use axum::extract::State;
use axum::Json;

use crate::auth::Account;
use crate::error::{ApiResult, Body, ErrorBody, Params, Path};
use crate::services::forum::PageQuery;
use crate::services::moderation::{
    self, Appoint, ClubSettings, Log, Moderator, Overview, SettingsChange, Suspend, Suspension,
};
use crate::App;

/// Moderators: the club's settings, its moderators and the suspensions in force.
#[utoipa::path(get, path = "/api/moderation", operation_id = "moderation_overview", tag = "moderation",
    responses(
        (status = 200, description = "The overview", body = Overview),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn overview(State(app): State<App>, account: Account) -> ApiResult<Json<Overview>> {
    Ok(Json(moderation::overview(&app, &account).await?))
}

/// Moderators: change the club's settings (who reads the forum, who creates games).
#[utoipa::path(patch, path = "/api/moderation/settings", operation_id = "moderation_settings", tag = "moderation",
    request_body = SettingsChange,
    responses(
        (status = 200, description = "The settings now", body = ClubSettings),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn settings(
    State(app): State<App>,
    account: Account,
    Body(c): Body<SettingsChange>,
) -> ApiResult<Json<ClubSettings>> {
    Ok(Json(moderation::change_settings(&app, &account, c).await?))
}

/// Moderators: appoint a moderator.
#[utoipa::path(post, path = "/api/moderation/moderators", operation_id = "moderation_appoint", tag = "moderation",
    request_body = Appoint,
    responses(
        (status = 200, description = "Appointed", body = Moderator),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 409, description = "Already a moderator", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn appoint(State(app): State<App>, account: Account, Body(a): Body<Appoint>) -> ApiResult<Json<Moderator>> {
    Ok(Json(moderation::appoint(&app, &account, a).await?))
}

/// Moderators: end a moderator's role (the club keeps at least one).
#[utoipa::path(delete, path = "/api/moderation/moderators/{name}", operation_id = "moderation_remove", tag = "moderation",
    params(("name" = String, Path, description = "The moderator's account")),
    responses(
        (status = 200, description = "Removed; the overview now", body = Overview),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
        (status = 404, description = "No such account, or not a moderator", body = ErrorBody),
        (status = 409, description = "The last moderator", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn remove(State(app): State<App>, account: Account, Path(name): Path<String>) -> ApiResult<Json<Overview>> {
    moderation::remove(&app, &account, &name).await?;
    Ok(Json(moderation::overview(&app, &account).await?))
}

/// Moderators: suspend an account.
///
/// A suspended account may read, but posting, orders, bids and press are refused (403
/// with the reason and until when). A moderator cannot be suspended (remove the role
/// first), nor can one suspend oneself.
#[utoipa::path(post, path = "/api/moderation/suspensions", operation_id = "moderation_suspend", tag = "moderation",
    request_body = Suspend,
    responses(
        (status = 200, description = "Suspended", body = Suspension),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 409, description = "A moderator, or oneself", body = ErrorBody),
        (status = 422, description = "No reason, or a bad number of days", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn suspend(State(app): State<App>, account: Account, Body(s): Body<Suspend>) -> ApiResult<Json<Suspension>> {
    Ok(Json(moderation::suspend(&app, &account, s).await?))
}

/// Moderators: lift an account's suspension.
#[utoipa::path(delete, path = "/api/moderation/suspensions/{name}", operation_id = "moderation_reinstate", tag = "moderation",
    params(("name" = String, Path, description = "The suspended account")),
    responses(
        (status = 200, description = "Lifted; the overview now", body = Overview),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
        (status = 404, description = "No such account, or not suspended", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn reinstate(
    State(app): State<App>,
    account: Account,
    Path(name): Path<String>,
) -> ApiResult<Json<Overview>> {
    moderation::reinstate(&app, &account, &name).await?;
    Ok(Json(moderation::overview(&app, &account).await?))
}

/// Moderators: the moderation log, newest first, 50 entries a page.
#[utoipa::path(get, path = "/api/moderation/log", operation_id = "moderation_log", tag = "moderation",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of the log", body = Log),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
        (status = 404, description = "No such page", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn log(State(app): State<App>, account: Account, Params(q): Params<PageQuery>) -> ApiResult<Json<Log>> {
    Ok(Json(moderation::log_page(&app, &account, q.page.unwrap_or(1)).await?))
}
