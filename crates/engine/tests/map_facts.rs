//! Every fact a rule page states about a map (tests/maps/VARIANT.facts, written from
//! the fact sheets and, for Standard, the rulebook board) must hold in the variant
//! file (variants/VARIANT.var), and every variant file must pass `lint` without errors.

use std::path::{Path, PathBuf};

use chancery_engine::lint::{lint, Severity};
use chancery_engine::variant::{Location, Terrain, UnitKind, Variant};
use chancery_engine::variant_file::load_variant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(path: &Path) -> Variant {
    let text = std::fs::read_to_string(path).unwrap();
    load_variant(&path.display().to_string(), &text).unwrap_or_else(|e| panic!("{e}"))
}

/// Splits a facts line into words, keeping "quoted names" whole.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn location(v: &Variant, text: &str) -> Result<(u16, Option<u8>), String> {
    let (name, coast) = match text.split_once('/') {
        Some((n, c)) => (n, Some(c)),
        None => (text, None),
    };
    let p = v.find_province(name).ok_or_else(|| format!("no space `{name}`"))?;
    match coast {
        None => Ok((p, None)),
        Some(c) => v
            .find_coast(p, c)
            .map(|c| (p, Some(c)))
            .ok_or_else(|| format!("{name} has no coast {c}")),
    }
}

fn locations(v: &Variant, (p, coast): (u16, Option<u8>)) -> Vec<Location> {
    match coast {
        Some(c) => vec![Location::new(p, c)],
        None => (0..=v.province(p).coasts.len() as u8)
            .map(|c| Location::new(p, c))
            .collect(),
    }
}

fn fleet_adjacent(v: &Variant, a: (u16, Option<u8>), b: (u16, Option<u8>)) -> bool {
    locations(v, a)
        .iter()
        .any(|la| locations(v, b).iter().any(|lb| v.fleet_neighbours(*la).contains(lb)))
}

fn army_adjacent(v: &Variant, a: (u16, Option<u8>), b: (u16, Option<u8>)) -> bool {
    v.army_neighbours(a.0).contains(&b.0)
}

fn check(v: &Variant, w: &[String]) -> Result<(), String> {
    let n = |i: usize| w.get(i).cloned().ok_or("missing word".to_string());
    match w[0].as_str() {
        "spaces" => {
            let want: usize = n(1)?.parse().map_err(|_| "bad number")?;
            (v.provinces.len() == want)
                .then_some(())
                .ok_or(format!("{} spaces", v.provinces.len()))
        }
        "centres" => {
            let want: usize = n(1)?.parse().map_err(|_| "bad number")?;
            (v.centre_count() == want)
                .then_some(())
                .ok_or(format!("{} centres", v.centre_count()))
        }
        "terrain" => {
            let (p, _) = location(v, &n(1)?)?;
            let t = v.province(p).terrain;
            let ok = match n(2)?.as_str() {
                "sea" => t == Terrain::Sea,
                "land" => t == Terrain::Land,
                "coast" | "coastal" => t == Terrain::Coast,
                "impassable" => t == Terrain::Impassable,
                other => return Err(format!("unknown terrain {other}")),
            };
            ok.then_some(()).ok_or(format!("terrain is {}", t.as_str()))
        }
        "sc" => {
            let (p, _) = location(v, &n(1)?)?;
            v.province(p).sc.then_some(()).ok_or("not a centre".into())
        }
        "home" => {
            let (p, _) = location(v, &n(1)?)?;
            let power = v.find_power(&n(2)?).ok_or("unknown power")?;
            v.is_home_of(p, power)
                .then_some(())
                .ok_or("not a home centre of that power".into())
        }
        "owner" => {
            let (p, _) = location(v, &n(1)?)?;
            let power = v.find_power(&n(2)?).ok_or("unknown power")?;
            (v.province(p).owner == Some(power))
                .then_some(())
                .ok_or("another owner".into())
        }
        "unit" => {
            let power = v.find_power(&n(1)?).ok_or("unknown power")?;
            let kind = if n(2)?.eq_ignore_ascii_case("F") {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            };
            let (p, c) = location(v, &n(3)?)?;
            v.units
                .iter()
                .any(|u| {
                    u.power == power
                        && u.kind == kind
                        && u.location.province == p
                        && c.is_none_or(|c| c == u.location.coast)
                })
                .then_some(())
                .ok_or("no such starting unit".into())
        }
        "coasts" => {
            let (p, _) = location(v, &n(1)?)?;
            let mut want: Vec<String> = w[2..].iter().map(|s| s.to_ascii_lowercase()).collect();
            let mut have = v.province(p).coasts.clone();
            want.sort();
            have.sort();
            (want == have).then_some(()).ok_or(format!("coasts are {have:?}"))
        }
        "adjacent" => {
            let a = location(v, &n(2)?)?;
            let b = location(v, &n(3)?)?;
            let ok = match n(1)?.as_str() {
                "army" => army_adjacent(v, a, b) && army_adjacent(v, b, a),
                "fleet" => fleet_adjacent(v, a, b) && fleet_adjacent(v, b, a),
                "any" => army_adjacent(v, a, b) || fleet_adjacent(v, a, b),
                other => return Err(format!("unknown unit type {other}")),
            };
            ok.then_some(()).ok_or("not adjacent".into())
        }
        "not-adjacent" => {
            let a = location(v, &n(1)?)?;
            let b = location(v, &n(2)?)?;
            let adjacent =
                army_adjacent(v, a, b) || army_adjacent(v, b, a) || fleet_adjacent(v, a, b) || fleet_adjacent(v, b, a);
            (!adjacent).then_some(()).ok_or("adjacent".into())
        }
        "name" => {
            let (p, _) = location(v, &n(1)?)?;
            (v.province(p).name == n(2)?)
                .then_some(())
                .ok_or(format!("named {}", v.province(p).name))
        }
        "alias" => {
            let (p, _) = location(v, &n(1)?)?;
            (v.find_province(&n(2)?) == Some(p))
                .then_some(())
                .ok_or("alias not found".into())
        }
        other => Err(format!("unknown fact keyword `{other}`")),
    }
}

#[test]
fn every_stated_map_fact_holds() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/maps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "facts"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "facts for standard, 1936, 1648 and original-1958");
    for facts in files {
        let id = facts.file_stem().unwrap().to_string_lossy().to_string();
        let v = load(&root().join("variants").join(format!("{id}.var")));
        for (i, line) in std::fs::read_to_string(&facts).unwrap().lines().enumerate() {
            let content = line.split(" #").next().unwrap_or("").trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            checked += 1;
            if let Err(e) = check(&v, &words(content)) {
                failures.push(format!("{}:{}: `{content}`: {e}", facts.display(), i + 1));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} facts fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_variant_file_lints_without_errors() {
    for entry in std::fs::read_dir(root().join("variants")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "var") {
            continue;
        }
        let v = load(&path);
        let errors: Vec<String> = lint(&v)
            .into_iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| f.message)
            .collect();
        assert!(errors.is_empty(), "{}: {}", path.display(), errors.join("; "));
    }
}

/// The built-in variants are the files in variants/, compiled in, and each loads.
#[test]
fn builtin_variants_load() {
    for name in chancery_engine::builtin::builtin_names() {
        let v = chancery_engine::builtin::builtin(name)
            .unwrap()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v.id, name);
    }
}
