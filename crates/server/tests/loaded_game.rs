//! A request that acts on the board decodes its game's stored position once
//! (`services::games::LoadedGame`): an order submission used to decode it at the lock's
//! check, again to validate the orders and again to put the answer in words.

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
    }
}
