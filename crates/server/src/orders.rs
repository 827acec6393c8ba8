//! Orders and ready marks. Each order is checked on arrival against the board with the
//! engine's own validation, and stored in the engine's canonical notation, so what a
//! player reads back is exactly what will be adjudicated. Only the power's player and
//! the GM ever see a power's orders before the phase is processed.

use axum::extract::State;
use axum::Json;
use chancery_engine::order::order_province;
use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::{OrderKind, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;

use crate::auth::Account;
use crate::clock::iso_utc;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult, Body, OptionalBody, Params, Path};
use crate::model::GameStatus;
use crate::services::games::{self, acting_power, at_phase, role_of, PhaseRef, Role};
use crate::services::processing::{adjudicate_current, disorder_powers, has_choice};
use crate::store::games::Game;
use crate::App;

/// Most orders one request may carry; a power has far fewer units on any map.
use crate::limits::{MAX_ORDERS, MAX_ORDER_CHARS};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    pub orders: Vec<String>,
    /// For the GM: the power to order for.
    #[serde(default)]
    pub power: Option<String>,
    /// Clear the power's orders for this phase first.
    #[serde(default)]
    pub replace: bool,
    /// The phase the orders are for: its number, or its code (one is required).
    #[serde(default)]
    pub seq: Option<i64>,
    #[serde(default)]
    pub phase: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Which {
    #[serde(default)]
    pub power: Option<String>,
    /// One unit's order to clear (its province).
    #[serde(default)]
    pub unit: Option<String>,
    /// The phase a change is for (clearing orders, a ready mark): its number or code.
    #[serde(default)]
    pub seq: Option<i64>,
    #[serde(default)]
    pub phase: Option<String>,
}

impl Which {
    fn named(&self) -> PhaseRef {
        PhaseRef {
            seq: self.seq,
            phase: self.phase.clone(),
        }
    }
}

/// Whether `role` may still change the phase's orders or bids: the game is running and,
/// for a player, the deadline has not passed. Between the deadline and the scheduler's
/// processing the orders are what they were at the deadline; the GM may still correct
/// them (and extends the deadline to let a player do so).
pub fn open_for_orders(game: &Game, role: &Role, now: i64) -> ApiResult<()> {
    match game.status {
        GameStatus::Active | GameStatus::Paused => {}
        GameStatus::Forming => return Err(ApiError::conflict("the game has not started")),
        _ => return Err(ApiError::conflict("the game is over")),
    }
    match (role, game.deadline_ms) {
        (Role::Player(_), Some(deadline)) if deadline <= now => Err(ApiError::conflict(format!(
            "the deadline passed at {}; the phase is being processed",
            iso_utc(deadline)
        ))),
        _ => Ok(()),
    }
}

/// The current orders of one power, in submission order.
async fn power_orders<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    e: E,
    game: &Game,
    power: &str,
) -> ApiResult<Vec<Value>> {
    Ok(sqlx::query(
        "SELECT unit_key, text FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3 ORDER BY unit_key",
    )
    .bind(game.id)
    .bind(game.seq)
    .bind(power)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| json!({"unit": r.get::<String, _>("unit_key"), "order": r.get::<String, _>("text")}))
    .collect())
}

fn orders_json(game: &Game, v: &Variant, power: &str, orders: Vec<Value>) -> ApiResult<Value> {
    let state = game.state(v)?;
    Ok(json!({"game": game.id, "seq": game.seq, "phase": state.phase.code(), "power": power, "orders": orders}))
}

pub async fn submit(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(s): Body<Submission>,
) -> ApiResult<Json<Value>> {
    if s.orders.len() > MAX_ORDERS {
        return Err(ApiError::unprocessable(format!("at most {MAX_ORDERS} orders at once")));
    }
    app.db.clone().writing(store(app, account, id, s)).await.map(Json)
}

async fn store(app: App, account: Account, id: i64, s: Submission) -> ApiResult<Value> {
    let now = app.clock.now_ms();
    let named = PhaseRef {
        seq: s.seq,
        phase: s.phase.clone(),
    };
    let (mut tx, game, v, power) = games::lock_acting(&app, &account, id, s.power.as_deref(), |g, r, v| {
        at_phase(g, &g.state(v)?, &named)?;
        open_for_orders(g, r, now)
    })
    .await?;
    let power_id = v
        .find_power(&power)
        .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
    let state = game.state(&v)?;
    let mut accepted = Vec::new();
    let mut refused = Vec::new();
    for text in &s.orders {
        if text.chars().count() > MAX_ORDER_CHARS {
            refused.push(json!({"order": text, "error": "the order is too long"}));
            continue;
        }
        match parse_order(&v, power_id, text).and_then(|o| validate(&v, &state, &o)) {
            Ok(order) => accepted.push(order),
            Err(e) => refused.push(json!({"order": text, "error": e.to_string()})),
        }
    }
    // All or nothing, so that the stored orders are never a surprise.
    if !refused.is_empty() {
        let first = refused[0]["error"].as_str().unwrap_or_default().to_string();
        let message = if refused.len() == 1 {
            first
        } else {
            format!("{} orders refused; the first: {first}", refused.len())
        };
        return Err(ApiError::unprocessable(message).with(json!({"refused": refused})));
    }
    if s.replace {
        sqlx::query("DELETE FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3")
            .bind(id)
            .bind(game.seq)
            .bind(&power)
            .execute(&mut *tx)
            .await?;
    }
    let now = app.clock.now_ms();
    // Waived builds have no unit to key on: number them after those already stored.
    let mut waives = if accepted.iter().any(|o| o.kind == OrderKind::Waive) {
        sqlx::query("SELECT unit_key FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3")
            .bind(id)
            .bind(game.seq)
            .bind(&power)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .filter(|r| r.get::<String, _>("unit_key").starts_with("waive"))
            .count()
    } else {
        0
    };
    // Where several units share a space (Original 1958 stacks, several builds in one
    // capital), each gets its own key `space/type/n`; the orders one request gives a
    // space's units of one type replace that space's earlier orders for that type.
    let stacking = v.rule_on(chancery_engine::rules::Rule::Stacking);
    let mut slots: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    // A later order for the same unit (or build site) replaces the earlier one; the
    // engine would void both (DATC 4.D.3), which is never what a player means.
    let mut rows: Vec<(String, String)> = Vec::with_capacity(accepted.len());
    for order in &accepted {
        let space = v.provinces[order_province(order) as usize].abbr.to_ascii_lowercase();
        let key = if order.kind == OrderKind::Waive {
            waives += 1;
            format!("waive{waives}")
        } else if stacking {
            let letter = order.unit.kind.map_or('?', |k| k.letter().to_ascii_lowercase());
            let base = format!("{space}/{letter}");
            let n = slots.entry(base.clone()).or_insert(0);
            if *n == 0 && !s.replace {
                sqlx::query(
                    "DELETE FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3 AND (unit_key = $4 OR unit_key LIKE $5)",
                )
                .bind(id)
                .bind(game.seq)
                .bind(&power)
                .bind(&space)
                .bind(format!("{base}/%"))
                .execute(&mut *tx)
                .await?;
            }
            *n += 1;
            format!("{base}/{n}")
        } else {
            space
        };
        let text = order.display(&v).to_string();
        match rows.iter_mut().find(|(k, _)| *k == key) {
            Some(row) => row.1 = text,
            None => rows.push((key, text)),
        }
    }
    if !rows.is_empty() {
        // One statement for the whole set: $1–$4 are shared, then a key and a text per row.
        let values: Vec<String> = (0..rows.len())
            .map(|i| format!("($1, $2, $3, ${}, ${}, $4)", 5 + 2 * i, 6 + 2 * i))
            .collect();
        let sql = format!(
            "INSERT INTO orders (game_id, seq, power, unit_key, text, submitted_ms) VALUES {}
             ON CONFLICT (game_id, seq, power, unit_key) DO UPDATE SET text = excluded.text, submitted_ms = excluded.submitted_ms",
            values.join(", ")
        );
        let mut insert = sqlx::query(&sql).bind(id).bind(game.seq).bind(&power).bind(now);
        for (key, text) in &rows {
            insert = insert.bind(key).bind(text);
        }
        insert.execute(&mut *tx).await?;
    }
    // After a replacement the stored orders are exactly these: no need to read them back.
    let orders = if s.replace {
        rows.sort();
        rows.into_iter()
            .map(|(unit, order)| json!({"unit": unit, "order": order}))
            .collect()
    } else {
        power_orders(&mut *tx, &game, &power).await?
    };
    tx.commit().await?;
    orders_json(&game, &v, &power, orders)
}

pub async fn list(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(w): Params<Which>,
) -> ApiResult<Json<Value>> {
    // No transaction: the orders are read for the phase the game row says, so a phase
    // processed in between cannot mix two phases' orders.
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(&account)).await?;
    let v = game.variant(&app)?;
    let power = acting_power(&role, w.power.as_deref(), &v)?;
    let orders = power_orders(&app.db.read, &game, &power).await?;
    Ok(Json(orders_json(&game, &v, &power, orders)?))
}

pub async fn clear(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(w): Params<Which>,
) -> ApiResult<Json<Value>> {
    let now = app.clock.now_ms();
    let (mut tx, game, v, power) = games::lock_acting(&app, &account, id, w.power.as_deref(), |g, r, v| {
        at_phase(g, &g.state(v)?, &w.named())?;
        open_for_orders(g, r, now)
    })
    .await?;
    match &w.unit {
        Some(unit) => {
            let key = match v.find_province(unit) {
                Some(p) => v.provinces[p as usize].abbr.to_ascii_lowercase(),
                None => unit.to_ascii_lowercase(),
            };
            // `vie` also clears every unit of a stack there (`vie/A/1`, `vie/A/2`).
            let r = sqlx::query(
                "DELETE FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3 AND (unit_key = $4 OR unit_key LIKE $5)",
            )
            .bind(id)
            .bind(game.seq)
            .bind(&power)
            .bind(&key)
            .bind(format!("{key}/%"))
            .execute(&mut *tx)
            .await?;
            if r.rows_affected() == 0 {
                return Err(ApiError::not_found(format!("{power} has no order for `{unit}`")));
            }
        }
        None => {
            sqlx::query("DELETE FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3")
                .bind(id)
                .bind(game.seq)
                .bind(&power)
                .execute(&mut *tx)
                .await?;
        }
    }
    let orders = power_orders(&mut *tx, &game, &power).await?;
    tx.commit().await?;
    Ok(Json(orders_json(&game, &v, &power, orders)?))
}

/// The powers whose ready mark early processing waits for: those with a player, not in
/// civil disorder, with a choice to make.
async fn waiting_for(app: &App, tx: &mut Tx, game: &Game) -> ApiResult<Vec<String>> {
    let v = game.variant(app)?;
    let state = game.state(&v)?;
    let disorder = disorder_powers(tx, game.id).await?;
    let seated = crate::store::members::seated(&mut **tx, game.id).await?;
    let ready: Vec<String> = sqlx::query("SELECT power FROM ready WHERE game_id = $1 AND seq = $2")
        .bind(game.id)
        .bind(game.seq)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| r.get("power"))
        .collect();
    Ok(seated
        .into_iter()
        .filter(|p| !disorder.contains(p) && !ready.contains(p) && has_choice(&v, &state, p))
        .collect())
}

pub async fn mark_ready(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    OptionalBody(w): OptionalBody<Which>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game, _, power) = games::lock_acting(&app, &account, id, w.power.as_deref(), |g, _, v| {
        at_phase(g, &g.state(v)?, &w.named())?;
        match g.status {
            GameStatus::Active => Ok(()),
            _ => Err(ApiError::conflict("the game is not running")),
        }
    })
    .await?;
    sqlx::query("INSERT INTO ready (game_id, seq, power) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(id)
        .bind(game.seq)
        .bind(&power)
        .execute(&mut *tx)
        .await?;
    let waiting = waiting_for(&app, &mut tx, &game).await?;
    let all_ready = waiting.is_empty();
    // The last mark and the processing are one transaction: nothing (a scheduler's tick,
    // another server, a crash) can come between them.
    if all_ready {
        adjudicate_current(&app, &mut tx, &game, "all ready").await?;
    }
    tx.commit().await?;
    Ok(Json(
        json!({"power": power, "ready": true, "all_ready": all_ready, "processed": all_ready}),
    ))
}

pub async fn unmark_ready(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(w): Params<Which>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game, _, power) = games::lock_acting(&app, &account, id, w.power.as_deref(), |g, _, v| {
        at_phase(g, &g.state(v)?, &w.named())
    })
    .await?;
    sqlx::query("DELETE FROM ready WHERE game_id = $1 AND seq = $2 AND power = $3")
        .bind(id)
        .bind(game.seq)
        .bind(&power)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Json(json!({"power": power, "ready": false})))
}
