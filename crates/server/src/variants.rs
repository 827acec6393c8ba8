//! Variants by the content of their file, loaded once per process. Games on an uploaded
//! variant keep its text in the database, so any server sharing the database can load
//! it. Every cache of something made from a variant (this one, the maps of
//! `services::maps`) is keyed by a SHA-256 of the variant file's text, never by its
//! name, and an upload may not take a built-in variant's name.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use chancery_engine::builtin::{builtin_names, builtin_text};
use chancery_engine::lint::{lint, Severity};
use chancery_engine::variant_file::load_variant;
use chancery_engine::Variant;
use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::limits::{
    MAX_VARIANT_BYTES, MAX_VARIANT_NEIGHBOURS, MAX_VARIANT_SHAPE_POINTS, MAX_VARIANT_SPACES, MAX_VARIANT_STRAITS,
};
use crate::model::GameId;

/// A SHA-256 of a variant file's text: the key of every per-variant cache.
pub type ContentKey = [u8; 32];

/// The content key of a built-in variant (`text` none) or of an uploaded file.
pub fn content_key(name: &str, text: Option<&str>) -> Result<ContentKey, String> {
    let text = match text {
        Some(t) => t,
        None => builtin_text(name).map(|(_, t)| t).ok_or_else(|| unknown(name))?,
    };
    Ok(Sha256::digest(text.as_bytes()).into())
}

fn unknown(name: &str) -> String {
    format!(
        "unknown variant `{name}`; the built-in ones are: {}",
        builtin_names().collect::<Vec<_>>().join(", ")
    )
}

/// Uploaded variants kept loaded at once, besides the built-in ones: the uploads of the
/// games being played. The one used longest ago goes first; a game whose variant was
/// dropped has it loaded again (on the job pool) when next asked for.
pub const KEEP_UPLOADS: usize = 64;

/// How long a request waits for an uploaded variant file to be loaded.
const LOAD_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// The variants of this process: every built-in one, loaded at start and looked up by
/// name (so that the requests of ordinary games neither hash nor parse anything), and
/// the uploads in use, by content and bounded ([`KEEP_UPLOADS`]).
pub struct Cache {
    builtin: Vec<(&'static str, ContentKey, Arc<Variant>)>,
    uploads: Mutex<Uploads>,
}

#[derive(Default)]
struct Uploads {
    /// Each variant with the tick it was last used at.
    loaded: HashMap<ContentKey, (Arc<Variant>, u64)>,
    tick: u64,
    /// Each game's upload by its content key, so that a game's variant is found by the
    /// game's id without hashing its file on every request (a game's file never
    /// changes once the game is created).
    by_game: HashMap<GameId, ContentKey>,
}

/// Games whose key [`Uploads::by_game`] remembers; past it the map starts again (a key
/// forgotten costs one hash of the file).
const KEEP_GAME_KEYS: usize = 4096;

impl Uploads {
    fn get(&mut self, key: &ContentKey) -> Option<Arc<Variant>> {
        self.tick += 1;
        let tick = self.tick;
        self.loaded.get_mut(key).map(|(v, used)| {
            *used = tick;
            v.clone()
        })
    }

    fn insert(&mut self, key: ContentKey, v: Arc<Variant>) {
        self.tick += 1;
        self.loaded.insert(key, (v, self.tick));
        while self.loaded.len() > KEEP_UPLOADS {
            // A linear scan: the map holds a few dozen entries, and a miss costs a load.
            let Some(oldest) = self.loaded.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| *k) else {
                break;
            };
            self.loaded.remove(&oldest);
        }
    }
}

impl Default for Cache {
    /// Loads every built-in variant (a few milliseconds; a built-in that does not load is
    /// a bug the engine's tests catch, and is left out here to be refused by name).
    fn default() -> Cache {
        let builtin = builtin_names()
            .filter_map(|name| {
                let (_, text) = builtin_text(name)?;
                let v = chancery_engine::builtin::builtin(name)?.ok()?;
                Some((name, Sha256::digest(text.as_bytes()).into(), Arc::new(v)))
            })
            .collect();
        Cache {
            builtin,
            uploads: Mutex::new(Uploads::default()),
        }
    }
}

impl Cache {
    fn uploads(&self) -> std::sync::MutexGuard<'_, Uploads> {
        self.uploads.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A built-in variant by name (any case).
    pub fn builtin(&self, name: &str) -> Result<Arc<Variant>, String> {
        self.builtin
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, _, v)| v.clone())
            .ok_or_else(|| unknown(name))
    }

    /// The content key of a built-in variant (`text` none) or of an uploaded file,
    /// without hashing a built-in's text again.
    pub fn key(&self, name: &str, text: Option<&str>) -> Result<ContentKey, String> {
        match text {
            Some(t) => Ok(Sha256::digest(t.as_bytes()).into()),
            None => self
                .builtin
                .iter()
                .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, k, _)| *k)
                .ok_or_else(|| unknown(name)),
        }
    }

    /// As [`Cache::key`] for game `game`'s variant: an upload's key as [`Cache::for_game`]
    /// remembered it, without hashing the file again.
    pub fn key_for_game(&self, game: GameId, name: &str, text: Option<&str>) -> Result<ContentKey, String> {
        if text.is_some() {
            if let Some(key) = self.uploads().by_game.get(&game).copied() {
                return Ok(key);
            }
        }
        self.key(name, text)
    }

    /// Keeps an uploaded variant already loaded (and checked) by its game's creation.
    pub fn keep(&self, text: &str, v: Arc<Variant>) {
        self.uploads().insert(Sha256::digest(text.as_bytes()).into(), v);
    }

    /// Game `game`'s variant: as [`Cache::get`], but an upload this process has loaded
    /// for the game is found by the game's id, without hashing its text again.
    pub async fn for_game(
        &self,
        jobs: &crate::jobs::Pool,
        game: GameId,
        name: &str,
        text: Option<&str>,
    ) -> Result<Arc<Variant>, ApiError> {
        if text.is_some() {
            let mut uploads = self.uploads();
            if let Some(key) = uploads.by_game.get(&game).copied() {
                if let Some(v) = uploads.get(&key) {
                    return Ok(v);
                }
            }
        }
        let v = self.get(jobs, name, text).await?;
        if let Some(text) = text {
            let key: ContentKey = Sha256::digest(text.as_bytes()).into();
            let mut uploads = self.uploads();
            if uploads.by_game.len() >= KEEP_GAME_KEYS {
                uploads.by_game.clear();
            }
            uploads.by_game.insert(game, key);
        }
        Ok(v)
    }

    /// A built-in variant by name, or the uploaded `text` when given. An upload not
    /// loaded in this process yet (after a restart, or dropped from the cache) is loaded
    /// on the job pool: a large file takes a while to read.
    pub async fn get(
        &self,
        jobs: &crate::jobs::Pool,
        name: &str,
        text: Option<&str>,
    ) -> Result<Arc<Variant>, ApiError> {
        let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("variant: {e}"));
        let Some(text) = text else {
            return self.builtin(name).map_err(internal);
        };
        let key: ContentKey = Sha256::digest(text.as_bytes()).into();
        if let Some(v) = self.uploads().get(&key) {
            return Ok(v);
        }
        let (name, text) = (name.to_string(), text.to_string());
        let v = jobs
            .run(crate::jobs::Weight::Quick, LOAD_BUDGET, move || {
                load_variant(&name, &text)
            })
            .await
            .map_err(|e| jobs.refusal(e, "loading a variant file"))?
            .map_err(|e| internal(e.to_string()))?;
        let v = Arc::new(v);
        self.uploads().insert(key, v.clone());
        Ok(v)
    }
}

/// Checks an uploaded variant file: its size, that it loads, the limits on what its map
/// asks of the server, that it does not take a built-in variant's name, and the lint.
/// `file` is the name the GM gave the upload. Slow enough for a large file to belong on
/// the job pool.
pub fn check_upload(file: &str, text: &str) -> Result<Variant, ApiError> {
    if text.len() > MAX_VARIANT_BYTES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the variant file has {} bytes; an uploaded variant has at most {MAX_VARIANT_BYTES} ({} KiB)",
                text.len(),
                MAX_VARIANT_BYTES / 1024
            ),
        ));
    }
    let v = load_variant(file, text).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let over = |what: &str, count: usize, limit: usize| {
        (count > limit).then(|| {
            ApiError::unprocessable(format!(
                "the variant has {count} {what}; an uploaded variant has at most {limit}"
            ))
        })
    };
    let neighbours =
        v.army_adjacency.iter().map(Vec::len).sum::<usize>() + v.fleet_adjacency.iter().map(Vec::len).sum::<usize>();
    let refused = over("spaces", v.provinces.len(), MAX_VARIANT_SPACES)
        .or_else(|| {
            over(
                "neighbours on its army and fleet lines",
                neighbours,
                MAX_VARIANT_NEIGHBOURS,
            )
        })
        .or_else(|| {
            over(
                "points on its shape, outside and junction lines",
                v.shape_points.len()
                    + v.outside_points.len()
                    + v.junction_routes.iter().map(|(_, r)| r.len()).sum::<usize>(),
                MAX_VARIANT_SHAPE_POINTS,
            )
        })
        .or_else(|| {
            over(
                "strait and junction lines",
                v.straits.len() + v.junctions.len(),
                MAX_VARIANT_STRAITS,
            )
        });
    if let Some(e) = refused {
        return Err(e);
    }
    let stem = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = stem.strip_suffix(".var").unwrap_or(stem);
    for taken in [v.id.as_str(), stem] {
        if let Some(builtin) = builtin_names().find(|b| b.eq_ignore_ascii_case(taken.trim())) {
            return Err(ApiError::unprocessable(format!(
                "`{builtin}` is the name of a built-in variant; give the uploaded variant a name of its own, \
                 in its `variant` line and the file's name (for example `{builtin}-club`)"
            )));
        }
    }
    let errors: Vec<String> = lint(&v)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message)
        .collect();
    if errors.is_empty() {
        Ok(v)
    } else {
        Err(ApiError::unprocessable(format!(
            "the variant file has errors: {}",
            errors.join("; ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's upload, once loaded, is found by the game's id: the second call is
    /// given another text and still answers the game's variant, so it neither hashed
    /// nor read the text.
    #[tokio::test]
    async fn a_games_upload_is_found_by_its_id_without_hashing() {
        let cache = Cache::default();
        let jobs = crate::jobs::Pool::new("test", 1, 1, 2, 1);
        let text = builtin_text("standard")
            .unwrap()
            .1
            .replacen("variant standard", "variant mine", 1);
        let first = cache.for_game(&jobs, GameId(7), "mine", Some(&text)).await.unwrap();
        let again = cache
            .for_game(&jobs, GameId(7), "mine", Some("not read"))
            .await
            .unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        // Another game with that text shares the loaded variant, by its content.
        let other = cache.for_game(&jobs, GameId(8), "mine", Some(&text)).await.unwrap();
        assert!(Arc::ptr_eq(&first, &other));
    }

    #[test]
    fn uploads_kept_are_bounded_and_the_least_recently_used_goes_first() {
        let v = Arc::new(chancery_engine::builtin::builtin("standard").unwrap().unwrap());
        let mut u = Uploads::default();
        let key = |i: usize| -> ContentKey { Sha256::digest(i.to_string().as_bytes()).into() };
        for i in 0..KEEP_UPLOADS {
            u.insert(key(i), v.clone());
        }
        // The first is used again, so the second is now the least recently used.
        assert!(u.get(&key(0)).is_some());
        u.insert(key(KEEP_UPLOADS), v.clone());
        assert_eq!(u.loaded.len(), KEEP_UPLOADS);
        assert!(u.get(&key(0)).is_some());
        assert!(u.get(&key(1)).is_none());
        assert!(u.get(&key(KEEP_UPLOADS)).is_some());
    }

    #[test]
    fn every_built_in_is_loaded_and_keyed_by_its_text() {
        let c = Cache::default();
        for name in builtin_names() {
            assert!(c.builtin(name).is_ok());
            assert!(c.builtin(&name.to_ascii_uppercase()).is_ok());
            assert_eq!(c.key(name, None).unwrap(), content_key(name, None).unwrap());
        }
        assert!(c.builtin("nonesuch").is_err());
    }
}
