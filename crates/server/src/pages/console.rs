//! The GM console: the server's GM tools as forms (start, process now, deadlines,
//! pause, rollback, seats, civil disorder, ending the game), every power's current
//! orders, the secret bid report per minor unit, and the game's event log.

use std::collections::BTreeMap;
use std::fmt::Write;

use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use chancery_engine::{GameState, PowerId, Variant};
use serde_json::Value;

use super::game::{colour, deadline_html};
use super::layout::{esc, frame, power_badge, utc_text, PageError, PageResult};
use crate::auth::Viewer;
use crate::error::{ApiError, Path};
use crate::model::GameStatus;
use crate::services::games::{self, Role};
use crate::services::processing::has_choice;
use crate::store::games::Game;
use crate::App;

fn tool(game: &Game, action: &str, label: &str, fields: &str, confirm: Option<&str>) -> String {
    let confirm = confirm
        .map(|c| format!(r#" data-confirm="{}""#, esc(c)))
        .unwrap_or_default();
    format!(
        r#"<form class="api-form tool" data-api="/api/games/{}/gm/{action}" data-method="POST" data-reload{confirm}>{fields}<button type="submit" id="gm-{action}">{label}</button><span class="form-message" role="status" aria-live="polite"></span></form>"#,
        game.id
    )
}

fn power_select(id: &str, powers: &[&str]) -> String {
    let options: String = powers
        .iter()
        .map(|p| format!(r#"<option value="{0}">{0}</option>"#, esc(p)))
        .collect();
    format!(r#"<label for="{id}">Power</label><select id="{id}" name="power">{options}</select>"#)
}

/// Who holds each great power's seat, whatever the game's anonymity: the GM needs the
/// accounts to replace a player or to chase one.
fn seats_html(v: &Variant, view: &Value) -> String {
    let rows: String = view["powers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["playable"].as_bool() == Some(true))
        .map(|p| {
            let name = p["name"].as_str().unwrap_or("");
            let player = match p["player"].as_str() {
                Some(account) => esc(account),
                None if p["civil_disorder"].as_bool() == Some(true) => "<em>civil disorder</em>".into(),
                None => "<em>vacant</em>".into(),
            };
            let ready = if p["ready"].as_bool() == Some(true) {
                "ready"
            } else {
                ""
            };
            format!(
                r#"<tr data-power="{}"><th scope="row">{}</th><td>{player}</td><td>{ready}</td></tr>"#,
                esc(name),
                power_badge(name, &colour(v, name))
            )
        })
        .collect();
    format!(
        r#"<div class="scroll"><table class="seats"><thead><tr><th scope="col">Power</th><th scope="col">Player</th><th scope="col">Ready</th></tr></thead><tbody>{rows}</tbody></table></div>"#
    )
}

/// The game's settings, filled in with the current ones (`/gm/settings`).
fn settings_html(game: &Game) -> String {
    let press: String = [
        ("full", "Full: private and public"),
        ("public", "Public only"),
        ("none", "None"),
    ]
    .iter()
    .map(|(value, text)| {
        let selected = if game.press == *value { " selected" } else { "" };
        format!(r#"<option value="{value}"{selected}>{text}</option>"#)
    })
    .collect();
    let early: String = [
        (true, "when_all_ready", "Process once every seated power is ready"),
        (false, "never", "Never: wait for the deadline"),
    ]
    .iter()
    .map(|(flag, value, text)| {
        let selected = if game.process_when_ready == *flag {
            " selected"
        } else {
            ""
        };
        format!(r#"<option value="{value}"{selected}>{text}</option>"#)
    })
    .collect();
    format!(
        r#"<section class="card" aria-labelledby="settings-h"><h2 id="settings-h">Settings</h2>
<form class="api-form grid" data-api="/api/games/{id}/gm/settings" data-method="POST" data-reload>
<label for="s-name">Name</label><input id="s-name" name="name" required maxlength="100" value="{name}">
<label for="s-move">Movement deadline (minutes)</label><input id="s-move" name="deadlines.movement_minutes" type="number" min="1" value="{m}" data-type="number">
<label for="s-retreat">Retreat deadline (minutes)</label><input id="s-retreat" name="deadlines.retreat_minutes" type="number" min="1" value="{r}" data-type="number">
<label for="s-adjust">Adjustment deadline (minutes)</label><input id="s-adjust" name="deadlines.adjustment_minutes" type="number" min="1" value="{a}" data-type="number">
{times}
<label for="s-press">Press</label><select id="s-press" name="press">{press}</select>
<label class="check"><input type="checkbox" name="grey_press" data-type="bool"{grey}> Grey press allowed</label>
<label for="s-early">Before the deadline</label><select id="s-early" name="early_processing">{early}</select>
<button type="submit" id="gm-settings">Save the settings</button>
<p class="form-message" role="status" aria-live="polite"></p>
</form><p class="note">A new schedule applies from the next phase; the current deadline stays (extend it above). Press rules apply to new messages at once. Anonymity is fixed when a game is created.</p></section>"#,
        id = game.id,
        name = esc(&game.name),
        m = game.movement_minutes,
        r = game.retreat_minutes,
        a = game.adjustment_minutes,
        times = super::layout::deadline_time_fields("s", game.deadline_time.as_deref(), game.time_zone.as_deref()),
        grey = if game.grey_press { " checked" } else { "" },
    )
}

fn tools_html(game: &Game, v: &Variant, view: &Value) -> String {
    let playable: Vec<&str> = v
        .powers
        .iter()
        .enumerate()
        .filter(|&(i, p)| !v.is_minor(i as PowerId) && p.player.is_none())
        .map(|(_, p)| p.name.as_str())
        .collect();
    let vacant: Vec<&str> = view["powers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["playable"].as_bool() == Some(true) && p["has_player"].as_bool() != Some(true))
        .filter_map(|p| p["name"].as_str())
        .collect();
    let mut out = String::from(
        r#"<section class="card" aria-labelledby="tools-h"><h2 id="tools-h">Running the game</h2><div class="tools">"#,
    );
    match game.status {
        GameStatus::Forming => out.push_str(&tool(
            game,
            "start",
            "Start the game now",
            "",
            Some("Start with the players who have joined? Vacant powers hold."),
        )),
        GameStatus::Active | GameStatus::Paused => {
            out.push_str(&tool(
                game,
                "process",
                "Process the phase now",
                "",
                Some("Adjudicate the current phase now, before its deadline?"),
            ));
            if game.status == GameStatus::Active {
                out.push_str(&tool(
                    game,
                    "extend",
                    "Extend the deadline",
                    r#"<label for="extend-min">Minutes</label><input id="extend-min" name="minutes" type="number" min="1" value="1440" data-type="number">"#,
                    None,
                ));
                out.push_str(&tool(game, "pause", "Pause", "", None));
            } else {
                out.push_str(&tool(game, "resume", "Resume", "", None));
            }
        }
        _ => {}
    }
    out.push_str(&tool(
        game,
        "rollback",
        "Roll back the last phase",
        "",
        Some("Take back the last processed phase?"),
    ));
    out.push_str(&tool(game, "rollforward", "Roll forward", "", None));
    out.push_str("</div></section>");

    let _ = write!(
        out,
        r#"<section class="card" aria-labelledby="seats-h"><h2 id="seats-h">Players</h2>{}<div class="tools">"#,
        seats_html(v, view)
    );
    let account = |id: &str| {
        format!(r#"<label for="{id}">Account</label><input id="{id}" name="account" required autocapitalize="none">"#)
    };
    if !vacant.is_empty() {
        out.push_str(&tool(
            game,
            "assign",
            "Give a vacant power",
            &(power_select("assign-power", &vacant) + &account("assign-account")),
            None,
        ));
    }
    out.push_str(&tool(
        game,
        "replace",
        "Replace a player",
        &(power_select("replace-power", &playable) + &account("replace-account")),
        None,
    ));
    // Afterwards this console is no longer the viewer's: go to the game page instead.
    out.push_str(
        &tool(
            game,
            "transfer",
            "Hand the game to another GM",
            &account("transfer-account"),
            Some("Hand this game to another GM? You will no longer see its orders and bids or run it."),
        )
        .replacen("data-reload", &format!(r#"data-redirect="/games/{}""#, game.id), 1),
    );
    out.push_str(&tool(
        game,
        "civil-disorder",
        "Declare civil disorder",
        &(power_select("cd-power", &playable)
            + if v.has_minors() {
                r#"<label class="check"><input type="checkbox" name="permanent" data-type="bool" checked> Permanent (rule 11): the power's centres become minor powers; untick to leave it as it is while you look for a new player</label>"#
            } else {
                ""
            }),
        Some(if v.has_minors() {
            "Put this power in civil disorder? If permanent (rule 11), its units are disbanded at once, its centres become independent minor powers, a faction it sponsors goes the same way (rule 8), and nobody plays it again."
        } else {
            "Put this power in civil disorder? Its units hold and its player's seat ends until you give it to someone."
        }),
    ));
    out.push_str("</div></section>");

    if game.status != GameStatus::Finished {
        let boxes: String = playable
            .iter()
            .map(|p| format!(r#"<label class="check"><input type="checkbox" name="powers" value="{0}" data-type="array"> {0}</label>"#, esc(p)))
            .collect();
        let fields = format!(
            r#"<label for="end-result">Result</label><select id="end-result" name="result"><option value="draw">Draw between the powers ticked</option><option value="concession">Concession to the power ticked</option></select><fieldset><legend>Powers</legend><div class="checks">{boxes}</div></fieldset>"#
        );
        let _ = write!(
            out,
            r#"<section class="card" aria-labelledby="end-h"><h2 id="end-h">Ending the game</h2>{}</section>"#,
            tool(
                game,
                "end",
                "End the game",
                &fields,
                Some("End the game with this result? This cannot be undone.")
            )
        );
    }
    out
}

/// Every power's orders this phase, and who the phase is still waiting for: seated
/// players with a decision to make who have not marked ready.
fn orders_html(orders: &Value, v: &Variant, state: &GameState, view: &Value) -> String {
    let mut by_power: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for o in orders["orders"].as_array().into_iter().flatten() {
        by_power
            .entry(o["power"].as_str().unwrap_or(""))
            .or_default()
            .push(o["order"].as_str().unwrap_or(""));
    }
    let waiting: Vec<String> = view["powers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["has_player"].as_bool() == Some(true) && p["ready"].as_bool() != Some(true))
        .filter(|p| p["civil_disorder"].as_bool() != Some(true))
        .filter_map(|p| p["name"].as_str())
        .filter(|p| has_choice(v, state, p))
        .map(|p| power_badge(p, &colour(v, p)))
        .collect();
    let mut out = String::new();
    if !waiting.is_empty() {
        let _ = write!(out, r#"<p id="waiting">Not ready yet: {}</p>"#, waiting.join(", "));
    }
    if by_power.is_empty() {
        out.push_str(r#"<p class="note">No orders yet this phase.</p>"#);
        return out;
    }
    out.push_str(r#"<div class="order-columns">"#);
    for (power, list) in by_power {
        let items: String = list.iter().map(|o| format!("<li>{}</li>", esc(o))).collect();
        let _ = write!(
            out,
            r#"<div data-power="{}"><h3>{}</h3><ul>{items}</ul></div>"#,
            esc(power),
            power_badge(power, &colour(v, power))
        );
    }
    out.push_str("</div>");
    out
}

/// Per minor unit, who bid how many DPs for which order this phase, highest first: what
/// the GM reads before the engine settles each unit's order.
fn bid_report(bids: &Value, seq: i64, v: &Variant, state: &GameState) -> String {
    let mut by_unit: BTreeMap<&str, Vec<(&str, i64, &str)>> = BTreeMap::new();
    for b in bids["bids"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|b| b["seq"].as_i64() == Some(seq))
    {
        by_unit.entry(b["unit"].as_str().unwrap_or("")).or_default().push((
            b["power"].as_str().unwrap_or(""),
            b["dp"].as_i64().unwrap_or(0),
            b["order"].as_str().unwrap_or(""),
        ));
    }
    if by_unit.is_empty() {
        return r#"<p class="note">No bids this phase.</p>"#.into();
    }
    let mut out = String::from(
        r#"<div class="scroll"><table class="bids"><thead><tr><th scope="col">Minor unit</th><th scope="col">Bids, highest first</th><th scope="col" class="num">DPs</th></tr></thead><tbody>"#,
    );
    for (unit, mut list) in by_unit {
        list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let total: i64 = list.iter().map(|(_, dp, _)| dp).sum();
        let cells: Vec<String> = list
            .iter()
            .map(|(p, dp, order)| format!("{} {dp}: {}", esc(p), esc(order)))
            .collect();
        let minor = v
            .find_province(unit)
            .and_then(|p| state.unit_at(p))
            .map(|u| v.power(u.power).name.as_str())
            .unwrap_or("");
        let _ = write!(
            out,
            r#"<tr data-unit="{}"><th scope="row">{} {}</th><td>{}</td><td class="num">{total}</td></tr>"#,
            esc(unit),
            power_badge(minor, &colour(v, minor)),
            esc(&unit.to_uppercase()),
            cells.join("<br>")
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

/// A bid report from the engine, as preformatted text.
fn report_block(id: &str, summary: &str, report: &Value) -> String {
    match report["report"].as_str() {
        Some(text) => format!(
            r#"<details id="{id}" class="bid-report"><summary>{}</summary><pre>{}</pre></details>"#,
            esc(summary),
            esc(text)
        ),
        None => String::new(),
    }
}

fn events_html(events: &Value) -> String {
    let mut rows = String::new();
    for e in events["events"].as_array().into_iter().flatten().rev() {
        let _ = write!(
            rows,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&utc_text(e["at"].as_str().unwrap_or(""))),
            esc(e["phase"].as_str().unwrap_or("")),
            esc(e["kind"].as_str().unwrap_or("")),
            esc(e["detail"].as_str().unwrap_or(""))
        );
    }
    format!(
        r#"<div class="scroll"><table class="events"><thead><tr><th scope="col">When</th><th scope="col">Phase</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead><tbody>{rows}</tbody></table></div>"#
    )
}

/// Which powers gave no orders in which processed phases: the record a GM consults
/// before replacing a player.
fn missed_html(record: &[crate::store::phases::PhaseLine]) -> String {
    let mut by_power: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in record {
        for power in crate::services::history::missing(line.missing.as_deref()) {
            by_power.entry(power).or_default().push(line.phase.clone());
        }
    }
    if by_power.is_empty() {
        return r#"<p class="note">Every power with a decision has given orders in every phase so far.</p>"#.into();
    }
    let rows: String = by_power
        .iter()
        .map(|(power, phases)| {
            format!(
                "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
                esc(power),
                phases.len(),
                esc(&phases.join(", "))
            )
        })
        .collect();
    format!(
        r#"<table id="missed"><thead><tr><th scope="col">Power</th><th scope="col">Phases missed</th><th scope="col">Which</th></tr></thead><tbody>{rows}</tbody></table>"#
    )
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<i64>) -> PageResult {
    let Some(account) = viewer else {
        return Ok(Redirect::to(&format!("/login?next=/games/{id}/gm")).into_response());
    };
    let game = games::load(&app.db.read, id).await?;
    if game.gm_id != account.id {
        return Err(PageError(ApiError::forbidden(
            "only the game's GM can open its console",
        )));
    }
    let view = crate::services::games::view::view_json(&app, &game, &Role::Gm).await?;
    let v = game.variant(&app).await?;
    let state = game.state(&v)?;
    // Still read as JSON by the string page below, until the console has its template.
    let orders = serde_json::to_value(crate::services::orders::of_phase(&app, &account, id).await?).unwrap_or_default();
    let events = serde_json::to_value(crate::services::gm::events(&app, &account, id).await?).unwrap_or_default();
    let mut body = String::new();
    let _ = write!(
        body,
        r#"<div class="game-head"><div><h1>GM console: {}</h1><p class="meta">{} · {} · {} · <a href="/games/{id}">Game page</a> · <a href="/games/{id}/history">History</a></p></div>{}</div>"#,
        esc(&game.name),
        esc(&game.variant),
        esc(&state.phase.to_string()),
        game.status,
        deadline_html(&game, &view, app.clock.now_ms())
    );
    let _ = write!(
        body,
        r#"<section class="card" aria-labelledby="gm-orders-h"><h2 id="gm-orders-h">Orders this phase</h2>{}</section>"#,
        orders_html(&orders, &v, &state, &view)
    );
    let record = crate::store::phases::list(&app.db.read, id).await?;
    let _ = write!(
        body,
        r#"<section class="card" aria-labelledby="missed-h"><h2 id="missed-h">Missed orders</h2>{}</section>"#,
        missed_html(&record)
    );
    if v.has_minors() {
        // Still read as JSON by the string page below, until the console has its template.
        let bids =
            serde_json::to_value(crate::services::bids::list(&app, &account, id, None).await?).unwrap_or_default();
        let preview =
            serde_json::to_value(crate::services::bids::report(&app, &account, id, None).await?).unwrap_or_default();
        let mut reports = report_block(
            "bid-preview",
            "How the bids resolve with the orders as they stand",
            &preview,
        );
        if game.seq > 0 {
            // A missing record only leaves the report out; the console still opens.
            if let Ok(last) = crate::services::bids::report(&app, &account, id, Some(game.seq - 1))
                .await
                .map(|r| serde_json::to_value(r).unwrap_or_default())
            {
                reports.push_str(&report_block("bid-last", "Last phase's bid report", &last));
            }
        }
        let _ = write!(
            body,
            r#"<section class="card" aria-labelledby="bids-h"><h2 id="bids-h">Bid report per minor unit</h2>{}{reports}<p class="note">Only you see this report.</p></section>"#,
            bid_report(&bids, game.seq, &v, &state)
        );
    }
    // What the GM reads first (orders, readiness, bids), then the tools.
    body.push_str(&tools_html(&game, &v, &view));
    if game.status != GameStatus::Finished {
        body.push_str(&settings_html(&game));
    }
    body.push_str(&super::mail::console_section(&app, &game).await?);
    let _ = write!(
        body,
        r#"<section class="card" aria-labelledby="events-h"><h2 id="events-h">Event log</h2>{}</section>"#,
        events_html(&events)
    );
    Ok(frame(&format!("GM: {}", game.name), Some(&account), &body, &[]).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bid_report_ranks_this_phases_bids_per_minor_unit() {
        let v = chancery_engine::builtin::builtin("1936").unwrap().unwrap();
        let state = GameState::initial(&v);
        let bids = json!({"bids": [
            {"seq": 3, "power": "France", "unit": "bel", "dp": 1, "order": "A Belgium H"},
            {"seq": 3, "power": "Germany", "unit": "bel", "dp": 2, "order": "A Belgium - Holland"},
            {"seq": 2, "power": "Britain", "unit": "bel", "dp": 1, "order": "A Belgium H"},
        ]});
        let html = bid_report(&bids, 3, &v, &state);
        assert!(
            html.contains("Germany 2: A Belgium - Holland<br>France 1: A Belgium H"),
            "{html}"
        );
        assert!(
            !html.contains("Britain"),
            "an earlier phase's bids are not this phase's"
        );
    }
}
