//! Accounts and sessions. Passwords are hashed with argon2id; a session is a random
//! token whose hash is stored, given to the client both as an HTTP-only cookie (browsers)
//! and in the body (API clients send it as `Authorization: Bearer …`). Failed logins are
//! throttled per account name and address and per address, counted in the database.

use std::net::IpAddr;

use argon2::password_hash::{rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::http::StatusCode;
use serde_json::json;

use crate::clock::system_ms;
use crate::db::{new_id, Db};
use crate::error::{ApiError, ApiResult};
use crate::jobs::Weight;
use crate::limits::{
    client_of, ACCOUNT_NAME_CHARS, LOGIN_ADDRESS_FAILURES, LOGIN_FAILURES, LOGIN_WINDOW_MS, PASSWORD_CHARS,
};
use crate::model::{Account, AccountId};
use crate::store;
use crate::store::accounts::LoginRow;
use crate::App;

/// How long a session lasts.
pub const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

/// A new session: the account and the token the client shows from now on.
pub struct Session {
    pub account: Account,
    pub token: String,
}

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

/// Sessions are stored by this hash, so that a copy of the database opens none.
fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// An argon2id hash of a random password nobody knows.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$2bG1+fZ0Bv0a7u2o1o0o7Xb5m3mGj3h2Zp9p1Yb8mS8";

fn check_name(name: &str) -> ApiResult<()> {
    let ok = ACCOUNT_NAME_CHARS.contains(&name.chars().count())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(ApiError::unprocessable(format!(
            "an account name has {} to {} characters: letters, digits, `-`, `_` or `.`",
            ACCOUNT_NAME_CHARS.start(),
            ACCOUNT_NAME_CHARS.end()
        )))
    }
}

fn check_password(password: &str) -> ApiResult<()> {
    if PASSWORD_CHARS.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::unprocessable(format!(
            "a password has {} to {} characters",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        )))
    }
}

fn internal(e: impl ToString) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// How long a request waits for its password to be hashed or checked, queue included.
const HASHING_BUDGET: std::time::Duration = std::time::Duration::from_secs(3);

/// Runs password work on the hashing pool ([`crate::AppState::hashing`]): a few hashes
/// at once, on threads of their own, so that a flood of logins neither takes every core
/// nor grows the heap by argon2's 19 MiB per request at once (glibc keeps an arena per
/// thread that ever hashed, and gives little of it back); beyond the queue, 503 with
/// `Retry-After`.
async fn hashing<T: Send + 'static>(app: &App, work: impl FnOnce() -> T + Send + 'static) -> ApiResult<T> {
    app.hashing
        .run(Weight::Quick, HASHING_BUDGET, work)
        .await
        .map_err(|e| app.hashing.refusal(e, "checking passwords"))
}

/// Creates an account (the demo club and registration). Name clashes are a 409.
pub async fn create_account(app: &App, name: &str, password: &str) -> ApiResult<Account> {
    let db = &app.db;
    check_name(name)?;
    check_password(password)?;
    let pw = password.to_string();
    let hash = hashing(app, move || hash_password(&pw)).await?.map_err(internal)?;
    let taken = || ApiError::conflict(format!("the name `{name}` is taken"));
    if store::accounts::by_name(&db.read, name).await?.is_some() {
        return Err(taken());
    }
    let id = AccountId(new_id());
    match store::accounts::insert(&db.write, id, name, &hash, system_ms()).await {
        Ok(()) => Ok(Account {
            id,
            name: name.to_string(),
            zone: None,
        }),
        Err(e) if e.as_database_error().is_some_and(|d| d.is_unique_violation()) => Err(taken()),
        Err(e) => Err(e.into()),
    }
}

/// A new session for the account.
pub async fn start_session(db: &Db, account: Account) -> ApiResult<Session> {
    let token = {
        use rand::RngCore;
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        hex::encode(bytes)
    };
    let now = system_ms();
    store::sessions::insert(
        &db.write,
        &token_hash(&token),
        account.id,
        now,
        now.saturating_add(SESSION_MS),
    )
    .await?;
    Ok(Session { account, token })
}

/// Registers an account and logs it in.
pub async fn register(app: &App, name: &str, password: &str) -> ApiResult<Session> {
    let account = create_account(app, name.trim(), password).await?;
    start_session(&app.db, account).await
}

/// The account a session token belongs to, while the session lasts, and when it ends
/// (ms). Read from the database; requests go through [`crate::auth::SessionCache`].
pub async fn session_account(db: &Db, token: &str) -> ApiResult<Option<(Account, i64)>> {
    Ok(store::sessions::account(&db.read, &token_hash(token), system_ms())
        .await?
        .map(|s| {
            (
                Account {
                    id: s.account.id,
                    name: s.account.name,
                    // A stored name that no longer reads (a zone dropped from the database) is UTC.
                    zone: s.time_zone.and_then(|z| z.parse().ok()),
                },
                s.expires_ms,
            )
        }))
}

/// Checks the password and opens a session, throttled per name and address.
pub async fn login(app: &App, name: &str, password: &str, ip: IpAddr) -> ApiResult<Session> {
    let name = name.trim();
    not_throttled(app, name, ip).await?;
    let (account, hash) = match store::accounts::with_hash(&app.db.read, name).await? {
        Some(LoginRow {
            account: a,
            password_hash,
        }) => (
            Some(Account {
                id: a.id,
                name: a.name,
                zone: None,
            }),
            password_hash,
        ),
        // Verify against a fixed hash anyway, so that the answer takes as long for an
        // unknown name as for a wrong password.
        None => (None, DUMMY_HASH.to_string()),
    };
    let password = password.to_string();
    let ok = hashing(app, move || verify_password(&password, &hash)).await?;
    match account {
        Some(account) if ok => {
            login_succeeded(app, name, ip).await?;
            start_session(&app.db, account).await
        }
        _ => {
            login_failed(app, name, ip).await?;
            Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "wrong account name or password",
            ))
        }
    }
}

/// Ends the session of this token (nothing when there is none).
pub async fn logout(db: &Db, token: Option<&str>) -> ApiResult<()> {
    if let Some(token) = token {
        store::sessions::delete(&db.write, &token_hash(token)).await?;
    }
    Ok(())
}

/// A new password for the account. The old one must be given too (a session left open on
/// a club's shared computer is not enough), wrong guesses count against the login
/// throttle, and every other session of the account ends, the caller's (`current`)
/// going on. Answers how many sessions ended.
pub async fn change_password(
    app: &App,
    account: &Account,
    current: Option<&str>,
    old: &str,
    new: &str,
    ip: IpAddr,
) -> ApiResult<u64> {
    not_throttled(app, &account.name, ip).await?;
    check_password(new)?;
    let hash = store::accounts::password_hash(&app.db.read, account.id).await?;
    let (old, new) = (old.to_string(), new.to_string());
    let checked = hashing(app, move || verify_password(&old, &hash).then(|| hash_password(&new))).await?;
    let new_hash = match checked {
        Some(hashed) => hashed.map_err(internal)?,
        None => {
            login_failed(app, &account.name, ip).await?;
            return Err(ApiError::forbidden("the current password is wrong"));
        }
    };
    let keep = current.map(token_hash).unwrap_or_default();
    let mut tx = app.db.write.begin().await?;
    store::accounts::set_password(&mut *tx, account.id, &new_hash).await?;
    let ended = store::sessions::delete_others(&mut *tx, account.id, &keep).await?;
    tx.commit().await?;
    app.sessions.forget_account(account.id);
    Ok(ended)
}

/// Refuses a password check while the name and address, or the address whatever the
/// names, have failed too often. While an address is throttled even the right password
/// is refused from it, so that a spray cannot tell which guess was right.
async fn not_throttled(app: &App, name: &str, ip: IpAddr) -> ApiResult<()> {
    let now = app.clock.now_ms();
    let since = now.saturating_sub(LOGIN_WINDOW_MS);
    let address = client_of(ip);
    let wait = |oldest: Option<i64>| {
        (oldest
            .unwrap_or(now)
            .saturating_add(LOGIN_WINDOW_MS)
            .saturating_sub(now)
            / 1000)
            .max(1) as u64
    };
    let refuse = |message: String, wait: u64| {
        Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, message).with(json!({"retry_after_seconds": wait})))
    };
    let by_name = store::logins::failures_since(&app.db.read, &name.to_lowercase(), &address, since).await?;
    if by_name.count >= LOGIN_FAILURES {
        let wait = wait(by_name.oldest_ms);
        return refuse(
            format!("too many failed logins for `{name}`; try again in {wait} s"),
            wait,
        );
    }
    let from_address = store::logins::failures_from(&app.db.read, &address, since).await?;
    if from_address.count >= LOGIN_ADDRESS_FAILURES {
        let wait = wait(from_address.oldest_ms);
        return refuse(
            format!("too many failed logins from your address; try again in {wait} s"),
            wait,
        );
    }
    Ok(())
}

async fn login_failed(app: &App, name: &str, ip: IpAddr) -> ApiResult<()> {
    let now = app.clock.now_ms();
    let (name, address) = (name.to_lowercase(), client_of(ip));
    let pool = app.db.write.clone();
    app.db
        .writing(async move {
            let mut tx = pool.begin().await?;
            store::logins::forget_before(&mut *tx, now.saturating_sub(LOGIN_WINDOW_MS)).await?;
            store::logins::insert(&mut *tx, &name, &address, now).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
}

async fn login_succeeded(app: &App, name: &str, ip: IpAddr) -> ApiResult<()> {
    let (name, address) = (name.to_lowercase(), client_of(ip));
    let pool = app.db.write.clone();
    app.db
        .writing(async move {
            store::logins::clear(&pool, &name, &address).await?;
            Ok(())
        })
        .await
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
    fn names_and_passwords_within_the_limits() {
        assert!(check_name("ab").is_err());
        assert!(check_name("abc").is_ok());
        assert!(check_name("a b c").is_err());
        assert_eq!(
            check_name(&"x".repeat(33)).unwrap_err().message,
            "an account name has 3 to 32 characters: letters, digits, `-`, `_` or `.`"
        );
        assert_eq!(
            check_password("short").unwrap_err().message,
            "a password has 8 to 256 characters"
        );
    }
}
