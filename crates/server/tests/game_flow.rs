//! A game driven over HTTP from creation through several phases: orders validated on
//! arrival, secrecy before processing, deadlines, ready marks, results and history,
//! rollback and roll forward.

mod common;

use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::GameState;
use common::{full_game, player, Server};
use serde_json::{json, Value};

/// The message the engine gives for an order, so the test checks the server passes it on
/// unchanged.
fn engine_message(power: &str, text: &str) -> String {
    let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
    let p = v.find_power(power).unwrap();
    let state = GameState::initial(&v);
    match parse_order(&v, p, text).and_then(|o| validate(&v, &state, &o)) {
        Ok(_) => panic!("`{text}` is a legal order"),
        Err(e) => e.to_string(),
    }
}

fn result_for<'a>(result: &'a Value, unit: &str) -> &'a Value {
    result["result"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["unit"] == unit)
        .unwrap_or_else(|| panic!("no result for {unit}: {result}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn orders_deadlines_ready_marks_and_rollback() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("the-gm").await;
        let (id, players) = full_game(
            &server,
            &gm,
            "standard",
            json!({"deadlines": {"movement_minutes": 60, "retreat_minutes": 30, "adjustment_minutes": 30}}),
            "p",
        )
        .await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        // The game starts when every power has a player, with the first deadline set.
        assert_eq!(game["status"], "active");
        assert_eq!(game["phase"], "S1901M");
        assert!(
            game["deadline"].as_str().unwrap().ends_with('Z'),
            "deadlines are shown in UTC"
        );
        let england = player(&players, "England");
        let france = player(&players, "France");
        let path = format!("/api/games/{id}/orders");

        // Good orders are stored in canonical notation.
        let out = england
            .post(
                &path,
                json!({"orders": ["F lon - nth", "a LVP-yor", "F edi - nwg"], "phase": "S1901M"}),
            )
            .await;
        let texts: Vec<&str> = out["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["order"].as_str().unwrap())
            .collect();
        assert_eq!(
            texts,
            ["F edi - nwg", "F lon - nth", "A lvp - yor"],
            "listed by province"
        );

        // A bad order comes back with the engine's own message, and nothing is stored.
        let (status, err) = england
            .call(
                "POST",
                &path,
                Some(json!({"orders": ["F lon - eng", "A lvp - mun"], "phase": "S1901M"})),
            )
            .await;
        assert_eq!(status, 422);
        assert_eq!(err["error"], engine_message("England", "A lvp - mun"));
        assert_eq!(err["refused"][0]["order"], "A lvp - mun");
        // Rulebook: a power orders only its own units.
        let (status, err) = france
            .call(
                "POST",
                &path,
                Some(json!({"orders": ["F lon - eng"], "phase": "S1901M"})),
            )
            .await;
        assert_eq!(status, 422);
        assert_eq!(err["error"], engine_message("France", "F lon - eng"));
        let now = england.get(&path).await;
        assert_eq!(
            now["orders"].as_array().unwrap().len(),
            3,
            "a refused request changes nothing"
        );

        // A new order for a unit replaces its old one; one unit's order can be cleared.
        england
            .post(&path, json!({"orders": ["F lon - eng"], "phase": "S1901M"}))
            .await;
        let (status, _) = england
            .call("DELETE", &format!("{path}?unit=edi&phase=S1901M"), None)
            .await;
        assert_eq!(status, 200);
        let now = england.get(&path).await;
        let texts: Vec<&str> = now["orders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["order"].as_str().unwrap())
            .collect();
        assert_eq!(texts, ["F lon - eng", "A lvp - yor"]);

        // Secrecy before processing: nobody but England and the GM sees England's orders.
        let (status, _) = france.call("GET", &format!("{path}?power=England"), None).await;
        assert_eq!(status, 403);
        assert_eq!(france.get(&path).await["orders"], json!([]));
        let (status, _) = france.call("GET", &format!("/api/games/{id}/gm/orders"), None).await;
        assert_eq!(status, 403);
        let (status, _) = server.visitor().call("GET", &path, None).await;
        assert_eq!(status, 401);
        let observer = server.register("watcher").await;
        observer.post(&format!("/api/games/{id}/observe"), json!({})).await;
        let (status, _) = observer.call("GET", &path, None).await;
        assert_eq!(status, 403);
        for who in [france, &observer, &server.visitor()] {
            for p in ["", "/press", "/phases"] {
                let text = who.get(&format!("/api/games/{id}{p}")).await.to_string();
                assert!(
                    !text.contains("lon - eng") && !text.contains("lvp - yor"),
                    "{p} leaks orders: {text}"
                );
            }
        }
        let all = gm.get(&format!("/api/games/{id}/gm/orders")).await;
        assert_eq!(all["orders"].as_array().unwrap().len(), 2);

        // The deadline passes: the phase is processed; nobody was dislodged, so the
        // spring retreat phase is skipped.
        france
            .post(&path, json!({"orders": ["A par - pic"], "phase": "S1901M"}))
            .await;
        // Either this call or the background scheduler processes the phase (whichever
        // claims it first); the call returns only once the due work is done.
        server.advance(61 * 60_000).await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["phase"], "F1901M");
        let s1901 = server.visitor().get(&format!("/api/games/{id}/phases/0")).await;
        assert_eq!(s1901["phase"], "S1901M");
        assert_eq!(s1901["how"], "deadline");
        let lon = result_for(&s1901, "F lon");
        assert_eq!(lon["order"], "F lon - eng");
        assert_eq!(lon["outcome"], "moved");
        assert!(!lon["reason"].as_str().unwrap().is_empty());
        // A unit without orders holds (rulebook: units not ordered hold).
        assert_eq!(result_for(&s1901, "F edi")["outcome"], "held");
        assert_eq!(result_for(&s1901, "A par")["order"], "A par - pic");
        assert_eq!(s1901["centres"]["England"], 3);
        // Who gave no orders is public ("no moves received"); the GM's console keeps
        // the tally.
        assert_eq!(
            s1901["missing"],
            json!(["Austria", "Germany", "Italy", "Russia", "Turkey"]),
            "{s1901}"
        );
        let listed = server.visitor().get(&format!("/api/games/{id}/phases")).await;
        assert_eq!(listed["phases"][0]["missing"], s1901["missing"]);
        let console = reqwest::Client::new()
            .get(format!("{}/games/{id}/gm", server.base))
            .bearer_auth(gm.token.as_deref().unwrap())
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            console.contains(r#"id="missed""#) && console.contains("S1901M"),
            "{console}"
        );

        // Early processing: when every power with a choice is ready, no need to wait.
        for (_, p) in &players {
            p.post(&format!("/api/games/{id}/ready"), json!({"phase": "F1901M"}))
                .await;
        }
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["seq"], 2, "all ready processed the phase: {game}");
        let f1901 = gm.get(&format!("/api/games/{id}/phases/1")).await;
        assert_eq!(f1901["how"], "all ready");
        // Nobody gained a centre by moving, so no adjustments: winter is skipped too.
        assert_eq!(game["phase"], "S1902M");

        // Rollback returns to the fall with its orders; roll forward restores the result.
        let (status, _) = england
            .call("POST", &format!("/api/games/{id}/gm/rollback"), None)
            .await;
        assert_eq!(status, 403, "only the GM rolls back");
        gm.post(&format!("/api/games/{id}/gm/rollback"), json!({})).await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["phase"], "F1901M");
        assert_eq!(game["seq"], 1);
        let (status, _) = gm.call("GET", &format!("/api/games/{id}/phases/1"), None).await;
        assert_eq!(status, 404, "the rolled-back result is no longer published");
        let forward = gm.post(&format!("/api/games/{id}/gm/rollforward"), json!({})).await;
        assert_eq!(
            forward["readjudicated"], false,
            "nothing changed: the old result returns"
        );
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["phase"], "S1902M");
        assert_eq!(gm.get(&format!("/api/games/{id}/phases/1")).await["how"], "all ready");
        // An order changed after a rollback: rolling forward publishes the result of the
        // orders as they stand now, never the stale one.
        gm.post(&format!("/api/games/{id}/gm/rollback"), json!({})).await;
        england
            .post(&path, json!({"orders": ["F eng - bre"], "phase": "F1901M"}))
            .await;
        let forward = gm.post(&format!("/api/games/{id}/gm/rollforward"), json!({})).await;
        assert_eq!(forward["readjudicated"], true);
        let f1901 = gm.get(&format!("/api/games/{id}/phases/1")).await;
        assert_eq!(result_for(&f1901, "F eng")["order"], "F eng - bre");
        assert_eq!(f1901["how"], "gm: rolled forward with changed orders");
        // Roll back again and process anew: the phase's fresh result replaces the old.
        gm.post(&format!("/api/games/{id}/gm/rollback"), json!({})).await;
        england
            .post(&path, json!({"orders": ["F eng H"], "phase": "F1901M"}))
            .await;
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let f1901 = gm.get(&format!("/api/games/{id}/phases/1")).await;
        assert_eq!(result_for(&f1901, "F eng")["order"], "F eng H");
        let (status, _) = gm.call("POST", &format!("/api/games/{id}/gm/rollforward"), None).await;
        assert_eq!(status, 409, "nothing to roll forward after reprocessing");

        // The event log shows each phase processed once per pass, never twice in a row.
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await;
        let processed: Vec<i64> = events["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "processed")
            .map(|e| e["seq"].as_i64().unwrap())
            .collect();
        assert_eq!(processed, [0, 1, 1]);
        let history = server.visitor().get(&format!("/api/games/{id}/phases")).await;
        assert_eq!(history["phases"].as_array().unwrap().len(), 2);
    }
}

/// 1936: the Italian player also orders Nationalist Spain, the Soviet player Republican
/// Spain (the variant's `player` links); nobody else may order those units.
#[tokio::test(flavor = "multi_thread")]
async fn faction_units_are_ordered_by_their_patrons_player() {
    let target = common::targets().await.remove(0);
    let server = Server::start(&target.url);
    let gm = server.register("faction-gm").await;
    let variants = server.visitor().get("/api/variants").await;
    let names: Vec<&str> = variants["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    if !names.contains(&"1936") {
        eprintln!("note: the 1936 variant is not built in yet; skipping");
        return;
    }
    let (id, players) = full_game(&server, &gm, "1936", json!({}), "spain").await;
    let game = gm.get(&format!("/api/games/{id}")).await;
    let factions: Vec<&Value> = game["powers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| !p["ordered_by"].is_null())
        .collect();
    assert!(!factions.is_empty(), "1936 has factions played by a great power");
    for faction in factions {
        let name = faction["name"].as_str().unwrap();
        let patron = faction["ordered_by"].as_str().unwrap();
        let Some(unit) = game["state"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["power"] == name)
        else {
            continue;
        };
        let order = format!(
            "{} {} H",
            unit["type"].as_str().unwrap(),
            unit["location"].as_str().unwrap()
        );
        let out = player(&players, patron)
            .post(&format!("/api/games/{id}/orders"), json!({"orders": [order], "seq": 0}))
            .await;
        assert_eq!(
            out["orders"].as_array().unwrap().len(),
            1,
            "{patron} orders {name}'s unit"
        );
        let other = players.iter().find(|(p, _)| p != patron).unwrap();
        let (status, _) = other
            .1
            .call(
                "POST",
                &format!("/api/games/{id}/orders"),
                Some(json!({"orders": [order], "seq": 0})),
            )
            .await;
        assert_eq!(status, 422, "{} may not order {name}'s unit", other.0);
    }
}

/// Deadlines at a fixed time of day in the GM's zone, stored in UTC and shown in the
/// viewer's zone beside it.
#[tokio::test(flavor = "multi_thread")]
async fn deadlines_at_a_time_of_day_in_a_zone() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("clock-gm").await;
        let (status, err) = gm
            .call(
                "POST",
                "/api/games",
                Some(json!({"name": "x", "deadlines": {"at": "20:00", "time_zone": "Mars/Olympus"}})),
            )
            .await;
        assert_eq!(status, 422, "{err}");
        let options = json!({"deadlines": {"movement_minutes": 120, "at": "20:00", "time_zone": "Europe/Berlin"}});
        let (id, _players) = full_game(&server, &gm, "standard", options, "tz").await;
        let now = server.visitor().get("/api/test/clock").await["now_ms"]
            .as_i64()
            .unwrap();
        let game = server.visitor().get(&format!("/api/games/{id}?tz=Europe/Berlin")).await;
        let deadline = game["deadline_ms"].as_i64().unwrap();
        assert!(deadline >= now + 119 * 60_000, "at least the phase's length away");
        assert!(
            deadline <= now + (120 + 25 * 60) * 60_000,
            "and the first 20:00 after that"
        );
        assert!(
            game["deadline"].as_str().unwrap().ends_with('Z'),
            "stored and shown in UTC"
        );
        let local = game["deadline_local"]["time"].as_str().unwrap();
        assert!(local.contains("T20:00:00+0"), "20:00 in Berlin: {local}");
        let ny = server
            .visitor()
            .get(&format!("/api/games/{id}?tz=America/New_York"))
            .await;
        assert!(
            ny["deadline_local"]["time"].as_str().unwrap().contains("T14:00:00-0"),
            "{ny}"
        );
        let (status, _) = server
            .visitor()
            .call("GET", &format!("/api/games/{id}?tz=Nowhere/Else"), None)
            .await;
        assert_eq!(status, 422);
        // The next phase's deadline also falls at 20:00 Berlin.
        server.advance(deadline - now + 1).await;
        let game = server.visitor().get(&format!("/api/games/{id}?tz=Europe/Berlin")).await;
        assert_eq!(game["seq"], 1);
        assert!(game["deadline_local"]["time"].as_str().unwrap().contains("T20:00:00+0"));
    }
}

/// Players end a game as a draw among the survivors when every surviving player has
/// voted for it (as webDiplomacy and Backstabbr let them); until then a vote is known only
/// to its player and the GM.
#[tokio::test(flavor = "multi_thread")]
async fn players_end_the_game_by_voting_a_draw() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("vote-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "voter").await;
        let vote = format!("/api/games/{id}/draw-vote");
        let observer = server.register("vote-observer").await;
        observer.post(&format!("/api/games/{id}/observe"), json!({})).await;
        let (status, _) = observer.call("POST", &vote, None).await;
        assert_eq!(status, 403, "only players vote");

        let (last, rest) = players.split_last().unwrap();
        for (_, p) in rest {
            let r = p.post(&vote, json!({})).await;
            assert!(r["outcome"].is_null(), "not everyone has voted: {r}");
        }
        // Taking a vote back and giving it again.
        rest[0].1.call("DELETE", &vote, None).await;
        let view = rest[0].1.get(&format!("/api/games/{id}")).await;
        assert_eq!(view["you"]["draw_vote"], false);
        rest[0].1.post(&vote, json!({})).await;

        // Secret: the last player sees only that they have not voted, observers and
        // visitors nothing; the GM sees every vote.
        let view = last.1.get(&format!("/api/games/{id}")).await;
        assert_eq!(view["you"]["draw_vote"], false);
        assert!(!view.to_string().contains("draw_votes"), "{view}");
        for who in [&observer, &server.visitor()] {
            let text = who.get(&format!("/api/games/{id}")).await.to_string();
            assert!(!text.contains("draw_vote"), "{text}");
        }
        let gm_view = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(gm_view["you"]["draw_votes"].as_array().unwrap().len(), rest.len());
        assert_eq!(gm_view["status"], "active");

        let r = last.1.post(&vote, json!({})).await;
        let outcome = r["outcome"].as_str().expect("the last vote ends the game");
        assert_eq!(
            outcome,
            "draw: Austria, England, France, Germany, Italy, Russia, Turkey"
        );
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["status"], "finished");
        assert_eq!(game["outcome"], outcome);
        let press = server
            .visitor()
            .get(&format!("/api/games/{id}/press"))
            .await
            .to_string();
        assert!(press.contains("the players' vote"), "announced to all: {press}");
        let (status, _) = last.1.call("POST", &vote, None).await;
        assert_eq!(status, 409, "the game is over");
    }
}

/// Orders change "until the deadline": once it has passed, a player's
/// submission is refused even while the phase waits for the scheduler, and the phase is
/// judged on the orders as they stood at the deadline. The GM may still correct them.
#[tokio::test(flavor = "multi_thread")]
async fn orders_close_at_the_deadline() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        // A scheduler that sleeps for an hour: the deadline passes and nothing runs.
        let server = Server::start_with(
            &target.url,
            &["--test-clock", "--no-demo", "--tick-ms", "3600000", "--rate", "100000"],
        );
        let gm = server.register("late-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "late").await;
        let england = player(&players, "England");
        let orders = format!("/api/games/{id}/orders");
        england
            .post(&orders, json!({"orders": ["F lon - nth"], "phase": "S1901M"}))
            .await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        let now = server.visitor().get("/api/test/clock").await["now_ms"]
            .as_i64()
            .unwrap();
        let late = game["deadline_ms"].as_i64().unwrap() - now + 1;
        let (status, _) = server
            .visitor()
            .call("POST", "/api/test/clock", Some(json!({"ms": late, "hold": true})))
            .await;
        assert_eq!(status, 200);

        let (status, body) = england
            .call(
                "POST",
                &orders,
                Some(json!({"orders": ["F lon - eng"], "phase": "S1901M"})),
            )
            .await;
        assert_eq!(status, 409, "{body}");
        assert!(body["error"].as_str().unwrap().contains("deadline passed"), "{body}");
        let (status, _) = england.call("DELETE", &format!("{orders}?seq=0"), None).await;
        assert_eq!(status, 409, "clearing is a change too");
        // The GM corrects Germany's orders before processing.
        gm.post(
            &orders,
            json!({"orders": ["A ber - kie"], "power": "Germany", "phase": "S1901M"}),
        )
        .await;

        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let phase = server.visitor().get(&format!("/api/games/{id}/phases/0")).await;
        assert_eq!(result_for(&phase, "F lon")["order"], "F lon - nth");
        assert_eq!(result_for(&phase, "A ber")["order"], "A ber - kie");
    }
}

/// Leaving: a player may give up a power while the game forms (the seat is vacant again
/// for someone else), an observer may stop following at any time; once the game runs a
/// player can't walk out (the GM replaces players), and the GM can't leave at all.
#[tokio::test(flavor = "multi_thread")]
async fn players_leave_a_forming_game_and_observers_any_game() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("leave-gm").await;
        let game = gm
            .post("/api/games", json!({"name": "Leaving", "variant": "standard"}))
            .await;
        let id = game["id"].as_i64().unwrap();
        let leave = format!("/api/games/{id}/leave");
        let first = server.register("leave-first").await;
        first
            .post(&format!("/api/games/{id}/join"), json!({"power": "Italy"}))
            .await;
        let left = first.post(&leave, json!({})).await;
        assert_eq!(left["left"], "Italy", "{left}");
        let view = gm.get(&format!("/api/games/{id}")).await;
        let italy = view["powers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "Italy")
            .unwrap();
        assert_ne!(italy["has_player"], true, "Italy is vacant again: {italy}");
        let second = server.register("leave-second").await;
        second
            .post(&format!("/api/games/{id}/join"), json!({"power": "Italy"}))
            .await;

        let watcher = server.register("leave-watcher").await;
        watcher.post(&format!("/api/games/{id}/observe"), json!({})).await;
        assert_eq!(watcher.post(&leave, json!({})).await["left"], "observer");
        let (status, _) = watcher.call("POST", &leave, None).await;
        assert_eq!(status, 409, "no longer part of the game");
        let (status, body) = gm.call("POST", &leave, None).await;
        assert_eq!(status, 409, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("hand it to another GM"),
            "{body}"
        );

        gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;
        let (status, body) = second.call("POST", &leave, None).await;
        assert_eq!(status, 409, "{body}");
        assert!(body["error"].as_str().unwrap().contains("ask the GM"), "{body}");
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await;
        assert!(
            events["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["kind"] == "left" && e["detail"] == "Italy"),
            "{events}"
        );
    }
}

/// The GM changes a running game's settings: the press rules at once, the deadline
/// schedule from the next phase (the deadline already set stays), a fixed time of day
/// added and dropped again; anonymity can't change, and only the GM may do this.
#[tokio::test(flavor = "multi_thread")]
async fn the_gm_changes_press_and_the_schedule_mid_game() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("set-gm").await;
        let (id, players) = full_game(
            &server,
            &gm,
            "standard",
            json!({"deadlines": {"movement_minutes": 60, "retreat_minutes": 60, "adjustment_minutes": 60}}),
            "set",
        )
        .await;
        let settings = format!("/api/games/{id}/gm/settings");
        let press = format!("/api/games/{id}/press");
        let england = player(&players, "England");
        england
            .post(&press, json!({"to": ["France"], "body": "still private"}))
            .await;
        let before = gm.get(&format!("/api/games/{id}")).await;

        let changed = gm
            .post(
                &settings,
                json!({"press": "public", "deadlines": {"movement_minutes": 2880}}),
            )
            .await;
        assert_eq!(changed["press"], "public", "{changed}");
        assert_eq!(changed["deadlines"]["movement_minutes"], 2880);
        assert_eq!(changed["deadlines"]["retreat_minutes"], 60, "left out, kept");
        assert_eq!(changed["deadline_ms"], before["deadline_ms"], "the deadline set stays");
        let (status, _) = england
            .call("POST", &press, Some(json!({"to": ["France"], "body": "now refused"})))
            .await;
        assert_eq!(status, 403, "public press only, at once");

        // The next Movement phase (after Spring, the Fall) gets two days.
        gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let now = server.visitor().get("/api/test/clock").await["now_ms"]
            .as_i64()
            .unwrap();
        let fall = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(fall["phase"], "F1901M", "{fall}");
        // The test clock runs on with real time between processing and reading it.
        let left = fall["deadline_ms"].as_i64().unwrap() - now;
        assert!(
            (2880 * 60_000 - 10_000..=2880 * 60_000).contains(&left),
            "{left} ms left"
        );

        // A fixed time of day, then none again.
        let timed = gm
            .post(
                &settings,
                json!({"deadlines": {"at": "20:00", "time_zone": "Europe/Paris"}}),
            )
            .await;
        assert_eq!(timed["deadlines"]["at"], "20:00", "{timed}");
        assert_eq!(timed["deadlines"]["time_zone"], "Europe/Paris");
        let later = gm.post(&settings, json!({"deadlines": {"at": "21:30"}})).await;
        assert_eq!(later["deadlines"]["at"], "21:30", "{later}");
        assert_eq!(later["deadlines"]["time_zone"], "Europe/Paris", "the zone stays");
        let untimed = gm.post(&settings, json!({"deadlines": {"at": ""}})).await;
        assert!(untimed["deadlines"]["at"].is_null(), "{untimed}");
        let (status, body) = gm
            .call("POST", &settings, Some(json!({"deadlines": {"at": "25:00"}})))
            .await;
        assert_eq!(status, 422, "{body}");

        let (status, body) = gm.call("POST", &settings, Some(json!({"anonymous": true}))).await;
        assert_eq!(status, 422, "{body}");
        assert!(body["error"].as_str().unwrap().contains("anonymity"), "{body}");
        let (status, _) = england.call("POST", &settings, Some(json!({"press": "full"}))).await;
        assert_eq!(status, 403, "the GM's tool");
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await.to_string();
        assert!(
            events.contains("press public") && events.contains("deadlines 2880/60/60 min"),
            "{events}"
        );
    }
}

/// The club's player records: each power played and how the game ended for it (a draw
/// shared, a survivor outside it), the games run as GM; a player replaced mid-game keeps
/// the game in the record as left.
#[tokio::test(flavor = "multi_thread")]
async fn player_records_show_each_game_and_its_result() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("rec-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "rec").await;
        let name_of = |power: &str| format!("rec-player{}", players.iter().position(|(p, _)| p == power).unwrap());
        server.register("rec-stand-in").await;
        gm.post(
            &format!("/api/games/{id}/gm/replace"),
            json!({"power": "Turkey", "account": "rec-stand-in"}),
        )
        .await;
        gm.post(
            &format!("/api/games/{id}/gm/end"),
            json!({"result": "draw", "powers": ["England", "France"]}),
        )
        .await;

        let visitor = server.visitor();
        let record = |name: String| {
            let visitor = &visitor;
            async move { visitor.get(&format!("/api/players/{name}")).await }
        };
        let england = record(name_of("England")).await;
        assert_eq!(england["games"][0]["power"], "England", "{england}");
        assert_eq!(england["games"][0]["result"], "drew");
        assert_eq!(
            (england["finished"].as_u64(), england["drew"].as_u64()),
            (Some(1), Some(1))
        );
        let italy = record(name_of("Italy")).await;
        assert_eq!(italy["games"][0]["result"], "survived", "{italy}");
        assert_eq!(italy["games"][0]["centres"], 3);
        let turkey_first = record(name_of("Turkey")).await;
        assert_eq!(turkey_first["games"][0]["result"], "left", "{turkey_first}");
        assert_eq!(record("rec-stand-in".into()).await["games"][0]["result"], "survived");
        let gm_record = record("REC-GM".into()).await;
        assert_eq!(gm_record["name"], "rec-gm", "names are found whatever their case");
        assert_eq!(gm_record["gm_of"][0]["game"], id);

        let (status, body) = visitor.call("GET", "/api/players/nobody-here", None).await;
        assert_eq!(status, 404, "{body}");
    }
}

/// A GM steps down: the game goes to another account, which gets the tools and the
/// secret orders; the old GM loses both. Not to one of the game's players, who would read
/// the others' orders and bids.
#[tokio::test(flavor = "multi_thread")]
async fn the_gm_hands_the_game_to_another_gm() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("old-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "handover").await;
        let transfer = format!("/api/games/{id}/gm/transfer");
        let (status, body) = gm
            .call("POST", &transfer, Some(json!({"account": "handover-player0"})))
            .await;
        assert_eq!(status, 409, "{body}");
        assert!(body["error"].as_str().unwrap().contains("orders and bids"), "{body}");
        let (status, _) = gm
            .call("POST", &transfer, Some(json!({"account": "nobody-such"})))
            .await;
        assert_eq!(status, 404);

        let heir = server.register("new-gm").await;
        heir.post(&format!("/api/games/{id}/observe"), json!({})).await;
        player(&players, "England")
            .post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": ["F lon - nth"], "phase": "S1901M"}),
            )
            .await;
        let done = gm.post(&transfer, json!({"account": "new-gm"})).await;
        assert_eq!(done["gm"], "new-gm", "{done}");
        assert_eq!(heir.get(&format!("/api/games/{id}")).await["gm"], "new-gm");
        let orders = heir.get(&format!("/api/games/{id}/gm/orders")).await.to_string();
        assert!(orders.contains("lon - nth"), "the new GM reads the orders: {orders}");
        let (status, _) = gm.call("GET", &format!("/api/games/{id}/gm/orders"), None).await;
        assert_eq!(status, 403, "the old GM no longer does");
        heir.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        let press = heir.get(&format!("/api/games/{id}/press")).await.to_string();
        assert!(press.contains("new-gm is the game's GM from now on"), "{press}");
    }
}

/// An anonymous game created with `reveal_at_end` names its players once it has ended
/// (as webDiplomacy's anonymous games do), and not before; one without keeps them hidden
/// for good.
#[tokio::test(flavor = "multi_thread")]
async fn an_anonymous_game_may_name_its_players_at_the_end() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("reveal-gm").await;
        let visitor = server.visitor();
        for (reveal, prefix) in [(true, "unmasked"), (false, "masked")] {
            let (id, _) = full_game(
                &server,
                &gm,
                "standard",
                json!({"anonymous": true, "reveal_at_end": reveal}),
                prefix,
            )
            .await;
            let names = |game: &Value| {
                game["powers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| p["player"].is_string())
                    .count()
            };
            let running = visitor.get(&format!("/api/games/{id}")).await;
            assert_eq!(names(&running), 0, "hidden while the game runs: {running}");
            let record = format!("/api/players/{prefix}-player0");
            assert!(!visitor.get(&record).await.to_string().contains(&format!("{id}")));
            let (status, _) = gm
                .call(
                    "POST",
                    &format!("/api/games/{id}/gm/settings"),
                    Some(json!({"reveal_at_end": !reveal})),
                )
                .await;
            assert_eq!(status, 422, "fixed at creation like anonymity");

            gm.post(
                &format!("/api/games/{id}/gm/end"),
                json!({"result": "draw", "powers": ["England", "France"]}),
            )
            .await;
            let ended = visitor.get(&format!("/api/games/{id}")).await;
            let shown = visitor
                .get(&record)
                .await
                .to_string()
                .contains(&format!("\"game\":{id}"));
            if reveal {
                assert_eq!(names(&ended), 7, "named at the end: {ended}");
                assert!(shown, "and on their records");
            } else {
                assert_eq!(names(&ended), 0, "still hidden: {ended}");
                assert!(!shown);
            }
        }
    }
}

/// The GM's choice of early processing: a game set to wait for the deadline
/// counts every ready mark but is processed only by the deadline; switched back, the last
/// mark processes the phase at once, as in the rulebook's "when all orders are in".
#[tokio::test(flavor = "multi_thread")]
async fn a_game_set_to_wait_for_the_deadline_ignores_ready_marks() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("patient-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({"early_processing": "never"}), "wt").await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["status"], "active");
        assert_eq!(game["early_processing"], "never");
        let ready = format!("/api/games/{id}/ready");
        for (i, (_, p)) in players.iter().enumerate() {
            let mark = p.post(&ready, json!({"seq": 0})).await;
            assert_eq!(mark["processed"], false, "{mark}");
            assert_eq!(mark["all_ready"], i == players.len() - 1, "{mark}");
        }
        assert_eq!(gm.get(&format!("/api/games/{id}")).await["seq"], 0, "still Spring 1901");
        // A value the setting does not know is refused with the ones it does.
        let (status, body) = gm
            .call(
                "POST",
                &format!("/api/games/{id}/gm/settings"),
                Some(json!({"early_processing": "soon"})),
            )
            .await;
        assert_eq!(status, 422, "{body}");
        // The deadline processes it.
        server.advance(24 * 60 * 60_000 + 60_000).await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["seq"], 1, "{game}");
        assert_eq!(gm.get(&format!("/api/games/{id}/phases/0")).await["how"], "deadline");

        // The GM switches to early processing: the last mark now ends the phase.
        let view = gm
            .post(
                &format!("/api/games/{id}/gm/settings"),
                json!({"early_processing": "when_all_ready"}),
            )
            .await;
        assert_eq!(view["early_processing"], "when_all_ready");
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await;
        assert!(
            events
                .to_string()
                .contains("processed early once every seated power is ready"),
            "{events}"
        );
        for (i, (_, p)) in players.iter().enumerate() {
            let mark = p.post(&ready, json!({"seq": 1})).await;
            assert_eq!(mark["processed"], i == players.len() - 1, "{mark}");
        }
        assert_eq!(gm.get(&format!("/api/games/{id}/phases/1")).await["how"], "all ready");
    }
}

/// Switching early processing back on when every seated power is ready already
/// processes the phase then: no further ready mark will come to do it. With
/// one power not ready, the switch processes nothing, and that power's mark does.
#[tokio::test(flavor = "multi_thread")]
async fn early_processing_switched_on_with_everyone_ready_processes_at_once() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("switch-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({"early_processing": "never"}), "sw").await;
        let settings = format!("/api/games/{id}/gm/settings");
        let ready = format!("/api/games/{id}/ready");
        let (last, others) = players.split_last().unwrap();
        for (_, p) in others {
            p.post(&ready, json!({"seq": 0})).await;
        }
        // One power not ready: switching on processes nothing.
        gm.post(&settings, json!({"early_processing": "when_all_ready"})).await;
        assert_eq!(
            gm.get(&format!("/api/games/{id}")).await["seq"],
            0,
            "one power is not ready"
        );
        gm.post(&settings, json!({"early_processing": "never"})).await;
        let mark = last.1.post(&ready, json!({"seq": 0})).await;
        assert_eq!(mark["processed"], false, "the game waits for the deadline: {mark}");
        assert_eq!(mark["all_ready"], true, "{mark}");
        // Everyone ready: the switch itself processes the phase.
        let view = gm.post(&settings, json!({"early_processing": "when_all_ready"})).await;
        assert_eq!(view["seq"], 1, "processed by the switch: {view}");
        let phase = gm.get(&format!("/api/games/{id}/phases/0")).await;
        assert_eq!(phase["how"], "all ready when early processing came on", "{phase}");
        // Switching it on again (already on) processes nothing more.
        let view = gm.post(&settings, json!({"early_processing": "when_all_ready"})).await;
        assert_eq!(view["seq"], 1, "{view}");
    }
}
