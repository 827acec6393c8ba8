//! What happened to each order, and why, in words a player reads.

use crate::order::{Order, OrderError, OrderKind};
use crate::state::Unit;
use crate::variant::{Location, PowerId, ProvinceId, Variant};

/// What became of one order (or of a unit without one). Each variant carries what
/// [`OrderResult::reason`] needs to explain it to a player; [`Outcome::succeeded`]
/// sorts them into success and failure.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Held (or had no order) and kept its place.
    Held,
    /// The move succeeded; the unit is in its destination.
    Moved,
    /// The move failed against an equal or greater strength. `by` is the space of the
    /// unit whose strength stopped it (the defender, or a rival mover's origin).
    Bounced {
        /// The move's attack strength.
        attack: u32,
        /// The strength that stopped it: the defender's hold or defend strength, or a
        /// rival's prevent strength.
        against: u32,
        /// Where that strength stood.
        by: ProvinceId,
    },
    /// The move needed a convoy and no complete chain of convoying fleets carried it.
    NoConvoy,
    /// The move would have dislodged a unit of the mover's own power.
    /// The move would have dislodged a unit of the mover's own power (DATC 6.D.10:
    /// no power dislodges its own units, even with support).
    OwnUnit {
        /// The own unit's space.
        at: ProvinceId,
    },
    /// The support was given: not cut, and its unit gave the supported order.
    Supported,
    /// The support was cut by an attack on the supporting unit, which did not come
    /// from the space the support was directed at (DATC 6.D).
    SupportCut {
        /// Where the cutting attack came from.
        by: ProvinceId,
    },
    /// The supported unit did not give the order the support was for.
    SupportUnmatched,
    /// The convoy stood: the fleet was not dislodged, so the army's route through it
    /// held (the army's own move may still bounce, which its result says).
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
        /// The space attacked, closed to every move this turn.
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
    /// The dislodged unit retreated where it was ordered.
    Retreated,
    /// Disbanded in a retreat phase: ordered to, no order, or a clash.
    Disbanded {
        /// Which of those.
        why: DisbandReason,
    },
    /// The build was carried out: a new unit stands in the centre.
    Built,
    /// The ordered removal was carried out.
    Removed,
    /// Removed by the civil-disorder rule because removals were missing.
    RemovedInDisorder,
    /// The power declined this build.
    Waived,
}

/// Why a dislodged unit left the board in a retreat phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DisbandReason {
    /// Its power ordered it to disband.
    Ordered,
    /// Its power gave it no retreat order, and a dislodged unit without one is
    /// disbanded.
    NoOrder,
    /// It had no order and no space was open to it.
    NoRetreat,
    /// Two or more units retreated to the same space.
    Clash,
}

impl Outcome {
    /// Whether the order did what it said: holds, moves, supports and convoys that
    /// stood, retreats, builds and removals carried out, a disband that was ordered.
    /// Bounces, cut or unmatched supports, void orders and forced disbands are
    /// failures. It is what the JSON result's `succeeded` says, and says nothing of
    /// whether the unit survived: a unit that held can still be dislodged.
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
    /// What happened to it.
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
