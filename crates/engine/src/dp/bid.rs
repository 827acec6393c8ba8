//! A bid: DPs a great power spends on one minor unit with the order it asks of it, and
//! its text form.

use crate::order::Order;
use crate::variant::{PowerId, Variant};

/// DPs a great power spends on one minor unit, with the order it asks that unit to
/// carry out. `order.unit` names the minor unit; `order.power` is ignored (the order,
/// if chosen, is given in the minor power's own name so the outcome never shows who
/// paid for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Bid {
    /// The great power bidding, which pays.
    pub power: PowerId,
    /// How many DPs it spends (DP rule 3: no more than its budget in all).
    pub dp: u32,
    /// The order asked of the minor unit.
    pub order: Order,
}

/// A bid as a line of text after its power: `[DP] [N] order`, e.g. `2 A Austria S A
/// Munich - Bohemia` or `DP A Rome H`; without a number the bid is 1 DP. The case files
/// (`Germany: DP 2 A Austria …`) and `chancery adjudicate`'s `bids` use it.
pub fn parse_bid(v: &Variant, power: PowerId, text: &str) -> Result<Bid, String> {
    let mut rest = text.trim();
    if let Some((word, after)) = rest.split_once(char::is_whitespace) {
        if word.eq_ignore_ascii_case("dp") {
            rest = after.trim();
        }
    }
    let (dp, order_text) = match rest.split_once(char::is_whitespace) {
        Some((n, o)) if n.chars().all(|c| c.is_ascii_digit()) => {
            let dp = n.parse::<u32>().map_err(|_| format!("`{n}` is not a number of DPs"))?;
            (dp, o.trim())
        }
        _ => (1, rest),
    };
    let order = crate::parse::parse_order(v, power, order_text).map_err(|e| format!("bid `{text}`: {e}"))?;
    Ok(Bid { power, dp, order })
}
