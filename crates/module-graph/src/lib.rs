//! The module graph of one crate, read from its source with `syn`, so that a test can
//! refuse an import circle. An edge is a module's use of an item of
//! another module of the crate, wherever it is written: a `use` (at the top or inside a
//! function), a path in a signature or a body (`crate::state::Phase::new`, `super::x`, a
//! name brought in by `use`), a path inside a macro's arguments. A re-export is followed
//! to the item's own module, and every module on the way is an edge too. A type's
//! methods belong to the type, as `cargo modules` counts them: an `impl` block written in
//! another module makes the type's module depend on everything the block uses (the
//! circle `state` ↔ `variant` of session 7 was an `impl` of a `variant` type, written in
//! `dp::params`, taking `state::Phase`).
//!
//! A `mod` declaration is containment, not an edge: a parent may declare its children
//! while they use it, but it may not also use them. The crate root is above every
//! module (every module may name `crate::App`). `syn` parses the source, so comments,
//! strings and attributes' strings are never read as code; names are resolved by the
//! crate's own declarations and `use`s, without the compiler, so a method called on a
//! value (`state.phase.year`) is not seen — only what is named in the text is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Item, ItemUse, UseTree};

/// What one module declares, brings in and names.
#[derive(Default, Debug)]
struct Module {
    /// The items declared here (types, traits, functions, constants, statics, macros).
    declared: BTreeSet<String>,
    /// Child modules (a file of their own or `mod x { … }`).
    children: BTreeSet<String>,
    /// Names brought in by `use`, each with the path it names, as written here.
    imports: BTreeMap<String, Vec<String>>,
    /// Paths whose every item a glob brings in (`use super::*`), as written here.
    globs: Vec<Vec<String>>,
    /// The paths of the module's `use`s: each counts even when it names a module.
    use_paths: Vec<Vec<String>>,
    /// The other paths written in the module, outside its `impl` blocks.
    paths: Vec<Vec<String>>,
    /// Each `impl` block: the path of its type as written, and the paths inside it.
    impls: Vec<(Vec<String>, Vec<Vec<String>>)>,
}

/// The path a `use` tree names for each name it brings in.
fn use_tree(tree: &UseTree, prefix: &mut Vec<String>, m: &mut Module) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_tree(&p.tree, prefix, m);
            prefix.pop();
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                if let Some(last) = prefix.last() {
                    m.imports.insert(last.clone(), prefix.clone());
                    m.use_paths.push(prefix.clone());
                }
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                m.imports.insert(name, path.clone());
                m.use_paths.push(path);
            }
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            if r.rename != "_" {
                m.imports.insert(r.rename.to_string(), path.clone());
            }
            m.use_paths.push(path);
        }
        UseTree::Glob(_) => {
            m.globs.push(prefix.clone());
            m.use_paths.push(prefix.clone());
        }
        UseTree::Group(g) => {
            for t in &g.items {
                use_tree(t, prefix, m);
            }
        }
    }
}

/// One token as the path reader needs it.
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    /// `.` or a lifetime's `'`: the next name is a field, a method or a lifetime.
    NotAPath,
    /// A parenthesised group or `!`: what stands before it is called.
    Call,
    Other,
}

/// The paths written in `tokens` (`a::b::C`, `C`), in macro arguments too; a `use`
/// inside a function is read as one.
fn scan(tokens: TokenStream, paths: &mut Vec<Vec<String>>, m: &mut Module) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut toks = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Ident(id) if id == "use" && !matches!(toks.last(), Some(Tok::NotAPath)) => {
                // A `use` inside a function or block: up to its `;`.
                let end = (i..trees.len())
                    .find(|&j| matches!(&trees[j], TokenTree::Punct(p) if p.as_char() == ';'))
                    .unwrap_or(trees.len() - 1);
                let stream: TokenStream = trees[i..=end].iter().cloned().collect();
                if let Ok(u) = syn::parse2::<ItemUse>(stream) {
                    use_tree(&u.tree, &mut Vec::new(), m);
                }
                toks.push(Tok::Other);
                i = end + 1;
                continue;
            }
            TokenTree::Ident(id) => toks.push(Tok::Ident(id.to_string())),
            TokenTree::Punct(p)
                if p.as_char() == ':'
                    && p.spacing() == Spacing::Joint
                    && matches!(trees.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == ':') =>
            {
                toks.push(Tok::Sep);
                i += 1;
            }
            TokenTree::Punct(p) if p.as_char() == '.' || p.as_char() == '\'' => toks.push(Tok::NotAPath),
            TokenTree::Punct(p) if p.as_char() == '!' => toks.push(Tok::Call),
            TokenTree::Punct(_) | TokenTree::Literal(_) => toks.push(Tok::Other),
            TokenTree::Group(g) => {
                scan(g.stream(), paths, m);
                toks.push(if g.delimiter() == Delimiter::Parenthesis {
                    Tok::Call
                } else {
                    Tok::Other
                });
            }
        }
        i += 1;
    }
    let mut i = 0;
    while i < toks.len() {
        let Tok::Ident(first) = &toks[i] else {
            i += 1;
            continue;
        };
        // After `.` a field or method, after `'` a lifetime, after a lone `::` a path
        // from outside the crate (`::std`) or the rest of a qualified path (`<T>::x`).
        let skip = i > 0 && matches!(toks[i - 1], Tok::NotAPath | Tok::Sep);
        let mut path = vec![first.clone()];
        let mut j = i + 1;
        while let (Some(Tok::Sep), Some(Tok::Ident(next))) = (toks.get(j), toks.get(j + 1)) {
            path.push(next.clone());
            j += 2;
        }
        // `pub(crate)`, `pub(super)` and a method's `self` are not uses; nor is a lone
        // lower-case name that is not called (a parameter `power` beside a function
        // `power`): a function passed by name alone is missed, a local never mistaken.
        let lone = path.len() == 1
            && (["crate", "super", "self", "Self"].contains(&first.as_str())
                || (first.starts_with(|c: char| c.is_lowercase()) && !matches!(toks.get(j), Some(Tok::Call))));
        if !skip && !lone {
            paths.push(path);
        }
        i = j;
    }
}

/// The name an item declares, if it declares one others can name.
fn declared_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Reads module `name` (`a::b`; the root is ``) from its items, and its children from
/// their files under `dir` (the folder of this module's children).
fn read(name: &str, items: &[Item], dir: &Path, modules: &mut BTreeMap<String, Module>) -> Result<(), String> {
    let mut m = Module::default();
    let child = |c: &str| {
        if name.is_empty() {
            c.to_string()
        } else {
            format!("{name}::{c}")
        }
    };
    for item in items {
        match item {
            Item::Use(u) => use_tree(&u.tree, &mut Vec::new(), &mut m),
            Item::Mod(md) => {
                let c = md.ident.to_string();
                m.children.insert(c.clone());
                match &md.content {
                    Some((_, inner)) => read(&child(&c), inner, &dir.join(&c), modules)?,
                    None => {
                        let (file, sub) = if dir.join(format!("{c}.rs")).exists() {
                            (dir.join(format!("{c}.rs")), dir.join(&c))
                        } else {
                            (dir.join(&c).join("mod.rs"), dir.join(&c))
                        };
                        let parsed = parse(&file)?;
                        read(&child(&c), &parsed.items, &sub, modules)?;
                    }
                }
            }
            Item::Impl(imp) => {
                let mut inside = Vec::new();
                scan(imp.to_token_stream(), &mut inside, &mut m);
                // Only a type's own methods (`impl T { … }`) are the type's, as `cargo
                // modules` counts them; a trait's impl is the module's that writes it.
                if let (syn::Type::Path(tp), None) = (&*imp.self_ty, &imp.trait_) {
                    let ty = tp.path.segments.iter().map(|s| s.ident.to_string()).collect();
                    m.impls.push((ty, inside));
                } else {
                    m.paths.extend(inside);
                }
            }
            other => {
                if let Some(n) = declared_name(other) {
                    m.declared.insert(n);
                }
                let mut paths = Vec::new();
                scan(other.to_token_stream(), &mut paths, &mut m);
                m.paths.extend(paths);
            }
        }
    }
    modules.insert(name.to_string(), m);
    Ok(())
}

fn parse(file: &Path) -> Result<syn::File, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    syn::parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// The modules of a crate, with what each declares, brings in and names.
struct Crate {
    modules: BTreeMap<String, Module>,
}

/// How deep a chain of `use`s is followed (a glob of a glob of …).
const MAX_HOPS: usize = 16;

impl Crate {
    fn join(base: &str, name: &str) -> String {
        if base.is_empty() {
            name.to_string()
        } else {
            format!("{base}::{name}")
        }
    }

    fn parent(m: &str) -> Option<&str> {
        if m.is_empty() {
            None
        } else {
            Some(m.rfind("::").map_or("", |i| &m[..i]))
        }
    }

    /// The modules a path written in module `from` leads through to the item it names
    /// (every module whose `use` it follows, and the item's own module, last), and
    /// whether it names a module rather than an item in one. Empty outside the crate.
    fn resolve(&self, from: &str, path: &[String], hops: usize) -> (Vec<String>, bool) {
        let none = (Vec::new(), false);
        let (Some(first), Some(m)) = (path.first(), self.modules.get(from)) else {
            return none;
        };
        if hops > MAX_HOPS {
            return none;
        }
        match first.as_str() {
            "crate" => self.walk("", &path[1..], hops),
            "self" => self.walk(from, &path[1..], hops),
            "super" => {
                let mut at = from;
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    let Some(p) = Self::parent(at) else {
                        return none;
                    };
                    at = p;
                    rest = &rest[1..];
                }
                self.walk(at, rest, hops)
            }
            name if m.children.contains(name) => self.walk(from, path, hops),
            name if m.declared.contains(name) => (vec![from.to_string()], false),
            name if m.imports.contains_key(name) => {
                let mut full = m.imports[name].clone();
                full.extend_from_slice(&path[1..]);
                self.resolve(from, &full, hops + 1)
            }
            _ => {
                for g in &m.globs {
                    let (via, is_module) = self.resolve(from, g, hops + 1);
                    if let (Some(module), true) = (via.last(), is_module) {
                        let found = self.modules.get(module).is_some_and(|gm| {
                            gm.declared.contains(first) || gm.imports.contains_key(first) || gm.children.contains(first)
                        });
                        if found {
                            let (mut rest, is_module) = self.walk(module, path, hops + 1);
                            let mut all = via.clone();
                            all.append(&mut rest);
                            return (all, is_module);
                        }
                    }
                }
                none
            }
        }
    }

    /// A path from module `at` down: child modules, then the item (through `use`s).
    fn walk(&self, at: &str, rest: &[String], hops: usize) -> (Vec<String>, bool) {
        let Some(m) = self.modules.get(at) else {
            return (Vec::new(), false);
        };
        let Some(name) = rest.first() else {
            return (vec![at.to_string()], true);
        };
        if m.children.contains(name) {
            return self.walk(&Self::join(at, name), &rest[1..], hops);
        }
        if m.declared.contains(name) {
            return (vec![at.to_string()], false);
        }
        // A re-export (or a glob's name) in `at`: `at` is on the way.
        let (mut via, is_module) = self.resolve(at, rest, hops + 1);
        if via.is_empty() {
            // An item the reader does not see declared (made by a macro): it is `at`'s.
            return (vec![at.to_string()], false);
        }
        via.insert(0, at.to_string());
        (via, is_module)
    }

    fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut graph: BTreeMap<String, BTreeSet<String>> =
            self.modules.keys().map(|k| (k.clone(), BTreeSet::new())).collect();
        let add = |from: &str, to: &str, graph: &mut BTreeMap<String, BTreeSet<String>>| {
            if from != to && !to.is_empty() {
                graph.entry(from.to_string()).or_default().insert(to.to_string());
            }
        };
        for (name, m) in &self.modules {
            for p in &m.use_paths {
                for t in self.resolve(name, p, 0).0 {
                    add(name, &t, &mut graph);
                }
            }
            // A name alone that is a module (a local variable called `state`) is not a use.
            let targets = |p: &Vec<String>| {
                let (via, is_module) = self.resolve(name, p, 0);
                if is_module && p.len() == 1 {
                    Vec::new()
                } else {
                    via
                }
            };
            for p in &m.paths {
                for t in targets(p) {
                    add(name, &t, &mut graph);
                }
            }
            for (ty, inside) in &m.impls {
                let (via, is_module) = self.resolve(name, ty, 0);
                for t in &via {
                    add(name, t, &mut graph);
                }
                // The type's own module, when the type is the crate's.
                let owner = via.last().filter(|_| !is_module).cloned();
                for p in inside {
                    for t in targets(p) {
                        add(name, &t, &mut graph);
                        if let Some(o) = &owner {
                            add(o, &t, &mut graph);
                        }
                    }
                }
            }
        }
        graph
    }
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
                    let at = stack.iter().position(|s| s == m)?;
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

/// Every circle of the graph: its strongly connected components of more than one module
/// (Tarjan's algorithm), each sorted, in order of their first module.
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.out.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.out.sort();
    walk.out
}

/// The graph between sibling modules: each use of one module by another, lifted to the
/// two children of their nearest common parent that hold them (`mailer::x` using
/// `services::mail_map` is `mailer` using `services`). A circle here is two rooms that
/// reach into each other though no two files do: `mailer` using `services::mail_map`
/// while `services::mail` uses `mailer`. A module using its own parent or child is
/// containment and is left to [`circles`] on the graph itself.
pub fn siblings(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let parts = |m: &str| -> Vec<String> {
        if m.is_empty() {
            Vec::new()
        } else {
            m.split("::").map(String::from).collect()
        }
    };
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in graph {
        let a = parts(from);
        for to in tos {
            let b = parts(to);
            let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
            if common == a.len() || common == b.len() {
                continue;
            }
            let ca = a[..=common].join("::");
            let cb = b[..=common].join("::");
            out.entry(ca).or_default().insert(cb.clone());
            out.entry(cb).or_default();
        }
    }
    out
}

/// The module graph of the crate whose manifest is in `crate_dir` (its library, else its
/// binary): each module (by its path, `services::games::view`; the root is ``) with the
/// modules it uses. An error names a file that cannot be read or parsed.
pub fn graph(crate_dir: &Path) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let src = crate_dir.join("src");
    let root: PathBuf = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .find(|f| f.exists())
        .ok_or_else(|| format!("{}: no lib.rs or main.rs", src.display()))?;
    let mut modules = BTreeMap::new();
    read("", &parse(&root)?.items, &src, &mut modules)?;
    Ok(Crate { modules }.edges())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate written to a temporary folder: (file under src/, text).
    fn crate_of(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chancery-module-graph-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (file, text) in files {
            let path = dir.join("src").join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    fn edges_of(g: &BTreeMap<String, BTreeSet<String>>, m: &str) -> Vec<String> {
        g[m].iter().cloned().collect()
    }

    /// Session 7's circle: `variant`'s type gets a method in `dp::params` that takes
    /// `state::Phase`, while `state` uses `variant`. No file imports the other's, so only
    /// an item-level reading sees it.
    #[test]
    fn a_method_written_elsewhere_belongs_to_its_type() {
        let dir = crate_of(
            "impl",
            &[
                (
                    "lib.rs",
                    "pub mod dp;\npub mod state;\npub mod variant;\npub use variant::Variant;\n",
                ),
                (
                    "variant.rs",
                    "pub struct Variant;\npub struct Bonus { pub base: u32 }\npub enum Season { Spring }\n",
                ),
                (
                    "state.rs",
                    "use crate::variant::Season;\npub struct Phase { pub season: Season }\n",
                ),
                ("dp.rs", "mod params;\npub use params::Bonus;\n"),
                (
                    "dp/params.rs",
                    "use crate::state::Phase;\n// crate::nothing::here in a comment\npub use crate::variant::Bonus;\n\
                     impl Bonus {\n    pub fn at(&self, phase: Phase) -> u32 { let _ = \"crate::dp\"; self.base }\n}\n",
                ),
            ],
        );
        let g = graph(&dir).unwrap();
        assert_eq!(edges_of(&g, "variant"), vec!["state"], "{g:?}");
        assert_eq!(edges_of(&g, "dp::params"), vec!["state", "variant"], "{g:?}");
        assert_eq!(
            edges_of(&g, "dp"),
            vec!["dp::params", "variant"],
            "a re-export leads to the item's module"
        );
        let c = cycle(&g).expect("the circle state ↔ variant");
        assert!(
            c.contains(&"state".to_string()) && c.contains(&"variant".to_string()),
            "{c:?}"
        );
        // The fix of session 8: the method takes the season, not the phase.
        std::fs::write(
            dir.join("src/dp/params.rs"),
            "use crate::variant::{Bonus, Season};\nimpl Bonus {\n    pub fn at(&self, _s: Season) -> u32 { self.base }\n}\n",
        )
        .unwrap();
        let g = graph(&dir).unwrap();
        assert!(edges_of(&g, "variant").is_empty(), "{g:?}");
        assert_eq!(cycle(&g), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Paths in bodies, signatures, macros and nested `use`s are edges; `pub(super)`, a
    /// field, a method, a lifetime and a local named like a module are not.
    #[test]
    fn the_reader_sees_what_it_must() {
        let dir = crate_of(
            "paths",
            &[
                (
                    "lib.rs",
                    "pub mod a;\npub mod d;\npub mod e;\npub mod f;\npub struct App;\n",
                ),
                (
                    "a/mod.rs",
                    "pub mod b;\npub mod c;\npub(super) fn g<'b>(b: &'b str) -> usize { let c = b.len(); c }\n",
                ),
                ("a/b.rs", "pub fn f() -> u8 { super::c::h() }\n"),
                (
                    "a/c.rs",
                    "pub fn h() -> u8 { 1 }\npub fn k(x: crate::App) -> crate::App { x }\n",
                ),
                ("d.rs", "pub fn run() { assert_eq!(crate::e::N, 1); }\n"),
                (
                    "e.rs",
                    "pub const N: u8 = 1;\npub fn go() { use crate::f::{self, Y}; let _ = Y; }\n",
                ),
                ("f.rs", "pub struct Y;\nfn q(a: usize) -> usize { a.d() }\n"),
            ],
        );
        let g = graph(&dir).unwrap();
        assert!(
            edges_of(&g, "a").is_empty(),
            "a local named `c` is not module a::c: {g:?}"
        );
        assert_eq!(edges_of(&g, "a::b"), vec!["a::c"]);
        assert!(edges_of(&g, "a::c").is_empty(), "the crate root is above every module");
        assert_eq!(edges_of(&g, "d"), vec!["e"], "a path inside a macro's arguments");
        assert_eq!(edges_of(&g, "e"), vec!["f"], "a `use` inside a function");
        assert!(edges_of(&g, "f").is_empty(), "a method `.d()` is not module d");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The circle of the server's mail before it was one room: the sender `mailer`
    /// drew the mail's map through `services::mail_map`, while `services::mail` named
    /// `mailer::Mailer`. No file uses a file that uses it back, so only the sibling
    /// graph sees that `mailer` and `services` reach into each other.
    #[test]
    fn sibling_rooms_that_reach_into_each_other() {
        let dir = crate_of(
            "siblings",
            &[
                ("lib.rs", "pub mod mailer;\npub mod services;\n"),
                (
                    "mailer.rs",
                    "use crate::services::mail_map;\npub struct Mailer;\npub fn send() { mail_map::png(); }\n",
                ),
                ("services/mod.rs", "pub mod mail;\npub mod mail_map;\n"),
                ("services/mail.rs", "pub fn enqueue(_m: &crate::mailer::Mailer) {}\n"),
                ("services/mail_map.rs", "pub fn png() {}\n"),
            ],
        );
        let g = graph(&dir).unwrap();
        assert!(circles(&g).is_empty(), "no file uses one that uses it: {g:?}");
        assert_eq!(circles(&siblings(&g)), vec![vec!["mailer", "services"]]);
        // One room: the sender beside what it sends, under services::mail.
        let _ = std::fs::remove_file(dir.join("src/mailer.rs"));
        std::fs::write(dir.join("src/lib.rs"), "pub mod services;\n").unwrap();
        std::fs::write(
            dir.join("src/services/mail.rs"),
            "pub mod sender;\npub fn enqueue(_m: &sender::Mailer) {}\n",
        )
        .unwrap();
        std::fs::create_dir_all(dir.join("src/services/mail")).unwrap();
        std::fs::write(
            dir.join("src/services/mail/sender.rs"),
            "use crate::services::mail_map;\npub struct Mailer;\npub fn send() { mail_map::png(); }\n",
        )
        .unwrap();
        let g = graph(&dir).unwrap();
        assert!(
            edges_of(&g, "services::mail").contains(&"services::mail::sender".to_string()),
            "{g:?}"
        );
        assert!(circles(&g).is_empty() && circles(&siblings(&g)).is_empty(), "{g:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_circle_is_found_and_named() {
        let g: BTreeMap<String, BTreeSet<String>> =
            [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec![])]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
                .collect();
        assert_eq!(cycle(&g).unwrap(), vec!["a", "b", "c", "a"]);
        assert_eq!(circles(&g), vec![vec!["a", "b", "c"]]);
        let mut two = g.clone();
        two.insert("d".into(), ["e".to_string()].into());
        two.insert("e".into(), ["d".to_string()].into());
        assert_eq!(circles(&two), vec![vec!["a", "b", "c"], vec!["d", "e"]]);
        two.get_mut("c").unwrap().clear();
        assert_eq!(circles(&two), vec![vec!["d", "e"]]);
    }
}
