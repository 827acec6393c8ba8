//! Forged cross-site requests: a request that changes something and is authenticated by
//! the session cookie alone must come from this server's own pages, shown by a matching
//! `Origin` (or, when a browser sends none, `Referer`), and carry a JSON content type.
//!
//! Why not SameSite=Lax alone: it does not stop a request from another origin of the same
//! site (a sibling subdomain, another port), nor a browser that does not honour it. The
//! JSON content type means another origin's page cannot send such a request without a
//! CORS preflight, which this server never grants. A request with an `Authorization: Bearer` header is not checked: a browser
//! adds that header only when a script of the page itself does.

use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HOST, ORIGIN, REFERER};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, ErrorCode};
use crate::input::is_json_type;
use crate::App;

/// Refuses a cookie-authenticated state-changing request from another site (403) or
/// without a JSON content type (415).
pub async fn guard(State(app): State<App>, request: Request, next: Next) -> Response {
    // An unsubscribe link is authorised by the secret in its path, never by the
    // cookie, so a forged request gains nothing; and a mail client's one-click POST
    // (RFC 8058) is a form, not JSON.
    if request.uri().path().starts_with("/mail/unsubscribe/") {
        return next.run(request).await;
    }
    match check(request.method(), request.headers(), app.public_origin.as_deref()) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

fn check(method: &Method, headers: &HeaderMap, public_origin: Option<&str>) -> Result<(), ApiError> {
    let safe = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let bearer = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bearer "));
    let cookie = crate::auth::request_token(headers).is_some();
    if safe || bearer || !cookie {
        return Ok(());
    }
    let host = headers.get(HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    let origin = headers
        .get(ORIGIN)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| headers.get(REFERER).and_then(|v| v.to_str().ok()).and_then(origin_of));
    let ours = origin.as_deref().is_some_and(|o| same_origin(o, host, public_origin));
    if !ours {
        return Err(ApiError::coded(
            ErrorCode::CrossSite,
            "a request with the session cookie must come from this server's pages (its Origin does not match); \
             other clients send the token as `Authorization: Bearer`",
        ));
    }
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_json_type);
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request with the session cookie must be sent as `Content-Type: application/json`",
        ));
    }
    Ok(())
}

/// `scheme://host[:port]` of a URL, the form `Origin` takes.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    (!authority.is_empty()).then(|| format!("{}://{}", scheme.to_ascii_lowercase(), authority.to_ascii_lowercase()))
}

/// The origin is the public URL's, or names the host the request was sent to.
fn same_origin(origin: &str, host: &str, public_origin: Option<&str>) -> bool {
    let origin = origin.trim().to_ascii_lowercase();
    if public_origin.is_some_and(|p| p.eq_ignore_ascii_case(&origin)) {
        return true;
    }
    match origin.split_once("://") {
        Some(("http" | "https", authority)) => !host.is_empty() && authority == host.to_ascii_lowercase(),
        _ => false,
    }
}

/// The origin of `--public-url`: what a browser sends as `Origin` on its pages.
pub fn public_origin(public_url: &str) -> Result<String, String> {
    let origin = origin_of(public_url.trim()).filter(|o| o.starts_with("http://") || o.starts_with("https://"));
    origin.ok_or_else(|| format!("--public-url {public_url}: give an http:// or https:// URL"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(axum::http::HeaderName, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_static(v));
        }
        h
    }

    const COOKIE: &str = "chancery_session=abc";

    #[test]
    fn cookie_posts_need_our_origin_and_json() {
        use axum::http::header::COOKIE as C;
        let post = Method::POST;
        let ok = headers(&[
            (C, COOKIE),
            (HOST, "club.example:8080"),
            (ORIGIN, "http://club.example:8080"),
            (CONTENT_TYPE, "application/json"),
        ]);
        assert!(check(&post, &ok, None).is_ok());
        let evil = headers(&[
            (C, COOKIE),
            (HOST, "club.example:8080"),
            (ORIGIN, "http://evil.example"),
            (CONTENT_TYPE, "application/json"),
        ]);
        assert_eq!(check(&post, &evil, None).unwrap_err().status(), StatusCode::FORBIDDEN);
        let null = headers(&[
            (C, COOKIE),
            (HOST, "club.example"),
            (ORIGIN, "null"),
            (CONTENT_TYPE, "application/json"),
        ]);
        assert!(check(&post, &null, None).is_err());
        let none = headers(&[(C, COOKIE), (HOST, "club.example"), (CONTENT_TYPE, "application/json")]);
        assert!(check(&post, &none, None).is_err());
        let referer = headers(&[
            (C, COOKIE),
            (HOST, "club.example"),
            (REFERER, "https://club.example/games/1"),
            (CONTENT_TYPE, "application/json"),
        ]);
        assert!(check(&post, &referer, None).is_ok());
        let text = headers(&[
            (C, COOKIE),
            (HOST, "club.example"),
            (ORIGIN, "https://club.example"),
            (CONTENT_TYPE, "text/plain"),
        ]);
        assert_eq!(
            check(&post, &text, None).unwrap_err().status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        // Behind a proxy the Host is internal; the public URL's origin is ours.
        let proxied = headers(&[
            (C, COOKIE),
            (HOST, "127.0.0.1:8080"),
            (ORIGIN, "https://club.example"),
            (CONTENT_TYPE, "application/json"),
        ]);
        assert!(check(&post, &proxied, Some("https://club.example")).is_ok());
        assert!(check(&post, &proxied, None).is_err());
        // Reading, a Bearer token, or no session at all: nothing to forge.
        assert!(check(&Method::GET, &evil, None).is_ok());
        let bearer = headers(&[
            (C, COOKIE),
            (AUTHORIZATION, "Bearer abc"),
            (ORIGIN, "http://evil.example"),
        ]);
        assert!(check(&post, &bearer, None).is_ok());
        assert!(check(&post, &headers(&[(ORIGIN, "http://evil.example")]), None).is_ok());
    }

    #[test]
    fn public_origins() {
        assert_eq!(
            public_origin("https://Club.example/chancery/").unwrap(),
            "https://club.example"
        );
        assert_eq!(public_origin("http://localhost:8080").unwrap(), "http://localhost:8080");
        assert!(public_origin("club.example").is_err());
        assert!(public_origin("ftp://club.example").is_err());
    }
}
