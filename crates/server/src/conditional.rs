//! Answers a browser may keep and ask about again: a validator (`ETag`) from the body's
//! hash, and `304 Not Modified` with no body when the request's `If-None-Match` names
//! it. Weak validators (`W/"…"`): the compression layer may send the same body in
//! another encoding, which a strong one would have to tell apart.

use axum::http::header::{HeaderName, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The validator of `body`: 96 bits of its SHA-256, weak.
pub fn etag_of(body: &[u8]) -> String {
    format!("W/\"{}\"", hex::encode(&Sha256::digest(body)[..12]))
}

/// Whether the request already holds the body `etag` names (RFC 9110 §13.1.2: weak
/// comparison, a list, or `*`).
pub fn fresh(request: &HeaderMap, etag: &str) -> bool {
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_string();
    request
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || opaque(t) == opaque(etag))
}

/// `body` with its validator and `headers`, or 304 with them and no body when the
/// request holds it already.
pub fn answer(
    request: &HeaderMap,
    headers: &[(HeaderName, &str)],
    body: impl Into<axum::body::Body> + AsRef<[u8]>,
) -> Response {
    let etag = etag_of(body.as_ref());
    let mut response = if fresh(request, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let body: axum::body::Body = body.into();
        body.into_response()
    };
    let h = response.headers_mut();
    for (name, value) in headers {
        if let Ok(v) = HeaderValue::from_str(value) {
            h.insert(name.clone(), v);
        }
    }
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(ETAG, v);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(value: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        h
    }

    #[test]
    fn a_held_body_is_not_sent_again() {
        let tag = etag_of(b"<svg/>");
        assert!(tag.starts_with("W/\"") && tag.len() == 2 + 1 + 24 + 1, "{tag}");
        assert!(fresh(&asking(&tag), &tag));
        // Weak comparison: the strong form of the same tag matches too.
        assert!(fresh(&asking(tag.trim_start_matches("W/")), &tag));
        assert!(fresh(&asking(&format!("W/\"0\", {tag}")), &tag));
        assert!(fresh(&asking("*"), &tag));
        assert!(!fresh(&asking(&etag_of(b"<svg></svg>")), &tag));
        assert!(!fresh(&HeaderMap::new(), &tag));
        let r = answer(&asking(&tag), &[], "<svg/>");
        assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
        let r = answer(&HeaderMap::new(), &[], "<svg/>");
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers()[ETAG], tag.as_str());
    }
}
