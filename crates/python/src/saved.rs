//! The `diplomacy` package's dictionaries: a position (`get_state`) and a whole game
//! (its saved-game format), written and read back.

use chancery_engine::adjust::{build_sites, surplus};
use chancery_engine::state::PhaseKind;
use chancery_engine::validate::retreat_options;
use chancery_engine::{GameState, PowerId, Variant};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{load, result_codes, text, ChanceryError, Game};

fn players(v: &Variant) -> impl Iterator<Item = PowerId> + '_ {
    (0..v.powers.len() as PowerId).filter(|&p| !v.is_minor(p))
}

/// A position as the package's `get_state` gives it. Minor powers (1936, 1648) are listed
/// beside the great powers, since their units are on the board.
pub fn position<'py>(py: Python<'py>, v: &Variant, state: &GameState) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", state.phase.code())?;
    let (units, retreats, centers, homes, disorder, builds) = (
        PyDict::new(py),
        PyDict::new(py),
        PyDict::new(py),
        PyDict::new(py),
        PyDict::new(py),
        PyDict::new(py),
    );
    for p in 0..v.powers.len() as PowerId {
        let name = text::power(v, p);
        let mut mine: Vec<String> = state
            .units
            .iter()
            .filter(|u| u.power == p)
            .map(|u| text::unit(v, u))
            .collect();
        mine.extend(
            state
                .carried
                .iter()
                .filter(|c| c.army == p && !c.carrier_dislodged)
                .map(|c| text::unit(v, &c.army_unit())),
        );
        let r = PyDict::new(py);
        for (i, dl) in state.dislodged.iter().enumerate().filter(|(_, d)| d.unit.power == p) {
            mine.push(format!("*{}", text::unit(v, &dl.unit)));
            let to: Vec<String> = retreat_options(v, state, i)
                .into_iter()
                .map(|l| text::place(v, l))
                .collect();
            r.set_item(text::unit(v, &dl.unit), to)?;
        }
        units.set_item(&name, mine)?;
        retreats.set_item(&name, r)?;
        let owned: Vec<String> = (0..v.provinces.len())
            .filter(|&i| state.owners[i] == Some(p))
            .map(|i| text::space(v, i as u16))
            .collect();
        centers.set_item(&name, owned)?;
        let home: Vec<String> = (0..v.provinces.len() as u16)
            .filter(|&i| v.is_home_of(i, p))
            .map(|i| text::space(v, i))
            .collect();
        homes.set_item(&name, home)?;
        disorder.set_item(&name, u8::from(state.in_disorder(p)))?;
        let b = PyDict::new(py);
        let adjusting = state.phase.kind == PhaseKind::Adjustment && !state.acts_as_minor(v, p);
        let count = if adjusting { surplus(state, p) } else { 0 };
        b.set_item("count", count)?;
        let sites: Vec<String> = if count > 0 {
            build_sites(v, state, p)
                .into_iter()
                .map(|s| text::space(v, s))
                .collect()
        } else {
            Vec::new()
        };
        b.set_item("homes", sites)?;
        builds.set_item(&name, b)?;
    }
    d.set_item("units", units)?;
    d.set_item("retreats", retreats)?;
    d.set_item("centers", centers)?;
    d.set_item("homes", homes)?;
    d.set_item("civil_disorder", disorder)?;
    d.set_item("builds", builds)?;
    Ok(d)
}

pub fn state_dict<'py>(py: Python<'py>, g: &Game) -> PyResult<Bound<'py, PyDict>> {
    position(py, &g.l.v, &g.state)
}

fn orders_dict<'py>(py: Python<'py>, v: &Variant, orders: &[chancery_engine::Order]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for p in players(v) {
        let mine: Vec<String> = orders
            .iter()
            .filter(|o| o.power == p)
            .map(|o| text::order(v, o))
            .collect();
        d.set_item(text::power(v, p), mine)?;
    }
    Ok(d)
}

fn bids_dict<'py>(py: Python<'py>, v: &Variant, bids: &[chancery_engine::dp::Bid]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for p in v.great_powers() {
        let mine: Vec<String> = bids.iter().filter(|b| b.power == p).map(|b| text::bid(v, b)).collect();
        if !mine.is_empty() {
            d.set_item(text::power(v, p), mine)?;
        }
    }
    Ok(d)
}

pub fn to_saved<'py>(py: Python<'py>, g: &Game) -> PyResult<Bound<'py, PyDict>> {
    let v = &g.l.v;
    let phases = PyList::empty(py);
    for (r, given, bids) in &g.history {
        let ph = PyDict::new(py);
        ph.set_item("name", r.phase().code())?;
        ph.set_item("state", position(py, v, &r.before)?)?;
        ph.set_item("orders", orders_dict(py, v, given)?)?;
        // Not in the package's format (it has no Diplomacy Points); it ignores the key.
        if !bids.is_empty() {
            ph.set_item("bids", bids_dict(py, v, bids)?)?;
        }
        let results = PyDict::new(py);
        for res in r.adjudication.results.iter() {
            if let Some(u) = res.unit {
                results.set_item(text::unit(v, &u), result_codes(res))?;
            }
        }
        ph.set_item("results", results)?;
        ph.set_item("messages", PyList::empty(py))?;
        phases.append(ph)?;
    }
    let now = PyDict::new(py);
    now.set_item("name", g.state.phase.code())?;
    now.set_item("state", position(py, v, &g.state)?)?;
    now.set_item("orders", orders_dict(py, v, &g.orders)?)?;
    now.set_item("results", PyDict::new(py))?;
    now.set_item("messages", PyList::empty(py))?;
    phases.append(now)?;
    let d = PyDict::new(py);
    d.set_item("id", format!("chancery-{}-{}", g.l.name, g.history.len()))?;
    d.set_item("map", &g.l.name)?;
    d.set_item("rules", PyList::empty(py))?;
    d.set_item("phases", phases)?;
    Ok(d)
}

fn sorted_units(state: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Vec<String>)>> {
    let units = state.get_item("units")?;
    let units = units.cast::<PyDict>()?;
    let mut out = Vec::new();
    for (k, v) in units.iter() {
        let mut list: Vec<String> = v.extract()?;
        list.sort();
        out.push((k.extract::<String>()?.to_uppercase(), list));
    }
    out.sort();
    Ok(out)
}

pub fn from_saved(py: Python<'_>, saved: &Bound<'_, PyDict>) -> PyResult<Game> {
    let map: String = match saved.get_item("map")? {
        Some(m) => m.extract()?,
        None => "standard".into(),
    };
    let mut g = Game::new_from(load(py, &map)?);
    let phases = saved
        .get_item("phases")?
        .ok_or_else(|| ChanceryError::new_err("a saved game has a `phases` list"))?;
    let phases = phases.cast::<PyList>()?;
    let last = phases.len().saturating_sub(1);
    for (i, ph) in phases.iter().enumerate() {
        let name: String = ph.get_item("name")?.extract()?;
        if name != g.state.phase.code() {
            return Err(ChanceryError::new_err(format!(
                "the saved game's phase {i} is {name}, the replay reached {}",
                g.state.phase.code()
            )));
        }
        if let Ok(state) = ph.get_item("state") {
            let theirs = sorted_units(&state)?;
            let ours_dict = position(py, &g.l.v, &g.state)?;
            let ours = sorted_units(ours_dict.as_any())?;
            let theirs: Vec<_> = theirs.into_iter().filter(|(_, l)| !l.is_empty()).collect();
            let ours: Vec<_> = ours.into_iter().filter(|(_, l)| !l.is_empty()).collect();
            if theirs != ours {
                return Err(ChanceryError::new_err(format!(
                    "{name}: the saved game's units {theirs:?} differ from the replay's {ours:?}"
                )));
            }
        }
        if let Ok(orders) = ph.get_item("orders") {
            let orders = orders.cast::<PyDict>()?;
            for (power, list) in orders.iter() {
                if list.is_none() {
                    continue;
                }
                let power: String = power.extract()?;
                let list: Vec<String> = list.extract()?;
                let p = g.power_id(&power)?;
                g.set_orders_checked(p, &list, false)?;
            }
        }
        if let Ok(bids) = ph.get_item("bids") {
            let bids = bids.cast::<PyDict>()?;
            for (power, list) in bids.iter() {
                let power: String = power.extract()?;
                let list: Vec<String> = list.extract()?;
                let p = g.power_id(&power)?;
                for t in list {
                    let b = chancery_engine::dp::parse_bid(&g.l.v, p, &t).map_err(crate::BidError::new_err)?;
                    g.bids.push(b);
                }
            }
        }
        if i < last {
            let result = Game::judge(&g.l, &g.state, &g.orders, &g.bids);
            g.record(result);
        }
    }
    Ok(g)
}
