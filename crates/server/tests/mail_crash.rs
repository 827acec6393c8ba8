//! Exactly once across crashes (issue 15): two servers on one PostgreSQL database send
//! the outbox to one real SMTP server (aiosmtpd, slowed so that kills land mid-send)
//! while the test SIGKILLs one or the other again and again. Every mail arrives.
//!
//! SMTP leaves one window no sender can close: a sender killed after the mail server has
//! taken a mail and before it has read the server's 250 (or committed its own record of
//! it) cannot know the mail went, and the row it held is sent again by the other server.
//! That resend is the same message (but for its MIME boundary), with the same Message-ID, Date and body, which mail
//! clients show once. The test counts such resends, checks each is identical to the
//! first, and that there are no more of them than kills.

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::smtp::Sink;
use common::Server;
use serde_json::json;

/// Enough mail that sending outlasts the kills: each recipient is answered after
/// `DELAY_MS`, so that two servers need about ACCOUNTS × DELAY_MS / 2 to send it all,
/// and more while one of them restarts.
const ACCOUNTS: usize = 160;
const DELAY_MS: u64 = 900;
/// The number.
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
    sink.slow_by(DELAY_MS);
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
    sink.fast();
    let until = Instant::now() + Duration::from_secs(120);
    while sink.mails().len() < ACCOUNTS {
        assert!(
            Instant::now() < until,
            "only {} of {ACCOUNTS} mails arrived",
            sink.mails().len()
        );
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
    let mut first: HashMap<String, &serde_json::Value> = HashMap::new();
    let mut resends = 0;
    for m in &mails {
        let id = m["headers"]["message-id"].as_str().unwrap().to_string();
        match first.get(&id) {
            Some(earlier) => {
                // The same mail; only the MIME boundary, drawn afresh, differs.
                for field in ["text", "html", "rcpt_tos"] {
                    assert_eq!(earlier[field], m[field], "a resend is the same mail");
                }
                for header in ["subject", "date", "from", "to"] {
                    assert_eq!(
                        earlier["headers"][header], m["headers"][header],
                        "a resend is the same mail"
                    );
                }
                resends += 1;
            }
            None => {
                first.insert(id, m);
            }
        }
    }
    eprintln!(
        "{kills} kills in {:.1} s; {} mails received for {ACCOUNTS}, {resends} of them resent after a kill in the window",
        killing.as_secs_f64(),
        mails.len()
    );
    assert_eq!(kills, KILLS, "every kill landed while mail was being sent");
    assert_eq!(by_rcpt.len(), ACCOUNTS, "every address got its mail");
    assert_eq!(by_id.len(), ACCOUNTS, "one Message-ID per mail");
    assert!(resends <= kills, "at most one resend per kill: {by_rcpt:?}");
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
