//! Deadline reminders: before each deadline, at the times the game's GM has set (24 and
//! 2 hours without a choice), each player whose power still has orders to give and has
//! given none, or bids to give and has given none, is mailed.
//!
//! Bids (1936, 1648): a great power has bids to give in a Spring or Fall movement phase
//! when its budget this turn is at least one DP and some minor still has a unit on the
//! map (1936 v3.6, "DP budget" and "DP allocation": "Unused DPs are lost"; DPs go only
//! to minors "that still have units on the map"). It has given them once it has
//! submitted any bid this phase: how many of its DPs a power spends is its own choice
//! (a power may keep some back on purpose), so one bid is taken as its answer, as one
//! order is for orders.
//!
//! A reminder is sent once per phase, deadline and reminder time: the claim is a row of
//! `mail_reminders_sent` written in the transaction that writes the mails, so that a
//! restart, a second server or a retried pass finds it and sends nothing more. A new
//! deadline (the GM extends it, a rollback reopens the phase) is a new deadline and is
//! reminded of again. Only the nearest reminder time that has come is considered, so
//! that a server that was down at 24 hours sends one reminder at 2 hours, not two; and a
//! reminder time that fell before the phase opened (a 24-hour reminder in a 12-hour
//! phase) is never sent.

use chancery_engine::{dp, GameState, PhaseKind, PowerId, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::{Account, GameId, GameStatus, PhaseSeq};
use crate::services::games;
use crate::services::mail::{self, Block, Kind};
use crate::store::{self, games::Lock};
use crate::App;

/// The reminder times of a game that has not chosen: a day and two hours before.
pub const DEFAULT_MINUTES: [i64; 2] = [24 * 60, 120];
/// At most a week before a deadline, and at most this many times.
pub const MAX_MINUTES: i64 = 7 * 24 * 60;
pub const MAX_TIMES: usize = 4;

/// A game's reminder times, in minutes before the deadline, longest first.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"minutes": [1440, 120]}))]
pub struct Reminders {
    /// Minutes before the deadline; `[]` for no reminders.
    pub minutes: Vec<i64>,
}

/// Reads the stored text (`1440,120`); the defaults when there is none.
pub fn parse_stored(text: Option<&str>) -> Vec<i64> {
    match text {
        None => DEFAULT_MINUTES.to_vec(),
        Some(t) => t.split(',').filter_map(|m| m.trim().parse().ok()).collect(),
    }
}

/// Checks a GM's choice: whole minutes from 1 to a week, at most four, no repeats;
/// longest first.
pub fn check(minutes: &[i64]) -> ApiResult<Vec<i64>> {
    if minutes.len() > MAX_TIMES {
        return Err(ApiError::unprocessable(format!("at most {MAX_TIMES} reminder times")));
    }
    if let Some(m) = minutes.iter().find(|m| !(1..=MAX_MINUTES).contains(*m)) {
        return Err(ApiError::unprocessable(format!(
            "a reminder is 1 to {MAX_MINUTES} minutes (a week) before the deadline, not {m}"
        )));
    }
    let mut sorted = minutes.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted.dedup();
    if sorted.len() != minutes.len() {
        return Err(ApiError::unprocessable("each reminder time once"));
    }
    Ok(sorted)
}

pub async fn get(app: &App, account: &Account, id: GameId) -> ApiResult<Reminders> {
    let game = games::load(&app.db.read, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::coded(ErrorCode::GmOnly, "only the game's GM can do that"));
    }
    let stored = store::mail::reminder_times(&app.db.read, id).await?;
    Ok(Reminders {
        minutes: parse_stored(stored.as_deref()),
    })
}

/// The GM sets the game's reminder times; they apply to the current deadline too.
pub async fn set(app: &App, account: &Account, id: GameId, r: Reminders) -> ApiResult<Reminders> {
    let minutes = check(&r.minutes)?;
    crate::services::moderation::refuse_if_suspended(app, account).await?;
    let (mut tx, game) = games::lock(app, id).await?;
    if game.gm_id != account.id {
        return Err(ApiError::coded(ErrorCode::GmOnly, "only the game's GM can do that"));
    }
    let text = minutes.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    store::mail::set_reminder_times(&mut *tx, id, &text).await?;
    tx.commit().await?;
    Ok(Reminders { minutes })
}

/// The reminder time to send now for a deadline: the shortest one whose moment has
/// come, if its moment fell after the phase opened. None when none is due.
pub fn due_reminder(times: &[i64], deadline_ms: i64, opened_ms: i64, now_ms: i64) -> Option<i64> {
    if now_ms >= deadline_ms {
        return None;
    }
    let at = |m: i64| deadline_ms - m * 60_000;
    let nearest = times.iter().copied().filter(|&m| at(m) <= now_ms).min()?;
    (at(nearest) > opened_ms).then_some(nearest)
}

/// One pass: sends the reminders that are due; returns how many mails were written.
pub async fn send_due(app: &App) -> ApiResult<usize> {
    let now = app.clock.now_ms();
    let mut written = 0;
    for c in store::mail::reminder_candidates(&app.db.read, now, now + MAX_MINUTES * 60_000).await? {
        let times = parse_stored(c.minutes.as_deref());
        let Some(minutes) = due_reminder(&times, c.deadline_ms, c.opened_ms.unwrap_or(0), now) else {
            continue;
        };
        written += remind(app, c.game_id, c.seq, c.deadline_ms, minutes).await?;
    }
    Ok(written)
}

async fn remind(app: &App, game_id: GameId, seq: PhaseSeq, deadline_ms: i64, minutes: i64) -> ApiResult<usize> {
    let mut tx = app.db.write.begin().await?;
    // The game's lock, so that no phase is processed under the reminder; a game another
    // transaction holds is left for the next pass.
    if !store::games::lock_id(&mut tx, app.db.backend, game_id, Lock::SkipLocked).await? {
        return Ok(0);
    }
    let Some(game) = store::games::by_id(&mut *tx, game_id).await? else {
        return Ok(0);
    };
    if game.seq != seq || game.status != GameStatus::Active || game.deadline_ms != Some(deadline_ms) {
        return Ok(0);
    }
    let now = app.clock.now_ms();
    if !store::mail::claim_reminder(&mut *tx, game_id, seq, deadline_ms, minutes, now).await? {
        return Ok(0);
    }
    let loaded = games::LoadedGame::of(app, game).await?;
    let games::LoadedGame {
        game,
        variant: v,
        state,
    } = &loaded;
    let disorder = store::disorder::powers(&mut *tx, game_id).await?;
    let given = store::orders::for_phase(&mut *tx, game_id, seq).await?;
    let bids = store::bids::for_phase(&mut *tx, game_id, seq, None).await?;
    let phase = state.phase.to_string();
    let left = words_left(deadline_ms - now);
    let mut written = 0;
    for reader in mail::players(app, game, Kind::Reminders).await? {
        let Some(power) = reader.power.as_deref() else { continue };
        let Some(pid) = v.find_power(power) else { continue };
        if disorder.iter().any(|d| d == power) {
            continue;
        }
        // Orders for the power's own units and for the factions it plays.
        let orders_due = chancery_engine::options::has_choice(v, state, pid)
            && !given
                .iter()
                .any(|o| v.find_power(&o.power).is_some_and(|p| p == pid || v.controls(pid, p)));
        let bids_due = bids_to_give(v, state, pid) && !bids.iter().any(|b| b.power == power);
        let Some(what) = still_to_give(orders_due, bids_due) else {
            continue;
        };
        let mut blocks = vec![Block::Para(format!(
            "{power} has given no {what} yet for {phase} in {}.",
            game.name
        ))];
        let mut defaults = Vec::new();
        if orders_due {
            defaults.push("units hold and the phase's other defaults apply");
        }
        if bids_due {
            defaults.push("its Diplomacy Points this turn are lost");
        }
        blocks.push(Block::Para(format!(
            "The deadline is {} ({left} from now). Without {what}, {}.",
            mail::when(deadline_ms, reader.zone),
            defaults.join(", and ")
        )));
        blocks.push(Block::Link {
            label: format!("Give your {what}"),
            url: format!("{}/games/{}", app.mailer.base_url, game.id),
        });
        let subject = format!("{}: {what} for {phase} due in {left}", game.name);
        // A reminder in the deadline's last hours goes at once even to a reader who
        // chose the daily digest; an early one may wait for a digest that still comes in
        // time.
        mail::enqueue_by(
            &mut tx,
            app,
            &reader,
            Some(game.id),
            Kind::Reminders,
            subject,
            &blocks,
            Some(deadline_ms),
        )
        .await?;
        written += 1;
    }
    tx.commit().await?;
    if written > 0 {
        app.mail_wake.notify_one();
    }
    Ok(written)
}

/// Whether `power` has Diplomacy Points to give this phase (see the module's note): a
/// Spring or Fall movement phase of a variant with minors, a budget of at least one DP,
/// and some minor unit on the map.
pub fn bids_to_give(v: &Variant, state: &GameState, power: PowerId) -> bool {
    v.has_minors()
        && state.phase.kind == PhaseKind::Movement
        && dp::minor_units(v, state).next().is_some()
        && dp::budget(v, state, power).total > 0
}

/// What a reminder asks for, in words; None when nothing is due.
fn still_to_give(orders: bool, bids: bool) -> Option<&'static str> {
    match (orders, bids) {
        (true, true) => Some("orders or bids"),
        (true, false) => Some("orders"),
        (false, true) => Some("bids"),
        (false, false) => None,
    }
}

/// `2 hours`, `1 day`, `45 minutes`: rounded to the nearest, as a reminder says it.
pub fn words_left(ms: i64) -> String {
    let minutes = (ms + 30_000) / 60_000;
    let plural = |n: i64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    if minutes >= 48 * 60 {
        plural((minutes + 12 * 60) / (24 * 60), "day")
    } else if minutes >= 90 {
        plural((minutes + 30) / 60, "hour")
    } else {
        plural(minutes.max(1), "minute")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3_600_000;

    #[test]
    fn the_nearest_reminder_that_has_come_after_the_phase_opened() {
        let times = [1440, 120];
        let deadline = 100 * H;
        // Opened 72 hours before: nothing until 24 hours before.
        assert_eq!(due_reminder(&times, deadline, 28 * H, 75 * H), None);
        assert_eq!(due_reminder(&times, deadline, 28 * H, 76 * H), Some(1440));
        assert_eq!(due_reminder(&times, deadline, 28 * H, 97 * H), Some(1440));
        assert_eq!(due_reminder(&times, deadline, 28 * H, 98 * H), Some(120));
        // After the deadline, nothing.
        assert_eq!(due_reminder(&times, deadline, 28 * H, 100 * H), None);
        // A 12-hour phase: the 24-hour reminder fell before it opened; the 2-hour one is sent.
        assert_eq!(due_reminder(&times, deadline, 88 * H, 90 * H), None);
        assert_eq!(due_reminder(&times, deadline, 88 * H, 98 * H), Some(120));
        // No reminders chosen.
        assert_eq!(due_reminder(&[], deadline, 0, 99 * H), None);
    }

    #[test]
    fn gm_choices_are_checked() {
        assert_eq!(check(&[120, 1440]).unwrap(), vec![1440, 120]);
        assert_eq!(check(&[]).unwrap(), Vec::<i64>::new());
        assert!(check(&[0]).unwrap_err().message.contains("1 to"));
        assert!(check(&[MAX_MINUTES + 1]).is_err());
        assert!(check(&[60, 60]).unwrap_err().message.contains("once"));
        assert!(check(&[1, 2, 3, 4, 5]).unwrap_err().message.contains("at most"));
        assert_eq!(parse_stored(None), vec![1440, 120]);
        assert_eq!(parse_stored(Some("")), Vec::<i64>::new());
        assert_eq!(parse_stored(Some("300,30")), vec![300, 30]);
    }

    #[test]
    fn time_left_in_words() {
        assert_eq!(words_left(24 * H), "24 hours");
        assert_eq!(words_left(2 * H), "2 hours");
        assert_eq!(words_left(2 * H - 20_000), "2 hours");
        assert_eq!(words_left(60 * 60_000), "60 minutes");
        assert_eq!(words_left(3 * 24 * H), "3 days");
        assert_eq!(words_left(1_000), "1 minute");
    }
}
