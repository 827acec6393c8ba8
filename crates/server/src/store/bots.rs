//! `bots`, `bot_turns` and `bot_fill`: the powers bots play, each bot's turn in a phase
//! (claimed by one server, then done), and the games whose vacant seats bots take at
//! the start.

use crate::model::{AccountId, BotLevel, BotTurnOutcome, GameId, PhaseSeq};
use sqlx::{Any, Executor, Row};

use crate::db::new_id;

/// A power a bot plays now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatedBot {
    pub power: String,
    pub level: BotLevel,
}

/// The powers a bot plays now, with the bot's level.
pub async fn seated<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Vec<SeatedBot>> {
    sqlx::query("SELECT power, level FROM bots WHERE game_id = $1 AND active = 1 ORDER BY power")
        .bind(game)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(SeatedBot {
                power: r.try_get("power")?,
                level: r.try_get("level")?,
            })
        })
        .collect()
}

/// The names of the powers a bot plays now.
pub async fn powers<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Vec<String>> {
    Ok(seated(e, game).await?.into_iter().map(|b| b.power).collect())
}

/// How many bots play in each game now (games without one are left out).
pub async fn counts<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<Vec<super::GameCount>> {
    sqlx::query("SELECT game_id, COUNT(*) AS n FROM bots WHERE active = 1 GROUP BY game_id")
        .fetch_all(e)
        .await?
        .iter()
        .map(super::game_count)
        .collect()
}

/// Seats a bot of `level` on `power` from phase `seq` on.
pub async fn seat<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    power: &str,
    level: BotLevel,
    seq: PhaseSeq,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO bots (id, game_id, power, level, active, since_seq, seated_ms) VALUES ($1, $2, $3, $4, 1, $5, $6)",
    )
    .bind(new_id())
    .bind(game)
    .bind(power)
    .bind(level)
    .bind(seq)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// Ends the bot's seat on `power`, if a bot has it; the row stays for the record.
/// Returns whether one had it.
pub async fn unseat<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    power: &str,
    now_ms: i64,
) -> sqlx::Result<bool> {
    let done = sqlx::query("UPDATE bots SET active = 0, left_ms = $3 WHERE game_id = $1 AND power = $2 AND active = 1")
        .bind(game)
        .bind(power)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A bot's turn to decide: the game's current phase, a power a bot plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub game: GameId,
    pub seq: PhaseSeq,
    pub power: String,
    pub level: BotLevel,
}

/// The turns due in running games: a bot's power whose turn in the current phase is
/// neither done nor claimed since `stale_before_ms` (a claim older than that was left
/// by a server that stopped, and is taken over). At most `limit`.
pub async fn due<'e, E: Executor<'e, Database = Any>>(
    e: E,
    stale_before_ms: i64,
    limit: i64,
) -> sqlx::Result<Vec<Turn>> {
    sqlx::query(
        "SELECT b.game_id AS game_id, g.seq AS seq, b.power AS power, b.level AS level
         FROM bots b JOIN games g ON g.id = b.game_id
         WHERE b.active = 1 AND g.status = 'active'
           AND NOT EXISTS (SELECT 1 FROM bot_turns t WHERE t.game_id = b.game_id AND t.seq = g.seq AND t.power = b.power
                           AND (t.done_ms IS NOT NULL OR t.claimed_ms >= $1))
         ORDER BY g.deadline_ms, b.game_id, b.power LIMIT $2",
    )
    .bind(stale_before_ms)
    .bind(limit)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(Turn {
            game: r.try_get("game_id")?,
            seq: r.try_get("seq")?,
            power: r.try_get("power")?,
            level: r.try_get("level")?,
        })
    })
    .collect()
}

/// A turn's row, when there is one.
#[derive(Clone, Debug)]
pub struct TurnRow {
    pub server: String,
    pub claimed_ms: i64,
    pub done_ms: Option<i64>,
}

pub async fn turn<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    seq: PhaseSeq,
    power: &str,
) -> sqlx::Result<Option<TurnRow>> {
    sqlx::query("SELECT server, claimed_ms, done_ms FROM bot_turns WHERE game_id = $1 AND seq = $2 AND power = $3")
        .bind(game)
        .bind(seq)
        .bind(power)
        .fetch_optional(e)
        .await?
        .map(|r| {
            Ok(TurnRow {
                server: r.try_get("server")?,
                claimed_ms: r.try_get("claimed_ms")?,
                done_ms: r.try_get("done_ms")?,
            })
        })
        .transpose()
}

/// Claims a turn for `server` (a new claim, or one taken over).
pub async fn claim<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    seq: PhaseSeq,
    power: &str,
    server: &str,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO bot_turns (game_id, seq, power, server, claimed_ms) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (game_id, seq, power) DO UPDATE SET server = excluded.server, claimed_ms = excluded.claimed_ms",
    )
    .bind(game)
    .bind(seq)
    .bind(power)
    .bind(server)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// Marks a turn done with what came of it.
pub async fn done<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    seq: PhaseSeq,
    power: &str,
    outcome: BotTurnOutcome,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE bot_turns SET done_ms = $4, outcome = $5 WHERE game_id = $1 AND seq = $2 AND power = $3")
        .bind(game)
        .bind(seq)
        .bind(power)
        .bind(now_ms)
        .bind(outcome)
        .execute(e)
        .await?;
    Ok(())
}

/// Forgets the turns from phase `seq` on (a rollback took those phases back; they will
/// be played again).
pub async fn forget_turns_from<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM bot_turns WHERE game_id = $1 AND seq >= $2")
        .bind(game)
        .bind(seq)
        .execute(e)
        .await?;
    Ok(())
}

/// A power whose orders a bot gave in a phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotOrdered {
    pub seq: PhaseSeq,
    pub power: String,
}

/// The phases and powers of a game whose orders a bot gave, in order.
pub async fn played<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Vec<BotOrdered>> {
    sqlx::query(
        "SELECT seq, power FROM bot_turns WHERE game_id = $1 AND done_ms IS NOT NULL AND outcome = $2 ORDER BY seq, power",
    )
    .bind(game)
    .bind(BotTurnOutcome::Ordered)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(BotOrdered {
            seq: r.try_get("seq")?,
            power: r.try_get("power")?,
        })
    })
    .collect()
}

/// Asks bots to take the vacant seats of the game when it starts, at `level`.
pub async fn fill_at_start<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    level: BotLevel,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO bot_fill (game_id, level) VALUES ($1, $2)")
        .bind(game)
        .bind(level)
        .execute(e)
        .await?;
    Ok(())
}

/// The level of the bots that take the game's vacant seats at the start, if asked.
pub async fn fill_level<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Option<BotLevel>> {
    sqlx::query("SELECT level FROM bot_fill WHERE game_id = $1")
        .bind(game)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("level"))
        .transpose()
}

/// A power of a game that a bot has played at some time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotPlayed {
    pub game_id: GameId,
    pub power: String,
}

/// The powers a bot has played at some time, among those the account has played: its
/// record says "bot" beside them.
pub async fn beside_account<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
) -> sqlx::Result<Vec<BotPlayed>> {
    sqlx::query(
        "SELECT DISTINCT b.game_id AS game_id, b.power AS power FROM bots b
         JOIN members m ON m.game_id = b.game_id AND m.power = b.power AND m.role = 'player'
         WHERE m.account_id = $1",
    )
    .bind(account)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| {
        Ok(BotPlayed {
            game_id: r.try_get("game_id")?,
            power: r.try_get("power")?,
        })
    })
    .collect()
}

/// The powers whose orders a bot gave in phase `seq` of a game, in name order.
pub async fn played_in<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<Vec<String>> {
    sqlx::query(
        "SELECT power FROM bot_turns WHERE game_id = $1 AND seq = $2 AND done_ms IS NOT NULL AND outcome = $3 ORDER BY power",
    )
    .bind(game)
    .bind(seq)
    .bind(BotTurnOutcome::Ordered)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| r.try_get("power"))
    .collect()
}
