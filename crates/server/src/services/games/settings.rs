//! A game's settings as requests give them and the rules they must keep: the press
//! setting and the deadline schedule.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::limits::MAX_MINUTES;
use crate::model::{PressRule, Schedule};

/// A deadline schedule as a request gives it; fields left out keep their value (at
/// creation: a day to move, half a day to retreat or adjust, at no fixed time).
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"movement_minutes": 1440, "retreat_minutes": 720, "adjustment_minutes": 720, "at": "20:00", "time_zone": "Europe/Berlin"}))]
pub struct Deadlines {
    pub movement_minutes: Option<i64>,
    pub retreat_minutes: Option<i64>,
    pub adjustment_minutes: Option<i64>,
    /// "HH:MM": each deadline falls at this time of day in `time_zone`, the first such
    /// moment at least the phase's length away.
    #[serde(default)]
    pub at: Option<String>,
    #[serde(default)]
    pub time_zone: Option<String>,
}

fn minutes(value: Option<i64>, default: i64, what: &str) -> ApiResult<i64> {
    let m = value.unwrap_or(default);
    if (1..=MAX_MINUTES).contains(&m) {
        Ok(m)
    } else {
        Err(ApiError::unprocessable(format!(
            "{what} must be between 1 minute and 60 days (in minutes)"
        )))
    }
}

pub fn check_press(press: &str) -> ApiResult<PressRule> {
    PressRule::parse(press).ok_or_else(|| ApiError::unprocessable("`press` is one of: full, public, none"))
}

impl Deadlines {
    /// The schedule these fields ask for, each absent one taken from `base`. `at` set to
    /// "" removes a fixed time of day (a form's empty field sends that); a new `at`
    /// without a zone stays in `base`'s zone (UTC if none), and a new zone alone moves
    /// the time of day there.
    pub fn schedule(&self, base: &Schedule) -> ApiResult<Schedule> {
        let blank = |s: &Option<String>| {
            s.as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
        };
        let (at, zone) = match (self.at.as_deref().map(str::trim), blank(&self.time_zone)) {
            (Some(""), _) => (None, None),
            (Some(t), zone) => (
                Some(t.to_string()),
                zone.or_else(|| base.time_zone.clone()).or_else(|| Some("UTC".into())),
            ),
            (None, Some(zone)) => match &base.at {
                Some(t) => (Some(t.clone()), Some(zone)),
                None => {
                    return Err(ApiError::unprocessable(
                        "`time_zone` goes with `at`, a time of day like 20:00",
                    ))
                }
            },
            (None, None) => (base.at.clone(), base.time_zone.clone()),
        };
        let (at, time_zone) = match (at, zone) {
            (Some(t), Some(z)) => {
                let parsed = crate::deadlines::parse(&t, &z).map_err(ApiError::unprocessable)?;
                (
                    Some(parsed.time.format("%H:%M").to_string()),
                    Some(parsed.zone.name().to_string()),
                )
            }
            _ => (None, None),
        };
        Ok(Schedule {
            movement: minutes(self.movement_minutes, base.movement, "movement_minutes")?,
            retreat: minutes(self.retreat_minutes, base.retreat, "retreat_minutes")?,
            adjustment: minutes(self.adjustment_minutes, base.adjustment, "adjustment_minutes")?,
            at,
            time_zone,
        })
    }
}

/// When a phase may be processed before its deadline: once every seated power with a
/// decision is ready (vacant powers and those in civil disorder are not waited for),
/// or never. A club with open seats, like the demo's, waits for the deadline, so that
/// one player's ready mark does not end the phase for the powers nobody plays yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EarlyProcessing {
    /// The last ready mark processes the phase (the default).
    WhenAllReady,
    /// Only the deadline (or the GM) processes the phase; ready marks only inform.
    Never,
}

impl EarlyProcessing {
    pub fn from_flag(process_when_ready: bool) -> EarlyProcessing {
        if process_when_ready {
            EarlyProcessing::WhenAllReady
        } else {
            EarlyProcessing::Never
        }
    }

    pub fn flag(self) -> bool {
        self == EarlyProcessing::WhenAllReady
    }

    /// The setting as the game's log and pages say it.
    pub fn words(self) -> &'static str {
        match self {
            EarlyProcessing::WhenAllReady => "processed early once every seated power is ready",
            EarlyProcessing::Never => "processed at the deadline only",
        }
    }
}
