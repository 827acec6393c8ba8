//! Test harness: starts the real `chancery-server` binary on a loopback port against a
//! real SQLite file (always) and a fresh PostgreSQL database (when
//! `CHANCERY_TEST_POSTGRES` holds a server URL whose role may create databases), and
//! talks to it over HTTP.
#![allow(dead_code)]

pub mod smtp;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

pub const PASSWORD: &str = "correct horse battery";

/// A database to run a server against.
pub struct Target {
    pub label: &'static str,
    pub url: String,
    /// Keeps the SQLite file's folder alive.
    _dir: Option<tempfile::TempDir>,
    /// Drops the PostgreSQL database when the test ends.
    _pg: Option<PgDatabase>,
}

/// SQLite always; PostgreSQL when the environment names a server.
pub async fn targets() -> Vec<Target> {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("club.db");
    let mut out = vec![Target {
        label: "sqlite",
        url: path.to_string_lossy().into_owned(),
        _dir: Some(dir),
        _pg: None,
    }];
    match std::env::var("CHANCERY_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => {
            let pg = fresh_postgres(&url).await;
            out.push(Target {
                label: "postgres",
                url: pg.url.clone(),
                _dir: None,
                _pg: Some(pg),
            })
        }
        _ => eprintln!("note: CHANCERY_TEST_POSTGRES is not set; skipping the PostgreSQL run of this test"),
    }
    out
}

/// A new, empty database on a PostgreSQL server, dropped again when this value is: a
/// test run creates hundreds, and left behind they fill the disk and make the next start
/// of PostgreSQL take many minutes.
pub struct PgDatabase {
    pub url: String,
    base: String,
    name: String,
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // Drop runs outside any runtime (or inside one that must not block), so the
        // statement gets a thread and a small runtime of its own. FORCE ends the
        // connections of servers the test has not stopped yet.
        let (base, name) = (self.base.clone(), self.name.clone());
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            runtime.block_on(async {
                use sqlx::Connection;
                let mut conn = sqlx::postgres::PgConnection::connect(&base).await.ok()?;
                sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut conn)
                    .await
                    .ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(_))) {
            eprintln!("note: could not drop the test database {}", self.name);
        }
    }
}

/// A new, empty database on the server `base` points at.
pub async fn fresh_postgres(base: &str) -> PgDatabase {
    use rand::Rng;
    use sqlx::Connection;
    let name = format!("chancery_t_{}", rand::thread_rng().gen_range(0..u64::MAX));
    let mut conn = sqlx::postgres::PgConnection::connect(base)
        .await
        .expect("connect to CHANCERY_TEST_POSTGRES");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("create a test database");
    let (prefix, _) = base.rsplit_once('/').expect("a URL with a database name");
    PgDatabase {
        url: format!("{prefix}/{name}"),
        base: base.to_string(),
        name,
    }
}

impl Target {
    /// A connection straight to the test's database, for a test to put data in place
    /// that no request could make (rows from an older version, messages sharing one
    /// millisecond).
    pub async fn database(&self) -> sqlx::AnyPool {
        sqlx::any::install_default_drivers();
        let url = match self.label {
            "sqlite" => format!("sqlite://{}", self.url),
            _ => self.url.clone(),
        };
        sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("connect to the test database")
    }
}

pub struct Server {
    pub child: Child,
    pub base: String,
    /// Every line the server has written to its log so far.
    pub log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

/// What every test server is started with: an adjustable clock, no demo club, a fast
/// scheduler tick, and a rate limit no test reaches by accident.
pub const TEST_ARGS: [&str; 6] = ["--test-clock", "--no-demo", "--tick-ms", "50", "--rate", "100000"];

impl Server {
    /// Starts a test server ([`TEST_ARGS`]).
    pub fn start(db: &str) -> Server {
        Server::start_with(db, &TEST_ARGS)
    }

    /// Starts a test server with `extra` arguments after [`TEST_ARGS`] (`--smtp URL`,
    /// `--moderator NAME`, …).
    pub fn start_adding(db: &str, extra: &[&str]) -> Server {
        let args: Vec<&str> = TEST_ARGS.iter().chain(extra).copied().collect();
        Server::start_with(db, &args)
    }

    pub fn start_with(db: &str, args: &[&str]) -> Server {
        Server::start_in(None, db, args)
    }

    /// Starts a server whose working folder is `dir` (for relative database paths).
    pub fn start_in(dir: Option<&std::path::Path>, db: &str, args: &[&str]) -> Server {
        Server::start_in_env(dir, db, args, &[])
    }

    /// Starts a server with these environment variables set.
    pub fn start_in_env(dir: Option<&std::path::Path>, db: &str, args: &[&str], env: &[(&str, &str)]) -> Server {
        // `CHANCERY_TEST_SERVER` names another build (a release binary, to measure page
        // loads as a club would see them); by default, the one this test was built with.
        let binary =
            std::env::var("CHANCERY_TEST_SERVER").unwrap_or_else(|_| env!("CARGO_BIN_EXE_chancery-server").into());
        let mut command = Command::new(binary);
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        let mut child = command
            .envs(env.iter().copied())
            .args(["--listen", "127.0.0.1:0", "--database", db])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chancery-server");
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = log.clone();
        // Keeps draining the server's log so that it never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                kept.lock().unwrap_or_else(|e| e.into_inner()).push(line.clone());
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let addr = rest.split_whitespace().next().unwrap_or_default().to_string();
                    let _ = tx.send(Ok(addr));
                } else if line.contains("database error") || line.contains(" WARN ") || line.contains(" ERROR ") {
                    // Expected in crash tests; shown for diagnosis.
                    eprintln!("[server] {line}");
                } else {
                    let _ = tx.send(Err(line));
                }
            }
        });
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let mut early = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match rx.recv_timeout(left) {
                Ok(Ok(addr)) => {
                    return Server {
                        child,
                        base: format!("http://{addr}"),
                        log,
                    }
                }
                Ok(Err(line)) => early.push(line),
                Err(_) => {
                    let _ = child.kill();
                    panic!("the server did not start; its log:\n{}", early.join("\n"));
                }
            }
        }
    }

    /// SIGKILL: no chance to clean up.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn visitor(&self) -> Api {
        Api::new(&self.base, None)
    }

    pub async fn register(&self, name: &str) -> Api {
        let anon = self.visitor();
        let (status, body) = anon
            .call(
                "POST",
                "/api/register",
                Some(json!({"name": name, "password": PASSWORD})),
            )
            .await;
        assert_eq!(status, 201, "register {name}: {body}");
        Api::new(&self.base, body["token"].as_str().map(str::to_string))
    }

    pub async fn advance(&self, ms: i64) -> Value {
        let (status, body) = self
            .visitor()
            .call("POST", "/api/test/clock", Some(json!({"ms": ms})))
            .await;
        assert_eq!(status, 200, "advance the clock: {body}");
        body
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone)]
pub struct Api {
    pub base: String,
    pub token: Option<String>,
    client: reqwest::Client,
}

impl Api {
    pub fn new(base: &str, token: Option<String>) -> Api {
        Api {
            base: base.to_string(),
            token,
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("client"),
        }
    }

    pub async fn try_call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> Result<(u16, Value), reqwest::Error> {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut req = self.client.request(method, format!("{}{}", self.base, path));
        if let Some(t) = &self.token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        let json = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|t| t.to_str().ok())
            .is_some_and(|t| t.starts_with("application/json"));
        let text = resp.text().await?;
        // The API answers JSON but for its images, which come back as one string.
        let value = match json {
            true => serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}")),
            false => Value::String(text),
        };
        Ok((status, value))
    }

    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        self.try_call(method, path, body).await.expect("request")
    }

    pub async fn get(&self, path: &str) -> Value {
        let (status, body) = self.call("GET", path, None).await;
        assert_eq!(status, 200, "GET {path}: {body}");
        body
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
        let (status, out) = self.call("POST", path, Some(body)).await;
        assert!(status == 200 || status == 201, "POST {path}: {status} {out}");
        out
    }
}

/// Creates a game as `gm` and seats one registered account per playable power; returns
/// the game id and the players by power name.
pub async fn full_game(
    server: &Server,
    gm: &Api,
    variant: &str,
    options: Value,
    prefix: &str,
) -> (i64, Vec<(String, Api)>) {
    let mut body = json!({"name": format!("{prefix} game"), "variant": variant});
    if let Value::Object(extra) = options {
        for (k, v) in extra {
            body[k] = v;
        }
    }
    let game = gm.post("/api/games", body).await;
    let id = game["id"].as_i64().expect("game id");
    let powers: Vec<String> = game["powers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["playable"] == true)
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    let mut players = Vec::new();
    for (i, power) in powers.iter().enumerate() {
        let api = server.register(&format!("{prefix}-player{i}")).await;
        let joined = api
            .post(&format!("/api/games/{id}/join"), json!({"power": power}))
            .await;
        assert_eq!(joined["power"], power.as_str());
        players.push((power.clone(), api));
    }
    (id, players)
}

/// Creates a game called `name` of `variant` as `gm`, registers each account of `seats`
/// and joins it to its power; returns the game's id and the players, in `seats`' order.
/// The game is still forming (a game starts by itself only once every power is taken).
pub async fn seated_game<const N: usize>(
    server: &Server,
    gm: &Api,
    name: &str,
    variant: &str,
    seats: [(&str, &str); N],
) -> (i64, [Api; N]) {
    let game = gm.post("/api/games", json!({"name": name, "variant": variant})).await;
    let id = game["id"].as_i64().expect("game id");
    let mut players = Vec::new();
    for (account, power) in seats {
        let api = server.register(account).await;
        let joined = api
            .post(&format!("/api/games/{id}/join"), json!({"power": power}))
            .await;
        assert_eq!(joined["power"], power, "{account} joins as {power}");
        players.push(api);
    }
    match players.try_into() {
        Ok(players) => (id, players),
        Err(_) => unreachable!("one player per seat"),
    }
}

/// [`seated_game`], then the GM starts it with the powers left vacant.
pub async fn started_game<const N: usize>(
    server: &Server,
    gm: &Api,
    name: &str,
    variant: &str,
    seats: [(&str, &str); N],
) -> (i64, [Api; N]) {
    let (id, players) = seated_game(server, gm, name, variant, seats).await;
    gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;
    (id, players)
}

pub fn player<'a>(players: &'a [(String, Api)], power: &str) -> &'a Api {
    &players.iter().find(|(p, _)| p == power).expect("power").1
}

/// A variant file of `n`×`n` land spaces in a grid over eastern Europe (all land, so
/// that it can be shaped), each bordering
/// the four beside it, two powers in opposite corners; `name` in its `variant` line and
/// `shift` degrees added to every anchor's latitude, so that files differ in content.
pub fn grid_variant(n: usize, name: &str, shift: f64) -> String {
    use std::fmt::Write;
    let mut s = format!("variant {name}\ntitle \"Grid {n}\"\nstart Spring 1901\nvictory centres 2\n");
    s.push_str("power Alpha great colour=#c8102e\npower Beta great colour=#1f3a93\n");
    for i in 0..n {
        for j in 0..n {
            let home = match (i, j) {
                (0, 0) => " sc home=Alpha",
                _ if (i, j) == (n - 1, n - 1) => " sc home=Beta",
                _ => "",
            };
            let lat = 48.0 + shift + i as f64 * 7.0 / n as f64;
            let lon = 24.0 + j as f64 * 14.0 / n as f64;
            let _ = writeln!(s, "province g{i}x{j} land \"G {i} {j}\"{home} at={lat:.3},{lon:.3}");
        }
    }
    for i in 0..n {
        for j in 0..n {
            let mut line = format!("army g{i}x{j}:");
            for (di, dj) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
                let (a, b) = (i as i64 + di, j as i64 + dj);
                if (0..n as i64).contains(&a) && (0..n as i64).contains(&b) {
                    let _ = write!(line, " g{a}x{b}");
                }
            }
            s.push_str(&line);
            s.push('\n');
        }
    }
    let _ = writeln!(s, "unit Alpha A g0x0\nunit Beta A g{0}x{0}", n - 1);
    s
}

/// The server process's peak and current resident memory in KiB (`VmHWM`, `VmRSS`).
pub fn memory_kib(server: &Server) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).expect("/proc status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// Standard's variant file with every `at=` anchor moved `dlat` degrees north and its
/// `variant` line naming `name` (the shape of an upload meant to keep the server
/// busy drawing maps, renamed).
/// Shaping it covers all of Europe: many seconds of work, as a real upload is.
pub fn moved_standard(name: &str, dlat: f64) -> String {
    include_str!("../../../../variants/standard.var")
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
