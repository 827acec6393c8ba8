//! Every limit the server puts on its input, in one place: sizes of what a client may
//! send, login attempts per account and address, and a request rate per client.

use crate::model::AccountId;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Request bodies, and a game's creation (which may upload a variant file: room for
/// the largest file JSON-escaped, every character doubled, and the rest of the request).
pub const BODY_LIMIT: usize = 64 * 1024;
pub const UPLOAD_LIMIT: usize = 2 * MAX_VARIANT_BYTES + BODY_LIMIT;
/// Orders in one submission, and characters in one order (a bid's order too).
pub const MAX_ORDERS: usize = 200;
pub const MAX_ORDER_CHARS: usize = 200;
/// Bids in one submission.
pub const MAX_BIDS: usize = 100;
/// Characters in one press message.
pub const MAX_PRESS_CHARS: usize = 10_000;
/// Characters in a forum post, and in a topic's title.
pub const MAX_POST_CHARS: usize = 10_000;
pub const MAX_TOPIC_TITLE_CHARS: usize = 120;
/// Characters in a forum search.
pub const MAX_SEARCH_CHARS: usize = 100;
/// Characters in a moderator's reason (hiding a post, suspending an account).
pub const MAX_MODERATION_REASON_CHARS: usize = 500;
/// The longest suspension with an end, in days (ten years); longer is "until lifted".
pub const MAX_SUSPENSION_DAYS: i64 = 3_650;
/// Characters in a game's name.
pub const MAX_GAME_NAME_CHARS: usize = 100;
/// An account name's and a password's length in characters.
pub const ACCOUNT_NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=32;
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=256;
/// The longest phase length, and the furthest a GM may move a deadline at once, in minutes.
pub const MAX_MINUTES: i64 = 60 * 24 * 60;

/// How far ahead a deadline or a start time may be set: a year (366 days). Every moment
/// a request gives must fall after now and within this, so that no sum of times
/// computed from it can overflow.
pub const MAX_AHEAD_MS: i64 = 366 * 24 * 60 * 60 * 1000;
/// The latest time a client may name (ms since 1970 UTC): the end of the year 9999, as
/// far as ISO 8601's four-digit years reach.
pub const MAX_TIME_MS: i64 = 253_402_300_799_999;

/// Checks a moment a request gives (`what`, for the message): after `now` and within
/// [`MAX_AHEAD_MS`] of it.
pub fn future_moment(now: i64, ms: i64, what: &str) -> Result<i64, String> {
    if ms <= now {
        return Err(format!("{what} is not in the future ({})", crate::clock::iso_utc(ms)));
    }
    match now.checked_add(MAX_AHEAD_MS) {
        Some(limit) if ms <= limit => Ok(ms),
        _ => Err(format!(
            "{what} is more than a year away; give a moment before {}",
            crate::clock::iso_utc(now.saturating_add(MAX_AHEAD_MS))
        )),
    }
}

/// Failed logins allowed per (account name, address) within the window.
pub const LOGIN_FAILURES: i64 = 5;
pub const LOGIN_WINDOW_MS: i64 = 15 * 60 * 1000;

/// Failed logins allowed from one address within the window, whatever names it tries
/// (password spraying: one guess at many names). A club behind one address mistypes
/// far fewer.
pub const LOGIN_ADDRESS_FAILURES: i64 = 20;

/// The client an address stands for, in the rate limit and the login throttle: an IPv4
/// address (also when mapped into IPv6), or an IPv6 address's /64, which one host
/// commonly holds whole, so that it cannot take a fresh address per request.
pub fn client_of(ip: std::net::IpAddr) -> String {
    match ip {
        std::net::IpAddr::V4(v4) => v4.to_string(),
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Characters in any one-line string a client sends (names, orders, settings), and in a
/// many-line one (a press message, a variant file) before its own limit applies.
pub const MAX_LINE_CHARS: usize = 1_000;
pub const MAX_TEXT_CHARS: usize = UPLOAD_LIMIT;

// Uploaded variant files. Loading, checking and drawing a map grow
// with its size, so these bound the work one upload can ask for. They fit every real
// variant with room: the largest built-in, 1648, is a 30 KB file of 141 spaces, 952
// neighbours on its army and fleet lines and 57 shaping points.

/// The size of an uploaded variant file, in bytes.
pub const MAX_VARIANT_BYTES: usize = 256 * 1024;
/// Spaces in an uploaded variant.
pub const MAX_VARIANT_SPACES: usize = 400;
/// Neighbours listed on an uploaded variant's `army` and `fleet` lines (each border
/// counts from both sides, once per kind of unit).
pub const MAX_VARIANT_NEIGHBOURS: usize = 5_000;
/// Points on an uploaded variant's `shape` lines, and its `strait` lines.
pub const MAX_VARIANT_SHAPE_POINTS: usize = 2_000;
pub const MAX_VARIANT_STRAITS: usize = 200;

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

/// The session tokens this process has seen valid, with their account: the rate limit
/// gives such a token its account's bucket and any other token its address's, without
/// a database read of its own (the request's own session check records a token here).
/// A token seen valid keeps its bucket for [`KNOWN_SESSION_TTL`] after it last was, even
/// if it ended meanwhile; its requests are refused (401) all the same.
#[derive(Default)]
pub struct KnownSessions {
    tokens: Mutex<HashMap<String, (AccountId, Instant)>>,
}

pub const KNOWN_SESSION_TTL: Duration = Duration::from_secs(600);

impl KnownSessions {
    /// The account of a token seen valid lately.
    pub fn account(&self, token: &str) -> Option<AccountId> {
        let map = self.tokens.lock().unwrap_or_else(|e| e.into_inner());
        map.get(token)
            .filter(|(_, seen)| seen.elapsed() < KNOWN_SESSION_TTL)
            .map(|(id, _)| *id)
    }

    pub fn seen(&self, token: &str, account: AccountId) {
        let now = Instant::now();
        let mut map = self.tokens.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > 100_000 {
            map.retain(|_, (_, t)| now.duration_since(*t) < KNOWN_SESSION_TTL);
        }
        map.insert(token.to_string(), (account, now));
    }

    pub fn forget(&self, token: &str) {
        self.tokens.lock().unwrap_or_else(|e| e.into_inner()).remove(token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_host_is_its_64() {
        let a: std::net::IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: std::net::IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(client_of(a), client_of(b));
        assert_eq!(client_of(a), "2001:db8:1:2::/64");
        assert_eq!(client_of("::ffff:192.0.2.7".parse().unwrap()), "192.0.2.7");
        assert_eq!(client_of("192.0.2.7".parse().unwrap()), "192.0.2.7");
    }

    #[test]
    fn rate_limiter_allows_a_burst_then_refuses() {
        let r = RateLimiter::new(5);
        let allowed = (0..20).filter(|_| r.allow("c")).count();
        assert_eq!(allowed, 10);
        assert!(r.allow("other"));
    }
}
