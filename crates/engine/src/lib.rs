//! Chancery's engine: Diplomacy adjudication as a pure function of a variant, a
//! position and orders. No I/O, no clock, no threads: everything else in Chancery wraps
//! this crate.
//!
//! - [`variant`] and [`variant_file`]: the map and rule parameters, loaded from data.
//! - [`parse`] and [`validate`]: orders as typed, then checked against the board.
//! - [`movement`]: the DATC decision model; [`adjudicate`] runs a whole phase;
//!   [`adjust`] the winter adjustments.
//! - [`outcome`]: what happened to each order and why.
//! - [`phase`]: [`judge_phase`], the one entry point that judges a whole phase (bids,
//!   adjudication, rule 8, victory) into a [`PhaseResult`].

pub mod adjudicate;
pub mod adjust;
pub mod boarding;
pub mod builtin;
pub mod dp;
pub mod json;
pub mod lint;
pub mod movement;
pub mod names;
pub mod options;
pub mod order;
pub mod outcome;
pub mod parse;
pub mod phase;
pub mod reach;
pub mod rules;
pub mod stacking;
pub mod state;
pub mod suggest;
pub mod validate;
pub mod validate_stacks;
pub mod variant;
pub mod variant_file;
pub mod victory;

pub use adjudicate::{adjudicate, Adjudication};
pub use order::{Order, OrderError, OrderKind, UnitRef};
pub use outcome::{OrderResult, Outcome};
pub use phase::{judge_phase, PhaseResult};
pub use state::{GameState, Phase, PhaseKind, Unit};
pub use variant::{Location, PowerId, ProvinceId, Season, UnitKind, Variant};
