//! The board as inline SVG, with its legend as HTML under it so that the map has the
//! whole width of its column. The renderer keeps each variant's prepared drawing (shapes
//! projected, markers and names placed) once per process, keyed by the variant's
//! content, so an upload can never change a built-in variant's map.

use std::fmt::Write;

use axum::http::StatusCode;
use chancery_engine::{Adjudication, GameState, Variant};
use chancery_render::{legend, render_with, Legend, MapGeometry, RenderOptions};

use super::layout::esc;
use crate::error::ApiError;

/// The map of `state`, with the phase's orders and results when `adjudication` is given,
/// and its legend. A variant whose map cannot be drawn gets a note instead, so the rest
/// of the page still works.
pub fn svg(v: &Variant, state: &GameState, adjudication: Option<&Adjudication>, label: &str) -> String {
    match render(v, state, adjudication, false) {
        // The renderer's SVG has no role or name; the figure around it gives both.
        Ok(svg) => format!(
            r#"<figure class="map" aria-label="{}">{svg}</figure>{}"#,
            esc(label),
            legend_html(&legend(v, state))
        ),
        Err(e) => format!(r#"<p class="note">The map cannot be drawn: {}</p>"#, esc(&e.message)),
    }
}

/// The map as a standalone SVG document (the renderer's output carries its own styles),
/// with the legend drawn beside it since no page is around it.
pub fn drawing(v: &Variant, state: &GameState, adjudication: Option<&Adjudication>) -> Result<String, ApiError> {
    render(v, state, adjudication, true)
}

fn render(
    v: &Variant,
    state: &GameState,
    adjudication: Option<&Adjudication>,
    legend: bool,
) -> Result<String, ApiError> {
    let failed = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("drawing the map: {e}"));
    let g = MapGeometry::cached(v).map_err(|e| failed(e.to_string()))?;
    let options = RenderOptions {
        legend,
        ..RenderOptions::default()
    };
    render_with(&g, v, state, adjudication, &options).map_err(|e| failed(e.to_string()))
}

/// The legend: each power's marker, centres and units, the neutral centres, and the key
/// folded away under a summary.
fn legend_html(l: &Legend) -> String {
    let mut out = String::from(r#"<div class="map-legend" role="group" aria-label="Legend">"#);
    for g in &l.groups {
        let _ = write!(out, r#"<div class="legend-group"><h4>{}</h4><ul>"#, g.heading);
        for p in &g.powers {
            let _ = write!(
                out,
                r#"<li class="legend-power" data-power="{}" data-centres="{}" data-units="{}">{}<span class="name">{}</span> <span class="counts">{} {} · {} {}</span></li>"#,
                esc(&p.name),
                p.centres,
                p.units,
                p.marker,
                esc(&p.label),
                p.centres,
                if p.centres == 1 { "centre" } else { "centres" },
                p.units,
                if p.units == 1 { "unit" } else { "units" },
            );
        }
        out.push_str("</ul></div>");
    }
    let _ = write!(
        out,
        r#"<p class="legend-neutral" data-centres="{0}">Neutral centres: {0}</p><details class="legend-key"><summary>Key</summary><ul>"#,
        l.neutral_centres
    );
    for k in &l.key {
        let _ = write!(out, "<li>{}{}</li>", k.symbol, esc(k.text));
    }
    out.push_str("</ul></details></div>");
    out
}
