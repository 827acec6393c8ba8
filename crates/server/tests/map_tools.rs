//! What the game page's map asks of the server for the viewer alone, over real HTTP:
//! the viewer's orders drawn (and nobody else's), a unit's legal targets from the
//! engine's order check, and the sandbox (judged, drawn, never stored, bounded).

mod common;

use chancery_engine::builtin::builtin;
use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::{GameState, UnitKind};
use common::{Api, Server};
use serde_json::{json, Value};

/// A running game of `variant` with one player per power in `powers`.
async fn game(server: &Server, variant: &str, powers: &[(&str, &str)]) -> (i64, Api, Vec<Api>) {
    let gm = server.register(&format!("gm-{}", variant.replace('-', ""))).await;
    let g = gm
        .post(
            "/api/games",
            json!({"name": format!("Map tools {variant}"), "variant": variant}),
        )
        .await;
    let id = g["id"].as_i64().unwrap();
    let mut players = Vec::new();
    for (name, power) in powers {
        let p = server.register(name).await;
        p.post(&format!("/api/games/{id}/join"), json!({"power": power})).await;
        players.push(p);
    }
    gm.post(&format!("/api/games/{id}/gm/start"), json!({})).await;
    (id, gm, players)
}

fn names(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            // A place (`{"to", "order"}`), a unit held (`{"unit", "order"}`) or a name.
            x.as_str()
                .or(x["to"].as_str())
                .or(x["unit"].as_str())
                .unwrap()
                .to_string()
        })
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn a_units_targets_are_the_orders_the_engine_takes() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let (id, _gm, players) = game(&server, "standard", &[("kaiser", "Germany"), ("tsar", "Russia")]).await;
    let germany = &players[0];
    let t = germany.get(&format!("/api/games/{id}/targets?unit=A%20ber")).await;
    assert_eq!(t["unit"], "A ber");
    // Rulebook map: Berlin borders Kiel, Munich, Prussia and Silesia by land; an order
    // to move into a space held by one's own unit is a legal order (it may fail).
    assert_eq!(names(&t["moves"]), ["kie", "mun", "pru", "sil"]);
    assert!(
        t["supports"]
            .as_array()
            .unwrap()
            .contains(&json!({"unit": "A mun", "to": "sil", "order": "A ber S A mun - sil"})),
        "Berlin may support Munich into Silesia, which both border: {t}"
    );
    assert!(names(&t["support_holds"]).contains(&"F kie".to_string()));
    assert!(
        !names(&t["support_holds"]).contains(&"A war".to_string()),
        "Berlin does not border Warsaw, so cannot support it"
    );
    assert_eq!(t["convoys"], json!([]), "an army convoys nobody");
    // A fleet on a coast convoys nobody either (rulebook: only fleets at sea convoy).
    let kiel = germany.get(&format!("/api/games/{id}/targets?unit=F%20kie")).await;
    assert_eq!(names(&kiel["moves"]), ["bal", "ber", "den", "hel", "hol"]);
    assert_eq!(kiel["convoys"], json!([]));
    // Each choice is the finished order, in the engine's text: a client composes none.
    assert_eq!(t["hold"], "A ber H");
    assert!(t["moves"]
        .as_array()
        .unwrap()
        .contains(&json!({"to": "sil", "order": "A ber - sil"})));
    assert!(t["support_holds"]
        .as_array()
        .unwrap()
        .contains(&json!({"unit": "F kie", "order": "A ber S F kie"})));
    // Every listed move is accepted by the engine, and every other space refused.
    let v = builtin("standard").unwrap().unwrap();
    let s = GameState::initial(&v);
    let p = v.find_power("Germany").unwrap();
    for prov in &v.provinces {
        let to = prov.abbr.to_ascii_lowercase();
        let ok = parse_order(&v, p, &format!("A ber - {to}"))
            .and_then(|o| validate(&v, &s, &o))
            .is_ok();
        assert_eq!(names(&t["moves"]).contains(&to), ok, "A ber - {to}");
    }
    // Another power's unit, or no unit: a message, not a list.
    let (status, body) = germany
        .call("GET", &format!("/api/games/{id}/targets?unit=A%20war"), None)
        .await;
    assert_eq!(status, 422);
    assert!(body["error"].as_str().unwrap().contains("Russia"), "{body}");
    let (status, _) = germany
        .call("GET", &format!("/api/games/{id}/targets?unit=A%20bur"), None)
        .await;
    assert_eq!(status, 422);
    // For the sandbox, any unit; a visitor gets nothing.
    let war = germany
        .get(&format!("/api/games/{id}/targets?unit=A%20war&any=true"))
        .await;
    assert!(names(&war["moves"]).contains(&"sil".to_string()));
    let (status, _) = server
        .visitor()
        .call("GET", &format!("/api/games/{id}/targets?unit=A%20war&any=true"), None)
        .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn original_1958_offers_boarding_and_no_convoys() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let (id, _gm, players) = game(&server, "original-1958", &[("windsor", "United Kingdom")]).await;
    let uk = &players[0];
    let army = uk.get(&format!("/api/games/{id}/targets?unit=A%20lon")).await;
    // Rules 6 and 7: no convoys; an army boards a fleet in a coastal space, here its
    // own capital London, where two British fleets stand.
    assert_eq!(army["convoys_exist"], false);
    assert_eq!(army["boarding"], true);
    assert_eq!(army["board_here"], "A lon B");
    let fleet = uk.get(&format!("/api/games/{id}/targets?unit=F%20lon")).await;
    assert_eq!(fleet["convoys"], json!([]));
    assert_eq!(fleet["board_here"], "F lon B");
    assert!(!fleet["boards"].as_array().unwrap().is_empty(), "{fleet}");
    // The game page says so: no convoy in the hint, boarding instead.
    let (_, page) = uk.call("GET", &format!("/games/{id}"), None).await;
    let page = page.as_str().unwrap();
    assert!(
        !page.contains("Convoy…") && !page.contains(" C A "),
        "no convoy on the page"
    );
    assert!(page.contains("Board…"), "the hint names boarding");
}

#[tokio::test]
async fn a_players_orders_are_drawn_for_that_player_alone() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let (id, gm, players) = game(&server, "standard", &[("kaiser2", "Germany"), ("tsar2", "Russia")]).await;
    let (germany, russia) = (&players[0], &players[1]);
    germany
        .post(
            &format!("/api/games/{id}/orders"),
            json!({"seq": 0, "orders": ["A ber - sil", "A mun S A ber - sil", "F kie - hol"]}),
        )
        .await;
    let drawn = germany.get(&format!("/api/games/{id}/orders/drawing")).await;
    let svg = drawn["svg"].as_str().unwrap();
    let wrapped = format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>"#);
    let doc = roxmltree::Document::parse(&wrapped).unwrap();
    let orders: Vec<&str> = doc.descendants().filter_map(|n| n.attribute("data-order")).collect();
    assert_eq!(orders, ["A mun S A ber - sil", "A ber - sil", "F kie - hol"]);
    // Russia's drawing has none of Germany's orders, and asking for Germany's is refused.
    let theirs = russia.get(&format!("/api/games/{id}/orders/drawing")).await;
    assert!(!theirs["svg"].as_str().unwrap().contains("data-order"), "{theirs}");
    let (status, _) = russia
        .call("GET", &format!("/api/games/{id}/orders/drawing?power=Germany"), None)
        .await;
    assert_eq!(status, 403);
    // The GM may look, naming the power.
    let gm_view = gm.get(&format!("/api/games/{id}/orders/drawing?power=Germany")).await;
    assert!(gm_view["svg"].as_str().unwrap().contains("A ber - sil"));
    // An order taken back is no longer drawn.
    germany
        .call("DELETE", &format!("/api/games/{id}/orders?unit=kie&seq=0"), None)
        .await;
    let drawn = germany.get(&format!("/api/games/{id}/orders/drawing")).await;
    assert!(!drawn["svg"].as_str().unwrap().contains("F kie - hol"));
}

#[tokio::test]
async fn the_sandbox_judges_any_orders_and_keeps_none() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let (id, _gm, players) = game(&server, "standard", &[("kaiser3", "Germany"), ("marianne", "France")]).await;
    let germany = &players[0];
    let observer = server.register("onlooker").await;
    observer.post(&format!("/api/games/{id}/observe"), json!({})).await;
    let out = observer
        .post(
            &format!("/api/games/{id}/sandbox"),
            json!({"orders": ["A par - bur", "A mar S A par - bur", "A mun - bur", "Germany: A ber - mun", "A xyz - abc"]}),
        )
        .await;
    let result = |unit: &str| -> Value {
        out["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["unit"] == unit)
            .cloned()
            .unwrap_or_else(|| panic!("no result for {unit}: {out}"))
    };
    // Rulebook: a supported move (2) beats an unsupported one (1) into Burgundy.
    assert_eq!(result("A par")["succeeded"], true);
    assert_eq!(result("A mun")["succeeded"], false);
    assert!(
        result("A mun")["outcome"].as_str().unwrap().contains("bounced"),
        "{out}"
    );
    assert_eq!(
        result("A ber")["succeeded"],
        false,
        "Berlin cannot enter Munich while it stays"
    );
    assert_eq!(out["refused"].as_array().unwrap().len(), 1, "{out}");
    assert!(out["svg"].as_str().unwrap().contains("class=\"order move"));
    // Nothing stored: Germany still has no orders, and the game has not moved.
    let mine = germany.get(&format!("/api/games/{id}/orders")).await;
    assert_eq!(mine["orders"], json!([]));
    assert_eq!(germany.get(&format!("/api/games/{id}")).await["seq"], 0);
    // Bounded: too many orders, too long an order, a visitor.
    let many: Vec<String> = (0..201).map(|_| "A par H".to_string()).collect();
    let (status, _) = observer
        .call(
            "POST",
            &format!("/api/games/{id}/sandbox"),
            Some(json!({"orders": many})),
        )
        .await;
    assert_eq!(status, 422);
    let (status, _) = observer
        .call(
            "POST",
            &format!("/api/games/{id}/sandbox"),
            Some(json!({"orders": ["A par - ".to_string() + &"x".repeat(300)]})),
        )
        .await;
    assert_eq!(status, 422);
    let stranger = server.register("stranger").await;
    let (status, _) = stranger
        .call("POST", &format!("/api/games/{id}/sandbox"), Some(json!({"orders": []})))
        .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn the_sandbox_takes_a_minor_powers_order_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("club.db").to_string_lossy());
    let (id, _gm, players) = game(&server, "1936", &[("duce", "Italy")]).await;
    let v = builtin("1936").unwrap().unwrap();
    let s = GameState::initial(&v);
    // A minor army with a legal move to an empty space.
    let (unit, to) = s
        .units
        .iter()
        .filter(|u| v.is_minor(u.power) && u.kind == UnitKind::Army)
        .find_map(|u| {
            v.army_neighbours(u.location.province).iter().find_map(|n| {
                let text = format!(
                    "A {} - {}",
                    v.location_name(u.location),
                    v.provinces[*n as usize].abbr.to_ascii_lowercase()
                );
                let ok = s.unit_at(*n).is_none()
                    && parse_order(&v, u.power, &text)
                        .and_then(|o| validate(&v, &s, &o))
                        .is_ok();
                ok.then(|| {
                    (
                        format!("A {}", v.location_name(u.location)),
                        v.provinces[*n as usize].abbr.to_ascii_lowercase(),
                    )
                })
            })
        })
        .expect("a minor army that can move");
    let out = players[0]
        .post(
            &format!("/api/games/{id}/sandbox"),
            json!({"orders": [format!("{unit} - {to}")]}),
        )
        .await;
    let r = out["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["unit"] == unit.as_str())
        .unwrap_or_else(|| panic!("{out}"));
    // DP rules (docs/rules-dp.md): a minor unit's move is a sortie; it succeeds against
    // an empty space, blocking it, and the unit stays home.
    assert_eq!(r["succeeded"], true, "{r}");
    assert!(r["outcome"].as_str().unwrap().contains("sortie"), "{r}");
    assert_eq!(out["refused"], json!([]));
}
