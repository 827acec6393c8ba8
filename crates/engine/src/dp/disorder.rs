//! Rule 11: a great power the GM puts in permanent civil disorder, and rule 8: a
//! faction whose sponsor is eliminated goes the same way.

use crate::state::{GameState, Unit};
use crate::variant::{Location, PowerId, PowerKind, UnitKind, Variant};

/// The position right after the GM declares `power` in permanent civil disorder:
/// its units (dislodged ones too) are disbanded; each centre it controls that now
/// stands empty becomes a new independent minor with an army built there. Centres it
/// controls that another power's unit occupies stay its own until a Fall turn ends with
/// them empty; the Winter rebuild of minors (`adjust::minor_rebuilds`) then builds the
/// army there.
///
/// The army on a centre that started as a minor power's belongs to that minor again
/// (with that minor's patrons, as 1648 asks: "a power's client if so designated on the
/// map"); on any other centre it keeps `power`'s colours and is an independent minor.
/// `power` joins `GameState::disordered`, for good ("it may not be played by an active
/// player again"), which is how every later phase knows its units are minors.
pub fn civil_disorder(v: &Variant, state: &GameState, power: PowerId) -> GameState {
    let mut next = state.clone();
    if !next.in_disorder(power) {
        next.disordered.push(power);
    }
    next.units.retain(|u| u.power != power);
    next.dislodged.retain(|d| d.unit.power != power);
    for (p, prov) in v.provinces.iter().enumerate() {
        if !prov.sc || next.owners[p] != Some(power) {
            continue;
        }
        // A former minor's centre goes back to that minor at once, occupied or not, so
        // that the ordinary Winter rebuild of minors applies to it.
        let owner = match prov.owner {
            Some(m) if v.is_minor(m) => m,
            _ => power,
        };
        next.owners[p] = Some(owner);
        let empty = !next.units.iter().any(|u| u.location.province as usize == p);
        if empty && v.army_can_stand(p as u16) {
            next.units.push(Unit {
                power: owner,
                kind: UnitKind::Army,
                location: Location::province(p as u16),
            });
        }
    }
    next
}

/// Factions whose sponsor is gone but which still stand on the board and are not yet in
/// civil disorder: rule 8 puts them there at once. A sponsor is gone when eliminated (no
/// units and no centres) and also when declared in permanent civil disorder: its units
/// are disbanded and its centres are independent minors, so, as rule 8 puts it, "the
/// controlling player is entirely eliminated from the game" and nobody would order the
/// faction again.
pub fn orphaned_factions(v: &Variant, state: &GameState) -> Vec<PowerId> {
    // A power whose last unit is dislodged but may still retreat is not yet eliminated.
    let alive = |p: PowerId| {
        state.unit_count(p) > 0 || state.centre_count(p) > 0 || state.dislodged.iter().any(|d| d.unit.power == p)
    };
    (0..v.powers.len() as PowerId)
        // Once in disorder a faction's centres stay in its name as independent minors,
        // so it still "stands on the board" and would be listed again.
        .filter(|&f| v.power(f).kind == PowerKind::Faction && !state.in_disorder(f))
        .filter(|&f| v.power(f).player.is_some_and(|s| state.in_disorder(s) || !alive(s)) && alive(f))
        .collect()
}

/// Rule 8 applied to a position: every faction `orphaned_factions` lists is put into
/// civil disorder (`civil_disorder`). Returns those factions. `phase::judge_phase` runs it
/// after every phase; the GM's declaration runs it through `declare_civil_disorder`.
pub fn orphans_into_disorder(v: &Variant, state: &mut GameState) -> Vec<PowerId> {
    let orphaned = orphaned_factions(v, state);
    for &faction in &orphaned {
        *state = civil_disorder(v, state, faction);
    }
    orphaned
}

/// The GM declares `power` in permanent civil disorder (rule 11), and rule 8 follows in
/// the same step for any faction that leaves without a sponsor: the position after
/// both, and the factions rule 8 took.
pub fn declare_civil_disorder(v: &Variant, state: &GameState, power: PowerId) -> (GameState, Vec<PowerId>) {
    let mut next = civil_disorder(v, state, power);
    let orphaned = orphans_into_disorder(v, &mut next);
    (next, orphaned)
}
