//! Natural Earth's land, clipped to the frames Chancery draws (geodata/README.md says how
//! it was made), compiled in so that shaping needs no files at run time.

use std::sync::OnceLock;

use geo::orient::Direction;
use geo::{BooleanOps, BoundingRect, Intersects, MultiPolygon, Orient};

const LAND_GEOJSON: &str = include_str!("../../../geodata/land.geojson");

/// Longitudes and latitudes the committed land covers; beyond them it knows nothing.
pub const COVERED: crate::Frame = crate::Frame {
    west: -35.0,
    south: 0.0,
    east: 80.0,
    north: 80.0,
};

/// The land, parsed once.
pub fn land() -> &'static MultiPolygon<f64> {
    static LAND: OnceLock<MultiPolygon<f64>> = OnceLock::new();
    LAND.get_or_init(|| {
        let gj: geojson::GeoJson = LAND_GEOJSON.parse().expect("geodata/land.geojson is GeoJSON");
        let mut polygons = Vec::new();
        let geojson::GeoJson::FeatureCollection(fc) = gj else {
            panic!("geodata/land.geojson is a FeatureCollection")
        };
        for feature in fc.features {
            let Some(geometry) = feature.geometry else { continue };
            match geo::Geometry::<f64>::try_from(geometry).expect("land geometry") {
                geo::Geometry::Polygon(p) => polygons.push(p),
                geo::Geometry::MultiPolygon(mp) => polygons.extend(mp.0),
                _ => {}
            }
        }
        // Shapefiles wind the other way from GeoJSON; the boolean operations want one.
        MultiPolygon(polygons).orient(Direction::Default)
    })
}

/// The land near a geometry: every land polygon meeting its bounding box, clipped to it.
pub fn land_near(geometry: &MultiPolygon<f64>) -> MultiPolygon<f64> {
    let Some(b) = geometry.bounding_rect() else {
        return MultiPolygon(Vec::new());
    };
    let near: Vec<geo::Polygon<f64>> = land()
        .0
        .iter()
        .filter(|p| p.bounding_rect().is_some_and(|r| r.intersects(&b)))
        .cloned()
        .collect();
    MultiPolygon(near).intersection(&MultiPolygon(vec![b.to_polygon()]))
}

/// A geometry with the land cut out of it.
pub fn without_land(geometry: &MultiPolygon<f64>) -> MultiPolygon<f64> {
    geometry.difference(&land_near(geometry))
}
