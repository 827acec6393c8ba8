//! Diplomacy Points in a club game of 1936, over HTTP against the real server: bids are
//! checked as they arrive (rule 3), the highest total buys the minor unit's order
//! (rule 4), and who bid stays the GM's secret (rule 12).

mod common;

use common::{full_game, player, Api, Server};
use serde_json::{json, Value};

/// A page's status and HTML as `who` is shown it.
async fn page(who: &Api, path: &str) -> (u16, String) {
    let mut req = reqwest::Client::new().get(format!("{}{path}", who.base));
    if let Some(t) = &who.token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().await.expect("request");
    (resp.status().as_u16(), resp.text().await.expect("page text"))
}

fn bid(seq: i64, unit: &str, dp: i64, order: &str) -> Value {
    json!({"bids": [{"unit": unit, "dp": dp, "order": order}], "seq": seq})
}

#[tokio::test(flavor = "multi_thread")]
async fn the_higher_total_buys_the_minor_units_order_and_the_bidders_stay_secret() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("dp-gm").await;
        let (id, players) = full_game(&server, &gm, "1936", json!({}), "dp").await;
        let germany = player(&players, "Germany");
        let britain = player(&players, "Britain");
        let france = player(&players, "France");
        let observer = server.register("dp-observer").await;
        observer.post(&format!("/api/games/{id}/observe"), json!({})).await;

        // Rule 4: Germany's 2 DPs against Britain's 1 on the Dutch fleet; neither is a
        // patron of the Netherlands, so no client bonus changes the totals.
        let mine = germany
            .post(
                &format!("/api/games/{id}/bids"),
                bid(0, "Netherlands", 2, "F net - sns"),
            )
            .await;
        assert_eq!(mine["bids"][0]["dp"], 2, "{mine}");
        assert_eq!(
            mine["bids"][0]["order"], "F net - sns",
            "stored in the engine's notation: {mine}"
        );
        britain
            .post(
                &format!("/api/games/{id}/bids"),
                bid(0, "Netherlands", 1, "F Netherlands - ENG"),
            )
            .await;
        // France bids on Belgium, then attacks it: rule 3 makes the bid void at
        // adjudication, and the GM's report says so.
        france
            .post(&format!("/api/games/{id}/bids"), bid(0, "Belgium", 1, "A Belgium H"))
            .await;
        france
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A par - bel"], "seq": 0}),
            )
            .await;

        // Only the bidder and the GM read a power's bids before the phase either.
        let seen = france.get(&format!("/api/games/{id}/bids")).await;
        assert_eq!(seen["bids"].as_array().unwrap().len(), 1, "{seen}");
        assert_eq!(seen["bids"][0]["power"], "France");
        let (status, _) = france
            .call("GET", &format!("/api/games/{id}/bids?power=Germany"), None)
            .await;
        assert_eq!(status, 403);
        let (status, _) = observer.call("GET", &format!("/api/games/{id}/bids"), None).await;
        assert_eq!(status, 403);
        assert_eq!(
            gm.get(&format!("/api/games/{id}/bids")).await["bids"]
                .as_array()
                .unwrap()
                .len(),
            3
        );
        let (status, _) = france
            .call("GET", &format!("/api/games/{id}/gm/bid-report"), None)
            .await;
        assert_eq!(status, 403, "the bid report is the GM's alone");

        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;

        // The published result: the Dutch fleet carried out Germany's order, in the
        // Netherlands' own name.
        let phase = server.visitor().get(&format!("/api/games/{id}/phases/0")).await;
        let results = phase["result"]["results"].as_array().unwrap();
        let dutch: Vec<&Value> = results.iter().filter(|r| r["power"] == "Netherlands").collect();
        assert_eq!(dutch.len(), 1, "{phase}");
        assert_eq!(dutch[0]["order"], "F net - sns", "{phase}");
        assert_eq!(dutch[0]["succeeded"], true, "{phase}");
        // A minor unit's move is a sortie: it blocks the space and stays at home.
        assert_eq!(dutch[0]["outcome"], "sortie", "{phase}");
        // The Belgian army had only France's void bid, so it held (rule 4: no bid
        // counts, the unit holds).
        let belgian = results.iter().find(|r| r["power"] == "Belgium").unwrap();
        assert_eq!(belgian["order"], "A bel H", "{belgian}");
        assert_eq!(belgian["outcome"], "held", "{belgian}");

        // Nothing a player, observer or visitor can read says who bid (rule 12).
        let visitor = server.visitor();
        for who in [&visitor, &observer, france] {
            for path in ["", "/phases", "/phases/0", "/press"] {
                let (status, body) = who.call("GET", &format!("/api/games/{id}{path}"), None).await;
                if status != 200 {
                    continue;
                }
                let text = body.to_string();
                for secret in ["\"dp\"", "DP bids", "bid_report", "Germany 2", "Britain 1"] {
                    assert!(!text.contains(secret), "{path} shows `{secret}`: {text}");
                }
            }
            let (status, html) = page(who, &format!("/games/{id}/history/0")).await;
            assert_eq!(status, 200);
            assert!(!html.contains("bid-report"), "the history page shows the bid report");
            assert!(html.contains("F net - sns"), "the result is public: {html}");
        }
        let (status, _) = observer
            .call("GET", &format!("/api/games/{id}/gm/bid-report?seq=0"), None)
            .await;
        assert_eq!(status, 403);

        // The GM's report: every bid with its DPs, the void one with its reason.
        let report = gm.get(&format!("/api/games/{id}/gm/bid-report?seq=0")).await;
        assert_eq!(report["processed"], true);
        let text = report["report"].as_str().expect("a stored report");
        assert!(text.contains("Germany 2 DP = 2: F net - sns"), "{text}");
        assert!(text.contains("Britain 1 DP = 1: F net - eng"), "{text}");
        assert!(text.contains("void: France 1 DP A bel H"), "{text}");
        assert!(text.contains("France attacks Belgium"), "{text}");
        let (status, html) = page(&gm, &format!("/games/{id}/history/0")).await;
        assert_eq!(status, 200);
        assert!(html.contains(r#"id="bid-report""#), "the GM's history shows the report");
        let (status, html) = page(&gm, &format!("/games/{id}/gm")).await;
        assert_eq!(status, 200);
        assert!(html.contains(r#"id="bid-last""#), "the console shows the last report");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn bids_past_the_budget_or_on_an_attacked_minor_are_refused() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("dpr-gm").await;
        let (id, players) = full_game(&server, &gm, "1936", json!({}), "dpr").await;
        let germany = player(&players, "Germany");
        let observer = server.register("dpr-observer").await;
        observer.post(&format!("/api/games/{id}/observe"), json!({})).await;

        // Rule 2: Germany starts 1936 with the default budget of 3 DPs.
        let budget = germany.get(&format!("/api/games/{id}/budget")).await;
        let mine = &budget["budgets"][0];
        assert_eq!(mine["power"], "Germany");
        assert_eq!(mine["total"], 3, "{budget}");
        assert!(mine["lines"][0].as_str().unwrap().contains("base 3"), "{budget}");
        let all = gm.get(&format!("/api/games/{id}/budget")).await;
        assert_eq!(all["budgets"].as_array().unwrap().len(), 7, "every great power: {all}");
        let (status, _) = observer.call("GET", &format!("/api/games/{id}/budget"), None).await;
        assert_eq!(status, 403);
        let (status, _) = germany
            .call("GET", &format!("/api/games/{id}/budget?power=France"), None)
            .await;
        assert_eq!(status, 403);

        // Rule 3: 2 + 1 + 1 DPs is past the budget; nothing is stored, and the message
        // gives the budget with its reckoning.
        let (status, err) = germany
            .call(
                "POST",
                &format!("/api/games/{id}/bids"),
                Some(json!({"bids": [
                    {"unit": "Netherlands", "dp": 2, "order": "F net H"},
                    {"unit": "Belgium", "dp": 1, "order": "A bel H"},
                    {"unit": "Denmark", "dp": 1, "order": "F den H"},
                ], "seq": 0})),
            )
            .await;
        assert_eq!((status, err["code"].as_str()), (422, Some("over_budget")), "{err}");
        let message = err["error"].as_str().unwrap();
        assert!(message.contains("spend 4 DPs"), "{message}");
        assert!(
            message.contains(&format!("budget of {}", mine["summary"].as_str().unwrap())),
            "{message}"
        );
        assert_eq!(germany.get(&format!("/api/games/{id}/bids")).await["bids"], json!([]));

        // Bids add up across requests: 3 DPs stored, one more is past the budget.
        germany
            .post(&format!("/api/games/{id}/bids"), bid(0, "Netherlands", 2, "F net H"))
            .await;
        germany
            .post(&format!("/api/games/{id}/bids"), bid(0, "Belgium", 1, "A bel H"))
            .await;
        let (status, err) = germany
            .call(
                "POST",
                &format!("/api/games/{id}/bids"),
                Some(bid(0, "Denmark", 1, "F den H")),
            )
            .await;
        assert_eq!((status, err["code"].as_str()), (422, Some("over_budget")), "{err}");
        assert!(err["error"].as_str().unwrap().contains("budget of 3 DPs"), "{err}");
        // A removed bid frees its DPs.
        let left = germany
            .call("DELETE", &format!("/api/games/{id}/bids?unit=bel&seq=0"), None)
            .await;
        assert_eq!(left.0, 200, "{}", left.1);
        assert_eq!(left.1["bids"].as_array().unwrap().len(), 1);
        germany
            .post(&format!("/api/games/{id}/bids"), bid(0, "Denmark", 1, "F den H"))
            .await;

        // Rule 3: no bid on a minor the power's own orders attack.
        germany
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["F ham - den"], "seq": 0}),
            )
            .await;
        let (status, err) = germany
            .call(
                "POST",
                &format!("/api/games/{id}/bids"),
                Some(bid(0, "Denmark", 1, "F den - sns")),
            )
            .await;
        assert_eq!(status, 422, "{err}");
        let message = err["error"].as_str().unwrap();
        assert!(message.contains("Germany attacks Denmark"), "{message}");
        assert!(message.contains("may not bid"), "{message}");

        // The engine's parser speaks for an order it cannot read, and a bid on a great
        // power's unit is refused.
        let (status, err) = germany
            .call(
                "POST",
                &format!("/api/games/{id}/bids"),
                Some(bid(0, "Belgium", 1, "A bel - ")),
            )
            .await;
        assert_eq!(status, 422, "{err}");
        assert!(err["error"].as_str().unwrap().starts_with("bid `A bel - `: "), "{err}");
        let (status, err) = germany
            .call(
                "POST",
                &format!("/api/games/{id}/bids"),
                Some(bid(0, "Paris", 1, "A par H")),
            )
            .await;
        assert_eq!(status, 422, "{err}");
        assert!(err["error"].as_str().unwrap().contains("France"), "{err}");
    }
}

/// Rule 11 (1936): the GM's civil disorder is permanent in the DP variants. The power's
/// units are disbanded, each of its empty centres gets an army of a new independent
/// minor, those armies take other powers' bids, and nobody plays the power again.
#[tokio::test(flavor = "multi_thread")]
async fn civil_disorder_turns_a_great_power_into_independent_minors() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("cd-gm").await;
        let (id, players) = full_game(&server, &gm, "1936", json!({}), "cd").await;
        let france = player(&players, "France");
        let germany = player(&players, "Germany");
        france
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A par - bur"], "seq": 0}),
            )
            .await;

        // Rule 11 urges the GM to find a replacement first: `permanent: false` only ends
        // the seat and leaves the power as it is, to be given to someone else.
        let units_before = gm.get(&format!("/api/games/{id}")).await["state"]["units"].clone();
        let lapsed = gm
            .post(
                &format!("/api/games/{id}/gm/civil-disorder"),
                json!({"power": "Britain", "permanent": false}),
            )
            .await;
        assert_eq!(lapsed["permanent"], false, "{lapsed}");
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert!(game["state"]["disordered"].is_null(), "{game}");
        assert_eq!(game["state"]["units"], units_before);
        let stand_in = server.register("cd-stand-in").await;
        stand_in
            .post(&format!("/api/games/{id}/join"), json!({"power": "Britain"}))
            .await;

        let declared = gm
            .post(
                &format!("/api/games/{id}/gm/civil-disorder"),
                json!({"power": "France"}),
            )
            .await;
        assert_eq!(declared["permanent"], true, "{declared}");
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["state"]["disordered"], json!(["France"]), "{game}");
        // France's five units are gone; its five centres stood empty, so each has an army.
        let mut french: Vec<String> = game["state"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["power"] == "France")
            .map(|u| format!("{} {}", u["type"].as_str().unwrap(), u["location"].as_str().unwrap()))
            .collect();
        french.sort();
        assert_eq!(french, ["A alg", "A bre", "A leb", "A mar", "A par"], "{game}");
        // The French order given before is gone with its unit.
        let all = gm.get(&format!("/api/games/{id}/gm/orders")).await;
        assert!(!all.to_string().contains("par - bur"), "{all}");

        // The old player orders no more, nobody takes France, and the GM cannot bid in
        // its name ("it may not be played by an active player again").
        let (status, _) = france
            .call(
                "POST",
                &format!("/api/games/{id}/orders"),
                Some(json!({"orders": ["A par H"], "seq": 0})),
            )
            .await;
        assert_eq!(status, 403);
        let newcomer = server.register("cd-newcomer").await;
        let (status, body) = newcomer
            .call(
                "POST",
                &format!("/api/games/{id}/join"),
                Some(json!({"power": "France"})),
            )
            .await;
        assert_eq!(status, 409, "{body}");
        assert!(body["error"].as_str().unwrap().contains("rule 11"), "{body}");
        let mut french_bid = bid(0, "Belgium", 1, "A bel H");
        french_bid["power"] = json!("France");
        let (status, body) = gm
            .call("POST", &format!("/api/games/{id}/bids"), Some(french_bid))
            .await;
        assert_eq!(status, 422, "{body}");
        let (status, _) = gm
            .call(
                "POST",
                &format!("/api/games/{id}/gm/civil-disorder"),
                Some(json!({"power": "France"})),
            )
            .await;
        assert_eq!(status, 409, "declared once");

        // Germany buys the Parisian army's order like any minor's (rule 4): a sortie.
        germany
            .post(&format!("/api/games/{id}/bids"), bid(0, "Paris", 1, "A par - bur"))
            .await;
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let phase = server.visitor().get(&format!("/api/games/{id}/phases/0")).await;
        let results = phase["result"]["results"].as_array().unwrap();
        let paris = results
            .iter()
            .find(|r| r["power"] == "France" && r["unit"] == "A par")
            .unwrap_or_else(|| panic!("{phase}"));
        assert_eq!(paris["order"], "A par - bur", "{paris}");
        assert_eq!(paris["outcome"], "sortie", "{paris}");
        // Unbought, the army in Marseille holds, and the result says so.
        let marseille = results.iter().find(|r| r["unit"] == "A mar").unwrap();
        assert_eq!(marseille["outcome"], "held", "{marseille}");
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["state"]["disordered"], json!(["France"]), "still in disorder");

        // A declaration the GM takes back with the phase before it: Germany's units
        // return with the position, and its player has the seat back.
        gm.post(
            &format!("/api/games/{id}/gm/civil-disorder"),
            json!({"power": "Germany"}),
        )
        .await;
        gm.post(&format!("/api/games/{id}/gm/rollback"), json!({})).await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["state"]["disordered"], json!(["France"]), "{game}");
        let germany_view = game["powers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "Germany")
            .unwrap()
            .clone();
        assert_eq!(germany_view["civil_disorder"], false, "{germany_view}");
        assert!(germany_view["units"].as_u64().unwrap() > 0);
        germany
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A ber H"], "seq": 0}),
            )
            .await;
        let heir = server.register("cd-heir").await;
        let (status, _) = heir
            .call(
                "POST",
                &format!("/api/games/{id}/join"),
                Some(json!({"power": "Germany"})),
            )
            .await;
        assert_eq!(status, 409, "Germany's seat is taken again");

        // Rule 8: Italy's player also orders Nationalist Spain. With Italy in permanent
        // disorder nobody would, so the faction falls into disorder with it, and the
        // faction's order already given goes too.
        let italy = player(&players, "Italy");
        italy
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["A brg H"], "seq": 0}),
            )
            .await;
        gm.post(&format!("/api/games/{id}/gm/civil-disorder"), json!({"power": "Italy"}))
            .await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            game["state"]["disordered"],
            json!(["France", "Italy", "Nationalist Spain"]),
            "{game}"
        );
        let all = gm.get(&format!("/api/games/{id}/gm/orders")).await;
        assert!(!all.to_string().contains("brg H"), "{all}");
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await.to_string();
        assert!(events.contains("rule 8: Nationalist Spain"), "{events}");
    }
}

/// 1936, the Spanish Civil War: "the Soviet player submits orders for Republican Spain",
/// and the two are "separate powers" for everything but victory, so the faction's Winter
/// is its own. The Soviet player moves the Republican army into Madrid with the
/// faction's name before the order, builds for the faction in the Winter with the same
/// prefix, reads those lines back among its own orders, and the build stands; until
/// the Soviet player is ready, the Winter waits for it.
#[tokio::test(flavor = "multi_thread")]
async fn the_soviet_player_writes_republican_spains_orders_and_its_winter_build() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("rs-gm").await;
        let (id, players) = full_game(&server, &gm, "1936", json!({}), "rs").await;
        let soviet = player(&players, "Soviet Union");
        let italy = player(&players, "Italy");
        let orders = format!("/api/games/{id}/orders");

        soviet
            .post(&orders, json!({"orders": ["Republican Spain: A val - mad"], "seq": 0}))
            .await;
        // Italy cannot write for the Republicans, nor the Soviet Union for Italy's faction.
        for (who, text) in [
            (italy, "Republican Spain: A val H"),
            (soviet, "Nationalist Spain: A brg H"),
        ] {
            let (status, body) = who
                .call("POST", &orders, Some(json!({"orders": [text], "seq": 0})))
                .await;
            assert_eq!(
                (status, body["code"].as_str()),
                (422, Some("invalid_order")),
                "{text}: {body}"
            );
        }
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;

        // Winter 1936: Madrid is Republican, Valencia empty; one build for the faction.
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["state"]["phase"], "W1936A", "{game}");
        let seq = game["seq"].as_i64().unwrap();
        // Only the Republicans adjust, and their build is the Soviet player's to give: with
        // every other player ready, the phase still waits for the Soviet player.
        for (name, other) in players.iter().filter(|(name, _)| name != "Soviet Union") {
            let mark = other.post(&format!("/api/games/{id}/ready"), json!({"seq": seq})).await;
            assert_eq!(
                (mark["all_ready"].as_bool(), mark["processed"].as_bool()),
                (Some(false), Some(false)),
                "{name}: {mark}"
            );
        }
        let written = soviet
            .post(
                &orders,
                json!({"orders": ["Republican Spain: Build A val"], "seq": seq, "replace": true}),
            )
            .await;
        let lines: Vec<&str> = written["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["order"].as_str().unwrap())
            .collect();
        assert_eq!(lines, ["Republican Spain: Build A val"], "{written}");
        let listed = soviet.get(&orders).await;
        assert_eq!(listed["orders"], written["orders"], "read back as written");
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;

        let game = gm.get(&format!("/api/games/{id}")).await;
        let mut republican: Vec<String> = game["state"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["power"] == "Republican Spain")
            .map(|u| format!("{} {}", u["type"].as_str().unwrap(), u["location"].as_str().unwrap()))
            .collect();
        republican.sort();
        assert_eq!(republican, ["A mad", "A val"], "{game}");
    }
}
