//! Bots: a player for any power of any variant. Given the variant, the position and a
//! power, a bot gives that power's orders for the phase (movement, retreats, builds,
//! removals) and, in a Diplomacy Point phase, its bids. It sees only what its seat may
//! see: the position and its own budget, never other powers' bids or press.
//!
//! Pure and deterministic: the same variant, position, power and [`Settings`] give the
//! same [`Decision`]. The effort is a number of judgements, not a time, so that a
//! decision repeats whatever the machine's load.

pub mod baseline;
pub mod random;
pub mod selfplay;
pub mod strong;
pub mod values;

use chancery_engine::dp::Bid;
use chancery_engine::{GameState, Order, PowerId, Variant};

/// How well a bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// A legal order for each unit, chosen at random (a yardstick, not a player).
    Random,
    /// A quick evaluator of the board: values of spaces, strength and competition.
    Baseline,
    /// Searches candidate order sets, each judged by the engine against predicted
    /// replies. The level seats get.
    Strong,
}

impl Level {
    /// The level's name as commands and the server write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Baseline => "baseline",
            Level::Strong => "strong",
        }
    }

    /// Reads a level's name.
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "random" => Some(Level::Random),
            "baseline" => Some(Level::Baseline),
            "strong" => Some(Level::Strong),
            _ => None,
        }
    }
}

/// What a bot is asked to do and with how much effort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub level: Level,
    /// The seed of every random choice.
    pub seed: u64,
    /// How many phases the strong bot may have the engine judge for one decision.
    pub judgements: u32,
}

impl Settings {
    /// The defaults for a level.
    pub fn new(level: Level, seed: u64) -> Settings {
        Settings {
            level,
            seed,
            judgements: 1500,
        }
    }
}

/// A power's decision for one phase: its orders (its factions' included) and, in a
/// Diplomacy Point movement phase, its bids.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    pub orders: Vec<Order>,
    pub bids: Vec<Bid>,
}

/// The decision of `power` in `state`.
pub fn decide(v: &Variant, state: &GameState, power: PowerId, settings: &Settings) -> Decision {
    // A minor power, or a power in civil disorder, takes its orders from bids (DP rules
    // 1 and 11): it has nothing to decide.
    if state.acts_as_minor(v, power) {
        return Decision::default();
    }
    match settings.level {
        Level::Random => random::decide(v, state, power, settings.seed),
        Level::Baseline => baseline::decide(v, state, power, settings.seed),
        Level::Strong => strong::decide(v, state, power, settings),
    }
}

/// Original 1958 rule 3: one unit of a stack may support a given unit; a second
/// support from the same space for the same unit would be void, so it holds instead.
/// (The options module lists each unit's orders alone; this is a rule about a set.)
pub fn one_support_per_stack(orders: &mut [Order]) {
    use chancery_engine::OrderKind;
    let target = |o: &Order| match o.kind {
        OrderKind::SupportHold { unit } | OrderKind::SupportMove { unit, .. } => Some(unit.location.province),
        _ => None,
    };
    for j in 0..orders.len() {
        let Some(t) = target(&orders[j]) else { continue };
        let from = orders[j].unit.location.province;
        if orders[..j]
            .iter()
            .any(|o| o.unit.location.province == from && target(o) == Some(t))
        {
            orders[j].kind = OrderKind::Hold;
        }
    }
}
