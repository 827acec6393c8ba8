//! Bots in seats, over real HTTP on SQLite and, when
//! CHANCERY_TEST_POSTGRES is set, PostgreSQL: a game of people and bots plays at the
//! people's pace, the GM gives a departed player's power to a bot, a person takes a
//! bot's seat, and a bot's bids are as secret as a person's.

mod common;

use std::time::{Duration, Instant};

use common::{Api, Server};
use serde_json::{json, Value};

/// How long a test waits for the bots of a phase before it fails.
const PHASE_WAIT: Duration = Duration::from_secs(90);

/// The bots' effort in these tests: the strong bot's search cut short, since a debug
/// build judges far slower than a release one (what it decides is not under test here).
const JUDGEMENTS: [&str; 2] = ["--bot-judgements", "40"];

fn start(url: &str) -> Server {
    Server::start_adding(url, &JUDGEMENTS)
}

fn powers_where(view: &Value, test: impl Fn(&Value) -> bool) -> Vec<String> {
    view["powers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| test(p))
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

/// Waits until every power a bot plays is ready in the game's current phase; returns
/// the view then and how long it took.
async fn bots_ready(api: &Api, id: i64) -> (Value, Duration) {
    let started = Instant::now();
    loop {
        let view = api.get(&format!("/api/games/{id}")).await;
        let waiting = powers_where(&view, |p| p["bot"] == true && p["ready"] != true);
        if waiting.is_empty() || view["status"] != "active" {
            return (view, started.elapsed());
        }
        assert!(
            started.elapsed() < PHASE_WAIT,
            "bots not ready: {waiting:?} in {}",
            view["phase"]
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Holds for each of `power`'s units in a movement phase, then the ready mark.
async fn hold_and_ready(player: &Api, id: i64, view: &Value, power: &str) {
    let seq = view["seq"].as_i64().unwrap();
    if view["phase"].as_str().unwrap().ends_with('M') {
        let holds: Vec<String> = view["state"]["units"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["power"] == power)
            .map(|u| format!("{} {} H", u["type"].as_str().unwrap(), u["location"].as_str().unwrap()))
            .collect();
        if !holds.is_empty() {
            player
                .post(&format!("/api/games/{id}/orders"), json!({"orders": holds, "seq": seq}))
                .await;
        }
    }
    let (status, body) = player
        .call("POST", &format!("/api/games/{id}/ready"), Some(json!({"seq": seq})))
        .await;
    // A power with nothing to decide may still mark ready; a phase the other person's
    // mark processed answers 409.
    assert!(status == 200 || status == 409, "ready: {status} {body}");
}

/// "a game of one human and eight bots moves at the human's pace". A 1936
/// game of two people with bots in the other seats (the creation form's "bots take the
/// seats nobody has") plays three years with only the people's orders sent and no
/// deadline passing: each phase is processed by the last ready mark.
#[tokio::test(flavor = "multi_thread")]
async fn two_people_and_bots_play_three_years_of_1936() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = start(&target.url);
        let gm = server.register("bots-gm").await;
        let game = gm
            .post(
                "/api/games",
                json!({"name": "1936 with bots", "variant": "1936", "bots_fill_seats": true}),
            )
            .await;
        let id = game["id"].as_i64().unwrap();
        let britain = server.register("bots-britain").await;
        britain
            .post(&format!("/api/games/{id}/join"), json!({"power": "Britain"}))
            .await;
        let italy = server.register("bots-italy").await;
        italy
            .post(&format!("/api/games/{id}/join"), json!({"power": "Italy"}))
            .await;
        gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;

        let view = gm.get(&format!("/api/games/{id}")).await;
        let bots = powers_where(&view, |p| p["bot"] == true);
        assert_eq!(
            bots,
            ["France", "Germany", "Poland", "Soviet Union", "Turkey"],
            "bots took the seats nobody had"
        );
        let mut waits = Vec::new();
        let last = loop {
            let (view, waited) = bots_ready(&gm, id).await;
            let year: i32 = view["phase"].as_str().unwrap()[1..5].parse().unwrap();
            if year >= 1939 || view["status"] != "active" {
                break view;
            }
            waits.push(waited);
            hold_and_ready(&britain, id, &view, "Britain").await;
            hold_and_ready(&italy, id, &view, "Italy").await;
            // The last ready mark processed the phase.
            let after = gm.get(&format!("/api/games/{id}")).await;
            assert!(
                after["seq"].as_i64() > view["seq"].as_i64(),
                "phase {} processed by the people's ready marks",
                view["phase"]
            );
        };
        let phases = gm.get(&format!("/api/games/{id}/phases")).await;
        let phases = phases["phases"].as_array().unwrap();
        assert_eq!(last["phase"], "S1939M", "three years played");
        assert!(phases.len() >= 3 * 2, "three years: {} phases", phases.len());
        assert!(
            phases.iter().all(|p| p["how"] == "all ready"),
            "no phase waited for its deadline: {phases:?}"
        );
        // The bots ordered their units: the first movement phase's result has their orders.
        let first = gm.get(&format!("/api/games/{id}/phases/0")).await;
        let text = first.to_string();
        for bot in ["France", "Germany", "Soviet Union"] {
            assert!(text.contains(&format!("\"{bot}\"")), "{bot}'s orders in the result");
        }
        let missing: Vec<&Value> = phases
            .iter()
            .filter(|p| !p["missing"].as_array().is_none_or(|m| m.is_empty()))
            .collect();
        assert!(
            missing.iter().all(|p| !p["missing"].to_string().contains("France")),
            "a bot never misses its orders: {missing:?}"
        );
        // Every bot decision passed the checks a person's orders pass (factions'
        // builds given in the faction's name included).
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await;
        assert!(!events.to_string().contains("bot_refused"), "{events}");
        waits.sort();
        eprintln!(
            "{}: {} phases; bots ready after a phase opened: median {:?}, max {:?}",
            target.label,
            waits.len(),
            waits[waits.len() / 2],
            waits.last().unwrap()
        );
    }
}

/// "a GM may give a power whose player is gone to a bot instead of
/// declaring civil disorder (logged, mailed to the players as a replacement is)". The
/// bot then plays the power, and its seat shows as a bot's.
#[tokio::test(flavor = "multi_thread")]
async fn a_gm_gives_a_departed_players_power_to_a_bot() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = start(&target.url);
        let gm = server.register("gone-gm").await;
        let (id, [england, france]) = common::started_game(
            &server,
            &gm,
            "gone",
            "standard",
            [("gone-england", "England"), ("gone-france", "France")],
        )
        .await;
        let seated = gm
            .post(&format!("/api/games/{id}/gm/bot"), json!({"power": "France"}))
            .await;
        assert_eq!(seated["replaced_player"], true);
        assert_eq!(seated["level"], "strong");
        // The departed player no longer plays France.
        let (status, _) = france
            .call(
                "POST",
                &format!("/api/games/{id}/orders"),
                Some(json!({"orders": ["A par H"], "seq": 0})),
            )
            .await;
        assert_eq!(status, 403, "the old player's orders are refused");
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await;
        assert!(
            events["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["kind"] == "replaced" && e["detail"] == "France (by a bot)"),
            "logged: {events}"
        );
        // A second bot on the same power is refused; a vacant power takes one.
        let (status, _) = gm
            .call(
                "POST",
                &format!("/api/games/{id}/gm/bot"),
                Some(json!({"power": "France"})),
            )
            .await;
        assert_eq!(status, 409);
        let (status, body) = gm
            .call(
                "POST",
                &format!("/api/games/{id}/gm/bot"),
                Some(json!({"power": "Atlantis"})),
            )
            .await;
        assert_eq!(status, 422, "{body}");
        let (view, _) = bots_ready(&gm, id).await;
        assert_eq!(powers_where(&view, |p| p["bot"] == true), ["France"]);
        // The bot is ready: England's mark processes the phase, France's units moved by
        // the bot's orders (in the result under France).
        hold_and_ready(&england, id, &view, "England").await;
        let result = gm.get(&format!("/api/games/{id}/phases/0")).await;
        assert!(result.to_string().contains("\"France\""), "France ordered: {result}");
        let phases = gm.get(&format!("/api/games/{id}/phases")).await;
        assert_eq!(phases["phases"][0]["how"], "all ready");
        // History and records say where a bot played: the phase lists France as a bot's,
        // the history page says so, and the departed player's record marks the power.
        assert_eq!(phases["phases"][0]["bots"], json!(["France"]));
        let (_, page) = gm.call("GET", &format!("/games/{id}/history/0"), None).await;
        assert!(
            page.as_str().unwrap().contains("A bot ordered for France."),
            "the history page"
        );
        let record = gm.get("/api/players/gone-france").await;
        let played = &record["games"].as_array().unwrap()[0];
        assert_eq!(
            (played["power"].as_str(), played["bot"].as_bool()),
            (Some("France"), Some(true))
        );
        let record = gm.get("/api/players/gone-england").await;
        assert_eq!(record["games"][0]["bot"], false);
    }
}

/// "a person can take a bot's seat through the replacement flow". Joining
/// a bot's power is refused; the GM's replacement gives it to the person, and the bot
/// plays it no more.
#[tokio::test(flavor = "multi_thread")]
async fn a_person_takes_a_bots_seat() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = start(&target.url);
        let gm = server.register("take-gm").await;
        let (id, [england]) =
            common::started_game(&server, &gm, "take", "standard", [("take-england", "England")]).await;
        gm.post(&format!("/api/games/{id}/gm/bot"), json!({"power": "Germany"}))
            .await;
        let (view, _) = bots_ready(&gm, id).await;
        hold_and_ready(&england, id, &view, "England").await;
        let (view, _) = bots_ready(&gm, id).await;
        assert_eq!(view["phase"], "F1901M");

        let newcomer = server.register("take-newcomer").await;
        let (status, body) = newcomer
            .call(
                "POST",
                &format!("/api/games/{id}/join"),
                Some(json!({"power": "Germany"})),
            )
            .await;
        assert_eq!(status, 409, "a bot's seat is not open to join: {body}");
        assert!(body["error"].as_str().unwrap().contains("bot"), "{body}");
        gm.post(
            &format!("/api/games/{id}/gm/replace"),
            json!({"power": "Germany", "account": "take-newcomer"}),
        )
        .await;
        let view = gm.get(&format!("/api/games/{id}")).await;
        let germany = &view["powers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "Germany")
            .unwrap();
        assert_eq!(germany["bot"], false);
        assert_eq!(germany["player"], "take-newcomer");
        // Germany's seat is the person's now: the phase waits for their mark (the bot's
        // orders from before stay until they change them).
        hold_and_ready(&england, id, &view, "England").await;
        let view = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(view["phase"], "F1901M", "waits for Germany's new player");
        hold_and_ready(&newcomer, id, &view, "Germany").await;
        let view = gm.get(&format!("/api/games/{id}")).await;
        assert_ne!(
            view["phase"], "F1901M",
            "Germany's new player's mark processed the phase"
        );
        let events = gm.get(&format!("/api/games/{id}/gm/events")).await;
        assert!(events.to_string().contains("\"replaced\""), "{events}");
    }
}

/// "a bot's bids are as secret as a person's (no endpoint
/// shows them to anyone but the GM)". In 1936 the bots bid in the movement phases; a
/// player, an observer and a visitor are refused the bot's bids and the bid report, and
/// no view, result or feed names them.
#[tokio::test(flavor = "multi_thread")]
async fn a_bots_bids_stay_secret() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = start(&target.url);
        let gm = server.register("secret-gm").await;
        let (id, [britain]) =
            common::started_game(&server, &gm, "secret", "1936", [("secret-britain", "Britain")]).await;
        for power in ["France", "Germany", "Italy", "Poland", "Soviet Union", "Turkey"] {
            gm.post(&format!("/api/games/{id}/gm/bot"), json!({"power": power}))
                .await;
        }
        let observer = server.register("secret-observer").await;
        observer.post(&format!("/api/games/{id}/observe"), json!({})).await;
        let (view, _) = bots_ready(&gm, id).await;
        let gm_bids = gm.get(&format!("/api/games/{id}/bids")).await;
        let bot_bids: Vec<&Value> = gm_bids["bids"].as_array().unwrap().iter().collect();
        eprintln!(
            "{}: the bots made {} bids in {}",
            target.label,
            bot_bids.len(),
            view["phase"]
        );
        let visitor = server.visitor();
        for (who, api) in [("player", &britain), ("observer", &observer), ("visitor", &visitor)] {
            for path in [
                format!("/api/games/{id}/bids?power=France"),
                format!("/api/games/{id}/bids?power=Soviet%20Union"),
                format!("/api/games/{id}/gm/bid-report"),
                format!("/api/games/{id}/gm/orders"),
            ] {
                let (status, body) = api.call("GET", &path, None).await;
                assert!(status == 401 || status == 403, "{who} reads {path}: {status} {body}");
            }
        }
        // The player's own list holds only its own bids.
        let own = britain.get(&format!("/api/games/{id}/bids")).await;
        assert!(
            own["bids"].as_array().unwrap().iter().all(|b| b["power"] == "Britain"),
            "{own}"
        );
        // Processed: the result, the view and the feed name no bidder.
        hold_and_ready(&britain, id, &view, "Britain").await;
        for bid in &bot_bids {
            let order = bid["order"].as_str().unwrap();
            let bidder = bid["power"].as_str().unwrap();
            for (who, api) in [("player", &britain), ("visitor", &visitor)] {
                let result = api.get(&format!("/api/games/{id}/phases/0")).await.to_string();
                assert!(
                    !result.contains(&format!("{bidder}: {order}")),
                    "{who} sees {bidder}'s bid"
                );
            }
        }
    }
}

/// A power given to a bot is "mailed to the players as a replacement is":
/// its old player hears the seat has ended, the others that a bot plays it now.
#[tokio::test(flavor = "multi_thread")]
async fn giving_a_power_to_a_bot_is_mailed() {
    let dir = tempfile::tempdir().unwrap();
    let sink = common::smtp::Sink::start();
    let server = Server::start_adding(
        &dir.path().join("club.db").to_string_lossy(),
        &["--smtp", &sink.url(), "--bot-judgements", "40"],
    );
    let gm = server.register("mailbot-gm").await;
    let (id, [england, france]) = common::started_game(
        &server,
        &gm,
        "mailbot",
        "standard",
        [("mailbot-england", "England"), ("mailbot-france", "France")],
    )
    .await;
    common::smtp::confirm(&sink, &server, &england, "england@players.example").await;
    common::smtp::confirm(&sink, &server, &france, "france@players.example").await;
    gm.post(&format!("/api/games/{id}/gm/bot"), json!({"power": "France"}))
        .await;
    let started = Instant::now();
    let subjects = |addr: &str| -> Vec<String> {
        common::smtp::to(&sink.mails(), addr)
            .iter()
            .map(|m| m["headers"]["subject"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    loop {
        let (old, other) = (subjects("france@players.example"), subjects("england@players.example"));
        if old.iter().any(|s| s == "mailbot: you no longer play France")
            && other.iter().any(|s| s == "mailbot: a bot plays France")
        {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(240), "mails: {old:?} {other:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
