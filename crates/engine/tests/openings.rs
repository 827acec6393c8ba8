//! Opening sanity for every built-in map: each great power's starting unit has a legal
//! move, and an opening in which every unit walks into a distinct empty space
//! adjudicates to the obvious result (everyone arrives).

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::{builtin, builtin_names};
use chancery_engine::order::{Order, OrderKind, UnitRef};
use chancery_engine::validate::validate;
use chancery_engine::variant::{Location, PowerKind};
use chancery_engine::{GameState, Outcome, UnitKind, Variant};

fn moves_for(v: &Variant, state: &GameState, i: usize) -> Vec<Order> {
    let u = state.units[i];
    let targets: Vec<Location> = match u.kind {
        UnitKind::Army => v
            .army_neighbours(u.location.province)
            .iter()
            .map(|&p| Location::province(p))
            .collect(),
        UnitKind::Fleet => v.fleet_neighbours(u.location).to_vec(),
    };
    targets
        .into_iter()
        .map(|to| Order {
            power: u.power,
            unit: UnitRef {
                kind: Some(u.kind),
                location: u.location,
            },
            kind: OrderKind::Move { to, via_convoy: false },
        })
        .filter_map(|o| validate(v, state, &o).ok())
        .collect()
}

#[test]
fn every_starting_unit_of_a_great_power_can_move() {
    for name in builtin_names() {
        let v = builtin(name).unwrap().unwrap();
        let state = GameState::initial(&v);
        for (i, u) in state.units.iter().enumerate() {
            if v.power(u.power).kind != PowerKind::Great {
                continue;
            }
            assert!(
                !moves_for(&v, &state, i).is_empty(),
                "{name}: {} {} {} has no legal move",
                v.power(u.power).name,
                u.kind.letter(),
                v.location_name(u.location)
            );
        }
    }
}

#[test]
fn a_quiet_opening_moves_every_unit() {
    for name in ["standard", "1936", "1648"] {
        let v = builtin(name).unwrap().unwrap();
        let state = GameState::initial(&v);
        let mut taken: Vec<u16> = state.units.iter().map(|u| u.location.province).collect();
        let mut orders = Vec::new();
        let mut movers = Vec::new();
        for (i, u) in state.units.iter().enumerate() {
            if v.power(u.power).kind != PowerKind::Great {
                continue;
            }
            // The first legal move into a space nobody stands in or moves to.
            let free = moves_for(&v, &state, i).into_iter().find(|o| match o.kind {
                OrderKind::Move { to, .. } => !taken.contains(&to.province) && v.can_move(u.kind, u.location, to),
                _ => false,
            });
            if let Some(o) = free {
                if let OrderKind::Move { to, .. } = o.kind {
                    taken.push(to.province);
                }
                orders.push(o);
                movers.push(u.location.province);
            }
        }
        assert!(
            movers.len() * 2
                >= state
                    .units
                    .iter()
                    .filter(|u| v.power(u.power).kind == PowerKind::Great)
                    .count()
        );
        let result = adjudicate(&v, &state, &orders);
        for r in &result.results {
            if r.unit.is_some_and(|u| movers.contains(&u.location.province)) {
                assert_eq!(r.outcome, Outcome::Moved, "{name}: {}", r.reason(&v));
            } else {
                assert_eq!(r.outcome, Outcome::Held, "{name}: {}", r.reason(&v));
            }
        }
    }
}

#[test]
fn standard_opening_lines_adjudicate_as_every_player_expects() {
    let v = builtin("standard").unwrap().unwrap();
    let state = GameState::initial(&v);
    let text = [
        "England: F lon - nth",
        "England: F edi - nwg",
        "England: A lvp - yor",
        "France: F bre - mao",
        "France: A par - bur",
        "France: A mar S A par - bur",
        "Germany: F kie - den",
        "Germany: A ber - kie",
        "Germany: A mun - ruh",
        "Russia: A war - gal",
        "Austria: A vie - gal",
        "Russia: F sev - bla",
        "Turkey: F ank - bla",
    ];
    let orders: Vec<Order> = text
        .iter()
        .map(|t| {
            let (p, o) = chancery_engine::parse::parse_order_line(&v, t).unwrap();
            Order { power: p.unwrap(), ..o }
        })
        .collect();
    let result = adjudicate(&v, &state, &orders);
    let outcome = |p: &str| {
        let p = v.find_province(p).unwrap();
        result
            .results
            .iter()
            .find(|r| r.unit.is_some_and(|u| u.location.province == p))
            .unwrap()
            .outcome
            .clone()
    };
    for moved in ["lon", "edi", "lvp", "bre", "par", "kie", "ber", "mun"] {
        assert_eq!(outcome(moved), Outcome::Moved, "{moved}");
    }
    // Galicia and the Black Sea are the classic standoffs.
    for bounced in ["war", "vie", "sev", "ank"] {
        assert!(
            matches!(
                outcome(bounced),
                Outcome::Bounced {
                    attack: 1,
                    against: 1,
                    ..
                }
            ),
            "{bounced}"
        );
    }
    assert_eq!(
        result.next.standoffs,
        Vec::<u16>::new(),
        "no dislodgement: the retreat phase is skipped"
    );
    assert_eq!(result.next.phase.code(), "F1901M");
}
