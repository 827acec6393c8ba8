//! What each viewer may see of a game, and the list of games. Players' names are hidden
//! in anonymous games from everyone but the GM (a player still sees their own power);
//! draw votes are secret but to the GM and the voter.

use chancery_engine::json::{state_to_json, StateJson};
use chancery_engine::variant::PowerKind;
use serde::Serialize;
use utoipa::ToSchema;

use super::settings::EarlyProcessing;
use super::{role_of, LoadedGame, Role};
use crate::clock::iso_utc;
use crate::error::{ApiError, ApiResult};
use crate::model::{Account, GameId, GameOutcome, GameStatus, PhaseSeq, PressRule};
use crate::store;
use crate::App;

/// A game's deadline schedule.
#[derive(Serialize, ToSchema)]
pub struct ScheduleView {
    pub movement_minutes: i64,
    pub retreat_minutes: i64,
    pub adjustment_minutes: i64,
    /// "HH:MM": deadlines fall at this time of day in `time_zone`.
    pub at: Option<String>,
    pub time_zone: Option<String>,
}

#[derive(Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PowerKindView {
    Great,
    Minor,
    Faction,
}

/// A power of the game as the viewer may see it.
#[derive(Serialize, ToSchema)]
pub struct PowerView {
    pub name: String,
    pub kind: PowerKindView,
    /// A faction's great power, whose player orders it.
    pub ordered_by: Option<String>,
    /// A player can take it (not a minor, nor a faction ordered by another).
    pub playable: bool,
    /// Someone plays it: a person or a bot.
    pub has_player: bool,
    /// The player's account name, when the viewer may know it (never a bot's).
    pub player: Option<String>,
    /// A bot plays it: it orders, bids and marks ready on its own.
    pub bot: bool,
    pub civil_disorder: bool,
    /// Ready in the current phase.
    pub ready: bool,
    pub centres: usize,
    pub units: usize,
}

/// The viewer's part in the game.
#[derive(Serialize, ToSchema)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum You {
    /// The GM reads every draw vote.
    Gm {
        draw_votes: Vec<String>,
    },
    Player {
        power: String,
        draw_vote: bool,
    },
    Observer,
    Visitor,
}

/// The deadline in the viewer's time zone.
#[derive(Serialize, ToSchema)]
pub struct LocalDeadline {
    pub zone: String,
    /// The deadline as a local date and time, with the zone's abbreviation.
    pub time: Option<String>,
}

/// A game as the viewer may see it.
#[derive(Serialize, ToSchema)]
pub struct GameView {
    #[schema(value_type = i64)]
    pub id: GameId,
    pub name: String,
    pub variant: String,
    pub status: GameStatus,
    /// The GM's account name.
    pub gm: Option<String>,
    /// `full`, `public` or `none`.
    pub press: PressRule,
    pub grey_press: bool,
    pub anonymous: bool,
    pub reveal_at_end: bool,
    pub deadlines: ScheduleView,
    /// Whether the last ready mark processes the phase before its deadline.
    pub early_processing: EarlyProcessing,
    /// When a forming game starts with whoever joined (ISO 8601, UTC).
    pub start_at: Option<String>,
    /// The number of phases processed.
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    /// The phase's code, e.g. `S1901M`.
    pub phase: String,
    /// The phase in words, e.g. `Spring 1901 movement`.
    pub phase_name: String,
    pub deadline: Option<String>,
    pub deadline_ms: Option<i64>,
    /// With `?tz=`: the deadline in that zone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline_local: Option<LocalDeadline>,
    /// A paused game's time left.
    pub paused_remaining_ms: Option<i64>,
    /// The game's end: "victory: X", "draw: X, Y" or "concession to X".
    #[schema(value_type = Option<String>)]
    pub outcome: Option<GameOutcome>,
    /// The position (docs/adjudicate-json.md).
    pub state: StateJson,
    pub powers: Vec<PowerView>,
    pub observers: usize,
    pub you: You,
    /// The server's time (ISO 8601, UTC).
    pub now: String,
}

/// The game as `role` may see it.
pub async fn game_view(app: &App, loaded: &LoadedGame, role: &Role) -> ApiResult<GameView> {
    let LoadedGame {
        game,
        variant: v,
        state,
    } = loaded;
    let around = store::members::around(&app.db.read, game.id, game.seq, game.gm_id).await?;
    let bots = store::bots::powers(&app.db.read, game.id).await?;
    let show_names = !game.hides_players() || *role == Role::Gm;
    let powers = v
        .powers
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let id = i as chancery_engine::PowerId;
            let player = around.players.iter().find(|m| m.power.as_deref() == Some(&p.name));
            let own = matches!(role, Role::Player(mine) if *mine == p.name);
            PowerView {
                name: p.name.clone(),
                kind: match p.kind {
                    PowerKind::Great => PowerKindView::Great,
                    PowerKind::Minor => PowerKindView::Minor,
                    PowerKind::Faction => PowerKindView::Faction,
                },
                ordered_by: p.player.map(|o| v.power(o).name.clone()),
                playable: !v.is_minor(id) && p.player.is_none(),
                has_player: player.is_some() || bots.contains(&p.name),
                player: player.filter(|_| show_names || own).map(|m| m.name.clone()),
                bot: bots.contains(&p.name),
                civil_disorder: around.disorder.contains(&p.name),
                ready: around.ready.contains(&p.name),
                centres: state.centre_count(id),
                units: state.unit_count(id),
            }
        })
        .collect();
    let you = match role {
        Role::Gm => You::Gm {
            draw_votes: around.draw_votes.clone(),
        },
        Role::Player(p) => You::Player {
            power: p.clone(),
            draw_vote: around.draw_votes.contains(p),
        },
        Role::Observer => You::Observer,
        Role::Visitor => You::Visitor,
    };
    Ok(GameView {
        id: game.id,
        name: game.name.clone(),
        variant: game.variant.clone(),
        status: game.status,
        gm: around.gm_name,
        press: game.press,
        grey_press: game.grey_press,
        anonymous: game.anonymous,
        reveal_at_end: game.reveal_at_end,
        deadlines: ScheduleView {
            movement_minutes: game.movement_minutes,
            retreat_minutes: game.retreat_minutes,
            adjustment_minutes: game.adjustment_minutes,
            at: game.deadline_time.clone(),
            time_zone: game.time_zone.clone(),
        },
        early_processing: EarlyProcessing::from_flag(game.process_when_ready),
        start_at: game.start_at_ms.map(iso_utc),
        seq: game.seq,
        phase: state.phase.code(),
        phase_name: state.phase.to_string(),
        deadline: game.deadline_ms.map(iso_utc),
        deadline_ms: game.deadline_ms,
        deadline_local: None,
        paused_remaining_ms: game.paused_left_ms,
        outcome: game.outcome.clone(),
        state: state_to_json(v, state),
        powers,
        observers: around.observers,
        you,
        now: iso_utc(app.clock.now_ms()),
    })
}

/// Game `id` as the viewer may see it, with the deadline also in time zone `tz`.
pub async fn view(app: &App, viewer: Option<&Account>, id: GameId, tz: Option<&str>) -> ApiResult<GameView> {
    let zone = match tz {
        Some(z) => Some(crate::deadlines::parse_zone(z).map_err(ApiError::unprocessable)?),
        None => None,
    };
    let loaded = super::read(app, id).await?;
    let role = role_of(&app.db.read, &loaded.game, viewer).await?;
    let mut view = game_view(app, &loaded, &role).await?;
    if let (Some(zone), Some(deadline)) = (zone, loaded.game.deadline_ms) {
        view.deadline_local = Some(LocalDeadline {
            zone: zone.name().to_string(),
            time: crate::deadlines::local_text(deadline, zone),
        });
    }
    Ok(view)
}

/// A game in the list of games.
#[derive(Serialize, ToSchema)]
pub struct GameSummary {
    #[schema(value_type = i64)]
    pub id: GameId,
    pub name: String,
    pub variant: String,
    pub status: GameStatus,
    /// The phase's code, e.g. `S1901M`.
    pub phase: String,
    pub deadline: Option<String>,
    pub deadline_ms: Option<i64>,
    /// Powers a newcomer may still take: playable, without a player or a bot, not in
    /// civil disorder (0 once the game is over).
    pub free_seats: usize,
    /// How many powers bots play (the lobby marks a game with bots).
    pub bots: usize,
}

/// The newest 500 games.
pub async fn list(app: &App) -> ApiResult<Vec<GameSummary>> {
    let seated: std::collections::HashMap<GameId, i64> = store::members::seated_counts(&app.db.read)
        .await?
        .into_iter()
        .map(|c| (c.game_id, c.count))
        .collect();
    let bots: std::collections::HashMap<GameId, i64> = store::bots::counts(&app.db.read)
        .await?
        .into_iter()
        .map(|c| (c.game_id, c.count))
        .collect();
    let mut games = Vec::new();
    for g in store::games::newest(&app.db.read, 500).await? {
        let state = serde_json::from_str::<StateJson>(&g.state_json).ok();
        let playable = g
            .variant(app)
            .await
            .map(|v| super::playable_powers(&v))
            .unwrap_or_default();
        let disordered = state.as_ref().map(|s| s.disordered.clone()).unwrap_or_default();
        let open = playable.iter().filter(|p| !disordered.contains(p)).count();
        let robots = bots.get(&g.id).copied().unwrap_or(0) as usize;
        let taken = seated.get(&g.id).copied().unwrap_or(0) as usize + robots;
        games.push((g, state, open.saturating_sub(taken), robots));
    }
    Ok(games
        .into_iter()
        .map(|(g, state, free, bots)| GameSummary {
            bots,
            phase: state.map(|s| s.phase).unwrap_or_default(),
            free_seats: if g.status == GameStatus::Finished { 0 } else { free },
            id: g.id,
            name: g.name,
            variant: g.variant,
            status: g.status,
            deadline: g.deadline_ms.map(iso_utc),
            deadline_ms: g.deadline_ms,
        })
        .collect())
}
