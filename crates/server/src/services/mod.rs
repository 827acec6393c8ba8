//! The services: the club's operations, one module per domain. A service takes typed
//! values (the viewer's account, ids, a request's fields) and returns typed values or an
//! [`ApiError`](crate::error::ApiError); it decides who may do what and what the rules
//! allow, and reads and writes only through [`crate::store`]. The JSON handlers
//! ([`crate::api`]) and the pages both call services, so the two faces cannot disagree.
//!
//! - [`accounts`]: accounts, sessions, the login throttle.
//! - [`games`]: games, their settings, views and seats.
//! - [`votes`]: the players' draw votes.
//! - [`players`]: the club's player records.
//! - [`variants`]: the built-in variants.
//! - [`maps`]: each variant's map, made and drawn on the job pool; its GeoJSON.
//! - [`processing`]: judging a phase exactly once; the GM's rollback and roll forward.

pub mod accounts;
pub mod games;
pub mod maps;
pub mod players;
pub mod processing;
pub mod variants;
pub mod votes;
