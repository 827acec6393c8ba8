//! The lobby: every game, sorted into open (forming), running, finished and the
//! viewer's own, and the form to create a game.

use askama::Template;
use axum::extract::State;

use super::layout::{render, time_text, Layout, PageResult};
use crate::auth::Viewer;
use crate::model::{GameId, GameStatus};
use crate::services::games::lobby::{self, Turn};
use crate::services::games::view::{self, GameSummary};
use crate::App;

struct Row {
    id: GameId,
    name: String,
    variant: String,
    phase: String,
    /// The phase code in words, for its `<abbr>`: "Fall 1937 movement".
    phase_words: String,
    deadline: String,
    turn: Option<Turn>,
    free_seats: usize,
    /// How many powers bots play: the game is marked "has bots".
    bots: usize,
    /// Press messages the viewer has not read (their own games only).
    unread: usize,
}

/// "F1937M" in words ("Fall 1937 movement"), as the engine names the phase; the code
/// itself when it does not read.
fn phase_words(code: &str) -> String {
    use chancery_engine::{Phase, PhaseKind, Season};
    let mut chars = code.chars();
    let (Some(s), Some(k)) = (chars.next(), chars.next_back()) else {
        return code.to_string();
    };
    let kind = match k {
        'M' => PhaseKind::Movement,
        'R' => PhaseKind::Retreat,
        'A' => PhaseKind::Adjustment,
        _ => return code.to_string(),
    };
    let season = match s {
        'S' => Season::Spring,
        'F' | 'W' => Season::Fall,
        _ => return code.to_string(),
    };
    match chars.as_str().parse::<i32>() {
        Ok(year) => Phase { season, year, kind }.to_string(),
        Err(_) => code.to_string(),
    }
}

struct Table {
    rows: Vec<Row>,
    empty: &'static str,
    /// A column saying what each game asks of the viewer.
    with_turns: bool,
    /// A column with each game's free seats.
    with_seats: bool,
}

#[derive(Template)]
#[template(path = "lobby.html")]
struct LobbyPage {
    layout: Layout,
    mine: Option<Table>,
    open: Table,
    running: Table,
    finished: Table,
    variants: Vec<&'static str>,
    name_max: usize,
    // The deadline fields (deadline_fields.html).
    prefix: &'static str,
    at: &'static str,
    zone: &'static str,
    zones: Vec<&'static str>,
}

fn row(g: &GameSummary, turn: Option<Turn>, zone: Option<chrono_tz::Tz>) -> Row {
    Row {
        id: g.id,
        name: g.name.clone(),
        variant: g.variant.clone(),
        phase: g.phase.clone(),
        phase_words: phase_words(&g.phase),
        free_seats: g.free_seats,
        bots: g.bots,
        unread: 0,
        deadline: g
            .deadline
            .as_deref()
            .map(|d| time_text(d, zone))
            .unwrap_or_else(|| "—".into()),
        turn,
    }
}

fn table(
    games: &[GameSummary],
    keep: impl Fn(&GameSummary) -> bool,
    empty: &'static str,
    zone: Option<chrono_tz::Tz>,
) -> Table {
    Table {
        rows: games.iter().filter(|g| keep(g)).map(|g| row(g, None, zone)).collect(),
        empty,
        with_turns: false,
        with_seats: false,
    }
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer) -> PageResult {
    let games = view::list(&app).await?;
    let zone = viewer.as_ref().and_then(|a| a.zone);
    let mine = match &viewer {
        Some(a) => {
            let ids = lobby::games_of(&app, a).await?;
            let turns = lobby::turns(&app, a).await?;
            let mut rows: Vec<Row> = games
                .iter()
                .filter(|g| ids.contains(&g.id))
                .map(|g| row(g, turns.get(&g.id).copied(), a.zone))
                .collect();
            for r in &mut rows {
                r.unread = crate::services::press::unread(&app, a, r.id).await?.count;
            }
            Some(Table {
                rows,
                empty: "You are in no game yet: join an open one or create one.",
                with_turns: true,
                with_seats: false,
            })
        }
        None => None,
    };
    render(&LobbyPage {
        layout: Layout::new("Lobby", viewer.as_ref(), &[]),
        mine,
        // A running game with a vacant power is open too: the demo club's are.
        open: Table {
            with_seats: true,
            ..table(
                &games,
                |g| g.status == GameStatus::Forming || (g.status.running() && g.free_seats > 0),
                "No game is waiting for players.",
                zone,
            )
        },
        running: table(&games, |g| g.status.running(), "No game is running.", zone),
        finished: table(
            &games,
            |g| g.status == GameStatus::Finished,
            "No game has finished yet.",
            zone,
        ),
        variants: chancery_engine::builtin::builtin_names().collect(),
        name_max: crate::limits::MAX_GAME_NAME_CHARS,
        prefix: "g",
        at: "",
        zone: "",
        zones: chrono_tz::TZ_VARIANTS.iter().map(|z| z.name()).collect(),
    })
}
