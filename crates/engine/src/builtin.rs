//! The variants that ship with Chancery, compiled in so that a fresh install needs no
//! data files. A path to a `.var` file works wherever a name does.

use crate::variant::Variant;
use crate::variant_file::{load_variant, LoadError};

/// (id, file name, text) of every built-in variant. The files are the repository's
/// `variants/`, reached through `crates/engine/variants`, a link to it inside the crate,
/// so that a packaged crate carries them (cargo package copies what the link points at).
pub const BUILTIN: &[(&str, &str, &str)] = &[
    (
        "standard",
        "variants/standard.var",
        include_str!("../variants/standard.var"),
    ),
    ("1936", "variants/1936.var", include_str!("../variants/1936.var")),
    ("1648", "variants/1648.var", include_str!("../variants/1648.var")),
    (
        "original-1958",
        "variants/original-1958.var",
        include_str!("../variants/original-1958.var"),
    ),
];

/// The text of a built-in variant, by id (any case).
pub fn builtin_text(id: &str) -> Option<(&'static str, &'static str)> {
    BUILTIN
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(id))
        .map(|(_, file, text)| (*file, *text))
}

/// Loads a built-in variant by id.
pub fn builtin(id: &str) -> Option<Result<Variant, LoadError>> {
    builtin_text(id).map(|(file, text)| load_variant(file, text))
}

/// The ids of the built-in variants, in a fixed order.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(name, _, _)| *name)
}
