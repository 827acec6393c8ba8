//! Writes a position, its orders and bids (and, if given, the judged result as the
//! expected sections) as a case in the text format that `format.rs` reads: a game's
//! phase turned into a test case, and the reading checked against the writing
//! (`tests/write.rs`: what is written reads back as the same position).

use std::fmt::Write as _;

use chancery_engine::adjudicate::update_owners;
use chancery_engine::dp::Bid;
use chancery_engine::phase::PhaseResult;
use chancery_engine::state::{Carried, GameState, PhaseKind, Unit};
use chancery_engine::{Location, Order, PowerId, ProvinceId, Season, UnitKind, Variant};

/// What a case gives the judge: the position, the orders and the DP bids as submitted.
#[derive(Clone, Debug, PartialEq)]
pub struct CasePosition {
    pub state: GameState,
    pub orders: Vec<Order>,
    pub bids: Vec<Bid>,
}

/// The case `name` of `v` for `position`, with `result` (the phase judged) as its
/// expected sections, or none when it is left out. Refused when the position holds what
/// the format cannot say: a relocated capital (Original 1958), a standoff in an
/// occupied space, or an attacker that could not have come from where it is said to.
pub fn write_case(
    v: &Variant,
    name: &str,
    position: &CasePosition,
    result: Option<&PhaseResult>,
) -> Result<String, String> {
    let state = &position.state;
    if !state.capitals.is_empty() {
        return Err("a relocated capital cannot be written in a case".into());
    }
    let mut out = String::new();
    let w = &mut out;
    // Writing to a String cannot fail.
    let _ = writeln!(w, "VARIANT_ALL {}", v.id);
    let _ = writeln!(w, "CASE {name}");
    let phase = state.phase;
    let season = match (phase.kind, phase.season) {
        (PhaseKind::Adjustment, _) => "Winter",
        (_, Season::Spring) => "Spring",
        (_, Season::Fall) => "Fall",
    };
    let kind = match phase.kind {
        PhaseKind::Movement => "Movement",
        PhaseKind::Retreat => "Retreat",
        PhaseKind::Adjustment => "Adjustment",
    };
    let _ = writeln!(w, "PRESTATE_SETPHASE {season} {}, {kind}", phase.year);
    if !state.disordered.is_empty() {
        let names: Vec<&str> = state.disordered.iter().map(|&p| v.power(p).name.as_str()).collect();
        let _ = writeln!(w, "PRESTATE_CIVIL_DISORDER {}", names.join(", "));
    }
    // The section replaces the starting ownership entirely, so it lists every owner.
    write_owners(v, &state.owners, w);
    let _ = writeln!(w, "PRESTATE");
    write_units(v, &state.units, &state.carried, false, w);
    let dislodged: Vec<Unit> = state.dislodged.iter().map(|d| d.unit).collect();
    if !dislodged.is_empty() || state.carried.iter().any(|c| c.carrier_dislodged) {
        let _ = writeln!(w, "PRESTATE_DISLODGED");
        write_units(v, &dislodged, &state.carried, true, w);
    }
    let results = prior_results(v, state)?;
    if !results.is_empty() {
        let _ = writeln!(w, "PRESTATE_RESULTS");
        for line in results {
            let _ = writeln!(w, "\t{line}");
        }
    }
    let _ = writeln!(w, "ORDERS");
    for o in &position.orders {
        let _ = writeln!(w, "\t{}: {}", v.power(o.power).name, o.display(v));
    }
    for b in &position.bids {
        let _ = writeln!(w, "\t{}: DP {} {}", v.power(b.power).name, b.dp, b.order.display(v));
    }
    if let Some(result) = result {
        write_expected(v, result, w);
    }
    let _ = writeln!(w, "END");
    Ok(out)
}

fn unit_line(v: &Variant, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        v.power(u.power).name,
        u.kind.letter(),
        v.location_name(u.location)
    )
}

fn carried_line(v: &Variant, c: &Carried) -> String {
    let army = unit_line(v, &c.army_unit());
    if c.fleet.power == c.army {
        format!("{army} aboard F {}", v.location_name(c.fleet.location))
    } else {
        format!("{army} aboard {}", unit_line(v, &c.fleet))
    }
}

fn write_units(v: &Variant, units: &[Unit], carried: &[Carried], dislodged: bool, w: &mut String) {
    for u in units {
        let _ = writeln!(w, "\t{}", unit_line(v, u));
    }
    for c in carried.iter().filter(|c| c.carrier_dislodged == dislodged) {
        let _ = writeln!(w, "\t{}", carried_line(v, c));
    }
}

fn write_owners(v: &Variant, owners: &[Option<PowerId>], w: &mut String) {
    let _ = writeln!(w, "PRESTATE_SUPPLYCENTER_OWNERS");
    for (p, owner) in owners.iter().enumerate() {
        if let Some(owner) = owner {
            // The unit letter is a placeholder the reader skips.
            let _ = writeln!(w, "\t{}: A {}", v.power(*owner).name, v.province(p as ProvinceId).abbr);
        }
    }
}

/// The previous movement's results a retreat needs, as the reader takes them (see
/// docs/case-format.md): a successful move from where each dislodging unit came over
/// land, and two failed moves into each standoff space.
fn prior_results(v: &Variant, state: &GameState) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    // A power to write the lines in: the reader reads only the moves.
    let anyone = &v.power(0).name;
    for d in &state.dislodged {
        let Some(from) = d.attacker_from else { continue };
        let to = d.unit.location.province;
        // An army, or a fleet from the space or one of its coasts.
        let coasts = (0..=v.province(from).coasts.len() as u8).map(|c| Location::new(from, c));
        let (kind, at) = std::iter::once((UnitKind::Army, Location::province(from)))
            .chain(coasts.map(|l| (UnitKind::Fleet, l)))
            .find(|&(k, l)| v.can_reach_province(k, l, to))
            .ok_or_else(|| {
                format!(
                    "{} cannot have been dislodged by a unit from {}, which does not border it",
                    v.province(to).name,
                    v.province(from).name
                )
            })?;
        let by = state
            .units
            .iter()
            .find(|u| u.location.province == to)
            .map_or(anyone, |u| &v.power(u.power).name);
        lines.push(format!(
            "SUCCESS: {by}: {} {} - {}",
            kind.letter(),
            v.location_name(at),
            v.province(to).abbr
        ));
    }
    for &p in &state.standoffs {
        let occupied = state
            .units
            .iter()
            .chain(state.dislodged.iter().map(|d| &d.unit))
            .any(|u| u.location.province == p);
        if occupied {
            return Err(format!(
                "a standoff in {}, which is occupied, cannot be written",
                v.province(p).name
            ));
        }
        // Any neighbour will do: the reader counts the failed moves into the space.
        let (kind, from) = v
            .army_neighbours(p)
            .first()
            .map(|&n| (UnitKind::Army, n))
            .or_else(|| {
                (0..v.provinces.len() as ProvinceId)
                    .find(|&n| v.can_reach_province(UnitKind::Fleet, Location::province(n), p))
                    .map(|n| (UnitKind::Fleet, n))
            })
            .ok_or_else(|| {
                format!(
                    "{} borders no space, so no standoff there can be written",
                    v.province(p).name
                )
            })?;
        for _ in 0..2 {
            lines.push(format!(
                "FAILURE: {anyone}: {} {} - {}",
                kind.letter(),
                v.province(from).abbr,
                v.province(p).abbr
            ));
        }
    }
    Ok(lines)
}

/// The judged result as the expected sections: the next position's units, the units
/// dislodged, the owners after the centre count, civil disorder and the winner.
fn write_expected(v: &Variant, result: &PhaseResult, w: &mut String) {
    let next = &result.adjudication.next;
    let _ = writeln!(w, "POSTSTATE");
    write_units(v, &next.units, &next.carried, false, w);
    let dislodged: Vec<Unit> = result
        .adjudication
        .results
        .iter()
        .filter(|r| r.dislodged_by.is_some())
        .filter_map(|r| r.unit)
        .collect();
    if !dislodged.is_empty() || next.carried.iter().any(|c| c.carrier_dislodged) {
        let _ = writeln!(w, "POSTSTATE_DISLODGED");
        write_units(v, &dislodged, &next.carried, true, w);
    }
    let mut owned = next.clone();
    update_owners(v, &mut owned);
    let _ = writeln!(w, "POSTSTATE_SUPPLYCENTER_OWNERS");
    for (p, owner) in owned.owners.iter().enumerate() {
        if let Some(owner) = owner {
            let _ = writeln!(w, "\t{}: A {}", v.power(*owner).name, v.province(p as ProvinceId).abbr);
        }
    }
    if v.has_minors() {
        let names: Vec<&str> = next.disordered.iter().map(|&p| v.power(p).name.as_str()).collect();
        let names = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        let _ = writeln!(w, "POSTSTATE_CIVIL_DISORDER {names}");
    }
    let winner = result.adjudication.winner.map_or("none", |p| v.power(p).name.as_str());
    let _ = writeln!(w, "POSTSTATE_WINNER {winner}");
}
