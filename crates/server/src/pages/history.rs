//! History: one processed phase at a time, with previous/next links and a slider over
//! all of them. Each shows the map before the phase with every order drawn as an arrow
//! and its result, the map after, and every order's outcome with its reason.

use std::fmt::Write;

use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use chancery_engine::adjudicate::adjudicate;
use chancery_engine::json::{adjudication_json, state_from_json, AdjudicationJson, StateJson};
use chancery_engine::parse::parse_order;
use chancery_engine::{Adjudication, GameState, Order, Variant};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::game::colour;
use super::layout::{esc, frame, power_badge, utc_text, PageError, PageResult};
use super::map;
use crate::auth::Viewer;
use crate::error::{ApiError, Path};
use crate::games;
use crate::App;

/// The adjudication behind a stored result, for drawing its arrows. The server stores
/// results as JSON, which the renderer cannot draw from, so the phase is adjudicated
/// again from the position before it with the orders the result lists; the engine is
/// deterministic, and the copy is used only if it agrees with the stored result: the
/// same next position and every stored entry unchanged. Entries the engine now adds
/// (holds of unordered units, waived builds) may be new; anything else that differs
/// (orders the GM changed, a rule judged otherwise then) draws no arrows rather than
/// wrong ones.
fn replay(
    v: &Variant,
    before: &GameState,
    stored: &AdjudicationJson,
    submitted: &[(String, String)],
) -> Option<Adjudication> {
    let from_results: Vec<Order> = stored
        .results
        .iter()
        .filter_map(|r| {
            let text = r.order.as_deref()?;
            parse_order(v, v.find_power(&r.power)?, text).ok()
        })
        .collect();
    let from_table: Vec<Order> = submitted
        .iter()
        .filter_map(|(power, text)| parse_order(v, v.find_power(power)?, text).ok())
        .collect();
    [from_results, from_table].into_iter().find_map(|orders| {
        let adj = adjudicate(v, before, &orders);
        agrees(&adjudication_json(v, &adj), stored).then_some(adj)
    })
}

fn agrees(replayed: &AdjudicationJson, stored: &AdjudicationJson) -> bool {
    replayed.phase == stored.phase
        && replayed.next == stored.next
        && replayed.winner == stored.winner
        && replayed.refused == stored.refused
        && stored.results.iter().all(|r| replayed.results.contains(r))
}

fn results_table(v: &Variant, stored: &AdjudicationJson) -> String {
    if stored.results.is_empty() {
        return r#"<p class="note">Nobody had anything to order.</p>"#.to_string();
    }
    let mut out = String::from(
        r#"<div class="scroll"><table class="results"><thead><tr><th scope="col">Power</th><th scope="col">Unit</th><th scope="col">Order</th><th scope="col">Result</th><th scope="col">Why</th></tr></thead><tbody>"#,
    );
    for r in &stored.results {
        let retreats = if r.retreats.is_empty() {
            String::new()
        } else {
            format!("; may retreat to {}", r.retreats.join(", "))
        };
        let _ = write!(
            out,
            r#"<tr class="{}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td></tr>"#,
            if r.succeeded { "ok" } else { "failed" },
            power_badge(&r.power, &colour(v, &r.power)),
            esc(&r.unit),
            esc(r.order.as_deref().unwrap_or("(no order)")),
            esc(&r.outcome.replace('_', " ")),
            esc(&r.reason),
            esc(&retreats)
        );
    }
    out.push_str("</tbody></table></div>");
    if !stored.refused.is_empty() {
        out.push_str(r#"<h3>Orders refused</h3><ul>"#);
        for r in &stored.refused {
            let _ = write!(out, "<li>{}: {} — {}</li>", esc(&r.power), esc(&r.order), esc(&r.error));
        }
        out.push_str("</ul>");
    }
    out
}

fn centres_line(v: &Variant, next: &StateJson) -> String {
    let items: Vec<String> = crate::history::centre_ranking(next)
        .iter()
        .map(|(p, n)| format!("<li>{} {n}</li>", power_badge(p, &colour(v, p))))
        .collect();
    format!(r#"<ul class="centres">{}</ul>"#, items.join(""))
}

/// The latest processed phase, or a note when there is none yet.
pub async fn latest(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<i64>) -> PageResult {
    let game = games::load(&app.db.read, id).await?;
    let last: Option<i64> = sqlx::query("SELECT MAX(seq) AS seq FROM phases WHERE game_id = $1")
        .bind(id)
        .fetch_one(&app.db.read)
        .await?
        .get("seq");
    match last {
        Some(seq) => Ok(Redirect::to(&format!("/games/{id}/history/{seq}")).into_response()),
        None => {
            let body = format!(
                r#"<h1>{} — history</h1><section class="card"><p>No phase has been processed yet.</p><p><a href="/games/{id}">Back to the game</a></p></section>"#,
                esc(&game.name)
            );
            Ok(frame("History", viewer.as_ref(), &body, &[]).into_response())
        }
    }
}

/// A processed phase as stored, with what drawing it needs.
pub struct Phase {
    /// The `phases` row (processing time and how, the GM's bid report, missing orders).
    pub row: AnyRow,
    pub before: GameState,
    pub after: GameState,
    pub stored: AdjudicationJson,
    /// The phase judged again for its arrows; None when that does not agree (`replay`).
    pub adjudication: Option<Adjudication>,
}

/// Phase `seq` of game `id`, which the caller has checked exists.
pub async fn phase(app: &App, v: &Variant, id: i64, seq: i64) -> Result<Phase, ApiError> {
    let row = sqlx::query(
        "SELECT state_json, result_json, processed_ms, how, bid_report, missing FROM phases WHERE game_id = $1 AND seq = $2",
    )
    .bind(id)
    .bind(seq)
    .fetch_optional(&app.db.read)
    .await?
    .ok_or_else(|| ApiError::not_found(format!("game {id} has no processed phase {seq}")))?;
    let internal =
        |what: &str, e: String| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, format!("{what}: {e}"));
    let before_json: StateJson = serde_json::from_str(&row.get::<String, _>("state_json"))
        .map_err(|e| internal("stored position", e.to_string()))?;
    let stored: AdjudicationJson = serde_json::from_str(&row.get::<String, _>("result_json"))
        .map_err(|e| internal("stored result", e.to_string()))?;
    let before = state_from_json(v, &before_json).map_err(|e| internal("stored position", e))?;
    let after = state_from_json(v, &stored.next).map_err(|e| internal("stored result", e))?;
    let submitted: Vec<(String, String)> =
        sqlx::query("SELECT power, text FROM orders WHERE game_id = $1 AND seq = $2 ORDER BY submitted_ms, unit_key")
            .bind(id)
            .bind(seq)
            .fetch_all(&app.db.read)
            .await?
            .iter()
            .map(|r| (r.get("power"), r.get("text")))
            .collect();
    let adjudication = replay(v, &before, &stored, &submitted);
    Ok(Phase {
        row,
        before,
        after,
        stored,
        adjudication,
    })
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer, Path((id, seq)): Path<(i64, i64)>) -> PageResult {
    let game = games::load(&app.db.read, id).await?;
    let v = game.variant(&app)?;
    let phases: Vec<(i64, String)> = sqlx::query("SELECT seq, phase FROM phases WHERE game_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(&app.db.read)
        .await?
        .iter()
        .map(|r| (r.get("seq"), r.get("phase")))
        .collect();
    let Some(index) = phases.iter().position(|(s, _)| *s == seq) else {
        return Err(PageError(ApiError::not_found(format!(
            "game {id} has no processed phase {seq}"
        ))));
    };
    let Phase {
        row,
        before,
        after,
        stored,
        adjudication,
    } = phase(&app, &v, id, seq).await?;

    let mut body = String::new();
    let _ = write!(
        body,
        r#"<div class="game-head"><div><h1>{} — history</h1><p class="meta"><a href="/games/{id}">Back to the game</a></p></div></div>"#,
        esc(&game.name)
    );
    let prev = index.checked_sub(1).map(|i| phases[i].0);
    let next = phases.get(index + 1).map(|p| p.0);
    let link = |target: Option<i64>, text: &str, rel: &str| match target {
        Some(s) => {
            format!(r#"<a class="button" rel="{rel}" id="{rel}-phase" href="/games/{id}/history/{s}">{text}</a>"#)
        }
        None => format!(r#"<span class="button disabled" aria-disabled="true">{text}</span>"#),
    };
    let labels: Vec<String> = phases
        .iter()
        .map(|(s, p)| format!(r#"{{"seq":{s},"phase":"{}"}}"#, esc(p)))
        .collect();
    let _ = write!(
        body,
        r#"<nav class="card stepper" aria-label="Phases">{}<div class="slider"><label for="phase-slider">Phase <output id="phase-label" for="phase-slider">{}</output> ({} of {})</label><input type="range" id="phase-slider" min="0" max="{}" value="{index}" data-game="{id}" data-phases='[{}]'></div>{}</nav>"#,
        link(prev, "← Previous", "prev"),
        esc(&phases[index].1),
        index + 1,
        phases.len(),
        phases.len() - 1,
        labels.join(","),
        link(next, "Next →", "next")
    );
    let processed = utc_text(&crate::clock::iso_utc(row.get("processed_ms")));
    let _ = write!(
        body,
        r#"<h2 id="phase-title" data-phase="{}">{}</h2><p class="meta">Processed {} ({})</p>"#,
        esc(&stored.phase),
        esc(&before.phase.to_string()),
        esc(&processed),
        esc(&row.get::<String, _>("how"))
    );
    let missing = crate::history::missing(&row);
    if !missing.is_empty() {
        let _ = write!(
            body,
            r#"<p class="meta" id="missing">No orders from {}.</p>"#,
            esc(&missing.join(", "))
        );
    }
    let note = if adjudication.is_none() && !stored.results.is_empty() {
        r#"<p class="note">The orders cannot be drawn for this phase; the table below has them all.</p>"#
    } else {
        ""
    };
    let _ = write!(
        body,
        r#"<div class="maps"><section aria-labelledby="before-h"><h3 id="before-h">Before, with the orders</h3>{note}{}</section><section aria-labelledby="after-h"><h3 id="after-h">After</h3>{}</section></div>"#,
        map::svg(
            &v,
            &before,
            adjudication.as_ref(),
            &format!("Orders of {}", before.phase)
        ),
        map::svg(&v, &after, None, &format!("Position after {}", before.phase))
    );
    let _ = write!(
        body,
        r#"<p class="meta">As images: <a href="/api/games/{id}/phases/{seq}/map.svg" download="game-{id}-{0}.svg">the orders</a> · <a href="/api/games/{id}/phases/{seq}/map.svg?after=true" download="game-{id}-{0}-after.svg">the position after</a></p>"#,
        esc(&stored.phase)
    );
    if let Some(w) = &stored.winner {
        let _ = write!(body, r#"<p class="card winner">{} wins the game.</p>"#, esc(w));
    }
    let _ = write!(
        body,
        r#"<section class="card" aria-labelledby="results-h"><h3 id="results-h">Orders and results</h3>{}</section><section class="card" aria-labelledby="centres-h"><h3 id="centres-h">Supply centres after the phase</h3>{}</section>"#,
        results_table(&v, &stored),
        centres_line(&v, &stored.next)
    );
    // Who bid what is the GM's alone (DP rule 12): the report never reaches anyone else.
    let is_gm = viewer.as_ref().is_some_and(|a| a.id == game.gm_id);
    if let (true, Some(report)) = (is_gm, row.get::<Option<String>, _>("bid_report")) {
        let _ = write!(
            body,
            r#"<section class="card" aria-labelledby="bid-report-h"><h3 id="bid-report-h">DP bid report</h3><pre id="bid-report">{}</pre><p class="note">Only you, the GM, see this report.</p></section>"#,
            esc(&report)
        );
    }
    Ok(frame(
        &format!("{} — {}", game.name, stored.phase),
        viewer.as_ref(),
        &body,
        &["history.js"],
    )
    .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard_phase(orders: &[(&str, &str)]) -> (Variant, GameState, AdjudicationJson) {
        let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
        let s = GameState::initial(&v);
        let parsed: Vec<Order> = orders
            .iter()
            .map(|(p, o)| parse_order(&v, v.find_power(p).unwrap(), o).unwrap())
            .collect();
        let stored = adjudication_json(&v, &adjudicate(&v, &s, &parsed));
        (v, s, stored)
    }

    #[test]
    fn a_stored_result_is_replayed_for_its_arrows() {
        // Two armies bounce in Galicia (standoff: equal strength, neither moves).
        let (v, s, stored) = standard_phase(&[("Austria", "A vie - gal"), ("Russia", "A war - gal")]);
        let adj = replay(&v, &s, &stored, &[]).expect("the result replays from its own orders");
        assert_eq!(adjudication_json(&v, &adj), stored);
    }

    /// Results stored by an engine that did not list unordered units' holds still draw.
    #[test]
    fn a_result_without_the_entries_added_since_still_replays() {
        let (v, s, mut stored) = standard_phase(&[("Austria", "A vie - gal")]);
        let before = stored.results.len();
        stored.results.retain(|r| r.unit != "F lon");
        assert_eq!(stored.results.len(), before - 1, "London's hold was listed");
        assert!(replay(&v, &s, &stored, &[]).is_some());
    }

    #[test]
    fn a_result_that_does_not_replay_gets_no_arrows() {
        let (v, s, mut stored) = standard_phase(&[("Austria", "A vie - gal")]);
        // A result the engine would not give for these orders (as from an older engine).
        let moved = stored.results.iter_mut().find(|r| r.unit == "A vie").unwrap();
        moved.reason = "something else".into();
        assert!(
            replay(&v, &s, &stored, &[]).is_none(),
            "wrong arrows are worse than none"
        );
    }
}
