//! Variants by the content of their file, loaded once per process. Games on an uploaded
//! variant keep its text in the database, so any server sharing the database can load
//! it. Every cache of something made from a variant (this one, the maps of
//! `services::maps`) is keyed by a SHA-256 of the variant file's text, never by its
//! name, and an upload may not take a built-in variant's name (issue 14, finding 4).

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

#[derive(Default)]
pub struct Cache {
    loaded: Mutex<HashMap<ContentKey, Arc<Variant>>>,
}

impl Cache {
    /// A built-in variant by name, or the uploaded `text` when given.
    pub fn get(&self, name: &str, text: Option<&str>) -> Result<Arc<Variant>, String> {
        let key = content_key(name, text)?;
        if let Some(v) = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(v.clone());
        }
        let variant = match text {
            Some(t) => load_variant(name, t).map_err(|e| e.to_string())?,
            None => match chancery_engine::builtin::builtin(name) {
                Some(r) => r.map_err(|e| e.to_string())?,
                None => return Err(unknown(name)),
            },
        };
        let variant = Arc::new(variant);
        self.loaded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, variant.clone());
        Ok(variant)
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
                "points on its shape and outside lines",
                v.shape_points.len() + v.outside_points.len(),
                MAX_VARIANT_SHAPE_POINTS,
            )
        })
        .or_else(|| over("strait lines", v.straits.len(), MAX_VARIANT_STRAITS));
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
