//! The deadline box of the game page and the GM console (`templates/deadline.html`):
//! a countdown (run by common.js against the server's clock), the date in the viewer's
//! zone with UTC beside it, written on the server (for a visitor or an account with no
//! zone, UTC, and the browser's own time added by common.js); or why there is no
//! deadline.

use askama::Template;

use crate::clock::{iso_utc, when};
use crate::model::{GameOutcome, GameStatus};
use crate::store::games::Game;

/// What the deadline box says.
enum Deadline {
    Running {
        ms: i64,
        now_ms: i64,
        iso: String,
        utc: String,
        /// The viewer chose no zone: the browser adds its own time.
        local: bool,
    },
    Paused {
        minutes_left: i64,
    },
    StartsAt {
        iso: String,
        utc: String,
    },
    StartsWhenFull,
    Over {
        outcome: Option<GameOutcome>,
    },
}

#[derive(Template)]
#[template(path = "deadline.html")]
pub struct DeadlineBox {
    deadline: Deadline,
}

impl DeadlineBox {
    /// The game's deadline as it stands at `now_ms` (the server's clock), for a viewer
    /// in `zone` (None: UTC).
    pub fn of(game: &Game, now_ms: i64, zone: Option<chrono_tz::Tz>) -> DeadlineBox {
        let deadline = match (game.status, game.deadline_ms) {
            (GameStatus::Active, Some(ms)) => Deadline::Running {
                ms,
                now_ms,
                iso: iso_utc(ms),
                utc: when(ms, zone),
                local: zone.is_none(),
            },
            (GameStatus::Paused, _) => Deadline::Paused {
                minutes_left: game.paused_left_ms.unwrap_or(0) / 60_000,
            },
            (GameStatus::Forming, _) => match game.start_at_ms {
                Some(ms) => Deadline::StartsAt {
                    iso: iso_utc(ms),
                    utc: when(ms, zone),
                },
                None => Deadline::StartsWhenFull,
            },
            _ => Deadline::Over {
                outcome: game.outcome.clone(),
            },
        };
        DeadlineBox { deadline }
    }
}
