//! What the club mails, to whom, and each account's address and preferences.
//!
//! Every mail is composed when its event happens, inside the event's transaction, from
//! what its reader may see on the pages at that moment: a player's results mail holds
//! that player's own orders and results (the others' are on the history page for all to
//! read once processed, but a mail's words stay with what concerns its reader; its map
//! is the history page's picture, every order drawn), never a bid,
//! never an account's name (an anonymous game hides them, and no mail needs one). The
//! sender ([`sender`]) adds the reader's unsubscribe link and headers when it
//! sends.
//!
//! A body is written once as [`Block`]s and given as plain text and as HTML (an askama
//! template, so that nothing is escaped by hand) from them, so that the two parts say
//! the same.
//!
//! Other modules mail through [`to_account`] (one account) or the functions here that
//! name an event; with no transport configured nothing is written at all (see
//! [`enqueue`]).
//!
//! The rest of the room, one job a module:
//! - [`settings`]: an account's address (confirmed by a mailed link), its preferences
//!   per kind and game, its time zone and digest, and unsubscribing;
//! - [`reminders`]: deadline reminders and each game's reminder times; [`press`]: press
//!   in batches; [`digest`]: the daily digest; [`jobs`] runs these three by the clock;
//! - [`log`]: a game's mails and what became of each, as its GM reads them;
//! - [`map`]: the map in a results mail, drawn as a PNG when the mail is sent;
//! - [`sender`]: the transport (SMTP or a folder of `.eml` files) and the task that
//!   delivers the outbox, with [`smtp`], the send that marks a mail sent before its end.
//!
//! Composing is above delivering: this module and its jobs use [`sender`] (the
//! transport's settings), and the sender uses only [`map`] and the store, never the
//! composing side, so the room has no import circle.

pub mod digest;
pub mod jobs;
pub mod log;
pub mod map;
pub mod press;
pub mod reminders;
pub mod sender;
pub mod settings;
pub mod smtp;

use askama::Template;
use chrono::{LocalResult, TimeZone, Utc};
use chrono_tz::Tz;

use crate::db::{new_id, Tx};
use crate::error::{ApiError, ApiResult};
use crate::model::{AccountId, GameId, GameOutcome, MailScope, PhaseSeq};
use crate::services::games::LoadedGame;
use crate::store;
use crate::store::games::Game;
use crate::store::mail::{NewMail, PhaseMap, Pref};
use crate::App;
use chancery_engine::json::AdjudicationJson;
use chancery_engine::{Phase, PhaseKind};
use sender::Mailer;

/// The kinds of mail (defined with the other stored enums; the outbox and the
/// preferences store them).
pub use crate::model::MailKind as Kind;

/// A piece of a mail's body.
#[derive(Clone)]
pub enum Block {
    Para(String),
    /// Lines kept as they are (orders, centre counts).
    Lines(Vec<String>),
    Link {
        label: String,
        url: String,
    },
    /// The map of processed phase `seq` of `game`: a PNG drawn when the mail is sent
    /// ([`sender`]), shown in the HTML part by its `Content-ID`.
    Map {
        game: GameId,
        seq: PhaseSeq,
        cid: String,
        alt: String,
    },
}

/// The phases whose maps `blocks` show.
fn maps_of(blocks: &[Block]) -> Vec<PhaseMap> {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Map { game, seq, .. } => Some(PhaseMap {
                game_id: *game,
                seq: *seq,
            }),
            _ => None,
        })
        .collect()
}

/// The HTML part of a body; askama escapes every text it is given.
#[derive(Template)]
#[template(path = "mail/body.html")]
struct HtmlBody<'a> {
    blocks: &'a [Block],
}

/// The plain-text and HTML parts of a body.
pub fn render(blocks: &[Block]) -> ApiResult<(String, String)> {
    let mut text = String::new();
    for b in blocks {
        match b {
            Block::Para(p) => {
                text.push_str(p);
                text.push_str("\n\n");
            }
            Block::Lines(lines) => {
                for l in lines {
                    text.push_str("  ");
                    text.push_str(l);
                    text.push('\n');
                }
                text.push('\n');
            }
            Block::Link { label, url } => text.push_str(&format!("{label}: {url}\n\n")),
            Block::Map { alt, .. } => text.push_str(&format!("[{alt}: the picture is in this mail's HTML part]\n\n")),
        }
    }
    let html = HtmlBody { blocks }.render().map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("composing a mail: {e}"),
        )
    })?;
    Ok((text, html))
}

/// Whether the account wants `kind` for `game`: its choice for the game, else its
/// choice for all games, else the kind's default.
pub fn wanted(prefs: &[Pref], kind: Kind, game: Option<GameId>) -> bool {
    if kind == Kind::Confirm {
        return true;
    }
    let choice = |scope: MailScope| {
        prefs
            .iter()
            .find(|p| p.scope == scope && p.kind == kind)
            .map(|p| p.enabled)
    };
    game.and_then(|g| choice(MailScope::Game(g)))
        .or_else(|| choice(MailScope::AllGames))
        .unwrap_or(kind.on_by_default())
}

/// A reader of a game's mail.
pub struct Reader {
    pub account_id: AccountId,
    pub address: String,
    /// The power the reader plays; None for the GM and for mail about no game.
    pub power: Option<String>,
    /// The account's time zone, in which times are given beside UTC; None for UTC.
    pub zone: Option<Tz>,
    /// The hour (in `zone`) of the account's daily digest; None when it takes each mail
    /// as it comes.
    pub digest_hour: Option<u32>,
}

/// A stored zone name; UTC (None) when there is none or it no longer reads.
pub fn zone_of(name: Option<&str>) -> Option<Tz> {
    name.and_then(|n| n.parse().ok())
}

/// A stored digest hour, when the digest is chosen.
fn digest_hour(digest: bool, hour: i64) -> Option<u32> {
    digest.then(|| u32::try_from(hour.clamp(0, 23)).unwrap_or(0))
}

/// The account as a reader of `kind` (about `game`): when it has a confirmed address
/// that has not bounced and wants the kind.
pub async fn reader(app: &App, account: AccountId, game: Option<GameId>, kind: Kind) -> ApiResult<Option<Reader>> {
    let db = &app.db.read;
    let Some(a) = store::mail::address(db, account).await? else {
        return Ok(None);
    };
    if !a.confirmed || a.bounced.is_some() {
        return Ok(None);
    }
    let prefs = store::mail::prefs(db, account).await?;
    if !wanted(&prefs, kind, game) {
        return Ok(None);
    }
    let options = store::mail::options(db, account).await?;
    Ok(Some(Reader {
        account_id: account,
        address: a.address,
        power: None,
        zone: zone_of(options.time_zone.as_deref()),
        digest_hour: digest_hour(options.digest, options.digest_hour),
    }))
}

/// The game's players with a confirmed, working address who want `kind` for it.
pub async fn players(app: &App, game: &Game, kind: Kind) -> ApiResult<Vec<Reader>> {
    let db = &app.db.read;
    let mut out = Vec::new();
    for p in store::mail::players_with_address(db, game.id).await? {
        let prefs = store::mail::prefs(db, p.account_id).await?;
        if wanted(&prefs, kind, Some(game.id)) {
            out.push(Reader {
                account_id: p.account_id,
                address: p.address,
                power: Some(p.power),
                zone: zone_of(p.time_zone.as_deref()),
                digest_hour: p.digest_hour.map(|h| digest_hour(true, h).unwrap_or(0)),
            });
        }
    }
    Ok(out)
}

/// The game's GM, when the GM has a working address and wants `kind`.
pub async fn gm(app: &App, game: &Game, kind: Kind) -> ApiResult<Option<Reader>> {
    reader(app, game.gm_id, Some(game.id), kind).await
}

/// Queues a mail of `kind` to `account` inside `tx`, when the account has a confirmed
/// address that has not bounced and wants the kind (for `game`, when the mail is about
/// one). Returns whether a mail was written. The one door for mail about things other
/// than a game's events (the forum's replies).
pub async fn to_account(
    tx: &mut Tx,
    app: &App,
    account: AccountId,
    game: Option<GameId>,
    kind: Kind,
    subject: String,
    blocks: &[Block],
) -> ApiResult<bool> {
    if !app.mailer.sends() {
        return Ok(false);
    }
    let Some(reader) = reader(app, account, game, kind).await? else {
        return Ok(false);
    };
    enqueue(tx, app, &reader, game, kind, subject, blocks).await?;
    Ok(true)
}

/// A held mail goes at once when its reader must act on it before this long after the
/// digest would bring it (a deadline reminder in the last hours).
pub const LEAD_MS: i64 = 3 * 3_600_000;

/// The first moment after `now_ms` at `hour`:00 in `zone`. On a day when clocks skip
/// that hour, the first moment after the gap; when it comes twice, the first.
pub fn next_digest_ms(now_ms: i64, hour: u32, zone: Tz) -> i64 {
    let Some(now) = Utc.timestamp_millis_opt(now_ms).single() else {
        return now_ms;
    };
    let mut day = now.with_timezone(&zone).date_naive();
    for _ in 0..3 {
        let at = |h: u32| day.and_hms_opt(h, 0, 0).map(|t| zone.from_local_datetime(&t));
        let found = match at(hour.min(23)) {
            Some(LocalResult::Single(t)) | Some(LocalResult::Ambiguous(t, _)) => Some(t),
            // A spring-forward gap: the hour after it exists (gaps are at most an hour
            // in the zones the club's players live in; two hours at most anywhere).
            Some(LocalResult::None) => (1..=2).find_map(|n| {
                day.and_hms_opt(hour, 0, 0)
                    .map(|t| t + chrono::Duration::hours(n))
                    .and_then(|t| zone.from_local_datetime(&t).earliest())
            }),
            None => None,
        };
        if let Some(t) = found {
            let ms = t.timestamp_millis();
            if ms > now_ms {
                return ms;
            }
        }
        match day.succ_opt() {
            Some(d) => day = d,
            None => break,
        }
    }
    now_ms
}

/// When a mail of `kind` to `reader` waits for the reader's digest: None to send it at
/// once (the reader takes each mail as it comes, it confirms an address, or its reader
/// must act on it by `act_by` and the digest would come less than [`LEAD_MS`] before).
pub fn hold_until(reader: &Reader, kind: Kind, act_by: Option<i64>, now_ms: i64) -> Option<i64> {
    let hour = reader.digest_hour?;
    if matches!(kind, Kind::Confirm | Kind::Digest) {
        return None;
    }
    let due = next_digest_ms(now_ms, hour, reader.zone.unwrap_or(chrono_tz::UTC));
    match act_by {
        Some(by) if due.saturating_add(LEAD_MS) > by => None,
        _ => Some(due),
    }
}

/// Writes one mail to the outbox inside `tx`. With no transport configured
/// (neither `--smtp` nor `--mail-dir`) nothing is written: a mail that can never be
/// sent would only pile up, and a transport configured later should not deliver a
/// backlog of stale results and reminders. For a reader who chose the daily digest
/// the mail waits for it.
pub async fn enqueue(
    tx: &mut Tx,
    app: &App,
    reader: &Reader,
    game: Option<GameId>,
    kind: Kind,
    subject: String,
    blocks: &[Block],
) -> ApiResult<()> {
    enqueue_by(tx, app, reader, game, kind, subject, blocks, None).await
}

/// [`enqueue`] for a mail its reader must act on by `act_by` (a deadline): it waits for
/// the reader's digest only when the digest comes well before then
/// ([`hold_until`]).
#[allow(clippy::too_many_arguments)]
pub async fn enqueue_by(
    tx: &mut Tx,
    app: &App,
    reader: &Reader,
    game: Option<GameId>,
    kind: Kind,
    subject: String,
    blocks: &[Block],
    act_by: Option<i64>,
) -> ApiResult<()> {
    if !app.mailer.sends() {
        return Ok(());
    }
    let now = app.clock.now_ms();
    let id = new_id();
    let (text_body, html_body) = render(blocks)?;
    let mail = NewMail {
        id,
        account_id: reader.account_id,
        address: reader.address.clone(),
        game_id: game,
        kind,
        subject,
        text_body,
        html_body,
        message_id: format!("<{id}.{}@{}>", kind.as_str(), app.mailer.domain),
        created_ms: now,
        due_ms: now,
        maps: maps_of(blocks),
        digest_ms: hold_until(reader, kind, act_by, now),
    };
    store::mail::enqueue(&mut **tx, &mail).await?;
    Ok(())
}

fn game_url(m: &Mailer, game: &Game) -> String {
    format!("{}/games/{}", m.base_url, game.id)
}

pub use crate::clock::when;

/// The results of a processed phase: to each player, their own orders with outcomes and
/// reasons, the centre counts and the links; to the GM, that the phase was processed
/// and who gave no orders. Called inside the processing transaction, with the game as
/// it was before the phase was processed.
pub async fn phase_processed(
    tx: &mut Tx,
    app: &App,
    loaded: &LoadedGame,
    result: &AdjudicationJson,
    missing: &[String],
) -> ApiResult<()> {
    if !app.mailer.sends() {
        return Ok(());
    }
    let (game, v) = (&loaded.game, &loaded.variant);
    let phase = loaded.state.phase.to_string();
    let history = format!("{}/games/{}/history/{}", app.mailer.base_url, game.id, game.seq);
    let counts = centre_counts(result);
    // The history page's picture of the phase: every order with its result, as every
    // reader may see it there once the phase is processed.
    let map = Block::Map {
        game: game.id,
        seq: game.seq,
        cid: map::map_cid(&app.mailer.domain, game.id, game.seq),
        alt: format!("The map of {phase}: every order and its result"),
    };
    let next = match &result.winner {
        Some(w) => format!("The game is over: {w} has won."),
        None => "The next phase is open for orders.".to_string(),
    };
    for reader in players(app, game, Kind::Results).await? {
        let Some(power) = reader.power.as_deref() else { continue };
        // The reader's power and the factions it plays (1936's Spains).
        let Some(pid) = v.find_power(power) else { continue };
        let mine = |name: &str| v.find_power(name).is_some_and(|o| v.controls(pid, o));
        let own: Vec<String> = result
            .results
            .iter()
            .filter(|r| mine(&r.power))
            .map(result_line)
            .collect();
        let refused: Vec<String> = result
            .refused
            .iter()
            .filter(|r| mine(&r.power))
            .map(|r| format!("{} (refused: {})", r.order, r.error))
            .collect();
        let mut blocks = vec![Block::Para(format!("{phase} in {} has been processed.", game.name))];
        if own.is_empty() {
            blocks.push(Block::Para(format!("{power} had no orders to give in this phase.")));
        } else {
            blocks.push(Block::Para(format!("{power}'s orders and their results:")));
            blocks.push(Block::Lines(own));
        }
        if !refused.is_empty() {
            blocks.push(Block::Para("Refused when given:".into()));
            blocks.push(Block::Lines(refused));
        }
        blocks.push(Block::Para("Supply centres:".into()));
        blocks.push(Block::Lines(counts.clone()));
        blocks.push(map.clone());
        blocks.push(Block::Para(next.clone()));
        blocks.push(Block::Link {
            label: "Every order and the map".into(),
            url: history.clone(),
        });
        blocks.push(Block::Link {
            label: "The game".into(),
            url: game_url(&app.mailer, game),
        });
        let subject = format!("{}: {phase} results for {power}", game.name);
        enqueue(tx, app, &reader, Some(game.id), Kind::Results, subject, &blocks).await?;
    }
    if let Some(reader) = gm(app, game, Kind::Gm).await? {
        let mut blocks = vec![Block::Para(format!("{phase} in {} has been processed.", game.name))];
        if missing.is_empty() {
            blocks.push(Block::Para("Every power with orders to give gave some.".into()));
        } else {
            blocks.push(Block::Para("Gave no orders by the deadline:".into()));
            blocks.push(Block::Lines(missing.to_vec()));
        }
        blocks.push(Block::Para("Supply centres:".into()));
        blocks.push(Block::Lines(counts));
        blocks.push(map);
        blocks.push(Block::Para(next));
        blocks.push(Block::Link {
            label: "The results".into(),
            url: history,
        });
        blocks.push(Block::Link {
            label: "The GM console".into(),
            url: format!("{}/gm", game_url(&app.mailer, game)),
        });
        let subject = match missing.len() {
            0 => format!("{}: {phase} processed", game.name),
            n => format!("{}: {phase} processed, {n} without orders", game.name),
        };
        enqueue(tx, app, &reader, Some(game.id), Kind::Gm, subject, &blocks).await?;
    }
    if let Some(w) = &result.winner {
        game_ended(tx, app, game, &GameOutcome::Victory(w.clone())).await?;
    }
    Ok(())
}

/// The deadline of the game's current phase passed without orders from `missing`: to
/// the GM, on its own (the "processed" mail follows), so that a quiet player is seen
/// and can be replaced before the next deadline. Called in the processing transaction,
/// with the game and its phase as they were before the phase was processed.
pub async fn missing_at_deadline(
    tx: &mut Tx,
    app: &App,
    game: &Game,
    phase: Phase,
    missing: &[String],
) -> ApiResult<()> {
    let Some(reader) = gm(app, game, Kind::Gm).await? else {
        return Ok(());
    };
    // What the engine did in their place (the rules' defaults for missing orders).
    let defaults = match phase.kind {
        PhaseKind::Movement => "their units held",
        PhaseKind::Retreat => "their dislodged units were disbanded",
        PhaseKind::Adjustment => "their builds were waived and their removals made by the rules",
    };
    let deadline = game
        .deadline_ms
        .map_or_else(String::new, |d| format!(" ({})", when(d, reader.zone)));
    let blocks = [
        Block::Para(format!(
            "The deadline of {phase} in {}{deadline} passed without orders from:",
            game.name
        )),
        Block::Lines(missing.to_vec()),
        Block::Para(format!(
            "The phase was processed without them: {defaults}. If a player has gone quiet, the GM console can give the power to a new player or declare it in civil disorder."
        )),
        Block::Link {
            label: "The GM console".into(),
            url: format!("{}/gm", game_url(&app.mailer, game)),
        },
    ];
    let subject = format!(
        "{}: no orders from {} at the {phase} deadline",
        game.name,
        missing.join(", ")
    );
    enqueue(tx, app, &reader, Some(game.id), Kind::Gm, subject, &blocks).await
}

/// The game has started: to each player, the power and the first deadline.
pub async fn game_started(tx: &mut Tx, app: &App, game: &Game, phase: &str, deadline_ms: i64) -> ApiResult<()> {
    for reader in players(app, game, Kind::Game).await? {
        let Some(power) = reader.power.as_deref() else { continue };
        let blocks = [
            Block::Para(format!("{} has started. You play {power}.", game.name)),
            Block::Para(format!(
                "The first phase, {phase}, is due at {}.",
                when(deadline_ms, reader.zone)
            )),
            Block::Link {
                label: "Your orders".into(),
                url: game_url(&app.mailer, game),
            },
        ];
        let subject = format!("{}: the game has started", game.name);
        enqueue_by(
            tx,
            app,
            &reader,
            Some(game.id),
            Kind::Game,
            subject,
            &blocks,
            Some(deadline_ms),
        )
        .await?;
    }
    Ok(())
}

/// The game is over (a victory, a draw or a concession): to each player and the GM.
pub async fn game_ended(tx: &mut Tx, app: &App, game: &Game, outcome: &GameOutcome) -> ApiResult<()> {
    let mut readers = players(app, game, Kind::Game).await?;
    readers.extend(gm(app, game, Kind::Gm).await?);
    for reader in readers {
        let blocks = [
            Block::Para(format!("{} is over: {outcome}.", game.name)),
            Block::Link {
                label: "The game and its history".into(),
                url: game_url(&app.mailer, game),
            },
        ];
        let kind = if reader.power.is_some() { Kind::Game } else { Kind::Gm };
        let subject = format!("{}: the game is over", game.name);
        enqueue(tx, app, &reader, Some(game.id), kind, subject, &blocks).await?;
    }
    Ok(())
}

/// The GM gave `power` to a new player (a replacement, or a seat left vacant by civil
/// disorder): the new player hears which power they play, the one replaced that they
/// play it no more, the others only that the power has a new player (never who: an
/// anonymous game hides it, and no mail needs it).
pub async fn power_taken(
    tx: &mut Tx,
    app: &App,
    game: &Game,
    power: &str,
    new_player: AccountId,
    old_player: Option<AccountId>,
) -> ApiResult<()> {
    let url = game_url(&app.mailer, game);
    to_account(
        tx,
        app,
        new_player,
        Some(game.id),
        Kind::Game,
        format!("{}: you play {power}", game.name),
        &[
            Block::Para(format!("The GM of {} has given you {power}.", game.name)),
            Block::Link {
                label: "Your orders".into(),
                url,
            },
        ],
    )
    .await?;
    let change = SeatChange {
        power,
        old_player,
        new_player: Some(new_player),
        given_to: "another player",
        subject: format!("{}: {power} has a new player", game.name),
        news: format!("{power} has a new player in {}.", game.name),
    };
    seat_changed(tx, app, game, change).await
}

/// The GM gave `power` to a bot: its old player (if it had one) hears the seat has
/// ended, the others that a bot plays it now, as they hear of a new player.
pub async fn bot_took(
    tx: &mut Tx,
    app: &App,
    game: &Game,
    power: &str,
    old_player: Option<AccountId>,
) -> ApiResult<()> {
    let change = SeatChange {
        power,
        old_player,
        new_player: None,
        given_to: "a bot",
        subject: format!("{}: a bot plays {power}", game.name),
        news: format!("A bot plays {power} in {} from now on.", game.name),
    };
    seat_changed(tx, app, game, change).await
}

/// A power's seat given to someone new, as the old player and the others hear of it.
struct SeatChange<'a> {
    power: &'a str,
    old_player: Option<AccountId>,
    /// Hears of it in a mail of its own.
    new_player: Option<AccountId>,
    /// "another player", "a bot".
    given_to: &'a str,
    subject: String,
    news: String,
}

async fn seat_changed(tx: &mut Tx, app: &App, game: &Game, c: SeatChange<'_>) -> ApiResult<()> {
    let url = game_url(&app.mailer, game);
    let power = c.power;
    if let Some(old) = c.old_player {
        to_account(
            tx,
            app,
            old,
            Some(game.id),
            Kind::Game,
            format!("{}: you no longer play {power}", game.name),
            &[Block::Para(format!(
                "The GM of {} has given {power} to {}. Thank you for playing.",
                game.name, c.given_to
            ))],
        )
        .await?;
    }
    for reader in players(app, game, Kind::Game).await? {
        if Some(reader.account_id) == c.old_player || Some(reader.account_id) == c.new_player {
            continue;
        }
        let blocks = [
            Block::Para(c.news.clone()),
            Block::Link {
                label: "The game".into(),
                url: url.clone(),
            },
        ];
        enqueue(tx, app, &reader, Some(game.id), Kind::Game, c.subject.clone(), &blocks).await?;
    }
    Ok(())
}

/// The GM declared `power` in civil disorder: its player hears the seat has ended, the
/// others what now happens to the power. `rules` says what does (holds until a new
/// player comes, or rule 11's minors).
pub async fn civil_disorder(tx: &mut Tx, app: &App, game: &Game, power: &str, rules: &str) -> ApiResult<()> {
    let url = game_url(&app.mailer, game);
    for reader in players(app, game, Kind::Game).await? {
        let own = reader.power.as_deref() == Some(power);
        let blocks = if own {
            vec![Block::Para(format!(
                "The GM of {} has declared {power} in civil disorder: you no longer play it.",
                game.name
            ))]
        } else {
            vec![
                Block::Para(format!("{power} is in civil disorder in {}: {rules}", game.name)),
                Block::Link {
                    label: "The game".into(),
                    url: url.clone(),
                },
            ]
        };
        let subject = format!("{}: {power} is in civil disorder", game.name);
        enqueue(tx, app, &reader, Some(game.id), Kind::Game, subject, &blocks).await?;
    }
    Ok(())
}

/// A player gave up a seat in a game still forming: to the GM.
pub async fn player_left(tx: &mut Tx, app: &App, game: &Game, power: &str) -> ApiResult<()> {
    if let Some(reader) = gm(app, game, Kind::Gm).await? {
        let blocks = [
            Block::Para(format!(
                "The player of {power} has left {}; the seat is free again.",
                game.name
            )),
            Block::Link {
                label: "The GM console".into(),
                url: format!("{}/gm", game_url(&app.mailer, game)),
            },
        ];
        let subject = format!("{}: the player of {power} left", game.name);
        enqueue(tx, app, &reader, Some(game.id), Kind::Gm, subject, &blocks).await?;
    }
    Ok(())
}

/// `A vie - bud: bounced (…reason…)`.
fn result_line(r: &chancery_engine::json::ResultJson) -> String {
    let what = match (&r.order, r.unit.is_empty()) {
        (Some(o), _) => o.clone(),
        (None, false) => format!("{} (no order)", r.unit),
        (None, true) => "(waived build)".into(),
    };
    let outcome = r.outcome.replace('_', " ");
    // A reason that only says the outcome again ("moved") is left out.
    if r.reason.is_empty() || r.reason.trim_end_matches('.').eq_ignore_ascii_case(&outcome) {
        format!("{what}: {outcome}")
    } else {
        format!("{what}: {outcome}. {}", r.reason)
    }
}

/// The centre counts after a phase, largest first: `England 5`.
pub fn centre_counts(result: &AdjudicationJson) -> Vec<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for owner in result.next.owners.values() {
        match counts.iter_mut().find(|(p, _)| p == owner) {
            Some((_, n)) => *n += 1,
            None => counts.push((owner.clone(), 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counts.into_iter().map(|(p, n)| format!("{p} {n}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_escaped_by_the_template() {
        let (text, html) = render(&[
            Block::Para("Fish & <chips>".into()),
            Block::Lines(vec!["A <x>".into(), "B \"y\"".into()]),
            Block::Link {
                label: "it's".into(),
                url: "https://club.example/a?b=1&c=2".into(),
            },
        ])
        .unwrap();
        assert!(text.contains("Fish & <chips>\n\n"), "{text}");
        assert!(
            html.contains(">Fish &#38; &#60;chips&#62;</p>") || html.contains(">Fish &amp; &lt;chips&gt;</p>"),
            "{html}"
        );
        assert!(!html.contains("<x>") && !html.contains("<chips>"), "{html}");
        assert!(html.contains("href=\"https://club.example/a?b=1&"), "{html}");
    }

    #[test]
    fn times_in_the_readers_zone_and_in_utc() {
        // 2026-01-11 19:00 UTC.
        let ms = 1_768_158_000_000;
        assert_eq!(when(ms, None), "Sun 11 Jan 2026 19:00 UTC");
        let berlin: Tz = "Europe/Berlin".parse().unwrap();
        assert_eq!(
            when(ms, Some(berlin)),
            "Sun 11 Jan 2026 20:00 Europe/Berlin (19:00 UTC)"
        );
        let auckland: Tz = "Pacific/Auckland".parse().unwrap();
        assert_eq!(
            when(ms, Some(auckland)),
            "Mon 12 Jan 2026 08:00 Pacific/Auckland (Sun 11 Jan 2026 19:00 UTC)"
        );
    }

    /// ms since 1970 of a UTC time.
    fn utc(y: i32, mo: u32, d: u32, h: u32) -> i64 {
        Utc.with_ymd_and_hms(y, mo, d, h, 0, 0).unwrap().timestamp_millis()
    }

    #[test]
    fn the_next_digest_is_at_its_hour_in_the_readers_zone_across_clock_changes() {
        let ny: Tz = "America/New_York".parse().unwrap();
        // 06:00 EDT on Saturday 31 Oct 2026: 07:00 EDT is 11:00 UTC.
        assert_eq!(next_digest_ms(utc(2026, 10, 31, 10), 7, ny), utc(2026, 10, 31, 11));
        // After that, Sunday's 07:00 is in EST (clocks went back at 02:00): 12:00 UTC.
        assert_eq!(next_digest_ms(utc(2026, 10, 31, 11), 7, ny), utc(2026, 11, 1, 12));
        // London skips 01:00 on 29 Mar 2026: the first moment after the gap, 02:00 BST.
        let london: Tz = "Europe/London".parse().unwrap();
        assert_eq!(next_digest_ms(utc(2026, 3, 29, 0), 1, london), utc(2026, 3, 29, 1));
        // 01:30 BST twice on 25 Oct 2026: 01:00 comes twice, the first is taken.
        assert_eq!(next_digest_ms(utc(2026, 10, 24, 23), 1, london), utc(2026, 10, 25, 0));
    }

    #[test]
    fn urgent_mail_is_not_held() {
        let mut reader = Reader {
            account_id: crate::model::AccountId(1),
            address: "a@b.example".into(),
            power: None,
            zone: None,
            digest_hour: None,
        };
        let now = utc(2026, 12, 2, 8);
        assert_eq!(hold_until(&reader, Kind::Results, None, now), None, "no digest chosen");
        reader.digest_hour = Some(7);
        let seven = utc(2026, 12, 3, 7);
        assert_eq!(hold_until(&reader, Kind::Results, None, now), Some(seven));
        assert_eq!(hold_until(&reader, Kind::Confirm, None, now), None);
        // A reminder whose deadline comes less than three hours after the digest goes now.
        assert_eq!(
            hold_until(&reader, Kind::Reminders, Some(seven + 2 * 3_600_000), now),
            None
        );
        assert_eq!(
            hold_until(&reader, Kind::Reminders, Some(seven + 12 * 3_600_000), now),
            Some(seven)
        );
    }

    #[test]
    fn forum_replies_are_off_unless_chosen() {
        assert!(!wanted(&[], Kind::Forum, None));
        let pref = |scope, kind, enabled| Pref { scope, kind, enabled };
        let three = crate::model::GameId(3);
        let game = Some(three);
        assert!(wanted(
            &[pref(MailScope::AllGames, Kind::Forum, true)],
            Kind::Forum,
            game
        ));
        assert!(wanted(&[], Kind::Results, game));
        assert!(!wanted(
            &[pref(MailScope::Game(three), Kind::Results, false)],
            Kind::Results,
            game
        ));
        // A game's own choice comes before the one for every game, and holds for it alone.
        let both = [
            pref(MailScope::AllGames, Kind::Results, false),
            pref(MailScope::Game(three), Kind::Results, true),
        ];
        assert!(wanted(&both, Kind::Results, game));
        assert!(!wanted(&both, Kind::Results, Some(crate::model::GameId(4))));
        assert!(!wanted(&both, Kind::Results, None));
    }
}
