//! Validated orders turned into the resolver's per-unit commands, as the engine does
//! before its hot loop; the benchmark and the allocation test feed these to
//! `movement::Resolver` directly.

use chancery_engine::adjudicate::command_of;
use chancery_engine::movement::Command;
use chancery_engine::{GameState, Order};

/// One command per unit of `state`, in unit order; units without an order hold.
/// `orders` must already be validated (they name the unit's own space).
pub fn commands_for(state: &GameState, orders: &[Order]) -> Vec<Command> {
    state
        .units
        .iter()
        .map(|u| {
            orders
                .iter()
                .find(|o| o.unit.location.province == u.location.province)
                .map_or(Command::Hold, command_of)
        })
        .collect()
}
