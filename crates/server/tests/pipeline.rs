//! One pipeline for a phase, the server's part: a phase the server processes
//! is judged by the engine's `judge_phase`, exactly as the case runner and `chancery
//! adjudicate` judge it (crates/cli/tests/pipeline.rs compares those two with the entry
//! point on the same request). The phase is `tests/pipeline/1936-rule-8.json`: Spring
//! 1938, France dislodges Italy's last army with nowhere to retreat, so Italy is
//! eliminated and its Nationalist faction falls into civil disorder (rule 8); Britain's
//! bid buys Morocco's sortie (rules 4 and 6); the Soviet player orders its Republican
//! faction.

mod common;

use std::path::PathBuf;

use chancery_engine::builtin::builtin;
use chancery_engine::dp::parse_bid;
use chancery_engine::json::{adjudication_json, state_from_json, AdjudicationJson, StateJson};
use chancery_engine::parse::parse_named_order;
use chancery_engine::phase::{judge_phase, PhaseResult};
use chancery_engine::Order;
use common::{full_game, targets, Server};
use serde_json::{json, Value};
use sqlx::any::AnyPoolOptions;
use sqlx::Row;

fn request() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/pipeline/1936-rule-8.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

async fn database(t: &common::Target) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    let url = if t.label == "sqlite" {
        format!("sqlite://{}", t.url)
    } else {
        t.url.clone()
    };
    AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_judges_a_rule_8_phase_as_the_entry_point_does() {
    let v = builtin("1936").unwrap().unwrap();
    let request = request();
    let state: StateJson = serde_json::from_value(request["state"].clone()).unwrap();
    let before = state_from_json(&v, &state).unwrap();
    let mut orders: Vec<Order> = Vec::new();
    for (power, list) in request["orders"].as_object().unwrap() {
        for o in list.as_array().unwrap() {
            orders.push(parse_named_order(&v, &format!("{power}: {}", o.as_str().unwrap())).unwrap());
        }
    }
    let mut bids = Vec::new();
    for (power, list) in request["bids"].as_object().unwrap() {
        for b in list.as_array().unwrap() {
            bids.push(parse_bid(&v, v.find_power(power).unwrap(), b.as_str().unwrap()).unwrap());
        }
    }
    let expected = judge_phase(&v, &before, &orders, &bids);
    let nationalists = v.find_power("Nationalist Spain").unwrap();
    assert_eq!(expected.orphaned, vec![nationalists], "rule 8 fires in this phase");

    for t in targets().await {
        let server = Server::start(&t.url);
        let gm = server.register(&format!("pipeline-gm-{}", t.label)).await;
        let (id, _players) = full_game(&server, &gm, "1936", json!({}), &format!("pipeline-{}", t.label)).await;
        // The game starts at the opening; the phase to judge is put in its place, as a
        // GM restoring a game from another judge would have it.
        let db = database(&t).await;
        sqlx::query("UPDATE games SET state_json = $2 WHERE id = $1")
            .bind(id)
            .bind(serde_json::to_string(&state).unwrap())
            .execute(&db)
            .await
            .unwrap();
        // The GM gives the orders and the bids in each power's name, through the API.
        for (power, list) in request["orders"].as_object().unwrap() {
            gm.post(
                &format!("/api/games/{id}/orders"),
                json!({"power": power, "orders": list, "seq": 0}),
            )
            .await;
        }
        for (power, list) in request["bids"].as_object().unwrap() {
            let list: Vec<Value> = list
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    let (dp, order) = b.as_str().unwrap().split_once(' ').unwrap();
                    json!({"dp": dp.parse::<i64>().unwrap(), "order": order})
                })
                .collect();
            gm.post(
                &format!("/api/games/{id}/bids"),
                json!({"power": power, "bids": list, "seq": 0}),
            )
            .await;
        }
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;

        // The public result, the GM's bid report and the position the game goes on from.
        let phase = gm.get(&format!("/api/games/{id}/phases/0")).await;
        let result: AdjudicationJson = serde_json::from_value(phase["result"].clone()).unwrap();
        assert_eq!(result, adjudication_json(&v, &expected.adjudication), "{}", t.label);
        let report = gm.get(&format!("/api/games/{id}/gm/bid-report?seq=0")).await;
        assert_eq!(
            report["report"],
            json!(expected.bid_report.as_ref().unwrap().text(&v)),
            "{}",
            t.label
        );
        let game = gm.get(&format!("/api/games/{id}")).await;
        let next: StateJson = serde_json::from_value(game["state"].clone()).unwrap();
        assert_eq!(state_from_json(&v, &next).unwrap(), *expected.next(), "{}", t.label);
        // And the whole judgement the server keeps for history is the entry point's.
        let stored = sqlx::query("SELECT judged_json FROM phases WHERE game_id = $1 AND seq = 0")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
        let stored: PhaseResult = serde_json::from_str(&stored.get::<String, _>("judged_json")).unwrap();
        assert_eq!(stored, expected, "{}", t.label);
        db.close().await;
    }
}
