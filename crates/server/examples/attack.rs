//! Measures the server under two attacks at once that once starved it: uploaded variants
//! whose maps are drawn, and a flood of logins and registrations with new names, while a client asks `/api/health` every 10 ms. Prints the health
//! latencies and the server's resident memory (peak and after).
//!
//! ```text
//! cargo build --release -p chancery-server --bin chancery-server --example attack
//! target/release/examples/attack target/release/chancery-server
//! ```
//!
//! It starts the given server binary on a fresh SQLite file in a temporary folder, so
//! that it can read the process's memory from `/proc` (Linux).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const ROUNDS: usize = 3;
const UPLOADS: usize = 4;
const FLOOD: usize = 64;

fn moved_standard(name: &str, dlat: f64) -> String {
    include_str!("../../../variants/standard.var")
        .lines()
        .map(|line| match line.split_once(" at=") {
            Some((head, rest)) => {
                let (at, tail) = rest.split_once(' ').unwrap_or((rest, ""));
                let (lat, lon) = at.split_once(',').expect("at=LAT,LON");
                let lat: f64 = lat.parse().expect("a latitude");
                format!("{head} at={:.2},{lon} {tail}\n", lat + dlat)
            }
            None if line.starts_with("variant ") => format!("variant {name}\n"),
            None => format!("{line}\n"),
        })
        .collect()
}

fn memory_mib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0)
            / 1024
    };
    (field("VmHWM:"), field("VmRSS:"))
}

#[tokio::main]
async fn main() {
    let binary = std::env::args().nth(1).expect("usage: attack PATH/TO/chancery-server");
    let dir = std::env::temp_dir().join(format!("chancery-attack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut server = Command::new(&binary)
        .args([
            "--listen",
            "127.0.0.1:0",
            "--no-demo",
            "--rate",
            "1000000",
            "--database",
        ])
        .arg(dir.join("club.db"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the server");
    let pid = server.id();
    let mut lines = BufReader::new(server.stderr.take().expect("stderr")).lines();
    let base = loop {
        let line = lines.next().expect("the server stopped").expect("its log");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break format!("http://{}", rest.split_whitespace().next().unwrap_or_default());
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .unwrap();
    let post = |path: &str, token: Option<&str>, body: Value| {
        let mut r = client.post(format!("{base}{path}")).json(&body);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        r.send()
    };
    let gm: Value = post(
        "/api/register",
        None,
        json!({"name": "attacker", "password": "correct horse battery"}),
    )
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    let token = gm["token"].as_str().unwrap().to_string();
    let (idle_peak, _) = memory_mib(pid);

    // The health probe runs for the whole attack.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let probe = {
        let (client, url) = (client.clone(), format!("{base}/api/health"));
        tokio::spawn(async move {
            let mut samples = Vec::new();
            while !*stopped.borrow() {
                let t = Instant::now();
                let ok = client.get(&url).send().await.is_ok_and(|r| r.status() == 200);
                samples.push((t.elapsed(), ok));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            samples
        })
    };
    let started = Instant::now();
    let mut statuses = std::collections::BTreeMap::<String, usize>::new();
    for round in 0..ROUNDS {
        let mut attack = tokio::task::JoinSet::new();
        // Uploads of distinct real-size maps, each drawn twice at once.
        for k in 0..UPLOADS {
            let name = format!("moved-{round}-{k}");
            let text = moved_standard(&name, 0.05 + (round * UPLOADS + k) as f64 * 0.02);
            let (client, base, token) = (client.clone(), base.clone(), token.clone());
            attack.spawn(async move {
                let r = client
                    .post(format!("{base}/api/games"))
                    .bearer_auth(&token)
                    .json(&json!({"name": name, "variant_file": {"name": format!("{name}.var"), "text": text}}))
                    .send()
                    .await
                    .unwrap();
                let mut out = vec![format!("create {}", r.status().as_u16())];
                let game: Value = r.json().await.unwrap_or(Value::Null);
                if let Some(id) = game["id"].as_i64() {
                    for _ in 0..2 {
                        let r = client
                            .get(format!("{base}/api/games/{id}/map.svg"))
                            .send()
                            .await
                            .unwrap();
                        out.push(format!("map.svg {}", r.status().as_u16()));
                    }
                }
                out
            });
        }
        // The flood: registrations and logins with new names.
        for i in 0..FLOOD {
            let path = if i % 2 == 0 { "/api/register" } else { "/api/login" };
            let (client, url) = (client.clone(), format!("{base}{path}"));
            attack.spawn(async move {
                let name = format!("flood-{round}-{i}");
                let r = client
                    .post(url)
                    .json(&json!({"name": name, "password": "correct horse battery"}))
                    .send()
                    .await
                    .unwrap();
                vec![format!("{path} {}", r.status().as_u16())]
            });
        }
        for outcome in attack.join_all().await.into_iter().flatten() {
            *statuses.entry(outcome).or_default() += 1;
        }
    }
    let took = started.elapsed();
    let _ = stop.send(true);
    let samples = probe.await.unwrap();
    let (peak, after) = memory_mib(pid);
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);

    let failed = samples.iter().filter(|s| !s.1).count();
    let mut times: Vec<Duration> = samples.iter().map(|s| s.0).collect();
    times.sort();
    let at = |p: f64| times[((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1];
    println!(
        "attack: {ROUNDS} rounds of {UPLOADS} uploads of Standard with moved anchors (each map drawn twice at once) \
         and {FLOOD} registrations and logins with new names at once; {:.1} s",
        took.as_secs_f64()
    );
    println!("answers: {statuses:?}");
    println!(
        "/api/health every 10 ms during the attack: {} requests ({failed} failed), p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3
    );
    println!("server resident memory: {idle_peak} MiB before, peak {peak} MiB, {after} MiB after");
}
