//! Every order's outcome explains itself: the words a player reads for the common
//! results, checked on small positions.

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::builtin;
use chancery_engine::parse::{parse_named_order, parse_unit};
use chancery_engine::state::{GameState, Phase, PhaseKind};
use chancery_engine::{Order, Season, Variant};

fn standard() -> Variant {
    builtin("standard").unwrap().unwrap()
}

fn position(v: &Variant, units: &[&str]) -> GameState {
    let mut s = GameState::empty(v, Phase::new(Season::Spring, 1901, PhaseKind::Movement));
    s.units = units.iter().map(|t| parse_unit(v, t).unwrap()).collect();
    s
}

fn orders(v: &Variant, lines: &[&str]) -> Vec<Order> {
    lines.iter().map(|l| parse_named_order(v, l).unwrap()).collect()
}

/// The reason of the result for the unit in `province`.
fn reason(v: &Variant, state: &GameState, lines: &[&str], province: &str) -> String {
    let result = adjudicate(v, state, &orders(v, lines));
    let p = v.find_province(province).unwrap();
    result
        .results
        .iter()
        .find(|r| r.unit.is_some_and(|u| u.location.province == p))
        .unwrap()
        .reason(v)
}

#[test]
fn bounces_name_the_strengths_and_the_rival() {
    // DATC 6.A.11: two armies bounce in Vienna... here Galicia.
    let v = standard();
    let s = position(&v, &["Austria: A bud", "Russia: A war"]);
    let lines = ["Austria: A bud - gal", "Russia: A war - gal"];
    assert_eq!(
        reason(&v, &s, &lines, "bud"),
        "bounced: strength 1 against 1 from Warsaw"
    );
}

#[test]
fn a_bounce_against_a_holder_names_the_holder_strength() {
    let v = standard();
    let s = position(&v, &["Germany: A mun", "France: A bur", "France: A mar"]);
    let lines = ["Germany: A mun - bur", "France: A mar S A bur"];
    assert_eq!(
        reason(&v, &s, &lines, "mun"),
        "bounced: strength 1 against 2 from Burgundy"
    );
}

#[test]
fn dislodgement_and_cut_support_name_the_attacker() {
    let v = standard();
    let s = position(
        &v,
        &[
            "Germany: A mun",
            "Germany: A ruh",
            "France: A bur",
            "France: A mar",
            "Italy: A pie",
        ],
    );
    let lines = [
        "Germany: A mun - bur",
        "Germany: A ruh S A mun - bur",
        "France: A mar S A bur",
        "Italy: A pie - mar",
    ];
    assert_eq!(reason(&v, &s, &lines, "mar"), "support cut by the attack from Piedmont");
    assert_eq!(reason(&v, &s, &lines, "bur"), "held; dislodged by the unit from Munich");
    assert_eq!(reason(&v, &s, &lines, "mun"), "moved");
}

#[test]
fn void_orders_say_why() {
    let v = standard();
    let s = position(&v, &["England: F nth"]);
    let r = reason(&v, &s, &["England: F nth - pic"], "nth");
    assert_eq!(r, "void: Picardy is not adjacent to North Sea for fleets");
}

#[test]
fn convoys_and_paradoxes_explain_themselves() {
    let v = standard();
    // DATC 6.F.14, the simplest convoy paradox: the Szykman rule makes the convoy fail.
    let s = position(
        &v,
        &["England: F lon", "England: F wal", "France: A bre", "France: F eng"],
    );
    let lines = [
        "England: F lon S F wal - eng",
        "England: F wal - eng",
        "France: A bre - lon",
        "France: F eng C A bre - lon",
    ];
    assert!(reason(&v, &s, &lines, "eng").starts_with("convoy failed: paradox, resolved by the Szykman rule"));
    assert_eq!(
        reason(&v, &s, &lines, "bre"),
        "failed: no complete convoy carried the army"
    );
}

#[test]
fn unmatched_supports_are_reported() {
    let v = standard();
    let s = position(&v, &["Germany: A mun", "Germany: A ber"]);
    let r = reason(&v, &s, &["Germany: A ber S A mun - sil", "Germany: A mun H"], "ber");
    assert_eq!(r, "support void: the supported unit did not make that order");
}
