//! Every limit the server puts on its input, in one place: sizes of what a client may
//! send, login attempts per account and address, and a request rate per client.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sqlx::Row;

use crate::error::ApiResult;
use crate::App;

/// Request bodies, and a game's creation (which may upload a variant file).
pub const BODY_LIMIT: usize = 64 * 1024;
pub const UPLOAD_LIMIT: usize = 2 * 1024 * 1024;
/// Orders in one submission, and characters in one order (a bid's order too).
pub const MAX_ORDERS: usize = 200;
pub const MAX_ORDER_CHARS: usize = 200;
/// Bids in one submission.
pub const MAX_BIDS: usize = 100;
/// Characters in one press message.
pub const MAX_PRESS_CHARS: usize = 10_000;
/// Characters in a game's name.
pub const MAX_GAME_NAME_CHARS: usize = 100;
/// An account name's and a password's length in characters.
pub const ACCOUNT_NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=32;
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=256;
/// The longest phase length, and the furthest a GM may move a deadline at once, in minutes.
pub const MAX_MINUTES: i64 = 60 * 24 * 60;

/// Failed logins allowed per (account name, address) within the window.
const LOGIN_FAILURES: i64 = 5;
const LOGIN_WINDOW_MS: i64 = 15 * 60 * 1000;

/// Failed logins per account name and address, counted in the database: servers that
/// share one database throttle together, and a restart forgets nothing.
pub struct LoginThrottle;

impl LoginThrottle {
    /// Seconds to wait before trying again, when the limit is reached.
    pub async fn blocked(app: &App, name: &str, ip: IpAddr) -> ApiResult<Option<u64>> {
        let now = app.clock.now_ms();
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, MIN(at_ms) AS oldest FROM login_failures WHERE name = $1 AND address = $2 AND at_ms > $3",
        )
        .bind(name.to_lowercase())
        .bind(ip.to_string())
        .bind(now - LOGIN_WINDOW_MS)
        .fetch_one(&app.db.read)
        .await?;
        if row.get::<i64, _>("n") < LOGIN_FAILURES {
            return Ok(None);
        }
        let oldest: i64 = row.get::<Option<i64>, _>("oldest").unwrap_or(now);
        Ok(Some(((oldest + LOGIN_WINDOW_MS - now) / 1000).max(1) as u64))
    }

    pub async fn failed(app: &App, name: &str, ip: IpAddr) -> ApiResult<()> {
        let now = app.clock.now_ms();
        let (name, address) = (name.to_lowercase(), ip.to_string());
        let pool = app.db.write.clone();
        app.db
            .writing(async move {
                let mut tx = pool.begin().await?;
                sqlx::query("DELETE FROM login_failures WHERE at_ms <= $1")
                    .bind(now - LOGIN_WINDOW_MS)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("INSERT INTO login_failures (name, address, at_ms) VALUES ($1, $2, $3)")
                    .bind(name)
                    .bind(address)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            })
            .await
    }

    pub async fn succeeded(app: &App, name: &str, ip: IpAddr) -> ApiResult<()> {
        let (name, address) = (name.to_lowercase(), ip.to_string());
        let pool = app.db.write.clone();
        app.db
            .writing(async move {
                sqlx::query("DELETE FROM login_failures WHERE name = $1 AND address = $2")
                    .bind(name)
                    .bind(address)
                    .execute(&pool)
                    .await?;
                Ok(())
            })
            .await
    }
}

/// A token bucket per client: `rate` requests a second, bursts up to twice that.
pub struct RateLimiter {
    rate: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl RateLimiter {
    pub fn new(rate_per_second: u32) -> Self {
        RateLimiter {
            rate: rate_per_second.max(1) as f64,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from the client's bucket; false when it is empty.
    pub fn allow(&self, client: &str) -> bool {
        let now = Instant::now();
        let burst = self.rate * 2.0;
        let mut map = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > 100_000 {
            map.retain(|_, (_, t)| now.duration_since(*t) < Duration::from_secs(10));
        }
        let (tokens, last) = map.entry(client.to_string()).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*last).as_secs_f64() * self.rate).min(burst);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limiter_allows_a_burst_then_refuses() {
        let r = RateLimiter::new(5);
        let allowed = (0..20).filter(|_| r.allow("c")).count();
        assert_eq!(allowed, 10);
        assert!(r.allow("other"));
    }
}
