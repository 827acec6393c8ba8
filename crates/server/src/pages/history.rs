//! History: one processed phase at a time, with previous/next links and a slider over
//! all of them. Each shows the map before the phase with every order drawn as an arrow
//! and its result, the map after, and every order's outcome with its reason.

use std::fmt::Write;

use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use chancery_engine::json::{AdjudicationJson, StateJson};
use chancery_engine::Variant;
use sqlx::Row;

use super::game::colour;
use super::layout::{esc, frame, power_badge, utc_text, PageError, PageResult};
use super::map;
use crate::auth::Viewer;
use crate::error::{ApiError, Path};
use crate::history::{processed_phase, ProcessedPhase};
use crate::services::games;
use crate::services::maps::MapOf;
use crate::App;

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
    let ProcessedPhase {
        processed_ms,
        how,
        bid_report,
        missing,
        before,
        after,
        result: stored,
        adjudication,
        ..
    } = processed_phase(&app.db.read, &v, id, seq).await?;

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
    let processed = utc_text(&crate::clock::iso_utc(processed_ms));
    let _ = write!(
        body,
        r#"<h2 id="phase-title" data-phase="{}">{}</h2><p class="meta">Processed {} ({})</p>"#,
        esc(&stored.phase),
        esc(&before.phase.to_string()),
        esc(&processed),
        esc(&how)
    );
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
    let drawing = MapOf::game(&app, &game)?;
    let before_map = map::svg(
        &app,
        &drawing,
        &before,
        adjudication.as_ref(),
        &format!("Orders of {}", before.phase),
    )
    .await;
    let after_map = map::svg(
        &app,
        &drawing,
        &after,
        None,
        &format!("Position after {}", before.phase),
    )
    .await;
    let _ = write!(
        body,
        r#"<div class="maps"><section aria-labelledby="before-h"><h3 id="before-h">Before, with the orders</h3>{note}{before_map}</section><section aria-labelledby="after-h"><h3 id="after-h">After</h3>{after_map}</section></div>"#,
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
    if let (true, Some(report)) = (is_gm, bid_report) {
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
