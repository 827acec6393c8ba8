//! Diplomacy Points bids on minor units (1936, 1648). A bid is a great power's DPs on
//! one minor unit together with the order it asks of that unit. The engine's `dp` module
//! checks a power's bids as they arrive (budget, caps, no bid on a minor it attacks) and,
//! when the phase is processed, turns everyone's bids into the minors' orders.
//!
//! Bids are secret: the bidding power and the GM see them, nobody else. The orders they
//! buy are given in the minor's own name, so no published result says who bid; who bid
//! what is kept in a report beside the result that only the GM reads.

use axum::extract::State;
use axum::Json;
use chancery_engine::dp::{self, Bid};
use chancery_engine::parse::{parse_order, parse_order_line};
use chancery_engine::phase::judge_phase;
use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, Order, PowerId, Variant};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::{Any, Executor, Row};

use crate::auth::Account;
use crate::db::Tx;
use crate::error::{ApiError, ApiResult, Body, Params, Path};
use crate::services::games::{self, acting_power, role_of, PhaseRef, Role};
use crate::store::bids::BidRow;
use crate::store::games::Game;
use crate::App;

pub const NO_DP: &str = "this variant has no Diplomacy Points";

/// More bids than any map has minor units.
use crate::limits::{MAX_BIDS, MAX_ORDER_CHARS};

/// Whether the variant bids DPs at all: only variants with minor powers do.
pub fn has_dp(v: &Variant) -> bool {
    v.powers.iter().any(|p| p.kind == PowerKind::Minor)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewBid {
    /// The minor unit's space; optional, since the order names the unit too, but when
    /// given the two must agree (a form that picks the unit from a list sends it).
    #[serde(default)]
    pub unit: Option<String>,
    pub dp: i64,
    /// The order for the minor unit, in the same notation as a power's own orders.
    pub order: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bids {
    /// Each bid replaces the power's earlier bid on the same unit this phase.
    pub bids: Vec<NewBid>,
    /// For the GM: the power to bid for.
    #[serde(default)]
    pub power: Option<String>,
    /// Clear the power's bids for this phase first.
    #[serde(default)]
    pub replace: bool,
    /// The phase the bids are for: its number, or its code (one is required).
    #[serde(default)]
    pub seq: Option<i64>,
    #[serde(default)]
    pub phase: Option<String>,
}

fn space(v: &Variant, p: chancery_engine::ProvinceId) -> &str {
    &v.province(p).name
}

fn unit_key(v: &Variant, order: &Order) -> String {
    v.province(order.unit.location.province).abbr.to_ascii_lowercase()
}

/// Reads one bid of `power`'s: the order is parsed in the name of the minor that owns
/// the unit it names, which is how the engine will give it.
pub fn read_bid(v: &Variant, state: &GameState, power: PowerId, b: &NewBid) -> Result<Bid, String> {
    if !(1..=2).contains(&b.dp) {
        return Err(format!("a bid spends 1 DP, or 2 on one unit (rule 3); got {}", b.dp));
    }
    if b.order.chars().count() > MAX_ORDER_CHARS {
        return Err("the order is too long".into());
    }
    let (named, order) = parse_order_line(v, &b.order).map_err(|e| e.to_string())?;
    let at = order.unit.location.province;
    if let Some(unit) = &b.unit {
        let picked = v
            .find_province(unit)
            .ok_or_else(|| format!("there is no space called `{unit}`"))?;
        if picked != at {
            return Err(format!(
                "the order is for the unit in {}, not the one in {}",
                space(v, at),
                space(v, picked)
            ));
        }
    }
    let owner = state
        .unit_at(at)
        .map(|u| u.power)
        .ok_or_else(|| format!("there is no unit in {} to bid on", space(v, at)))?;
    if let Some(n) = named.filter(|&n| n != owner) {
        return Err(format!(
            "the unit in {} belongs to {}, not {}",
            space(v, at),
            v.power(owner).name,
            v.power(n).name
        ));
    }
    Ok(Bid {
        power,
        dp: b.dp as u32,
        order: Order { power: owner, ..order },
    })
}

fn bid_json(b: &BidRow, seq: i64) -> Value {
    json!({"seq": seq, "power": b.power, "unit": b.unit, "dp": b.dp, "order": b.order})
}

/// The bids of phase `seq`, of one power or of all, by power and unit.
pub async fn stored_bids<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: i64,
    seq: i64,
    power: Option<&str>,
) -> ApiResult<Vec<BidRow>> {
    Ok(crate::store::bids::for_phase(e, game_id, seq, power).await?)
}

/// A power's own orders this phase, as the engine reads them.
async fn own_orders(tx: &mut Tx, v: &Variant, game: &Game, power: PowerId) -> ApiResult<Vec<Order>> {
    let rows = sqlx::query("SELECT text FROM orders WHERE game_id = $1 AND seq = $2 AND power = $3")
        .bind(game.id)
        .bind(game.seq)
        .bind(&v.power(power).name)
        .fetch_all(&mut **tx)
        .await?;
    Ok(rows
        .iter()
        .filter_map(|r| parse_order(v, power, &r.get::<String, _>("text")).ok())
        .collect())
}

fn bids_json(game: &Game, state: &GameState, power: &str, bids: &[BidRow]) -> Value {
    json!({"game": game.id, "seq": game.seq, "phase": state.phase.code(), "power": power,
           "bids": bids.iter().map(|b| bid_json(b, game.seq)).collect::<Vec<_>>()})
}

/// Locks the game for a change to `power`'s bids: running, a DP variant, and a caller
/// who may bid for the power.
async fn lock_for_bids(
    app: &App,
    account: &Account,
    id: i64,
    requested: Option<&str>,
    named: &PhaseRef,
) -> ApiResult<(Tx, Game, std::sync::Arc<Variant>, String)> {
    let now = app.clock.now_ms();
    games::lock_acting(app, account, id, requested, |game, role, v| {
        if !has_dp(v) {
            return Err(ApiError::unprocessable(NO_DP));
        }
        games::at_phase(game, &game.state(v)?, named)?;
        crate::orders::open_for_orders(game, role, now)
    })
    .await
}

/// Adds or replaces bids of one power for the current phase. The power's whole set of
/// bids after the change is checked against rule 3 with its current orders; nothing is
/// stored unless all of it passes.
pub async fn submit(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(b): Body<Bids>,
) -> ApiResult<Json<Value>> {
    if b.bids.len() > MAX_BIDS {
        return Err(ApiError::unprocessable(format!("at most {MAX_BIDS} bids at once")));
    }
    let named = PhaseRef {
        seq: b.seq,
        phase: b.phase.clone(),
    };
    let (mut tx, game, v, power) = lock_for_bids(&app, &account, id, b.power.as_deref(), &named).await?;
    let power_id = v
        .find_power(&power)
        .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
    let state = game.state(&v)?;
    let mut new: Vec<Bid> = Vec::new();
    for nb in &b.bids {
        let bid = read_bid(&v, &state, power_id, nb).map_err(|e| {
            ApiError::unprocessable(format!("bid `{}`: {e}", nb.order)).with(json!({"order": nb.order}))
        })?;
        // A later bid on the same unit in one request replaces the earlier, as orders do.
        new.retain(|o: &Bid| o.order.unit.location.province != bid.order.unit.location.province);
        new.push(bid);
    }
    let kept: Vec<Bid> = if b.replace {
        Vec::new()
    } else {
        stored_bids(&mut *tx, id, game.seq, Some(&power))
            .await?
            .iter()
            .filter_map(|s| crate::services::processing::engine_bid(&v, s))
            .filter(|old| {
                !new.iter()
                    .any(|n| n.order.unit.location.province == old.order.unit.location.province)
            })
            .collect()
    };
    let all: Vec<Bid> = kept.iter().chain(new.iter()).copied().collect();
    let orders = own_orders(&mut tx, &v, &game, power_id).await?;
    dp::check_bids(&v, &state, power_id, &orders, &all).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    if b.replace {
        sqlx::query("DELETE FROM bids WHERE game_id = $1 AND seq = $2 AND power = $3")
            .bind(id)
            .bind(game.seq)
            .bind(&power)
            .execute(&mut *tx)
            .await?;
    }
    let now = app.clock.now_ms();
    for bid in &new {
        // Stored in the engine's canonical notation, so the bidder reads back exactly
        // the order that will compete for the unit.
        let canonical = dp::bids::bid_problem(&v, &state, bid).map_err(ApiError::unprocessable)?;
        let key = unit_key(&v, &canonical);
        sqlx::query("DELETE FROM bids WHERE game_id = $1 AND seq = $2 AND power = $3 AND unit_key = $4")
            .bind(id)
            .bind(game.seq)
            .bind(&power)
            .bind(&key)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO bids (game_id, seq, power, unit_key, dp, text, submitted_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(game.seq)
        .bind(&power)
        .bind(&key)
        .bind(bid.dp as i64)
        .bind(canonical.display(&v).to_string())
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    let mine = stored_bids(&mut *tx, id, game.seq, Some(&power)).await?;
    tx.commit().await?;
    Ok(Json(bids_json(&game, &state, &power, &mine)))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Which {
    #[serde(default)]
    pub power: Option<String>,
    /// One unit's bid to remove (its space).
    #[serde(default)]
    pub unit: Option<String>,
    /// When removing bids, the phase they are for: its number or code.
    #[serde(default)]
    pub seq: Option<i64>,
    #[serde(default)]
    pub phase: Option<String>,
}

/// Removes one bid of the power's this phase (`unit`), or all of them. Fewer bids never
/// break rule 3, so nothing is checked again.
pub async fn clear(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(w): Params<Which>,
) -> ApiResult<Json<Value>> {
    let (mut tx, game, v, power) = lock_for_bids(
        &app,
        &account,
        id,
        w.power.as_deref(),
        &PhaseRef {
            seq: w.seq,
            phase: w.phase.clone(),
        },
    )
    .await?;
    let state = game.state(&v)?;
    match &w.unit {
        Some(unit) => {
            let p = v
                .find_province(unit)
                .ok_or_else(|| ApiError::unprocessable(format!("there is no space called `{unit}`")))?;
            sqlx::query("DELETE FROM bids WHERE game_id = $1 AND seq = $2 AND power = $3 AND unit_key = $4")
                .bind(id)
                .bind(game.seq)
                .bind(&power)
                .bind(v.province(p).abbr.to_ascii_lowercase())
                .execute(&mut *tx)
                .await?;
        }
        None => {
            sqlx::query("DELETE FROM bids WHERE game_id = $1 AND seq = $2 AND power = $3")
                .bind(id)
                .bind(game.seq)
                .bind(&power)
                .execute(&mut *tx)
                .await?;
        }
    }
    let mine = stored_bids(&mut *tx, id, game.seq, Some(&power)).await?;
    tx.commit().await?;
    Ok(Json(bids_json(&game, &state, &power, &mine)))
}

/// A player's own bids in every phase; the GM's view of every power's (or one power's).
pub async fn list(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(w): Params<Which>,
) -> ApiResult<Json<Value>> {
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(&account)).await?;
    let v = game.variant(&app)?;
    let only: Option<String> = match (&role, &w.power) {
        (Role::Gm, None) => None,
        _ => Some(acting_power(&role, w.power.as_deref(), &v)?),
    };
    let rows =
        sqlx::query("SELECT seq, power, unit_key, dp, text FROM bids WHERE game_id = $1 ORDER BY seq, power, unit_key")
            .bind(id)
            .fetch_all(&app.db.read)
            .await?;
    let bids: Vec<Value> = rows
        .iter()
        .filter(|r| only.as_deref().is_none_or(|p| r.get::<String, _>("power") == p))
        .map(|r| {
            let bid = BidRow {
                power: r.get("power"),
                unit: r.get("unit_key"),
                dp: r.get("dp"),
                order: r.get("text"),
            };
            bid_json(&bid, r.get("seq"))
        })
        .collect();
    Ok(Json(json!({"game": id, "bids": bids})))
}

/// This turn's DP budget with its reckoning (rule 2): a player's own; for the GM one
/// power's, or every great power's.
pub async fn budget(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(w): Params<Which>,
) -> ApiResult<Json<Value>> {
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(&account)).await?;
    let v = game.variant(&app)?;
    if !has_dp(&v) {
        return Err(ApiError::unprocessable(NO_DP));
    }
    let state = game.state(&v)?;
    let list = match (&role, &w.power) {
        (Role::Gm, None) => dp::budgets(&v, &state),
        _ => {
            let name = acting_power(&role, w.power.as_deref(), &v)?;
            let p = v
                .find_power(&name)
                .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
            vec![dp::budget(&v, &state, p)]
        }
    };
    let budgets: Vec<Value> = list
        .iter()
        .map(|b| json!({"power": v.power(b.power).name, "total": b.total, "lines": b.lines, "summary": b.summary()}))
        .collect();
    Ok(Json(
        json!({"game": id, "seq": game.seq, "phase": state.phase.code(), "budgets": budgets}),
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Seq {
    #[serde(default)]
    pub seq: Option<i64>,
}

/// The GM's bid report. For a processed phase (`seq`), the report stored with its
/// result; for the current phase (no `seq`), how the bids would resolve if the phase
/// were processed now, with the orders as they stand.
pub async fn report(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(q): Params<Seq>,
) -> ApiResult<Json<Value>> {
    let game = games::load(&app.db.read, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::forbidden("only the game's GM can do that"));
    }
    let v = game.variant(&app)?;
    if !has_dp(&v) {
        return Err(ApiError::unprocessable(NO_DP));
    }
    match q.seq.filter(|&s| s != game.seq) {
        Some(seq) => {
            let row = sqlx::query("SELECT phase, bid_report FROM phases WHERE game_id = $1 AND seq = $2")
                .bind(id)
                .bind(seq)
                .fetch_optional(&app.db.read)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("game {id} has no processed phase {seq}")))?;
            Ok(Json(json!({
                "game": id, "seq": seq, "phase": row.get::<String, _>("phase"), "processed": true,
                "report": row.get::<Option<String>, _>("bid_report"),
            })))
        }
        None => {
            let mut tx = app.db.read.begin().await?;
            let input = crate::services::processing::phase_input(&mut tx, &v, &game).await?;
            tx.rollback().await?;
            // Judged as processing would judge it now, so the preview cannot differ.
            let judged = judge_phase(&v, &input.state, &input.orders, &input.bids);
            let report = judged.bid_report.map(|r| r.text(&v));
            Ok(Json(json!({
                "game": id, "seq": game.seq, "phase": input.state.phase.code(), "processed": false, "report": report,
            })))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v1936() -> Variant {
        chancery_engine::builtin::builtin("1936").unwrap().unwrap()
    }

    fn minor_unit(v: &Variant, s: &GameState) -> chancery_engine::state::Unit {
        *s.units
            .iter()
            .find(|u| v.power(u.power).kind == PowerKind::Minor)
            .expect("1936 starts with minor units")
    }

    #[test]
    fn standard_has_no_dp() {
        let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
        assert!(!has_dp(&v));
        assert!(has_dp(&v1936()));
    }

    #[test]
    fn a_bid_is_read_in_the_minor_units_name() {
        let v = v1936();
        let s = GameState::initial(&v);
        let u = minor_unit(&v, &s);
        let germany = v.find_power("Germany").unwrap();
        let at = &v.province(u.location.province).name;
        let nb = NewBid {
            unit: Some(at.clone()),
            dp: 2,
            order: format!("{} {at} H", u.kind.letter()),
        };
        let bid = read_bid(&v, &s, germany, &nb).unwrap();
        assert_eq!((bid.power, bid.dp, bid.order.power), (germany, 2, u.power));
    }

    #[test]
    fn bad_bids_say_why() {
        let v = v1936();
        let s = GameState::initial(&v);
        let u = minor_unit(&v, &s);
        let germany = v.find_power("Germany").unwrap();
        let at = v.province(u.location.province).name.clone();
        let bid = |unit: Option<&str>, dp: i64, order: &str| NewBid {
            unit: unit.map(str::to_string),
            dp,
            order: order.to_string(),
        };
        let hold = format!("{} {at} H", u.kind.letter());
        // Rule 3: at most 2 DPs on one unit; a bid spends at least one.
        assert!(read_bid(&v, &s, germany, &bid(None, 3, &hold))
            .unwrap_err()
            .contains("rule 3"));
        assert!(read_bid(&v, &s, germany, &bid(None, 0, &hold)).is_err());
        let e = read_bid(&v, &s, germany, &bid(Some("Berlin"), 1, &hold)).unwrap_err();
        assert!(e.contains("not the one in Berlin"), "{e}");
        let e = read_bid(&v, &s, germany, &bid(None, 1, "A nowhere H")).unwrap_err();
        assert!(!e.is_empty());
    }
}
