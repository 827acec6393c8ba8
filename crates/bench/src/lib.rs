//! The workload of Chancery's speed measurements: random legal movement orders for the
//! Standard opening and for mid-game positions reached by random play, all from fixed
//! seeds so that every run measures the same phases.
//!
//! Only the engine is a dependency here; the comparison with the `diplomacy` crate
//! lives in `benches/`, where that crate is a dev-dependency.

pub mod commands;
pub mod crowded;
pub mod options;
pub mod orders;
pub mod positions;
pub mod rng;
pub mod workload;
