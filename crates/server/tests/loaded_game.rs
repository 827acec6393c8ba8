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
/// unit, check-order, the game page and an order submission.
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
