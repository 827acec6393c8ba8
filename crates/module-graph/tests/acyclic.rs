//! No crate of the workspace has an import circle (issue 12 §3). Set
//! `CHANCERY_PRINT_MODULES=1` to print each crate's graph.

use std::path::Path;

use chancery_module_graph::{cycle, graph};

#[test]
fn no_crate_has_an_import_circle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&crates).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for dir in entries
        .into_iter()
        .filter(|d| d.join("Cargo.toml").exists() && d.join("src").is_dir())
    {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let g = graph(&dir);
        if std::env::var_os("CHANCERY_PRINT_MODULES").is_some() {
            for (m, ts) in &g {
                println!("{name}: {m} -> {}", ts.iter().cloned().collect::<Vec<_>>().join(", "));
            }
        }
        if let Some(c) = cycle(&g) {
            panic!("import circle in crates/{name}: {}", c.join(" → "));
        }
        checked.push((name, g.len()));
    }
    // The reader found the crates and their modules (a reader that sees nothing would
    // pass everything).
    let modules = |n: &str| checked.iter().find(|(c, _)| c == n).map_or(0, |(_, m)| *m);
    assert!(modules("engine") > 25, "{checked:?}");
    assert!(modules("server") > 30, "{checked:?}");
    assert!(
        modules("render") > 10 && modules("geo") > 6 && modules("cases") > 3,
        "{checked:?}"
    );
}
