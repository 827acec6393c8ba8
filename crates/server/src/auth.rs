//! Accounts and sessions. Passwords are hashed with argon2id; a session is a random
//! token given both as an HTTP-only cookie (browsers) and in the body (API clients send
//! it as `Authorization: Bearer …`).

use std::net::SocketAddr;

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{ConnectInfo, FromRequestParts, State};
use axum::http::header::{AUTHORIZATION, COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::clock::system_ms;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult, Body};
use crate::limits::LoginThrottle;
use crate::App;

pub const COOKIE_NAME: &str = "chancery_session";
const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

/// A logged-in account.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: i64,
    pub name: String,
}

/// The account, when the request carries a valid session.
pub struct Viewer(pub Option<Account>);

pub fn hash_password(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
        .unwrap_or(false)
}

fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The session token a request carries: the Bearer header first, then the cookie.
pub fn request_token(headers: &HeaderMap) -> Option<String> {
    if let Some(v) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        if let Some(t) = v.strip_prefix("Bearer ") {
            return Some(t.trim().to_string());
        }
    }
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| kv.trim().strip_prefix(&format!("{COOKIE_NAME}=")).map(str::to_string))
}

async fn account_for_token(app: &App, token: &str) -> ApiResult<Option<Account>> {
    let row = sqlx::query(
        "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = $1 AND s.expires_ms > $2",
    )
    .bind(token_hash(token))
    .bind(system_ms())
    .fetch_optional(&app.db.read)
    .await?;
    Ok(row.map(|r| Account {
        id: r.get("id"),
        name: r.get("name"),
    }))
}

impl FromRequestParts<App> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        match request_token(&parts.headers) {
            Some(token) => Ok(Viewer(account_for_token(app, &token).await?)),
            None => Ok(Viewer(None)),
        }
    }
}

impl FromRequestParts<App> for Account {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        Viewer::from_request_parts(parts, app)
            .await?
            .0
            .ok_or_else(ApiError::unauthorized)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

fn check_name(name: &str) -> ApiResult<()> {
    let ok = crate::limits::ACCOUNT_NAME_CHARS.contains(&name.chars().count())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(ApiError::unprocessable(
            "an account name has 3 to 32 characters: letters, digits, `-`, `_` or `.`",
        ))
    }
}

fn check_password(password: &str) -> ApiResult<()> {
    if crate::limits::PASSWORD_CHARS.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::unprocessable("a password has 8 to 256 characters"))
    }
}

/// Creates an account directly (the demo club and `register`). Name clashes are a 409.
pub async fn create_account(app: &App, name: &str, password: &str) -> ApiResult<Account> {
    check_name(name)?;
    check_password(password)?;
    let pw = password.to_string();
    let hash = tokio::task::spawn_blocking(move || hash_password(&pw))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
    let taken = sqlx::query("SELECT id FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name)
        .fetch_optional(&app.db.read)
        .await?;
    if taken.is_some() {
        return Err(ApiError::conflict(format!("the name `{name}` is taken")));
    }
    let id = new_id();
    let inserted = sqlx::query("INSERT INTO accounts (id, name, password_hash, created_ms) VALUES ($1, $2, $3, $4)")
        .bind(id)
        .bind(name)
        .bind(hash)
        .bind(system_ms())
        .execute(&app.db.write)
        .await;
    match inserted {
        Ok(_) => Ok(Account {
            id,
            name: name.to_string(),
        }),
        Err(e) if e.as_database_error().is_some_and(|d| d.is_unique_violation()) => {
            Err(ApiError::conflict(format!("the name `{name}` is taken")))
        }
        Err(e) => Err(e.into()),
    }
}

async fn start_session(app: &App, account: &Account, status: StatusCode) -> ApiResult<Response> {
    let token = {
        use rand::RngCore;
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        hex::encode(bytes)
    };
    let now = system_ms();
    sqlx::query("INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
        .bind(token_hash(&token))
        .bind(account.id)
        .bind(now)
        .bind(now + SESSION_MS)
        .execute(&app.db.write)
        .await?;
    let cookie = format!(
        "{COOKIE_NAME}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}",
        SESSION_MS / 1000
    );
    let mut response = (
        status,
        Json(json!({"id": account.id, "name": account.name, "token": token})),
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(SET_COOKIE, v);
    }
    Ok(response)
}

pub async fn register(State(app): State<App>, Body(c): Body<Credentials>) -> ApiResult<Response> {
    let account = create_account(&app, c.name.trim(), &c.password).await?;
    start_session(&app, &account, StatusCode::CREATED).await
}

pub async fn login(
    State(app): State<App>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    Body(c): Body<Credentials>,
) -> ApiResult<Response> {
    let name = c.name.trim().to_string();
    not_throttled(&app, &name, addr).await?;
    let row = sqlx::query("SELECT id, name, password_hash FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(&name)
        .fetch_optional(&app.db.read)
        .await?;
    let (account, hash) = match row {
        Some(r) => (
            Some(Account {
                id: r.get("id"),
                name: r.get("name"),
            }),
            r.get::<String, _>("password_hash"),
        ),
        // Verify against a fixed hash anyway, so that the answer takes as long for an
        // unknown name as for a wrong password.
        None => (None, DUMMY_HASH.to_string()),
    };
    let password = c.password.clone();
    let ok = tokio::task::spawn_blocking(move || verify_password(&password, &hash))
        .await
        .unwrap_or(false);
    match account {
        Some(account) if ok => {
            LoginThrottle::succeeded(&app, &name, addr.ip()).await?;
            start_session(&app, &account, StatusCode::OK).await
        }
        _ => {
            LoginThrottle::failed(&app, &name, addr.ip()).await?;
            Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "wrong account name or password",
            ))
        }
    }
}

/// Refuses a password check while the name and address have failed too often.
async fn not_throttled(app: &App, name: &str, addr: SocketAddr) -> ApiResult<()> {
    match LoginThrottle::blocked(app, name, addr.ip()).await? {
        Some(wait) => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many failed logins for `{name}`; try again in {wait} s"),
        )
        .with(json!({"retry_after_seconds": wait}))),
        None => Ok(()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub old: String,
    pub new: String,
}

/// A new password for the logged-in account. The old one must be given too (a session
/// left open on a club's shared computer is not enough), wrong guesses count against
/// the login throttle, and every other session of the account ends, this one going on.
pub async fn change_password(
    State(app): State<App>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    account: Account,
    Body(change): Body<PasswordChange>,
) -> ApiResult<Json<serde_json::Value>> {
    not_throttled(&app, &account.name, addr).await?;
    check_password(&change.new)?;
    let hash: String = sqlx::query("SELECT password_hash FROM accounts WHERE id = $1")
        .bind(account.id)
        .fetch_one(&app.db.read)
        .await?
        .get("password_hash");
    let PasswordChange { old, new } = change;
    let checked = tokio::task::spawn_blocking(move || verify_password(&old, &hash).then(|| hash_password(&new)))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let new_hash = match checked {
        Some(hashed) => hashed.map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?,
        None => {
            LoginThrottle::failed(&app, &account.name, addr.ip()).await?;
            return Err(ApiError::forbidden("the current password is wrong"));
        }
    };
    let current = request_token(&headers).map(|t| token_hash(&t)).unwrap_or_default();
    let mut tx = app.db.write.begin().await?;
    sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1")
        .bind(account.id)
        .bind(new_hash)
        .execute(&mut *tx)
        .await?;
    let ended = sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
        .bind(account.id)
        .bind(current)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(Json(json!({"changed": true, "other_sessions_ended": ended})))
}

/// An argon2id hash of a random password nobody knows.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2bG1+fZ0Bv0a7u2o1o0o7Xb5m3mGj3h2Zp9p1Yb8mS8";

pub async fn logout(State(app): State<App>, headers: HeaderMap) -> ApiResult<Response> {
    if let Some(token) = request_token(&headers) {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash(&token))
            .execute(&app.db.write)
            .await?;
    }
    let mut response = Json(json!({"logged_out": true})).into_response();
    response.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static("chancery_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"),
    );
    Ok(response)
}

pub async fn me(account: Account) -> Json<serde_json::Value> {
    Json(json!({"id": account.id, "name": account.name}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_and_verify() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse", &h));
        assert!(!verify_password("anything", DUMMY_HASH));
    }

    #[test]
    fn token_from_bearer_or_cookie() {
        let mut h = HeaderMap::new();
        h.insert(COOKIE, HeaderValue::from_static("a=b; chancery_session=abc"));
        assert_eq!(request_token(&h).as_deref(), Some("abc"));
        h.insert(AUTHORIZATION, HeaderValue::from_static("Bearer xyz"));
        assert_eq!(request_token(&h).as_deref(), Some("xyz"));
    }
}
