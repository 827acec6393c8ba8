//! The variant's `rule` lines, read once when the variant is loaded into typed settings:
//! the Diplomacy Point numbers (`dp::DpRules`), the Original 1958 switches, and build
//! restrictions. A line with a known key that cannot be read stops the load with its line;
//! a line with an unknown key is kept as written and `lint` warns about it, so that a
//! misspelt key never switches a rule off silently.
//!
//! ```text
//! rule stacking capitals naval-bases   # Original 1958 rules 3 to 5 (stacking.rs)
//! rule boarding on                     # rules 6 and 7 (boarding.rs)
//! rule convoys none                    # rule 6: no convoys
//! rule swaps different-coasts          # rule 8
//! rule build-restriction France Leb    # 1936: a home centre the power may not build in
//! rule dp-budget …, dp-penalty …, client-bonus …, sortie …   # rules/dp.rs
//! ```

mod dp;

use crate::variant::{RuleParam, Variant};
use dp::read_dp_line;

// The types live with the variant that holds them, so that the variant needs nothing
// from the module that reads them.
pub use crate::variant::{Rule, Rules};

type Reader = fn(&Variant, &RuleParam, &mut Rules) -> Result<(), String>;

/// Every key a mechanism reads, with the reader that types its lines. The loader reads
/// through this table and `lint` takes its known keys from it, so a key cannot be known
/// to one and not the other.
const READERS: &[(&str, Reader)] = &[
    ("dp-budget", dp_line),
    ("dp-penalty", dp_line),
    ("client-bonus", dp_line),
    ("sortie", dp_line),
    ("stacking", stacking),
    ("boarding", boarding),
    ("convoys", convoys),
    ("swaps", swaps),
    ("build-restriction", build_restriction),
];

/// The rule keys some mechanism reads.
pub fn known_keys() -> impl Iterator<Item = &'static str> {
    READERS.iter().map(|(key, _)| *key)
}

/// Reads `v.rules.lines` into typed rules. The error names the line and what is wrong.
/// Runs when the variant is loaded, once everything the lines may name is declared.
pub(crate) fn read(v: &Variant) -> Result<Rules, (usize, String)> {
    let mut rules = Rules {
        lines: v.rules.lines.clone(),
        ..Rules::default()
    };
    for line in &v.rules.lines {
        if let Some((_, reader)) = READERS.iter().find(|(key, _)| *key == line.key) {
            reader(v, line, &mut rules).map_err(|e| (line.line, format!("rule {}: {e}", line.key)))?;
        }
    }
    Ok(rules)
}

fn dp_line(v: &Variant, r: &RuleParam, rules: &mut Rules) -> Result<(), String> {
    read_dp_line(v, r, &mut rules.dp)
}

/// The values of a switch line must be exactly `expected`: the engine implements that
/// form only, and a line asking for another must not pass for it.
fn switch(r: &RuleParam, expected: &[&str]) -> Result<(), String> {
    if r.values.iter().map(String::as_str).eq(expected.iter().copied()) {
        Ok(())
    } else {
        Err(format!(
            "`rule {} {}` is the only form the engine implements",
            r.key,
            expected.join(" ")
        ))
    }
}

fn stacking(_: &Variant, r: &RuleParam, rules: &mut Rules) -> Result<(), String> {
    switch(r, &["capitals", "naval-bases"])?;
    rules.stacking = true;
    Ok(())
}

fn boarding(_: &Variant, r: &RuleParam, rules: &mut Rules) -> Result<(), String> {
    match r.values.first().map(String::as_str) {
        Some("off") if r.values.len() == 1 => rules.boarding = false,
        _ => {
            switch(r, &["on"])?;
            rules.boarding = true;
        }
    }
    Ok(())
}

fn convoys(_: &Variant, r: &RuleParam, rules: &mut Rules) -> Result<(), String> {
    switch(r, &["none"])?;
    rules.no_convoys = true;
    Ok(())
}

fn swaps(_: &Variant, r: &RuleParam, rules: &mut Rules) -> Result<(), String> {
    switch(r, &["different-coasts"])?;
    rules.coast_swaps = true;
    Ok(())
}

fn build_restriction(v: &Variant, r: &RuleParam, rules: &mut Rules) -> Result<(), String> {
    let [power, space] = r.values.as_slice() else {
        return Err("expected `build-restriction POWER SPACE`".into());
    };
    let power = v.find_power(power).ok_or_else(|| format!("unknown power `{power}`"))?;
    let space = v
        .find_province(space)
        .ok_or_else(|| format!("unknown space `{space}`"))?;
    if !v.is_home_of(space, power) {
        return Err(format!(
            "{} is not a home centre of {}, so there is nothing to restrict",
            v.province(space).name,
            v.power(power).name
        ));
    }
    rules.build_restrictions.push((power, space));
    Ok(())
}
