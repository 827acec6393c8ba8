//! Where a unit may go and what it may do, asked of the engine's own order check: the
//! game page lights these on the map when the unit is selected, so that it offers
//! exactly the orders the order API would take, in every variant, without a rule of
//! its own.

use chancery_engine::options::{Lister, Scope};
use chancery_engine::order::{OrderKind, UnitRef};
use chancery_engine::parse::{parse_order, parse_order_line};
use chancery_engine::rules::Rule;
use chancery_engine::state::PhaseKind;
use chancery_engine::variant::{Location, UnitKind};
use chancery_engine::{GameState, PowerId, Unit, Variant};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};

/// A place the selected unit may go to, with the finished order that sends it there.
#[derive(Serialize, ToSchema, Debug, PartialEq, Eq)]
pub struct Place {
    /// The space (`sil`, `stp/nc`), as the map's `data-space` names it, with the coast.
    pub to: String,
    /// The order, in the engine's canonical text (`A ber - sil`).
    pub order: String,
}

/// A unit the selected unit may support where it stands.
#[derive(Serialize, ToSchema, Debug, PartialEq, Eq)]
pub struct Held {
    /// The unit supported (`F kie`).
    pub unit: String,
    /// The order (`A ber S F kie`).
    pub order: String,
}

/// A move of another unit that the selected unit may support or convoy.
#[derive(Serialize, ToSchema, Debug, PartialEq, Eq)]
pub struct Assisted {
    /// The unit supported or convoyed (`A mun`).
    pub unit: String,
    /// Where it moves (`sil`, `stp/nc`).
    pub to: String,
    /// The order (`A ber S A mun - sil`).
    pub order: String,
}

/// Everything one unit may be ordered to do in the current phase, each as the finished
/// order the engine lists (`chancery_engine::options`): a client sends an order's text
/// as it is and composes none.
#[derive(Serialize, ToSchema, Debug, Default)]
pub struct Targets {
    /// The unit (`A ber`), as the map's `data-unit` names it.
    pub unit: String,
    /// Movement: the order to hold.
    pub hold: Option<String>,
    /// Retreats: the order to disband.
    pub disband: Option<String>,
    /// Movement: the spaces it may move to, by land or by a convoy the fleets on the
    /// map could make; retreats: where it may retreat.
    pub moves: Vec<Place>,
    /// Movement: the units it may support where they stand.
    pub support_holds: Vec<Held>,
    /// Movement: the moves it may support.
    pub supports: Vec<Assisted>,
    /// Movement, a fleet where convoys exist: the army moves it may convoy.
    pub convoys: Vec<Assisted>,
    /// Original 1958: the order to board (or take aboard) where it stands, if it may.
    pub board_here: Option<String>,
    /// Original 1958: the spaces it may move to in order to board.
    pub boards: Vec<Place>,
    /// Whether the variant has convoys at all (Original 1958 has none).
    pub convoys_exist: bool,
    /// Whether the variant has boarding.
    pub boarding: bool,
}

fn unit_text(v: &Variant, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), v.location_name(u.location))
}

/// The unit named by `text` (`A ber`, `ber`, `F stp/sc`), which `power` must command:
/// on the map, or in a retreat phase waiting to retreat.
pub fn find_unit(v: &Variant, state: &GameState, power: PowerId, text: &str) -> ApiResult<Unit> {
    let order = parse_order(v, power, &format!("{text} H")).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let p = order.unit.location.province;
    let pool: Vec<Unit> = if state.phase.kind == PhaseKind::Retreat {
        state.dislodged.iter().map(|d| d.unit).collect()
    } else {
        state.units.clone()
    };
    let here: Vec<&Unit> = pool.iter().filter(|u| u.location.province == p).collect();
    let unit = here
        .iter()
        .find(|u| order.unit.kind.is_none_or(|k| k == u.kind) && v.controls(power, u.power))
        .or_else(|| here.first())
        .copied()
        .ok_or_else(|| {
            ApiError::unprocessable(format!(
                "there is no unit {}in {}",
                if state.phase.kind == PhaseKind::Retreat {
                    "waiting to retreat "
                } else {
                    ""
                },
                v.province(p).name
            ))
        })?;
    if !v.controls(power, unit.power) {
        return Err(ApiError::unprocessable(format!(
            "the {} in {} is {}'s, not {}'s",
            if unit.kind == UnitKind::Army { "army" } else { "fleet" },
            v.province(p).name,
            v.power(unit.power).name,
            v.power(power).name
        )));
    }
    Ok(*unit)
}

/// The unit named by `text`, whoever's it is (the sandbox orders any unit).
pub fn find_any_unit(v: &Variant, state: &GameState, text: &str) -> ApiResult<Unit> {
    let (_, order) = parse_order_line(v, &format!("{text} H")).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let owner = state
        .units
        .iter()
        .chain(state.dislodged.iter().map(|d| &d.unit))
        .find(|u| u.location.province == order.unit.location.province)
        .map(|u| u.power)
        .ok_or_else(|| {
            ApiError::unprocessable(format!(
                "there is no unit in {}",
                v.province(order.unit.location.province).name
            ))
        })?;
    find_unit(v, state, owner, text)
}

/// What `unit` may do: the engine's list of its legal orders (`options::Lister`, the
/// plausible ones: a move to a neighbour is not offered again "via convoy"), sorted
/// into the choices the game page offers.
pub fn targets(v: &Variant, state: &GameState, power: PowerId, unit: &Unit) -> Targets {
    let mut out = Targets {
        unit: unit_text(v, unit),
        convoys_exist: !v.rule_on(Rule::NoConvoys),
        boarding: v.rule_on(Rule::Boarding),
        ..Targets::default()
    };
    let mut lister = Lister::new(v, state, Scope::Plausible);
    for order in lister.unit_orders(power, unit) {
        let text = order.display(v).to_string();
        let place = |to: Location| Place {
            to: v.location_name(to),
            order: text.clone(),
        };
        match order.kind {
            OrderKind::Hold => out.hold = Some(text),
            OrderKind::Disband => out.disband = Some(text),
            OrderKind::Move { to, .. } | OrderKind::Retreat { to } => {
                if !out.moves.iter().any(|p| p.to == v.location_name(to)) {
                    out.moves.push(place(to));
                }
            }
            OrderKind::Board { to: None, .. } => out.board_here = Some(text),
            OrderKind::Board { to: Some(to), .. } => {
                if !out.boards.iter().any(|p| p.to == v.location_name(to)) {
                    out.boards.push(place(to));
                }
            }
            OrderKind::SupportHold { unit: them } => out.support_holds.push(Held {
                unit: unit_ref_text(v, &them),
                order: text,
            }),
            OrderKind::SupportMove { unit: them, to } => out.supports.push(Assisted {
                unit: unit_ref_text(v, &them),
                to: v.location_name(to),
                order: text,
            }),
            OrderKind::Convoy { army, to } => out.convoys.push(Assisted {
                unit: unit_ref_text(v, &army),
                to: v.location_name(to),
                order: text,
            }),
            OrderKind::Build { .. } | OrderKind::Remove | OrderKind::Waive => {}
        }
    }
    out
}

/// A unit an order names (`A mun`), as the map's `data-unit` names it.
fn unit_ref_text(v: &Variant, u: &UnitRef) -> String {
    let letter = u.kind.map_or('A', |k| k.letter());
    format!("{letter} {}", v.location_name(u.location))
}
