//! The committed drawings against their graphs, so that a player sees the
//! moves the judge allows (every border drawn, no contact the graph lacks, each anchor inside its space, land spaces on land). Real cities inside
//! the spaces named for them are `cities.rs`'s job.

use chancery_engine::builtin::builtin;
use chancery_engine::variant_file::load_variant;
use chancery_engine::Variant;
use chancery_geo::{builtin_shapes, check, share_on_land, Crossing, DrawingReport, Frame, Shapes, SpaceShape};
use geo::{coord, LineString, MultiPolygon, Polygon, Rect};

fn load(name: &str) -> (Variant, Shapes) {
    let variant = builtin(name).unwrap().unwrap();
    let shapes = Shapes::from_geojson(&variant, builtin_shapes(name).unwrap()).unwrap();
    (variant, shapes)
}

fn report(name: &str) -> DrawingReport {
    let (variant, shapes) = load(name);
    check(&variant, &shapes)
}

const ALL: &[&str] = &["standard", "1936", "1648", "original-1958"];

#[test]
fn every_variant_is_drawn_exactly_as_its_graph() {
    for name in ALL {
        let r = report(name);
        assert_eq!(r.drawn, r.borders, "{name}: borders not drawn: {:?}", r.missing);
        assert!(r.foreign.is_empty(), "{name}: {:?}", r.foreign);
        assert!(r.anchors_outside.is_empty(), "{name}: {:?}", r.anchors_outside);
        assert!(r.off_land.is_empty(), "{name}: {:?}", r.off_land);
        assert!(r.least_on_land >= 0.95, "{name}: {}", r.least_on_land);
        assert!(r.sea_on_land.is_empty(), "{name}: {:?}", r.sea_on_land);
        assert!(r.no_shape.is_empty(), "{name}: {:?}", r.no_shape);
        assert!(r.not_borders.is_empty(), "{name}: {:?}", r.not_borders);
        assert!(r.errors().is_empty(), "{name}");
    }
}

/// Standard and 1958 are planar: every border is a shared edge or a strait. 1936 and 1648
/// are not (each holds a K3,3 of borders, see `junctions_stand_in_non_planar_knots`), so
/// some borders are junctions; the counts hold them from growing unnoticed.
#[test]
fn junctions_only_where_the_graph_is_not_planar() {
    for (name, most) in [("standard", 0), ("original-1958", 0), ("1936", 7), ("1648", 9)] {
        let r = report(name);
        let (variant, _) = load(name);
        assert_eq!(r.junctions, variant.junctions.len(), "{name}: every junction drawn");
        assert!(
            variant.junctions.len() <= most,
            "{name}: {} junctions",
            variant.junctions.len()
        );
    }
}

/// The junctions round Berlin in 1936 each close a K3,3 of the graph's borders (every
/// one of the nine stated or reconstructed): by Kuratowski's theorem no flat map with
/// each space one region shows all nine as shared edges. The other junctions close
/// subdivisions of K3,3 (found by a planarity test, listed in the MAPNOTES).
#[test]
fn junctions_stand_in_non_planar_knots() {
    type Knot = ([&'static str; 3], [&'static str; 3]);
    const KNOTS: &[(&str, &str, &str, Knot)] = &[
        ("1936", "Sax", "Pom", (["Sax", "Ber", "Sil"], ["Pom", "GPo", "Boh"])),
        ("1936", "Sax", "GPo", (["Sax", "Ber", "Pom"], ["GPo", "Ham", "Sil"])),
        ("1936", "Ber", "Boh", (["Ber", "Sax", "Sil"], ["Boh", "Pom", "GPo"])),
        ("1936", "War", "Boh", (["War", "Ber", "Sax"], ["Boh", "Sil", "GPo"])),
    ];
    for (name, a, b, (left, right)) in KNOTS {
        let variant = builtin(name).unwrap().unwrap();
        let id = |s: &str| variant.find_province(s).unwrap_or_else(|| panic!("{name}: {s}"));
        assert!(
            variant
                .junctions
                .iter()
                .any(|&(x, y)| (x, y) == (id(a), id(b)) || (y, x) == (id(a), id(b))),
            "{name}: {a}–{b} is a junction"
        );
        for l in left {
            for r in right {
                assert!(
                    variant.army_adjacency[id(l) as usize].contains(&id(r)),
                    "{name}: {l}–{r} is a border of the knot"
                );
            }
        }
    }
}

/// A border drawn only through a piece of a space lying inside its neighbours is not
/// drawn (each border must be a shared edge between the spaces' main bodies, where a
/// player looks for it); a
/// `junction` line and its crossing draw it.
#[test]
fn a_border_through_a_detached_piece_is_not_drawn() {
    let text = |extra: &str| {
        format!(
            "variant strip\nstart Spring 1901\nvictory centres 2\n\
             power P great\n\
             province a land \"A\" sc home=P at=0.5,0.5\n\
             province b land \"B\" at=0.5,1.5\n\
             province c land \"C\" at=0.5,3.5\n\
             army a: b c\narmy b: a\narmy c: a\n\
             unit P A a\n{extra}"
        )
    };
    let square = |x: f64| {
        Polygon::new(
            LineString::from(
                Rect::new(coord! {x: x, y: 0.0}, coord! {x: x + 1.0, y: 1.0})
                    .to_polygon()
                    .exterior()
                    .0
                    .clone(),
            ),
            vec![],
        )
    };
    let shapes = |crossing: bool| Shapes {
        frame: Frame {
            west: 0.0,
            south: 0.0,
            east: 4.0,
            north: 1.0,
        },
        // A holds [0,1] and a patch at [2,3] between B and C; only the patch meets C.
        spaces: vec![
            SpaceShape {
                province: 0,
                geometry: MultiPolygon(vec![square(0.0), square(2.0)]),
            },
            SpaceShape {
                province: 1,
                geometry: MultiPolygon(vec![square(1.0)]),
            },
            SpaceShape {
                province: 2,
                geometry: MultiPolygon(vec![square(3.0)]),
            },
        ],
        crossings: if crossing {
            vec![Crossing {
                a: 0,
                b: 2,
                line: LineString::from(vec![(0.9, 0.5), (3.1, 0.5)]),
            }]
        } else {
            Vec::new()
        },
        outside: MultiPolygon(Vec::new()),
    };
    let v = load_variant("strip.var", &text("")).unwrap();
    let r = check(&v, &shapes(false));
    assert_eq!((r.drawn, r.borders), (1, 2), "{:?}", r.missing);
    assert_eq!(r.missing, vec![("a".to_string(), "c".to_string())]);
    assert!(r.errors().iter().any(|e| e == "border a–c is not drawn"));
    assert_eq!(r.detached.len(), 1);
    assert_eq!(r.detached[0].carries, vec!["a–c".to_string()]);
    let v = load_variant("strip.var", &text("junction a c\n")).unwrap();
    let r = check(&v, &shapes(true));
    assert_eq!((r.drawn, r.borders, r.junctions), (2, 2, 1), "{:?}", r.missing);
    // A junction of a space with itself is refused by the loader; one that names no
    // border of the graph is an error of the drawing.
    assert!(load_variant("strip.var", &text("junction b b\n")).is_err());
    let v = load_variant("strip.var", &text("junction a c\njunction b c\n")).unwrap();
    let r = check(&v, &shapes(true));
    assert_eq!(r.not_borders, vec![("b".to_string(), "c".to_string())]);
    assert!(r.errors().iter().any(|e| e.contains("b–c is declared")));
}

/// A GIS reader of `map.geojson` sees no sea over land. The shapes as served
/// (`Shapes::with_seas_cut`) have no sea with more than 1% of its area on Natural
/// Earth's land: land outside play (Iceland, Greenland, Svalbard, the Faroes), islands
/// smaller than the generator's cells and the steps of its coasts are cut out.
#[test]
fn no_sea_of_the_served_shapes_lies_over_land() {
    for name in ALL {
        let (variant, shapes) = load(name);
        let started = std::time::Instant::now();
        let cut = shapes.with_seas_cut(&variant);
        eprintln!("{name}: seas cut in {:?}", started.elapsed());
        let over: Vec<String> = cut
            .spaces
            .iter()
            .filter(|s| variant.province(s.province).terrain == chancery_engine::variant::Terrain::Sea)
            .map(|s| (variant.province(s.province).abbr.clone(), share_on_land(&s.geometry)))
            .filter(|(_, share)| *share > 0.01)
            .map(|(abbr, share)| format!("{abbr} {:.2}%", share * 100.0))
            .collect();
        assert!(over.is_empty(), "{name}: seas over land: {over:?}");
        // Every sea keeps nearly all of its water.
        for (before, after) in shapes.spaces.iter().zip(&cut.spaces) {
            use geo::Area;
            let (a, b) = (before.geometry.unsigned_area(), after.geometry.unsigned_area());
            assert!(
                b >= a * 0.9,
                "{name}: {} lost more than a tenth",
                variant.province(before.province).abbr
            );
        }
    }
}

/// A contact is what a player sees, not only a shared segment. Two spaces
/// the graph does not join, parted by 3 km (a sliver of land outside play, or shapes
/// meeting corner to corner along a diagonal), read as sharing a border; 11 km apart,
/// or parted by a strait of a sea, they do not.
#[test]
fn outlines_a_few_km_apart_are_a_contact() {
    let text = "variant strip\nstart Spring 1901\nvictory centres 1\n\
         power P great\n\
         province a coast \"A\" sc home=P at=0.5,0.5\n\
         province b coast \"B\" at=0.5,1.5\n\
         province c coast \"C\" at=0.5,2.5\n\
         province s sea \"S\" at=0.5,2.015\n\
         army a: b\narmy b: a\n\
         fleet b: s\nfleet c: s\nfleet s: b c\n\
         unit P A a\n";
    let v = load_variant("strip.var", text).unwrap();
    let rect = |x0: f64, x1: f64| {
        MultiPolygon(vec![
            Rect::new(coord! {x: x0, y: 0.0}, coord! {x: x1, y: 1.0}).to_polygon()
        ])
    };
    let shapes = |gap: f64, sea: bool| Shapes {
        frame: Frame {
            west: -1.0,
            south: -1.0,
            east: 5.0,
            north: 2.0,
        },
        spaces: [(0, rect(0.0, 1.0)), (1, rect(1.0, 2.0)), (2, rect(2.0 + gap, 3.0))]
            .into_iter()
            .chain(sea.then(|| (3, rect(2.0, 2.0 + gap))))
            .map(|(province, geometry)| SpaceShape { province, geometry })
            .collect(),
        crossings: Vec::new(),
        outside: MultiPolygon(Vec::new()),
    };
    let contacts = |r: &DrawingReport| -> Vec<(String, String)> {
        r.foreign.iter().map(|(a, b, _, _)| (a.clone(), b.clone())).collect()
    };
    // 0.03° of longitude at the equator: 3.3 km of land outside play.
    let r = check(&v, &shapes(0.03, false));
    assert_eq!(contacts(&r), vec![("b".to_string(), "c".to_string())]);
    assert!(r.foreign[0].2 > 100.0, "the whole side: {:?}", r.foreign);
    assert!(r.errors().iter().any(|e| e.starts_with("b and c meet along")));
    // 0.1°: 11 km apart, a gap a player sees.
    assert_eq!(
        contacts(&check(&v, &shapes(0.1, false))),
        Vec::<(String, String)>::new()
    );
    // The same 3.3 km filled by a sea: a strait, drawn as water.
    assert_eq!(
        contacts(&check(&v, &shapes(0.03, true))),
        Vec::<(String, String)>::new()
    );
}

/// The pairs a player tripped on. Standard's Burgundy touched Piedmont south
/// of Switzerland and Tyrolia beside it, corner to corner, which the old measure (shared
/// segments) did not see.
#[test]
fn burgundy_meets_neither_piedmont_nor_tyrolia() {
    let r = report("standard");
    for (a, b) in [("bur", "pie"), ("bur", "tyr")] {
        assert!(
            !r.foreign
                .iter()
                .any(|(x, y, _, _)| (x.as_str(), y.as_str()) == (a, b) || (y.as_str(), x.as_str()) == (a, b)),
            "{a} and {b}: {:?}",
            r.foreign
        );
    }
}
