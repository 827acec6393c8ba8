//! Draw votes. Besides the GM's declaration, the players themselves may end a game as a
//! draw shared by every surviving power, as club players know from webDiplomacy and
//! Backstabbr: the draw passes when every survivor with a player has voted for it. Votes
//! are secret until then: a player reads only their own, the GM reads all.

use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, Variant};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::Tx;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::{Account, GameId, GameOutcome};
use crate::services::games::{self, role_of, Role};
use crate::services::moderation::refuse_if_suspended;
use crate::store::{self, games::Game};
use crate::App;

/// The caller's draw vote after a vote or its withdrawal.
#[derive(Serialize, ToSchema)]
pub struct DrawVote {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub power: String,
    pub draw_vote: bool,
    /// Set when this vote completed the draw and ended the game: "draw: X, Y".
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Option<String>>)]
    pub outcome: Option<Option<GameOutcome>>,
}

/// The great powers still in the game: with a unit or a centre, and not turned into
/// minors by civil disorder. Factions share their player's fate (1936 rule 8).
pub fn survivors(v: &Variant, state: &GameState) -> Vec<String> {
    (0..v.powers.len())
        .map(|i| i as chancery_engine::PowerId)
        .filter(|&p| v.power(p).kind == PowerKind::Great && !state.in_disorder(p))
        .filter(|&p| state.unit_count(p) > 0 || state.centre_count(p) > 0)
        .map(|p| v.power(p).name.clone())
        .collect()
}

/// The caller's power, when the caller plays one in a running game.
async fn voting_power(tx: &mut Tx, game: &Game, account: &Account) -> ApiResult<String> {
    if !game.status.running() {
        return Err(ApiError::coded(ErrorCode::NotRunning, "the game is not running"));
    }
    match role_of(&mut **tx, game, Some(account)).await? {
        Role::Player(p) => Ok(p),
        _ => Err(ApiError::forbidden("only the game's players vote on a draw")),
    }
}

/// Votes for a draw among all surviving powers; the game ends in it when every survivor
/// with a player has voted.
pub async fn vote(app: &App, account: &Account, id: GameId) -> ApiResult<DrawVote> {
    refuse_if_suspended(app, account).await?;
    let (mut tx, game) = games::lock(app, id).await?;
    let power = voting_power(&mut tx, &game, account).await?;
    let loaded = games::LoadedGame::of(app, game).await?;
    let alive = survivors(&loaded.variant, &loaded.state);
    if !alive.contains(&power) {
        return Err(ApiError::conflict(format!("{power} is out of the game")));
    }
    store::votes::insert(&mut *tx, id, &power, app.clock.now_ms()).await?;
    let seated = store::members::seated(&mut *tx, id).await?;
    let votes = store::votes::voters(&mut *tx, id).await?;
    // A survivor without a player (vacant, or in civil disorder while the GM looks for
    // someone) has nobody to vote and does not hold the others back.
    let agreed = alive.iter().filter(|p| seated.contains(p)).all(|p| votes.contains(p));
    let outcome = if agreed {
        let outcome = GameOutcome::Draw(alive);
        let gm = loaded.game.gm_id;
        crate::services::gm::finish(app, &mut tx, &loaded, &outcome, gm, "the players' vote").await?;
        store::votes::delete_all(&mut *tx, id).await?;
        Some(outcome)
    } else {
        None
    };
    tx.commit().await?;
    Ok(DrawVote {
        game: id,
        power,
        draw_vote: true,
        outcome: Some(outcome),
    })
}

/// Takes back the caller's draw vote.
pub async fn withdraw(app: &App, account: &Account, id: GameId) -> ApiResult<DrawVote> {
    refuse_if_suspended(app, account).await?;
    let (mut tx, game) = games::lock(app, id).await?;
    let power = voting_power(&mut tx, &game, account).await?;
    store::votes::delete(&mut *tx, id, &power).await?;
    tx.commit().await?;
    Ok(DrawVote {
        game: id,
        power,
        draw_vote: false,
        outcome: None,
    })
}
