//! The moderators' page: the club's settings, the moderators, suspensions, a game's GM,
//! and the moderation log. Moderators only (403 for anyone else).

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect};

use super::layout::{render, Layout, PageResult};
use crate::auth::Viewer;
use crate::error::Params;
use crate::limits::{MAX_MODERATION_REASON_CHARS, MAX_SUSPENSION_DAYS};
use crate::model::{GameCreation, Visibility};
use crate::services::forum::PageQuery;
use crate::services::moderation::{self, Log, Overview};
use crate::App;

#[derive(Template)]
#[template(path = "moderation.html")]
struct ModerationPage {
    layout: Layout,
    overview: Overview,
    log: Log,
    reason_max: usize,
    days_max: i64,
}

impl ModerationPage {
    fn when(&self, iso: &str) -> String {
        self.layout.when(iso)
    }
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer, Params(q): Params<PageQuery>) -> PageResult {
    let Some(account) = viewer else {
        return Ok(Redirect::to("/login?next=/moderation").into_response());
    };
    let overview = moderation::overview(&app, &account).await?;
    let log = moderation::log_page(&app, &account, q.page.unwrap_or(1)).await?;
    render(&ModerationPage {
        layout: Layout::new("Moderation", Some(&account), &["forum.js"]),
        overview,
        log,
        reason_max: MAX_MODERATION_REASON_CHARS,
        days_max: MAX_SUSPENSION_DAYS,
    })
}
