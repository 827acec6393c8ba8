//! Where a unit may go and what it may do, asked of the engine's own order check: the
//! game page lights these on the map when the unit is selected, so that it offers
//! exactly the orders the order API would take, in every variant, without a rule of
//! its own.

use chancery_engine::order::{OrderKind, UnitRef};
use chancery_engine::parse::{parse_order, parse_order_line};
use chancery_engine::rules::Rule;
use chancery_engine::state::PhaseKind;
use chancery_engine::validate::{retreat_options, Validator};
use chancery_engine::variant::{Location, ProvinceId, UnitKind};
use chancery_engine::{GameState, Order, PowerId, Unit, Variant};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};

/// A move of another unit that the selected unit may support or convoy.
#[derive(Serialize, ToSchema, Debug, PartialEq, Eq)]
pub struct Assisted {
    /// The unit supported or convoyed (`A mun`).
    pub unit: String,
    /// Where it moves (`sil`, `stp/nc`).
    pub to: String,
}

/// Everything one unit may be ordered to do in the current phase.
#[derive(Serialize, ToSchema, Debug, Default)]
pub struct Targets {
    /// The unit (`A ber`), as the map's `data-unit` names it.
    pub unit: String,
    /// Movement: the spaces it may move to, by land or by a convoy the fleets on the
    /// board could make; retreats: where it may retreat.
    pub moves: Vec<String>,
    /// Movement: the units it may support where they stand.
    pub support_holds: Vec<String>,
    /// Movement: the moves it may support.
    pub supports: Vec<Assisted>,
    /// Movement, a fleet where convoys exist: the army moves it may convoy.
    pub convoys: Vec<Assisted>,
    /// Original 1958: whether it may board (or take aboard) where it stands.
    pub board_here: bool,
    /// Original 1958: the spaces it may move to in order to board.
    pub boards: Vec<String>,
    /// Whether the variant has convoys at all (Original 1958 has none).
    pub convoys_exist: bool,
    /// Whether the variant has boarding.
    pub boarding: bool,
}

fn unit_text(v: &Variant, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), v.location_name(u.location))
}

fn unit_ref(u: &Unit) -> UnitRef {
    UnitRef {
        kind: Some(u.kind),
        location: u.location,
    }
}

/// Every place a unit could be ordered to: each space, and each coast of a space that
/// has several.
fn locations(v: &Variant) -> Vec<Location> {
    let mut out = Vec::with_capacity(v.provinces.len() * 2);
    for (i, p) in v.provinces.iter().enumerate() {
        out.push(Location::new(i as ProvinceId, 0));
        for c in 1..=p.coasts.len() {
            out.push(Location::new(i as ProvinceId, c as u8));
        }
    }
    out
}

/// The unit named by `text` (`A ber`, `ber`, `F stp/sc`), which `power` must command:
/// on the board, or in a retreat phase waiting to retreat.
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

/// What `unit` may do, by trying every order of the phase through the validator.
pub fn targets(v: &Variant, state: &GameState, power: PowerId, unit: &Unit) -> Targets {
    let mut out = Targets {
        unit: unit_text(v, unit),
        convoys_exist: !v.rule_on(Rule::NoConvoys),
        boarding: v.rule_on(Rule::Boarding),
        ..Targets::default()
    };
    match state.phase.kind {
        PhaseKind::Retreat => {
            if let Some(i) = state.dislodged.iter().position(|d| d.unit == *unit) {
                out.moves = retreat_options(v, state, i)
                    .into_iter()
                    .map(|l| v.location_name(l))
                    .collect();
            }
            return out;
        }
        PhaseKind::Adjustment => return out,
        PhaseKind::Movement => {}
    }
    let mut x = Validator::new();
    x.index(v, state);
    let me = unit_ref(unit);
    let mut ok = |kind: OrderKind| {
        x.validate(v, state, &Order { power, unit: me, kind })
            .ok()
            .map(|o| o.kind)
    };
    let all = locations(v);
    let push = |list: &mut Vec<String>, l: Location| {
        let name = v.location_name(l);
        if !list.contains(&name) {
            list.push(name);
        }
    };
    for &to in &all {
        if to.province == unit.location.province {
            continue;
        }
        if let Some(OrderKind::Move { to, .. }) = ok(OrderKind::Move { to, via_convoy: false }) {
            push(&mut out.moves, to);
        }
        if out.boarding {
            if let Some(OrderKind::Board { to: Some(to), .. }) = ok(OrderKind::Board {
                to: Some(to),
                with: None,
            }) {
                push(&mut out.boards, to);
            }
        }
    }
    if out.boarding {
        out.board_here = ok(OrderKind::Board { to: None, with: None }).is_some();
    }
    for other in state.units.iter().filter(|u| *u != unit) {
        let them = unit_ref(other);
        let name = unit_text(v, other);
        if ok(OrderKind::SupportHold { unit: them }).is_some() {
            out.support_holds.push(name.clone());
        }
        let convoys = out.convoys_exist && unit.kind == UnitKind::Fleet && other.kind == UnitKind::Army;
        for &to in &all {
            if to.province == other.location.province {
                continue;
            }
            if let Some(OrderKind::SupportMove { to, .. }) = ok(OrderKind::SupportMove { unit: them, to }) {
                let to = v.location_name(to);
                if !out.supports.iter().any(|a| a.unit == name && a.to == to) {
                    out.supports.push(Assisted { unit: name.clone(), to });
                }
            }
            if convoys {
                if let Some(OrderKind::Convoy { to, .. }) = ok(OrderKind::Convoy { army: them, to }) {
                    let to = v.location_name(to);
                    if !out.convoys.iter().any(|a| a.unit == name && a.to == to) {
                        out.convoys.push(Assisted { unit: name.clone(), to });
                    }
                }
            }
        }
    }
    out
}
