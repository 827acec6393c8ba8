//! `chancery adjudicate`: one phase as JSON in, outcome and next position as JSON out.
//! The request and response are described in docs/adjudicate-json.md.

use std::io::Read;
use std::process::ExitCode;

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::json::{adjudication_json, state_from_json, StateJson};
use chancery_engine::parse::parse_order_line;
use chancery_engine::{GameState, Order};
use serde::Deserialize;

use crate::commands::load;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    variant: String,
    /// Absent: the variant's starting position.
    state: Option<StateJson>,
    /// `{"England": ["F lon - nth", ...], ...}` or `["England: F lon - nth", ...]`.
    orders: Orders,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Orders {
    ByPower(std::collections::BTreeMap<String, Vec<String>>),
    Lines(Vec<String>),
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
    let lines: Vec<String> = match request.orders {
        Orders::Lines(lines) => lines,
        Orders::ByPower(map) => map
            .into_iter()
            .flat_map(|(power, orders)| orders.into_iter().map(move |o| format!("{power}: {o}")))
            .collect(),
    };
    let mut orders: Vec<Order> = Vec::new();
    let mut unreadable = Vec::new();
    for line in &lines {
        match parse_order_line(&v, line) {
            Ok((Some(power), order)) => orders.push(Order { power, ..order }),
            Ok((None, _)) => unreadable.push(
                serde_json::json!({"order": line, "error": "say which power gives the order: `England: F lon - nth`"}),
            ),
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
