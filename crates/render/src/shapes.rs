//! Where a variant's shapes come from: the committed shapes of a built-in variant
//! (`variants/NAME.shapes.geojson`) when the variant's content is the built-in's, and
//! otherwise (a GM's upload, or an upload that borrows a built-in's name) the same
//! generator run on the variant's own anchors and graph, so that every variant gets a
//! geographic map.

use chancery_engine::builtin::builtin;
use chancery_engine::Variant;
use chancery_geo::{builtin_shapes, shape, Options, Shapes};

use crate::cache::fingerprint;
use crate::RenderError;

/// The shapes of `v`.
pub fn shapes_of(v: &Variant) -> Result<Shapes, RenderError> {
    let committed = builtin(&v.id)
        .and_then(Result::ok)
        .filter(|b| fingerprint(b) == fingerprint(v))
        .and_then(|_| builtin_shapes(&v.id));
    match committed {
        Some(text) => Shapes::from_geojson(v, text).map_err(RenderError::Shapes),
        None => shape(v, &Options::default()).map_err(|e| RenderError::Shapes(e.to_string())),
    }
}
