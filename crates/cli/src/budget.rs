//! `chancery budget VARIANT [--state STATE.json | --phase REQUEST.json]`: each great
//! power's Diplomacy Points for the turn, with every deduction and its reason
//! (docs/rules-dp.md, rule 2). With `--phase` (a `chancery adjudicate` request with orders and bids) the
//! phase is judged by `judge_phase` and the GM's bid report follows.

use std::process::ExitCode;

use chancery_engine::dp::budgets;
use chancery_engine::json::{state_from_json, StateJson};
use chancery_engine::phase::judge_phase;
use chancery_engine::rules::Rule;
use chancery_engine::{GameState, PhaseKind, Variant};

use crate::adjudicate_json::{read_input, read_request};
use crate::commands::load;
use crate::output::{say, Failure};

pub fn run(variant: &str, state: Option<&str>, phase: Option<&str>) -> Result<ExitCode, Failure> {
    let (v, state, judged) = match (state, phase) {
        (Some(_), Some(_)) => return Err("--phase brings its own position; leave out --state".into()),
        (None, Some(path)) => {
            let request = read_request(&read_input(Some(path))?).map_err(|e| format!("{path}: {e}"))?;
            if let Some(bad) = request.unreadable.first() {
                return Err(format!("{path}: cannot read {bad}").into());
            }
            if load(variant)?.id != request.variant.id {
                return Err(format!("{path} is a phase of {}, not {variant}", request.variant.id).into());
            }
            let judged = judge_phase(&request.variant, &request.state, &request.orders, &request.bids);
            (request.variant, request.state, Some(judged))
        }
        (state, None) => {
            let v = load(variant)?;
            let state = read_state(&v, state)?;
            (v, state, None)
        }
    };
    if !v.rule_on(Rule::DiplomacyPoints) {
        say!("{} has no Diplomacy Points (no `rule dp-budget` line)", v.title);
        return Ok(ExitCode::SUCCESS);
    }
    print_budgets(&v, &state)?;
    if let Some(report) = judged.and_then(|j| j.bid_report) {
        say!();
        say!(raw "{}", report.text(&v));
    }
    Ok(ExitCode::SUCCESS)
}

fn read_state(v: &Variant, state: Option<&str>) -> Result<GameState, String> {
    Ok(match state {
        None => GameState::initial(v),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let json: StateJson =
                serde_json::from_str(&text).map_err(|e| format!("{path}: not a position in JSON: {e}"))?;
            state_from_json(v, &json).map_err(|e| format!("{path}: {e}"))?
        }
    })
}

fn print_budgets(v: &Variant, state: &GameState) -> Result<(), Failure> {
    // "Each Great Power receives a set number of Diplomacy Points (DPs) every Spring and
    // Fall turn" (rule 2), and spends them in that turn's orders: a retreat or Winter
    // phase has no budget to show.
    if state.phase.kind != PhaseKind::Movement {
        let mut next = state.phase.next();
        while next.kind != PhaseKind::Movement {
            next = next.next();
        }
        say!("No bids are made in {}; the next are made in {next}.", state.phase);
        return Ok(());
    }
    say!("Diplomacy Points, {} ({})", state.phase, v.title);
    for b in budgets(v, state) {
        say!(
            "{}: {} DP{}",
            v.power(b.power).name,
            b.total,
            if b.total == 1 { "" } else { "s" }
        );
        for line in &b.lines {
            say!("  {line}");
        }
    }
    Ok(())
}
