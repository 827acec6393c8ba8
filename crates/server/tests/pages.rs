//! The pages over plain HTTP, without a browser (these run on every machine): what each
//! viewer is shown and refused, and the order check the game page calls as you type.

mod common;

use common::{full_game, player, Server};
use serde_json::json;

async fn page(base: &str, path: &str, token: Option<&str>) -> (u16, String, reqwest::header::HeaderMap) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut req = client.get(format!("{base}{path}"));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, resp.text().await.unwrap(), headers)
}

#[tokio::test]
async fn each_viewer_sees_what_is_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let base = server.base.clone();
    let gm = server.register("gm-page").await;
    let game = gm
        .post("/api/games", json!({"name": "Pages <test>", "variant": "standard"}))
        .await;
    let id = game["id"].as_i64().unwrap();
    let france = server.register("fr-page").await;
    france
        .post(&format!("/api/games/{id}/join"), json!({"power": "France"}))
        .await;
    let (_, waiting, _) = page(&base, &format!("/games/{id}"), france.token.as_deref()).await;
    assert!(
        waiting.contains("Give up this power"),
        "a player may leave a forming game"
    );
    gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;

    // A visitor: the lobby and the map, the name escaped, no order form.
    let (status, lobby, _) = page(&base, "/", None).await;
    assert_eq!(status, 200);
    assert!(
        // askama writes `<` and `>` as numeric references.
        lobby.contains("Pages &#60;test&#62;") && !lobby.contains("Pages <test>"),
        "names are escaped"
    );
    let (status, game_page, _) = page(&base, &format!("/games/{id}"), None).await;
    assert_eq!(status, 200);
    assert!(
        game_page.contains(r#"data-space="par""#),
        "the map is inline SVG with clickable spaces"
    );
    assert!(!game_page.contains(r#"id="order-form""#));
    assert!(
        game_page.contains(&format!(r#"href="/api/games/{id}/map.svg""#)),
        "the image link"
    );

    // The player gets the order form and the press forms; no DP panel in a variant
    // without minor powers.
    let (_, mine, _) = page(&base, &format!("/games/{id}"), france.token.as_deref()).await;
    assert!(mine.contains(r#"id="order-form""#) && mine.contains(r#"id="new-press""#));
    assert!(!mine.contains(r#"id="leave""#), "not once the game runs");
    assert!(!mine.contains(r#"id="bid-form""#));

    // The GM console: to the login page when logged out, refused to a player.
    let (status, _, headers) = page(&base, &format!("/games/{id}/gm"), None).await;
    assert_eq!(status, 303);
    assert_eq!(headers["location"], format!("/login?next=/games/{id}/gm").as_str());
    let (status, refused, _) = page(&base, &format!("/games/{id}/gm"), france.token.as_deref()).await;
    assert_eq!(status, 403);
    assert!(
        refused.contains("only the game&#39;s GM"),
        "an HTML page says why: {refused}"
    );
    let (status, console, _) = page(&base, &format!("/games/{id}/gm"), gm.token.as_deref()).await;
    assert_eq!(status, 200);
    assert!(console.contains(r#"id="gm-process""#));

    // A player's record, linked from the powers table.
    assert!(
        game_page.contains(r#"<a href="/players/fr-page">fr-page</a>"#),
        "the player is linked"
    );
    let (status, record, _) = page(&base, "/players/fr-page", None).await;
    assert_eq!(status, 200);
    assert!(record.contains(&format!(r#"<tr data-game="{id}">"#)) && record.contains("France"));
    assert_eq!(page(&base, "/players/nobody-at-all", None).await.0, 404);

    // The account page: to the login page when logged out; the password form.
    let (status, _, headers) = page(&base, "/account", None).await;
    assert_eq!(status, 303);
    assert_eq!(headers["location"], "/login?next=/account");
    let (status, account, _) = page(&base, "/account", france.token.as_deref()).await;
    assert_eq!(status, 200);
    assert!(account.contains("Account fr-page") && account.contains(r#"data-api="/api/me/password""#));

    // History before any phase, and a phase that does not exist.
    let (status, empty, _) = page(&base, &format!("/games/{id}/history"), None).await;
    assert_eq!(status, 200);
    assert!(empty.contains("No phase has been processed yet"));
    let (status, _, _) = page(&base, &format!("/games/{id}/history/7"), None).await;
    assert_eq!(status, 404);

    // Assets are served from the binary; an unknown one is a 404.
    let (status, css, headers) = page(&base, "/assets/chancery.css", None).await;
    assert_eq!(status, 200);
    assert!(headers["content-type"].to_str().unwrap().starts_with("text/css"));
    assert!(css.contains("figure.map"));
    assert_eq!(page(&base, "/assets/nothing.js", None).await.0, 404);
}

#[tokio::test]
async fn the_order_check_gives_the_engines_reading_or_message() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let gm = server.register("gm-check").await;
    let game = gm
        .post("/api/games", json!({"name": "Check", "variant": "standard"}))
        .await;
    let id = game["id"].as_i64().unwrap();
    let england = server.register("en-check").await;
    england
        .post(&format!("/api/games/{id}/join"), json!({"power": "England"}))
        .await;
    gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;

    let check = |text: &str| format!("/api/games/{id}/check-order?text={}", text.replace(' ', "%20"));
    let good = england.get(&check("f LON - nth")).await;
    assert_eq!(
        good,
        json!({"ok": true, "order": "F lon - nth", "words": "Fleet London → North Sea"}),
        "the canonical reading, and in words"
    );
    // London and Holland do not touch (standard map): the order check's message.
    let bad = england.get(&check("F lon - hol")).await;
    assert_eq!(bad["ok"], false);
    let (status, refused) = england
        .call(
            "POST",
            &format!("/api/games/{id}/orders"),
            Some(json!({"orders": ["F lon - hol"], "seq": 0})),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(bad["error"], refused["error"], "the page says what the order API would");
    // Nothing was stored by checking.
    let stored = england.get(&format!("/api/games/{id}/orders")).await;
    assert_eq!(stored["orders"], json!([]));
    // Someone else's unit: the engine refuses it.
    let theirs = england.get(&check("A par - bur")).await;
    assert_eq!(theirs["ok"], false);
    // The map's clicks, named rather than written: the same reading.
    let clicked = england
        .get(&format!("/api/games/{id}/check-order?unit=F%20lon&action=move&to=nth"))
        .await;
    assert_eq!(clicked, good);
    let clicked = england
        .get(&format!("/api/games/{id}/check-order?unit=F%20lon&action=move&to=hol"))
        .await;
    assert_eq!(clicked["error"], refused["error"]);
    let docs = england.get("/api/docs").await;
    assert!(docs["paths"]["/api/games/{id}/check-order"]["get"].is_object());
    // A visitor has no power to check for.
    let (status, _) = server.visitor().call("GET", &check("F lon - nth"), None).await;
    assert_eq!(status, 401);
}

/// The game page hands its script (assets/game.js) the game as a JSON block written from
/// a typed value, in the spelling the script reads: the phase and its kind,
/// the player's power and the powers its orders move, whether convoys and boarding are on,
/// and builds or removals, which are null outside an adjustment phase.
#[tokio::test]
async fn the_game_page_gives_its_script_the_game_as_typed_data() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let gm = server.register("gm-data").await;
    let game = gm
        .post("/api/games", json!({"name": "Data", "variant": "standard"}))
        .await;
    let id = game["id"].as_i64().unwrap();
    let england = server.register("en-data").await;
    england
        .post(&format!("/api/games/{id}/join"), json!({"power": "England"}))
        .await;
    gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;
    let data = |html: &str| -> serde_json::Value {
        let block = html
            .split(r#"<script type="application/json" id="game-data">"#)
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .unwrap_or_else(|| panic!("the page has its script's data: {html}"));
        serde_json::from_str(block).expect("the block is JSON")
    };
    let (status, html, _) = page(&server.base, &format!("/games/{id}"), england.token.as_deref()).await;
    assert_eq!(status, 200);
    assert_eq!(
        data(&html),
        json!({
            "id": id, "status": "active", "phase": "S1901M", "seq": 0, "kind": "M",
            "power": "England", "adjust": null, "controls": ["England"],
            "convoys": true, "boarding": false,
        })
    );
    // A visitor has no power: the script offers no orders.
    let (_, html, _) = page(&server.base, &format!("/games/{id}"), None).await;
    let visitor = data(&html);
    assert_eq!((&visitor["power"], &visitor["controls"]), (&json!(null), &json!([])));
}

/// The secrecy the API keeps holds for the pages too: before processing, no
/// page shows another player, an observer or a visitor a power's orders or any bid, and
/// in an anonymous game no page names another power's player. The power itself and the
/// GM do see them, which shows the strings would be found if they leaked.
#[tokio::test]
async fn no_page_shows_another_powers_orders_bids_or_player() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let base = server.base.clone();
    let gm = server.register("gm-hush").await;
    let (id, players) = full_game(&server, &gm, "1936", json!({"anonymous": true}), "hush").await;
    let germany = player(&players, "Germany");
    let france = player(&players, "France");
    germany
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"orders": ["F ham - den"], "seq": 0}),
        )
        .await;
    germany
        .post(
            &format!("/api/games/{id}/bids"),
            json!({"bids": [{"unit": "Netherlands", "dp": 2, "order": "F net - sns"}], "seq": 0}),
        )
        .await;
    let observer = server.register("hush-observer").await;
    observer.post(&format!("/api/games/{id}/observe"), json!({})).await;
    let germany_player = format!(
        "hush-player{}",
        players.iter().position(|(p, _)| p == "Germany").unwrap()
    );

    let pages = [
        format!("/games/{id}"),
        format!("/games/{id}/history"),
        format!("/games/{id}/gm"),
        "/".to_string(),
    ];
    for (who, token) in [
        ("France", france.token.as_deref()),
        ("an observer", observer.token.as_deref()),
        ("a visitor", None),
    ] {
        for path in &pages {
            let (_, html, _) = page(&base, path, token).await;
            for secret in ["ham - den", "net - sns", germany_player.as_str()] {
                assert!(!html.contains(secret), "{path} shows {who} `{secret}`");
            }
        }
    }
    let (_, own, _) = page(&base, &format!("/games/{id}"), germany.token.as_deref()).await;
    assert!(
        own.contains("ham - den") && own.contains("net - sns"),
        "Germany sees its own"
    );
    let (_, console, _) = page(&base, &format!("/games/{id}/gm"), gm.token.as_deref()).await;
    for secret in ["ham - den", "net - sns", germany_player.as_str()] {
        assert!(console.contains(secret), "the GM console shows `{secret}`");
    }
}

/// The game map as an image for API clients: the current position without the orders
/// given so far (secret until processed, as on the game page), and a processed phase with its orders
/// drawn, or the position it left.
#[tokio::test]
async fn the_map_is_served_as_an_svg_image() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let gm = server.register("gm-image").await;
    let (id, players) = full_game(&server, &gm, "standard", json!({}), "image").await;
    player(&players, "England")
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"orders": ["F lon - nth"], "seq": 0}),
        )
        .await;
    let visitor = server.visitor();
    let image = |path: String| {
        let visitor = &visitor;
        async move {
            let resp = reqwest::get(format!("{}{path}", visitor.base)).await.unwrap();
            assert_eq!(resp.status(), 200, "{path}");
            assert_eq!(resp.headers()["content-type"], "image/svg+xml");
            resp.text().await.unwrap()
        }
    };
    let now = image(format!("/api/games/{id}/map.svg")).await;
    assert!(now.starts_with("<svg") && now.contains(r#"data-unit="F lon""#), "{now}");
    assert!(!now.contains("data-order"), "no order is drawn before processing");

    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    let before = image(format!("/api/games/{id}/phases/0/map.svg")).await;
    assert!(
        before.contains(r#"data-order="F lon - nth""#),
        "the phase's orders are drawn"
    );
    let after = image(format!("/api/games/{id}/phases/0/map.svg?after=true")).await;
    assert!(after.contains(r#"data-unit="F nth""#) && !after.contains("data-order"));
    assert_eq!(after, image(format!("/api/games/{id}/map.svg")).await, "nothing since");

    let (status, body) = visitor
        .call("GET", &format!("/api/games/{id}/phases/9/map.svg"), None)
        .await;
    assert_eq!(status, 404);
    assert!(
        body["error"].as_str().unwrap().contains("no processed phase 9"),
        "{body}"
    );
}

/// Pages, maps and scripts go compressed to a client that accepts it (gzip or Brotli,
/// the same bytes once decoded) and as they are to one that does not; the map and the
/// scripts carry a validator, so a browser that has them is told "not modified"
/// without the body; a script named with its version is kept for a year, and a map
/// that changed (a phase processed) is sent again.
#[tokio::test]
async fn answers_are_compressed_and_kept_until_they_change() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let gm = server.register("gm-squeeze").await;
    let (id, _players) = full_game(&server, &gm, "standard", json!({}), "squeeze").await;
    let client = reqwest::Client::new();
    let get = |path: String, headers: Vec<(&'static str, String)>| {
        let client = &client;
        let base = &server.base;
        async move {
            let mut req = client.get(format!("{base}{path}"));
            for (k, v) in headers {
                req = req.header(k, v);
            }
            let resp = req.send().await.expect("request");
            let status = resp.status().as_u16();
            let h = resp.headers().clone();
            (status, h, resp.bytes().await.unwrap().to_vec())
        }
    };
    let header = |h: &reqwest::header::HeaderMap, k: &str| h.get(k).map(|v| v.to_str().unwrap().to_string());
    for path in [
        format!("/games/{id}"),
        format!("/api/games/{id}/map.svg"),
        format!("/api/games/{id}"),
        "/assets/game.js".into(),
        "/assets/chancery.css".into(),
    ] {
        let (status, h, plain) = get(path.clone(), vec![]).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            header(&h, "content-encoding"),
            None,
            "{path}: compressed for a client that did not ask"
        );
        let (_, h, gz) = get(path.clone(), vec![("accept-encoding", "gzip".into())]).await;
        assert_eq!(header(&h, "content-encoding").as_deref(), Some("gzip"), "{path}");
        assert!(
            header(&h, "vary")
                .unwrap_or_default()
                .to_lowercase()
                .contains("accept-encoding"),
            "{path}"
        );
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut unzipped)
            .unwrap();
        let (_, h, br) = get(path.clone(), vec![("accept-encoding", "br, gzip".into())]).await;
        assert_eq!(header(&h, "content-encoding").as_deref(), Some("br"), "{path}");
        let mut unbrotlied = Vec::new();
        brotli_decompressor::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut unbrotlied)
            .unwrap();
        if !path.starts_with("/games/") {
            // A page names its reader's session time and token; the rest is the same each time.
            assert_eq!(unzipped, plain, "{path}: gzip decodes to the same bytes");
            assert_eq!(unbrotlied, plain, "{path}: Brotli decodes to the same bytes");
        } else {
            assert!(String::from_utf8(unbrotlied).unwrap().starts_with("<!doctype html>"));
        }
        assert!(
            br.len() * 3 < plain.len(),
            "{path}: {} bytes as Brotli for {}",
            br.len(),
            plain.len()
        );
    }

    // The map: asked again with its validator, not sent; sent again once it changed.
    let map = format!("/api/games/{id}/map.svg");
    let (_, h, _) = get(map.clone(), vec![]).await;
    let tag = header(&h, "etag").expect("the map's ETag");
    assert_eq!(header(&h, "cache-control").as_deref(), Some("no-cache"));
    let (status, _, body) = get(map.clone(), vec![("if-none-match", tag.clone())]).await;
    assert_eq!((status, body.len()), (304, 0), "the map the browser has");
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    let (status, h, _) = get(map.clone(), vec![("if-none-match", tag.clone())]).await;
    assert_eq!(status, 200, "the map after a phase is sent again");
    assert_ne!(header(&h, "etag"), Some(tag));

    // Scripts: the page names each by its version, kept for a year; the bare name five
    // minutes, then asked about.
    let (_, _, html) = get(format!("/games/{id}"), vec![]).await;
    let html = String::from_utf8(html).unwrap();
    let at = html.find("/assets/game.js?v=").expect("game.js named with its version");
    let versioned = html[at..].split('"').next().unwrap().to_string();
    let (status, h, _) = get(versioned.clone(), vec![]).await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&h, "cache-control").as_deref(),
        Some("public, max-age=31536000, immutable"),
        "{versioned}"
    );
    let (_, h, _) = get("/assets/game.js?v=0000".into(), vec![]).await;
    assert_eq!(
        header(&h, "cache-control").as_deref(),
        Some("public, max-age=300"),
        "another build's version"
    );
    let tag = header(&h, "etag").expect("an asset's ETag");
    let (status, _, body) = get("/assets/game.js".into(), vec![("if-none-match", tag)]).await;
    assert_eq!((status, body.len()), (304, 0));
}

/// The lobby's "My games" says what each game asks of the viewer now, as webDiplomacy's
/// home page does: orders due, given, ready, nothing to order, or the GM's.
#[tokio::test]
async fn my_games_say_whose_turn_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let base = server.base.clone();
    let gm = server.register("gm-turns").await;
    let (id, players) = full_game(&server, &gm, "standard", json!({}), "turns").await;
    let turn = |html: &str| {
        let row = html.split(&format!(r#"<tr data-game="{id}">"#)).nth(1).unwrap_or("");
        let cell = row.split(r#"<td class="turn "#).nth(1).unwrap_or("");
        cell.split('>')
            .nth(1)
            .unwrap_or("")
            .split('<')
            .next()
            .unwrap_or("")
            .to_string()
    };
    let england = player(&players, "England");
    let lobby = |token: Option<String>| {
        let base = base.clone();
        async move { page(&base, "/", token.as_deref()).await.1 }
    };
    assert_eq!(turn(&lobby(england.token.clone()).await), "orders due");
    england
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"orders": ["F lon - nth"], "seq": 0}),
        )
        .await;
    assert_eq!(turn(&lobby(england.token.clone()).await), "orders given");
    england.post(&format!("/api/games/{id}/ready"), json!({"seq": 0})).await;
    assert_eq!(turn(&lobby(england.token.clone()).await), "ready");
    assert_eq!(turn(&lobby(gm.token.clone()).await), "GM");
    // England takes Norway in the Fall and builds in the Winter; Italy, with as many
    // units as centres, has no adjustment to make.
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    england
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"orders": ["F nth - nwy"], "seq": 1}),
        )
        .await;
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    let game = gm.get(&format!("/api/games/{id}")).await;
    assert_eq!(game["phase"], "W1901A", "{game}");
    let italy = player(&players, "Italy");
    assert_eq!(turn(&lobby(italy.token.clone()).await), "nothing to order");
    assert_eq!(turn(&lobby(england.token.clone()).await), "orders due");
}

/// The game as an Atom feed: well-formed, with each processed phase's full results and
/// the press everyone may read, and nothing else (no private press, no account in an
/// anonymous game), its links absolute on the host the reader used.
#[tokio::test]
async fn the_game_feed_carries_results_and_public_press_only() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let base = server.base.clone();
    let gm = server.register("gm-feed").await;
    let (id, players) = full_game(&server, &gm, "standard", json!({"anonymous": true}), "feedy").await;
    let england = player(&players, "England");
    let press = format!("/api/games/{id}/press");
    england
        .post(&press, json!({"to": ["France"], "body": "a secret plan"}))
        .await;
    england.post(&press, json!({"body": "hello to all & sundry"})).await;
    gm.post(&press, json!({"body": "Deadlines are firm."})).await;
    england
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"orders": ["F lon - nth"], "seq": 0}),
        )
        .await;
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;

    let resp = reqwest::get(format!("{base}/games/{id}/feed.atom")).await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/atom+xml"));
    let xml = resp.text().await.unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let entries: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("entry")).collect();
    let text_of = |title: &str| {
        entries
            .iter()
            .find(|e| {
                e.descendants()
                    .any(|n| n.has_tag_name("title") && n.text().unwrap_or("").contains(title))
            })
            .and_then(|e| e.descendants().find(|n| n.has_tag_name("content")))
            .and_then(|c| c.text())
            .unwrap_or("")
            .to_string()
    };
    let results = text_of("results of S1901M");
    assert!(results.contains("England: F lon - nth"), "{results}");
    assert!(results.contains("Supply centres: Russia 4"), "{results}");
    assert_eq!(text_of("England to all"), "hello to all & sundry");
    assert_eq!(text_of("The GM to all"), "Deadlines are firm.");
    assert!(!xml.contains("secret plan"), "private press stays private");
    assert!(!xml.contains("feedy-player"), "no account in an anonymous game");
    let host = base.trim_start_matches("http://");
    assert!(
        xml.contains(&format!(r#"href="http://{host}/games/{id}/history/0""#)),
        "{xml}"
    );
    assert_eq!(page(&base, "/games/999/feed.atom", None).await.0, 404);
}

/// Unread press, on SQLite and PostgreSQL: messages from others are
/// counted on the game page and in the lobby until the player reads their thread (the
/// server's mark, per account, so every device agrees), not merely by loading the page;
/// a later message is new again; "mark all read" covers every thread; bad marks are
/// refused with a reason.
#[tokio::test(flavor = "multi_thread")]
async fn unread_press_is_counted_until_its_thread_is_read() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("gm-unread").await;
        let game = gm
            .post("/api/games", json!({"name": "Unread", "variant": "standard"}))
            .await;
        let id = game["id"].as_i64().unwrap();
        let italy = server.register("it-unread").await;
        italy
            .post(&format!("/api/games/{id}/join"), json!({"power": "Italy"}))
            .await;
        let austria = server.register("au-unread").await;
        austria
            .post(&format!("/api/games/{id}/join"), json!({"power": "Austria"}))
            .await;
        let token = italy.token.as_deref();
        let (_, html, _) = page(&server.base, &format!("/games/{id}"), token).await;
        assert!(!html.contains(r#"id="unread""#));
        let press = format!("/api/games/{id}/press");
        austria
            .post(&press, json!({"to": ["Italy"], "body": "Trieste is safe."}))
            .await;
        austria.post(&press, json!({"body": "Hello, all."})).await;
        let (_, lobby, _) = page(&server.base, "/", token).await;
        assert!(lobby.contains("<strong>2</strong>"), "{lobby}");
        for _ in 0..2 {
            // Loading the page reads nothing: the threads are still new.
            let (_, html, _) = page(&server.base, &format!("/games/{id}"), token).await;
            assert!(
                html.contains(r#"id="unread""#)
                    && html.contains("2 unread messages")
                    && html.contains("Trieste is safe."),
                "{html}"
            );
            assert!(html.contains(r#"data-thread="Austria""#), "{html}");
        }
        // Italy reads the thread with Austria (on some device) up to the newest message.
        let sent = italy.get(&press).await;
        let newest = sent["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["to"] == json!(["Italy"]))
            .map(|m| m["sent_ms"].as_i64().unwrap())
            .max()
            .unwrap();
        let read = format!("/api/games/{id}/press/read");
        let left = italy
            .post(&read, json!({"thread": "Austria", "up_to_ms": newest}))
            .await;
        assert_eq!(left["unread"], 1, "the public message is left: {left}");
        let (_, html, _) = page(&server.base, &format!("/games/{id}"), token).await;
        assert!(html.contains("1 unread message in the press"), "{html}");
        assert!(
            !html.contains("Trieste is safe.</q>"),
            "the private one is read: {html}"
        );
        // A later private message is new again.
        server.advance(1000).await;
        austria
            .post(&press, json!({"to": ["Italy"], "body": "And Venice?"}))
            .await;
        let (_, lobby, _) = page(&server.base, "/", token).await;
        assert!(lobby.contains("<strong>2</strong>"), "{lobby}");
        // Bad marks: refused, with the reason.
        for (body, status) in [
            (json!({"thread": ""}), 422),
            (json!({"up_to_ms": -5}), 422),
            (json!({"thread": "Austria", "extra": 1}), 422),
        ] {
            let (got, answer) = italy.call("POST", &read, Some(body.clone())).await;
            assert_eq!(got, status, "{body}: {answer}");
            assert!(answer["error"].as_str().is_some_and(|e| !e.is_empty()), "{answer}");
        }
        let stranger = server.register("stranger-unread").await;
        let (got, answer) = stranger.call("POST", &read, Some(json!({}))).await;
        assert_eq!(got, 403, "{answer}");
        // Everything read at once.
        let left = italy.post(&read, json!({})).await;
        assert_eq!(left["unread"], 0, "{left}");
        let (_, html, _) = page(&server.base, &format!("/games/{id}"), token).await;
        assert!(!html.contains(r#"id="unread""#), "{html}");
        let (_, lobby, _) = page(&server.base, "/", token).await;
        assert!(!lobby.contains("unread messages"), "{lobby}");
    }
}

/// The first 1 March, 12:00 UTC, after `now_ms`: before the day the United States put
/// their clocks forward (the second Sunday of March), so New York is on EST (UTC-5).
fn next_first_of_march(now_ms: i64) -> i64 {
    use chrono::{Datelike, TimeZone, Utc};
    let now = chrono::DateTime::from_timestamp_millis(now_ms).unwrap();
    let mut year = now.year();
    loop {
        let at = Utc.with_ymd_and_hms(year, 3, 1, 12, 0, 0).unwrap().timestamp_millis();
        if at > now_ms {
            return at;
        }
        year += 1;
    }
}

/// `ms` as pages give it to a reader in New York, with a UTC offset of `hours` (the
/// test's own arithmetic: -5 on EST, -4 on EDT), and in UTC beside it.
fn new_york_text(ms: i64, hours: i64) -> String {
    let utc = chrono::DateTime::from_timestamp_millis(ms).unwrap();
    let local = chrono::DateTime::from_timestamp_millis(ms + hours * 3_600_000).unwrap();
    let beside = if local.date_naive() == utc.date_naive() {
        utc.format("%H:%M UTC").to_string()
    } else {
        utc.format("%a %-d %b %Y %H:%M UTC").to_string()
    };
    format!("{} America/New_York ({beside})", local.format("%a %-d %b %Y %H:%M"))
}

/// Deadlines in the reader's zone: an account in America/New_York sees
/// each deadline on the game page, the lobby and the GM console in New York time with
/// UTC beside it, written by the server (no script needed); each at its own date's
/// offset, so that on 1 March (EST) a deadline a day away reads UTC-5 and one thirty
/// days away, after the clocks go forward, UTC-4. A visitor, and an account that chose
/// no zone, see UTC alone.
#[tokio::test(flavor = "multi_thread")]
async fn deadlines_read_in_the_accounts_zone_and_in_utc() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let base = server.base.clone();
        let now = server.advance(0).await["now_ms"].as_i64().unwrap();
        let march = next_first_of_march(now);
        server.advance(march - now).await;
        let gm = server.register("zone-gm").await;
        let (soon, soon_players) = full_game(
            &server,
            &gm,
            "standard",
            json!({"deadlines": {"movement_minutes": 1440}}),
            "zone-a",
        )
        .await;
        let (late, late_players) = full_game(
            &server,
            &gm,
            "standard",
            json!({"deadlines": {"movement_minutes": 30 * 1440}}),
            "zone-b",
        )
        .await;
        let deadline = |game: serde_json::Value| -> i64 {
            chrono::DateTime::parse_from_rfc3339(game["deadline"].as_str().unwrap())
                .unwrap()
                .timestamp_millis()
        };
        let soon_ms = deadline(gm.get(&format!("/api/games/{soon}")).await);
        let late_ms = deadline(gm.get(&format!("/api/games/{late}")).await);
        let reader = player(&soon_players, "England");
        let other = player(&late_players, "England");
        for who in [reader, other, &gm] {
            let (status, body) = who
                .call(
                    "PUT",
                    "/api/me/mail/options",
                    Some(json!({"time_zone": "America/New_York"})),
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
        let (status, body) = reader
            .call(
                "PUT",
                "/api/me/mail/options",
                Some(json!({"time_zone": "Gondor/Minas_Tirith"})),
            )
            .await;
        assert_eq!(status, 422, "{body}");

        // On EST: the deadline a day away.
        let est = new_york_text(soon_ms, -5);
        let (_, html, _) = page(&base, &format!("/games/{soon}"), reader.token.as_deref()).await;
        assert!(html.contains(&est), "{est} on the game page");
        assert!(!html.contains("id=\"deadline-local\""), "the server wrote the zone");
        let (_, lobby, _) = page(&base, "/", reader.token.as_deref()).await;
        assert!(lobby.contains(&est), "{est} in the lobby");
        let (_, console, _) = page(&base, &format!("/games/{soon}/gm"), gm.token.as_deref()).await;
        assert!(console.contains(&est), "{est} in the GM console");
        // After the clocks go forward: the same reader, UTC-4.
        let edt = new_york_text(late_ms, -4);
        let (_, html, _) = page(&base, &format!("/games/{late}"), other.token.as_deref()).await;
        assert!(html.contains(&edt), "{edt} on the game page");
        let (_, lobby, _) = page(&base, "/", gm.token.as_deref()).await;
        assert!(lobby.contains(&est) && lobby.contains(&edt), "both in the GM's lobby");

        // A visitor, and a player who chose no zone: UTC alone.
        let utc = chrono::DateTime::from_timestamp_millis(soon_ms)
            .unwrap()
            .format("%a %-d %b %Y %H:%M UTC")
            .to_string();
        let unzoned = player(&soon_players, "France");
        for token in [None, unzoned.token.as_deref()] {
            let (_, html, _) = page(&base, &format!("/games/{soon}"), token).await;
            assert!(html.contains(&format!(">{utc}</time>")), "{utc}");
            assert!(!html.contains("America/New_York"));
            let (_, lobby, _) = page(&base, "/", token).await;
            // (The zone's name is among those the new-game form offers.)
            assert!(
                lobby.contains(&utc) && !lobby.contains("America/New_York ("),
                "{utc} alone in the lobby"
            );
        }
    }
}
