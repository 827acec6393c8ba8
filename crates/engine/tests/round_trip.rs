//! Every order text the engine prints reads back as the same order, in
//! every built-in variant: what a result page, a stored order or `chancery adjudicate`
//! prints can be submitted again unchanged.

use chancery_engine::builtin::{builtin, builtin_names};
use chancery_engine::order::{OrderKind, UnitRef};
use chancery_engine::parse::parse_order;
use chancery_engine::rules::Rule;
use chancery_engine::{Location, Order, PowerId, ProvinceId, UnitKind, Variant};
use proptest::prelude::*;

fn variants() -> Vec<Variant> {
    builtin_names().map(|n| builtin(n).unwrap().unwrap()).collect()
}

/// A location of the variant picked by `i`: a province, on one of its coasts when it
/// has coasts and `coast` asks for one.
fn location(v: &Variant, i: usize, coast: usize) -> Location {
    let p = (i % v.provinces.len()) as ProvinceId;
    let coasts = v.province(p).coasts.len();
    if coasts == 0 || coast % (coasts + 1) == 0 {
        Location::province(p)
    } else {
        Location::new(p, (coast % (coasts + 1)) as u8)
    }
}

fn kind_of(k: usize) -> UnitKind {
    if k % 2 == 0 {
        UnitKind::Army
    } else {
        UnitKind::Fleet
    }
}

/// An order in the engine's canonical form, built from the numbers `n`: every kind of
/// order, on any space, in the variant's notation (units always with their type, a
/// build with its type, boarding only where the variant has it).
fn order(v: &Variant, n: &[usize; 8]) -> Order {
    let power = (n[0] % v.powers.len()) as PowerId;
    let unit = UnitRef {
        kind: Some(kind_of(n[1])),
        location: location(v, n[2], n[3]),
    };
    let other = UnitRef {
        kind: Some(kind_of(n[4])),
        location: location(v, n[5], n[6]),
    };
    let to = location(v, n[5] + n[7], n[6] + n[7]);
    let boarding = v.rule_on(Rule::Boarding);
    let kind = match n[7] % if boarding { 12 } else { 10 } {
        0 => OrderKind::Hold,
        1 => OrderKind::Move { to, via_convoy: false },
        2 => OrderKind::Move { to, via_convoy: true },
        3 => OrderKind::SupportHold { unit: other },
        4 => OrderKind::SupportMove { unit: other, to },
        5 => OrderKind::Convoy { army: other, to },
        6 => OrderKind::Retreat { to },
        7 => OrderKind::Disband,
        8 => OrderKind::Build { kind: unit.kind },
        9 => OrderKind::Remove,
        10 => OrderKind::Board {
            to: None,
            with: (n[4] % 2 == 0).then_some((n[4] / 2 % v.powers.len()) as PowerId),
        },
        _ => OrderKind::Board {
            to: Some(to),
            with: (n[4] % 2 == 0).then_some((n[4] / 2 % v.powers.len()) as PowerId),
        },
    };
    Order { power, unit, kind }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_printed_order_reads_back(which in 0usize..16, n in proptest::array::uniform8(0usize..10_000)) {
        thread_local! {
            static VARIANTS: Vec<Variant> = variants();
        }
        VARIANTS.with(|vs| {
            let v = &vs[which % vs.len()];
            let o = order(v, &n);
            let text = o.display(v).to_string();
            let back = parse_order(v, o.power, &text);
            prop_assert_eq!(back, Ok(o), "{}: `{}`", v.id, text);
            Ok(())
        })?;
    }
}

/// The point that started it: a boarding order naming Austria-Hungary (a hyphenated
/// name) or its adjective was read as a move, so an army could not board an
/// Austro-Hungarian fleet by its power's name (Original 1958 rule 7).
#[test]
fn a_hyphenated_power_name_is_one_name() {
    let v = builtin("original-1958").unwrap().unwrap();
    let uk = v.find_power("United Kingdom").unwrap();
    let ah = v.find_power("Austria-Hungary").unwrap();
    let alb = v.find_province("alb").unwrap();
    for text in [
        "A alb B Austria-Hungary",
        "A alb B Austro-Hungarian",
        "A alb B austria - hungary",
    ] {
        let o = parse_order(&v, uk, text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(
            o.kind,
            OrderKind::Board {
                to: None,
                with: Some(ah)
            },
            "`{text}`"
        );
        assert_eq!(o.unit.location, Location::province(alb));
    }
    // A move between two spaces is not taken for a hyphenated power.
    let o = parse_order(&v, ah, "A vie-bud").unwrap();
    assert!(matches!(o.kind, OrderKind::Move { .. }));
}
