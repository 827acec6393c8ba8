//! The game page (`templates/game.html`): the map of the current phase, the deadline,
//! each power's counts, and for a player the orders (typed or clicked on the map), the
//! DP bids, the ready mark; for everyone who may, the press.

use askama::Template;
use axum::extract::State;
use chancery_engine::rules::Rule;
use chancery_engine::{GameState, PhaseKind, Variant};
use serde::Serialize;

use super::deadline::DeadlineBox;
use super::layout::{json_block, render, Layout, PageResult};
use super::{map, press};
use crate::auth::{Account, Viewer};
use crate::error::{ApiResult, Path};
use crate::model::{GameId, GameStatus, PhaseSeq};
use crate::services::games::view::{game_view, GameView, PowerKindView, PowerView, You as Part};
use crate::services::games::{self, role_of, Role};
use crate::services::order_words;
use crate::store::games::Game;
use crate::App;

/// A power's colour for the page's badges: the variant's, when it is a CSS hex colour.
pub fn colour(v: &Variant, name: &str) -> String {
    v.find_power(name)
        .and_then(|p| v.power(p).colour.clone())
        .filter(|c| c.starts_with('#') && c.len() <= 7 && c[1..].bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or_else(|| "#888888".into())
}

/// Who holds a power, as the powers table says it.
enum Seat {
    Named(String),
    OrderedBy(String),
    Taken,
    /// A bot plays it.
    Bot,
    Minor,
    Vacant,
}

struct PowerRow {
    name: String,
    colour: String,
    player: Seat,
    centres: usize,
    units: usize,
    marks: String,
}

/// The powers table: great powers and factions, then the minors (folded away).
fn power_rows(v: &Variant, powers: &[PowerView]) -> (Vec<PowerRow>, Vec<PowerRow>) {
    let mut great = Vec::new();
    let mut minor = Vec::new();
    for p in powers {
        let mut marks = Vec::new();
        if p.ready {
            marks.push("ready");
        }
        if p.civil_disorder {
            marks.push("civil disorder");
        }
        let is_minor = matches!(p.kind, PowerKindView::Minor);
        let player = match (&p.player, &p.ordered_by) {
            (Some(n), _) => Seat::Named(n.clone()),
            (None, Some(by)) => Seat::OrderedBy(by.clone()),
            (None, None) if p.bot => Seat::Bot,
            (None, None) if p.has_player => Seat::Taken,
            _ if is_minor => Seat::Minor,
            _ => Seat::Vacant,
        };
        let row = PowerRow {
            colour: colour(v, &p.name),
            name: p.name.clone(),
            player,
            centres: p.centres,
            units: p.units,
            marks: marks.join(", "),
        };
        if is_minor {
            minor.push(row);
        } else {
            great.push(row);
        }
    }
    (great, minor)
}

/// What the page offers for joining or leaving.
enum Join {
    Nothing,
    /// A player of a forming game, who may still give the power up.
    Waiting {
        power: String,
    },
    LogIn,
    /// The vacant powers to take; `observer`: the viewer follows the game already.
    Choose {
        vacant: Vec<String>,
        observer: bool,
    },
}

fn join_of(game: &Game, view: &GameView, viewer: Option<&Account>, role: &Role) -> Join {
    if game.status == GameStatus::Finished || *role == Role::Gm {
        return Join::Nothing;
    }
    if let Role::Player(power) = role {
        // Once the game runs, the GM replaces players: no button then.
        if game.status != GameStatus::Forming {
            return Join::Nothing;
        }
        return Join::Waiting { power: power.clone() };
    }
    if viewer.is_none() {
        return Join::LogIn;
    }
    let vacant = view
        .powers
        .iter()
        .filter(|p| p.playable && !p.has_player)
        .map(|p| p.name.clone())
        .collect();
    Join::Choose {
        vacant,
        observer: *role == Role::Observer,
    }
}

/// The hint above the order field, with examples from the power's own units that the
/// engine accepts on this map (`order_words::examples`).
fn phase_hint(v: &Variant, state: &GameState, power: &str) -> Hint {
    let examples = v
        .find_power(power)
        .map(|p| order_words::examples(v, state, p))
        .unwrap_or_default();
    let (lead, none) = match state.phase.kind {
        // Original 1958 has no convoys; armies board fleets instead.
        PhaseKind::Movement if v.rule_on(Rule::NoConvoys) => (
            "Click one of your units on the map: the spaces it may move to are lit. Click one (the unit again: hold), or choose Support… or Board… after it (a boarding: the fleet and the army each ordered B). Or type an order, such as",
            "No orders yet: units without one hold.",
        ),
        PhaseKind::Movement => (
            "Click one of your units on the map: the spaces it may move to are lit. Click one (the unit again: hold), or choose Support… or Convoy… after it. Or type an order, such as",
            "No orders yet: units without one hold.",
        ),
        PhaseKind::Retreat => (
            "Click a dislodged unit (ringed in red), then the space it retreats to. Or type an order, such as",
            "No orders yet: a dislodged unit without one is disbanded.",
        ),
        PhaseKind::Adjustment => (
            "Click a home centre to build there, or a unit to remove it. Or type an order, such as",
            "No orders yet: a build not ordered is waived, and a unit to remove not chosen is chosen by the rules.",
        ),
    };
    Hint {
        lead,
        examples: examples
            .iter()
            .map(|e| (e.clone(), order_words::text_in_words(v, state, power, e)))
            .collect(),
        none,
    }
}

/// What the order panel says about typing orders.
struct Hint {
    lead: &'static str,
    /// Each example as typed and in words.
    examples: Vec<(String, String)>,
    /// What happens without orders, said while there are none.
    none: &'static str,
}

struct OrderRow {
    unit: String,
    order: String,
    words: String,
}

struct OrdersPanel {
    power: String,
    hint: Hint,
    lines: Vec<OrderRow>,
    ready: bool,
    /// The last ready mark processes the phase (else: the deadline only).
    early: bool,
}

async fn orders_panel(
    app: &App,
    loaded: &games::LoadedGame,
    account: &Account,
    power: &str,
    ready: bool,
) -> ApiResult<OrdersPanel> {
    let (game, v, state) = (&loaded.game, &loaded.variant, &loaded.state);
    let current = crate::services::orders::list_loaded(app, account, loaded, Some(power)).await?;
    Ok(OrdersPanel {
        power: power.to_string(),
        hint: phase_hint(v, state, power),
        lines: current
            .orders
            .into_iter()
            .map(|o| OrderRow {
                unit: o.unit,
                order: o.order,
                words: o.words,
            })
            .collect(),
        ready,
        early: game.process_when_ready,
    })
}

/// This turn's DPs as the player reads them: the budget, what is bid, what is left,
/// and each deduction as a sentence.
struct Budget {
    total: i64,
    bid: i64,
    /// "−1: Liverpool is held by France".
    deductions: Vec<String>,
}

struct BidRow {
    dp: i64,
    order: String,
    unit: String,
}

/// A minor unit that may be bid on.
struct MinorUnit {
    space: String,
    letter: char,
    place: String,
    power: String,
}

struct BidsPanel {
    budget: Option<Budget>,
    lines: Vec<BidRow>,
    minors: Vec<MinorUnit>,
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
) -> ApiResult<Option<BidsPanel>> {
    // Bids are made in the Spring and Fall movement phases only (rule 2).
    if !v.has_minors() || state.phase.kind != PhaseKind::Movement {
        return Ok(None);
    }
    let bids = crate::services::bids::list(app, account, game.id, Some(power)).await?;
    let lines: Vec<BidRow> = bids
        .bids
        .into_iter()
        .filter(|b| b.seq == game.seq)
        .map(|b| BidRow {
            dp: b.dp,
            order: b.order,
            unit: b.unit,
        })
        .collect();
    let budget = v.find_power(power).map(|p| {
        let b = chancery_engine::dp::budget(v, state, p);
        Budget {
            total: b.total as i64,
            bid: lines.iter().map(|l| l.dp).sum(),
            deductions: b
                .deductions
                .iter()
                .map(|d| match d.dp {
                    0 => format!("±0: {}", d.reason),
                    n => format!("−{n}: {}", d.reason),
                })
                .collect(),
        }
    });
    let minors = state
        .units
        .iter()
        .filter(|u| v.is_minor(u.power))
        .map(|u| {
            let prov = v.province(u.location.province);
            MinorUnit {
                space: prov.abbr.to_ascii_lowercase(),
                letter: u.kind.letter(),
                place: prov.name.clone(),
                power: v.power(u.power).name.clone(),
            }
        })
        .collect();
    Ok(Some(BidsPanel { budget, lines, minors }))
}

/// Press the viewer has not read: how many messages, and the newest private one.
struct UnreadNote {
    count: usize,
    /// Its sender ("the GM" for the GM), its first 140 characters and its thread's anchor.
    private: Option<(String, String, String)>,
}

/// The sandbox's example, from units on this map: the variant's own names.
fn sandbox_example(v: &Variant, state: &GameState) -> String {
    let unit = |u: &chancery_engine::Unit| format!("{} {}", u.kind.letter(), v.location_name(u.location));
    match state.phase.kind {
        PhaseKind::Movement => state
            .units
            .iter()
            .take(2)
            .map(|u| format!("{}: {} H", v.power(u.power).name, unit(u)))
            .collect::<Vec<_>>()
            .join("\n"),
        PhaseKind::Retreat => state
            .dislodged
            .first()
            .map(|d| format!("{} D", unit(&d.unit)))
            .unwrap_or_default(),
        PhaseKind::Adjustment => v
            .powers
            .first()
            .map(|p| format!("{}: Waive", p.name))
            .unwrap_or_default(),
    }
}

/// Who the viewer is, as the head of the page says.
enum You {
    Gm,
    Player { power: String, colour: String },
    Observer,
    Visitor,
}

#[derive(Template)]
#[template(path = "game.html")]
struct GamePage {
    layout: Layout,
    id: GameId,
    name: String,
    variant: String,
    phase_code: String,
    phase_name: String,
    status: GameStatus,
    gm: String,
    you: You,
    /// The phase whose results the head links to.
    last_seq: Option<PhaseSeq>,
    /// The deadline box (`templates/deadline.html`, shared with the GM console).
    deadline: String,
    /// The map and its legend (`map::svg`): the renderer's SVG, escaped by the renderer.
    map: String,
    join: Join,
    orders: Option<OrdersPanel>,
    bids: Option<BidsPanel>,
    /// The viewer's draw vote, for a player of a running game.
    draw_vote: Option<bool>,
    great: Vec<PowerRow>,
    minor: Vec<PowerRow>,
    gm_view: bool,
    /// The viewer's unread press (a member's, logged in).
    unread: Option<UnreadNote>,
    /// The sandbox, for anyone following the game while it runs.
    sandbox: bool,
    /// The variant has minor powers, whose orders the sandbox takes by hand.
    minors: bool,
    sandbox_example: String,
    /// The press section (`press::section`, still built as a string there).
    press: String,
    /// The script's data (`json_block`).
    data: String,
}

/// What `assets/game.js` reads from the page (`#game-data`).
#[derive(Serialize)]
struct ScriptData {
    id: GameId,
    status: GameStatus,
    /// The phase's code, e.g. `F1901M`.
    phase: String,
    seq: PhaseSeq,
    /// `M`, `R` or `A`.
    kind: &'static str,
    /// The viewer's power, for a player.
    power: Option<String>,
    /// A player's builds or removals in an adjustment phase.
    adjust: Option<super::adjust::Adjust>,
    /// The powers the player's orders move (its own and the factions it orders).
    controls: Vec<String>,
    convoys: bool,
    boarding: bool,
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<GameId>) -> PageResult {
    let loaded = games::read(&app, id).await?;
    let role = role_of(&app.db.read, &loaded.game, viewer.as_ref()).await?;
    let view = game_view(&app, &loaded, &role).await?;
    let drawing = loaded.map(&app)?;
    let (game, v, state) = (&loaded.game, &loaded.variant, &loaded.state);
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
    let (mut orders, mut bids, mut draw_vote) = (None, None, None);
    if let (Some(account), Some(power), true) = (&viewer, &my_power, game.status.running()) {
        let ready = view.powers.iter().any(|p| p.name == *power && p.ready);
        orders = Some(orders_panel(&app, &loaded, account, power, ready).await?);
        bids = bids_panel(&app, game, account, v, state, power).await?;
        draw_vote = Some(matches!(view.you, Part::Player { draw_vote: true, .. }));
    }
    let (great, minor) = power_rows(v, &view.powers);
    let label = format!("Map of {} in {}", game.name, state.phase);
    let drawn = map::svg_for(&app, &drawing, state, None, &label, my_power.as_deref()).await;
    // The server's read marks: a thread is read once opened on any device (game.js
    // tells the server), not by loading the page.
    let unread = match (&viewer, &role) {
        (Some(account), Role::Player(_) | Role::Gm | Role::Observer) => {
            let u = crate::services::press::unread(&app, account, id).await?;
            Some(UnreadNote {
                count: u.count,
                private: u.newest_private.map(|m| {
                    let thread = press::anchor(&crate::services::press::thread_of(&m, &role));
                    let from = match (m.from_gm, m.from) {
                        (true, _) => "the GM".to_string(),
                        (false, Some(p)) => p,
                        (false, None) => "someone unnamed".to_string(),
                    };
                    let mut body: String = m.body.chars().take(140).collect();
                    if body.len() < m.body.len() {
                        body.push('…');
                    }
                    (from, body, thread)
                }),
            })
            .filter(|n| n.count > 0)
        }
        _ => None,
    };
    let press = press::section(&app, game, &role, viewer.as_ref(), v).await?;
    let data = ScriptData {
        id: game.id,
        status: game.status,
        phase: state.phase.code(),
        seq: game.seq,
        kind: match state.phase.kind {
            PhaseKind::Movement => "M",
            PhaseKind::Retreat => "R",
            PhaseKind::Adjustment => "A",
        },
        adjust: match (state.phase.kind, my_power.as_deref().and_then(|p| v.find_power(p))) {
            (PhaseKind::Adjustment, Some(p)) => super::adjust::for_seat(v, state, p),
            _ => None,
        },
        power: my_power,
        controls: controlled,
        convoys: !v.rule_on(Rule::NoConvoys),
        boarding: v.rule_on(Rule::Boarding),
    };
    let you = match &role {
        Role::Gm => You::Gm,
        Role::Player(p) => You::Player {
            power: p.clone(),
            colour: colour(v, p),
        },
        Role::Observer => You::Observer,
        Role::Visitor => You::Visitor,
    };
    render(&GamePage {
        layout: Layout::new(&game.name, viewer.as_ref(), &["game.js"]),
        id,
        name: game.name.clone(),
        variant: game.variant.clone(),
        phase_code: state.phase.code(),
        phase_name: state.phase.to_string(),
        status: game.status,
        gm: view.gm.clone().unwrap_or_else(|| "?".into()),
        you,
        last_seq: game.seq.previous(),
        deadline: DeadlineBox::of(game, app.clock.now_ms(), viewer.as_ref().and_then(|a| a.zone)).to_string(),
        map: drawn,
        join: join_of(game, &view, viewer.as_ref(), &role),
        orders,
        bids,
        draw_vote,
        great,
        minor,
        gm_view: role == Role::Gm,
        unread,
        sandbox: viewer.is_some() && role != Role::Visitor && game.status.running(),
        minors: v.has_minors(),
        sandbox_example: sandbox_example(v, state),
        press,
        data: json_block("game-data", &data),
    })
}
