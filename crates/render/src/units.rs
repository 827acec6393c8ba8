//! Units: where each is drawn (stacks side by side, dislodged units set off to one
//! side, builds as new units) and their shapes — a disc for an army, a hull for a
//! fleet, a dashed ring for a minor power, stripes of its own and its player's colour
//! for a faction.

use std::fmt::Write;

use chancery_engine::variant::PowerKind;
use chancery_engine::{Adjudication, GameState, Outcome, Unit, UnitKind};

use crate::geom::Pt;
use crate::scene::Scene;
use crate::style::{self, escape, UNIT_R};

const STACK_STEP: f64 = 17.0;
const DISLODGED_OFFSET: Pt = Pt::new(16.0, 13.0);
const CARRIED_OFFSET: Pt = Pt::new(10.0, -10.0);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    OnBoard,
    /// Waiting to retreat (a retreat-phase position).
    Dislodged,
    /// Built by the adjudication being drawn.
    Built,
    /// An army aboard a fleet, drawn small on the fleet's shoulder.
    Carried,
}

#[derive(Clone, Debug)]
pub(crate) struct Placed {
    pub unit: Unit,
    pub at: Pt,
    pub role: Role,
    /// Dislodged by the adjudication being drawn.
    pub dislodged_now: bool,
    /// How many units share its space, drawn once on the first of them.
    pub stack: usize,
    pub first_of_stack: bool,
}

pub(crate) struct Placement {
    pub units: Vec<Placed>,
}

impl Placement {
    /// The drawn unit an order or result is about: the same unit if there is one,
    /// otherwise any unit in that space.
    pub fn find(&self, unit: &Unit, dislodged: bool) -> Option<&Placed> {
        let wanted = |p: &&Placed| (p.role == Role::Dislodged) == dislodged;
        self.units.iter().filter(wanted).find(|p| p.unit == *unit).or_else(|| {
            self.units
                .iter()
                .filter(wanted)
                .find(|p| p.unit.location.province == unit.location.province)
        })
    }

    pub fn in_space(&self, province: u16) -> Option<&Placed> {
        self.units
            .iter()
            .find(|p| p.role != Role::Dislodged && p.role != Role::Carried && p.unit.location.province == province)
    }
}

pub(crate) fn place(s: &Scene, state: &GameState, adjudication: Option<&Adjudication>) -> Placement {
    let mut units = Vec::with_capacity(state.units.len() + state.dislodged.len());
    let built: Vec<Unit> = adjudication
        .map(|a| {
            a.results
                .iter()
                .filter(|r| r.outcome == Outcome::Built)
                .filter_map(|r| r.unit)
                .collect()
        })
        .unwrap_or_default();
    let on_board: Vec<(Unit, Role)> = state
        .units
        .iter()
        .map(|u| (*u, Role::OnBoard))
        .chain(built.iter().map(|u| (*u, Role::Built)))
        .collect();
    let mut seen = vec![0usize; s.v.provinces.len()];
    let mut count = vec![0usize; s.v.provinces.len()];
    for (u, _) in &on_board {
        count[u.location.province as usize] += 1;
    }
    for (u, role) in on_board {
        let p = u.location.province as usize;
        let n = count[p];
        let k = seen[p];
        seen[p] += 1;
        // Several units in one space (stacks) stand in a row across its centre.
        let step = if n > 4 { 68.0 / (n - 1) as f64 } else { STACK_STEP };
        let dx = (k as f64 - (n as f64 - 1.0) / 2.0) * step;
        units.push(Placed {
            unit: u,
            at: s.g.location_point(u.location) + Pt::new(dx, 0.0),
            role,
            dislodged_now: false,
            stack: n,
            first_of_stack: k == 0,
        });
    }
    let mut seen = vec![0usize; s.v.provinces.len()];
    for d in &state.dislodged {
        let p = d.unit.location.province as usize;
        let k = seen[p] as f64;
        seen[p] += 1;
        units.push(Placed {
            unit: d.unit,
            at: s.g.location_point(d.unit.location) + DISLODGED_OFFSET + Pt::new(k * 10.0, k * 4.0),
            role: Role::Dislodged,
            dislodged_now: false,
            stack: 1,
            first_of_stack: true,
        });
    }
    for c in &state.carried {
        let fleet = units
            .iter()
            .find(|p| p.unit == c.fleet && (p.role == Role::Dislodged) == c.carrier_dislodged)
            .map(|p| p.at)
            .unwrap_or_else(|| s.g.location_point(c.fleet.location));
        units.push(Placed {
            unit: c.army_unit(),
            at: fleet + CARRIED_OFFSET,
            role: Role::Carried,
            dislodged_now: false,
            stack: 1,
            first_of_stack: true,
        });
    }
    if let Some(adj) = adjudication {
        for r in adj.results.iter().filter(|r| r.dislodged_by.is_some()) {
            if let Some(p) = units
                .iter_mut()
                .find(|p| p.role == Role::OnBoard && Some(p.unit) == r.unit)
            {
                p.dislodged_now = true;
            }
        }
    }
    Placement { units }
}

pub(crate) fn draw(out: &mut String, s: &Scene, placed: &Placement) {
    out.push_str("<g class=\"units\">");
    for p in &placed.units {
        let mut class = String::from(match p.unit.kind {
            UnitKind::Army => "unit army",
            UnitKind::Fleet => "unit fleet",
        });
        match p.role {
            Role::OnBoard => {}
            Role::Dislodged => class.push_str(" dislodged"),
            Role::Built => class.push_str(" built"),
            Role::Carried => class.push_str(" carried"),
        }
        if p.dislodged_now {
            class.push_str(" dislodged-now");
        }
        let _ = write!(
            out,
            r#"<g class="{class}" data-power="{}" data-unit="{} {}">"#,
            escape(&s.v.power(p.unit.power).name),
            p.unit.kind.letter(),
            escape(&s.v.location_name(p.unit.location))
        );
        let scale = match p.role {
            Role::Dislodged => 0.85,
            Role::Carried => 0.62,
            _ => 1.0,
        };
        if p.role == Role::Dislodged || p.dislodged_now {
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="3 2"/>"#,
                p.at.x,
                p.at.y,
                UNIT_R * scale + 4.0,
                style::FAIL
            );
        }
        if p.role == Role::Built {
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="2.2"/>"#,
                p.at.x,
                p.at.y,
                UNIT_R + 4.0,
                style::BUILD
            );
        }
        shape(out, s, p.unit.power as usize, p.unit.kind, p.at, scale);
        if p.stack > 1 && p.first_of_stack {
            // The count sits above the row, so that a stack reads as one group.
            let c = p.at + Pt::new(-UNIT_R, -UNIT_R);
            let _ = write!(
                out,
                r#"<circle class="stack-count" cx="{:.1}" cy="{:.1}" r="7.5" fill="{}"/><text class="count" x="{:.1}" y="{:.1}">{}</text>"#,
                c.x,
                c.y,
                style::INK,
                c.x,
                c.y + 3.8,
                p.stack
            );
        }
        if p.role == Role::Built {
            let c = p.at + Pt::new(UNIT_R + 1.0, -UNIT_R - 1.0);
            let _ = write!(
                out,
                r##"<circle cx="{:.1}" cy="{:.1}" r="6" fill="{b}"/><path d="M{:.1} {:.1}h7M{:.1} {:.1}v7" stroke="#fff" stroke-width="2"/>"##,
                c.x,
                c.y,
                c.x - 3.5,
                c.y,
                c.x,
                c.y - 3.5,
                b = style::BUILD
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

/// A build ordered and not yet adjudicated: the new unit, faded, ringed in the build
/// colour.
pub(crate) fn draw_pending_build(out: &mut String, s: &Scene, unit: &Unit) {
    let at = s.g.location_point(unit.location);
    let _ = write!(
        out,
        r#"<g class="built pending" data-power="{}" data-unit="{} {}" opacity="0.75"><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="2.2" stroke-dasharray="4 2"/>"#,
        escape(&s.v.power(unit.power).name),
        unit.kind.letter(),
        escape(&s.v.location_name(unit.location)),
        at.x,
        at.y,
        UNIT_R + 4.0,
        style::BUILD
    );
    shape(out, s, unit.power as usize, unit.kind, at, 1.0);
    out.push_str("</g>");
}

/// One unit marker centred on `at`.
pub(crate) fn shape(out: &mut String, s: &Scene, power: usize, kind: UnitKind, at: Pt, scale: f64) {
    shape_with(out, s.v, s.styles, power, kind, at, scale);
}

/// One unit marker centred on `at`, from the variant and its colours (the legend's
/// pictures use it too).
pub(crate) fn shape_with(
    out: &mut String,
    v: &chancery_engine::Variant,
    styles: &[crate::style::PowerStyle],
    power: usize,
    kind: UnitKind,
    at: Pt,
    scale: f64,
) {
    let st = &styles[power];
    let player = v.powers[power].player.map(|p| p as usize);
    let (fill, stroke) = match (st.kind, player) {
        (PowerKind::Faction, Some(pl)) => (format!("url(#faction-{power})"), styles[pl].fill.as_str()),
        _ => (st.fill.clone(), "#ffffff"),
    };
    let r = UNIT_R * scale;
    if st.kind == PowerKind::Minor {
        let _ = write!(
            out,
            r##"<circle class="minor-ring" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="#fff" stroke="{}" stroke-width="1.6" stroke-dasharray="2.5 1.5"/>"##,
            at.x,
            at.y,
            r + 3.2,
            style::INK
        );
    }
    match kind {
        UnitKind::Army => {
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.6"/>"#,
                at.x, at.y
            );
        }
        UnitKind::Fleet => {
            // A hull: flat deck, narrower keel.
            let (w, h) = (r * 1.25, r * 0.8);
            let _ = write!(
                out,
                r#"<path d="M{:.1} {:.1}h{:.1}l{:.1} {:.1}h{:.1}Z" fill="{fill}" stroke="{stroke}" stroke-width="1.6" stroke-linejoin="round"/>"#,
                at.x - w,
                at.y - h,
                2.0 * w,
                -0.4 * w,
                2.0 * h,
                -1.2 * w
            );
        }
    }
    let text = if matches!(st.kind, PowerKind::Faction) {
        "#ffffff"
    } else {
        st.text
    };
    let _ = write!(
        out,
        r#"<text class="unit-letter" x="{:.1}" y="{:.1}" fill="{text}"{}>{}</text>"#,
        at.x,
        at.y + 4.2 * scale,
        if matches!(st.kind, PowerKind::Faction) {
            r##" stroke="#000" stroke-width="2" paint-order="stroke""##
        } else {
            ""
        },
        kind.letter()
    );
}
