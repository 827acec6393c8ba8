//! The standing abuse suite. Its cases are generated from the server's own
//! OpenAPI document (`/api/docs`), derived operations and hand-described ones alike, so
//! an endpoint added to the API is attacked without being listed here:
//!
//! - every operation that may carry a body (POST, PUT, PATCH, DELETE): a body larger
//!   than any documented limit, malformed JSON, bytes that are not UTF-8, the right JSON
//!   under the wrong content type, a body of the wrong JSON type;
//! - every field of each request body (its example, completed from its schema): a value
//!   of the wrong type; every string in it with NUL, other control characters, a
//!   right-to-left override, and very long;
//! - every path parameter: traversal (`..%2f`), NUL and control characters, numbers too
//!   large for 64 bits, negative numbers, 5,000 characters; every documented query
//!   string the same;
//! - every route the document does not describe (the pages, the feeds, the assets, the
//!   mail links), taken from the list the server's router is built from
//!   (`routes::undocumented_paths`): each of its path parameters, whatever its name, the
//!   same way, and hostile query strings and bodies.
//!
//! Each case is sent by an anonymous visitor, a seated player and the game's GM, on a
//! fresh game started for the operation. Never a 5xx, never a dropped connection or a
//! panic in the server's log, and `/api/health` answers after each operation. Where a
//! defence exists its status is asserted: 413 for a body over the limit, 415 for a
//! wrong content type, 400/422 for a body that does not parse, 422 naming the field for
//! a control character in a string. An actor the operation is not for may be
//! refused first (401, 403, or 429 when a rate limit stops it before its content is
//! read), but at least one actor must meet the defence itself.

mod common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::{Api, Server};
use serde_json::{json, Value};

/// Larger than any body limit the API documents (2 MiB for a variant upload).
const OVERSIZED: usize = 3 * 1024 * 1024;
/// Longer than any text field the API takes, yet well inside the 64 KiB body limit.
const LONG: usize = 20_000;
/// A path or query value longer than any one-line string may be (1,000 characters).
const LONG_PARAM: usize = 5_000;

/// Answers that refuse a request before its content is judged: no session, not this
/// actor's to do, or a rate limit.
const REFUSED_FIRST: [u16; 3] = [401, 403, 429];

/// What a case demands of the answers.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// One of these statuses (or a refusal before the content: [`REFUSED_FIRST`]), and at
    /// least one actor gets one of them.
    Refused(&'static [u16]),
    /// `Refused(&[422])` with the error naming this field.
    Names422,
    /// Some 4xx: the request is wrong in a way the server has no single answer for.
    ClientError,
    /// Anything below 500: the operation takes no body, so it may ignore one.
    NoServerError,
}

enum Payload {
    None,
    Json(Value),
    Raw(&'static str, Vec<u8>),
    /// Sent on a connection of its own: the server may answer before reading it all and
    /// close the connection, which an HTTP client reports as an error of its own.
    Oversized(Vec<u8>),
}

struct Case {
    label: String,
    /// The path with its parameters filled in, and any query string.
    target: String,
    payload: Payload,
    expect: Expect,
}

#[derive(Clone)]
struct Param {
    name: String,
    in_query: bool,
    integer: bool,
    /// Words of the user's own, documented with a length (a search): any value is a
    /// request, so a traversal or a huge number in it need only not fail the server
    /// (its control characters are still refused, naming it).
    free_text: bool,
}

/// One documented operation.
struct Operation {
    method: String,
    template: String,
    params: Vec<Param>,
    /// The body the document describes, when the operation takes one: its example
    /// (a request that would pass), or one made from its schema.
    body: Option<Value>,
    /// The fields the example leaves out, each with a value from its schema: each is
    /// attacked in the example with that one field added, so that the rest still passes.
    extras: Vec<(String, Value)>,
}

fn operations(doc: &Value) -> Vec<Operation> {
    let mut out = Vec::new();
    for (template, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("a path item") {
            let params = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| Param {
                    name: p["name"].as_str().expect("a parameter name").to_string(),
                    in_query: p["in"] == "query",
                    integer: p["schema"]["type"] == "integer",
                    free_text: p["schema"]["type"] == "string" && p["schema"].get("maxLength").is_some(),
                })
                .collect();
            let media = &op["requestBody"]["content"]["application/json"];
            let schema = resolve(&media["schema"], doc);
            let mut extras = Vec::new();
            let body = match (media.get("example"), schema.get("example")) {
                (Some(example), _) | (None, Some(example)) => {
                    for (k, s) in schema["properties"].as_object().into_iter().flatten() {
                        let v = sample(s, doc, 1);
                        if example.get(k).is_none() && !v.is_null() {
                            extras.push((k.clone(), v));
                        }
                    }
                    Some(example.clone())
                }
                (None, None) if media.get("schema").is_some() => Some(sample(schema, doc, 0)),
                (None, None) => None,
            };
            out.push(Operation {
                method: method.clone(),
                template: template.clone(),
                params,
                body,
                extras,
            });
        }
    }
    out
}

fn resolve<'a>(schema: &'a Value, doc: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(
            &doc["components"]["schemas"][r.trim_start_matches("#/components/schemas/")],
            doc,
        ),
        None => schema,
    }
}

/// A value that fits `schema`: its example, completed with every property the example
/// leaves out, so that every field of the body gets attacked.
fn sample(schema: &Value, doc: &Value, depth: usize) -> Value {
    if depth > 8 {
        return Value::Null;
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/components/schemas/");
        return sample(&doc["components"]["schemas"][name], doc, depth + 1);
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            if let Some(v) = options.iter().map(|o| sample(o, doc, depth + 1)).find(|v| !v.is_null()) {
                return v;
            }
        }
    }
    if let Some(v) = schema["enum"].as_array().and_then(|e| e.iter().find(|v| !v.is_null())) {
        return v.clone();
    }
    let example = schema.get("example").cloned().unwrap_or(Value::Null);
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ if schema.get("properties").is_some() => vec!["object"],
        _ => vec![],
    };
    match types.into_iter().find(|t| *t != "null") {
        Some("object") => {
            let mut out = if example.is_object() { example } else { json!({}) };
            for (k, s) in schema["properties"].as_object().into_iter().flatten() {
                if out.get(k).is_none() {
                    let v = sample(s, doc, depth + 1);
                    if !v.is_null() {
                        out[k] = v;
                    }
                }
            }
            out
        }
        _ if !example.is_null() => example,
        Some("string") => json!("abuse"),
        Some("integer") => json!(1),
        Some("number") => json!(1.5),
        Some("boolean") => json!(false),
        Some("array") => match sample(&schema["items"], doc, depth + 1) {
            Value::Null => json!([]),
            item => json!([item]),
        },
        _ => Value::Null,
    }
}

/// Every leaf of a body with its JSON pointer.
fn leaves(v: &Value, pointer: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                leaves(child, &format!("{pointer}/{k}"), out);
            }
        }
        Value::Array(items) => {
            if items.is_empty() {
                out.push((pointer.to_string(), v.clone()));
            }
            for (i, child) in items.iter().enumerate() {
                leaves(child, &format!("{pointer}/{i}"), out);
            }
        }
        _ => out.push((pointer.to_string(), v.clone())),
    }
}

fn with(body: &Value, pointer: &str, value: Value) -> Value {
    let mut out = body.clone();
    *out.pointer_mut(pointer).expect("a pointer into the body") = value;
    out
}

/// The same value as another JSON type.
fn wrong_type(v: &Value) -> Value {
    match v {
        Value::String(_) => json!(12345),
        Value::Number(_) => json!("12"),
        Value::Bool(_) => json!("yes"),
        Value::Array(_) => json!({"a": 1}),
        Value::Object(_) => json!(["x"]),
        Value::Null => json!({"a": 1}),
    }
}

/// Strings no text field may hold (one check at the boundary, so that both backends
/// refuse the same), each with the answer that refuses it.
fn hostile_strings(original: &str) -> Vec<(&'static str, String, Expect)> {
    vec![
        ("NUL", format!("{original}\u{0}x"), Expect::Names422),
        ("U+0001", format!("\u{1}{original}"), Expect::Names422),
        ("escape sequence", format!("{original}\u{1b}[31m"), Expect::Names422),
        ("DEL", format!("{original}\u{7f}"), Expect::Names422),
        ("C1 control", format!("{original}\u{85}"), Expect::Names422),
        ("RTL override", format!("\u{202e}{original}"), Expect::Names422),
        (
            "the noncharacter U+FFFF",
            format!("{original}\u{ffff}"),
            Expect::Names422,
        ),
        // Longer than any field takes; a many-line field (press) refuses it by its own
        // limit, which need not name the field.
        ("very long", "lorem ipsum ".repeat(LONG / 12), Expect::Refused(&[422])),
    ]
}

/// Path and query values that must never reach a resource.
fn hostile_params(integer: bool) -> Vec<(&'static str, String, Expect)> {
    let control = if integer {
        Expect::Refused(&[400, 404, 422])
    } else {
        Expect::Names422
    };
    let long = if integer { "7" } else { "a" }.repeat(LONG_PARAM);
    vec![
        ("traversal", "..%2f..%2fapi%2fhealth".into(), Expect::ClientError),
        ("NUL", "a%00b".into(), control),
        ("NUL alone", "%00".into(), control),
        ("U+0001", "1%01".into(), control),
        ("RTL override", "%E2%80%AE1".into(), control),
        ("i64::MAX", "9223372036854775807".into(), Expect::ClientError),
        ("past 64 bits", "99999999999999999999999999".into(), Expect::ClientError),
        ("negative", "-1".into(), Expect::ClientError),
        ("i64::MIN", "-9223372036854775808".into(), Expect::ClientError),
        // Over the boundary's 1,000 characters for one line (and, as a number, far past
        // 64 bits): refused before any handler sees it.
        ("very long", long, control),
    ]
}

/// The actors and the game one operation is tried on.
struct Context {
    anon: Api,
    player: Api,
    player_name: String,
    gm: Api,
    game: i64,
}

impl Context {
    fn fill(&self, op: &Operation, replace: Option<(&str, &str)>) -> String {
        let mut path = op.template.clone();
        let mut query = Vec::new();
        for p in &op.params {
            let value = match replace {
                Some((name, v)) if name == p.name => v.to_string(),
                _ => match p.name.as_str() {
                    "id" => self.game.to_string(),
                    "name" => self.player_name.clone(),
                    _ if p.integer => "0".to_string(),
                    _ => "abuse".to_string(),
                },
            };
            if p.in_query {
                if replace.is_some_and(|(name, _)| name == p.name) {
                    query.push(format!("{}={value}", p.name));
                }
            } else {
                path = path.replace(&format!("{{{}}}", p.name), &value);
            }
        }
        if !query.is_empty() {
            path = format!("{path}?{}", query.join("&"));
        }
        path
    }
}

fn cases(op: &Operation, ctx: &Context) -> Vec<Case> {
    let mut out = Vec::new();
    let plain = ctx.fill(op, None);
    let takes_body = ["post", "put", "patch", "delete"].contains(&op.method.as_str());
    if takes_body {
        let base = op.body.clone().unwrap_or_else(|| json!({}));
        // Without a documented body the handler may ignore one; it must still not fail.
        let envelope = |e: Expect| if op.body.is_some() { e } else { Expect::NoServerError };
        let mut padded = base.clone();
        match padded.as_object_mut() {
            Some(map) => {
                map.insert("padding".into(), json!("x".repeat(OVERSIZED)));
            }
            None => padded = json!({"padding": "x".repeat(OVERSIZED)}),
        }
        let text = serde_json::to_string(&base).unwrap();
        let raw = [
            (
                "malformed JSON",
                "application/json",
                text.as_bytes()[..text.len() - 1].to_vec(),
                Expect::Refused(&[400, 422]),
            ),
            (
                "bytes that are not UTF-8",
                "application/json",
                vec![b'{', b'"', 0xff, 0xfe, b'"', b':', b'1', b'}'],
                Expect::Refused(&[400, 422]),
            ),
            (
                "JSON sent as text/plain",
                "text/plain",
                text.clone().into_bytes(),
                Expect::Refused(&[415]),
            ),
            (
                "JSON sent as a form",
                "application/x-www-form-urlencoded",
                text.clone().into_bytes(),
                Expect::Refused(&[415]),
            ),
        ];
        out.push(Case {
            label: "a body over every limit".to_string(),
            target: plain.clone(),
            payload: Payload::Oversized(serde_json::to_vec(&padded).unwrap()),
            expect: envelope(Expect::Refused(&[413])),
        });
        for (label, content_type, bytes, expect) in raw {
            out.push(Case {
                label: label.to_string(),
                target: plain.clone(),
                payload: Payload::Raw(content_type, bytes),
                expect: envelope(expect),
            });
        }
        // (An empty array would do for a body whose fields are all optional: serde reads a
        // struct from a sequence of its fields.)
        let wrong = [
            ("an array", json!(["x", 1, true, null, {}])),
            ("a string", json!("x")),
            ("a number", json!(7)),
        ];
        for (label, v) in wrong {
            out.push(Case {
                label: format!("the body is {label}"),
                target: plain.clone(),
                payload: Payload::Json(v),
                expect: envelope(Expect::Refused(&[400, 422])),
            });
        }
        // Each field with the body it is attacked in.
        let mut fields = Vec::new();
        if op.body.is_some() {
            let mut found = Vec::new();
            leaves(&base, "", &mut found);
            fields.extend(found.into_iter().map(|(p, v)| (base.clone(), p, v)));
        }
        for (name, value) in &op.extras {
            let mut extended = base.clone();
            extended[name] = value.clone();
            let mut found = Vec::new();
            leaves(value, &format!("/{name}"), &mut found);
            fields.extend(found.into_iter().map(|(p, v)| (extended.clone(), p, v)));
        }
        for (base, pointer, value) in fields {
            out.push(Case {
                label: format!("{pointer} of the wrong type"),
                target: plain.clone(),
                payload: Payload::Json(with(&base, &pointer, wrong_type(&value))),
                expect: Expect::Refused(&[400, 422]),
            });
            if let Value::String(s) = &value {
                for (label, hostile, expect) in hostile_strings(s) {
                    out.push(Case {
                        label: format!("{pointer} with {label}"),
                        target: plain.clone(),
                        payload: Payload::Json(with(&base, &pointer, json!(hostile))),
                        expect,
                    });
                }
            }
        }
    }
    let body = || match &op.body {
        Some(b) => Payload::Json(b.clone()),
        None => Payload::None,
    };
    // Parameters the operation does not document are ignored, whatever they hold.
    out.push(Case {
        label: "undocumented query parameters".to_string(),
        target: format!("{plain}?x=a%00b&..%2f=%E2%80%AE&since_ms=-99999999999999999999&limit=%01"),
        payload: body(),
        expect: Expect::NoServerError,
    });
    for p in &op.params {
        for (label, value, expect) in hostile_params(p.integer) {
            let expect = match expect {
                Expect::ClientError if p.free_text => Expect::NoServerError,
                e => e,
            };
            out.push(Case {
                label: format!("{} {} {label}", if p.in_query { "query" } else { "path" }, p.name),
                target: ctx.fill(op, Some((&p.name, &value))),
                payload: body(),
                expect,
            });
        }
    }
    out
}

/// The field a case attacks, when it attacks one: the last name in its pointer that is
/// not an index, or the parameter's name.
fn field_of(case: &Case) -> Option<String> {
    let label = case.label.as_str();
    if let Some(rest) = label.strip_prefix('/') {
        let pointer = rest.split(' ').next()?;
        return pointer
            .rsplit('/')
            .find(|s| s.parse::<usize>().is_err())
            .map(str::to_string);
    }
    let mut words = label.split(' ');
    match words.next() {
        Some("path") | Some("query") => words.next().map(str::to_string),
        _ => None,
    }
}

async fn send(
    client: &reqwest::Client,
    base: &str,
    token: Option<&str>,
    method: &str,
    case: &Case,
) -> Result<(u16, String), String> {
    if let Payload::Oversized(bytes) = &case.payload {
        return send_raw(base, token, method, &case.target, bytes).await;
    }
    let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
    let mut req = client.request(method, format!("{base}{}", case.target));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    req = match &case.payload {
        Payload::None => req,
        Payload::Json(v) => req.json(v),
        Payload::Raw(content_type, bytes) => req.header("content-type", *content_type).body(bytes.clone()),
        Payload::Oversized(_) => unreachable!("sent by send_raw"),
    };
    let resp = req.send().await.map_err(|e| format!("no answer: {e:?}"))?;
    let status = resp.status().as_u16();
    let text = resp.text().await.map_err(|e| format!("answer cut off: {e:?}"))?;
    Ok((status, text))
}

/// One HTTP/1.1 request on a fresh connection, the body written while the answer is
/// read, so that an early answer (413 before the body is read) is seen, not a broken pipe.
async fn send_raw(
    base: &str,
    token: Option<&str>,
    method: &str,
    target: &str,
    body: &[u8],
) -> Result<(u16, String), String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let (mut read, mut write) = stream.into_split();
    let auth = token
        .map(|t| format!("authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{} {target} HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{auth}connection: close\r\n\r\n",
        method.to_uppercase(),
        body.len()
    );
    let body = body.to_vec();
    let writer = tokio::spawn(async move {
        // The server may stop reading once it has answered: a failed write is its right.
        let _ = write.write_all(head.as_bytes()).await;
        let _ = write.write_all(&body).await;
    });
    let mut answer = Vec::new();
    let read_all = read.read_to_end(&mut answer);
    let outcome = tokio::time::timeout(Duration::from_secs(60), read_all).await;
    writer.abort();
    match outcome {
        Err(_) => return Err("no answer within 60 s".to_string()),
        // A reset after the answer arrived still leaves the answer to judge.
        Ok(Err(e)) if answer.is_empty() => return Err(format!("connection failed: {e}")),
        Ok(_) => {}
    }
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP answer: {}", text.chars().take(200).collect::<String>()))?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

async fn healthy(base: &str) -> Result<(), String> {
    let started = Instant::now();
    let resp = reqwest::Client::new()
        .get(format!("{base}/api/health"))
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .map_err(|e| format!("/api/health: {e}"))?;
    match resp.status().as_u16() {
        200 => Ok(()),
        s => Err(format!("/api/health answered {s} after {:?}", started.elapsed())),
    }
}

/// A fresh game for one operation: its GM, one seated player, started.
async fn context(server: &Server, n: usize) -> Context {
    let gm = server.register(&format!("abuse-gm-{n}")).await;
    let player_name = format!("abuse-player-{n}");
    let player = server.register(&player_name).await;
    let game = gm
        .post(
            "/api/games",
            json!({"name": format!("abuse {n}"), "variant": "standard"}),
        )
        .await;
    let game = game["id"].as_i64().expect("game id");
    player
        .post(&format!("/api/games/{game}/join"), json!({"power": "France"}))
        .await;
    gm.post(&format!("/api/games/{game}/gm/start"), json!({})).await;
    Context {
        anon: server.visitor(),
        player,
        player_name,
        gm,
        game,
    }
}

/// Runs every case of every operation; returns the operations covered and the failures.
async fn attack(server: &Server, doc: &Value) -> (BTreeSet<(String, String)>, usize, Vec<String>) {
    // A connection per request: one the server closed after a refusal is never reused.
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let mut covered = BTreeSet::new();
    let mut failures = Vec::new();
    let mut sent = 0;
    for (n, op) in operations(doc).iter().enumerate() {
        let ctx = context(server, n).await;
        let actors = [("visitor", &ctx.anon), ("player", &ctx.player), ("GM", &ctx.gm)];
        let op_cases = cases(op, &ctx);
        for case in &op_cases {
            let mut answers = Vec::new();
            for (who, api) in actors {
                let answer = send(&client, &server.base, api.token.as_deref(), &op.method, case).await;
                sent += 1;
                answers.push((who, answer));
            }
            let name = format!("{} {} [{}]", op.method.to_uppercase(), op.template, case.label);
            let mut met = false;
            for (who, answer) in &answers {
                let (status, text) = match answer {
                    Ok(a) => a,
                    Err(e) => {
                        failures.push(format!("{name} as {who}: {e}"));
                        continue;
                    }
                };
                let status = *status;
                if status >= 500 {
                    failures.push(format!("{name} as {who}: {status} {text}"));
                    continue;
                }
                if text.contains("no such endpoint") || status == 405 {
                    failures.push(format!("{name} as {who}: documented but not served ({status} {text})"));
                    continue;
                }
                let ok = match case.expect {
                    Expect::NoServerError => {
                        met = true;
                        true
                    }
                    Expect::ClientError => {
                        met = true;
                        (400..500).contains(&status)
                    }
                    Expect::Refused(set) => {
                        met |= set.contains(&status);
                        set.contains(&status) || REFUSED_FIRST.contains(&status)
                    }
                    Expect::Names422 => {
                        let field = field_of(case).unwrap_or_default();
                        if status == 422 {
                            met = true;
                            if !text.contains(&field) {
                                failures.push(format!("{name} as {who}: 422 without naming `{field}`: {text}"));
                            }
                        }
                        status == 422 || REFUSED_FIRST.contains(&status)
                    }
                };
                if !ok {
                    failures.push(format!("{name} as {who}: {status} {text}"));
                }
            }
            if !met {
                let got: Vec<String> = answers
                    .iter()
                    .map(|(who, a)| match a {
                        Ok((s, t)) => format!("{who} {s} {}", t.chars().take(120).collect::<String>()),
                        Err(e) => format!("{who} {e}"),
                    })
                    .collect();
                failures.push(format!("{name}: no actor met {:?}: {}", case.expect, got.join("; ")));
            }
        }
        if let Err(e) = healthy(&server.base).await {
            failures.push(format!("after {} {}: {e}", op.method, op.template));
        }
        if !op_cases.is_empty() {
            covered.insert((op.method.clone(), op.template.clone()));
        }
    }
    (covered, sent, failures)
}

fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| item.as_object().unwrap().keys().map(|m| (m.clone(), path.clone())))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_documented_operation_survives_hostile_input() {
    // Both backends run before judging, so that a failure on one still shows the other's.
    let mut report = Vec::new();
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let doc = server.visitor().get("/api/docs").await;
        let (covered, sent, failures) = attack(&server, &doc).await;
        let label = target.label;
        let panics: Vec<String> = server
            .log
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains("panicked"))
            .cloned()
            .collect();
        if !panics.is_empty() {
            report.push(format!("{label}: the server panicked:\n{}", panics.join("\n")));
        }
        if !failures.is_empty() {
            report.push(format!(
                "{label}: {} of {sent} requests failed:\n{}",
                failures.len(),
                failures.join("\n")
            ));
        }
        // Every documented operation was attacked: none is left out by a path or method
        // the generator does not know.
        let all = documented(&doc);
        let missed: Vec<_> = all.difference(&covered).collect();
        if !missed.is_empty() {
            report.push(format!("{label}: operations not attacked: {missed:?}"));
        }
        if let Err(e) = healthy(&server.base).await {
            report.push(format!("{label}: at the end: {e}"));
        }
        eprintln!(
            "{label}: {} of {} documented operations attacked, {sent} requests",
            covered.len(),
            all.len()
        );
    }
    assert!(report.is_empty(), "{}", report.join("\n\n"));
}

/// Every route the OpenAPI document does not describe (the pages, the Atom feeds, the
/// assets, the mail links, the document itself), as the server's router has them: it is
/// built from the same list, so a page added there is attacked without being listed here.
fn page_routes() -> Vec<String> {
    let routes: Vec<String> = chancery_server::routes::undocumented_paths()
        .into_iter()
        .map(str::to_string)
        .collect();
    assert!(routes.len() >= 20, "too few undocumented routes: {routes:?}");
    routes
}

/// The names of a route's path parameters (`{id}` gives `id`).
fn path_params(template: &str) -> Vec<String> {
    template
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string()))
        .collect()
}

/// Whether a path parameter is a number (a game's, a phase's, a topic's or a post's).
fn integer_param(name: &str) -> bool {
    matches!(name, "id" | "seq")
}

/// A page's path with its parameters filled in, one of them (`hostile`) replaced. Every
/// parameter needs an ordinary value here: a route with a new one fails the suite until
/// it has one, so that no parameter goes unattacked.
fn page_path(template: &str, ctx: &Context, hostile: Option<(&str, &str)>) -> String {
    let mut path = template.to_string();
    for name in path_params(template) {
        let ordinary = match name.as_str() {
            "id" => ctx.game.to_string(),
            "seq" => "0".to_string(),
            // An asset: the stylesheet; else a player's record.
            "name" if template.starts_with("/assets/") => "chancery.css".to_string(),
            "name" => ctx.player_name.clone(),
            // A mail link's secret: well formed, no mail's.
            "token" | "key" => "0123456789abcdef".repeat(4),
            other => panic!("{template}: the abuse suite has no ordinary value for `{{{other}}}`; add one"),
        };
        let value = match hostile {
            Some((n, v)) if n == name => v.to_string(),
            _ => ordinary,
        };
        path = path.replace(&format!("{{{name}}}"), &value);
    }
    path
}

/// Every page route under hostile input, as a visitor, a seated player and the GM: each
/// of its path parameters as in the API's suite, hostile query strings (the pages' own
/// `next`, `text`, `power`, `after`, `q`, `page`, `kind` and `game`, and one they do not
/// know), and every method that may carry a body, with a body over every limit and one
/// that is not UTF-8. Never a 5xx, a dropped connection or a panic; every route served
/// (not the fallback's "no such endpoint"); a hostile path parameter is refused (4xx); a
/// body sent to a page is never taken (4xx: the one page that takes a POST, a mail's
/// unsubscribe link, reads nothing from its body and refuses a key that is no mail's).
async fn attack_pages(server: &Server) -> (usize, usize, Vec<String>) {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(0)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let ctx = context(server, 10_000).await;
    let actors = [("visitor", &ctx.anon), ("player", &ctx.player), ("GM", &ctx.gm)];
    let mut failures = Vec::new();
    let (mut sent, mut routes) = (0, 0);
    for template in page_routes() {
        routes += 1;
        let mut cases: Vec<Case> = vec![Case {
            label: "plain".into(),
            target: page_path(&template, &ctx, None),
            payload: Payload::None,
            expect: Expect::NoServerError,
        }];
        for param in path_params(&template) {
            for (what, value, _) in hostile_params(integer_param(&param)) {
                cases.push(Case {
                    label: format!("path {param} {what}"),
                    target: page_path(&template, &ctx, Some((&param, &value))),
                    payload: Payload::None,
                    expect: Expect::ClientError,
                });
            }
        }
        for query in ["next", "text", "power", "after", "q", "page", "kind", "game", "unknown"] {
            for (what, value, _) in hostile_params(false) {
                cases.push(Case {
                    label: format!("query {query} {what}"),
                    target: format!("{}?{query}={value}", page_path(&template, &ctx, None)),
                    payload: Payload::None,
                    expect: Expect::NoServerError,
                });
            }
        }
        let plain = page_path(&template, &ctx, None);
        let mut bodies: Vec<(String, &str, Case)> = Vec::new();
        for method in ["post", "put", "patch", "delete"] {
            bodies.push((
                format!("{method} oversized"),
                method,
                Case {
                    label: format!("{method} oversized body"),
                    target: plain.clone(),
                    payload: Payload::Oversized(vec![b'x'; OVERSIZED]),
                    expect: Expect::ClientError,
                },
            ));
            bodies.push((
                format!("{method} not UTF-8"),
                method,
                Case {
                    label: format!("{method} body not UTF-8"),
                    target: plain.clone(),
                    payload: Payload::Raw("application/x-www-form-urlencoded", vec![0xff, 0xfe, 0x00, 0x80]),
                    expect: Expect::ClientError,
                },
            ));
        }
        let gets = cases.into_iter().map(|c| ("get".to_string(), "get", c));
        for (_, method, case) in gets.chain(bodies) {
            for (who, api) in actors {
                let answer = send(&client, &server.base, api.token.as_deref(), method, &case).await;
                sent += 1;
                let name = format!("{} {template} [{}] as {who}", method.to_uppercase(), case.label);
                match answer {
                    Err(e) => failures.push(format!("{name}: {e}")),
                    Ok((status, text)) if status >= 500 => failures.push(format!(
                        "{name}: {status} {}",
                        text.chars().take(200).collect::<String>()
                    )),
                    // A route of the router's list that the router does not serve.
                    Ok((status, text)) if method == "get" && (text.contains("no such endpoint") || status == 405) => {
                        failures.push(format!("{name}: not served ({status} {text})"))
                    }
                    Ok((status, text)) => {
                        // A page that needs a session sends a visitor to the login
                        // page first (303), as the API answers 401.
                        let client_error = (400..500).contains(&status) || (status == 303 && who == "visitor");
                        if matches!(case.expect, Expect::ClientError) && !client_error {
                            failures.push(format!(
                                "{name}: {status}, not refused: {}",
                                text.chars().take(200).collect::<String>()
                            ));
                        }
                    }
                }
            }
        }
        if let Err(e) = healthy(&server.base).await {
            failures.push(format!("after {template}: {e}"));
        }
    }
    (routes, sent, failures)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_page_route_survives_hostile_input() {
    let mut report = Vec::new();
    for target in common::targets().await {
        let server = Server::start(&target.url);
        let (routes, sent, failures) = attack_pages(&server).await;
        let label = target.label;
        let panics: Vec<String> = server
            .log
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains("panicked"))
            .cloned()
            .collect();
        if !panics.is_empty() {
            report.push(format!("{label}: the server panicked:\n{}", panics.join("\n")));
        }
        if !failures.is_empty() {
            report.push(format!(
                "{label}: {} of {sent} requests failed:\n{}",
                failures.len(),
                failures.join("\n")
            ));
        }
        eprintln!("{label}: {routes} page routes attacked, {sent} requests");
    }
    assert!(report.is_empty(), "{}", report.join("\n\n"));
}
