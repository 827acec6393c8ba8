//! The demo club: on first start with an empty database, a GM account and one game of
//! each built-in variant played a few phases in (moves chosen at random among legal
//! ones, from a fixed seed), so a newcomer sees games under way at once. The powers are
//! vacant, open for anyone to join.

use chancery_engine::parse::parse_order;
use chancery_engine::validate::{retreat_options, validate};
use chancery_engine::variant::Location;
use chancery_engine::{GameState, Order, PhaseKind, UnitKind, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::model::HowProcessed;
use crate::services::accounts::create_account;
use crate::services::games;
use crate::services::games::settings::{Deadlines, EarlyProcessing};
use crate::services::new_game::NewGame;
use crate::services::processing::adjudicate_current;
use crate::services::{forum, moderation, new_game, seats};
use crate::App;

pub const DEMO_GM: &str = "demo-gm";
/// The demo GM's password unless CHANCERY_DEMO_PASSWORD says otherwise (README).
pub const DEMO_PASSWORD: &str = "demo-club-1958";
/// The demo forum's pinned first topic.
const DEMO_WELCOME: &str =
    "This is a demo club: one game of each variant a few phases in, every power open to join.\n\n\
Register an account, join a game from the lobby, and write here to find other players. Each game has its own \
thread in this forum (its page links it) for recruiting and for talk once it has ended; negotiation belongs in \
the game's press.\n\n\
> Plain text only: a blank line starts a paragraph, a line starting with > is a quote, and addresses such as \
https://www.diplomacy-archive.com become links.";
/// Phases played before the club opens.
const DEMO_PHASES: usize = 4;

pub async fn create_if_empty(app: &App) -> Result<(), String> {
    let err = |e: crate::error::ApiError| format!("creating the demo club: {}", e.message);
    let accounts = crate::store::accounts::count(&app.db.read)
        .await
        .map_err(|e| e.to_string())?;
    if accounts > 0 {
        return Ok(());
    }
    // A known password, so that the README can say how to log in to a fresh demo;
    // CHANCERY_DEMO_PASSWORD chooses another for a demo reachable by others.
    let password = std::env::var("CHANCERY_DEMO_PASSWORD").unwrap_or_else(|_| DEMO_PASSWORD.to_string());
    let gm = match create_account(app, DEMO_GM, &password).await {
        Ok(a) => a,
        // Another server on the same database is creating the club.
        Err(e) if e.status() == axum::http::StatusCode::CONFLICT => return Ok(()),
        Err(e) => return Err(err(e)),
    };
    let mut rng = StdRng::seed_from_u64(1901);
    for name in chancery_engine::builtin::builtin_names() {
        let game = new_game::create(
            app,
            &gm,
            NewGame {
                name: format!("Demo: {name}"),
                variant: Some(name.to_string()),
                variant_file: None,
                deadlines: Deadlines::default(),
                press: Some("full".into()),
                grey_press: false,
                anonymous: false,
                reveal_at_end: false,
                start_at_ms: None,
                // The seats are open: one newcomer's ready mark must not end the phase
                // for the powers nobody plays yet.
                early_processing: Some(EarlyProcessing::Never),
                bots_fill_seats: false,
            },
        )
        .await
        .map_err(err)?;
        let id = game.id;
        let (mut tx, g) = games::lock(app, id).await.map_err(err)?;
        let g = games::LoadedGame::of(app, g).await.map_err(err)?;
        seats::start(app, &mut tx, &g).await.map_err(err)?;
        tx.commit().await.map_err(|e| e.to_string())?;
        for _ in 0..DEMO_PHASES {
            let (mut tx, g) = games::lock(app, id).await.map_err(err)?;
            let g = games::LoadedGame::of(app, g).await.map_err(err)?;
            let (v, state) = (&g.variant, &g.state);
            for order in random_orders(v, state, &mut rng) {
                let key = v.provinces[chancery_engine::order::order_province(&order) as usize]
                    .abbr
                    .to_ascii_lowercase();
                let row = [(key, order.display(v).to_string())];
                let power = &v.power(order.power).name;
                crate::store::orders::upsert(&mut *tx, id, g.game.seq, power, app.clock.now_ms(), &row)
                    .await
                    .map_err(|e| e.to_string())?;
            }
            adjudicate_current(app, &mut tx, &g, HowProcessed::Demo)
                .await
                .map_err(err)?;
            tx.commit().await.map_err(|e| e.to_string())?;
        }
    }
    against_bots(app, &gm).await.map_err(err)?;
    // The demo's GM moderates its forum, which opens with a pinned welcome.
    moderation::appoint_at_start(
        &app.db,
        &[DEMO_GM.to_string()],
        app.clock.now_ms(),
        "the demo club's GM",
    )
    .await?;
    let welcome = forum::create_topic(
        app,
        &gm,
        forum::NewTopicRequest {
            title: "Welcome to the demo club".into(),
            body: DEMO_WELCOME.into(),
        },
    )
    .await
    .map_err(err)?;
    let pin = forum::TopicChange {
        pinned: Some(true),
        locked: None,
    };
    forum::change_topic(app, &gm, welcome.topic, pin).await.map_err(err)?;
    tracing::info!("created the demo club: log in as `{DEMO_GM}` with password `{password}`");
    Ok(())
}

/// A Standard game against bots: bots play every power but England, which
/// waits for a newcomer; once someone takes it the game moves at their pace (the bots
/// are ready as soon as a phase opens), and until then at the deadlines.
async fn against_bots(app: &App, gm: &crate::model::Account) -> crate::error::ApiResult<()> {
    let game = new_game::create(
        app,
        gm,
        NewGame {
            name: "Demo: Standard against bots".into(),
            variant: Some("standard".into()),
            variant_file: None,
            deadlines: Deadlines::default(),
            press: Some("full".into()),
            grey_press: false,
            anonymous: false,
            reveal_at_end: false,
            start_at_ms: None,
            early_processing: None,
            bots_fill_seats: false,
        },
    )
    .await?;
    for power in ["Austria", "France", "Germany", "Italy", "Russia", "Turkey"] {
        let seat = crate::services::bots::BotSeat { power: power.into() };
        crate::services::bots::seat(app, gm, game.id, seat).await?;
    }
    crate::services::gm::start(app, gm, game.id).await?;
    Ok(())
}

/// Legal orders for some units: moves to a random neighbour, retreats to a random open
/// space, builds in empty owned home centres. Units left out follow the engine's rules
/// for missing orders.
fn random_orders(v: &Variant, state: &GameState, rng: &mut StdRng) -> Vec<Order> {
    let mut texts: Vec<(u8, String)> = Vec::new();
    match state.phase.kind {
        PhaseKind::Movement => {
            for u in &state.units {
                let targets: Vec<Location> = match u.kind {
                    UnitKind::Army => v
                        .army_neighbours(u.location.province)
                        .iter()
                        .map(|p| Location::province(*p))
                        .collect(),
                    UnitKind::Fleet => v.fleet_neighbours(u.location).to_vec(),
                };
                if let (Some(to), true) = (targets.choose(rng), rng.gen_bool(0.8)) {
                    let text = format!(
                        "{} {} - {}",
                        u.kind.letter(),
                        v.location_name(u.location),
                        v.location_name(*to)
                    );
                    texts.push((u.power, text));
                }
            }
        }
        PhaseKind::Retreat => {
            for (i, d) in state.dislodged.iter().enumerate() {
                if let Some(to) = retreat_options(v, state, i).choose(rng) {
                    let text = format!(
                        "{} {} R {}",
                        d.unit.kind.letter(),
                        v.location_name(d.unit.location),
                        v.location_name(*to)
                    );
                    texts.push((d.unit.power, text));
                }
            }
        }
        PhaseKind::Adjustment => {
            for p in 0..v.powers.len() {
                let power = p as chancery_engine::PowerId;
                let mut builds = state.centre_count(power).saturating_sub(state.unit_count(power));
                for (prov, province) in v.provinces.iter().enumerate() {
                    if builds == 0 {
                        break;
                    }
                    let prov = prov as chancery_engine::ProvinceId;
                    if v.is_home_of(prov, power)
                        && state.owners[prov as usize] == Some(power)
                        && state.unit_at(prov).is_none()
                    {
                        let kind = if v.army_can_stand(prov) { "A" } else { "F" };
                        texts.push((power, format!("Build {kind} {}", province.abbr)));
                        builds -= 1;
                    }
                }
            }
        }
    }
    texts
        .into_iter()
        .filter_map(|(power, text)| parse_order(v, power, &text).and_then(|o| validate(v, state, &o)).ok())
        .collect()
}
