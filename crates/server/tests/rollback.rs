//! A rollback leaves nothing of the phase it takes back: that
//! phase's orders, bids and ready marks go, listed in the GM's log, and come back only if
//! a roll forward restores the same result, which leads to that same phase again. The
//! orders and bids a civil-disorder declaration set aside come back the same way when
//! the rollback passes before the declaration. Both backends.

mod common;

use common::{full_game, player, Server};
use serde_json::{json, Value};

fn texts(orders: &Value) -> Vec<String> {
    orders["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["order"].as_str().unwrap().to_string())
        .collect()
}

fn ready(view: &Value, power: &str) -> bool {
    view["powers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == power && p["ready"] == true)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rollback_takes_the_next_phases_orders_and_ready_marks_with_it() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("rb-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "rb").await;
        let england = player(&players, "England");
        let france = player(&players, "France");
        let orders = format!("/api/games/{id}/orders");
        let game = format!("/api/games/{id}");

        // Spring 1901 (0) and Fall 1901 (1): England's fleet to the North Sea, then holds.
        england
            .post(&orders, json!({"orders": ["F lon - nth"], "seq": 0}))
            .await;
        gm.post(&format!("{game}/gm/process"), json!({})).await;
        england.post(&orders, json!({"orders": ["F nth H"], "seq": 1})).await;
        gm.post(&format!("{game}/gm/process"), json!({})).await;
        assert_eq!(gm.get(&game).await["phase"], "S1902M", "no centre changed hands");

        // Spring 1902 (2): orders and a ready mark.
        england
            .post(&orders, json!({"orders": ["F nth - nwg"], "seq": 2}))
            .await;
        france.post(&orders, json!({"orders": ["A par - bur"], "seq": 2})).await;
        england.post(&format!("/api/games/{id}/ready"), json!({"seq": 2})).await;
        assert!(ready(&gm.get(&game).await, "England"));

        // Rolled back and forward with nothing changed: Spring 1902 is the same phase
        // again, so its orders come back (the ready mark does not: it only ever meant
        // "judge it now").
        gm.post(&format!("{game}/gm/rollback"), json!({})).await;
        gm.post(&format!("{game}/gm/rollforward"), json!({})).await;
        assert_eq!(texts(&england.get(&orders).await), ["F nth - nwg"]);
        assert_eq!(texts(&france.get(&orders).await), ["A par - bur"]);
        assert!(!ready(&gm.get(&game).await, "England"));
        england.post(&format!("/api/games/{id}/ready"), json!({"seq": 2})).await;

        // The probe's case: back to Fall 1901, whose orders stay to be changed.
        gm.post(&format!("{game}/gm/rollback"), json!({})).await;
        let view = gm.get(&game).await;
        assert_eq!(
            (view["seq"].as_i64(), view["phase"].as_str()),
            (Some(1), Some("F1901M"))
        );
        assert_eq!(texts(&england.get(&orders).await), ["F nth H"]);
        assert!(!ready(&view, "England"));
        // The GM's log keeps what went.
        let events = gm.get(&format!("{game}/gm/events")).await;
        let rolled: Vec<&str> = events["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "rolled_back")
            .map(|e| e["detail"].as_str().unwrap())
            .collect();
        let last = rolled.last().unwrap();
        assert!(last.contains("England F nth - nwg, ready"), "{events}");
        assert!(last.contains("France A par - bur"), "{events}");

        // Fall 1901's orders change and it is judged anew: England takes Norway, so the
        // phase after it is Winter 1901, with none of the old phase's orders or marks.
        england
            .post(&orders, json!({"orders": ["F nth - nwy"], "seq": 1}))
            .await;
        gm.post(&format!("{game}/gm/process"), json!({})).await;
        let view = gm.get(&game).await;
        assert_eq!(
            (view["seq"].as_i64(), view["phase"].as_str()),
            (Some(2), Some("W1901A"))
        );
        assert_eq!(england.get(&orders).await["orders"], json!([]));
        assert_eq!(france.get(&orders).await["orders"], json!([]));
        assert_eq!(gm.get(&format!("{game}/gm/orders")).await["orders"], json!([]));
        assert!(!ready(&view, "England"), "{view}");
        // Nor do they come back with a later rollback and roll forward.
        gm.post(&format!("{game}/gm/rollback"), json!({})).await;
        gm.post(&format!("{game}/gm/rollforward"), json!({})).await;
        assert_eq!(gm.get(&format!("{game}/gm/orders")).await["orders"], json!([]));
    }
}

/// Rule 11 (1936): a declaration sets the power's orders and bids aside; a rollback to
/// the phase before the declaration undoes it, and when the roll forward restores the
/// phase it was made in, the orders and bids are back as they were.
#[tokio::test(flavor = "multi_thread")]
async fn orders_a_declaration_set_aside_return_when_the_rollback_passes_before_it() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("rbd-gm").await;
        let (id, players) = full_game(&server, &gm, "1936", json!({}), "rbd").await;
        let germany = player(&players, "Germany");
        let game = format!("/api/games/{id}");
        let orders = format!("{game}/orders");
        gm.post(&format!("{game}/gm/process"), json!({})).await;
        let seq = gm.get(&game).await["seq"].as_i64().unwrap();
        assert_eq!(seq, 1);

        germany.post(&orders, json!({"orders": ["A ber H"], "seq": 1})).await;
        germany
            .post(
                &format!("{game}/bids"),
                json!({"bids": [{"unit": "Netherlands", "dp": 1, "order": "F net H"}], "seq": 1}),
            )
            .await;
        gm.post(&format!("{game}/gm/civil-disorder"), json!({"power": "Germany"}))
            .await;
        let all = gm.get(&format!("{game}/gm/orders")).await.to_string();
        assert!(!all.contains("A ber H"), "{all}");
        let bids = gm.get(&format!("{game}/bids")).await;
        assert!(!bids.to_string().contains("F net H"), "{bids}");
        let events = gm.get(&format!("{game}/gm/events")).await.to_string();
        assert!(events.contains("set aside: Germany A ber H, 1 DP: F net H"), "{events}");

        // Back past the declaration, and forward again with nothing changed.
        gm.post(&format!("{game}/gm/rollback"), json!({})).await;
        gm.post(&format!("{game}/gm/rollforward"), json!({})).await;
        let view = gm.get(&game).await;
        assert_eq!(view["seq"], 1);
        assert!(!view["state"]["disordered"].to_string().contains("Germany"), "{view}");
        assert_eq!(texts(&germany.get(&orders).await), ["A ber H"]);
        let mine = germany.get(&format!("{game}/bids")).await;
        let now: Vec<&Value> = mine["bids"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["seq"] == 1)
            .collect();
        assert_eq!(now.len(), 1, "{mine}");
        assert_eq!(now[0]["order"], "F net H");
    }
}
