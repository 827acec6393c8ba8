//! Time arithmetic cannot wrap: every moment a request gives is
//! after now and within a year, every sum is checked, and a refusal is a 422 that says
//! why. Both backends.

mod common;

use common::{full_game, Server};
use serde_json::json;

const YEAR_MS: i64 = 366 * 24 * 60 * 60 * 1000;

#[tokio::test(flavor = "multi_thread")]
async fn deadlines_are_bounded_and_never_wrap() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let server = Server::start(&target.url);
        let gm = server.register("time-gm").await;
        let (id, _players) = full_game(&server, &gm, "standard", json!({}), "time").await;
        let extend = format!("/api/games/{id}/gm/extend");
        let now = || async {
            server.visitor().get("/api/test/clock").await["now_ms"]
                .as_i64()
                .unwrap()
        };
        let before = gm.get(&format!("/api/games/{id}")).await["deadline_ms"]
            .as_i64()
            .unwrap();

        // The probe's sequence: a deadline near the end of time, then a minute more.
        // Before the fix the sum wrapped to a negative deadline and the phase ran at once.
        let (status, body) = gm
            .call(
                "POST",
                &extend,
                Some(json!({"deadline_ms": 9_223_372_036_854_775_000_i64})),
            )
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("more than a year away"),
            "{body}"
        );
        let moved = gm.post(&extend, json!({"minutes": 1})).await;
        assert_eq!(moved["deadline_ms"], before + 60_000, "{moved}");
        server.advance(1_000).await;
        let game = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(game["seq"], 0, "the phase did not run: {game}");
        assert_eq!(game["deadline_ms"], before + 60_000);

        // Past, now, and beyond a year: refused with the reason; within a year: taken.
        for (deadline, why) in [
            (i64::MIN, "not in the future"),
            (now().await - 1, "not in the future"),
            (now().await + YEAR_MS + 60_000, "more than a year away"),
        ] {
            let (status, body) = gm.call("POST", &extend, Some(json!({"deadline_ms": deadline}))).await;
            assert_eq!(status, 422, "{deadline}: {body}");
            assert!(body["error"].as_str().unwrap().contains(why), "{deadline}: {body}");
        }
        let far = now().await + YEAR_MS - 60 * 60_000;
        assert_eq!(gm.post(&extend, json!({"deadline_ms": far})).await["deadline_ms"], far);
        // A year's deadline and another sixty days would pass the bound: refused, kept.
        let (status, body) = gm.call("POST", &extend, Some(json!({"minutes": 86_400}))).await;
        assert_eq!(status, 422, "{body}");
        let (status, body) = gm.call("POST", &extend, Some(json!({"minutes": i64::MAX}))).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(gm.get(&format!("/api/games/{id}")).await["deadline_ms"], far);

        // Pausing and resuming keep the time left, however far the deadline.
        let paused = gm.post(&format!("/api/games/{id}/gm/pause"), json!({})).await;
        let left = paused["remaining_ms"].as_i64().unwrap();
        assert!(left > 0 && left <= YEAR_MS, "{paused}");
        let resumed = gm.post(&format!("/api/games/{id}/gm/resume"), json!({})).await;
        let deadline = resumed["deadline_ms"].as_i64().unwrap();
        assert!(deadline > now().await && deadline <= now().await + YEAR_MS, "{resumed}");

        // A start time is a moment too.
        for (at, why) in [
            (i64::MAX, "more than a year away"),
            (now().await - 1, "not in the future"),
        ] {
            let (status, body) = gm
                .call(
                    "POST",
                    "/api/games",
                    Some(json!({"name": "timed", "variant": "standard", "start_at_ms": at})),
                )
                .await;
            assert_eq!(status, 422, "{at}: {body}");
            assert!(body["error"].as_str().unwrap().contains(why), "{at}: {body}");
        }
        let soon = now().await + 60_000;
        let game = gm
            .post(
                "/api/games",
                json!({"name": "timed", "variant": "standard", "start_at_ms": soon}),
            )
            .await;
        assert_eq!(game["status"], "forming");
    }
}
