//! How much each space is worth to a power, after DumbBot's published method (David
//! Norman's description of it), restated for any variant graph:
//!
//! 1. A supply centre someone else owns is worth attacking in proportion to the size of
//!    its owner (bigger powers are the ones to cut down); one of our own is worth
//!    defending in proportion to the size of the biggest power with a unit next to it.
//!    Other spaces are worth nothing of themselves.
//! 2. Those worths spread over rings of neighbours: a space's value at ring n is its
//!    own and its neighbours' values at ring n-1, averaged. The sum of the rings,
//!    weighted, tells a unit which way the centres lie. Armies and fleets spread over
//!    their own graphs, since each can walk only its own.
//! 3. Strength (how many of our units could enter a space) and competition (the most
//!    units of any one other power that could) adjust the value of going there.
//!
//! The weights differ by season: in Spring a unit looks further ahead; in Fall the
//! space itself (a centre taken now is kept) counts most.

use chancery_engine::{GameState, PowerId, ProvinceId, Season, UnitKind, Variant};

/// DumbBot's size of a power: grows faster than its number of centres, so that a
/// leader is everyone's target.
pub fn size(centres: usize) -> f64 {
    let n = centres as f64;
    n * n + 4.0 * n + 16.0
}

const RINGS: usize = 10;
const SPRING_RINGS: [f64; RINGS] = [100.0, 1000.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
const FALL_RINGS: [f64; RINGS] = [1000.0, 100.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
const BUILD_RINGS: [f64; RINGS] = [1000.0, 100.0, 30.0, 10.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];

/// The graphs of a variant at the level of spaces, one per unit kind.
pub struct Graph {
    pub army: Vec<Vec<ProvinceId>>,
    pub fleet: Vec<Vec<ProvinceId>>,
}

impl Graph {
    pub fn new(v: &Variant) -> Graph {
        let n = v.provinces.len();
        let army = (0..n).map(|p| v.army_neighbours(p as ProvinceId).to_vec()).collect();
        let mut fleet = vec![Vec::new(); n];
        for (p, prov) in v.provinces.iter().enumerate() {
            let mut locs = vec![chancery_engine::Location::province(p as ProvinceId)];
            locs.extend((1..=prov.coasts.len() as u8).map(|c| chancery_engine::Location::new(p as ProvinceId, c)));
            let out: &mut Vec<ProvinceId> = &mut fleet[p];
            for l in locs {
                for to in v.fleet_neighbours(l) {
                    if !out.contains(&to.province) {
                        out.push(to.province);
                    }
                }
            }
        }
        Graph { army, fleet }
    }

    pub fn of(&self, kind: UnitKind) -> &[Vec<ProvinceId>] {
        match kind {
            UnitKind::Army => &self.army,
            UnitKind::Fleet => &self.fleet,
        }
    }
}

/// What the spaces are worth to one player (a great power with its factions).
pub struct Values {
    /// Value of an army standing in each space.
    pub army: Vec<f64>,
    /// Value of a fleet standing in each space.
    pub fleet: Vec<f64>,
    /// Our units that could be in each space next phase.
    pub strength: Vec<u32>,
    /// The most units of any one other side that could.
    pub competition: Vec<u32>,
}

/// Which weights to use.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Spring,
    Fall,
    Build,
}

impl Values {
    pub fn of(&self, kind: UnitKind, p: ProvinceId) -> f64 {
        match kind {
            UnitKind::Army => self.army[p as usize],
            UnitKind::Fleet => self.fleet[p as usize],
        }
    }

    /// The worth of a space to `player`, who plays every power `mine` says is its own.
    pub fn new(v: &Variant, g: &Graph, state: &GameState, player: PowerId, purpose: Purpose) -> Values {
        let n = v.provinces.len();
        let mine = |p: PowerId| v.controls(player, p);
        // A power's size counts its factions' centres with it, as victory does.
        let mut centres = vec![0usize; v.powers.len()];
        for o in state.owners.iter().flatten() {
            let head = v.power(*o).player.unwrap_or(*o);
            centres[head as usize] += 1;
        }
        let head = |p: PowerId| v.power(p).player.unwrap_or(p);
        let my_size = centres[player as usize];
        // Who could be in each space next phase, per side.
        let mut strength = vec![0u32; n];
        let mut competition = vec![0u32; n];
        let mut biggest_threat = vec![0usize; n];
        let mut counts: Vec<Vec<(PowerId, u32)>> = vec![Vec::new(); n];
        for u in &state.units {
            let here = u.location.province;
            let reach = g.of(u.kind)[here as usize].iter().copied().chain(std::iter::once(here));
            for p in reach {
                if mine(u.power) {
                    strength[p as usize] += 1;
                } else {
                    let h = head(u.power);
                    let c = &mut counts[p as usize];
                    match c.iter_mut().find(|(q, _)| *q == h) {
                        Some(e) => e.1 += 1,
                        None => c.push((h, 1)),
                    }
                    if !state.acts_as_minor(v, u.power) {
                        biggest_threat[p as usize] = biggest_threat[p as usize].max(centres[h as usize]);
                    }
                }
            }
        }
        for p in 0..n {
            competition[p] = counts[p].iter().map(|c| c.1).max().unwrap_or(0);
        }
        let (attack_w, defence_w, rings) = match purpose {
            Purpose::Spring => (700.0, 300.0, &SPRING_RINGS),
            Purpose::Fall => (600.0, 400.0, &FALL_RINGS),
            Purpose::Build => (1000.0, 1000.0, &BUILD_RINGS),
        };
        let mut base = vec![0.0f64; n];
        for (p, prov) in v.provinces.iter().enumerate() {
            if !prov.sc {
                continue;
            }
            base[p] = match state.owners[p] {
                Some(o) if mine(o) => {
                    defence_w
                        * if biggest_threat[p] > 0 {
                            size(biggest_threat[p])
                        } else {
                            0.0
                        }
                }
                Some(o) => attack_w * size(centres[head(o) as usize]),
                // An unowned centre is worth about what a middling power's is: early on
                // the neutrals are the easiest centres there are.
                None => attack_w * size(my_size.max(4)),
            };
        }
        let spread = |adj: &[Vec<ProvinceId>]| -> Vec<f64> {
            let mut total: Vec<f64> = base.iter().map(|b| b * rings[0]).collect();
            let mut ring = base.clone();
            let mut next = vec![0.0; n];
            for w in rings.iter().skip(1) {
                for p in 0..n {
                    let s: f64 = ring[p] + adj[p].iter().map(|&q| ring[q as usize]).sum::<f64>();
                    next[p] = s / 5.0;
                }
                std::mem::swap(&mut ring, &mut next);
                for p in 0..n {
                    total[p] += w * ring[p];
                }
            }
            total
        };
        let mut army = spread(&g.army);
        let mut fleet = spread(&g.fleet);
        for p in 0..n {
            if !v.army_can_stand(p as ProvinceId) {
                army[p] = 0.0;
            }
            if !v.fleet_can_stand(p as ProvinceId) {
                fleet[p] = 0.0;
            }
        }
        Values {
            army,
            fleet,
            strength,
            competition,
        }
    }
}

/// The weights for a phase of `state`: Spring's for Spring movement and retreats, Fall's
/// for Fall's, the build weights in Winter.
pub fn purpose_of(state: &GameState) -> Purpose {
    match (state.phase.kind, state.phase.season) {
        (chancery_engine::PhaseKind::Adjustment, _) => Purpose::Build,
        (_, Season::Spring) => Purpose::Spring,
        (_, Season::Fall) => Purpose::Fall,
    }
}
