//! Orders as the engine understands them, and why an order can be refused.

use std::fmt;

use crate::variant::{Location, PowerId, ProvinceId, UnitKind, Variant};

/// The unit an order is about, as the player wrote it. The kind may be left out (DATC
/// 4.C.1) and is ignored when wrong (4.C.2); the coast of the ordered unit is ignored
/// too (4.B.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct UnitRef {
    /// `A` or `F` as written; `None` when the player left it out. The validator puts
    /// the real kind here, and in Original 1958 uses it to pick one unit of a stack.
    pub kind: Option<UnitKind>,
    /// Where the unit stands. Only the province counts for finding the unit; a coast
    /// written here is ignored (DATC 4.B.5).
    pub location: Location,
}

/// What an order tells its unit to do: the orders of the three kinds of phase (movement,
/// retreat, adjustment) in one type, so that a phase's orders are one list. Which kinds
/// a phase accepts is the validator's business ([`crate::validate`]); a kind given in
/// the wrong phase is refused with [`OrderError::WrongPhase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum OrderKind {
    /// Stay put (`A par H`); also what a unit without a valid order does.
    Hold,
    /// Move to an adjacent space, or by convoy to a coastal one (`A lon - bel`).
    /// `via_convoy`: the player asked for the sea route (DATC 4.A.3).
    Move {
        /// The destination, with the coast a fleet arrives on (DATC 6.B: a coast the
        /// validator fills in when only one is possible).
        to: Location,
        /// Written `via convoy`: the army goes by sea even where it could walk.
        via_convoy: bool,
    },
    /// Support a unit that holds, supports or convoys (`F nth S A yor`): adds one to its
    /// defence unless the support is cut.
    SupportHold {
        /// The supported unit.
        unit: UnitRef,
    },
    /// Support a move (`A mun S A ber - sil`): adds one to the move's attack when the
    /// supported unit really orders that move; a support for a move it does not make
    /// is void.
    SupportMove {
        /// The unit whose move is supported.
        unit: UnitRef,
        /// Where it moves. A support that leaves the coast out still counts (DATC 6.B.7,
        /// 6.B.15); one that names another coast than the move's does not (6.B.9).
        to: Location,
    },
    /// A fleet at sea carries an army (`F nth C A lon - nwy`); the army must order the
    /// same move for the convoy to count.
    Convoy {
        /// The army carried.
        army: UnitRef,
        /// Where the army lands.
        to: Location,
    },
    /// Original 1958 boarding (rules 6 and 7): `to` is None for a unit that boards where
    /// it stands (`F lon B`), else where it moves to board (`F nth - yor B`); `with` is
    /// the other unit's power as written (`B Fra`), None for the ordering power's own.
    Board {
        /// Where the unit moves to board, or `None` to board where it stands.
        to: Option<Location>,
        /// The power of the unit boarded with, as written; `None` for the ordering
        /// power's own.
        with: Option<PowerId>,
    },
    /// A dislodged unit retreats to an empty space it could move to, not the one its
    /// attacker came from nor one left empty by a standoff (DATC 6.H).
    Retreat {
        /// The space retreated to.
        to: Location,
    },
    /// A dislodged unit leaves the board instead of retreating.
    Disband,
    /// A power with more centres than units places a new unit in an empty, owned home
    /// centre (`Build A par`); the unit's location is the [`Order::unit`]'s.
    Build {
        /// Army or fleet; `None` until given, and refused as
        /// [`OrderError::BuildKindMissing`] where both could stand.
        kind: Option<UnitKind>,
    },
    /// A power with more units than centres takes one of its units off (`Remove F nth`).
    Remove,
    /// A power declines one of its builds (`Waive`), so that the build is not left
    /// pending.
    Waive,
}

/// One order. `power` is who gave it; for `Waive` the unit is meaningless.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Order {
    /// The power that gave the order: the unit's owner, or the great power whose player
    /// plays the unit's faction (1936's Spanish factions; [`Variant::controls`]). A DP
    /// bid's order names the minor unit it asks for but not who pays (see
    /// [`crate::dp::Bid`]).
    pub power: PowerId,
    /// The unit ordered: for a build, the space built in.
    pub unit: UnitRef,
    /// What the unit is told to do.
    pub kind: OrderKind,
}

impl Order {
    /// The order a unit follows when given none: hold, in its own power's name.
    pub fn hold(unit: &crate::state::Unit) -> Order {
        Order {
            power: unit.power,
            unit: UnitRef {
                kind: Some(unit.kind),
                location: unit.location,
            },
            kind: OrderKind::Hold,
        }
    }

    /// Whether this is a Winter order (build, remove, waive), which takes no unit on
    /// the board and is judged by [`crate::adjust`], not by the movement model.
    pub fn is_adjustment(&self) -> bool {
        matches!(
            self.kind,
            OrderKind::Build { .. } | OrderKind::Remove | OrderKind::Waive
        )
    }

    /// The order in the project's canonical notation: `A bud - ser`, `F nth C A lon - bel`.
    pub fn display<'a>(&'a self, variant: &'a Variant) -> OrderDisplay<'a> {
        OrderDisplay { order: self, variant }
    }
}

/// An order paired with its variant, which [`std::fmt::Display`]s it in the canonical
/// notation with the variant's province and power names; made by [`Order::display`].
pub struct OrderDisplay<'a> {
    order: &'a Order,
    variant: &'a Variant,
}

fn unit_text(v: &Variant, u: &UnitRef) -> String {
    match u.kind {
        Some(k) => format!("{} {}", k.letter(), v.location_name(u.location)),
        None => v.location_name(u.location),
    }
}

impl fmt::Display for OrderDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant;
        let o = self.order;
        let me = unit_text(v, &o.unit);
        match o.kind {
            OrderKind::Hold => write!(f, "{me} H"),
            OrderKind::Move { to, via_convoy } => {
                write!(f, "{me} - {}", v.location_name(to))?;
                if via_convoy {
                    write!(f, " via convoy")?;
                }
                Ok(())
            }
            OrderKind::SupportHold { unit } => write!(f, "{me} S {}", unit_text(v, &unit)),
            OrderKind::SupportMove { unit, to } => {
                write!(f, "{me} S {} - {}", unit_text(v, &unit), v.location_name(to))
            }
            OrderKind::Convoy { army, to } => write!(f, "{me} C {} - {}", unit_text(v, &army), v.location_name(to)),
            OrderKind::Board { to, with } => {
                match to {
                    Some(to) => write!(f, "{me} - {} B", v.location_name(to))?,
                    None => write!(f, "{me} B")?,
                }
                match with {
                    Some(p) => write!(f, " {}", v.power(p).name),
                    None => Ok(()),
                }
            }
            OrderKind::Retreat { to } => write!(f, "{me} R {}", v.location_name(to)),
            OrderKind::Disband => write!(f, "{me} D"),
            OrderKind::Build { kind } => match kind {
                Some(k) => write!(f, "Build {} {}", k.letter(), v.location_name(o.unit.location)),
                None => write!(f, "Build {}", v.location_name(o.unit.location)),
            },
            OrderKind::Remove => write!(f, "Remove {me}"),
            OrderKind::Waive => write!(f, "Waive"),
        }
    }
}

/// Why an order was refused. Each names the rule it breaks, in words a player reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// Nothing was written.
    Empty,
    /// The text is not an order; the message says what the parser expected where.
    Syntax(String),
    /// A word where a province belongs names none of the variant's provinces.
    UnknownProvince {
        /// The word as written.
        name: String,
        /// The closest province name, offered as a correction ([`crate::suggest`]).
        nearest: Option<String>,
    },
    /// A coast the province does not have (`spa/ec`), or a coast given to a province
    /// with only one.
    UnknownCoast {
        /// The province's name.
        province: String,
        /// The coast as written.
        coast: String,
        /// The province's coasts, empty when it has no separate ones.
        coasts: Vec<String>,
    },
    /// A word where a power belongs (a DP bid, a 1958 boarding) names no power.
    UnknownPower {
        /// The word as written.
        name: String,
        /// The closest power name, offered as a correction.
        nearest: Option<String>,
    },
    /// No unit stands in the space the order names; the order is void.
    NoUnit {
        /// The space's name.
        location: String,
    },
    /// The unit belongs to a power the ordering power may not command (DATC 6.A.6).
    NotYourUnit {
        /// The space's name.
        location: String,
        /// The unit's power.
        owner: String,
    },
    /// An order of the wrong kind for the phase: a move in a retreat phase, a build in
    /// Spring.
    WrongPhase {
        /// The kind of order, as one word (`move`, `build`).
        order: &'static str,
        /// The phase, as [`crate::Phase`] displays it.
        phase: String,
    },
    /// A move to the space the unit already stands in (DATC 6.A.4, 6.A.5).
    MoveToSelf {
        /// The space's name.
        location: String,
    },
    /// An army ordered into a sea space (DATC 6.A.2).
    ArmyToSea {
        /// The sea's name.
        to: String,
    },
    /// A fleet ordered into an inland space (DATC 6.A.3).
    FleetToLand {
        /// The inland space's name.
        to: String,
    },
    /// The destination does not border the unit's space for its kind (DATC 6.A.1;
    /// 6.A.9 for fleets, which follow coasts).
    NotAdjacent {
        /// The unit's space.
        from: String,
        /// The destination.
        to: String,
        /// Who cannot pass: `armies` or `fleets`.
        kind: &'static str,
    },
    /// A fleet's move to a province with two coasts it could reach leaves the coast
    /// out (DATC 6.B.1: such a move fails).
    CoastNeeded {
        /// The destination province.
        to: String,
        /// The coasts the fleet could reach.
        coasts: Vec<String>,
    },
    /// A fleet's move to a coast it does not border (DATC 6.B.3, 6.B.11).
    CoastUnreachable {
        /// The fleet's space.
        from: String,
        /// The coast named.
        to: String,
    },
    /// An army's move to a space that is neither adjacent nor coastal and reachable by
    /// a chain of sea spaces (DATC 6.D.32: a convoy without a possible route).
    CannotConvoyThere {
        /// The destination.
        to: String,
    },
    /// A support into a space the supporting unit could not move to itself (DATC
    /// 6.A.10, 6.B.5). Only the province counts: a fleet may support into a coast it
    /// cannot reach of a province it can (6.B.4).
    CannotSupportThere {
        /// The supporting unit's space.
        from: String,
        /// The supported space.
        to: String,
    },
    /// A unit ordered to support itself (DATC 6.A.8).
    SupportSelf,
    /// A convoy ordered to a fleet on a coast; only fleets at sea convoy (DATC 6.F.1).
    ConvoyNotAtSea {
        /// The fleet's space.
        location: String,
    },
    /// A convoy or a move `via convoy` of a fleet: only armies are carried
    /// (DATC 6.A.7).
    ConvoyNotArmy {
        /// The fleet's space.
        location: String,
    },
    /// An army ordered to convoy.
    ConvoyFleet,
    /// A convoy order from a fleet that no route of the fleets on the board from the
    /// army to its destination needs (DATC 6.G.19).
    ConvoyNotOnRoute {
        /// The convoying fleet's space.
        fleet: String,
        /// The army's space.
        from: String,
        /// The army's destination.
        to: String,
    },
    /// A retreat or disband for a unit that was not dislodged.
    NotDislodged {
        /// The unit's space.
        location: String,
    },
    /// A retreat to a space the unit may not enter (DATC 6.H): occupied, the attacker's
    /// origin, left empty by a standoff, or not adjacent.
    RetreatBlocked {
        /// The space retreated to.
        to: String,
        /// Which of those reasons, in words.
        why: &'static str,
    },
    /// A build outside the power's home centres (DATC 6.I.6).
    BuildNotHome {
        /// The space built in.
        location: String,
    },
    /// A build in a home centre the power has lost (DATC 6.I.5).
    BuildNotOwned {
        /// The space built in.
        location: String,
    },
    /// A build in a home centre that holds a unit, on any coast (DATC 6.I.3, 6.I.4).
    BuildOccupied {
        /// The space built in.
        location: String,
    },
    /// A build that does not say army or fleet where both could stand, or a
    /// fleet build in a two-coast province without its coast (DATC 6.B.14).
    BuildKindMissing {
        /// The space built in.
        location: String,
    },
    /// A fleet built in an inland centre (DATC 6.I.2).
    BuildFleetInland {
        /// The space built in.
        location: String,
    },
    /// A build order from a power with no builds due.
    NoBuilds {
        /// The power's name.
        power: String,
    },
    /// A removal order from a power with no removals due.
    NoRemovals {
        /// The power's name.
        power: String,
    },
    /// Every other refusal, with its message: rules of one variant (1958 stacks, DP
    /// minors), duplicate orders, and any error read back from storage (see the
    /// `Deserialize` impl).
    Other(String),
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use OrderError::*;
        match self {
            Empty => write!(f, "the order is empty"),
            Syntax(s) => write!(f, "{s}"),
            UnknownProvince { name, nearest } => match nearest {
                Some(n) => write!(f, "unknown province `{name}`; did you mean `{n}`?"),
                None => write!(f, "unknown province `{name}`"),
            },
            UnknownCoast {
                province,
                coast,
                coasts,
            } => {
                if coasts.is_empty() {
                    write!(f, "{province} has no separate coasts, so `{coast}` is not one of them")
                } else {
                    write!(
                        f,
                        "{province} has no coast `{coast}`; its coasts are {}",
                        coasts.join(", ")
                    )
                }
            }
            UnknownPower { name, nearest } => match nearest {
                Some(n) => write!(f, "unknown power `{name}`; did you mean `{n}`?"),
                None => write!(f, "unknown power `{name}`"),
            },
            NoUnit { location } => write!(f, "there is no unit in {location}"),
            NotYourUnit { location, owner } => write!(f, "the unit in {location} belongs to {owner}, not to you"),
            WrongPhase { order, phase } => write!(f, "{order} orders are not allowed in {phase}"),
            MoveToSelf { location } => write!(f, "a unit cannot move to the space it is in ({location})"),
            ArmyToSea { to } => write!(f, "an army cannot move to {to}, which is sea"),
            FleetToLand { to } => write!(f, "a fleet cannot move to {to}, which is inland"),
            NotAdjacent { from, to, kind } => write!(f, "{to} is not adjacent to {from} for {kind}"),
            CoastNeeded { to, coasts } => {
                write!(
                    f,
                    "{to} has more than one coast the fleet can reach; say which ({})",
                    coasts.join(" or ")
                )
            }
            CoastUnreachable { from, to } => write!(f, "a fleet in {from} cannot reach {to}"),
            CannotConvoyThere { to } => {
                write!(f, "{to} is not adjacent and no sea route can carry an army there")
            }
            CannotSupportThere { from, to } => {
                write!(
                    f,
                    "the unit in {from} could not move to {to} itself, so it cannot support there"
                )
            }
            SupportSelf => write!(f, "a unit cannot support itself"),
            ConvoyNotAtSea { location } => write!(f, "only a fleet at sea can convoy; {location} is not a sea space"),
            ConvoyNotArmy { location } => write!(f, "only armies can be convoyed; the unit in {location} is a fleet"),
            ConvoyFleet => write!(f, "only fleets can convoy"),
            ConvoyNotOnRoute { fleet, from, to } => write!(
                f,
                "no convoy route from {from} to {to} with the fleets on the board needs the fleet in {fleet}"
            ),
            NotDislodged { location } => {
                write!(f, "the unit in {location} was not dislodged and has nothing to retreat")
            }
            RetreatBlocked { to, why } => write!(f, "cannot retreat to {to}: {why}"),
            BuildNotHome { location } => write!(f, "{location} is not one of your home centres"),
            BuildNotOwned { location } => write!(f, "you do not control {location}"),
            BuildOccupied { location } => write!(f, "{location} is occupied"),
            BuildKindMissing { location } => {
                write!(
                    f,
                    "say whether to build an army or a fleet (and which coast) in {location}"
                )
            }
            BuildFleetInland { location } => write!(f, "a fleet cannot be built in {location}, which is inland"),
            NoBuilds { power } => write!(f, "{power} has no builds to make"),
            NoRemovals { power } => write!(f, "{power} has no units to remove"),
            Other(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for OrderError {}

/// The province an order's unit stands in.
pub fn order_province(order: &Order) -> ProvinceId {
    order.unit.location.province
}

/// An error is stored as the message a player reads, and comes back as
/// `OrderError::Other` with that message: several variants hold `&'static str` words
/// that a stored copy cannot borrow, and every reader of a stored result wants only
/// the words.
impl serde::Serialize for OrderError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for OrderError {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(OrderError::Other)
    }
}
