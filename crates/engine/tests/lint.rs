//! `lint` finds what a map author gets wrong before a game is played on
//! the map.

use chancery_engine::lint::{lint, Severity};
use chancery_engine::variant_file::load_variant;

const HEADER: &str = "variant t\nstart Spring 1901\nvictory centres 2\npower P great\n";

fn findings(body: &str) -> Vec<(Severity, String)> {
    let v = load_variant("t.var", &format!("{HEADER}{body}")).unwrap_or_else(|e| panic!("{e}"));
    lint(&v).into_iter().map(|f| (f.severity, f.message)).collect()
}

fn has_error(f: &[(Severity, String)], text: &str) -> bool {
    f.iter().any(|(s, m)| *s == Severity::Error && m.contains(text))
}

#[test]
fn a_border_written_once_is_an_error() {
    let f = findings("province a land \"A\" at=50,10\nprovince b land \"B\" at=50,11\narmy a: b\n");
    assert!(has_error(&f, "army border a–b is written only from a"), "{f:?}");
}

#[test]
fn an_army_border_into_the_sea_is_an_error() {
    let f = findings("province a coast \"A\"\nprovince s sea \"S\"\narmy a: s\nfleet a: s\nfleet s: a\n");
    assert!(has_error(&f, "army border a–s enters the sea"), "{f:?}");
}

#[test]
fn an_unreachable_space_is_an_error() {
    let f = findings("province a land \"A\"\nprovince b land \"B\"\nprovince c land \"C\"\narmy a: b\narmy b: a\n");
    assert!(has_error(&f, "c cannot be reached"), "{f:?}");
}

#[test]
fn a_coast_without_borders_is_an_error() {
    let f = findings("province a coast \"A\" coasts=nc,sc\nprovince s sea \"S\"\nfleet a/nc: s\nfleet s: a/nc\n");
    assert!(has_error(&f, "coast a/sc has no fleet border"), "{f:?}");
}

#[test]
fn far_apart_neighbours_and_near_strangers_are_warned_about() {
    let f = findings(
        "province a land \"A\" at=50,0\nprovince b land \"B\" at=50,40\nprovince c land \"C\" at=50.5,0.5\narmy a: b\narmy b: a c\narmy c: b\n",
    );
    assert!(
        f.iter()
            .any(|(s, m)| *s == Severity::Warning && m.contains("a–b are adjacent but")),
        "{f:?}"
    );
    assert!(
        f.iter()
            .any(|(s, m)| *s == Severity::Warning && m.contains("a and c are") && m.contains("not adjacent")),
        "{f:?}"
    );
}

#[test]
fn an_unknown_rule_key_is_warned_about() {
    let f = findings("province a land \"A\"\nrule dp-budjet P 3\n");
    assert!(
        f.iter()
            .any(|(s, m)| *s == Severity::Warning && m.contains("no mechanism reads rule `dp-budjet`")),
        "{f:?}"
    );
}
