//! The scheduler: starts games whose start time has come and processes every phase
//! whose deadline has passed. Any number of servers may run one against the same
//! database; `services::processing::process_due` makes sure each phase is processed once.

use std::time::Duration;

use sqlx::Row;

use crate::db::Lock;
use crate::error::ApiResult;
use crate::model::GameStatus;
use crate::services::games;
use crate::services::processing::process_due;
use crate::App;

pub async fn run(app: App, tick_ms: u64) {
    let tick = Duration::from_millis(tick_ms.max(10));
    loop {
        if let Err(e) = once(&app).await {
            eprintln!("chancery-server: scheduler: {}", e.message);
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
    let starting =
        sqlx::query("SELECT id FROM games WHERE status = 'forming' AND start_at_ms IS NOT NULL AND start_at_ms <= $1")
            .bind(now)
            .fetch_all(&app.db.read)
            .await?;
    for r in &starting {
        let (mut tx, game) = games::lock(app, r.get("id")).await?;
        if game.status == GameStatus::Forming {
            games::seats::start(app, &mut tx, &game).await?;
            tx.commit().await?;
        }
    }
    let due = sqlx::query(
        "SELECT id, seq FROM games WHERE status = 'active' AND deadline_ms <= $1 ORDER BY deadline_ms LIMIT 100",
    )
    .bind(now)
    .fetch_all(&app.db.read)
    .await?;
    let mut processed = 0;
    // First pass: skip games another transaction holds (another server processing them,
    // or a player's submission); second pass: wait for the ones skipped. Whoever gets
    // the lock second finds the phase already processed and does nothing.
    for lock in [Lock::SkipLocked, Lock::Wait] {
        for r in &due {
            let (id, seq): (i64, i64) = (r.get("id"), r.get("seq"));
            match process_due(app, id, seq, now, lock).await {
                Ok(true) => processed += 1,
                Ok(false) => {}
                Err(e) => eprintln!("chancery-server: processing game {id} phase {seq}: {}", e.message),
            }
        }
    }
    Ok(processed)
}
