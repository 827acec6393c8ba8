//! History: one processed phase at a time, with previous/next links and a slider over
//! all of them (`templates/history.html`). Each shows the map before the phase with
//! every order drawn and its result beside the map after (side by side on a wide
//! screen), then every order's result grouped by power: the great powers, then the
//! factions, then the minor powers, each in the variant's order.

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use chancery_engine::json::{AdjudicationJson, RefusedJson};
use chancery_engine::variant::PowerKind;
use chancery_engine::Variant;

use super::game::colour;
use super::layout::{render, time_text, zone_of, Badge, Layout, PageError, PageResult};
use super::map;
use crate::auth::Viewer;
use crate::error::{ApiError, Path};
use crate::model::{GameId, HowProcessed, PhaseSeq};
use crate::services::games;
use crate::services::history::{self, processed_phase, ProcessedPhase};
use crate::services::maps::MapOf;
use crate::App;

struct Row {
    order: String,
    succeeded: bool,
    /// The engine's reason, which begins with the outcome ("bounced: …"), so the outcome
    /// is not said twice.
    reason: String,
}

/// One power's results.
struct Group {
    power: Badge,
    /// `great`, `faction` or `minor`.
    kind: &'static str,
    rows: Vec<Row>,
}

/// A phase on the slider, as `assets/history.js` reads `data-phases`.
#[derive(serde::Serialize)]
struct SliderPhase<'a> {
    seq: PhaseSeq,
    phase: &'a str,
}

struct Shown {
    seq: PhaseSeq,
    code: String,
    title: String,
    index: usize,
    count: usize,
    prev: Option<PhaseSeq>,
    next: Option<PhaseSeq>,
    /// `[{"seq": 0, "phase": "S1901M"}, …]` for the slider (history.js).
    phases_json: String,
    processed: String,
    how: HowProcessed,
    missing: Vec<String>,
    /// The powers a bot ordered.
    bots: Vec<String>,
    winner: Option<String>,
    undrawable: bool,
    /// The maps with their legends (`map::svg`): the renderer's SVG, escaped by it.
    before_map: String,
    after_map: String,
    groups: Vec<Group>,
    refused: Vec<RefusedJson>,
    centres: Vec<(Badge, usize)>,
    /// The GM's alone (DP rule 12).
    bid_report: Option<String>,
}

#[derive(Template)]
#[template(path = "history.html")]
struct HistoryPage {
    layout: Layout,
    game: GameId,
    game_name: String,
    phase: Option<Shown>,
}

/// The results grouped by power: great powers first, then factions, then minors, each
/// in the variant's order; a power the variant does not name (a file changed under the
/// game) comes last.
fn groups(v: &Variant, stored: &AdjudicationJson) -> Vec<Group> {
    let rank = |name: &str| match v.find_power(name) {
        Some(p) => {
            let kind = if v.is_minor(p) {
                2
            } else if v.power(p).kind == PowerKind::Faction {
                1
            } else {
                0
            };
            (kind, p as usize)
        }
        None => (3, 0),
    };
    let mut out: Vec<((u8, usize), Group)> = Vec::new();
    for r in &stored.results {
        let key = rank(&r.power);
        let at = match out.iter().position(|(_, g)| g.power.name == r.power) {
            Some(i) => i,
            None => {
                out.push((
                    key,
                    Group {
                        power: Badge::new(&r.power, colour(v, &r.power)),
                        kind: ["great", "faction", "minor", "other"][key.0 as usize],
                        rows: Vec::new(),
                    },
                ));
                out.len() - 1
            }
        };
        let mut reason = r.reason.clone();
        if !r.retreats.is_empty() {
            reason.push_str(&format!("; may retreat to {}", r.retreats.join(", ")));
        }
        out[at].1.rows.push(Row {
            order: r.order.clone().unwrap_or_else(|| format!("{} (no order)", r.unit)),
            succeeded: r.succeeded,
            reason,
        });
    }
    out.sort_by_key(|(k, g)| (*k, g.power.name.clone()));
    out.into_iter().map(|(_, g)| g).collect()
}

/// The latest processed phase, or a note when there is none yet.
pub async fn latest(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<GameId>) -> PageResult {
    let game = games::load(&app.db.read, id).await?;
    match history::latest(&app, id).await? {
        Some(seq) => Ok(Redirect::to(&format!("/games/{id}/history/{seq}")).into_response()),
        None => render(&HistoryPage {
            layout: Layout::new("History", viewer.as_ref(), &[]),
            game: id,
            game_name: game.name,
            phase: None,
        }),
    }
}

pub async fn page(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path((id, seq)): Path<(GameId, PhaseSeq)>,
) -> PageResult {
    let game = games::load(&app.db.read, id).await?;
    let v = game.variant(&app).await?;
    let phases = history::list(&app, id).await?.phases;
    let Some(index) = phases.iter().position(|p| p.seq == seq) else {
        return Err(PageError(ApiError::not_found(format!(
            "game {id} has no processed phase {seq}"
        ))));
    };
    let ProcessedPhase {
        processed_ms,
        how,
        bid_report,
        missing,
        bots,
        before,
        after,
        result: stored,
        adjudication,
        ..
    } = processed_phase(&app.db.read, &v, id, seq).await?;
    let drawing = MapOf::game(&app, &game).await?;
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
    let slider: Vec<SliderPhase> = phases
        .iter()
        .map(|p| SliderPhase {
            seq: p.seq,
            phase: &p.phase,
        })
        .collect();
    // Who bid what is the GM's alone (DP rule 12): the report never reaches anyone else.
    let is_gm = viewer.as_ref().is_some_and(|a| a.id == game.gm_id);
    let shown = Shown {
        seq,
        code: stored.phase.clone(),
        title: before.phase.to_string(),
        index,
        count: phases.len(),
        prev: index.checked_sub(1).map(|i| phases[i].seq),
        next: phases.get(index + 1).map(|p| p.seq),
        phases_json: serde_json::to_string(&slider).unwrap_or_default(),
        processed: time_text(&crate::clock::iso_utc(processed_ms), zone_of(viewer.as_ref())),
        how,
        missing,
        bots,
        winner: stored.winner.clone(),
        undrawable: adjudication.is_none() && !stored.results.is_empty(),
        before_map,
        after_map,
        groups: groups(&v, &stored),
        refused: stored.refused.clone(),
        centres: history::centre_ranking(&stored.next)
            .into_iter()
            .map(|(p, n)| (Badge::new(p, colour(&v, p)), n))
            .collect(),
        bid_report: bid_report.filter(|_| is_gm),
    };
    render(&HistoryPage {
        layout: Layout::new(
            &format!("{} — {}", game.name, stored.phase),
            viewer.as_ref(),
            &["history.js"],
        ),
        game: id,
        game_name: game.name,
        phase: Some(shown),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_engine::json::adjudication_json;
    use chancery_engine::parse::parse_order;
    use chancery_engine::phase::judge_phase;
    use chancery_engine::GameState;

    /// Great powers first, then factions, then minors; each reason once.
    #[test]
    fn results_are_grouped_great_powers_first_then_factions_then_minors() {
        let v = chancery_engine::builtin::builtin("1936").unwrap().unwrap();
        let s = GameState::initial(&v);
        let stored = adjudication_json(&v, &judge_phase(&v, &s, &[], &[]).adjudication);
        let g = groups(&v, &stored);
        let kinds: Vec<&str> = g.iter().map(|g| g.kind).collect();
        let first_faction = kinds.iter().position(|k| *k != "great").unwrap();
        assert!(kinds[..first_faction].iter().all(|k| *k == "great"), "{kinds:?}");
        let mut rest = kinds[first_faction..].to_vec();
        rest.dedup();
        assert!(rest == ["faction", "minor"] || rest == ["minor"], "{kinds:?}");
        let great: Vec<usize> = g
            .iter()
            .filter(|g| g.kind == "great")
            .map(|g| v.find_power(&g.power.name).unwrap() as usize)
            .collect();
        assert!(great.windows(2).all(|w| w[0] < w[1]), "in the variant's order");
        // Every unit in exactly one group.
        assert_eq!(g.iter().map(|g| g.rows.len()).sum::<usize>(), stored.results.len());
    }

    #[test]
    fn an_unordered_unit_reads_held_once() {
        let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
        let s = GameState::initial(&v);
        let order = parse_order(&v, v.find_power("Austria").unwrap(), "A vie - gal").unwrap();
        let stored = adjudication_json(&v, &judge_phase(&v, &s, &[order], &[]).adjudication);
        let g = groups(&v, &stored);
        let austria = g.iter().find(|g| g.power.name == "Austria").unwrap();
        let budapest = austria.rows.iter().find(|r| r.order.starts_with("A bud")).unwrap();
        assert_eq!(budapest.order, "A bud (no order)");
        assert_eq!(budapest.reason, "held");
        assert_eq!(g[0].power.name, "Austria", "the variant's first great power leads");
    }
}
