//! Diplomacy Points bids on minor units (1936, 1648). A bid is a great power's DPs on
//! one minor unit together with the order it asks of that unit. The engine's `dp` module
//! checks a power's bids as they arrive (budget, caps, no bid on a minor it attacks) and,
//! when the phase is processed, turns everyone's bids into the minors' orders.
//!
//! Bids are secret: the bidding power and the GM see them, nobody else. The orders they
//! buy are given in the minor's own name, so no published result says who bid; who bid
//! what is kept in a report beside the result that only the GM reads. A change names
//! the phase it is for, as orders do.

use chancery_engine::dp::{self, Bid};
use chancery_engine::parse::parse_order_line;
use chancery_engine::{GameState, Order, PowerId, Variant};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use crate::db::Tx;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::limits::{MAX_BIDS, MAX_ORDER_CHARS};
use crate::model::{Account, GameId, PhaseSeq};
use crate::services::games::{self, acting_power, at_phase, role_of, LoadedGame, PhaseRef, Role};
use crate::services::orders::open_for_orders;
use crate::services::processing::{engine_bid, phase_input};
use crate::store::bids::BidRow;
use crate::store::games::Game;
use crate::store::{self, phases::Table};
use crate::App;

pub const NO_DP: &str = "this variant has no Diplomacy Points";

/// One bid as a request gives it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewBid {
    /// The minor unit's space; optional, since the order names the unit too, but when
    /// given the two must agree (a form that picks the unit from a list sends it).
    #[serde(default)]
    pub unit: Option<String>,
    /// 1, or 2 on one unit (rule 3).
    pub dp: i64,
    /// The order for the minor unit, in the same notation as a power's own orders.
    pub order: String,
}

/// Bids of one power.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"bids": [{"unit": "Belgium", "dp": 2, "order": "A bel - hol"}], "replace": false, "seq": 0}))]
pub struct Bids {
    /// Each bid replaces the power's earlier bid on the same unit this phase.
    pub bids: Vec<NewBid>,
    /// For the GM: the power to bid for.
    #[serde(default)]
    pub power: Option<String>,
    /// Clear the power's bids for this phase first.
    #[serde(default)]
    pub replace: bool,
    /// The phase the bids are for, by number; or give `phase`. One is required.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub seq: Option<PhaseSeq>,
    /// The phase the bids are for, by code (`S1936M`).
    #[serde(default)]
    pub phase: Option<String>,
}

/// Which bids to remove, for which phase.
#[derive(Deserialize, Default, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ClearQuery {
    /// For the GM: the power whose bids to remove.
    #[serde(default)]
    pub power: Option<String>,
    /// One unit's bid to remove (its space); absent: all the power's bids.
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

/// A stored bid.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct BidLine {
    /// The phase it was made in.
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub power: String,
    /// The minor unit's space.
    pub unit: String,
    pub dp: i64,
    /// The order bought for the unit, in the engine's notation.
    pub order: String,
}

impl BidLine {
    fn new(seq: PhaseSeq, b: BidRow) -> Self {
        BidLine {
            seq,
            power: b.power,
            unit: b.unit,
            dp: b.dp,
            order: b.order,
        }
    }
}

/// A power's bids in the current phase.
#[derive(Serialize, ToSchema, Debug)]
pub struct PowerBids {
    #[schema(value_type = i64)]
    pub game: GameId,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub phase: String,
    pub power: String,
    pub bids: Vec<BidLine>,
}

/// Bids in every phase: a player's own, the GM's view of all.
#[derive(Serialize, ToSchema, Debug)]
pub struct GameBids {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub bids: Vec<BidLine>,
}

/// A great power's DP budget this turn with its reckoning (rule 2).
#[derive(Serialize, ToSchema, Debug)]
pub struct BudgetLine {
    pub power: String,
    pub total: u32,
    /// The base and every deduction, in words.
    pub lines: Vec<String>,
    pub summary: String,
}

#[derive(Serialize, ToSchema, Debug)]
pub struct Budgets {
    #[schema(value_type = i64)]
    pub game: GameId,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub phase: String,
    pub budgets: Vec<BudgetLine>,
}

/// The GM's bid report of a phase.
#[derive(Serialize, ToSchema, Debug)]
pub struct BidReport {
    #[schema(value_type = i64)]
    pub game: GameId,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub phase: String,
    /// Whether the phase is processed (the report kept with its result) or current (how
    /// the bids would resolve now).
    pub processed: bool,
    /// The report's text; absent for a phase without bidding.
    pub report: Option<String>,
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

/// A power's own orders this phase, as the engine reads them.
async fn own_orders(tx: &mut Tx, v: &Variant, game: &Game, power: PowerId) -> ApiResult<Vec<Order>> {
    let rows = store::orders::of_power(&mut **tx, game.id, game.seq, &v.power(power).name).await?;
    Ok(rows
        .iter()
        .filter_map(|r| crate::services::stored_orders::read(v, power, &r.text).ok())
        .collect())
}

async fn power_bids(tx: &mut Tx, game: &Game, state: &GameState, power: &str) -> ApiResult<PowerBids> {
    let mine = store::bids::for_phase(&mut **tx, game.id, game.seq, Some(power)).await?;
    Ok(PowerBids {
        game: game.id,
        seq: game.seq,
        phase: state.phase.code(),
        power: power.to_string(),
        bids: mine.into_iter().map(|b| BidLine::new(game.seq, b)).collect(),
    })
}

/// Locks the game for a change to `power`'s bids: running, a DP variant, the phase the
/// request names, and a caller who may bid for the power.
async fn lock_for_bids(
    app: &App,
    account: &Account,
    id: GameId,
    requested: Option<&str>,
    named: &PhaseRef,
) -> ApiResult<(Tx, LoadedGame, String)> {
    let now = app.clock.now_ms();
    let (tx, loaded, power) = games::lock_acting(app, account, id, requested, |l, role| {
        if !l.variant.has_minors() {
            return Err(ApiError::unprocessable(NO_DP));
        }
        at_phase(&l.game, &l.state, named)?;
        open_for_orders(&l.game, role, now)
    })
    .await?;
    Ok((tx, loaded, power))
}

/// Adds or replaces bids of one power for the current phase. The power's whole set of
/// bids after the change is checked against rule 3 with its current orders; nothing is
/// stored unless all of it passes.
pub async fn submit(app: &App, account: &Account, id: GameId, b: Bids) -> ApiResult<PowerBids> {
    if b.bids.len() > MAX_BIDS {
        return Err(ApiError::unprocessable(format!("at most {MAX_BIDS} bids at once")));
    }
    let named = PhaseRef {
        seq: b.seq,
        phase: b.phase.clone(),
    };
    let (
        mut tx,
        LoadedGame {
            game,
            variant: v,
            state,
        },
        power,
    ) = lock_for_bids(app, account, id, b.power.as_deref(), &named).await?;
    write(
        &mut tx,
        &game,
        &v,
        &state,
        &power,
        &b.bids,
        b.replace,
        app.clock.now_ms(),
    )
    .await?;
    let answered = power_bids(&mut tx, &game, &state, &power).await?;
    tx.commit().await?;
    Ok(answered)
}

/// Checks a power's bids (with its orders stored now) and stores them, in the caller's
/// transaction holding the game's lock: all of them or none. A player's bids and a
/// bot's both come here, so a bot's bids pass exactly the checks a person's do.
#[allow(clippy::too_many_arguments)]
pub async fn write(
    tx: &mut Tx,
    game: &Game,
    v: &Variant,
    state: &GameState,
    power: &str,
    bids: &[NewBid],
    replace: bool,
    now: i64,
) -> ApiResult<()> {
    let id = game.id;
    let power = power.to_string();
    let power_id = v
        .find_power(&power)
        .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
    let mut new: Vec<Bid> = Vec::new();
    for nb in bids {
        let bid = read_bid(v, state, power_id, nb).map_err(|e| {
            ApiError::coded(ErrorCode::InvalidBid, format!("bid `{}`: {e}", nb.order)).with(json!({"order": nb.order}))
        })?;
        // A later bid on the same unit in one request replaces the earlier, as orders do.
        new.retain(|o: &Bid| o.order.unit.location.province != bid.order.unit.location.province);
        new.push(bid);
    }
    let kept: Vec<Bid> = if replace {
        Vec::new()
    } else {
        store::bids::for_phase(&mut **tx, id, game.seq, Some(&power))
            .await?
            .iter()
            .filter_map(|s| engine_bid(v, s))
            .filter(|old| {
                !new.iter()
                    .any(|n| n.order.unit.location.province == old.order.unit.location.province)
            })
            .collect()
    };
    let all: Vec<Bid> = kept.iter().chain(new.iter()).copied().collect();
    let orders = own_orders(tx, v, game, power_id).await?;
    dp::check_bids(v, state, power_id, &orders, &all).map_err(|e| {
        let code = match e.kind {
            dp::BidErrorKind::OverBudget => ErrorCode::OverBudget,
            _ => ErrorCode::InvalidBid,
        };
        ApiError::coded(code, e.message)
    })?;
    if replace {
        store::bids::delete(&mut **tx, id, game.seq, &power, None).await?;
    }
    for bid in &new {
        // Stored in the engine's canonical notation, so the bidder reads back exactly
        // the order that will compete for the unit.
        let canonical = dp::bids::bid_problem(v, state, bid).map_err(|e| ApiError::coded(ErrorCode::InvalidBid, e))?;
        let row = BidRow {
            power: power.clone(),
            unit: unit_key(v, &canonical),
            dp: bid.dp as i64,
            order: canonical.display(v).to_string(),
        };
        store::bids::delete(&mut **tx, id, game.seq, &power, Some(&row.unit)).await?;
        store::bids::insert(&mut **tx, id, game.seq, &row, now).await?;
    }
    Ok(())
}

/// Removes one bid of the power's this phase (`unit`), or all of them. Fewer bids never
/// break rule 3, so nothing is checked again.
pub async fn clear(app: &App, account: &Account, id: GameId, q: ClearQuery) -> ApiResult<PowerBids> {
    let named = PhaseRef {
        seq: q.seq,
        phase: q.phase.clone(),
    };
    let (
        mut tx,
        LoadedGame {
            game,
            variant: v,
            state,
        },
        power,
    ) = lock_for_bids(app, account, id, q.power.as_deref(), &named).await?;
    let key = match &q.unit {
        Some(unit) => {
            let p = v
                .find_province(unit)
                .ok_or_else(|| ApiError::unprocessable(format!("there is no space called `{unit}`")))?;
            Some(v.province(p).abbr.to_ascii_lowercase())
        }
        None => None,
    };
    store::bids::delete(&mut *tx, id, game.seq, &power, key.as_deref()).await?;
    let answered = power_bids(&mut tx, &game, &state, &power).await?;
    tx.commit().await?;
    Ok(answered)
}

/// A player's own bids in every phase; the GM's view of every power's (or one power's).
pub async fn list(app: &App, account: &Account, id: GameId, power: Option<&str>) -> ApiResult<GameBids> {
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    let v = game.variant(app).await?;
    let only: Option<String> = match (&role, power) {
        (Role::Gm, None) => None,
        _ => Some(acting_power(&role, power, &v)?),
    };
    let bids = store::bids::of_game(&app.db.read, id)
        .await?
        .into_iter()
        .filter(|b| only.as_deref().is_none_or(|p| b.bid.power == p))
        .map(|b| BidLine::new(b.seq, b.bid))
        .collect();
    Ok(GameBids { game: id, bids })
}

/// This turn's DP budget with its reckoning (rule 2): a player's own; for the GM one
/// power's, or every great power's.
pub async fn budget(app: &App, account: &Account, id: GameId, power: Option<&str>) -> ApiResult<Budgets> {
    let LoadedGame {
        game,
        variant: v,
        state,
    } = games::read(app, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    if !v.has_minors() {
        return Err(ApiError::unprocessable(NO_DP));
    }
    let list = match (&role, power) {
        (Role::Gm, None) => dp::budgets(&v, &state),
        _ => {
            let name = acting_power(&role, power, &v)?;
            let p = v
                .find_power(&name)
                .ok_or_else(|| ApiError::unprocessable("unknown power"))?;
            vec![dp::budget(&v, &state, p)]
        }
    };
    Ok(Budgets {
        game: id,
        seq: game.seq,
        phase: state.phase.code(),
        budgets: list
            .iter()
            .map(|b| BudgetLine {
                power: v.power(b.power).name.clone(),
                total: b.total,
                lines: b.lines.clone(),
                summary: b.summary(),
            })
            .collect(),
    })
}

/// The GM's bid report. For a processed phase (`seq`), the report stored with its
/// result; for the current phase (no `seq`), how the bids would resolve if the phase
/// were processed now, with the orders as they stand.
pub async fn report(app: &App, account: &Account, id: GameId, seq: Option<PhaseSeq>) -> ApiResult<BidReport> {
    let game = games::load(&app.db.read, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::coded(ErrorCode::GmOnly, "only the game's GM can do that"));
    }
    let v = game.variant(app).await?;
    if !v.has_minors() {
        return Err(ApiError::unprocessable(NO_DP));
    }
    match seq.filter(|&s| s != game.seq) {
        Some(seq) => {
            let row = store::phases::get(&app.db.read, Table::Phases, id, seq)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("game {id} has no processed phase {seq}")))?;
            Ok(BidReport {
                game: id,
                seq,
                phase: row.phase,
                processed: true,
                report: row.bid_report,
            })
        }
        None => {
            let loaded = LoadedGame::of(app, game).await?;
            let mut tx = app.db.read.begin().await?;
            let input = phase_input(&mut tx, &v, &loaded.game, loaded.state).await?;
            tx.rollback().await?;
            // Judged as processing would judge it now, so the preview cannot differ; on
            // the job pool, as processing is.
            let phase = input.state.phase.code();
            let report = crate::services::processing::judge_on_pool(app, &v, input, |v, judged| {
                judged.bid_report.map(|r| r.text(v))
            })
            .await?;
            Ok(BidReport {
                game: id,
                seq: loaded.game.seq,
                phase,
                processed: false,
                report,
            })
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
            .find(|u| v.is_minor(u.power))
            .expect("1936 starts with minor units")
    }

    #[test]
    fn standard_has_no_dp() {
        let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
        assert!(!v.has_minors());
        assert!(v1936().has_minors());
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
