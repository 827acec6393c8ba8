//! The server's edge against a hostile client: the one text check at the API
//! boundary, the Atom feed as well-formed XML whatever the stored text, forged
//! cross-site requests and rate limits that a made-up token or a sprayed name cannot
//! escape: each a way a hostile client once got through. Over real HTTP, on SQLite and, when
//! `CHANCERY_TEST_POSTGRES` is set, PostgreSQL (which refuses a NUL byte in text: the 500
//! the check prevents).

mod common;

use common::{Api, Server, PASSWORD};
use serde_json::{json, Value};

/// A request body that fits an operation's schema: its example where it has one.
fn instance(doc: &Value, schema: &Value) -> Value {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.rsplit('/').next().unwrap();
        return instance(doc, &doc["components"]["schemas"][name]);
    }
    if let Some(example) = schema.get("example") {
        return example.clone();
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(first) = schema[key]
            .as_array()
            .and_then(|a| a.iter().find(|s| s["type"] != "null"))
        {
            return instance(doc, first);
        }
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds.iter().find(|k| *k != "null").cloned().unwrap_or(Value::Null),
        other => other.clone(),
    };
    match kind.as_str() {
        Some("object") => Value::Object(
            schema["properties"]
                .as_object()
                .map(|p| p.iter().map(|(k, s)| (k.clone(), instance(doc, s))).collect())
                .unwrap_or_default(),
        ),
        Some("array") => json!([instance(doc, &schema["items"])]),
        Some("string") => json!("ok"),
        Some("integer") | Some("number") => json!(1),
        Some("boolean") => json!(false),
        _ => Value::Null,
    }
}

/// Every string in `v` with the name the server gives it in a refusal (`a.b[2]`).
fn string_leaves(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::String(_) => out.push(path.to_string()),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                string_leaves(item, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                let here = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                string_leaves(item, &here, out);
            }
        }
        _ => {}
    }
}

/// `v` with the string at `path` replaced.
fn replace_at(v: &mut Value, path: &str, new: &str) {
    let mut here = v;
    for part in path.split('.') {
        let (key, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        here = &mut here[key];
        for index in indices.split(['[', ']']).filter(|s| !s.is_empty()) {
            here = &mut here[index.parse::<usize>().unwrap()];
        }
    }
    *here = json!(new);
}

/// A documented path with its parameters filled in.
fn fill(path: &str, id: i64) -> String {
    path.replace("{id}", &id.to_string())
        .replace("{seq}", "1")
        .replace("{name}", "player")
}

async fn expect_refused(api: &Api, method: &str, path: &str, body: Option<Value>, field: &str) {
    let (status, answer) = api.call(method, path, body.clone()).await;
    assert_eq!(status, 422, "{method} {path} {body:?}: {answer}");
    assert_eq!(answer["field"], field, "{method} {path}: {answer}");
}

/// A NUL byte gave PostgreSQL's 500. Every string a client sends,
/// in a body, a path or a query, passes one check and is refused with 422 naming it, on
/// both backends; the check covers every documented route, so a new one is covered too.
#[tokio::test(flavor = "multi_thread")]
async fn no_route_takes_a_control_character_in_any_string() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("gamemaster").await;
        let game = gm
            .post(
                "/api/games",
                json!({"name": "Edge", "variant": "standard", "press": "public"}),
            )
            .await;
        let id = game["id"].as_i64().unwrap();
        let player = server.register("player").await;
        player
            .post(&format!("/api/games/{id}/join"), json!({"power": "France"}))
            .await;
        let anon = server.visitor();

        // The texts that broke the server, one by one.
        expect_refused(&gm, "POST", "/api/games", Some(json!({"name": "a\u{0}b"})), "name").await;
        expect_refused(
            &player,
            "POST",
            &format!("/api/games/{id}/press"),
            Some(json!({"body": "nul\u{0}"})),
            "body",
        )
        .await;
        expect_refused(
            &player,
            "POST",
            &format!("/api/games/{id}/press"),
            Some(json!({"body": "ctrl\u{1}"})),
            "body",
        )
        .await;
        let transfer = format!("/api/games/{id}/gm/transfer");
        expect_refused(&gm, "POST", &transfer, Some(json!({"account": "a\u{0}b"})), "account").await;
        let settings = format!("/api/games/{id}/gm/settings");
        expect_refused(&gm, "POST", &settings, Some(json!({"name": "x\u{0}"})), "name").await;
        let login = json!({"name": "demo\u{0}gm", "password": PASSWORD});
        expect_refused(&anon, "POST", "/api/login", Some(login), "name").await;
        expect_refused(&anon, "GET", "/api/players/a%00b", None, "name").await;
        expect_refused(&anon, "GET", "/players/a%00b", None, "name").await;
        expect_refused(
            &player,
            "GET",
            &format!("/api/games/{id}/orders?power=Fr%00"),
            None,
            "power",
        )
        .await;
        // A line break only where a field holds many lines; a bidirectional override nowhere.
        expect_refused(&gm, "POST", &settings, Some(json!({"name": "two\nlines"})), "name").await;
        expect_refused(&gm, "POST", &settings, Some(json!({"name": "evil\u{202E}txt"})), "name").await;
        let sent = player
            .post(
                &format!("/api/games/{id}/press"),
                json!({"body": "Two lines,\nand a\ttab: Ελλάδα"}),
            )
            .await;
        assert!(sent.is_object(), "{sent}");
        let long = "x".repeat(1001);
        expect_refused(&gm, "POST", &settings, Some(json!({"name": long})), "name").await;

        // Every documented operation: each string of a body that fits its schema, and
        // each path parameter, in turn made to carry a NUL.
        let doc = anon.get("/api/docs").await;
        let mut checked = 0;
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                let concrete = fill(path, id);
                let body = operation["requestBody"]["content"]["application/json"].clone();
                let example = match body.get("example") {
                    Some(e) => Some(e.clone()),
                    None => body.get("schema").map(|s| instance(&doc, s)),
                };
                if let Some(example) = example {
                    let mut leaves = Vec::new();
                    string_leaves(&example, "", &mut leaves);
                    for leaf in leaves {
                        let mut bad = example.clone();
                        replace_at(&mut bad, &leaf, "x\u{0}y");
                        expect_refused(&gm, &method.to_uppercase(), &concrete, Some(bad), &leaf).await;
                        checked += 1;
                    }
                }
                for param in ["id", "seq", "name"] {
                    if path.contains(&format!("{{{param}}}")) {
                        let bad = path.replace(&format!("{{{param}}}"), "1%00");
                        let bad = fill(&bad, id);
                        expect_refused(&gm, &method.to_uppercase(), &bad, None, param).await;
                        checked += 1;
                    }
                }
            }
        }
        eprintln!("{checked} strings and path parameters checked");
        assert!(checked > 40, "only {checked} strings checked");
        // Nothing was stored by any of it.
        let games = anon.get("/api/games").await;
        assert_eq!(games["games"].as_array().unwrap().len(), 1);
        assert_eq!(gm.get(&format!("/api/games/{id}")).await["name"], "Edge");
    }
}

/// The boundary check cannot be walked around: no handler reads a request but through
/// the extractors of `error.rs` (no `axum::Json`, `Query`, `Path`, `Form` or raw bytes).
#[test]
fn every_handler_reads_its_request_through_the_checked_extractors() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("error.rs") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for forbidden in [
                "): Json<",
                "): axum::Json<",
                "extract::Query",
                "extract::Path",
                "extract::Form",
                "RawQuery",
                "RawPathParams",
                "body::Bytes",
                "Bytes,",
            ] {
                assert!(
                    !text.contains(forbidden),
                    "{}: `{forbidden}` reads a request around the text check of error.rs",
                    path.display()
                );
            }
            for line in text
                .lines()
                .filter(|l| l.trim_start().starts_with("use axum::extract::"))
            {
                for name in ["Query", "Path", "Form", "Json", "RawQuery", "Multipart"] {
                    assert!(
                        !line.split(|c: char| !c.is_alphanumeric()).any(|w| w == name),
                        "{}: `{line}` brings in an unchecked extractor",
                        path.display()
                    );
                }
            }
        }
    }
    assert!(files > 30);
}

/// A request sent as a browser sends it: the session as a cookie, with or without an
/// `Origin`, a content type and a body.
async fn browser(
    base: &str,
    method: &str,
    path: &str,
    token: &str,
    origin: Option<&str>,
    content_type: Option<&str>,
    body: &str,
) -> (u16, reqwest::header::HeaderMap) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut req = reqwest::Client::new()
        .request(method, format!("{base}{path}"))
        .header("cookie", format!("chancery_session={token}"))
        .body(body.to_string());
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    if let Some(t) = content_type {
        req = req.header("content-type", t);
    }
    let resp = req.send().await.unwrap();
    (resp.status().as_u16(), resp.headers().clone())
}

/// Cookie-only POSTs from another site's page changed games
/// (`gm/process`, `gm/rollback`, `ready`, `join`) and ended sessions (`logout`), and
/// `join` took a `text/plain` body, which any page can send without asking. Now a
/// cookie request that changes something needs this server's `Origin` (or `Referer`)
/// and a JSON content type; a Bearer request needs neither.
#[tokio::test(flavor = "multi_thread")]
async fn forged_cross_site_requests_are_refused() {
    const EVIL: Option<&str> = Some("http://evil.example");
    const JSON: Option<&str> = Some("application/json");
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let base = server.base.as_str();
        let ours = Some(base);
        let gm = server.register("gamemaster").await;
        let (id, players) = common::full_game(&server, &gm, "standard", json!({}), "csrf").await;
        let gm_token = gm.token.clone().unwrap();
        let france = common::player(&players, "France").token.clone().unwrap();
        let newcomer = server.register("newcomer").await;
        let newcomer_token = newcomer.token.clone().unwrap();
        let spare = gm
            .post("/api/games", json!({"name": "Spare", "variant": "standard"}))
            .await["id"]
            .as_i64()
            .unwrap();

        let process = format!("/api/games/{id}/gm/process");
        let rollback = format!("/api/games/{id}/gm/rollback");
        let ready = format!("/api/games/{id}/ready");
        let join = format!("/api/games/{spare}/join");
        for (path, token) in [
            (&process, &gm_token),
            (&rollback, &gm_token),
            (&ready, &france),
            (&join, &newcomer_token),
            (&"/api/logout".to_string(), &newcomer_token),
        ] {
            let (status, _) = browser(base, "POST", path, token, EVIL, JSON, "{}").await;
            assert_eq!(status, 403, "POST {path} from another site");
            // Neither Origin nor Referer: not shown to come from our pages.
            let (status, _) = browser(base, "POST", path, token, None, JSON, "{}").await;
            assert_eq!(status, 403, "POST {path} without an origin");
        }
        assert_eq!(
            gm.get(&format!("/api/games/{id}")).await["phase"],
            "S1901M",
            "nothing was processed"
        );
        assert_eq!(newcomer.get("/api/me").await["name"], "newcomer", "the session lives");
        let (status, _) = browser(
            base,
            "DELETE",
            &format!("/api/games/{id}/orders"),
            &france,
            EVIL,
            JSON,
            "",
        )
        .await;
        assert_eq!(status, 403);

        // The JSON content type: a form or a text/plain body is refused, with the cookie
        // or a token.
        let power = r#"{"power": "Italy"}"#;
        let (status, _) = browser(base, "POST", &join, &newcomer_token, ours, Some("text/plain"), power).await;
        assert_eq!(status, 415, "text/plain join with the cookie");
        let (status, _) = browser(base, "POST", &join, &newcomer_token, ours, None, "").await;
        assert_eq!(status, 415, "a cookie request without a content type");
        let (status, _) = reqwest::Client::new()
            .post(format!("{base}{join}"))
            .bearer_auth(&newcomer_token)
            .header("content-type", "text/plain")
            .body(power)
            .send()
            .await
            .map(|r| (r.status().as_u16(), ()))
            .unwrap();
        assert_eq!(status, 415, "text/plain join with a token");

        // From our own pages it all works; a Referer stands in for a missing Origin.
        let (status, _) = browser(base, "POST", &join, &newcomer_token, ours, JSON, power).await;
        assert_eq!(status, 200, "same-origin join");
        let (status, _) = browser(base, "POST", &process, &gm_token, ours, JSON, "").await;
        assert_eq!(status, 200, "same-origin gm/process");
        let (status, _) = reqwest::Client::new()
            .post(format!("{base}{rollback}"))
            .header("cookie", format!("chancery_session={gm_token}"))
            .header("referer", format!("{base}/games/{id}/gm"))
            .header("content-type", "application/json")
            .send()
            .await
            .map(|r| (r.status().as_u16(), ()))
            .unwrap();
        assert_eq!(status, 200, "gm/rollback with a Referer of ours");
        // A token is not a cookie: no origin asked of it.
        let (status, _) = gm.call("POST", &process, None).await;
        assert_eq!(status, 200);
        let (status, _) = browser(base, "POST", "/api/logout", &newcomer_token, ours, JSON, "").await;
        assert_eq!(status, 200);
        let (status, _) = newcomer.call("GET", "/api/me", None).await;
        assert_eq!(status, 401);
    }
}

/// Finding 7: the pages and the API say what a browser may do with them.
#[tokio::test(flavor = "multi_thread")]
async fn security_headers_and_a_secure_cookie_over_https() {
    let target = common::targets().await.remove(0);
    let server = Server::start(&target.url);
    server.register("alice").await;
    let client = reqwest::Client::new();
    for path in [
        "/",
        "/login",
        "/api/games",
        "/api/docs",
        "/assets/common.js",
        "/no/such/page",
    ] {
        let resp = client.get(format!("{}{path}", server.base)).send().await.unwrap();
        let h = resp.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("default-src 'none'"), "{path}: {csp}");
        assert!(!csp.contains("'unsafe-eval'") && !csp.contains("script-src 'unsafe-inline'"));
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
        if path == "/" {
            assert!(csp.contains("script-src 'self'"), "{csp}");
        }
    }
    let login = json!({"name": "alice", "password": PASSWORD});
    let resp = client
        .post(format!("{}/api/login", server.base))
        .json(&login)
        .send()
        .await
        .unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap();
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    drop(server);

    // Behind an HTTPS proxy: the cookie is Secure and the public origin is ours.
    let server = Server::start_with(
        &target.url,
        &["--no-demo", "--rate", "100000", "--public-url", "https://club.example/"],
    );
    let resp = client
        .post(format!("{}/api/login", server.base))
        .json(&login)
        .send()
        .await
        .unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("; Secure"), "{cookie}");
    let token = resp.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = browser(
        &server.base,
        "POST",
        "/api/logout",
        &token,
        Some("https://evil.example"),
        Some("application/json"),
        "",
    )
    .await;
    assert_eq!(status, 403);
    let (status, headers) = browser(
        &server.base,
        "POST",
        "/api/logout",
        &token,
        Some("https://club.example"),
        Some("application/json"),
        "",
    )
    .await;
    assert_eq!(status, 200);
    assert!(headers["set-cookie"].to_str().unwrap().contains("Max-Age=0; Secure"));
}

/// The rate limit kept a bucket per Bearer string, unchecked, so
/// 600 requests with made-up tokens met no 429. A token that is no session's counts as
/// none: the request is limited with every other from its address, while a real session
/// has its account's bucket.
#[tokio::test(flavor = "multi_thread")]
async fn made_up_tokens_share_their_address_bucket() {
    let target = common::targets().await.remove(0);
    // 5 requests a second, bursts of 10.
    let server = Server::start_with(&target.url, &["--no-demo", "--rate", "5"]);
    let alice = server.register("alice").await;
    let mut refused = 0;
    for i in 0..60 {
        let forged = Api::new(&server.base, Some(format!("{:064x}", 0xfeed_0000_u64 + i)));
        let (status, _) = forged.call("GET", "/api/games", None).await;
        assert!(status == 200 || status == 429, "{status}");
        refused += usize::from(status == 429);
    }
    assert!(refused >= 30, "only {refused} of 60 made-up tokens refused");
    let (status, _) = server.visitor().call("GET", "/api/games", None).await;
    assert_eq!(status, 429, "no token: the same address bucket");
    let (status, body) = alice.call("GET", "/api/me", None).await;
    assert_eq!(status, 200, "a real session has its own bucket: {body}");
}

/// Failed logins were throttled per name and address only, so one
/// address could try a password on 30 names. Now the address is throttled across names
/// too, counted in the database: two servers sharing it throttle together, and while
/// the address is throttled even a right password is refused (a spray learns nothing).
#[tokio::test(flavor = "multi_thread")]
async fn password_spraying_is_throttled_per_address_across_servers() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let a = Server::start(&target.url);
        let b = Server::start(&target.url);
        a.register("victim").await;
        let spray = |server: &Server, i: usize| {
            let api = server.visitor();
            async move {
                api.call(
                    "POST",
                    "/api/login",
                    Some(json!({"name": format!("member{i}"), "password": "Summer2026!"})),
                )
                .await
            }
        };
        for i in 0..20 {
            let server = if i % 2 == 0 { &a } else { &b };
            let (status, body) = spray(server, i).await;
            assert_eq!(status, 401, "attempt {i}: {body}");
        }
        for i in 20..30 {
            let server = if i % 2 == 0 { &a } else { &b };
            let (status, body) = spray(server, i).await;
            assert_eq!(status, 429, "attempt {i}, a name never tried before: {body}");
            assert!(body["retry_after_seconds"].as_u64().unwrap() > 0, "{body}");
        }
        let right = json!({"name": "victim", "password": PASSWORD});
        for server in [&a, &b] {
            let (status, body) = server.visitor().call("POST", "/api/login", Some(right.clone())).await;
            assert_eq!(status, 429, "the right password from a throttled address: {body}");
        }
        // The window passes (on server a's clock): the member logs in again.
        a.advance(15 * 60 * 1000 + 1000).await;
        let (status, body) = a.visitor().call("POST", "/api/login", Some(right)).await;
        assert_eq!(status, 200, "{body}");
    }
}

/// Runs one statement on a test database directly, as an older version's data would be.
async fn execute(target: &common::Target, sql: &str, text: &str, id: i64) {
    use sqlx::Connection;
    if target.label == "postgres" {
        let mut c = sqlx::postgres::PgConnection::connect(&target.url).await.unwrap();
        sqlx::query(sql).bind(text).bind(id).execute(&mut c).await.unwrap();
    } else {
        let url = format!("sqlite://{}", target.url);
        let mut c = sqlx::sqlite::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query(sql).bind(text).bind(id).execute(&mut c).await.unwrap();
    }
}

/// Public press `"ctrl\u0001"` or such a game name made the Atom
/// feed invalid XML. The boundary check now refuses such text, and the feed is written
/// by an XML writer from text made XML-safe, so that even text stored before the check
/// (put in the database directly here) gives a document a real XML parser reads.
#[tokio::test(flavor = "multi_thread")]
async fn every_feed_is_well_formed_xml_whatever_was_stored() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("gamemaster").await;
        let (id, players) = common::full_game(&server, &gm, "standard", json!({"press": "public"}), "feed").await;
        let france = common::player(&players, "France");
        let press = format!("/api/games/{id}/press");
        france
            .post(
                &press,
                json!({"body": "<b>Bold</b> & \"quoted\" ]]> — Ελλάδα, two\nlines"}),
            )
            .await;
        france.post(&press, json!({"body": "to be overwritten"})).await;
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        // Text with characters XML cannot carry, as an older server stored it (no NUL:
        // PostgreSQL never stored one).
        let odd = "ctrl\u{1} esc\u{1b}[31m bell\u{7} \u{FFFE} <&>";
        execute(
            &target,
            "UPDATE press SET body = $1 WHERE game_id = $2 AND body = 'to be overwritten'",
            odd,
            id,
        )
        .await;
        execute(&target, "UPDATE games SET name = $1 WHERE id = $2", odd, id).await;

        let resp = reqwest::get(format!("{}/games/{id}/feed.atom", server.base))
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        assert!(resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/atom+xml"));
        let xml = resp.text().await.unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("invalid XML ({e}):\n{xml}"));
        let atom = "http://www.w3.org/2005/Atom";
        let root = doc.root_element();
        assert!(root.has_tag_name((atom, "feed")));
        let child_text = |node: roxmltree::Node, name: &str| {
            node.children()
                .find(|c| c.has_tag_name((atom, name)))
                .and_then(|c| c.text())
                .unwrap_or_default()
                .to_string()
        };
        let shown = "ctrl\u{FFFD} esc\u{FFFD}[31m bell\u{FFFD} \u{FFFD} <&>";
        assert_eq!(child_text(root, "title"), shown);
        let entries: Vec<_> = root.children().filter(|c| c.has_tag_name((atom, "entry"))).collect();
        let contents: Vec<String> = entries.iter().map(|e| child_text(*e, "content")).collect();
        assert!(contents.iter().any(|c| c == shown), "{contents:?}");
        assert!(
            contents
                .iter()
                .any(|c| c == "<b>Bold</b> & \"quoted\" ]]> — Ελλάδα, two\nlines"),
            "markup is text, kept exactly: {contents:?}"
        );
        assert!(
            contents.iter().any(|c| c.contains("Supply centres:")),
            "the phase's results"
        );
        for e in &entries {
            assert!(!child_text(*e, "id").is_empty() && !child_text(*e, "updated").is_empty());
        }

        // Every game's feed on the server parses, and a game without a phase too.
        let fresh = gm
            .post(
                "/api/games",
                json!({"name": "Quiet <game> & co", "variant": "standard"}),
            )
            .await;
        for game in gm.get("/api/games").await["games"].as_array().unwrap() {
            let gid = game["id"].as_i64().unwrap();
            let xml = reqwest::get(format!("{}/games/{gid}/feed.atom", server.base))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("game {gid}: invalid XML ({e}):\n{xml}"));
        }
        assert!(fresh["id"].is_i64());
    }
}
