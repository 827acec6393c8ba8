//! Accounts and sessions as JSON.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::{request_token, session_cookie, Account};
use crate::error::{ApiResult, Body, ErrorBody};
use crate::model::AccountId;
use crate::services::accounts::{self, Session};
use crate::App;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "alice", "password": "a long secret"}))]
pub struct Credentials {
    /// 3 to 32 letters, digits, `-`, `_` or `.`; unique regardless of case.
    pub name: String,
    /// 8 to 256 characters.
    pub password: String,
}

/// A new session. The token is also set as an HTTP-only cookie.
#[derive(Serialize, ToSchema)]
pub struct SessionAnswer {
    #[schema(value_type = i64)]
    pub id: AccountId,
    pub name: String,
    /// Send it as `Authorization: Bearer …`.
    pub token: String,
}

#[derive(Serialize, ToSchema)]
pub struct AccountAnswer {
    #[schema(value_type = i64)]
    pub id: AccountId,
    pub name: String,
}

#[derive(Serialize, ToSchema)]
pub struct LoggedOut {
    pub logged_out: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"old": "a long secret", "new": "a longer secret"}))]
pub struct PasswordChange {
    /// The current password.
    pub old: String,
    /// The new one, 8 to 256 characters.
    pub new: String,
}

#[derive(Serialize, ToSchema)]
pub struct PasswordChanged {
    pub changed: bool,
    /// How many of the account's other sessions were ended.
    pub other_sessions_ended: u64,
}

fn session_answer(app: &App, session: Session, status: StatusCode) -> Response {
    app.known_sessions.seen(&session.token, session.account.id);
    let mut response = (
        status,
        Json(SessionAnswer {
            id: session.account.id,
            name: session.account.name,
            token: session.token.clone(),
        }),
    )
        .into_response();
    response
        .headers_mut()
        .insert(SET_COOKIE, session_cookie(Some(&session.token), app.secure_cookie));
    response
}

/// Create an account; answers with a session (cookie and token).
#[utoipa::path(post, path = "/api/register", operation_id = "register", tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 201, description = "The account, logged in", body = SessionAnswer),
        (status = 409, description = "The name is taken", body = ErrorBody),
        (status = 422, description = "The name or password is outside the limits", body = ErrorBody),
        (status = 503, description = "Too many passwords being hashed at once; try again after `Retry-After` seconds", body = ErrorBody),
    ),
)]
pub async fn register(State(app): State<App>, Body(c): Body<Credentials>) -> ApiResult<Response> {
    let session = accounts::register(&app, &c.name, &c.password).await?;
    Ok(session_answer(&app, session, StatusCode::CREATED))
}

/// Log in; answers with a session (cookie and token).
///
/// Failed attempts are throttled per name and address (429, with `retry_after_seconds`).
#[utoipa::path(post, path = "/api/login", operation_id = "login", tag = "accounts",
    request_body = Credentials,
    responses(
        (status = 200, description = "Logged in", body = SessionAnswer),
        (status = 401, description = "Wrong name or password", body = ErrorBody),
        (status = 429, description = "Too many failed logins", body = ErrorBody),
        (status = 503, description = "Too many passwords being checked at once; try again after `Retry-After` seconds", body = ErrorBody),
    ),
)]
pub async fn login(
    State(app): State<App>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    let session = accounts::login(&app, &c.name, &c.password, addr.ip()).await?;
    Ok(session_answer(&app, session, StatusCode::OK))
}

/// End this session.
#[utoipa::path(post, path = "/api/logout", operation_id = "logout", tag = "accounts",
    responses((status = 200, description = "Logged out (also without a session)", body = LoggedOut)),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn logout(State(app): State<App>, headers: HeaderMap) -> ApiResult<Response> {
    let token = request_token(&headers);
    accounts::logout(&app.db, token.as_deref()).await?;
    if let Some(token) = &token {
        app.sessions.forget(token);
    }
    let mut response = Json(LoggedOut { logged_out: true }).into_response();
    response
        .headers_mut()
        .insert(SET_COOKIE, session_cookie(None, app.secure_cookie));
    Ok(response)
}

/// The logged-in account.
#[utoipa::path(get, path = "/api/me", operation_id = "me", tag = "accounts",
    responses(
        (status = 200, description = "The account", body = AccountAnswer),
        (status = 401, description = "Not logged in", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn me(account: Account) -> Json<AccountAnswer> {
    Json(AccountAnswer {
        id: account.id,
        name: account.name,
    })
}

/// Change your password.
///
/// `old` must be right (403 otherwise; failures count against the login throttle).
/// Every other session of the account ends.
#[utoipa::path(post, path = "/api/me/password", operation_id = "change_password", tag = "accounts",
    request_body = PasswordChange,
    responses(
        (status = 200, description = "Changed", body = PasswordChanged),
        (status = 403, description = "The current password is wrong", body = ErrorBody),
        (status = 422, description = "The new password is outside the limits", body = ErrorBody),
        (status = 429, description = "Too many failed attempts", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn change_password(
    State(app): State<App>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    account: Account,
    Body(change): Body<PasswordChange>,
) -> ApiResult<Json<PasswordChanged>> {
    let current = request_token(&headers);
    let ended =
        accounts::change_password(&app, &account, current.as_deref(), &change.old, &change.new, addr.ip()).await?;
    Ok(Json(PasswordChanged {
        changed: true,
        other_sessions_ended: ended,
    }))
}
