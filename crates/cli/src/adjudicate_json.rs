//! `chancery adjudicate`: one phase as JSON in, outcome and next position as JSON out.
//! The request and response are described in docs/adjudicate-json.md.

use std::io::Read;
use std::process::ExitCode;

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::json::{adjudication_json, state_from_json, StateJson};
use chancery_engine::parse::parse_named_order;
use chancery_engine::{GameState, Order};
use serde::Deserialize;

use crate::commands::load;
use crate::order_lines::OrderLines;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    variant: String,
    /// Absent: the variant's starting position.
    state: Option<StateJson>,
    /// `{"England": ["F lon - nth", ...], ...}` or `["England: F lon - nth", ...]`.
    orders: OrderLines,
}

pub fn run(input: Option<&str>) -> Result<ExitCode, String> {
    let text = match input {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
        None => {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).map_err(|e| e.to_string())?;
            s
        }
    };
    let request: Request = serde_json::from_str(&text).map_err(|e| format!("request: {e}"))?;
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
    let result = adjudicate(&v, &state, &orders);
    let mut out = serde_json::to_value(adjudication_json(&v, &result)).map_err(|e| e.to_string())?;
    if !unreadable.is_empty() {
        out["unreadable"] = serde_json::Value::Array(unreadable);
    }
    println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    Ok(ExitCode::SUCCESS)
}
