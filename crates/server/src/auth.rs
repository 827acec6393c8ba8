//! Who is asking: the session a request carries (the Bearer header, or the cookie) read
//! into the extractors [`Viewer`] (maybe nobody) and [`Account`] (a 401 without one), and
//! the session cookie an answer sets. The accounts themselves are
//! [`crate::services::accounts`].

use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};

use crate::error::ApiError;
pub use crate::model::Account;
use crate::services::accounts::{self, SESSION_MS};
use crate::App;

pub const COOKIE_NAME: &str = "chancery_session";

/// The account, when the request carries a valid session.
pub struct Viewer(pub Option<Account>);

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

/// The `Set-Cookie` value that gives a browser the session (`None`: ends it); `secure`
/// when the server is reached over HTTPS, so the browser never sends it in clear.
pub fn session_cookie(token: Option<&str>, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let value = match token {
        Some(token) => format!(
            "{COOKIE_NAME}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
            SESSION_MS / 1000
        ),
        None => format!("{COOKIE_NAME}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}"),
    };
    // A token is hex, always a valid header value.
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static(""))
}

impl FromRequestParts<App> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let Some(token) = request_token(&parts.headers) else {
            return Ok(Viewer(None));
        };
        let account = accounts::session_account(&app.db, &token).await?;
        // The rate limit's buckets (routes.rs): a token that is no session's gets none.
        match &account {
            Some(a) => app.known_sessions.seen(&token, a.id),
            None => app.known_sessions.forget(&token),
        }
        Ok(Viewer(account))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_from_bearer_or_cookie() {
        let mut h = HeaderMap::new();
        h.insert(COOKIE, HeaderValue::from_static("a=b; chancery_session=abc"));
        assert_eq!(request_token(&h).as_deref(), Some("abc"));
        h.insert(AUTHORIZATION, HeaderValue::from_static("Bearer xyz"));
        assert_eq!(request_token(&h).as_deref(), Some("xyz"));
    }
}
