//! The variant loader rejects a broken file with file:line and what is wrong, and never
//! panics on any input (docs/variant-format.md).

use chancery_engine::builtin::builtin_text;
use chancery_engine::variant_file::load_variant;
use proptest::prelude::*;

fn standard_text() -> &'static str {
    builtin_text("standard").unwrap().1
}

/// Replaces line `n` (1-based) of the Standard file.
fn with_line(n: usize, line: &str) -> String {
    standard_text()
        .lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { line.to_string() } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
}

fn line_of(prefix: &str) -> usize {
    standard_text().lines().position(|l| l.starts_with(prefix)).unwrap() + 1
}

#[test]
fn broken_files_name_the_line_and_the_fault() {
    let army_mos = line_of("army mos");
    let cases = [
        (
            with_line(army_mos, "army mos: stp lvn warr ukr sev"),
            army_mos,
            "unknown space `warr` (did you mean `war`?)",
        ),
        (with_line(army_mos, "army mos stp lvn"), army_mos, "expected `:`"),
        (
            with_line(army_mos, "navy mos: stp"),
            army_mos,
            "unknown statement `navy`",
        ),
        (
            with_line(army_mos, "province nth sea \"North Sea\""),
            army_mos,
            "declared twice",
        ),
        (
            with_line(army_mos, "province xyz swamp \"Swamp\""),
            army_mos,
            "unknown terrain `swamp`",
        ),
        (
            with_line(army_mos, "unit Russia F mos"),
            army_mos,
            "a fleet cannot stand in `mos`",
        ),
        (
            with_line(army_mos, "unit Russia F stp"),
            army_mos,
            "must name its coast",
        ),
        (
            with_line(army_mos, "unit Prussia A mos"),
            army_mos,
            "unknown power `Prussia`",
        ),
        (
            with_line(army_mos, "fleet stp: bar"),
            army_mos,
            "write one fleet line per coast",
        ),
        (
            with_line(army_mos, "army nth: eng"),
            army_mos,
            "armies cannot stand in `nth`",
        ),
        (
            with_line(army_mos, "power Austria great colour=red"),
            army_mos,
            "not of the form #rrggbb",
        ),
        (with_line(army_mos, "province \"abc sea"), army_mos, "not closed"),
        (
            with_line(army_mos, "start Summer 1901"),
            army_mos,
            "unknown season `Summer`",
        ),
        (
            with_line(army_mos, "victory points 18"),
            army_mos,
            "victory by `points`?",
        ),
        (
            with_line(army_mos, "outside"),
            army_mos,
            "`outside` takes at least one LATITUDE,LONGITUDE",
        ),
        (
            with_line(army_mos, "outside 53.4,-8.0 95.0,8.2"),
            army_mos,
            "`95.0,8.2` is not LATITUDE,LONGITUDE",
        ),
    ];
    for (text, line, want) in cases {
        match load_variant("standard.var", &text) {
            Ok(_) => panic!("accepted a file with `{want}`"),
            Err(e) => {
                let shown = e.to_string();
                assert_eq!(e.line, line, "{shown}");
                assert!(shown.starts_with(&format!("standard.var:{line}: ")), "{shown}");
                assert!(shown.contains(want), "`{shown}` should say `{want}`");
            }
        }
    }
}

/// `outside` lines are drawing only: their points are kept for the map generator.
#[test]
fn outside_points_are_read() {
    let v = load_variant("standard.var", standard_text()).unwrap();
    assert!(v.outside_points.contains(&(53.4, -8.0)), "{:?}", v.outside_points);
}

#[test]
fn a_file_without_header_is_refused() {
    let e = load_variant("x.var", "power A great\nprovince a land \"A\"\n").unwrap_err();
    assert!(e.message.contains("no `variant NAME` line"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any line of the Standard file replaced by random text: loads or fails with a
    /// line number, never panics.
    #[test]
    fn random_line_never_panics(n in 1usize..400, junk in "\\PC{0,40}") {
        let text = with_line(n, &junk);
        if let Err(e) = load_variant("standard.var", &text) {
            prop_assert!(e.line >= 1);
        }
    }

    /// Arbitrary text: never panics.
    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        let _ = load_variant("x.var", &text);
    }
}

/// Standard with each power renamed: every whole-word use of an old name (the `power`
/// line, `home=`, `unit` lines) becomes the new name, quoted.
pub fn renamed_standard(names: &[(&str, &str)]) -> String {
    let mut text = standard_text().replacen("variant standard", "variant renamed", 1);
    for (old, new) in names {
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find(old) {
            let before = rest[..i].chars().last();
            let after = rest[i + old.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
            out.push_str(&rest[..i]);
            if word(before) || word(after) {
                out.push_str(old);
            } else {
                out.push_str(&format!("\"{new}\""));
            }
            rest = &rest[i + old.len()..];
        }
        out.push_str(rest);
        text = out;
    }
    text
}

/// A power's name may hold any characters (a quoted name passes the lint); `_`, made of
/// a separator alone, was declared and then unknown on its own `unit` lines.
#[test]
fn powers_named_with_any_characters_load_and_are_found() {
    let names = [
        ("Austria", "_"),
        ("England", "A,B"),
        ("Italy", "Italy_"),
        ("Turkey", "%"),
    ];
    let v = load_variant("renamed.var", &renamed_standard(&names)).unwrap();
    for (_, new) in names {
        let p = v.find_power(new).unwrap_or_else(|| panic!("`{new}` is found"));
        assert_eq!(v.power(p).name, new);
    }
    let austria = v.find_power("_").unwrap();
    assert_ne!(Some(austria), v.find_power("-"));
    assert_eq!(v.find_power("_").map(|p| v.power(p).name.as_str()), Some("_"));
}
