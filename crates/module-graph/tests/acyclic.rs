//! No crate of the workspace has an import circle, counted item by item as `cargo
//! modules` counts them (see the reader in src/lib.rs): a circle means no module of it
//! can be read, tested or moved without the others. Nor do two sibling modules reach
//! into each other through their children (`mailer` using `services::mail_map` while
//! `services::mail` used `mailer`), which no file-to-file circle shows. Set
//! `CHANCERY_PRINT_MODULES=1` to print each crate's graph.

use std::path::Path;

use chancery_module_graph::{circles, graph, siblings};

#[test]
fn no_crate_has_an_import_circle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = Vec::new();
    let mut found = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&crates).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for dir in entries
        .into_iter()
        .filter(|d| d.join("Cargo.toml").exists() && d.join("src").is_dir())
    {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let g = graph(&dir).unwrap_or_else(|e| panic!("crates/{name}: {e}"));
        if std::env::var_os("CHANCERY_PRINT_MODULES").is_some() {
            for (m, ts) in &g {
                println!("{name}: {m} -> {}", ts.iter().cloned().collect::<Vec<_>>().join(", "));
            }
        }
        for c in circles(&g) {
            found.push(format!("crates/{name}: {}", c.join(", ")));
        }
        for c in circles(&siblings(&g)) {
            found.push(format!("crates/{name}, between sibling modules: {}", c.join(", ")));
        }
        checked.push((name, g.len(), g.values().map(|t| t.len()).sum::<usize>()));
    }
    assert!(
        found.is_empty(),
        "import circles (modules that use each other):\n{}",
        found.join("\n")
    );
    // The reader found the crates, their modules and their uses (a reader that sees
    // nothing would pass everything).
    let counts = |n: &str| {
        checked
            .iter()
            .find(|(c, _, _)| c == n)
            .map_or((0, 0), |(_, m, e)| (*m, *e))
    };
    assert!(counts("engine").0 > 25 && counts("engine").1 > 80, "{checked:?}");
    assert!(counts("server").0 > 90 && counts("server").1 > 300, "{checked:?}");
    assert!(
        counts("render").0 > 10 && counts("geo").0 > 6 && counts("cases").0 > 3,
        "{checked:?}"
    );
}
