//! What happened to each order, and why, in words a player reads.

use crate::order::{Order, OrderError, OrderKind};
use crate::state::Unit;
use crate::variant::{Location, PowerId, ProvinceId, Variant};

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Held (or had no order) and kept its place.
    Held,
    Moved,
    /// The move failed against an equal or greater strength. `by` is the space of the
    /// unit whose strength stopped it (the defender, or a rival mover's origin).
    Bounced {
        attack: u32,
        against: u32,
        by: ProvinceId,
    },
    /// The move needed a convoy and no complete chain of convoying fleets carried it.
    NoConvoy,
    /// The move would have dislodged a unit of the mover's own power.
    OwnUnit {
        at: ProvinceId,
    },
    Supported,
    SupportCut {
        by: ProvinceId,
    },
    /// The supported unit did not give the order the support was for.
    SupportUnmatched,
    Convoyed,
    /// No army made the move this convoy was for.
    ConvoyUnmatched,
    /// The convoy was part of a paradox; by the Szykman rule it does nothing.
    ConvoyParadox,
    /// A move that succeeded as part of circular movement.
    CircularMove,
    /// A minor power's sortie would have succeeded: the unit stays, the target's unit
    /// is not dislodged and nothing may enter the target this turn.
    SortieSucceeded {
        target: ProvinceId,
    },
    /// Boarding (Original 1958): the army and the fleet met and the army is aboard.
    Boarded,
    /// A boarding order the other unit did not match with its own `B` order: a
    /// standoff (rule 7); the unit stays where it was.
    BoardUnmatched,
    /// A carrying fleet entered a coastal space, put its army ashore there and went
    /// back where it came from (rule 6).
    Landed,
    /// A carrying fleet entered a coastal space but could not go back, because another
    /// unit moved in behind it: it stays there with the army still aboard (rule 6).
    LandingStuck,
    /// The order was refused; the unit held (or, in a retreat, disbanded).
    Void(OrderError),
    Retreated,
    /// Disbanded in a retreat phase: ordered to, no order, or a clash.
    Disbanded {
        why: DisbandReason,
    },
    Built,
    Removed,
    /// Removed by the civil-disorder rule because removals were missing.
    RemovedInDisorder,
    Waived,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DisbandReason {
    Ordered,
    NoOrder,
    NoRetreat,
    /// Two or more units retreated to the same space.
    Clash,
}

impl Outcome {
    pub fn succeeded(&self) -> bool {
        matches!(
            self,
            Outcome::Held
                | Outcome::Moved
                | Outcome::Supported
                | Outcome::Convoyed
                | Outcome::CircularMove
                | Outcome::SortieSucceeded { .. }
                | Outcome::Boarded
                | Outcome::Landed
                | Outcome::Retreated
                | Outcome::Built
                | Outcome::Removed
                | Outcome::RemovedInDisorder
                | Outcome::Waived
                | Outcome::Disbanded {
                    why: DisbandReason::Ordered
                }
        )
    }
}

/// One unit's (or one adjustment order's) result.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "StoredResult")]
pub struct OrderResult {
    /// The unit the result is about; None for a waived build, which stands for no unit
    /// (its power is the order's).
    pub unit: Option<Unit>,
    /// The order as adjudicated (normalised), or None when the unit had no order.
    pub order: Option<Order>,
    /// The order as received, when it was refused.
    pub given: Option<Order>,
    pub outcome: Outcome,
    /// Where the unit that dislodged this one came from.
    pub dislodged_by: Option<ProvinceId>,
    /// Where a dislodged unit may retreat.
    pub retreats: Vec<Location>,
    /// The unit was dislodged and removed at once: a minor power's (or one of a power in
    /// civil disorder) never retreats (DP rule 1). Recorded here because whether its
    /// power counts as minor depends on the position, which the reason cannot see.
    pub removed: bool,
}

/// An `OrderResult` as stored: results kept before waives lost their unit carry a
/// placeholder one (an army in the first space), which reading drops.
#[derive(serde::Deserialize)]
struct StoredResult {
    unit: Option<Unit>,
    order: Option<Order>,
    given: Option<Order>,
    outcome: Outcome,
    dislodged_by: Option<ProvinceId>,
    retreats: Vec<Location>,
    removed: bool,
}

impl TryFrom<StoredResult> for OrderResult {
    type Error = &'static str;

    fn try_from(s: StoredResult) -> Result<OrderResult, Self::Error> {
        let waive = s.order.is_some_and(|o| o.kind == OrderKind::Waive);
        if s.unit.is_none() && !waive {
            return Err("a result names no unit and is not a waived build");
        }
        Ok(OrderResult {
            unit: if waive { None } else { s.unit },
            order: s.order,
            given: s.given,
            outcome: s.outcome,
            dislodged_by: s.dislodged_by,
            retreats: s.retreats,
            removed: s.removed,
        })
    }
}

impl OrderResult {
    /// The power the result belongs to: the unit's, or for a waive the order's.
    pub fn power(&self) -> PowerId {
        // Every result has its unit or, being a waive, its order: the engine makes no
        // other and reading a stored one refuses it.
        self.unit
            .map(|u| u.power)
            .or(self.order.map(|o| o.power))
            .unwrap_or_default()
    }

    /// "bounced: 1 against 2 from Munich", "dislodged by the army from Bohemia".
    pub fn reason(&self, v: &Variant) -> String {
        let n = |p: ProvinceId| v.province(p).name.clone();
        let mut text = match &self.outcome {
            Outcome::Held => "held".to_string(),
            Outcome::Moved => "moved".to_string(),
            Outcome::CircularMove => "moved (circular movement)".to_string(),
            Outcome::SortieSucceeded { target } => format!("sortie succeeded: {} blocked", n(*target)),
            Outcome::Bounced { attack, against, by } => {
                if Some(*by) == self.unit.map(|u| u.location.province) {
                    format!("bounced: strength {attack} could not beat {against}")
                } else {
                    format!("bounced: strength {attack} against {against} from {}", n(*by))
                }
            }
            Outcome::NoConvoy => "failed: no complete convoy carried the army".to_string(),
            Outcome::OwnUnit { at } => format!("failed: cannot dislodge its own power's unit in {}", n(*at)),
            Outcome::Supported => "support given".to_string(),
            Outcome::SupportCut { by } => format!("support cut by the attack from {}", n(*by)),
            Outcome::SupportUnmatched => "support void: the supported unit did not make that order".to_string(),
            Outcome::Convoyed => "convoyed".to_string(),
            Outcome::ConvoyUnmatched => "convoy void: no army made that move".to_string(),
            Outcome::ConvoyParadox => "convoy failed: paradox, resolved by the Szykman rule".to_string(),
            Outcome::Boarded => "boarded: the army is aboard the fleet".to_string(),
            Outcome::BoardUnmatched => {
                "standoff: the other unit did not order B for this boarding (rule 7)".to_string()
            }
            Outcome::Landed => "moved: the army aboard landed and the fleet went back".to_string(),
            Outcome::LandingStuck => {
                "moved, but could not go back (a unit moved in behind it): the army stays aboard".to_string()
            }
            Outcome::Void(e) => format!("void: {e}"),
            Outcome::Retreated => "retreated".to_string(),
            Outcome::Disbanded { why } => match why {
                DisbandReason::Ordered => "disbanded".to_string(),
                DisbandReason::NoOrder => "disbanded: no retreat order".to_string(),
                DisbandReason::NoRetreat => "disbanded: nowhere to retreat".to_string(),
                DisbandReason::Clash => "disbanded: another unit retreated to the same space".to_string(),
            },
            Outcome::Built => "built".to_string(),
            Outcome::Removed => "removed".to_string(),
            Outcome::RemovedInDisorder => "removed by the civil-disorder rule (removals were missing)".to_string(),
            Outcome::Waived => "build waived".to_string(),
        };
        if let Some(by) = self.dislodged_by {
            text.push_str(&format!("; dislodged by the unit from {}", n(by)));
            if self.removed {
                text.push_str("; removed: a minor power's unit never retreats");
            }
        }
        text
    }
}
