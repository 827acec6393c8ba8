//! One way to ask whether a power follows the minor-power rules. Every rule
//! asks `GameState::acts_as_minor` (or `GameState::side` of a unit), which builds on
//! `Variant::is_minor`; no other code reads the power's kind for it, so that a power in
//! civil disorder can never be missed by a rule that tested the kind alone. The server is
//! held to the same.

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
    // The server too: its services and pages ask the same questions as the rules do.
    for dir in ["src", "../cases/src", "../cli/src", "../server/src", "../server/tests"] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 60, "the sources were not found: {files:?}");
    // The loader makes the kind; `Variant::is_minor` and `has_minors` read it. The server's
    // game view only translates the kind, one arm per kind, into its JSON form.
    let allowed = [
        "engine/src/variant.rs",
        "engine/src/variant_file.rs",
        "server/src/services/games/view.rs",
    ];
    let mut offenders = Vec::new();
    for f in &files {
        let path = f.to_str().unwrap().replace('\\', "/");
        if allowed.iter().any(|a| path.ends_with(a)) {
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
