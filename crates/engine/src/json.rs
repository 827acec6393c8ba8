//! The JSON form of positions and results, with names instead of indices, shared by
//! `chancery adjudicate`, the server's storage and its API. docs/adjudicate-json.md
//! describes it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::adjudicate::Adjudication;
use crate::order::Order;
use crate::outcome::Outcome;
use crate::parse::parse_order_line;
use crate::state::{Carried, Dislodged, GameState, Phase, PhaseKind, Unit};
use crate::variant::{Location, PowerId, Season, UnitKind, Variant};

/// A unit on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UnitJson {
    /// Its power's name.
    pub power: String,
    /// "A" or "F".
    #[serde(rename = "type")]
    pub kind: String,
    /// Lowercase abbreviation, with the coast for a fleet on a split coast: "stp/sc".
    pub location: String,
}

/// A dislodged unit, which retreats or is disbanded in the retreat phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DislodgedJson {
    /// The unit, its fields inline in the object.
    #[serde(flatten)]
    pub unit: UnitJson,
    /// Where the dislodging unit came from over land (no retreat there); absent when it
    /// came by convoy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_from: Option<String>,
}

/// A position: the phase, the units, who owns each supply centre, and what a retreat
/// phase or a variant's rules need besides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StateJson {
    /// Phase code: S1901M, S1901R, F1901M, F1901R, W1901A.
    pub phase: String,
    /// The units on the board.
    pub units: Vec<UnitJson>,
    /// Centre → owner. Centres not listed are unowned.
    pub owners: BTreeMap<String, String>,
    /// Retreat phases: the units dislodged, which retreat or are disbanded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dislodged: Vec<DislodgedJson>,
    /// Retreat phases: the spaces left empty by a standoff, where no unit may retreat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standoffs: Vec<String>,
    /// Armies aboard fleets (Original 1958 boarding).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<CarriedJson>,
    /// Power → capital in force, for variants with capitals (Original 1958 rule 5).
    /// When absent or a power is missing, the capital follows from the owners: the
    /// home capital while owned, else the first home centre still owned.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capitals: BTreeMap<String, String>,
    /// Powers in permanent civil disorder (DP variants, rules 8 and 11), by name. Absent
    /// when there are none, so positions stored before it existed still load.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disordered: Vec<String>,
}

/// An army aboard a fleet: the army's power and the fleet that carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarriedJson {
    /// The army's power.
    pub power: String,
    /// The fleet carrying it.
    pub fleet: UnitJson,
    /// The carrying fleet is one of the dislodged units (retreat phase).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dislodged: bool,
}

/// One order's (or one unit's) result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResultJson {
    /// The power whose unit or order it is.
    pub power: String,
    /// The unit, "F stp/sc"; empty, and absent from the JSON, for a waived build, which
    /// stands for no unit.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
    /// The order as adjudicated, in canonical notation; absent when the unit had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// A short machine word: held, moved, bounced, no_convoy, own_unit, supported,
    /// cut, unmatched, convoyed, paradox, void, retreated, disbanded, built, removed,
    /// removed_in_disorder, waived.
    pub outcome: String,
    /// Whether the order did what it said (a move moved, a support was given, …).
    pub succeeded: bool,
    /// The reason in words.
    pub reason: String,
    /// The space the unit that dislodged this one came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dislodged_by: Option<String>,
    /// A dislodged unit: the spaces it may retreat to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreats: Vec<String>,
}

/// An order the engine would not take, as given, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RefusedJson {
    /// The power that gave it.
    pub power: String,
    /// The order in canonical notation.
    pub order: String,
    /// Why, in words.
    pub error: String,
}

/// A judged phase: every result, the orders refused, the next position and the winner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AdjudicationJson {
    /// The phase judged (its code).
    pub phase: String,
    /// Every unit's (and every adjustment order's) result.
    pub results: Vec<ResultJson>,
    /// The orders refused as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<RefusedJson>,
    /// The position after the phase (phases in which nobody has a choice skipped).
    pub next: StateJson,
    /// The power that won with this phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

/// A unit in its JSON form.
pub fn unit_json(v: &Variant, u: &Unit) -> UnitJson {
    UnitJson {
        power: v.power(u.power).name.clone(),
        kind: u.kind.letter().to_string(),
        location: v.location_name(u.location),
    }
}

/// "F stp/sc" style text of a unit.
pub fn unit_text(v: &Variant, u: &Unit) -> String {
    format!("{} {}", u.kind.letter(), v.location_name(u.location))
}

/// A position in its JSON form. Capitals are written for every power of a variant
/// with capitals, so that the JSON says which is in force without the rules.
pub fn state_to_json(v: &Variant, s: &GameState) -> StateJson {
    StateJson {
        phase: s.phase.code(),
        units: s.units.iter().map(|u| unit_json(v, u)).collect(),
        owners: s
            .owners
            .iter()
            .enumerate()
            .filter_map(|(p, o)| o.map(|o| (v.provinces[p].abbr.to_ascii_lowercase(), v.power(o).name.clone())))
            .collect(),
        dislodged: s
            .dislodged
            .iter()
            .map(|d| DislodgedJson {
                unit: unit_json(v, &d.unit),
                attacker_from: d
                    .attacker_from
                    .map(|p| v.provinces[p as usize].abbr.to_ascii_lowercase()),
            })
            .collect(),
        standoffs: s
            .standoffs
            .iter()
            .map(|p| v.provinces[*p as usize].abbr.to_ascii_lowercase())
            .collect(),
        carried: s
            .carried
            .iter()
            .map(|c| CarriedJson {
                power: v.power(c.army).name.clone(),
                fleet: unit_json(v, &c.fleet),
                dislodged: c.carrier_dislodged,
            })
            .collect(),
        capitals: v
            .great_powers()
            .filter(|&p| crate::stacking::home_capital(v, p).is_some())
            .filter_map(|p| {
                let at = crate::stacking::capital(v, s, p)?;
                Some((
                    v.power(p).name.clone(),
                    v.provinces[at as usize].abbr.to_ascii_lowercase(),
                ))
            })
            .collect(),
        disordered: s.disordered.iter().map(|&p| v.power(p).name.clone()).collect(),
    }
}

/// Reads a phase code such as `S1901M`, `F1905R` or `W1910A`.
pub fn parse_phase_code(code: &str) -> Result<Phase, String> {
    let code = code.trim();
    let bad = || format!("`{code}` is not a phase code like S1901M, F1901R or W1901A");
    if code.len() < 3 || !code.is_ascii() {
        return Err(bad());
    }
    let (first, rest) = code.split_at(1);
    let (year, last) = rest.split_at(rest.len() - 1);
    let year: i32 = year.parse().map_err(|_| bad())?;
    let (season, kind) = match (first.to_ascii_uppercase().as_str(), last.to_ascii_uppercase().as_str()) {
        ("S", "M") => (Season::Spring, PhaseKind::Movement),
        ("S", "R") => (Season::Spring, PhaseKind::Retreat),
        ("F", "M") => (Season::Fall, PhaseKind::Movement),
        ("F", "R") => (Season::Fall, PhaseKind::Retreat),
        ("W", "A") | ("F", "A") => (Season::Fall, PhaseKind::Adjustment),
        _ => return Err(bad()),
    };
    Ok(Phase::new(season, year, kind))
}

fn power_by_name(v: &Variant, name: &str) -> Result<PowerId, String> {
    v.find_power(name).ok_or_else(|| format!("unknown power `{name}`"))
}

/// Reads a unit (`A`/`F` or `Army`/`Fleet`, any case); an unknown power or space is an
/// error naming it.
pub fn unit_from_json(v: &Variant, u: &UnitJson) -> Result<Unit, String> {
    let power = power_by_name(v, &u.power)?;
    let kind = match u.kind.to_ascii_uppercase().as_str() {
        "A" | "ARMY" => UnitKind::Army,
        "F" | "FLEET" => UnitKind::Fleet,
        other => return Err(format!("unit type `{other}` is not A or F")),
    };
    let location = location_from_text(v, &u.location)?;
    Ok(Unit { power, kind, location })
}

/// `stp/sc`, `stp`, `St Petersburg (sc)`.
pub fn location_from_text(v: &Variant, text: &str) -> Result<Location, String> {
    let (_, order) = parse_order_line(v, text).map_err(|e| e.to_string())?;
    Ok(order.unit.location)
}

/// Reads a position, checking every name against the variant; the error names the
/// first unknown one. The inverse of [`state_to_json`].
pub fn state_from_json(v: &Variant, s: &StateJson) -> Result<GameState, String> {
    let phase = parse_phase_code(&s.phase)?;
    let mut state = GameState::empty(v, phase);
    state.owners = vec![None; v.provinces.len()];
    for (prov, owner) in &s.owners {
        let p = v
            .find_province(prov)
            .ok_or_else(|| format!("unknown province `{prov}` in owners"))?;
        state.owners[p as usize] = Some(power_by_name(v, owner)?);
    }
    for u in &s.units {
        state.units.push(unit_from_json(v, u)?);
    }
    for d in &s.dislodged {
        let attacker_from = match &d.attacker_from {
            Some(p) => Some(v.find_province(p).ok_or_else(|| format!("unknown province `{p}`"))?),
            None => None,
        };
        state.dislodged.push(Dislodged {
            unit: unit_from_json(v, &d.unit)?,
            attacker_from,
        });
    }
    for p in &s.standoffs {
        state
            .standoffs
            .push(v.find_province(p).ok_or_else(|| format!("unknown province `{p}`"))?);
    }
    for c in &s.carried {
        let fleet = unit_from_json(v, &c.fleet)?;
        if fleet.kind != UnitKind::Fleet {
            return Err(format!("an army is carried by a fleet, not by `{}`", c.fleet.kind));
        }
        state.carried.push(Carried {
            army: power_by_name(v, &c.power)?,
            fleet,
            carrier_dislodged: c.dislodged,
        });
    }
    for name in &s.disordered {
        let p = power_by_name(v, name)?;
        if v.is_minor(p) {
            return Err(format!(
                "`{name}` is a minor power; only great powers and factions fall into civil disorder"
            ));
        }
        if !state.in_disorder(p) {
            state.disordered.push(p);
        }
    }
    for (power, at) in &s.capitals {
        let power = power_by_name(v, power)?;
        if at.is_empty() {
            continue;
        }
        let p = v
            .find_province(at)
            .ok_or_else(|| format!("unknown province `{at}` in capitals"))?;
        // Only a designation that differs from the default needs keeping.
        if crate::stacking::capital(v, &state, power) != Some(p) {
            state.capitals.push((power, p));
        }
    }
    Ok(state)
}

/// The machine word of an outcome for [`ResultJson::outcome`]; several outcomes share
/// one (both unmatched supports and convoys are `unmatched`), the reason tells them
/// apart.
pub fn outcome_word(o: &Outcome) -> &'static str {
    match o {
        Outcome::Held => "held",
        Outcome::Moved | Outcome::CircularMove => "moved",
        Outcome::SortieSucceeded { .. } => "sortie",
        Outcome::Bounced { .. } => "bounced",
        Outcome::NoConvoy => "no_convoy",
        Outcome::OwnUnit { .. } => "own_unit",
        Outcome::Supported => "supported",
        Outcome::SupportCut { .. } => "cut",
        Outcome::SupportUnmatched | Outcome::ConvoyUnmatched => "unmatched",
        Outcome::Convoyed => "convoyed",
        Outcome::ConvoyParadox => "paradox",
        Outcome::Boarded => "boarded",
        Outcome::BoardUnmatched => "board_unmatched",
        Outcome::Landed => "landed",
        Outcome::LandingStuck => "landing_stuck",
        Outcome::Void(_) => "void",
        Outcome::Retreated => "retreated",
        Outcome::Disbanded { .. } => "disbanded",
        Outcome::Built => "built",
        Outcome::Removed => "removed",
        Outcome::RemovedInDisorder => "removed_in_disorder",
        Outcome::Waived => "waived",
    }
}

/// An order in canonical notation (`A bud - ser`), as [`Order::display`] writes it.
pub fn order_text(v: &Variant, o: &Order) -> String {
    o.display(v).to_string()
}

/// A judged phase in its JSON form, each result with its reason in words.
pub fn adjudication_json(v: &Variant, a: &Adjudication) -> AdjudicationJson {
    AdjudicationJson {
        phase: a.phase.code(),
        results: a
            .results
            .iter()
            .map(|r| ResultJson {
                power: v.power(r.power()).name.clone(),
                unit: r.unit.map(|u| unit_text(v, &u)).unwrap_or_default(),
                order: r.order.as_ref().or(r.given.as_ref()).map(|o| order_text(v, o)),
                outcome: outcome_word(&r.outcome).to_string(),
                succeeded: r.outcome.succeeded(),
                reason: r.reason(v),
                dislodged_by: r
                    .dislodged_by
                    .map(|p| v.provinces[p as usize].abbr.to_ascii_lowercase()),
                retreats: r.retreats.iter().map(|l| v.location_name(*l)).collect(),
            })
            .collect(),
        refused: a
            .refused
            .iter()
            .map(|(o, e)| RefusedJson {
                power: v.power(o.power).name.clone(),
                order: order_text(v, o),
                error: e.to_string(),
            })
            .collect(),
        next: state_to_json(v, &a.next),
        winner: a.winner.map(|p| v.power(p).name.clone()),
    }
}
