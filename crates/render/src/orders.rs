//! Orders as arrows, in their power's colour: a move is a solid bowed arrow, a
//! support a dashed line to the middle of the move it supports (or a ring round the
//! unit it holds up), a convoy a dotted line from the army through the fleet to the
//! landing, a retreat a thinner arrow from the dislodged unit, a boarding (original
//! 1958 rules 6 and 7) a dash-dotted arrow to where the fleet takes the army aboard,
//! or a ring when it boards where it stands. An order that failed is dashed and
//! crossed in red; disbanded and removed units are crossed out, and a waived build is
//! a dashed ring with a minus on a home centre it could have used.

use std::fmt::Write;

use chancery_engine::outcome::OrderResult;
use chancery_engine::{Adjudication, Location, Order, OrderKind, Outcome, PowerId, Unit};

use crate::geom::Pt;
use crate::scene::Scene;
use crate::style::UNIT_R;
use crate::style::{self, escape};
use crate::units::Placement;

/// How far a move arrow bows out, as a share of its length. Two units swapping places
/// bow to opposite sides, so their arrows do not lie on top of each other.
const BEND: f64 = 0.14;

struct Stroke<'a> {
    colour: &'a str,
    width: f64,
    dash: Option<&'a str>,
}

/// A quadratic Bézier from `a` to `b`.
#[derive(Clone, Copy)]
struct Curve {
    a: Pt,
    c: Pt,
    b: Pt,
}

impl Curve {
    /// From `from` to `to`, starting `gap_a` after `from` and ending `gap_b` before `to`.
    fn between(from: Pt, to: Pt, gap_a: f64, gap_b: f64, bend: f64) -> Curve {
        let dir = (to - from).unit();
        let len = from.dist(to);
        let (gap_a, gap_b) = if gap_a + gap_b > len * 0.8 {
            let k = len * 0.8 / (gap_a + gap_b).max(1e-9);
            (gap_a * k, gap_b * k)
        } else {
            (gap_a, gap_b)
        };
        let a = from + dir * gap_a;
        let b = to - dir * gap_b;
        let c = a.lerp(b, 0.5) + dir.perp() * (len * bend);
        Curve { a, c, b }
    }

    fn at(&self, t: f64) -> Pt {
        let u = 1.0 - t;
        self.a * (u * u) + self.c * (2.0 * u * t) + self.b * (t * t)
    }

    fn end_direction(&self) -> Pt {
        let d = (self.b - self.c).unit();
        if d.len() == 0.0 {
            (self.b - self.a).unit()
        } else {
            d
        }
    }
}

/// One order to draw: the unit it is for, the order, and whether it failed.
pub(crate) struct Drawn<'a> {
    pub unit: Unit,
    pub order: &'a Order,
    pub failed: bool,
}

pub(crate) fn draw(out: &mut String, s: &Scene, placed: &Placement, adj: &Adjudication) {
    let drawn: Vec<Drawn> = adj
        .results
        .iter()
        // Only an adjustment that builds nothing (a waive) has no unit, and it draws
        // nothing.
        .filter_map(|r| {
            Some(Drawn {
                unit: r.unit?,
                order: shown_order(r)?,
                failed: !r.outcome.succeeded(),
            })
        })
        .collect();
    draw_list(out, s, placed, &drawn, "orders");
}

/// Orders given and not yet adjudicated, as their arrows, in a group of class `class`.
pub(crate) fn draw_list(out: &mut String, s: &Scene, placed: &Placement, drawn: &[Drawn], class: &str) {
    let _ = write!(out, "<g class=\"{class}\">");
    // Supports and convoys first, so that the moves they point at lie on top.
    for d in drawn {
        if matches!(
            d.order.kind,
            OrderKind::SupportHold { .. } | OrderKind::SupportMove { .. } | OrderKind::Convoy { .. }
        ) {
            draw_order(out, s, placed, drawn, d);
        }
    }
    for d in drawn {
        if matches!(
            d.order.kind,
            OrderKind::Move { .. } | OrderKind::Retreat { .. } | OrderKind::Board { .. }
        ) {
            draw_order(out, s, placed, drawn, d);
        }
    }
    out.push_str("</g>");
}

/// The order as adjudicated, or the order as given when it was refused.
fn shown_order(r: &OrderResult) -> Option<&Order> {
    r.order.as_ref().or(r.given.as_ref())
}

fn draw_order(out: &mut String, s: &Scene, placed: &Placement, all: &[Drawn], d: &Drawn) {
    let (order, failed) = (d.order, d.failed);
    let colour = s.styles[d.unit.power as usize].fill.as_str();
    let retreating = matches!(order.kind, OrderKind::Retreat { .. });
    let me = placed
        .find(&d.unit, retreating)
        .map(|p| p.at)
        .unwrap_or_else(|| s.g.location_point(d.unit.location));
    let kind = match order.kind {
        OrderKind::Move { .. } => "move",
        OrderKind::Retreat { .. } => "retreat",
        OrderKind::SupportHold { .. } | OrderKind::SupportMove { .. } => "support",
        OrderKind::Convoy { .. } => "convoy",
        OrderKind::Board { .. } => "board",
        _ => return,
    };
    let _ = write!(
        out,
        r#"<g class="order {kind} {}" data-power="{}" data-unit="{} {}" data-order="{}">"#,
        if failed { "failed" } else { "succeeded" },
        escape(&s.v.power(order.power).name),
        d.unit.kind.letter(),
        escape(&s.v.location_name(d.unit.location)),
        escape(&order.display(s.v).to_string())
    );
    let dash = |d: &'static str| if failed { Some("7 4") } else { Some(d) };
    match order.kind {
        OrderKind::Move { to, .. } => {
            let curve = move_curve(s, placed, me, to);
            let stroke = Stroke {
                colour,
                width: 3.4,
                dash: if failed { Some("7 4") } else { None },
            };
            arrow(out, &curve, &stroke, 15.0, failed);
        }
        OrderKind::Retreat { to } => {
            let curve = move_curve(s, placed, me, to);
            let stroke = Stroke {
                colour,
                width: 2.6,
                dash: if failed { Some("7 4") } else { None },
            };
            arrow(out, &curve, &stroke, 12.0, failed);
        }
        OrderKind::Board { to: Some(to), .. } => {
            let curve = move_curve(s, placed, me, to);
            let stroke = Stroke {
                colour,
                width: 2.6,
                dash: Some(if failed { "7 4" } else { "8 3 2 3" }),
            };
            arrow(out, &curve, &stroke, 12.0, failed);
        }
        OrderKind::Board { to: None, .. } => {
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="2.4" stroke-dasharray="8 3 2 3"/>"#,
                me.x,
                me.y,
                UNIT_R + 5.0
            );
            if failed {
                cross(out, me + Pt::new(UNIT_R + 5.0, 0.0), 5.0, "fail-cross");
            }
        }
        OrderKind::SupportMove { unit, to } => {
            let target = supported_move_middle(s, placed, all, unit.location, to);
            let curve = Curve::between(me, target, UNIT_R + 2.0, 3.0, 0.0);
            let stroke = Stroke {
                colour,
                width: 2.0,
                dash: dash("5 3"),
            };
            arrow(out, &curve, &stroke, 10.0, failed);
        }
        OrderKind::SupportHold { unit } => {
            let held = placed
                .in_space(unit.location.province)
                .map(|p| p.at)
                .unwrap_or_else(|| s.g.location_point(unit.location));
            let curve = Curve::between(me, held, UNIT_R + 2.0, UNIT_R + 5.0, 0.0);
            let stroke = Stroke {
                colour,
                width: 2.0,
                dash: dash("5 3"),
            };
            arrow(out, &curve, &stroke, 0.0, failed);
            let _ = write!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="5 3"/>"#,
                held.x,
                held.y,
                UNIT_R + 5.0
            );
        }
        OrderKind::Convoy { army, to } => {
            let from = placed
                .in_space(army.location.province)
                .map(|p| p.at)
                .unwrap_or_else(|| s.g.location_point(army.location));
            let stroke = Stroke {
                colour,
                width: 2.4,
                dash: Some(if failed { "7 4" } else { "1 4" }),
            };
            let first = Curve::between(from, me, UNIT_R + 2.0, UNIT_R + 2.0, 0.0);
            arrow(out, &first, &stroke, 0.0, false);
            let second = Curve::between(me, s.g.location_point(to), UNIT_R + 2.0, 6.0, 0.0);
            arrow(out, &second, &stroke, 11.0, failed);
        }
        _ => {}
    }
    out.push_str("</g>");
}

/// A move from a drawn position to a location: it stops short of a unit standing
/// there, and otherwise near the space's centre.
fn move_curve(s: &Scene, placed: &Placement, from: Pt, to: Location) -> Curve {
    let target = s.g.location_point(to);
    let gap_b = if placed.in_space(to.province).is_some() {
        UNIT_R + 3.0
    } else {
        4.0
    };
    Curve::between(from, target, UNIT_R + 2.0, gap_b, BEND)
}

/// Where a support for a move points: the middle of that move's arrow when the unit
/// made it, else the middle of the straight line it would have taken.
fn supported_move_middle(s: &Scene, placed: &Placement, all: &[Drawn], from: Location, to: Location) -> Pt {
    let start = placed
        .in_space(from.province)
        .map(|p| p.at)
        .unwrap_or_else(|| s.g.location_point(from));
    let made = all.iter().find_map(|d| match d.order.kind {
        OrderKind::Move { to: dest, .. }
            if d.unit.location.province == from.province && dest.province == to.province =>
        {
            Some(dest)
        }
        _ => None,
    });
    match made {
        Some(dest) => move_curve(s, placed, start, dest).at(0.5),
        None => start.lerp(s.g.location_point(to), 0.5),
    }
}

fn arrow(out: &mut String, c: &Curve, st: &Stroke, head: f64, failed: bool) {
    let dash = st
        .dash
        .map(|d| format!(r#" stroke-dasharray="{d}""#))
        .unwrap_or_default();
    // The line stops inside the arrowhead, so its round end does not poke past the tip.
    let end = if head > 0.0 {
        c.b - c.end_direction() * (head * 0.6)
    } else {
        c.b
    };
    let d = format!(
        "M{:.1} {:.1}Q{:.1} {:.1} {:.1} {:.1}",
        c.a.x, c.a.y, c.c.x, c.c.y, end.x, end.y
    );
    // A pale halo keeps the line readable across borders and labels.
    let _ = write!(
        out,
        r##"<path d="{d}" fill="none" stroke="#ffffff" stroke-opacity="0.7" stroke-width="{:.1}" stroke-linecap="round"/><path d="{d}" fill="none" stroke="{}" stroke-width="{:.1}" stroke-linecap="round"{dash}/>"##,
        st.width + 2.6,
        st.colour,
        st.width
    );
    if head > 0.0 {
        let dir = c.end_direction();
        let base = c.b - dir * head;
        let side = dir.perp() * (head * 0.55);
        let (l, r) = (base + side, base - side);
        let _ = write!(
            out,
            r##"<path d="M{:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z" fill="{}" stroke="#ffffff" stroke-width="1" stroke-linejoin="round"/>"##,
            c.b.x, c.b.y, l.x, l.y, r.x, r.y, st.colour
        );
    }
    if failed {
        cross(out, c.at(0.62), 5.0, "fail-cross");
    }
}

fn cross(out: &mut String, at: Pt, size: f64, class: &str) {
    let _ = write!(
        out,
        r##"<path class="{class}" d="M{:.1} {:.1}l{:.1} {:.1}M{:.1} {:.1}l{:.1} {:.1}" stroke="#ffffff" stroke-width="5" stroke-linecap="round"/><path class="{class}" d="M{:.1} {:.1}l{:.1} {:.1}M{:.1} {:.1}l{:.1} {:.1}" stroke="{}" stroke-width="2.6" stroke-linecap="round"/>"##,
        at.x - size,
        at.y - size,
        2.0 * size,
        2.0 * size,
        at.x - size,
        at.y + size,
        2.0 * size,
        -2.0 * size,
        at.x - size,
        at.y - size,
        2.0 * size,
        2.0 * size,
        at.x - size,
        at.y + size,
        2.0 * size,
        -2.0 * size,
        style::FAIL
    );
}

/// Crosses over units that the phase disbanded or removed, drawn above the units, and
/// the waived builds.
pub(crate) fn draw_marks(out: &mut String, s: &Scene, placed: &Placement, adj: &Adjudication) {
    out.push_str("<g class=\"marks\">");
    waived(out, s, adj);
    for r in &adj.results {
        let gone = matches!(
            r.outcome,
            Outcome::Disbanded { .. } | Outcome::Removed | Outcome::RemovedInDisorder
        );
        let (true, Some(unit)) = (gone, r.unit) else {
            continue;
        };
        let retreat_phase = matches!(r.outcome, Outcome::Disbanded { .. });
        draw_removal(out, s, placed, &unit, retreat_phase);
    }
    out.push_str("</g>");
}

/// Each waived build as a mark on a site the power left free: the order names no space,
/// so the marks go on the first of the sites still free after the builds (those the power
/// could have built on), one per waive.
fn waived(out: &mut String, s: &Scene, adj: &Adjudication) {
    let mut counts = vec![0usize; s.v.powers.len()];
    for r in &adj.results {
        if r.outcome == Outcome::Waived {
            if let Some(o) = shown_order(r) {
                counts[o.power as usize] += 1;
            }
        }
    }
    for (power, &n) in counts.iter().enumerate().filter(|(_, &n)| n > 0) {
        let sites = chancery_engine::adjust::build_sites(s.v, &adj.next, power as PowerId);
        for &p in sites.iter().take(n) {
            let at = s.g.location_point(Location::province(p));
            let _ = write!(
                out,
                r#"<g class="waived" data-power="{}" data-space="{}">"#,
                escape(&s.v.power(power as PowerId).name),
                escape(&s.v.province(p).name)
            );
            waive_mark(out, at, UNIT_R + 4.0);
            out.push_str("</g>");
        }
    }
}

/// A dashed ring where a unit could have been built, with a minus badge (the build mark's
/// plus, taken away).
pub(crate) fn waive_mark(out: &mut String, at: Pt, ring: f64) {
    let c = at + Pt::new(ring - 3.0, 3.0 - ring);
    let _ = write!(
        out,
        r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="{b}" stroke-width="2.2" stroke-dasharray="4 3"/><circle cx="{:.1}" cy="{:.1}" r="6" fill="{b}"/><path d="M{:.1} {:.1}h7" stroke="#fff" stroke-width="2"/>"##,
        at.x,
        at.y,
        ring,
        c.x,
        c.y,
        c.x - 3.5,
        c.y,
        b = style::BUILD
    );
}

/// A cross over a unit whose removal (or disband) is ordered.
pub(crate) fn draw_removal(out: &mut String, s: &Scene, placed: &Placement, unit: &Unit, dislodged: bool) {
    let at = unit_point(s, placed, unit, dislodged);
    let _ = write!(
        out,
        r#"<g class="removed" data-unit="{} {}">"#,
        unit.kind.letter(),
        escape(&s.v.location_name(unit.location))
    );
    cross(out, at, UNIT_R * 0.9, "remove-cross");
    out.push_str("</g>");
}

fn unit_point(s: &Scene, placed: &Placement, unit: &Unit, dislodged: bool) -> Pt {
    placed
        .find(unit, dislodged)
        .or_else(|| placed.find(unit, !dislodged))
        .map(|p| p.at)
        .unwrap_or_else(|| s.g.location_point(unit.location))
}
