//! The map in a results mail: the processed phase's picture from the history page (its
//! position with every order drawn with its result, and the legend) as a PNG, since most
//! mail clients show no SVG. It is drawn when the mail is sent, on the job pool as a
//! heavy job (background work never takes the workers that draw pages), from the stored
//! phase, so that every attempt sends the same picture; the few newest are kept, as a
//! phase's results go to every player at once.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;

use crate::jobs::Weight;
use crate::model::{GameId, PhaseSeq};
use crate::services::history;
use crate::App;

/// The picture's width in pixels: sharp at 600 points on a screen that doubles pixels,
/// and the 1700-unit map with its legend still reads at full size.
pub const WIDTH: u32 = 1200;
/// How many pictures this process keeps.
const KEEP: usize = 8;
/// How long the sender waits for a picture (the pool's queue included).
const BUDGET: Duration = Duration::from_secs(60);

/// A phase's picture: `(game, phase number)` and the PNG.
type Picture = ((GameId, PhaseSeq), Arc<Vec<u8>>);

/// The pictures drawn lately, oldest first.
#[derive(Default)]
pub struct Pictures {
    kept: Mutex<VecDeque<Picture>>,
}

impl Pictures {
    fn get(&self, key: (GameId, PhaseSeq)) -> Option<Arc<Vec<u8>>> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter().find(|(k, _)| *k == key).map(|(_, png)| png.clone())
    }

    fn keep(&self, key: (GameId, PhaseSeq), png: Arc<Vec<u8>>) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.retain(|(k, _)| *k != key);
        kept.push_back((key, png));
        while kept.len() > KEEP {
            kept.pop_front();
        }
    }
}

/// Why there is no picture.
pub enum Trouble {
    /// Not now (the pool is busy, an uploaded map is still being shaped): try again.
    Later(String),
    /// Never (the phase or game is gone, the map cannot be drawn): send without it.
    Never(String),
}

/// Phase `seq` of `game` as a PNG [`WIDTH`] pixels wide.
pub async fn png(app: &App, game: GameId, seq: PhaseSeq) -> Result<Arc<Vec<u8>>, Trouble> {
    if let Some(png) = app.mail_maps.get((game, seq)) {
        return Ok(png);
    }
    let svg = history::phase_map(app, game, seq, false).await.map_err(|e| {
        let why = format!("drawing the map of game {game} phase {seq}: {}", e.message);
        match e.status() {
            StatusCode::SERVICE_UNAVAILABLE | StatusCode::INTERNAL_SERVER_ERROR => Trouble::Later(why),
            _ => Trouble::Never(why),
        }
    })?;
    let png = app
        .jobs
        .run(Weight::Heavy, BUDGET, move || {
            chancery_render::png::png_of_width(&svg, WIDTH)
        })
        .await
        .map_err(|e| Trouble::Later(app.jobs.refusal(e, "drawing a mail's map").message))?
        .map_err(Trouble::Never)?;
    let png = Arc::new(png);
    app.mail_maps.keep((game, seq), png.clone());
    Ok(png)
}

/// The `Content-ID` of a phase's map in a mail (RFC 2392), the same in every mail.
pub fn map_cid(domain: &str, game: GameId, seq: PhaseSeq) -> String {
    format!("map-{game}-{seq}@{domain}")
}
