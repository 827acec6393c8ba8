//! Test cases in the jDip/godip DATC text format (`VARIANT_ALL`, `CASE`, `PRESTATE…`,
//! `ORDERS`, `POSTSTATE…`, `END`), with Chancery's extensions: any variant, minor
//! powers and factions as unit owners, `POSTSTATE_SUPPLYCENTER_OWNERS`.
//!
//! Parsing and running are pure; the caller supplies the text and a way to find a
//! variant by name.

mod carried;
mod format;
mod run;
mod unit_lines;
mod write;

pub use format::{parse_cases, Case, CaseError, CaseUnit, PriorResult};
pub use run::{case_position, case_setup, judge_case, run_case, CaseReport};
pub use write::{write_case, CasePosition};
