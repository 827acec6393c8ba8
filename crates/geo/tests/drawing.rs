//! The committed drawings against their graphs (issue 11: every border drawn, no contact
//! the graph lacks, each anchor inside its space, land spaces on land) and real cities
//! inside the spaces named for them.

use chancery_engine::builtin::builtin;
use chancery_engine::Variant;
use chancery_geo::{builtin_shapes, check, DrawingReport, Shapes};
use geo::{Intersects, Point};

fn load(name: &str) -> (Variant, Shapes) {
    let variant = builtin(name).unwrap().unwrap();
    let shapes = Shapes::from_geojson(&variant, builtin_shapes(name).unwrap()).unwrap();
    (variant, shapes)
}

fn report(name: &str) -> DrawingReport {
    let (variant, shapes) = load(name);
    check(&variant, &shapes)
}

/// The variants whose drawings meet every check of issue 11 (the others' remaining
/// errors are listed in their MAPNOTES).
const CLEAN: &[&str] = &["standard", "original-1958", "1936"];

#[test]
fn clean_variants_are_drawn_exactly_as_their_graphs() {
    for name in CLEAN {
        let r = report(name);
        assert_eq!(r.drawn, r.borders, "{name}: borders not drawn: {:?}", r.missing);
        assert!(r.foreign.is_empty(), "{name}: {:?}", r.foreign);
        assert!(r.anchors_outside.is_empty(), "{name}: {:?}", r.anchors_outside);
        assert!(r.off_land.is_empty(), "{name}: {:?}", r.off_land);
        assert!(r.sea_on_land.is_empty(), "{name}: {:?}", r.sea_on_land);
        assert!(r.errors().is_empty(), "{name}");
    }
}

#[test]
fn no_drawing_has_a_contact_the_graph_lacks() {
    for name in ["standard", "1936", "1648", "original-1958"] {
        let r = report(name);
        assert!(r.foreign.is_empty(), "{name}: {:?}", r.foreign);
        assert!(r.no_shape.is_empty(), "{name}: {:?}", r.no_shape);
    }
}

/// (space, city, latitude, longitude): the city's centre, from any atlas.
type City = (&'static str, &'static str, f64, f64);

const CITIES: &[(&str, &[City])] = &[
    (
        "standard",
        &[
            ("par", "Paris", 48.857, 2.352),
            ("mun", "Munich", 48.137, 11.575),
            ("vie", "Vienna", 48.208, 16.373),
            ("rom", "Rome", 41.903, 12.496),
            ("nap", "Naples", 40.852, 14.268),
            ("ven", "Venice (Mestre)", 45.49, 12.24),
            ("war", "Warsaw", 52.23, 21.01),
            ("mos", "Moscow", 55.756, 37.617),
            ("con", "Istanbul", 41.01, 28.96),
            ("lon", "London", 51.507, -0.128),
            ("edi", "Edinburgh", 55.953, -3.189),
            ("lvp", "Liverpool", 53.41, -2.95),
            ("ber", "Berlin", 52.52, 13.405),
            ("kie", "Kiel", 54.32, 10.12),
            ("bud", "Budapest", 47.498, 19.04),
            ("tri", "Trieste", 45.65, 13.78),
            ("mar", "Marseille", 43.296, 5.37),
            ("stp", "St Petersburg", 59.94, 30.31),
            ("ank", "Ankara", 39.93, 32.86),
            ("smy", "Izmir", 38.42, 27.14),
        ],
    ),
    (
        "1936",
        &[
            ("edi", "Edinburgh", 55.953, -3.189),
            ("liv", "Liverpool", 53.41, -2.95),
            ("lon", "London", 51.507, -0.128),
            ("par", "Paris", 48.857, 2.352),
            ("mar", "Marseille", 43.296, 5.37),
            ("ham", "Hamburg", 53.55, 10.0),
            ("ber", "Berlin", 52.52, 13.405),
            ("mun", "Munich", 48.137, 11.575),
            ("war", "Warsaw", 52.23, 21.01),
            ("cra", "Cracow", 50.06, 19.94),
            ("mad", "Madrid", 40.417, -3.70),
            ("rom", "Rome", 41.903, 12.496),
            ("nap", "Naples", 40.852, 14.268),
            ("mil", "Milan", 45.46, 9.19),
            ("len", "Leningrad", 59.94, 30.31),
            ("mos", "Moscow", 55.756, 37.617),
            ("ist", "Istanbul (Fatih)", 41.015, 28.93),
            ("ank", "Ankara", 39.93, 32.86),
            ("izm", "Izmir", 38.42, 27.14),
            ("alg", "Algiers", 36.75, 3.06),
        ],
    ),
    (
        "1648",
        &[
            ("pra", "Prague", 50.075, 14.437),
            ("vie", "Vienna", 48.208, 16.373),
            ("cop", "Copenhagen", 55.676, 12.568),
            ("lon", "London", 51.507, -0.128),
            ("bri", "Bristol", 51.454, -2.588),
            ("par", "Paris", 48.857, 2.352),
            // Marseille's harbour is on the waterline, which 4 km cells may put in the sea.
            ("mar", "Aix-en-Provence", 43.53, 5.45),
            ("cra", "Cracow", 50.06, 19.94),
            ("war", "Warsaw", 52.23, 21.01),
            ("mos", "Moscow", 55.756, 37.617),
            ("mad", "Madrid", 40.417, -3.70),
            ("nap", "Naples", 40.852, 14.268),
            ("sev", "Seville", 37.389, -5.984),
            ("sto", "Stockholm", 59.33, 18.07),
            ("bel", "Belgrade", 44.787, 20.457),
            ("con", "Istanbul (Fatih)", 41.015, 28.93),
            ("vil", "Vilnius", 54.687, 25.279),
            ("rig", "Riga", 56.949, 24.105),
            ("chr", "Oslo (Christiania)", 59.91, 10.75),
            ("dam", "Damascus", 33.51, 36.29),
        ],
    ),
    (
        "original-1958",
        &[
            ("lon", "London", 51.507, -0.128),
            ("edi", "Edinburgh", 55.953, -3.189),
            ("lvp", "Liverpool", 53.41, -2.95),
            ("par", "Paris", 48.857, 2.352),
            ("mar", "Marseille", 43.296, 5.37),
            ("ber", "Berlin", 52.52, 13.405),
            ("col", "Cologne", 50.94, 6.96),
            ("kie", "Kiel", 54.32, 10.12),
            ("rom", "Rome", 41.903, 12.496),
            ("nap", "Naples", 40.852, 14.268),
            ("vie", "Vienna", 48.208, 16.373),
            ("bud", "Budapest", 47.498, 19.04),
            // Sarayburnu, the tip of the old city, is water at this grid's 4 km cells: Fatih instead.
            ("con", "Istanbul (Fatih)", 41.015, 28.93),
            ("ank", "Ankara", 39.93, 32.86),
            ("mos", "Moscow", 55.756, 37.617),
            ("war", "Warsaw", 52.23, 21.01),
            ("stp", "St Petersburg", 59.94, 30.31),
        ],
    ),
];

/// The variants whose anchors have been tuned so far; the others' misplaced cities are
/// printed (run with --nocapture) until theirs are.
const TUNED: &[&str] = &["standard", "original-1958", "1936", "1648"];

#[test]
fn real_cities_lie_in_the_spaces_named_for_them() {
    for (name, cities) in CITIES {
        let (variant, shapes) = load(name);
        assert!(cities.len() >= 15);
        let mut wrong = Vec::new();
        for (abbr, city, lat, lon) in *cities {
            let p = variant
                .find_province(abbr)
                .unwrap_or_else(|| panic!("{name}: no space {abbr}"));
            let shape = shapes.space(p).unwrap();
            if !shape.geometry.intersects(&Point::new(*lon, *lat)) {
                wrong.push(format!("{city} is not in {abbr}"));
            }
        }
        if TUNED.contains(name) {
            assert!(wrong.is_empty(), "{name}: {wrong:?}");
        } else if !wrong.is_empty() {
            eprintln!("{name} (not yet tuned): {wrong:?}");
        }
    }
}

/// A border drawn only through a detached piece of a space is reported by name (issue 11:
/// no artificial exclave goes unnoticed). 1648's Franconia reaches Prague and Vienna only
/// through a piece in the Bohemian Forest (its MAPNOTES: the knot is not planar).
#[test]
fn detached_pieces_are_reported_with_the_borders_they_carry() {
    let r = report("1648");
    let franconia = r
        .detached
        .iter()
        .find(|d| d.space == "Fra")
        .unwrap_or_else(|| panic!("{:?}", r.detached));
    assert!(franconia.carries.contains(&"Pra–Fra".to_string()), "{franconia:?}");
    assert!(r.warnings().iter().any(|w| w.contains("Fra has a detached piece")));
    // Ireland is an island outside play on the Standard board, not a piece of Liverpool.
    let r = report("standard");
    assert!(!r.detached.iter().any(|d| d.space == "lvp"), "{:?}", r.detached);
}
