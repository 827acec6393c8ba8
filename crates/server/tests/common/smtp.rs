//! A real SMTP server for the mail tests: Debian's python3-aiosmtpd running
//! `tests/smtp/sink.py` on a loopback port, which records every mail it accepts (as
//! Python's `email` package reads it) and can refuse for a while or bounce an address.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{Api, Server};

pub struct Sink {
    child: Child,
    pub port: u16,
    dir: tempfile::TempDir,
}

/// The Python with aiosmtpd: Debian's, where `.ci/run` installs python3-aiosmtpd.
fn python() -> &'static str {
    if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    }
}

impl Sink {
    pub fn start() -> Sink {
        Sink::start_with(&[])
    }

    /// A sink with sink.py's options (`--starttls CERT KEY`, `--tls CERT KEY`, `--auth
    /// USER:PASSWORD`).
    pub fn start_with(options: &[&str]) -> Sink {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/smtp/sink.py");
        let child = Command::new(python())
            .arg(script)
            .arg(port.to_string())
            .arg(dir.path())
            .args(options)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the SMTP sink (python3 with aiosmtpd: apt-get install python3-aiosmtpd)");
        let mut sink = Sink { child, port, dir };
        let until = Instant::now() + Duration::from_secs(30);
        while !sink.dir.path().join("ready").exists() {
            if let Ok(Some(status)) = sink.child.try_wait() {
                panic!("the SMTP sink stopped ({status}); is python3-aiosmtpd installed?");
            }
            assert!(Instant::now() < until, "the SMTP sink did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        sink
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every mail accepted so far, in order.
    pub fn mails(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.dir.path().join("mails.jsonl")).unwrap_or_default();
        // Only whole lines: the sink may be writing the last one now.
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        whole
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("a recorded mail"))
            .collect()
    }

    /// Waits until at least `n` mails have arrived; all of them.
    pub async fn wait_for(&self, n: usize, secs: u64) -> Vec<Value> {
        let until = Instant::now() + Duration::from_secs(secs);
        loop {
            let mails = self.mails();
            if mails.len() >= n {
                return mails;
            }
            assert!(
                Instant::now() < until,
                "expected {n} mails, got {}: {:#?}",
                mails.len(),
                mails.iter().map(|m| &m["headers"]["subject"]).collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Refuse every recipient with a temporary failure (451) until `accept` is called.
    pub fn refuse(&self) {
        std::fs::write(self.dir.path().join("refuse"), "").expect("refuse");
    }

    /// Answer each recipient after 50 ms.
    pub fn slow(&self) {
        std::fs::write(self.dir.path().join("slow"), "").expect("slow");
    }

    /// Answer each recipient after `ms` (until `fast`).
    pub fn slow_by(&self, ms: u64) {
        std::fs::write(self.dir.path().join("slow"), ms.to_string()).expect("slow");
    }

    /// Answer each recipient after `rcpt` ms, DATA (the 354) after `data`, and the
    /// message's end (the 250, the message already taken) after `end`.
    pub fn slow_phases(&self, rcpt: u64, data: u64, end: u64) {
        std::fs::write(self.dir.path().join("slow"), format!("{rcpt} {data} {end}")).expect("slow");
    }

    /// Answer at once again.
    pub fn fast(&self) {
        let _ = std::fs::remove_file(self.dir.path().join("slow"));
    }

    pub fn accept(&self) {
        let _ = std::fs::remove_file(self.dir.path().join("refuse"));
    }

    /// Refuse every message at its end with a temporary failure (451) until `accept_end`.
    pub fn refuse_end(&self) {
        std::fs::write(self.dir.path().join("refuse-end"), "").expect("refuse");
    }

    pub fn accept_end(&self) {
        let _ = std::fs::remove_file(self.dir.path().join("refuse-end"));
    }

    /// Refuse `address` for good (550) from now on.
    pub fn bounce(&self, address: &str) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.path().join("bounce"))
            .expect("bounce");
        writeln!(f, "{address}").expect("bounce");
    }

    /// What the sink noted, in order: each recipient given (`{"event": "rcpt",
    /// "address": …, "reply": "250"}`) and each conversation that ended without QUIT,
    /// with the point it ended at (`{"event": "lost", "phase": …}`; see sink.py).
    pub fn events(&self) -> Vec<Value> {
        let text = std::fs::read_to_string(self.dir.path().join("events.jsonl")).unwrap_or_default();
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        whole
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("a recorded event"))
            .collect()
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The mails to `address`.
pub fn to<'a>(mails: &'a [Value], address: &str) -> Vec<&'a Value> {
    mails
        .iter()
        .filter(|m| m["rcpt_tos"].as_array().is_some_and(|r| r.iter().any(|a| a == address)))
        .collect()
}

/// A picture's bytes, as the sink recorded them (base64).
pub fn picture(image: &Value) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(image["base64"].as_str().expect("a picture's bytes"))
        .expect("base64")
}

/// The first link in a mail's text starting with `prefix`.
pub fn link(mail: &Value, prefix: &str) -> String {
    let text = mail["text"].as_str().unwrap_or_default();
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no link {prefix} in {text}"));
    text[start..].split_whitespace().next().unwrap_or_default().to_string()
}

impl Server {
    /// Starts a test server that mails through `sink`.
    pub fn mailing_to(db: &str, sink: &Sink) -> Server {
        Server::start_adding(db, &["--smtp", &sink.url()])
    }
}

/// Sets `who`'s address and follows the link the confirmation mail carries; the account
/// then says the address is confirmed. A confirmation is no list mail: it has no
/// unsubscribe header.
pub async fn confirm(sink: &Sink, server: &Server, who: &Api, addr: &str) {
    who.call("PUT", "/api/me/mail/address", Some(json!({"address": addr})))
        .await;
    let until = Instant::now() + Duration::from_secs(30);
    let mail = loop {
        if let Some(m) = to(&sink.mails(), addr)
            .into_iter()
            .find(|m| m["headers"]["subject"] == "Confirm your address")
        {
            break m.clone();
        }
        assert!(Instant::now() < until, "no confirmation mail for {addr}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        mail["headers"].get("list-unsubscribe").is_none(),
        "a confirmation is no list mail"
    );
    let url = link(&mail, &format!("{}/mail/confirm/", server.base));
    let resp = reqwest::get(&url).await.expect("follow the link");
    assert_eq!(resp.status(), 200, "{url}");
    let settings = who.get("/api/me/mail").await;
    assert_eq!(settings["address"]["confirmed"], true, "{settings}");
}
