//! The scheduler: starts games whose start time has come and processes every phase
//! whose deadline has passed. Any number of servers may run one against the same
//! database; `services::processing::process_due` makes sure each phase is processed once.

use std::time::Duration;

use crate::error::ApiResult;
use crate::model::GameStatus;
use crate::services::processing::process_due;
use crate::services::{games, seats};
use crate::store;
use crate::store::games::{DueGame, Lock};
use crate::App;

pub async fn run(app: App, tick_ms: u64) {
    let tick = Duration::from_millis(tick_ms.max(10));
    loop {
        if let Err(e) = once(&app).await {
            tracing::error!("scheduler: {}", e.message);
        }
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = app.wake.notified() => {}
        }
    }
}

/// One pass: returns how many phases this server processed.
pub async fn once(app: &App) -> ApiResult<usize> {
    let now = app.clock.now_ms();
    for id in store::games::starting(&app.db.read, now).await? {
        let (mut tx, game) = games::lock(app, id).await?;
        if game.status == GameStatus::Forming {
            seats::start(app, &mut tx, &games::LoadedGame::of(app, game).await?).await?;
            tx.commit().await?;
            app.bot_wake.notify_one();
        }
    }
    let due = store::games::due(&app.db.read, now, 100).await?;
    let mut processed = 0;
    // First pass: skip games another transaction holds (another server processing them,
    // or a player's submission); second pass: wait for the ones skipped. Whoever gets
    // the lock second finds the phase already processed and does nothing.
    for lock in [Lock::SkipLocked, Lock::Wait] {
        for &DueGame { id, seq } in &due {
            match process_due(app, id, seq, now, lock).await {
                Ok(true) => processed += 1,
                Ok(false) => {}
                Err(e) => tracing::error!("processing game {id} phase {seq}: {}", e.message),
            }
        }
    }
    if processed > 0 {
        // New phases: their bots' turn.
        app.bot_wake.notify_one();
    }
    Ok(processed)
}
