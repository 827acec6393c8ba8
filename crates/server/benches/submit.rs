//! One 1648 power's full set of orders submitted through `services::orders::submit`,
//! the function a person's `POST /api/games/{id}/orders` calls once the request is read:
//! the game's lock, the phase check, every order parsed and validated on the board,
//! the orders stored and the answer in words. SQLite in a temporary file, the game
//! created and started once; each iteration replaces the power's orders with the same
//! set (a move for every unit that has one), so the database holds one set throughout.
//!
//! Beside it, one decode of the stored position (`Game::state`), which a submission made
//! three times before `LoadedGame` and makes once now.
//!
//! `cargo bench -p chancery-server --bench submit`

use chancery_engine::options::{power_orders, Scope};
use chancery_engine::{GameState, OrderKind};
use chancery_server::services::games::settings::{Deadlines, EarlyProcessing};
use chancery_server::services::new_game::NewGame;
use chancery_server::services::seats::JoinRequest;
use chancery_server::services::{accounts, games, new_game, orders, seats};
use chancery_server::{clock, db, services, App, AppState};
use criterion::{criterion_group, criterion_main, Criterion};

struct Setup {
    app: App,
    player: chancery_server::model::Account,
    game: chancery_server::model::GameId,
    power: String,
    orders: Vec<String>,
    _dir: tempfile::TempDir,
}

async fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    let db = db::Db::open(&url).await.unwrap();
    let mailer = services::mail::sender::Mailer::new(None, None, None, "http://localhost").unwrap();
    let app: App = AppState::new(db, clock::Clock::system(), mailer, None, 1_000_000, 1);
    let gm = accounts::create_account(&app, "bench-gm", "bench-password-1")
        .await
        .unwrap();
    let player = accounts::create_account(&app, "bench-player", "bench-password-2")
        .await
        .unwrap();
    let game = new_game::create(
        &app,
        &gm,
        NewGame {
            name: "Bench 1648".into(),
            variant: Some("1648".into()),
            variant_file: None,
            deadlines: Deadlines::default(),
            press: Some("full".into()),
            grey_press: false,
            anonymous: false,
            reveal_at_end: false,
            start_at_ms: None,
            early_processing: Some(EarlyProcessing::Never),
            bots_fill_seats: false,
        },
    )
    .await
    .unwrap();
    // The great power with the most units at the start, and for each of them a move
    // where it has one (else its first option, a hold), in canonical text.
    let v = game.variant(&app).await.unwrap();
    let state = GameState::initial(&v);
    let (power_id, _) = v
        .powers
        .iter()
        .enumerate()
        .filter(|(i, _)| !v.is_minor(*i as _))
        .map(|(i, _)| (i, state.units.iter().filter(|u| u.power as usize == i).count()))
        .max_by_key(|(i, n)| (*n, std::cmp::Reverse(*i)))
        .unwrap();
    let power = v.powers[power_id].name.clone();
    let orders: Vec<String> = power_orders(&v, &state, power_id as _, Scope::Plausible)
        .into_iter()
        .filter_map(|(_, options)| {
            let chosen = options
                .iter()
                .find(|o| matches!(o.kind, OrderKind::Move { .. }))
                .or(options.first())?;
            Some(chosen.display(&v).to_string())
        })
        .collect();
    seats::join(
        &app,
        &player,
        game.id,
        JoinRequest {
            power: Some(power.clone()),
        },
    )
    .await
    .unwrap();
    let (mut tx, g) = games::lock(&app, game.id).await.unwrap();
    let g = games::LoadedGame::of(&app, g).await.unwrap();
    seats::start(&app, &mut tx, &g).await.unwrap();
    tx.commit().await.unwrap();
    Setup {
        app,
        player,
        game: game.id,
        power,
        orders,
        _dir: dir,
    }
}

fn submission(s: &Setup) -> orders::Submission {
    orders::Submission {
        orders: s.orders.clone(),
        power: None,
        replace: true,
        seq: Some(chancery_server::model::PhaseSeq::FIRST),
        phase: None,
    }
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let s = rt.block_on(setup());
    // Refused orders would measure the refusal: the set must be taken whole.
    let first = rt
        .block_on(orders::submit(&s.app, &s.player, s.game, submission(&s)))
        .unwrap();
    assert_eq!(first.orders.len(), s.orders.len(), "{:?}", s.orders);
    eprintln!("{}: {} orders: {}", s.power, s.orders.len(), s.orders.join(", "));
    c.bench_function("submit 1648 power's orders (SQLite)", |b| {
        b.iter(|| {
            rt.block_on(orders::submit(&s.app, &s.player, s.game, submission(&s)))
                .unwrap()
        })
    });
    // One decode of the stored position, the step LoadedGame does once per request
    // instead of three times per submission: what it saves, apart from the database.
    let game = rt.block_on(games::load(&s.app.db.read, s.game)).unwrap();
    let v = rt.block_on(game.variant(&s.app)).unwrap();
    c.bench_function("decode the stored 1648 position", |b| {
        b.iter(|| game.state(&v).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
