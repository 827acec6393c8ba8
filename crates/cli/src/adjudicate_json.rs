//! `chancery adjudicate`: one phase as JSON in, outcome and next position as JSON out,
//! judged by the engine's one entry point (`judge_phase`), as the server judges it.
//! The request and response are described in docs/adjudicate-json.md.

use std::io::Read;
use std::process::ExitCode;

use chancery_engine::dp::{parse_bid, Bid};
use chancery_engine::json::{adjudication_json, state_from_json, StateJson};
use chancery_engine::parse::parse_named_order;
use chancery_engine::phase::judge_phase;
use chancery_engine::{GameState, Order, Variant};
use serde::Deserialize;

use crate::commands::load;
use crate::order_lines::OrderLines;
use crate::output::{say, Failure};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    variant: String,
    /// Absent: the variant's starting position.
    state: Option<StateJson>,
    /// `{"England": ["F lon - nth", ...], ...}` or `["England: F lon - nth", ...]`.
    orders: OrderLines,
    /// DP bids (1936, 1648) in the same two forms: `{"France": ["2 A bel H"]}` or
    /// `["France: DP A bel H"]`.
    #[serde(default)]
    bids: Option<OrderLines>,
}

/// A request read and its names resolved: what `judge_phase` takes, and the lines that
/// could not be read, as JSON entries for the answer.
pub struct PhaseRequest {
    pub variant: Variant,
    pub state: GameState,
    pub orders: Vec<Order>,
    pub bids: Vec<Bid>,
    pub unreadable: Vec<serde_json::Value>,
}

/// Reads a request (docs/adjudicate-json.md); `chancery budget --phase` reads the same.
pub fn read_request(text: &str) -> Result<PhaseRequest, String> {
    let request: Request = serde_json::from_str(text).map_err(|e| format!("request: {e}"))?;
    let v = load(&request.variant)?;
    let state = match &request.state {
        Some(s) => state_from_json(&v, s).map_err(|e| format!("state: {e}"))?,
        None => GameState::initial(&v),
    };
    let mut orders: Vec<Order> = Vec::new();
    let mut unreadable = Vec::new();
    for line in request.orders.into_lines() {
        match parse_named_order(&v, &line) {
            Ok(order) => orders.push(order),
            Err(e) => unreadable.push(serde_json::json!({"order": line, "error": e.to_string()})),
        }
    }
    let mut bids: Vec<Bid> = Vec::new();
    for line in request.bids.map(OrderLines::into_lines).unwrap_or_default() {
        let read = line
            .split_once(':')
            .ok_or_else(|| "a bid line starts with its power and a colon".to_string())
            .and_then(|(power, bid)| {
                let p = v
                    .find_power(power.trim())
                    .ok_or_else(|| format!("unknown power `{}`", power.trim()))?;
                parse_bid(&v, p, bid)
            });
        match read {
            Ok(bid) => bids.push(bid),
            Err(e) => unreadable.push(serde_json::json!({"bid": line, "error": e})),
        }
    }
    Ok(PhaseRequest {
        variant: v,
        state,
        orders,
        bids,
        unreadable,
    })
}

/// The request's text, from a file or standard input.
pub fn read_input(input: Option<&str>) -> Result<String, String> {
    match input {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}")),
        None => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| e.to_string())?;
            Ok(s)
        }
    }
}

pub fn run(input: Option<&str>) -> Result<ExitCode, Failure> {
    let PhaseRequest {
        variant: v,
        state,
        orders,
        bids,
        unreadable,
    } = read_request(&read_input(input)?)?;
    let judged = judge_phase(&v, &state, &orders, &bids);
    let mut out = serde_json::to_value(adjudication_json(&v, &judged.adjudication)).map_err(|e| e.to_string())?;
    if !judged.orphaned.is_empty() {
        let names: Vec<&str> = judged.orphaned.iter().map(|&p| v.power(p).name.as_str()).collect();
        out["orphaned"] = serde_json::json!(names);
    }
    // The GM's report, when the request bids at all (phases without bids would all
    // carry an empty one).
    if let Some(report) = judged.bid_report.as_ref().filter(|_| !bids.is_empty()) {
        out["bid_report"] = serde_json::Value::String(report.text(&v));
    }
    if !unreadable.is_empty() {
        out["unreadable"] = serde_json::Value::Array(unreadable);
    }
    say!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    Ok(ExitCode::SUCCESS)
}
