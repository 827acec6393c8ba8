//! Which spaces a movement phase leaves closed to retreats, judged as a game judges
//! them: the movement phase, then the retreat phase from the position it left (the case
//! runner sets a retreat phase up from stated results, so it cannot see this).

use chancery_engine::builtin::builtin;
use chancery_engine::parse::{parse_named_order, parse_unit};
use chancery_engine::{judge_phase, GameState, Phase, PhaseKind, Season};

/// DATC 6.H.9: Russia's army in Prussia, beaten head to head by Germany's supported move
/// from Berlin, is dislodged; its failed move must not leave Berlin contested, so the
/// German fleet dislodged from Kiel may retreat to Berlin.
#[test]
fn a_move_that_lost_a_head_to_head_battle_leaves_no_standoff() {
    let v = builtin("standard").unwrap().unwrap();
    let mut s = GameState::empty(&v, Phase::new(Season::Spring, 1901, PhaseKind::Movement));
    for u in [
        "England: F hel",
        "England: F den",
        "Germany: A ber",
        "Germany: F kie",
        "Germany: A sil",
        "Russia: A pru",
    ] {
        s.units.push(parse_unit(&v, u).unwrap());
    }
    let orders: Vec<_> = [
        "England: F hel - kie",
        "England: F den S F hel - kie",
        "Germany: A ber - pru",
        "Germany: F kie H",
        "Germany: A sil S A ber - pru",
        "Russia: A pru - ber",
    ]
    .iter()
    .map(|o| parse_named_order(&v, o).unwrap())
    .collect();
    let movement = judge_phase(&v, &s, &orders, &[]);
    let next = movement.next();
    let ber = v.find_province("ber").unwrap();
    assert_eq!(next.phase.kind, PhaseKind::Retreat);
    assert!(
        !next.standoffs.contains(&ber),
        "Berlin must not be a standoff: {:?}",
        next.standoffs
    );
    let retreat = parse_named_order(&v, "Germany: F kie R ber").unwrap();
    let after = judge_phase(&v, next, &[retreat], &[]);
    let fleet = after.next().units.iter().find(|u| u.location.province == ber);
    assert!(fleet.is_some(), "the fleet from Kiel retreated to Berlin");
}
