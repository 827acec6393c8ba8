//! Every refusal of the JSON API carries a stable `code`, listed in the OpenAPI
//! document with its one status (`ErrorCode` and its `x-status`): this test reads the
//! list from `/api/docs` and brings each code about over HTTP, so that a code added
//! without a way to meet it, or answered with another status, fails here.

mod common;

use std::collections::BTreeMap;

use common::{full_game, player, Api, Server, Target};
use serde_json::{json, Value};

/// A request as the test sends it: method, path, JSON body, and raw extras.
struct Ask<'a> {
    api: &'a Api,
    method: &'a str,
    path: String,
    body: Option<Value>,
}

async fn ask(a: Ask<'_>) -> (u16, Value) {
    a.api.call(a.method, &a.path, a.body).await
}

/// Sends a raw request (a body that is not JSON, a cookie from another site).
async fn raw(server: &Server, method: &str, path: &str, headers: &[(&str, &str)], body: Vec<u8>) -> (u16, Value) {
    let mut req = reqwest::Client::new().request(method.parse().unwrap(), format!("{}{path}", server.base));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.body(body).send().await.unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// Brings about each code on `target`; returns the answer for each.
async fn walk(target: &Target) -> BTreeMap<String, (u16, Value)> {
    let url = &target.url;
    // The moderator is appointed by the command line, so the club is started twice.
    let first = Server::start(url);
    let boss = first.register("boss").await;
    first.kill();
    let server = Server::start_adding(url, &["--moderator", "boss"]);
    let boss = Api::new(&server.base, boss.token.clone());
    let gm = server.register("codes-gm").await;
    let outsider = server.register("outsider").await;
    let (id, players) = full_game(&server, &gm, "standard", json!({}), "codes").await;
    let france = player(&players, "France");
    let mut got = BTreeMap::new();
    let mut note = |code: &str, answer: (u16, Value)| {
        got.insert(code.to_string(), answer);
    };
    let game = |rest: &str| format!("/api/games/{id}{rest}");

    note(
        "bad_request",
        raw(
            &server,
            "POST",
            "/api/login",
            &[("content-type", "application/json")],
            b"{".to_vec(),
        )
        .await,
    );
    note("not_logged_in", server.visitor().call("GET", "/api/me", None).await);
    note(
        "forbidden",
        outsider
            .call("POST", &game("/press"), Some(json!({"body": "hello"})))
            .await,
    );
    note(
        "not_your_power",
        ask(Ask {
            api: france,
            method: "POST",
            path: game("/orders"),
            body: Some(json!({"orders": ["A vie H"], "power": "Austria", "seq": 0})),
        })
        .await,
    );
    note(
        "gm_only",
        france.call("POST", &game("/gm/process"), Some(json!({}))).await,
    );
    note(
        "moderator_only",
        outsider
            .call(
                "POST",
                "/api/moderation/suspensions",
                Some(json!({"account": "gm", "reason": "no"})),
            )
            .await,
    );
    note(
        "cross_site",
        raw(
            &server,
            "POST",
            &game("/press"),
            &[
                (
                    "cookie",
                    &format!("chancery_session={}", france.token.as_deref().unwrap()),
                ),
                ("origin", "http://evil.example"),
                ("content-type", "application/json"),
            ],
            br#"{"body": "forged"}"#.to_vec(),
        )
        .await,
    );
    note(
        "not_found",
        server.visitor().call("GET", "/api/games/999999", None).await,
    );
    note(
        "method_not_allowed",
        server.visitor().call("DELETE", "/api/variants", None).await,
    );
    note(
        "conflict",
        france
            .call("POST", &game("/join"), Some(json!({"power": "France"})))
            .await,
    );
    note(
        "phase_closed",
        france
            .call("POST", &game("/orders"), Some(json!({"orders": ["A par H"], "seq": 7})))
            .await,
    );
    note(
        "too_large",
        raw(
            &server,
            "POST",
            "/api/login",
            &[("content-type", "application/json")],
            vec![b' '; 2 * 1024 * 1024],
        )
        .await,
    );
    note(
        "unsupported_media_type",
        raw(
            &server,
            "POST",
            "/api/login",
            &[("content-type", "text/plain")],
            b"{}".to_vec(),
        )
        .await,
    );
    note(
        "invalid",
        france.call("POST", &game("/press"), Some(json!({"body": " "}))).await,
    );
    note(
        "invalid_order",
        france
            .call(
                "POST",
                &game("/orders"),
                Some(json!({"orders": ["A par - mos"], "seq": 0})),
            )
            .await,
    );
    let mut throttled = (0, Value::Null);
    for _ in 0..6 {
        throttled = server
            .visitor()
            .call(
                "POST",
                "/api/login",
                Some(json!({"name": "outsider", "password": "wrong password here"})),
            )
            .await;
    }
    note("rate_limited", throttled);
    // Suspended: a moderator suspends the outsider, who may then send nothing.
    let (status, body) = boss
        .call(
            "POST",
            "/api/moderation/suspensions",
            Some(json!({"account": "outsider", "reason": "testing the codes"})),
        )
        .await;
    assert!(status < 300, "{status} {body}");
    note(
        "suspended",
        outsider
            .call("POST", "/api/games", Some(json!({"name": "x", "variant": "standard"})))
            .await,
    );

    // A DP game: a bid past the budget.
    let (dp, dp_players) = full_game(&server, &gm, "1936", json!({}), "codes-dp").await;
    let germany = player(&dp_players, "Germany");
    note(
        "invalid_bid",
        germany
            .call(
                "POST",
                &format!("/api/games/{dp}/bids"),
                Some(json!({"bids": [{"unit": "Netherlands", "dp": 99, "order": "F net - nth"}], "seq": 0})),
            )
            .await,
    );
    // Rule 3: Germany's budget at the start of 1936 is 3 DPs; these bids spend 4, each
    // within the caps (2 on one unit, 1 on the others) and on a minor unit it may bid on.
    note(
        "over_budget",
        germany
            .call(
                "POST",
                &format!("/api/games/{dp}/bids"),
                Some(json!({"bids": [
                    {"dp": 2, "order": "A aus H"},
                    {"dp": 1, "order": "A hun H"},
                    {"dp": 1, "order": "A fin H"},
                ], "seq": 0})),
            )
            .await,
    );

    // A forming game cannot be processed; an ended one takes no press.
    let forming = gm
        .post("/api/games", json!({"name": "forming", "variant": "standard"}))
        .await["id"]
        .as_i64()
        .unwrap();
    note(
        "not_running",
        gm.call("POST", &format!("/api/games/{forming}/gm/process"), Some(json!({})))
            .await,
    );
    let (ended, ended_players) = full_game(&server, &gm, "standard", json!({}), "codes-end").await;
    gm.post(
        &format!("/api/games/{ended}/gm/end"),
        json!({"result": "draw", "powers": ["France", "England"]}),
    )
    .await;
    note(
        "game_over",
        player(&ended_players, "France")
            .call(
                "POST",
                &format!("/api/games/{ended}/press"),
                Some(json!({"body": "late"})),
            )
            .await,
    );

    // An upload's map is drawn on first asking: meanwhile 503. The upload is 1936's map,
    // whose shaping takes well over the two seconds a request waits for it on any
    // machine (Standard's took under two on a quiet one, and the map came back whole).
    let text = include_str!("../../../variants/1936.var").replacen("variant 1936", "variant codes", 1);
    let upload = gm
        .post(
            "/api/games",
            json!({"name": "upload", "variant_file": {"name": "codes.var", "text": text}}),
        )
        .await["id"]
        .as_i64()
        .unwrap();
    note(
        "unavailable",
        gm.call("GET", &format!("/api/games/{upload}/map.svg"), None).await,
    );

    // Damage written behind the server's back: an unreadable stored position, then a
    // table gone.
    let db = target.database().await;
    sqlx::query("UPDATE games SET state_json = '{' WHERE id = $1")
        .bind(forming)
        .execute(&db)
        .await
        .unwrap();
    note(
        "damaged_game",
        gm.call("POST", &format!("/api/games/{forming}/gm/start"), Some(json!({})))
            .await,
    );
    if target.label == "sqlite" {
        // SQLite: a writer holding the file past the server's busy timeout.
        use sqlx::Connection;
        let mut hold = sqlx::sqlite::SqliteConnection::connect(&format!("sqlite://{}", target.url))
            .await
            .unwrap();
        sqlx::query("BEGIN EXCLUSIVE").execute(&mut hold).await.unwrap();
        note(
            "busy",
            france
                .call("POST", &game("/press"), Some(json!({"body": "while it is held"})))
                .await,
        );
        sqlx::query("ROLLBACK").execute(&mut hold).await.unwrap();
    } else {
        // PostgreSQL: every connection of the server's pool taken by a lock wait.
        note("busy", busy_on_postgres(&db, france, id).await);
    }
    sqlx::query("DROP TABLE press_reads").execute(&db).await.unwrap();
    note(
        "internal",
        france.call("POST", &game("/press/read"), Some(json!({}))).await,
    );
    got
}

/// PostgreSQL answers `busy` when no connection of the write pool is free in time: the
/// game's row is locked from outside, so writers hold every connection waiting for it
/// and the ones after them give up (sqlx's 30 s acquire timeout).
async fn busy_on_postgres(db: &sqlx::AnyPool, api: &Api, id: i64) -> (u16, Value) {
    let mut hold = db.begin().await.unwrap();
    sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(id)
        .execute(&mut *hold)
        .await
        .unwrap();
    // Past the pool's 30 s: a client of its own that waits longer than the tests' one.
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(120))
        .build()
        .unwrap();
    let waiting: Vec<_> = (0..40)
        .map(|_| {
            let request = client
                .post(format!("{}/api/games/{id}/orders", api.base))
                .bearer_auth(api.token.as_deref().unwrap())
                .json(&json!({"orders": ["A par H"], "seq": 0}));
            tokio::spawn(async move {
                let resp = request.send().await.unwrap();
                let status = resp.status().as_u16();
                (status, resp.json::<Value>().await.unwrap_or(Value::Null))
            })
        })
        .collect();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(90);
    while !waiting.iter().any(|w| w.is_finished()) && std::time::Instant::now() < until {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    hold.rollback().await.unwrap();
    let mut busy = (0, Value::Null);
    for w in waiting {
        let answer = w.await.unwrap();
        if answer.0 == 503 {
            busy = answer;
        }
    }
    busy
}

#[tokio::test(flavor = "multi_thread")]
async fn every_documented_code_is_answered_with_its_status() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let got = walk(&target).await;
        let server = Server::start(&target.url);
        let doc = server.visitor().get("/api/docs").await;
        let schema = &doc["components"]["schemas"]["ErrorCode"];
        let codes: Vec<&str> = schema["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("ErrorCode lists the codes: {schema}"))
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert!(doc["components"]["schemas"]["ErrorBody"]["properties"]["code"].is_object());
        for code in &codes {
            let status = schema["x-status"][code]
                .as_u64()
                .unwrap_or_else(|| panic!("{code}: a status"));
            let (got_status, body) = got
                .get(*code)
                .unwrap_or_else(|| panic!("{}: the test brings about `{code}`", target.label));
            assert_eq!(
                (*got_status as u64, body["code"].as_str()),
                (status, Some(*code)),
                "{}: {code}: {body}",
                target.label
            );
            assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{code}: {body}");
        }
        // And nothing the test meets is undocumented.
        for code in got.keys() {
            assert!(codes.contains(&code.as_str()), "`{code}` is documented");
        }
        // The details each code promises.
        assert!(got["invalid_order"].1["refused"].is_array());
        assert!(got["phase_closed"].1["seq"].is_i64());
        assert_eq!(got["suspended"].1["suspended"], true);
        assert!(got["invalid_bid"].1["order"].is_string() || got["invalid_bid"].1["error"].is_string());
        let over = got["over_budget"].1["error"].as_str().unwrap_or_default();
        assert!(over.contains("over its budget of 3 DPs"), "{over}");
    }
}
