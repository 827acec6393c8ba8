//! The game master's tools. Every one checks that the caller is the game's GM and runs
//! in one transaction holding the game's lock.

use chancery_engine::dp;
use chancery_engine::json::state_to_json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::clock::iso_utc;
use crate::db::{new_id, Tx};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::limits::{future_moment, MAX_AHEAD_MS, MAX_GAME_NAME_CHARS, MAX_MINUTES};
use crate::model::{Account, AccountId, GameId, GameOutcome, GameStatus, HowProcessed, PhaseSeq};
use crate::services::games::view::{self, GameView};
use crate::services::games::{self, settings, LoadedGame, Role};
use crate::services::moderation::refuse_if_suspended;
use crate::services::processing::{self, adjudicate_current, log_event, set_aside_text};
use crate::services::seats::{self, seat_player};
use crate::store::games::{Game, SettingsRow};
use crate::store::set_aside::{Rows, Why};
use crate::store::{self, events::EventRow, press::NewMessage};
use crate::App;

/// The start of every GM tool: a suspended GM uses none (asked before the lock, so that
/// the refusal never holds the game; a moderator gives the game another GM), then the
/// game locked, the caller checked to be its GM, and the game loaded: its position
/// decoded once for the whole tool (a damaged one is `damaged_game`).
pub(crate) async fn gm_lock(app: &App, account: &Account, id: GameId) -> ApiResult<(Tx, LoadedGame)> {
    let (tx, game) = gm_lock_unloaded(app, account, id).await?;
    Ok((tx, LoadedGame::of(app, game).await?))
}

/// [`gm_lock`] without the position: for a rollback, which puts an earlier position in
/// place of the current one and so never reads it (a damaged one can be rolled back).
async fn gm_lock_unloaded(app: &App, account: &Account, id: GameId) -> ApiResult<(Tx, Game)> {
    refuse_if_suspended(app, account).await?;
    let (tx, game) = games::lock(app, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::coded(ErrorCode::GmOnly, "only the game's GM can do that"));
    }
    Ok((tx, game))
}

/// The game's status after a tool changed it.
#[derive(Serialize, ToSchema, Debug)]
pub struct Status {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub status: GameStatus,
}

/// Starts a forming game now.
pub async fn start(app: &App, account: &Account, id: GameId) -> ApiResult<Status> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    if loaded.game.status != GameStatus::Forming {
        return Err(ApiError::conflict("the game has already started"));
    }
    seats::start(app, &mut tx, &loaded).await?;
    tx.commit().await?;
    app.bot_wake.notify_one();
    app.wake.notify_one();
    Ok(Status {
        game: id,
        status: GameStatus::Active,
    })
}

/// A phase the GM had processed.
#[derive(Serialize, ToSchema, Debug)]
pub struct Processed {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// The phase processed.
    pub processed: String,
    /// The phase the game is at now.
    pub next: String,
    /// The winner, when the phase ended the game.
    pub winner: Option<String>,
}

/// Processes the current phase now.
pub async fn process_now(app: &App, account: &Account, id: GameId) -> ApiResult<Processed> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    if !loaded.game.status.running() {
        return Err(ApiError::coded(
            ErrorCode::NotRunning,
            format!("the game is {}", loaded.game.status),
        ));
    }
    let result = adjudicate_current(app, &mut tx, &loaded, HowProcessed::Gm)
        .await?
        .result;
    tx.commit().await?;
    app.bot_wake.notify_one();
    Ok(Processed {
        game: id,
        processed: result.phase,
        next: result.next.phase,
        winner: result.winner,
    })
}

/// A new deadline: by `minutes`, or at `deadline_ms`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"minutes": 1440}))]
pub struct Extend {
    /// Minutes to add to the deadline (1 to 86400).
    #[serde(default)]
    pub minutes: Option<i64>,
    /// Or a new deadline, ms since 1970 UTC: after now and within a year.
    #[serde(default)]
    pub deadline_ms: Option<i64>,
}

/// A deadline after a tool set it.
#[derive(Serialize, ToSchema, Debug)]
pub struct Deadline {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// UTC, ISO 8601.
    pub deadline: String,
    pub deadline_ms: i64,
}

/// Moves the deadline of a running game.
pub async fn extend(app: &App, account: &Account, id: GameId, e: Extend) -> ApiResult<Deadline> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    if game.status != GameStatus::Active {
        return Err(ApiError::conflict("only a running game has a deadline to move"));
    }
    let now = app.clock.now_ms();
    // Checked sums, and a deadline after now and within a year: a
    // huge `deadline_ms` once wrapped a later `minutes` round to a past deadline.
    let deadline = match (e.minutes, e.deadline_ms) {
        (Some(m), None) if (1..=MAX_MINUTES).contains(&m) => game
            .deadline_ms
            .unwrap_or(now)
            .max(now)
            .checked_add(m * 60_000)
            .ok_or_else(|| ApiError::unprocessable("the deadline cannot be moved that far"))?,
        (None, Some(d)) => d,
        _ => {
            return Err(ApiError::unprocessable(format!(
                "give `minutes` (1 to {MAX_MINUTES}) or `deadline_ms`"
            )))
        }
    };
    let deadline = future_moment(now, deadline, "the new deadline").map_err(ApiError::unprocessable)?;
    store::games::set_deadline(&mut *tx, id, deadline).await?;
    let phase = loaded.state.phase.code();
    log_event(&mut tx, app, id, game.seq, &phase, "deadline", &iso_utc(deadline)).await?;
    tx.commit().await?;
    app.wake.notify_one();
    Ok(Deadline {
        game: id,
        deadline: iso_utc(deadline),
        deadline_ms: deadline,
    })
}

/// A paused game and the time it keeps.
#[derive(Serialize, ToSchema, Debug)]
pub struct Paused {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub status: GameStatus,
    /// The time left to play when it resumes.
    pub remaining_ms: i64,
}

/// Stops the deadline, keeping the time left.
pub async fn pause(app: &App, account: &Account, id: GameId) -> ApiResult<Paused> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    if game.status != GameStatus::Active {
        return Err(ApiError::conflict("only a running game can be paused"));
    }
    // At least a minute is left to play on resuming, at most what a deadline may be.
    let left = game
        .deadline_ms
        .unwrap_or(0)
        .saturating_sub(app.clock.now_ms())
        .clamp(60_000, MAX_AHEAD_MS);
    store::games::pause(&mut *tx, id, left).await?;
    let phase = loaded.state.phase.code();
    log_event(&mut tx, app, id, game.seq, &phase, "paused", "").await?;
    tx.commit().await?;
    Ok(Paused {
        game: id,
        status: GameStatus::Paused,
        remaining_ms: left,
    })
}

/// A resumed game and its deadline.
#[derive(Serialize, ToSchema, Debug)]
pub struct Resumed {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub status: GameStatus,
    pub deadline: String,
    pub deadline_ms: i64,
}

/// Resumes a paused game with the time it had left.
pub async fn resume(app: &App, account: &Account, id: GameId) -> ApiResult<Resumed> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    if game.status != GameStatus::Paused {
        return Err(ApiError::conflict("the game is not paused"));
    }
    let left = game.paused_left_ms.unwrap_or(60_000).clamp(60_000, MAX_AHEAD_MS);
    let deadline = app
        .clock
        .now_ms()
        .checked_add(left)
        .ok_or_else(|| ApiError::unprocessable("the clock is out of range"))?;
    store::games::resume(&mut *tx, id, deadline).await?;
    let phase = loaded.state.phase.code();
    log_event(&mut tx, app, id, game.seq, &phase, "resumed", "").await?;
    tx.commit().await?;
    app.bot_wake.notify_one();
    app.wake.notify_one();
    Ok(Resumed {
        game: id,
        status: GameStatus::Active,
        deadline: iso_utc(deadline),
        deadline_ms: deadline,
    })
}

/// The phase a rollback returned to.
#[derive(Serialize, ToSchema, Debug)]
pub struct RolledBack {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub phase: String,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
}

/// Takes back the last processed phase.
pub async fn rollback(app: &App, account: &Account, id: GameId) -> ApiResult<RolledBack> {
    let (mut tx, game) = gm_lock_unloaded(app, account, id).await?;
    let (phase, seq) = processing::rollback(app, &mut tx, &game).await?;
    tx.commit().await?;
    app.bot_wake.notify_one();
    Ok(RolledBack { game: id, phase, seq })
}

/// A roll forward's result.
#[derive(Serialize, ToSchema, Debug)]
pub struct RolledForward {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// The phase judged again.
    pub restored: String,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    /// Whether orders changed since the rollback, so that a new result was published.
    pub readjudicated: bool,
}

/// Undoes a rollback: the phase is judged again from the orders stored now.
pub async fn rollforward(app: &App, account: &Account, id: GameId) -> ApiResult<RolledForward> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    let (phase, changed) = processing::roll_forward(app, &mut tx, &loaded).await?;
    tx.commit().await?;
    app.bot_wake.notify_one();
    Ok(RolledForward {
        game: id,
        restored: phase,
        seq: game.seq.next(),
        readjudicated: changed,
    })
}

/// A power and the account that takes it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"power": "Turkey", "account": "bob"}))]
pub struct Seat {
    pub power: String,
    /// The account name that takes the power.
    pub account: String,
}

/// A power given to an account.
#[derive(Serialize, ToSchema, Debug)]
pub struct Seated {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub power: String,
    pub account: String,
}

async fn account_id(tx: &mut Tx, name: &str) -> ApiResult<(AccountId, String)> {
    store::accounts::by_name(&mut **tx, name)
        .await?
        .map(|a| (a.id, a.name))
        .ok_or_else(|| ApiError::not_found(format!("no account `{name}`")))
}

/// Gives a vacant power to an account.
pub async fn assign(app: &App, account: &Account, id: GameId, s: Seat) -> ApiResult<Seated> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    let (who, _) = account_id(&mut tx, &s.account).await?;
    let power = seat_player(app, &mut tx, &loaded, who, Some(&s.power)).await?;
    if game.status != GameStatus::Forming {
        crate::services::mail::power_taken(&mut tx, app, game, &power, who, None).await?;
    }
    tx.commit().await?;
    Ok(Seated {
        game: id,
        power,
        account: s.account,
    })
}

/// The power's name as the variant spells it.
fn power_name(v: &chancery_engine::Variant, name: &str) -> ApiResult<String> {
    v.find_power(name)
        .map(|i| v.power(i).name.clone())
        .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{name}`")))
}

/// A new account takes over a power; the old player's membership ends but stays in the
/// record, and the power's orders and history are untouched.
pub async fn replace(app: &App, account: &Account, id: GameId, s: Seat) -> ApiResult<Seated> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    let power = power_name(&loaded.variant, &s.power)?;
    let (who, _) = account_id(&mut tx, &s.account).await?;
    let old = store::mail::player_of(&mut *tx, id, &power).await?;
    store::members::end_seat(&mut *tx, id, &power, app.clock.now_ms()).await?;
    // A person takes a bot's seat the same way; the bot's ready mark goes with it, so
    // that the phase waits for the person.
    if store::bots::unseat(&mut *tx, id, &power, app.clock.now_ms()).await? {
        store::orders::set_ready(&mut *tx, id, game.seq, &power, false).await?;
    }
    seat_player(app, &mut tx, &loaded, who, Some(&power)).await?;
    crate::services::mail::power_taken(&mut tx, app, game, &power, who, old).await?;
    let phase = loaded.state.phase.code();
    log_event(&mut tx, app, id, game.seq, &phase, "replaced", &power).await?;
    tx.commit().await?;
    Ok(Seated {
        game: id,
        power,
        account: s.account,
    })
}

/// A power to declare in civil disorder.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"power": "Italy", "permanent": true}))]
pub struct Disorder {
    pub power: String,
    /// DP variants: rule 11's permanent civil disorder (the default there). False keeps
    /// the power as it is while the GM looks for a new player, as the rule urges first.
    #[serde(default)]
    pub permanent: Option<bool>,
}

/// A declaration made.
#[derive(Serialize, ToSchema, Debug)]
pub struct Declared {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub power: String,
    pub civil_disorder: bool,
    pub permanent: bool,
}

/// Declares a power in civil disorder. Its player's seat ends and its orders are ignored
/// from now on: the engine's rules for missing orders apply (hold, disband, removals)
/// until the GM seats a new player.
///
/// In the Diplomacy Points variants rule 11 applies instead (unless the GM asks for
/// `permanent: false` while looking for a replacement), at once and for good: the
/// power's units are disbanded and its empty centres become independent minors, each
/// with an army, that take bids from then on (`dp::civil_disorder`). The position changes
/// within the current phase, so everyone sees the new minors before its deadline; orders
/// already given that name the power's old units are judged against the new position.
pub async fn civil_disorder(app: &App, account: &Account, id: GameId, p: Disorder) -> ApiResult<Declared> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    if game.status == GameStatus::Finished {
        return Err(ApiError::coded(ErrorCode::GameOver, "the game is over"));
    }
    let (v, state) = (&loaded.variant, &loaded.state);
    let power = power_name(v, &p.power)?;
    let power_id = v
        .find_power(&power)
        .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
    if v.is_minor(power_id) {
        return Err(ApiError::unprocessable(format!(
            "{power} is a minor power: it has no player to lose"
        )));
    }
    let permanent = match (v.has_minors(), p.permanent) {
        (true, choice) => choice.unwrap_or(true),
        (false, Some(true)) => {
            return Err(ApiError::unprocessable(
                "permanent civil disorder (rule 11) belongs to the Diplomacy Points variants",
            ))
        }
        (false, _) => false,
    };
    if state.in_disorder(power_id) {
        return Err(ApiError::conflict(format!(
            "{power} is already in permanent civil disorder"
        )));
    }
    let mut gone = vec![power.clone()];
    let mut set_aside_lines = Vec::new();
    if permanent {
        // Rule 8: the power's faction, if it sponsors one, has nobody left to order it.
        let (next, orphaned) = dp::declare_civil_disorder(v, state, power_id);
        gone.extend(orphaned.iter().map(|&f| v.power(f).name.clone()));
        let text = serde_json::to_string(&state_to_json(v, &next))
            .map_err(|e| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        store::games::set_state(&mut *tx, id, &text).await?;
        // The power gives no more orders and buys none: what it had given is set aside,
        // to come back if a rollback passes before the declaration and a roll forward
        // restores this phase.
        for name in &gone {
            let rows = Rows::Of(game.seq, name);
            set_aside_lines.extend(store::set_aside::list(&mut tx, id, rows).await?);
            store::set_aside::set_aside(&mut tx, id, rows, Why::Disorder).await?;
        }
    }
    // The seat the declaration ends is remembered, for a rollback past it to give back.
    store::disorder::declare(&mut *tx, id, &power, game.seq).await?;
    store::members::end_seat(&mut *tx, id, &power, app.clock.now_ms()).await?;
    store::bots::unseat(&mut *tx, id, &power, app.clock.now_ms()).await?;
    let phase = state.phase.code();
    let detail = if permanent {
        let factions = gone[1..]
            .iter()
            .map(|f| format!("; rule 8: {f} too"))
            .collect::<String>();
        let kept = match set_aside_text(&set_aside_lines) {
            t if t.is_empty() => t,
            t => format!("; {t}"),
        };
        format!("{power} (rule 11: its centres became minor powers{factions}{kept})")
    } else {
        power.clone()
    };
    log_event(&mut tx, app, id, game.seq, &phase, "civil_disorder", &detail).await?;
    let rules = if permanent {
        "under rule 11 its units are disbanded and its empty centres become minor powers, for good."
    } else {
        "its units hold (and retreats and adjustments take their defaults) until the GM finds it a new player."
    };
    crate::services::mail::civil_disorder(&mut tx, app, game, &power, rules).await?;
    tx.commit().await?;
    Ok(Declared {
        game: id,
        power,
        civil_disorder: true,
        permanent,
    })
}

/// The account to hand the game to.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"account": "dave"}))]
pub struct Transfer {
    pub account: String,
}

/// The game's GM after a hand-over.
#[derive(Serialize, ToSchema, Debug)]
pub struct Transferred {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub gm: String,
}

/// The GM hands the game to another account, as a club does when its GM steps down:
/// the new GM gets every tool and sees every order and bid from then on, the old one
/// nothing more. Not to a player of this game, who would then read the others' orders
/// and bids; an observer stops observing. A club moderator may do it too, to give a game
/// whose GM has gone a new one, or to replace a GM (written to the moderation log).
pub async fn transfer(app: &App, account: &Account, id: GameId, t: Transfer) -> ApiResult<Transferred> {
    let moderator = crate::services::moderation::is_moderator(&app.db, Some(account)).await?;
    if !moderator {
        refuse_if_suspended(app, account).await?;
    }
    let (mut tx, game) = games::lock(app, id).await?;
    if game.gm_id != account.id && !moderator {
        return Err(ApiError::forbidden(
            "only the game's GM or a club moderator can do that",
        ));
    }
    let name = t.account.trim();
    let (to, new_name) = account_id(&mut tx, name).await?;
    if to == game.gm_id {
        return Err(ApiError::conflict(format!("`{name}` is already this game's GM")));
    }
    if crate::services::moderation::is_suspended(app, to).await? {
        return Err(ApiError::conflict(format!(
            "`{new_name}` is suspended and could use no GM tool; lift the suspension first"
        )));
    }
    if let Some(power) = store::members::power_of(&mut *tx, id, to).await? {
        return Err(ApiError::conflict(format!(
            "`{name}` plays {power} in this game, and a GM reads every power's orders and bids"
        )));
    }
    store::members::leave(&mut *tx, id, to, app.clock.now_ms()).await?;
    store::games::set_gm(&mut *tx, id, to).await?;
    let loaded = LoadedGame::of(app, game).await?;
    let (game, phase) = (&loaded.game, loaded.state.phase.code());
    announce(
        &mut tx,
        app,
        game,
        &phase,
        account.id,
        &format!("{new_name} is the game's GM from now on."),
    )
    .await?;
    log_event(
        &mut tx,
        app,
        id,
        game.seq,
        &phase,
        "gm_transfer",
        &if game.gm_id == account.id {
            format!("from {} to {new_name}", account.name)
        } else {
            format!("to {new_name}, by the club moderator {}", account.name)
        },
    )
    .await?;
    if game.gm_id != account.id {
        crate::services::moderation::log(
            &mut *tx,
            app.clock.now_ms(),
            Some(account),
            crate::model::ModerationAction::Gm,
            &format!("game {id} \u{201c}{}\u{201d}", game.name),
            &format!("{new_name} made the game's GM"),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Transferred { game: id, gm: new_name })
}

/// The settings to change; fields left out keep their value.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"press": "public", "deadlines": {"movement_minutes": 2880, "at": "20:00", "time_zone": "Europe/Paris"}}))]
pub struct Settings {
    #[serde(default)]
    pub name: Option<String>,
    /// `at: ""` drops a fixed time of day.
    #[serde(default)]
    pub deadlines: Option<settings::Deadlines>,
    /// `full`, `public` or `none`.
    #[serde(default)]
    pub press: Option<String>,
    #[serde(default)]
    pub grey_press: Option<bool>,
    /// `when_all_ready` or `never`: whether the last ready mark processes the phase.
    #[serde(default)]
    pub early_processing: Option<settings::EarlyProcessing>,
    /// Refused with a reason, rather than as an unknown field (as is `reveal_at_end`).
    #[serde(default)]
    pub anonymous: Option<bool>,
    #[serde(default)]
    pub reveal_at_end: Option<bool>,
}

/// The GM changes a running game's settings, as a club does when a season's pace
/// changes or a game goes gunboat. The deadline already set stays (`extend` moves it);
/// the new schedule applies from the next phase. Press rules apply at once to new
/// messages. Anonymity is fixed at creation: players joined under it, and lifting it
/// would name them.
pub async fn change_settings(app: &App, account: &Account, id: GameId, s: Settings) -> ApiResult<GameView> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    if game.status == GameStatus::Finished {
        return Err(ApiError::coded(ErrorCode::GameOver, "the game is over"));
    }
    if s.anonymous.is_some_and(|a| a != game.anonymous) || s.reveal_at_end.is_some_and(|r| r != game.reveal_at_end) {
        return Err(ApiError::unprocessable(
            "anonymity is fixed when the game is created: its players joined under it",
        ));
    }
    let name = match s.name.as_deref().map(str::trim) {
        Some(n) if n.is_empty() || n.chars().count() > MAX_GAME_NAME_CHARS => {
            return Err(ApiError::unprocessable(format!(
                "a game's name has 1 to {MAX_GAME_NAME_CHARS} characters"
            )))
        }
        Some(n) => n.to_string(),
        None => game.name.clone(),
    };
    let press = match s.press.as_deref() {
        Some(p) => settings::check_press(p)?,
        None => game.press,
    };
    let grey_press = s.grey_press.unwrap_or(game.grey_press);
    let early = s
        .early_processing
        .unwrap_or(settings::EarlyProcessing::from_flag(game.process_when_ready));
    let schedule = match &s.deadlines {
        Some(d) => d.schedule(&game.schedule())?,
        None => game.schedule(),
    };
    let row = SettingsRow {
        name: &name,
        press,
        grey_press,
        movement_minutes: schedule.movement,
        retreat_minutes: schedule.retreat,
        adjustment_minutes: schedule.adjustment,
        deadline_time: schedule.at.as_deref(),
        time_zone: schedule.time_zone.as_deref(),
        process_when_ready: early.flag(),
    };
    store::games::set_settings(&mut *tx, id, &row).await?;
    let mut changed = Vec::new();
    if name != game.name {
        crate::services::forum::rename_game_thread(&mut tx, id, &name).await?;
        changed.push(format!("name {name}"));
    }
    if press != game.press || grey_press != game.grey_press {
        changed.push(format!("press {press}{}", if grey_press { " with grey" } else { "" }));
    }
    if early.flag() != game.process_when_ready {
        changed.push(early.words().to_string());
    }
    if schedule != game.schedule() {
        let at = match (&schedule.at, &schedule.time_zone) {
            (Some(t), Some(z)) => format!(", at {t} {z}"),
            _ => String::new(),
        };
        changed.push(format!(
            "deadlines {}/{}/{} min{at}",
            schedule.movement, schedule.retreat, schedule.adjustment
        ));
    }
    if !changed.is_empty() {
        let phase = loaded.state.phase.code();
        log_event(&mut tx, app, id, game.seq, &phase, "settings", &changed.join("; ")).await?;
    }
    // Early processing turned on when every seated power is ready already: no further
    // mark will come to process the phase, so it is processed now, under the new
    // settings (the game read again in this transaction, its position unchanged).
    let turned_on = early.flag() && !game.process_when_ready;
    let now = LoadedGame {
        game: games::load(&mut *tx, id).await?,
        variant: loaded.variant,
        state: loaded.state,
    };
    let next = match turned_on {
        true => {
            crate::services::orders::process_if_all_ready(app, &mut tx, &now, HowProcessed::AllReadyWhenEarlyOn).await?
        }
        false => None,
    };
    // The answer shows the game as this change left it: as read above, or, when it
    // processed the phase, at the position the engine moved it on to.
    let view = match next {
        None => now,
        Some(state) => LoadedGame {
            game: games::load(&mut *tx, id).await?,
            variant: now.variant,
            state,
        },
    };
    tx.commit().await?;
    view::game_view(app, &view, &Role::Gm).await
}

/// How the GM ends the game.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"result": "draw", "powers": ["England", "France", "Russia"]}))]
pub struct End {
    /// `draw` or `concession`.
    pub result: String,
    /// For a draw: the powers sharing it. For a concession: the one power conceded to.
    pub powers: Vec<String>,
}

/// A game the GM ended.
#[derive(Serialize, ToSchema, Debug)]
pub struct Ended {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub status: GameStatus,
    #[schema(value_type = String)]
    pub outcome: GameOutcome,
}

/// Ends the game as a draw (two powers or more) or a concession (one).
pub async fn end(app: &App, account: &Account, id: GameId, e: End) -> ApiResult<Ended> {
    let (mut tx, loaded) = gm_lock(app, account, id).await?;
    let game = &loaded.game;
    if game.status == GameStatus::Finished {
        return Err(ApiError::coded(ErrorCode::GameOver, "the game is already over"));
    }
    let v = &loaded.variant;
    let mut names = Vec::new();
    for p in &e.powers {
        let i = v
            .find_power(p)
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{p}`")))?;
        names.push(v.power(i).name.clone());
    }
    let outcome = match (e.result.as_str(), names.len()) {
        ("draw", n) if n >= 2 => GameOutcome::Draw(names),
        ("draw", _) => return Err(ApiError::unprocessable("a draw is shared by two powers or more")),
        ("concession", 1) => GameOutcome::Concession(names.swap_remove(0)),
        ("concession", _) => return Err(ApiError::unprocessable("a concession names one power")),
        _ => return Err(ApiError::unprocessable("`result` is `draw` or `concession`")),
    };
    finish(app, &mut tx, &loaded, &outcome, account.id, "the GM").await?;
    tx.commit().await?;
    Ok(Ended {
        game: id,
        status: GameStatus::Finished,
        outcome,
    })
}

/// A GM announcement to everyone, in the name of the GM account `announcer`.
async fn announce(tx: &mut Tx, app: &App, game: &Game, phase: &str, announcer: AccountId, body: &str) -> ApiResult<()> {
    let message = NewMessage {
        id: crate::model::MessageId(new_id()),
        game_id: game.id,
        seq: game.seq,
        phase,
        sender_account: announcer,
        sender_power: None,
        from_gm: true,
        grey: false,
        recipients: &store::press::Recipients::Everyone,
        body,
        sent_ms: app.clock.now_ms(),
    };
    Ok(store::press::insert(tx, &message).await?)
}

/// Ends the game with `outcome` inside `tx` and announces it to everyone in press, in
/// the name of the GM account `announcer`; `by` says who decided, for the event log.
pub async fn finish(
    app: &App,
    tx: &mut Tx,
    loaded: &LoadedGame,
    outcome: &GameOutcome,
    announcer: AccountId,
    by: &str,
) -> ApiResult<()> {
    let game = &loaded.game;
    store::games::finish(&mut **tx, game.id, outcome).await?;
    crate::services::mail::game_ended(tx, app, game, outcome).await?;
    let phase = loaded.state.phase.code();
    announce(
        tx,
        app,
        game,
        &phase,
        announcer,
        &format!("The game is over: {outcome} (decided by {by})."),
    )
    .await?;
    log_event(
        tx,
        app,
        game.id,
        game.seq,
        &phase,
        "ended",
        &format!("{outcome}, by {by}"),
    )
    .await
}

/// One entry of the event log.
#[derive(Serialize, ToSchema, Debug)]
pub struct EventLine {
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub phase: String,
    /// `started`, `processed`, `rolled_back`, `deadline`, `civil_disorder`, …
    pub kind: String,
    pub detail: String,
    /// The server that wrote it.
    pub server: String,
    /// UTC, ISO 8601.
    pub at: String,
}

/// The game's event log.
#[derive(Serialize, ToSchema, Debug)]
pub struct Events {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub events: Vec<EventLine>,
}

/// The game's event log: starts, processing (and by which server), rollbacks, GM actions.
pub async fn events(app: &App, account: &Account, id: GameId) -> ApiResult<Events> {
    let game = games::load(&app.db.read, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::coded(ErrorCode::GmOnly, "only the game's GM can do that"));
    }
    let rows = store::events::of_game(&app.db.read, id).await?;
    Ok(Events {
        game: id,
        events: rows
            .into_iter()
            .map(|r: EventRow| EventLine {
                seq: r.seq,
                phase: r.phase,
                kind: r.kind,
                detail: r.detail,
                server: r.server,
                at: iso_utc(r.at_ms),
            })
            .collect(),
    })
}
