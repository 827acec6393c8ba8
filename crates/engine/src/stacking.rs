//! Stacks of one power's units in its capital and naval bases (`rule stacking`,
//! Original 1958 rules 3 to 5), the capital in force after the home capital is lost,
//! and where a power may build under those rules. docs/rules-1958.md gives the
//! readings taken where the rule page is silent.

use crate::order::{Order, OrderError, OrderKind};
use crate::rules::Rule;
use crate::state::{GameState, Unit};
use crate::variant::{Location, PowerId, ProvinceId, Terrain, UnitKind, Variant};

/// The capital the variant gives `power`, if any.
pub fn home_capital(v: &Variant, power: PowerId) -> Option<ProvinceId> {
    (0..v.provinces.len() as ProvinceId).find(|&p| v.province(p).capital == Some(power))
}

/// The capital in force: the home capital while the power owns it (rule 5: it becomes
/// the capital again automatically when retaken); otherwise the home centre the power
/// designated, while it still owns it; otherwise the first home centre it still owns,
/// in the variant file's order. None for a power without a capital or home centres.
pub fn capital(v: &Variant, state: &GameState, power: PowerId) -> Option<ProvinceId> {
    let home = home_capital(v, power)?;
    let owned = |p: ProvinceId| state.owners.get(p as usize).copied().flatten() == Some(power);
    if owned(home) {
        return Some(home);
    }
    let designated = state
        .capitals
        .iter()
        .find(|(p, c)| *p == power && v.is_home_of(*c, power) && owned(*c))
        .map(|(_, c)| *c);
    designated.or_else(|| {
        (0..v.provinces.len() as ProvinceId).find(|&p| v.province(p).sc && v.is_home_of(p, power) && owned(p))
    })
}

/// The location of `power`'s naval base in province `p`, if `p` is one (the coast is
/// set for a base on one coast of a split-coast space, as St Petersburg's south coast).
pub fn naval_base(v: &Variant, p: ProvinceId, power: PowerId) -> Option<Location> {
    match v.province(p).naval_base {
        Some((owner, coast)) if owner == power => Some(Location::new(p, coast)),
        _ => None,
    }
}

/// What a unit moving to `to` meets there, under the stacking rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The space is empty, or holds another power's units, or a unit of its own that it
    /// may not join: an ordinary move (one unit per space).
    Ordinary,
    /// It joins its own units there: a stack in its capital or naval base, or a fleet
    /// beside a St Petersburg naval-base stack on the other coast (rule 4).
    Joins,
    /// Rule 4 forbids the move.
    Forbidden(&'static str),
}

/// How a unit of `power` and `kind` moving to `to` arrives among `here`, the units in
/// that space at the start of the turn (the mover itself excluded).
pub fn arrival(v: &Variant, state: &GameState, power: PowerId, kind: UnitKind, to: Location, here: &[Unit]) -> Arrival {
    if !v.rule_on(Rule::Stacking) || here.is_empty() || here.iter().any(|u| u.power != power) {
        return Arrival::Ordinary;
    }
    let fleets = here.iter().filter(|u| u.kind == UnitKind::Fleet).count();
    let armies = here.len() - fleets;
    match kind {
        UnitKind::Army => {
            if capital(v, state, power) != Some(to.province) {
                return Arrival::Ordinary;
            }
            if fleets > 0 {
                return Arrival::Forbidden(
                    "an army may not move into its own capital while one of its own fleets is there (rule 4)",
                );
            }
            Arrival::Joins
        }
        UnitKind::Fleet => {
            let Some(base) = naval_base(v, to.province, power) else {
                return Arrival::Ordinary;
            };
            if base.coast == 0 || base.coast == to.coast {
                if armies > 0 {
                    return Arrival::Forbidden(
                        "a fleet may not move into its own naval base while one of its own armies is there (rule 4)",
                    );
                }
                return Arrival::Joins;
            }
            // The other coast of a split-coast base (St Petersburg north coast): open
            // to one fleet while the base holds fleets of its own (rule 4).
            let base_fleets = here
                .iter()
                .any(|u| u.kind == UnitKind::Fleet && u.location.coast == base.coast);
            let coast_taken = here
                .iter()
                .any(|u| u.kind == UnitKind::Fleet && u.location.coast == to.coast);
            if base_fleets && !coast_taken {
                Arrival::Joins
            } else {
                Arrival::Ordinary
            }
        }
    }
}

/// Under the stacking rules: where `power` may build a unit of `kind` (armies in the
/// capital in force, fleets in a home naval base it owns), or why not.
pub fn build_site(
    v: &Variant,
    state: &GameState,
    power: PowerId,
    kind: UnitKind,
    at: Location,
) -> Result<Location, String> {
    let p = at.province;
    let prov = v.province(p);
    let owned = state.owners[p as usize] == Some(power);
    match kind {
        UnitKind::Army => {
            let cap = capital(v, state, power);
            if cap != Some(p) {
                return Err(match cap {
                    Some(c) => format!(
                        "armies are built only in the capital, which is {} (rule 5)",
                        v.province(c).name
                    ),
                    None => {
                        "armies are built only in the capital, and no home centre is left to be one (rule 5)".into()
                    }
                });
            }
            Ok(Location::province(p))
        }
        UnitKind::Fleet => {
            let Some(base) = naval_base(v, p, power) else {
                let bases: Vec<String> = (0..v.provinces.len() as ProvinceId)
                    .filter(|&q| naval_base(v, q, power).is_some() && state.owners[q as usize] == Some(power))
                    .map(|q| v.province(q).name.clone())
                    .collect();
                return Err(if bases.is_empty() {
                    "fleets are built only in a naval base, and none is left to you until you retake one (rule 5)"
                        .into()
                } else {
                    format!("fleets are built only in a naval base: {} (rule 5)", bases.join(" or "))
                });
            };
            if !owned {
                return Err(format!("you do not control {}", prov.name));
            }
            if prov.terrain != Terrain::Coast {
                return Err(format!("a fleet cannot be built in {}, which is inland", prov.name));
            }
            if base.coast != 0 && at.coast != 0 && at.coast != base.coast {
                return Err(format!(
                    "the naval base of {} is its {} coast; fleets are built there (rule 5)",
                    prov.name,
                    v.coast_name(base).unwrap_or("")
                ));
            }
            Ok(if base.coast != 0 { base } else { at })
        }
    }
}

/// Provinces where `power` could build now under the stacking rules (own units there
/// do not stop a build, rule 4).
pub fn build_provinces(v: &Variant, state: &GameState, power: PowerId) -> Vec<ProvinceId> {
    let foreign = |p: ProvinceId| state.units.iter().any(|u| u.location.province == p && u.power != power);
    let mut out: Vec<ProvinceId> = Vec::new();
    if let Some(c) = capital(v, state, power) {
        if state.owners[c as usize] == Some(power) && !foreign(c) {
            out.push(c);
        }
    }
    for p in 0..v.provinces.len() as ProvinceId {
        if naval_base(v, p, power).is_some()
            && state.owners[p as usize] == Some(power)
            && !foreign(p)
            && !out.contains(&p)
        {
            out.push(p);
        }
    }
    out
}

/// Rule 3: no more than one unit of a stack may support the same unit. Every later
/// support from the same space for the same unit is void.
pub(crate) fn void_duplicate_supports(
    v: &Variant,
    units: &[Unit],
    assigned: &mut [Option<Order>],
    void: &mut [Option<(Order, OrderError)>],
) {
    if !v.rule_on(Rule::Stacking) {
        return;
    }
    let target = |o: &Option<Order>| match o.map(|o| o.kind) {
        Some(OrderKind::SupportHold { unit }) | Some(OrderKind::SupportMove { unit, .. }) => {
            Some(unit.location.province)
        }
        _ => None,
    };
    for j in 0..units.len() {
        let Some(t) = target(&assigned[j]) else { continue };
        let earlier =
            (0..j).any(|i| units[i].location.province == units[j].location.province && target(&assigned[i]) == Some(t));
        if earlier {
            let order = assigned[j].take().expect("a support order");
            void[j] = Some((
                order,
                OrderError::Other(format!(
                    "another unit in {} already supports the unit in {}; a stack gives one support to a unit (rule 3)",
                    v.province(units[j].location.province).name,
                    v.province(t).name
                )),
            ));
        }
    }
}
