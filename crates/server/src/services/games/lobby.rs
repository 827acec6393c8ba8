//! The viewer's own games and what each asks of them now, as the lobby shows them.

use std::collections::{HashMap, HashSet};

use crate::error::ApiResult;
use crate::model::{Account, GameId, GameStatus};
use crate::store;
use crate::App;

/// What a game's current phase asks of the viewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    Gm,
    Waiting,
    NothingToOrder,
    OrdersDue,
    OrdersGiven,
    Ready,
}

impl Turn {
    pub fn text(self) -> &'static str {
        match self {
            Turn::Gm => "GM",
            Turn::Waiting => "waiting to start",
            Turn::NothingToOrder => "nothing to order",
            Turn::OrdersDue => "orders due",
            Turn::OrdersGiven => "orders given",
            Turn::Ready => "ready",
        }
    }

    /// Whether the viewer has something to do: a page marks those.
    pub fn due(self) -> bool {
        self == Turn::OrdersDue
    }
}

/// The games the account runs or takes part in.
pub async fn games_of(app: &App, account: &Account) -> ApiResult<HashSet<GameId>> {
    Ok(store::players::games_of(&app.db.read, account.id)
        .await?
        .into_iter()
        .collect())
}

/// For each game not finished that the account runs or plays in, what its phase asks.
pub async fn turns(app: &App, account: &Account) -> ApiResult<HashMap<GameId, Turn>> {
    let mut out = HashMap::new();
    for seat in store::players::current_seats(&app.db.read, account.id).await? {
        let super::LoadedGame {
            game,
            variant: v,
            state,
        } = super::read(app, seat.game_id).await?;
        let turn = if game.status == GameStatus::Forming {
            Turn::Waiting
        } else if !v
            .find_power(&seat.power)
            .is_some_and(|p| chancery_engine::options::has_choice(&v, &state, p))
        {
            Turn::NothingToOrder
        } else if seat.ready {
            Turn::Ready
        } else if seat.orders_given {
            Turn::OrdersGiven
        } else {
            Turn::OrdersDue
        };
        out.insert(seat.game_id, turn);
    }
    for id in store::players::running_as_gm(&app.db.read, account.id).await? {
        out.insert(id, Turn::Gm);
    }
    Ok(out)
}
