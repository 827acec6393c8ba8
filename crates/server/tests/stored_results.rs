//! Each processed phase keeps the engine's whole judgement beside its public result,
//! and history is drawn from it: showing a phase (the history page, its map images, the
//! results API, the feed) never judges it again. The engine counts the phases it
//! adjudicates (`/api/test/adjudications` on test servers), which is what these tests
//! read. Phases stored by a version before the judgement was kept are converted once,
//! when the server starts, and still show with their orders drawn.

mod common;

use common::{full_game, player, targets, Api, Server};
use serde_json::{json, Value};
use sqlx::any::AnyPoolOptions;
use sqlx::Row;

async fn adjudications(server: &Server) -> u64 {
    server.visitor().get("/api/test/adjudications").await["adjudications"]
        .as_u64()
        .expect("a count")
}

/// Two phases of Standard: Spring 1901 with a standoff in Galicia (two moves of equal
/// strength: neither moves) and England's fleet into the North Sea, then Fall.
async fn two_phases(server: &Server, prefix: &str) -> (i64, Api) {
    let gm = server.register(&format!("{prefix}-gm")).await;
    let (id, players) = full_game(server, &gm, "standard", json!({}), prefix).await;
    for (power, order) in [
        ("England", "F lon - nth"),
        ("Austria", "A vie - gal"),
        ("Russia", "A war - gal"),
    ] {
        player(&players, power)
            .post(&format!("/api/games/{id}/orders"), json!({"orders": [order], "seq": 0}))
            .await;
    }
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    player(&players, "England")
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"orders": ["F nth - nwy"], "seq": 1}),
        )
        .await;
    gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
    (id, gm)
}

/// Everything that shows a processed phase, as a visitor and as the GM; returns the
/// pages and images of phase 0 that draw its orders.
async fn show_history(server: &Server, gm: &Api, id: i64) -> Vec<String> {
    let mut drawn = Vec::new();
    for api in [server.visitor(), gm.clone()] {
        api.get(&format!("/api/games/{id}/phases")).await;
        for seq in 0..2 {
            api.get(&format!("/api/games/{id}/phases/{seq}")).await;
            let Value::String(svg) = api.get(&format!("/api/games/{id}/phases/{seq}/map.svg")).await else {
                panic!("an SVG image");
            };
            api.get(&format!("/api/games/{id}/phases/{seq}/map.svg?after=true"))
                .await;
            let Value::String(html) = api.get(&format!("/games/{id}/history/{seq}")).await else {
                panic!("a page");
            };
            if seq == 0 {
                drawn.extend([svg, html]);
            }
        }
        api.get(&format!("/games/{id}/feed.atom")).await;
    }
    drawn
}

fn draws_spring_orders(drawn: &[String]) {
    for d in drawn {
        for order in ["F lon - nth", "A vie - gal", "A war - gal"] {
            assert!(d.contains(&format!(r#"data-order="{order}""#)), "`{order}` is drawn");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn history_is_drawn_from_the_stored_judgement_without_judging_again() {
    for t in targets().await {
        let server = Server::start(&t.url);
        let before = adjudications(&server).await;
        let (id, gm) = two_phases(&server, &format!("stored-{}", t.label)).await;
        let judged = adjudications(&server).await;
        assert!(judged >= before + 2, "{}: processing two phases judges them", t.label);
        let drawn = show_history(&server, &gm, id).await;
        draws_spring_orders(&drawn);
        assert_eq!(
            adjudications(&server).await,
            judged,
            "{}: showing history judged a phase again",
            t.label
        );
    }
}

/// A database as a version before migration 9 left it: no `judged_json` columns and no
/// record of the migration. The next start adds them and converts each stored phase
/// once (one adjudication each); from then on, history judges nothing, and the orders
/// of the converted phases are drawn. A result the engine cannot reproduce (here, one
/// edited to a reason it never gives) is shown without arrows rather than wrong ones.
#[tokio::test(flavor = "multi_thread")]
async fn results_stored_by_an_older_version_still_show() {
    for t in targets().await {
        let server = Server::start(&t.url);
        let (id, gm) = two_phases(&server, &format!("older-{}", t.label)).await;
        server.kill();

        sqlx::any::install_default_drivers();
        let url = if t.label == "sqlite" {
            format!("sqlite://{}", t.url)
        } else {
            t.url.clone()
        };
        let db = AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap();
        for sql in [
            "ALTER TABLE phases DROP COLUMN judged_json",
            "ALTER TABLE undone_phases DROP COLUMN judged_json",
            "DELETE FROM schema_migrations WHERE version = 9",
        ] {
            sqlx::query(sql).execute(&db).await.unwrap();
        }
        // Phase 1's result as an engine would never have given it.
        let row = sqlx::query("SELECT result_json FROM phases WHERE game_id = $1 AND seq = 1")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
        let mut result: Value = serde_json::from_str(&row.get::<String, _>("result_json")).unwrap();
        result["results"][0]["reason"] = json!("judged by hand");
        sqlx::query("UPDATE phases SET result_json = $2 WHERE game_id = $1 AND seq = 1")
            .bind(id)
            .bind(result.to_string())
            .execute(&db)
            .await
            .unwrap();
        db.close().await;

        let server = Server::start(&t.url);
        assert_eq!(
            adjudications(&server).await,
            2,
            "{}: each stored phase is judged once, at start",
            t.label
        );
        // The GM's session is in the database, so it outlives the restart.
        let gm = Api::new(&server.base, gm.token.clone());
        let drawn = show_history(&server, &gm, id).await;
        draws_spring_orders(&drawn);
        assert_eq!(adjudications(&server).await, 2, "{}: and never again", t.label);
        let edited = server.visitor().get(&format!("/games/{id}/history/1")).await;
        let edited = edited.as_str().unwrap();
        assert!(edited.contains("judged by hand"), "the stored result is what shows");
        assert!(edited.contains("The orders cannot be drawn for this phase"));
        assert!(!edited.contains(r#"data-order="F nth - nwy""#), "no arrows for it");
        server.kill();

        let server = Server::start(&t.url);
        assert_eq!(adjudications(&server).await, 0, "{}: converted once only", t.label);
    }
}

/// A boarding (Original 1958 rules 6 and 7: `F eng - wsx B` with `A wsx B`)
/// is drawn in history like any other order, on the page and in the phase's image.
#[tokio::test(flavor = "multi_thread")]
async fn a_boarding_is_drawn_in_history() {
    for t in targets().await {
        let server = Server::start(&t.url);
        let gm = server.register(&format!("board-{}-gm", t.label)).await;
        let (id, players) = full_game(&server, &gm, "original-1958", json!({}), &format!("board-{}", t.label)).await;
        let uk = player(&players, "United Kingdom");
        for (seq, orders) in [
            (0, json!(["F lon - eng", "F lon H", "A lon - wsx"])),
            (1, json!(["F eng - wsx B", "A wsx B", "F lon H"])),
        ] {
            uk.post(
                &format!("/api/games/{id}/orders"),
                json!({"orders": orders, "seq": seq}),
            )
            .await;
            gm.post(&format!("/api/games/{id}/gm/process"), json!({})).await;
        }
        let phase = server.visitor().get(&format!("/api/games/{id}/phases/1")).await;
        let boarded: Vec<&Value> = phase["result"]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["outcome"] == "boarded")
            .collect();
        assert_eq!(boarded.len(), 2, "both units board: {phase}");
        let Value::String(svg) = server.visitor().get(&format!("/api/games/{id}/phases/1/map.svg")).await else {
            panic!("an SVG image");
        };
        let Value::String(html) = server.visitor().get(&format!("/games/{id}/history/1")).await else {
            panic!("a page");
        };
        for drawn in [&svg, &html] {
            for order in ["F eng - wsx B", "A wsx B"] {
                assert!(
                    drawn.contains(&format!(r#"class="order board succeeded" data-power="United Kingdom" data-unit="{}" data-order="{order}""#, &order[..5])),
                    "{}: `{order}` is drawn",
                    t.label
                );
            }
        }
    }
}

/// The powers that gave no orders are kept whole, a JSON array of names
/// (migration 31), where they were joined by commas, which split a power a variant
/// names `A,B`. A database whose lists were stored joined reads them as before once
/// the migration has run, a name with a `"` or `\` included; the processed phase's API
/// and list say the same.
#[tokio::test(flavor = "multi_thread")]
async fn missing_powers_stored_joined_by_an_older_version_still_show() {
    for t in targets().await {
        let server = Server::start(&t.url);
        let (id, gm) = two_phases(&server, &format!("missing-{}", t.label)).await;
        // Spring: England, Austria and Russia ordered; Fall: only England.
        let spring = gm.get(&format!("/api/games/{id}/phases/0")).await;
        assert_eq!(
            spring["missing"],
            json!(["France", "Germany", "Italy", "Turkey"]),
            "{}",
            t.label
        );
        let fall = gm.get(&format!("/api/games/{id}/phases/1")).await;
        assert_eq!(
            fall["missing"],
            json!(["Austria", "France", "Germany", "Italy", "Russia", "Turkey"])
        );
        server.kill();

        sqlx::any::install_default_drivers();
        let url = if t.label == "sqlite" {
            format!("sqlite://{}", t.url)
        } else {
            t.url.clone()
        };
        let db = AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap();
        let stored: String = sqlx::query("SELECT missing FROM phases WHERE game_id = $1 AND seq = 0")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap()
            .get("missing");
        assert_eq!(
            serde_json::from_str::<Value>(&stored).unwrap(),
            spring["missing"],
            "stored as a JSON array"
        );
        // As a version before migration 31 stored them.
        for (seq, joined) in [(0, "France,Germany"), (1, r#"Ita"ly,Tur\key"#)] {
            sqlx::query("UPDATE phases SET missing = $3 WHERE game_id = $1 AND seq = $2")
                .bind(id)
                .bind(seq)
                .bind(joined)
                .execute(&db)
                .await
                .unwrap();
        }
        sqlx::query("DELETE FROM schema_migrations WHERE version = 31")
            .execute(&db)
            .await
            .unwrap();
        db.close().await;

        let server = Server::start(&t.url);
        let gm = Api::new(&server.base, gm.token.clone());
        let phases = gm.get(&format!("/api/games/{id}/phases")).await;
        assert_eq!(
            phases["phases"][0]["missing"],
            json!(["France", "Germany"]),
            "{}",
            t.label
        );
        assert_eq!(phases["phases"][1]["missing"], json!([r#"Ita"ly"#, r#"Tur\key"#]));
        let fall = gm.get(&format!("/api/games/{id}/phases/1")).await;
        assert_eq!(fall["missing"], json!([r#"Ita"ly"#, r#"Tur\key"#]));
        server.kill();
    }
}

/// The maps a mail shows are a JSON array of `[game, seq]` pairs (migration
/// 32) that the store reads into typed pairs, where they were `GAME:SEQ` joined by
/// spaces and split again by the sender and the digest. A mail written before the
/// migration (here one held for a digest, so still in the outbox) is converted and
/// still listed, with its kind, in the GM console.
#[tokio::test(flavor = "multi_thread")]
async fn mail_maps_stored_joined_by_an_older_version_are_converted() {
    for t in targets().await {
        let server = Server::start(&t.url);
        let (id, gm) = two_phases(&server, &format!("maps-{}", t.label)).await;
        server.kill();

        sqlx::any::install_default_drivers();
        let url = if t.label == "sqlite" {
            format!("sqlite://{}", t.url)
        } else {
            t.url.clone()
        };
        let db = AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap();
        let gm_id: i64 = sqlx::query("SELECT gm_id FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap()
            .get("gm_id");
        sqlx::query(
            "INSERT INTO outbox (id, account_id, address, game_id, kind, subject, text_body, html_body, message_id, created_ms, due_ms, attempts, maps, digest_ms) \
             VALUES (77, $1, 'gm@example.org', $2, 'results', 'Spring and Fall, before migration 32', 'text', '<p>html</p>', '<77.results@example.org>', 1, 1, 0, $3, 4102444800000)",
        )
        .bind(gm_id)
        .bind(id)
        .bind(format!("{id}:0 {id}:1"))
        .execute(&db)
        .await
        .unwrap();
        sqlx::query("DELETE FROM schema_migrations WHERE version = 32")
            .execute(&db)
            .await
            .unwrap();
        db.close().await;

        let server = Server::start(&t.url);
        let console = Api::new(&server.base, gm.token.clone())
            .get(&format!("/games/{id}/gm"))
            .await;
        let console = console.as_str().expect("a page");
        assert!(
            console.contains("Spring and Fall, before migration 32"),
            "{}: the mail is listed",
            t.label
        );
        assert!(console.contains("<td>results</td>"), "with its kind");
        server.kill();

        let db = AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap();
        let maps: String = sqlx::query("SELECT maps FROM outbox WHERE id = 77")
            .fetch_one(&db)
            .await
            .unwrap()
            .get("maps");
        assert_eq!(maps, format!("[[{id},0],[{id},1]]"), "{}", t.label);
        db.close().await;
    }
}
