//! Games: the game and who the viewer is in it (here), and by job: its [`settings`]
//! (press, deadline schedules), its [`view`] for each viewer and the list of games, and
//! a player's own games in the [`lobby`]. Creating a game is `services::new_game`, its
//! seats `services::seats`: both mail and post about a game, and the mail reads games.

pub mod lobby;
pub mod settings;
pub mod view;

use crate::model::Schedule;

use std::sync::Arc;

use chancery_engine::json::{state_from_json, StateJson};
use chancery_engine::{GameState, PhaseKind, PowerId, Variant};
use sqlx::{Any, Executor};

use crate::db::Tx;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::{Account, GameId, GameStatus, PhaseSeq};
use crate::services::maps::MapOf;
use crate::store::{self, games::Game};
use crate::App;

/// Adds to the game's event log, stamped with this server and its clock.
pub async fn log_event(
    tx: &mut Tx,
    app: &App,
    game: GameId,
    seq: PhaseSeq,
    phase: &str,
    kind: &str,
    detail: &str,
) -> sqlx::Result<()> {
    let event = store::events::Event {
        game,
        seq,
        phase,
        kind,
        detail,
        server: &app.server_id,
        at_ms: app.clock.now_ms(),
    };
    store::events::insert(&mut **tx, &event).await
}

pub async fn load<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId) -> ApiResult<Game> {
    store::games::by_id(e, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))
}

/// Starts a write transaction holding the game's lock, and reads the game in it.
pub async fn lock(app: &App, id: GameId) -> ApiResult<(Tx, Game)> {
    let mut tx = app.db.write.begin().await?;
    let game = store::games::lock(&mut tx, app.db.backend, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
    Ok((tx, game))
}

/// The start of every change a player or the GM makes for one power: the game locked,
/// `check` passed (whether such a change is open now, given the caller's role), and the
/// power the caller acts for (`requested`: the GM names one).
pub async fn lock_acting(
    app: &App,
    account: &Account,
    id: GameId,
    requested: Option<&str>,
    check: impl FnOnce(&LoadedGame, &Role) -> ApiResult<()>,
) -> ApiResult<(Tx, LoadedGame, String)> {
    // A suspended account gives no orders, bids or ready marks (asked before the lock,
    // on the read pool, so that the refusal never holds the game).
    crate::services::moderation::refuse_if_suspended(app, account).await?;
    let (mut tx, game) = lock(app, id).await?;
    let role = role_of(&mut *tx, &game, Some(account)).await?;
    let loaded = LoadedGame::of(app, game).await?;
    check(&loaded, &role)?;
    let power = acting_power(&role, requested, &loaded.variant)?;
    Ok((tx, loaded, power))
}

/// A game with its variant and its position decoded, once per request: what a request
/// that acts on the position passes along instead of decoding the stored position again
/// at each step (tests/loaded_game.rs counts the decodes of an order submission).
pub struct LoadedGame {
    pub game: Game,
    pub variant: Arc<Variant>,
    pub state: GameState,
}

/// The one loader of a game for a request that reads it: the game from the read pool,
/// its variant and its position decoded once, so that every reader refuses a damaged
/// stored position alike (`damaged_game`, as the writers through [`lock_acting`] do).
pub async fn read(app: &App, id: GameId) -> ApiResult<LoadedGame> {
    LoadedGame::of(app, load(&app.db.read, id).await?).await
}

impl LoadedGame {
    pub async fn of(app: &App, game: Game) -> ApiResult<LoadedGame> {
        let variant = game.variant(app).await?;
        let state = game.state(&variant)?;
        Ok(LoadedGame { game, variant, state })
    }

    /// The game as read again (under a new lock), with this load's variant, and its
    /// position decoded again only if the stored one changed meanwhile: a job that
    /// loaded the game, let go of the lock and takes it again (the bot's turn) decodes
    /// an unchanged position once.
    pub async fn reread(self, app: &App, game: Game) -> ApiResult<LoadedGame> {
        if game.state_json == self.game.state_json && game.variant == self.game.variant {
            return Ok(LoadedGame { game, ..self });
        }
        LoadedGame::of(app, game).await
    }

    /// The game's drawing (map key and variant), from the variant already loaded.
    pub fn map(&self, app: &App) -> ApiResult<MapOf> {
        let text = self.game.variant_text.as_deref();
        Ok(MapOf {
            key: app
                .variants
                .key_for_game(self.game.id, &self.game.variant, text)
                .map_err(ApiError::unprocessable)?,
            variant: self.variant.clone(),
            uploaded: text.is_some(),
        })
    }
}

/// The phase a change to orders, bids or a ready mark is meant for, as the request
/// names it: its number (`seq`, which the game's view gives) or its code (`phase`, such
/// as `F1901M`). Required: a ready mark or an order sent just
/// after a deadline must not land on the next phase, where it would mean something its
/// sender never said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhaseRef {
    pub seq: Option<PhaseSeq>,
    pub phase: Option<String>,
}

/// Refuses a change named for another phase than the game's current one: 409 with the
/// current phase's number and code, so that a client can show the new position; 422 when
/// the request names no phase.
pub fn at_phase(game: &Game, state: &GameState, named: &PhaseRef) -> ApiResult<()> {
    let code = state.phase.code();
    let current = serde_json::json!({"seq": game.seq, "phase": code});
    if named.seq.is_none() && named.phase.is_none() {
        return Err(ApiError::unprocessable(format!(
            "say which phase this is for: `seq` (now {}) or `phase` (now {code})",
            game.seq
        ))
        .with(current));
    }
    let seq_ok = named.seq.is_none_or(|s| s == game.seq);
    let code_ok = named
        .phase
        .as_deref()
        .is_none_or(|p| p.trim().eq_ignore_ascii_case(&code));
    if seq_ok && code_ok {
        return Ok(());
    }
    let asked = match (&named.seq, &named.phase) {
        (Some(s), Some(p)) => format!("phase {p} (number {s})"),
        (Some(s), None) => format!("phase number {s}"),
        (None, p) => format!("phase {}", p.as_deref().unwrap_or_default()),
    };
    Err(ApiError::coded(
        ErrorCode::PhaseClosed,
        format!(
            "this was sent for {asked}, but the game is at {code} (number {}); nothing was changed",
            game.seq
        ),
    )
    .with(current))
}

impl Game {
    /// The game's variant: a built-in one at once; an upload by the game's id once this
    /// process has loaded it (no hashing of the file per call), else loaded on the job
    /// pool (see [`crate::variants::Cache`]).
    pub async fn variant(&self, app: &App) -> ApiResult<Arc<Variant>> {
        app.variants
            .for_game(&app.jobs, self.id, &self.variant, self.variant_text.as_deref())
            .await
    }

    /// Decodes the stored position. The server's requests and jobs go through
    /// [`LoadedGame::of`] (and pass the `LoadedGame` on), so that each decodes it once
    /// and every one refuses a damaged position alike; public for the benches.
    pub fn state(&self, v: &Variant) -> ApiResult<GameState> {
        store::games::STATE_DECODES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let json: StateJson = serde_json::from_str(&self.state_json)
            .map_err(|e| ApiError::coded(ErrorCode::DamagedGame, format!("stored position: {e}")))?;
        state_from_json(v, &json).map_err(|e| ApiError::coded(ErrorCode::DamagedGame, format!("stored position: {e}")))
    }

    /// The deadline of a phase of this kind opening at `now_ms`. The schedule's lengths
    /// are bounded when set, so only a row written by hand can make it out of range.
    pub fn deadline_from(&self, now_ms: i64, kind: PhaseKind) -> ApiResult<i64> {
        let at = match (&self.deadline_time, &self.time_zone) {
            (Some(t), Some(z)) => crate::deadlines::parse(t, z).ok(),
            _ => None,
        };
        crate::deadlines::next(now_ms, self.minutes_for(kind), at).ok_or_else(|| {
            ApiError::unprocessable(format!(
                "the game's deadline schedule ({} minutes) gives no deadline in range",
                self.minutes_for(kind)
            ))
        })
    }

    /// Whether the game keeps its players' accounts from everyone but the GM now.
    pub fn hides_players(&self) -> bool {
        self.anonymous && !(self.reveal_at_end && self.status == GameStatus::Finished)
    }

    pub fn schedule(&self) -> Schedule {
        Schedule {
            movement: self.movement_minutes,
            retreat: self.retreat_minutes,
            adjustment: self.adjustment_minutes,
            at: self.deadline_time.clone(),
            time_zone: self.time_zone.clone(),
        }
    }

    /// The deadline length for a phase of this kind.
    pub fn minutes_for(&self, kind: PhaseKind) -> i64 {
        match kind {
            PhaseKind::Movement => self.movement_minutes,
            PhaseKind::Retreat => self.retreat_minutes,
            PhaseKind::Adjustment => self.adjustment_minutes,
        }
    }
}

/// The powers a player can take: great powers and factions nobody else orders. Minor
/// powers and factions played by a great power's player (1936's Spanish sides) are not.
pub fn playable_powers(v: &Variant) -> Vec<String> {
    v.powers
        .iter()
        .enumerate()
        .filter(|&(i, p)| !v.is_minor(i as PowerId) && p.player.is_none())
        .map(|(_, p)| p.name.clone())
        .collect()
}

/// Who the viewer is in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    Gm,
    Player(String),
    Observer,
    Visitor,
}

pub async fn role_of<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: &Game,
    account: Option<&Account>,
) -> ApiResult<Role> {
    let Some(account) = account else {
        return Ok(Role::Visitor);
    };
    if account.id == game.gm_id {
        return Ok(Role::Gm);
    }
    Ok(match store::members::part(e, game.id, account.id).await? {
        Some(store::members::Part::Player(power)) => Role::Player(power),
        Some(store::members::Part::Observer) => Role::Observer,
        None => Role::Visitor,
    })
}

/// The power a request acts for: the player's own; a GM names one with `power`.
pub fn acting_power(role: &Role, requested: Option<&str>, v: &Variant) -> ApiResult<String> {
    match (role, requested) {
        (Role::Player(p), None) => Ok(p.clone()),
        (Role::Player(p), Some(r)) if v.find_power(r).map(|i| &v.power(i).name) == Some(p) => Ok(p.clone()),
        (Role::Player(_), Some(_)) => Err(ApiError::coded(ErrorCode::NotYourPower, "you play another power")),
        (Role::Gm, Some(r)) => v
            .find_power(r)
            .map(|i| v.power(i).name.clone())
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{r}`"))),
        (Role::Gm, None) => Err(ApiError::unprocessable("as GM, say which power with `power`")),
        _ => Err(ApiError::coded(
            ErrorCode::NotYourPower,
            "only the power's player or the GM can do that",
        )),
    }
}
