//! The server's typed boundary: stored values are read by `store/` alone. No
//! module outside `crates/server/src/store/` reads a column by name (`try_get("…")`),
//! and none compares a typed stored field (a game's `status` or `press`, a phase's
//! `how`, a membership's `role`, a mail's `kind`) with a string literal, which the enums
//! (`GameStatus`, `PressRule`, `HowProcessed`, `store::members::Role`, `MailKind`)
//! replace; nor matches what a store function returned against string patterns
//! (`match db::setting(…).as_deref() { Some("members") => … }`): the store decodes a
//! stored word into its enum; nor reads such a field as text (`outcome.strip_prefix("victory: ")`,
//! `status.starts_with("fin")`, also in a match guard on the field), which
//! `store/words.rs` decodes into `GameOutcome` and the other enums. Stored
//! order text is parsed again by `services/stored_orders.rs` alone: `parse_order` is
//! called elsewhere only where a request's own text is read. The store's public
//! functions return named rows, never tuples whose fields each caller would name.
//! Read with syn, so comments and strings are never taken for code; test modules are
//! left out.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Fields the store gives as enums (`games.outcome` as a `GameOutcome`): a comparison
/// of one with a literal string, or a text method with one, means a stored text
/// travelled past the store.
const TYPED_FIELDS: [&str; 6] = ["status", "press", "how", "role", "kind", "outcome"];

/// The methods that read a text by its pieces.
const TEXT_PARSING: [&str; 11] = [
    "strip_prefix",
    "strip_suffix",
    "starts_with",
    "ends_with",
    "split",
    "split_once",
    "rsplit_once",
    "contains",
    "find",
    "trim_start_matches",
    "trim_end_matches",
];

/// Where `parse_order` may be called, and why: the stored orders' reader, and the
/// modules that read a request's own text (not a stored one).
const PARSERS: [&str; 5] = [
    "services/stored_orders.rs", // the one reader of stored order text
    "services/orders.rs",        // a submission's and the order check's text
    "services/targets.rs",       // the unit a request names
    "services/order_words.rs",   // the example orders it proposes, checked
    "demo.rs",                   // the demo club's own orders
];

struct Finder {
    file: String,
    found: Vec<String>,
}

fn is_str_literal(e: &syn::Expr) -> bool {
    matches!(
        e,
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        })
    )
}

/// Whether a pattern holds a string literal anywhere (`"members"`, `Some("members")`,
/// `"a" | "b"`).
fn has_str_pattern(p: &syn::Pat) -> bool {
    struct Strings(bool);
    impl<'ast> Visit<'ast> for Strings {
        fn visit_lit_str(&mut self, _: &'ast syn::LitStr) {
            self.0 = true;
        }
    }
    let mut found = Strings(false);
    found.visit_pat(p);
    found.0
}

/// Whether an expression is, under its `.await`, `?`, method calls and references, a
/// call of a store function (`store::…(…)`, or through the `db` alias modules give
/// their store module).
fn from_store(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => {
                p.path
                    .segments
                    .first()
                    .is_some_and(|s| s.ident == "store" || s.ident == "db")
                    && p.path.segments.len() > 1
            }
            _ => false,
        },
        syn::Expr::Await(a) => from_store(&a.base),
        syn::Expr::Try(t) => from_store(&t.expr),
        syn::Expr::MethodCall(m) => from_store(&m.receiver),
        syn::Expr::Reference(r) => from_store(&r.expr),
        syn::Expr::Paren(p) => from_store(&p.expr),
        _ => false,
    }
}

fn typed_field(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) if TYPED_FIELDS.contains(&n.to_string().as_str()) => Some(n.to_string()),
            _ => None,
        },
        syn::Expr::MethodCall(m) if m.method == "as_str" => typed_field(&m.receiver),
        syn::Expr::Reference(r) => typed_field(&r.expr),
        _ => None,
    }
}

/// Like [`typed_field`], and also a variable of such a name (`outcome`, a parameter the
/// caller filled from the field) and under the conversions to text (`as_deref`,
/// `unwrap`, `to_string`, …).
fn typed_text(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Path(p) => p
            .path
            .get_ident()
            .map(|i| i.to_string())
            .filter(|n| TYPED_FIELDS.contains(&n.as_str())),
        syn::Expr::MethodCall(m)
            if [
                "as_deref",
                "as_ref",
                "as_str",
                "unwrap",
                "unwrap_or_default",
                "to_string",
                "clone",
                "to_lowercase",
                "trim",
            ]
            .contains(&m.method.to_string().as_str()) =>
        {
            typed_text(&m.receiver)
        }
        syn::Expr::Reference(r) => typed_text(&r.expr),
        syn::Expr::Paren(p) => typed_text(&p.expr),
        _ => typed_field(e),
    }
}

/// Whether an expression holds a field or variable of [`TYPED_FIELDS`] anywhere
/// (`(status, outcome)`, `seat.outcome.as_deref()`).
fn mentions_typed(e: &syn::Expr) -> bool {
    struct Mentions(bool);
    impl<'ast> Visit<'ast> for Mentions {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            if typed_text(e).is_some() {
                self.0 = true;
            }
            syn::visit::visit_expr(self, e);
        }
    }
    let mut found = Mentions(false);
    found.visit_expr(e);
    found.0
}

/// Whether an expression calls a text method of [`TEXT_PARSING`] with a string literal
/// (`o.strip_prefix("victory: ")`), anywhere within it.
fn parses_text(e: &syn::Expr) -> bool {
    struct Parses(bool);
    impl<'ast> Visit<'ast> for Parses {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            self.0 |=
                TEXT_PARSING.contains(&m.method.to_string().as_str()) && m.args.first().is_some_and(is_str_literal);
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut found = Parses(false);
    found.visit_expr(e);
    found.0
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let test = m
            .attrs
            .iter()
            .any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"));
        if !test {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*c.func {
            let last = p.path.segments.last().map(|s| s.ident.to_string());
            if last.as_deref() == Some("parse_order") && !PARSERS.contains(&self.file.as_str()) {
                self.found
                    .push(format!("{}: order text parsed outside its reader", self.file));
            }
        }
        syn::visit::visit_expr_call(self, c);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string();
        // `try_get` is sqlx's checked read of a row's column (a JSON value's `get` with
        // a key is not a column, so `get` is not counted).
        if name == "try_get" && m.args.first().is_some_and(is_str_literal) {
            self.found
                .push(format!("{}: a column read by name (`{name}`)", self.file));
        }
        if TEXT_PARSING.contains(&name.as_str()) && m.args.first().is_some_and(is_str_literal) {
            if let Some(field) = typed_text(&m.receiver) {
                self.found
                    .push(format!("{}: `{field}` read as text (`{name}`)", self.file));
            }
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        if from_store(&m.expr) && m.arms.iter().any(|a| has_str_pattern(&a.pat)) {
            self.found
                .push(format!("{}: a stored value matched against strings", self.file));
        }
        if mentions_typed(&m.expr)
            && m.arms
                .iter()
                .any(|a| a.guard.as_ref().is_some_and(|(_, g)| parses_text(g)))
        {
            self.found
                .push(format!("{}: a stored value read as text in a match guard", self.file));
        }
        syn::visit::visit_expr_match(self, m);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) {
            for (a, c) in [(&*b.left, &*b.right), (&*b.right, &*b.left)] {
                if let (Some(field), true) = (typed_field(a), is_str_literal(c)) {
                    self.found
                        .push(format!("{}: `.{field}` compared with a string", self.file));
                }
            }
        }
        syn::visit::visit_expr_binary(self, b);
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn stored_values_are_read_by_the_store_alone() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/src");
    let store = src.join("store");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut finder = Finder {
        file: String::new(),
        found: Vec::new(),
    };
    let mut read = 0;
    for path in files.iter().filter(|p| !p.starts_with(&store)) {
        let text = std::fs::read_to_string(path).unwrap();
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        finder.file = path.strip_prefix(&src).unwrap().display().to_string();
        finder.visit_file(&file);
        read += 1;
    }
    assert!(read > 80, "the server's modules were read ({read})");
    assert!(finder.found.is_empty(), "{}", finder.found.join("\n"));

    // And the finder sees what it looks for: the store itself reads columns by name.
    let mut store_files = Vec::new();
    rust_files(&store, &mut store_files);
    let mut seen = Finder {
        file: String::new(),
        found: Vec::new(),
    };
    let sample = syn::parse_file(
        "fn f(r: R, g: G) -> bool { r.try_get(\"id\").is_ok() && g.press == \"none\" }
         async fn s(d: D) -> V {
             match db::setting(&d.read, KEY).await?.as_deref() { Some(\"members\") => V::M, _ => V::P }
         }
         async fn t(d: D, n: &str) -> V {
             match store::games::by_id(&d, 1).await?.status { S::Active => V::M, _ => V::P };
             match n { \"members\" => V::M, _ => V::P }
         }
         fn u(power: &str, status: S, outcome: Option<&str>, seat: Seat, url: &str) -> R {
             let _ = seat.outcome.as_deref().unwrap().starts_with(\"draw: \") || url.starts_with(\"https://\");
             match (status, outcome) {
                 (_, Some(o)) if o.strip_prefix(\"victory: \").is_some_and(|w| w == power) => R::Won,
                 _ => R::Playing,
             }
         }",
    )
    .unwrap();
    seen.visit_file(&sample);
    assert_eq!(seen.found.len(), 5, "{:?}", seen.found);
    assert!(!store_files.is_empty());
}

/// Whether a type holds a tuple of values anywhere (`(A, B)`, `Vec<(A, B)>`,
/// `Result<Option<(A, B)>>`); `()` is not one.
fn holds_tuple(t: &syn::Type) -> bool {
    struct Tuples(bool);
    impl<'ast> Visit<'ast> for Tuples {
        fn visit_type_tuple(&mut self, t: &'ast syn::TypeTuple) {
            self.0 |= !t.elems.is_empty();
            syn::visit::visit_type_tuple(self, t);
        }
    }
    let mut found = Tuples(false);
    found.visit_type(t);
    found.0
}

/// The public functions of a file whose return type holds a tuple.
fn tuple_returns(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Fn(f) if matches!(f.vis, syn::Visibility::Public(_)) => Some(f),
            _ => None,
        })
        .filter(|f| matches!(&f.sig.output, syn::ReturnType::Type(_, t) if holds_tuple(t)))
        .map(|f| f.sig.ident.to_string())
        .collect()
}

#[test]
fn the_store_returns_named_rows_not_tuples() {
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/src/store");
    let mut files = Vec::new();
    rust_files(&store, &mut files);
    assert!(files.len() > 15, "the store's modules were read ({})", files.len());
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for name in tuple_returns(&file) {
            found.push(format!("{}: {name} returns a tuple", path.display()));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));

    // And the check sees a tuple wherever it is, and not the unit type.
    let sample = syn::parse_file(
        "pub async fn a() -> sqlx::Result<Vec<(i64, String)>> { todo!() }
         pub fn b() -> Result<Option<(bool, i64)>, E> { todo!() }
         pub fn c() -> sqlx::Result<()> { Ok(()) }
         fn d() -> (i64, i64) { (0, 0) }",
    )
    .unwrap();
    assert_eq!(tuple_returns(&sample), ["a", "b"]);
}
