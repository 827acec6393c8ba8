//! The game page: the map of the current phase, the deadline, each power's counts, and
//! for a player the orders (typed or clicked on the map), the DP bids, the ready mark;
//! for everyone who may, the press.

use std::fmt::Write;

use axum::extract::State;
use axum::response::IntoResponse;
use axum::Json;
use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, PhaseKind, Variant};
use serde::Deserialize;
use serde_json::{json, Value};

use super::layout::{esc, frame, json_block, power_badge, utc_text, PageResult};
use super::{map, press};
use crate::auth::{Account, Viewer};
use crate::error::{ApiResult, Params, Path};
use crate::model::GameStatus;
use crate::services::games::{self, acting_power, role_of, Role};
use crate::services::maps::MapOf;
use crate::store::games::Game;
use crate::App;

/// A power's colour for the page's badges: the variant's, when it is a CSS hex colour.
pub fn colour(v: &Variant, name: &str) -> String {
    v.find_power(name)
        .and_then(|p| v.power(p).colour.clone())
        .filter(|c| c.starts_with('#') && c.len() <= 7 && c[1..].bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(|| "#888888".into())
}

/// The deadline as a countdown (run by common.js against the server's clock, `now_ms`),
/// as a date in UTC, and in the viewer's own time zone.
pub(super) fn deadline_html(game: &Game, view: &Value, now_ms: i64) -> String {
    match (game.status, game.deadline_ms, view["deadline"].as_str()) {
        (GameStatus::Active, Some(ms), Some(iso)) => format!(
            r#"<p class="deadline">Deadline in <strong id="countdown" class="countdown" data-deadline-ms="{ms}" data-now-ms="{now_ms}">…</strong><br><time datetime="{iso}">{}</time><span id="deadline-local" class="local-time" data-ms="{ms}"></span></p>"#,
            esc(&utc_text(iso))
        ),
        (GameStatus::Paused, _, _) => {
            let left = game.paused_left_ms.unwrap_or(0) / 60_000;
            format!(r#"<p class="deadline">Paused by the GM with {left} minutes left.</p>"#)
        }
        (GameStatus::Forming, _, _) => match view["start_at"].as_str() {
            Some(iso) => format!(
                r#"<p class="deadline">Starts at <time datetime="{iso}">{}</time>.</p>"#,
                esc(&utc_text(iso))
            ),
            None => r#"<p class="deadline">Starts when every power has a player.</p>"#.to_string(),
        },
        _ => match &game.outcome {
            Some(o) => format!(r#"<p class="deadline">Game over: {}.</p>"#, esc(o)),
            None => r#"<p class="deadline">Game over.</p>"#.to_string(),
        },
    }
}

fn powers_table(v: &Variant, view: &Value) -> String {
    let mut great = String::new();
    let mut minor = String::new();
    for p in view["powers"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap_or("");
        let mut marks = Vec::new();
        if p["ready"].as_bool() == Some(true) {
            marks.push("ready");
        }
        if p["civil_disorder"].as_bool() == Some(true) {
            marks.push("civil disorder");
        }
        let player = match (
            p["player"].as_str(),
            p["ordered_by"].as_str(),
            p["has_player"].as_bool(),
        ) {
            (Some(n), _, _) => format!(r#"<a href="/players/{0}">{0}</a>"#, esc(n)),
            (None, Some(by), _) => format!("ordered by {}", esc(by)),
            (None, None, Some(true)) => "taken".into(),
            _ if p["kind"] == "minor" => "—".into(),
            _ => "<em>vacant</em>".into(),
        };
        let row = format!(
            r#"<tr data-power="{}"><th scope="row">{}</th><td>{player}</td><td class="num">{}</td><td class="num">{}</td><td>{}</td></tr>"#,
            esc(name),
            power_badge(name, &colour(v, name)),
            p["centres"],
            p["units"],
            marks.join(", ")
        );
        if p["kind"] == "minor" {
            minor.push_str(&row);
        } else {
            great.push_str(&row);
        }
    }
    let head = r#"<thead><tr><th scope="col">Power</th><th scope="col">Player</th><th scope="col" class="num">Centres</th><th scope="col" class="num">Units</th><th scope="col">Status</th></tr></thead>"#;
    let mut out = format!(r#"<div class="scroll"><table class="powers">{head}<tbody>{great}</tbody></table></div>"#);
    if !minor.is_empty() {
        let _ = write!(
            out,
            r#"<details><summary>Minor powers</summary><div class="scroll"><table class="powers">{head}<tbody>{minor}</tbody></table></div></details>"#
        );
    }
    out
}

/// A button that leaves the game (`/api/games/{id}/leave`), after a confirmation.
fn leave_button(game: &Game, label: &str, confirm: &str) -> String {
    format!(
        r#"<form class="api-form inline" data-api="/api/games/{}/leave" data-method="POST" data-reload data-confirm="{}"><button type="submit" id="leave" class="secondary">{label}</button><span class="form-message" role="status"></span></form>"#,
        game.id,
        esc(confirm)
    )
}

fn join_html(game: &Game, view: &Value, viewer: Option<&Account>, role: &Role) -> String {
    if game.status == GameStatus::Finished || *role == Role::Gm {
        return String::new();
    }
    if let Role::Player(power) = role {
        // Once the game runs, the GM replaces players: no button then.
        if game.status != GameStatus::Forming {
            return String::new();
        }
        return format!(
            r#"<section class="card"><p>You will play {} when the game starts.</p>{}</section>"#,
            esc(power),
            leave_button(
                game,
                "Give up this power",
                "Leave the game? The power becomes vacant again."
            )
        );
    }
    let Some(_) = viewer else {
        return format!(
            r#"<section class="card"><p><a href="/login?next=/games/{}">Log in</a> to join this game or follow it.</p></section>"#,
            game.id
        );
    };
    let vacant: Vec<&str> = view["powers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["playable"].as_bool() == Some(true) && p["has_player"].as_bool() != Some(true))
        .filter_map(|p| p["name"].as_str())
        .collect();
    let mut out = String::from(r#"<section class="card" aria-labelledby="join-h"><h2 id="join-h">Join</h2>"#);
    if vacant.is_empty() {
        out.push_str(r#"<p class="note">Every power has a player.</p>"#);
    } else {
        out.push_str(r#"<p>Take a vacant power:</p><div class="buttons">"#);
        for p in vacant {
            let _ = write!(
                out,
                r#"<form class="api-form inline" data-api="/api/games/{}/join" data-method="POST" data-reload><input type="hidden" name="power" value="{p}"><button type="submit" data-join="{p}">Play {p}</button><span class="form-message" role="status"></span></form>"#,
                game.id,
                p = esc(p)
            );
        }
        out.push_str("</div>");
    }
    if *role == Role::Visitor {
        let _ = write!(
            out,
            r#"<form class="api-form inline" data-api="/api/games/{}/observe" data-method="POST" data-reload><button type="submit" class="secondary">Follow as an observer</button><span class="form-message" role="status"></span></form>"#,
            game.id
        );
    } else {
        out.push_str(&leave_button(game, "Stop following", "Stop following this game?"));
    }
    out.push_str("</section>");
    out
}

fn phase_hint(kind: PhaseKind) -> &'static str {
    match kind {
        PhaseKind::Movement => "Click one of your units on the map, then the space it should move to (the unit again: hold), or choose Support… or Convoy… after it. Or type an order, such as <code>A ber - sil</code>, <code>F kie S A ber - den</code> or <code>F lon C A yor - nwy</code>.",
        PhaseKind::Retreat => "Click a dislodged unit (ringed in red), then the space it retreats to, or type <code>A ber R sil</code> or <code>A ber D</code>.",
        PhaseKind::Adjustment => "Click a home centre to build there, or a unit to remove it. Or type <code>Build A ber</code>, <code>Build F stp/nc</code>, <code>Remove A war</code>, <code>Waive</code>.",
    }
}

async fn orders_panel(
    app: &App,
    game: &Game,
    account: &Account,
    power: &str,
    kind: PhaseKind,
    ready: bool,
) -> ApiResult<String> {
    let current = crate::services::orders::list(app, account, game.id, Some(power)).await?;
    let mut items = String::new();
    for o in &current.orders {
        let _ = write!(
            items,
            r#"<li><span class="order-text">{}</span> <button type="button" class="link remove-order" data-unit="{}" aria-label="Remove the order {0}">Remove</button></li>"#,
            esc(&o.order),
            esc(&o.unit)
        );
    }
    Ok(format!(
        r#"<section class="card" aria-labelledby="orders-h"><h2 id="orders-h">Orders for {power}</h2>
<p class="hint">{hint}</p>
<p id="map-hint" class="map-hint" role="status" aria-live="polite"></p>
<ol id="orders" class="orders" aria-label="Your orders">{items}</ol>
<p id="no-orders" class="note"{none}>No orders yet: units without one hold.</p>
<form id="order-form" autocomplete="off"><label for="order-text">Order</label><div class="row"><input id="order-text" name="order" required maxlength="200" spellcheck="false" autocapitalize="none" aria-describedby="order-message"><button type="submit">Add order</button></div>
<p id="order-message" class="form-message" role="status" aria-live="polite"></p></form>
<p><button type="button" id="ready" aria-pressed="{ready}">{ready_label}</button> <span id="ready-message" class="form-message" role="status" aria-live="polite"></span></p>
<p class="note">When every player with a decision is ready, the phase is processed at once.</p>
<noscript><p class="note">Sending orders from this page needs JavaScript; the JSON API (<a href="/api/docs">/api/docs</a>) takes them too.</p></noscript></section>"#,
        power = esc(power),
        hint = phase_hint(kind),
        none = if items.is_empty() { "" } else { " hidden" },
        ready_label = if ready {
            "Ready ✓ (click to take back)"
        } else {
            "Mark ready"
        },
    ))
}

/// The DP panel for variants with minor powers (1936, 1648): this turn's budget with
/// its reckoning from the engine, the power's bids (a minor unit, DPs, and the order
/// bought for it) and a form to add one.
async fn bids_panel(
    app: &App,
    game: &Game,
    account: &Account,
    v: &Variant,
    state: &GameState,
    power: &str,
) -> ApiResult<String> {
    if !crate::services::bids::has_dp(v) {
        return Ok(String::new());
    }
    let budget = match v.find_power(power) {
        Some(p) => {
            let b = chancery_engine::dp::budget(v, state, p);
            let lines: String = b.lines.iter().map(|l| format!("<li>{}</li>", esc(l))).collect();
            format!(
                r#"<p>Budget this turn: <strong id="dp-budget" data-dp="{}">{} DP</strong></p><ul class="reckoning" id="dp-reckoning">{lines}</ul>"#,
                b.total, b.total
            )
        }
        None => String::new(),
    };
    let bids = crate::services::bids::list(app, account, game.id, Some(power)).await?;
    let mut items = String::new();
    for b in bids.bids.iter().filter(|b| b.seq == game.seq) {
        let _ = write!(
            items,
            r#"<li><span class="bid-text">{} DP: {}</span> <button type="button" class="link remove-bid" data-unit="{}" aria-label="Remove the bid on {}">Remove</button></li>"#,
            b.dp,
            esc(&b.order),
            esc(&b.unit),
            esc(&b.order)
        );
    }
    let mut options = String::new();
    for u in state.units.iter().filter(|u| v.power(u.power).kind == PowerKind::Minor) {
        let place = &v.province(u.location.province).name;
        let _ = write!(
            options,
            r#"<option value="{}" data-prefix="{} {}">{} {} ({})</option>"#,
            esc(&v.province(u.location.province).abbr.to_ascii_lowercase()),
            u.kind.letter(),
            esc(place),
            u.kind.letter(),
            esc(place),
            esc(&v.power(u.power).name)
        );
    }
    if options.is_empty() {
        return Ok(format!(
            r#"<section class="card" aria-labelledby="dp-h"><h2 id="dp-h">Diplomacy Points</h2>{budget}<p class="note">No minor power has a unit on the board.</p></section>"#
        ));
    }
    Ok(format!(
        r#"<section class="card" aria-labelledby="dp-h"><h2 id="dp-h">Diplomacy Points</h2>{budget}
<ol id="bids" class="orders" aria-label="Your bids">{items}</ol>
<p id="no-bids" class="note"{none}>No bids yet.</p>
<form id="bid-form" autocomplete="off"><label for="bid-unit">Minor unit</label><select id="bid-unit" name="unit">{options}</select>
<label for="bid-dp">DPs</label><select id="bid-dp" name="dp"><option value="1">1</option><option value="2">2</option></select>
<label for="bid-order">Its order</label><div class="row"><input id="bid-order" name="order" required maxlength="200" spellcheck="false" autocapitalize="none" aria-describedby="bid-message"><button type="submit">Add bid</button></div>
<p id="bid-message" class="form-message" role="status" aria-live="polite"></p></form>
<p class="note">At most 1 DP on a unit, or 2 on one unit; no bid on a minor you attack. Bids are secret: only you and the GM see them.</p></section>"#,
        none = if items.is_empty() { "" } else { " hidden" },
    ))
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<i64>) -> PageResult {
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, viewer.as_ref()).await?;
    let view = crate::services::games::view::view_json(&app, &game, &role).await?;
    let v = game.variant(&app)?;
    let state = game.state(&v)?;
    let my_power = match &role {
        Role::Player(p) => Some(p.clone()),
        _ => None,
    };
    let controlled: Vec<String> = match my_power.as_deref().and_then(|p| v.find_power(p)) {
        Some(me) => (0..v.powers.len())
            .filter(|o| v.controls(me, *o as chancery_engine::PowerId))
            .map(|o| v.powers[o].name.clone())
            .collect(),
        None => Vec::new(),
    };
    let running = game.status.running();
    let mut body = String::new();
    let you = match &role {
        Role::Gm => format!(r#"You are the GM. <a href="/games/{id}/gm">GM console</a>"#),
        Role::Player(p) => format!("You play {}.", power_badge(p, &colour(&v, p))),
        Role::Observer => "You follow this game.".into(),
        Role::Visitor => String::new(),
    };
    let last = if game.seq > 0 {
        format!(
            r#" · <a href="/games/{id}/history/{}">Results of the last phase</a>"#,
            game.seq - 1
        )
    } else {
        String::new()
    };
    let _ = write!(
        body,
        r#"<div class="game-head"><div><h1>{}</h1><p class="meta">{} · <span id="phase" data-phase="{}">{}</span> · {} · GM {}</p><p class="you">{you}{last}</p></div>{}</div>"#,
        esc(&game.name),
        esc(&game.variant),
        esc(&state.phase.code()),
        esc(&state.phase.to_string()),
        game.status,
        esc(view["gm"].as_str().unwrap_or("?")),
        deadline_html(&game, &view, app.clock.now_ms())
    );
    let mut side = String::new();
    side.push_str(&join_html(&game, &view, viewer.as_ref(), &role));
    if let (Some(account), Some(power), true) = (&viewer, &my_power, running) {
        let ready = view["powers"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["name"] == power.as_str() && p["ready"].as_bool() == Some(true));
        side.push_str(&orders_panel(&app, &game, account, power, state.phase.kind, ready).await?);
        side.push_str(&bids_panel(&app, &game, account, &v, &state, power).await?);
        side.push_str(&draw_panel(&view));
    }
    let _ = write!(
        side,
        r#"<section class="card" aria-labelledby="powers-h"><h2 id="powers-h">Powers</h2>{}</section>"#,
        powers_table(&v, &view)
    );
    let _ = write!(
        side,
        r#"<nav class="card links" aria-label="This game"><a href="/games/{id}/history">History and results</a> · <a href="/api/games/{id}/map.svg" download="game-{id}-{}.svg">The map as an image</a> · <a href="/games/{id}/feed.atom" type="application/atom+xml">Follow in a feed reader</a>{}</nav>"#,
        state.phase.code(),
        if role == Role::Gm {
            format!(r#" · <a href="/games/{id}/gm">GM console</a>"#)
        } else {
            String::new()
        }
    );
    let label = format!("Map of {} in {}", game.name, state.phase);
    let drawn = map::svg(&app, &MapOf::game(&app, &game)?, &state, None, &label).await;
    let _ = write!(
        body,
        r#"<div class="game-grid"><div class="map-col">{drawn}</div><div class="side-col">{side}</div></div>"#,
    );
    body.push_str(r#"<p id="stale" class="stale" role="status" hidden></p>"#);
    body.push_str(&press::section(&app, &game, &role, viewer.as_ref(), &v).await?);
    let data = json!({
        "id": game.id,
        "status": game.status,
        "phase": state.phase.code(),
        "seq": game.seq,
        "kind": match state.phase.kind { PhaseKind::Movement => "M", PhaseKind::Retreat => "R", PhaseKind::Adjustment => "A" },
        "power": my_power,
        "adjust": match (state.phase.kind, my_power.as_deref().and_then(|p| v.find_power(p))) {
            (PhaseKind::Adjustment, Some(p)) => super::adjust::choices(&v, &state, p),
            _ => Value::Null,
        },
        "controls": controlled,
    });
    body.push_str(&json_block("game-data", &data));
    Ok(frame(&game.name, viewer.as_ref(), &body, &["game.js"]).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Check {
    text: String,
    #[serde(default)]
    power: Option<String>,
}

/// The engine's verdict on one order as the player types it, without storing it: the
/// same parser and board check that the order API applies on submission.
pub async fn check_order(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Params(c): Params<Check>,
) -> ApiResult<Json<Value>> {
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(&account)).await?;
    let v = game.variant(&app)?;
    let power = acting_power(&role, c.power.as_deref(), &v)?;
    let state = game.state(&v)?;
    let Some(p) = v.find_power(&power) else {
        return Ok(Json(json!({"ok": false, "error": format!("unknown power `{power}`")})));
    };
    if c.text.chars().count() > crate::limits::MAX_ORDER_CHARS {
        return Ok(Json(json!({"ok": false, "error": "the order is too long"})));
    }
    Ok(Json(
        match parse_order(&v, p, &c.text).and_then(|o| validate(&v, &state, &o)) {
            Ok(order) => json!({"ok": true, "order": order.display(&v).to_string()}),
            Err(e) => json!({"ok": false, "error": e.to_string()}),
        },
    ))
}

/// The player's draw vote: a toggle, private to the player (and the GM).
fn draw_panel(view: &Value) -> String {
    let on = view["you"]["draw_vote"].as_bool() == Some(true);
    let label = if on {
        "Voted for a draw ✓ (click to take back)"
    } else {
        "Vote for a draw"
    };
    format!(
        r#"<section class="card" aria-labelledby="draw-h"><h2 id="draw-h">Draw</h2><p class="note">The game ends in a draw shared by every surviving power once each surviving player has voted for one. Only you and the GM see your vote.</p><p><button type="button" id="draw-vote" aria-pressed="{on}">{label}</button> <span id="draw-vote-message" class="form-message" role="status" aria-live="polite"></span></p></section>"#
    )
}
