//! Accounts, sessions, login throttling, JSON errors, body limits, the OpenAPI document,
//! and the test clock's absence from ordinary servers.

mod common;

use common::{Api, Server, PASSWORD};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread")]
async fn accounts_sessions_errors_and_docs() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let alice = server.register("alice").await;
        assert_eq!(alice.get("/api/me").await["name"], "alice");
        let anon = server.visitor();
        let (status, _) = anon
            .call(
                "POST",
                "/api/register",
                Some(json!({"name": "ALICE", "password": PASSWORD})),
            )
            .await;
        assert_eq!(status, 409, "names are unique regardless of case");
        let (status, body) = anon
            .call(
                "POST",
                "/api/register",
                Some(json!({"name": "bob", "password": "short"})),
            )
            .await;
        assert_eq!(status, 422);
        assert!(body["error"].as_str().unwrap().contains("8 to 256"));

        // Login gives a token and an HTTP-only cookie; both work.
        let resp = reqwest::Client::new()
            .post(format!("{}/api/login", server.base))
            .json(&json!({"name": "alice", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
        assert!(cookie.contains("HttpOnly") && cookie.starts_with("chancery_session="));
        let token = resp.json::<serde_json::Value>().await.unwrap()["token"]
            .as_str()
            .unwrap()
            .to_string();
        let me = reqwest::Client::new()
            .get(format!("{}/api/me", server.base))
            .header("cookie", cookie.split(';').next().unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(me.status(), 200);
        let bearer = Api::new(&server.base, Some(token));
        bearer.post("/api/logout", json!({})).await;
        let (status, body) = bearer.call("GET", "/api/me", None).await;
        assert_eq!(status, 401, "a logged-out token is dead");
        assert!(body["error"].is_string());

        // Five failed logins and the sixth attempt is refused even with the right password.
        for _ in 0..5 {
            let (status, _) = anon
                .call(
                    "POST",
                    "/api/login",
                    Some(json!({"name": "alice", "password": "wrong password"})),
                )
                .await;
            assert_eq!(status, 401);
        }
        let (status, body) = anon
            .call(
                "POST",
                "/api/login",
                Some(json!({"name": "alice", "password": PASSWORD})),
            )
            .await;
        assert_eq!(status, 429, "{body}");
        assert!(body["retry_after_seconds"].as_u64().unwrap() > 0);

        // Errors are JSON with fitting codes.
        let (status, body) = anon.call("GET", "/api/nowhere", None).await;
        assert_eq!((status, body["error"].is_string()), (404, true));
        let (status, _) = anon.call("GET", "/api/games/12345", None).await;
        assert_eq!(status, 404);
        let (status, _) = anon.call("GET", "/api/games/not-a-number", None).await;
        assert_eq!(status, 400);
        let (status, _) = anon.call("DELETE", "/api/games", None).await;
        assert_eq!(status, 405);
        let (status, _) = alice
            .call(
                "POST",
                "/api/games",
                Some(json!({"name": "x", "variant": "no-such-map"})),
            )
            .await;
        assert_eq!(status, 422);
        let (status, _) = alice
            .call("POST", "/api/games", Some(json!({"name": "x", "surprise": 1})))
            .await;
        assert_eq!(status, 422, "unknown fields are refused");
        let raw = reqwest::Client::new()
            .post(format!("{}/api/login", server.base))
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();
        assert_eq!(raw.status(), 400);
        assert!(raw.json::<serde_json::Value>().await.unwrap()["error"].is_string());
        // Body limit: 64 KiB for ordinary requests.
        let huge = "x".repeat(100 * 1024);
        let (status, body) = alice
            .call("POST", "/api/games/1/press", Some(json!({"body": huge})))
            .await;
        assert_eq!(status, 413, "{body}");

        // A GM may upload a variant file; it must load and pass the lint.
        // (Under a name of its own: an upload may not take a built-in variant's.)
        let text = include_str!("../../../variants/standard.var").replacen("variant standard", "variant home", 1);
        let game = alice
            .post(
                "/api/games",
                json!({"name": "home map", "variant_file": {"name": "home.var", "text": text}}),
            )
            .await;
        assert_eq!(game["variant"], "home.var");
        assert_eq!(game["phase"], "S1901M");
        let (status, body) = alice
            .call(
                "POST",
                "/api/games",
                Some(json!({"name": "broken", "variant_file": {"name": "bad.var", "text": "this is not a variant"}})),
            )
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(body["error"].is_string());

        // The OpenAPI document lists the API.
        let docs = anon.get("/api/docs").await;
        assert_eq!(docs["openapi"], "3.1.0");
        assert!(docs["paths"]["/api/games/{id}/orders"]["post"].is_object());
        // Every documented GET route exists (none answers with the unknown-path 404).
        for (path, item) in docs["paths"].as_object().unwrap() {
            if item.get("get").is_some() {
                let concrete = path.replace("{id}", "1").replace("{seq}", "0");
                let (_, body) = anon.call("GET", &concrete, None).await;
                assert!(
                    !body["error"].as_str().unwrap_or("").contains("no such endpoint"),
                    "{path} is documented but not served"
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn production_servers_have_no_test_clock_and_create_the_demo_club() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let started = std::time::Instant::now();
    let server = Server::start_with(db.to_str().unwrap(), &[]);
    assert!(started.elapsed().as_secs() < 30);
    let (status, _) = server
        .visitor()
        .call("POST", "/api/test/clock", Some(json!({"ms": 1000})))
        .await;
    assert_eq!(status, 404, "the clock endpoint exists only with --test-clock");
    let (status, _) = server.visitor().call("GET", "/api/test/adjudications", None).await;
    assert_eq!(status, 404, "so does the count of adjudications");
    // The demo club: a game of each built-in variant, a few phases in, and a Standard
    // game against bots with England open.
    let games = server.visitor().get("/api/games").await;
    let variants = server.visitor().get("/api/variants").await;
    assert_eq!(
        games["games"].as_array().unwrap().len(),
        variants["variants"].as_array().unwrap().len() + 1
    );
    let (with_bots, games_list): (Vec<&Value>, Vec<&Value>) =
        games["games"].as_array().unwrap().iter().partition(|g| g["bots"] != 0);
    assert_eq!(with_bots.len(), 1, "one demo game against bots");
    assert_eq!(with_bots[0]["bots"], 6);
    assert_eq!(with_bots[0]["free_seats"], 1);
    assert_eq!(with_bots[0]["status"], "active");
    for g in games_list {
        let id = g["id"].as_i64().unwrap();
        let phases = server.visitor().get(&format!("/api/games/{id}/phases")).await;
        assert_eq!(phases["phases"].as_array().unwrap().len(), 4, "{g}");
    }
    // A newcomer who takes a seat in a demo game and marks ready does not end the phase
    // for the powers nobody plays yet: the demo waits for the deadline.
    let standard = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["variant"] == "standard" && g["bots"] == 0)
        .expect("a standard demo game");
    let id = standard["id"].as_i64().unwrap();
    let view = server.visitor().get(&format!("/api/games/{id}")).await;
    assert_eq!(view["early_processing"], "never", "{view}");
    let newcomer = server.register("newcomer").await;
    newcomer
        .post(&format!("/api/games/{id}/join"), json!({"power": "France"}))
        .await;
    let mark = newcomer
        .post(&format!("/api/games/{id}/ready"), json!({"seq": view["seq"]}))
        .await;
    assert_eq!(mark["all_ready"], true, "{mark}");
    assert_eq!(mark["processed"], false, "{mark}");
    assert_eq!(
        server.visitor().get(&format!("/api/games/{id}")).await["seq"],
        view["seq"]
    );
    // The README's login for the demo GM works.
    let (status, body) = server
        .visitor()
        .call(
            "POST",
            "/api/login",
            Some(json!({"name": "demo-gm", "password": "demo-club-1958"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // A restart finds the club and does not create another.
    server.kill();
    let server = Server::start_with(db.to_str().unwrap(), &[]);
    let again = server.visitor().get("/api/games").await;
    assert_eq!(
        again["games"].as_array().unwrap().len(),
        games["games"].as_array().unwrap().len()
    );
}

/// A new password: the current one must be given (a left-open session is not enough),
/// the new one obeys the same length rule as at registration, and the change ends every
/// other session of the account while this one goes on.
#[tokio::test(flavor = "multi_thread")]
async fn a_password_change_needs_the_old_one_and_ends_other_sessions() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let here = server.register("pw-owner").await;
        let anon = server.visitor();
        let login = |password: &'static str| {
            let anon = &anon;
            async move {
                anon.call(
                    "POST",
                    "/api/login",
                    Some(json!({"name": "pw-owner", "password": password})),
                )
                .await
            }
        };
        let (status, other) = login(PASSWORD).await;
        assert_eq!(status, 200);
        let elsewhere = Api::new(&server.base, other["token"].as_str().map(str::to_string));

        let change = |old: &str, new: &str| json!({"old": old, "new": new});
        let (status, body) = here
            .call(
                "POST",
                "/api/me/password",
                Some(change("not it at all", "a brand new secret")),
            )
            .await;
        assert_eq!(status, 403, "{body}");
        let (status, body) = here
            .call("POST", "/api/me/password", Some(change(PASSWORD, "short")))
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(body["error"].as_str().unwrap().contains("8 to 256"), "{body}");
        let done = here
            .post("/api/me/password", change(PASSWORD, "a brand new secret"))
            .await;
        assert_eq!(done["other_sessions_ended"], 1, "{done}");

        assert_eq!(here.get("/api/me").await["name"], "pw-owner", "this session goes on");
        let (status, _) = elsewhere.call("GET", "/api/me", None).await;
        assert_eq!(status, 401, "the other session has ended");
        assert_eq!(login(PASSWORD).await.0, 401, "the old password no longer works");
        assert_eq!(login("a brand new secret").await.0, 200);
        let (status, _) = anon
            .call("POST", "/api/me/password", Some(change(PASSWORD, "whatever it is")))
            .await;
        assert_eq!(status, 401, "a visitor has no password to change");
    }
}
