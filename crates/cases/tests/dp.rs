//! The Diplomacy Point case files (tests/dp/*.txt, the rules of
//! docs/rules-dp.md): every case must pass. The
//! `*-refusals.txt` files hold bids that break rule 3 as `REFUSED "words":` lines, which
//! the runner checks are refused on submission with those words in the message.

use std::path::{Path, PathBuf};

use chancery_cases::{parse_cases, run_case, Case};
use chancery_engine::builtin::builtin;
use chancery_engine::Variant;

fn dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/dp")
        .join(sub)
}

fn txt_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

fn variant_of(case: &Case) -> Variant {
    builtin(&case.variant)
        .unwrap_or_else(|| panic!("`{}` is not a built-in variant", case.variant))
        .unwrap()
}

#[test]
fn every_dp_case_passes() {
    let files = txt_files(&dir(""));
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n.starts_with("1936-")), "{names:?}");
    assert!(names.iter().any(|n| n.starts_with("1648-")), "{names:?}");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut refusals = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        refusals += text.lines().filter(|l| l.starts_with("REFUSED")).count();
        for case in parse_cases(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display())) {
            count += 1;
            let report = run_case(&case, &variant_of(&case));
            if !report.passed() {
                failures.push(format!(
                    "{} ({}:{}): {}",
                    case.name,
                    file.display(),
                    case.line,
                    report.differences.join("; ")
                ));
            }
        }
    }
    assert!(count >= 30, "only {count} DP cases");
    assert!(refusals >= 13, "only {refusals} refused bids");
    assert!(failures.is_empty(), "failing DP cases:\n{}", failures.join("\n"));
}

/// Rule 1: a minor unit that is dislodged is removed at once, and its published result
/// says so (it never retreats, so no later phase would show it leaving).
#[test]
fn a_dislodged_minor_unit_is_reported_removed() {
    let file = dir("").join("1936-rules.txt");
    let cases = parse_cases(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let case = cases
        .iter()
        .find(|c| c.name.starts_with("1936 rule 1: a dislodged minor is removed"))
        .unwrap();
    let v = variant_of(case);
    let (state, orders) = chancery_cases::case_setup(case, &v).unwrap();
    let result = chancery_engine::adjudicate::adjudicate(&v, &state, &orders);
    let minor = result
        .results
        .iter()
        .find(|r| r.dislodged_by.is_some() && v.is_minor(r.power()))
        .expect("the case dislodges a minor unit");
    assert!(minor.retreats.is_empty());
    assert!(
        minor
            .reason(&v)
            .ends_with("; removed: a minor power's unit never retreats"),
        "{}",
        minor.reason(&v)
    );
    assert!(!result.next.units.iter().any(|u| Some(*u) == minor.unit) && result.next.dislodged.is_empty());
}

/// The adjudication of a case, by the case's name.
fn adjudicate_case(file: &str, name: &str) -> (Variant, chancery_engine::Adjudication) {
    let path = dir("").join(file);
    let cases = parse_cases(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let case = cases
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case `{name}`"));
    let v = variant_of(case);
    let result = chancery_cases::judge_case(case, &v).unwrap().adjudication;
    (v, result)
}

/// Rules 11 and 12: the new minors of a power in civil disorder publish like any minor's:
/// an unbid unit holds in its own name, a bought move is a sortie, and no result names a
/// bidder.
#[test]
fn a_disordered_powers_minors_publish_their_orders_and_never_the_bidders() {
    let (v, result) = adjudicate_case(
        "1936-civil-disorder.txt",
        "1936 rule 11: the new minors take bids; unbid they hold",
    );
    let json = chancery_engine::json::adjudication_json(&v, &result);
    let entry = |unit: &str| json.results.iter().find(|r| r.unit == unit).unwrap();
    let naples = entry("A nap");
    assert_eq!(
        (naples.power.as_str(), naples.order.as_deref(), naples.outcome.as_str()),
        ("Italy", Some("A nap H"), "held")
    );
    let milan = entry("A mil");
    assert_eq!(
        (milan.order.as_deref(), milan.outcome.as_str()),
        (Some("A mil - pie"), "sortie")
    );
    assert_eq!(entry("A rom").order.as_deref(), Some("A rom S tus - ven"));
    let text = serde_json::to_string(&json.results).unwrap();
    assert!(!text.contains("Britain") && !text.contains("Poland"), "{text}");
}

/// Rules 11 and 1: a disordered power's dislodged unit is removed, and says so.
#[test]
fn a_disordered_powers_dislodged_unit_is_reported_removed() {
    let (v, result) = adjudicate_case(
        "1936-civil-disorder.txt",
        "1936 rule 11: a disordered power's unit dislodged is removed",
    );
    let milan = result.results.iter().find(|r| r.dislodged_by.is_some()).unwrap();
    assert_eq!(v.power(milan.power()).name, "Italy");
    assert!(milan.removed && milan.retreats.is_empty());
    assert!(
        milan
            .reason(&v)
            .ends_with("; removed: a minor power's unit never retreats"),
        "{}",
        milan.reason(&v)
    );
    assert!(result.next.dislodged.is_empty());
    let declared: Vec<_> = ["Italy", "Nationalist Spain"]
        .iter()
        .map(|p| v.find_power(p).unwrap())
        .collect();
    assert_eq!(result.next.disordered, declared);
}

/// Rules 1 and 11: the Winter rebuilds publish as builds in the minor's own name, and a
/// disordered power's own order is not read.
#[test]
fn winter_rebuilds_publish_as_builds() {
    let (v, result) = adjudicate_case(
        "1936-civil-disorder.txt",
        "1936 rule 11: the Winter rebuilds a disordered power's empty centres",
    );
    let json = chancery_engine::json::adjudication_json(&v, &result);
    let listed: Vec<(&str, &str, Option<&str>, &str)> = json
        .results
        .iter()
        .map(|r| {
            (
                r.power.as_str(),
                r.unit.as_str(),
                r.order.as_deref(),
                r.outcome.as_str(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("Italy", "A mil", Some("Build A mil"), "built"),
            ("Italy", "A nap", Some("Build A nap"), "built"),
        ]
    );
    assert!(json.refused.is_empty());
}
