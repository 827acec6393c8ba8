//! The frame every page shares (`templates/base.html`: head, navigation, scripts),
//! rendering a page's template, HTML escaping for the pages still built as strings, and
//! pages for errors, so that a browser never gets the API's JSON error body.

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use crate::auth::Account;
use crate::error::ApiError;

/// Text made safe for HTML element content and quoted attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` block: `<` is escaped so that no
/// string inside can close the element.
pub fn json_block(id: &str, value: &serde_json::Value) -> String {
    let text = value.to_string().replace('<', "\\u003c");
    format!(r#"<script type="application/json" id="{id}">{text}</script>"#)
}

/// What the frame every page shares (`templates/base.html`) needs: the title, the
/// viewer, and the page's own scripts (names under `/assets/`, loaded deferred after the
/// shared ones). A page template's struct has it as its `layout` field.
pub struct Layout {
    pub title: String,
    pub viewer: Option<String>,
    pub scripts: Vec<String>,
}

impl Layout {
    pub fn new(title: &str, viewer: Option<&Account>, scripts: &[&str]) -> Layout {
        Layout {
            title: title.to_string(),
            viewer: viewer.map(|a| a.name.clone()),
            scripts: scripts.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// A page from its template.
pub fn render(page: &impl Template) -> PageResult {
    match page.render() {
        Ok(html) => Ok(Html(html).into_response()),
        Err(e) => Err(PageError(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the page could not be drawn: {e}"),
        ))),
    }
}

#[derive(Template)]
#[template(path = "frame.html")]
struct Frame<'a> {
    layout: Layout,
    body: &'a str,
}

/// A whole page around `body`, HTML built as a string. For the pages not yet moved to a
/// template of their own; `body` must be escaped already.
pub fn frame(title: &str, viewer: Option<&Account>, body: &str, scripts: &[&str]) -> Html<String> {
    let page = Frame {
        layout: Layout::new(title, viewer, scripts),
        body,
    };
    // Rendering only fails when writing to the string fails, which it does not.
    Html(page.render().unwrap_or_default())
}

/// An error a page handler returns: the API's error, shown as a page.
pub struct PageError(pub ApiError);

impl From<ApiError> for PageError {
    fn from(e: ApiError) -> Self {
        PageError(e)
    }
}

impl From<sqlx::Error> for PageError {
    fn from(e: sqlx::Error) -> Self {
        PageError(e.into())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let status = self.0.status;
        let hint = match status {
            StatusCode::UNAUTHORIZED => r#"<p><a href="/login">Log in</a> to see this page.</p>"#,
            _ => r#"<p><a href="/">Back to the lobby</a></p>"#,
        };
        let body = format!(
            r#"<section class="card"><h1>{}</h1><p class="error">{}</p>{hint}</section>"#,
            status.canonical_reason().unwrap_or("Error"),
            esc(&self.0.message)
        );
        (status, frame("Error", None, &body, &[])).into_response()
    }
}

pub type PageResult = Result<Response, PageError>;

/// A power's name with its colour, for `templates/badge.html`.
pub struct Badge {
    pub name: String,
    /// A `#rrggbb` colour (`game::colour` checks it).
    pub colour: String,
}

impl Badge {
    pub fn new(name: &str, colour: String) -> Badge {
        Badge {
            name: name.to_string(),
            colour,
        }
    }
}

/// A power's name as a small coloured badge.
pub fn power_badge(name: &str, colour: &str) -> String {
    format!(
        r#"<span class="power"><span class="swatch" style="background:{}"></span>{}</span>"#,
        esc(colour),
        esc(name)
    )
}

/// `2026-11-29T23:05:00Z` as `2026-11-29 23:05 UTC`.
pub fn utc_text(iso: &str) -> String {
    let t = iso.trim_end_matches('Z').replacen('T', " ", 1);
    format!("{} UTC", t.get(..16).unwrap_or(&t))
}

#[derive(Template)]
#[template(path = "deadline_fields.html")]
struct DeadlineFields<'a> {
    prefix: &'a str,
    at: &'a str,
    zone: &'a str,
    zones: Vec<&'static str>,
}

/// The time-of-day and time-zone fields of a deadline schedule (`deadline_fields.html`),
/// for the pages still built as strings.
pub fn deadline_time_fields(prefix: &str, at: Option<&str>, zone: Option<&str>) -> String {
    DeadlineFields {
        prefix,
        at: at.unwrap_or(""),
        zone: zone.unwrap_or(""),
        zones: chrono_tz::TZ_VARIANTS.iter().map(|z| z.name()).collect(),
    }
    .render()
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            esc(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn json_blocks_cannot_close_their_script() {
        let block = json_block("d", &serde_json::json!({"s": "</script><script>alert(1)"}));
        assert_eq!(block.matches("</script>").count(), 1);
    }

    #[test]
    fn utc_dates_read_as_minutes() {
        assert_eq!(utc_text("2026-11-29T23:05:00Z"), "2026-11-29 23:05 UTC");
    }
}
