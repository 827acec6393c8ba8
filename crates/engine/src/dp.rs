//! Diplomacy Points: how great powers steer the armed minor powers of 1936 and 1648
//! (Ambition & Empire rules). Each Spring and Fall every great power gets a budget of
//! DPs ([`mod@budget`]), bids them on minor units ([`bids`] checks a power's bids when it
//! submits them), and the GM's judge turns all bids into one order per minor unit
//! ([`resolve`]), keeping who bid what in a report only the GM sees.
//!
//! The numbers come from the variant's `rule` lines (read by `rules`, meant as
//! [`params`] says); docs/rules-dp.md lists every reading taken where the rule pages
//! are ambiguous.

pub mod bid;
pub mod bids;
pub mod budget;
pub mod disorder;
pub mod minors;
pub mod params;
pub mod resolve;

pub use bid::{parse_bid, Bid};
pub use bids::{check_bids, BidError, BidErrorKind};
pub use budget::{budget, budgets, Budget, Deduction};
pub use disorder::{civil_disorder, declare_civil_disorder, orphaned_factions, orphans_into_disorder};
pub use minors::{minor_units, patrons_of};
pub use params::DpRules;
pub use resolve::{resolve_bids, BidReport};
