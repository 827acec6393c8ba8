//! The legend as data: each power with its colour, centre count and unit count (great
//! powers, then factions, then minor powers that still have something), the neutral
//! centres left, and a key to the symbols, each with a small picture drawn by the same
//! code as the map. A page shows it as HTML beside the map, so that the map has the
//! whole width; a standalone picture (`chancery render`) may draw it as a panel.

use std::fmt::Write;

use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, PowerId, UnitKind, Variant};

use crate::geom::Pt;
use crate::style::{self, escape, PowerStyle, CENTRE_R, UNIT_R};
use crate::units::shape_with;

#[derive(Clone, Debug, PartialEq)]
pub struct Legend {
    pub groups: Vec<LegendGroup>,
    pub neutral_centres: usize,
    pub key: Vec<KeyEntry>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LegendGroup {
    /// "Great powers", "Factions" or "Minor powers".
    pub heading: &'static str,
    pub powers: Vec<LegendPower>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LegendPower {
    pub name: String,
    /// The name as shown: a faction's is followed by its player's in brackets.
    pub label: String,
    /// `#rrggbb`, as the map uses it.
    pub colour: String,
    pub kind: PowerKind,
    pub centres: usize,
    pub units: usize,
    /// The power's army marker as a small standalone SVG.
    pub marker: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KeyEntry {
    /// The symbol as a small standalone SVG.
    pub symbol: String,
    pub text: &'static str,
}

/// The legend of `state` on `v`.
pub fn legend(v: &Variant, state: &GameState) -> Legend {
    let styles = crate::style::styles_of(v, state);
    build(v, state, &styles)
}

pub(crate) fn build(v: &Variant, state: &GameState, styles: &[PowerStyle]) -> Legend {
    let has_something = |p: PowerId| state.centre_count(p) > 0 || state.unit_count(p) > 0;
    let of_kind = |kind: PowerKind, all: bool| -> Vec<LegendPower> {
        (0..v.powers.len() as PowerId)
            .filter(|&p| v.power(p).kind == kind && (all || has_something(p)))
            .map(|p| {
                let power = v.power(p);
                let label = match power.player {
                    Some(player) if power.kind == PowerKind::Faction => {
                        format!("{} ({})", power.name, v.power(player).name)
                    }
                    _ => power.name.clone(),
                };
                let mut marker = String::new();
                shape_with(
                    &mut marker,
                    v,
                    styles,
                    p as usize,
                    UnitKind::Army,
                    Pt::new(12.0, 12.0),
                    0.8,
                );
                LegendPower {
                    name: power.name.clone(),
                    label,
                    colour: styles[p as usize].fill.clone(),
                    kind: power.kind,
                    centres: state.centre_count(p),
                    units: state.unit_count(p),
                    marker: symbol(24.0, &marker),
                }
            })
            .collect()
    };
    let groups = [
        ("Great powers", of_kind(PowerKind::Great, true)),
        ("Factions", of_kind(PowerKind::Faction, true)),
        ("Minor powers", of_kind(PowerKind::Minor, false)),
    ]
    .into_iter()
    .filter(|(_, list)| !list.is_empty())
    .map(|(heading, powers)| LegendGroup { heading, powers })
    .collect();
    let neutral_centres = v
        .provinces
        .iter()
        .zip(&state.owners)
        .filter(|(p, o)| p.sc && o.is_none())
        .count();
    Legend {
        groups,
        neutral_centres,
        key: key(v, styles),
    }
}

/// A small picture of `width` × 24 pixels.
fn symbol(width: f64, body: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="legend-symbol" viewBox="0 0 {width:.0} 24" width="{width:.0}" height="24" aria-hidden="true">{body}</svg>"#
    )
}

/// What each symbol means, drawn with the same code as the map.
fn key(v: &Variant, styles: &[PowerStyle]) -> Vec<KeyEntry> {
    let grey = "#6b6b6b";
    let mut out = Vec::new();
    let mut add = |body: String, text: &'static str| {
        out.push(KeyEntry {
            symbol: symbol(40.0, &body),
            text,
        })
    };
    let mid = Pt::new(20.0, 12.0);
    if let Some(p) = (0..v.powers.len()).find(|&p| v.powers[p].kind == PowerKind::Great) {
        let mut army = String::new();
        shape_with(&mut army, v, styles, p, UnitKind::Army, mid, 0.9);
        add(army, "Army");
        let mut fleet = String::new();
        shape_with(&mut fleet, v, styles, p, UnitKind::Fleet, mid, 0.9);
        add(fleet, "Fleet");
    }
    add(
        format!(
            r#"<circle cx="20" cy="12" r="{CENTRE_R}" fill="{grey}" stroke="{}" stroke-width="1.5"/>"#,
            style::INK
        ),
        "Supply centre, in its owner's colour",
    );
    add(
        format!(
            r##"<circle cx="20" cy="12" r="{:.1}" fill="#fff" stroke="{}" stroke-width="1.6" stroke-dasharray="2.5 1.5"/>"##,
            UNIT_R * 0.9,
            style::INK
        ),
        "Minor power's unit",
    );
    add(
        format!(
            r#"<circle cx="20" cy="12" r="{:.1}" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="3 2"/>"#,
            UNIT_R * 0.9,
            style::FAIL
        ),
        "Dislodged",
    );
    let line = |dash: &str, width: f64, head: bool| {
        let mut s = format!(
            r#"<path d="M4 12h{}" stroke="{grey}" stroke-width="{width}" stroke-linecap="round"{dash}/>"#,
            if head { 24 } else { 32 }
        );
        if head {
            let _ = write!(s, r#"<path d="M37 12l-10 -6v12Z" fill="{grey}"/>"#);
        }
        s
    };
    let mut waive = String::new();
    crate::orders::waive_mark(&mut waive, Pt::new(16.0, 13.0), 9.0);
    add(waive, "Build waived");
    add(line("", 3.0, true), "Move");
    add(line(r#" stroke-dasharray="5 3""#, 2.0, true), "Support");
    add(line(r#" stroke-dasharray="1 4""#, 2.4, true), "Convoy");
    let mut failed = line(r#" stroke-dasharray="7 4""#, 3.0, true);
    let _ = write!(
        failed,
        r#"<path d="M14 7l9 9M14 16l9 -9" stroke="{}" stroke-width="2.6" stroke-linecap="round"/>"#,
        style::FAIL
    );
    add(failed, "Failed order");
    add(
        format!(
            r#"<path d="M6 12h28" stroke="{}" stroke-width="2.2" stroke-dasharray="5 3" stroke-linecap="round"/>"#,
            style::WALL
        ),
        "Border crossing a strait or a junction",
    );
    add(
        r##"<rect x="6" y="4" width="28" height="16" fill="url(#hatch)" stroke="#9a8a6a"/>"##
            .replace("url(#hatch)", style::IMPASSABLE),
        "Land outside play",
    );
    out
}

pub(crate) const WIDTH: f64 = 300.0;
const ROW: f64 = 24.0;
const HEADING: f64 = 26.0;

/// The height of the legend drawn as a panel.
pub(crate) fn panel_height(l: &Legend) -> f64 {
    let rows: usize = l.groups.iter().map(|g| g.powers.len()).sum();
    30.0 + l.groups.len() as f64 * HEADING + rows as f64 * ROW + 30.0 + HEADING + l.key.len() as f64 * ROW + 16.0
}

/// The legend as a panel inside an SVG, for a standalone picture.
pub(crate) fn draw_panel(out: &mut String, l: &Legend) {
    let x0 = 12.0;
    let (num_c, num_u) = (WIDTH - 62.0, WIDTH - 18.0);
    let mut y = 18.0;
    let _ = write!(
        out,
        r#"<text class="legend-text" x="{num_c:.0}" y="{y:.0}" text-anchor="end" font-weight="bold">Centres</text><text class="legend-text" x="{num_u:.0}" y="{y:.0}" text-anchor="end" font-weight="bold">Units</text>"#
    );
    y += 12.0;
    let place = |out: &mut String, svg: &str, x: f64, y: f64| {
        let _ = write!(out, r#"<g transform="translate({x:.0} {y:.0})">{svg}</g>"#);
    };
    for group in &l.groups {
        y += HEADING;
        let _ = write!(
            out,
            r##"<text class="legend-text" x="{x0:.0}" y="{:.0}" font-size="11" fill="#6b6b6b" letter-spacing="1">{}</text>"##,
            y - 8.0,
            group.heading.to_uppercase()
        );
        for p in &group.powers {
            let _ = write!(
                out,
                r#"<g class="legend-power" data-power="{}" data-centres="{}" data-units="{}">"#,
                escape(&p.name),
                p.centres,
                p.units
            );
            place(out, &p.marker, x0, y - 4.0);
            let _ = write!(
                out,
                r#"<text class="legend-text" x="{:.0}" y="{:.0}">{}</text><text class="legend-text" x="{num_c:.0}" y="{:.0}" text-anchor="end">{}</text><text class="legend-text" x="{num_u:.0}" y="{:.0}" text-anchor="end">{}</text></g>"#,
                x0 + 30.0,
                y + 12.0,
                escape(&p.label),
                y + 12.0,
                p.centres,
                y + 12.0,
                p.units
            );
            y += ROW;
        }
    }
    y += 8.0;
    let _ = write!(
        out,
        r#"<g class="legend-neutral" data-centres="{n}"><circle cx="{:.0}" cy="{:.0}" r="{CENTRE_R}" fill="{}" stroke="{}" stroke-width="1.5"/><text class="legend-text" x="{:.0}" y="{:.0}">Neutral centres</text><text class="legend-text" x="{num_c:.0}" y="{:.0}" text-anchor="end">{n}</text></g>"#,
        x0 + 12.0,
        y + 8.0,
        style::NEUTRAL_CENTRE,
        style::INK,
        x0 + 30.0,
        y + 12.0,
        y + 12.0,
        n = l.neutral_centres
    );
    y += 22.0 + HEADING;
    let _ = write!(
        out,
        r##"<g class="legend-key"><text class="legend-text" x="{x0:.0}" y="{:.0}" font-size="11" fill="#6b6b6b" letter-spacing="1">KEY</text>"##,
        y - 8.0
    );
    for k in &l.key {
        place(out, &k.symbol, x0 - 4.0, y - 4.0);
        let _ = write!(
            out,
            r#"<text class="legend-text" x="{:.0}" y="{:.0}">{}</text>"#,
            x0 + 42.0,
            y + 12.0,
            escape(k.text)
        );
        y += ROW;
    }
    out.push_str("</g>");
}
