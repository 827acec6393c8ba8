//! The committed shapes of the built-in variants: valid RFC 7946 GeoJSON that reads back
//! against its variant.

use chancery_engine::builtin::{builtin, builtin_names};
use chancery_geo::{builtin_shapes, Shapes};
use geo::Winding;

#[test]
fn every_builtin_variant_has_valid_geojson_shapes() {
    for name in builtin_names() {
        let variant = builtin(name).unwrap().unwrap();
        let text = builtin_shapes(name).unwrap_or_else(|| panic!("{name} has no shapes"));
        // The geojson crate parses it as a FeatureCollection.
        let gj: geojson::GeoJson = text.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        let geojson::GeoJson::FeatureCollection(fc) = gj else {
            panic!("{name}: not a FeatureCollection")
        };
        assert!(
            fc.features.len() >= variant.provinces.len(),
            "{name}: a feature per space"
        );
        let shapes = Shapes::from_geojson(&variant, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            shapes.spaces.len(),
            variant.provinces.len(),
            "{name}: every space has a shape"
        );
        for s in &shapes.spaces {
            for polygon in &s.geometry.0 {
                // RFC 7946 §3.1.6: exterior rings anticlockwise, holes clockwise.
                assert!(
                    polygon.exterior().is_ccw(),
                    "{name}: {} exterior winds clockwise",
                    s.province
                );
                for hole in polygon.interiors() {
                    assert!(hole.is_cw(), "{name}: a hole of {} winds anticlockwise", s.province);
                }
                for c in polygon
                    .exterior()
                    .0
                    .iter()
                    .chain(polygon.interiors().iter().flat_map(|h| h.0.iter()))
                {
                    assert!(
                        (-180.0..=180.0).contains(&c.x) && (-90.0..=90.0).contains(&c.y),
                        "{name}: {c:?} is not lon/lat"
                    );
                }
            }
        }
        // Written again, it reads the same.
        let again = Shapes::from_geojson(&variant, &shapes.to_geojson(&variant)).unwrap();
        assert_eq!(again.spaces.len(), shapes.spaces.len());
    }
}
