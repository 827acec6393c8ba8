//! The variant's `rule` lines as the loader types them (src/rules.rs): the built-in
//! variants' rules, and what a line that cannot be read, or an unknown key, does.

use chancery_engine::builtin::builtin;
use chancery_engine::rules::{known_keys, Rule, Rules};
use chancery_engine::variant::Variant;
use chancery_engine::variant_file::load_variant;

const MAP: &str = "variant t\nstart Spring 1901\nvictory centres 1\npower P great\nprovince a land \"A\" home=P\nprovince b land \"B\"\nunit P A a\narmy a: b\narmy b: a\n";

fn load(rules: &str) -> Result<Variant, String> {
    load_variant("t.var", &format!("{MAP}{rules}")).map_err(|e| e.to_string())
}

#[test]
fn the_built_in_variants_have_the_rules_their_pages_give() {
    let v = builtin("original-1958").unwrap().unwrap();
    for rule in [Rule::Stacking, Rule::Boarding, Rule::NoConvoys, Rule::CoastSwaps] {
        assert!(v.rule_on(rule), "{rule:?}");
    }
    assert!(!v.rule_on(Rule::DiplomacyPoints));
    let v = builtin("1936").unwrap().unwrap();
    assert!(v.rule_on(Rule::DiplomacyPoints) && !v.rule_on(Rule::Stacking));
    let france = v.find_power("France").unwrap();
    assert!(v
        .rules
        .build_restrictions
        .contains(&(france, v.find_province("Leb").unwrap())));
    let v = builtin("standard").unwrap().unwrap();
    assert_eq!(v.rules, Rules::default());
}

/// A known key with a value the engine does not implement stops the load at its line,
/// rather than passing for the rule or switching it off.
#[test]
fn a_rule_line_that_cannot_be_read_stops_the_load() {
    let e = load("rule stacking capitals\n").unwrap_err();
    assert!(
        e.starts_with("t.var:10:") && e.contains("rule stacking capitals naval-bases"),
        "{e}"
    );
    let e = load("rule convoys sometimes\n").unwrap_err();
    assert!(e.contains("`rule convoys none`"), "{e}");
    let e = load("rule build-restriction P b\n").unwrap_err();
    assert!(e.contains("not a home centre"), "{e}");
    let e = load("rule dp-budget Q 3\n").unwrap_err();
    assert!(e.contains("rule dp-budget: unknown power `Q`"), "{e}");
    assert!(load("rule boarding off\n").is_ok_and(|v| !v.rule_on(Rule::Boarding)));
}

/// An unknown key loads (lint warns about it) and switches nothing on.
#[test]
fn an_unknown_key_is_kept_for_lint() {
    let v = load("rule stackin capitals naval-bases\n").unwrap();
    assert!(!v.rule_on(Rule::Stacking));
    assert_eq!(v.rules.lines.len(), 1);
    assert!(!known_keys().any(|k| k == "stackin"));
    assert!(known_keys().any(|k| k == "stacking"));
}
