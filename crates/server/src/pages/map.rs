//! The board as inline SVG, with its legend as HTML under it so that the map has the
//! whole width of its column (`templates/map.html`). The drawing is made on the job pool
//! by [`crate::services::maps`], which keeps each variant's prepared drawing keyed by its
//! file's content, so an upload can never change a built-in variant's map.

use askama::Template;
use axum::http::StatusCode;
use chancery_engine::{Adjudication, GameState};
use chancery_render::{legend, Legend};

use crate::services::maps::{self, MapOf};
use crate::App;

enum Drawing {
    /// The renderer's SVG and the legend's data.
    Drawn {
        svg: String,
        legend: Legend,
    },
    /// An upload still being shaped, or a busy server: a reload will show it.
    Pending {
        why: String,
    },
    Failed {
        why: String,
    },
}

#[derive(Template)]
#[template(path = "map.html")]
struct MapBox<'a> {
    label: &'a str,
    drawing: Drawing,
}

/// The map of `state`, with the phase's orders and results when `adjudication` is given,
/// and its legend, as HTML for a page template. A map that cannot be drawn now or at all
/// gets a note instead, so the rest of the page still works.
pub async fn svg(
    app: &App,
    map: &MapOf,
    state: &GameState,
    adjudication: Option<&Adjudication>,
    label: &str,
) -> String {
    let drawing = match maps::draw(app, map, state, adjudication, false, maps::PAGE_WAITS_FOR_SHAPING).await {
        Ok(svg) => Drawing::Drawn {
            svg,
            legend: legend(&map.variant, state),
        },
        Err(e) if e.status == StatusCode::SERVICE_UNAVAILABLE => Drawing::Pending { why: e.message },
        Err(e) => Drawing::Failed { why: e.message },
    };
    // Rendering only fails when writing to the string fails, which it does not.
    MapBox { label, drawing }.render().unwrap_or_default()
}
