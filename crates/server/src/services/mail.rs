//! What the club mails, to whom, and each account's address and preferences.
//!
//! Every mail is composed when its event happens, inside the event's transaction, from
//! what its reader may see on the pages at that moment: a player's results mail holds
//! that player's own orders and results (the others' are on the history page for all to
//! read once processed, but a mail stays with what concerns its reader), never a bid,
//! never an anonymous game's account names. The sender ([`crate::mailer`]) adds the
//! reader's unsubscribe link and headers when it sends.
//!
//! A body is written once as [`Block`]s and given as plain text and as HTML from them,
//! so that the two parts say the same.

use crate::db::{new_id, Tx};
use crate::error::ApiResult;
use crate::mailer::{escape, Mailer};
use crate::store::games::Game;
use crate::store::{self, mail::NewMail};
use crate::App;
use chancery_engine::json::AdjudicationJson;

/// The kinds of mail, each turned on or off per account (and per game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The confirmation link of a new address; always sent.
    Confirm,
    /// The results of each processed phase.
    Results,
    /// Reminders before a deadline, when the reader's power still has orders to give.
    Reminders,
    /// New press and GM announcements, batched.
    Press,
    /// A game's start and end, replacements and civil disorder.
    Game,
    /// To the GM: phases processed, orders missing at the deadline, players leaving.
    Gm,
}

impl Kind {
    /// The kinds a reader may choose.
    pub const CHOSEN: [Kind; 5] = [Kind::Results, Kind::Reminders, Kind::Press, Kind::Game, Kind::Gm];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Confirm => "confirm",
            Kind::Results => "results",
            Kind::Reminders => "reminders",
            Kind::Press => "press",
            Kind::Game => "game",
            Kind::Gm => "gm",
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
            Kind::Press => "press and GM announcements",
            Kind::Game => "game start, end, replacements and civil disorder",
            Kind::Gm => "as GM: phases processed, missing orders, players leaving",
        }
    }
}

/// A piece of a mail's body.
pub enum Block {
    Para(String),
    /// Lines kept as they are (orders, centre counts).
    Lines(Vec<String>),
    Link {
        label: String,
        url: String,
    },
}

/// The plain-text and HTML parts of a body.
pub fn render(blocks: &[Block]) -> (String, String) {
    let mut text = String::new();
    let mut html = String::from("<div style=\"font-family:sans-serif\">");
    for b in blocks {
        match b {
            Block::Para(p) => {
                text.push_str(p);
                text.push_str("\n\n");
                html.push_str(&format!("<p>{}</p>", escape(p)));
            }
            Block::Lines(lines) => {
                for l in lines {
                    text.push_str("  ");
                    text.push_str(l);
                    text.push('\n');
                }
                text.push('\n');
                html.push_str("<pre>");
                html.push_str(&escape(&lines.join("\n")));
                html.push_str("</pre>");
            }
            Block::Link { label, url } => {
                text.push_str(&format!("{label}: {url}\n\n"));
                html.push_str(&format!("<p><a href=\"{}\">{}</a></p>", escape(url), escape(label)));
            }
        }
    }
    html.push_str("</div>");
    (text, html)
}

/// Whether the account wants `kind` for `game`: its choice for the game, else its
/// choice for all games, else on.
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
    game.and_then(choice).or_else(|| choice(0)).unwrap_or(true)
}

/// A reader of a game's mail.
pub struct Reader {
    pub account_id: i64,
    pub address: String,
    /// The power the reader plays; None for the GM.
    pub power: Option<String>,
}

/// The game's players with a confirmed, working address who want `kind` for it.
pub async fn players(app: &App, game: &Game, kind: Kind) -> ApiResult<Vec<Reader>> {
    let db = &app.db.read;
    let mut out = Vec::new();
    for (account, power, address) in store::mail::players_with_address(db, game.id).await? {
        let prefs = store::mail::prefs(db, account).await?;
        if wanted(&prefs, kind, Some(game.id)) {
            out.push(Reader {
                account_id: account,
                address,
                power: Some(power),
            });
        }
    }
    Ok(out)
}

/// The game's GM, when the GM has a working address and wants `kind`.
pub async fn gm(app: &App, game: &Game, kind: Kind) -> ApiResult<Option<Reader>> {
    let db = &app.db.read;
    let Some(a) = store::mail::address(db, game.gm_id).await? else {
        return Ok(None);
    };
    if !a.confirmed || a.bounced.is_some() {
        return Ok(None);
    }
    let prefs = store::mail::prefs(db, game.gm_id).await?;
    Ok(wanted(&prefs, kind, Some(game.id)).then_some(Reader {
        account_id: game.gm_id,
        address: a.address,
        power: None,
    }))
}

/// Writes one mail to the outbox inside `tx`.
pub async fn enqueue(
    tx: &mut Tx,
    app: &App,
    reader: &Reader,
    game: Option<i64>,
    kind: Kind,
    subject: String,
    blocks: &[Block],
) -> ApiResult<()> {
    let now = app.clock.now_ms();
    let id = new_id();
    let (text_body, html_body) = render(blocks);
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
    };
    store::mail::enqueue(&mut **tx, &mail).await?;
    Ok(())
}

fn game_url(m: &Mailer, game: &Game) -> String {
    format!("{}/games/{}", m.base_url, game.id)
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
    let v = game.variant(app).await?;
    let phase = game.state(&v)?.phase.to_string();
    let history = format!("{}/games/{}/history/{}", app.mailer.base_url, game.id, game.seq);
    let counts = centre_counts(result);
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
    Ok(())
}

/// The game has started: to each player, the power and the first deadline (in UTC).
pub async fn game_started(tx: &mut Tx, app: &App, game: &Game, phase: &str, deadline_ms: i64) -> ApiResult<()> {
    let deadline = crate::clock::iso_utc(deadline_ms);
    for reader in players(app, game, Kind::Game).await? {
        let Some(power) = reader.power.as_deref() else { continue };
        let blocks = [
            Block::Para(format!("{} has started. You play {power}.", game.name)),
            Block::Para(format!("The first phase, {phase}, is due at {deadline} (UTC).")),
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

/// `A vie - bud: bounced (…reason…)`.
fn result_line(r: &chancery_engine::json::ResultJson) -> String {
    let what = match (&r.order, r.unit.is_empty()) {
        (Some(o), _) => o.clone(),
        (None, false) => format!("{} (no order)", r.unit),
        (None, true) => "(waived build)".into(),
    };
    let outcome = r.outcome.replace('_', " ");
    if r.reason.is_empty() {
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
