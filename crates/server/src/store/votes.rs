//! `draw_votes`: the powers that voted for a draw.

use crate::model::GameId;
use sqlx::{Any, Executor};

/// The powers that have voted for a draw, in name order.
pub async fn voters<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Vec<String>> {
    super::powers_where(
        e,
        "SELECT power FROM draw_votes WHERE game_id = $1 ORDER BY power",
        game,
    )
    .await
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game: GameId,
    power: &str,
    at_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO draw_votes (game_id, power, at_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(game)
        .bind(power)
        .bind(at_ms)
        .execute(e)
        .await?;
    Ok(())
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId, power: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM draw_votes WHERE game_id = $1 AND power = $2")
        .bind(game)
        .bind(power)
        .execute(e)
        .await?;
    Ok(())
}

pub async fn delete_all<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM draw_votes WHERE game_id = $1")
        .bind(game)
        .execute(e)
        .await?;
    Ok(())
}
