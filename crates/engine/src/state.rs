//! The position between phases: units, centre owners, and what a retreat phase needs.

use crate::variant::{Location, PowerId, ProvinceId, Season, UnitKind, Variant};

/// Whom a unit fights for: the rules that keep a power from dislodging its own units,
/// or from helping to dislodge them, and that make a minor's move a sortie, ask this,
/// not the unit's power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A power with a player: a great power, or a faction (which its player orders but
    /// which fights as a power of its own).
    Power(PowerId),
    /// A minor power of the variant (1936, 1648): its units take their orders from DP
    /// bids, and one of its units never helps to dislodge another.
    Minor(PowerId),
    /// A unit of a power in civil disorder: each of its centres became "a newly
    /// independent minor power" (DP rule 11), so each unit fights as a minor of its own,
    /// known by the space it stands in, though it keeps the power's id and colours.
    Independent(ProvinceId),
}

impl Side {
    /// Whether the unit follows the minor-power rules (its moves are sorties).
    pub fn is_minor(self) -> bool {
        !matches!(self, Side::Power(_))
    }
}

/// The three kinds of phase of a game year. Each takes its own orders (see
/// [`crate::OrderKind`]) and is judged by its own code: [`crate::movement`] for
/// movement, retreats in [`mod@crate::adjudicate`], [`crate::adjust`] for adjustments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum PhaseKind {
    /// Units hold, move, support and convoy; supply centres change hands after Fall's.
    Movement,
    /// Dislodged units retreat or disband; skipped when no dislodged unit has a space
    /// to retreat to.
    Retreat,
    /// Winter: powers build or remove units to match their centres.
    Adjustment,
}

/// One phase of the game calendar, such as Spring 1901 movement. The derived order
/// compares the season first, so it is not the order of play: compare
/// `(year, season, kind)` for that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Phase {
    /// Spring or Fall; the Winter adjustments count as Fall (see [`Phase::code`] for
    /// how they are written).
    pub season: Season,
    /// The game year, as on the board (1901 in Standard, 1648 in 1648).
    pub year: i32,
    /// Movement, retreat or adjustment.
    pub kind: PhaseKind,
}

impl Phase {
    /// The phase of `kind` in `season` of `year`.
    pub fn new(season: Season, year: i32, kind: PhaseKind) -> Self {
        Phase { season, year, kind }
    }

    /// Spring movement → Spring retreat → Fall movement → Fall retreat → Winter adjustment.
    pub fn next(self) -> Phase {
        use PhaseKind::*;
        use Season::*;
        match (self.season, self.kind) {
            (Spring, Movement) => Phase::new(Spring, self.year, Retreat),
            (Spring, Retreat) => Phase::new(Fall, self.year, Movement),
            (Spring, Adjustment) => Phase::new(Spring, self.year, Movement),
            (Fall, Movement) => Phase::new(Fall, self.year, Retreat),
            (Fall, Retreat) => Phase::new(Fall, self.year, Adjustment),
            (Fall, Adjustment) => Phase::new(Spring, self.year + 1, Movement),
        }
    }

    /// Short code as webDiplomacy and DPjudge write it: S1901M, F1901R, W1901A.
    pub fn code(self) -> String {
        let s = match (self.season, self.kind) {
            (_, PhaseKind::Adjustment) => 'W',
            (Season::Spring, _) => 'S',
            (Season::Fall, _) => 'F',
        };
        let k = match self.kind {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
        };
        format!("{s}{}{k}", self.year)
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            PhaseKind::Movement => write!(f, "{} {} movement", self.season.as_str(), self.year),
            PhaseKind::Retreat => write!(f, "{} {} retreats", self.season.as_str(), self.year),
            PhaseKind::Adjustment => write!(f, "Winter {} adjustments", self.year),
        }
    }
}

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Unit {
    /// The power that owns it. Its player orders it (a faction's units, the faction's
    /// sponsor); a minor power's units take their orders from DP bids.
    pub power: PowerId,
    /// Army or fleet.
    pub kind: UnitKind,
    /// Where it stands; a fleet in a province with two coasts stands on one of them.
    pub location: Location,
}

/// A unit waiting to retreat, with what its retreat depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dislodged {
    /// The dislodged unit, where it stood when dislodged.
    pub unit: Unit,
    /// Where the dislodging unit came from, when it came over land; a unit may not
    /// retreat there. `None` when it came by convoy (DATC 4.A.5: then it may).
    pub attacker_from: Option<ProvinceId>,
}

/// A position: everything the rules need to judge the next phase, and nothing else (no
/// orders, no history). [`crate::judge_phase`] takes one and returns the next. Vectors
/// indexed by province are indexed by [`ProvinceId`] of the variant the position
/// belongs to.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameState {
    /// The phase about to be played.
    pub phase: Phase,
    /// The units on the board, in no order the rules depend on. One unit per space,
    /// except in Original 1958's stacks.
    pub units: Vec<Unit>,
    /// Owner of each space's centre (None for non-centres and unowned centres); owners
    /// change as the Fall ends, and when a power falls into civil disorder (DP rule 11).
    pub owners: Vec<Option<PowerId>>,
    /// Retreat phase only: the units that must retreat or disband.
    pub dislodged: Vec<Dislodged>,
    /// Retreat phase only: spaces left empty by a standoff, closed to retreats.
    pub standoffs: Vec<ProvinceId>,
    /// Armies aboard fleets (variants with `rule boarding on`). A carried army is not in
    /// `units`: it cannot fight, support or be attacked on its own.
    pub carried: Vec<Carried>,
    /// Capitals a power designated after losing its own (`rule stacking`); see
    /// `stacking::capital` for how the capital in force is found.
    pub capitals: Vec<(PowerId, ProvinceId)>,
    /// Powers in permanent civil disorder (DP variants): great powers the GM declared so
    /// (rule 11) and factions whose sponsor was eliminated (rule 8). Their remaining
    /// units are independent minors, so the rules for minor powers apply to them; the
    /// list is part of the position because no later phase can tell them apart otherwise.
    pub disordered: Vec<PowerId>,
}

/// An army aboard a fleet. The army stands wherever the fleet is; `carrier_dislodged`
/// says the fleet is in `GameState::dislodged` (retreat phase) rather than `units`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Carried {
    /// The army's power, which may not be the fleet's (international boarding,
    /// docs/rules-1958.md).
    pub army: PowerId,
    /// The fleet it is aboard, as the fleet stands on the board.
    pub fleet: Unit,
    /// Whether the fleet was dislodged and is waiting to retreat, carrying the army.
    pub carrier_dislodged: bool,
}

impl Carried {
    /// The army as a unit, at its fleet's space (no coast: armies have none).
    pub fn army_unit(&self) -> Unit {
        Unit {
            power: self.army,
            kind: UnitKind::Army,
            location: Location::province(self.fleet.location.province),
        }
    }
}

impl GameState {
    /// The variant's starting position.
    pub fn initial(variant: &Variant) -> GameState {
        let (season, year) = variant.start;
        GameState {
            phase: Phase::new(season, year, PhaseKind::Movement),
            units: variant
                .units
                .iter()
                .map(|u| Unit {
                    power: u.power,
                    kind: u.kind,
                    location: u.location,
                })
                .collect(),
            owners: variant.provinces.iter().map(|p| p.owner).collect(),
            dislodged: Vec::new(),
            standoffs: Vec::new(),
            carried: Vec::new(),
            capitals: Vec::new(),
            disordered: Vec::new(),
        }
    }

    /// An empty board at a phase, owners as at the variant's start.
    pub fn empty(variant: &Variant, phase: Phase) -> GameState {
        GameState {
            phase,
            units: Vec::new(),
            owners: variant.provinces.iter().map(|p| p.owner).collect(),
            dislodged: Vec::new(),
            standoffs: Vec::new(),
            carried: Vec::new(),
            capitals: Vec::new(),
            disordered: Vec::new(),
        }
    }

    /// Whether `power` is in permanent civil disorder (`disordered`).
    pub fn in_disorder(&self, power: PowerId) -> bool {
        self.disordered.contains(&power)
    }

    /// Whether `power`'s units follow the minor-power rules: hold unless DP bids order
    /// them, removed when dislodged, rebuilt in the Winter. True of minor powers and of
    /// powers in civil disorder, whose units became independent minors. The one
    /// question every minor-power rule asks of a power; `side` asks it of a unit.
    pub fn acts_as_minor(&self, v: &Variant, power: PowerId) -> bool {
        v.is_minor(power) || self.in_disorder(power)
    }

    /// Whom `unit` fights for in this position (`Side`).
    pub fn side(&self, v: &Variant, unit: &Unit) -> Side {
        if self.in_disorder(unit.power) {
            Side::Independent(unit.location.province)
        } else if v.is_minor(unit.power) {
            Side::Minor(unit.power)
        } else {
            Side::Power(unit.power)
        }
    }

    /// The unit in `province`, whichever coast it stands on; in a 1958 stack, the
    /// first. Linear in the number of units, which is small.
    pub fn unit_at(&self, province: ProvinceId) -> Option<&Unit> {
        self.units.iter().find(|u| u.location.province == province)
    }

    /// The index in `units` of the unit [`GameState::unit_at`] finds.
    pub fn unit_index_at(&self, province: ProvinceId) -> Option<usize> {
        self.units.iter().position(|u| u.location.province == province)
    }

    /// How many supply centres `power` owns: its build allowance in the Winter, and
    /// what victory counts.
    pub fn centre_count(&self, power: PowerId) -> usize {
        self.owners.iter().filter(|o| **o == Some(power)).count()
    }

    /// Units on the board, armies aboard fleets included (each is a unit on the map).
    pub fn unit_count(&self, power: PowerId) -> usize {
        self.units.iter().filter(|u| u.power == power).count() + self.carried.iter().filter(|c| c.army == power).count()
    }
}
