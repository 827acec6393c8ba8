//! The drawn map against the position and results it shows: one region per space,
//! one marker per unit and per supply centre, an arrow per order with its result,
//! and a legend whose counts are the position's.
//!
//! These tests draw on stand-in shapes (a small square round each space's `at=`), so
//! that they test the drawing and not the geography; the maps of the built-in
//! variants are tested in tests/maps.rs.

use std::path::Path;

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::builtin;
use chancery_engine::json::parse_phase_code;
use chancery_engine::parse::{parse_named_order, parse_order_line};
use chancery_engine::variant_file::load_variant;
use chancery_engine::{Adjudication, GameState, Location, Order, Unit, UnitKind, Variant};
use chancery_geo::{Frame, Shapes, SpaceShape};
use chancery_render::{legend, render_orders, render_with, Labels, MapGeometry, RenderError, RenderOptions};
use geo::{LineString, MultiPolygon, Polygon};

fn standard() -> Variant {
    builtin("standard").unwrap().unwrap()
}

fn variant_file(name: &str) -> Option<Variant> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants").join(name);
    let text = std::fs::read_to_string(&path).ok()?;
    Some(load_variant(name, &text).unwrap())
}

/// A position: `units` as ("France", 'A', "bur"), centres owned as at the start
/// unless `owners` is given.
fn position(v: &Variant, phase: &str, units: &[(&str, char, &str)], owners: Option<&[(&str, &str)]>) -> GameState {
    let mut s = GameState::empty(v, parse_phase_code(phase).unwrap());
    for &(power, kind, at) in units {
        let (_, order) = parse_order_line(v, at).unwrap();
        s.units.push(Unit {
            power: v.find_power(power).unwrap(),
            kind: if kind == 'A' { UnitKind::Army } else { UnitKind::Fleet },
            location: order.unit.location,
        });
    }
    if let Some(owners) = owners {
        s.owners = vec![None; v.provinces.len()];
        for &(power, at) in owners {
            s.owners[v.find_province(at).unwrap() as usize] = Some(v.find_power(power).unwrap());
        }
    }
    s
}

fn orders(v: &Variant, lines: &[&str]) -> Vec<Order> {
    lines.iter().map(|l| parse_named_order(v, l).unwrap()).collect()
}

/// A square of 0.6° round each space's `at=`: shapes that do not touch, enough to
/// test where markers and arrows go.
fn squares(v: &Variant) -> Shapes {
    let h = 0.3;
    let spaces: Vec<SpaceShape> = v
        .provinces
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (lat, lon) = p.at.expect("every space of the built-in variants has at=");
            let ring = LineString::from(vec![
                (lon - h, lat - h),
                (lon + h, lat - h),
                (lon + h, lat + h),
                (lon - h, lat + h),
                (lon - h, lat - h),
            ]);
            SpaceShape {
                province: i as u16,
                geometry: MultiPolygon(vec![Polygon::new(ring, vec![])]),
            }
        })
        .collect();
    let lats = v.provinces.iter().filter_map(|p| p.at).map(|a| a.0);
    let lons = v.provinces.iter().filter_map(|p| p.at).map(|a| a.1);
    let (s, n) = lats.fold((90.0f64, -90.0f64), |(a, b), x| (a.min(x), b.max(x)));
    let (w, e) = lons.fold((180.0f64, -180.0f64), |(a, b), x| (a.min(x), b.max(x)));
    Shapes {
        frame: Frame {
            west: w - 1.0,
            south: s - 1.0,
            east: e + 1.0,
            north: n + 1.0,
        },
        spaces,
        crossings: Vec::new(),
        outside: MultiPolygon(Vec::new()),
    }
}

fn geometry(v: &Variant) -> MapGeometry {
    MapGeometry::from_shapes(v, &squares(v)).unwrap()
}

fn render(
    v: &Variant,
    s: &GameState,
    adj: Option<&Adjudication>,
    options: &RenderOptions,
) -> Result<String, RenderError> {
    render_with(&geometry(v), v, s, adj, options)
}

fn draw(v: &Variant, s: &GameState, adj: Option<&Adjudication>) -> String {
    render(v, s, adj, &RenderOptions::default()).unwrap()
}

/// Elements whose `class` attribute holds every one of `classes`.
fn count(doc: &roxmltree::Document, classes: &[&str]) -> usize {
    doc.descendants()
        .filter(|n| {
            let class = n.attribute("class").unwrap_or("");
            classes.iter().all(|c| class.split(' ').any(|x| x == *c))
        })
        .count()
}

/// (centres, units) of a power in the legend.
fn counts(v: &Variant, s: &GameState, power: &str) -> (usize, usize) {
    let l = legend(v, s);
    let p = l
        .groups
        .iter()
        .flat_map(|g| &g.powers)
        .find(|p| p.name == power)
        .unwrap_or_else(|| panic!("{power} is not in the legend"));
    (p.centres, p.units)
}

#[test]
fn the_starting_map_has_a_region_per_space_and_a_marker_per_unit_and_centre() {
    let v = standard();
    let svg = draw(&v, &GameState::initial(&v), None);
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // Standard board: 75 spaces, 34 supply centres, 22 starting units (rulebook).
    assert_eq!(count(&doc, &["space"]), 75);
    let mut spaces: Vec<&str> = doc
        .descendants()
        .filter(|n| count_class(n, "space"))
        .map(|n| n.attribute("data-space").unwrap())
        .collect();
    spaces.sort_unstable();
    spaces.dedup();
    assert_eq!(spaces.len(), 75, "each space is drawn once");
    assert_eq!(count(&doc, &["centre"]), 34);
    assert_eq!(count(&doc, &["unit"]), 22);
    // Fleets at the start: England 2, Russia 2, the other five powers 1 each.
    assert_eq!(count(&doc, &["unit", "fleet"]), 9);
    assert_eq!(count(&doc, &["unit", "army"]), 13);
}

fn count_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class").unwrap_or("").split(' ').any(|c| c == class)
}

#[test]
fn the_legend_counts_each_powers_centres_and_units() {
    let v = standard();
    let start = GameState::initial(&v);
    // Russia starts with four home centres and four units, the others with three.
    assert_eq!(counts(&v, &start, "Russia"), (4, 4));
    assert_eq!(counts(&v, &start, "England"), (3, 3));
    assert_eq!(legend(&v, &start).neutral_centres, 12);
    // The key's pictures are SVG a page can put inline.
    for k in &legend(&v, &start).key {
        roxmltree::Document::parse(&k.symbol).unwrap_or_else(|e| panic!("{}: {e}", k.text));
    }
    // The panel of a standalone picture shows the same counts.
    let options = RenderOptions {
        legend: true,
        ..RenderOptions::default()
    };
    let text = render(&v, &start, None, &options).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let russia = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("legend-power") && n.attribute("data-power") == Some("Russia"))
        .unwrap();
    assert_eq!(russia.attribute("data-centres"), Some("4"));
    // Without the panel the map has the whole picture.
    let plain = draw(&v, &start, None);
    assert!(!plain.contains("legend-power"));

    // After a change of hands the counts follow the position, not the variant.
    let s = position(
        &v,
        "F1901M",
        &[("England", 'F', "nwy"), ("England", 'A', "lon")],
        Some(&[
            ("England", "lon"),
            ("England", "nwy"),
            ("England", "edi"),
            ("England", "lvp"),
        ]),
    );
    assert_eq!(counts(&v, &s, "England"), (4, 2));
    assert_eq!(counts(&v, &s, "France"), (0, 0));
}

#[test]
fn orders_are_drawn_as_arrows_with_their_results() {
    let v = standard();
    let s = GameState::initial(&v);
    let o = orders(
        &v,
        &[
            "France: A par - bur",
            "France: A mar S A par - bur",
            "France: F bre - mao",
            "Germany: A mun - bur",
            "Russia: A war - gal",
            "Austria: A vie - gal",
            "England: F lon - nth",
        ],
    );
    let adj = adjudicate(&v, &s, &o);
    let text = draw(&v, &s, Some(&adj));
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["order", "move"]), 6);
    assert_eq!(count(&doc, &["order", "support"]), 1);
    // Paris with support beats Munich (2 against 1); Warsaw and Vienna bounce in
    // Galicia (rulebook: equal strength, neither moves).
    assert_eq!(count(&doc, &["order", "move", "failed"]), 3);
    assert_eq!(count(&doc, &["order", "support", "succeeded"]), 1);
    assert_eq!(
        count(&doc, &["fail-cross"]),
        3 * 2,
        "each failed order is crossed (halo and cross)"
    );
    let failed: Vec<&str> = doc
        .descendants()
        .filter(|n| count_class(n, "failed"))
        .map(|n| n.attribute("data-unit").unwrap())
        .collect();
    assert!(failed.contains(&"A mun") && failed.contains(&"A war") && failed.contains(&"A vie"));
}

#[test]
fn a_convoy_is_drawn_from_the_army_through_the_fleet() {
    let v = standard();
    let s = position(&v, "S1901M", &[("England", 'A', "lon"), ("England", 'F', "eng")], None);
    let o = orders(&v, &["England: A lon - bel", "England: F eng C A lon - bel"]);
    let adj = adjudicate(&v, &s, &o);
    let text = draw(&v, &s, Some(&adj));
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["order", "convoy", "succeeded"]), 1);
    assert_eq!(count(&doc, &["order", "move", "succeeded"]), 1);
}

#[test]
fn dislodged_units_are_marked_then_set_aside_and_retreat_with_an_arrow() {
    let v = standard();
    let s = position(
        &v,
        "S1901M",
        &[("France", 'A', "bur"), ("Germany", 'A', "mun"), ("Germany", 'A', "ruh")],
        None,
    );
    let o = orders(&v, &["Germany: A mun - bur", "Germany: A ruh S A mun - bur"]);
    let adj = adjudicate(&v, &s, &o);
    let text = draw(&v, &s, Some(&adj));
    let doc = roxmltree::Document::parse(&text).unwrap();
    // Two against one: the army in Burgundy is dislodged (rulebook, support).
    assert_eq!(count(&doc, &["unit", "dislodged-now"]), 1);

    let retreat_state = adj.next.clone();
    assert_eq!(retreat_state.dislodged.len(), 1, "the engine moves to a retreat phase");
    let text = draw(&v, &retreat_state, None);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["unit", "dislodged"]), 1);
    assert_eq!(count(&doc, &["unit"]), 3);

    let retreat = adjudicate(&v, &retreat_state, &orders(&v, &["France: A bur R par"]));
    let text = draw(&v, &retreat_state, Some(&retreat));
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["order", "retreat", "succeeded"]), 1);

    let disband = adjudicate(&v, &retreat_state, &orders(&v, &["France: A bur D"]));
    let text = draw(&v, &retreat_state, Some(&disband));
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["removed"]), 1);
}

#[test]
fn builds_and_removals_are_marked() {
    let v = standard();
    // France holds five centres with two units: builds in its vacant home centres.
    // Germany holds two centres with three units: one must go.
    let s = position(
        &v,
        "W1901A",
        &[
            ("France", 'A', "spa"),
            ("France", 'A', "por"),
            ("Germany", 'A', "ber"),
            ("Germany", 'A', "mun"),
            ("Germany", 'F', "hol"),
        ],
        Some(&[
            ("France", "par"),
            ("France", "mar"),
            ("France", "bre"),
            ("France", "spa"),
            ("France", "por"),
            ("Germany", "ber"),
            ("Germany", "mun"),
        ]),
    );
    let o = orders(
        &v,
        &["France: Build A par", "France: Build F bre", "Germany: Remove F hol"],
    );
    let adj = adjudicate(&v, &s, &o);
    let text = draw(&v, &s, Some(&adj));
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["unit", "built"]), 2);
    assert_eq!(count(&doc, &["removed"]), 1);
    // France's third build was not ordered, so it is waived (DATC 4.D.7): marked on the
    // one home centre left free, Marseilles.
    let waived: Vec<_> = doc
        .descendants()
        .filter(|n| count_class(n, "waived"))
        .map(|n| n.attribute("data-space").unwrap_or_default().to_string())
        .collect();
    assert_eq!(waived, ["Marseilles"]);

    // Two waived by order: both free home centres are marked.
    let o = orders(&v, &["France: Build A par", "France: Waive", "France: Waive"]);
    let adj = adjudicate(&v, &s, &o);
    let text = draw(&v, &s, Some(&adj));
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["waived"]), 2);
    assert_eq!(count(&doc, &["unit", "built"]), 1);
}

#[test]
fn several_units_in_one_space_stand_side_by_side_with_a_count() {
    // Original 1958 rules allow stacks; the renderer must show every unit.
    let v = standard();
    let s = position(
        &v,
        "S1901M",
        &[("France", 'A', "bur"), ("France", 'A', "bur"), ("France", 'A', "bur")],
        None,
    );
    let text = draw(&v, &s, None);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["unit"]), 3);
    let badge = doc.descendants().find(|n| count_class(n, "count")).unwrap();
    assert_eq!(badge.text(), Some("3"));
    let xs: Vec<f64> = doc
        .descendants()
        .filter(|n| count_class(n, "unit"))
        .map(|g| {
            let c = g
                .descendants()
                .find(|n| n.tag_name().name() == "circle" && n.attribute("r") == Some("10.5"))
                .unwrap();
            c.attribute("cx").unwrap().parse().unwrap()
        })
        .collect();
    assert!(xs[0] < xs[1] && xs[1] < xs[2], "side by side: {xs:?}");
}

/// DP rule 11: a power in civil disorder keeps its colours but its units are
/// independent minors, ringed like any minor's.
#[test]
fn units_of_a_power_in_civil_disorder_are_ringed_as_minors() {
    if let Some(v) = variant_file("1936.var") {
        let s = GameState::initial(&v);
        let rings = |s: &GameState| {
            let text = draw(&v, s, None);
            let doc = roxmltree::Document::parse(&text).unwrap();
            count(&doc, &["minor-ring"])
        };
        let italy = v.find_power("Italy").unwrap();
        let after = chancery_engine::dp::civil_disorder(&v, &s, italy);
        let italian = after.units.iter().filter(|u| u.power == italy).count();
        assert!(italian > 0);
        // Each Italian army on the map is ringed now.
        assert_eq!(rings(&after), rings(&s) + italian);
    }
}

#[test]
fn minor_powers_and_factions_are_recognisable() {
    if let Some(v) = variant_file("1648.var") {
        let s = GameState::initial(&v);
        let minor_units = s
            .units
            .iter()
            .filter(|u| v.power(u.power).kind == chancery_engine::variant::PowerKind::Minor)
            .count();
        let text = draw(&v, &s, None);
        let doc = roxmltree::Document::parse(&text).unwrap();
        // The map rings each minor unit, and the legend's marker of each minor power
        // is ringed the same way.
        assert!(minor_units > 0);
        assert_eq!(count(&doc, &["minor-ring"]), minor_units);
        let l = legend(&v, &s);
        let minors = l.groups.iter().find(|g| g.heading == "Minor powers").unwrap();
        assert!(minors.powers.iter().all(|p| p.marker.contains("minor-ring")));
    }
    if let Some(v) = variant_file("1936.var") {
        let faction = (0..v.powers.len())
            .find(|&p| v.powers[p].kind == chancery_engine::variant::PowerKind::Faction)
            .expect("1936 has factions");
        let mut s = GameState::initial(&v);
        let mad = v.find_province("mad").unwrap_or(0);
        s.units.push(Unit {
            power: faction as u8,
            kind: UnitKind::Army,
            location: Location::province(mad),
        });
        let text = draw(&v, &s, None);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let fill = format!("url(#faction-{faction})");
        assert!(doc.descendants().any(|n| n.attribute("fill") == Some(fill.as_str())));
    }
}

#[test]
fn every_variant_file_draws_as_well_formed_svg() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    let mut drawn = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "var") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let v = variant_file(&name).unwrap();
        let s = GameState::initial(&v);
        let g = geometry(&v);
        for labels in [Labels::Abbreviations, Labels::Names, Labels::None] {
            let options = RenderOptions {
                labels,
                ..RenderOptions::default()
            };
            let text = render_with(&g, &v, &s, None, &options).unwrap();
            let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(count(&doc, &["space"]), v.provinces.len(), "{name}");
            assert_eq!(count(&doc, &["unit"]), s.units.len() + s.carried.len(), "{name}");
            assert_eq!(count(&doc, &["centre"]), v.centre_count(), "{name}");
        }
        drawn += 1;
    }
    assert!(drawn >= 1);
}

#[test]
fn text_from_the_variant_is_escaped() {
    let mut v = standard();
    v.title = "Tea & <Biscuits> \"deluxe\"".into();
    v.provinces[0].name = "A<B>&C".into();
    let text = draw(&v, &GameState::initial(&v), None);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let title = doc.descendants().find(|n| count_class(n, "title")).unwrap();
    assert!(title.text().unwrap().starts_with("Tea & <Biscuits>"));
}

#[test]
fn a_position_that_does_not_fit_the_variant_is_an_error_not_a_panic() {
    let v = standard();
    let mut s = GameState::initial(&v);
    s.owners.pop();
    assert!(matches!(
        render(&v, &s, None, &RenderOptions::default()),
        Err(RenderError::BadPosition(_))
    ));
    let mut s = GameState::initial(&v);
    s.units[0].location = Location::province(9999);
    let err = render(&v, &s, None, &RenderOptions::default()).unwrap_err();
    assert!(err.to_string().contains("9999"), "{err}");
    let mut s = GameState::initial(&v);
    s.units[0].power = 200;
    assert!(render(&v, &s, None, &RenderOptions::default()).is_err());
}

#[test]
fn a_geometry_is_reused_only_for_its_own_variant() {
    let v = standard();
    let g = geometry(&v);
    let s = GameState::initial(&v);
    let once = render_with(&g, &v, &s, None, &RenderOptions::default()).unwrap();
    assert_eq!(
        once,
        render(&v, &s, None, &RenderOptions::default()).unwrap(),
        "the drawing is deterministic"
    );
    if let Some(other) = variant_file("1936.var") {
        let err = render_with(&g, &other, &GameState::initial(&other), None, &RenderOptions::default());
        assert!(matches!(err, Err(RenderError::WrongVariant { .. })));
    }
}

#[test]
fn an_army_aboard_a_fleet_rides_on_it_and_counts_as_a_unit() {
    // Original 1958 rule 6: an army may be carried by a fleet.
    let v = standard();
    let mut s = position(&v, "F1901M", &[("England", 'F', "nth")], None);
    let fleet = s.units[0];
    s.carried.push(chancery_engine::state::Carried {
        army: fleet.power,
        fleet,
        carrier_dislodged: false,
    });
    let text = draw(&v, &s, None);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["unit", "carried"]), 1);
    assert_eq!(count(&doc, &["unit"]), 2);
    assert_eq!(counts(&v, &s, "England").1, 2);
}

/// The overlay of orders given and not yet adjudicated: one arrow per order of the
/// power, none marked failed (nothing is judged yet), in the board's coordinates.
fn pending(v: &Variant, s: &GameState, lines: &[&str]) -> String {
    let text = render_orders(&geometry(v), v, s, &orders(v, lines)).unwrap();
    // A fragment: wrapped to be read as one document.
    format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{text}</svg>"#)
}

#[test]
fn orders_given_are_drawn_before_they_are_judged() {
    let v = standard();
    let s = GameState::initial(&v);
    let text = pending(
        &v,
        &s,
        &[
            "France: A par - bur",
            "France: A mar S A par - bur",
            "France: F bre C A par - bur",
        ],
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["orders", "pending"]), 1);
    assert_eq!(count(&doc, &["order", "move", "succeeded"]), 1);
    assert_eq!(count(&doc, &["order", "support"]), 1);
    assert_eq!(count(&doc, &["order", "convoy"]), 1);
    assert_eq!(count(&doc, &["failed"]), 0, "nothing has failed before judging");
    assert_eq!(count(&doc, &["unit"]), 0, "the units are the map's own");
    let units: Vec<&str> = doc
        .descendants()
        .filter(|n| count_class(n, "order"))
        .map(|n| n.attribute("data-unit").unwrap())
        .collect();
    assert_eq!(
        units,
        ["A mar", "F bre", "A par"],
        "supports and convoys under the moves"
    );
}

#[test]
fn builds_removals_and_retreats_given_are_drawn() {
    let v = standard();
    let s = position(
        &v,
        "W1901A",
        &[("France", 'A', "spa"), ("Germany", 'A', "ber"), ("Germany", 'F', "hol")],
        Some(&[("France", "par"), ("France", "spa"), ("Germany", "ber")]),
    );
    let text = pending(
        &v,
        &s,
        &["France: Build A par", "Germany: Remove F hol", "France: Waive"],
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["built", "pending"]), 1);
    assert_eq!(count(&doc, &["removed"]), 1);
    // France owns Paris and Spain (not a home) with no unit in Paris: the waive's mark
    // goes on Paris only if no build takes it; here the build does, so there is none.
    assert_eq!(count(&doc, &["waived", "pending"]), 0);
    let text = pending(&v, &s, &["France: Waive"]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["waived", "pending"]), 1, "the waive marked on Paris");

    let s = position(
        &v,
        "S1901M",
        &[("France", 'A', "bur"), ("Germany", 'A', "mun"), ("Germany", 'A', "ruh")],
        None,
    );
    let adj = adjudicate(
        &v,
        &s,
        &orders(&v, &["Germany: A mun - bur", "Germany: A ruh S A mun - bur"]),
    );
    let text = pending(&v, &adj.next, &["France: A bur R par"]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["order", "retreat"]), 1);
    let text = pending(&v, &adj.next, &["France: A bur D"]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(count(&doc, &["removed"]), 1);
}
