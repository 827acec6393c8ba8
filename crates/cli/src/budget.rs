//! `chancery budget VARIANT [--state STATE.json]`: each great power's Diplomacy Points
//! for the turn, with every deduction and its reason (issue 4, rule 2).

use std::process::ExitCode;

use chancery_engine::dp::budgets;
use chancery_engine::json::{state_from_json, StateJson};
use chancery_engine::rules::Rule;
use chancery_engine::{GameState, PhaseKind};

use crate::commands::load;

pub fn run(variant: &str, state: Option<&str>) -> Result<ExitCode, String> {
    let v = load(variant)?;
    let state = match state {
        None => GameState::initial(&v),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let json: StateJson =
                serde_json::from_str(&text).map_err(|e| format!("{path}: not a position in JSON: {e}"))?;
            state_from_json(&v, &json).map_err(|e| format!("{path}: {e}"))?
        }
    };
    if !v.rule_on(Rule::DiplomacyPoints) {
        println!("{} has no Diplomacy Points (no `rule dp-budget` line)", v.title);
        return Ok(ExitCode::SUCCESS);
    }
    // "Each Great Power receives a set number of Diplomacy Points (DPs) every Spring and
    // Fall turn" (rule 2), and spends them in that turn's orders: a retreat or Winter
    // phase has no budget to show.
    if state.phase.kind != PhaseKind::Movement {
        let mut next = state.phase.next();
        while next.kind != PhaseKind::Movement {
            next = next.next();
        }
        println!("No bids are made in {}; the next are made in {next}.", state.phase);
        return Ok(ExitCode::SUCCESS);
    }
    println!("Diplomacy Points, {} ({})", state.phase, v.title);
    for b in budgets(&v, &state, &v.rules.dp) {
        println!(
            "{}: {} DP{}",
            v.power(b.power).name,
            b.total,
            if b.total == 1 { "" } else { "s" }
        );
        for line in &b.lines {
            println!("  {line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
