//! The one move outcome of the benchmark's mid-game sets on which Chancery and the
//! `diplomacy` crate 0.2 differ (1 of 18,788 moves; the bench's summary counts it), cut
//! down to its three units. Fall 1905 of set 1 of the mid-game workload had England's
//! `A edi - lvp` with `F nao C A edi - lvp`, and Russia's `F nwg - nao`.
//!
//! Edinburgh and Liverpool are neighbours, and England's own fleet is ordered to convoy
//! the army. DATC v3.0 issue 4.A.3 (the 2000 and 2023 rulebooks, with Kruijswijk's
//! preference): "if ordered with 'via convoy' or there is a fleet of the same country
//! legally ordered to convoy, only then the convoy route should be considered", with
//! "no fallback" to the land route (case 6.G.20). The convoy order is legal — "not
//! knowing any orders yet, [it] could be valid" (DATC 4.E.1): the route Edinburgh –
//! Norwegian Sea – North Atlantic – Liverpool exists with fleets on the board, and North
//! Atlantic is needed for it (so 6.G.19's unnecessary convoy does not apply). Russia's
//! fleet in the Norwegian Sea moves instead of convoying, so the sea route is never
//! complete and the army stays in Edinburgh. The crate moves the army over land, as the
//! reading of "could arrive" that 4.A.3 weighs and sets aside would (a convoy counts only
//! when fleets are ordered over the whole path; or DATC v2.4's fallback). Chancery
//! follows v3.0, as docs/datc.md says for 4.A.3.

#[path = "../benches/support/diplomacy_bridge.rs"]
#[allow(dead_code)] // the bridge also serves the benchmark's timing
mod diplomacy_bridge;

use chancery_engine::json::{state_from_json, StateJson};
use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::{adjudicate, GameState, Order, Variant};
use diplomacy::geo::standard_map;

fn standard() -> Variant {
    chancery_engine::builtin::builtin("standard").unwrap().unwrap()
}

fn position(v: &Variant, units: &[(&str, &str, &str)]) -> GameState {
    let units: Vec<serde_json::Value> = units
        .iter()
        .map(|(power, kind, at)| serde_json::json!({"power": power, "type": kind, "location": at}))
        .collect();
    let s: StateJson =
        serde_json::from_value(serde_json::json!({"phase": "F1905M", "units": units, "owners": {}})).unwrap();
    state_from_json(v, &s).unwrap()
}

/// The orders the engine accepts, and how many it refused as illegal (DATC 4.E.1:
/// ignored, the unit holds).
fn orders(v: &Variant, state: &GameState, texts: &[(&str, &str)]) -> (Vec<Order>, usize) {
    let all: Vec<_> = texts
        .iter()
        .map(|(power, text)| validate(v, state, &parse_order(v, v.find_power(power).unwrap(), text).unwrap()))
        .collect();
    let refused = all.iter().filter(|r| r.is_err()).count();
    (all.into_iter().filter_map(Result::ok).collect(), refused)
}

/// Whether the army in Edinburgh (the first order) reached Liverpool, by Chancery and
/// by the crate, and how many orders Chancery refused.
fn edinburgh_moves(units: &[(&str, &str, &str)], texts: &[(&str, &str)]) -> (bool, bool, usize) {
    let v = standard();
    let state = position(&v, units);
    let (given, refused) = orders(&v, &state, texts);
    let ours = adjudicate(&v, &state, &given);
    let lvp = v.find_province("lvp").unwrap();
    let chancery = ours.next.unit_at(lvp).is_some();
    let phase = diplomacy_bridge::translate(&v, &state, &given);
    let theirs = diplomacy_bridge::move_successes(standard_map(), &phase)[0].expect("a move");
    (chancery, theirs, refused)
}

#[test]
fn an_own_convoy_that_another_fleet_must_complete_keeps_the_army_home() {
    let (chancery, crate_02, refused) = edinburgh_moves(
        &[("England", "A", "edi"), ("England", "F", "nao"), ("Russia", "F", "nwg")],
        &[
            ("England", "A edi - lvp"),
            ("England", "F nao C A edi - lvp"),
            ("Russia", "F nwg - nao"),
        ],
    );
    assert_eq!(
        refused, 0,
        "the convoy order is legal: a route with fleets on the board needs it"
    );
    assert!(
        !chancery,
        "DATC 4.A.3 (v3.0): own convoy intent, no fallback to the land route"
    );
    assert!(crate_02, "the diplomacy crate 0.2 falls back to the land route; if it no longer does, the bench's count of differing outcomes should be 0");
}

#[test]
fn without_a_route_the_convoy_order_is_illegal_and_both_engines_move_over_land() {
    // No fleet in the Norwegian Sea: no route needs the fleet in the North Atlantic, so
    // its convoy order is illegal and ignored (DATC 4.E.1, 6.G.19), and the army walks.
    let (chancery, crate_02, refused) = edinburgh_moves(
        &[("England", "A", "edi"), ("England", "F", "nao")],
        &[("England", "A edi - lvp"), ("England", "F nao C A edi - lvp")],
    );
    assert_eq!(refused, 1, "a convoy order no route needs is illegal");
    assert!(chancery && crate_02);
}
