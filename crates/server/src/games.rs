//! Games: creating one, listing, the view of one (what each viewer may see), joining
//! and observing, and the rules about who plays which power.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use chancery_engine::json::{state_from_json, state_to_json, StateJson};
use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, PhaseKind, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::{Any, Executor, Row};

use crate::auth::{Account, Viewer};
use crate::clock::iso_utc;
use crate::db::{new_id, Tx};
use crate::error::{ApiError, ApiResult, Body, Params, Path};
use crate::model::GameStatus;
use crate::store::{self, games::Game};
use crate::App;

pub async fn load<'e, E: Executor<'e, Database = Any>>(e: E, id: i64) -> ApiResult<Game> {
    store::games::by_id(e, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id}")))
}

/// The powers that have a player now.
pub const SEATED: &str = "SELECT power FROM members WHERE game_id = $1 AND role = 'player' AND active = 1";

/// The power names a one-column query about one game lists (`$1` is the game's id).
pub async fn powers_where<'e, E: Executor<'e, Database = Any>>(e: E, sql: &str, game: i64) -> ApiResult<Vec<String>> {
    Ok(sqlx::query(sql)
        .bind(game)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| r.get("power"))
        .collect())
}

/// Starts a write transaction holding the game's lock, and reads the game in it.
pub async fn lock(app: &App, id: i64) -> ApiResult<(Tx, Game)> {
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
    id: i64,
    requested: Option<&str>,
    check: impl FnOnce(&Game, &Role, &Variant) -> ApiResult<()>,
) -> ApiResult<(Tx, Game, Arc<Variant>, String)> {
    let (mut tx, game) = lock(app, id).await?;
    let role = role_of(&mut *tx, &game, Some(account)).await?;
    let v = game.variant(app)?;
    check(&game, &role, &v)?;
    let power = acting_power(&role, requested, &v)?;
    Ok((tx, game, v, power))
}

impl Game {
    pub fn variant(&self, app: &App) -> ApiResult<Arc<Variant>> {
        app.variants
            .get(&self.variant, self.variant_text.as_deref())
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("variant: {e}")))
    }

    pub fn state(&self, v: &Variant) -> ApiResult<GameState> {
        let json: StateJson = serde_json::from_str(&self.state_json)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("stored position: {e}")))?;
        state_from_json(v, &json)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("stored position: {e}")))
    }

    /// The deadline of a phase of this kind opening at `now_ms`.
    pub fn deadline_from(&self, now_ms: i64, kind: PhaseKind) -> i64 {
        let at = match (&self.deadline_time, &self.time_zone) {
            (Some(t), Some(z)) => crate::deadlines::parse(t, z).ok(),
            _ => None,
        };
        crate::deadlines::next(now_ms, self.minutes_for(kind), at)
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
        .filter(|p| p.kind != PowerKind::Minor && p.player.is_none())
        .map(|p| p.name.clone())
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
    let row = sqlx::query(
        "SELECT role, power FROM members WHERE game_id = $1 AND account_id = $2 AND active = 1 ORDER BY role DESC LIMIT 1",
    )
    .bind(game.id)
    .bind(account.id)
    .fetch_optional(e)
    .await?;
    Ok(match row {
        Some(r) if r.get::<String, _>("role") == "player" => Role::Player(r.get("power")),
        Some(_) => Role::Observer,
        None => Role::Visitor,
    })
}

/// The power a request acts for: the player's own; a GM names one with `power`.
pub fn acting_power(role: &Role, requested: Option<&str>, v: &Variant) -> ApiResult<String> {
    match (role, requested) {
        (Role::Player(p), None) => Ok(p.clone()),
        (Role::Player(p), Some(r)) if v.find_power(r).map(|i| &v.power(i).name) == Some(p) => Ok(p.clone()),
        (Role::Player(_), Some(_)) => Err(ApiError::forbidden("you play another power")),
        (Role::Gm, Some(r)) => v
            .find_power(r)
            .map(|i| v.power(i).name.clone())
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{r}`"))),
        (Role::Gm, None) => Err(ApiError::unprocessable("as GM, say which power with `power`")),
        _ => Err(ApiError::forbidden("only the power's player or the GM can do that")),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantUpload {
    pub name: String,
    pub text: String,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub name: String,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub variant_file: Option<VariantUpload>,
    #[serde(default)]
    pub deadlines: Deadlines,
    #[serde(default)]
    pub press: Option<String>,
    #[serde(default)]
    pub grey_press: bool,
    #[serde(default)]
    pub anonymous: bool,
    /// With `anonymous`: name the players once the game has ended.
    #[serde(default)]
    pub reveal_at_end: bool,
    /// Start at this time (ms since 1970 UTC) with whoever has joined; absent: start
    /// when every power has a player.
    #[serde(default)]
    pub start_at_ms: Option<i64>,
}

use crate::limits::{MAX_GAME_NAME_CHARS, MAX_MINUTES};

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

pub fn check_press(press: &str) -> ApiResult<&str> {
    match press {
        "full" | "public" | "none" => Ok(press),
        _ => Err(ApiError::unprocessable("`press` is one of: full, public, none")),
    }
}

/// A game's deadline schedule as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    pub movement: i64,
    pub retreat: i64,
    pub adjustment: i64,
    /// "HH:MM" in `time_zone`, when deadlines fall at a fixed time of day.
    pub at: Option<String>,
    pub time_zone: Option<String>,
}

impl Default for Schedule {
    /// A day to move, half a day to retreat or adjust, at no fixed time.
    fn default() -> Schedule {
        Schedule {
            movement: 24 * 60,
            retreat: 12 * 60,
            adjustment: 12 * 60,
            at: None,
            time_zone: None,
        }
    }
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

pub async fn create(
    State(app): State<App>,
    account: Account,
    Body(g): Body<NewGame>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let name = g.name.trim();
    if name.is_empty() || name.chars().count() > MAX_GAME_NAME_CHARS {
        return Err(ApiError::unprocessable("a game's name has 1 to 100 characters"));
    }
    let (variant_name, variant_text, v) = match (&g.variant, &g.variant_file) {
        (Some(_), Some(_)) => return Err(ApiError::unprocessable("give `variant` or `variant_file`, not both")),
        (None, Some(f)) => {
            let v = crate::variants::check_upload(&f.name, &f.text).map_err(ApiError::unprocessable)?;
            (f.name.clone(), Some(f.text.clone()), Arc::new(v))
        }
        (name, None) => {
            let name = name.as_deref().unwrap_or("standard").to_ascii_lowercase();
            let v = app.variants.get(&name, None).map_err(ApiError::unprocessable)?;
            (name, None, v)
        }
    };
    let press = check_press(g.press.as_deref().unwrap_or("full"))?;
    let Schedule {
        movement,
        retreat,
        adjustment,
        at: deadline_time,
        time_zone,
    } = g.deadlines.schedule(&Schedule::default())?;
    let state = GameState::initial(&v);
    let state_json =
        serde_json::to_string(&state_to_json(&v, &state)).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let id = new_id();
    let now = app.clock.now_ms();
    sqlx::query(
        "INSERT INTO games (id, name, variant, variant_text, gm_id, status, press, grey_press, anonymous, movement_minutes, retreat_minutes, adjustment_minutes, start_at_ms, seq, state_json, created_ms, deadline_time, time_zone, reveal_at_end)
         VALUES ($1, $2, $3, $4, $5, 'forming', $6, $7, $8, $9, $10, $11, $12, 0, $13, $14, $15, $16, $17)",
    )
    .bind(id)
    .bind(name)
    .bind(&variant_name)
    .bind(variant_text)
    .bind(account.id)
    .bind(press)
    .bind(g.grey_press as i64)
    .bind(g.anonymous as i64)
    .bind(movement)
    .bind(retreat)
    .bind(adjustment)
    .bind(g.start_at_ms)
    .bind(state_json)
    .bind(now)
    .bind(deadline_time)
    .bind(time_zone)
    .bind((g.anonymous && g.reveal_at_end) as i64)
    .execute(&app.db.write)
    .await?;
    let game = load(&app.db.read, id).await?;
    Ok((StatusCode::CREATED, Json(view_json(&app, &game, &Role::Gm).await?)))
}

pub async fn list(State(app): State<App>) -> ApiResult<Json<Value>> {
    let games: Vec<Value> = store::games::newest(&app.db.read, 500)
        .await?
        .into_iter()
        .map(|g| {
            let phase = serde_json::from_str::<StateJson>(&g.state_json)
                .map(|s| s.phase)
                .unwrap_or_default();
            json!({
                "id": g.id, "name": g.name, "variant": g.variant, "status": g.status,
                "phase": phase, "deadline": g.deadline_ms.map(iso_utc), "deadline_ms": g.deadline_ms,
            })
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ViewQuery {
    /// The viewer's time zone: the deadline is shown in it beside UTC.
    #[serde(default)]
    pub tz: Option<String>,
}

pub async fn view(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<i64>,
    Params(q): Params<ViewQuery>,
) -> ApiResult<Json<Value>> {
    let zone = match &q.tz {
        Some(z) => Some(crate::deadlines::parse_zone(z).map_err(ApiError::unprocessable)?),
        None => None,
    };
    let game = load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, viewer.as_ref()).await?;
    let mut view = view_json(&app, &game, &role).await?;
    if let (Some(zone), Some(deadline)) = (zone, game.deadline_ms) {
        view["deadline_local"] = json!({"zone": zone.name(), "time": crate::deadlines::local_text(deadline, zone)});
    }
    Ok(Json(view))
}

/// The game as `role` may see it: players' names are hidden in anonymous games from
/// everyone but the GM (a player still sees their own power).
pub async fn view_json(app: &App, game: &Game, role: &Role) -> ApiResult<Value> {
    let v = game.variant(app)?;
    let state = game.state(&v)?;
    // Everything the view needs besides the game row, in one round trip: each row says
    // which list it belongs to.
    let rows = sqlx::query(
        "SELECT 'member' AS bucket, m.power AS power, m.role AS role, a.name AS name FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 AND m.active = 1
         UNION ALL SELECT 'disorder', power, NULL, NULL FROM disorder WHERE game_id = $1
         UNION ALL SELECT 'ready', power, NULL, NULL FROM ready WHERE game_id = $1 AND seq = $2
         UNION ALL SELECT 'vote', power, NULL, NULL FROM draw_votes WHERE game_id = $1
         UNION ALL SELECT 'gm', NULL, NULL, name FROM accounts WHERE id = $3",
    )
    .bind(game.id)
    .bind(game.seq)
    .bind(game.gm_id)
    .fetch_all(&app.db.read)
    .await?;
    let list = |name: &str| -> Vec<&sqlx::any::AnyRow> {
        rows.iter().filter(|r| r.get::<String, _>("bucket") == name).collect()
    };
    let power_of = |r: &&sqlx::any::AnyRow| r.get::<Option<String>, _>("power").unwrap_or_default();
    let members = list("member");
    let disorder: Vec<String> = list("disorder").iter().map(power_of).collect();
    let ready: Vec<String> = list("ready").iter().map(power_of).collect();
    // Draw votes are secret: only the GM's and the voter's own view read them.
    let votes: Vec<String> = match role {
        Role::Gm | Role::Player(_) => {
            let mut v: Vec<String> = list("vote").iter().map(power_of).collect();
            v.sort();
            v
        }
        _ => Vec::new(),
    };
    let gm_name: Option<String> = list("gm").first().and_then(|r| r.get("name"));
    let show_names = !game.hides_players() || *role == Role::Gm;
    let mut powers = Vec::new();
    for (i, p) in v.powers.iter().enumerate() {
        let id = i as chancery_engine::PowerId;
        let player = members.iter().find(|m| {
            m.get::<String, _>("role") == "player" && m.get::<Option<String>, _>("power").as_deref() == Some(&p.name)
        });
        let own = matches!(role, Role::Player(mine) if *mine == p.name);
        let player_name = match player {
            Some(m) if show_names || own => Value::String(m.get("name")),
            _ => Value::Null,
        };
        powers.push(json!({
            "name": p.name,
            "kind": match p.kind { PowerKind::Great => "great", PowerKind::Minor => "minor", PowerKind::Faction => "faction" },
            "ordered_by": p.player.map(|o| v.power(o).name.clone()),
            "playable": p.kind != PowerKind::Minor && p.player.is_none(),
            "has_player": player.is_some(),
            "player": player_name,
            "civil_disorder": disorder.contains(&p.name),
            "ready": ready.contains(&p.name),
            "centres": state.centre_count(id),
            "units": state.unit_count(id),
        }));
    }
    let observers = members
        .iter()
        .filter(|m| m.get::<String, _>("role") == "observer")
        .count();
    Ok(json!({
        "id": game.id,
        "name": game.name,
        "variant": game.variant,
        "status": game.status,
        "gm": gm_name,
        "press": game.press,
        "grey_press": game.grey_press,
        "anonymous": game.anonymous,
        "reveal_at_end": game.reveal_at_end,
        "deadlines": {"movement_minutes": game.movement_minutes, "retreat_minutes": game.retreat_minutes, "adjustment_minutes": game.adjustment_minutes, "at": game.deadline_time, "time_zone": game.time_zone},
        "start_at": game.start_at_ms.map(iso_utc),
        "seq": game.seq,
        "phase": state.phase.code(),
        "phase_name": state.phase.to_string(),
        "deadline": game.deadline_ms.map(iso_utc),
        "deadline_ms": game.deadline_ms,
        "paused_remaining_ms": game.paused_left_ms,
        "outcome": game.outcome,
        "state": state_to_json(&v, &state),
        "powers": powers,
        "observers": observers,
        "you": match role {
            Role::Gm => json!({"role": "gm", "draw_votes": votes}),
            Role::Player(p) => json!({"role": "player", "power": p, "draw_vote": votes.contains(p)}),
            Role::Observer => json!({"role": "observer"}),
            Role::Visitor => json!({"role": "visitor"}),
        },
        "now": iso_utc(app.clock.now_ms()),
    }))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[serde(default)]
    pub power: Option<String>,
}

/// Puts `account` on `power` inside `tx` (join or GM assignment), then starts the game
/// when it was waiting for a full board.
pub async fn seat_player(
    app: &App,
    tx: &mut Tx,
    game: &Game,
    account_id: i64,
    power: Option<&str>,
) -> ApiResult<String> {
    let v = game.variant(app)?;
    if game.status == GameStatus::Finished {
        return Err(ApiError::conflict("the game is over"));
    }
    if account_id == game.gm_id {
        return Err(ApiError::conflict("the GM cannot also play a power"));
    }
    let taken = powers_where(&mut **tx, SEATED, game.id).await?;
    let already = sqlx::query(
        "SELECT power FROM members WHERE game_id = $1 AND account_id = $2 AND role = 'player' AND active = 1",
    )
    .bind(game.id)
    .bind(account_id)
    .fetch_optional(&mut **tx)
    .await?;
    if let Some(r) = already {
        return Err(ApiError::conflict(format!(
            "that account already plays {}",
            r.get::<String, _>("power")
        )));
    }
    let playable = playable_powers(&v);
    // Powers rule 11 has turned into minors: nobody plays them again.
    let disordered: Vec<String> = game
        .state(&v)?
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
            if disordered.contains(&p) {
                return Err(ApiError::conflict(format!(
                    "{p} is in permanent civil disorder (rule 11): its centres are minor powers now"
                )));
            }
            p
        }
        None => playable
            .iter()
            .find(|p| !taken.contains(p) && !disordered.contains(p))
            .cloned()
            .ok_or_else(|| ApiError::conflict("every power already has a player"))?,
    };
    let now = app.clock.now_ms();
    // An observer who joins as a player stops being an observer.
    sqlx::query("UPDATE members SET active = 0, left_ms = $3 WHERE game_id = $1 AND account_id = $2 AND role = 'observer' AND active = 1")
        .bind(game.id)
        .bind(account_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    sqlx::query("INSERT INTO members (id, game_id, account_id, role, power, active, joined_ms) VALUES ($1, $2, $3, 'player', $4, 1, $5)")
        .bind(new_id())
        .bind(game.id)
        .bind(account_id)
        .bind(&power)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM disorder WHERE game_id = $1 AND power = $2")
        .bind(game.id)
        .bind(&power)
        .execute(&mut **tx)
        .await?;
    if game.status == GameStatus::Forming && game.start_at_ms.is_none() && taken.len() + 1 >= playable.len() {
        start(app, tx, game).await?;
    }
    Ok(power)
}

/// forming → active: the first deadline is set from now.
pub async fn start(app: &App, tx: &mut Tx, game: &Game) -> ApiResult<()> {
    let v = game.variant(app)?;
    let state = game.state(&v)?;
    let deadline = game.deadline_from(app.clock.now_ms(), state.phase.kind);
    sqlx::query("UPDATE games SET status = 'active', deadline_ms = $2 WHERE id = $1 AND status = 'forming'")
        .bind(game.id)
        .bind(deadline)
        .execute(&mut **tx)
        .await?;
    crate::process::log_event(tx, app, game.id, game.seq, &state.phase.code(), "started", "").await?;
    Ok(())
}

pub async fn join(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    body: axum::body::Bytes,
) -> ApiResult<Json<Value>> {
    let request: JoinRequest = crate::error::optional_body(&body)?;
    let (mut tx, game) = lock(&app, id).await?;
    let power = seat_player(&app, &mut tx, &game, account.id, request.power.as_deref()).await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "power": power})))
}

/// Leaving a game: an observer stops following it, and a player gives up the seat while
/// the game is still forming. Once it has started a player leaves through the GM
/// (replacement or civil disorder), so that no power is dropped mid-game unnoticed.
pub async fn leave(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = lock(&app, id).await?;
    let left = match role_of(&mut *tx, &game, Some(&account)).await? {
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
    sqlx::query("UPDATE members SET active = 0, left_ms = $3 WHERE game_id = $1 AND account_id = $2 AND active = 1")
        .bind(id)
        .bind(account.id)
        .bind(app.clock.now_ms())
        .execute(&mut *tx)
        .await?;
    if let Some(power) = &left {
        let v = game.variant(&app)?;
        let phase = game.state(&v)?.phase.code();
        crate::process::log_event(&mut tx, &app, id, game.seq, &phase, "left", power).await?;
    }
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "left": left.unwrap_or_else(|| "observer".into())}),
    ))
}

pub async fn observe(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = lock(&app, id).await?;
    match role_of(&mut *tx, &game, Some(&account)).await? {
        Role::Visitor => {}
        _ => return Err(ApiError::conflict("you already take part in this game")),
    }
    sqlx::query("INSERT INTO members (id, game_id, account_id, role, power, active, joined_ms) VALUES ($1, $2, $3, 'observer', NULL, 1, $4)")
        .bind(new_id())
        .bind(id)
        .bind(account.id)
        .bind(app.clock.now_ms())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "role": "observer"})))
}
