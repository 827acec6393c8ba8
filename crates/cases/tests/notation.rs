//! What the case runner does with a case that is wrong in itself: an order
//! that cannot be read, an impossible position, the victory check, and orders and bids
//! that must be refused at submission. Each point has a case that passes and one that
//! must fail with the message named.

use chancery_cases::{parse_cases, run_case, CaseReport};
use chancery_engine::builtin::builtin;

fn run(variant: &str, body: &str) -> CaseReport {
    let text = format!("VARIANT_ALL {variant}\nCASE t\n{body}\nEND\n");
    let cases = parse_cases(&text).unwrap();
    let v = builtin(variant).unwrap().unwrap();
    run_case(&cases[0], &v)
}

fn fails_with(report: &CaseReport, text: &str) {
    assert!(
        report.differences.iter().any(|d| d.contains(text)),
        "expected a difference containing `{text}`, got {:?}",
        report.differences
    );
}

/// An unknown province is a mistake in the case: it fails with the parser's message
/// (the name and the nearest name) instead of the unit silently holding.
#[test]
fn an_order_that_cannot_be_read_fails_the_case() {
    let r = run(
        "standard",
        "PRESTATE\nEngland: F nth\nORDERS\nEngland: F nth - nrw\nPOSTSTATE_SAME",
    );
    fails_with(&r, "order `F nth - nrw` cannot be read");
    fails_with(&r, "nrw");
    let r = run(
        "standard",
        "PRESTATE\nEngland: F nth\nORDERS\nEngland: F nth flies to nwy\nPOSTSTATE_SAME",
    );
    fails_with(&r, "cannot be read");
}

/// DATC 6.A.2 (an army to sea) and the like: an order that is read but illegal is given
/// and ignored by the judge, as the DATC requires; the case passes.
#[test]
fn an_illegal_order_that_is_read_is_still_ignored() {
    let r = run(
        "standard",
        "PRESTATE\nEngland: A lvp\nORDERS\nEngland: A lvp - iri\nPOSTSTATE_SAME",
    );
    assert!(r.passed(), "{:?}", r.differences);
}

#[test]
fn an_impossible_position_fails_the_case() {
    let r = run("standard", "PRESTATE\nEngland: A nth\nORDERS\nPOSTSTATE_SAME");
    fails_with(&r, "impossible position: an army cannot stand in North Sea");
    let r = run("standard", "PRESTATE\nGermany: F mun\nORDERS\nPOSTSTATE_SAME");
    fails_with(&r, "impossible position: a fleet cannot stand in Munich");
    let r = run(
        "standard",
        "PRESTATE\nEngland: F lon\nFrance: A lon\nORDERS\nPOSTSTATE_SAME",
    );
    fails_with(&r, "impossible position: two units in London");
    let r = run(
        "standard",
        "PRESTATE_SETPHASE Spring 1901, Retreat\nPRESTATE\nGermany: A hol\nPRESTATE_DISLODGED\nEngland: F nth\nFrance: F nth\nORDERS\nPOSTSTATE_SAME",
    );
    fails_with(&r, "PRESTATE_DISLODGED: impossible position: two units in North Sea");
    // A dislodged unit shares its space with the unit that dislodged it.
    let r = run(
        "standard",
        "PRESTATE_SETPHASE Spring 1901, Retreat\nPRESTATE\nGermany: A hol\nPRESTATE_DISLODGED\nEngland: A hol\nORDERS\nEngland: A hol - bel\nPOSTSTATE\nGermany: A hol\nEngland: A bel",
    );
    assert!(r.passed(), "{:?}", r.differences);
}

/// Original 1958 rules 3 and 4: stacks are legal there (the British start with two
/// fleets and an army in London), in a power's capital or naval base.
#[test]
fn stacks_are_a_position_in_original_1958() {
    let r = run(
        "original-1958",
        "PRESTATE\nUnited Kingdom: F lon\nUnited Kingdom: F lon\nUnited Kingdom: A lon\nORDERS\nPOSTSTATE_SAME",
    );
    assert!(r.passed(), "{:?}", r.differences);
    // Only in a power's own capital or naval base, and only of one power.
    let r = run(
        "original-1958",
        "PRESTATE\nUnited Kingdom: A yor\nUnited Kingdom: A yor\nORDERS\nPOSTSTATE_SAME",
    );
    fails_with(
        &r,
        "impossible position: United Kingdom: A yor and United Kingdom: A yor in Yorkshire",
    );
    let r = run(
        "original-1958",
        "PRESTATE\nUnited Kingdom: F lon\nFrance: A lon\nORDERS\nPOSTSTATE_SAME",
    );
    fails_with(&r, "which is not a capital or naval base where France may stack");
}

/// Standard rules, "Winning": a power that controls 18 supply centres at the end of a
/// Fall wins. France holds 17 and takes Belgium.
#[test]
fn poststate_winner_checks_the_victory_condition() {
    let owners = "PRESTATE_SUPPLYCENTER_OWNERS\nFrance: par\nFrance: mar\nFrance: bre\nFrance: spa\nFrance: por\nFrance: mun\nFrance: kie\nFrance: ber\nFrance: hol\nFrance: den\nFrance: lon\nFrance: lvp\nFrance: edi\nFrance: nwy\nFrance: swe\nFrance: rom\nFrance: ven";
    let phase = format!("PRESTATE_SETPHASE Fall 1905, Movement\n{owners}\nPRESTATE\nFrance: A pic\nORDERS\nFrance: A pic - bel\nPOSTSTATE\nFrance: A bel");
    let r = run("standard", &format!("{phase}\nPOSTSTATE_WINNER France"));
    assert!(r.passed(), "{:?}", r.differences);
    let r = run("standard", &format!("{phase}\nPOSTSTATE_WINNER none"));
    fails_with(&r, "winner: expected nobody, got France");
    let r = run("standard", &format!("{phase}\nPOSTSTATE_WINNER Germany"));
    fails_with(&r, "winner: expected Germany, got France");
}

/// `REFUSED:` states that the judge refuses an order at submission: it passes when the
/// order is illegal (a fleet cannot move inland), fails when the order would have been
/// accepted, and with `"words"` fails when the refusal's message lacks them. A refused
/// order is not given. A line that cannot be read is a mistake, not a refusal.
#[test]
fn a_refused_order_is_checked() {
    let body = |line: &str| format!("PRESTATE\nEngland: F nth\nORDERS\n{line}\nPOSTSTATE_SAME");
    let r = run("standard", &body("REFUSED: England: F nth - ruh"));
    assert!(r.passed(), "{:?}", r.differences);
    let r = run(
        "standard",
        &body(r#"REFUSED "cannot move to Ruhr": England: F nth - ruh"#),
    );
    assert!(r.passed(), "{:?}", r.differences);
    let r = run("standard", &body(r#"REFUSED "not adjacent": England: F nth - ruh"#));
    fails_with(
        &r,
        "was refused, but with `a fleet cannot move to Ruhr, which is inland`, not for `not adjacent`",
    );
    let r = run("standard", &body("REFUSED: England: F nth - nwg"));
    fails_with(
        &r,
        "line 6: `England: F nth - nwg` must be refused at submission but was accepted",
    );
    let r = run("standard", &body("REFUSED: England: F nth - nrw"));
    fails_with(&r, "line 6: order `F nth - nrw` cannot be read");
}

/// 1936 Q12, the attack ban (docs/rules-dp.md): France attacks Belgium, so its bid on
/// Belgium's army is refused when submitted; Britain, who does not attack it, may bid.
#[test]
fn a_refused_bid_is_checked() {
    let body = |line: &str| {
        format!("PRESTATE_SETPHASE Spring 1937, Movement\nPRESTATE\nFrance: A pic\nBelgium: A bel\nORDERS\nFrance: A pic - bel\n{line}\nPOSTSTATE_SAME")
    };
    let r = run("1936", &body("REFUSED: France: DP A bel H"));
    assert!(r.passed(), "{:?}", r.differences);
    let r = run("1936", &body(r#"REFUSED "attack": France: DP A bel H"#));
    assert!(r.passed(), "{:?}", r.differences);
    let r = run("1936", &body("REFUSED: Britain: DP A bel H"));
    fails_with(
        &r,
        "`Britain: DP A bel H` must be refused at submission but was accepted",
    );
}
