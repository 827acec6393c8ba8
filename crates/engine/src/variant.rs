//! The loaded map and rule parameters of one variant.
//!
//! A `Variant` is immutable once loaded: adjudication only reads it, so one instance is
//! shared by every game on that map.

use std::collections::HashMap;

use crate::names::NameTable;

/// Index of a space in `Variant::provinces`.
pub type ProvinceId = u16;
/// Index of a power in `Variant::powers`.
pub type PowerId = u8;

/// The two kinds of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum UnitKind {
    /// Moves over land and coasts; crosses water only by convoy (or, in Original 1958,
    /// aboard a fleet).
    Army,
    /// Moves over sea and along coasts; convoys armies from the sea.
    Fleet,
}

impl UnitKind {
    /// `A` or `F`, as orders and positions write the kind.
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
        }
    }
}

/// What a space is made of, which decides who may stand in it (`province` lines of a
/// variant file, docs/variant-format.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Inland: armies only.
    Land,
    /// Land by the sea: armies, and fleets along its coasts.
    Coast,
    /// Water: fleets only, and armies where the space has `landing`.
    Sea,
    /// No unit may enter (Switzerland on the Standard board).
    Impassable,
}

impl Terrain {
    /// The terrain as the variant file writes it (`land`, `coast`, `sea`, `impassable`).
    pub fn as_str(self) -> &'static str {
        match self {
            Terrain::Land => "land",
            Terrain::Coast => "coast",
            Terrain::Sea => "sea",
            Terrain::Impassable => "impassable",
        }
    }
}

/// Where a unit stands: a space and, for a fleet on a multi-coast space, which coast.
/// `coast` is 0 for "no particular coast" and otherwise one more than the index into
/// the space's `coasts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Location {
    /// The space.
    pub province: ProvinceId,
    /// 0, or the coast's index in [`Province::coasts`] plus one.
    pub coast: u8,
}

impl Location {
    /// A location on coast `coast` (0 for none) of `province`.
    pub const fn new(province: ProvinceId, coast: u8) -> Self {
        Location { province, coast }
    }
    /// The whole space, no particular coast: where armies stand, and fleets in spaces
    /// with one coast.
    pub const fn province(province: ProvinceId) -> Self {
        Location { province, coast: 0 }
    }
}

/// What sort of power a power is, fixed by the variant file (`power` lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerKind {
    /// A power with a player, the only kind that can win.
    Great,
    /// An armed minor power of a DP variant (1936, 1648): no player; its units hold
    /// unless great powers' Diplomacy Point bids order them (DP rule 1).
    Minor,
    /// A power that fights as its own but is ordered by a great power's player (1936's
    /// Spanish factions, DP rule 8); see [`Power::player`].
    Faction,
}

/// One power of a variant.
#[derive(Clone, Debug)]
pub struct Power {
    /// Its name as shown and as written in orders (`England`, `United Kingdom`).
    pub name: String,
    /// Great, minor or faction.
    pub kind: PowerKind,
    /// The colour its units and centres are drawn in (`#rrggbb`), when the file gives one.
    pub colour: Option<String>,
    /// The adjective messages use (`British`).
    pub adjective: Option<String>,
    /// Other names a player may write for the power (Original 1958's rule text says
    /// `England` for the United Kingdom), read wherever its name is.
    pub aliases: Vec<String>,
    /// Other adjectives a player may write before a unit or after `B` (`English`).
    pub other_adjectives: Vec<String>,
    /// For a faction: the great power whose player orders it.
    pub player: Option<PowerId>,
}

impl Power {
    /// Its name and every alias: what a player may write for the power.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name.as_str()).chain(self.aliases.iter().map(String::as_str))
    }

    /// Every adjective read in orders, the one shown first.
    pub fn adjectives(&self) -> impl Iterator<Item = &str> {
        self.adjective.iter().chain(&self.other_adjectives).map(String::as_str)
    }
}

/// One space of the map, as its `province` line declares it (docs/variant-format.md).
#[derive(Clone, Debug)]
pub struct Province {
    /// The short name orders use (`stp`), as the file writes it.
    pub abbr: String,
    /// The full name (`St Petersburg`).
    pub name: String,
    /// Who may stand in it.
    pub terrain: Terrain,
    /// Whether it is a supply centre.
    pub sc: bool,
    /// The powers it is a home centre of, where they build; two in 1936's Spain, whose
    /// centres are home to both factions.
    pub homes: Vec<PowerId>,
    /// Who owns its centre at the start of the game.
    pub owner: Option<PowerId>,
    /// The names of its separate coasts (`nc`, `sc`), empty for a space with one coast
    /// or none; a fleet there stands on one of them ([`Location::coast`]).
    pub coasts: Vec<String>,
    /// Latitude and longitude of its middle, for drawing and `lint`'s distance checks.
    pub at: Option<(f64, f64)>,
    /// Other names a player may write for it (`Saint Petersburg`).
    pub aliases: Vec<String>,
    /// A canal (1648's Copenhagen and Constantinople): marks the space for readers; the
    /// passage itself is in the fleet adjacency.
    pub canal: bool,
    /// A sea space with land in it (1936 Gibraltar, Dodecanese) that armies may enter.
    pub landing: bool,
    /// The power whose capital this is (Original 1958 stacking, rules 3 to 5).
    pub capital: Option<PowerId>,
    /// The power whose naval base this is, and the coast (0 for none) its fleets stack
    /// on (Original 1958).
    pub naval_base: Option<(PowerId, u8)>,
}

impl Province {
    /// Whether the space is water (fleets only, save a `landing`).
    pub fn is_sea(&self) -> bool {
        self.terrain == Terrain::Sea
    }
}

/// What wins the game (`victory` line), checked after each Fall by [`crate::victory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victory {
    /// Owning this many supply centres (18 of 34 in Standard).
    Centres(u32),
    /// Having this many units on the board (Original 1958).
    Units(u32),
}

/// The two seasons of a game year; the Winter adjustments belong to the Fall (see
/// [`crate::Phase`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Season {
    /// The first movement of the year; centres do not change hands after it.
    Spring,
    /// The second movement, after which centres change hands and powers adjust.
    Fall,
}

impl Season {
    /// `Spring`, `Fall` (or `Autumn`), `S`, `F`, in any case.
    pub fn parse(word: &str) -> Option<Season> {
        match word.to_ascii_lowercase().as_str() {
            "spring" | "s" => Some(Season::Spring),
            "fall" | "autumn" | "f" => Some(Season::Fall),
            _ => None,
        }
    }

    /// `Spring` or `Fall`, as phases are shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
        }
    }
}

/// A unit of the starting position (`unit` lines); [`crate::GameState::initial`]
/// places them.
#[derive(Clone, Debug)]
pub struct StartUnit {
    /// Its power.
    pub power: PowerId,
    /// Army or fleet.
    pub kind: UnitKind,
    /// Where it starts.
    pub location: Location,
}

/// A `rule KEY VALUE…` line as written; `rules.rs` types it at load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleParam {
    /// The word after `rule` (`dp-budget`, `stacking`).
    pub key: String,
    /// The words after the key.
    pub values: Vec<String>,
    /// Its line number in the file, for messages that point at it.
    pub line: usize,
}

/// A rule that is either on or off for a variant; [`Variant::rule_on`] asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Several units of a power in its capital and naval bases (`rule stacking
    /// capitals naval-bases`, Original 1958 rules 3 to 5).
    Stacking,
    /// Armies board fleets instead of being convoyed (`rule boarding on`, rules 6 and 7).
    Boarding,
    /// No convoys at all (`rule convoys none`, rule 6).
    NoConvoys,
    /// Two fleets may exchange spaces along different coasts (`rule swaps
    /// different-coasts`, rule 8).
    CoastSwaps,
    /// Diplomacy Points: the variant gives great powers budgets (`rule dp-budget`).
    DiplomacyPoints,
}

/// Every rule line of a variant, typed when it is loaded (`rules.rs` reads them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// The lines as written, for `lint` and for messages that name a line.
    pub lines: Vec<RuleParam>,
    /// The Diplomacy Point numbers (1936, 1648); all zero and empty elsewhere.
    pub dp: DpRules,
    /// Home centres a power may not build in (1936: France in Lebanon, Italy in Libya).
    pub build_restrictions: Vec<(PowerId, ProvinceId)>,
    pub(crate) stacking: bool,
    pub(crate) boarding: bool,
    pub(crate) no_convoys: bool,
    pub(crate) coast_swaps: bool,
}

impl Rules {
    /// Whether `rule` is on; callers ask `Variant::rule_on`, the one way to ask.
    fn on(&self, rule: Rule) -> bool {
        match rule {
            Rule::Stacking => self.stacking,
            Rule::Boarding => self.boarding,
            Rule::NoConvoys => self.no_convoys,
            Rule::CoastSwaps => self.coast_swaps,
            Rule::DiplomacyPoints => !self.dp.budgets.is_empty(),
        }
    }
}

/// Points (latitude, longitude) a drawn line runs through, in order.
pub type Route = Vec<(f64, f64)>;

impl Variant {
    /// Whether the variant has `rule` on: the one way the engine and its callers ask.
    pub fn rule_on(&self, rule: Rule) -> bool {
        self.rules.on(rule)
    }

    /// Whether a `rule build-restriction POWER SPACE` line forbids `power` to build in
    /// `p` although it is a home centre (1936: France in Lebanon, Italy in Libya).
    pub fn build_restricted(&self, power: PowerId, p: ProvinceId) -> bool {
        self.rules.build_restrictions.contains(&(power, p))
    }
}

/// "Losing `centre` costs `power` nothing while it owns one of `while_owning`": 1936's
/// Lebanon exception (DP rule 2, 1936 Q9; `rule dp-penalty excused …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excuse {
    /// The power excused (France).
    pub power: PowerId,
    /// The centre whose loss it is excused (Lebanon).
    pub centre: ProvinceId,
    /// The centres any one of which cancels the penalty (Ankara, Iraq, Suez).
    pub while_owning: Vec<ProvinceId>,
}

/// The client bonus: `base` at first, `rise` more at `from` and every `every` years after.
/// A patron's bid on its client's unit counts this many DPs more (DP rule 4, per bid;
/// `rule client-bonus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BonusSchedule {
    /// The bonus at the start.
    pub base: u32,
    /// How much it grows at each step.
    pub rise: u32,
    /// Years between steps.
    pub every: i32,
    /// The season and year of the first rise.
    pub from: (Season, i32),
}

/// The Diplomacy Point numbers of a variant (DP rules 2 to 5, docs/rules-dp.md), read
/// from its `rule dp-…`, `client-bonus` and `sortie` lines by `rules::dp`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DpRules {
    /// Per-power budgets; `None` is `default`.
    pub budgets: Vec<(Option<PowerId>, u32)>,
    /// DPs a power loses per centre it originally owned and another power now controls
    /// (DP rule 2).
    pub lost_centre_penalty: u32,
    /// Centres whose loss costs nothing under a condition (1936's Lebanon).
    pub excuses: Vec<Excuse>,
    /// DPs a sponsor loses when its Spanish faction holds fewer Spanish centres than the
    /// other faction, or none (1936, DP rule 2).
    pub faction_penalty: u32,
    /// The client bonus, if the variant has patrons.
    pub bonus: Option<BonusSchedule>,
    /// 1648: a client's move order counts only if a patron bids for it or other powers
    /// bid at least this many DPs for it.
    pub client_sortie_threshold: Option<u32>,
}

/// A whole variant: map, powers, starting position and rules, loaded from a `.var`
/// file by [`crate::variant_file::load_variant`] (or [`crate::builtin::builtin`]).
/// Every other type of the engine refers to its spaces and powers by index
/// ([`ProvinceId`], [`PowerId`]) into this one.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The short name games refer to it by (`standard`, `1936`).
    pub id: String,
    /// Its full title, for people.
    pub title: String,
    /// The first phase's season and year.
    pub start: (Season, i32),
    /// What wins.
    pub victory: Victory,
    /// Its powers, in file order; a [`PowerId`] indexes this.
    pub powers: Vec<Power>,
    /// Its spaces, in file order; a [`ProvinceId`] indexes this.
    pub provinces: Vec<Province>,
    /// Army neighbours of each space, as written in the file.
    pub army_adjacency: Vec<Vec<ProvinceId>>,
    /// Fleet neighbours of each location, indexed by `location_index`.
    pub fleet_adjacency: Vec<Vec<Location>>,
    /// First location index of each space; its coasts follow it.
    pub(crate) location_base: Vec<u32>,
    /// The starting units.
    pub units: Vec<StartUnit>,
    /// Each minor power with its patrons, whose bids on it get the client bonus (DP rule
    /// 4; `client` lines).
    pub clients: Vec<(PowerId, Vec<PowerId>)>,
    /// Centres a great power may build in besides its home centres (1648; `build-site`
    /// lines).
    pub build_sites: Vec<(PowerId, ProvinceId)>,
    /// The `rule` lines, typed at load (`rules.rs`); `Variant::rule_on` asks.
    pub rules: Rules,
    /// Drawing only: extra points (latitude, longitude) that a space's shape must hold
    /// besides its `at=` anchor (`shape` lines), and borders drawn as a crossing over a
    /// strait rather than a shared edge (`strait` lines), and points on land that belongs
    /// to no space (`outside` lines: an island such as Ireland on the Standard board, or
    /// the land about Switzerland). Adjudication never reads them.
    pub shape_points: Vec<(ProvinceId, (f64, f64))>,
    /// Pairs of spaces whose border is drawn as a crossing over water (`strait` lines).
    pub straits: Vec<(ProvinceId, ProvinceId)>,
    /// Borders drawn as a crossing on land (`junction` lines): where the graph is not
    /// planar (a K3,3 of borders, or a ring of spaces round a sea), no map whose spaces are
    /// each one region can make every border a shared edge, so one of the knot is marked.
    pub junctions: Vec<(ProvinceId, ProvinceId)>,
    /// The route given on a `junction` line (latitude, longitude points), for a junction
    /// whose spaces meet only off the map (1648's oceans round the Cape): its crossing is
    /// drawn along these points rather than between the spaces' closest points.
    pub junction_routes: Vec<((ProvinceId, ProvinceId), Route)>,
    /// Points on land that belongs to no space (`outside` lines), for drawing.
    pub outside_points: Vec<(f64, f64)>,
    /// Lowercased abbreviations, full names and aliases to spaces.
    pub(crate) names: HashMap<String, ProvinceId>,
    pub(crate) power_names: HashMap<String, PowerId>,
    /// The same names, and the powers' adjectives, split into words for the parser
    /// (built by `index_names` when the variant loads).
    pub(crate) lookup: Names,
}

impl Variant {
    /// The space `id`. Panics on an id from another variant: ids are only made by
    /// loading and lookups on this one.
    pub fn province(&self, id: ProvinceId) -> &Province {
        &self.provinces[id as usize]
    }

    /// The power `id`; panics like [`Variant::province`].
    pub fn power(&self, id: PowerId) -> &Power {
        &self.powers[id as usize]
    }

    /// A dense index of every location, each space followed by its coasts, so that
    /// per-location tables are plain vectors.
    pub fn location_index(&self, loc: Location) -> usize {
        self.location_base[loc.province as usize] as usize + loc.coast as usize
    }

    /// How many locations [`Variant::location_index`] numbers.
    pub fn location_count(&self) -> usize {
        self.fleet_adjacency.len()
    }

    /// Builds the name tables from `names`, `power_names` and the powers' adjectives;
    /// called once when the variant is loaded.
    pub(crate) fn index_names(&mut self) {
        let adjectives: Vec<(String, PowerId)> = self
            .powers
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.adjectives().map(move |a| (normalise_name(a), i as PowerId)))
            .collect();
        self.lookup = Names {
            provinces: NameTable::new(self.names.iter().map(|(k, &p)| (k.as_str(), p))),
            power_names: NameTable::new(self.power_names.iter().map(|(k, &p)| (k.as_str(), p))),
            powers: NameTable::new(
                self.power_names
                    .iter()
                    .map(|(k, &p)| (k.as_str(), p))
                    .chain(adjectives.iter().map(|(k, p)| (k.as_str(), *p))),
            ),
        };
    }

    /// Finds a space by abbreviation, full name or alias, ignoring case.
    pub fn find_province(&self, name: &str) -> Option<ProvinceId> {
        self.lookup.provinces.find(name)
    }

    /// Finds a power by its name, ignoring case.
    pub fn find_power(&self, name: &str) -> Option<PowerId> {
        self.lookup.power_names.find(name)
    }

    /// Finds a power by its name or adjective (`Russian`), ignoring case.
    pub fn find_power_or_adjective(&self, name: &str) -> Option<PowerId> {
        self.lookup.powers.find(name)
    }

    /// The coast index (1-based) of `name` on `province`, if it has that coast.
    pub fn find_coast(&self, province: ProvinceId, name: &str) -> Option<u8> {
        let name = name.trim().to_ascii_lowercase();
        let full = coast_abbreviation(&name).unwrap_or(&name);
        self.province(province)
            .coasts
            .iter()
            .position(|c| c.eq_ignore_ascii_case(full))
            .map(|i| i as u8 + 1)
    }

    /// Every name a player may type, for "did you mean" suggestions.
    pub fn all_names(&self) -> impl Iterator<Item = (&str, ProvinceId)> {
        self.names.iter().map(|(k, v)| (k.as_str(), *v))
    }

    /// Every name of every power (aliases included), and with `adjectives` every
    /// adjective too, for "did you mean" suggestions.
    pub fn all_power_names(&self, adjectives: bool) -> impl Iterator<Item = &str> {
        self.powers.iter().flat_map(move |p| {
            let adjectives = p.adjectives().filter(move |_| adjectives);
            p.names().chain(adjectives)
        })
    }

    /// The coast's name (`nc`) of a location on a coast, `None` for a whole space.
    pub fn coast_name(&self, loc: Location) -> Option<&str> {
        if loc.coast == 0 {
            None
        } else {
            self.province(loc.province)
                .coasts
                .get(loc.coast as usize - 1)
                .map(String::as_str)
        }
    }

    /// `stp/sc` style name of a location, lowercase.
    pub fn location_name(&self, loc: Location) -> String {
        let abbr = self.province(loc.province).abbr.to_ascii_lowercase();
        match self.coast_name(loc) {
            Some(c) => format!("{abbr}/{c}"),
            None => abbr,
        }
    }

    /// The spaces an army in `p` may move to (its `army` line).
    pub fn army_neighbours(&self, p: ProvinceId) -> &[ProvinceId] {
        &self.army_adjacency[p as usize]
    }

    /// The locations a fleet at `loc` may move to, coasts included (its `fleet` lines).
    pub fn fleet_neighbours(&self, loc: Location) -> &[Location] {
        &self.fleet_adjacency[self.location_index(loc)]
    }

    /// Whether a unit of `kind` at `from` may move to `to` in one step. For fleets the
    /// coast of `to` must match; a coast of 0 on `to` matches only single-coast spaces.
    pub fn can_move(&self, kind: UnitKind, from: Location, to: Location) -> bool {
        match kind {
            UnitKind::Army => self.army_adjacency[from.province as usize].contains(&to.province),
            UnitKind::Fleet => self.fleet_neighbours(from).contains(&to),
        }
    }

    /// Whether a unit of `kind` at `from` could move into some part of `to`. Supports
    /// need only this (DATC 6.B.4: support to an unreachable coast is allowed).
    pub fn can_reach_province(&self, kind: UnitKind, from: Location, to: ProvinceId) -> bool {
        match kind {
            UnitKind::Army => self.army_adjacency[from.province as usize].contains(&to),
            UnitKind::Fleet => self.fleet_neighbours(from).iter().any(|l| l.province == to),
        }
    }

    /// Whether armies may stand in the space (land, coast, or a sea with land in it).
    pub fn army_can_stand(&self, p: ProvinceId) -> bool {
        let prov = self.province(p);
        match prov.terrain {
            Terrain::Land | Terrain::Coast => true,
            Terrain::Sea => prov.landing,
            Terrain::Impassable => false,
        }
    }

    /// Whether fleets may stand in the space (coast or sea).
    pub fn fleet_can_stand(&self, p: ProvinceId) -> bool {
        matches!(self.province(p).terrain, Terrain::Coast | Terrain::Sea)
    }

    /// Whether `p` is one of `power`'s home centres.
    pub fn is_home_of(&self, p: ProvinceId, power: PowerId) -> bool {
        self.province(p).homes.contains(&power)
    }

    /// Whether `power` may give orders to a unit of `owner`: its own units and those of
    /// a faction it plays.
    pub fn controls(&self, power: PowerId, owner: PowerId) -> bool {
        power == owner || self.power(owner).player == Some(power)
    }

    /// Whether `power` is one of the variant's minor powers: what it is, fixed by the
    /// map. How a power acts in a position (a power in civil disorder acts as a minor)
    /// is `GameState::acts_as_minor`, which every minor-power rule asks; this is asked
    /// only where the map's own minors matter (whose client a unit is, what a minor
    /// started with, who may fall into civil disorder).
    pub fn is_minor(&self, power: PowerId) -> bool {
        self.power(power).kind == PowerKind::Minor
    }

    /// Whether the variant has minor powers, whose units take orders only through bids.
    pub fn has_minors(&self) -> bool {
        self.powers.iter().any(|p| p.kind == PowerKind::Minor)
    }

    /// The great powers, the ones with players who can win.
    pub fn great_powers(&self) -> impl Iterator<Item = PowerId> + '_ {
        (0..self.powers.len() as PowerId).filter(|&p| self.power(p).kind == PowerKind::Great)
    }

    /// How many supply centres the map has.
    pub fn centre_count(&self) -> usize {
        self.provinces.iter().filter(|p| p.sc).count()
    }
}

/// The name tables of one variant: its spaces (abbreviations, names, aliases) and its
/// powers (names, and names with adjectives).
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub provinces: NameTable<ProvinceId>,
    pub power_names: NameTable<PowerId>,
    pub powers: NameTable<PowerId>,
}

// The folding lives with the name tables that look the folded names up.
pub use crate::names::normalise_name;

/// The two-letter coast for a spelled-out coast ("north coast" → "nc").
pub fn coast_abbreviation(name: &str) -> Option<&'static str> {
    match name.trim() {
        "nc" | "north" | "north coast" | "n" | "northern coast" => Some("nc"),
        "sc" | "south" | "south coast" | "s" | "southern coast" => Some("sc"),
        "ec" | "east" | "east coast" | "e" | "eastern coast" => Some("ec"),
        "wc" | "west" | "west coast" | "w" | "western coast" => Some("wc"),
        _ => None,
    }
}
