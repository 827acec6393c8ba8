//! The published result accounts for every unit and every adjustment: unused builds are
//! listed as waived, the Winter rebuild of minors as builds, and the position's record
//! of civil disorder survives its JSON form.

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::builtin;
use chancery_engine::json::{adjudication_json, state_from_json, state_to_json, ResultJson, StateJson};
use chancery_engine::parse::{parse_named_order, parse_unit};
use chancery_engine::state::{GameState, Phase, PhaseKind, Unit};
use chancery_engine::variant::{Location, UnitKind};
use chancery_engine::{Order, OrderResult, Outcome, Season, Variant};

fn variant(name: &str) -> Variant {
    builtin(name).unwrap().unwrap()
}

/// A Winter position with these units; `owners` are all the owned centres.
fn winter(v: &Variant, year: i32, units: &[&str], owners: &[(&str, &str)]) -> GameState {
    let mut s = GameState::empty(v, Phase::new(Season::Fall, year, PhaseKind::Adjustment));
    s.owners.iter_mut().for_each(|o| *o = None);
    s.units = units.iter().map(|t| parse_unit(v, t).unwrap()).collect();
    for (centre, owner) in owners {
        s.owners[v.find_province(centre).unwrap() as usize] = Some(v.find_power(owner).unwrap());
    }
    s
}

/// Russia's centres after taking Sweden and Rumania.
fn russia() -> Vec<(&'static str, &'static str)> {
    ["mos", "sev", "stp", "war", "swe", "rum"]
        .map(|c| (c, "Russia"))
        .to_vec()
}

fn orders(v: &Variant, lines: &[&str]) -> Vec<Order> {
    lines.iter().map(|l| parse_named_order(v, l).unwrap()).collect()
}

fn results(v: &Variant, s: &GameState, lines: &[&str]) -> Vec<ResultJson> {
    adjudication_json(v, &adjudicate(v, s, &orders(v, lines))).results
}

/// DATC 4.D.7: builds not ordered are waived; each gets the entry an explicit `Waive`
/// gets, so a power that builds one of two shows one build and one waiver.
#[test]
fn unused_builds_are_listed_as_waived() {
    let v = variant("standard");
    // Russia: six centres, four units, and free home centres in Moscow and Sevastopol.
    let s = winter(
        &v,
        1901,
        &["Russia: A war", "Russia: F stp/sc", "Russia: A ukr", "Russia: F rum"],
        &russia(),
    );
    let default = results(&v, &s, &["Russia: Build A mos"]);
    let explicit = results(&v, &s, &["Russia: Build A mos", "Russia: Waive"]);
    assert_eq!(default, explicit);
    let outcomes: Vec<&str> = default.iter().map(|r| r.outcome.as_str()).collect();
    assert_eq!(outcomes, ["built", "waived"]);
    assert_eq!(default[1].order.as_deref(), Some("Waive"));
    // A waiver stands for no unit: its entry names none, not a placeholder.
    assert_eq!(default[1].unit, "");
    let json = serde_json::to_value(&default[1]).unwrap();
    assert!(json.get("unit").is_none(), "{json}");
    // Nothing ordered: both builds are waived.
    let none = results(&v, &s, &[]);
    assert_eq!(none.iter().filter(|r| r.outcome == "waived").count(), 2);
}

/// DATC 4.D.7 again, in the structure the server stores (`PhaseResult` as JSON): a waive,
/// ordered or by default, carries no unit, not a placeholder; and a result stored before
/// that, with the placeholder army in the first space, reads back without it.
#[test]
fn a_stored_waive_carries_no_unit() {
    let v = variant("standard");
    let s = winter(
        &v,
        1901,
        &["Russia: A war", "Russia: F stp/sc", "Russia: A ukr", "Russia: F rum"],
        &russia(),
    );
    let russia = v.find_power("Russia").unwrap();
    for lines in [&["Russia: Build A mos"][..], &["Russia: Build A mos", "Russia: Waive"]] {
        let adj = adjudicate(&v, &s, &orders(&v, lines));
        let waived: Vec<&OrderResult> = adj.results.iter().filter(|r| r.outcome == Outcome::Waived).collect();
        assert_eq!(waived.len(), 1, "{lines:?}");
        assert_eq!(waived[0].unit, None, "{lines:?}");
        assert_eq!(waived[0].power(), russia);
        let built = adj.results.iter().find(|r| r.outcome == Outcome::Built).unwrap();
        assert_eq!(built.unit, Some(parse_unit(&v, "Russia: A mos").unwrap()));

        let stored = serde_json::to_value(&adj.results).unwrap();
        let entry = stored
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["outcome"] == "Waived")
            .unwrap();
        assert!(entry["unit"].is_null(), "{entry}");
        let back: Vec<OrderResult> = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(back, adj.results);

        // As an older version stored it: the waive with the parser's placeholder unit.
        let mut older = stored;
        for r in older.as_array_mut().unwrap() {
            if r["outcome"] == "Waived" {
                let placeholder = Unit {
                    power: russia,
                    kind: UnitKind::Army,
                    location: Location::province(0),
                };
                r["unit"] = serde_json::to_value(placeholder).unwrap();
            }
        }
        let back: Vec<OrderResult> = serde_json::from_value(older).unwrap();
        assert_eq!(back, adj.results, "the placeholder is dropped on reading");
    }
    // A stored result with no unit that is not a waive is refused, not guessed at.
    let mut broken = serde_json::to_value(&adjudicate(&v, &s, &orders(&v, &["Russia: Build A mos"])).results).unwrap();
    broken[0]["unit"] = serde_json::Value::Null;
    let error = serde_json::from_value::<Vec<OrderResult>>(broken).unwrap_err();
    assert!(error.to_string().contains("names no unit"), "{error}");
}

/// A build the power had no free site for was never its to waive: no entry.
#[test]
fn builds_without_a_free_site_get_no_entry() {
    let v = variant("standard");
    // Russia has two builds but only Moscow free; Austria must remove, so the phase runs.
    let s = winter(
        &v,
        1901,
        &[
            "Russia: A war",
            "Russia: F stp/sc",
            "Russia: F sev",
            "Russia: A ukr",
            "Austria: A vie",
            "Austria: A bud",
            "Austria: F tri",
            "Austria: A gal",
        ],
        &[
            russia().as_slice(),
            &[("vie", "Austria"), ("bud", "Austria"), ("tri", "Austria")],
        ]
        .concat(),
    );
    let listed = results(&v, &s, &["Austria: Remove A gal"]);
    let russia: Vec<&str> = listed
        .iter()
        .filter(|r| r.power == "Russia")
        .map(|r| r.outcome.as_str())
        .collect();
    assert_eq!(russia, ["waived"]);
}

/// DP rule 1: a Winter in which only a minor is rebuilt lists the rebuild as a build in
/// the minor's own name.
#[test]
fn a_minor_only_winter_lists_the_rebuild() {
    let v = variant("1936");
    let s = winter(
        &v,
        1936,
        &["Germany: A ber"],
        &[("ber", "Germany"), ("boh", "Czechoslovakia")],
    );
    let listed = results(&v, &s, &[]);
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (
            listed[0].power.as_str(),
            listed[0].unit.as_str(),
            listed[0].order.as_deref(),
            listed[0].outcome.as_str()
        ),
        ("Czechoslovakia", "A boh", Some("Build A boh"), "built")
    );
}

/// DP rule 11: the powers in civil disorder are part of the stored position, as an
/// optional field absent when there are none, so positions stored before it still load.
#[test]
fn civil_disorder_survives_the_json_position() {
    let v = variant("1936");
    let italy = v.find_power("Italy").unwrap();
    let mut s = GameState::initial(&v);
    let plain = serde_json::to_value(state_to_json(&v, &s)).unwrap();
    assert!(plain.get("disordered").is_none(), "{plain}");
    s.disordered.push(italy);
    let json = state_to_json(&v, &s);
    assert_eq!(json.disordered, ["Italy"]);
    assert_eq!(state_from_json(&v, &json).unwrap(), s);
    let old: StateJson = serde_json::from_value(plain).unwrap();
    assert!(state_from_json(&v, &old).unwrap().disordered.is_empty());
    let minor = StateJson {
        disordered: vec!["Austria".into()],
        ..json
    };
    assert!(state_from_json(&v, &minor).unwrap_err().contains("minor power"));
}
