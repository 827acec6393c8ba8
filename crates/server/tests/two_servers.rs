//! Two server processes on one database, both running schedulers: every due phase is
//! processed exactly once. Runs on PostgreSQL when CHANCERY_TEST_POSTGRES is set, and
//! on a shared SQLite file.

mod common;

use common::{Api, Server};
use serde_json::json;

const GAMES: usize = 6;
const ROUNDS: usize = 6;

#[tokio::test(flavor = "multi_thread")]
async fn each_due_phase_is_processed_once() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let a = Server::start(&target.url);
        let b = Server::start(&target.url);
        let gm = a.register("twin-gm").await;
        let mut ids = Vec::new();
        for i in 0..GAMES {
            let g = gm.post("/api/games", json!({"name": format!("twin {i}"), "deadlines": {"movement_minutes": 10, "retreat_minutes": 10, "adjustment_minutes": 10}})).await;
            let id = g["id"].as_i64().unwrap();
            gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;
            ids.push(id);
        }
        for _ in 0..ROUNDS {
            // Both clocks pass the deadlines together; both servers race for the work.
            let (ra, rb) = tokio::join!(a.advance(11 * 60_000), b.advance(11 * 60_000));
            let _ = (ra, rb);
            tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        }
        let gm_b = Api::new(&b.base, gm.token.clone());
        let mut servers = std::collections::HashSet::new();
        for id in &ids {
            let game = gm_b.get(&format!("/api/games/{id}")).await;
            let seq = game["seq"].as_i64().unwrap();
            assert!(seq >= ROUNDS as i64 - 1, "game {id} advanced: {seq}");
            let events = gm_b.get(&format!("/api/games/{id}/gm/events")).await;
            let processed: Vec<&serde_json::Value> = events["events"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["kind"] == "processed")
                .collect();
            let seqs: Vec<i64> = processed.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
            assert_eq!(seqs, (0..seq).collect::<Vec<_>>(), "game {id}: each phase once");
            servers.extend(processed.iter().map(|e| e["server"].as_str().unwrap().to_string()));
        }
        eprintln!("{}: phases were processed by {} server(s)", target.label, servers.len());
    }
}

/// Failed logins are counted in the database: five failures on one
/// server lock the account out on the other too, until the window has passed there.
#[tokio::test(flavor = "multi_thread")]
async fn login_throttling_is_shared_between_servers() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let a = Server::start(&target.url);
        let b = Server::start(&target.url);
        let name = format!("twin-login-{}", target.label);
        a.register(&name).await;
        let login = |server: &Server, password: &str| {
            let api = server.visitor();
            let body = json!({"name": name, "password": password});
            async move { api.call("POST", "/api/login", Some(body)).await }
        };
        for _ in 0..5 {
            assert_eq!(login(&a, "wrong password").await.0, 401);
        }
        let (status, body) = login(&b, common::PASSWORD).await;
        assert_eq!(status, 429, "the other server refuses too: {body}");
        // The window is 15 minutes; on b's clock it passes.
        b.advance(16 * 60_000).await;
        let (status, body) = login(&b, common::PASSWORD).await;
        assert_eq!(status, 200, "{body}");
    }
}

/// Bots decide exactly once across two servers sharing the database. Both
/// run the bots' task; each turn is claimed under the game's lock by one of them, and
/// every phase is processed once, by the person's ready mark (the bots were ready).
#[tokio::test(flavor = "multi_thread")]
async fn each_bot_turn_is_decided_once() {
    use sqlx::Row;
    const BOT_GAMES: usize = 3;
    const PHASES: usize = 4;
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let extra = ["--bot-judgements", "40"];
        let a = Server::start_adding(&target.url, &extra);
        let b = Server::start_adding(&target.url, &extra);
        let gm = a.register("twin-bots-gm").await;
        let mut games = Vec::new();
        for i in 0..BOT_GAMES {
            let g = gm
                .post(
                    "/api/games",
                    json!({"name": format!("twin bots {i}"), "bots_fill_seats": true}),
                )
                .await;
            let id = g["id"].as_i64().unwrap();
            let person = b.register(&format!("twin-bots-player{i}")).await;
            person
                .post(&format!("/api/games/{id}/join"), json!({"power": "England"}))
                .await;
            gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;
            games.push((id, person));
        }
        for _ in 0..PHASES {
            for (id, person) in &games {
                // The person waits for the bots (on either server), then marks ready.
                let started = std::time::Instant::now();
                let view = loop {
                    let view = person.get(&format!("/api/games/{id}")).await;
                    let waiting = view["powers"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|p| p["bot"] == true && p["ready"] != true);
                    if !waiting {
                        break view;
                    }
                    assert!(started.elapsed().as_secs() < 90, "bots of game {id} not ready");
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                };
                let seq = view["seq"].as_i64().unwrap();
                let (status, mark) = person
                    .call("POST", &format!("/api/games/{id}/ready"), Some(json!({"seq": seq})))
                    .await;
                // The person's mark was the last; or, in a phase where England had nothing
                // to decide, the last bot's mark processed it first.
                assert!(
                    (status == 200 && mark["processed"] == true) || (status == 409 && mark["code"] == "phase_closed"),
                    "game {id}: {status} {mark}"
                );
            }
        }
        let db = target.database().await;
        let mut servers = std::collections::HashSet::new();
        for (id, _) in &games {
            // Phases where the person had nothing to decide go on the bots' marks, so the
            // game may move on while it is read: the phase number is read first, and the
            // events (read after) hold every phase before it, each once, and perhaps
            // phases the bots processed since, each once too.
            let seq = gm.get(&format!("/api/games/{id}")).await["seq"].as_i64().unwrap();
            let events = gm.get(&format!("/api/games/{id}/gm/events")).await;
            let processed: Vec<i64> = events["events"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["kind"] == "processed")
                .map(|e| e["seq"].as_i64().unwrap())
                .collect();
            assert!(seq >= PHASES as i64);
            assert!(
                processed.len() as i64 >= seq,
                "game {id}: {processed:?} before phase {seq}"
            );
            assert_eq!(
                processed,
                (0..processed.len() as i64).collect::<Vec<_>>(),
                "game {id}: each phase once"
            );
            assert!(!events.to_string().contains("bot_refused"), "{events}");
            let turns = sqlx::query(
                "SELECT seq, power, server, done_ms FROM bot_turns WHERE game_id = $1 AND seq < $2 ORDER BY seq, power",
            )
            .bind(id)
            .bind(seq)
            .fetch_all(&db)
            .await
            .unwrap();
            // Six bots, at most a turn each per phase (the primary key), every one done. A
            // bot with nothing to decide may find its phase processed before it took its
            // turn, as the others do not wait for it: then it has no row.
            assert!(turns.len() <= 6 * seq as usize, "game {id}: {} turns", turns.len());
            for s in 0..seq {
                let mut powers: Vec<String> = turns
                    .iter()
                    .filter(|t| t.try_get::<i64, _>("seq").unwrap() == s)
                    .map(|t| t.try_get::<String, _>("power").unwrap())
                    .collect();
                assert!(!powers.is_empty(), "game {id} phase {s}: the bots took their turns");
                let n = powers.len();
                powers.dedup();
                assert_eq!(powers.len(), n, "game {id} phase {s}: each bot once");
            }
            for t in &turns {
                assert!(t.try_get::<Option<i64>, _>("done_ms").unwrap().is_some());
                servers.insert(t.try_get::<String, _>("server").unwrap());
            }
        }
        eprintln!(
            "{}: the bots' turns were decided by {} server(s)",
            target.label,
            servers.len()
        );
    }
}
