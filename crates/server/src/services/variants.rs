//! The built-in variants a game may be created with.

use chancery_engine::PowerId;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::games::playable_powers;
use crate::App;

/// A built-in variant.
#[derive(Serialize, ToSchema)]
pub struct VariantSummary {
    pub name: String,
    /// Every power, great, minor and faction.
    pub powers: Vec<String>,
    /// The powers a player can take.
    pub playable: Vec<String>,
    pub minor_powers: Vec<String>,
    /// Supply centres on the map.
    pub centres: usize,
}

pub fn builtin(app: &App) -> ApiResult<Vec<VariantSummary>> {
    chancery_engine::builtin::builtin_names()
        .map(|name| {
            let v = app.variants.builtin(name).map_err(ApiError::unprocessable)?;
            Ok(VariantSummary {
                name: name.to_string(),
                powers: v.powers.iter().map(|p| p.name.clone()).collect(),
                playable: playable_powers(&v),
                minor_powers: v
                    .powers
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| v.is_minor(i as PowerId))
                    .map(|(_, p)| p.name.clone())
                    .collect(),
                centres: v.centre_count(),
            })
        })
        .collect()
}
