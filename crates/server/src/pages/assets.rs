//! The stylesheet and scripts, compiled into the binary so that a page needs nothing
//! from any other site.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use super::layout::PageError;
use crate::error::{ApiError, Path};

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
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/board.js"),
    ),
    (
        "history.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/history.js"),
    ),
];

pub async fn serve(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        // Short caching: the names carry no version, and a new build must show at once.
        Some((_, kind, text)) => {
            ([(CONTENT_TYPE, *kind), (CACHE_CONTROL, "public, max-age=300")], *text).into_response()
        }
        None => PageError(ApiError::not_found(format!("no asset `{name}`"))).into_response(),
    }
}
