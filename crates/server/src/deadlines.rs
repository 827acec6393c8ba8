//! Deadline schedules. A phase's deadline is its length (per phase kind) from when it
//! opens; a game may also fix the time of day, in a time zone of its choosing, so that
//! the deadline is the first such moment at least that length away ("at least 48 hours,
//! then at 20:00 Europe/Berlin"). Everything is stored in UTC; the zone only places the
//! time of day, and daylight-saving changes are the zone database's business.

use chrono::{LocalResult, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

/// A time of day in a zone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeOfDay {
    pub time: NaiveTime,
    pub zone: Tz,
}

/// Reads "HH:MM" and an IANA zone name ("Europe/Berlin", "UTC").
pub fn parse(time: &str, zone: &str) -> Result<TimeOfDay, String> {
    let t = NaiveTime::parse_from_str(time.trim(), "%H:%M")
        .map_err(|_| format!("`{time}` is not a time of day like 20:00"))?;
    let z: Tz = zone
        .trim()
        .parse()
        .map_err(|_| format!("`{zone}` is not a time zone name like Europe/Berlin or UTC"))?;
    Ok(TimeOfDay { time: t, zone: z })
}

pub fn parse_zone(zone: &str) -> Result<Tz, String> {
    zone.trim()
        .parse()
        .map_err(|_| format!("`{zone}` is not a time zone name like Europe/Berlin or UTC"))
}

/// The deadline for a phase opening at `now_ms` with at least `minutes` to play; None
/// when it falls outside the times an `i64` of milliseconds holds.
pub fn next(now_ms: i64, minutes: i64, at: Option<TimeOfDay>) -> Option<i64> {
    let earliest = minutes.checked_mul(60_000).and_then(|m| now_ms.checked_add(m))?;
    let Some(at) = at else {
        return Some(earliest);
    };
    let Some(start) = Utc.timestamp_millis_opt(earliest).single() else {
        return Some(earliest);
    };
    let mut day = start.with_timezone(&at.zone).date_naive();
    // Within three days there is always a day on which the time exists (a daylight-saving
    // gap removes it on one day at most).
    for _ in 0..3 {
        let candidate = match at.zone.from_local_datetime(&day.and_time(at.time)) {
            LocalResult::Single(t) => Some(t),
            // The hour repeats when clocks go back: the first one.
            LocalResult::Ambiguous(first, _) => Some(first),
            LocalResult::None => None,
        };
        if let Some(t) = candidate {
            if t.timestamp_millis() >= earliest {
                return Some(t.timestamp_millis());
            }
        }
        match day.succ_opt() {
            Some(d) => day = d,
            None => break,
        }
    }
    Some(earliest)
}

/// A moment in a zone, with its offset: `2026-11-30T20:00:00+01:00`.
pub fn local_text(ms: i64, zone: Tz) -> Option<String> {
    Utc.timestamp_millis_opt(ms)
        .single()
        .map(|t| t.with_timezone(&zone).format("%Y-%m-%dT%H:%M:%S%:z").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> i64 {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap().timestamp_millis()
    }

    #[test]
    fn length_alone_without_a_time_of_day() {
        assert_eq!(next(1_000, 60, None), Some(1_000 + 3_600_000));
    }

    #[test]
    fn rounds_up_to_the_time_of_day_in_the_zone() {
        let at = parse("20:00", "Europe/Berlin").unwrap();
        // Opened 2026-01-10 12:00 UTC with 24 h to play: earliest 2026-01-11 12:00 UTC,
        // so 20:00 Berlin (UTC+1 in winter) that day, 19:00 UTC.
        assert_eq!(
            next(ms(2026, 1, 10, 12, 0), 24 * 60, Some(at)),
            Some(ms(2026, 1, 11, 19, 0))
        );
        // In summer Berlin is UTC+2.
        assert_eq!(
            next(ms(2026, 7, 10, 12, 0), 24 * 60, Some(at)),
            Some(ms(2026, 7, 11, 18, 0))
        );
        // Past 20:00 local already: the next day.
        assert_eq!(next(ms(2026, 1, 10, 20, 0), 0, Some(at)), Some(ms(2026, 1, 11, 19, 0)));
    }

    #[test]
    fn a_time_skipped_by_daylight_saving_moves_to_the_next_day() {
        // 2026-03-29: Berlin jumps from 02:00 to 03:00, so 02:30 does not exist that day.
        let at = parse("02:30", "Europe/Berlin").unwrap();
        let opened = ms(2026, 3, 28, 23, 0); // 00:00 Berlin on the 29th
        assert_eq!(next(opened, 0, Some(at)), Some(ms(2026, 3, 30, 0, 30)));
    }

    #[test]
    fn a_deadline_out_of_range_is_none_not_a_wrapped_number() {
        assert_eq!(next(i64::MAX - 10, 1, None), None);
        assert_eq!(next(0, i64::MAX / 1000, None), None);
        let at = parse("20:00", "UTC").unwrap();
        assert_eq!(next(i64::MAX - 10, 1, Some(at)), None);
    }

    #[test]
    fn bad_input_is_refused_in_words() {
        assert!(parse("25:00", "UTC").unwrap_err().contains("time of day"));
        assert!(parse("20:00", "Mars/Olympus").unwrap_err().contains("time zone"));
        assert_eq!(
            local_text(ms(2026, 1, 11, 19, 0), parse_zone("Europe/Berlin").unwrap()).unwrap(),
            "2026-01-11T20:00:00+01:00"
        );
    }
}
