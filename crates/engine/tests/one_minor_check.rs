//! Issue 12 §2: one way to ask whether a power follows the minor-power rules. Every rule
//! asks `GameState::acts_as_minor` (or `GameState::side` of a unit), which builds on
//! `Variant::is_minor`; no other code reads the power's kind for it, so that a power in
//! civil disorder can never be missed by a rule that tested the kind alone.

use std::path::Path;

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_variant_names_the_minor_kind() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "../cases/src", "../cli/src"] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 30, "the sources were not found: {files:?}");
    // The loader makes the kind; `Variant::is_minor` and `has_minors` read it.
    let allowed = ["variant.rs", "variant_file.rs"];
    let mut offenders = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_str().unwrap();
        if allowed.contains(&name) && f.parent().unwrap().ends_with("src") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains("PowerKind::Minor") {
                offenders.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "ask Variant::is_minor or GameState::acts_as_minor instead:\n{}",
        offenders.join("\n")
    );
}
