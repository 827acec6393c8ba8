//! Stored order text read back into typed orders: the one reader. Orders are stored in
//! the engine's canonical text after validation, so reading one is parsing it again;
//! that happens here alone (the module-graph crate's boundary test holds every other
//! module to it), and a text that no longer reads (a variant changed under a game) is
//! an error the caller decides about, never a panic.

use chancery_engine::order::OrderError;
use chancery_engine::parse::parse_order;
use chancery_engine::{Order, PowerId, Variant};

/// The stored order `text` of `power`.
pub fn read(v: &Variant, power: PowerId, text: &str) -> Result<Order, OrderError> {
    parse_order(v, power, text)
}

/// The stored order `text` of the power named `power`; None when either no longer
/// reads on this map.
pub fn read_named(v: &Variant, power: &str, text: &str) -> Option<Order> {
    read(v, v.find_power(power)?, text).ok()
}
