//! Who is asking: the session a request carries (the Bearer header, or the cookie) read
//! into the extractors [`Viewer`] (maybe nobody) and [`Account`] (a 401 without one), and
//! the session cookie an answer sets. The accounts themselves are
//! [`crate::services::accounts`].
//!
//! A session looked up in the database is kept in [`SessionCache`] for at most
//! [`SESSION_CACHE_TTL`], and never past the session's expiry, so that a page or an API
//! call does not cost a query for its session (at 1,500 requests a second that query was
//! a sixth of the reads). A logout and a password change take the sessions they end out
//! of this server's cache at once; a session ended through another server sharing the
//! database stays valid here until its entry is older than [`SESSION_CACHE_TTL`].

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};

use crate::clock::system_ms;
use crate::error::ApiError;
pub use crate::model::{Account, AccountId};
use crate::services::accounts::{self, SESSION_MS};
use crate::App;

/// How long a session read from the database is trusted without reading it again: the
/// longest a session ended through another server stays valid on this one.
pub const SESSION_CACHE_TTL: Duration = Duration::from_secs(5);
/// Entries the cache holds at most; past it, stale ones go, then all.
const SESSION_CACHE_MAX: usize = 100_000;

/// Sessions read lately, by token: each with its account, when the session expires
/// (ms, the database's `expires_ms`) and when it was read. Only valid sessions are kept:
/// an unknown token asks the database every time.
#[derive(Default)]
pub struct SessionCache {
    entries: Mutex<HashMap<String, (Account, i64, Instant)>>,
}

impl SessionCache {
    /// The account of a session read less than [`SESSION_CACHE_TTL`] ago that has not
    /// expired by `now_ms`.
    pub fn get(&self, token: &str, now_ms: i64) -> Option<Account> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .get(token)
            .filter(|(_, expires_ms, read)| now_ms < *expires_ms && read.elapsed() < SESSION_CACHE_TTL)
            .map(|(account, _, _)| account.clone())
    }

    pub fn put(&self, token: &str, account: &Account, expires_ms: i64) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= SESSION_CACHE_MAX {
            entries.retain(|_, (_, _, read)| read.elapsed() < SESSION_CACHE_TTL);
            if entries.len() >= SESSION_CACHE_MAX {
                entries.clear();
            }
        }
        entries.insert(token.to_string(), (account.clone(), expires_ms, Instant::now()));
    }

    /// A session ended (logout).
    pub fn forget(&self, token: &str) {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).remove(token);
    }

    /// Every session of an account (its password changed, its time zone changed).
    pub fn forget_account(&self, account: AccountId) {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, (a, _, _)| a.id != account);
    }
}

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
        let account = match app.sessions.get(&token, system_ms()) {
            Some(account) => Some(account),
            None => match accounts::session_account(&app.db, &token).await? {
                Some((account, expires_ms)) => {
                    app.sessions.put(&token, &account, expires_ms);
                    Some(account)
                }
                None => None,
            },
        };
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
    #[test]
    fn a_cached_session_never_outlives_its_expiry_or_its_end() {
        let cache = SessionCache::default();
        let a = Account {
            id: crate::model::AccountId(7),
            name: "ann".into(),
            zone: None,
        };
        cache.put("t", &a, 1_000);
        assert_eq!(cache.get("t", 999).map(|a| a.id), Some(crate::model::AccountId(7)));
        assert!(cache.get("t", 1_000).is_none(), "expired at its expires_ms");
        cache.forget("t");
        assert!(cache.get("t", 0).is_none(), "logged out");
        cache.put("t", &a, 1_000);
        cache.put("u", &a, 1_000);
        cache.forget_account(crate::model::AccountId(7));
        assert!(
            cache.get("t", 0).is_none() && cache.get("u", 0).is_none(),
            "password changed"
        );
    }

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
