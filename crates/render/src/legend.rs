//! The panel beside the map: each power with its colour, centre count and unit count
//! (great powers, then factions, then minor powers that still have something), the
//! neutral centres left, and a key to the symbols.

use std::fmt::Write;

use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, PowerId, UnitKind, Variant};

use crate::geom::Pt;
use crate::render::Scene;
use crate::style::{self, escape};
use crate::units::shape;

const WIDTH: f64 = 260.0;
const ROW: f64 = 19.0;
const HEADING: f64 = 24.0;
const KEY_ROWS: usize = 9;

/// The groups of the panel, each a heading and its powers.
fn groups(v: &Variant, state: &GameState) -> Vec<(&'static str, Vec<PowerId>)> {
    let has_something = |p: PowerId| state.centre_count(p) > 0 || state.unit_count(p) > 0;
    let of_kind = |kind: PowerKind, all: bool| -> Vec<PowerId> {
        (0..v.powers.len() as PowerId)
            .filter(|&p| v.power(p).kind == kind && (all || has_something(p)))
            .collect()
    };
    [
        ("Great powers", of_kind(PowerKind::Great, true)),
        ("Factions", of_kind(PowerKind::Faction, true)),
        ("Minor powers", of_kind(PowerKind::Minor, false)),
    ]
    .into_iter()
    .filter(|(_, list)| !list.is_empty())
    .collect()
}

pub(crate) fn size(v: &Variant, state: &GameState) -> (f64, f64) {
    let groups = groups(v, state);
    let rows: usize = groups.iter().map(|(_, l)| l.len()).sum();
    let height =
        30.0 + groups.len() as f64 * HEADING + rows as f64 * ROW + 30.0 + HEADING + KEY_ROWS as f64 * ROW + 16.0;
    (WIDTH, height)
}

pub(crate) fn draw(out: &mut String, s: &Scene, state: &GameState) {
    let v = s.v;
    let x0 = 12.0;
    let (num_c, num_u) = (WIDTH - 62.0, WIDTH - 18.0);
    let mut y = 18.0;
    let _ = write!(
        out,
        r#"<text class="legend-text" x="{num_c:.0}" y="{y:.0}" text-anchor="end" font-weight="bold">Centres</text><text class="legend-text" x="{num_u:.0}" y="{y:.0}" text-anchor="end" font-weight="bold">Units</text>"#
    );
    y += 12.0;
    for (heading, powers) in groups(v, state) {
        y += HEADING;
        let _ = write!(
            out,
            r##"<text class="legend-text" x="{x0:.0}" y="{:.0}" font-size="10" fill="#6b6b6b" letter-spacing="1">{}</text>"##,
            y - 8.0,
            heading.to_uppercase()
        );
        for p in powers {
            let name = &v.power(p).name;
            let (centres, units) = (state.centre_count(p), state.unit_count(p));
            let _ = write!(
                out,
                r#"<g class="legend-power" data-power="{}" data-centres="{centres}" data-units="{units}">"#,
                escape(name)
            );
            shape(out, s, p as usize, UnitKind::Army, Pt::new(x0 + 10.0, y + 4.0), 0.75);
            let label = match v.power(p).player {
                Some(player) if v.power(p).kind == PowerKind::Faction => {
                    format!("{} ({})", name, v.power(player).name)
                }
                _ => name.clone(),
            };
            let _ = write!(
                out,
                r#"<text class="legend-text" x="{:.0}" y="{:.0}">{}</text><text class="legend-text" x="{num_c:.0}" y="{:.0}" text-anchor="end">{centres}</text><text class="legend-text" x="{num_u:.0}" y="{:.0}" text-anchor="end">{units}</text></g>"#,
                x0 + 26.0,
                y + 8.0,
                escape(&label),
                y + 8.0,
                y + 8.0
            );
            y += ROW;
        }
    }
    let neutral = v
        .provinces
        .iter()
        .zip(&state.owners)
        .filter(|(p, o)| p.sc && o.is_none())
        .count();
    y += 8.0;
    let _ = write!(
        out,
        r#"<g class="legend-neutral" data-centres="{neutral}"><circle cx="{:.0}" cy="{:.0}" r="5" fill="{}" stroke="{}" stroke-width="1.4"/><text class="legend-text" x="{:.0}" y="{:.0}">Neutral centres</text><text class="legend-text" x="{num_c:.0}" y="{:.0}" text-anchor="end">{neutral}</text></g>"#,
        x0 + 10.0,
        y + 4.0,
        style::NEUTRAL_CENTRE,
        style::INK,
        x0 + 26.0,
        y + 8.0,
        y + 8.0
    );
    y += 22.0;
    key(out, s, x0, y);
}

/// What each symbol means, drawn with the same code as the map.
fn key(out: &mut String, s: &Scene, x0: f64, mut y: f64) {
    y += HEADING;
    let _ = write!(
        out,
        r##"<g class="legend-key"><text class="legend-text" x="{x0:.0}" y="{:.0}" font-size="10" fill="#6b6b6b" letter-spacing="1">KEY</text>"##,
        y - 8.0
    );
    let grey = "#6b6b6b";
    let entry = |out: &mut String, y: f64, text: &str| {
        let _ = write!(
            out,
            r#"<text class="legend-text" x="{:.0}" y="{:.0}">{text}</text>"#,
            x0 + 40.0,
            y + 8.0
        );
    };
    // Army and fleet, in the first great power's colours.
    let first = (0..s.v.powers.len()).find(|&p| s.v.powers[p].kind == PowerKind::Great);
    if let Some(p) = first {
        shape(out, s, p, UnitKind::Army, Pt::new(x0 + 16.0, y + 4.0), 0.8);
        entry(out, y, "Army");
        y += ROW;
        shape(out, s, p, UnitKind::Fleet, Pt::new(x0 + 16.0, y + 4.0), 0.8);
        entry(out, y, "Fleet");
        y += ROW;
    }
    let _ = write!(
        out,
        r#"<circle cx="{:.0}" cy="{:.0}" r="5" fill="{grey}" stroke="{}" stroke-width="1.4"/>"#,
        x0 + 16.0,
        y + 4.0,
        style::INK
    );
    entry(out, y, "Supply centre, owner's colour");
    y += ROW;
    let _ = write!(
        out,
        r##"<circle cx="{:.0}" cy="{:.0}" r="9" fill="#fff" stroke="{}" stroke-width="1.6" stroke-dasharray="2.5 1.5"/>"##,
        x0 + 16.0,
        y + 4.0,
        style::INK
    );
    entry(out, y, "Minor power's unit");
    y += ROW;
    let _ = write!(
        out,
        r#"<circle cx="{:.0}" cy="{:.0}" r="8" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="3 2"/>"#,
        x0 + 16.0,
        y + 4.0,
        style::FAIL
    );
    entry(out, y, "Dislodged");
    y += ROW;
    let line = |out: &mut String, y: f64, dash: &str, width: f64| {
        let _ = write!(
            out,
            r#"<path d="M{:.0} {:.0}h24" stroke="{grey}" stroke-width="{width}" stroke-linecap="round"{dash}/>"#,
            x0 + 4.0,
            y + 4.0
        );
    };
    line(out, y, "", 2.8);
    entry(out, y, "Move");
    y += ROW;
    line(out, y, r#" stroke-dasharray="4 3""#, 1.7);
    entry(out, y, "Support");
    y += ROW;
    line(out, y, r#" stroke-dasharray="1 4""#, 2.0);
    entry(out, y, "Convoy");
    y += ROW;
    line(out, y, r#" stroke-dasharray="7 4""#, 2.8);
    let _ = write!(
        out,
        r#"<path d="M{:.0} {:.0}l8 8M{:.0} {:.0}l8 -8" stroke="{}" stroke-width="2.4" stroke-linecap="round"/>"#,
        x0 + 12.0,
        y,
        x0 + 12.0,
        y + 8.0,
        style::FAIL
    );
    entry(out, y, "Failed order");
    out.push_str("</g>");
}
