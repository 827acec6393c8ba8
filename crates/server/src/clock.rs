//! The server's notion of now. Production reads the system clock; a server started with
//! `--test-clock` adds an offset that the test-only endpoint moves forward, so tests can
//! pass deadlines without waiting.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

pub fn system_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .and_then(|d| i64::try_from(d.as_millis()).ok())
        .unwrap_or(0)
}

#[derive(Clone, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
    adjustable: bool,
}

impl Clock {
    pub fn system() -> Clock {
        Clock::default()
    }

    pub fn adjustable() -> Clock {
        Clock {
            offset_ms: Arc::default(),
            adjustable: true,
        }
    }

    pub fn is_adjustable(&self) -> bool {
        self.adjustable
    }

    pub fn now_ms(&self) -> i64 {
        system_ms().saturating_add(self.offset_ms.load(Ordering::SeqCst))
    }

    /// Moves the clock forward; refused on a production clock, for going backwards, and
    /// past a century ahead (so that every deadline computed from it stays in range).
    pub fn advance(&self, ms: i64) -> Result<i64, &'static str> {
        const CENTURY_MS: i64 = 100 * 366 * 24 * 60 * 60 * 1000;
        if !self.adjustable {
            return Err("this server's clock is not adjustable");
        }
        if ms < 0 {
            return Err("the clock only moves forward");
        }
        self.offset_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |o| {
                o.checked_add(ms).filter(|&n| n <= CENTURY_MS)
            })
            .map_err(|_| "the test clock moves at most a century ahead")?;
        Ok(self.now_ms())
    }
}

/// `2026-11-29T23:05:00Z`.
pub fn iso_utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// A moment as mails and pages give it to a reader: in the reader's zone when it has
/// one, and always in UTC: `Tue 8 Dec 2026 20:00 Europe/Berlin (19:00 UTC)`.
pub fn when(ms: i64, zone: Option<chrono_tz::Tz>) -> String {
    use chrono::{TimeZone, Utc};
    let Some(t) = Utc.timestamp_millis_opt(ms).single() else {
        return iso_utc(ms);
    };
    let utc = t.format("%a %-d %b %Y %H:%M UTC").to_string();
    match zone {
        Some(z) if z != chrono_tz::UTC => {
            let local = t.with_timezone(&z);
            let same_day = local.date_naive() == t.date_naive();
            let utc_short = if same_day {
                t.format("%H:%M UTC").to_string()
            } else {
                utc
            };
            format!("{} {} ({utc_short})", local.format("%a %-d %b %Y %H:%M"), z.name())
        }
        _ => utc,
    }
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_utc() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 12:34:56 UTC, a leap day.
        assert_eq!(iso_utc(951_827_696_000), "2000-02-29T12:34:56Z");
    }

    #[test]
    fn production_clock_cannot_move() {
        assert!(Clock::system().advance(1000).is_err());
        let c = Clock::adjustable();
        let before = c.now_ms();
        let after = c.advance(60_000).unwrap();
        assert!(after - before >= 60_000);
    }
}
