//! The club's player records: who played which power in which game and how it ended,
//! as a club's player database keeps them. Anonymous games stay out of every record but
//! the player's own while they hide their players (always, or until they end), so that
//! no record ties an account to a power the game hides.

use chancery_engine::json::StateJson;
use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::iso_utc;
use crate::db::Db;
use crate::error::{ApiError, ApiResult};
use crate::model::{Account, GameId};
use crate::model::{GameOutcome, GameStatus};
use crate::store;

/// How a power's game stands, or how it ended for the power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    Won,
    Drew,
    Eliminated,
    Survived,
    #[serde(rename = "waiting to start")]
    WaitingToStart,
    Playing,
    /// The player left or was replaced: the record keeps the seat, not the later result
    /// of a power someone else then played.
    Left,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Won => "won",
            Self::Drew => "drew",
            Self::Eliminated => "eliminated",
            Self::Survived => "survived",
            Self::WaitingToStart => "waiting to start",
            Self::Playing => "playing",
            Self::Left => "left",
        }
    }
}

/// A power an account played.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayedGame {
    /// The game's id.
    #[schema(value_type = i64)]
    pub game: GameId,
    pub name: String,
    pub variant: String,
    pub power: String,
    pub status: GameStatus,
    /// The game's end: "victory: X", "draw: X, Y" or "concession to X".
    #[schema(value_type = Option<String>)]
    pub outcome: Option<GameOutcome>,
    /// Supply centres the power holds now (or held at the end).
    pub centres: usize,
    pub result: GameResult,
    /// When the account took the power (ISO 8601, UTC).
    pub joined: String,
    /// When it left the power, if it did.
    pub left: Option<String>,
    /// A bot played the power too, before or after the account.
    pub bot: bool,
}

/// A game an account runs as GM.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameRun {
    /// The game's id.
    #[schema(value_type = i64)]
    pub game: GameId,
    pub name: String,
    pub variant: String,
    pub status: GameStatus,
}

/// One account's record.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayerRecord {
    pub name: String,
    /// When the account was made (ISO 8601, UTC).
    pub member_since: String,
    /// Newest first.
    pub games: Vec<PlayedGame>,
    /// Finished games the account still played at the end.
    pub finished: usize,
    pub won: usize,
    pub drew: usize,
    /// Newest first.
    pub gm_of: Vec<GameRun>,
}

/// How a power's game stands or ended, from the game's outcome and the power's last
/// position.
fn result_for(
    power: &str,
    status: GameStatus,
    outcome: Option<&GameOutcome>,
    centres: usize,
    units: usize,
) -> GameResult {
    match (status, outcome) {
        (_, Some(o)) if o.won_by(power) => GameResult::Won,
        (_, Some(o)) if o.drawn_by(power) => GameResult::Drew,
        _ if centres == 0 && units == 0 => GameResult::Eliminated,
        (GameStatus::Finished, _) => GameResult::Survived,
        (GameStatus::Forming, _) => GameResult::WaitingToStart,
        _ => GameResult::Playing,
    }
}

/// The power's centres and units in a stored position.
fn counts(state_json: &str, power: &str) -> (usize, usize) {
    match serde_json::from_str::<StateJson>(state_json) {
        Ok(s) => (
            s.owners.values().filter(|o| *o == power).count(),
            s.units.iter().filter(|u| u.power == power).count(),
        ),
        Err(_) => (0, 0),
    }
}

fn played(seat: store::players::SeatRow) -> PlayedGame {
    let (centres, units) = counts(&seat.state_json, &seat.power);
    let result = if seat.active {
        result_for(&seat.power, seat.status, seat.outcome.as_ref(), centres, units)
    } else {
        GameResult::Left
    };
    PlayedGame {
        game: seat.game_id,
        name: seat.game_name,
        variant: seat.variant,
        power: seat.power,
        status: seat.status,
        outcome: seat.outcome,
        centres,
        result,
        joined: iso_utc(seat.joined_ms),
        left: seat.left_ms.map(iso_utc),
        bot: false,
    }
}

/// The record of the account called `name`, as `viewer` may see it: the powers it
/// played (anonymous games only for itself) and the games it runs as GM.
pub async fn record(db: &Db, viewer: Option<&Account>, name: &str) -> ApiResult<PlayerRecord> {
    let name = name.trim();
    let account = store::accounts::by_name(&db.read, name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no account is called `{name}`")))?;
    let own = viewer.is_some_and(|v| v.id == account.id);
    let with_bots = store::bots::beside_account(&db.read, account.id).await?;
    let games: Vec<PlayedGame> = store::players::seats(&db.read, account.id, own)
        .await?
        .into_iter()
        .map(played)
        .map(|g| PlayedGame {
            bot: with_bots.iter().any(|b| b.game_id == g.game && b.power == g.power),
            ..g
        })
        .collect();
    let gm_of = store::players::run_by(&db.read, account.id)
        .await?
        .into_iter()
        .map(|g| GameRun {
            game: g.id,
            name: g.name,
            variant: g.variant,
            status: g.status,
        })
        .collect();
    let tally = |what: GameResult| games.iter().filter(|g| g.result == what).count();
    Ok(PlayerRecord {
        name: account.name,
        member_since: iso_utc(account.created_ms),
        finished: games
            .iter()
            .filter(|g| g.status == GameStatus::Finished && g.result != GameResult::Left)
            .count(),
        won: tally(GameResult::Won),
        drew: tally(GameResult::Drew),
        games,
        gm_of,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_the_outcome_and_the_position() {
        use GameResult::*;
        use GameStatus::{Active, Finished};
        let victory = |w: &str| Some(GameOutcome::Victory(w.into()));
        let draw = |ps: &[&str]| Some(GameOutcome::Draw(ps.iter().map(|p| p.to_string()).collect()));
        // (power, status, outcome, centres and units, expected)
        let cases = [
            ("France", Finished, victory("France"), 18, Won),
            (
                "France",
                Finished,
                Some(GameOutcome::Concession("France".into())),
                9,
                Won,
            ),
            ("France", Finished, draw(&["England", "France"]), 9, Drew),
            // "France" is not "Frances": names are matched whole.
            ("France", Finished, draw(&["Frances", "Russia"]), 4, Survived),
            // A name holding the list's separator is one power, not two.
            ("A", Finished, draw(&["A, B", "C"]), 4, Survived),
            ("A, B", Finished, draw(&["A, B", "C"]), 4, Drew),
            ("Italy", Finished, victory("France"), 0, Eliminated),
            ("Italy", Active, None, 3, Playing),
        ];
        for (power, status, outcome, n, expected) in cases {
            assert_eq!(
                result_for(power, status, outcome.as_ref(), n, n),
                expected,
                "{power} {outcome:?}"
            );
        }
    }

    #[test]
    fn results_serialise_as_the_api_always_wrote_them() {
        use GameResult::*;
        for r in [Won, Drew, Eliminated, Survived, WaitingToStart, Playing, Left] {
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
        }
    }
}
