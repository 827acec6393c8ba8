//! `members`: who plays which power in a game and who observes it; with the tables a
//! game's view reads beside it (`disorder`, `ready`, `draw_votes`).

use crate::model::{AccountId, GameId, PhaseSeq};
use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use crate::db::new_id;

/// The powers that have a player now.
pub async fn seated<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Vec<String>> {
    super::powers_where(
        e,
        "SELECT power FROM members WHERE game_id = $1 AND role = 'player' AND active = 1",
        game,
    )
    .await
}

/// How many powers have a player now, per game (games without one are left out).
pub async fn seated_counts<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<Vec<super::GameCount>> {
    sqlx::query("SELECT game_id, COUNT(*) AS n FROM members WHERE role = 'player' AND active = 1 GROUP BY game_id")
        .fetch_all(e)
        .await?
        .iter()
        .map(super::game_count)
        .collect()
}

/// `members.role`: what a membership is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Player,
    Observer,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Observer => "observer",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        [Role::Player, Role::Observer].into_iter().find(|r| r.as_str() == text)
    }
}

/// An account's active part in a game, as `members.role` and `power` store it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Plays this power.
    Player(String),
    /// Follows the game.
    Observer,
}

/// An account's active part in a game; a player who also observes counts as the player.
pub async fn part<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
) -> sqlx::Result<Option<Part>> {
    sqlx::query(
        "SELECT role, power FROM members WHERE game_id = $1 AND account_id = $2 AND active = 1 ORDER BY role DESC LIMIT 1",
    )
    .bind(game)
    .bind(account)
    .fetch_optional(e)
    .await?
    .map(|r| {
        let role: Role = r.try_get("role")?;
        let power: Option<String> = r.try_get("power")?;
        Ok(match (role, power) {
            (Role::Player, Some(power)) => Part::Player(power),
            _ => Part::Observer,
        })
    })
    .transpose()
}

/// The power the account plays in the game, if any.
pub async fn power_of<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
) -> sqlx::Result<Option<String>> {
    sqlx::query("SELECT power FROM members WHERE game_id = $1 AND account_id = $2 AND role = 'player' AND active = 1")
        .bind(game)
        .bind(account)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("power"))
        .transpose()
}

/// Adds a player (with `power`) or an observer (without).
pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
    power: Option<&str>,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO members (id, game_id, account_id, role, power, active, joined_ms) VALUES ($1, $2, $3, $4, $5, 1, $6)")
        .bind(new_id())
        .bind(game)
        .bind(account)
        .bind(if power.is_some() { Role::Player } else { Role::Observer })
        .bind(power)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// Ends the account's observing of the game.
pub async fn stop_observing<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE members SET active = 0, left_ms = $3 WHERE game_id = $1 AND account_id = $2 AND role = 'observer' AND active = 1")
        .bind(game)
        .bind(account)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// Ends every active part the account has in the game.
pub async fn leave<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    account: AccountId,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE members SET active = 0, left_ms = $3 WHERE game_id = $1 AND account_id = $2 AND active = 1")
        .bind(game)
        .bind(account)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// The power's civil disorder ends: it has a player again.
pub async fn clear_disorder<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId, power: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM disorder WHERE game_id = $1 AND power = $2")
        .bind(game)
        .bind(power)
        .execute(e)
        .await?;
    Ok(())
}

/// An active member of a game, with the account's name.
#[derive(Clone, Debug)]
pub struct Member {
    /// `None` for an observer.
    pub power: Option<String>,
    pub name: String,
}

/// What a game's view needs besides the game row.
#[derive(Clone, Debug, Default)]
pub struct Around {
    pub players: Vec<Member>,
    pub observers: usize,
    pub disorder: Vec<String>,
    /// Powers ready in the current phase.
    pub ready: Vec<String>,
    /// Powers that voted for a draw, in name order.
    pub draw_votes: Vec<String>,
    pub gm_name: Option<String>,
}

/// Everything the view needs besides the game row, in one round trip: each row says
/// which list it belongs to.
pub async fn around<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    seq: PhaseSeq,
    gm: AccountId,
) -> sqlx::Result<Around> {
    let rows = sqlx::query(
        "SELECT 'member' AS bucket, m.power AS power, m.role AS role, a.name AS name FROM members m JOIN accounts a ON a.id = m.account_id WHERE m.game_id = $1 AND m.active = 1
         UNION ALL SELECT 'disorder', power, NULL, NULL FROM disorder WHERE game_id = $1
         UNION ALL SELECT 'ready', power, NULL, NULL FROM ready WHERE game_id = $1 AND seq = $2
         UNION ALL SELECT 'vote', power, NULL, NULL FROM draw_votes WHERE game_id = $1
         UNION ALL SELECT 'gm', NULL, NULL, name FROM accounts WHERE id = $3",
    )
    .bind(game)
    .bind(seq)
    .bind(gm)
    .fetch_all(e)
    .await?;
    let mut out = Around::default();
    let power =
        |r: &AnyRow| -> sqlx::Result<String> { Ok(r.try_get::<Option<String>, _>("power")?.unwrap_or_default()) };
    for r in &rows {
        match r.try_get::<String, _>("bucket")?.as_str() {
            "member" => match r.try_get::<Option<Role>, _>("role")? {
                Some(Role::Player) => out.players.push(Member {
                    power: r.try_get("power")?,
                    name: r.try_get::<Option<String>, _>("name")?.unwrap_or_default(),
                }),
                _ => out.observers += 1,
            },
            "disorder" => out.disorder.push(power(r)?),
            "ready" => out.ready.push(power(r)?),
            "vote" => out.draw_votes.push(power(r)?),
            _ => out.gm_name = r.try_get("name")?,
        }
    }
    out.draw_votes.sort();
    Ok(out)
}

/// Ends the current player's membership of `power`; the record of it stays.
pub async fn end_seat<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    power: &str,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE members SET active = 0, left_ms = $3 WHERE game_id = $1 AND power = $2 AND role = 'player' AND active = 1")
        .bind(game)
        .bind(power)
        .bind(now_ms)
        .execute(e)
        .await?;
    Ok(())
}
