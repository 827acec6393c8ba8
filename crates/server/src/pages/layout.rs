//! The frame every page shares (`templates/base.html`: head, navigation, scripts),
//! rendering a page's template, and pages for errors, so that a browser never gets the
//! API's JSON error body. Every page is an askama template extending `base.html`, which
//! escapes every value unless the template says `|safe` (only for HTML another template
//! or the map renderer made).

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use crate::auth::Account;
use crate::error::ApiError;

#[derive(Template)]
#[template(path = "json_block.html")]
struct JsonBlock<'a, T: serde::Serialize> {
    id: &'a str,
    value: &'a T,
}

/// A typed value as JSON in a `<script type="application/json">` block. askama's `json`
/// filter writes no `<`, `>`, `&` or `'`, so no string inside can close the element.
pub fn json_block(id: &str, value: &impl serde::Serialize) -> String {
    // Rendering only fails when writing to the string fails, which it does not.
    JsonBlock { id, value }.render().unwrap_or_default()
}

/// What the frame every page shares (`templates/base.html`) needs: the title, the
/// viewer, and the page's own scripts (names under `/assets/`, loaded deferred after the
/// shared ones). A page template's struct has it as its `layout` field.
pub struct Layout {
    pub title: String,
    pub viewer: Option<String>,
    pub scripts: Vec<String>,
    /// The viewer's time zone; None for UTC (and for visitors).
    pub zone: Option<chrono_tz::Tz>,
}

impl Layout {
    pub fn new(title: &str, viewer: Option<&Account>, scripts: &[&str]) -> Layout {
        Layout {
            title: title.to_string(),
            viewer: viewer.map(|a| a.name.clone()),
            scripts: scripts.iter().map(|s| s.to_string()).collect(),
            zone: viewer.and_then(|a| a.zone),
        }
    }

    /// A time (ISO 8601) as the viewer reads it: see [`time_text`].
    pub fn when(&self, iso: &str) -> String {
        time_text(iso, self.zone)
    }

    /// An asset's address with its version (`pages::assets::url`).
    pub fn asset(&self, name: &str) -> String {
        super::assets::url(name)
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
        let status = self.0.status();
        let page = ErrorPage {
            layout: Layout::new("Error", None, &[]),
            heading: status.canonical_reason().unwrap_or("Error"),
            message: &self.0.message,
            log_in: status == StatusCode::UNAUTHORIZED,
        };
        // Rendering only fails when writing to the string fails, which it does not.
        (status, Html(page.render().unwrap_or_default())).into_response()
    }
}

/// A page for an error (`templates/error.html`).
#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    layout: Layout,
    heading: &'a str,
    message: &'a str,
    /// The answer is 401: the page offers to log in.
    log_in: bool,
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

/// A time (ISO 8601, as the API gives it) as pages give it, in the words mails use
/// (`clock::when`): in the viewer's zone with UTC beside it
/// (`Sun 29 Nov 2026 18:05 America/New_York (23:05 UTC)`), or in UTC alone for a
/// visitor or an account that chose none (`Sun 29 Nov 2026 23:05 UTC`). Written on the
/// server, so it reads without JavaScript.
pub fn time_text(iso: &str, zone: Option<chrono_tz::Tz>) -> String {
    match chrono::DateTime::parse_from_rfc3339(iso) {
        Ok(t) => crate::clock::when(t.timestamp_millis(), zone),
        Err(_) => iso.to_string(),
    }
}

/// The viewer's zone, for pages that have no [`Layout`] at hand.
pub fn zone_of(viewer: Option<&Account>) -> Option<chrono_tz::Tz> {
    viewer.and_then(|a| a.zone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_blocks_cannot_close_their_script() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Data {
            s: String,
            q: String,
        }
        let value = Data {
            s: "</script><script>alert(1)".into(),
            q: "it's & <b>".into(),
        };
        let block = json_block("d", &value);
        assert_eq!(block.matches("</script>").count(), 1, "{block}");
        // The script reads back the same value.
        let inner = block
            .strip_prefix(r#"<script type="application/json" id="d">"#)
            .and_then(|b| b.strip_suffix("</script>"))
            .expect("one block");
        assert_eq!(serde_json::from_str::<Data>(inner).unwrap(), value);
    }

    #[test]
    fn error_pages_escape_the_message() {
        let response = PageError(ApiError::unprocessable("no game <b>\"x\"</b> & more")).into_response();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let page = ErrorPage {
            layout: Layout::new("Error", None, &[]),
            heading: "Unprocessable Entity",
            message: "no game <b>\"x\"</b> & more",
            log_in: false,
        }
        .render()
        .unwrap();
        assert!(
            page.contains(r#"<p class="error">no game &#60;b&#62;&#34;x&#34;&#60;/b&#62; &#38; more</p>"#),
            "{page}"
        );
        assert!(page.contains(r#"<a href="/">Back to the lobby</a>"#));
    }

    #[test]
    fn times_read_in_the_viewers_zone_and_in_utc() {
        assert_eq!(time_text("2026-11-29T23:05:00Z", None), "Sun 29 Nov 2026 23:05 UTC");
        let ny: chrono_tz::Tz = "America/New_York".parse().unwrap();
        // EST in November, EDT in July.
        assert_eq!(
            time_text("2026-11-29T23:05:00Z", Some(ny)),
            "Sun 29 Nov 2026 18:05 America/New_York (23:05 UTC)"
        );
        assert_eq!(
            time_text("2027-07-01T02:30:00Z", Some(ny)),
            "Wed 30 Jun 2027 22:30 America/New_York (Thu 1 Jul 2027 02:30 UTC)"
        );
        assert_eq!(time_text("not a time", None), "not a time");
    }
}
