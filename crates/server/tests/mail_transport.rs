//! The `--smtp` URL forms over real SMTP: STARTTLS required with
//! credentials, TLS from the first byte, a mail server whose certificate is not trusted,
//! and a wrong password. The mail server is aiosmtpd with a certificate made here by
//! `openssl` under a test authority, which the server trusts through `CHANCERY_SMTP_CA`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::smtp::{to, Sink};
use common::Server;
use serde_json::json;

/// A test certificate authority and a certificate for 127.0.0.1 signed by it:
/// `(authority, certificate, key)`.
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let run = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .expect("openssl (Debian's openssl package)");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    run(&[
        &["req", "-x509"][..],
        &ec,
        &[
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=Chancery test authority",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ],
    ]
    .concat());
    run(&[
        &["req"][..],
        &ec,
        &["-keyout", "mail.key", "-out", "mail.csr", "-subj", "/CN=127.0.0.1"],
    ]
    .concat());
    std::fs::write(
        dir.join("mail.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .expect("extensions");
    run(&[
        "x509",
        "-req",
        "-in",
        "mail.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "mail.pem",
        "-days",
        "2",
        "-extfile",
        "mail.ext",
    ]);
    (dir.join("ca.pem"), dir.join("mail.pem"), dir.join("mail.key"))
}

fn server(db: &str, smtp: &str, ca: Option<&Path>) -> Server {
    let ca = ca.map(|p| p.to_string_lossy().into_owned());
    let env: Vec<(&str, &str)> = ca.iter().map(|p| ("CHANCERY_SMTP_CA", p.as_str())).collect();
    Server::start_in_env(
        None,
        db,
        &[
            "--test-clock",
            "--no-demo",
            "--tick-ms",
            "50",
            "--rate",
            "100000",
            "--smtp",
            smtp,
        ],
        &env,
    )
}

/// Registers `name` and sets an address; the confirmation is the mail that tells
/// whether mail goes. The account's token.
async fn ask_for_mail(server: &Server, name: &str, address: &str) -> Option<String> {
    let who = server.register(name).await;
    let (status, body) = who
        .call("PUT", "/api/me/mail/address", Some(json!({"address": address})))
        .await;
    assert_eq!(status, 200, "{body}");
    who.token
}

/// `smtp://user:password@host:port?tls=required` (STARTTLS, then AUTH) and `smtps://`
/// (TLS from the first byte, then AUTH): the mail arrives over TLS, from the user the
/// URL names, with the password percent-decoded; several mails over one connection.
#[tokio::test(flavor = "multi_thread")]
async fn starttls_and_tls_with_credentials_deliver_mail() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (ca, cert, key) = certificates(dir.path());
    let (cert, key) = (cert.to_string_lossy().into_owned(), key.to_string_lossy().into_owned());
    for (mode, scheme, query) in [("--starttls", "smtp", "?tls=required"), ("--tls", "smtps", "")] {
        let sink = Sink::start_with(&[mode, &cert, &key, "--auth", "club@judge:p@ss:w"]);
        let smtp = format!("{scheme}://club%40judge:p%40ss%3Aw@127.0.0.1:{}{query}", sink.port);
        let db = dir.path().join(format!("{scheme}.db")).to_string_lossy().into_owned();
        let server = server(&db, &smtp, Some(&ca));
        for i in 0..3 {
            ask_for_mail(
                &server,
                &format!("{scheme}-{i}"),
                &format!("{scheme}{i}@players.example"),
            )
            .await;
        }
        let until = std::time::Instant::now() + Duration::from_secs(30);
        while sink.mails().len() < 3 {
            assert!(
                std::time::Instant::now() < until,
                "{scheme}: {} mails; the server's log:\n{}",
                sink.mails().len(),
                server.log.lock().unwrap().join("\n")
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mails = sink.mails();
        for i in 0..3 {
            let mine = to(&mails, &format!("{scheme}{i}@players.example"));
            assert_eq!(mine.len(), 1, "{scheme}: {mails:#?}");
            assert_eq!(mine[0]["headers"]["subject"], "Confirm your address");
            assert_eq!(mine[0]["tls"], true, "{scheme}: encrypted");
            assert_eq!(mine[0]["auth_user"], "club@judge", "{scheme}: authenticated");
        }
        // One conversation for the three: none ended without QUIT, and the sink saw one
        // connection's recipients in a row (a new connection per mail would also pass
        // this; that the connection is kept is the unit of `services::mail::smtp`).
        assert!(
            sink.events()
                .iter()
                .all(|e| e["event"] != "lost" || e["phase"] == "idle"),
            "{:?}",
            sink.events()
        );
    }
}

/// A mail server whose certificate the server does not trust, or that refuses the
/// password: nothing is sent, nothing is marked bounced (the club's settings are at
/// fault, not the address), and the mail goes once the fault is mended.
#[tokio::test(flavor = "multi_thread")]
async fn an_untrusted_certificate_or_a_wrong_password_holds_mail_back_and_bounces_nobody() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (ca, cert, key) = certificates(dir.path());
    let (cert, key) = (cert.to_string_lossy().into_owned(), key.to_string_lossy().into_owned());
    let sink = Sink::start_with(&["--starttls", &cert, &key, "--auth", "club:right"]);
    let db = dir.path().join("club.db").to_string_lossy().into_owned();
    let cases = [
        // The system's authorities only: the test authority is unknown.
        (
            format!("smtp://club:right@127.0.0.1:{}?tls=required", sink.port),
            None,
            "invalid peer certificate",
        ),
        (
            format!("smtp://club:wrong@127.0.0.1:{}?tls=required", sink.port),
            Some(ca.as_path()),
            "535",
        ),
    ];
    let mut token = None;
    for (i, (smtp, trusted, why)) in cases.iter().enumerate() {
        let server = server(&db, smtp, *trusted);
        if i == 0 {
            token = ask_for_mail(&server, "held", "held@players.example").await;
        }
        // Tried (and tried again) and refused for the reason the server's log gives.
        let until = std::time::Instant::now() + Duration::from_secs(30);
        let mut tries = 0;
        while tries < 2 {
            let log = server.log.lock().unwrap().join("\n");
            tries = log
                .lines()
                .filter(|l| l.contains("not sent") && l.contains(why))
                .count();
            assert!(std::time::Instant::now() < until, "case {i}: {why} in\n{log}");
            server.advance(60_000).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        assert!(sink.mails().is_empty(), "case {i}: {:#?}", sink.mails());
        let held = common::Api::new(&server.base, token.clone());
        let settings = held.get("/api/me/mail").await;
        assert_eq!(
            settings["address"]["bounced"],
            serde_json::Value::Null,
            "case {i}: {settings}"
        );
        server.kill();
    }
    // Mended: trusted, and the right password. The held mail goes, once.
    let server = server(&db, &cases[0].0, Some(&ca));
    server.advance(60 * 60_000).await;
    let mails = sink.wait_for(1, 30).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.mails().len(), 1, "{mails:#?}");
    assert_eq!(mails[0]["rcpt_tos"], json!(["held@players.example"]));
}
