//! Mail over real SMTP: Debian's aiosmtpd on a loopback port receives what
//! the server sends. Addresses are confirmed by the mailed link; a 1936 phase is played
//! and every mail it causes is read: who gets it, its subject, its body (the reader's
//! own orders with their results and reasons, nothing of another power's orders or any
//! bid), and its headers (Message-ID, Date in UTC, threading per game, one-click
//! unsubscribe). SQLite and PostgreSQL.

mod common;

use std::collections::HashSet;

use common::smtp::{confirm, to, Sink};
use common::{full_game, player, Api, Server};
use serde_json::{json, Value};

fn address(power: &str) -> String {
    format!("{}@players.example", power.to_lowercase().replace(' ', "-"))
}

/// The `width` and `height` of an SVG's root element.
fn svg_size(svg: &str) -> (f64, f64) {
    let doc = roxmltree::Document::parse(svg).expect("the map is XML");
    let root = doc.root_element();
    let number = |a: &str| root.attribute(a).and_then(|v| v.parse::<f64>().ok()).expect("a size");
    (number("width"), number("height"))
}

/// A PNG's size, decoded, and how many colours its pixels use.
fn png_facts(bytes: &[u8]) -> ((u32, u32), usize) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let frame = reader.next_frame(&mut pixels).expect("its pixels");
    let channels = frame.color_type.samples();
    let colours: HashSet<&[u8]> = pixels[..frame.buffer_size()].chunks(channels).collect();
    ((frame.width, frame.height), colours.len())
}

fn header<'a>(mail: &'a Value, name: &str) -> &'a str {
    mail["headers"][name]
        .as_str()
        .unwrap_or_else(|| panic!("no {name} header: {mail}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_processed_phase_mails_each_player_their_results_and_nothing_else() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("mail-gm").await;
        let (id, players) = full_game(&server, &gm, "1936", json!({}), "mail").await;
        confirm(&sink, &server, &gm, "gm@club.example").await;
        for (power, api) in &players {
            confirm(&sink, &server, api, &address(power)).await;
        }
        let before = sink.mails().len();

        // Orders from three powers, a bid from Germany (secret to Germany and the GM, DP
        // rule 12); the others give none.
        let germany = player(&players, "Germany");
        let france = player(&players, "France");
        let britain = player(&players, "Britain");
        germany
            .post(
                &format!("/api/games/{id}/bids"),
                json!({"bids": [{"unit": "Netherlands", "dp": 2, "order": "F net - sns"}], "seq": 0}),
            )
            .await;
        germany
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A ber - sax"], "seq": 0}),
            )
            .await;
        france
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A par - bur"], "seq": 0}),
            )
            .await;
        britain
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["F lon - eng"], "seq": 0}),
            )
            .await;
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;

        // One results mail per player and one to the GM.
        let mails = sink.wait_for(before + players.len() + 1, 60).await;
        let fresh = &mails[before..];
        let mut ids = HashSet::new();
        for (power, _) in &players {
            let mine = to(fresh, &address(power));
            assert_eq!(mine.len(), 1, "{power}: one mail: {mine:#?}");
            let m = mine[0];
            assert_eq!(m["rcpt_tos"], json!([address(power)]), "one recipient per mail");
            let subject = header(m, "subject");
            assert!(
                subject.contains("mail game") && subject.contains("Spring 1936") && subject.contains(power.as_str()),
                "{subject}"
            );
            assert_eq!(m["content_type"], "multipart/alternative");
            let text = m["text"].as_str().unwrap();
            let html = m["html"].as_str().unwrap();
            assert!(!html.is_empty(), "an HTML part");
            assert!(
                ids.insert(header(m, "message-id").to_string()),
                "Message-IDs are unique"
            );
            // Date in UTC (RFC 5322 gives it as +0000 or GMT).
            let date = header(m, "date");
            assert!(
                date.ends_with("+0000") || date.ends_with("GMT") || date.ends_with("-0000"),
                "{date}"
            );
            // Threaded under the game.
            let thread = format!("<game-{id}@127.0.0.1>");
            assert_eq!(header(m, "in-reply-to"), thread);
            assert!(header(m, "references").contains(&thread));
            // One-click unsubscribe (RFC 8058) and the same link in the body.
            let unsub = header(m, "list-unsubscribe");
            assert!(
                unsub.starts_with('<') && unsub.contains("/mail/unsubscribe/"),
                "{unsub}"
            );
            assert_eq!(header(m, "list-unsubscribe-post"), "List-Unsubscribe=One-Click");
            assert!(
                text.contains(unsub.trim_matches(['<', '>'])),
                "the link is in the text too"
            );
            // The history link and the centre counts.
            assert!(
                text.contains(&format!("{}/games/{id}/history/0", server.base)),
                "{text}"
            );
            assert!(text.contains("Supply centres:"), "{text}");
            // No other power's orders, no bid.
            for (other, order) in [
                ("Germany", "A ber - sax"),
                ("France", "A par - bur"),
                ("Britain", "F lon - eng"),
            ] {
                if other != power {
                    assert!(
                        !text.contains(order) && !html.contains(order),
                        "{power} sees {other}'s order: {text}"
                    );
                }
            }
            assert!(
                !text.contains("F net - sns") && !text.contains("DP") && !text.to_lowercase().contains("bid"),
                "{power}: {text}"
            );
        }
        // The map of the phase in every results mail (the GM's too): a PNG 1200 pixels
        // wide, in proportion to the history page's picture, shown by the HTML part.
        let svg = reqwest::get(format!("{}/api/games/{id}/phases/0/map.svg", server.base))
            .await
            .expect("the phase's map")
            .text()
            .await
            .unwrap();
        let (svg_w, svg_h) = svg_size(&svg);
        let expected = (1200, (svg_h * 1200.0 / svg_w).round() as u32);
        let mut pictures = HashSet::new();
        for m in fresh {
            assert_eq!(
                m["structure"],
                json!([
                    "multipart/alternative",
                    "text/plain",
                    "multipart/related",
                    "text/html",
                    "image/png"
                ]),
                "{}",
                m["headers"]["subject"]
            );
            let images = m["images"].as_array().unwrap();
            assert_eq!(images.len(), 1);
            let cid = format!("map-{id}-0@127.0.0.1");
            assert_eq!(images[0]["content_id"], format!("<{cid}>"));
            assert!(
                images[0]["disposition"].as_str().unwrap().starts_with("inline"),
                "{}",
                images[0]["disposition"]
            );
            assert!(
                m["html"].as_str().unwrap().contains(&format!("<img src=\"cid:{cid}\"")),
                "the HTML part shows it"
            );
            let bytes = common::smtp::picture(&images[0]);
            let (size, colours) = png_facts(&bytes);
            assert_eq!(size, expected, "the picture's size");
            assert!(colours > 50, "a drawn map, not a blank: {colours} colours");
            pictures.insert(bytes);
        }
        assert_eq!(pictures.len(), 1, "one phase, one picture for all");

        // The players' own orders, with their outcome and reason.
        let g = to(fresh, &address("Germany"))[0]["text"].as_str().unwrap().to_string();
        assert!(g.contains("A ber - sax: moved"), "{g}");
        let f = to(fresh, &address("France"))[0]["text"].as_str().unwrap().to_string();
        assert!(f.contains("A par - bur: moved"), "{f}");
        // The GM hears that the phase was processed, and who gave no orders; only that
        // (the GM processed it: no separate missing-orders mail, which is for deadlines).
        let gm_mails = to(fresh, "gm@club.example");
        assert_eq!(gm_mails.len(), 1, "{gm_mails:#?}");
        assert_gm_processed(
            gm_mails[0],
            id,
            "mail game",
            "Spring 1936 movement",
            &["Germany", "France", "Britain"],
            &server.base,
        );

        // France's one-click unsubscribe (a mail client's POST, no session) stops
        // France's results for this game; the others still get theirs.
        let unsub = header(to(fresh, &address("France"))[0], "list-unsubscribe")
            .trim_matches(['<', '>'])
            .to_string();
        let resp = reqwest::Client::new()
            .post(&unsub)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .expect("one-click unsubscribe");
        assert_eq!(resp.status(), 200);
        let prefs = france.get("/api/me/mail").await;
        assert_eq!(
            prefs["prefs"],
            json!([{"game_id": id, "kind": "results", "enabled": false}]),
            "{prefs}"
        );
        let before = sink.mails().len();
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let mails = sink.wait_for(before + players.len(), 60).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let fresh: Vec<Value> = sink.mails()[before..].to_vec();
        assert_eq!(
            fresh.len(),
            players.len(),
            "everyone but France, and the GM: {:#?}",
            &mails[before..]
        );
        assert!(to(&fresh, &address("France")).is_empty());
        assert_eq!(to(&fresh, &address("Germany")).len(), 1);
    }
}

/// A permanent refusal (550) marks the address bounced: nothing more is sent to it, and
/// the account page says so. A temporary one (451) for a minute of the server's clock
/// delays mail but loses none, whether the mail server refuses the recipient or the
/// message at its end (after the sender has recorded it as sent).
#[tokio::test(flavor = "multi_thread")]
async fn refusals_delay_mail_and_bounces_stop_it() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let alice = server.register("alice-bounce").await;
        alice
            .call(
                "PUT",
                "/api/me/mail/address",
                Some(json!({"address": "bounce-alice@players.example"})),
            )
            .await;
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let s = alice.get("/api/me/mail").await;
            if s["address"]["bounced"].is_string() {
                assert!(s["address"]["bounced"].as_str().unwrap().contains("550"), "{s}");
                break;
            }
            assert!(std::time::Instant::now() < until, "the bounce was not recorded: {s}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let (status, page) = page(&alice, "/account").await;
        assert_eq!(status, 200);
        assert!(
            page.contains("id=\"mail-bounced\"") && page.contains("this address bounces"),
            "{page}"
        );
        assert!(sink.mails().is_empty(), "nothing was accepted");

        // Refusing for a minute: the sender tries again with a growing back-off.
        sink.refuse();
        let bob = server.register("bob-refused").await;
        bob.call(
            "PUT",
            "/api/me/mail/address",
            Some(json!({"address": "bob@players.example"})),
        )
        .await;
        for _ in 0..6 {
            tokio::time::sleep(std::time::Duration::from_millis(400)).await;
            server.advance(10_000).await;
        }
        assert!(sink.mails().is_empty(), "refused so far");
        sink.accept();
        // The back-off after five failures is well under two minutes.
        for _ in 0..24 {
            if !sink.mails().is_empty() {
                break;
            }
            server.advance(10_000).await;
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        let mails = sink.wait_for(1, 10).await;
        assert_eq!(mails.len(), 1, "delivered once: {mails:#?}");
        assert_eq!(mails[0]["rcpt_tos"], json!(["bob@players.example"]));
        assert_eq!(bob.get("/api/me/mail").await["address"]["bounced"], Value::Null);

        // Refused at the message's end (451 after the dot), when the sender has already
        // recorded the mail as sent: the mark is taken back and the mail tried again
        // until the mail server takes it, once.
        sink.refuse_end();
        let carol = server.register("carol-refused-end").await;
        carol
            .call(
                "PUT",
                "/api/me/mail/address",
                Some(json!({"address": "carol@players.example"})),
            )
            .await;
        let asked = |sink: &Sink| {
            sink.events()
                .iter()
                .filter(|e| e["event"] == "rcpt" && e["address"] == "carol@players.example")
                .count()
        };
        for _ in 0..6 {
            tokio::time::sleep(std::time::Duration::from_millis(400)).await;
            server.advance(10_000).await;
        }
        assert!(to(&sink.mails(), "carol@players.example").is_empty(), "refused so far");
        assert!(
            asked(&sink) >= 2,
            "tried again after a refusal at the end: {}",
            asked(&sink)
        );
        sink.accept_end();
        for _ in 0..24 {
            if !to(&sink.mails(), "carol@players.example").is_empty() {
                break;
            }
            server.advance(10_000).await;
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        server.advance(3_600_000).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(to(&sink.mails(), "carol@players.example").len(), 1, "delivered once");
        assert_eq!(carol.get("/api/me/mail").await["address"]["bounced"], Value::Null);

        // An address that starts bouncing later: a player's confirmed address is
        // refused for good by her mail server. The next mail records the bounce and the
        // account page says so; after it her mail server is not even asked.
        let gm = server.register("bounce-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "bouncing").await;
        confirm(&sink, &server, player(&players, "England"), &address("England")).await;
        confirm(&sink, &server, player(&players, "France"), &address("France")).await;
        sink.bounce(&address("England"));
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let england = player(&players, "England");
        loop {
            let s = england.get("/api/me/mail").await;
            if s["address"]["bounced"].is_string() {
                assert!(s["address"]["bounced"].as_str().unwrap().contains("550"), "{s}");
                break;
            }
            assert!(std::time::Instant::now() < until, "the bounce was not recorded: {s}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let (status, page_text) = crate::page(england, "/account").await;
        assert_eq!(status, 200);
        assert!(
            page_text.contains("id=\"mail-bounced\"") && page_text.contains("this address bounces"),
            "{page_text}"
        );
        let asked_england = |sink: &Sink| {
            sink.events()
                .iter()
                .filter(|e| e["event"] == "rcpt" && e["address"] == address("England").as_str())
                .count()
        };
        let before = asked_england(&sink);
        let france_mails = to(&sink.mails(), &address("France")).len();
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while to(&sink.mails(), &address("France")).len() == france_mails {
            assert!(std::time::Instant::now() < until, "France's next results");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(asked_england(&sink), before, "nothing more to a bounced address");
        assert!(to(&sink.mails(), &address("England"))
            .iter()
            .all(|m| m["headers"]["subject"] == "Confirm your address"));
    }
}

async fn page(who: &Api, path: &str) -> (u16, String) {
    let mut req = reqwest::Client::new().get(format!("{}{path}", who.base));
    if let Some(t) = &who.token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.expect("request");
    (resp.status().as_u16(), resp.text().await.expect("page text"))
}

/// Without a mail server (`--mail-dir`): each mail is a whole `.eml` file in the folder,
/// named by its outbox row, with both parts and the same headers.
#[tokio::test(flavor = "multi_thread")]
async fn a_mail_folder_gets_one_file_per_mail() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.db");
    let folder = dir.path().join("mail");
    let folder_arg = folder.to_string_lossy().into_owned();
    let server = Server::start_with(
        &db.to_string_lossy(),
        &["--no-demo", "--tick-ms", "50", "--mail-dir", &folder_arg],
    );
    let carol = server.register("carol-folder").await;
    carol
        .call(
            "PUT",
            "/api/me/mail/address",
            Some(json!({"address": "carol@players.example"})),
        )
        .await;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let files = loop {
        // A mail is written to a hidden `.tmp` file and renamed when whole: a reader of the
        // folder (like a mail client) skips the hidden ones.
        let files: Vec<std::path::PathBuf> = std::fs::read_dir(&folder)
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default();
        if !files.is_empty() {
            break files;
        }
        assert!(std::time::Instant::now() < until, "no mail file in {folder:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].extension().is_some_and(|e| e == "eml"), "{files:?}");
    let eml = std::fs::read_to_string(&files[0]).expect("the mail");
    for needle in [
        "Subject: Confirm your address",
        "To: carol@players.example",
        "Message-ID: <",
        "multipart/alternative",
        "text/plain",
        "text/html",
        "/mail/confirm/",
    ] {
        assert!(eml.contains(needle), "{needle} in {eml}");
    }
}

/// The start of a game is mailed to its players, with their power and the first
/// deadline in UTC; the GM's own kinds of mail are the GM's.
#[tokio::test(flavor = "multi_thread")]
async fn the_start_of_a_game_is_mailed_to_its_players() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("start-gm").await;
        let game = gm
            .post("/api/games", json!({"name": "start game", "variant": "standard"}))
            .await;
        let id = game["id"].as_i64().unwrap();
        let dave = server.register("start-dave").await;
        dave.post(&format!("/api/games/{id}/join"), json!({"power": "England"}))
            .await;
        confirm(&sink, &server, &dave, "dave@players.example").await;
        let before = sink.mails().len();
        gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;
        let mails = sink.wait_for(before + 1, 30).await;
        let m = &mails[before];
        assert_eq!(m["rcpt_tos"], json!(["dave@players.example"]));
        assert_eq!(header(m, "subject"), "start game: the game has started");
        let text = m["text"].as_str().unwrap();
        let deadline = dave.get(&format!("/api/games/{id}")).await["deadline"]
            .as_str()
            .unwrap()
            .to_string();
        // The deadline in UTC (the account has chosen no zone): `Sun 11 Jan 2026 19:00 UTC`.
        let utc = chrono::DateTime::parse_from_rfc3339(&deadline)
            .expect("an ISO 8601 deadline")
            .format("%a %-d %b %Y %H:%M UTC")
            .to_string();
        assert!(
            text.contains("You play England") && text.contains(&format!("is due at {utc}.")),
            "{text} / {utc}"
        );
        assert_eq!(header(m, "in-reply-to"), format!("<game-{id}@127.0.0.1>"));
    }
}

/// The game's own events are mailed: a replacement to the new player, the
/// one replaced and the others (who learn only that the power has a new player: no
/// account is named, as an anonymous game requires); civil disorder to its player and
/// the others; the end of the game to everyone and the GM; a player leaving a forming
/// game to the GM.
#[tokio::test(flavor = "multi_thread")]
async fn replacement_disorder_end_and_leaving_are_mailed() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("events-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({"anonymous": true}), "events").await;
        confirm(&sink, &server, &gm, "gm@club.example").await;
        for power in ["England", "France", "Italy"] {
            confirm(&sink, &server, player(&players, power), &address(power)).await;
        }
        let newcomer = server.register("events-newcomer").await;
        confirm(&sink, &server, &newcomer, "newcomer@players.example").await;
        let before = sink.mails().len();

        // England gets a new player.
        gm.post(
            &format!("/api/games/{id}/gm/replace"),
            json!({"power": "England", "account": "events-newcomer"}),
        )
        .await;
        let mails = sink.wait_for(before + 4, 30).await;
        let fresh = &mails[before..];
        let new = to(fresh, "newcomer@players.example");
        assert_eq!(new.len(), 1, "{fresh:#?}");
        assert_eq!(header(new[0], "subject"), "events game: you play England");
        let old = to(fresh, &address("England"));
        assert_eq!(old.len(), 1, "{fresh:#?}");
        assert_eq!(header(old[0], "subject"), "events game: you no longer play England");
        for power in ["France", "Italy"] {
            let m = to(fresh, &address(power));
            assert_eq!(m.len(), 1, "{power}: {fresh:#?}");
            assert_eq!(header(m[0], "subject"), "events game: England has a new player");
        }
        assert!(to(fresh, "gm@club.example").is_empty(), "the GM did it: {fresh:#?}");
        for m in fresh {
            let text = m["text"].as_str().unwrap();
            assert!(
                !text.contains("events-newcomer") && !text.contains("events-player"),
                "an anonymous game's mail names an account: {text}"
            );
        }

        // Italy in civil disorder.
        let before = sink.mails().len();
        gm.post(&format!("/api/games/{id}/gm/civil-disorder"), json!({"power": "Italy"}))
            .await;
        let mails = sink.wait_for(before + 3, 30).await;
        let fresh = &mails[before..];
        let italy = to(fresh, &address("Italy"));
        assert_eq!(italy.len(), 1, "{fresh:#?}");
        assert!(
            italy[0]["text"].as_str().unwrap().contains("you no longer play it"),
            "{italy:#?}"
        );
        for who in [address("France"), "newcomer@players.example".to_string()] {
            let m = to(fresh, &who);
            assert_eq!(m.len(), 1, "{who}: {fresh:#?}");
            assert_eq!(header(m[0], "subject"), "events game: Italy is in civil disorder");
        }

        // A draw: everyone still playing and the GM hear it; Italy's old player does not.
        let before = sink.mails().len();
        gm.post(
            &format!("/api/games/{id}/gm/end"),
            json!({"result": "draw", "powers": ["England", "France"]}),
        )
        .await;
        let mails = sink.wait_for(before + 3, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let fresh: Vec<Value> = sink.mails()[before..].to_vec();
        assert_eq!(fresh.len(), 3, "{:#?}", &mails[before..]);
        for who in [
            address("France"),
            "newcomer@players.example".into(),
            "gm@club.example".into(),
        ] {
            let m = to(&fresh, &who);
            assert_eq!(m.len(), 1, "{who}: {fresh:#?}");
            assert_eq!(header(m[0], "subject"), "events game: the game is over");
            assert!(
                m[0]["text"].as_str().unwrap().contains("draw: England, France"),
                "{m:#?}"
            );
        }

        // A player leaving a game still forming: the GM hears it.
        let forming = gm
            .post("/api/games", json!({"name": "forming game", "variant": "standard"}))
            .await;
        let fid = forming["id"].as_i64().unwrap();
        let leaver = server.register("events-leaver").await;
        leaver
            .post(&format!("/api/games/{fid}/join"), json!({"power": "Russia"}))
            .await;
        let before = sink.mails().len();
        leaver.post(&format!("/api/games/{fid}/leave"), json!({})).await;
        let mails = sink.wait_for(before + 1, 30).await;
        let m = &mails[before];
        assert_eq!(m["rcpt_tos"], json!(["gm@club.example"]));
        assert_eq!(header(m, "subject"), "forming game: the player of Russia left");
    }
}

/// The game's deadline, ms since 1970.
async fn deadline_ms(who: &Api, id: i64) -> i64 {
    let view = who.get(&format!("/api/games/{id}")).await;
    chrono::DateTime::parse_from_rfc3339(view["deadline"].as_str().expect("a deadline"))
        .expect("ISO 8601")
        .timestamp_millis()
}

/// Moves the server's clock to `at` (ms since 1970); returns the new time.
async fn clock_to(server: &Server, at: i64) -> i64 {
    let now = server.advance(0).await["now_ms"].as_i64().unwrap();
    server.advance((at - now).max(0)).await["now_ms"].as_i64().unwrap()
}

/// Deadline reminders: 24 and 2 hours before the deadline by default, to
/// each player whose power has given no orders (England has), with the deadline in the
/// reader's zone and in UTC; each once, even when the server restarts at the same
/// moment; the GM's own times (`PUT …/gm/reminders`) replace the defaults.
#[tokio::test(flavor = "multi_thread")]
async fn reminders_before_the_deadline_go_once_to_powers_without_orders() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("remind-gm").await;
        let (id, players) = full_game(
            &server,
            &gm,
            "standard",
            json!({"deadlines": {"movement_minutes": 4320, "retreat_minutes": 1440, "adjustment_minutes": 1440}}),
            "remind",
        )
        .await;
        for power in ["England", "France", "Germany"] {
            confirm(&sink, &server, player(&players, power), &address(power)).await;
        }
        let france = player(&players, "France");
        let settings = france
            .call(
                "PUT",
                "/api/me/mail/options",
                Some(json!({"time_zone": "Europe/Paris"})),
            )
            .await;
        assert_eq!(settings.0, 200, "{settings:?}");
        assert_eq!(settings.1["time_zone"], "Europe/Paris");
        let (status, bad) = france
            .call(
                "PUT",
                "/api/me/mail/options",
                Some(json!({"time_zone": "Mars/Olympus"})),
            )
            .await;
        assert_eq!(status, 422, "{bad}");
        player(&players, "England")
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["F lon - nth"], "seq": 0}),
            )
            .await;
        let deadline = deadline_ms(&gm, id).await;
        let before = sink.mails().len();
        // Nothing a day and a half before.
        clock_to(&server, deadline - 36 * 3_600_000).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(sink.mails().len(), before, "no reminder yet");

        // 24 hours before: France and Germany, not England.
        clock_to(&server, deadline - 24 * 3_600_000 + 60_000).await;
        let mails = sink.wait_for(before + 2, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let fresh: Vec<Value> = sink.mails()[before..].to_vec();
        assert_eq!(fresh.len(), 2, "{:#?}", &mails[before..]);
        assert!(to(&fresh, &address("England")).is_empty(), "England gave orders");
        let utc = |fmt: &str| {
            chrono::DateTime::from_timestamp_millis(deadline)
                .unwrap()
                .format(fmt)
                .to_string()
        };
        let paris = chrono::DateTime::from_timestamp_millis(deadline)
            .unwrap()
            .with_timezone(&chrono_tz::Europe::Paris);
        for power in ["France", "Germany"] {
            let m = to(&fresh, &address(power));
            assert_eq!(m.len(), 1, "{power}: {fresh:#?}");
            let subject = header(m[0], "subject");
            assert!(
                subject.starts_with("remind game: orders for ") && subject.ends_with(" due in 24 hours"),
                "{subject}"
            );
            let text = m[0]["text"].as_str().unwrap();
            assert!(text.contains(&format!("{power} has given no orders yet")), "{text}");
            assert!(text.contains(&format!("{}/games/{id}", server.base)), "{text}");
            assert_eq!(header(m[0], "in-reply-to"), format!("<game-{id}@127.0.0.1>"));
            assert!(header(m[0], "list-unsubscribe").contains("kind=reminders"));
            if power == "France" {
                // In the reader's zone and in UTC.
                let local = paris.format("%a %-d %b %Y %H:%M Europe/Paris").to_string();
                assert!(text.contains(&local), "{local} in {text}");
                assert!(text.contains(&utc("%H:%M UTC")), "{text}");
            } else {
                assert!(text.contains(&utc("%a %-d %b %Y %H:%M UTC")), "{text}");
            }
        }

        // 2 hours before: again, "due in 2 hours".
        let before = sink.mails().len();
        let two_hours = clock_to(&server, deadline - 2 * 3_600_000 + 60_000).await;
        sink.wait_for(before + 2, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let fresh: Vec<Value> = sink.mails()[before..].to_vec();
        assert_eq!(fresh.len(), 2, "{fresh:#?}");
        for m in &fresh {
            assert!(header(m, "subject").ends_with(" due in 2 hours"), "{m:#?}");
        }

        // A restart at the same moment sends nothing again.
        server.kill();
        let server = Server::mailing_to(&target.url, &sink);
        let before = sink.mails().len();
        clock_to(&server, two_hours + 60_000).await;
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        assert_eq!(sink.mails().len(), before, "{:#?}", &sink.mails()[before..]);

        // The GM's own times.
        let gm = Api::new(&server.base, gm.token.clone());
        let france = Api::new(&server.base, player(&players, "France").token.clone());
        let (status, _) = gm
            .call(
                "PUT",
                &format!("/api/games/{id}/gm/reminders"),
                Some(json!({"minutes": [0]})),
            )
            .await;
        assert_eq!(status, 422);
        let (status, _) = france.call("GET", &format!("/api/games/{id}/gm/reminders"), None).await;
        assert_eq!(status, 403, "the GM's alone");
        let set = gm
            .call(
                "PUT",
                &format!("/api/games/{id}/gm/reminders"),
                Some(json!({"minutes": [30]})),
            )
            .await;
        assert_eq!(set, (200, json!({"minutes": [30]})));
        assert_eq!(
            gm.get(&format!("/api/games/{id}/gm/reminders")).await,
            json!({"minutes": [30]})
        );
        clock_to(&server, deadline - 30 * 60_000 + 60_000).await;
        sink.wait_for(before + 2, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let fresh: Vec<Value> = sink.mails()[before..].to_vec();
        assert_eq!(fresh.len(), 2, "{fresh:#?}");
        for m in &fresh {
            assert!(header(m, "subject").ends_with(" due in 29 minutes"), "{m:#?}");
        }
    }
}

/// Reminders count Diplomacy Points bids too (a power with bids to give and none given has
/// something to do before the deadline, as one with orders has): in
/// a 1936 Spring movement phase every great power has DPs (France 5, the others 3: 1936
/// v3.6 "DP budget") and unused DPs are lost, so a power that has given orders but no
/// bid is reminded of its bids, one that has bid but given no orders of its orders, one
/// that has done neither of both, one that has done both not at all. When the deadline
/// then passes, the GM gets a mail of its own naming the powers that gave no orders,
/// apart from the "processed" mail; a GM's own processing (the first test) sends none.
#[tokio::test(flavor = "multi_thread")]
async fn reminders_count_bids_and_the_gm_hears_of_missing_orders_at_the_deadline() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("bids-gm").await;
        let (id, players) = full_game(
            &server,
            &gm,
            "1936",
            json!({"deadlines": {"movement_minutes": 4320, "retreat_minutes": 1440, "adjustment_minutes": 1440}}),
            "bidremind",
        )
        .await;
        confirm(&sink, &server, &gm, "bids-gm@club.example").await;
        let powers = ["Germany", "France", "Britain", "Italy"];
        for power in powers {
            confirm(&sink, &server, player(&players, power), &address(power)).await;
        }
        let orders = |p: &str, o: &str| {
            let api = player(&players, p);
            let body = json!({"orders": [o], "seq": 0});
            async move { api.post(&format!("/api/games/{id}/orders"), body).await }
        };
        let bid = |p: &str, unit: &str, order: &str| {
            let api = player(&players, p);
            let body = json!({"bids": [{"unit": unit, "dp": 1, "order": order}], "seq": 0});
            async move { api.post(&format!("/api/games/{id}/bids"), body).await }
        };
        // Germany both, France orders only, Britain a bid only, Italy nothing.
        orders("Germany", "A ber - sax").await;
        bid("Germany", "Netherlands", "F net H").await;
        orders("France", "A par - bur").await;
        bid("Britain", "Belgium", "A bel H").await;

        let deadline = deadline_ms(&gm, id).await;
        let before = sink.mails().len();
        clock_to(&server, deadline - 24 * 3_600_000 + 60_000).await;
        sink.wait_for(before + 3, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let fresh: Vec<Value> = sink.mails()[before..].to_vec();
        assert_eq!(fresh.len(), 3, "France, Britain and Italy: {fresh:#?}");
        assert!(to(&fresh, &address("Germany")).is_empty(), "Germany gave both");
        for (power, what) in [("France", "bids"), ("Britain", "orders"), ("Italy", "orders or bids")] {
            let m = to(&fresh, &address(power));
            assert_eq!(m.len(), 1, "{power}: {fresh:#?}");
            let subject = header(m[0], "subject");
            assert_eq!(
                subject,
                format!("bidremind game: {what} for Spring 1936 movement due in 24 hours"),
                "{power}"
            );
            let text = m[0]["text"].as_str().unwrap();
            assert!(
                text.contains(&format!("{power} has given no {what} yet for Spring 1936 movement")),
                "{text}"
            );
            assert_eq!(
                text.contains("Diplomacy Points this turn are lost"),
                what.contains("bids"),
                "{text}"
            );
            // Nobody's bid is told, not even the reader's own.
            for secret in ["F net H", "A bel H", "Netherlands", "Belgium"] {
                assert!(!text.contains(secret), "{power}: {secret} in {text}");
            }
        }

        // The deadline passes: the scheduler processes the phase. The GM gets the
        // missing orders on their own, and the processed mail.
        let before = sink.mails().len();
        clock_to(&server, deadline + 1_000).await;
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let gm_mails = loop {
            let mails = sink.mails();
            let gm_mails: Vec<Value> = to(&mails[before..], "bids-gm@club.example")
                .into_iter()
                .cloned()
                .collect();
            if gm_mails.len() >= 2 {
                break gm_mails;
            }
            assert!(std::time::Instant::now() < until, "the GM's mails: {gm_mails:#?}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(
            to(&sink.mails()[before..], "bids-gm@club.example").len(),
            2,
            "{gm_mails:#?}"
        );
        // First that the deadline passed without some orders, then that the phase was
        // processed: the order of the events, and the order the outbox was written in.
        let missing = &gm_mails[0];
        assert!(
            header(missing, "subject").contains("no orders from"),
            "the missing orders first: {gm_mails:#?}"
        );
        // Every great power but Germany and France gave none; factions are their
        // patrons' to order and are not named.
        assert_eq!(
            header(missing, "subject"),
            "bidremind game: no orders from Britain, Italy, Poland, Soviet Union, Turkey at the Spring 1936 movement deadline"
        );
        // Lines as the mail has them (CRLF on the wire) read with plain line ends.
        let text = missing["text"].as_str().unwrap().replace("\r\n", "\n");
        assert!(text.contains("passed without orders from:"), "{text}");
        for power in ["Britain", "Italy", "Poland", "Soviet Union", "Turkey"] {
            assert!(text.contains(&format!("  {power}\n")), "{power} in {text}");
        }
        assert!(!text.contains("  Germany\n") && !text.contains("  France\n"), "{text}");
        assert!(text.contains("their units held"), "{text}");
        assert!(text.contains(&format!("{}/games/{id}/gm", server.base)), "{text}");
        assert_eq!(header(missing, "in-reply-to"), format!("<game-{id}@127.0.0.1>"));
        assert!(header(missing, "list-unsubscribe").contains("kind=gm"));
        assert_gm_processed(
            &gm_mails[1],
            id,
            "bidremind game",
            "Spring 1936 movement",
            &["Germany", "France"],
            &server.base,
        );
    }
}

/// The GM's mail of a processed phase: its subject counts the great powers that gave
/// no orders, its text names them (and only them), gives the centre counts, and links
/// the phase's history and the GM console; threaded under the game.
fn assert_gm_processed(m: &Value, id: i64, game: &str, phase: &str, gave: &[&str], base: &str) {
    const GREAT: [&str; 7] = [
        "Britain",
        "France",
        "Germany",
        "Italy",
        "Poland",
        "Soviet Union",
        "Turkey",
    ];
    let silent: Vec<&str> = GREAT.iter().copied().filter(|p| !gave.contains(p)).collect();
    assert_eq!(
        header(m, "subject"),
        format!("{game}: {phase} processed, {} without orders", silent.len())
    );
    let text = m["text"].as_str().unwrap().replace("\r\n", "\n");
    assert!(
        text.starts_with(&format!("{phase} in {game} has been processed.")),
        "{text}"
    );
    let listed = text
        .split("Gave no orders by the deadline:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("the powers without orders: {text}"))
        .split("\n\n")
        .next()
        .unwrap_or_default();
    let listed: Vec<&str> = listed.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(listed, silent, "{text}");
    let centres = text
        .split("Supply centres:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("the centre counts: {text}"));
    for power in GREAT {
        assert!(centres.contains(power), "{power}'s centres in {text}");
    }
    assert!(text.contains(&format!("{base}/games/{id}/history/")), "{text}");
    assert!(text.contains(&format!("{base}/games/{id}/gm")), "{text}");
    assert_eq!(header(m, "in-reply-to"), format!("<game-{id}@127.0.0.1>"));
}

/// Press by mail: private press and GM announcements, at most one mail per
/// game per reader per 15 minutes, each message once, and nothing the reader may not
/// read: no other powers' conversations, no grey sender unmasked, no public press.
#[tokio::test(flavor = "multi_thread")]
async fn press_is_mailed_in_batches_and_only_to_its_readers() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("press-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({"grey_press": true}), "press").await;
        confirm(&sink, &server, &gm, "gm@club.example").await;
        for power in ["England", "France", "Germany"] {
            confirm(&sink, &server, player(&players, power), &address(power)).await;
        }
        let england = player(&players, "England");
        let germany = player(&players, "Germany");
        let press = format!("/api/games/{id}/press");
        let before = sink.mails().len();
        england
            .post(
                &press,
                json!({"to": ["France"], "body": "Secret plan: the Channel stays empty"}),
            )
            .await;
        england
            .post(&press, json!({"to": [], "body": "Public words from England"}))
            .await;
        gm.post(&press, json!({"to": [], "body": "The GM speaks to all"})).await;
        germany
            .post(&press, json!({"to": ["GM"], "body": "Germany asks the GM"}))
            .await;
        // The first batch: France, Germany and England each get a mail at once; then the
        // rest waits for the batch time.
        sink.wait_for(before + 4, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        let first: Vec<Value> = sink.mails()[before..].to_vec();
        for who in [
            address("France"),
            address("Germany"),
            address("England"),
            "gm@club.example".into(),
        ] {
            assert_eq!(to(&first, &who).len(), 1, "{who}: one mail at first: {first:#?}");
        }
        server.advance(15 * 60_000 + 1_000).await;
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let all: Vec<Value> = sink.mails()[before..].to_vec();
        let text_of = |who: &str| -> String {
            to(&all, who)
                .iter()
                .map(|m| m["text"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
                .join("\n")
        };
        let france = text_of(&address("France"));
        assert_eq!(
            france.matches("Secret plan: the Channel stays empty").count(),
            1,
            "{france}"
        );
        assert_eq!(france.matches("The GM speaks to all").count(), 1, "{france}");
        assert!(france.contains("England to France"), "{france}");
        let germany_text = text_of(&address("Germany"));
        assert_eq!(
            germany_text.matches("The GM speaks to all").count(),
            1,
            "{germany_text}"
        );
        let england_text = text_of(&address("England"));
        assert_eq!(
            england_text.matches("The GM speaks to all").count(),
            1,
            "{england_text}"
        );
        let gm_text = text_of("gm@club.example");
        assert!(gm_text.contains("Germany asks the GM"), "{gm_text}");
        for (who, text) in [("Germany", &germany_text), ("England", &england_text), ("GM", &gm_text)] {
            assert!(
                !text.contains("Secret plan"),
                "{who} reads another conversation: {text}"
            );
        }
        for (who, text) in [
            ("France", &france),
            ("Germany", &germany_text),
            ("England", &england_text),
        ] {
            assert!(
                !text.contains("Public words"),
                "{who}: public press is not mailed: {text}"
            );
            assert!(
                !text.contains("Germany asks the GM") || who == "Germany",
                "{who}: {text}"
            );
        }
        assert!(
            !germany_text.contains("Germany asks the GM"),
            "not one's own: {germany_text}"
        );

        // Once the batch time has passed a message goes at once; the next ones within
        // the batch time wait for it and come together, the grey one's sender hidden.
        server.advance(15 * 60_000 + 1_000).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let before = sink.mails().len();
        england
            .post(&press, json!({"to": ["France"], "body": "First of three"}))
            .await;
        let mails = sink.wait_for(before + 1, 30).await;
        assert_eq!(mails[before]["rcpt_tos"], json!([address("France")]));
        assert!(mails[before]["text"].as_str().unwrap().contains("First of three"));
        england
            .post(
                &press,
                json!({"to": ["France"], "body": "Second of three, grey", "grey": true}),
            )
            .await;
        england
            .post(&press, json!({"to": ["France"], "body": "Third of three"}))
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        assert_eq!(
            sink.mails().len(),
            before + 1,
            "batched: {:#?}",
            &sink.mails()[before..]
        );
        server.advance(15 * 60_000 + 1_000).await;
        let mails = sink.wait_for(before + 2, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(sink.mails().len(), before + 2, "one mail for both");
        let m = &mails[before + 1];
        assert_eq!(m["rcpt_tos"], json!([address("France")]));
        assert_eq!(header(m, "subject"), "press game: 2 new messages");
        let joined = m["text"].as_str().unwrap().to_string();
        assert!(!joined.contains("First of three"), "each message once: {joined}");
        assert!(
            joined.contains("Second of three, grey") && joined.contains("Third of three"),
            "{joined}"
        );
        assert!(joined.contains("Someone (grey press) to France"), "{joined}");
        let grey_line = joined
            .lines()
            .take_while(|l| !l.contains("Second of three"))
            .last()
            .unwrap_or_default()
            .to_string();
        assert!(!grey_line.contains("England"), "the grey sender is hidden: {joined}");
    }
}

/// The first 07:00 in New York after `now_ms` (the test's own reckoning).
fn next_seven_in_new_york(now_ms: i64) -> i64 {
    use chrono::TimeZone;
    let ny = chrono_tz::America::New_York;
    let mut day = chrono::DateTime::from_timestamp_millis(now_ms)
        .unwrap()
        .with_timezone(&ny)
        .date_naive();
    loop {
        let at = ny
            .from_local_datetime(&day.and_hms_opt(7, 0, 0).unwrap())
            .earliest()
            .unwrap()
            .timestamp_millis();
        if at > now_ms {
            return at;
        }
        day = day.succ_opt().unwrap();
    }
}

/// Waits until `who` has `n` mails held for the digest; the settings then.
async fn held(who: &Api, n: i64) -> Value {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let s = who.get("/api/me/mail").await;
        if s["digest"]["held"] == n {
            return s;
        }
        assert!(std::time::Instant::now() < until, "{n} mails held: {s}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The daily digest. Germany's player chooses one digest a day at 07:00
/// in New York: while two phases are processed and press arrives nothing comes, then at
/// 07:00 New York time exactly one mail holds both phases' results (Germany's own orders
/// only, no bid) and the press to Germany, nothing of another conversation; its headers
/// are a list mail's, its unsubscribe link names the digest. A reminder in the
/// deadline's last two hours still goes at once. Turning the digest off sends what is
/// held at once; a digest's one-click unsubscribe turns every kind off.
#[tokio::test(flavor = "multi_thread")]
async fn a_daily_digest_gathers_held_mail_at_its_hour_in_the_readers_zone() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let gm = server.register("digest-gm").await;
        let days =
            json!({"deadlines": {"movement_minutes": 4320, "retreat_minutes": 4320, "adjustment_minutes": 4320}});
        let (id, players) = full_game(&server, &gm, "1936", days, "digest").await;
        gm.call(
            "PUT",
            &format!("/api/games/{id}/gm/reminders"),
            Some(json!({"minutes": [120]})),
        )
        .await;
        confirm(&sink, &server, &gm, "gm@club.example").await;
        for power in ["Germany", "France", "Britain"] {
            confirm(&sink, &server, player(&players, power), &address(power)).await;
        }
        let germany = player(&players, "Germany");
        let france = player(&players, "France");
        let britain = player(&players, "Britain");
        let mine = address("Germany");

        // The choice, checked.
        for bad in [json!({"digest": true, "hour": 24}), json!({"digest": true, "hour": -1})] {
            let (status, body) = germany.call("PUT", "/api/me/mail/digest", Some(bad)).await;
            assert_eq!(status, 422, "{body}");
            assert!(body["error"].as_str().unwrap().contains("0 to 23"), "{body}");
        }
        let (status, _) = germany
            .call("PUT", "/api/me/mail/digest", Some(json!({"digest": "daily"})))
            .await;
        assert!(status == 400 || status == 422, "{status}");
        let (status, _) = germany
            .call(
                "PUT",
                "/api/me/mail/options",
                Some(json!({"time_zone": "America/New_York"})),
            )
            .await;
        assert_eq!(status, 200);
        let (status, s) = germany
            .call("PUT", "/api/me/mail/digest", Some(json!({"digest": true, "hour": 7})))
            .await;
        assert_eq!(status, 200, "{s}");
        assert_eq!(s["digest"]["enabled"], true);
        assert_eq!(s["digest"]["hour"], 7);
        assert_eq!(s["digest"]["held"], 0);
        let now = server.advance(0).await["now_ms"].as_i64().unwrap();
        let seven = next_seven_in_new_york(now);
        let iso = |ms: i64| {
            chrono::DateTime::from_timestamp_millis(ms)
                .unwrap()
                .format("%Y-%m-%dT%H:%M:%SZ")
                .to_string()
        };
        assert_eq!(s["digest"]["next"], iso(seven), "{s}");
        let before = sink.mails().len();

        // Spring 1936: orders, and Germany's secret bid (DP rule 12).
        germany
            .post(
                &format!("/api/games/{id}/bids"),
                json!({"bids": [{"unit": "Netherlands", "dp": 2, "order": "F net - sns"}], "seq": 0}),
            )
            .await;
        germany
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A ber - sax"], "seq": 0}),
            )
            .await;
        france
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A par - bur"], "seq": 0}),
            )
            .await;
        britain
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["F lon - eng"], "seq": 0}),
            )
            .await;
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        held(germany, 1).await;
        // Press: France to Germany, and Britain to France (not Germany's to read).
        let press = format!("/api/games/{id}/press");
        france
            .post(&press, json!({"to": ["Germany"], "body": "Paris writes to Berlin"}))
            .await;
        britain
            .post(&press, json!({"to": ["France"], "body": "London whispers to Paris"}))
            .await;
        held(germany, 2).await;
        // Fall 1936.
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        held(germany, 3).await;
        // France takes each mail as it comes: two results and a press mail by now.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while to(&sink.mails()[before..], &address("France")).len() < 3 {
            assert!(std::time::Instant::now() < until, "France's mail comes at once");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }

        // A minute before 07:00 in New York, nothing for Germany.
        clock_to(&server, seven - 60_000).await;
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let early = sink.mails();
        assert!(
            to(&early[before..], &mine).is_empty(),
            "{:#?}",
            to(&early[before..], &mine)
        );
        let account = page(germany, "/account").await.1;
        assert!(account.contains("3 mails wait for the digest of"), "{account}");
        let console = page(&gm, &format!("/games/{id}/gm")).await.1;
        assert!(
            console.contains("held for the reader's digest of"),
            "the GM console says so"
        );

        // At 07:00, one digest.
        clock_to(&server, seven).await;
        let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while to(&sink.mails()[before..], &mine).is_empty() {
            assert!(std::time::Instant::now() < until, "no digest");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let all = sink.mails();
        let got = to(&all[before..], &mine);
        assert_eq!(got.len(), 1, "one digest: {got:#?}");
        let d = got[0];
        let subject = header(d, "subject");
        assert_eq!(subject, "Your digest: 3 mails about digest game", "{subject}");
        let date = chrono::DateTime::parse_from_rfc2822(header(d, "date")).expect("a Date");
        let local = date.with_timezone(&chrono_tz::America::New_York);
        assert_eq!(local.format("%H:%M").to_string(), "07:00", "{date}");
        assert!(header(d, "message-id").ends_with(".digest@127.0.0.1>"));
        assert!(
            d["headers"].get("in-reply-to").is_none(),
            "a digest is about no one game"
        );
        let unsub = header(d, "list-unsubscribe");
        assert!(unsub.contains("kind=digest"), "{unsub}");
        assert_eq!(header(d, "list-unsubscribe-post"), "List-Unsubscribe=One-Click");
        let text = d["text"].as_str().unwrap();
        let html = d["html"].as_str().unwrap();
        assert!(text.contains("== digest game =="), "{text}");
        for part in [
            "Spring 1936",
            "Fall 1936",
            "Germany's orders and their results:",
            "A ber - sax",
            "Paris writes to Berlin",
            "Supply centres:",
        ] {
            assert!(text.contains(part), "{part} in {text}");
        }
        // In the reader's zone and in UTC.
        assert!(text.contains("America/New_York"), "{text}");
        assert!(
            html.contains("Paris writes to Berlin") && html.contains("A ber - sax"),
            "{html}"
        );
        for secret in ["A par - bur", "F lon - eng", "London whispers", "F net - sns", "DP"] {
            assert!(!text.contains(secret) && !html.contains(secret), "{secret} in {text}");
        }
        assert!(!text.to_lowercase().contains("bid"), "{text}");
        // Both phases' maps.
        assert_eq!(d["images"].as_array().unwrap().len(), 2, "{:?}", d["structure"]);
        assert_eq!(germany.get("/api/me/mail").await["digest"]["held"], 0);
        let console = page(&gm, &format!("/games/{id}/gm")).await.1;
        assert!(
            console.contains("sent in the reader's digest"),
            "the GM console says so"
        );

        // The reminder in the deadline's last two hours goes at once.
        let deadline = deadline_ms(&gm, id).await;
        let before = sink.mails().len();
        clock_to(&server, deadline - 2 * 3_600_000 + 60_000).await;
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while to(&sink.mails()[before..], &mine).is_empty() {
            assert!(std::time::Instant::now() < until, "no reminder");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
        let all = sink.mails();
        let got = to(&all[before..], &mine);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(header(got[0], "subject").ends_with("due in 2 hours"), "{got:#?}");

        // Turning the digest off sends what is held, at once.
        france
            .post(&press, json!({"to": ["Germany"], "body": "One more from Paris"}))
            .await;
        held(germany, 1).await;
        let before = sink.mails().len();
        let s = germany
            .call("PUT", "/api/me/mail/digest", Some(json!({"digest": false})))
            .await
            .1;
        assert_eq!(s["digest"]["enabled"], false, "{s}");
        assert_eq!(s["digest"]["hour"], 7, "the hour is kept");
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while to(&sink.mails()[before..], &mine).is_empty() {
            assert!(std::time::Instant::now() < until, "what was held is not sent");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(800)).await;
        let all = sink.mails();
        let got = to(&all[before..], &mine);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(got[0]["text"].as_str().unwrap().contains("One more from Paris"));

        // A digest's one-click unsubscribe turns every kind of mail off.
        let unsub = unsub.trim_matches(['<', '>']).to_string();
        let resp = reqwest::Client::new()
            .post(&unsub)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .expect("one-click unsubscribe");
        assert_eq!(resp.status(), 200);
        let prefs = germany.get("/api/me/mail").await["prefs"].clone();
        for kind in ["results", "reminders", "press", "game", "gm", "board"] {
            assert!(
                prefs
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|p| p["kind"] == kind && p["game_id"] == 0 && p["enabled"] == false),
                "{kind} off: {prefs}"
            );
        }
    }
}

/// Two servers on one database, both running the digest pass (a digest is
/// one mail a day, so it must be built exactly once): when the hour comes both race for every account's digest, and each account
/// gets exactly one, holding its mail once. On PostgreSQL a server takes an account by
/// locking its options row `FOR UPDATE SKIP LOCKED`; the other skips it.
#[tokio::test(flavor = "multi_thread")]
async fn two_servers_build_each_digest_once() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let a = Server::mailing_to(&target.url, &sink);
        let b = Server::mailing_to(&target.url, &sink);
        let gm = a.register("twin-digest-gm").await;
        let days =
            json!({"deadlines": {"movement_minutes": 4320, "retreat_minutes": 4320, "adjustment_minutes": 4320}});
        let (id, players) = full_game(&a, &gm, "standard", days, "twin-digest").await;
        gm.call(
            "PUT",
            &format!("/api/games/{id}/gm/reminders"),
            Some(json!({"minutes": []})),
        )
        .await;
        for (power, api) in &players {
            confirm(&sink, &a, api, &address(power)).await;
            let (status, body) = api
                .call("PUT", "/api/me/mail/digest", Some(json!({"digest": true, "hour": 7})))
                .await;
            assert_eq!(status, 200, "{body}");
        }
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        for (_, api) in &players {
            held(api, 2).await;
        }
        let before = sink.mails().len();
        // Both clocks to the next 07:00 UTC together.
        let now = a.advance(0).await["now_ms"]
            .as_i64()
            .unwrap()
            .max(b.advance(0).await["now_ms"].as_i64().unwrap());
        let day = 24 * 3_600_000;
        let seven = (now - 7 * 3_600_000).div_euclid(day) * day + day + 7 * 3_600_000;
        let (_, _) = tokio::join!(a.advance(seven - now), b.advance(seven - now));
        sink.wait_for(before + players.len(), 60).await;
        tokio::time::sleep(std::time::Duration::from_millis(2000)).await;
        let fresh: Vec<Value> = sink.mails()[before..].to_vec();
        assert_eq!(fresh.len(), players.len(), "one digest each: {fresh:#?}");
        for (power, _) in &players {
            let got = to(&fresh, &address(power));
            assert_eq!(got.len(), 1, "{power}: {got:#?}");
            let subject = header(got[0], "subject");
            assert!(subject.starts_with("Your digest: 2 mails"), "{power}: {subject}");
            let text = got[0]["text"].as_str().unwrap();
            assert_eq!(text.matches("has been processed.").count(), 2, "{power}: {text}");
        }
    }
}

/// The GM console lists the mails written about its game: to whom, the
/// subject and text, whether they went; and holds the reminder times' form. Only the
/// GM opens it.
#[tokio::test(flavor = "multi_thread")]
async fn the_gm_console_lists_the_games_mails() {
    let target = common::targets().await.remove(0);
    let sink = Sink::start();
    let server = Server::mailing_to(&target.url, &sink);
    let gm = server.register("console-gm").await;
    let (id, players) = full_game(&server, &gm, "standard", json!({}), "console").await;
    confirm(&sink, &server, player(&players, "Italy"), &address("Italy")).await;
    let before = sink.mails().len();
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    sink.wait_for(before + 1, 30).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (status, console) = page(&gm, &format!("/games/{id}/gm")).await;
    assert_eq!(status, 200);
    assert!(console.contains("id=\"mail-list\""), "{console}");
    assert!(console.contains("This server's mail is sent over SMTP."), "{console}");
    let row = console
        .split("<tr>")
        .find(|r| r.contains("Spring 1901") && r.contains("results for Italy"))
        .unwrap_or_else(|| panic!("the results mail is listed: {console}"));
    assert!(row.contains("console-player"), "the account it went to: {row}");
    // When it went, in the GM's zone (UTC here) as every time on the pages.
    assert!(
        row.contains("<td>results</td>") && row.contains("<td>sent ") && row.contains(" UTC</td>"),
        "{row}"
    );
    assert!(row.contains("Supply centres:"), "its text: {row}");
    assert!(
        console.contains("id=\"reminder-1\"") && console.contains("value=\"1440\""),
        "{console}"
    );
    let (status, _) = page(player(&players, "Italy"), &format!("/games/{id}/gm")).await;
    assert_eq!(status, 403, "the GM's alone");
}

/// The demo club (the README's first command) writes its mail to a folder beside its
/// database when given no transport, so that a club can try mail without a server.
#[tokio::test(flavor = "multi_thread")]
async fn the_demo_club_writes_its_mail_to_a_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.db");
    let server = Server::start_with(&db.to_string_lossy(), &["--tick-ms", "50", "--rate", "100000"]);
    let folder = dir.path().join("chancery-mail");
    assert!(folder.is_dir(), "{folder:?}");
    let erin = server.register("erin-demo").await;
    let (status, body) = erin
        .call(
            "PUT",
            "/api/me/mail/address",
            Some(json!({"address": "erin@players.example"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let files: Vec<_> = std::fs::read_dir(&folder).unwrap().filter_map(Result::ok).collect();
        if files.iter().any(|f| f.path().extension().is_some_and(|e| e == "eml")) {
            break;
        }
        assert!(std::time::Instant::now() < until, "no mail in {folder:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Without a transport and without the demo, the club mails nothing and says so.
    let bare = Server::start(&dir.path().join("bare.db").to_string_lossy());
    let frank = bare.register("frank-bare").await;
    let (status, body) = frank
        .call(
            "PUT",
            "/api/me/mail/address",
            Some(json!({"address": "frank@players.example"})),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("sends no mail"), "{body}");
    let (_, account) = page(&frank, "/account").await;
    assert!(account.contains("id=\"mail-off\""), "{account}");
}
