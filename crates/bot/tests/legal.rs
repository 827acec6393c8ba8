//! Every order and bid a bot gives is one the engine takes (over thousands
//! of self-play phases in every variant the engine refuses none: a refused order is a
//! unit that stands still), each order
//! is written in the project's notation and reads back through the parser to itself,
//! and a bot repeats itself for a seed.

use chancery_bot::selfplay::{play, seating};
use chancery_bot::{decide, Level, Settings};
use chancery_engine::builtin::{builtin, builtin_names};
use chancery_engine::dp::parse_bid;
use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::Variant;

fn variant(name: &str) -> Variant {
    builtin(name).unwrap().unwrap()
}

/// Plays `games` games of `years` years with the seat kinds rotated and checks every
/// decision's text on the way; returns the phases judged.
fn games(v: &Variant, kinds: &[Level], games: usize, years: i32, settings: impl Fn(Level, u64) -> Settings) -> usize {
    let mut phases = 0;
    for g in 0..games {
        let seats: Vec<_> = seating(v, kinds, g)
            .into_iter()
            .map(|(p, l)| (p, settings(l, 1000 + g as u64)))
            .collect();
        let end = play(v, &seats, years, |ask| {
            let d = decide(v, ask.state, ask.power, ask.settings);
            for o in &d.orders {
                let text = o.display(v).to_string();
                let back = parse_order(v, o.power, &text).unwrap_or_else(|e| panic!("`{text}` does not parse: {e}"));
                let back = validate(v, ask.state, &back).unwrap_or_else(|e| panic!("`{text}` refused: {e}"));
                assert_eq!(back, *o, "`{text}` reads back as another order");
            }
            for b in &d.bids {
                let text = format!("{} {}", b.dp, b.order.display(v));
                let back = parse_bid(v, ask.power, &text).unwrap_or_else(|e| panic!("bid `{text}`: {e}"));
                assert_eq!(back.dp, b.dp);
                assert_eq!(
                    back.order.unit.location.province, b.order.unit.location.province,
                    "bid `{text}` reads back on another unit"
                );
            }
            d
        })
        .unwrap_or_else(|e| panic!("{}, game {g}: {e}", v.id));
        phases += end.phases;
    }
    phases
}

/// Random and baseline play in every variant, the levels mixed: thousands of phases.
#[test]
fn fast_levels_give_only_legal_orders_and_bids_in_every_variant() {
    let mut total = 0;
    for name in builtin_names() {
        let v = variant(name);
        total += games(&v, &[Level::Baseline], 4, 20, Settings::new);
        total += games(&v, &[Level::Baseline, Level::Random], 4, 12, Settings::new);
        total += games(&v, &[Level::Random], 2, 12, Settings::new);
    }
    assert!(total > 1000, "only {total} phases were played");
}

/// A bot repeats its decision for the same seed.
#[test]
fn a_decision_repeats_for_a_seed() {
    for name in builtin_names() {
        let v = variant(name);
        let state = chancery_engine::GameState::initial(&v);
        for level in [Level::Random, Level::Baseline, Level::Strong] {
            for p in v.great_powers() {
                let s = Settings::new(level, 42);
                assert_eq!(decide(&v, &state, p, &s), decide(&v, &state, p, &s), "{name} {level:?}");
            }
        }
    }
}

/// The strong level's searched orders and bids are as legal as the baseline's: one
/// strong seat among baselines, rotated, in every variant.
#[test]
fn the_strong_level_gives_only_legal_orders_and_bids_in_every_variant() {
    for name in builtin_names() {
        let v = variant(name);
        let phases = games(&v, &[Level::Strong, Level::Baseline], 2, 6, |l, seed| Settings {
            judgements: 300,
            ..Settings::new(l, seed)
        });
        assert!(phases >= 12, "{name}: {phases} phases");
    }
}

/// A minor power and a great power in civil disorder take their orders from bids (DP
/// rules 1 and 11): a bot asked to play one gives nothing.
#[test]
fn a_minor_or_disordered_power_has_nothing_to_decide() {
    let v = variant("1936");
    let state = chancery_engine::GameState::initial(&v);
    let minor = (0..v.powers.len() as chancery_engine::PowerId)
        .find(|&p| v.is_minor(p))
        .unwrap();
    let italy = v.find_power("Italy").unwrap();
    let (disordered, _) = chancery_engine::dp::declare_civil_disorder(&v, &state, italy);
    for level in [Level::Random, Level::Baseline, Level::Strong] {
        let s = Settings::new(level, 1);
        assert_eq!(decide(&v, &state, minor, &s), Default::default());
        assert_eq!(decide(&v, &disordered, italy, &s), Default::default());
    }
}
