//! The strong bot (placeholder until the search lands).

use chancery_engine::{GameState, PowerId, Variant};

use crate::{Decision, Settings};

pub fn decide(v: &Variant, state: &GameState, power: PowerId, settings: &Settings) -> Decision {
    crate::baseline::decide(v, state, power, settings.seed)
}
