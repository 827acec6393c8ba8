//! A request that acts on the position decodes its game's stored position once
//! (`services::games::LoadedGame`): an order submission used to decode it at the lock's
//! check, again to validate the orders and again to put the answer in words; a ready
//! mark decoded it again to see who was still waited for.

mod common;

use common::{full_game, player, Api, Server};
use serde_json::json;

async fn decodes(api: &Api) -> i64 {
    api.get("/api/test/state-decodes").await["state_decodes"]
        .as_i64()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_order_submission_decodes_the_position_once() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("decode-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "decode").await;
        let france = player(&players, "France");
        let visitor = server.visitor();
        let orders = format!("/api/games/{id}/orders");
        // The same submission, answered from the stored orders and then as a
        // replacement; a background pass of the server may decode a position of its own
        // meanwhile, so the smallest of a few tries is the request's own count.
        for body in [
            json!({"orders": ["A par - bur", "A mar - spa", "F bre - mao"], "seq": 0}),
            json!({"orders": ["A par - pic"], "seq": 0, "replace": true}),
        ] {
            let mut least = i64::MAX;
            for _ in 0..5 {
                let before = decodes(&visitor).await;
                let answer = france.post(&orders, body.clone()).await;
                assert!(answer["orders"].is_array(), "{answer}");
                least = least.min(decodes(&visitor).await - before);
            }
            assert_eq!(least, 1, "{}: one decode for {body}", target.label);
        }
        // A ready mark (one of seven: nothing is processed) reads the position it was
        // locked with to see who is still waited for.
        let mut least = i64::MAX;
        for _ in 0..5 {
            let before = decodes(&visitor).await;
            let answer = france.post(&format!("/api/games/{id}/ready"), json!({"seq": 0})).await;
            assert_eq!(answer["processed"], false, "{answer}");
            least = least.min(decodes(&visitor).await - before);
            let (status, _) = france
                .call("DELETE", &format!("/api/games/{id}/ready?seq=0"), None)
                .await;
            assert_eq!(status, 200);
        }
        assert_eq!(least, 1, "{}: one decode for a ready mark", target.label);
        // The readers load the game once too (`games::read`): the game's view, the page
        // (which shows the view, the orders panel and the map of the same position), a
        // unit's targets and check-order.
        for path in [
            format!("/api/games/{id}"),
            format!("/games/{id}"),
            format!("/api/games/{id}/targets?unit=par"),
            format!("/api/games/{id}/check-order?text=A%20par%20-%20bur"),
        ] {
            let mut least = i64::MAX;
            for _ in 0..5 {
                let before = decodes(&visitor).await;
                let (status, answer) = france.call("GET", &path, None).await;
                assert_eq!(status, 200, "{path}: {answer}");
                least = least.min(decodes(&visitor).await - before);
            }
            assert_eq!(least, 1, "{}: one decode for {path}", target.label);
        }
    }
}

/// A damaged stored position was a 400 in one place and a 500 in another; a client
/// could not tell one damage from the other.
/// Every request that needs the position reads it through one loader (readers through
/// `games::read`, writers through `games::lock_acting`), so a position that cannot be
/// decoded is refused alike: `damaged_game`, 500, for the game's view, the targets of a
/// unit, check-order, the game page, an order submission, a GM's tool and a draw vote.
#[tokio::test(flavor = "multi_thread")]
async fn a_damaged_position_is_the_same_refusal_for_readers_and_writers() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("damage-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "damage").await;
        let france = player(&players, "France");
        // Valid JSON naming a space Standard does not have: the decode, not the JSON
        // reader, refuses it; then JSON that does not parse at all.
        for damage in [
            r#"{"phase": "S1901M", "units": [{"power": "France", "type": "A", "location": "atlantis"}], "owners": {}}"#,
            "{",
        ] {
            let db = target.database().await;
            sqlx::query("UPDATE games SET state_json = $2 WHERE id = $1")
                .bind(id)
                .bind(damage)
                .execute(&db)
                .await
                .unwrap();
            let answers = [
                ("game view", france.call("GET", &format!("/api/games/{id}"), None).await),
                (
                    "targets",
                    france
                        .call("GET", &format!("/api/games/{id}/targets?unit=par"), None)
                        .await,
                ),
                (
                    "check-order",
                    france
                        .call(
                            "GET",
                            &format!("/api/games/{id}/check-order?text=A%20par%20-%20bur"),
                            None,
                        )
                        .await,
                ),
                (
                    "GM's deadline extension",
                    gm.call(
                        "POST",
                        &format!("/api/games/{id}/gm/extend"),
                        Some(json!({"minutes": 60})),
                    )
                    .await,
                ),
                (
                    "draw vote",
                    france
                        .call("POST", &format!("/api/games/{id}/draw-vote"), Some(json!({})))
                        .await,
                ),
                (
                    "order submission",
                    france
                        .call(
                            "POST",
                            &format!("/api/games/{id}/orders"),
                            Some(json!({"orders": ["A par - bur"], "seq": 0})),
                        )
                        .await,
                ),
            ];
            for (what, (status, body)) in &answers {
                assert_eq!(
                    (*status, body["code"].as_str()),
                    (500, Some("damaged_game")),
                    "{}: {what} with {damage}: {body}",
                    target.label
                );
            }
            let page = reqwest::Client::new()
                .get(format!("{}/games/{id}", server.base))
                .bearer_auth(france.token.as_deref().unwrap())
                .send()
                .await
                .unwrap();
            assert_eq!(page.status().as_u16(), 500, "{}: the game page", target.label);
        }
    }
}

/// The least count of decodes over five runs of `$run` (a background pass of the server
/// may decode a position of its own meanwhile; the least is the request's own count).
macro_rules! least_decodes {
    ($visitor:expr, $run:expr) => {{
        let mut least = i64::MAX;
        for _ in 0..5 {
            let before = decodes($visitor).await;
            $run;
            least = least.min(decodes($visitor).await - before);
        }
        least
    }};
}

/// Every request or job decodes its game's position at most once: the GM's tools load
/// the game once in `gm_lock` and pass it on (processing the phase, the event log's
/// phase, the mails), a draw vote passes it to the end of the game it completes, and a
/// bot's seat (which starts the game) and its turn (claimed under one lock, written
/// under another) each decode it once.
#[tokio::test(flavor = "multi_thread")]
async fn gm_tools_draw_votes_and_bots_decode_the_position_once() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        // A server that mails, so that the results of a phase processed by the GM are
        // written (to the GM, the one reader here) with the phase loaded once.
        let sink = common::smtp::Sink::start();
        let smtp = sink.url();
        let server = Server::start_adding(&target.url, &["--smtp", &smtp, "--bot-judgements", "40"]);
        let visitor = server.visitor();
        let gm = server.register("once-gm").await;
        let (id, players) = full_game(&server, &gm, "standard", json!({}), "once").await;
        let gm_tool = |tool: &str| format!("/api/games/{id}/gm/{tool}");

        let extend = least_decodes!(&visitor, {
            let answer = gm.post(&gm_tool("extend"), json!({"minutes": 60})).await;
            assert!(answer["deadline_ms"].is_i64(), "{answer}");
        });
        assert_eq!(extend, 1, "{}: one decode to extend the deadline", target.label);
        let pause_resume = least_decodes!(&visitor, {
            let paused = gm.post(&gm_tool("pause"), json!({})).await;
            assert_eq!(paused["status"], "paused", "{paused}");
            let resumed = gm.post(&gm_tool("resume"), json!({})).await;
            assert_eq!(resumed["status"], "active", "{resumed}");
        });
        assert_eq!(pause_resume, 2, "{}: one decode each to pause and resume", target.label);
        // Each run processes a phase: the GM's lock loads it, and the judgement, the
        // results and the event log take it from there.
        let process = least_decodes!(&visitor, {
            let answer = gm.post(&gm_tool("process"), json!({})).await;
            assert!(answer["next"].is_string(), "{answer}");
        });
        assert_eq!(process, 1, "{}: one decode to process now", target.label);

        // A draw vote, taken back (the withdrawal reads no position).
        let france = player(&players, "France");
        let draw = format!("/api/games/{id}/draw-vote");
        let vote = least_decodes!(&visitor, {
            let answer = france.post(&draw, json!({})).await;
            assert_eq!(answer["draw_vote"], true, "{answer}");
            let (status, answer) = france.call("DELETE", &draw, None).await;
            assert_eq!(status, 200, "{answer}");
        });
        assert_eq!(vote, 1, "{}: one decode for a draw vote", target.label);
        // The vote that completes the draw ends the game with the position it loaded.
        let (last, others) = players.split_last().unwrap();
        for (_, p) in others {
            p.post(&draw, json!({})).await;
        }
        let before = decodes(&visitor).await;
        let answer = last.1.post(&draw, json!({})).await;
        assert!(
            answer["outcome"].as_str().is_some_and(|o| o.starts_with("draw: ")),
            "{answer}"
        );
        assert_eq!(
            decodes(&visitor).await - before,
            1,
            "{}: one decode for the vote that ends the game",
            target.label
        );

        // Bots: a forming game of five people, where the GM seats a bot and takes it off.
        let seats = [
            ("once-bots-e", "England"),
            ("once-bots-f", "France"),
            ("once-bots-g", "Germany"),
            ("once-bots-a", "Austria"),
            ("once-bots-r", "Russia"),
        ];
        let (id, _people) = common::seated_game(&server, &gm, "once bots", "standard", seats).await;
        let bot = format!("/api/games/{id}/gm/bot");
        let seat_unseat = least_decodes!(&visitor, {
            let seated = gm.post(&bot, json!({"power": "Turkey"})).await;
            assert_eq!(seated["power"], "Turkey", "{seated}");
            let (status, answer) = gm.call("DELETE", &format!("{bot}?power=Turkey"), None).await;
            assert_eq!(status, 200, "{answer}");
        });
        assert_eq!(
            seat_unseat, 2,
            "{}: one decode each to seat and unseat a bot",
            target.label
        );
        // A sixth person, then the bot on the last seat, which starts the game, and the
        // bot's first turn (its claim and decision, then its orders written): one decode
        // for the seat and the start, one for the turn.
        let italy = server.register("once-bots-i").await;
        italy
            .post(&format!("/api/games/{id}/join"), json!({"power": "Italy"}))
            .await;
        let before = decodes(&visitor).await;
        let seated = gm.post(&bot, json!({"power": "Turkey"})).await;
        assert_eq!(seated["power"], "Turkey", "{seated}");
        let db = target.database().await;
        let waited = std::time::Instant::now();
        loop {
            let done: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM bot_turns WHERE game_id = $1 AND done_ms IS NOT NULL")
                    .bind(id)
                    .fetch_one(&db)
                    .await
                    .unwrap();
            if done > 0 {
                break;
            }
            assert!(waited.elapsed().as_secs() < 90, "{}: the bot's turn", target.label);
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(
            decodes(&visitor).await - before,
            2,
            "{}: one decode to seat the bot (and start the game), one for its turn",
            target.label
        );

        // Every power ready in a game that waits for its deadline; the GM turns early
        // processing on, which processes the phase, and the answer shows the new phase
        // from the position the engine gave, not decoded again.
        let (id, players) = full_game(&server, &gm, "standard", json!({"early_processing": "never"}), "early").await;
        for (_, p) in &players {
            p.post(&format!("/api/games/{id}/ready"), json!({"seq": 0})).await;
        }
        let before = decodes(&visitor).await;
        let view = gm
            .post(
                &format!("/api/games/{id}/gm/settings"),
                json!({"early_processing": "when_all_ready"}),
            )
            .await;
        assert_eq!(
            (view["seq"].as_i64(), view["phase"].as_str()),
            (Some(1), Some("F1901M")),
            "{view}"
        );
        assert_eq!(
            decodes(&visitor).await - before,
            1,
            "{}: one decode for settings that process the phase",
            target.label
        );
    }
}
