//! The board as inline SVG, with its legend as HTML under it so that the map has the
//! whole width of its column. The drawing is made on the job pool by
//! [`crate::services::maps`], which keeps each variant's prepared drawing keyed by its
//! file's content, so an upload can never change a built-in variant's map.

use std::fmt::Write;

use axum::http::StatusCode;
use chancery_engine::{Adjudication, GameState};
use chancery_render::{legend, Legend};

use super::layout::esc;
use crate::services::maps::{self, MapOf};
use crate::App;

/// The map of `state`, with the phase's orders and results when `adjudication` is given,
/// and its legend. A map that cannot be drawn now (an upload still being shaped, a busy
/// server) or at all gets a note instead, so the rest of the page still works.
pub async fn svg(
    app: &App,
    map: &MapOf,
    state: &GameState,
    adjudication: Option<&Adjudication>,
    label: &str,
) -> String {
    match maps::draw(app, map, state, adjudication, false, maps::PAGE_WAITS_FOR_SHAPING).await {
        // The renderer's SVG has no role or name; the figure around it gives both.
        Ok(svg) => format!(
            r#"<figure class="map" aria-label="{}">{svg}</figure>{}"#,
            esc(label),
            legend_html(&legend(&map.variant, state))
        ),
        Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE => format!(
            r#"<p class="note" id="map-pending">The map is not ready: {} Reload the page to see it.</p>"#,
            esc(&e.message)
        ),
        Err(e) => format!(r#"<p class="note">The map cannot be drawn: {}</p>"#, esc(&e.message)),
    }
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
