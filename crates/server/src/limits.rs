//! Abuse limits: login attempts per account and address, and a request rate per client.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed logins allowed per (account name, address) within the window.
const LOGIN_FAILURES: usize = 5;
const LOGIN_WINDOW: Duration = Duration::from_secs(15 * 60);

#[derive(Default)]
pub struct LoginThrottle {
    failures: Mutex<HashMap<(String, IpAddr), Vec<Instant>>>,
}

impl LoginThrottle {
    /// Seconds to wait before trying again, when the limit is reached.
    pub fn blocked(&self, name: &str, ip: IpAddr) -> Option<u64> {
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let key = (name.to_ascii_lowercase(), ip);
        let list = map.get_mut(&key)?;
        let now = Instant::now();
        list.retain(|t| now.duration_since(*t) < LOGIN_WINDOW);
        if list.len() >= LOGIN_FAILURES {
            let oldest = list[0];
            Some((LOGIN_WINDOW - now.duration_since(oldest)).as_secs().max(1))
        } else {
            None
        }
    }

    pub fn failed(&self, name: &str, ip: IpAddr) {
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        // Bounded memory under a flood of names: forget everything rather than grow.
        if map.len() > 100_000 {
            map.clear();
        }
        map.entry((name.to_ascii_lowercase(), ip))
            .or_default()
            .push(Instant::now());
    }

    pub fn succeeded(&self, name: &str, ip: IpAddr) {
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(&(name.to_ascii_lowercase(), ip));
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
    fn login_blocks_after_five_failures() {
        let t = LoginThrottle::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        for _ in 0..4 {
            t.failed("Alice", ip);
        }
        assert!(t.blocked("alice", ip).is_none());
        t.failed("alice", ip);
        assert!(t.blocked("ALICE", ip).is_some());
        assert!(t.blocked("bob", ip).is_none());
    }

    #[test]
    fn rate_limiter_allows_a_burst_then_refuses() {
        let r = RateLimiter::new(5);
        let allowed = (0..20).filter(|_| r.allow("c")).count();
        assert_eq!(allowed, 10);
        assert!(r.allow("other"));
    }
}
