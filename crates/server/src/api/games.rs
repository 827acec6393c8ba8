//! Games as JSON: creating, listing, viewing, seats and draw votes.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Account, Viewer};
use crate::error::{ApiResult, Body, ErrorBody, OptionalBody, Params, Path};
use crate::model::GameId;
use crate::services::games::view::GameView;
use crate::services::games::view::{self, GameSummary};
use crate::services::games::{LoadedGame, Role};
use crate::services::new_game::{self, NewGame};
use crate::services::seats::{self, JoinRequest, Joined, Left, Observing};
use crate::services::votes::{self, DrawVote};
use crate::App;

/// Create a game; the creator is its GM.
///
/// `variant` names a built-in, or `variant_file` uploads one that must pass the lint.
/// Without `start_at_ms` the game starts when every power has a player.
#[utoipa::path(post, path = "/api/games", operation_id = "create_game", tag = "games",
    request_body = NewGame,
    responses(
        (status = 201, description = "The game, as its GM sees it", body = GameView),
        (status = 422, description = "A setting or the variant file is wrong", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn create(
    State(app): State<App>,
    account: Account,
    Body(g): Body<NewGame>,
) -> ApiResult<(StatusCode, Json<GameView>)> {
    let game = new_game::create(&app, &account, g).await?;
    Ok((
        StatusCode::CREATED,
        Json(view::game_view(&app, &LoadedGame::of(&app, game).await?, &Role::Gm).await?),
    ))
}

#[derive(Serialize, ToSchema)]
pub struct GameList {
    /// Newest first, at most 500.
    pub games: Vec<GameSummary>,
}

/// All games with phase and deadline (UTC).
#[utoipa::path(get, path = "/api/games", operation_id = "list_games", tag = "games",
    responses((status = 200, description = "The games", body = GameList)),
)]
pub async fn list(State(app): State<App>) -> ApiResult<Json<GameList>> {
    Ok(Json(GameList {
        games: view::list(&app).await?,
    }))
}

#[derive(Deserialize, Default, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ViewQuery {
    /// The viewer's time zone (e.g. `America/New_York`): the deadline is shown in it
    /// beside UTC.
    #[serde(default)]
    pub tz: Option<String>,
}

/// A game as the viewer may see it.
///
/// Position, powers (players hidden in anonymous games, until the game ends when it was
/// created with `reveal_at_end`), deadline in UTC, and with `?tz=Zone/Name` also in the
/// viewer's zone.
#[utoipa::path(get, path = "/api/games/{id}", operation_id = "view_game", tag = "games",
    params(("id" = i64, Path, description = "The game's id"), ViewQuery),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
)]
pub async fn view(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<GameId>,
    Params(q): Params<ViewQuery>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(view::view(&app, viewer.as_ref(), id, q.tz.as_deref()).await?))
}

/// Take a vacant power (a named one, or the first free).
#[utoipa::path(post, path = "/api/games/{id}/join", operation_id = "join_game", tag = "games",
    params(("id" = i64, Path, description = "The game's id")),
    request_body(content = JoinRequest, description = "Optional: without a body, the first free power"),
    responses(
        (status = 200, description = "Seated", body = Joined),
        (status = 409, description = "The power or the game is taken, or over", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn join(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    OptionalBody(request): OptionalBody<JoinRequest>,
) -> ApiResult<Json<Joined>> {
    Ok(Json(seats::join(&app, &account, id, request).await?))
}

/// Follow a game as an observer.
#[utoipa::path(post, path = "/api/games/{id}/observe", operation_id = "observe_game", tag = "games",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Observing", body = Observing),
        (status = 409, description = "Already taking part", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn observe(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<Observing>> {
    Ok(Json(seats::observe(&app, &account, id).await?))
}

/// Stop following a game, or give up your power while the game is still forming.
///
/// 409 once it has started: the GM replaces players.
#[utoipa::path(post, path = "/api/games/{id}/leave", operation_id = "leave_game", tag = "games",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Left", body = Left),
        (status = 409, description = "The game has started, or you take no part", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn leave(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<Left>> {
    Ok(Json(seats::leave(&app, &account, id).await?))
}

/// Vote for a draw among all surviving powers.
///
/// When every survivor with a player has voted, the game ends in that draw. Votes are
/// secret: a player sees only their own (`you.draw_vote`), the GM all.
#[utoipa::path(post, path = "/api/games/{id}/draw-vote", operation_id = "vote_draw", tag = "games",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Voted; `outcome` is set when the vote ended the game", body = DrawVote),
        (status = 403, description = "Not a player of the game", body = ErrorBody),
        (status = 409, description = "The game is not running, or your power is out", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn vote(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<DrawVote>> {
    Ok(Json(votes::vote(&app, &account, id).await?))
}

/// Take back your draw vote.
#[utoipa::path(delete, path = "/api/games/{id}/draw-vote", operation_id = "withdraw_draw_vote", tag = "games",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Withdrawn", body = DrawVote),
        (status = 403, description = "Not a player of the game", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn withdraw(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<DrawVote>> {
    Ok(Json(votes::withdraw(&app, &account, id).await?))
}
