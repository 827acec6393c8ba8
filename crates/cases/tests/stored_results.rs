//! A judged phase survives storage (the server stores each `PhaseResult` and
//! history draws from it without judging again, so what is read back must be what was
//! judged). Every case of tests/datc, tests/dp and
//! tests/1958 is judged through `judge_phase`, written as JSON and read back: the
//! positions, orders, outcomes and bid report come back equal, and every reason a
//! history page prints reads the same. Order errors come back as their message
//! (`OrderError`'s serde), so they are compared by their words.

use std::path::PathBuf;

use chancery_cases::{judge_case, parse_cases};
use chancery_engine::builtin::builtin;
use chancery_engine::phase::PhaseResult;
use chancery_engine::Outcome;

fn case_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let mut files = Vec::new();
    for dir in ["datc", "dp", "1958"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "txt") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_cases_judged_phase_reads_back_from_json() {
    let mut checked = 0;
    for file in case_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for case in parse_cases(&text).unwrap() {
            let v = builtin(&case.variant).unwrap().unwrap();
            let judged = judge_case(&case, &v).unwrap_or_else(|e| panic!("{}: {e}", case.name));
            let stored = serde_json::to_string(&judged).unwrap();
            let back: PhaseResult = serde_json::from_str(&stored).unwrap();
            let name = &case.name;
            assert_eq!(back.before, judged.before, "{name}");
            assert_eq!(back.next(), judged.next(), "{name}");
            assert_eq!(back.winner(), judged.winner(), "{name}");
            assert_eq!(back.orphaned, judged.orphaned, "{name}");
            assert_eq!(back.minor_orders, judged.minor_orders, "{name}");
            assert_eq!(back.bid_report, judged.bid_report, "{name}");
            let (a, b) = (&judged.adjudication, &back.adjudication);
            assert_eq!(a.results.len(), b.results.len(), "{name}");
            for (r, s) in a.results.iter().zip(&b.results) {
                assert_eq!((r.unit, r.order, r.given), (s.unit, s.order, s.given), "{name}");
                assert_eq!(r.reason(&v), s.reason(&v), "{name}");
                if !matches!(r.outcome, Outcome::Void(_)) {
                    assert_eq!(r.outcome, s.outcome, "{name}");
                }
            }
            let words = |x: &chancery_engine::Adjudication| -> Vec<(chancery_engine::Order, String)> {
                x.refused.iter().map(|(o, e)| (*o, e.to_string())).collect()
            };
            assert_eq!(words(a), words(b), "{name}");
            // Stored once more, it is the same text: nothing drifts between readings.
            assert_eq!(serde_json::to_string(&back).unwrap(), stored, "{name}");
            checked += 1;
        }
    }
    assert!(checked > 250, "only {checked} cases");
}
