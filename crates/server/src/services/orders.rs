//! Orders and ready marks. Each order is checked on arrival against the position with the
//! engine's own validation, and stored in the engine's canonical notation, so what a
//! player reads back is exactly what will be adjudicated. Only the power's player and
//! the GM ever see a power's orders before the phase is processed. Every change names
//! the phase it is for ([`PhaseRef`]).

use std::collections::HashMap;

use chancery_engine::options::{commanded_powers, has_choice};
use chancery_engine::order::order_province;
use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::{Order, OrderKind};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use crate::clock::iso_utc;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult, ErrorCode, RefusedOrder};
use crate::limits::{MAX_ORDERS, MAX_ORDER_CHARS};
use crate::model::{Account, GameId, GameStatus, HowProcessed, PhaseSeq};
use crate::services::games::{self, acting_power, at_phase, role_of, LoadedGame, PhaseRef, Role};
use crate::services::order_words;
use crate::services::processing::{adjudicate_current, disorder_powers};
use crate::store::games::Game;
use crate::store::{self, orders::UnitOrder};
use crate::App;

/// Orders for one power.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"orders": ["F lon - nth", "A lvp - yor"], "replace": false, "seq": 0}))]
pub struct Submission {
    /// Each in any notation the engine reads; at most 200, of 200 characters each.
    pub orders: Vec<String>,
    /// For the GM: the power to order for.
    #[serde(default)]
    pub power: Option<String>,
    /// Clear the power's orders for this phase first.
    #[serde(default)]
    pub replace: bool,
    /// The phase the orders are for, by number; or give `phase`. One is required.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub seq: Option<PhaseSeq>,
    /// The phase the orders are for, by code (`S1901M`).
    #[serde(default)]
    pub phase: Option<String>,
}

/// Which orders to clear, for which phase.
#[derive(Deserialize, Default, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ClearQuery {
    /// For the GM: the power whose orders to clear.
    #[serde(default)]
    pub power: Option<String>,
    /// One unit's order to clear (its space); absent: all the power's orders.
    #[serde(default)]
    pub unit: Option<String>,
    /// The phase, by number (or give `phase`; one is required).
    #[serde(default)]
    #[param(value_type = Option<i64>)]
    pub seq: Option<PhaseSeq>,
    /// The phase, by code.
    #[serde(default)]
    pub phase: Option<String>,
}

/// A ready mark, or taking it back: for which power and phase.
#[derive(Deserialize, Default, ToSchema, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
#[schema(example = json!({"seq": 0}))]
pub struct ReadyRequest {
    /// For the GM: the power to mark.
    #[serde(default)]
    pub power: Option<String>,
    /// The phase, by number (or give `phase`; one is required).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    #[param(value_type = Option<i64>)]
    pub seq: Option<PhaseSeq>,
    /// The phase, by code.
    #[serde(default)]
    pub phase: Option<String>,
}

/// One stored order.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct OrderLine {
    /// The unit's space; `space/type/n` for a unit of a stack, `waiveN` for a waived build.
    pub unit: String,
    /// In the engine's canonical notation.
    pub order: String,
    /// In words: "Army Berlin → Silesia".
    pub words: String,
}

impl From<UnitOrder> for OrderLine {
    fn from(o: UnitOrder) -> Self {
        OrderLine {
            unit: o.unit,
            order: o.text,
            words: String::new(),
        }
    }
}

impl OrderLine {
    /// A faction's line as its sponsor's player reads (and may write) it:
    /// `Republican Spain: Build A mad`, keyed `Republican Spain: mad`.
    fn prefixed(self, prefix: &str) -> Self {
        if prefix.is_empty() {
            return self;
        }
        OrderLine {
            unit: format!("{prefix}{}", self.unit),
            order: format!("{prefix}{}", self.order),
            words: self.words,
        }
    }
}

/// A power's orders for the current phase, as they will be adjudicated.
#[derive(Serialize, ToSchema, Debug)]
pub struct PowerOrders {
    #[schema(value_type = i64)]
    pub game: GameId,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub phase: String,
    pub power: String,
    pub orders: Vec<OrderLine>,
}

/// A ready mark's state after the request.
#[derive(Serialize, ToSchema, Debug)]
pub struct ReadyMark {
    pub power: String,
    pub ready: bool,
    /// Marking: whether every power with a decision is now ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_ready: Option<bool>,
    /// Marking: whether this mark processed the phase.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub processed: Option<bool>,
}

/// One power's order, in the GM's list of all of them.
#[derive(Serialize, ToSchema, Debug)]
pub struct PowerOrder {
    pub power: String,
    pub unit: String,
    pub order: String,
}

/// Every power's orders for the current phase (the GM's view).
#[derive(Serialize, ToSchema, Debug)]
pub struct PhaseOrders {
    #[schema(value_type = i64)]
    pub game: GameId,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub phase: String,
    pub orders: Vec<PowerOrder>,
}

/// Whether `role` may still change the phase's orders or bids: the game is running and,
/// for a player, the deadline has not passed. Between the deadline and the scheduler's
/// processing the orders are what they were at the deadline; the GM may still correct
/// them (and extends the deadline to let a player do so).
pub fn open_for_orders(game: &Game, role: &Role, now: i64) -> ApiResult<()> {
    match game.status {
        GameStatus::Active | GameStatus::Paused => {}
        GameStatus::Forming => return Err(ApiError::coded(ErrorCode::NotRunning, "the game has not started")),
        _ => return Err(ApiError::coded(ErrorCode::GameOver, "the game is over")),
    }
    match (role, game.deadline_ms) {
        (Role::Player(_), Some(deadline)) if deadline <= now => Err(ApiError::coded(
            ErrorCode::PhaseClosed,
            format!(
                "the deadline passed at {}; the phase is being processed",
                iso_utc(deadline)
            ),
        )),
        _ => Ok(()),
    }
}

async fn power_orders(
    tx: &mut Tx,
    game: &Game,
    power: &str,
    v: &chancery_engine::Variant,
    state: &chancery_engine::GameState,
) -> ApiResult<PowerOrders> {
    let mut lines = Vec::new();
    for (name, prefix) in commanded(v, power) {
        let rows = store::orders::of_power(&mut **tx, game.id, game.seq, &name).await?;
        lines.extend(rows.into_iter().map(|o| OrderLine::from(o).prefixed(&prefix)));
    }
    answer(game, v, state, power, lines)
}

/// The powers whose stored orders a seat's player writes and reads: its own, then each
/// faction it plays (1936's Spanish sides, whose Winter orders are stored under the
/// faction's name), with the prefix that marks the faction's lines for the seat. The
/// seat comes first.
fn commanded(v: &chancery_engine::Variant, power: &str) -> Vec<(String, String)> {
    let Some(seat) = v.find_power(power) else {
        return vec![(power.to_string(), String::new())];
    };
    let mut powers = commanded_powers(v, seat);
    powers.sort_by_key(|&p| p != seat);
    powers
        .into_iter()
        .map(|p| {
            let name = v.power(p).name.clone();
            let prefix = if p == seat { String::new() } else { format!("{name}: ") };
            (name, prefix)
        })
        .collect()
}

fn answer(
    game: &Game,
    v: &chancery_engine::Variant,
    state: &chancery_engine::GameState,
    power: &str,
    mut orders: Vec<OrderLine>,
) -> ApiResult<PowerOrders> {
    for o in &mut orders {
        o.words = order_words::text_in_words(v, state, power, &o.order);
    }
    Ok(PowerOrders {
        game: game.id,
        seq: game.seq,
        phase: state.phase.code(),
        power: power.to_string(),
        orders,
    })
}

/// Adds orders of one power for the phase the request names; all or nothing.
pub async fn submit(app: &App, account: &Account, id: GameId, s: Submission) -> ApiResult<PowerOrders> {
    if s.orders.len() > MAX_ORDERS {
        return Err(ApiError::unprocessable(format!("at most {MAX_ORDERS} orders at once")));
    }
    app.db
        .clone()
        .writing(store_orders(app.clone(), account.clone(), id, s))
        .await
}

async fn store_orders(app: App, account: Account, id: GameId, s: Submission) -> ApiResult<PowerOrders> {
    let now = app.clock.now_ms();
    let named = PhaseRef {
        seq: s.seq,
        phase: s.phase.clone(),
    };
    let (mut tx, loaded, power) = games::lock_acting(&app, &account, id, s.power.as_deref(), |l, r| {
        at_phase(&l.game, &l.state, &named)?;
        open_for_orders(&l.game, r, now)
    })
    .await?;
    let (game, v, state) = (&loaded.game, &loaded.variant, &loaded.state);
    let mut rows = write(
        &mut tx,
        game,
        v,
        state,
        &power,
        &s.orders,
        s.replace,
        app.clock.now_ms(),
    )
    .await?;
    // After a replacement the stored orders are exactly these: no need to read them back.
    let answered = if s.replace {
        rows.sort();
        answer(
            game,
            v,
            state,
            &power,
            rows.into_iter()
                .map(|(unit, order)| OrderLine {
                    unit,
                    order,
                    words: String::new(),
                })
                .collect(),
        )?
    } else {
        power_orders(&mut tx, game, &power, v, state).await?
    };
    tx.commit().await?;
    Ok(answered)
}

/// Checks a power's orders on the position and stores them, in the caller's transaction
/// holding the game's lock: every order the engine reads and the position allows, or none
/// (the error lists the refused). A player's submission and a bot's both come here, so
/// a bot's orders pass exactly the checks a person's do. Returns the rows written (unit
/// key, canonical order), a faction's with its name before them.
#[allow(clippy::too_many_arguments)]
pub async fn write(
    tx: &mut Tx,
    game: &Game,
    v: &chancery_engine::Variant,
    state: &chancery_engine::GameState,
    power: &str,
    texts: &[String],
    replace: bool,
    now_ms: i64,
) -> ApiResult<Vec<(String, String)>> {
    let id = game.id;
    let power = power.to_string();
    let power_id = v
        .find_power(&power)
        .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
    let mut accepted = Vec::new();
    let mut refused = Vec::new();
    for text in texts {
        if text.chars().count() > MAX_ORDER_CHARS {
            refused.push(RefusedOrder {
                order: text.clone(),
                error: "the order is too long".into(),
            });
            continue;
        }
        match parse_order(v, power_id, text).and_then(|o| validate(v, state, &o)) {
            Ok(order) => accepted.push(order),
            Err(e) => refused.push(RefusedOrder {
                order: text.clone(),
                error: e.to_string(),
            }),
        }
    }
    // All or nothing, so that the stored orders are never a surprise.
    if !refused.is_empty() {
        let first = refused[0].error.clone();
        let message = if refused.len() == 1 {
            first
        } else {
            format!("{} orders refused; the first: {first}", refused.len())
        };
        return Err(ApiError::coded(ErrorCode::InvalidOrder, message).with(json!({"refused": refused})));
    }
    let mine = commanded(v, &power);
    if replace {
        for (name, _) in &mine {
            store::orders::delete(&mut **tx, id, game.seq, name, None).await?;
        }
    }
    // Each order is stored under the power it belongs to: the seat's, or for a
    // faction's build, waive or removal the faction's (the engine's reading of a
    // `Republican Spain:` line), so that processing reads it as the faction's own.
    let mut written = Vec::with_capacity(accepted.len());
    for (name, prefix) in &mine {
        let group: Vec<&Order> = accepted.iter().filter(|o| v.power(o.power).name == *name).collect();
        if group.is_empty() {
            continue;
        }
        let rows = rows_for(tx, game, v, name, &group, replace).await?;
        store::orders::upsert(&mut **tx, id, game.seq, name, now_ms, &rows).await?;
        written.extend(
            rows.into_iter()
                .map(|(k, t)| (format!("{prefix}{k}"), format!("{prefix}{t}"))),
        );
    }
    Ok(written)
}

/// The stored rows (unit key, canonical text) for one power's accepted orders.
async fn rows_for(
    tx: &mut Tx,
    game: &Game,
    v: &chancery_engine::Variant,
    power: &str,
    accepted: &[&Order],
    replace: bool,
) -> ApiResult<Vec<(String, String)>> {
    let id = game.id;
    // Waived builds have no unit to key on: number them after those already stored.
    let mut waives = if accepted.iter().any(|o| o.kind == OrderKind::Waive) {
        store::orders::of_power(&mut **tx, id, game.seq, power)
            .await?
            .iter()
            .filter(|o| o.unit.starts_with("waive"))
            .count()
    } else {
        0
    };
    // Where several units share a space (Original 1958 stacks, several builds in one
    // capital), each gets its own key `space/type/n`; the orders one request gives a
    // space's units of one type replace that space's earlier orders for that type.
    let stacking = v.rule_on(chancery_engine::rules::Rule::Stacking);
    let mut slots: HashMap<String, usize> = HashMap::new();
    // A later order for the same unit (or build site) replaces the earlier one; the
    // engine would void both (DATC 4.D.3), which is never what a player means.
    let mut rows: Vec<(String, String)> = Vec::with_capacity(accepted.len());
    for order in accepted {
        let space = v.provinces[order_province(order) as usize].abbr.to_ascii_lowercase();
        let key = if order.kind == OrderKind::Waive {
            waives += 1;
            format!("waive{waives}")
        } else if stacking {
            let letter = order.unit.kind.map_or('?', |k| k.letter().to_ascii_lowercase());
            let base = format!("{space}/{letter}");
            let n = slots.entry(base.clone()).or_insert(0);
            if *n == 0 && !replace {
                store::orders::delete_stack(&mut **tx, id, game.seq, power, &space, &base).await?;
            }
            *n += 1;
            format!("{base}/{n}")
        } else {
            space
        };
        let text = order.display(v).to_string();
        match rows.iter_mut().find(|(k, _)| *k == key) {
            Some(row) => row.1 = text,
            None => rows.push((key, text)),
        }
    }
    Ok(rows)
}

/// A power's current orders: the player's own; the GM names the power.
pub async fn list(app: &App, account: &Account, id: GameId, power: Option<&str>) -> ApiResult<PowerOrders> {
    // No transaction: the orders are read for the phase the game row says, so a phase
    // processed in between cannot mix two phases' orders.
    list_loaded(app, account, &games::read(app, id).await?, power).await
}

/// [`list`] for a game the caller has loaded (the game page).
pub async fn list_loaded(
    app: &App,
    account: &Account,
    loaded: &LoadedGame,
    power: Option<&str>,
) -> ApiResult<PowerOrders> {
    let LoadedGame {
        game,
        variant: v,
        state,
    } = loaded;
    let role = role_of(&app.db.read, game, Some(account)).await?;
    let power = acting_power(&role, power, v)?;
    let mut lines = Vec::new();
    for (name, prefix) in commanded(v, &power) {
        let rows = store::orders::of_power(&app.db.read, game.id, game.seq, &name).await?;
        lines.extend(rows.into_iter().map(|o| OrderLine::from(o).prefixed(&prefix)));
    }
    answer(game, v, state, &power, lines)
}

/// Clears a power's orders, or one unit's, in the phase the request names.
pub async fn clear(app: &App, account: &Account, id: GameId, q: ClearQuery) -> ApiResult<PowerOrders> {
    let now = app.clock.now_ms();
    let named = PhaseRef {
        seq: q.seq,
        phase: q.phase.clone(),
    };
    let (mut tx, loaded, power) = games::lock_acting(app, account, id, q.power.as_deref(), |l, r| {
        at_phase(&l.game, &l.state, &named)?;
        open_for_orders(&l.game, r, now)
    })
    .await?;
    let (game, v, state) = (&loaded.game, &loaded.variant, &loaded.state);
    let mine = commanded(v, &power);
    match &q.unit {
        Some(unit) => {
            // A faction's line is keyed with its name, as the list shows it.
            let (owner, space) = mine
                .iter()
                .skip(1)
                .find_map(|(name, prefix)| unit.strip_prefix(prefix.as_str()).map(|rest| (name, rest.trim())))
                .unwrap_or((&mine[0].0, unit.as_str()));
            let key = match v.find_province(space) {
                Some(p) => v.provinces[p as usize].abbr.to_ascii_lowercase(),
                None => space.to_ascii_lowercase(),
            };
            // `vie` also clears every unit of a stack there (`vie/A/1`, `vie/A/2`).
            if store::orders::delete(&mut *tx, id, game.seq, owner, Some(&key)).await? == 0 {
                return Err(ApiError::not_found(format!("{power} has no order for `{unit}`")));
            }
        }
        None => {
            for (name, _) in &mine {
                store::orders::delete(&mut *tx, id, game.seq, name, None).await?;
            }
        }
    }
    let answered = power_orders(&mut tx, game, &power, v, state).await?;
    tx.commit().await?;
    Ok(answered)
}

/// The powers a person or a bot plays now: those whose ready marks count.
async fn seated(tx: &mut Tx, game: &Game) -> ApiResult<Vec<String>> {
    let mut seated = store::members::seated(&mut **tx, game.id).await?;
    seated.extend(store::bots::powers(&mut **tx, game.id).await?);
    Ok(seated)
}

/// Whether a person plays some power: bots' marks alone never process a phase early.
async fn has_person(tx: &mut Tx, game: &Game) -> ApiResult<bool> {
    Ok(!store::members::seated(&mut **tx, game.id).await?.is_empty())
}

/// The powers whose ready mark early processing waits for: those with a player (a
/// person or a bot), not in civil disorder, with a choice to make.
async fn waiting_for(
    tx: &mut Tx,
    game: &Game,
    v: &chancery_engine::Variant,
    state: &chancery_engine::GameState,
) -> ApiResult<Vec<String>> {
    let disorder = disorder_powers(tx, game.id).await?;
    let seated = seated(tx, game).await?;
    let ready = store::orders::ready_powers(&mut **tx, game.id, game.seq).await?;
    Ok(seated
        .into_iter()
        .filter(|p| {
            !disorder.contains(p) && !ready.contains(p) && v.find_power(p).is_some_and(|p| has_choice(v, state, p))
        })
        .collect())
}

/// Processes the running game's phase inside `tx` when early processing is on, some
/// seated power has marked ready and none is still waited for: what the last ready mark
/// does, for a change that leaves everyone ready without a new mark (the GM turning
/// early processing on). Returns the position it moved the game on to, if it processed.
pub async fn process_if_all_ready(
    app: &App,
    tx: &mut Tx,
    loaded: &LoadedGame,
    how: HowProcessed,
) -> ApiResult<Option<chancery_engine::GameState>> {
    let game = &loaded.game;
    if game.status != GameStatus::Active || !game.process_when_ready {
        return Ok(None);
    }
    let seated = seated(tx, game).await?;
    let ready = store::orders::ready_powers(&mut **tx, game.id, game.seq).await?;
    // Nobody's mark, nobody asked for it: an empty game waits for its deadline; so does
    // one of bots alone.
    if !ready.iter().any(|p| seated.contains(p)) || !has_person(tx, game).await? {
        return Ok(None);
    }
    if !waiting_for(tx, game, &loaded.variant, &loaded.state).await?.is_empty() {
        return Ok(None);
    }
    Ok(Some(adjudicate_current(app, tx, loaded, how).await?.next))
}

/// Marks the power ready in the phase the request names; the last mark processes the
/// phase in the same transaction, so nothing (a scheduler's tick, another server, a
/// crash) can come between them.
pub async fn mark_ready(app: &App, account: &Account, id: GameId, r: ReadyRequest) -> ApiResult<ReadyMark> {
    let named = PhaseRef {
        seq: r.seq,
        phase: r.phase.clone(),
    };
    let (mut tx, loaded, power) = games::lock_acting(app, account, id, r.power.as_deref(), |l, _| {
        at_phase(&l.game, &l.state, &named)?;
        match l.game.status {
            GameStatus::Active => Ok(()),
            _ => Err(ApiError::coded(ErrorCode::NotRunning, "the game is not running")),
        }
    })
    .await?;
    let (all_ready, processed) = ready(app, &mut tx, &loaded, &power).await?;
    tx.commit().await?;
    if processed {
        // A new phase: its bots' turn.
        app.bot_wake.notify_one();
    }
    Ok(ReadyMark {
        power,
        ready: true,
        all_ready: Some(all_ready),
        processed: Some(processed),
    })
}

/// Marks `power` ready in the game's current phase, in the caller's transaction holding
/// the game's lock; the last mark processes the phase there. A player's mark and a
/// bot's both come here, with the game, variant and position as loaded under the lock.
/// Returns whether everyone is ready and whether it processed.
pub async fn ready(app: &App, tx: &mut Tx, loaded: &LoadedGame, power: &str) -> ApiResult<(bool, bool)> {
    let game = &loaded.game;
    store::orders::set_ready(&mut **tx, game.id, game.seq, power, true).await?;
    let all_ready = waiting_for(tx, game, &loaded.variant, &loaded.state).await?.is_empty();
    // A game set to wait for the deadline counts the marks but is not processed by them;
    // nor is a game nobody but bots plays (the bots would play it to its end at once).
    let processed = all_ready && game.process_when_ready && has_person(tx, game).await?;
    if processed {
        adjudicate_current(app, tx, loaded, HowProcessed::AllReady).await?;
    }
    Ok((all_ready, processed))
}

/// Takes back the power's ready mark in the phase the request names.
pub async fn unmark_ready(app: &App, account: &Account, id: GameId, r: ReadyRequest) -> ApiResult<ReadyMark> {
    let named = PhaseRef {
        seq: r.seq,
        phase: r.phase.clone(),
    };
    let (mut tx, loaded, power) = games::lock_acting(app, account, id, r.power.as_deref(), |l, _| {
        at_phase(&l.game, &l.state, &named)
    })
    .await?;
    let game = loaded.game;
    store::orders::set_ready(&mut *tx, id, game.seq, &power, false).await?;
    tx.commit().await?;
    Ok(ReadyMark {
        power,
        ready: false,
        all_ready: None,
        processed: None,
    })
}

/// Every power's current orders, for the game's GM.
pub async fn of_phase(app: &App, account: &Account, id: GameId) -> ApiResult<PhaseOrders> {
    of_loaded_phase(app, account, &games::read(app, id).await?).await
}

/// [`of_phase`] for a game the caller has loaded (the GM's console).
pub async fn of_loaded_phase(app: &App, account: &Account, loaded: &LoadedGame) -> ApiResult<PhaseOrders> {
    let game = &loaded.game;
    if game.gm_id != account.id {
        return Err(ApiError::coded(ErrorCode::GmOnly, "only the game's GM can do that"));
    }
    let orders = store::orders::of_phase(&app.db.read, game.id, game.seq).await?;
    Ok(PhaseOrders {
        game: game.id,
        seq: game.seq,
        phase: loaded.state.phase.code(),
        orders: orders
            .into_iter()
            .map(|o| PowerOrder {
                power: o.power,
                unit: o.order.unit,
                order: o.order.text,
            })
            .collect(),
    })
}

/// What a click on the map asked a unit to do, for [`Check`].
#[derive(Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Move,
    Retreat,
    Board,
    Support,
    Convoy,
}

/// An order to check: as the player types it (`text`), or as the map's clicks name it
/// (`unit`, `action`, `target`, `to`), so that a client composes no order text.
#[derive(Deserialize, Default, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct Check {
    /// The order (`f LON - nth`), in any notation the order API reads.
    #[serde(default)]
    #[param(max_length = 200, example = "F lon - nth")]
    pub text: Option<String>,
    /// Without `text`: the unit ordered (`A ber`).
    #[serde(default)]
    pub unit: Option<String>,
    /// Without `text`: what it is to do.
    #[serde(default)]
    #[param(inline)]
    pub action: Option<Action>,
    /// With `support` and `convoy`: the other unit (`A mun`).
    #[serde(default)]
    pub target: Option<String>,
    /// Where the unit (or, supporting and convoying, the other unit) goes (`sil`).
    #[serde(default)]
    pub to: Option<String>,
    /// For the GM: the power it is for.
    #[serde(default)]
    pub power: Option<String>,
}

impl Check {
    /// The order to read: the text, or the clicks written in the engine's notation.
    fn order_text(&self) -> ApiResult<String> {
        if let Some(text) = &self.text {
            return Ok(text.clone());
        }
        let need = |v: &Option<String>, name: &str| {
            v.clone()
                .ok_or_else(|| ApiError::unprocessable(format!("`{name}` is needed here")).with(json!({"field": name})))
        };
        let (Some(action), Some(unit)) = (self.action, &self.unit) else {
            return Err(ApiError::unprocessable("give `text`, or `unit` and `action`").with(json!({"field": "text"})));
        };
        Ok(match (action, &self.to) {
            (Action::Move, _) => format!("{unit} - {}", need(&self.to, "to")?),
            (Action::Retreat, _) => format!("{unit} R {}", need(&self.to, "to")?),
            (Action::Board, None) => format!("{unit} B"),
            (Action::Board, Some(to)) => format!("{unit} - {to} B"),
            (Action::Support, None) => format!("{unit} S {}", need(&self.target, "target")?),
            (Action::Support, Some(to)) => format!("{unit} S {} - {to}", need(&self.target, "target")?),
            (Action::Convoy, _) => format!("{unit} C {} - {}", need(&self.target, "target")?, need(&self.to, "to")?),
        })
    }
}

/// The engine's verdict on one order as the player types it: `ok`, with the order as
/// the engine reads it and in words, or not, with why.
#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct OrderCheck {
    pub ok: bool,
    /// With `ok`: the order in the engine's canonical text (`F lon - nth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// With `ok`: the order in words (`Fleet London → North Sea`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<String>,
    /// Without `ok`: why the order API would refuse it, as it would say it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl OrderCheck {
    fn refused(error: impl Into<String>) -> OrderCheck {
        OrderCheck {
            ok: false,
            order: None,
            words: None,
            error: Some(error.into()),
        }
    }
}

/// The engine's verdict on one order, without storing it: the same parser and position
/// check that the order API applies on submission.
pub async fn check(app: &App, account: &Account, id: GameId, c: &Check) -> ApiResult<OrderCheck> {
    let LoadedGame {
        game,
        variant: v,
        state,
    } = games::read(app, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    let power = acting_power(&role, c.power.as_deref(), &v)?;
    let Some(p) = v.find_power(&power) else {
        return Ok(OrderCheck::refused(format!("unknown power `{power}`")));
    };
    let text = c.order_text()?;
    if text.chars().count() > MAX_ORDER_CHARS {
        return Ok(OrderCheck::refused("the order is too long"));
    }
    Ok(match parse_order(&v, p, &text).and_then(|o| validate(&v, &state, &o)) {
        Ok(order) => OrderCheck {
            ok: true,
            order: Some(order.display(&v).to_string()),
            words: Some(crate::services::order_words::words(&v, &state, &order)),
            error: None,
        },
        Err(e) => OrderCheck::refused(e.to_string()),
    })
}
