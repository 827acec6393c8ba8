//! Original 1958: every case in tests/1958/*.txt must pass, and the messages,
//! victory count and JSON form that case files cannot check are checked here. Rule
//! numbers are the rule page's (../shared/seeds, "Original 1958", revision 1072);
//! docs/rules-1958.md lists the readings taken.

use std::path::PathBuf;

use chancery_cases::{parse_cases, run_case};
use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::builtin;
use chancery_engine::json::{state_from_json, state_to_json, StateJson};
use chancery_engine::parse::parse_order;
use chancery_engine::stacking::capital;
use chancery_engine::state::{Carried, GameState, Phase, PhaseKind, Unit};
use chancery_engine::{Location, Outcome, Season, UnitKind, Variant};

fn variant() -> Variant {
    builtin("original-1958").unwrap().unwrap()
}

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/1958")
}

#[test]
fn every_1958_case_passes() {
    let v = variant();
    let mut files: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 6,
        "opening, stacks, builds, boarding, carried, map rules"
    );
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let cases = parse_cases(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for case in &cases {
            assert_eq!(case.variant, "original-1958", "{}", case.name);
            count += 1;
            let report = run_case(case, &v);
            if !report.passed() {
                failures.push(format!(
                    "{} ({}:{}): {}",
                    case.name,
                    file.display(),
                    case.line,
                    report.differences.join("; ")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "failing 1958 cases:\n{}", failures.join("\n"));
    assert!(count >= 70, "only {count} cases");
}

fn power(v: &Variant, name: &str) -> u8 {
    v.find_power(name).unwrap()
}

fn unit(v: &Variant, p: &str, kind: UnitKind, at: &str) -> Unit {
    let (prov, coast) = match at.split_once('/') {
        Some((p, c)) => {
            let prov = v.find_province(p).unwrap();
            (prov, v.find_coast(prov, c).unwrap())
        }
        None => (v.find_province(at).unwrap(), 0),
    };
    Unit {
        power: power(v, p),
        kind,
        location: Location::new(prov, coast),
    }
}

fn spring(v: &Variant, units: Vec<Unit>) -> GameState {
    let mut s = GameState::empty(v, Phase::new(Season::Spring, 1915, PhaseKind::Movement));
    s.units = units;
    s
}

/// The reason the engine gives for the one result of `power`'s order `text`.
fn refusal(v: &Variant, state: &GameState, power_name: &str, text: &str) -> String {
    let order = parse_order(v, power(v, power_name), text).unwrap();
    let adj = adjudicate(v, state, &[order]);
    let voided = adj.results.iter().find_map(|r| match &r.outcome {
        Outcome::Void(e) => Some(e.to_string()),
        _ => None,
    });
    voided
        .or_else(|| adj.refused.first().map(|(_, e)| e.to_string()))
        .unwrap_or_else(|| panic!("`{text}` was not refused"))
}

#[test]
fn convoy_orders_are_refused_with_the_reason() {
    // Rule 6: "The convoy rule does not exist in the Original 1958 version."
    let v = variant();
    let s = spring(
        &v,
        vec![
            unit(&v, "France", UnitKind::Army, "bre"),
            unit(&v, "France", UnitKind::Fleet, "eng"),
        ],
    );
    let convoy = refusal(&v, &s, "France", "F eng C A bre - wsx");
    assert!(convoy.contains("no convoys"), "{convoy}");
    assert!(
        convoy.contains("board"),
        "the message says what to do instead: {convoy}"
    );
    let over_water = refusal(&v, &s, "France", "A bre - wsx");
    assert!(over_water.contains("not adjacent"), "{over_water}");
    let via = refusal(&v, &s, "France", "A bre - gas via convoy");
    assert!(via.contains("no convoys"), "{via}");
}

#[test]
fn rule_4_refusals_say_why() {
    let v = variant();
    let s = spring(
        &v,
        vec![
            unit(&v, "United Kingdom", UnitKind::Fleet, "lon"),
            unit(&v, "United Kingdom", UnitKind::Army, "yor"),
        ],
    );
    let army = refusal(&v, &s, "United Kingdom", "A yor - lon");
    assert!(army.contains("rule 4") && army.contains("capital"), "{army}");
    let s = spring(
        &v,
        vec![
            unit(&v, "United Kingdom", UnitKind::Army, "lon"),
            unit(&v, "United Kingdom", UnitKind::Fleet, "nth"),
        ],
    );
    let fleet = refusal(&v, &s, "United Kingdom", "F nth - lon");
    assert!(fleet.contains("rule 4") && fleet.contains("naval base"), "{fleet}");
}

#[test]
fn stack_support_refusals_say_why() {
    // Rule 3: stacked units may not support one another, nor two of them one unit.
    let v = variant();
    let s = spring(
        &v,
        vec![
            unit(&v, "France", UnitKind::Army, "par"),
            unit(&v, "France", UnitKind::Army, "par"),
            unit(&v, "France", UnitKind::Army, "bur"),
        ],
    );
    let within = refusal(&v, &s, "France", "A par S A par");
    assert!(within.contains("rule 3"), "{within}");
    let fr = power(&v, "France");
    let orders = vec![
        parse_order(&v, fr, "A par S A bur").unwrap(),
        parse_order(&v, fr, "A par S A bur").unwrap(),
    ];
    let adj = adjudicate(&v, &s, &orders);
    let void: Vec<String> = adj
        .results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Void(e) => Some(e.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(void.len(), 1, "exactly the second support is void");
    assert!(void[0].contains("one support"), "{}", void[0]);
}

#[test]
fn army_aboard_orders_are_refused() {
    // Rule 6: "While an army is on board a fleet, it can neither support nor engage in
    // combat."
    let v = variant();
    let fleet = unit(&v, "United Kingdom", UnitKind::Fleet, "nth");
    let mut s = spring(&v, vec![fleet, unit(&v, "United Kingdom", UnitKind::Fleet, "edi")]);
    s.carried.push(Carried {
        army: power(&v, "United Kingdom"),
        fleet,
        carrier_dislodged: false,
    });
    let msg = refusal(&v, &s, "United Kingdom", "A nth S F edi");
    assert!(msg.contains("aboard"), "{msg}");
}

#[test]
fn boarding_outcomes_are_reported() {
    let v = variant();
    let s = spring(
        &v,
        vec![
            unit(&v, "United Kingdom", UnitKind::Army, "wal"),
            unit(&v, "United Kingdom", UnitKind::Fleet, "iri"),
        ],
    );
    let uk = power(&v, "United Kingdom");
    let board = vec![
        parse_order(&v, uk, "A wal B").unwrap(),
        parse_order(&v, uk, "F iri - wal B").unwrap(),
    ];
    let adj = adjudicate(&v, &s, &board);
    assert!(adj.results.iter().all(|r| r.outcome == Outcome::Boarded));
    assert_eq!(adj.next.carried.len(), 1);
    assert_eq!(adj.next.unit_count(uk), 2, "an army aboard is still a unit");
    let alone = vec![parse_order(&v, uk, "F iri - wal B").unwrap()];
    let adj = adjudicate(&v, &s, &alone);
    let fleet = adj
        .results
        .iter()
        .find(|r| r.unit.is_some_and(|u| u.kind == UnitKind::Fleet))
        .unwrap();
    assert_eq!(fleet.outcome, Outcome::BoardUnmatched);
    assert!(fleet.reason(&v).contains("standoff"), "{}", fleet.reason(&v));
}

#[test]
fn eighteen_units_win_and_armies_aboard_count() {
    // Rule 1: a great power wins with 18 of its units on the map; an army aboard a
    // fleet is one of them (docs/rules-1958.md).
    let v = variant();
    let uk = power(&v, "United Kingdom");
    let spaces = [
        "lon", "edi", "lvp", "yor", "wal", "wsx", "cly", "nth", "eng", "iri", "nao", "bel", "hol", "nwy", "den", "ska",
        "kat",
    ];
    let units: Vec<Unit> = spaces
        .iter()
        .map(|s| {
            let kind = if v.province(v.find_province(s).unwrap()).is_sea() {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            };
            unit(&v, "United Kingdom", kind, s)
        })
        .collect();
    assert_eq!(units.len(), 17);
    let mut s = GameState::empty(&v, Phase::new(Season::Fall, 1920, PhaseKind::Movement));
    s.units = units.clone();
    let adj = adjudicate(&v, &s, &[]);
    assert_eq!(adj.winner, None, "17 units do not win");
    let fleet = units
        .iter()
        .find(|u| u.location.province == v.find_province("nth").unwrap())
        .copied()
        .unwrap();
    s.carried.push(Carried {
        army: uk,
        fleet,
        carrier_dislodged: false,
    });
    let adj = adjudicate(&v, &s, &[]);
    assert_eq!(adj.winner, Some(uk), "17 units and an army aboard make 18");
}

#[test]
fn capital_follows_the_owners_and_a_designation() {
    // Rule 5: a power that loses its capital designates another home centre (default:
    // the first still owned in the file's order); the original is capital again when
    // retaken.
    let v = variant();
    let de = power(&v, "Germany");
    let ru = power(&v, "Russia");
    let p = |n: &str| v.find_province(n).unwrap();
    let mut s = GameState::initial(&v);
    assert_eq!(capital(&v, &s, de), Some(p("ber")));
    s.owners[p("ber") as usize] = Some(ru);
    assert_eq!(capital(&v, &s, de), Some(p("col")));
    s.capitals.push((de, p("kie")));
    assert_eq!(
        capital(&v, &s, de),
        Some(p("kie")),
        "the designation wins over the default"
    );
    s.owners[p("kie") as usize] = Some(ru);
    assert_eq!(
        capital(&v, &s, de),
        Some(p("col")),
        "a designated capital that is lost no longer counts"
    );
    s.owners[p("ber") as usize] = Some(de);
    assert_eq!(
        capital(&v, &s, de),
        Some(p("ber")),
        "Berlin retaken is the capital again"
    );
}

#[test]
fn json_keeps_carried_armies_and_capitals() {
    let v = variant();
    let de = power(&v, "Germany");
    let fr = power(&v, "France");
    let p = |n: &str| v.find_province(n).unwrap();
    let fleet = unit(&v, "United Kingdom", UnitKind::Fleet, "eng");
    let mut s = GameState::initial(&v);
    s.units.push(fleet);
    s.carried.push(Carried {
        army: fr,
        fleet,
        carrier_dislodged: false,
    });
    s.owners[p("ber") as usize] = Some(fr);
    s.capitals.push((de, p("kie")));
    let json = state_to_json(&v, &s);
    assert_eq!(json.carried.len(), 1);
    assert_eq!(json.carried[0].power, "France");
    assert_eq!(json.capitals.get("Germany").map(String::as_str), Some("kie"));
    let text = serde_json::to_string(&json).unwrap();
    let back: StateJson = serde_json::from_str(&text).unwrap();
    let again = state_from_json(&v, &back).unwrap();
    assert_eq!(again.carried, s.carried);
    assert_eq!(capital(&v, &again, de), Some(p("kie")));
    // JSON written before these fields existed still loads, with nobody aboard.
    let old =
        r#"{"phase":"S1914M","units":[{"power":"France","type":"A","location":"par"}],"owners":{"par":"France"}}"#;
    let old: StateJson = serde_json::from_str(old).unwrap();
    let state = state_from_json(&v, &old).unwrap();
    assert!(state.carried.is_empty() && state.capitals.is_empty());
}

#[test]
fn opening_from_the_variants_starting_position() {
    // Rule 2 and 18: the built-in starting position, Spring 1914, every unit ordered.
    let v = variant();
    let s = GameState::initial(&v);
    assert_eq!(s.phase.code(), "S1914M");
    assert_eq!(s.units.len(), 22);
    let lines = [
        "Austria-Hungary: A vie - bud",
        "Austria-Hungary: A vie - gal",
        "Austria-Hungary: F tri - adr",
        "France: A par - bur",
        "France: A par - gas",
        "France: F bre - bob",
        "Germany: A ber - sil",
        "Germany: A ber - kie",
        "Germany: F kie - den",
        "Italy: A rom - tus",
        "Italy: A rom - apu",
        "Italy: F nap - tys",
        "Ottoman Turkey: F con - bla",
        "Ottoman Turkey: F con - aeg",
        "Ottoman Turkey: A con - bul",
        "Russia: A stp - fin",
        "Russia: A stp - lvn",
        "Russia: F stp/sc - nbs",
        "Russia: F sev - bla",
        "United Kingdom: F lon - nth",
        "United Kingdom: F lon - eng",
        "United Kingdom: A lon - yor",
    ];
    let orders: Vec<_> = lines
        .iter()
        .map(|l| {
            let (p, o) = chancery_engine::parse::parse_order_line(&v, l).unwrap();
            chancery_engine::Order { power: p.unwrap(), ..o }
        })
        .collect();
    let adj = adjudicate(&v, &s, &orders);
    assert!(adj.refused.is_empty(), "{:?}", adj.refused);
    let moved = adj.results.iter().filter(|r| r.outcome == Outcome::Moved).count();
    assert_eq!(moved, 20, "all but the two fleets meeting in the Black Sea move");
    assert_eq!(adj.next.phase.code(), "F1914M");
    // The display of a boarding order reads back as the same order.
    let order = parse_order(&v, power(&v, "United Kingdom"), "F eng - bre B France").unwrap();
    let text = order.display(&v).to_string();
    assert_eq!(text, "F eng - bre B France");
    assert_eq!(parse_order(&v, power(&v, "United Kingdom"), &text).unwrap(), order);
}

#[test]
fn coast_swap_reports_two_moves() {
    // Rule 8: F Spa(nc) - Por; F Por - Spa(sc) is an exchange, reported as two moves.
    let v = variant();
    let s = spring(
        &v,
        vec![
            unit(&v, "France", UnitKind::Fleet, "spa/nc"),
            unit(&v, "Italy", UnitKind::Fleet, "por"),
        ],
    );
    let orders = vec![
        parse_order(&v, power(&v, "France"), "F spa/nc - por").unwrap(),
        parse_order(&v, power(&v, "Italy"), "F por - spa/sc").unwrap(),
    ];
    let adj = adjudicate(&v, &s, &orders);
    assert!(
        adj.results.iter().all(|r| r.outcome == Outcome::Moved),
        "{:?}",
        adj.results
    );
}
