//! Random positions with a chosen number of units on the 1648 map, to measure how the
//! cost of a phase grows as the board fills: the same kind of random legal orders as
//! the Standard workload, on boards from a 1648 opening's size up to every space
//! occupied.

use chancery_engine::builtin::builtin;
use chancery_engine::variant::Terrain;
use chancery_engine::{GameState, Location, PowerId, ProvinceId, Unit, UnitKind, Variant};

use crate::commands::commands_for;
use crate::options::unit_options;
use crate::orders::{random_orders, Style};
use crate::rng::Rng;
use crate::workload::OrderSet;

/// Positions per board size; each gets `SETS_PER_POSITION` order sets.
pub const POSITIONS: usize = 20;
pub const SETS_PER_POSITION: usize = 10;

/// Random movement phases on one map with a fixed number of units.
pub struct Crowded {
    pub variant: Variant,
    pub units: usize,
    pub positions: Vec<GameState>,
    pub sets: Vec<OrderSet>,
    /// Orders the generator drew that the engine refused (expected 0).
    pub refused: usize,
}

impl Crowded {
    pub fn state(&self, set: &OrderSet) -> &GameState {
        &self.positions[set.position]
    }
}

/// The 1648 map with `units` units of the great powers placed at random, one per space
/// (at most one per space that can hold a unit: 139 of its 140), Spring 1649.
pub fn crowded_1648(units: usize, seed: u64) -> Crowded {
    let variant = builtin("1648")
        .expect("the 1648 map is built in")
        .expect("the built-in 1648 map loads");
    let mut rng = Rng::new(seed);
    let positions: Vec<GameState> = (0..POSITIONS)
        .map(|_| random_position(&variant, units, &mut rng))
        .collect();
    let mut sets = Vec::with_capacity(POSITIONS * SETS_PER_POSITION);
    let mut refused = 0;
    for (position, state) in positions.iter().enumerate() {
        let opts = unit_options(&variant, state);
        for _ in 0..SETS_PER_POSITION {
            let drawn = random_orders(&variant, state, &opts, &mut rng, Style::Uniform);
            refused += drawn.refused;
            sets.push(OrderSet {
                position,
                commands: commands_for(state, &drawn.orders),
                orders: drawn.orders,
            });
        }
    }
    Crowded {
        variant,
        units,
        positions,
        sets,
        refused,
    }
}

fn random_position(v: &Variant, units: usize, rng: &mut Rng) -> GameState {
    let mut spaces: Vec<ProvinceId> = (0..v.provinces.len() as ProvinceId)
        .filter(|&p| v.province(p).terrain != Terrain::Impassable)
        .collect();
    assert!(units <= spaces.len(), "the map holds at most {} units", spaces.len());
    let powers: Vec<PowerId> = v.great_powers().collect();
    let mut state = GameState::initial(v);
    state.units.clear();
    for _ in 0..units {
        let p = spaces.swap_remove(rng.below(spaces.len()));
        let prov = v.province(p);
        let fleet = match prov.terrain {
            Terrain::Sea => true,
            Terrain::Coast => rng.chance(40),
            _ => false,
        };
        let location = if fleet && !prov.coasts.is_empty() {
            Location::new(p, 1 + rng.below(prov.coasts.len()) as u8)
        } else {
            Location::province(p)
        };
        state.units.push(Unit {
            power: *rng.pick(&powers).expect("the variant has great powers"),
            kind: if fleet { UnitKind::Fleet } else { UnitKind::Army },
            location,
        });
    }
    state
}
