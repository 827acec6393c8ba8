//! Validated orders turned into the resolver's per-unit commands, as the engine does
//! before its hot loop; the benchmark and the allocation test feed these to
//! `movement::Resolver` directly.

use chancery_engine::movement::Command;
use chancery_engine::{GameState, Order, OrderKind};

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

fn command_of(order: &Order) -> Command {
    match order.kind {
        OrderKind::Move { to, via_convoy } => Command::Move { to, via_convoy },
        OrderKind::SupportHold { unit } => Command::SupportHold {
            target: unit.location.province,
        },
        OrderKind::SupportMove { unit, to } => Command::SupportMove {
            target: unit.location.province,
            to: to.province,
            to_coast: to.coast,
        },
        OrderKind::Convoy { army, to } => Command::Convoy {
            from: army.location.province,
            to: to.province,
        },
        _ => Command::Hold,
    }
}
