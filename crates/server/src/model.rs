//! Typed values the layers pass between them: the store reads them from rows, the
//! services decide with them, the JSON handlers and the pages show them.

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A logged-in account.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: i64,
    pub name: String,
    /// The account's time zone, in which pages give times beside UTC; None for UTC.
    pub zone: Option<chrono_tz::Tz>,
}

/// Where a game stands. Stored as its lower-case name in `games.status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Waiting for players or its start time; no phase has a deadline.
    Forming,
    /// Running: the current phase has a deadline.
    Active,
    /// Running, the deadline stopped by the GM.
    Paused,
    /// Ended by victory, draw or concession.
    Finished,
}

impl GameStatus {
    pub const ALL: [GameStatus; 4] = [Self::Forming, Self::Active, Self::Paused, Self::Finished];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Forming => "forming",
            Self::Active => "active",
            Self::Paused => "paused",
            Self::Finished => "finished",
        }
    }

    pub fn parse(text: &str) -> Option<GameStatus> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Started and not yet ended: phases are played (the deadline may be paused).
    pub fn running(self) -> bool {
        matches!(self, Self::Active | Self::Paused)
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::GameStatus;

    #[test]
    fn statuses_read_back_as_stored() {
        for s in GameStatus::ALL {
            assert_eq!(GameStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(GameStatus::parse("Active"), None);
    }
}
