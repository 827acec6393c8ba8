//! A variant's map, made and drawn on the job pool ([`crate::jobs`]), never on the
//! async runtime.
//!
//! A variant's prepared drawing (`MapGeometry`: its shapes projected, markers and names
//! placed) is made once per process and kept here, keyed by the variant file's content
//! ([`crate::variants::ContentKey`]). A built-in variant's comes from its committed
//! shapes in well under a second. An uploaded variant has no shapes, so its spaces are
//! shaped on the real geography first: tens of seconds for a large map. That runs as a
//! heavy job, started when the game is created; until it is done a map request waits a
//! moment and is then told that the map is being drawn (503 with `Retry-After`), and a
//! page shows a note in the map's place.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chancery_engine::{Adjudication, GameState, Order, Variant};
use chancery_render::{render_orders, render_with, MapGeometry, RenderOptions};
use tokio::sync::watch;

use crate::error::{ApiError, ApiResult};
use crate::jobs::Weight;
use crate::store::games::Game;
use crate::variants::ContentKey;
use crate::App;

/// How many prepared drawings are kept: the built-in variants and the uploads of the
/// games being played. The oldest goes first.
const KEEP: usize = 32;
/// How long a map image request waits for an upload being shaped before it is told to
/// come back; a page waits less, showing a note in the map's place.
pub const WAIT_FOR_SHAPING: Duration = Duration::from_secs(2);
pub const PAGE_WAITS_FOR_SHAPING: Duration = Duration::from_millis(300);
/// How long a request waits for a quick job: a built-in's drawing, or a position drawn.
const QUICK_BUDGET: Duration = Duration::from_secs(10);
/// How long a map request is told to wait while an upload is being shaped.
const RETRY_SHAPING_SECONDS: u64 = 10;

enum Slot {
    Ready(Arc<MapGeometry>),
    /// Being made; the sender side says when it is done.
    Making(watch::Receiver<bool>),
    /// Could not be made (kept so that every request does not try again).
    Failed(String),
}

/// The prepared drawings of this process, by variant content.
#[derive(Default)]
pub struct Drawings {
    slots: Mutex<(HashMap<ContentKey, Slot>, VecDeque<ContentKey>)>,
    /// The built-in variants' GeoJSON, made once.
    geojson: Mutex<HashMap<ContentKey, Arc<str>>>,
}

/// What to draw a game's map from: its variant, and the key of its file's content.
pub struct MapOf {
    pub key: ContentKey,
    pub variant: Arc<Variant>,
    /// An upload, shaped on the fly; a built-in variant has committed shapes.
    pub uploaded: bool,
}

impl MapOf {
    pub async fn game(app: &App, game: &Game) -> ApiResult<MapOf> {
        let text = game.variant_text.as_deref();
        // The variant first: loading it remembers an upload's key by the game, so the
        // key below is found without hashing the file again.
        let variant = game.variant(app).await?;
        Ok(MapOf {
            key: app
                .variants
                .key_for_game(game.id, &game.variant, text)
                .map_err(ApiError::unprocessable)?,
            variant,
            uploaded: text.is_some(),
        })
    }

    pub fn builtin(app: &App, name: &str) -> ApiResult<MapOf> {
        Ok(MapOf {
            key: app.variants.key(name, None).map_err(ApiError::not_found)?,
            variant: app.variants.builtin(name).map_err(ApiError::not_found)?,
            uploaded: false,
        })
    }
}

fn lock(d: &Drawings) -> std::sync::MutexGuard<'_, (HashMap<ContentKey, Slot>, VecDeque<ContentKey>)> {
    d.slots.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts making the drawing of `map` unless it is made or being made; the receiver says
/// when it is done. A refusal when the pool is full.
fn start(app: &App, map: &MapOf) -> ApiResult<Result<Arc<MapGeometry>, watch::Receiver<bool>>> {
    let mut slots = lock(&app.maps);
    match slots.0.get(&map.key) {
        Some(Slot::Ready(g)) => return Ok(Ok(g.clone())),
        Some(Slot::Making(done)) => return Ok(Err(done.clone())),
        Some(Slot::Failed(why)) => return Err(cannot_draw(why)),
        None => {}
    }
    let (tell, done) = watch::channel(false);
    let (app2, key, v) = (app.clone(), map.key, map.variant.clone());
    let weight = if map.uploaded { Weight::Heavy } else { Weight::Quick };
    app.jobs
        .detach(weight, move || {
            let made = MapGeometry::new(&v);
            let mut slots = lock(&app2.maps);
            let slot = match made {
                Ok(g) => Slot::Ready(Arc::new(g)),
                Err(e) => Slot::Failed(e.to_string()),
            };
            slots.0.insert(key, slot);
            slots.1.push_back(key);
            while slots.1.len() > KEEP {
                if let Some(old) = slots.1.pop_front() {
                    slots.0.remove(&old);
                }
            }
            drop(slots);
            let _ = tell.send(true);
        })
        .map_err(|e| app.jobs.refusal(e, "drawing maps"))?;
    slots.0.insert(map.key, Slot::Making(done.clone()));
    Ok(Err(done))
}

fn cannot_draw(why: &str) -> ApiError {
    ApiError::unprocessable(format!("the map of this variant cannot be drawn: {why}"))
}

/// Starts preparing `map`'s drawing without waiting (a game just created on an upload).
/// A full pool is no matter: the first request for the map starts it again.
pub fn prepare(app: &App, map: &MapOf) {
    let _ = start(app, map);
}

/// The prepared drawing of `map`, waiting for it a moment when it is being made.
pub async fn geometry(app: &App, map: &MapOf, shaping_wait: Duration) -> ApiResult<Arc<MapGeometry>> {
    let mut done = match start(app, map)? {
        Ok(g) => return Ok(g),
        Err(done) => done,
    };
    let wait = if map.uploaded { shaping_wait } else { QUICK_BUDGET };
    // The sender goes away only with its job, after it said it was done (or a panic).
    let _ = tokio::time::timeout(wait, done.wait_for(|d| *d)).await;
    match lock(&app.maps).0.get(&map.key) {
        Some(Slot::Ready(g)) => Ok(g.clone()),
        Some(Slot::Failed(why)) => Err(cannot_draw(why)),
        Some(Slot::Making(_)) => Err(ApiError::unavailable(format!(
            "the map of this variant is being drawn (a new variant's spaces are shaped on the real geography once, \
             which takes a while); try again in {RETRY_SHAPING_SECONDS} seconds"
        ))
        .retry_after(RETRY_SHAPING_SECONDS)),
        // Made and already pushed out by newer ones, or the job panicked.
        None => Err(ApiError::unavailable("the map is being drawn; try again").retry_after(1)),
    }
}

/// `state` drawn as SVG, with the phase's orders and results when `adjudication` is
/// given; `legend` draws the legend beside the map (a picture with no page around it).
/// `shaping_wait`: how long to wait for an upload's map being shaped.
pub async fn draw(
    app: &App,
    map: &MapOf,
    state: &GameState,
    adjudication: Option<&Adjudication>,
    legend: bool,
    shaping_wait: Duration,
) -> ApiResult<String> {
    let g = geometry(app, map, shaping_wait).await?;
    let (v, state, adjudication) = (map.variant.clone(), state.clone(), adjudication.cloned());
    let options = RenderOptions {
        legend,
        ..RenderOptions::default()
    };
    app.jobs
        .run(Weight::Quick, QUICK_BUDGET, move || {
            render_with(&g, &v, &state, adjudication.as_ref(), &options)
        })
        .await
        .map_err(|e| app.jobs.refusal(e, "drawing the map"))?
        .map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("drawing the map: {e}"),
            )
        })
}

/// One power's orders, given and not yet judged, drawn on `state` as an SVG group for
/// the page to lay over its map (`chancery_render::render_orders`).
pub async fn draw_orders(app: &App, map: &MapOf, state: &GameState, orders: Vec<Order>) -> ApiResult<String> {
    let g = geometry(app, map, PAGE_WAITS_FOR_SHAPING).await?;
    let (v, state) = (map.variant.clone(), state.clone());
    app.jobs
        .run(Weight::Quick, QUICK_BUDGET, move || {
            render_orders(&g, &v, &state, &orders)
        })
        .await
        .map_err(|e| app.jobs.refusal(e, "drawing the orders"))?
        .map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("drawing the orders: {e}"),
            )
        })
}

/// A built-in variant's shapes as an RFC 7946 GeoJSON FeatureCollection, the same as
/// `chancery map NAME --geojson`.
pub async fn geojson(app: &App, name: &str) -> ApiResult<Arc<str>> {
    let map = MapOf::builtin(app, name)?;
    let made = || app.maps.geojson.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(text) = made().get(&map.key) {
        return Ok(text.clone());
    }
    let v = map.variant.clone();
    let text: Arc<str> = app
        .jobs
        .run(Weight::Quick, QUICK_BUDGET, move || {
            // Seas with the land cut out, so that a GIS reader sees no sea over land.
            chancery_render::shapes_of(&v).map(|shapes| shapes.with_seas_cut(&v).to_geojson(&v))
        })
        .await
        .map_err(|e| app.jobs.refusal(e, "reading the shapes"))?
        .map_err(|e| cannot_draw(&e.to_string()))?
        .into();
    made().insert(map.key, text.clone());
    Ok(text)
}
