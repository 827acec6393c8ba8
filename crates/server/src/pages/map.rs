//! The board as inline SVG. Laying out a variant's map is the slow part of drawing it,
//! so each variant's geometry is built once per process and shared.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::http::StatusCode;
use chancery_engine::{Adjudication, GameState, Variant};
use chancery_render::{render_with, MapGeometry, RenderOptions};

use crate::error::ApiError;

type Cache = Mutex<HashMap<String, Arc<MapGeometry>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// The geometry of `v`, keyed by the variant's id and size so that two uploads sharing
/// a name but not a board never share a layout.
fn geometry(v: &Variant) -> Result<Arc<MapGeometry>, ApiError> {
    let key = format!("{}#{}#{}", v.id, v.provinces.len(), v.powers.len());
    if let Some(g) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        if g.fits(v) {
            return Ok(g.clone());
        }
    }
    let g = Arc::new(
        MapGeometry::new(v)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("drawing the map: {e}")))?,
    );
    cache().lock().unwrap_or_else(|e| e.into_inner()).insert(key, g.clone());
    Ok(g)
}

/// The map of `state`, with the phase's orders and results when `adjudication` is given.
/// A variant whose map cannot be drawn (no coordinates) gets a note instead, so the rest
/// of the page still works.
pub fn svg(v: &Variant, state: &GameState, adjudication: Option<&Adjudication>, label: &str) -> String {
    match drawing(v, state, adjudication) {
        // The renderer's SVG has no role or name; the figure around it gives both.
        Ok(svg) => format!(
            r#"<figure class="map" aria-label="{}">{svg}</figure>"#,
            super::layout::esc(label)
        ),
        Err(e) => format!(
            r#"<p class="note">The map cannot be drawn: {}</p>"#,
            super::layout::esc(&e.message)
        ),
    }
}

/// The map as a standalone SVG document (the renderer's output carries its own styles).
pub fn drawing(v: &Variant, state: &GameState, adjudication: Option<&Adjudication>) -> Result<String, ApiError> {
    geometry(v).and_then(|g| {
        render_with(&g, v, state, adjudication, &RenderOptions::default())
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
    })
}
