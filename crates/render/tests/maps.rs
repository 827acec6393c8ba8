//! The built-in variants drawn on their real geography: every marker inside its space,
//! sizes a player can read at 1400 pixels wide (names at least 11 px and
//! units at least 20 px in central Europe on 1648 and 1936, the most crowded part), names kept apart,
//! and a drawing that belongs to the variant's content, not its name.

use std::sync::Arc;

use chancery_engine::builtin::{builtin, builtin_text};
use chancery_engine::variant_file::load_variant;
use chancery_engine::{GameState, Location, Variant};
use chancery_render::{render_with, MapGeometry, RenderOptions, WIDTH};

fn variant(name: &str) -> Variant {
    builtin(name).unwrap().unwrap()
}

const ALL: [&str; 4] = ["standard", "1936", "1648", "original-1958"];

fn doc_of(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).expect("well-formed SVG")
}

fn has_class(n: &roxmltree::Node, class: &str) -> bool {
    n.attribute("class").unwrap_or("").split(' ').any(|c| c == class)
}

fn num(n: &roxmltree::Node, attr: &str) -> f64 {
    n.attribute(attr).unwrap().parse().unwrap()
}

#[test]
fn every_unit_centre_and_coast_lies_inside_its_space() {
    for name in ALL {
        let v = variant(name);
        let g = MapGeometry::cached(&v).unwrap();
        for (i, p) in v.provinces.iter().enumerate() {
            assert!(g.contains(i, g.anchor(i)), "{name}: {}'s unit is outside it", p.abbr);
            for c in 1..=p.coasts.len() as u8 {
                let at = g.location_point(Location::new(i as u16, c));
                assert!(g.contains(i, at), "{name}: {}'s coast {c} is outside it", p.abbr);
            }
        }
    }
}

#[test]
fn a_fleet_on_a_split_coast_stands_on_that_coast() {
    // Standard: St Petersburg's north coast is on the Barents Sea, its south coast on
    // the Gulf of Bothnia; Spain's north coast faces the Bay of Biscay (Mid-Atlantic),
    // its south coast the Mediterranean; Bulgaria's east coast is on the Black Sea.
    let v = variant("standard");
    let g = MapGeometry::cached(&v).unwrap();
    let at = |abbr: &str, coast: &str| {
        let p = v.find_province(abbr).unwrap();
        g.location_point(Location::new(p, v.find_coast(p, coast).unwrap()))
    };
    assert!(at("stp", "nc").y < at("stp", "sc").y);
    assert!(at("spa", "nc").y < at("spa", "sc").y);
    assert!(at("bul", "ec").x > at("bul", "sc").x);
}

/// The start of `name` drawn as a page draws it.
fn start(name: &str) -> (Variant, String) {
    let v = variant(name);
    let g = MapGeometry::cached(&v).unwrap();
    let svg = render_with(&g, &v, &GameState::initial(&v), None, &RenderOptions::default()).unwrap();
    (v, svg)
}

/// Each land's outline is written once: the coastline under the land is a `<use>` of
/// the land's own path, every one of which names a shape of the same picture, every
/// land once; and the ids of a map with results differ from those of the map after
/// it, so that history's two maps on one page never share an id. What this saves is
/// held to a budget on the largest board: 1648's start under 290 KB (it was 365 KB
/// with every land's path written twice).
#[test]
fn each_outline_is_written_once() {
    for name in ALL {
        let (v, svg) = start(name);
        let doc = doc_of(&svg);
        let ids: std::collections::HashMap<&str, roxmltree::Node> = doc
            .descendants()
            .filter_map(|n| n.attribute("id").map(|id| (id, n)))
            .collect();
        let coastline = doc
            .descendants()
            .find(|n| has_class(n, "coastline"))
            .expect("a coastline");
        let mut drawn = Vec::new();
        for u in coastline.children().filter(|n| n.is_element()) {
            assert_eq!(
                u.tag_name().name(),
                "use",
                "{name}: the coastline only refers to shapes"
            );
            let href = u.attribute("href").expect("href").trim_start_matches('#');
            let shape = ids.get(href).unwrap_or_else(|| panic!("{name}: no shape {href}"));
            assert!(
                !shape.has_attribute("stroke"),
                "{name}: {href} would keep its own stroke"
            );
            if has_class(shape, "space") {
                drawn.push(shape.attribute("data-space").unwrap().to_string());
            }
        }
        let mut lands: Vec<String> = v
            .provinces
            .iter()
            .filter(|p| !p.is_sea())
            .map(|p| p.abbr.to_ascii_lowercase())
            .collect();
        lands.sort();
        drawn.sort();
        assert_eq!(drawn, lands, "{name}: every land's coast once");
        // No outline written twice (small marks, a fleet's hull, may repeat).
        let mut seen = std::collections::HashSet::new();
        for d in doc
            .descendants()
            .filter_map(|n| n.attribute("d"))
            .filter(|d| d.len() > 200)
        {
            assert!(seen.insert(d), "{name}: a shape written twice: {}…", &d[..60]);
        }
        if name == "1648" {
            assert!(svg.len() < 290_000, "1648's start is {} bytes", svg.len());
        }
    }
    // Before and after: the same board, told apart.
    let v = variant("standard");
    let g = MapGeometry::cached(&v).unwrap();
    let s = GameState::initial(&v);
    let adj = chancery_engine::adjudicate::adjudicate(&v, &s, &[]);
    let before = render_with(&g, &v, &s, Some(&adj), &RenderOptions::default()).unwrap();
    let after = render_with(&g, &v, &adj.next, None, &RenderOptions::default()).unwrap();
    let ids = |svg: &str| -> std::collections::HashSet<String> {
        doc_of(svg)
            .descendants()
            .filter_map(|n| n.attribute("id").map(String::from))
            .filter(|id| id.starts_with("map-"))
            .collect()
    };
    assert!(ids(&before).is_disjoint(&ids(&after)), "history's two maps share ids");
}

#[test]
fn names_and_units_are_big_enough_in_central_europe() {
    for name in ["1936", "1648"] {
        let (v, svg) = start(name);
        let doc = doc_of(&svg);
        let root = doc.root_element();
        // One user unit is one pixel when the map is shown 1400 pixels wide.
        assert_eq!(num(&root, "width"), WIDTH, "{name}");
        let view: Vec<f64> = root
            .attribute("viewBox")
            .unwrap()
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(view[2], WIDTH, "{name}");
        let labels = doc.descendants().find(|n| has_class(n, "labels")).unwrap();
        assert!(num(&labels, "font-size") >= 11.0, "{name}");
        let coasts = doc.descendants().filter(|n| has_class(n, "coast-label"));
        for c in coasts {
            assert!(num(&c, "font-size") >= 11.0, "{name}");
        }
        // Every army is a disc at least 20 px across, fleets wider still; Bohemia and
        // its neighbours are drawn at the same scale as the rest.
        let armies: Vec<f64> = doc
            .descendants()
            .filter(|n| has_class(n, "army"))
            .map(|g| {
                let c = g
                    .descendants()
                    .find(|n| n.tag_name().name() == "circle" && !has_class(n, "minor-ring"))
                    .unwrap();
                num(&c, "r") * 2.0
            })
            .collect();
        assert!(!armies.is_empty());
        assert!(armies.iter().all(|d| *d >= 20.0), "{name}: {armies:?}");
        assert!(v.find_province("boh").is_some(), "{name} has Bohemia");
    }
}

#[test]
fn names_do_not_cover_each_other() {
    // Each label's box (its width estimated from the font) against every other: few
    // may touch where spaces are tiny, none may sit on another.
    for name in ALL {
        let (_, svg) = start(name);
        let doc = doc_of(&svg);
        let font = 12.0;
        let boxes: Vec<(f64, f64, f64, f64)> = doc
            .descendants()
            .filter(|n| has_class(n, "label"))
            .map(|n| {
                let w = n.text().unwrap_or("").chars().count() as f64 * font * 0.6;
                let (x, y) = (num(&n, "x"), num(&n, "y"));
                (x - w / 2.0, y - font * 0.8, x + w / 2.0, y + font * 0.2)
            })
            .collect();
        let mut covered = 0;
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let w = a.2.min(b.2) - a.0.max(b.0);
                let h = a.3.min(b.3) - a.1.max(b.1);
                let smaller = ((a.2 - a.0) * (a.3 - a.1)).min((b.2 - b.0) * (b.3 - b.1));
                if w > 0.0 && h > 0.0 && w * h > smaller * 0.5 {
                    covered += 1;
                }
            }
        }
        assert_eq!(covered, 0, "{name}: {covered} names half covered by another");
    }
}

#[test]
fn an_upload_named_like_a_builtin_never_changes_the_builtins_drawing() {
    // The drawing is keyed by the variant's content. An upload that
    // says `variant standard` but moves Bohemia's anchor gets a drawing of its own.
    let standard = variant("standard");
    let before = MapGeometry::cached(&standard).unwrap();
    let (file, text) = builtin_text("standard").unwrap();
    let moved = text.replace("at=49.8,14.5", "at=49.6,15.2");
    assert_ne!(moved, text, "the test edits Bohemia's anchor");
    let upload = load_variant(file, &moved).unwrap();
    assert_eq!(upload.id, standard.id);
    let theirs = MapGeometry::cached(&upload).unwrap();
    assert!(!Arc::ptr_eq(&before, &theirs));
    let after = MapGeometry::cached(&standard).unwrap();
    assert!(
        Arc::ptr_eq(&before, &after),
        "the built-in drawing is the one made first"
    );
    // The same text loaded again is the same drawing.
    let again = load_variant(file, text).unwrap();
    assert!(Arc::ptr_eq(&before, &MapGeometry::cached(&again).unwrap()));
}
