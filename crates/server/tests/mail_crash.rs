//! Exactly once across crashes: two servers on one PostgreSQL database send
//! the outbox to one real SMTP server (aiosmtpd) while the test SIGKILLs one or the other
//! again and again. Every mail arrives, and none twice.
//!
//! The sink answers slowly at three points of each mail, so that the kills land there:
//! a recipient (RCPT), the DATA command (before its 354), and the message's end (after
//! it has taken and recorded the message, before its 250). The last is the point that
//! used to make a second send: a sender that records a mail as sent only after the 250
//! dies there with the mail delivered and unrecorded. The sender records it before the
//! message's end instead (crates/server/src/services/mail/smtp.rs), so no kill makes a resend,
//! and a kill before the end leaves the mail server an unfinished message it discards.
//! The sink logs where each killed conversation stopped; the test shows the kills landed
//! at each of those points.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::smtp::Sink;
use common::Server;
use serde_json::json;

/// Enough mail that sending outlasts the kills: each mail waits `3 × PAUSE_MS` for the
/// sink, so that two servers need about ACCOUNTS × 3 × PAUSE_MS / 2 to send it all, and
/// more while one of them restarts.
const ACCOUNTS: usize = 160;
const PAUSE_MS: u64 = 300;
/// How many times a server is killed: enough that kills fall in every step of a send.
const KILLS: usize = 50;

#[tokio::test(flavor = "multi_thread")]
async fn each_mail_is_delivered_once_across_kills_of_either_server() {
    let Ok(base) = std::env::var("CHANCERY_TEST_POSTGRES") else {
        eprintln!("note: CHANCERY_TEST_POSTGRES is not set; this test needs two servers on PostgreSQL");
        return;
    };
    if base.is_empty() {
        return;
    }
    let database = common::fresh_postgres(&base).await;
    let url = database.url.clone();
    let sink = Sink::start();
    let smtp = sink.url();
    let args = [
        "--no-demo",
        "--tick-ms",
        "20",
        "--rate",
        "100000",
        "--smtp",
        smtp.as_str(),
    ];
    let mut servers = [Server::start_with(&url, &args), Server::start_with(&url, &args)];
    // The accounts first, while mail flows freely: their addresses are set below, each
    // one mail to confirm it.
    let mut accounts = Vec::new();
    for i in 0..ACCOUNTS {
        accounts.push(servers[i % 2].register(&format!("crash-mail-{i}")).await);
    }
    sink.slow_phases(PAUSE_MS, PAUSE_MS, PAUSE_MS);
    for (i, a) in accounts.iter().enumerate() {
        let (status, body) = a
            .call(
                "PUT",
                "/api/me/mail/address",
                Some(json!({"address": format!("p{i}@crash.example")})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // Kill either server while the senders work, and start it again; the sleeps vary
    // so that kills land at every point of a mail's conversation.
    let started = Instant::now();
    let mut kills = 0;
    while kills < KILLS && sink.mails().len() < ACCOUNTS {
        tokio::time::sleep(Duration::from_millis(30 + 37 * (kills as u64 % 5))).await;
        let which = kills % 2;
        let fresh = Server::start_with(&url, &args);
        std::mem::replace(&mut servers[which], fresh).kill();
        kills += 1;
    }
    let killing = started.elapsed();
    let mid_killing = sink.mails().len();
    sink.fast();
    let until = Instant::now() + Duration::from_secs(120);
    while sink.mails().len() < ACCOUNTS {
        if Instant::now() > until {
            let got: std::collections::HashSet<String> = sink
                .mails()
                .iter()
                .map(|m| m["rcpt_tos"][0].as_str().unwrap_or_default().to_string())
                .collect();
            let missing: Vec<String> = (0..ACCOUNTS)
                .map(|i| format!("p{i}@crash.example"))
                .filter(|a| !got.contains(a))
                .collect();
            // What the outbox says of them: marked sent and never arrived is a mail lost
            // in the instant between the commit and the dot; still due is a mail late.
            let rows: Vec<String> = {
                use sqlx::{Connection, Row};
                let mut conn = sqlx::postgres::PgConnection::connect(&url).await.expect("the database");
                sqlx::query(
                    "SELECT address, sent_ms, sent_by, attempts, due_ms, failed, last_error FROM outbox WHERE address = ANY($1)",
                )
                .bind(&missing)
                .fetch_all(&mut conn)
                .await
                .expect("the outbox")
                .iter()
                .map(|r| {
                    format!(
                        "{} sent_ms={:?} by={:?} attempts={} due_ms={} failed={:?} last_error={:?}",
                        r.get::<String, _>("address"),
                        r.get::<Option<i64>, _>("sent_ms"),
                        r.get::<Option<String>, _>("sent_by"),
                        r.get::<i64, _>("attempts"),
                        r.get::<i64, _>("due_ms"),
                        r.get::<Option<String>, _>("failed"),
                        r.get::<Option<String>, _>("last_error"),
                    )
                })
                .collect()
            };
            panic!("only {} of {ACCOUNTS} mails arrived; missing: {rows:#?}", got.len());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Anything still in flight has had time to arrive twice, if it were to.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mails = sink.mails();
    let mut by_rcpt: HashMap<String, usize> = HashMap::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for m in &mails {
        *by_rcpt
            .entry(m["rcpt_tos"][0].as_str().unwrap().to_string())
            .or_default() += 1;
        *by_id
            .entry(m["headers"]["message-id"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    // Where the killed conversations stopped (a kill of a server between mails, or of
    // one still starting, stops none).
    let mut stopped: HashMap<String, usize> = HashMap::new();
    for e in sink.events().iter().filter(|e| e["event"] == "lost") {
        *stopped
            .entry(e["phase"].as_str().unwrap_or("?").to_string())
            .or_default() += 1;
    }
    let at = |phase: &str| stopped.get(phase).copied().unwrap_or(0);
    let twice: Vec<(&String, &usize)> = by_id.iter().filter(|(_, n)| **n > 1).collect();
    eprintln!(
        "{kills} kills in {:.1} s ({mid_killing} mails sent meanwhile); conversations stopped by a kill: \
         {} at a recipient, {} after DATA, {} mid-message, {} after the message's end, {} between mails; \
         {} mails received for {ACCOUNTS}, {} sent twice",
        killing.as_secs_f64(),
        at("rcpt") + at("mail"),
        at("data"),
        at("content"),
        at("end"),
        at("idle"),
        mails.len(),
        twice.len()
    );
    assert_eq!(kills, KILLS, "every kill landed while mail was being sent");
    assert!(twice.is_empty(), "no mail arrives twice: {twice:?}");
    assert_eq!(by_rcpt.len(), ACCOUNTS, "every address got its mail");
    assert!(by_rcpt.values().all(|n| *n == 1), "each address once: {by_rcpt:?}");
    assert_eq!(mails.len(), ACCOUNTS, "each mail once");
    // The kills landed mid-conversation: most kills stopped a conversation, and several
    // after the mail server had taken the message and before its 250, where a sender
    // that records its mail after the 250 sends it twice. (Where else they land follows
    // the machine's load: on a quiet machine nearly none stop at a recipient, so no
    // number is asked of the other points.)
    let mid: usize = stopped.iter().filter(|(p, _)| *p != "idle").map(|(_, n)| n).sum();
    assert!(
        mid >= KILLS / 2,
        "only {mid} of {kills} kills stopped a conversation: {stopped:?}"
    );
    let at_end = at("end");
    assert!(
        at_end >= 3,
        "only {at_end} kills stopped a conversation at the message's end: {stopped:?}"
    );
}

/// SQLite (one server per file) claims a mail with a two-minute lease instead of a held
/// row lock: a server killed while sending leaves the lease behind, and the server
/// started after it sends the mail once the lease has run out, not before, and once.
#[tokio::test(flavor = "multi_thread")]
async fn a_lease_left_by_a_killed_sqlite_sender_runs_out_and_the_mail_goes_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.db").to_string_lossy().into_owned();
    let sink = Sink::start();
    let smtp = sink.url();
    let args = [
        "--test-clock",
        "--no-demo",
        "--tick-ms",
        "20",
        "--rate",
        "100000",
        "--smtp",
        smtp.as_str(),
    ];
    let server = Server::start_with(&db, &args);
    let alice = server.register("lease-alice").await;
    // The mail server takes five seconds to answer: the sender is mid-conversation.
    sink.slow_by(5_000);
    let (status, body) = alice
        .call(
            "PUT",
            "/api/me/mail/address",
            Some(json!({"address": "lease@crash.example"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    server.kill();
    sink.fast();
    let server = Server::start_with(&db, &args);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(sink.mails().is_empty(), "the lease still holds: {:?}", sink.mails());
    server.advance(121_000).await;
    let mails = sink.wait_for(1, 30).await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(sink.mails().len(), 1, "once: {mails:#?}");
    assert_eq!(mails[0]["rcpt_tos"], json!(["lease@crash.example"]));
    assert_eq!(mails[0]["headers"]["subject"], "Confirm your address");
}

/// SQLite, the point that used to make a second send: a server killed after the mail
/// server has taken the message and before its 250 had recorded the mail as sent before
/// the message's end, so the server started after it never sends it again, not even once
/// the lease it left has run out.
#[tokio::test(flavor = "multi_thread")]
async fn a_sqlite_sender_killed_while_the_mail_server_answers_the_end_does_not_send_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.db").to_string_lossy().into_owned();
    let sink = Sink::start();
    let smtp = sink.url();
    let args = [
        "--test-clock",
        "--no-demo",
        "--tick-ms",
        "20",
        "--rate",
        "100000",
        "--smtp",
        smtp.as_str(),
    ];
    let server = Server::start_with(&db, &args);
    let alice = server.register("end-alice").await;
    // The mail server takes the message at once and answers its end after 5 s.
    sink.slow_phases(0, 0, 5_000);
    let (status, body) = alice
        .call(
            "PUT",
            "/api/me/mail/address",
            Some(json!({"address": "end@crash.example"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    sink.wait_for(1, 30).await;
    server.kill();
    sink.fast();
    let until = Instant::now() + Duration::from_secs(10);
    while !sink.events().iter().any(|e| e["phase"] == "end") {
        assert!(
            Instant::now() < until,
            "the kill stopped the conversation at the end: {:?}",
            sink.events()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let server = Server::start_with(&db, &args);
    server.advance(121_000).await;
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    server.advance(600_000).await;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let mails = sink.mails();
    assert_eq!(mails.len(), 1, "once: {mails:#?}");
    assert_eq!(mails[0]["rcpt_tos"], json!(["end@crash.example"]));
}
