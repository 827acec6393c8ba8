//! Self-play reaches a victory in every variant, by each
//! variant's own condition: 18 centres on Standard (and 1648's 18, 1936's count with
//! its factions), 18 units in Original 1958 (its rule 1).

use chancery_bot::selfplay::{play, seating};
use chancery_bot::{decide, Level, Settings};
use chancery_engine::builtin::{builtin, builtin_names};
use chancery_engine::variant::Victory;

#[test]
fn a_baseline_among_random_players_wins_in_every_variant() {
    for name in builtin_names() {
        let v = builtin(name).unwrap().unwrap();
        let seats: Vec<_> = seating(&v, &[Level::Baseline, Level::Random], 0)
            .into_iter()
            .map(|(p, l)| (p, Settings::new(l, 7)))
            .collect();
        let end = play(&v, &seats, 30, |ask| decide(&v, ask.state, ask.power, ask.settings)).unwrap();
        let winner = end
            .winner
            .unwrap_or_else(|| panic!("{name}: no winner in 30 years: {:?}", end.centres));
        assert_eq!(
            seats.iter().find(|s| s.0 == winner).unwrap().1.level,
            Level::Baseline,
            "{name}"
        );
        match v.victory {
            Victory::Units(n) => {
                let units = end.units.iter().find(|u| u.0 == winner).unwrap().1;
                assert!(units >= n as usize, "{name}: won with {units} units");
            }
            Victory::Centres(n) => {
                let centres = end.centres.iter().find(|c| c.0 == winner).unwrap().1;
                assert!(centres >= n as usize, "{name}: won with {centres} centres");
            }
        }
    }
}
