//! The options module against the validator: over positions of random play in every
//! built-in variant (movement, retreats and Winters), every order the lister gives is
//! one the validator takes unchanged, and every order the validator takes for a unit is
//! listed. The one allowed difference is the validator's leniency about supports: it
//! takes a support of a move the supported unit could never make (the support then
//! fails to matter), which the lister leaves out; the test checks that each such order
//! is of that kind.

use chancery_engine::builtin::{builtin, builtin_names};
use chancery_engine::options::{biddable_units, has_choice, orderable_units, power_orders, Lister, Scope};
use chancery_engine::order::{Order, OrderKind, UnitRef};
use chancery_engine::validate::validate;
use chancery_engine::variant::{Location, PowerKind};
use chancery_engine::{judge_phase, GameState, PhaseKind, PowerId, Unit, UnitKind, Variant};

/// A small deterministic generator (xorshift64*), so that a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn locations(v: &Variant) -> Vec<Location> {
    let mut out = Vec::new();
    for (p, prov) in v.provinces.iter().enumerate() {
        out.push(Location::province(p as u16));
        out.extend((1..=prov.coasts.len() as u8).map(|c| Location::new(p as u16, c)));
    }
    out
}

/// The order space of one unit in a movement phase: every kind of order to every
/// location and about every unit on the board.
fn movement_space(state: &GameState, power: PowerId, unit: &Unit, locs: &[Location]) -> Vec<Order> {
    let me = UnitRef {
        kind: Some(unit.kind),
        location: unit.location,
    };
    let o = |kind| Order { power, unit: me, kind };
    let mut space = vec![o(OrderKind::Hold)];
    for &to in locs {
        space.push(o(OrderKind::Move { to, via_convoy: false }));
        space.push(o(OrderKind::Move { to, via_convoy: true }));
    }
    for other in &state.units {
        let target = UnitRef {
            kind: Some(other.kind),
            location: Location::province(other.location.province),
        };
        space.push(o(OrderKind::SupportHold { unit: target }));
        for &to in locs {
            space.push(o(OrderKind::SupportMove { unit: target, to }));
            if other.kind == UnitKind::Army {
                space.push(o(OrderKind::Convoy { army: target, to }));
            }
        }
    }
    space
}

/// Whether the unit a support names could make the move it supports, by land or sea.
fn supported_move_possible(v: &Variant, state: &GameState, order: &Order) -> bool {
    let OrderKind::SupportMove { unit, to } = order.kind else {
        return true;
    };
    // In a 1958 stack the support's unit type says which unit it means.
    let Some(mover) = state
        .units
        .iter()
        .find(|u| u.location.province == unit.location.province && unit.kind.is_none_or(|k| k == u.kind))
    else {
        return false;
    };
    [false, true].into_iter().any(|via_convoy| {
        let mv = Order {
            power: mover.power,
            unit: UnitRef {
                kind: Some(mover.kind),
                location: mover.location,
            },
            kind: OrderKind::Move { to, via_convoy },
        };
        // A support naming a coast matches only a move to that coast (DATC 6.B.9).
        validate(v, state, &mv).is_ok_and(|ok| {
            matches!(ok.kind, OrderKind::Move { to: t, .. } if t.province == to.province && (to.coast == 0 || t == to))
        })
    })
}

fn check_unit(v: &Variant, state: &GameState, lister: &mut Lister, power: PowerId, unit: &Unit, space: &[Order]) {
    let listed = lister.unit_orders(power, unit);
    for (k, order) in listed.iter().enumerate() {
        assert!(
            !listed[..k].contains(order),
            "{}: `{}` listed twice",
            state.phase,
            order.display(v)
        );
    }
    for order in &listed {
        assert_eq!(
            validate(v, state, order).as_ref(),
            Ok(order),
            "{}: listed `{}` is not canonical and valid",
            state.phase,
            order.display(v)
        );
    }
    for candidate in space {
        let Ok(ok) = validate(v, state, candidate) else {
            continue;
        };
        // Another unit of a 1958 stack may be the one the validator picked.
        if ok.unit.location != unit.location || ok.unit.kind != Some(unit.kind) {
            continue;
        }
        if !listed.contains(&ok) {
            assert!(
                !supported_move_possible(v, state, &ok),
                "{}: `{}` is valid but not listed for {}",
                state.phase,
                ok.display(v),
                v.location_name(unit.location)
            );
        }
    }
}

/// Random orders for every power from the lister (a move more often than not), so that
/// the positions reached look like play: contact, dislodgements, builds.
fn random_orders(v: &Variant, state: &GameState, rng: &mut Rng) -> Vec<Order> {
    let mut orders = Vec::new();
    for power in v.great_powers() {
        let groups = power_orders(v, state, power, Scope::Plausible);
        for (unit, options) in groups {
            if options.is_empty() {
                continue;
            }
            match unit {
                Some(_) => {
                    let moves: Vec<&Order> = options
                        .iter()
                        .filter(|o| matches!(o.kind, OrderKind::Move { .. } | OrderKind::Retreat { .. }))
                        .collect();
                    let pick = if !moves.is_empty() && rng.below(3) > 0 {
                        *moves[rng.below(moves.len())]
                    } else {
                        options[rng.below(options.len())]
                    };
                    orders.push(pick);
                }
                None => {
                    // A Winter: several builds or removals, each listed on its own.
                    let n = 1 + rng.below(options.len());
                    for _ in 0..n {
                        orders.push(options[rng.below(options.len())]);
                    }
                }
            }
        }
    }
    orders
}

fn play_and_check(name: &str, games: usize, phases: usize, sample: Option<usize>) -> usize {
    let v = builtin(name).unwrap().unwrap();
    let locs = locations(&v);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ name.len() as u64);
    let mut checked = 0;
    for _ in 0..games {
        let mut state = GameState::initial(&v);
        for _ in 0..phases {
            let mut lister = Lister::new(&v, &state, Scope::All);
            for power in (0..v.powers.len() as PowerId).filter(|&p| v.power(p).kind != PowerKind::Minor) {
                for unit in orderable_units(&v, &state, power) {
                    let mut space = match state.phase.kind {
                        PhaseKind::Movement => movement_space(&state, power, &unit, &locs),
                        _ => locs
                            .iter()
                            .flat_map(|&to| {
                                let me = UnitRef {
                                    kind: Some(unit.kind),
                                    location: unit.location,
                                };
                                [
                                    Order {
                                        power,
                                        unit: me,
                                        kind: OrderKind::Retreat { to },
                                    },
                                    Order {
                                        power,
                                        unit: me,
                                        kind: OrderKind::Disband,
                                    },
                                ]
                            })
                            .collect(),
                    };
                    if let Some(n) = sample {
                        while space.len() > n {
                            let i = rng.below(space.len());
                            space.swap_remove(i);
                        }
                    }
                    check_unit(&v, &state, &mut lister, power, &unit, &space);
                    checked += 1;
                }
            }
            // Winters: each listed adjustment is valid, and a build on every owned
            // home centre that the validator takes is listed.
            if state.phase.kind == PhaseKind::Adjustment {
                for power in (0..v.powers.len() as PowerId).filter(|&p| v.power(p).kind != PowerKind::Minor) {
                    let listed = lister.adjustments(power);
                    for o in &listed {
                        assert_eq!(
                            validate(&v, &state, o).as_ref(),
                            Ok(o),
                            "{name}: adjustment `{}`",
                            o.display(&v)
                        );
                    }
                    for &at in &locs {
                        for kind in [UnitKind::Army, UnitKind::Fleet] {
                            let build = Order {
                                power,
                                unit: UnitRef {
                                    kind: Some(kind),
                                    location: at,
                                },
                                kind: OrderKind::Build { kind: Some(kind) },
                            };
                            if chancery_engine::adjust::surplus(&state, power) > 0 {
                                if let Ok(ok) = validate(&v, &state, &build) {
                                    assert!(
                                        listed.contains(&ok),
                                        "{name}: build `{}` valid, not listed",
                                        ok.display(&v)
                                    );
                                }
                            }
                        }
                    }
                }
            }
            // Minor units: what a bid may carry is what the minor itself may be ordered.
            for unit in biddable_units(&v, &state) {
                let listed = lister.minor_orders(&unit);
                assert!(
                    listed.iter().any(|o| o.kind == OrderKind::Hold),
                    "{name}: a minor may always hold"
                );
                for o in &listed {
                    assert_eq!(o.power, unit.power);
                    assert!(
                        !matches!(o.kind, OrderKind::Convoy { .. }),
                        "DP rule 3: no convoys by bid"
                    );
                    assert_eq!(validate(&v, &state, o).as_ref(), Ok(o));
                }
            }
            let orders = random_orders(&v, &state, &mut rng);
            let result = judge_phase(&v, &state, &orders, &[]);
            if result.winner().is_some() {
                break;
            }
            state = result.next().clone();
        }
    }
    checked
}

#[test]
fn standard_every_order_space_matches_the_validator() {
    let n = play_and_check("standard", 3, 24, None);
    assert!(n > 1000, "{n} units checked");
}

#[test]
fn the_other_variants_match_the_validator_on_samples() {
    for name in builtin_names().filter(|n| *n != "standard") {
        let n = play_and_check(name, 2, 30, Some(400));
        assert!(n > 500, "{name}: {n} units checked");
    }
}

#[test]
fn the_standard_opening_lists_the_textbook_moves() {
    let v = builtin("standard").unwrap().unwrap();
    let state = GameState::initial(&v);
    let england = v.find_power("England").unwrap();
    let groups = power_orders(&v, &state, england, Scope::Plausible);
    let texts: Vec<String> = groups
        .iter()
        .flat_map(|(_, o)| o.iter().map(|o| o.display(&v).to_string()))
        .collect();
    for want in [
        "F lon - nth",
        "F lon - eng",
        "F edi - nwg",
        "A lvp - yor",
        "A lvp - wal",
        "F edi S F lon - nth",
        "A lvp H",
    ] {
        assert!(texts.iter().any(|t| t == want), "missing `{want}` in {texts:?}");
    }
    // DATC 6.A.1/6.A.2: no move to a space the unit cannot reach, no army to sea.
    assert!(!texts.iter().any(|t| t == "F lon - pic" || t == "A lvp - iri"));
}

/// 1936, "The Spanish Civil War" (seed 000): "the Soviet player does the same for
/// Republican Spain", builds included. A Winter in which only the Republicans have a
/// build still has a decision for the Soviet player, and none for a player whose powers
/// are all balanced; in Spring every player with a unit, its own or its faction's, has
/// one, and a minor power's player (none) has nothing to decide.
#[test]
fn a_player_decides_for_its_factions_too() {
    let v = builtin("1936").unwrap().unwrap();
    let power = |n: &str| v.find_power(n).unwrap();
    let (soviet, italy, britain) = (power("Soviet Union"), power("Italy"), power("Britain"));
    let spring = GameState::initial(&v);
    assert!([soviet, italy, britain].iter().all(|&p| has_choice(&v, &spring, p)));

    let mut winter = GameState::initial(&v);
    winter.phase = chancery_engine::Phase::new(chancery_engine::Season::Fall, 1936, PhaseKind::Adjustment);
    for p in 0..v.powers.len() as PowerId {
        assert_eq!(
            winter.centre_count(p),
            winter.unit_count(p),
            "{} starts balanced",
            v.powers[p as usize].name
        );
    }
    assert!(!has_choice(&v, &winter, soviet) && !has_choice(&v, &winter, italy));
    winter.owners[v.find_province("Madrid").unwrap() as usize] = Some(power("Republican Spain"));
    assert!(
        has_choice(&v, &winter, soviet),
        "the Republicans' build is the Soviet player's to give"
    );
    assert!(!has_choice(&v, &winter, italy) && !has_choice(&v, &winter, britain));
}
