//! The sandbox: any orders, for any units, judged on the game's current position by the
//! engine's one phase pipeline (`judge_phase`), and the result drawn. Nothing is stored
//! and nothing is shown to anyone but the one who asked: a player or an observer tries
//! out a plan, or a minor power's orders (1936, 1648) set by hand, and sees the
//! adjudicator's reasons.

use std::time::Duration;

use chancery_engine::json::unit_text;
use chancery_engine::order::OrderKind;
use chancery_engine::parse::parse_order_line;
use chancery_engine::phase::judge_phase;
use chancery_engine::validate::Validator;
use chancery_engine::{GameState, Order, PhaseKind, PowerId, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::jobs::Weight;
use crate::limits::{MAX_ORDERS, MAX_ORDER_CHARS};
use crate::model::{Account, GameId};
use crate::services::games::{self, role_of, Role};
use crate::services::maps;
use crate::App;

/// How long a sandbox request waits for the job pool.
const BUDGET: Duration = Duration::from_secs(10);

/// Orders to try on the current position.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SandboxRequest {
    /// One order a line, for any unit on the map (`A par - bur`); the power is the
    /// unit's, or the one written before it (`France: Build A par`, `Italy: Waive`).
    /// Units without an order hold; in variants with minor powers, a minor unit takes
    /// the order given to it here (no bids are judged).
    #[schema(example = json!(["A par - bur", "A mar S A par - bur", "Germany: A mun - bur"]))]
    pub orders: Vec<String>,
}

/// One unit's (or adjustment order's) order and outcome.
#[derive(Serialize, ToSchema, Debug)]
pub struct SandboxResult {
    pub power: String,
    /// The unit (`A par`); empty for a waived build, which stands for no unit.
    pub unit: String,
    /// The order judged, in the engine's notation; none when the unit had no order.
    pub order: Option<String>,
    pub succeeded: bool,
    /// The engine's reason (`bounced: 1 against 2 from Munich`).
    pub outcome: String,
}

/// An order the engine would not take, with its reason.
#[derive(Serialize, ToSchema, Debug)]
pub struct Refused {
    pub order: String,
    pub error: String,
}

/// What the orders would have done.
#[derive(Serialize, ToSchema, Debug)]
pub struct SandboxOutcome {
    /// The phase judged (`Spring 1901 movement`).
    pub phase: String,
    /// The phase the game would go on to.
    pub next_phase: String,
    pub results: Vec<SandboxResult>,
    pub refused: Vec<Refused>,
    /// The great power that would have won, if any.
    pub winner: Option<String>,
    /// The map with the orders and their results, as an SVG document (no legend: the
    /// page's own is under it).
    pub svg: String,
}

/// The power of a line without one: the unit's owner, or a build site's owner.
fn power_of(state: &GameState, order: &Order) -> Option<PowerId> {
    let p = order.unit.location.province;
    if let OrderKind::Build { .. } = order.kind {
        return state.owners.get(p as usize).copied().flatten();
    }
    let dislodged = state.phase.kind == PhaseKind::Retreat;
    let mut here: Vec<chancery_engine::Unit> = if dislodged {
        state
            .dislodged
            .iter()
            .map(|d| d.unit)
            .filter(|u| u.location.province == p)
            .collect()
    } else {
        state
            .units
            .iter()
            .copied()
            .filter(|u| u.location.province == p)
            .collect()
    };
    if let Some(k) = order.unit.kind {
        here.sort_by_key(|u| u.kind != k);
    }
    here.first().map(|u| u.power)
}

/// Reads and checks the lines: the orders the engine takes, and the others with why.
pub fn read_orders(v: &Variant, state: &GameState, lines: &[String]) -> (Vec<Order>, Vec<Refused>) {
    let mut x = Validator::new();
    x.index(v, state);
    let mut orders = Vec::with_capacity(lines.len());
    let mut refused = Vec::new();
    for line in lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        let read = parse_order_line(v, line).and_then(|(power, order)| {
            let power = match power.or_else(|| power_of(state, &order)) {
                Some(p) => p,
                None if order.kind == OrderKind::Waive => {
                    return Err(chancery_engine::OrderError::Other(
                        "say whose build is waived: `Power: Waive`".into(),
                    ))
                }
                None => {
                    return Err(chancery_engine::OrderError::Other(format!(
                        "no unit in {} to order",
                        v.province(order.unit.location.province).name
                    )))
                }
            };
            x.validate(v, state, &Order { power, ..order })
        });
        match read {
            Ok(o) => orders.push(o),
            Err(e) => refused.push(Refused {
                order: line.to_string(),
                error: e.to_string(),
            }),
        }
    }
    (orders, refused)
}

/// Judges `req` on game `id`'s current position for anyone who may follow the game.
pub async fn try_orders(app: &App, account: &Account, id: GameId, req: SandboxRequest) -> ApiResult<SandboxOutcome> {
    if req.orders.len() > MAX_ORDERS {
        return Err(ApiError::unprocessable(format!(
            "at most {MAX_ORDERS} orders at once; {} were sent",
            req.orders.len()
        )));
    }
    if let Some(long) = req.orders.iter().find(|o| o.chars().count() > MAX_ORDER_CHARS) {
        return Err(ApiError::unprocessable(format!(
            "an order is longer than {MAX_ORDER_CHARS} characters: `{}…`",
            long.chars().take(40).collect::<String>()
        )));
    }
    let loaded = games::read(app, id).await?;
    let role = role_of(&app.db.read, &loaded.game, Some(account)).await?;
    if role == Role::Visitor {
        return Err(ApiError::forbidden(
            "the sandbox is for the game's players, observers and GM: follow the game first",
        ));
    }
    let map = loaded.map(app)?;
    let games::LoadedGame { variant: v, state, .. } = loaded;
    let judged_on = state.clone();
    let (v2, lines) = (v.clone(), req.orders);
    let (result, refused) = app
        .jobs
        .run(Weight::Quick, BUDGET, move || {
            let (orders, refused) = read_orders(&v2, &judged_on, &lines);
            (judge_phase(&v2, &judged_on, &orders, &[]), refused)
        })
        .await
        .map_err(|e| app.jobs.refusal(e, "judging the sandbox"))?;
    let adj = &result.adjudication;
    let svg = maps::draw(app, &map, &state, Some(adj), false, maps::PAGE_WAITS_FOR_SHAPING).await?;
    let results = adj
        .results
        .iter()
        .map(|r| SandboxResult {
            power: v.power(r.power()).name.clone(),
            unit: r.unit.map(|u| unit_text(&v, &u)).unwrap_or_default(),
            order: r.order.as_ref().map(|o| o.display(&v).to_string()),
            succeeded: r.outcome.succeeded(),
            outcome: r.reason(&v),
        })
        .collect();
    Ok(SandboxOutcome {
        phase: state.phase.to_string(),
        next_phase: adj.next.phase.to_string(),
        results,
        refused,
        winner: adj.winner.map(|w| v.power(w).name.clone()),
        svg,
    })
}
