//! Load benchmark for the club server (run by hand, not in the tests): N concurrent
//! clients on loopback submit, replace and read orders and press for a fixed time, then
//! throughput, latency percentiles and errors are printed. `bench/load.sh` starts a
//! release server on a fresh SQLite file and runs this against it.
//!
//! Two ways to drive it. Closed loop (the default): each client sends its next request
//! the moment the last one is answered, which finds the server's saturation throughput;
//! latency then is simply clients / throughput (Little's law) and says little about the
//! server. Paced (`RATE` requests/s over all clients): each client sends on its own
//! random (Poisson) schedule and waits for each answer, as players at their browsers do;
//! latency is counted from when the request was due, so a stalled server cannot hide its
//! backlog (no coordinated omission).
//!
//! cargo run --release -p chancery-server --example load -- URL [CLIENTS] [SECONDS] [RATE]

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};

const PASSWORD: &str = "load test password";

struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Client {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut req = self
            .http
            .request(method, format!("{}{}", self.base, path))
            .bearer_auth(&self.token);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.map_err(|e| e.to_string())?;
        let status = resp.status();
        let value: Value = resp.json().await.map_err(|e| e.to_string())?;
        if status.is_success() {
            Ok(value)
        } else {
            Err(format!("{status}: {value}"))
        }
    }
}

/// Registers an account, retrying while the server's per-address limit says wait.
async fn register(http: &reqwest::Client, base: &str, name: &str) -> Result<String, String> {
    for _ in 0..100 {
        let resp = http
            .post(format!("{base}/api/register"))
            .json(&json!({"name": name, "password": PASSWORD}))
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if resp.status() == 429 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let v: Value = resp.json().await.map_err(|e| e.to_string())?;
        return v["token"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("register {name}: {v}"));
    }
    Err(format!("register {name}: still throttled"))
}

/// Each client's seat and two order sets to alternate between with `replace`, so each
/// submission really changes what is stored: every unit holds, or all but one.
struct Seat {
    client: Client,
    game: i64,
    power: String,
    holds: Vec<String>,
    fewer: Vec<String>,
}

async fn setup(base: &str, clients: usize, run: u64) -> Result<Vec<Seat>, String> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(4)
        .build()
        .map_err(|e| e.to_string())?;
    let gm = Client {
        http: http.clone(),
        base: base.to_string(),
        token: register(&http, base, &format!("load-gm-{run}")).await?,
    };
    let mut seats = Vec::new();
    let mut game = Value::Null;
    let mut free: Vec<String> = Vec::new();
    for i in 0..clients {
        if free.is_empty() {
            game = gm
                .call(
                    reqwest::Method::POST,
                    "/api/games",
                    Some(json!({"name": format!("load {run} {i}")})),
                )
                .await?;
            free = game["powers"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["playable"] == true)
                .map(|p| p["name"].as_str().unwrap().to_string())
                .collect();
            free.reverse();
        }
        let power = free.pop().unwrap_or_default();
        let id = game["id"].as_i64().unwrap_or_default();
        let client = Client {
            http: http.clone(),
            base: base.to_string(),
            token: register(&http, base, &format!("load-{run}-{i}")).await?,
        };
        client
            .call(
                reqwest::Method::POST,
                &format!("/api/games/{id}/join"),
                Some(json!({"power": power})),
            )
            .await?;
        let units: Vec<String> = game["state"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["power"] == power.as_str())
            .map(|u| format!("{} {}", u["type"].as_str().unwrap(), u["location"].as_str().unwrap()))
            .collect();
        let holds: Vec<String> = units.iter().map(|u| format!("{u} H")).collect();
        let fewer = holds.iter().skip(1).cloned().collect();
        seats.push(Seat {
            client,
            game: id,
            power,
            holds,
            fewer,
        });
    }
    // The last game may have vacant powers: start it anyway, as a GM would.
    let mut started = std::collections::BTreeSet::new();
    for seat in &seats {
        if started.insert(seat.game) {
            let _ = gm
                .call(
                    reqwest::Method::POST,
                    &format!("/api/games/{}/gm/start", seat.game),
                    None,
                )
                .await;
        }
    }
    Ok(seats)
}

/// Latencies in microseconds, reads and writes apart.
#[derive(Default)]
struct Samples {
    reads: Vec<u32>,
    writes: Vec<u32>,
}

/// The gap to a paced client's next request: exponential with the mean that gives
/// `rate` requests/s over `clients` clients.
fn next_gap(clients: usize, rate: f64) -> Duration {
    let mean = clients as f64 / rate;
    let u: f64 = rand::thread_rng().gen_range(f64::EPSILON..1.0);
    Duration::from_secs_f64(-u.ln() * mean)
}

async fn drive(seat: Seat, until: Instant, pace: Option<(usize, f64)>) -> (Samples, usize, Option<String>) {
    let mut latencies = Samples::default();
    let mut errors = 0;
    let mut first_error = None;
    let mut flip = false;
    let mut press_since: Option<i64> = None;
    let id = seat.game;
    let mut due = Instant::now() + pace.map_or(Duration::ZERO, |(c, r)| next_gap(c, r));
    while Instant::now() < until {
        let started = match pace {
            Some((clients, rate)) => {
                tokio::time::sleep_until(due.into()).await;
                let was_due = due;
                due += next_gap(clients, rate);
                was_due
            }
            None => Instant::now(),
        };
        if started >= until {
            break;
        }
        let roll: u32 = rand::thread_rng().gen_range(0..100);
        let c = &seat.client;
        let r = match roll {
            0..=29 => {
                c.call(reqwest::Method::GET, &format!("/api/games/{id}/orders"), None)
                    .await
            }
            30..=54 => {
                flip = !flip;
                let orders = if flip { &seat.holds } else { &seat.fewer };
                c.call(
                    reqwest::Method::POST,
                    &format!("/api/games/{id}/orders"),
                    // The games keep their first phase for the run (the default deadlines
                    // are days away), so the orders are for phase 0.
                    Some(json!({"orders": orders, "replace": true, "seq": 0})),
                )
                .await
            }
            55..=69 => c.call(reqwest::Method::GET, &format!("/api/games/{id}"), None).await,
            70..=79 => {
                let others: Vec<&str> = ["England", "France", "Germany", "Italy", "Russia", "Turkey", "Austria"]
                    .into_iter()
                    .filter(|p| *p != seat.power)
                    .collect();
                let to = others.choose(&mut rand::thread_rng()).copied().unwrap_or("England");
                c.call(
                    reqwest::Method::POST,
                    &format!("/api/games/{id}/press"),
                    Some(json!({"to": [to], "body": "load test message"})),
                )
                .await
            }
            // Polling for news, as the game page does: only what came since the last read.
            _ => {
                let since = press_since.map_or(String::new(), |t| format!("?since_ms={t}"));
                let r = c
                    .call(reqwest::Method::GET, &format!("/api/games/{id}/press{since}"), None)
                    .await;
                if let Some(t) = r.as_ref().ok().and_then(|v| v["latest_ms"].as_i64()) {
                    press_since = Some(t);
                }
                r
            }
        };
        let micros = started.elapsed().as_micros() as u32;
        if (30..=54).contains(&roll) || (70..=79).contains(&roll) {
            latencies.writes.push(micros);
        } else {
            latencies.reads.push(micros);
        }
        if let Err(e) = r {
            errors += 1;
            first_error.get_or_insert(e);
        }
    }
    (latencies, errors, first_error)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let base = args.get(1).cloned().unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let clients: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(200);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(60);
    let rate: Option<f64> = args.get(4).and_then(|a| a.parse().ok()).filter(|r: &f64| *r > 0.0);
    let run = rand::thread_rng().gen_range(0..1_000_000u64);
    eprintln!("setting up {clients} players against {base} ...");
    let seats = setup(&base, clients, run).await?;
    match rate {
        Some(r) => eprintln!("running for {seconds} s, paced at {r} requests/s ..."),
        None => eprintln!("running for {seconds} s, closed loop ..."),
    }
    let started = Instant::now();
    let until = started + Duration::from_secs(seconds);
    let handles: Vec<_> = seats
        .into_iter()
        .map(|s| tokio::spawn(drive(s, until, rate.map(|r| (clients, r)))))
        .collect();
    let mut all = Vec::new();
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut errors = 0;
    let mut first_error = None;
    for h in handles {
        let (lat, err, first) = h.await.map_err(|e| e.to_string())?;
        all.extend(&lat.reads);
        all.extend(&lat.writes);
        reads.extend(lat.reads);
        writes.extend(lat.writes);
        errors += err;
        if first_error.is_none() {
            first_error = first;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    for v in [&mut all, &mut reads, &mut writes] {
        v.sort_unstable();
    }
    let mode = rate.map_or("closed loop".to_string(), |r| format!("paced at {r}/s"));
    println!(
        "clients {clients}, {seconds} s, {mode}: {} requests, {:.0} requests/s, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms, errors {errors}",
        all.len(),
        all.len() as f64 / elapsed,
        percentile(&all, 0.50),
        percentile(&all, 0.99),
        percentile(&all, 1.0),
    );
    for (label, v) in [("reads", &reads), ("writes", &writes)] {
        println!(
            "  {label}: {} requests, p50 {:.1} ms, p99 {:.1} ms",
            v.len(),
            percentile(v, 0.50),
            percentile(v, 0.99)
        );
    }
    if let Some(e) = first_error {
        println!("first error: {e}");
    }
    Ok(())
}
