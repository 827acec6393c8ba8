//! What the club mails, to whom, and each account's address and preferences.
//!
//! Every mail is composed when its event happens, inside the event's transaction, from
//! what its reader may see on the pages at that moment: a player's results mail holds
//! that player's own orders and results (the others' are on the history page for all to
//! read once processed, but a mail's words stay with what concerns its reader; its map
//! is the history page's picture, every order drawn), never a bid,
//! never an account's name (an anonymous game hides them, and no mail needs one). The
//! sender ([`crate::mailer`]) adds the reader's unsubscribe link and headers when it
//! sends.
//!
//! A body is written once as [`Block`]s and given as plain text and as HTML (an askama
//! template, so that nothing is escaped by hand) from them, so that the two parts say
//! the same.
//!
//! Other modules mail through [`to_account`] (one account) or the functions here that
//! name an event; with no transport configured nothing is written at all (see
//! [`enqueue`]).

use askama::Template;
use chrono_tz::Tz;

use crate::db::{new_id, Tx};
use crate::error::{ApiError, ApiResult};
use crate::mailer::Mailer;
use crate::store::games::Game;
use crate::store::{self, mail::NewMail};
use crate::App;
use chancery_engine::json::AdjudicationJson;
use chancery_engine::PhaseKind;

/// The kinds of mail, each turned on or off per account (and per game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The confirmation link of a new address; always sent.
    Confirm,
    /// The results of each processed phase.
    Results,
    /// Reminders before a deadline, when the reader's power still has orders to give.
    Reminders,
    /// New private press and GM announcements, batched.
    Press,
    /// A game's start and end, replacements and civil disorder.
    Game,
    /// To the GM: phases processed (with the powers that gave no orders by the
    /// deadline), players leaving.
    Gm,
    /// Replies to the reader's topics on the club's message board; off unless chosen.
    Board,
}

impl Kind {
    /// The kinds a reader may choose: every kind the club sends, and only those.
    pub const CHOSEN: [Kind; 6] = [
        Kind::Results,
        Kind::Reminders,
        Kind::Press,
        Kind::Game,
        Kind::Gm,
        Kind::Board,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Confirm => "confirm",
            Kind::Results => "results",
            Kind::Reminders => "reminders",
            Kind::Press => "press",
            Kind::Game => "game",
            Kind::Gm => "gm",
            Kind::Board => "board",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::CHOSEN.into_iter().find(|k| k.as_str() == s)
    }

    /// What the account page calls it.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Confirm => "address confirmation",
            Kind::Results => "results of each phase",
            Kind::Reminders => "deadline reminders",
            Kind::Press => "private press and GM announcements",
            Kind::Game => "game start, end, replacements and civil disorder",
            Kind::Gm => "as GM: phases processed, missing orders, players leaving",
            Kind::Board => "replies in the board's topics you follow (your own topics, unless you unfollow them)",
        }
    }

    /// Whether the kind is sent to an account that has not chosen: everything about the
    /// games one plays or runs is; board replies are not, as a forum's are not.
    pub fn on_by_default(self) -> bool {
        !matches!(self, Kind::Board)
    }
}

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
    /// ([`crate::mailer`]), shown in the HTML part by its `Content-ID`.
    Map {
        game: i64,
        seq: i64,
        cid: String,
        alt: String,
    },
}

/// The phases whose maps `blocks` show, as the outbox stores them (`GAME:SEQ …`).
fn maps_of(blocks: &[Block]) -> Option<String> {
    let maps: Vec<String> = blocks
        .iter()
        .filter_map(|b| match b {
            Block::Map { game, seq, .. } => Some(format!("{game}:{seq}")),
            _ => None,
        })
        .collect();
    (!maps.is_empty()).then(|| maps.join(" "))
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
pub fn wanted(prefs: &[(i64, String, bool)], kind: Kind, game: Option<i64>) -> bool {
    if kind == Kind::Confirm {
        return true;
    }
    let choice = |g: i64| {
        prefs
            .iter()
            .find(|(pg, k, _)| *pg == g && k == kind.as_str())
            .map(|p| p.2)
    };
    game.and_then(choice)
        .or_else(|| choice(0))
        .unwrap_or(kind.on_by_default())
}

/// A reader of a game's mail.
pub struct Reader {
    pub account_id: i64,
    pub address: String,
    /// The power the reader plays; None for the GM and for mail about no game.
    pub power: Option<String>,
    /// The account's time zone, in which times are given beside UTC; None for UTC.
    pub zone: Option<Tz>,
}

/// A stored zone name; UTC (None) when there is none or it no longer reads.
fn zone_of(name: Option<&str>) -> Option<Tz> {
    name.and_then(|n| n.parse().ok())
}

/// The account as a reader of `kind` (about `game`): when it has a confirmed address
/// that has not bounced and wants the kind.
pub async fn reader(app: &App, account: i64, game: Option<i64>, kind: Kind) -> ApiResult<Option<Reader>> {
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
    }))
}

/// The game's players with a confirmed, working address who want `kind` for it.
pub async fn players(app: &App, game: &Game, kind: Kind) -> ApiResult<Vec<Reader>> {
    let db = &app.db.read;
    let mut out = Vec::new();
    for (account, power, address, zone) in store::mail::players_with_address(db, game.id).await? {
        let prefs = store::mail::prefs(db, account).await?;
        if wanted(&prefs, kind, Some(game.id)) {
            out.push(Reader {
                account_id: account,
                address,
                power: Some(power),
                zone: zone_of(zone.as_deref()),
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
/// than a game's events (the message board's replies).
pub async fn to_account(
    tx: &mut Tx,
    app: &App,
    account: i64,
    game: Option<i64>,
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

/// Writes one mail to the outbox inside `tx`. With no transport configured
/// (neither `--smtp` nor `--mail-dir`) nothing is written: a mail that can never be
/// sent would only pile up, and a transport configured later should not deliver a
/// backlog of stale results and reminders.
pub async fn enqueue(
    tx: &mut Tx,
    app: &App,
    reader: &Reader,
    game: Option<i64>,
    kind: Kind,
    subject: String,
    blocks: &[Block],
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
        kind: kind.as_str().to_string(),
        subject,
        text_body,
        html_body,
        message_id: format!("<{id}.{}@{}>", kind.as_str(), app.mailer.domain),
        created_ms: now,
        due_ms: now,
        maps: maps_of(blocks),
    };
    store::mail::enqueue(&mut **tx, &mail).await?;
    Ok(())
}

fn game_url(m: &Mailer, game: &Game) -> String {
    format!("{}/games/{}", m.base_url, game.id)
}

/// A moment as a mail gives it: in the reader's zone when it has one, and always in
/// UTC: `Tue 8 Dec 2026 20:00 Europe/Berlin (19:00 UTC)`.
pub fn when(ms: i64, zone: Option<Tz>) -> String {
    use chrono::{TimeZone, Utc};
    let Some(t) = Utc.timestamp_millis_opt(ms).single() else {
        return crate::clock::iso_utc(ms);
    };
    let utc = t.format("%a %-d %b %Y %H:%M UTC").to_string();
    match zone {
        Some(z) if z != chrono_tz::UTC => {
            let local = t.with_timezone(&z);
            let same_day = local.date_naive() == t.date_naive();
            let utc_short = if same_day {
                t.format("%H:%M UTC").to_string()
            } else {
                utc
            };
            format!("{} {} ({utc_short})", local.format("%a %-d %b %Y %H:%M"), z.name())
        }
        _ => utc,
    }
}

/// The results of a processed phase: to each player, their own orders with outcomes and
/// reasons, the centre counts and the links; to the GM, that the phase was processed
/// and who gave no orders. Called inside the processing transaction, with the game as
/// it was before the phase was processed.
pub async fn phase_processed(
    tx: &mut Tx,
    app: &App,
    game: &Game,
    result: &AdjudicationJson,
    missing: &[String],
) -> ApiResult<()> {
    if !app.mailer.sends() {
        return Ok(());
    }
    let v = game.variant(app).await?;
    let phase = game.state(&v)?.phase.to_string();
    let history = format!("{}/games/{}/history/{}", app.mailer.base_url, game.id, game.seq);
    let counts = centre_counts(result);
    // The history page's picture of the phase: every order with its result, as every
    // reader may see it there once the phase is processed.
    let map = Block::Map {
        game: game.id,
        seq: game.seq,
        cid: super::mail_map::map_cid(&app.mailer.domain, game.id, game.seq),
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
        game_ended(tx, app, game, &format!("victory: {w}")).await?;
    }
    Ok(())
}

/// The deadline of the game's current phase passed without orders from `missing`: to
/// the GM, on its own (the "processed" mail follows), so that a quiet player is seen
/// and can be replaced before the next deadline. Called in the processing transaction,
/// with the game as it was before the phase was processed.
pub async fn missing_at_deadline(tx: &mut Tx, app: &App, game: &Game, missing: &[String]) -> ApiResult<()> {
    let Some(reader) = gm(app, game, Kind::Gm).await? else {
        return Ok(());
    };
    let v = game.variant(app).await?;
    let state = game.state(&v)?;
    let phase = state.phase.to_string();
    // What the engine did in their place (the rules' defaults for missing orders).
    let defaults = match state.phase.kind {
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
        enqueue(tx, app, &reader, Some(game.id), Kind::Game, subject, &blocks).await?;
    }
    Ok(())
}

/// The game is over (a victory, a draw or a concession): to each player and the GM.
pub async fn game_ended(tx: &mut Tx, app: &App, game: &Game, outcome: &str) -> ApiResult<()> {
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
    new_player: i64,
    old_player: Option<i64>,
) -> ApiResult<()> {
    let url = game_url(&app.mailer, game);
    let subject = format!("{}: {power} has a new player", game.name);
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
                url: url.clone(),
            },
        ],
    )
    .await?;
    if let Some(old) = old_player {
        to_account(
            tx,
            app,
            old,
            Some(game.id),
            Kind::Game,
            format!("{}: you no longer play {power}", game.name),
            &[Block::Para(format!(
                "The GM of {} has given {power} to another player. Thank you for playing.",
                game.name
            ))],
        )
        .await?;
    }
    for reader in players(app, game, Kind::Game).await? {
        if Some(reader.account_id) == old_player || reader.account_id == new_player {
            continue;
        }
        let blocks = [
            Block::Para(format!("{power} has a new player in {}.", game.name)),
            Block::Link {
                label: "The game".into(),
                url: url.clone(),
            },
        ];
        enqueue(tx, app, &reader, Some(game.id), Kind::Game, subject.clone(), &blocks).await?;
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

    #[test]
    fn board_replies_are_off_unless_chosen() {
        assert!(!wanted(&[], Kind::Board, None));
        assert!(wanted(&[(0, "board".into(), true)], Kind::Board, Some(3)));
        assert!(wanted(&[], Kind::Results, Some(3)));
        assert!(!wanted(&[(3, "results".into(), false)], Kind::Results, Some(3)));
    }
}
