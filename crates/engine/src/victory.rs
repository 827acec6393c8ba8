//! Who has won, for variants where a great power's count includes more than its own
//! centres. 1936 (rule 10): Italy counts with Nationalist Spain and the Soviet Union with
//! Republican Spain ("considered one Great Power" for victory), while a client's
//! centres count for nobody (v3.5 on). 1648: 18 centres, no margin over the runner-up
//! (docs/rules-dp.md explains why the 5.5 margin is not applied).

use crate::state::GameState;
use crate::variant::{PowerId, PowerKind, Variant, Victory};

/// Centres that count towards `power`'s victory: its own and those of the factions its
/// player orders. A faction in civil disorder has no player any more (its centres are
/// independent minors, rule 8), so its centres count for nobody.
pub fn victory_count(v: &Variant, state: &GameState, power: PowerId) -> usize {
    let factions = (0..v.powers.len() as PowerId).filter(|&f| {
        v.power(f).kind == PowerKind::Faction && v.power(f).player == Some(power) && !state.in_disorder(f)
    });
    state.centre_count(power) + factions.map(|f| state.centre_count(f)).sum::<usize>()
}

/// The great power that has won: it reached the threshold and has strictly more than
/// any other great power that reached it. Two at the threshold with equal counts: play
/// goes on ("the game continues until one player has 18 or more SCs and that player has
/// more SCs than any other player"). A power in civil disorder has no player and
/// cannot win; the centres kept in its name are independent minors' and count as
/// nobody's (rule 11).
pub fn winner(v: &Variant, state: &GameState) -> Option<PowerId> {
    let (needed, count) = match v.victory {
        Victory::Centres(n) => (n as usize, victory_count as fn(&Variant, &GameState, PowerId) -> usize),
        Victory::Units(n) => (n as usize, units_count as fn(&Variant, &GameState, PowerId) -> usize),
    };
    // The leader and the best count of the others, in one pass.
    let mut top: Option<(usize, PowerId)> = None;
    let mut second = 0;
    for p in v.great_powers().filter(|&p| !state.in_disorder(p)) {
        let n = count(v, state, p);
        match top {
            Some((t, _)) if n <= t => second = second.max(n),
            _ => {
                if let Some((t, _)) = top {
                    second = second.max(t);
                }
                top = Some((n, p));
            }
        }
    }
    match top {
        Some((n, p)) if n >= needed && second < n => Some(p),
        _ => None,
    }
}

fn units_count(_: &Variant, state: &GameState, power: PowerId) -> usize {
    state.unit_count(power)
}
