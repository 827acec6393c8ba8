//! The module graph of one crate, read from its source, so that a test can refuse an
//! import circle (issue 12 §3): each file's references to other modules of the crate
//! (`use crate::…`, `super::…`, paths written inline, and a `mod.rs` or the crate root
//! re-exporting its children) are edges, and the graph must be acyclic, so that every
//! module can be read, tested and changed with only what is below it in mind. A `mod`
//! declaration is containment, not an edge: a parent may declare its children while
//! they use it, but it may not also use them. The crate root is above every module.
//!
//! It reads text, not the compiler's view: it sees `use` trees and paths, not names
//! brought in by a glob of a glob, which the code base does not use.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its module path (`services::games::view`).
fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut p = prefix.to_vec();
            p.push(name);
            modules(&path, &p, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut p = prefix.to_vec();
            if !["lib", "main", "mod"].contains(&name.as_str()) {
                p.push(name);
            }
            out.insert(p.join("::"), path);
        }
    }
}

/// The code without comments and string literals, which may mention paths.
fn code_only(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        let mut in_string = false;
        let mut prev = ' ';
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_string = !in_string;
                out.push(' ');
            } else if !in_string {
                out.push(c);
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// The paths a `use` tree names, expanded: `a::{b, c::{self, d}}` → a::b, a::c, a::c::d.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap_or("").to_string()];
    };
    let base = tree[..open].trim_end_matches("::").to_string();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let mut out = Vec::new();
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        for sub in expand(part) {
            let sub = sub.split("as").next().unwrap_or("").to_string();
            out.push(if sub == "self" {
                base.clone()
            } else {
                format!("{base}::{sub}")
            });
        }
    }
    out
}

/// The module a path in module `from` (one with a folder of children when `dir_module`) refers to: the
/// longest known module its segments lead to.
fn resolve(path: &str, from: &str, dir_module: bool, known: &BTreeMap<String, PathBuf>) -> Option<String> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut here: Vec<&str> = if from.is_empty() {
        vec![]
    } else {
        from.split("::").collect()
    };
    let mut absolute = Vec::new();
    match segs.first().copied() {
        Some("crate") => {
            segs.remove(0);
        }
        Some("super") => {
            // `super` of a file module is its parent; of a `mod.rs`, the directory's parent.
            while segs.first() == Some(&"super") {
                segs.remove(0);
                here.pop();
            }
            absolute.extend(here);
        }
        Some("self") => {
            segs.remove(0);
            absolute.extend(here);
        }
        // A child module named in a `mod.rs` or lib.rs (`pub use view::…`).
        Some(first) if dir_module || from.is_empty() => {
            let child = if from.is_empty() {
                first.to_string()
            } else {
                format!("{from}::{first}")
            };
            if !known.contains_key(&child) {
                return None;
            }
            absolute.extend(here);
        }
        _ => return None,
    }
    absolute.extend(segs);
    (0..=absolute.len())
        .rev()
        .map(|n| absolute[..n].join("::"))
        .find(|m| known.contains_key(m))
}

fn edges(known: &BTreeMap<String, PathBuf>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (module, file) in known {
        let mut code = code_only(&std::fs::read_to_string(file).unwrap());
        // A file's unit tests (`#[cfg(test)] mod tests`, at its end) are a module of
        // their own, whose `super` is the file's module, not its parent.
        // (A `mod tests;` declaration is containment; its file is a module of its own.)
        if let Some(i) = code.match_indices("#[cfg(test)]").map(|(i, _)| i).find(|&i| {
            let after = code[i + 12..].trim_start();
            after.starts_with("mod ") && after.find('{').is_some_and(|b| after.find(';').is_none_or(|s| b < s))
        }) {
            code.truncate(i);
        }
        // A module whose children are in a folder: `a/mod.rs`, or `a.rs` beside `a/`.
        let dir_module = file.ends_with("mod.rs") || file.ends_with("lib.rs") || file.with_extension("").is_dir();
        let mut paths = Vec::new();
        // `use` trees, which may span lines.
        let mut rest = code.as_str();
        while let Some(i) = rest.find("use ") {
            let before = rest[..i].chars().last();
            let tail = &rest[i + 4..];
            let end = tail.find(';').unwrap_or(tail.len());
            if before.is_none_or(|c| !c.is_alphanumeric() && c != '_') {
                paths.extend(expand(&tail[..end]));
            }
            rest = &tail[end.min(tail.len())..];
        }
        // Paths written inline: `crate::a::b(…)`, `super::x`.
        for start in ["crate::", "super::"] {
            for (i, _) in code.match_indices(start) {
                let path: String = code[i..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                paths.push(path);
            }
        }
        let targets: BTreeSet<String> = paths
            .iter()
            .filter_map(|p| resolve(p, module, dir_module, known))
            .filter(|t| t != module && !t.is_empty())
            .collect();
        graph.insert(module.clone(), targets);
    }
    graph
}

/// A cycle, if the graph has one, as the modules around it (the first again at the end).
pub fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|s| s == m).unwrap();
                    let mut c = stack[at..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The module graph of the crate whose manifest is in `crate_dir`: each module (by its
/// path, `services::games::view`; the root is ``) with the modules it refers to.
pub fn graph(crate_dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut known = BTreeMap::new();
    let src = crate_dir.join("src");
    modules(&src, &[], &mut known);
    // Beside a lib.rs, main.rs is a crate of its own (the binary).
    if src.join("lib.rs").exists() {
        known.retain(|_, f| !f.ends_with("main.rs"));
    }
    edges(&known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_sees_what_it_must() {
        let known: BTreeMap<String, PathBuf> = ["a", "a::b", "a::c", "d"]
            .iter()
            .map(|m| (m.to_string(), PathBuf::from(format!("{m}.rs"))))
            .collect();
        assert_eq!(
            expand("crate::a::{self, b::{X, Y as Z}, c}"),
            vec!["crate::a", "crate::a::b::X", "crate::a::b::Y", "crate::a::c"]
        );
        assert_eq!(resolve("crate::a::b::f", "d", false, &known).as_deref(), Some("a::b"));
        assert_eq!(resolve("super::f", "a::b", false, &known).as_deref(), Some("a"));
        assert_eq!(resolve("super::c::g", "a::b", false, &known).as_deref(), Some("a::c"));
        assert_eq!(resolve("b::X", "a", true, &known).as_deref(), Some("a::b"));
        assert_eq!(resolve("serde::Serialize", "a", true, &known), None);
        // A circle is found and named.
        let g: BTreeMap<String, BTreeSet<String>> =
            [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec![])]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
                .collect();
        assert_eq!(cycle(&g).unwrap(), vec!["a", "b", "c", "a"]);
    }
}
