//! Chancery's positions and orders in the types of the `diplomacy` crate (0.2), and
//! that crate's adjudication of them.
//!
//! Both Standard maps use the same abbreviations; coasts are named alike too. What
//! that crate's map or rules cannot express (a border it lacks, a support it judges
//! unable to reach) is found by asking the crate itself, so the caller can turn those
//! orders into holds for both engines and count them.

use chancery_engine::{GameState, Location, Order, OrderKind, PowerId, ProvinceId, UnitKind, Variant};
use diplomacy::geo::{Coast, Map, ProvinceKey, RegionKey, Terrain};
use diplomacy::judge::{MappedMainOrder, OrderOutcome, OrderState, Rulebook, Submission, SupportOutcome};
use diplomacy::order::{ConvoyedMove, MainCommand, MoveCommand, SupportedOrder};
use diplomacy::{Nation, Unit, UnitPosition, UnitPositions, UnitType};

/// One movement phase as the `diplomacy` crate takes it.
pub struct DipPhase {
    pub positions: Vec<UnitPosition<'static, RegionKey>>,
    pub orders: Vec<MappedMainOrder>,
}

/// The 2023 rulebook: an army takes a convoy when ordered "via convoy" or when its own
/// power convoys it, as DATC 4.A.3 prefers and Chancery does.
pub fn rules() -> Rulebook {
    Rulebook::edition_2023()
}

fn region(v: &Variant, loc: Location) -> RegionKey {
    let abbr = v.province(loc.province).abbr.to_ascii_lowercase();
    let coast = v.coast_name(loc).map(|c| match c {
        "nc" => Coast::North,
        "sc" => Coast::South,
        "ec" => Coast::East,
        "wc" => Coast::West,
        other => panic!("the Standard map has no coast `{other}`"),
    });
    RegionKey::new(abbr, coast)
}

fn unit_type(k: UnitKind) -> UnitType {
    match k {
        UnitKind::Army => UnitType::Army,
        UnitKind::Fleet => UnitType::Fleet,
    }
}

fn nation(v: &Variant, p: PowerId) -> Nation {
    Nation::from(v.power(p).name.as_str())
}

/// The region of the unit standing in `loc`'s space: the `diplomacy` crate matches a
/// support to a fleet by its exact coast, while Chancery's validated order keeps only
/// the space.
fn unit_region(v: &Variant, state: &GameState, loc: Location) -> (UnitType, RegionKey) {
    let u = state
        .unit_at(loc.province)
        .expect("a validated order's target stands on the board");
    (unit_type(u.kind), region(v, u.location))
}

pub fn translate(v: &Variant, state: &GameState, orders: &[Order]) -> DipPhase {
    let positions = state
        .units
        .iter()
        .map(|u| {
            UnitPosition::new(
                Unit::new(std::borrow::Cow::Owned(nation(v, u.power)), unit_type(u.kind)),
                region(v, u.location),
            )
        })
        .collect();
    let orders = orders
        .iter()
        .map(|o| {
            let kind = o.unit.kind.expect("validated orders name the unit's type");
            let command = match o.kind {
                OrderKind::Move { to, via_convoy } => MainCommand::Move(if via_convoy {
                    MoveCommand::with_mandatory_convoy(region(v, to))
                } else {
                    MoveCommand::new(region(v, to))
                }),
                OrderKind::SupportHold { unit } => {
                    let (ut, at) = unit_region(v, state, unit.location);
                    MainCommand::Support(SupportedOrder::Hold(ut, at))
                }
                OrderKind::SupportMove { unit, to } => {
                    let (ut, at) = unit_region(v, state, unit.location);
                    MainCommand::Support(SupportedOrder::Move(ut, at, region(v, to)))
                }
                OrderKind::Convoy { army, to } => {
                    MainCommand::Convoy(ConvoyedMove::new(region(v, army.location), region(v, to)))
                }
                _ => MainCommand::Hold,
            };
            MappedMainOrder::new(nation(v, o.power), unit_type(kind), region(v, o.unit.location), command)
        })
        .collect();
    DipPhase { positions, orders }
}

/// Adjudicates a phase the way the crate's users do: submit against the position,
/// adjudicate with a rulebook, and work out the retreat phase that follows (the
/// dislodged units and where they may go: what Chancery's result holds beside the
/// outcomes). `orders` is consumed, as the crate requires.
pub fn adjudicate(map: &Map, positions: &impl UnitPositions<RegionKey>, orders: Vec<MappedMainOrder>) -> usize {
    let submission = Submission::new(map, positions, orders);
    let outcome = submission.adjudicate(rules());
    let retreats = outcome.to_retreat_start();
    std::hint::black_box(&retreats);
    outcome.all_orders().count()
}

/// Reads orders in the crate's own notation (its `Display`), as a client of the crate
/// reads submitted text.
pub fn parse(texts: &[String]) -> Vec<MappedMainOrder> {
    texts
        .iter()
        .map(|t| t.parse().expect("the crate reads back the orders it prints"))
        .collect()
}

/// Whether the crate's map has a border from `from` to `to` that a unit of `kind` may
/// cross: its Standard map lacks a few of the printed board's borders (gal-ukr, war-lvn,
/// nwy-stp, the Gulf of Bothnia's coasts, tus-tys, con-smy by sea, spa/sc-mao).
fn has_border(v: &Variant, map: &Map, kind: UnitKind, from: Location, to: Location) -> bool {
    map.find_border_between(&region(v, from), &region(v, to))
        .is_some_and(|b| crosses(kind, b.terrain()))
}

fn crosses(kind: UnitKind, t: Terrain) -> bool {
    match kind {
        UnitKind::Army => t != Terrain::Sea,
        UnitKind::Fleet => t != Terrain::Land,
    }
}

/// Whether the crate's map lets a fleet at sea in `sea` touch some part of `province`.
fn touches(v: &Variant, map: &Map, sea: Location, province: ProvinceId) -> bool {
    let key = ProvinceKey::new(v.province(province).abbr.to_ascii_lowercase());
    map.find_borders_between(&region(v, sea), &key)
        .iter()
        .any(|b| crosses(UnitKind::Fleet, b.terrain()))
}

/// Indices of orders the crate cannot express as Chancery means them: a step over a
/// border its map lacks (an army it would then send by sea, a convoy whose fleet no
/// longer reaches the coast), an order it refuses as illegal, or a support it holds
/// cannot reach the space.
pub fn inexpressible(v: &Variant, state: &GameState, map: &Map, orders: &[Order], phase: &DipPhase) -> Vec<usize> {
    let fleets_at_sea: Vec<ProvinceId> = state
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Fleet && v.province(u.location.province).is_sea())
        .map(|u| u.location.province)
        .collect();
    let mut bad: Vec<usize> = orders
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            let kind = o.unit.kind.expect("validated orders name the unit's type");
            let from = o.unit.location;
            match o.kind {
                OrderKind::Move { to, via_convoy: false } if v.can_move(kind, from, to) => {
                    !has_border(v, map, kind, from, to)
                }
                OrderKind::Convoy { army, to } => v
                    .fleet_neighbours(from)
                    .iter()
                    .map(|l| l.province)
                    .filter(|q| *q == army.location.province || *q == to.province || fleets_at_sea.contains(q))
                    .any(|q| !touches(v, map, from, q)),
                _ => false,
            }
        })
        .map(|(i, _)| i)
        .collect();
    let submission = Submission::new(map, &phase.positions, phase.orders.clone());
    let outcome = submission.adjudicate(rules());
    for (i, o) in phase.orders.iter().enumerate() {
        let refused = matches!(
            outcome.get(o),
            Some(OrderOutcome::Illegal(_)) | Some(OrderOutcome::Support(SupportOutcome::CantReach))
        );
        if refused && !bad.contains(&i) {
            bad.push(i);
        }
    }
    bad.sort_unstable();
    bad
}

/// Whether each move order of the phase succeeded, by the crate's judgement (None for
/// orders that are not moves).
pub fn move_successes(map: &Map, phase: &DipPhase) -> Vec<Option<bool>> {
    let submission = Submission::new(map, &phase.positions, phase.orders.clone());
    let outcome = submission.adjudicate(rules());
    phase
        .orders
        .iter()
        .map(|o| match o.command {
            MainCommand::Move(_) => outcome.get(o).map(|r| OrderState::from(r) == OrderState::Succeeds),
            _ => None,
        })
        .collect()
}
