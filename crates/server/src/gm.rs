//! The game master's tools. Every one checks that the caller is the game's GM and runs
//! in one transaction holding the game's lock.

use axum::extract::State;
use axum::Json;
use chancery_engine::dp;
use chancery_engine::json::state_to_json;
use chancery_engine::variant::PowerKind;
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;

use crate::auth::Account;
use crate::clock::iso_utc;
use crate::db::{new_id, Tx};
use crate::error::{ApiError, ApiResult, Body, Path};
use crate::limits::{future_moment, MAX_AHEAD_MS, MAX_MINUTES};
use crate::model::GameStatus;
use crate::services::games::seats::{self, seat_player};
use crate::services::games::{self, settings, view};
use crate::services::processing::{adjudicate_current, log_event, roll_forward, set_aside_text};
use crate::store;
use crate::store::games::Game;
use crate::store::set_aside::{Rows, Why};
use crate::App;

async fn gm_lock(app: &App, account: &Account, id: i64) -> ApiResult<(Tx, Game)> {
    let (tx, game) = games::lock(app, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::forbidden("only the game's GM can do that"));
    }
    Ok((tx, game))
}

fn phase_code(app: &App, game: &Game) -> ApiResult<String> {
    let v = game.variant(app)?;
    Ok(game.state(&v)?.phase.code())
}

pub async fn start(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if game.status != GameStatus::Forming {
        return Err(ApiError::conflict("the game has already started"));
    }
    seats::start(&app, &mut tx, &game).await?;
    tx.commit().await?;
    app.wake.notify_one();
    Ok(Json(json!({"game": id, "status": "active"})))
}

pub async fn process_now(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if !game.status.running() {
        return Err(ApiError::conflict(format!("the game is {}", game.status)));
    }
    let result = adjudicate_current(&app, &mut tx, &game, "gm").await?;
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "processed": result.phase, "next": result.next.phase, "winner": result.winner}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extend {
    /// Minutes to add to the deadline.
    #[serde(default)]
    pub minutes: Option<i64>,
    /// Or a new deadline, ms since 1970 UTC.
    #[serde(default)]
    pub deadline_ms: Option<i64>,
}

pub async fn extend(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(e): Body<Extend>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if game.status != GameStatus::Active {
        return Err(ApiError::conflict("only a running game has a deadline to move"));
    }
    let now = app.clock.now_ms();
    // Checked sums, and a deadline after now and within a year (issue 14, finding 9): a
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
    sqlx::query("UPDATE games SET deadline_ms = $2 WHERE id = $1")
        .bind(id)
        .bind(deadline)
        .execute(&mut *tx)
        .await?;
    let phase = phase_code(&app, &game)?;
    log_event(&mut tx, &app, id, game.seq, &phase, "deadline", &iso_utc(deadline)).await?;
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "deadline": iso_utc(deadline), "deadline_ms": deadline}),
    ))
}

pub async fn pause(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if game.status != GameStatus::Active {
        return Err(ApiError::conflict("only a running game can be paused"));
    }
    // At least a minute is left to play on resuming, at most what a deadline may be.
    let left = game
        .deadline_ms
        .unwrap_or(0)
        .saturating_sub(app.clock.now_ms())
        .clamp(60_000, MAX_AHEAD_MS);
    sqlx::query("UPDATE games SET status = 'paused', paused_left_ms = $2, deadline_ms = NULL WHERE id = $1")
        .bind(id)
        .bind(left)
        .execute(&mut *tx)
        .await?;
    let phase = phase_code(&app, &game)?;
    log_event(&mut tx, &app, id, game.seq, &phase, "paused", "").await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "status": "paused", "remaining_ms": left})))
}

pub async fn resume(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if game.status != GameStatus::Paused {
        return Err(ApiError::conflict("the game is not paused"));
    }
    let left = game.paused_left_ms.unwrap_or(60_000).clamp(60_000, MAX_AHEAD_MS);
    let deadline = app
        .clock
        .now_ms()
        .checked_add(left)
        .ok_or_else(|| ApiError::unprocessable("the clock is out of range"))?;
    sqlx::query("UPDATE games SET status = 'active', paused_left_ms = NULL, deadline_ms = $2 WHERE id = $1")
        .bind(id)
        .bind(deadline)
        .execute(&mut *tx)
        .await?;
    let phase = phase_code(&app, &game)?;
    log_event(&mut tx, &app, id, game.seq, &phase, "resumed", "").await?;
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "status": "active", "deadline": iso_utc(deadline), "deadline_ms": deadline}),
    ))
}

pub async fn rollback(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    let phase = crate::services::processing::rollback(&app, &mut tx, &game).await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "phase": phase, "seq": game.seq - 1})))
}

pub async fn rollforward(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    let (phase, changed) = roll_forward(&app, &mut tx, &game).await?;
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "restored": phase, "seq": game.seq + 1, "readjudicated": changed}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seat {
    pub power: String,
    /// The account name that takes the power.
    pub account: String,
}

async fn account_id(tx: &mut Tx, name: &str) -> ApiResult<i64> {
    sqlx::query("SELECT id FROM accounts WHERE LOWER(name) = LOWER($1)")
        .bind(name)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| r.get("id"))
        .ok_or_else(|| ApiError::not_found(format!("no account `{name}`")))
}

/// Gives a vacant power to an account.
pub async fn assign(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(s): Body<Seat>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    let who = account_id(&mut tx, &s.account).await?;
    let power = seat_player(&app, &mut tx, &game, who, Some(&s.power)).await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "power": power, "account": s.account})))
}

/// The power's name as the variant spells it.
fn power_name(v: &chancery_engine::Variant, name: &str) -> ApiResult<String> {
    v.find_power(name)
        .map(|i| v.power(i).name.clone())
        .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{name}`")))
}

/// Ends the current player's membership of `power`; the record of it stays.
async fn end_player(tx: &mut Tx, app: &App, game: i64, power: &str) -> ApiResult<()> {
    sqlx::query("UPDATE members SET active = 0, left_ms = $3 WHERE game_id = $1 AND power = $2 AND role = 'player' AND active = 1")
        .bind(game)
        .bind(power)
        .bind(app.clock.now_ms())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A new account takes over a power; the old player's membership ends but stays in the
/// record, and the power's orders and history are untouched.
pub async fn replace(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(s): Body<Seat>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    let v = game.variant(&app)?;
    let power = power_name(&v, &s.power)?;
    let who = account_id(&mut tx, &s.account).await?;
    end_player(&mut tx, &app, id, &power).await?;
    seat_player(&app, &mut tx, &game, who, Some(&power)).await?;
    let phase = phase_code(&app, &game)?;
    log_event(&mut tx, &app, id, game.seq, &phase, "replaced", &power).await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "power": power, "account": s.account})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Disorder {
    pub power: String,
    /// DP variants: rule 11's permanent civil disorder (the default there). False keeps
    /// the power as it is while the GM looks for a new player, as the rule urges first.
    #[serde(default)]
    pub permanent: Option<bool>,
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
/// already given that name the power's old units are judged against the new board.
pub async fn civil_disorder(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(p): Body<Disorder>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if game.status == GameStatus::Finished {
        return Err(ApiError::conflict("the game is over"));
    }
    let v = game.variant(&app)?;
    let power = power_name(&v, &p.power)?;
    let power_id = v
        .find_power(&power)
        .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
    let state = game.state(&v)?;
    if v.power(power_id).kind == PowerKind::Minor {
        return Err(ApiError::unprocessable(format!(
            "{power} is a minor power: it has no player to lose"
        )));
    }
    let permanent = match (crate::bids::has_dp(&v), p.permanent) {
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
        let (next, orphaned) = dp::declare_civil_disorder(&v, &state, power_id);
        gone.extend(orphaned.iter().map(|&f| v.power(f).name.clone()));
        let text = serde_json::to_string(&state_to_json(&v, &next))
            .map_err(|e| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        sqlx::query("UPDATE games SET state_json = $2 WHERE id = $1")
            .bind(id)
            .bind(text)
            .execute(&mut *tx)
            .await?;
        // The power gives no more orders and buys none: what it had given is set aside,
        // to come back if a rollback passes before the declaration and a roll forward
        // restores this phase (issue 14, finding 8).
        for name in &gone {
            let rows = Rows::Of(game.seq, name);
            set_aside_lines.extend(store::set_aside::list(&mut tx, id, rows).await?);
            store::set_aside::set_aside(&mut tx, id, rows, Why::Disorder).await?;
        }
    }
    // The seat the declaration ends is remembered, for a rollback past it to give back.
    sqlx::query(
        "INSERT INTO disorder (game_id, power, since_seq, seat_member) \
         VALUES ($1, $2, $3, (SELECT id FROM members WHERE game_id = $1 AND power = $2 AND role = 'player' AND active = 1)) \
         ON CONFLICT DO NOTHING",
    )
    .bind(id)
    .bind(&power)
    .bind(game.seq)
    .execute(&mut *tx)
    .await?;
    end_player(&mut tx, &app, id, &power).await?;
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
    log_event(&mut tx, &app, id, game.seq, &phase, "civil_disorder", &detail).await?;
    tx.commit().await?;
    Ok(Json(
        json!({"game": id, "power": power, "civil_disorder": true, "permanent": permanent}),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transfer {
    pub account: String,
}

/// The GM hands the game to another account, as a club does when its GM steps down:
/// the new GM gets every tool and sees every order and bid from then on, the old one
/// nothing more. Not to a player of this game, who would then read the others' orders
/// and bids; an observer stops observing.
pub async fn transfer(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(t): Body<Transfer>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    let name = t.account.trim();
    let to = account_id(&mut tx, name).await?;
    if to == game.gm_id {
        return Err(ApiError::conflict(format!("`{name}` is already this game's GM")));
    }
    let plays: Option<String> = sqlx::query(
        "SELECT power FROM members WHERE game_id = $1 AND account_id = $2 AND role = 'player' AND active = 1",
    )
    .bind(id)
    .bind(to)
    .fetch_optional(&mut *tx)
    .await?
    .map(|r| r.get("power"));
    if let Some(power) = plays {
        return Err(ApiError::conflict(format!(
            "`{name}` plays {power} in this game, and a GM reads every power's orders and bids"
        )));
    }
    let now = app.clock.now_ms();
    sqlx::query("UPDATE members SET active = 0, left_ms = $3 WHERE game_id = $1 AND account_id = $2 AND active = 1")
        .bind(id)
        .bind(to)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE games SET gm_id = $2 WHERE id = $1")
        .bind(id)
        .bind(to)
        .execute(&mut *tx)
        .await?;
    let new_name: String = sqlx::query("SELECT name FROM accounts WHERE id = $1")
        .bind(to)
        .fetch_one(&mut *tx)
        .await?
        .get("name");
    let phase = phase_code(&app, &game)?;
    announce(
        &mut tx,
        &app,
        &game,
        &phase,
        account.id,
        &format!("{new_name} is the game's GM from now on."),
    )
    .await?;
    log_event(
        &mut tx,
        &app,
        id,
        game.seq,
        &phase,
        "gm_transfer",
        &format!("from {} to {new_name}", account.name),
    )
    .await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "gm": new_name})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(default)]
    pub name: Option<String>,
    /// Fields left out keep their value; `at: ""` drops a fixed time of day.
    #[serde(default)]
    pub deadlines: Option<settings::Deadlines>,
    #[serde(default)]
    pub press: Option<String>,
    #[serde(default)]
    pub grey_press: Option<bool>,
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
pub async fn settings(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(s): Body<Settings>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if game.status == GameStatus::Finished {
        return Err(ApiError::conflict("the game is over"));
    }
    if s.anonymous.is_some_and(|a| a != game.anonymous) || s.reveal_at_end.is_some_and(|r| r != game.reveal_at_end) {
        return Err(ApiError::unprocessable(
            "anonymity is fixed when the game is created: its players joined under it",
        ));
    }
    let name = match s.name.as_deref().map(str::trim) {
        Some(n) if n.is_empty() || n.chars().count() > crate::limits::MAX_GAME_NAME_CHARS => {
            return Err(ApiError::unprocessable("a game's name has 1 to 100 characters"))
        }
        Some(n) => n.to_string(),
        None => game.name.clone(),
    };
    let press = settings::check_press(s.press.as_deref().unwrap_or(&game.press))?.to_string();
    let grey_press = s.grey_press.unwrap_or(game.grey_press);
    let schedule = match &s.deadlines {
        Some(d) => d.schedule(&game.schedule())?,
        None => game.schedule(),
    };
    sqlx::query(
        "UPDATE games SET name = $2, press = $3, grey_press = $4, movement_minutes = $5, retreat_minutes = $6, \
         adjustment_minutes = $7, deadline_time = $8, time_zone = $9 WHERE id = $1",
    )
    .bind(id)
    .bind(&name)
    .bind(&press)
    .bind(grey_press as i64)
    .bind(schedule.movement)
    .bind(schedule.retreat)
    .bind(schedule.adjustment)
    .bind(&schedule.at)
    .bind(&schedule.time_zone)
    .execute(&mut *tx)
    .await?;
    let mut changed = Vec::new();
    if name != game.name {
        changed.push(format!("name {name}"));
    }
    if press != game.press || grey_press != game.grey_press {
        changed.push(format!("press {press}{}", if grey_press { " with grey" } else { "" }));
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
        let phase = phase_code(&app, &game)?;
        log_event(&mut tx, &app, id, game.seq, &phase, "settings", &changed.join("; ")).await?;
    }
    tx.commit().await?;
    let game = games::load(&app.db.read, id).await?;
    Ok(Json(view::view_json(&app, &game, &games::Role::Gm).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    /// "draw" or "concession".
    pub result: String,
    /// For a draw: the powers sharing it. For a concession: the one power conceded to.
    pub powers: Vec<String>,
}

pub async fn end(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(e): Body<End>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game) = gm_lock(&app, &account, id).await?;
    if game.status == GameStatus::Finished {
        return Err(ApiError::conflict("the game is already over"));
    }
    let v = game.variant(&app)?;
    let mut names = Vec::new();
    for p in &e.powers {
        let i = v
            .find_power(p)
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{p}`")))?;
        names.push(v.power(i).name.clone());
    }
    let outcome = match (e.result.as_str(), names.len()) {
        ("draw", n) if n >= 2 => format!("draw: {}", names.join(", ")),
        ("draw", _) => return Err(ApiError::unprocessable("a draw is shared by two powers or more")),
        ("concession", 1) => format!("concession to {}", names[0]),
        ("concession", _) => return Err(ApiError::unprocessable("a concession names one power")),
        _ => return Err(ApiError::unprocessable("`result` is `draw` or `concession`")),
    };
    finish(&app, &mut tx, &game, &outcome, account.id, "the GM").await?;
    tx.commit().await?;
    Ok(Json(json!({"game": id, "status": "finished", "outcome": outcome})))
}

/// A GM announcement to everyone, in the name of the GM account `announcer`.
async fn announce(tx: &mut Tx, app: &App, game: &Game, phase: &str, announcer: i64, body: &str) -> ApiResult<()> {
    sqlx::query("INSERT INTO press (id, game_id, seq, phase, sender_account, sender_power, from_gm, grey, recipients, body, sent_ms) VALUES ($1, $2, $3, $4, $5, NULL, 1, 0, '*', $6, $7)")
        .bind(new_id())
        .bind(game.id)
        .bind(game.seq)
        .bind(phase)
        .bind(announcer)
        .bind(body)
        .bind(app.clock.now_ms())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Ends the game with `outcome` inside `tx` and announces it to everyone in press, in
/// the name of the GM account `announcer`; `by` says who decided, for the event log.
pub async fn finish(app: &App, tx: &mut Tx, game: &Game, outcome: &str, announcer: i64, by: &str) -> ApiResult<()> {
    sqlx::query("UPDATE games SET status = 'finished', outcome = $2, deadline_ms = NULL WHERE id = $1")
        .bind(game.id)
        .bind(outcome)
        .execute(&mut **tx)
        .await?;
    let phase = phase_code(app, game)?;
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

/// Every power's current orders.
pub async fn all_orders(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let game = games::load(&app.db.read, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::forbidden("only the game's GM can do that"));
    }
    let rows = sqlx::query("SELECT power, unit_key, text FROM orders WHERE game_id = $1 AND seq = $2 ORDER BY power, submitted_ms, unit_key")
        .bind(id)
        .bind(game.seq)
        .fetch_all(&app.db.read)
        .await?;
    let orders: Vec<Value> = rows
        .iter()
        .map(|r| json!({"power": r.get::<String, _>("power"), "unit": r.get::<String, _>("unit_key"), "order": r.get::<String, _>("text")}))
        .collect();
    Ok(Json(
        json!({"game": id, "seq": game.seq, "phase": phase_code(&app, &game)?, "orders": orders}),
    ))
}

/// The game's event log: starts, processing (and by which server), rollbacks, GM actions.
pub async fn events(State(app): State<App>, account: Account, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let game = games::load(&app.db.read, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::forbidden("only the game's GM can do that"));
    }
    let rows = sqlx::query(
        "SELECT seq, phase, kind, detail, server, at_ms FROM events WHERE game_id = $1 ORDER BY at_ms, seq",
    )
    .bind(id)
    .fetch_all(&app.db.read)
    .await?;
    let events: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "seq": r.get::<i64, _>("seq"), "phase": r.get::<String, _>("phase"), "kind": r.get::<String, _>("kind"),
                "detail": r.get::<String, _>("detail"), "server": r.get::<String, _>("server"), "at": iso_utc(r.get("at_ms")),
            })
        })
        .collect();
    Ok(Json(json!({"game": id, "events": events})))
}
