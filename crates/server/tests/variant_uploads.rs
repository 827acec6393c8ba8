//! Uploaded variants: the limits on what one may ask of the server (an
//! upload is work the server does for anyone), no upload taking a built-in variant's
//! name or changing its map (a game of Standard must be Standard), and
//! the built-in variants' maps as GeoJSON.

mod common;

use std::time::{Duration, Instant};

use common::{grid_variant, moved_standard, Api, Server};
use serde_json::{json, Value};

const STANDARD: &str = include_str!("../../../variants/standard.var");

async fn upload(gm: &Api, file: &str, text: &str) -> (u16, Value) {
    gm.call(
        "POST",
        "/api/games",
        Some(json!({"name": format!("on {file}"), "variant_file": {"name": file, "text": text}})),
    )
    .await
}

/// The map image, waiting while the server says it is being drawn (503, `Retry-After`).
async fn map_svg(api: &Api, game: i64) -> String {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let (status, body) = api.call("GET", &format!("/api/games/{game}/map.svg"), None).await;
        match status {
            200 => return body.as_str().expect("an SVG").to_string(),
            503 if Instant::now() < deadline => {
                assert!(body["error"].as_str().unwrap().contains("being drawn"), "{body}");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            _ => panic!("map of game {game}: {status} {body}"),
        }
    }
}

/// Finding 1's limits on an upload: its file's size, its spaces, the request's body.
#[tokio::test(flavor = "multi_thread")]
async fn uploads_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.db").to_string_lossy().into_owned();
    let server = Server::start(&db);
    let gm = server.register("the-gm").await;

    // Limits that fit every real variant (1648: 141 spaces, 30 KB) with room.
    let (status, body) = upload(&gm, "big.var", &format!("{STANDARD}\n{}", "#".repeat(300 * 1024))).await;
    assert_eq!(status, 413, "{body}");
    assert!(body["error"].as_str().unwrap().contains("262144"), "{body}");
    let (status, body) = upload(&gm, "grid.var", &grid_variant(21, "grid", 0.0)).await;
    assert_eq!(status, 422, "{body}");
    assert!(body["error"].as_str().unwrap().contains("441 spaces"), "{body}");
    assert!(body["error"].as_str().unwrap().contains("at most 400"), "{body}");
    let raw = reqwest::Client::new()
        .post(format!("{}/api/games", server.base))
        .bearer_auth(gm.token.as_deref().unwrap())
        .header("content-type", "application/json")
        .body(vec![b' '; 2 * 1024 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 413);
}

/// Finding 4 (map cache poisoning): an upload may not take a built-in variant's name,
/// and every cache made from a variant is keyed by its text, so an upload drawn first
/// after a restart cannot change Standard's map.
#[tokio::test(flavor = "multi_thread")]
async fn no_upload_takes_a_built_in_name_or_changes_its_map() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("club.db").to_string_lossy().into_owned();
    let server = Server::start(&db);
    let gm = server.register("the-gm").await;

    // The attack: standard.var with every anchor moved, still calling
    // itself `standard`. Refused, by its `variant` line and by its file's name.
    let moved = moved_standard("standard", 0.2);
    assert_ne!(moved, STANDARD);
    for (file, text) in [("standard.var", moved.as_str()), ("mine.var", moved.as_str())] {
        let (status, body) = upload(&gm, file, text).await;
        assert_eq!(status, 422, "{file}: {body}");
        assert!(body["error"]
            .as_str()
            .unwrap()
            .contains("`standard` is the name of a built-in variant"));
    }
    let renamed = moved.replacen("variant standard", "variant moved", 1);
    let (status, body) = upload(&gm, "Standard.var", &renamed).await;
    assert_eq!(status, 422, "the file's name counts too: {body}");
    let (status, body) = upload(&gm, "moved.var", &renamed).await;
    assert_eq!(status, 201, "{body}");
    let moved_game = body["id"].as_i64().unwrap();
    let standard_game = gm
        .post("/api/games", json!({"name": "plain", "variant": "standard"}))
        .await["id"]
        .as_i64()
        .unwrap();
    let before = map_svg(&gm, standard_game).await;

    // After a restart the upload is drawn first; Standard's map is still Standard's.
    server.kill();
    let server = Server::start(&db);
    let gm = Api::new(&server.base, gm.token.clone());
    let drawn_moved = map_svg(&gm, moved_game).await;
    assert_ne!(drawn_moved, before, "the upload has a map of its own");
    assert_eq!(map_svg(&gm, standard_game).await, before);
}

#[tokio::test(flavor = "multi_thread")]
async fn built_in_maps_as_geojson() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let anon = server.visitor();
    for name in chancery_engine::builtin::builtin_names() {
        let response = reqwest::get(format!("{}/api/variants/{name}/map.geojson", server.base))
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "application/geo+json");
        let text = response.text().await.unwrap();
        // The same document as `chancery map NAME --geojson` prints.
        let v = chancery_engine::builtin::builtin(name).unwrap().unwrap();
        let shapes = chancery_render::shapes_of(&v).unwrap();
        assert_eq!(text, shapes.with_seas_cut(&v).to_geojson(&v), "{name}");
        // RFC 7946: a FeatureCollection, one Polygon or MultiPolygon per space in
        // longitude and latitude.
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["type"], "FeatureCollection");
        let spaces: Vec<&Value> = doc["features"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["properties"]["abbr"].is_string() && f["properties"]["terrain"].is_string())
            .collect();
        assert_eq!(spaces.len(), v.provinces.len(), "{name}");
        for f in spaces {
            let kind = f["geometry"]["type"].as_str().unwrap();
            assert!(kind == "Polygon" || kind == "MultiPolygon", "{name}: {kind}");
            let abbr = f["properties"]["abbr"].as_str().unwrap();
            assert_eq!(abbr, abbr.to_lowercase());
            let first = &f["geometry"]["coordinates"];
            let point = if kind == "Polygon" {
                &first[0][0]
            } else {
                &first[0][0][0]
            };
            let (lon, lat) = (point[0].as_f64().unwrap(), point[1].as_f64().unwrap());
            assert!((-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat));
        }
    }
    let (status, body) = anon.call("GET", "/api/variants/nowhere/map.geojson", None).await;
    assert_eq!(status, 404, "{body}");
    assert!(body["error"].as_str().unwrap().contains("unknown variant"));
    let docs = anon.get("/api/docs").await;
    assert!(docs["paths"]["/api/variants/{name}/map.geojson"]["get"].is_object());
}
