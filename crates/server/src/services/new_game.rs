//! Creating a game.

use std::sync::Arc;

use chancery_engine::json::state_to_json;
use chancery_engine::GameState;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::jobs::Weight;
use crate::limits::MAX_GAME_NAME_CHARS;
use crate::model::{Account, BotLevel, GameId, Schedule};
use crate::services::games::load;
use crate::services::games::settings::{check_press, Deadlines, EarlyProcessing};
use crate::services::maps::{self, MapOf};
use crate::store::{self, games::Game, games::NewGameRow};
use crate::variants::check_upload;
use crate::App;

/// How long creating a game waits for its variant file to be checked.
const CHECK_BUDGET: std::time::Duration = std::time::Duration::from_secs(20);

/// A variant file uploaded with the game: its file name and text (docs/variant-format.md).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantUpload {
    pub name: String,
    pub text: String,
}

/// A new game. `variant` names a built-in (default `standard`), or `variant_file`
/// uploads one that must pass the lint.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Club game 12", "variant": "standard", "deadlines": {"movement_minutes": 1440, "retreat_minutes": 720, "adjustment_minutes": 720, "at": "20:00", "time_zone": "Europe/Berlin"}, "press": "full", "grey_press": false, "anonymous": false, "reveal_at_end": false}))]
pub struct NewGame {
    pub name: String,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub variant_file: Option<VariantUpload>,
    #[serde(default)]
    pub deadlines: Deadlines,
    /// `full` (default), `public` or `none`.
    #[serde(default)]
    pub press: Option<String>,
    #[serde(default)]
    pub grey_press: bool,
    #[serde(default)]
    pub anonymous: bool,
    /// With `anonymous`: name the players once the game has ended.
    #[serde(default)]
    pub reveal_at_end: bool,
    /// Start at this time (ms since 1970 UTC) with whoever has joined; absent: start
    /// when every power has a player.
    #[serde(default)]
    pub start_at_ms: Option<i64>,
    /// `when_all_ready` (default): the last ready mark processes the phase; `never`:
    /// only the deadline does.
    #[serde(default)]
    pub early_processing: Option<EarlyProcessing>,
    /// Bots take the seats nobody has when the game starts: a club can start
    /// with the people it has. Nobody may join a bot's seat; the GM gives it to a
    /// person (`gm/replace`).
    #[serde(default)]
    pub bots_fill_seats: bool,
}

/// Creates a forming game; `account` is its GM.
pub async fn create(app: &App, account: &Account, g: NewGame) -> ApiResult<Game> {
    crate::services::moderation::refuse_if_suspended(app, account).await?;
    crate::services::moderation::may_create_game(&app.db, account).await?;
    let name = g.name.trim();
    if name.is_empty() || name.chars().count() > MAX_GAME_NAME_CHARS {
        return Err(ApiError::unprocessable(format!(
            "a game's name has 1 to {MAX_GAME_NAME_CHARS} characters"
        )));
    }
    if let Some(at) = g.start_at_ms {
        crate::limits::future_moment(app.clock.now_ms(), at, "`start_at_ms`").map_err(ApiError::unprocessable)?;
    }
    let (variant_name, variant_text, v) = match (&g.variant, &g.variant_file) {
        (Some(_), Some(_)) => return Err(ApiError::unprocessable("give `variant` or `variant_file`, not both")),
        (None, Some(f)) => {
            // Checked on the job pool: loading and linting a large file takes a while.
            let (file, text) = (f.name.clone(), f.text.clone());
            let v = app
                .jobs
                .run(Weight::Quick, CHECK_BUDGET, move || check_upload(&file, &text))
                .await
                .map_err(|e| app.jobs.refusal(e, "checking variant files"))??;
            // Kept, so that the game's first requests need not load it again.
            let v = Arc::new(v);
            app.variants.keep(&f.text, v.clone());
            (f.name.clone(), Some(f.text.clone()), v)
        }
        (name, None) => {
            let name = name.as_deref().unwrap_or("standard").to_ascii_lowercase();
            let v = app.variants.builtin(&name).map_err(ApiError::unprocessable)?;
            (name, None, v)
        }
    };
    let press = check_press(g.press.as_deref().unwrap_or("full"))?;
    let Schedule {
        movement,
        retreat,
        adjustment,
        at: deadline_time,
        time_zone,
    } = g.deadlines.schedule(&Schedule::default())?;
    let state = GameState::initial(&v);
    let state_json =
        serde_json::to_string(&state_to_json(&v, &state)).map_err(|e| ApiError::internal(e.to_string()))?;
    let id = GameId(new_id());
    let now = app.clock.now_ms();
    // The game and its thread in the forum are made together.
    let mut tx = app.db.write.begin().await?;
    store::games::insert(
        &mut *tx,
        &NewGameRow {
            id,
            name,
            variant: &variant_name,
            variant_text: variant_text.as_deref(),
            gm_id: account.id,
            press,
            grey_press: g.grey_press,
            anonymous: g.anonymous,
            reveal_at_end: g.anonymous && g.reveal_at_end,
            movement_minutes: movement,
            retreat_minutes: retreat,
            adjustment_minutes: adjustment,
            start_at_ms: g.start_at_ms,
            state_json: &state_json,
            created_ms: now,
            deadline_time: deadline_time.as_deref(),
            time_zone: time_zone.as_deref(),
            process_when_ready: g.early_processing.is_none_or(EarlyProcessing::flag),
        },
    )
    .await?;
    if g.bots_fill_seats {
        store::bots::fill_at_start(&mut *tx, id, BotLevel(crate::services::bots::SEAT_LEVEL)).await?;
    }
    crate::services::forum::create_game_thread(&mut tx, id, name, account.id, now).await?;
    tx.commit().await?;
    let game = load(&app.db.read, id).await?;
    if game.variant_text.is_some() {
        // Shaping an upload's map takes a while: start now, so that it is ready, or
        // nearly, when the players first look.
        if let Ok(map) = MapOf::game(app, &game).await {
            maps::prepare(app, &map);
        }
    }
    Ok(game)
}
