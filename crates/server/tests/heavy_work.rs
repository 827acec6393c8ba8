//! CPU-heavy work never stalls the server, and a flood of logins cannot exhaust its
//! memory. Over real HTTP against the real binary; the
//! bounds are loose on purpose (the figures themselves are measured by
//! `examples/attack.rs`, crates/server/README.md): before the job pool, two uploaded
//! maps being drawn froze `/api/health` for many seconds and 64 logins took gigabytes.

mod common;

use std::time::{Duration, Instant};

use common::{memory_kib, moved_standard, Server, PASSWORD};
use serde_json::json;

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() as f64 * p).ceil() as usize).clamp(1, samples.len()) - 1]
}

#[tokio::test(flavor = "multi_thread")]
async fn maps_being_drawn_leave_health_and_pages_fast() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let gm = server.register("moving-gm").await;
    let mut games = Vec::new();
    let t = Instant::now();
    for k in 0..2 {
        let text = moved_standard(&format!("moved{k}"), 0.1 + k as f64 * 0.1);
        let game = gm
            .post(
                "/api/games",
                json!({"name": format!("moved {k}"), "variant_file": {"name": format!("moved{k}.var"), "text": text}}),
            )
            .await;
        games.push(game["id"].as_i64().unwrap());
    }
    eprintln!("games created in {:?}", t.elapsed());
    // The attack: each map asked for twice at once, by someone who waits for it.
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .unwrap();
    let mut attack = tokio::task::JoinSet::new();
    for &id in &games {
        for _ in 0..2 {
            let (client, url) = (client.clone(), format!("{}/api/games/{id}/map.svg", server.base));
            attack.spawn(async move {
                let t = Instant::now();
                let r = client.get(url).send().await.unwrap();
                let retry = r.headers().get("retry-after").is_some();
                let status = r.status().as_u16();
                let text = r.text().await.unwrap();
                eprintln!("map.svg: {status} after {:?}", t.elapsed());
                (status, retry, text)
            });
        }
    }
    // Meanwhile: health, and an ordinary page (the game's own, with its map pending).
    let mut health = Vec::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(6) {
        let t = Instant::now();
        let r = client.get(format!("{}/api/health", server.base)).send().await.unwrap();
        assert_eq!(r.status(), 200);
        health.push(t.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let t = Instant::now();
    let page = client
        .get(format!("{}/games/{}", server.base, games[1]))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let page_took = t.elapsed();
    let p99 = percentile(&mut health, 0.99);
    eprintln!(
        "health while maps were drawn: {} requests, p99 {p99:?}, max {:?}; the game page took {page_took:?}",
        health.len(),
        health.last().unwrap()
    );
    assert!(p99 < Duration::from_secs(1), "health p99 {p99:?}");
    assert!(
        *health.last().unwrap() < Duration::from_secs(2),
        "health max {:?}",
        health.last()
    );
    assert!(page_took < Duration::from_secs(2), "the game page took {page_took:?}");
    assert!(page.contains("map-pending") || page.contains("<svg"), "{page}");
    // A map request that came while its map was drawn was told to come back.
    let answers: Vec<(u16, bool, String)> = attack.join_all().await;
    for (status, retry, body) in &answers {
        match status {
            200 => assert!(body.contains("<svg")),
            503 => assert!(*retry && body.contains("being drawn"), "{body}"),
            _ => panic!("{status}: {body}"),
        }
    }
    assert!(answers.iter().any(|a| a.0 == 503), "the maps took no time to draw");
    // And every map is drawn in the end.
    for &id in &games {
        let started = Instant::now();
        let deadline = Instant::now() + Duration::from_secs(240);
        loop {
            let r = client
                .get(format!("{}/api/games/{id}/map.svg", server.base))
                .send()
                .await
                .unwrap();
            if r.status() == 200 {
                assert!(r.text().await.unwrap().contains("<svg"));
                eprintln!("game {id}: map drawn {:?} later", started.elapsed());
                break;
            }
            assert_eq!(r.status(), 503);
            assert!(Instant::now() < deadline, "the map of game {id} was never drawn");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_login_flood_stays_within_memory() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let (before, _) = memory_kib(&server);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for path in ["/api/register", "/api/login"] {
        let mut flood = tokio::task::JoinSet::new();
        for i in 0..64 {
            let (client, url) = (client.clone(), format!("{}{path}", server.base));
            flood.spawn(async move {
                let r = client
                    .post(url)
                    .json(&json!({"name": format!("flood{i}-{}", rand::random::<u32>()), "password": PASSWORD}))
                    .send()
                    .await
                    .unwrap();
                (r.status().as_u16(), r.headers().get("retry-after").is_some())
            });
        }
        for (status, retry) in flood.join_all().await {
            // Registered, or (logins of names nobody has) refused; or turned away for now.
            assert!(
                matches!((path, status), ("/api/register", 201) | ("/api/login", 401) | (_, 503)),
                "{path}: {status}"
            );
            assert_eq!(status == 503, retry, "a 503 says when to come back");
            *counts.entry((path, status)).or_insert(0) += 1;
        }
    }
    let (peak, after) = memory_kib(&server);
    eprintln!(
        "login flood: {counts:?}; resident memory {} MiB before, peak {} MiB, {} MiB after",
        before / 1024,
        peak / 1024,
        after / 1024
    );
    assert!(peak < 512 * 1024, "peak resident memory {} MiB", peak / 1024);
    // The server still works for everyone after the flood.
    server.register("after-flood").await;
}
