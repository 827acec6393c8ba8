//! The project's whole DATC run (tests/datc/*.txt) as one timed unit: parse every file
//! and adjudicate every case, as `cargo test` and `chancery cases` do.

use std::path::PathBuf;

use chancery_cases::{parse_cases, run_case};
use chancery_engine::Variant;

pub struct Datc {
    pub files: Vec<(PathBuf, String)>,
}

impl Datc {
    /// Reads the case files once, so that the timed run does no file I/O.
    pub fn load() -> Datc {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/datc");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        paths.sort();
        let files = paths
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
                (p, text)
            })
            .collect();
        Datc { files }
    }

    /// Parses and runs every case; returns (passed, failed).
    pub fn run(&self, v: &Variant) -> (usize, usize) {
        let mut passed = 0;
        let mut failed = 0;
        for (path, text) in &self.files {
            let cases = parse_cases(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for case in &cases {
                if run_case(case, v).passed() {
                    passed += 1;
                } else {
                    failed += 1;
                }
            }
        }
        (passed, failed)
    }
}
