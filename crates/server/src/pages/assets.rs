//! The stylesheet and scripts, compiled into the binary so that a page needs nothing
//! from any other site. Pages name each with its content's hash (`/assets/game.js?v=…`,
//! [`url`]): such an address never changes its content, so a browser keeps it for a
//! year without asking; a new build's pages name new addresses. Without the hash (an
//! old page, a hand-typed address) an asset is kept five minutes, then asked about
//! again by its `ETag` (a 304 when unchanged).

use std::sync::OnceLock;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::conditional;
use crate::error::{Params, Path};

const ASSETS: &[(&str, &str, &str)] = &[
    (
        "chancery.css",
        "text/css; charset=utf-8",
        include_str!("../../assets/chancery.css"),
    ),
    (
        "errors.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/errors.js"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/common.js"),
    ),
    (
        "game.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/game.js"),
    ),
    (
        "forum.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/forum.js"),
    ),
    (
        "history.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/history.js"),
    ),
    // The pages name it in a `<link rel="icon">`; `/favicon.ico` serves it to a browser
    // that asks there anyway (for a page of JSON or text), so that no page logs a 404.
    ("favicon.svg", "image/svg+xml", include_str!("../../assets/favicon.svg")),
];

/// Each asset's version: the first 16 hex digits of its SHA-256, worked out once.
fn versions() -> &'static [String] {
    static VERSIONS: OnceLock<Vec<String>> = OnceLock::new();
    VERSIONS.get_or_init(|| {
        ASSETS
            .iter()
            .map(|(_, _, text)| {
                use sha2::Digest;
                hex::encode(&sha2::Sha256::digest(text.as_bytes())[..8])
            })
            .collect()
    })
}

/// The address a page names an asset by: with its version, so that it can be kept.
pub fn url(name: &str) -> String {
    match ASSETS.iter().position(|(n, _, _)| *n == name) {
        Some(i) => format!("/assets/{name}?v={}", versions()[i]),
        None => format!("/assets/{name}"),
    }
}

/// `/favicon.ico`: the icon, for browsers that ask there whatever a page says.
pub async fn favicon(request: HeaderMap) -> Response {
    serve(Path("favicon.svg".to_string()), Params(Version { v: None }), request).await
}

/// `?v=`: the version the page named; other parameters (a tracker's) are ignored.
#[derive(serde::Deserialize)]
pub struct Version {
    #[serde(default)]
    v: Option<String>,
}

pub async fn serve(Path(name): Path<String>, Params(version): Params<Version>, request: HeaderMap) -> Response {
    let Some(i) = ASSETS.iter().position(|(n, _, _)| *n == name) else {
        // In words, not the error page: that page names its assets through this module
        // (`layout` uses `url`), which would make the two modules use each other.
        return (
            StatusCode::NOT_FOUND,
            [(CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no asset `{name}`"),
        )
            .into_response();
    };
    let (_, kind, text) = ASSETS[i];
    let versioned = version.v.as_deref() == Some(versions()[i].as_str());
    let keep = if versioned {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=300"
    };
    conditional::answer(&request, &[(CONTENT_TYPE, kind), (CACHE_CONTROL, keep)], text)
}
