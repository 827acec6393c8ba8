//! Orders, bids and ready marks name the phase they are for: a
//! request sent for a phase that has moved on is refused with 409 and the current phase,
//! never counted for the next one. Both backends.

mod common;

use common::{full_game, player, Server};
use serde_json::{json, Value};

/// A 409 that names the game's current phase, so a client can show the new position.
fn assert_moved_on(status: u16, body: &Value, seq: i64, phase: &str, what: &str) {
    assert_eq!(status, 409, "{what}: {body}");
    assert_eq!(body["seq"], seq, "{what}: {body}");
    assert_eq!(body["phase"], phase, "{what}: {body}");
    assert!(body["error"].as_str().unwrap().contains(phase), "{what}: {body}");
}

/// The probe's scenario: Spring 1901 is processed at its deadline, then all seven
/// players' ready clicks (meant for Spring) arrive. Before the fix they landed on Fall
/// 1901 and processed it at once as "all ready", every power missing its orders.
#[tokio::test(flavor = "multi_thread")]
async fn late_ready_marks_and_orders_are_refused_not_moved_to_the_next_phase() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("late-ready-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "lr").await;
        let england = player(&players, "England");
        let orders = format!("/api/games/{id}/orders");
        let ready = format!("/api/games/{id}/ready");

        // A change that names no phase is ambiguous: refused, and nothing is stored.
        let (status, body) = england
            .call("POST", &orders, Some(json!({"orders": ["F lon - nth"]})))
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(body["error"].as_str().unwrap().contains("seq"), "{body}");
        let (status, body) = england.call("POST", &ready, Some(json!({}))).await;
        assert_eq!(status, 422, "a ready mark without its phase: {body}");
        let (status, body) = england.call("POST", &ready, None).await;
        assert_eq!(status, 422, "a ready mark without a body: {body}");
        // A phase that is not the current one, by code or by number.
        let (status, body) = england
            .call(
                "POST",
                &orders,
                Some(json!({"orders": ["F lon - nth"], "phase": "F1901M"})),
            )
            .await;
        assert_moved_on(status, &body, 0, "S1901M", "orders for a later phase");
        let (status, body) = england
            .call(
                "POST",
                &orders,
                Some(json!({"orders": ["F lon - nth"], "seq": 0, "phase": "F1901M"})),
            )
            .await;
        assert_moved_on(status, &body, 0, "S1901M", "a number and a code that disagree");
        assert_eq!(england.get(&orders).await["orders"], json!([]));
        // The code is read in any case.
        england
            .post(&orders, json!({"orders": ["F lon - nth"], "phase": "s1901m"}))
            .await;

        // Spring 1901's deadline passes and the scheduler processes it.
        let game = gm.get(&format!("/api/games/{id}")).await;
        let now = server.visitor().get("/api/test/clock").await["now_ms"]
            .as_i64()
            .unwrap();
        server.advance(game["deadline_ms"].as_i64().unwrap() - now + 1).await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            (game["seq"].as_i64(), game["phase"].as_str()),
            (Some(1), Some("F1901M"))
        );

        // The seven late ready clicks, for Spring: each refused with the current phase.
        for (power, p) in &players {
            let (status, body) = p.call("POST", &ready, Some(json!({"seq": 0}))).await;
            assert_moved_on(status, &body, 1, "F1901M", &format!("{power}'s late ready mark"));
        }
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            game["seq"], 1,
            "Fall 1901 was not processed by Spring's ready marks: {game}"
        );
        let phases = server.visitor().get(&format!("/api/games/{id}/phases")).await;
        assert_eq!(phases["phases"].as_array().unwrap().len(), 1, "{phases}");
        assert!(
            game["powers"].as_array().unwrap().iter().all(|p| p["ready"] != true),
            "no ready mark landed on Fall: {game}"
        );

        // Late orders and late changes, by number or code: refused, nothing stored in Fall.
        let (status, body) = england
            .call("POST", &orders, Some(json!({"orders": ["F nth - nwy"], "seq": 0})))
            .await;
        assert_moved_on(status, &body, 1, "F1901M", "late orders");
        let (status, body) = england
            .call(
                "POST",
                &orders,
                Some(json!({"orders": ["F nth - nwy"], "phase": "S1901M"})),
            )
            .await;
        assert_moved_on(status, &body, 1, "F1901M", "late orders by code");
        assert_eq!(
            england.get(&orders).await["orders"],
            json!([]),
            "nothing stored for Fall"
        );
        let (status, body) = england.call("DELETE", &format!("{orders}?seq=0"), None).await;
        assert_moved_on(status, &body, 1, "F1901M", "clearing Spring's orders");
        let (status, body) = england.call("DELETE", &format!("{ready}?phase=S1901M"), None).await;
        assert_moved_on(status, &body, 1, "F1901M", "taking back Spring's ready mark");
        // The GM is held to the same rule.
        let (status, body) = gm
            .call(
                "POST",
                &orders,
                Some(json!({"orders": ["A ber - kie"], "power": "Germany", "seq": 0})),
            )
            .await;
        assert_moved_on(status, &body, 1, "F1901M", "the GM's late orders");

        // Named for Fall, the same requests are taken.
        england
            .post(&orders, json!({"orders": ["F nth - nwy"], "seq": 1}))
            .await;
        let marked = england.post(&ready, json!({"seq": 1})).await;
        assert_eq!(
            (marked["ready"].as_bool(), marked["processed"].as_bool()),
            (Some(true), Some(false))
        );
        let (status, body) = england.call("DELETE", &format!("{ready}?seq=1"), None).await;
        assert_eq!((status, body["ready"].as_bool()), (200, Some(false)), "{body}");
    }
}

/// Bids (1936) name their phase too: a bid sent for a processed phase is refused and
/// stored nowhere.
#[tokio::test(flavor = "multi_thread")]
async fn late_bids_are_refused_with_the_current_phase() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("late-bid-gm").await;
        let (id, players) = full_game(&server, &gm, "1936", json!({}), "lb").await;
        let germany = player(&players, "Germany");
        let bids = format!("/api/games/{id}/bids");
        let bid = |seq: i64| json!({"bids": [{"unit": "Netherlands", "dp": 1, "order": "F net H"}], "seq": seq});

        let (status, body) = germany
            .call(
                "POST",
                &bids,
                Some(json!({"bids": [{"unit": "Netherlands", "dp": 1, "order": "F net H"}]})),
            )
            .await;
        assert_eq!(status, 422, "a bid without its phase: {body}");
        let (status, body) = germany.call("POST", &bids, Some(bid(1))).await;
        assert_moved_on(status, &body, 0, "S1936M", "a bid for a later phase");
        let stored = germany.post(&bids, bid(0)).await;
        assert_eq!(stored["bids"].as_array().unwrap().len(), 1, "{stored}");

        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        let (seq, phase) = (
            game["seq"].as_i64().unwrap(),
            game["phase"].as_str().unwrap().to_string(),
        );
        assert_eq!(seq, 1);

        let (status, body) = germany.call("POST", &bids, Some(bid(0))).await;
        assert_moved_on(status, &body, seq, &phase, "a late bid");
        let (status, body) = germany.call("DELETE", &format!("{bids}?unit=net&seq=0"), None).await;
        assert_moved_on(status, &body, seq, &phase, "removing a bid of a processed phase");
        let all = gm.get(&bids).await;
        let later: Vec<&Value> = all["bids"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["seq"] != 0)
            .collect();
        assert!(later.is_empty(), "no bid landed on the next phase: {all}");
    }
}
