//! The project's own DATC v3.0 chapter-6 cases (tests/datc/*.txt), run by `cargo test`.
//! Each case in those files cites its DATC id; this test requires all 164 ids to be
//! present and every case to pass.

use std::collections::BTreeSet;
use std::path::PathBuf;

use chancery_cases::{parse_cases, run_case};
use chancery_engine::builtin::builtin;

fn datc_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/datc")
}

#[test]
fn every_datc_v3_case_passes() {
    let standard = builtin("standard").unwrap().unwrap();
    let mut ids = BTreeSet::new();
    let mut failures = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(datc_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 10, "one file per DATC section 6.A to 6.J");
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let cases = parse_cases(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for case in &cases {
            assert!(case.variant.eq_ignore_ascii_case("standard"));
            // "6.H.9.retreat" belongs to DATC case 6.H.9.
            let id: Vec<&str> = case.name.split('.').take(3).collect();
            ids.insert(id.join("."));
            let report = run_case(case, &standard);
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
    assert!(failures.is_empty(), "failing DATC cases:\n{}", failures.join("\n"));
    let per_section = |s: &str| ids.iter().filter(|id| id.starts_with(s)).count();
    let expected = [
        ("6.A", 12),
        ("6.B", 15),
        ("6.C", 9),
        ("6.D", 34),
        ("6.E", 15),
        ("6.F", 25),
        ("6.G", 20),
        ("6.H", 16),
        ("6.I", 7),
        ("6.J", 11),
    ];
    for (section, n) in expected {
        assert_eq!(per_section(section), n, "number of DATC cases in {section}");
    }
    assert_eq!(ids.len(), 164);
}
