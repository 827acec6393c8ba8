//! Where an ordered unit would arrive: the one reading of a move's or a retreat's
//! target (army to land, fleet to a coast it can reach, the coast filled in when only
//! one is possible) that validation and the Original 1958 checks share.

use crate::order::OrderError;
use crate::variant::{Location, ProvinceId, Terrain, UnitKind, Variant};

pub(crate) fn name(v: &Variant, p: ProvinceId) -> String {
    v.province(p).name.clone()
}

pub(crate) fn loc_name(v: &Variant, l: Location) -> String {
    match v.coast_name(l) {
        Some(c) => format!("{} ({c})", v.province(l.province).name),
        None => v.province(l.province).name.clone(),
    }
}

/// Where a unit of `kind` at `from` would arrive when ordered to `to`, or why not.
pub fn destination(v: &Variant, kind: UnitKind, from: Location, to: Location) -> Result<Location, OrderError> {
    let tp = v.province(to.province);
    if to.province == from.province {
        return Err(OrderError::MoveToSelf {
            location: name(v, from.province),
        });
    }
    match kind {
        UnitKind::Army => {
            if !v.army_can_stand(to.province) {
                return Err(OrderError::ArmyToSea {
                    to: name(v, to.province),
                });
            }
            Ok(Location::province(to.province))
        }
        UnitKind::Fleet => {
            if tp.terrain == Terrain::Land || tp.terrain == Terrain::Impassable {
                return Err(OrderError::FleetToLand {
                    to: name(v, to.province),
                });
            }
            let mut reachable = v
                .fleet_neighbours(from)
                .iter()
                .copied()
                .filter(|l| l.province == to.province);
            let Some(first) = reachable.next() else {
                return Err(OrderError::NotAdjacent {
                    from: loc_name(v, from),
                    to: name(v, to.province),
                    kind: "fleets",
                });
            };
            let more = reachable.next().is_some();
            if tp.coasts.is_empty() {
                return Ok(Location::province(to.province));
            }
            if to.coast != 0 {
                if v.can_move(UnitKind::Fleet, from, to) {
                    return Ok(to);
                }
                return Err(OrderError::CoastUnreachable {
                    from: loc_name(v, from),
                    to: loc_name(v, to),
                });
            }
            if !more {
                // DATC 6.B.2: the only reachable coast is meant.
                return Ok(first);
            }
            let reachable: Vec<Location> = v
                .fleet_neighbours(from)
                .iter()
                .copied()
                .filter(|l| l.province == to.province)
                .collect();
            Err(OrderError::CoastNeeded {
                to: tp.name.clone(),
                coasts: reachable
                    .iter()
                    .filter_map(|l| v.coast_name(*l).map(str::to_string))
                    .collect(),
            })
        }
    }
}
