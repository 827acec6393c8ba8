//! `disorder`: the powers declared in civil disorder, since which phase, and the seat
//! each declaration ended.

use crate::model::{GameId, PhaseSeq};
use sqlx::{Any, Executor, Row};

/// The powers in civil disorder.
pub async fn powers<'e, E: Executor<'e, Database = Any>>(e: E, game_id: GameId) -> sqlx::Result<Vec<String>> {
    sqlx::query("SELECT power FROM disorder WHERE game_id = $1")
        .bind(game_id)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| r.try_get("power"))
        .collect()
}

/// Gives back the seats that declarations made after phase `seq` ended, where nobody
/// has been seated in the power since.
pub async fn restore_seats_after<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE members SET active = 1, left_ms = NULL \
         WHERE id IN (SELECT seat_member FROM disorder WHERE game_id = $1 AND since_seq > $2) \
         AND NOT EXISTS (SELECT 1 FROM members AS seated WHERE seated.game_id = members.game_id \
             AND seated.power = members.power AND seated.role = 'player' AND seated.active = 1)",
    )
    .bind(game_id)
    .bind(seq)
    .execute(e)
    .await?;
    Ok(())
}

/// Forgets the declarations made after phase `seq`.
pub async fn delete_after<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM disorder WHERE game_id = $1 AND since_seq > $2")
        .bind(game_id)
        .bind(seq)
        .execute(e)
        .await?;
    Ok(())
}

/// Records a declaration made in phase `seq`, with the seat it ends (for a rollback
/// past it to give back); nothing when the power is already declared.
pub async fn declare<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    power: &str,
    seq: PhaseSeq,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO disorder (game_id, power, since_seq, seat_member) \
         VALUES ($1, $2, $3, (SELECT id FROM members WHERE game_id = $1 AND power = $2 AND role = 'player' AND active = 1)) \
         ON CONFLICT DO NOTHING",
    )
    .bind(game_id)
    .bind(power)
    .bind(seq)
    .execute(e)
    .await?;
    Ok(())
}
