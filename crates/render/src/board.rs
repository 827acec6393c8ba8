//! The board: cells shaded by terrain (and by the owner of a centre), the borders
//! between them, dotted links for routes the cells cannot show, names, and the
//! supply-centre markers in their owners' colours.

use std::fmt::Write;

use chancery_engine::variant::Terrain;
use chancery_engine::GameState;

use crate::geometry::BorderKind;
use crate::render::{Labels, RenderOptions, Scene};
use crate::style::{self, escape};

/// Vertical offsets from a space's anchor: centre marker above the unit, name below.
pub(crate) const CENTRE_DY: f64 = -17.0;
pub(crate) const LABEL_DY: f64 = 22.0;

pub(crate) fn draw(out: &mut String, s: &Scene, state: &GameState, options: &RenderOptions) {
    let g = s.g;
    // The map's outer edge: every cell drawn fat underneath, so that only the outside
    // of the union shows once the cells are filled on top.
    let _ = write!(
        out,
        r#"<g class="outline" fill="{c}" stroke="{c}" stroke-width="5" stroke-linejoin="round">"#,
        c = style::OUTLINE
    );
    for d in &g.cell_paths {
        let _ = write!(out, r#"<path d="{d}"/>"#);
    }
    out.push_str("</g><g class=\"spaces\">");
    for (i, prov) in s.v.provinces.iter().enumerate() {
        let (class, fill) = match prov.terrain {
            Terrain::Sea => ("sea", style::SEA),
            Terrain::Impassable => ("impassable", "url(#hatch)"),
            Terrain::Land | Terrain::Coast => match state.owners[i] {
                Some(owner) if prov.sc => ("land", s.styles[owner as usize].tint.as_str()),
                _ => ("land", style::LAND),
            },
        };
        let _ = write!(
            out,
            r#"<path class="space {class}" data-space="{}" d="{}" fill="{fill}"><title>{}</title></path>"#,
            escape(&prov.abbr.to_ascii_lowercase()),
            g.cell_paths[i],
            escape(&prov.name)
        );
    }
    out.push_str("</g>");
    borders(out, s);
    if options.links && !g.links.is_empty() {
        let _ = write!(
            out,
            r#"<path class="links" fill="none" stroke="{}" stroke-opacity="0.55" stroke-width="1.2" stroke-dasharray="1 4" stroke-linecap="round" d=""#,
            style::OUTLINE
        );
        for &(a, b) in &g.links {
            let (p, q) = (g.anchors[a], g.anchors[b]);
            // Start and stop short of the anchors, clear of the units.
            let dir = (q - p).unit();
            let (p, q) = (p + dir * 14.0, q - dir * 14.0);
            let _ = write!(out, "M{:.1} {:.1}L{:.1} {:.1}", p.x, p.y, q.x, q.y);
        }
        out.push_str("\"/>");
    }
    labels(out, s, options.labels);
    centres(out, s, state);
}

fn borders(out: &mut String, s: &Scene) {
    let kinds = [
        (BorderKind::Sea, style::SEA_LINE, 1.0),
        (BorderKind::Land, style::LAND_LINE, 1.0),
        (BorderKind::Coast, style::COAST_LINE, 1.8),
        (BorderKind::Closed, style::WALL, 2.6),
    ];
    for (kind, colour, width) in kinds {
        if !s.g.borders.iter().any(|b| b.kind == kind) {
            continue;
        }
        let class = match kind {
            BorderKind::Sea => "sea",
            BorderKind::Land => "land",
            BorderKind::Coast => "coast",
            BorderKind::Closed => "closed",
        };
        let _ = write!(
            out,
            r#"<path class="border {class}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round" d=""#
        );
        for b in s.g.borders.iter().filter(|b| b.kind == kind) {
            let _ = write!(out, "M{:.1} {:.1}L{:.1} {:.1}", b.from.x, b.from.y, b.to.x, b.to.y);
        }
        out.push_str("\"/>");
    }
}

fn labels(out: &mut String, s: &Scene, labels: Labels) {
    if labels == Labels::None {
        return;
    }
    out.push_str("<g class=\"labels\">");
    for (i, prov) in s.v.provinces.iter().enumerate() {
        let text = match labels {
            Labels::Names => prov.name.clone(),
            _ => display_abbr(&prov.abbr, prov.is_sea()),
        };
        let a = s.g.anchors[i];
        let class = if prov.is_sea() { "label sea" } else { "label" };
        let _ = write!(
            out,
            r#"<text class="{class}" x="{:.1}" y="{:.1}">{}</text>"#,
            a.x,
            a.y + LABEL_DY,
            escape(&text)
        );
        for (c, name) in prov.coasts.iter().enumerate() {
            let p = s.g.coast_points[i][c];
            let dir = (p - a).unit();
            let at = p + dir * 12.0;
            let _ = write!(
                out,
                r#"<text class="coast-label" x="{:.1}" y="{:.1}">{}</text>"#,
                at.x,
                at.y + 3.0,
                escape(name)
            );
        }
    }
    out.push_str("</g>");
}

/// `bud` → `Bud`, `nth` → `NTH` (seas in capitals, as on the printed board);
/// abbreviations the file writes with capitals are its own spelling and stay as written.
pub(crate) fn display_abbr(abbr: &str, sea: bool) -> String {
    if abbr.chars().any(|c| c.is_ascii_uppercase()) {
        return abbr.to_string();
    }
    if sea {
        return abbr.to_ascii_uppercase();
    }
    let mut chars = abbr.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn centres(out: &mut String, s: &Scene, state: &GameState) {
    out.push_str("<g class=\"centres\">");
    for (i, prov) in s.v.provinces.iter().enumerate() {
        if !prov.sc {
            continue;
        }
        let a = s.g.anchors[i];
        let (fill, owner) = match state.owners[i] {
            Some(o) => (s.styles[o as usize].fill.as_str(), s.v.power(o).name.as_str()),
            None => (style::NEUTRAL_CENTRE, ""),
        };
        let _ = write!(
            out,
            r#"<circle class="centre" data-space="{}" data-owner="{}" cx="{:.1}" cy="{:.1}" r="5" fill="{fill}" stroke="{}" stroke-width="1.4"/>"#,
            escape(&prov.abbr.to_ascii_lowercase()),
            escape(owner),
            a.x,
            a.y + CENTRE_DY,
            style::INK
        );
    }
    out.push_str("</g>");
}
