//! The GM console (`templates/console.html`): the map as it stands, every power's
//! current orders and who the phase still waits for, missed orders, the secret bid report
//! per minor unit, then the server's GM tools as forms (start, process now, deadlines,
//! pause, rollback, seats, civil disorder, ending the game), the settings and the game's
//! event log. It reads the same typed values the GM's JSON API gives.

use std::collections::BTreeMap;

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use chancery_engine::options::has_choice;
use chancery_engine::{GameState, PowerId, Variant};

use super::deadline::DeadlineBox;
use super::game::colour;
use super::layout::{render, time_text, Badge, Layout, PageError, PageResult};
use super::map;
use crate::auth::Viewer;
use crate::error::{ApiError, Path};
use crate::model::{GameId, GameStatus, PhaseSeq};
use crate::services::bids::{BidLine, BidReport};
use crate::services::games::view::{game_view, PowerView};
use crate::services::games::{self, Role};
use crate::services::gm::EventLine;
use crate::services::history::PhaseLine;
use crate::services::mail::log::Delivery;
use crate::services::orders::PowerOrder;
use crate::store::games::Game;
use crate::App;

/// Who holds a seat, whatever the game's anonymity: the GM needs the accounts to
/// replace a player or to chase one.
enum Holder {
    Account(String),
    /// A bot plays it.
    Bot,
    CivilDisorder,
    Vacant,
}

struct SeatRow {
    power: Badge,
    holder: Holder,
    ready: bool,
}

/// One power's orders this phase.
struct OrderColumn {
    power: Badge,
    orders: Vec<String>,
}

/// The bids on one minor unit this phase, highest first.
struct BidRow {
    /// The unit's space, as the bids name it.
    unit: String,
    minor: Badge,
    /// Bidder, DPs, the order bought.
    bids: Vec<(String, i64, String)>,
    total: i64,
}

/// A report from the engine, folded under its summary.
struct Report {
    id: &'static str,
    summary: &'static str,
    text: String,
}

struct BidSection {
    rows: Vec<BidRow>,
    reports: Vec<Report>,
}

struct MissedRow {
    power: String,
    phases: Vec<String>,
}

/// An option of a settings list.
struct Choice {
    value: &'static str,
    text: &'static str,
    selected: bool,
}

#[derive(Template)]
#[template(path = "console.html")]
struct Console {
    layout: Layout,
    id: GameId,
    name: String,
    variant: String,
    phase_name: String,
    status: GameStatus,
    deadline: DeadlineBox,
    /// The map and its legend (`map::svg`): the renderer's SVG, escaped by the renderer.
    map: String,
    /// Seated players with a decision to make who have not marked ready.
    waiting: Vec<Badge>,
    orders: Vec<OrderColumn>,
    missed: Vec<MissedRow>,
    /// DP variants only (rule 12: the GM's alone).
    bids: Option<BidSection>,
    seats: Vec<SeatRow>,
    /// Playable powers without a player, to give to an account.
    vacant: Vec<String>,
    /// Every power a player can hold (great powers and factions ordered by nobody else).
    playable: Vec<String>,
    /// The playable powers no bot plays yet, to give to one (vacant, or a departed
    /// player's instead of civil disorder).
    for_bots: Vec<String>,
    has_minors: bool,
    movement_minutes: i64,
    retreat_minutes: i64,
    adjustment_minutes: i64,
    press: Vec<Choice>,
    grey_press: bool,
    early: Vec<Choice>,
    /// For `deadline_fields.html`.
    prefix: &'static str,
    at: String,
    zone: String,
    zones: Vec<&'static str>,
    /// The mail section (`mail/console.html`): the reminder times and the mails
    /// written about the game.
    mail: super::mail::ConsoleMail,
    /// Newest first, their times in the viewer's zone and in UTC.
    events: Vec<EventLine>,
}

impl Console {
    /// A time in the mail list, as the event log gives its own: in the viewer's zone
    /// and in UTC.
    fn when(&self, ms: &i64) -> String {
        crate::clock::when(*ms, self.layout.zone)
    }
}

fn seat_rows(v: &Variant, powers: &[PowerView]) -> Vec<SeatRow> {
    powers
        .iter()
        .filter(|p| p.playable)
        .map(|p| SeatRow {
            power: Badge::new(&p.name, colour(v, &p.name)),
            holder: match (&p.player, p.civil_disorder) {
                _ if p.bot => Holder::Bot,
                (Some(account), _) => Holder::Account(account.clone()),
                (None, true) => Holder::CivilDisorder,
                (None, false) => Holder::Vacant,
            },
            ready: p.ready,
        })
        .collect()
}

/// Who the phase is still waiting for: seated players with a decision to make who have
/// not marked ready.
fn waiting(v: &Variant, state: &GameState, powers: &[PowerView]) -> Vec<Badge> {
    powers
        .iter()
        .filter(|p| p.has_player && !p.ready && !p.civil_disorder)
        .filter(|p| v.find_power(&p.name).is_some_and(|id| has_choice(v, state, id)))
        .map(|p| Badge::new(&p.name, colour(v, &p.name)))
        .collect()
}

/// Every power's orders, by power name.
fn order_columns(v: &Variant, orders: Vec<PowerOrder>) -> Vec<OrderColumn> {
    let mut by_power: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for o in orders {
        by_power.entry(o.power).or_default().push(o.order);
    }
    by_power
        .into_iter()
        .map(|(power, orders)| OrderColumn {
            power: Badge::new(&power, colour(v, &power)),
            orders,
        })
        .collect()
}

/// Per minor unit, who bid how many DPs for which order in phase `seq`, highest first:
/// what the GM reads before the engine settles each unit's order.
fn bid_rows(bids: Vec<BidLine>, seq: PhaseSeq, v: &Variant, state: &GameState) -> Vec<BidRow> {
    let mut by_unit: BTreeMap<String, Vec<(String, i64, String)>> = BTreeMap::new();
    for b in bids.into_iter().filter(|b| b.seq == seq) {
        by_unit.entry(b.unit).or_default().push((b.power, b.dp, b.order));
    }
    by_unit
        .into_iter()
        .map(|(unit, mut bids)| {
            bids.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let minor = v
                .find_province(&unit)
                .and_then(|p| state.unit_at(p))
                .map(|u| v.power(u.power).name.as_str())
                .unwrap_or("");
            BidRow {
                minor: Badge::new(minor, colour(v, minor)),
                total: bids.iter().map(|(_, dp, _)| dp).sum(),
                unit,
                bids,
            }
        })
        .collect()
}

fn report(id: &'static str, summary: &'static str, r: BidReport) -> Option<Report> {
    r.report.map(|text| Report { id, summary, text })
}

/// Which powers gave no orders in which processed phases: the record a GM consults
/// before replacing a player.
fn missed_rows(phases: Vec<PhaseLine>) -> Vec<MissedRow> {
    let mut by_power: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in phases {
        for power in line.missing {
            by_power.entry(power).or_default().push(line.phase.clone());
        }
    }
    by_power
        .into_iter()
        .map(|(power, phases)| MissedRow { power, phases })
        .collect()
}

fn press_choices(game: &Game) -> Vec<Choice> {
    [
        ("full", "Full: private and public"),
        ("public", "Public only"),
        ("none", "None"),
    ]
    .into_iter()
    .map(|(value, text)| Choice {
        value,
        text,
        selected: game.press.as_str() == value,
    })
    .collect()
}

fn early_choices(game: &Game) -> Vec<Choice> {
    [
        (true, "when_all_ready", "Process once every seated power is ready"),
        (false, "never", "Never: wait for the deadline"),
    ]
    .into_iter()
    .map(|(flag, value, text)| Choice {
        value,
        text,
        selected: game.process_when_ready == flag,
    })
    .collect()
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<GameId>) -> PageResult {
    let Some(account) = viewer else {
        return Ok(Redirect::to(&format!("/login?next=/games/{id}/gm")).into_response());
    };
    let loaded = games::read(&app, id).await?;
    if loaded.game.gm_id != account.id {
        return Err(PageError(ApiError::forbidden(
            "only the game's GM can open its console",
        )));
    }
    let view = game_view(&app, &loaded, &Role::Gm).await?;
    let drawing = loaded.map(&app)?;
    let orders = crate::services::orders::of_loaded_phase(&app, &account, &loaded).await?;
    let games::LoadedGame {
        game,
        variant: v,
        state,
    } = loaded;
    let mut events = crate::services::gm::events(&app, &account, id).await?.events;
    events.reverse();
    for e in &mut events {
        e.at = time_text(&e.at, account.zone);
    }
    let phases = crate::services::history::list(&app, id).await?.phases;
    let bids = if v.has_minors() {
        let all = crate::services::bids::list(&app, &account, id, None).await?;
        let preview = crate::services::bids::report(&app, &account, id, None).await?;
        let mut reports: Vec<Report> = report(
            "bid-preview",
            "How the bids resolve with the orders as they stand",
            preview,
        )
        .into_iter()
        .collect();
        if let Some(previous) = game.seq.previous() {
            // A missing record only leaves the report out; the console still opens.
            if let Ok(last) = crate::services::bids::report(&app, &account, id, Some(previous)).await {
                reports.extend(report("bid-last", "Last phase's bid report", last));
            }
        }
        Some(BidSection {
            rows: bid_rows(all.bids, game.seq, &v, &state),
            reports,
        })
    } else {
        None
    };
    let label = format!("Map of {} in {}", game.name, state.phase);
    let map = map::svg(&app, &drawing, &state, None, &label).await;
    let playable: Vec<String> = v
        .powers
        .iter()
        .enumerate()
        .filter(|&(i, p)| !v.is_minor(i as PowerId) && p.player.is_none())
        .map(|(_, p)| p.name.clone())
        .collect();
    let vacant = view
        .powers
        .iter()
        .filter(|p| p.playable && !p.has_player)
        .map(|p| p.name.clone())
        .collect();
    let for_bots = view
        .powers
        .iter()
        .filter(|p| p.playable && !p.bot && !state.disordered.iter().any(|&d| v.power(d).name == p.name))
        .map(|p| p.name.clone())
        .collect();
    render(&Console {
        layout: Layout::new(&format!("GM: {}", game.name), Some(&account), &[]),
        id,
        name: game.name.clone(),
        variant: game.variant.clone(),
        phase_name: state.phase.to_string(),
        status: game.status,
        deadline: DeadlineBox::of(&game, app.clock.now_ms(), account.zone),
        map,
        waiting: waiting(&v, &state, &view.powers),
        orders: order_columns(&v, orders.orders),
        missed: missed_rows(phases),
        bids,
        seats: seat_rows(&v, &view.powers),
        vacant,
        playable,
        for_bots,
        has_minors: v.has_minors(),
        movement_minutes: game.movement_minutes,
        retreat_minutes: game.retreat_minutes,
        adjustment_minutes: game.adjustment_minutes,
        press: press_choices(&game),
        grey_press: game.grey_press,
        early: early_choices(&game),
        prefix: "s",
        at: game.deadline_time.clone().unwrap_or_default(),
        zone: game.time_zone.clone().unwrap_or_default(),
        zones: chrono_tz::TZ_VARIANTS.iter().map(|z| z.name()).collect(),
        mail: super::mail::ConsoleMail::new(crate::services::mail::log::of_game(&app, &account, &game).await?),
        events,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bid(seq: PhaseSeq, power: &str, unit: &str, dp: i64, order: &str) -> BidLine {
        BidLine {
            seq,
            power: power.into(),
            unit: unit.into(),
            dp,
            order: order.into(),
        }
    }

    /// DP rule 12: the GM sees every bid on each minor unit, highest first; only this
    /// phase's.
    #[test]
    fn bid_report_ranks_this_phases_bids_per_minor_unit() {
        let v = chancery_engine::builtin::builtin("1936").unwrap().unwrap();
        let state = GameState::initial(&v);
        let bids = vec![
            bid(PhaseSeq(3), "France", "bel", 1, "A Belgium H"),
            bid(PhaseSeq(3), "Germany", "bel", 2, "A Belgium - Holland"),
            bid(PhaseSeq(2), "Britain", "bel", 1, "A Belgium H"),
        ];
        let rows = bid_rows(bids, PhaseSeq(3), &v, &state);
        assert_eq!(rows.len(), 1);
        let bel = &rows[0];
        assert_eq!(bel.minor.name, "Belgium");
        assert_eq!(bel.total, 3);
        let named: Vec<(&str, i64)> = bel.bids.iter().map(|(p, dp, _)| (p.as_str(), *dp)).collect();
        assert_eq!(
            named,
            [("Germany", 2), ("France", 1)],
            "highest first; an earlier phase's bids are not this phase's"
        );
    }
}
