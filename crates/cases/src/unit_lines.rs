//! A case's unit lines (`Power: A prov`) read against the variant, and the comparison
//! of an expected list with the actual one that every section of units shares (the
//! units, the dislodged units, the armies aboard fleets).

use chancery_engine::parse::parse_order_line;
use chancery_engine::state::Unit;
use chancery_engine::suggest::distance;
use chancery_engine::{OrderKind, PowerId, Variant};

/// A power by name, forgiving one slip of the keyboard (the reference DATC file has
/// "Germnay").
pub(crate) fn power(v: &Variant, name: &str) -> Option<PowerId> {
    v.find_power(name).or_else(|| {
        v.powers
            .iter()
            .position(|p| distance(&p.name, name.trim()) <= 2)
            .map(|i| i as PowerId)
    })
}

pub(crate) fn split_power<'a>(v: &Variant, text: &'a str) -> Result<(PowerId, &'a str), String> {
    if let Some((name, rest)) = text.split_once(':') {
        let p = power(v, name).ok_or_else(|| format!("unknown power `{}`", name.trim()))?;
        return Ok((p, rest.trim()));
    }
    // Tolerate a forgotten colon: `Italy F gol`.
    let (name, rest) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("`{text}` does not start with `Power:`"))?;
    let p = power(v, name).ok_or_else(|| format!("`{text}` does not start with `Power:`"))?;
    Ok((p, rest.trim()))
}

/// `Power: A prov` at `line` of the case file.
pub(crate) fn parse_unit_text(v: &Variant, text: &str, line: usize) -> Result<Unit, String> {
    let (p, rest) = split_power(v, text).map_err(|e| format!("line {line}: {e}"))?;
    let (_, order) = parse_order_line(v, rest).map_err(|e| format!("line {line}: {e}"))?;
    let kind = order
        .unit
        .kind
        .ok_or_else(|| format!("line {line}: a unit needs A or F: `{text}`"))?;
    if order.kind != OrderKind::Hold {
        return Err(format!("line {line}: `{text}` is not a unit"));
    }
    Ok(Unit {
        power: p,
        kind,
        location: order.unit.location,
    })
}

pub(crate) fn describe(v: &Variant, u: &Unit) -> String {
    format!(
        "{}: {} {}",
        v.power(u.power).name,
        u.kind.letter(),
        v.location_name(u.location)
    )
}

/// Same unit, where an expected location without a coast matches any coast.
pub(crate) fn same(expected: &Unit, actual: &Unit) -> bool {
    expected.power == actual.power
        && expected.kind == actual.kind
        && expected.location.province == actual.location.province
        && (expected.location.coast == 0 || expected.location.coast == actual.location.coast)
}

pub(crate) fn compare(v: &Variant, what: &str, expected: &[Unit], actual: &[Unit], out: &mut Vec<String>) {
    compare_with(what, expected, actual, same, |u| describe(v, u), out);
}

/// Pairs each expected item with an actual one `same` accepts, then reports what is
/// left on either side, described for the reader: the shared check behind the units,
/// the dislodged units and the armies aboard fleets.
pub(crate) fn compare_with<T: Clone>(
    what: &str,
    expected: &[T],
    actual: &[T],
    same: impl Fn(&T, &T) -> bool,
    describe: impl Fn(&T) -> String,
    out: &mut Vec<String>,
) {
    let mut left: Vec<T> = actual.to_vec();
    let mut missing = Vec::new();
    for e in expected {
        match left.iter().position(|a| same(e, a)) {
            Some(i) => {
                left.remove(i);
            }
            None => missing.push(describe(e)),
        }
    }
    if !missing.is_empty() {
        out.push(format!("{what}: expected but missing: {}", missing.join(", ")));
    }
    if !left.is_empty() {
        let extra: Vec<String> = left.iter().map(&describe).collect();
        out.push(format!("{what}: present but not expected: {}", extra.join(", ")));
    }
}
