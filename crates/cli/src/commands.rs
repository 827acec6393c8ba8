//! The command-line verbs that read files and print: cases, map, lint.

use std::collections::HashMap;
use std::process::ExitCode;

use crate::output::{say, Failure};
use chancery_cases::{parse_cases, run_case};
use chancery_engine::builtin::{builtin, builtin_names};
use chancery_engine::lint::{self as map_lint, counts, Severity};
use chancery_engine::variant_file::load_variant;
use chancery_engine::{Location, Variant};
use serde_json::json;

/// A built-in variant by name, or a `.var` file by path.
pub fn load(name_or_path: &str) -> Result<Variant, String> {
    if let Some(result) = builtin(name_or_path) {
        return result.map_err(|e| e.to_string());
    }
    match std::fs::read_to_string(name_or_path) {
        Ok(text) => load_variant(name_or_path, &text).map_err(|e| e.to_string()),
        Err(e) => {
            let names: Vec<&str> = builtin_names().collect();
            Err(format!(
                "`{name_or_path}` is neither a built-in variant ({}) nor a readable file: {e}",
                names.join(", ")
            ))
        }
    }
}

pub fn cases(files: &[String], verbose: bool, known: Option<&str>) -> Result<ExitCode, Failure> {
    let known: Vec<String> = match known {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("{path}: {e}"))?
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
            .filter(|l| !l.is_empty())
            .collect(),
        None => Vec::new(),
    };
    let mut variants: HashMap<String, Result<Variant, String>> = HashMap::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let cases = parse_cases(&text).map_err(|e| format!("{file}: {e}"))?;
        for case in &cases {
            let key = case.variant.to_ascii_lowercase();
            let variant = variants.entry(key).or_insert_with(|| {
                // A relative variant path is read beside the case file.
                let here = std::path::Path::new(file).parent().map(|d| d.join(&case.variant));
                match (builtin(&case.variant), here) {
                    (Some(r), _) => r.map_err(|e| e.to_string()),
                    (None, Some(p)) if p.exists() => load(&p.to_string_lossy()),
                    _ => load(&case.variant),
                }
            });
            match variant {
                Ok(v) => {
                    let report = run_case(case, v);
                    if report.passed() {
                        passed += 1;
                        if verbose {
                            say!("ok   {file}:{} {}", report.line, report.name);
                        }
                    } else {
                        let label = if known.contains(&report.name) {
                            "known"
                        } else {
                            failed += 1;
                            "FAIL"
                        };
                        let differences = report.differences.join("; ");
                        say!("{label} {file}:{} {}: {differences}", report.line, report.name);
                    }
                }
                Err(e) => {
                    failed += 1;
                    say!("FAIL {file}:{} {}: variant: {e}", case.line, case.name);
                }
            }
        }
    }
    say!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub fn map_json(v: &Variant) -> serde_json::Value {
    let provinces: Vec<_> = v
        .provinces
        .iter()
        .map(|p| {
            let mut o = json!({
                "abbr": p.abbr.to_ascii_lowercase(),
                "name": p.name,
                "terrain": p.terrain.as_str(),
                "sc": p.sc,
                "home": p.homes.first().map(|h| v.power(*h).name.clone()),
                "coasts": p.coasts,
            });
            if p.homes.len() > 1 {
                o["homes"] = json!(p.homes.iter().map(|h| v.power(*h).name.clone()).collect::<Vec<_>>());
            }
            if let Some(owner) = p.owner {
                o["owner"] = json!(v.power(owner).name);
            }
            if let Some((lat, lon)) = p.at {
                o["at"] = json!([lat, lon]);
            }
            if !p.aliases.is_empty() {
                o["aliases"] = json!(p.aliases);
            }
            o
        })
        .collect();
    let mut army = Vec::new();
    for (p, list) in v.army_adjacency.iter().enumerate() {
        for &q in list {
            let (a, b) = (
                v.provinces[p].abbr.to_ascii_lowercase(),
                v.provinces[q as usize].abbr.to_ascii_lowercase(),
            );
            if (p as u16) < q || !v.army_adjacency[q as usize].contains(&(p as u16)) {
                army.push(json!([a, b]));
            }
        }
    }
    let mut fleet = Vec::new();
    for (p, prov) in v.provinces.iter().enumerate() {
        for c in 0..=prov.coasts.len() as u8 {
            let from = Location::new(p as u16, c);
            for &to in v.fleet_neighbours(from) {
                let reverse = v.fleet_neighbours(to).contains(&from);
                if (from < to) || !reverse {
                    fleet.push(json!([v.location_name(from), v.location_name(to)]));
                }
            }
        }
    }
    let powers: Vec<_> = v
        .powers
        .iter()
        .map(|p| json!({"name": p.name, "kind": format!("{:?}", p.kind).to_lowercase(), "colour": p.colour}))
        .collect();
    json!({
        "variant": v.id,
        "title": v.title,
        "powers": powers,
        "provinces": provinces,
        "army_adjacency": army,
        "fleet_adjacency": fleet,
    })
}

pub fn map(name: &str, as_json: bool, geojson: bool) -> Result<ExitCode, Failure> {
    let v = load(name)?;
    if geojson {
        // The committed shapes, or shaped now from the anchors.
        let shapes = match shapes_text(name, None)? {
            Some(text) => chancery_geo::Shapes::from_geojson(&v, &text)?,
            None => chancery_geo::shape(&v, &chancery_geo::Options::default()).map_err(|e| e.to_string())?,
        };
        // For a reader of the geography: no sea over land (the server's map.geojson too).
        say!(raw "{}", shapes.with_seas_cut(&v).to_geojson(&v));
    } else if as_json {
        say!(
            "{}",
            serde_json::to_string_pretty(&map_json(&v)).map_err(|e| e.to_string())?
        );
    } else {
        for (i, p) in v.provinces.iter().enumerate() {
            let nb: Vec<String> = v.army_adjacency[i]
                .iter()
                .map(|q| v.provinces[*q as usize].abbr.clone())
                .collect();
            say!(
                "{:<5} {:<28} {:<10} army: {}",
                p.abbr,
                p.name,
                p.terrain.as_str(),
                nb.join(" ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The shapes to check or print for a variant: a given file, else the committed shapes
/// of a built-in variant, else `NAME.shapes.geojson` beside a `.var` file.
pub fn shapes_text(name: &str, shapes: Option<&str>) -> Result<Option<String>, String> {
    if let Some(path) = shapes {
        return std::fs::read_to_string(path)
            .map(Some)
            .map_err(|e| format!("{path}: {e}"));
    }
    if let Some(text) = chancery_geo::builtin_shapes(name) {
        return Ok(Some(text.to_string()));
    }
    let beside = name.strip_suffix(".var").map(|stem| format!("{stem}.shapes.geojson"));
    Ok(beside.and_then(|path| std::fs::read_to_string(path).ok()))
}

pub fn lint(name: &str, shapes: Option<&str>) -> Result<ExitCode, Failure> {
    let v = match load(name) {
        Ok(v) => v,
        Err(e) => {
            say!("error: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let findings = map_lint::lint(&v);
    for f in &findings {
        let label = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        say!("{label}: {}", f.message);
    }
    let c = counts(&v);
    say!(
        "{}: {} spaces ({} land, {} coastal, {} sea, {} impassable), {} supply centres",
        v.id,
        c.land + c.coast + c.sea + c.impassable,
        c.land,
        c.coast,
        c.sea,
        c.impassable,
        c.centres
    );
    for (power, units, centres) in &c.units {
        say!("  {power}: {units} units, {centres} centres");
    }
    let mut errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
    let mut warnings = findings.len() - errors;
    match shapes_text(name, shapes)? {
        Some(text) => match chancery_geo::Shapes::from_geojson(&v, &text) {
            Ok(shapes) => {
                let report = chancery_geo::check(&v, &shapes);
                say!("drawing: {}", report.to_string().trim_end().replace('\n', "\n  "));
                for e in report.errors() {
                    say!("error: drawing: {e}");
                }
                for w in report.warnings() {
                    say!("warning: drawing: {w}");
                }
                errors += report.errors().len();
                warnings += report.warnings().len();
            }
            Err(e) => {
                say!("error: shapes: {e}");
                errors += 1;
            }
        },
        None => say!("drawing: no shapes to check"),
    }
    say!("{errors} errors, {warnings} warnings");
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
