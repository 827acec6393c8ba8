//! The GM console over plain HTTP (the browser tests click through it): the map as it
//! stands, every power's orders and who has not marked ready, missed orders, the tools
//! the game's status allows, and every value a player or the GM typed escaped.

mod common;

use common::Server;
use serde_json::json;

async fn console(base: &str, id: i64, token: Option<&str>) -> (u16, String) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut req = client.get(format!("{base}/games/{id}/gm"));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.expect("request");
    (resp.status().as_u16(), resp.text().await.unwrap())
}

/// The part of `html` from `start` to the end of its element `tag` (no nesting of the
/// same tag inside).
fn element<'a>(html: &'a str, start: &str, tag: &str) -> &'a str {
    let at = html
        .find(start)
        .unwrap_or_else(|| panic!("no `{start}` in the console"));
    let rest = &html[at..];
    let close = format!("</{tag}>");
    &rest[..rest.find(&close).map_or(rest.len(), |i| i + close.len())]
}

#[tokio::test]
async fn the_console_shows_the_map_the_orders_and_the_tools_the_status_allows() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let base = server.base.clone();
    let gm = server.register("gm-console").await;
    let hostile = r#"Console <b>"one"</b> & 'two'"#;
    let game = gm
        .post("/api/games", json!({"name": hostile, "variant": "standard"}))
        .await;
    let id = game["id"].as_i64().unwrap();
    let token = gm.token.as_deref();

    // Forming: only the start among the tools that run the game.
    let (status, forming) = console(&base, id, token).await;
    assert_eq!(status, 200);
    assert!(forming.contains(r#"id="gm-start""#), "a forming game can be started");
    assert!(!forming.contains(r#"id="gm-process""#) && !forming.contains(r#"id="gm-pause""#));
    assert!(forming.contains("Starts when every power has a player."));

    let powers = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"];
    let mut players = Vec::new();
    for (i, power) in powers.iter().enumerate() {
        let api = server.register(&format!("console-p{i}")).await;
        api.post(&format!("/api/games/{id}/join"), json!({"power": power}))
            .await;
        players.push(api);
    }
    let england = &players[1];
    england
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"orders": ["F lon - nth", "A lvp - yor"], "seq": 0}),
        )
        .await;
    england
        .post(&format!("/api/games/{id}/ready"), json!({"phase": "S1901M"}))
        .await;

    let (status, html) = console(&base, id, token).await;
    assert_eq!(status, 200);
    // What the GM or a player typed is text, never markup.
    assert!(!html.contains("<b>"), "the game's name is escaped");
    assert!(
        html.contains("<h1>GM console: Console &#60;b&#62;&#34;one&#34;&#60;/b&#62; &#38; &#39;two&#39;</h1>"),
        "{}",
        element(&html, "<h1>", "h1")
    );
    // The map as it stands, with its legend: Standard's opening
    // gives each power three centres and three units (Russia four).
    let map = element(&html, r#"<figure class="map""#, "figure");
    assert!(
        map.contains("<svg") && map.contains(r#"data-phase="S1901M""#),
        "the map is drawn"
    );
    assert!(
        map.contains(r#"aria-label="Map of Console &#60;b&#62;"#),
        "its label is escaped: {}",
        &map[..200.min(map.len())]
    );
    assert!(html.contains(r#"<li class="legend-power" data-power="England" data-centres="3" data-units="3">"#));
    assert!(html.contains(r#"<li class="legend-power" data-power="Russia" data-centres="4" data-units="4">"#));
    // No order of this phase on the map: it shows the position; the orders are listed.
    assert!(!map.contains(r#"class="order "#));
    let orders = element(&html, r#"<div data-power="England">"#, "div");
    assert!(
        orders.contains("<li>F lon - nth</li>") && orders.contains("<li>A lvp - yor</li>"),
        "{orders}"
    );
    // England is ready; the six others have a decision and have not marked ready.
    let waiting = element(&html, r#"<p id="waiting">"#, "p");
    assert!(!waiting.contains("England"), "{waiting}");
    for p in ["Austria", "France", "Germany", "Italy", "Russia", "Turkey"] {
        assert!(waiting.contains(p), "{p} is waited for: {waiting}");
    }
    let seat = element(&html, r#"<tr data-power="England">"#, "tr");
    assert!(seat.contains("console-p1") && seat.contains("ready"), "{seat}");
    // Running: process, extend and pause; no start, no resume; no DP bids in Standard.
    for tool in [
        "gm-process",
        "gm-extend",
        "gm-pause",
        "gm-rollback",
        "gm-replace",
        "gm-end",
        "gm-settings",
    ] {
        assert!(html.contains(&format!(r#"id="{tool}""#)), "{tool}");
    }
    assert!(!html.contains(r#"id="gm-start""#) && !html.contains(r#"id="gm-resume""#));
    assert!(!html.contains(r#"id="bids-h""#), "bids are for DP variants");
    assert!(html.contains(r#"<p class="deadline">Deadline in"#));
    // Standard has no minor powers: civil disorder is not rule 11's.
    assert!(!html.contains("Permanent (rule 11)"));
    // The settings form starts from the game's settings, its name escaped in the value.
    assert!(html.contains(r#"value="Console &#60;b&#62;&#34;one&#34;&#60;/b&#62; &#38; &#39;two&#39;""#));
    assert!(html.contains(r#"<option value="full" selected>"#));

    // Processed: the six who gave no orders missed S1901M; England did not.
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    gm.post(&format!("/api/games/{id}/gm/pause"), json!({})).await;
    let (_, html) = console(&base, id, token).await;
    let missed = element(&html, r#"<table id="missed">"#, "table");
    assert!(!missed.contains("England"), "{missed}");
    assert!(
        missed.contains(r#"<tr><th scope="row">France</th><td>1</td><td>S1901M</td></tr>"#),
        "{missed}"
    );
    // England's fleet is in the North Sea on the map now.
    assert!(html.contains(r#"data-phase="F1901M""#));
    // Paused: resume instead of pause and extend.
    assert!(html.contains(r#"id="gm-resume""#) && !html.contains(r#"id="gm-pause""#));
    assert!(!html.contains(r#"id="gm-extend""#));
    assert!(html.contains("Paused by the GM"));
    // The event log, newest first.
    let log = element(&html, r#"<table class="events">"#, "table");
    let (paused, processed) = (log.find("<td>paused</td>"), log.find("<td>processed</td>"));
    assert!(paused.is_some() && processed.is_some() && paused < processed, "{log}");

    // Over: no tools to end it or change its settings.
    gm.post(
        &format!("/api/games/{id}/gm/end"),
        json!({"result": "draw", "powers": ["England", "France"]}),
    )
    .await;
    let (_, html) = console(&base, id, token).await;
    assert!(!html.contains(r#"id="gm-end""#) && !html.contains(r#"id="gm-settings""#));
    assert!(!html.contains(r#"id="gm-process""#));
    assert!(
        html.contains("Game over"),
        "{}",
        element(&html, r#"<div class="game-head">"#, "div")
    );
}

/// DP rule 12: the bids on each minor unit are the GM's alone, on the console, and the
/// civil-disorder tool offers rule 11's permanent disorder.
#[tokio::test]
async fn a_dp_console_has_the_bid_section() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let base = server.base.clone();
    let gm = server.register("gm-dp-console").await;
    let (id, players) = common::full_game(&server, &gm, "1936", json!({}), "dpc").await;
    let germany = common::player(&players, "Germany");
    let bid = germany
        .post(
            &format!("/api/games/{id}/bids"),
            json!({"bids": [{"unit": "bel", "dp": 2, "order": "A bel H"}], "seq": 0}),
        )
        .await;
    assert!(bid.get("error").is_none(), "{bid}");
    let (status, html) = console(&base, id, gm.token.as_deref()).await;
    assert_eq!(status, 200);
    let row = element(&html, r#"<tr data-unit="bel">"#, "tr");
    assert!(row.contains("Belgium") && row.contains("BEL"), "{row}");
    assert!(row.contains("Germany 2: A bel H"), "{row}");
    assert!(row.contains(r#"<td class="num">2</td>"#), "{row}");
    assert!(html.contains("Permanent (rule 11)"));
    // The player is refused the console, with a page saying why.
    let (status, refused) = console(&base, id, germany.token.as_deref()).await;
    assert_eq!(status, 403);
    assert!(refused.contains("only the game&#39;s GM") && !refused.contains("data-unit"));
}
