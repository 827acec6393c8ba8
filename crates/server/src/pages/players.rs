//! A player's page: the record the players service gives, as a table of games.

use askama::Template;
use axum::extract::State;

use super::layout::{render, time_text, zone_of, Layout, PageResult};
use crate::auth::Viewer;
use crate::error::Path;
use crate::services::players::{self, PlayerRecord};
use crate::App;

#[derive(Template)]
#[template(path = "player.html")]
struct PlayerPage {
    layout: Layout,
    record: PlayerRecord,
    member_since: String,
    finished: String,
}

pub async fn page(State(app): State<App>, Viewer(viewer): Viewer, Path(name): Path<String>) -> PageResult {
    let record = players::record(&app.db, viewer.as_ref(), &name).await?;
    let finished = match record.finished {
        0 => "no finished game yet".to_string(),
        n => format!(
            "{n} finished game{}: {} won, {} drawn",
            if n == 1 { "" } else { "s" },
            record.won,
            record.drew
        ),
    };
    render(&PlayerPage {
        layout: Layout::new(&record.name, viewer.as_ref(), &[]),
        member_since: time_text(&record.member_since, zone_of(viewer.as_ref())),
        finished,
        record,
    })
}
