//! The committed drawings against their graphs (issue 11: every border drawn, no contact
//! the graph lacks, each anchor inside its space, land spaces on land). Real cities inside
//! the spaces named for them are `cities.rs`'s job.

use chancery_engine::builtin::builtin;
use chancery_engine::variant_file::load_variant;
use chancery_engine::Variant;
use chancery_geo::{builtin_shapes, check, Crossing, DrawingReport, Frame, Shapes, SpaceShape};
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
/// drawn (issue 11: each border a shared edge between the spaces' main bodies); a
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
