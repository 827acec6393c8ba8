//! Bots in seats: the GM seats a bot on a vacant power or gives it a power
//! whose player is gone; a game may ask for bots in the seats nobody has at the start
//! (`seats::start`); a person takes a bot's seat through the GM's replacement.
//!
//! A bot decides each phase off the request path: [`run`] finds the turns due (a bot's
//! power in a running game's current phase, not yet decided), claims each under the
//! game's lock, has `chancery_bot` decide on the job pool, and writes the orders and
//! bids through the very functions a person's submission uses
//! (`services::orders::write`, `services::bids::write`), then marks the power ready,
//! which processes the phase when everyone is. So a game of one person and eight bots
//! moves at the person's pace.
//!
//! Exactly once across servers sharing a database: the claim is a `bot_turns` row
//! written under the game's lock, and the decision is written only under the lock
//! again, only if the game is still at the phase it was made for, the claim is still
//! this server's and the bot still has the seat. A decision that lands after its phase
//! moved on (a deadline, the GM) is dropped. A claim left by a server that stopped
//! lapses after [`CLAIM_LEASE_MS`] and another server takes the turn over.
//!
//! The bot is deterministic for its settings: the seed comes from the game, the phase
//! number and the power, the effort is a count of judgements (`--bot-judgements`), so a
//! turn decided twice (a lapsed claim) gives the same orders. Bots write no press, and
//! their bids are stored as a person's are: secret to the power's seat and the GM.

use std::time::Duration;

use chancery_bot::{Level, Settings};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult};
use crate::jobs::Weight;
use crate::model::{Account, BotLevel, BotTurnOutcome, GameId, GameStatus, PhaseSeq};
use crate::services::bids::NewBid;
use crate::services::games::{self, log_event, playable_powers, LoadedGame};
use crate::services::seats;
use crate::store;
use crate::App;

/// The level seats get.
pub const SEAT_LEVEL: Level = Level::Strong;

/// The judgements a decision may use when the server is not told (`--bot-judgements`):
/// the bot crate's own default for the level seats get.
pub fn default_judgements() -> u32 {
    Settings::new(SEAT_LEVEL, 0).judgements
}

/// How long a claimed turn is this server's before another may take it over (a server
/// that stopped mid-decision). Longer than any decision's budget.
pub const CLAIM_LEASE_MS: i64 = 60_000;

/// How long a decision may take on the job pool, its wait in the queue included; past
/// it the turn is left to lapse and be tried again.
pub const DECIDE_BUDGET: Duration = Duration::from_secs(30);

/// Turns taken up in one pass.
const TURNS_PER_PASS: i64 = 64;

/// The power to give to a bot.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"power": "Italy"}))]
pub struct BotSeat {
    pub power: String,
}

/// A bot seated.
#[derive(Serialize, ToSchema, Debug)]
pub struct BotSeated {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub power: String,
    /// The bot's level (`strong`).
    pub level: String,
    /// Whether the power had a player, whose seat this ended (their power given to a
    /// bot instead of civil disorder).
    pub replaced_player: bool,
}

/// Which power's bot to take off.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BotQuery {
    pub power: String,
}

/// A bot's seat ended.
#[derive(Serialize, ToSchema, Debug)]
pub struct BotUnseated {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub power: String,
}

/// The GM gives `power` to a bot: a vacant power (before the start or later), or one
/// whose player is gone, instead of declaring civil disorder. The player's seat ends
/// (kept in the record), the event is logged and mailed as a replacement is.
pub async fn seat(app: &App, account: &Account, id: GameId, s: BotSeat) -> ApiResult<BotSeated> {
    let (mut tx, loaded) = crate::services::gm::gm_lock(app, account, id).await?;
    let LoadedGame {
        game,
        variant: v,
        state,
    } = &loaded;
    if game.status == GameStatus::Finished {
        return Err(ApiError::conflict("the game is over"));
    }
    let playable = playable_powers(v);
    let power = v
        .find_power(&s.power)
        .map(|i| v.power(i).name.clone())
        .filter(|p| playable.contains(p))
        .ok_or_else(|| {
            ApiError::unprocessable(format!(
                "`{}` is not a power a player takes; the powers are {}",
                s.power,
                playable.join(", ")
            ))
        })?;
    if v.find_power(&power).is_some_and(|p| state.in_disorder(p)) {
        return Err(ApiError::conflict(format!(
            "{power} is in permanent civil disorder (rule 11): its centres are minor powers now"
        )));
    }
    let bots = store::bots::powers(&mut *tx, id).await?;
    if bots.contains(&power) {
        return Err(ApiError::conflict(format!("a bot already plays {power}")));
    }
    let now = app.clock.now_ms();
    let old = store::mail::player_of(&mut *tx, id, &power).await?;
    store::members::end_seat(&mut *tx, id, &power, now).await?;
    store::bots::seat(&mut *tx, id, &power, BotLevel(SEAT_LEVEL), game.seq, now).await?;
    store::members::clear_disorder(&mut *tx, id, &power).await?;
    let phase = state.phase.code();
    match old {
        Some(_) => {
            log_event(
                &mut tx,
                app,
                id,
                game.seq,
                &phase,
                "replaced",
                &format!("{power} (by a bot)"),
            )
            .await?
        }
        None => log_event(&mut tx, app, id, game.seq, &phase, "bot_seated", &power).await?,
    }
    if game.status != GameStatus::Forming {
        crate::services::mail::bot_took(&mut tx, app, game, &power, old).await?;
    }
    let seated = store::members::seated(&mut *tx, id).await?.len() + bots.len() + 1;
    if game.status == GameStatus::Forming && game.start_at_ms.is_none() && seated >= playable.len() {
        seats::start(app, &mut tx, &loaded).await?;
    }
    tx.commit().await?;
    app.bot_wake.notify_one();
    Ok(BotSeated {
        game: id,
        power,
        level: SEAT_LEVEL.as_str().into(),
        replaced_player: old.is_some(),
    })
}

/// The GM takes a bot off its power, which is vacant again (to be given to a person,
/// or left to the rules for missing orders).
pub async fn unseat(app: &App, account: &Account, id: GameId, q: BotQuery) -> ApiResult<BotUnseated> {
    let (mut tx, loaded) = crate::services::gm::gm_lock(app, account, id).await?;
    let (game, v) = (&loaded.game, &loaded.variant);
    let power = v
        .find_power(&q.power)
        .map(|i| v.power(i).name.clone())
        .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{}`", q.power)))?;
    if !store::bots::unseat(&mut *tx, id, &power, app.clock.now_ms()).await? {
        return Err(ApiError::not_found(format!("no bot plays {power}")));
    }
    store::orders::set_ready(&mut *tx, id, game.seq, &power, false).await?;
    let phase = loaded.state.phase.code();
    log_event(&mut tx, app, id, game.seq, &phase, "bot_unseated", &power).await?;
    tx.commit().await?;
    Ok(BotUnseated { game: id, power })
}

/// The bots' task: a pass over the turns due at every tick, and at once when woken (a
/// phase opened, a bot was seated).
pub async fn run(app: App, tick_ms: u64) {
    let tick = Duration::from_millis(tick_ms.max(10));
    loop {
        if let Err(e) = pass(&app).await {
            tracing::error!("bots: {}", e.message);
        }
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = app.bot_wake.notified() => {}
        }
    }
}

/// One pass: every turn due is played at once (the decisions share the job pool).
/// Returns how many turns this server decided.
pub async fn pass(app: &App) -> ApiResult<usize> {
    let now = app.clock.now_ms();
    let due = store::bots::due(&app.db.read, now - CLAIM_LEASE_MS, TURNS_PER_PASS).await?;
    let mut plays = tokio::task::JoinSet::new();
    for turn in due {
        let app = app.clone();
        plays.spawn(async move {
            let what = format!("game {} phase {} {}", turn.game, turn.seq, turn.power);
            play(&app, turn)
                .await
                .inspect_err(|e| tracing::error!("bot of {what}: {}", e.message))
        });
    }
    let mut decided = 0;
    while let Some(done) = plays.join_next().await {
        if let Ok(Ok(true)) = done {
            decided += 1;
        }
    }
    Ok(decided)
}

/// The seed of a turn: from the game, the phase number and the power, so that the same
/// turn decides alike on any server and every turn differs.
pub fn seed(game: GameId, seq: PhaseSeq, power: usize) -> u64 {
    // splitmix64's finaliser over the three, one after another.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for part in [game.0 as u64, seq.0 as u64, power as u64] {
        x = (x ^ part).wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^= x >> 31;
    }
    x
}

/// Plays one turn: claim, decide, write. Returns whether this call wrote a decision.
async fn play(app: &App, turn: store::bots::Turn) -> ApiResult<bool> {
    let level = turn.level.0;
    // The claim, under the game's lock.
    let (mut tx, game) = games::lock(app, turn.game).await?;
    if !still_its_turn(&mut tx, &game, &turn).await? {
        return Ok(false);
    }
    let now = app.clock.now_ms();
    if let Some(t) = store::bots::turn(&mut *tx, turn.game, turn.seq, &turn.power).await? {
        if t.done_ms.is_some() || t.claimed_ms >= now - CLAIM_LEASE_MS {
            return Ok(false); // another server has it, or it is done
        }
    }
    let loaded = LoadedGame::of(app, game).await?;
    let (v, state) = (&loaded.variant, &loaded.state);
    let power = v
        .find_power(&turn.power)
        .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{}`", turn.power)))?;
    store::bots::claim(&mut *tx, turn.game, turn.seq, &turn.power, &app.server_id, now).await?;
    if !chancery_engine::options::has_choice(v, state, power) {
        // Nothing to decide; ready at once all the same, as the page shows it.
        store::bots::done(
            &mut *tx,
            turn.game,
            turn.seq,
            &turn.power,
            BotTurnOutcome::NoDecision,
            now,
        )
        .await?;
        let (_, processed) = crate::services::orders::ready(app, &mut tx, &loaded, &turn.power).await?;
        tx.commit().await?;
        if processed {
            app.bot_wake.notify_one();
        }
        return Ok(false);
    }
    tx.commit().await?;

    // The decision, on the job pool, with no lock held.
    let settings = Settings {
        level,
        seed: seed(turn.game, turn.seq, power as usize),
        judgements: app.bot_judgements,
    };
    let (pool_v, pool_state) = (loaded.variant.clone(), loaded.state.clone());
    let decision = match app
        .jobs
        .run(Weight::Heavy, DECIDE_BUDGET, move || {
            chancery_bot::decide(&pool_v, &pool_state, power, &settings)
        })
        .await
    {
        Ok(d) => d,
        Err(e) => {
            // A full pool (or a decision past its budget) only delays the turn: it is
            // due again at the next pass, not after the claim's lease, which under load
            // left a game waiting a minute for its bots.
            release(app, &turn).await?;
            return Err(app.jobs.refusal(e, "a bot's decision"));
        }
    };
    // Orders by the power that gives them: a faction's (1936's Spanish sides, whose
    // builds and removals are its own) are written for the faction, as the GM would.
    let mut orders: Vec<(String, Vec<String>)> = vec![(turn.power.clone(), Vec::new())];
    for o in &decision.orders {
        let name = &v.power(o.power).name;
        let text = o.display(v).to_string();
        match orders.iter_mut().find(|(p, _)| p == name) {
            Some((_, texts)) => texts.push(text),
            None => orders.push((name.clone(), vec![text])),
        }
    }
    let bids: Vec<NewBid> = decision
        .bids
        .iter()
        .map(|b| NewBid {
            unit: None,
            dp: i64::from(b.dp),
            order: b.order.display(v).to_string(),
        })
        .collect();
    let app2 = app.clone();
    app.db.clone().writing(write(app2, turn, orders, bids, loaded)).await
}

/// Gives a claimed turn back: its claim is dated past the lease, so the next pass (on
/// any server) takes it again.
async fn release(app: &App, turn: &store::bots::Turn) -> ApiResult<()> {
    let (mut tx, _game) = games::lock(app, turn.game).await?;
    let lapsed = app.clock.now_ms() - CLAIM_LEASE_MS - 1;
    store::bots::claim(&mut *tx, turn.game, turn.seq, &turn.power, &app.server_id, lapsed).await?;
    tx.commit().await?;
    Ok(())
}

/// Whether the bot still has its turn: the game running at the turn's phase and the bot
/// still in the seat at its level.
async fn still_its_turn(
    tx: &mut crate::db::Tx,
    game: &store::games::Game,
    turn: &store::bots::Turn,
) -> ApiResult<bool> {
    if game.seq != turn.seq || game.status != GameStatus::Active {
        return Ok(false);
    }
    let seated = store::bots::seated(&mut **tx, game.id).await?;
    Ok(seated.iter().any(|b| b.power == turn.power && b.level == turn.level))
}

/// Writes a decision under the game's lock, if it still counts (see the module's note).
/// `decided`: the game as loaded for the decision, whose position is decoded again only
/// if it changed since.
async fn write(
    app: App,
    turn: store::bots::Turn,
    orders: Vec<(String, Vec<String>)>,
    bids: Vec<NewBid>,
    decided: LoadedGame,
) -> ApiResult<bool> {
    let (mut tx, game) = games::lock(&app, turn.game).await?;
    let now = app.clock.now_ms();
    let ours = store::bots::turn(&mut *tx, turn.game, turn.seq, &turn.power)
        .await?
        .is_some_and(|t| t.done_ms.is_none() && t.server == app.server_id);
    let late = game.deadline_ms.is_some_and(|d| d <= now);
    if !ours || late || !still_its_turn(&mut tx, &game, &turn).await? {
        // The phase moved on (or its deadline passed, or the seat or the turn went to
        // another): this decision is for a position that is gone, and nothing is written.
        tracing::info!(
            "bot of game {} phase {} {}: decision dropped, the turn is over",
            turn.game,
            turn.seq,
            turn.power
        );
        return Ok(false);
    }
    let loaded = decided.reread(&app, game).await?;
    let LoadedGame {
        game,
        variant: v,
        state,
    } = &loaded;
    let written = async {
        for (power, texts) in &orders {
            crate::services::orders::write(&mut tx, game, v, state, power, texts, true, now).await?;
        }
        if v.has_minors() {
            crate::services::bids::write(&mut tx, game, v, state, &turn.power, &bids, true, now).await?;
        }
        Ok::<(), ApiError>(())
    }
    .await;
    let phase = state.phase.code();
    match written {
        Ok(()) => {
            store::bots::done(&mut *tx, turn.game, turn.seq, &turn.power, BotTurnOutcome::Ordered, now).await?;
            let (_, processed) = crate::services::orders::ready(&app, &mut tx, &loaded, &turn.power).await?;
            tx.commit().await?;
            if processed {
                app.bot_wake.notify_one();
            }
            Ok(true)
        }
        Err(e) => {
            // A refused decision is a bug in the bot; the power is left to the rules
            // for missing orders, the GM reads why in the log, and the bot is ready all
            // the same, so that the game does not wait for it until the deadline.
            tx.rollback().await?;
            let (mut tx, game) = games::lock(&app, turn.game).await?;
            if !still_its_turn(&mut tx, &game, &turn).await? {
                return Ok(false);
            }
            // The same phase as the position loaded above, which the mark is read with.
            let loaded = LoadedGame { game, ..loaded };
            store::bots::done(&mut *tx, turn.game, turn.seq, &turn.power, BotTurnOutcome::Refused, now).await?;
            let detail = format!("{}: {}", turn.power, e.message);
            tracing::error!("bot of game {} phase {}: refused: {detail}", turn.game, turn.seq);
            log_event(&mut tx, &app, turn.game, turn.seq, &phase, "bot_refused", &detail).await?;
            let (_, processed) = crate::services::orders::ready(&app, &mut tx, &loaded, &turn.power).await?;
            tx.commit().await?;
            if processed {
                app.bot_wake.notify_one();
            }
            Ok(false)
        }
    }
}
