//! Press whatever a variant names its powers. A GM's upload may call a power `%`, `_`,
//! `A,B` or `Italy_` (quoted names pass the lint); who reads a private message is then
//! still decided by the recipients' own rows, never by a pattern or a joined string such
//! a name could widen or split. Before, `%`'s press page came back empty when its page
//! of 100 filled with other conversations, `_` was declared and then unknown on its own
//! unit lines, and a message to `A,B` reached nobody.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use common::smtp::{confirm, to, Sink};
use common::{Api, Server};
use serde_json::{json, Value};

const STANDARD: &str = include_str!("../../../variants/standard.var");

/// Standard with powers renamed: each whole-word use of an old name becomes the new one,
/// quoted.
fn renamed_standard(names: &[(&str, &str)]) -> String {
    let mut text = STANDARD.replacen("variant standard", "variant oddnames", 1);
    for (old, new) in names {
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find(old) {
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric());
            out.push_str(&rest[..i]);
            if word(rest[..i].chars().last()) || word(rest[i + old.len()..].chars().next()) {
                out.push_str(old);
            } else {
                out.push_str(&format!("\"{new}\""));
            }
            rest = &rest[i + old.len()..];
        }
        out.push_str(rest);
        text = out;
    }
    text
}

const RENAMED: [(&str, &str); 4] = [
    ("Austria", "_"),
    ("England", "A,B"),
    ("Italy", "Italy_"),
    ("Turkey", "%"),
];
const POWERS: [&str; 7] = ["_", "A,B", "France", "Germany", "Italy_", "Russia", "%"];

/// One message of the exchange: who sends it (None: the GM) and to whom (empty: all).
struct Sent {
    body: String,
    from: Option<&'static str>,
    to: Vec<&'static str>,
}

impl Sent {
    fn public(&self) -> bool {
        self.to.is_empty()
    }

    /// Whether `reader` (a power; None: the GM) may read it on the press page.
    fn readable_by(&self, reader: Option<&str>) -> bool {
        match reader {
            None => true,
            Some(p) => self.public() || self.from == Some(p) || self.to.contains(&p),
        }
    }

    /// Whether it belongs in `reader`'s press mail: private messages to the reader and
    /// the GM's announcements, never the reader's own or other players' public press.
    fn mailed_to(&self, reader: Option<&str>) -> bool {
        match reader {
            None => self.from.is_some() && self.to.contains(&"GM"),
            Some(p) => {
                self.from != Some(p) && (self.from.is_none() && self.readable_by(Some(p)) || self.to.contains(&p))
            }
        }
    }
}

/// The exchange: first the case that emptied `%`'s page (five messages to `%`, then 110
/// between two others), then 240 more from a fixed pseudo-random sequence, among them
/// messages to the GM, from the GM, and public ones.
fn exchange() -> Vec<Sent> {
    let mut out = Vec::new();
    let mut push = |from: Option<&'static str>, to: Vec<&'static str>| {
        let body = format!("m{:04}x", out.len());
        out.push(Sent { body, from, to });
    };
    for _ in 0..5 {
        push(Some("A,B"), vec!["%"]);
    }
    for _ in 0..110 {
        push(Some("A,B"), vec!["France"]);
    }
    let mut seed: u64 = 25;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for i in 0..240 {
        let from = match next(9) {
            8 => None,
            k => Some(POWERS[(k % 7) as usize]),
        };
        if i % 13 == 0 {
            push(from, vec![]);
            continue;
        }
        let mut to: Vec<&'static str> = Vec::new();
        for _ in 0..1 + next(3) {
            let p = POWERS[next(7) as usize];
            if Some(p) != from && !to.contains(&p) {
                to.push(p);
            }
        }
        // `%` is in half of the conversations, so that its private press is more than
        // a page.
        if from != Some("%") && !to.contains(&"%") && next(2) == 0 {
            to.push("%");
        }
        if from.is_some() && next(6) == 0 {
            to.push("GM");
        }
        if to.is_empty() {
            to.push(if from == Some("%") { "_" } else { "%" });
        }
        push(from, to);
    }
    out
}

/// Every page of `api`'s press, newest page first, checked as it comes: each page but
/// the last is full (100 messages) and in order, and follows on from the one before.
async fn all_pages(api: &Api, game: i64) -> Vec<String> {
    let mut pages: Vec<Vec<Value>> = Vec::new();
    let mut path = format!("/api/games/{game}/press");
    loop {
        let page = api.get(&path).await;
        let messages = page["messages"].as_array().unwrap().clone();
        let keys: Vec<(i64, i64)> = messages
            .iter()
            .map(|m| (m["sent_ms"].as_i64().unwrap(), m["id"].as_i64().unwrap()))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "oldest first: {keys:?}");
        if let (Some(newer), Some(last)) = (pages.last(), keys.last()) {
            let first_of_newer = &newer[0];
            let newer_key = (
                first_of_newer["sent_ms"].as_i64().unwrap(),
                first_of_newer["id"].as_i64().unwrap(),
            );
            assert!(*last < newer_key, "a page is older than the one before");
        }
        let more = page["more"] == true;
        if more {
            assert_eq!(messages.len(), 100, "every page but the oldest is full");
        }
        pages.push(messages);
        if !more {
            break;
        }
        path = format!(
            "/api/games/{game}/press?before={}",
            page["older"].as_str().expect("a cursor with more")
        );
    }
    pages
        .into_iter()
        .rev()
        .flatten()
        .map(|m| m["body"].as_str().unwrap().to_string())
        .collect()
}

/// The message bodies quoted in a mail's text, and how many new messages it says it
/// brings (it quotes at most 50 of them).
fn quoted(text: &str) -> (Vec<String>, usize) {
    let bodies = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| {
            w.len() == 6 && w.starts_with('m') && w.ends_with('x') && w[1..5].bytes().all(|b| b.is_ascii_digit())
        })
        .map(str::to_string)
        .collect();
    let mut count = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("A new message in ") {
            count += 1;
        } else if let Some((n, rest)) = line.split_once(' ') {
            if rest.starts_with("new messages in ") {
                count += n.parse::<usize>().unwrap_or(0);
            }
        }
    }
    (bodies, count)
}

fn address(i: usize) -> String {
    format!("reader{i}@players.example")
}

/// Power names can never widen or narrow who reads what, whatever their characters (a
/// name was once matched in SQL with `LIKE`): powers named `%`, `_`, `A,B` and `Italy_`, more than a
/// page of private messages; each reader gets exactly its messages, every page full and
/// in order, and the mails, the digest, the feed and the GM console agree.
#[tokio::test(flavor = "multi_thread")]
async fn each_reader_gets_exactly_its_press_whatever_the_power_names() {
    let text = renamed_standard(&RENAMED);
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("names-gm").await;
        let (status, game) = gm
            .call(
                "POST",
                "/api/games",
                Some(json!({"name": "names game", "variant_file": {"name": "oddnames.var", "text": text}})),
            )
            .await;
        assert_eq!(status, 201, "{game}");
        let id = game["id"].as_i64().unwrap();
        let listed: BTreeSet<&str> = game["powers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(listed, POWERS.into_iter().collect(), "{game}");
        confirm(&sink, &server, &gm, "gm@club.example").await;
        let mut players: HashMap<&str, Api> = HashMap::new();
        for (i, power) in POWERS.iter().enumerate() {
            let api = server.register(&format!("names-player{i}")).await;
            let joined = api
                .post(&format!("/api/games/{id}/join"), json!({"power": power}))
                .await;
            assert_eq!(joined["power"], *power, "{joined}");
            confirm(&sink, &server, &api, &address(i)).await;
            players.insert(power, api);
        }
        // `%` takes its mail in a daily digest.
        let digest_at = players["%"]
            .call("PUT", "/api/me/mail/digest", Some(json!({"digest": true, "hour": 7})))
            .await
            .1["digest"]["next"]
            .as_str()
            .map(str::to_string);
        let digest_at = digest_at.unwrap_or_else(|| panic!("the next digest's time"));
        let digest_ms = chrono::DateTime::parse_from_rfc3339(&digest_at)
            .unwrap()
            .timestamp_millis();
        // Every unit line of the upload was read: `_`'s armies stand in Vienna.
        let units = gm.get(&format!("/api/games/{id}")).await.to_string();
        assert!(units.contains("\"_\""), "{units}");

        let before = sink.mails().len();
        let sent = exchange();
        let press = format!("/api/games/{id}/press");
        for m in &sent {
            let from = m.from.map_or(&gm, |p| &players[p]);
            let answer = from.post(&press, json!({"to": m.to, "body": m.body})).await;
            assert!(answer["id"].is_i64(), "{answer}");
            // A second apart, so that the expected order is the order sent.
            server.advance(1000).await;
        }

        // The press API: every reader, all of its messages and nothing else, in pages.
        let readers: Vec<(Option<&str>, &Api)> = POWERS
            .iter()
            .map(|p| (Some(*p), &players[p]))
            .chain([(None, &gm)])
            .collect();
        for (reader, api) in &readers {
            let want: Vec<String> = sent
                .iter()
                .filter(|m| m.readable_by(*reader))
                .map(|m| m.body.clone())
                .collect();
            let got = all_pages(api, id).await;
            assert_eq!(got, want, "{reader:?} reads exactly its own messages, in order");
        }
        assert!(sent.iter().filter(|m| !m.public() && m.readable_by(Some("%"))).count() > 100);
        let public: Vec<String> = sent.iter().filter(|m| m.public()).map(|m| m.body.clone()).collect();
        assert_eq!(
            all_pages(&server.visitor(), id).await,
            public,
            "a visitor reads public press"
        );

        // The feed: public press alone.
        let feed = reqwest::get(format!("{}/games/{id}/feed.atom", server.base))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let in_feed: BTreeSet<String> = quoted(&feed).0.into_iter().collect();
        assert_eq!(in_feed, public.iter().cloned().collect(), "the feed");

        // Mail: after the batch time, each reader has had its private messages and the
        // GM's announcements, each once, and nothing else; `%` has them in its digest.
        server.advance(15 * 60_000 + 1_000).await;
        let readers_by_address: Vec<(String, Option<&str>)> = POWERS
            .iter()
            .enumerate()
            .map(|(i, p)| (address(i), Some(*p)))
            .chain([("gm@club.example".to_string(), None)])
            .collect();
        // Each reader's press counts so far, until every reader who takes mail as it
        // comes has had all of its messages.
        let counts = |mails: &[Value]| -> Vec<usize> {
            readers_by_address
                .iter()
                .map(|(a, _)| {
                    to(&mails[before..], a)
                        .iter()
                        .map(|m| quoted(m["text"].as_str().unwrap()).1)
                        .sum()
                })
                .collect()
        };
        let want_counts: Vec<usize> = readers_by_address
            .iter()
            .map(|(_, r)| sent.iter().filter(|m| m.mailed_to(*r)).count())
            .collect();
        let until = Instant::now() + Duration::from_secs(90);
        loop {
            let got = counts(&sink.mails());
            let done = (0..got.len()).all(|i| readers_by_address[i].1 == Some("%") || got[i] >= want_counts[i]);
            if done {
                break;
            }
            assert!(Instant::now() < until, "press mail comes: {got:?} of {want_counts:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Then `%`'s digest at its hour.
        let now = server.advance(0).await["now_ms"].as_i64().unwrap();
        server.advance((digest_ms - now).max(0) + 1_000).await;
        // Wait for the digest to carry every message: moving the clock to `%`'s digest hour
        // also brings the first deadline near, and a reminder that close goes at once,
        // so the first mail `%` gets may be that reminder rather than its digest.
        let want_pct = sent.iter().filter(|m| m.mailed_to(Some("%"))).count();
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let got: usize = to(&sink.mails()[before..], &address(6))
                .iter()
                .map(|m| quoted(m["text"].as_str().unwrap()).1)
                .sum();
            if got >= want_pct {
                break;
            }
            assert!(Instant::now() < until, "`%`'s digest comes: {got} of {want_pct}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let mails = sink.mails();
        let console = {
            let resp = reqwest::Client::new()
                .get(format!("{}/games/{id}/gm", server.base))
                .bearer_auth(gm.token.as_deref().unwrap())
                .send()
                .await
                .unwrap();
            resp.text().await.unwrap()
        };
        for (addr, reader) in &readers_by_address {
            let want: Vec<&Sent> = sent.iter().filter(|m| m.mailed_to(*reader)).collect();
            let got = to(&mails[before..], addr);
            let (mut bodies, mut count) = (Vec::new(), 0);
            for m in &got {
                let (b, n) = quoted(m["text"].as_str().unwrap());
                bodies.extend(b);
                count += n;
            }
            assert_eq!(count, want.len(), "{reader:?}: every message mailed, once");
            let quoted_set: BTreeSet<&String> = bodies.iter().collect();
            assert_eq!(quoted_set.len(), bodies.len(), "{reader:?}: none quoted twice");
            let wanted: BTreeSet<&String> = want.iter().map(|m| &m.body).collect();
            assert!(
                quoted_set.is_subset(&wanted),
                "{reader:?} is mailed only its messages: {:?}",
                quoted_set.difference(&wanted).collect::<Vec<_>>()
            );
            if *reader == Some("%") {
                let subjects: Vec<&str> = got.iter().map(|m| m["headers"]["subject"].as_str().unwrap()).collect();
                let digests = subjects.iter().filter(|s| s.starts_with("Your digest")).count();
                assert_eq!(digests, 1, "`%` has one digest: {subjects:?}");
                // Anything else is urgent mail, which a digest never holds back.
                assert!(
                    subjects
                        .iter()
                        .all(|s| s.starts_with("Your digest") || s.contains(" due in ")),
                    "`%` is mailed its press only in its digest: {subjects:?}"
                );
            }
            // The GM console lists each of these mails under its subject.
            for m in &got {
                let subject = m["headers"]["subject"].as_str().unwrap();
                if !subject.starts_with("Your digest") {
                    assert!(console.contains(subject), "the console lists `{subject}`");
                }
            }
        }
    }
}
