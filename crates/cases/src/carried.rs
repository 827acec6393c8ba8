//! The case-file notation for armies aboard fleets (Original 1958 boarding):
//! `United Kingdom: A nth aboard F nth` (a fleet of the same power) or
//! `France: A eng aboard United Kingdom: F eng` (another power's fleet). Several
//! ordinary lines naming one space write a stack and need no notation of their own.

use chancery_engine::parse::parse_order_line;
use chancery_engine::state::{Carried, Unit};
use chancery_engine::{OrderKind, UnitKind, Variant};

use crate::format::CaseUnit;

/// Reads a line if it names a carried army; None for an ordinary unit line.
/// `dislodged`: the line is in a DISLODGED section, so the fleet is a dislodged unit.
pub(crate) fn parse_carried(v: &Variant, item: &CaseUnit, dislodged: bool) -> Result<Option<Carried>, String> {
    let lower = item.text.to_ascii_lowercase();
    let Some(at) = lower.find(" aboard ") else {
        return Ok(None);
    };
    let army_text = &item.text[..at];
    let fleet_text = item.text[at + " aboard ".len()..].trim();
    let army = crate::unit_lines::parse_unit_text(v, army_text, item.line)?;
    if army.kind != UnitKind::Army {
        return Err(format!("line {}: only an army goes aboard a fleet", item.line));
    }
    let fleet = if fleet_text.contains(':') {
        crate::unit_lines::parse_unit_text(v, fleet_text, item.line)?
    } else {
        let (_, order) = parse_order_line(v, fleet_text).map_err(|e| format!("line {}: {e}", item.line))?;
        if order.kind != OrderKind::Hold || order.unit.kind != Some(UnitKind::Fleet) {
            return Err(format!("line {}: `{fleet_text}` is not a fleet", item.line));
        }
        Unit {
            power: army.power,
            kind: UnitKind::Fleet,
            location: order.unit.location,
        }
    };
    if fleet.kind != UnitKind::Fleet || fleet.location.province != army.location.province {
        return Err(format!(
            "line {}: an army aboard is written in the space of the fleet that carries it",
            item.line
        ));
    }
    Ok(Some(Carried {
        army: army.power,
        fleet,
        carrier_dislodged: dislodged,
    }))
}

/// Splits a section's lines into ordinary units and carried armies.
pub(crate) fn split(v: &Variant, items: &[CaseUnit], dislodged: bool) -> Result<(Vec<Unit>, Vec<Carried>), String> {
    let mut units = Vec::new();
    let mut carried = Vec::new();
    for item in items {
        match parse_carried(v, item, dislodged)? {
            Some(c) => carried.push(c),
            None => units.push(crate::unit_lines::parse_unit_text(v, &item.text, item.line)?),
        }
    }
    Ok((units, carried))
}

fn describe(v: &Variant, c: &Carried) -> String {
    format!(
        "{}: A {} aboard {}: F {}",
        v.power(c.army).name,
        v.location_name(c.army_unit().location),
        v.power(c.fleet.power).name,
        v.location_name(c.fleet.location)
    )
}

fn same(e: &Carried, a: &Carried) -> bool {
    e.army == a.army
        && e.fleet.power == a.fleet.power
        && e.fleet.location.province == a.fleet.location.province
        && (e.fleet.location.coast == 0 || e.fleet.location.coast == a.fleet.location.coast)
}

/// Compares expected and actual carried armies, as `run::compare` does for units.
pub(crate) fn compare(v: &Variant, what: &str, expected: &[Carried], actual: &[Carried], out: &mut Vec<String>) {
    crate::unit_lines::compare_with(what, expected, actual, same, |c| describe(v, c), out);
}
