//! The security headers on every answer: what a browser may load and run on our pages
//! (`Content-Security-Policy`), that they may not be framed (`frame-ancestors 'none'`,
//! `X-Frame-Options`), no guessing of content types (`nosniff`), and no address of ours
//! in requests to other sites (`Referrer-Policy`).
//!
//! Pages load their scripts and stylesheet from `/assets` only and run no inline script
//! (data goes in `<script type="application/json">` blocks, which are never run), so
//! `script-src 'self'` holds. Inline styles are allowed: the map's SVG carries a `<style>`
//! whose colours come from the variant, and power swatches a `style` attribute; a style
//! cannot run code. Everything that is not a page gets a policy that allows nothing but
//! the inline style an SVG map needs, sandboxed, so a map or feed opened on its own runs
//! nothing.

use axum::extract::Request;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

/// The policy for HTML pages.
pub const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The policy for everything else (JSON, SVG, Atom).
pub const OTHER_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

pub async fn add(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let html = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    let h = response.headers_mut();
    let policy = if html { PAGE_POLICY } else { OTHER_POLICY };
    h.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(policy));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    response
}
