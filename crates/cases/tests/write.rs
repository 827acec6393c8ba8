//! The case writer against the case reader: a random position of any
//! built-in variant, with orders and bids, written as a case and read back, is the same
//! position with the same orders and bids; and written with its judged result as the
//! expected sections, the case passes.

use chancery_cases::{case_position, parse_cases, run_case, write_case, CasePosition};
use chancery_engine::builtin::builtin;
use chancery_engine::dp::{check_bids, Bid};
use chancery_engine::parse::parse_order;
use chancery_engine::rules::Rule;
use chancery_engine::state::{Carried, Dislodged, GameState, Phase, PhaseKind, Unit};
use chancery_engine::{judge_phase, Location, PowerId, ProvinceId, Season, UnitKind, Variant};
use proptest::prelude::*;

/// A small deterministic generator: proptest picks the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, in_hundred: u64) -> bool {
        self.next() % 100 < in_hundred
    }
}

fn unit_text(v: &Variant, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), v.location_name(u.location))
}

/// A unit that can stand in `p`, of a random kind and coast.
fn unit_in(v: &Variant, r: &mut Rng, p: ProvinceId, power: PowerId) -> Option<Unit> {
    let army = v.army_can_stand(p);
    let fleet = v.fleet_can_stand(p);
    let kind = match (army, fleet) {
        (true, true) if r.chance(50) => UnitKind::Fleet,
        (true, _) => UnitKind::Army,
        (false, true) => UnitKind::Fleet,
        (false, false) => return None,
    };
    let coasts = v.province(p).coasts.len();
    let coast = if kind == UnitKind::Fleet && coasts > 0 {
        1 + r.below(coasts) as u8
    } else {
        0
    };
    Some(Unit {
        power,
        kind,
        location: Location::new(p, coast),
    })
}

/// A random position the case format can hold, with orders and bids for its phase.
fn random_position(v: &Variant, seed: u64) -> CasePosition {
    let r = &mut Rng(seed | 1);
    let kind = [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment][r.below(3)];
    let season = if kind == PhaseKind::Adjustment || r.chance(50) {
        Season::Fall
    } else {
        Season::Spring
    };
    let phase = Phase::new(season, v.start.1 + r.below(30) as i32, kind);
    let mut state = GameState::empty(v, phase);
    let powers = v.powers.len();
    let spaces = v.provinces.len();
    let mut used = vec![false; spaces];
    for _ in 0..r.below(spaces / 2) + 1 {
        let p = r.below(spaces);
        if used[p] {
            continue;
        }
        let power = r.below(powers) as PowerId;
        if let Some(u) = unit_in(v, r, p as ProvinceId, power) {
            used[p] = true;
            state.units.push(u);
        }
    }
    for (p, prov) in v.provinces.iter().enumerate() {
        if prov.sc {
            state.owners[p] = r.chance(80).then(|| r.below(powers) as PowerId);
        }
    }
    if v.has_minors() {
        for p in 0..powers as PowerId {
            if !v.is_minor(p) && r.chance(15) {
                state.disordered.push(p);
            }
        }
    }
    if kind == PhaseKind::Retreat {
        // Dislodged units in occupied spaces, each from a neighbour or by convoy; a
        // standoff or two in empty spaces.
        let occupied: Vec<ProvinceId> = state.units.iter().map(|u| u.location.province).collect();
        for &p in occupied.iter().take(3) {
            let power = r.below(powers) as PowerId;
            let Some(unit) = unit_in(v, r, p, power) else {
                continue;
            };
            let from = v.army_neighbours(p);
            let attacker_from = (!from.is_empty() && r.chance(70)).then(|| from[r.below(from.len())]);
            state.dislodged.push(Dislodged { unit, attacker_from });
        }
        for _ in 0..r.below(3) {
            let p = r.below(spaces) as ProvinceId;
            let empty = !used[p as usize] && !state.dislodged.iter().any(|d| d.unit.location.province == p);
            if empty && !v.army_neighbours(p).is_empty() && !state.standoffs.contains(&p) {
                state.standoffs.push(p);
            }
        }
    }
    if v.rule_on(Rule::Boarding) {
        // Armies aboard fleets at sea, and aboard a dislodged fleet.
        for u in &state.units {
            if u.kind == UnitKind::Fleet && !v.army_can_stand(u.location.province) && r.chance(30) {
                let army = r.below(powers) as PowerId;
                state.carried.push(Carried {
                    army,
                    fleet: *u,
                    carrier_dislodged: false,
                });
            }
        }
        for d in &state.dislodged {
            if d.unit.kind == UnitKind::Fleet && r.chance(50) {
                state.carried.push(Carried {
                    army: d.unit.power,
                    fleet: d.unit,
                    carrier_dislodged: true,
                });
            }
        }
    }

    // Orders as a player types them, read by the parser: the canonical orders.
    let mut texts: Vec<(PowerId, String)> = Vec::new();
    match kind {
        PhaseKind::Movement => {
            for (i, u) in state.units.iter().enumerate() {
                let me = unit_text(v, u);
                let text = match r.below(3) {
                    0 => format!("{me} H"),
                    1 => match v.army_neighbours(u.location.province) {
                        [] => format!("{me} H"),
                        n => format!("{me} - {}", v.province(n[r.below(n.len())]).abbr),
                    },
                    _ => {
                        let other = &state.units[r.below(state.units.len())];
                        if r.below(state.units.len()) == i {
                            format!("{me} H")
                        } else {
                            format!("{me} S {}", unit_text(v, other))
                        }
                    }
                };
                texts.push((u.power, text));
            }
        }
        PhaseKind::Retreat => {
            for d in &state.dislodged {
                let me = unit_text(v, &d.unit);
                let text = match v.army_neighbours(d.unit.location.province) {
                    n if !n.is_empty() && r.chance(60) => format!("{me} R {}", v.province(n[r.below(n.len())]).abbr),
                    _ => format!("{me} D"),
                };
                texts.push((d.unit.power, text));
            }
        }
        PhaseKind::Adjustment => {
            for _ in 0..r.below(4) {
                let power = r.below(powers) as PowerId;
                let p = r.below(spaces) as ProvinceId;
                let text = match r.below(3) {
                    0 => "Waive".to_string(),
                    1 => match unit_in(v, r, p, power) {
                        Some(u) => format!("Build {}", unit_text(v, &u)),
                        None => "Waive".to_string(),
                    },
                    _ => match state.units.get(r.below(state.units.len())) {
                        Some(u) => format!("Remove {}", unit_text(v, u)),
                        None => "Waive".to_string(),
                    },
                };
                texts.push((power, text));
            }
        }
    }
    let orders = texts
        .iter()
        .map(|(p, t)| parse_order(v, *p, t).unwrap_or_else(|e| panic!("{}: `{t}`: {e}", v.id)))
        .collect::<Vec<_>>();

    // DP bids on minor units that the judge accepts at submission (the reader checks
    // them as a judge does).
    let mut bids: Vec<Bid> = Vec::new();
    if kind == PhaseKind::Movement && v.rule_on(Rule::DiplomacyPoints) {
        let minors: Vec<Unit> = state
            .units
            .iter()
            .copied()
            .filter(|u| state.acts_as_minor(v, u.power))
            .collect();
        for bidder in v.great_powers() {
            let Some(u) = minors.get(r.below(minors.len() + 1)) else {
                continue;
            };
            let order = parse_order(v, bidder, &format!("{} H", unit_text(v, u))).unwrap();
            let bid = Bid {
                power: bidder,
                dp: 1,
                order,
            };
            let mut with = bids.clone();
            with.push(bid);
            if check_bids(v, &state, bidder, &orders, &with).is_ok() {
                bids = with;
            }
        }
    }
    CasePosition { state, orders, bids }
}

fn variant(i: usize) -> Variant {
    let name = ["standard", "1936", "1648", "original-1958"][i];
    builtin(name).unwrap().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Written and read back, a position is the same position, with the same orders
    /// and bids.
    #[test]
    fn a_written_case_reads_back_as_the_same_position(which in 0usize..4, seed in any::<u64>()) {
        let v = variant(which);
        let position = random_position(&v, seed);
        let text = write_case(&v, "round trip", &position, None).unwrap();
        let cases = parse_cases(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(cases.len(), 1);
        let read = case_position(&cases[0], &v).unwrap_or_else(|e| panic!("{e}\n{text}"));
        prop_assert_eq!(&read.state, &position.state, "{}", text);
        prop_assert_eq!(&read.orders, &position.orders, "{}", text);
        prop_assert_eq!(&read.bids, &position.bids, "{}", text);
    }

    /// Written with its judged result as the expected sections, a case passes: the
    /// writer says what the runner checks.
    #[test]
    fn a_judged_phase_written_as_a_case_passes(which in 0usize..4, seed in any::<u64>()) {
        let v = variant(which);
        let position = random_position(&v, seed);
        let result = judge_phase(&v, &position.state, &position.orders, &position.bids);
        let text = write_case(&v, "judged", &position, Some(&result)).unwrap();
        let cases = parse_cases(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let report = run_case(&cases[0], &v);
        prop_assert!(report.passed(), "{:?}\n{}", report.differences, text);
    }
}

/// What the format cannot say is refused, not written wrong.
#[test]
fn what_the_format_cannot_hold_is_refused() {
    let v = variant(0);
    let mut state = GameState::initial(&v);
    state.phase = Phase::new(Season::Spring, 1901, PhaseKind::Retreat);
    // A standoff in an occupied space.
    state.standoffs.push(v.find_province("par").unwrap());
    let position = CasePosition {
        state: state.clone(),
        orders: Vec::new(),
        bids: Vec::new(),
    };
    let e = write_case(&v, "x", &position, None).unwrap_err();
    assert!(e.contains("standoff in Paris"), "{e}");
    // An attacker from a space that does not border the dislodged unit.
    state.standoffs.clear();
    let mos = state
        .units
        .iter()
        .find(|u| u.location.province == v.find_province("mos").unwrap())
        .copied()
        .unwrap();
    state.dislodged.push(Dislodged {
        unit: mos,
        attacker_from: v.find_province("lon"),
    });
    let position = CasePosition {
        state,
        orders: Vec::new(),
        bids: Vec::new(),
    };
    let e = write_case(&v, "x", &position, None).unwrap_err();
    assert!(e.contains("does not border"), "{e}");
}
