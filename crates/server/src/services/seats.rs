//! A game's seats: joining (or the GM seating someone), observing, leaving, and the
//! start once every power has a player.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::Tx;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::{Account, AccountId, GameId, GameStatus};
use crate::services::games::{lock, log_event, playable_powers, role_of, LoadedGame, Role};
use crate::store;
use crate::App;

/// Which power to take; absent, the first free one.
#[derive(Deserialize, Default, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"power": "England"}))]
pub struct JoinRequest {
    #[serde(default)]
    pub power: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct Joined {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// The power taken.
    pub power: String,
}

#[derive(Serialize, ToSchema)]
pub struct Left {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// The power given up, or `observer`.
    pub left: String,
}

#[derive(Serialize, ToSchema)]
pub struct Observing {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// Always `observer`.
    pub role: String,
}

/// Puts `account` on `power` inside `tx` (join or GM assignment), then starts the game
/// when it was waiting for every power to be taken.
pub async fn seat_player(
    app: &App,
    tx: &mut Tx,
    loaded: &LoadedGame,
    account_id: AccountId,
    power: Option<&str>,
) -> ApiResult<String> {
    let (game, v) = (&loaded.game, &loaded.variant);
    if game.status == GameStatus::Finished {
        return Err(ApiError::coded(ErrorCode::GameOver, "the game is over"));
    }
    if account_id == game.gm_id {
        return Err(ApiError::conflict("the GM cannot also play a power"));
    }
    let taken = store::members::seated(&mut **tx, game.id).await?;
    let bots = store::bots::powers(&mut **tx, game.id).await?;
    if let Some(power) = store::members::power_of(&mut **tx, game.id, account_id).await? {
        return Err(ApiError::conflict(format!("that account already plays {power}")));
    }
    let playable = playable_powers(v);
    // Powers rule 11 has turned into minors: nobody plays them again.
    let disordered: Vec<String> = loaded
        .state
        .disordered
        .iter()
        .map(|&p| v.power(p).name.clone())
        .collect();
    let power = match power {
        Some(name) => {
            let p = v.find_power(name).map(|i| v.power(i).name.clone()).ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "unknown power `{name}`; the powers are {}",
                    playable.join(", ")
                ))
            })?;
            if !playable.contains(&p) {
                return Err(ApiError::unprocessable(format!(
                    "{p} is not played by a player of its own"
                )));
            }
            if taken.contains(&p) {
                return Err(ApiError::conflict(format!("{p} already has a player")));
            }
            if bots.contains(&p) {
                return Err(ApiError::conflict(format!(
                    "a bot plays {p}; the GM can give it to a person (replace)"
                )));
            }
            if disordered.contains(&p) {
                return Err(ApiError::conflict(format!(
                    "{p} is in permanent civil disorder (rule 11): its centres are minor powers now"
                )));
            }
            p
        }
        None => playable
            .iter()
            .find(|p| !taken.contains(p) && !bots.contains(p) && !disordered.contains(p))
            .cloned()
            .ok_or_else(|| ApiError::conflict("every power already has a player"))?,
    };
    let now = app.clock.now_ms();
    // An observer who joins as a player stops being an observer.
    store::members::stop_observing(&mut **tx, game.id, account_id, now).await?;
    store::members::insert(&mut **tx, game.id, account_id, Some(&power), now).await?;
    store::members::clear_disorder(&mut **tx, game.id, &power).await?;
    if game.status == GameStatus::Forming
        && game.start_at_ms.is_none()
        && taken.len() + bots.len() + 1 >= playable.len()
    {
        start(app, tx, loaded).await?;
    }
    Ok(power)
}

/// forming → active: the first deadline is set from now. A game created with "bots take
/// the seats nobody has" gets its bots now.
pub async fn start(app: &App, tx: &mut Tx, loaded: &LoadedGame) -> ApiResult<()> {
    let LoadedGame {
        game,
        variant: v,
        state,
    } = loaded;
    let deadline = game.deadline_from(app.clock.now_ms(), state.phase.kind)?;
    store::games::start(&mut **tx, game.id, deadline).await?;
    log_event(tx, app, game.id, game.seq, &state.phase.code(), "started", "").await?;
    if let Some(level) = store::bots::fill_level(&mut **tx, game.id).await? {
        let mut taken = store::members::seated(&mut **tx, game.id).await?;
        taken.extend(store::bots::powers(&mut **tx, game.id).await?);
        let now = app.clock.now_ms();
        for power in playable_powers(v) {
            let disordered = v.find_power(&power).is_some_and(|p| state.in_disorder(p));
            if !taken.contains(&power) && !disordered {
                store::bots::seat(&mut **tx, game.id, &power, level, game.seq, now).await?;
                store::members::clear_disorder(&mut **tx, game.id, &power).await?;
                log_event(tx, app, game.id, game.seq, &state.phase.code(), "bot_seated", &power).await?;
            }
        }
    }
    crate::services::mail::game_started(tx, app, game, &state.phase.to_string(), deadline).await?;
    Ok(())
}

/// Takes a vacant power for the account.
pub async fn join(app: &App, account: &Account, id: GameId, request: JoinRequest) -> ApiResult<Joined> {
    crate::services::moderation::refuse_if_suspended(app, account).await?;
    let (mut tx, game) = lock(app, id).await?;
    let loaded = LoadedGame::of(app, game).await?;
    let power = seat_player(app, &mut tx, &loaded, account.id, request.power.as_deref()).await?;
    tx.commit().await?;
    Ok(Joined { game: id, power })
}

/// Leaving a game: an observer stops following it, and a player gives up the seat while
/// the game is still forming. Once it has started a player leaves through the GM
/// (replacement or civil disorder), so that no power is dropped mid-game unnoticed.
pub async fn leave(app: &App, account: &Account, id: GameId) -> ApiResult<Left> {
    let (mut tx, game) = lock(app, id).await?;
    let left = match role_of(&mut *tx, &game, Some(account)).await? {
        Role::Gm => {
            return Err(ApiError::conflict(
                "the GM runs the game: hand it to another GM first (GM console)",
            ))
        }
        Role::Visitor => return Err(ApiError::conflict("you take no part in this game")),
        Role::Player(_) if game.status != GameStatus::Forming => {
            return Err(ApiError::conflict(
                "the game has started: ask the GM to give your power to someone else",
            ))
        }
        Role::Player(power) => Some(power),
        Role::Observer => None,
    };
    store::members::leave(&mut *tx, id, account.id, app.clock.now_ms()).await?;
    if let Some(power) = &left {
        let loaded = LoadedGame::of(app, game).await?;
        let phase = loaded.state.phase.code();
        log_event(&mut tx, app, id, loaded.game.seq, &phase, "left", power).await?;
        crate::services::mail::player_left(&mut tx, app, &loaded.game, power).await?;
    }
    tx.commit().await?;
    Ok(Left {
        game: id,
        left: left.unwrap_or_else(|| "observer".into()),
    })
}

/// Follows a game as an observer.
pub async fn observe(app: &App, account: &Account, id: GameId) -> ApiResult<Observing> {
    let (mut tx, game) = lock(app, id).await?;
    match role_of(&mut *tx, &game, Some(account)).await? {
        Role::Visitor => {}
        _ => return Err(ApiError::conflict("you already take part in this game")),
    }
    store::members::insert(&mut *tx, id, account.id, None, app.clock.now_ms()).await?;
    tx.commit().await?;
    Ok(Observing {
        game: id,
        role: "observer".into(),
    })
}
