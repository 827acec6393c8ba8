//! Chancery's engine: Diplomacy adjudication as a pure function of a variant, a
//! position and orders. No I/O, no clock, no threads: everything else in Chancery wraps
//! this crate. It plays four variants out of the box (Standard, 1936 and 1648 with
//! their armed minor powers and Diplomacy Point bids, and Original 1958's stacks and
//! boarding), and any other written in its `.var` format. Movement is judged by the
//! decision model of the DATC (Diplomacy Adjudicator Test Cases, v3.0), and passes its
//! test cases.
//!
//! # A guided tour
//!
//! Everything refers to spaces and powers by index into a loaded [`Variant`], so the
//! first step is always to load one.
//!
//! ## Load a variant and read a position
//!
//! [`builtin::builtin`] loads a variant compiled into the crate by id;
//! [`variant_file::load_variant`] reads one from text. [`GameState::initial`] is its
//! starting position: the phase, the units, who owns each supply centre.
//!
//! ```
//! use chancery_engine::builtin::builtin;
//! use chancery_engine::GameState;
//!
//! let v = builtin("standard").expect("a built-in variant").expect("it loads");
//! let state = GameState::initial(&v);
//! assert_eq!(state.phase.code(), "S1901M");
//! assert_eq!(state.units.len(), 22);
//!
//! let russia = v.find_power("Russia").unwrap();
//! assert_eq!(state.centre_count(russia), 4);
//! let stp = v.find_province("St Petersburg").unwrap();
//! let fleet = state.unit_at(stp).unwrap();
//! assert_eq!(v.location_name(fleet.location), "stp/sc");
//! ```
//!
//! ## Parse and validate orders
//!
//! [`parse::parse_order`] reads an order as a player types it, in the usual notations
//! (`F lon - nth`, `Fleet London to North Sea`, `A mun S A ber - sil`), into an
//! [`Order`]. [`validate::validate`] checks it against the board and the phase and puts
//! it in canonical form. Either may refuse it with an [`OrderError`], whose message is
//! written for the player; an unknown name comes with the closest one.
//!
//! ```
//! # use chancery_engine::builtin::builtin;
//! # use chancery_engine::GameState;
//! use chancery_engine::parse::parse_order;
//! use chancery_engine::validate::validate;
//! use chancery_engine::OrderError;
//!
//! # let v = builtin("standard").unwrap().unwrap();
//! # let state = GameState::initial(&v);
//! let england = v.find_power("England").unwrap();
//! let order = parse_order(&v, england, "F London - North Sea").unwrap();
//! assert_eq!(order.display(&v).to_string(), "F lon - nth");
//!
//! // An army cannot enter the sea (DATC 6.A.2): the order is void, the army holds.
//! let order = parse_order(&v, england, "A lvp - iri").unwrap();
//! let error = validate(&v, &state, &order).unwrap_err();
//! assert!(matches!(error, OrderError::ArmyToSea { .. }));
//!
//! // A misspelt space is refused with a suggestion.
//! let error = parse_order(&v, england, "F lon - nht").unwrap_err();
//! assert!(error.to_string().contains("did you mean"), "{error}");
//! ```
//!
//! ## Judge a phase and read the outcomes
//!
//! [`judge_phase`] judges the phase a position is in, whatever its kind: movement,
//! retreats or Winter adjustments. Orders need not be validated first: a refused one is
//! judged void and its unit holds, as the rules say, and the result says why. The
//! [`PhaseResult`] holds an [`OrderResult`] per unit (or per adjustment order), each
//! with its [`Outcome`] and [`OrderResult::reason`] in words, the orders that reached no
//! unit, and the next position.
//!
//! ```
//! # use chancery_engine::builtin::builtin;
//! # use chancery_engine::GameState;
//! use chancery_engine::parse::parse_order;
//! use chancery_engine::{judge_phase, Outcome};
//!
//! # let v = builtin("standard").unwrap().unwrap();
//! # let state = GameState::initial(&v);
//! let germany = v.find_power("Germany").unwrap();
//! let russia = v.find_power("Russia").unwrap();
//! let orders = [
//!     parse_order(&v, germany, "A mun - sil").unwrap(),
//!     parse_order(&v, germany, "A ber S A mun - sil").unwrap(),
//!     parse_order(&v, russia, "A war - sil").unwrap(),
//! ];
//! let result = judge_phase(&v, &state, &orders, &[]);
//!
//! let mun = v.find_province("mun").unwrap();
//! let munich = result.adjudication.results.iter()
//!     .find(|r| r.unit.is_some_and(|u| u.location.province == mun))
//!     .unwrap();
//! assert_eq!(munich.outcome, Outcome::Moved);
//! let war = v.find_province("war").unwrap();
//! let warsaw = result.adjudication.results.iter()
//!     .find(|r| r.unit.is_some_and(|u| u.location.province == war))
//!     .unwrap();
//! assert!(!warsaw.outcome.succeeded());
//! // "bounced: strength 1 against 2 from Munich"
//! assert!(warsaw.reason(&v).starts_with("bounced"), "{}", warsaw.reason(&v));
//!
//! // Nobody was dislodged, so the Spring retreats are skipped.
//! assert_eq!(result.next().phase.code(), "F1901M");
//! ```
//!
//! ## List the legal orders
//!
//! The [`options`] module lists every order a submission would accept, built from the
//! map and checked by the same validator: for bots, order pickers, and search.
//!
//! ```
//! # use chancery_engine::builtin::builtin;
//! # use chancery_engine::GameState;
//! use chancery_engine::options::{orderable_units, Lister, Scope};
//!
//! # let v = builtin("standard").unwrap().unwrap();
//! # let state = GameState::initial(&v);
//! let austria = v.find_power("Austria").unwrap();
//! let mut lister = Lister::new(&v, &state, Scope::Plausible);
//! for unit in orderable_units(&v, &state, austria) {
//!     let orders = lister.unit_orders(austria, &unit);
//!     assert!(!orders.is_empty());
//!     for order in &orders {
//!         let _text = order.display(&v).to_string(); // "A vie - gal", "F tri S A vie - ven", ...
//!     }
//! }
//! ```
//!
//! In variants with minor powers (1936, 1648), great powers also bid Diplomacy Points on
//! the minors' units: [`dp::parse_bid`] reads a bid, [`dp::check_bids`] checks a power's
//! bids on submission, [`options::Lister::minor_orders`] lists what a bid may ask, and
//! [`judge_phase`] turns the bids into the minors' orders before it judges. The
//! `random_dp` example plays a few such phases.
//!
//! # The modules
//!
//! - [`variant`] and [`variant_file`]: the map and rule parameters, loaded from data;
//!   [`builtin`] the variants compiled in; [`lint`] checks a map.
//! - [`state`]: the position between phases.
//! - [`parse`] and [`validate`]: orders as typed, then checked against the board.
//! - [`movement`]: the DATC decision model; [`mod@adjudicate`] runs a whole phase;
//!   [`adjust`] the winter adjustments.
//! - [`outcome`]: what happened to each order and why.
//! - [`phase`]: [`judge_phase`], the one entry point that judges a whole phase (bids,
//!   adjudication, rule 8, victory) into a [`PhaseResult`].
//! - [`options`]: every legal order of a position.
//! - [`dp`]: Diplomacy Points, the bids that order the minor powers of 1936 and 1648.
//! - The rules of Original 1958: [`stacking`], [`boarding`], [`validate_stacks`].
//! - [`json`]: positions and results with names instead of indices, the form the CLI
//!   and the server exchange.

#![deny(missing_docs)]

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

/// The README's example, run as a doc-test so that the front page of the crate cannot
/// drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
