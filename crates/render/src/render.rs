//! The entry points: check the position against the variant, then draw the layers
//! from the bottom up (base map, orders, units, marks, and the legend panel if asked).

use std::fmt::Write;

use chancery_engine::{Adjudication, GameState, Location, Order, OrderKind, Unit, Variant};

use crate::error::RenderError;
use crate::geometry::MapGeometry;
use crate::scene::{RenderOptions, Scene};
use crate::style::{self, escape, PowerStyle};
use crate::{base_map, legend, orders, units};

/// Draws `state` on a prepared board. With an adjudication of the phase `state` is in,
/// its orders are drawn as arrows on that position with their results: failed orders
/// dashed and crossed in red, dislodged units ringed, builds and removals marked.
pub fn render_with(
    g: &MapGeometry,
    v: &Variant,
    state: &GameState,
    adjudication: Option<&Adjudication>,
    options: &RenderOptions,
) -> Result<String, RenderError> {
    if !g.fits(v) {
        return Err(RenderError::WrongVariant {
            geometry: g.variant_id.clone(),
            variant: v.id.clone(),
        });
    }
    check_position(v, state, adjudication)?;
    let styles = style::styles_of(v, state);
    let panel = options.legend.then(|| legend::build(v, state, &styles));
    let top = if options.title { TITLE_HEIGHT } else { 0.0 };
    let width = g.width + if panel.is_some() { legend::WIDTH } else { 0.0 };
    let height = top + g.height.max(panel.as_ref().map_or(0.0, legend::panel_height));

    let mut out = String::with_capacity(96 * 1024);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0} {height:.0}" width="{width:.0}" height="{height:.0}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" class="chancery-map" data-variant="{}" data-phase="{}">"#,
        escape(&v.id),
        state.phase.code()
    );
    header(&mut out, v, &styles);
    let _ = write!(out, r#"<rect width="100%" height="100%" fill="{}"/>"#, style::PAPER);
    if options.title {
        let _ = write!(
            out,
            r#"<text class="title" x="14" y="24" font-size="17" font-weight="bold" fill="{}">{} · {}</text>"#,
            style::INK,
            escape(&v.title),
            state.phase
        );
    }
    let _ = write!(out, r#"<g transform="translate(0 {top:.0})">"#);
    let scene = Scene { v, g, styles: &styles };
    base_map::draw(&mut out, &scene, state, options, adjudication.is_some());
    let placed = units::place(&scene, state, adjudication);
    if let Some(adj) = adjudication {
        orders::draw(&mut out, &scene, &placed, adj);
    }
    units::draw(&mut out, &scene, &placed);
    if let Some(adj) = adjudication {
        orders::draw_marks(&mut out, &scene, &placed, adj);
    }
    out.push_str("</g>");
    if let Some(l) = panel {
        let _ = write!(
            out,
            r#"<g class="legend" transform="translate({:.0} {top:.0})">"#,
            g.width
        );
        legend::draw_panel(&mut out, &l);
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    Ok(out)
}

/// The orders one power has given and not yet had adjudicated, drawn on `state` as an
/// SVG group (`<g class="orders pending">`) in the coordinates of [`render_with`]'s
/// board, for a page to lay over the map it already shows: moves, supports, convoys,
/// boardings and retreats as the arrows of a result (none failed), a build as its new
/// unit ringed, a removal or a disband as a cross over the unit, a waive as the mark
/// of a build left out on a free site. An order for a unit
/// that is not on the board is left out. The page asks the server for this group
/// rather than drawing arrows itself, so that a live order looks exactly as it will in
/// the results.
pub fn render_orders(g: &MapGeometry, v: &Variant, state: &GameState, given: &[Order]) -> Result<String, RenderError> {
    if !g.fits(v) {
        return Err(RenderError::WrongVariant {
            geometry: g.variant_id.clone(),
            variant: v.id.clone(),
        });
    }
    check_position(v, state, None)?;
    for o in given {
        check_order(v, o)?;
    }
    let styles = style::styles_of(v, state);
    let scene = Scene { v, g, styles: &styles };
    let placed = units::place(&scene, state, None);
    let mut drawn = Vec::with_capacity(given.len());
    let mut marks = String::new();
    let mut waives = Vec::new();
    for o in given {
        let retreating = matches!(o.kind, OrderKind::Retreat { .. } | OrderKind::Disband);
        match o.kind {
            OrderKind::Build { kind } => {
                let unit = Unit {
                    power: o.power,
                    kind: kind.or(o.unit.kind).unwrap_or(chancery_engine::UnitKind::Army),
                    location: o.unit.location,
                };
                units::draw_pending_build(&mut marks, &scene, &unit);
            }
            OrderKind::Waive => waives.push(o.power),
            _ => {
                let Some(unit) = unit_of(state, o, retreating) else {
                    continue;
                };
                if matches!(o.kind, OrderKind::Remove | OrderKind::Disband) {
                    orders::draw_removal(&mut marks, &scene, &placed, &unit, retreating);
                } else {
                    drawn.push(orders::Drawn {
                        unit,
                        order: o,
                        failed: false,
                    });
                }
            }
        }
    }
    // A waive names no space: its mark goes on a free build site no build ordered
    // takes, as in the results.
    for (i, &power) in waives.iter().enumerate() {
        let earlier = waives[..i].iter().filter(|&&p| p == power).count();
        let free = chancery_engine::adjust::build_sites(v, state, power)
            .into_iter()
            .filter(|&p| {
                !given
                    .iter()
                    .any(|o| matches!(o.kind, OrderKind::Build { .. }) && o.unit.location.province == p)
            })
            .nth(earlier);
        if let Some(p) = free {
            let _ = write!(
                marks,
                r#"<g class="waived pending" data-power="{}" data-space="{}">"#,
                style::escape(&v.power(power).name),
                style::escape(&v.province(p).name)
            );
            orders::waive_mark(&mut marks, g.location_point(Location::province(p)), style::UNIT_R + 4.0);
            marks.push_str("</g>");
        }
    }
    let mut out = String::with_capacity(1024 + 512 * given.len());
    out.push_str(r#"<g class="orders pending">"#);
    orders::draw_list(&mut out, &scene, &placed, &drawn, "arrows");
    out.push_str(&marks);
    out.push_str("</g>");
    Ok(out)
}

/// The unit an order is for: on the board, or waiting to retreat; the one of the
/// order's kind when a space holds several (Original 1958 stacks).
fn unit_of(state: &GameState, o: &Order, dislodged: bool) -> Option<Unit> {
    let here = |u: &&Unit| u.location.province == o.unit.location.province;
    let fits = |u: &&Unit| o.unit.kind.is_none_or(|k| k == u.kind);
    let pick = |units: Vec<&Unit>| -> Option<Unit> {
        units
            .iter()
            .find(|u| u.power == o.power && fits(u))
            .or_else(|| units.iter().find(|u| fits(u)))
            .or_else(|| units.first())
            .map(|u| **u)
    };
    if dislodged {
        pick(state.dislodged.iter().map(|d| &d.unit).filter(here).collect())
    } else {
        pick(state.units.iter().filter(here).collect())
    }
}

const TITLE_HEIGHT: f64 = 36.0;

/// The shared definitions: stripes for each faction (its colour and its player's),
/// hatching for impassable spaces, and the classes the layers use.
fn header(out: &mut String, v: &Variant, styles: &[PowerStyle]) {
    out.push_str("<defs>");
    let _ = write!(
        out,
        r##"<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="{}"/><line x1="0" y1="0" x2="0" y2="6" stroke="#8f8a80" stroke-width="2"/></pattern>"##,
        style::IMPASSABLE
    );
    for (i, p) in v.powers.iter().enumerate() {
        if let (chancery_engine::variant::PowerKind::Faction, Some(player)) = (p.kind, p.player) {
            let _ = write!(
                out,
                r#"<pattern id="faction-{i}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="{}"/><rect width="2.5" height="6" fill="{}"/></pattern>"#,
                styles[i].fill, styles[player as usize].fill
            );
        }
    }
    out.push_str("</defs>");
    let _ = write!(
        out,
        "<style>.label{{text-anchor:middle;fill:{ink};stroke:#fffaf0;stroke-opacity:0.8;stroke-width:2.6px;paint-order:stroke;stroke-linejoin:round}}.label.sea{{font-style:italic;fill:{sea}}}.coast-label{{text-anchor:middle;fill:{sea};stroke:#fffaf0;stroke-opacity:0.8;stroke-width:2.4px;paint-order:stroke}}.unit-letter{{font-size:12px;font-weight:bold;text-anchor:middle}}.count{{font-size:10px;font-weight:bold;text-anchor:middle;fill:#fff}}.legend-text{{font-size:13px;fill:{ink}}}</style>",
        ink = style::INK,
        sea = style::SEA_INK
    );
}

fn check_position(v: &Variant, state: &GameState, adjudication: Option<&Adjudication>) -> Result<(), RenderError> {
    let bad = |why: String| Err(RenderError::BadPosition(why));
    if state.owners.len() != v.provinces.len() {
        return bad(format!(
            "{} centre owners for {} spaces",
            state.owners.len(),
            v.provinces.len()
        ));
    }
    if let Some(p) = state.owners.iter().flatten().find(|p| **p as usize >= v.powers.len()) {
        return bad(format!("centre owner {p} is not a power of the variant"));
    }
    let units = state.units.iter().chain(state.dislodged.iter().map(|d| &d.unit));
    for u in units {
        check_unit(v, u)?;
    }
    if let Some(p) = state.standoffs.iter().find(|p| **p as usize >= v.provinces.len()) {
        return bad(format!("standoff space {p} does not exist"));
    }
    if let Some(adj) = adjudication {
        for r in &adj.results {
            if let Some(u) = &r.unit {
                check_unit(v, u)?;
            }
            for o in r.order.iter().chain(r.given.iter()) {
                check_order(v, o)?;
            }
            for l in &r.retreats {
                check_location(v, *l)?;
            }
        }
    }
    Ok(())
}

fn check_unit(v: &Variant, u: &Unit) -> Result<(), RenderError> {
    if u.power as usize >= v.powers.len() {
        return Err(RenderError::BadPosition(format!(
            "unit owner {} is not a power",
            u.power
        )));
    }
    check_location(v, u.location)
}

fn check_location(v: &Variant, l: Location) -> Result<(), RenderError> {
    match v.provinces.get(l.province as usize) {
        None => Err(RenderError::BadPosition(format!("space {} does not exist", l.province))),
        Some(p) if l.coast as usize > p.coasts.len() => Err(RenderError::BadPosition(format!(
            "{} has no coast number {}",
            p.abbr, l.coast
        ))),
        Some(_) => Ok(()),
    }
}

fn check_order(v: &Variant, o: &Order) -> Result<(), RenderError> {
    if o.power as usize >= v.powers.len() {
        return Err(RenderError::BadPosition(format!("order by {}, not a power", o.power)));
    }
    check_location(v, o.unit.location)?;
    match o.kind {
        OrderKind::Move { to, .. } | OrderKind::Retreat { to } => check_location(v, to),
        OrderKind::SupportHold { unit } => check_location(v, unit.location),
        OrderKind::SupportMove { unit, to } => {
            check_location(v, unit.location)?;
            check_location(v, to)
        }
        OrderKind::Convoy { army, to } => {
            check_location(v, army.location)?;
            check_location(v, to)
        }
        _ => Ok(()),
    }
}
