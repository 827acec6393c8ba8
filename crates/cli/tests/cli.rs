//! The `chancery` command as a script sees it: output shapes and exit codes.

use std::process::Command;

fn chancery(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn map_json_has_the_documented_shape_for_every_variant() {
    for name in ["standard", "1936", "1648", "original-1958"] {
        let (code, out) = chancery(&["map", name, "--json"]);
        assert_eq!(code, 0, "{name}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["variant"], name);
        let provinces = v["provinces"].as_array().unwrap();
        for p in provinces {
            let abbr = p["abbr"].as_str().unwrap();
            assert_eq!(abbr, abbr.to_lowercase());
            assert!(p["name"].is_string() && p["sc"].is_boolean() && p["coasts"].is_array());
            assert!(["land", "coast", "sea", "impassable"].contains(&p["terrain"].as_str().unwrap()));
        }
        for key in ["army_adjacency", "fleet_adjacency"] {
            let pairs = v[key].as_array().unwrap();
            let mut seen = std::collections::HashSet::new();
            for pair in pairs {
                let (a, b) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
                assert!(
                    seen.insert((a.min(b).to_string(), a.max(b).to_string())),
                    "{name}: {a}-{b} twice"
                );
            }
        }
    }
    let (_, out) = chancery(&["map", "standard", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let stp = v["provinces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["abbr"] == "stp")
        .unwrap();
    assert_eq!(stp["home"], "Russia");
    assert_eq!(stp["coasts"], serde_json::json!(["nc", "sc"]));
    assert!(v["fleet_adjacency"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == &serde_json::json!(["stp/sc", "bot"]) || p == &serde_json::json!(["bot", "stp/sc"])));
}

#[test]
fn lint_exits_non_zero_on_errors() {
    let dir = std::env::temp_dir().join(format!("chancery-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.var");
    std::fs::write(&file, "variant b\nstart Spring 1901\nvictory centres 1\npower P great\nprovince a land \"A\"\nprovince b land \"B\"\narmy a: b\n").unwrap();
    let (code, out) = chancery(&["lint", file.to_str().unwrap()]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("error: army border a–b is written only from a"), "{out}");
    assert!(out.contains("1 errors"), "{out}");
    let (code, out) = chancery(&["lint", "standard"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("75 spaces (14 land, 42 coastal, 19 sea, 0 impassable), 34 supply centres"),
        "{out}"
    );
}

#[test]
fn cases_end_with_the_count_and_fail_with_a_non_zero_exit() {
    let dir = std::env::temp_dir().join(format!("chancery-cases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c.txt");
    // The second case expects the wrong result on purpose.
    std::fs::write(
        &file,
        "VARIANT_ALL standard\nCASE good\nPRESTATE\n\tEngland: F nth\nORDERS\n\tEngland: F nth - eng\nPOSTSTATE\n\tEngland: F eng\nEND\nCASE wrong\nPRESTATE\n\tEngland: F nth\nORDERS\n\tEngland: F nth - eng\nPOSTSTATE_SAME\nEND\n",
    )
    .unwrap();
    let (code, out) = chancery(&["cases", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAIL") && out.contains("wrong") && out.contains("England: F nth"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("1 passed, 1 failed"), "{out}");
}

/// `chancery adjudicate` on this request, which must succeed; its JSON answer.
fn adjudicate(name: &str, request: &str) -> serde_json::Value {
    let dir = std::env::temp_dir().join(format!("chancery-adj-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("req.json");
    std::fs::write(&file, request).unwrap();
    let (code, out) = chancery(&["adjudicate", "--input", file.to_str().unwrap()]);
    assert_eq!(code, 0);
    serde_json::from_str(&out).unwrap()
}

fn result_of<'a>(answer: &'a serde_json::Value, unit: &str) -> &'a serde_json::Value {
    let results = answer["results"].as_array().unwrap();
    results.iter().find(|r| r["unit"] == unit).unwrap()
}

#[test]
fn adjudicate_reads_json_and_writes_the_outcome() {
    let v = adjudicate(
        "by-power",
        r#"{"variant":"standard","orders":{"Germany":["A mun - bur"],"France":["A par - bur","A mar S A par - bur"]}}"#,
    );
    let mun = result_of(&v, "A mun");
    assert_eq!(mun["outcome"], "bounced");
    assert_eq!(mun["reason"], "bounced: strength 1 against 2 from Paris");
    assert_eq!(v["next"]["phase"], "F1901M");
    assert!(v["next"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u["location"] == "bur" && u["power"] == "France"));
}

/// An order list without powers can't be adjudicated (whose unit is it?); each such line
/// comes back as unreadable with the fix, and the readable ones are still judged.
#[test]
fn adjudicate_lists_orders_without_a_power_as_unreadable() {
    let v = adjudicate(
        "lines",
        r#"{"variant":"standard","orders":["F lon - nth","France: A par - bur","Frnace: A mar - spa"]}"#,
    );
    let unreadable = v["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert_eq!(unreadable[0]["order"], "F lon - nth");
    assert!(unreadable[0]["error"].as_str().unwrap().contains("say which power"));
    assert!(
        unreadable[1]["error"].as_str().unwrap().contains("France"),
        "{unreadable:?}"
    );
    assert_eq!(result_of(&v, "A par")["outcome"], "moved");
}

/// 1936 rule 2: DPs come "every Spring and Fall turn"; in a Winter `budget` says that
/// no bids are made until Spring instead of printing a budget nobody can spend.
#[test]
fn budget_in_winter_says_no_bids_until_spring() {
    let dir = std::env::temp_dir().join(format!("chancery-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("winter.json");
    std::fs::write(
        &file,
        r#"{"phase": "W1937A", "units": [], "owners": {"par": "France"}}"#,
    )
    .unwrap();
    let (code, out) = chancery(&["budget", "1936", "--state", file.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        "No bids are made in Winter 1937 adjustments; the next are made in Spring 1938 movement."
    );
    let (code, out) = chancery(&["budget", "1936"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Diplomacy Points, Spring 1936 movement"), "{out}");
}

/// A reader that stops reading (`chancery budget 1936 | head`) ends the command
/// quietly: no panic on the closed pipe, nothing on standard error, exit status 0.
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::process::Stdio;
    for args in [&["budget", "1936"][..], &["map", "1648"][..], &["lint", "standard"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chancery"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the command writes: its first write meets EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    }
}
