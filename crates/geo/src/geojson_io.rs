//! Shapes as RFC 7946 GeoJSON: a FeatureCollection with one feature per space, then the
//! crossings and the land outside play. Exterior rings run anticlockwise, holes
//! clockwise, coordinates are longitude then latitude.

use chancery_engine::Variant;
use geo::{Coord, LineString, MultiPolygon, Orient, Polygon};
use geojson::{Feature, FeatureCollection, GeoJson, JsonObject};
use serde_json::json;

use crate::{Crossing, Frame, Shapes, SpaceShape};

/// Six decimals of a degree, about 10 cm: exact enough that rounding never moves a
/// vertex off its neighbour's (both round the same number the same way).
fn round(c: Coord<f64>) -> Coord<f64> {
    Coord {
        x: (c.x * 1e6).round() / 1e6,
        y: (c.y * 1e6).round() / 1e6,
    }
}

fn rounded(mp: &MultiPolygon<f64>) -> MultiPolygon<f64> {
    let ring = |ls: &LineString<f64>| LineString(ls.0.iter().map(|&c| round(c)).collect());
    let mp = MultiPolygon(
        mp.0.iter()
            .map(|p| Polygon::new(ring(p.exterior()), p.interiors().iter().map(ring).collect()))
            .collect(),
    );
    mp.orient(geo::orient::Direction::Default)
}

fn geometry(mp: &MultiPolygon<f64>) -> geojson::Geometry {
    let mp = rounded(mp);
    if mp.0.len() == 1 {
        geojson::Geometry::new((&mp.0[0]).into())
    } else {
        geojson::Geometry::new((&mp).into())
    }
}

fn properties(value: serde_json::Value) -> Option<JsonObject> {
    value.as_object().cloned()
}

pub fn write(shapes: &Shapes, variant: &Variant) -> String {
    let mut features = Vec::new();
    for s in &shapes.spaces {
        let p = variant.province(s.province);
        features.push(Feature {
            geometry: Some(geometry(&s.geometry)),
            properties: properties(json!({
                "abbr": p.abbr.to_lowercase(),
                "name": p.name,
                "terrain": p.terrain.as_str(),
            })),
            ..Default::default()
        });
    }
    for c in &shapes.crossings {
        let line = LineString(c.line.0.iter().map(|&c| round(c)).collect());
        features.push(Feature {
            geometry: Some(geojson::Geometry::new((&line).into())),
            properties: properties(json!({
                "kind": "crossing",
                "a": variant.province(c.a).abbr.to_lowercase(),
                "b": variant.province(c.b).abbr.to_lowercase(),
            })),
            ..Default::default()
        });
    }
    features.push(Feature {
        geometry: Some(geojson::Geometry::new((&rounded(&shapes.outside)).into())),
        properties: properties(json!({ "kind": "outside", "name": "Land outside play" })),
        ..Default::default()
    });
    let f = shapes.frame;
    let fc = FeatureCollection {
        bbox: Some(vec![f.west, f.south, f.east, f.north]),
        features,
        foreign_members: None,
    };
    // One feature a line: diffs of a regenerated map stay readable.
    let mut out = String::from("{\"type\":\"FeatureCollection\",\"bbox\":");
    out.push_str(&serde_json::to_string(&fc.bbox).unwrap_or_default());
    out.push_str(",\"features\":[\n");
    for (k, feature) in fc.features.iter().enumerate() {
        if k > 0 {
            out.push_str(",\n");
        }
        out.push_str(&feature.to_string());
    }
    out.push_str("\n]}\n");
    out
}

fn to_multipolygon(geometry: geojson::Geometry, what: &str) -> Result<MultiPolygon<f64>, String> {
    match geo::Geometry::<f64>::try_from(geometry).map_err(|e| format!("{what}: {e}"))? {
        geo::Geometry::Polygon(p) => Ok(MultiPolygon(vec![p])),
        geo::Geometry::MultiPolygon(mp) => Ok(mp),
        _ => Err(format!("{what}: geometry must be a Polygon or MultiPolygon")),
    }
}

pub fn read(variant: &Variant, text: &str) -> Result<Shapes, String> {
    let gj: GeoJson = text.parse().map_err(|e| format!("not GeoJSON: {e}"))?;
    let GeoJson::FeatureCollection(fc) = gj else {
        return Err("shapes must be a GeoJSON FeatureCollection".into());
    };
    let mut spaces: Vec<SpaceShape> = Vec::new();
    let mut crossings = Vec::new();
    let mut outside = MultiPolygon(Vec::new());
    let mut bounds = Frame {
        west: f64::INFINITY,
        south: f64::INFINITY,
        east: f64::NEG_INFINITY,
        north: f64::NEG_INFINITY,
    };
    let find = |name: &str, k: usize| -> Result<chancery_engine::ProvinceId, String> {
        variant
            .provinces
            .iter()
            .position(|p| p.abbr.eq_ignore_ascii_case(name))
            .map(|p| p as chancery_engine::ProvinceId)
            .ok_or_else(|| format!("feature {k}: `{name}` is not a space of {}", variant.id))
    };
    for (k, mut feature) in fc.features.into_iter().enumerate() {
        let geometry = feature.geometry.take();
        let prop = |key: &str| feature.property(key).and_then(|v| v.as_str()).map(str::to_string);
        let kind = prop("kind").unwrap_or_else(|| "space".into());
        let Some(geometry) = geometry else {
            return Err(format!("feature {k} has no geometry"));
        };
        match kind.as_str() {
            "space" => {
                let abbr = prop("abbr").ok_or_else(|| format!("feature {k} has no `abbr`"))?;
                let province = find(&abbr, k)?;
                if spaces.iter().any(|s| s.province == province) {
                    return Err(format!("feature {k}: `{abbr}` has two shapes"));
                }
                let geometry = to_multipolygon(geometry, &format!("feature {k} ({abbr})"))?;
                if let Some(b) = geo::BoundingRect::bounding_rect(&geometry) {
                    bounds.west = bounds.west.min(b.min().x);
                    bounds.south = bounds.south.min(b.min().y);
                    bounds.east = bounds.east.max(b.max().x);
                    bounds.north = bounds.north.max(b.max().y);
                }
                spaces.push(SpaceShape { province, geometry });
            }
            "crossing" => {
                let a = find(
                    &prop("a").ok_or_else(|| format!("feature {k}: a crossing needs `a`"))?,
                    k,
                )?;
                let b = find(
                    &prop("b").ok_or_else(|| format!("feature {k}: a crossing needs `b`"))?,
                    k,
                )?;
                let line = match geo::Geometry::<f64>::try_from(geometry).map_err(|e| format!("feature {k}: {e}"))? {
                    geo::Geometry::LineString(l) => l,
                    _ => return Err(format!("feature {k}: a crossing must be a LineString")),
                };
                crossings.push(Crossing { a, b, line });
            }
            "outside" => outside.0.extend(to_multipolygon(geometry, &format!("feature {k}"))?.0),
            other => return Err(format!("feature {k}: unknown kind `{other}`")),
        }
    }
    let frame = match fc.bbox.as_deref() {
        Some([w, s, e, n]) => Frame {
            west: *w,
            south: *s,
            east: *e,
            north: *n,
        },
        _ => bounds,
    };
    if spaces.is_empty() {
        return Err("the shapes hold no space".into());
    }
    Ok(Shapes {
        frame,
        spaces,
        crossings,
        outside,
    })
}
