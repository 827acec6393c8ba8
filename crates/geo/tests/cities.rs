//! Real cities lie inside the spaces named for them: for each built-in variant
//! with a table `tests/maps/VARIANT.cities`, every listed city is inside its space's
//! committed shape. The tables give real coordinates; the shapes come from the anchors and
//! shaping points of the variant file, so a moved anchor that loses a city fails here.

use std::path::Path;

use chancery_engine::builtin::builtin;
use chancery_geo::{builtin_shapes, Shapes};
use geo::{Intersects, Point};

/// A table's cities: (line number, abbreviation, latitude, longitude, name).
fn read_table(text: &str) -> Vec<(usize, String, f64, f64, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.splitn(3, char::is_whitespace);
        let abbr = words.next().unwrap_or_default();
        let at = words.next().unwrap_or_else(|| panic!("line {}: no coordinates", i + 1));
        let name = words.next().unwrap_or_else(|| panic!("line {}: no name", i + 1));
        let (lat, lon) = at
            .split_once(',')
            .and_then(|(a, b)| Some((a.parse::<f64>().ok()?, b.parse::<f64>().ok()?)))
            .unwrap_or_else(|| panic!("line {}: `{at}` is not LAT,LON", i + 1));
        out.push((i + 1, abbr.to_string(), lat, lon, name.trim().to_string()));
    }
    out
}

#[test]
fn real_cities_lie_in_the_spaces_named_for_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/maps");
    let mut tables = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/maps") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("cities") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let variant = builtin(&name)
            .unwrap_or_else(|| panic!("{name}.cities: no built-in variant {name}"))
            .unwrap();
        let text = builtin_shapes(&name).unwrap_or_else(|| panic!("{name} has no shapes"));
        let shapes = Shapes::from_geojson(&variant, text).unwrap();
        let cities = read_table(&std::fs::read_to_string(&path).unwrap());
        // At least 25 real towns per variant, enough that a wrongly placed space shows.
        assert!(
            cities.len() >= 25,
            "{name}.cities lists {} cities, fewer than 25",
            cities.len()
        );
        let mut outside = Vec::new();
        for (line, abbr, lat, lon, city) in &cities {
            let p = variant
                .find_province(abbr)
                .unwrap_or_else(|| panic!("{name}.cities line {line}: no space `{abbr}`"));
            let shape = shapes.space(p).unwrap_or_else(|| panic!("{name}: {abbr} has no shape"));
            if !shape.geometry.intersects(&Point::new(*lon, *lat)) {
                outside.push(format!("{city} ({lat},{lon}) is not in {abbr}"));
            }
        }
        if !outside.is_empty() {
            failures.push(format!("{name}: {}", outside.join("; ")));
        }
        tables += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(tables >= 1, "no tests/maps/*.cities table");
}
