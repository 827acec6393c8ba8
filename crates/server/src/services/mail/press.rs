//! New press by mail, batched: a reader gets at most one mail per game per
//! [`BATCH_MS`], with every private message to the reader's power (or, for the GM, to
//! the GM) and every GM announcement sent since the last one. Public press from the
//! players stays on the page: it is for everyone, and a mail of every public message
//! would bury the ones meant for the reader alone.
//!
//! Sending press marks the game (`mail_press_pending`, in the message's own
//! transaction); a pass of [`super::jobs`] then looks at the marked games. Each
//! reader's `mail_press_marks` row says up to which message time it has been mailed and
//! when; it is moved on in the transaction that writes the mail, and only from the
//! value the pass read, so that two servers never mail the same messages twice.
//!
//! A mail holds only what its reader may read on the game page at that moment: the
//! messages are chosen by the same query the page uses (`store::press::readable`), a
//! grey message's sender stays hidden (only the GM may unmask it), and no account is
//! ever named.

use crate::error::ApiResult;
use crate::services::mail::{self, Block, Kind, Reader};
use crate::services::press::GM;
use crate::store;
use crate::store::press::{MessageRow, Readable, Recipients};
use crate::App;

/// At most one press mail per game per reader in this time.
pub const BATCH_MS: i64 = 15 * 60_000;
/// The most messages one mail quotes; the rest are on the page.
const MOST_QUOTED: usize = 50;

/// Whether a message belongs in the reader's press mail.
fn mailed_to(m: &MessageRow, reader_power: Option<&str>) -> bool {
    let (powers, to_gm): (&[String], bool) = match &m.recipients {
        Recipients::Everyone => (&[], false),
        Recipients::Private { powers, gm } => (powers, *gm),
    };
    match reader_power {
        // A player: announcements and private messages to the power, not its own.
        Some(p) => {
            let own = !m.from_gm && m.sender_power.as_deref() == Some(p);
            !own && (m.from_gm || powers.iter().any(|r| r == p))
        }
        // The GM: private messages to the GM.
        None => !m.from_gm && to_gm,
    }
}

/// Who a message is from, as its reader may know it.
fn sender(m: &MessageRow, reader_is_gm: bool) -> String {
    match (&m.sender_power, m.from_gm, m.grey) {
        (_, true, _) => "The GM".into(),
        (Some(p), false, true) if reader_is_gm => format!("{p} (grey press)"),
        (_, false, true) => "Someone (grey press)".into(),
        (Some(p), false, false) => p.clone(),
        (None, false, false) => "Someone".into(),
    }
}

/// One pass over the games with new press: returns how many mails were written.
pub async fn send_due(app: &App) -> ApiResult<usize> {
    let pending = store::mail::press_pending(&app.db.read).await?;
    // The time is read after the marks: a message committed before the marks were read
    // is then no newer than `now`. Read before, a message sent in between was counted in
    // the mark (so `press_done` cleared it) but left out of every reader's messages as
    // too new, and was never mailed.
    let now = app.clock.now_ms();
    let mut written = 0;
    for store::mail::PressPending {
        game_id,
        first_ms,
        touches: touched_ms,
    } in pending
    {
        let game = match store::games::by_id(&app.db.read, game_id).await? {
            Some(g) => g,
            None => continue,
        };
        let mut readers = mail::players(app, &game, Kind::Press).await?;
        readers.extend(mail::gm(app, &game, Kind::Press).await?);
        let mut waiting = false;
        for reader in readers {
            match mail_reader(app, &game, &reader, first_ms, now).await? {
                Outcome::Mailed => written += 1,
                Outcome::Waiting => waiting = true,
                Outcome::Nothing => {}
            }
        }
        if !waiting {
            // Only if no message came while this pass ran (it would have moved
            // `touched_ms`).
            store::mail::press_done(&app.db.write, game_id, touched_ms).await?;
        }
    }
    if written > 0 {
        app.mail_wake.notify_one();
    }
    Ok(written)
}

enum Outcome {
    Mailed,
    /// New messages, but the reader had a press mail less than a batch ago.
    Waiting,
    Nothing,
}

async fn mail_reader(
    app: &App,
    game: &crate::store::games::Game,
    reader: &Reader,
    first_ms: i64,
    now: i64,
) -> ApiResult<Outcome> {
    let mark = store::mail::press_mark(&app.db.read, reader.account_id, game.id).await?;
    // A reader never mailed about this game's press starts from the first message that
    // marked it, not from the beginning of the game.
    let (upto, mailed) = mark.map_or((first_ms - 1, i64::MIN), |m| (m.upto_ms, m.mailed_ms));
    let who = match reader.power.as_deref() {
        Some(p) => Readable::Power(p),
        None => Readable::All,
    };
    let messages: Vec<MessageRow> = store::press::readable(
        &app.db.read,
        game.id,
        &who,
        upto + 1,
        (now + 1, crate::model::MessageId(i64::MIN)),
        1000,
    )
    .await?
    .into_iter()
    .filter(|m| mailed_to(m, reader.power.as_deref()))
    .collect();
    if messages.is_empty() {
        return Ok(Outcome::Nothing);
    }
    if mailed.saturating_add(BATCH_MS) > now {
        return Ok(Outcome::Waiting);
    }
    let newest = messages.iter().map(|m| m.sent_ms).max().unwrap_or(upto);
    let mut tx = app.db.write.begin().await?;
    if !store::mail::move_press_mark(&mut *tx, reader.account_id, game.id, mark, newest, now).await? {
        // Another server mailed them.
        return Ok(Outcome::Nothing);
    }
    let gm = reader.power.is_none();
    let mut blocks = vec![Block::Para(match messages.len() {
        1 => format!("A new message in {}:", game.name),
        n => format!("{n} new messages in {}:", game.name),
    })];
    // `readable` gives the newest first; a mail reads oldest first.
    for m in messages
        .iter()
        .rev()
        .take(MOST_QUOTED)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
    {
        let to = match &m.recipients {
            Recipients::Everyone => "everyone".to_string(),
            Recipients::Private { powers, gm } => {
                let gm = gm.then_some(GM);
                powers
                    .iter()
                    .map(String::as_str)
                    .chain(gm)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        blocks.push(Block::Para(format!(
            "{} to {to}, {} ({}):",
            sender(m, gm),
            mail::when(m.sent_ms, reader.zone),
            m.phase
        )));
        blocks.push(Block::Lines(m.body.lines().map(str::to_string).collect()));
    }
    if messages.len() > MOST_QUOTED {
        blocks.push(Block::Para(format!(
            "{} older messages are on the game's page.",
            messages.len() - MOST_QUOTED
        )));
    }
    blocks.push(Block::Link {
        label: "Read and answer".into(),
        url: format!("{}/games/{}", app.mailer.base_url, game.id),
    });
    let subject = match messages.len() {
        1 => format!("{}: a new message", game.name),
        n => format!("{}: {n} new messages", game.name),
    };
    mail::enqueue(&mut tx, app, reader, Some(game.id), Kind::Press, subject, &blocks).await?;
    tx.commit().await?;
    Ok(Outcome::Mailed)
}
