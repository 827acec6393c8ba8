//! Orders in words for the players ("Army Berlin → Silesia"), and example orders drawn
//! from a power's own units on the map. The engine's notation (`A ber - sil`) stays
//! what is stored and typed; this is its one reading in words, which the order API's
//! answers, the order check and the game page all take from here.

use chancery_engine::order::{OrderKind, UnitRef};
use chancery_engine::parse::parse_order;
use chancery_engine::validate::{retreat_options, validate};
use chancery_engine::variant::{Location, PowerId};
use chancery_engine::{GameState, Order, PhaseKind, UnitKind, Variant};

fn kind_word(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Army => "Army",
        UnitKind::Fleet => "Fleet",
    }
}

/// A space in full, with its coast spelt out: "Spain (north coast)".
pub fn place(v: &Variant, at: Location) -> String {
    let prov = v.province(at.province);
    match at.coast {
        0 => prov.name.clone(),
        c => {
            let coast = prov.coasts.get(c as usize - 1).map(String::as_str).unwrap_or("");
            let said = match coast.to_ascii_lowercase().as_str() {
                "nc" => "north coast".to_string(),
                "sc" => "south coast".to_string(),
                "ec" => "east coast".to_string(),
                "wc" => "west coast".to_string(),
                other => format!("{other} coast"),
            };
            format!("{} ({said})", prov.name)
        }
    }
}

/// "Army Berlin": the unit's kind as written, else the kind of the unit standing (or
/// dislodged) there.
fn unit(v: &Variant, state: &GameState, u: &UnitRef) -> String {
    let kind = u.kind.or_else(|| {
        state
            .units
            .iter()
            .chain(state.dislodged.iter().map(|d| &d.unit))
            .find(|x| x.location.province == u.location.province)
            .map(|x| x.kind)
    });
    match kind {
        Some(k) => format!("{} {}", kind_word(k), place(v, u.location)),
        None => format!("The unit in {}", place(v, u.location)),
    }
}

/// The order in words.
pub fn words(v: &Variant, state: &GameState, o: &Order) -> String {
    let me = unit(v, state, &o.unit);
    match &o.kind {
        OrderKind::Hold => format!("{me} holds"),
        OrderKind::Move { to, via_convoy } => {
            format!(
                "{me} → {}{}",
                place(v, *to),
                if *via_convoy { " by convoy" } else { "" }
            )
        }
        OrderKind::SupportHold { unit: other } => format!("{me} supports {}", unit(v, state, other)),
        OrderKind::SupportMove { unit: other, to } => {
            format!("{me} supports {} → {}", unit(v, state, other), place(v, *to))
        }
        OrderKind::Convoy { army, to } => format!("{me} convoys {} → {}", unit(v, state, army), place(v, *to)),
        OrderKind::Board { to, with } => {
            let with = with.map(|p| format!(" with {}", v.power(p).name)).unwrap_or_default();
            match to {
                None => format!("{me} boards{with}"),
                Some(to) => format!("{me} → {} to board{with}", place(v, *to)),
            }
        }
        OrderKind::Retreat { to } => format!("{me} retreats → {}", place(v, *to)),
        OrderKind::Disband => format!("{me} disbands"),
        OrderKind::Build { kind } => match kind {
            Some(UnitKind::Army) => format!("Build an army in {}", place(v, o.unit.location)),
            Some(UnitKind::Fleet) => format!("Build a fleet in {}", place(v, o.unit.location)),
            None => format!("Build in {}", place(v, o.unit.location)),
        },
        OrderKind::Remove => format!("Remove {me}"),
        OrderKind::Waive => "Waive a build".to_string(),
    }
}

/// A stored order's text in words, read for `power`; the text itself when it no longer
/// reads on this map.
pub fn text_in_words(v: &Variant, state: &GameState, power: &str, text: &str) -> String {
    crate::services::stored_orders::read_named(v, power, text)
        .map(|o| words(v, state, &o))
        .unwrap_or_else(|| text.to_string())
}

/// Orders the engine accepts from `power` on this map, one of each kind the phase
/// has, written in the notation a player types: the examples a hint shows, so that a
/// 1936 player is never told to order a fleet in Kiel.
pub fn examples(v: &Variant, state: &GameState, power: PowerId) -> Vec<String> {
    let ok = |text: &str| parse_order(v, power, text).and_then(|o| validate(v, state, &o)).is_ok();
    let short = |at: Location| v.location_name(at);
    let mut out = Vec::new();
    match state.phase.kind {
        PhaseKind::Movement => {
            let mine: Vec<_> = state.units.iter().filter(|u| v.controls(power, u.power)).collect();
            let mut moved = None;
            'moves: for u in &mine {
                let targets: Vec<Location> = match u.kind {
                    UnitKind::Army => v
                        .army_neighbours(u.location.province)
                        .iter()
                        .map(|p| Location::province(*p))
                        .collect(),
                    UnitKind::Fleet => v.fleet_neighbours(u.location).to_vec(),
                };
                for to in targets {
                    let text = format!("{} {} - {}", u.kind.letter(), short(u.location), short(to));
                    if ok(&text) {
                        out.push(text);
                        moved = Some((**u, to));
                        break 'moves;
                    }
                }
            }
            if let Some((m, to)) = moved {
                let supported = format!("{} {} - {}", m.kind.letter(), short(m.location), short(to));
                if let Some(text) = mine
                    .iter()
                    .filter(|u| u.location != m.location)
                    .map(|u| format!("{} {} S {supported}", u.kind.letter(), short(u.location)))
                    .find(|t| ok(t))
                {
                    out.push(text);
                }
            }
            if let Some(u) = mine.first() {
                out.push(format!("{} {} H", u.kind.letter(), short(u.location)));
            }
        }
        PhaseKind::Retreat => {
            for (i, d) in state.dislodged.iter().enumerate() {
                if !v.controls(power, d.unit.power) {
                    continue;
                }
                let me = format!("{} {}", d.unit.kind.letter(), short(d.unit.location));
                if let Some(to) = retreat_options(v, state, i).first() {
                    out.push(format!("{me} R {}", short(*to)));
                }
                out.push(format!("{me} D"));
                break;
            }
        }
        PhaseKind::Adjustment => {
            let (centres, units) = (state.centre_count(power), state.unit_count(power));
            if centres > units {
                let site = (0..v.provinces.len())
                    .flat_map(|p| {
                        ["A", "F"].map(move |k| format!("Build {k} {}", v.provinces[p].abbr.to_ascii_lowercase()))
                    })
                    .find(|t| ok(t));
                out.extend(site);
                out.push("Waive".into());
            } else if units > centres {
                if let Some(u) = state.units.iter().find(|u| u.power == power) {
                    out.push(format!("Remove {} {}", u.kind.letter(), short(u.location)));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(v: &Variant, state: &GameState, power: &str, text: &str) -> String {
        let p = v.find_power(power).unwrap();
        words(v, state, &parse_order(v, p, text).unwrap())
    }

    #[test]
    fn orders_read_in_words() {
        let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
        let s = GameState::initial(&v);
        assert_eq!(read(&v, &s, "Germany", "A ber - sil"), "Army Berlin → Silesia");
        assert_eq!(
            read(&v, &s, "Germany", "F kie S A ber - den"),
            "Fleet Kiel supports Army Berlin → Denmark"
        );
        assert_eq!(
            read(&v, &s, "England", "F lon C A yor - nwy"),
            "Fleet London convoys Army Yorkshire → Norway"
        );
        assert_eq!(
            read(&v, &s, "Russia", "F stp/sc - bot"),
            "Fleet St. Petersburg (south coast) → Gulf of Bothnia"
        );
        assert_eq!(read(&v, &s, "Russia", "A mos H"), "Army Moscow holds");
    }

    /// Examples come from the power's own units and the engine accepts each of them; in
    /// 1936 nobody is told about Kiel, which that map does not have.
    #[test]
    fn examples_are_the_powers_own_legal_orders() {
        for name in ["standard", "1936", "1648"] {
            let v = chancery_engine::builtin::builtin(name).unwrap().unwrap();
            let s = GameState::initial(&v);
            for (i, p) in v.powers.iter().enumerate() {
                if p.kind != chancery_engine::variant::PowerKind::Great {
                    continue;
                }
                let list = examples(&v, &s, i as PowerId);
                assert!(!list.is_empty(), "{name} {}: no example", p.name);
                for e in &list {
                    let o = parse_order(&v, i as PowerId, e).unwrap_or_else(|err| panic!("{name} `{e}`: {err}"));
                    validate(&v, &s, &o).unwrap_or_else(|err| panic!("{name} `{e}`: {err}"));
                }
            }
        }
        let v = chancery_engine::builtin::builtin("1936").unwrap().unwrap();
        assert!(v.find_province("kie").is_none());
    }
}
