//! Writes `geodata/land.geojson`, the part of Natural Earth's land that Chancery's maps
//! cover, from Natural Earth's own shapefiles. See geodata/README.md for the exact
//! commands. Not part of the build: the result is committed.
//!
//! Usage: cargo run -p chancery-geo --example clip_natural_earth -- LAND_SHP LAKES_SHP OUT
//!
//! Natural Earth's land keeps its lakes as land (the Caspian aside, which is a hole in
//! it); the lakes a variant plays on are cut out of it from `ne_10m_lakes`.

use geo::{BooleanOps, Contains, Coord, LineString, MultiPolygon, Point, Polygon, Rect, SimplifyVwPreserve};

/// A point inside each lake a built-in variant plays on (longitude, latitude).
const PLAYED_LAKES: &[(&str, f64, f64)] = &[("Lake Ladoga", 31.5, 60.8)];

/// The union of the built-in variants' frames, with room to spare: the Atlantic west of
/// Iceland to the Urals and Persia, the Sahara to the Barents Sea.
const WEST: f64 = -35.0;
const EAST: f64 = 80.0;
const SOUTH: f64 = 0.0;
const NORTH: f64 = 80.0;
/// Visvalingam–Whyatt tolerance in square degrees (a triangle of about 500 m a side):
/// invisible at any size a board is drawn, and it keeps the file around a megabyte. The
/// topology-preserving form, so that no ring crosses itself or its neighbours.
const SIMPLIFY: f64 = 0.00002;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: clip_natural_earth LAND_SHP LAKES_SHP OUT");
        std::process::exit(2);
    }
    let land = polygons(&args[1]);
    let lakes = played_lakes(&args[2]);
    let frame = Rect::new(Coord { x: WEST, y: SOUTH }, Coord { x: EAST, y: NORTH }).to_polygon();
    let mut out = Vec::new();
    for polygon in land {
        let b = geo::BoundingRect::bounding_rect(&polygon).expect("non-empty");
        if b.max().x < WEST || b.min().x > EAST || b.max().y < SOUTH || b.min().y > NORTH {
            continue;
        }
        let clipped = MultiPolygon(vec![polygon])
            .intersection(&MultiPolygon(vec![frame.clone()]))
            .difference(&lakes);
        for p in clipped.simplify_vw_preserve(SIMPLIFY).0 {
            if geo::Area::unsigned_area(&p) > 1e-4 || p.exterior().0.len() >= 4 {
                out.push(round(p));
            }
        }
    }
    let mp = MultiPolygon(out);
    let geometry = geojson::Geometry::new((&mp).into());
    let feature = geojson::Feature {
        geometry: Some(geometry),
        properties: Some(
            serde_json::json!({ "source": "Natural Earth 1:10m land (ne_10m_land) less the lakes in play (ne_10m_lakes)" })
                .as_object()
                .cloned()
                .unwrap(),
        ),
        ..Default::default()
    };
    let fc = geojson::FeatureCollection {
        features: vec![feature],
        bbox: None,
        foreign_members: None,
    };
    std::fs::write(&args[3], fc.to_string()).expect("write");
    eprintln!("{} polygons", mp.0.len());
}

/// Four decimals of a degree (about 10 m) are far finer than the 1:10m source.
fn round(p: Polygon<f64>) -> Polygon<f64> {
    let r = |ls: &LineString<f64>| {
        LineString(
            ls.0.iter()
                .map(|c| Coord {
                    x: (c.x * 1e4).round() / 1e4,
                    y: (c.y * 1e4).round() / 1e4,
                })
                .collect(),
        )
    };
    Polygon::new(r(p.exterior()), p.interiors().iter().map(r).collect())
}

/// Every polygon of a Natural Earth shapefile, islands in lakes kept.
fn polygons(path: &str) -> Vec<Polygon<f64>> {
    let shapes = shapefile::read_shapes_as::<_, shapefile::Polygon>(path).expect("read the shapefile");
    let mut out: Vec<Polygon<f64>> = Vec::new();
    for shape in shapes {
        let to_ring =
            |points: &[shapefile::Point]| LineString(points.iter().map(|p| Coord { x: p.x, y: p.y }).collect());
        let mut polygons: Vec<Polygon<f64>> = Vec::new();
        for ring in shape.rings() {
            match ring {
                shapefile::PolygonRing::Outer(points) => polygons.push(Polygon::new(to_ring(points), vec![])),
                shapefile::PolygonRing::Inner(points) => {
                    if let Some(last) = polygons.last_mut() {
                        last.interiors_push(to_ring(points));
                    }
                }
            }
        }
        out.extend(polygons);
    }
    out
}

/// The lakes of `ne_10m_lakes` that hold one of `PLAYED_LAKES`.
fn played_lakes(path: &str) -> MultiPolygon<f64> {
    let mut out = Vec::new();
    for polygon in polygons(path) {
        if let Some((name, _, _)) = PLAYED_LAKES
            .iter()
            .find(|(_, lon, lat)| polygon.contains(&Point::new(*lon, *lat)))
        {
            eprintln!("cutting out {name}");
            out.push(polygon);
        }
    }
    MultiPolygon(out)
}
