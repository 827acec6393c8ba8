//! The OpenAPI 3 document served at `/api/docs`, built from the route table below so
//! that the two cannot drift far apart: `routes.rs` has a test that every route here
//! answers something other than 404.

use axum::Json;
use serde_json::{json, Map, Value};

/// Who may call an operation.
#[derive(Clone, Copy)]
pub enum Access {
    Anyone,
    Account,
    Gm,
}

pub struct Op {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub access: Access,
    /// An example request body, when the operation takes one.
    pub body: Option<&'static str>,
}

const fn op(
    method: &'static str,
    path: &'static str,
    access: Access,
    summary: &'static str,
    body: Option<&'static str>,
) -> Op {
    Op {
        method,
        path,
        summary,
        access,
        body,
    }
}

use Access::*;

pub const OPS: &[Op] = &[
    op("post", "/api/register", Anyone, "Create an account; answers with a session (cookie and token).", Some(r#"{"name":"alice","password":"a long secret"}"#)),
    op("post", "/api/login", Anyone, "Log in; answers with a session (cookie and token). Failed attempts are throttled per name and address (429).", Some(r#"{"name":"alice","password":"a long secret"}"#)),
    op("post", "/api/logout", Account, "End this session.", None),
    op("get", "/api/me", Account, "The logged-in account.", None),
    op("post", "/api/me/password", Account, "Change your password: `old` must be right (403 otherwise; failures count against the login throttle). Every other session of the account ends.", Some(r#"{"old":"a long secret","new":"a longer secret"}"#)),
    op("get", "/api/players/{name}", Anyone, "An account's record: the powers it played and how each game stands or ended (anonymous games only on one's own record), and the games it runs as GM.", None),
    op("get", "/api/variants", Anyone, "The built-in variants and their powers.", None),
    op("get", "/api/games", Anyone, "All games with phase and deadline (UTC).", None),
    op("post", "/api/games", Account, "Create a game; the creator is its GM. `variant` names a built-in, or `variant_file` uploads one that must pass the lint. Without `start_at_ms` the game starts when every power has a player.", Some(r#"{"name":"Club game 12","variant":"standard","deadlines":{"movement_minutes":1440,"retreat_minutes":720,"adjustment_minutes":720,"at":"20:00","time_zone":"Europe/Berlin"},"press":"full","grey_press":false,"anonymous":false,"reveal_at_end":false}"#)),
    op("get", "/api/games/{id}", Anyone, "A game as the viewer may see it: position, powers (players hidden in anonymous games, until the game ends when it was created with `reveal_at_end`), deadline in UTC, and with `?tz=Zone/Name` also in the viewer's zone.", None),
    op("post", "/api/games/{id}/join", Account, "Take a vacant power (a named one, or the first free).", Some(r#"{"power":"England"}"#)),
    op("post", "/api/games/{id}/observe", Account, "Follow a game as an observer.", None),
    op("post", "/api/games/{id}/leave", Account, "Stop following a game, or give up your power while the game is still forming (409 once it has started: the GM replaces players).", None),
    op("get", "/api/games/{id}/orders", Account, "Your power's orders for the current phase, as they will be adjudicated (GM: `?power=`).", None),
    op("post", "/api/games/{id}/orders", Account, "Submit orders; each is validated on arrival and all are refused (422, with the engine's message per order) if any is wrong. A new order for a unit replaces its old one; `replace` clears the power's orders first.", Some(r#"{"orders":["F lon - nth","A lvp - yor"],"replace":false}"#)),
    op("delete", "/api/games/{id}/orders", Account, "Clear your orders, or one unit's with `?unit=`.", None),
    op("post", "/api/games/{id}/ready", Account, "Mark your power ready; when every power with a choice is ready the phase is processed at once.", None),
    op("delete", "/api/games/{id}/ready", Account, "Take back your ready mark.", None),
    op("get", "/api/games/{id}/bids", Account, "Your power's Diplomacy Points bids (the GM: everyone's). Bids are never published.", None),
    op("post", "/api/games/{id}/bids", Account, "Bid Diplomacy Points on minor units this phase (variants with minor powers only): each bid is a unit, 1 or 2 DPs and the order it asks of the unit, and replaces your earlier bid on that unit; `replace` clears your bids first. Your whole set of bids is checked against the DP rules (budget, caps, no bid on a minor you attack) and refused (422, with the engine's message) if it breaks one.", Some(r#"{"bids":[{"unit":"Belgium","dp":2,"order":"A bel - hol"}],"replace":false}"#)),
    op("delete", "/api/games/{id}/bids", Account, "Remove your bids this phase, or one unit's with `?unit=`.", None),
    op("get", "/api/games/{id}/budget", Account, "Your DP budget this turn with the reckoning behind it (the GM: every great power's, or `?power=`).", None),
    op("get", "/api/games/{id}/press", Anyone, "The messages the viewer may read, newest last; `since_ms`, `before_ms` and `limit` (1 to 1000) page through them, `more` says older ones were left out, `latest_ms` is the time to poll from.", None),
    op("post", "/api/games/{id}/draw-vote", Account, "Vote for a draw among all surviving powers; when every survivor with a player has voted, the game ends in that draw. Votes are secret: a player sees only their own (`you.draw_vote`), the GM all.", None),
    op("delete", "/api/games/{id}/draw-vote", Account, "Take back your draw vote.", None),
    op("post", "/api/games/{id}/press", Account, "Send press: `to` lists powers, or `GM` for the game master alone (allowed whatever the press setting); absent: everyone. `grey` hides your power where the game allows.", Some(r#"{"to":["France"],"body":"Shall we talk about the Channel?","grey":false}"#)),
    op("get", "/api/games/{id}/phases", Anyone, "The processed phases.", None),
    op("get", "/api/games/{id}/phases/{seq}", Anyone, "One processed phase: position before, every order's outcome with its reason, centre counts, and `missing`: the powers with a decision that gave no orders.", None),
    op("get", "/api/games/{id}/map.svg", Anyone, "The current position as an SVG image (no orders: they are secret until processed).", None),
    op("get", "/api/games/{id}/phases/{seq}/map.svg", Anyone, "A processed phase as an SVG image: the position before it with every order and its result drawn, or with `?after=true` the position after it.", None),
    op("post", "/api/games/{id}/gm/start", Gm, "Start a forming game now.", None),
    op("post", "/api/games/{id}/gm/process", Gm, "Process the current phase now.", None),
    op("post", "/api/games/{id}/gm/extend", Gm, "Move the deadline: by `minutes`, or to `deadline_ms`.", Some(r#"{"minutes":1440}"#)),
    op("post", "/api/games/{id}/gm/pause", Gm, "Pause the deadline.", None),
    op("post", "/api/games/{id}/gm/resume", Gm, "Resume a paused game with the time it had left.", None),
    op("post", "/api/games/{id}/gm/rollback", Gm, "Take back the last processed phase.", None),
    op("post", "/api/games/{id}/gm/rollforward", Gm, "Undo a rollback: the phase is judged again from the orders stored now; unchanged orders restore the old result, changed ones publish the new (`readjudicated`).", None),
    op("post", "/api/games/{id}/gm/assign", Gm, "Give a vacant power to an account.", Some(r#"{"power":"Turkey","account":"bob"}"#)),
    op("post", "/api/games/{id}/gm/replace", Gm, "Give a power to another account; the history stays.", Some(r#"{"power":"Turkey","account":"carol"}"#)),
    op("post", "/api/games/{id}/gm/civil-disorder", Gm, "Declare a power in civil disorder: its seat ends and its units hold; in the DP variants (rule 11) for good, its centres becoming independent minors, unless `permanent` is false.", Some(r#"{"power":"Italy","permanent":true}"#)),
    op("post", "/api/games/{id}/gm/end", Gm, "End the game as a draw (two powers or more) or a concession (one).", Some(r#"{"result":"draw","powers":["England","France","Russia"]}"#)),
    op("post", "/api/games/{id}/gm/settings", Gm, "Change the game's name, press rules (at once) or deadline schedule (from the next phase; the current deadline stays, see `extend`). Fields left out keep their value; `deadlines.at: \"\"` drops a fixed time of day. Anonymity can't change once players joined under it.", Some(r#"{"press":"public","deadlines":{"movement_minutes":2880,"at":"20:00","time_zone":"Europe/Paris"}}"#)),
    op("post", "/api/games/{id}/gm/transfer", Gm, "Hand the game to another account as its GM (not to one of its players: a GM reads every order and bid). Announced in press.", Some(r#"{"account":"dave"}"#)),
    op("get", "/api/games/{id}/gm/orders", Gm, "Every power's current orders.", None),
    op("get", "/api/games/{id}/gm/events", Gm, "The game's event log: starts, processing, GM actions.", None),
    op("get", "/api/games/{id}/gm/bid-report", Gm, "Who bid what on each minor unit and which order won: for a processed phase (`?seq=`) the report kept with its result; without `seq`, how the current bids would resolve now.", None),
    op("get", "/api/health", Anyone, "Liveness.", None),
    op("get", "/api/docs", Anyone, "This document.", None),
];

pub fn document() -> Value {
    let mut paths = Map::new();
    for o in OPS {
        let mut operation = json!({
            "summary": o.summary,
            "responses": {
                "200": {"description": "Success (201 for creations)", "content": {"application/json": {}}},
                "default": {"description": "An error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
            },
        });
        if o.path.ends_with(".svg") {
            operation["responses"]["200"] = json!({"description": "The map", "content": {"image/svg+xml": {}}});
        }
        match o.access {
            Anyone => {}
            Account | Gm => operation["security"] = json!([{"bearer": []}, {"cookie": []}]),
        }
        if let Access::Gm = o.access {
            operation["description"] = json!("The game's GM only (403 otherwise).");
        }
        if let Some(body) = o.body {
            let example: Value = serde_json::from_str(body).unwrap_or(Value::Null);
            operation["requestBody"] = json!({"required": true, "content": {"application/json": {"example": example}}});
        }
        let mut params = Vec::new();
        let integer = json!({"type": "integer", "format": "int64"});
        let text = json!({"type": "string"});
        for (name, schema) in [("id", &integer), ("seq", &integer), ("name", &text)] {
            if o.path.contains(&format!("{{{name}}}")) {
                params.push(json!({"name": name, "in": "path", "required": true, "schema": schema}));
            }
        }
        if !params.is_empty() {
            operation["parameters"] = Value::Array(params);
        }
        let entry = paths.entry(o.path.to_string()).or_insert_with(|| json!({}));
        entry[o.method] = operation;
    }
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "Chancery club server",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Diplomacy games with a game master, UTC deadlines, press and history. Times are UTC: ISO 8601 strings, and `_ms` fields in milliseconds since 1970. Errors are `{\"error\": message}` with a fitting status code. Request bodies are limited to 64 KiB (2 MiB when creating a game, for variant files).",
        },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": crate::auth::COOKIE_NAME},
            },
            "schemas": {"Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}},
        },
    })
}

pub async fn docs() -> Json<Value> {
    Json(document())
}
