//! The base map: every space's shape filled by terrain (land by its owner), the land
//! outside play hatched as impassable, the coastline, the crossings (straits, junctions),
//! names, and the supply-centre markers in their owners' colours.

use std::fmt::Write;

use chancery_engine::variant::Terrain;
use chancery_engine::GameState;

use crate::labels::display_abbr;
use crate::scene::{Labels, RenderOptions, Scene};
use crate::style::{self, escape, CENTRE_R};

pub(crate) fn draw(out: &mut String, s: &Scene, state: &GameState, options: &RenderOptions, results: bool) {
    let g = s.g;
    let v = s.v;
    let land = |i: usize| v.provinces[i].terrain != Terrain::Sea;
    // Seas first, each with a thin line between seas.
    let _ = write!(
        out,
        r#"<g class="seas" stroke="{}" stroke-width="0.8" stroke-linejoin="round">"#,
        style::SEA_LINE
    );
    for (i, prov) in v.provinces.iter().enumerate().filter(|(i, _)| !land(*i)) {
        space(out, None, i, &prov.abbr, &prov.name, "sea", style::SEA, &g.paths[i]);
    }
    out.push_str("</g>");
    // The coastline: every piece of land stroked wide underneath, so that once the land
    // is filled on top only the half of the stroke over the water shows. Each outline is
    // a `<use>` of the land's own path (drawn below, found by its id): written once, the
    // board's largest part is not sent twice.
    let ids = IdPrefix::of(state, results);
    let _ = write!(
        out,
        r#"<g class="coastline" fill="none" pointer-events="none" stroke="{c}" stroke-width="2.4" stroke-linejoin="round">"#,
        c = style::COAST_LINE
    );
    if !g.outside_path.is_empty() {
        let _ = write!(out, r##"<use href="#{ids}-out"/>"##);
    }
    for i in (0..v.provinces.len()).filter(|&i| land(i)) {
        let _ = write!(out, r##"<use href="#{ids}-{i}"/>"##);
    }
    out.push_str("</g>");
    // Its colours on a group, not on the path, so that the coastline's `<use>` of it
    // takes the coastline's stroke and no fill.
    if !g.outside_path.is_empty() {
        let _ = write!(
            out,
            r#"<g fill="url(#hatch)" stroke="{}" stroke-width="0.6"><path id="{ids}-out" class="outside" d="{}" fill-rule="evenodd"/></g>"#,
            style::LAND_LINE,
            g.outside_path
        );
    }
    // Land: a supply centre's space in its owner's colour, other land plain.
    let _ = write!(
        out,
        r#"<g class="lands" stroke="{}" stroke-width="0.8" stroke-linejoin="round">"#,
        style::LAND_LINE
    );
    for (i, prov) in v.provinces.iter().enumerate().filter(|(i, _)| land(*i)) {
        let (class, fill) = match prov.terrain {
            Terrain::Impassable => ("impassable", "url(#hatch)"),
            _ => match state.owners[i] {
                Some(owner) if prov.sc => ("land", s.styles[owner as usize].tint.as_str()),
                _ => ("land", style::LAND),
            },
        };
        space(out, Some(&ids), i, &prov.abbr, &prov.name, class, fill, &g.paths[i]);
    }
    out.push_str("</g>");
    if !g.lakes_path.is_empty() {
        let _ = write!(
            out,
            r#"<path class="lakes" d="{}" fill="{}" stroke="{}" stroke-width="1.2" pointer-events="none"/>"#,
            g.lakes_path,
            style::SEA,
            style::COAST_LINE
        );
    }
    if !g.crossings.is_empty() {
        let _ = write!(
            out,
            r#"<path class="crossings" fill="none" stroke="{}" stroke-width="2.2" stroke-dasharray="5 3" stroke-linecap="round" d="{}"/>"#,
            style::WALL,
            g.crossings
        );
    }
    let _ = write!(
        out,
        r#"<rect class="frame" x="0.5" y="0.5" width="{:.0}" height="{:.0}" fill="none" stroke="{}" stroke-width="1"/>"#,
        g.width - 1.0,
        g.height - 1.0,
        style::OUTLINE
    );
    labels(out, s, options.labels);
    centres(out, s, state);
}

/// A space's path; a land's with the id the coastline's `<use>` finds it by.
#[allow(clippy::too_many_arguments)]
fn space(out: &mut String, ids: Option<&IdPrefix>, i: usize, abbr: &str, name: &str, class: &str, fill: &str, d: &str) {
    out.push_str("<path");
    if let Some(ids) = ids {
        let _ = write!(out, r#" id="{ids}-{i}""#);
    }
    let _ = write!(
        out,
        r#" class="space {class}" data-space="{}" data-index="{i}" d="{d}" fill="{fill}" fill-rule="evenodd"><title>{}</title></path>"#,
        escape(&abbr.to_ascii_lowercase()),
        escape(name)
    );
}

/// The start of the ids of one picture's shapes. A page may show several maps (history:
/// before and after; the game page: the live map and the sandbox's), and ids must be
/// unique in a document: the phase, and whether the picture carries results, tell a
/// page's maps apart, and the same picture always gets the same ids (a map's text
/// depends on nothing else, so that it can be cached and compared).
struct IdPrefix(String);

impl IdPrefix {
    fn of(state: &GameState, results: bool) -> IdPrefix {
        IdPrefix(format!("map-{}{}", state.phase.code(), if results { "-r" } else { "" }))
    }
}

impl std::fmt::Display for IdPrefix {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn labels(out: &mut String, s: &Scene, labels: Labels) {
    if labels == Labels::None {
        return;
    }
    let _ = write!(out, r#"<g class="labels" font-size="{}">"#, style::FONT);
    let at = match labels {
        Labels::Names => &s.g.name_labels,
        _ => &s.g.abbr_labels,
    };
    for (i, prov) in s.v.provinces.iter().enumerate() {
        let text = match labels {
            Labels::Names => prov.name.clone(),
            _ => display_abbr(&prov.abbr, prov.is_sea()),
        };
        let class = if prov.is_sea() { "label sea" } else { "label" };
        let _ = write!(
            out,
            r#"<text class="{class}" x="{:.1}" y="{:.1}">{}</text>"#,
            at[i].x,
            at[i].y,
            escape(&text)
        );
        for (c, name) in prov.coasts.iter().enumerate() {
            let at = s.g.coast_labels[i][c];
            let _ = write!(
                out,
                r#"<text class="coast-label" font-size="11" x="{:.1}" y="{:.1}">{}</text>"#,
                at.x,
                at.y,
                escape(name)
            );
        }
    }
    out.push_str("</g>");
}

fn centres(out: &mut String, s: &Scene, state: &GameState) {
    out.push_str("<g class=\"centres\">");
    for (i, prov) in s.v.provinces.iter().enumerate() {
        if !prov.sc {
            continue;
        }
        let a = s.g.centre_points[i];
        let (fill, owner) = match state.owners[i] {
            Some(o) => (s.styles[o as usize].fill.as_str(), s.v.power(o).name.as_str()),
            None => (style::NEUTRAL_CENTRE, ""),
        };
        let _ = write!(
            out,
            r#"<circle class="centre" data-space="{}" data-owner="{}" cx="{:.1}" cy="{:.1}" r="{CENTRE_R}" fill="{fill}" stroke="{}" stroke-width="1.5"/>"#,
            escape(&prov.abbr.to_ascii_lowercase()),
            escape(owner),
            a.x,
            a.y,
            style::INK
        );
    }
    out.push_str("</g>");
}
