//! One pipeline for a phase: the case runner and `chancery adjudicate` judge a
//! phase through the engine's `judge_phase`, so all three give the same result. The
//! phase is a 1936 Spring in which rule 8 fires (Italy eliminated, its Nationalist
//! faction falls into civil disorder) and a bid buys a minor's sortie (rules 4 and 6):
//! `tests/dp/1936-civil-disorder.txt` holds it as a case and
//! `tests/pipeline/1936-rule-8.json` as a `chancery adjudicate` request.

use std::path::PathBuf;
use std::process::Command;

use chancery_engine::builtin::builtin;
use chancery_engine::dp::parse_bid;
use chancery_engine::json::{adjudication_json, state_from_json, StateJson};
use chancery_engine::parse::parse_named_order;
use chancery_engine::phase::{judge_phase, PhaseResult};
use chancery_engine::{Order, Variant};

const CASE: &str = "1936 rule 8: the sponsor eliminated, its faction falls into civil disorder";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn request_path() -> PathBuf {
    root().join("tests/pipeline/1936-rule-8.json")
}

/// The phase judged straight from the request, by the entry point itself.
fn by_entry_point(v: &Variant) -> PhaseResult {
    let request: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(request_path()).unwrap()).unwrap();
    let state: StateJson = serde_json::from_value(request["state"].clone()).unwrap();
    let state = state_from_json(v, &state).unwrap();
    let mut orders: Vec<Order> = Vec::new();
    for (power, list) in request["orders"].as_object().unwrap() {
        for o in list.as_array().unwrap() {
            orders.push(parse_named_order(v, &format!("{power}: {}", o.as_str().unwrap())).unwrap());
        }
    }
    let mut bids = Vec::new();
    for (power, list) in request["bids"].as_object().unwrap() {
        for b in list.as_array().unwrap() {
            bids.push(parse_bid(v, v.find_power(power).unwrap(), b.as_str().unwrap()).unwrap());
        }
    }
    judge_phase(v, &state, &orders, &bids)
}

#[test]
fn the_case_runner_the_cli_and_the_entry_point_agree_on_a_rule_8_phase() {
    let v = builtin("1936").unwrap().unwrap();
    let expected = by_entry_point(&v);
    let nationalists = v.find_power("Nationalist Spain").unwrap();
    // The phase is the one described: rule 8 fired, and Britain's bid was judged.
    assert_eq!(expected.orphaned, vec![nationalists]);
    assert_eq!(expected.minor_orders.len(), 1);
    assert!(expected.bid_report.is_some());

    // The case runner: the case passes, and its judged phase is the entry point's.
    let text = std::fs::read_to_string(root().join("tests/dp/1936-civil-disorder.txt")).unwrap();
    let cases = chancery_cases::parse_cases(&text).unwrap();
    let case = cases.iter().find(|c| c.name == CASE).unwrap();
    let report = chancery_cases::run_case(case, &v);
    assert!(report.passed(), "{:?}", report.differences);
    let by_case = chancery_cases::judge_case(case, &v).unwrap();
    assert_eq!(by_case, expected);

    // The command line: the public result, the orphaned factions and the GM's report.
    let out = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(["adjudicate", "--input", request_path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let object = answer.as_object_mut().unwrap();
    assert_eq!(
        object.remove("orphaned"),
        Some(serde_json::json!(["Nationalist Spain"]))
    );
    let report = object
        .remove("bid_report")
        .expect("the request bids, so the GM's report is there");
    assert_eq!(
        report,
        serde_json::json!(expected.bid_report.as_ref().unwrap().text(&v))
    );
    assert_eq!(
        answer,
        serde_json::to_value(adjudication_json(&v, &expected.adjudication)).unwrap()
    );
}

/// `chancery budget --phase` judges the request through `judge_phase` too: the budgets,
/// then the GM's bid report, word for word the entry point's.
#[test]
fn budget_prints_the_entry_points_bid_report() {
    let v = builtin("1936").unwrap().unwrap();
    let expected = by_entry_point(&v).bid_report.unwrap().text(&v);
    let out = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(["budget", "1936", "--phase", request_path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Diplomacy Points, Spring 1938 movement"), "{text}");
    assert!(text.ends_with(&format!("\n\n{expected}")), "{text}");
    assert!(expected.contains("chosen: A mor - alg"), "{expected}");
}
