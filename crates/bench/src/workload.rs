//! The fixed workload: order sets for the Standard opening and for mid-game positions.

use chancery_engine::builtin::builtin;
use chancery_engine::movement::Command;
use chancery_engine::{GameState, Order, Variant};

use crate::commands::commands_for;
use crate::options::unit_options;
use crate::orders::{random_orders, Style};
use crate::positions::midgame_positions;
use crate::rng::Rng;

/// The seed of every random choice in the workload.
pub const SEED: u64 = 0xC4A2_CE12_1901;
/// Order sets per kind of position.
pub const SETS: usize = 1000;
/// "Mid-game" means at least this many units on the board.
pub const MIDGAME_UNITS: usize = 30;
/// Distinct mid-game positions; each gets `SETS / MIDGAME_POSITIONS` order sets.
pub const MIDGAME_POSITIONS: usize = 100;

/// One movement phase to adjudicate: a position and one order per unit.
#[derive(Clone, Debug)]
pub struct OrderSet {
    /// Index into `Workload::positions`.
    pub position: usize,
    /// Validated orders, one per unit, in unit order.
    pub orders: Vec<Order>,
    /// The same orders as the resolver's commands.
    pub commands: Vec<Command>,
}

pub struct Workload {
    pub variant: Variant,
    pub positions: Vec<GameState>,
    pub opening: Vec<OrderSet>,
    pub midgame: Vec<OrderSet>,
    /// Orders the generator drew that the engine refused (expected 0).
    pub refused: usize,
}

impl Workload {
    pub fn state(&self, set: &OrderSet) -> &GameState {
        &self.positions[set.position]
    }
}

/// Builds the workload from `SEED`. Deterministic: the same sets on every run.
pub fn standard_workload() -> Workload {
    let variant = builtin("standard")
        .expect("the standard map is built in")
        .expect("the built-in standard map loads");
    let mut positions = vec![GameState::initial(&variant)];
    positions.extend(midgame_positions(&variant, SEED, MIDGAME_UNITS, MIDGAME_POSITIONS));
    assert_eq!(
        positions.len(),
        MIDGAME_POSITIONS + 1,
        "random play should reach {MIDGAME_POSITIONS} positions with {MIDGAME_UNITS}+ units"
    );
    let mut rng = Rng::new(SEED ^ 0xFACE);
    let mut refused = 0;
    let mut draw = |position: usize, count: usize, out: &mut Vec<OrderSet>| {
        let state = &positions[position];
        let opts = unit_options(&variant, state);
        for _ in 0..count {
            let drawn = random_orders(&variant, state, &opts, &mut rng, Style::Uniform);
            refused += drawn.refused;
            out.push(OrderSet {
                position,
                commands: commands_for(state, &drawn.orders),
                orders: drawn.orders,
            });
        }
    };
    let mut opening = Vec::with_capacity(SETS);
    draw(0, SETS, &mut opening);
    let mut midgame = Vec::with_capacity(SETS);
    for p in 1..positions.len() {
        draw(p, SETS / MIDGAME_POSITIONS, &mut midgame);
    }
    Workload {
        variant,
        positions,
        opening,
        midgame,
        refused,
    }
}
