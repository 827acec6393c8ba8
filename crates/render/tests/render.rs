//! The drawn map against the position and results it shows: one region per space,
//! one marker per unit and per supply centre, an arrow per order with its result,
//! and a legend whose counts are the position's.

use std::path::Path;

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::builtin;
use chancery_engine::json::parse_phase_code;
use chancery_engine::parse::{parse_named_order, parse_order_line};
use chancery_engine::variant_file::load_variant;
use chancery_engine::{Adjudication, GameState, Location, Order, Unit, UnitKind, Variant};
use chancery_render::{render_svg, render_with, Labels, MapGeometry, RenderError, RenderOptions};

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

fn draw(v: &Variant, s: &GameState, adj: Option<&Adjudication>) -> String {
    render_svg(v, s, adj, &RenderOptions::default()).unwrap()
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

fn legend(doc: &roxmltree::Document, power: &str) -> (usize, usize) {
    let node = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("legend-power") && n.attribute("data-power") == Some(power))
        .unwrap_or_else(|| panic!("{power} is not in the legend"));
    let number = |a: &str| node.attribute(a).unwrap().parse().unwrap();
    (number("data-centres"), number("data-units"))
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
    let doc_text = draw(&v, &GameState::initial(&v), None);
    let doc = roxmltree::Document::parse(&doc_text).unwrap();
    // Russia starts with four home centres and four units, the others with three.
    assert_eq!(legend(&doc, "Russia"), (4, 4));
    assert_eq!(legend(&doc, "England"), (3, 3));
    let neutral = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("legend-neutral"))
        .unwrap();
    assert_eq!(neutral.attribute("data-centres"), Some("12"));

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
    let text = draw(&v, &s, None);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(legend(&doc, "England"), (4, 2));
    assert_eq!(legend(&doc, "France"), (0, 0));
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
                .find(|n| n.tag_name().name() == "circle" && n.attribute("r") == Some("9.5"))
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
        // Each Italian army on the map, and Italy's marker in the legend.
        assert_eq!(rings(&after), rings(&s) + italian + 1);
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
        // The map rings each minor unit; the legend rings each listed minor power.
        let listed = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("legend-power"))
            .filter(|n| {
                let p = v.find_power(n.attribute("data-power").unwrap()).unwrap();
                v.power(p).kind == chancery_engine::variant::PowerKind::Minor
            })
            .count();
        assert!(minor_units > 0);
        assert_eq!(count(&doc, &["minor-ring"]), minor_units + listed, "map and legend");
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
        let g = MapGeometry::new(&v).unwrap();
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
        render_svg(&v, &s, None, &RenderOptions::default()),
        Err(RenderError::BadPosition(_))
    ));
    let mut s = GameState::initial(&v);
    s.units[0].location = Location::province(9999);
    let err = render_svg(&v, &s, None, &RenderOptions::default()).unwrap_err();
    assert!(err.to_string().contains("9999"), "{err}");
    let mut s = GameState::initial(&v);
    s.units[0].power = 200;
    assert!(render_svg(&v, &s, None, &RenderOptions::default()).is_err());
}

#[test]
fn a_geometry_is_reused_only_for_its_own_variant() {
    let v = standard();
    let g = MapGeometry::new(&v).unwrap();
    let s = GameState::initial(&v);
    let once = render_with(&g, &v, &s, None, &RenderOptions::default()).unwrap();
    assert_eq!(
        once,
        render_svg(&v, &s, None, &RenderOptions::default()).unwrap(),
        "the layout is deterministic"
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
    assert_eq!(legend(&doc, "England").1, 2);
}
