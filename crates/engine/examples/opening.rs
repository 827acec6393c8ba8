//! Judges a Standard opening and prints each order's result with its reason.
//!
//! ```text
//! cargo run -p chancery-engine --example opening
//! ```
//!
//! Spring 1901 is a common opening for all seven powers with one refused order and
//! two standoffs, so that the output shows a void order, bounces, a support and plain
//! moves; in Fall 1901 the powers take centres (with a convoy, a supported attack and
//! a unit that may not dislodge its own), and the Winter builds.

use chancery_engine::adjust::surplus;
use chancery_engine::builtin::builtin;
use chancery_engine::options::{Lister, Scope};
use chancery_engine::parse::parse_order;
use chancery_engine::{judge_phase, GameState, Order, OrderKind, PhaseResult, Variant};

const SPRING: &[(&str, &str)] = &[
    ("Austria", "A vie - gal"),
    ("Austria", "A bud - ser"),
    ("Austria", "F tri - alb"),
    ("England", "F lon - nth"),
    ("England", "F edi - nwg"),
    // An army cannot enter the sea (DATC 6.A.2): refused, so the army holds.
    ("England", "A lvp - iri"),
    ("France", "A par - bur"),
    ("France", "A mar S A par - bur"),
    ("France", "F bre - mao"),
    ("Germany", "A mun - ruh"),
    ("Germany", "A ber - kie"),
    ("Germany", "F kie - den"),
    ("Italy", "A ven - pie"),
    ("Italy", "A rom - apu"),
    ("Italy", "F nap - ion"),
    // Russia and Austria both want Galicia: 1 against 1, neither enters.
    ("Russia", "A war - gal"),
    ("Russia", "A mos - ukr"),
    ("Russia", "F sev - bla"),
    ("Russia", "F stp/sc - bot"),
    ("Turkey", "A con - bul"),
    ("Turkey", "A smy - con"),
    ("Turkey", "F ank - bla"),
];

const FALL: &[(&str, &str)] = &[
    ("Austria", "A ser - gre"),
    ("Austria", "F alb S A ser - gre"),
    ("England", "F nth - nwy"),
    ("England", "F nwg S F nth - nwy"),
    ("England", "A lvp - yor"),
    ("France", "A bur - bel"),
    ("France", "F mao - spa/nc"),
    ("France", "A mar - spa"),
    ("Germany", "A ruh - hol"),
    ("Germany", "F den H"),
    ("Germany", "A kie - ber"),
    ("Italy", "A apu - tun"),
    ("Italy", "F ion C A apu - tun"),
    ("Italy", "A pie - mar"),
    ("Russia", "F bot - swe"),
    ("Russia", "A ukr - rum"),
    ("Russia", "F sev H"),
    ("Turkey", "A bul - rum"),
    ("Turkey", "A con - bul"),
    ("Turkey", "F ank H"),
];

fn orders(v: &Variant, lines: &[(&str, &str)]) -> Vec<Order> {
    lines
        .iter()
        .map(|(power, text)| {
            let power = v.find_power(power).expect("a Standard power");
            // Parsing checks only the words; the board is checked when judging.
            parse_order(v, power, text).unwrap_or_else(|e| panic!("{text}: {e}"))
        })
        .collect()
}

fn print(v: &Variant, result: &PhaseResult) {
    println!("== {}", result.phase());
    for r in &result.adjudication.results {
        let power = &v.power(r.power()).name;
        // A refused order is kept as given; a unit without an order has none.
        let order = r
            .order
            .or(r.given)
            .map_or("(no order)".to_string(), |o| o.display(v).to_string());
        println!("{power:>8}: {order:<24} {}", r.reason(v));
    }
    for (order, error) in &result.adjudication.refused {
        println!("refused: {} ({error})", order.display(v));
    }
}

fn main() {
    let v = builtin("standard").expect("Standard is built in").expect("it loads");
    let mut state = GameState::initial(&v);
    for lines in [SPRING, FALL] {
        let result = judge_phase(&v, &state, &orders(&v, lines), &[]);
        print(&v, &result);
        state = result.next().clone();
    }
    // After Fall, centres change hands; the next phase is the Winter's adjustments.
    println!("== {}: centres and builds", state.phase);
    let mut winter = Vec::new();
    let mut lister = Lister::new(&v, &state, Scope::Plausible);
    for p in v.great_powers() {
        let name = &v.power(p).name;
        println!("{name:>8}: {} centres, {:+}", state.centre_count(p), surplus(&state, p));
        // One build each, on the first site the option lister offers; a build left
        // unordered is waived by the judge.
        let options = lister.adjustments(p);
        if let Some(build) = options.into_iter().find(|o| matches!(o.kind, OrderKind::Build { .. })) {
            winter.push(build);
        }
    }
    let result = judge_phase(&v, &state, &winter, &[]);
    print(&v, &result);
    println!(
        "next: {}, {} units on the board",
        result.next().phase,
        result.next().units.len()
    );
}
