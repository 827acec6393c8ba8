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

/// What players may send each other in a game (the GM may always write, and a player
/// may always write to the GM). Stored as its lower-case name in `games.press`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PressRule {
    /// Private and public press.
    Full,
    /// Press to everyone only.
    Public,
    /// No press between players (gunboat).
    None,
}

impl PressRule {
    pub const ALL: [PressRule; 3] = [Self::Full, Self::Public, Self::None];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Public => "public",
            Self::None => "none",
        }
    }

    pub fn parse(text: &str) -> Option<PressRule> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl fmt::Display for PressRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::{GameStatus, PressRule};

    #[test]
    fn press_rules_read_back_as_stored() {
        for s in PressRule::ALL {
            assert_eq!(PressRule::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
    }

    #[test]
    fn statuses_read_back_as_stored() {
        for s in GameStatus::ALL {
            assert_eq!(GameStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(GameStatus::parse("Active"), None);
    }
}
