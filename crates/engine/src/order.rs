//! Orders as the engine understands them, and why an order can be refused.

use std::fmt;

use crate::variant::{Location, PowerId, ProvinceId, UnitKind, Variant};

/// The unit an order is about, as the player wrote it. The kind may be left out (DATC
/// 4.C.1) and is ignored when wrong (4.C.2); the coast of the ordered unit is ignored
/// too (4.B.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct UnitRef {
    pub kind: Option<UnitKind>,
    pub location: Location,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum OrderKind {
    Hold,
    /// `via_convoy`: the player asked for the sea route (DATC 4.A.3).
    Move {
        to: Location,
        via_convoy: bool,
    },
    SupportHold {
        unit: UnitRef,
    },
    SupportMove {
        unit: UnitRef,
        to: Location,
    },
    Convoy {
        army: UnitRef,
        to: Location,
    },
    /// Original 1958 boarding (rules 6 and 7): `to` is None for a unit that boards where
    /// it stands (`F lon B`), else where it moves to board (`F nth - yor B`); `with` is
    /// the other unit's power as written (`B Fra`), None for the ordering power's own.
    Board {
        to: Option<Location>,
        with: Option<PowerId>,
    },
    Retreat {
        to: Location,
    },
    Disband,
    Build {
        kind: Option<UnitKind>,
    },
    Remove,
    Waive,
}

/// One order. `power` is who gave it; for `Waive` the unit is meaningless.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Order {
    pub power: PowerId,
    pub unit: UnitRef,
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
    Empty,
    Syntax(String),
    UnknownProvince {
        name: String,
        nearest: Option<String>,
    },
    UnknownCoast {
        province: String,
        coast: String,
        coasts: Vec<String>,
    },
    UnknownPower {
        name: String,
        nearest: Option<String>,
    },
    NoUnit {
        location: String,
    },
    NotYourUnit {
        location: String,
        owner: String,
    },
    WrongPhase {
        order: &'static str,
        phase: String,
    },
    MoveToSelf {
        location: String,
    },
    ArmyToSea {
        to: String,
    },
    FleetToLand {
        to: String,
    },
    NotAdjacent {
        from: String,
        to: String,
        kind: &'static str,
    },
    CoastNeeded {
        to: String,
        coasts: Vec<String>,
    },
    CoastUnreachable {
        from: String,
        to: String,
    },
    CannotConvoyThere {
        to: String,
    },
    CannotSupportThere {
        from: String,
        to: String,
    },
    SupportSelf,
    ConvoyNotAtSea {
        location: String,
    },
    ConvoyNotArmy {
        location: String,
    },
    ConvoyFleet,
    ConvoyNotOnRoute {
        fleet: String,
        from: String,
        to: String,
    },
    NotDislodged {
        location: String,
    },
    RetreatBlocked {
        to: String,
        why: &'static str,
    },
    BuildNotHome {
        location: String,
    },
    BuildNotOwned {
        location: String,
    },
    BuildOccupied {
        location: String,
    },
    BuildKindMissing {
        location: String,
    },
    BuildFleetInland {
        location: String,
    },
    NoBuilds {
        power: String,
    },
    NoRemovals {
        power: String,
    },
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
