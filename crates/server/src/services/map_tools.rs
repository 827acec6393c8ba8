//! What the game page draws on its map for the viewer alone: the orders its power has
//! given, and where a selected unit may go. Both answer only to the power's player (or
//! the GM naming the power), so another player's page can never draw them.

use std::time::Duration;

use crate::error::{ApiError, ApiResult};
use crate::jobs::Weight;
use crate::model::{Account, GameId};
use crate::services::games::{self, acting_power, role_of, Role};
use crate::services::maps;
use crate::services::targets::{self, Targets};
use crate::{store, App};

const BUDGET: Duration = Duration::from_secs(10);

/// The power's orders for the current phase drawn as an SVG group over the map.
pub async fn drawn_orders(app: &App, account: &Account, id: GameId, power: Option<&str>) -> ApiResult<String> {
    let loaded = games::read(app, id).await?;
    let game = &loaded.game;
    let role = role_of(&app.db.read, game, Some(account)).await?;
    let map = loaded.map(app)?;
    let v = &map.variant;
    let power = acting_power(&role, power, v)?;
    let p = v
        .find_power(&power)
        .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{power}`")))?;
    let rows = store::orders::of_power(&app.db.read, game.id, game.seq, &power).await?;
    // Stored in canonical form after validation, so every row reads back; one that
    // does not (a variant file changed under a game) is simply not drawn.
    let orders = rows
        .iter()
        .filter_map(|r| crate::services::stored_orders::read(v, p, &r.text).ok())
        .collect();
    maps::draw_orders(app, &map, &loaded.state, orders).await
}

/// What `unit` may do this phase, for the power's player (or the GM naming the power);
/// with `any`, for the sandbox, what any unit on the map may do, for anyone following
/// the game (the position is no secret).
pub async fn unit_targets(
    app: &App,
    account: &Account,
    id: GameId,
    unit: &str,
    power: Option<&str>,
    any: bool,
) -> ApiResult<Targets> {
    if unit.chars().count() > crate::limits::MAX_ORDER_CHARS {
        return Err(ApiError::unprocessable("the unit's name is too long"));
    }
    let games::LoadedGame {
        game,
        variant: v,
        state,
    } = games::read(app, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    let (p, found) = if any {
        if role == Role::Visitor {
            return Err(ApiError::forbidden(
                "the sandbox is for the game's players, observers and GM: follow the game first",
            ));
        }
        let found = targets::find_any_unit(&v, &state, unit)?;
        (found.power, found)
    } else {
        let power = acting_power(&role, power, &v)?;
        let p = v
            .find_power(&power)
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{power}`")))?;
        (p, targets::find_unit(&v, &state, p, unit)?)
    };
    app.jobs
        .run(Weight::Quick, BUDGET, move || targets::targets(&v, &state, p, &found))
        .await
        .map_err(|e| app.jobs.refusal(e, "finding the unit's targets"))
}
