//! Press on the game page: the messages the viewer may read, gathered into threads (to
//! everyone, from the GM, and one per set of counterparts), each with a reply form, and
//! a form to start a new conversation (`templates/press.html`).

use std::collections::BTreeMap;

use askama::Template;
use chancery_engine::{PowerId, Variant};

use super::layout::time_text;
use crate::auth::Account;
use crate::error::{ApiError, ApiResult};
use crate::limits::MAX_PRESS_CHARS;
use crate::model::{GameId, GameStatus, PressRule};
use crate::services::games::Role;
use crate::services::press::{self, PressMessage, GM};
use crate::store::games::Game;
use crate::App;

fn thread_title(key: &[String], role: &Role) -> String {
    match key.first().map(String::as_str) {
        Some("*all") => "To everyone".into(),
        Some("*gm") => "With the GM".into(),
        _ => {
            let names: Vec<&str> = key
                .iter()
                .map(|k| {
                    if k == "*grey" {
                        "someone unnamed (grey press)"
                    } else {
                        k.as_str()
                    }
                })
                .collect();
            match role {
                Role::Gm | Role::Player(_) => format!("With {}", names.join(", ")),
                _ => names.join(", "),
            }
        }
    }
}

/// The id of a thread's element on the game page.
pub(super) fn anchor(key: &[String]) -> String {
    let joined = key.join("-");
    let slug: String = joined
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("thread-{}", slug.trim_matches('-'))
}

/// Whom a reply in the thread `key` goes to (everyone when empty); `None` when the
/// viewer may not write to it.
fn reply_to(game: &Game, key: &[String], role: &Role) -> Option<Vec<String>> {
    let can_send = match role {
        Role::Gm => true,
        Role::Player(_) => game.status != GameStatus::Finished && game.press != PressRule::None,
        _ => false,
    };
    let public = key.first().map(String::as_str) == Some("*all");
    let with_gm = key.first().map(String::as_str) == Some("*gm");
    if with_gm && matches!(role, Role::Player(_)) && game.status != GameStatus::Finished {
        return Some(vec![GM.to_string()]);
    }
    if !can_send || key.iter().any(|k| k.starts_with('*')) && !public {
        return None;
    }
    if !public && game.press == PressRule::Public && !matches!(role, Role::Gm) {
        return None;
    }
    Some(if public { Vec::new() } else { key.to_vec() })
}

struct MessageView {
    own: bool,
    /// Not yet read by the viewer when the page was made.
    unread: bool,
    from: String,
    to: String,
    phase: String,
    sent: String,
    sent_text: String,
    body: String,
}

fn message_view(m: &PressMessage, role: &Role, unread: bool, zone: Option<chrono_tz::Tz>) -> MessageView {
    let from = match (&m.from, m.from_gm) {
        (_, true) => GM.to_string(),
        (Some(p), _) => p.clone(),
        (None, _) => "Unnamed (grey press)".to_string(),
    };
    MessageView {
        own: m.own(role),
        unread,
        from,
        to: if m.to.is_everyone() {
            "everyone".to_string()
        } else {
            m.to.powers().join(", ")
        },
        phase: m.phase.clone(),
        sent: m.sent.clone(),
        sent_text: time_text(&m.sent, zone),
        body: m.body.clone(),
    }
}

struct Thread {
    anchor: String,
    key: String,
    /// The newest message's time: the page marks the thread read up to it when opened.
    last_ms: Option<i64>,
    /// Messages from others the viewer has not read (the server's read marks).
    unread: usize,
    open: bool,
    title: String,
    messages: Vec<MessageView>,
    reply: Option<Vec<String>>,
}

/// The form to write to any set of powers (or, in public-only games, to everyone).
enum NewForm {
    Nothing,
    Over,
    Form {
        legend: &'static str,
        boxes: Vec<String>,
        grey: bool,
    },
}

fn new_form(game: &Game, role: &Role, v: &Variant) -> NewForm {
    let me = match role {
        Role::Player(p) => Some(p.as_str()),
        Role::Gm => None,
        _ => return NewForm::Nothing,
    };
    if me.is_some() && game.status == GameStatus::Finished {
        return NewForm::Over;
    }
    let mut boxes = Vec::new();
    if me.is_some() {
        boxes.push(GM.to_string());
    }
    let gunboat = game.press == PressRule::None && me.is_some();
    let legend = if gunboat {
        "No press between players in this game: write to the GM"
    } else {
        "New message — to those ticked, or to everyone when none is"
    };
    // In a game without press, only the GM may be written to.
    if !gunboat && (game.press != PressRule::Public || me.is_none()) {
        boxes.extend(
            v.powers
                .iter()
                .enumerate()
                .filter(|&(i, p)| !v.is_minor(i as PowerId) && Some(p.name.as_str()) != me)
                .map(|(_, p)| p.name.clone()),
        );
    }
    NewForm::Form {
        legend,
        boxes,
        grey: game.grey_press && me.is_some(),
    }
}

#[derive(Template)]
#[template(path = "press.html")]
struct PressSection {
    game: GameId,
    threads: Vec<Thread>,
    /// Some thread has messages the viewer has not read: offer to mark them all read.
    any_unread: bool,
    new_form: NewForm,
    max_chars: usize,
}

/// The game page's press section, as HTML.
pub async fn section(app: &App, game: &Game, role: &Role, viewer: Option<&Account>, v: &Variant) -> ApiResult<String> {
    // The whole of the press the viewer may read, not a page of it.
    let messages = press::read_all(app, game.id, role, i64::MIN).await?;
    // Read marks for a member; a visitor keeps none, and sees nothing marked new.
    let marks = match (viewer, role) {
        (Some(account), Role::Player(_) | Role::Gm | Role::Observer) => {
            Some(press::read_marks(app, account, game.id).await?)
        }
        _ => None,
    };
    let mut threads: BTreeMap<Vec<String>, Vec<&PressMessage>> = BTreeMap::new();
    threads.insert(vec!["*all".into()], Vec::new());
    for m in &messages {
        threads.entry(press::thread_of(m, role)).or_default().push(m);
    }
    let threads: Vec<Thread> = threads
        .iter()
        .map(|(key, messages)| Thread {
            anchor: anchor(key),
            key: press::thread_name(key),
            last_ms: messages.last().map(|m| m.sent_ms),
            unread: marks
                .as_ref()
                .map_or(0, |r| messages.iter().filter(|m| !r.read(m, role)).count()),
            open: key[0] == "*all",
            title: thread_title(key, role),
            messages: messages
                .iter()
                .map(|m| {
                    let unread = marks.as_ref().is_some_and(|r| !r.read(m, role));
                    message_view(m, role, unread, viewer.and_then(|a| a.zone))
                })
                .collect(),
            reply: reply_to(game, key, role),
        })
        .collect();
    let section = PressSection {
        game: game.id,
        any_unread: threads.iter().any(|t| t.unread > 0),
        threads,
        new_form: new_form(game, role, v),
        max_chars: MAX_PRESS_CHARS,
    };
    section.render().map_err(|e| {
        ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("the press could not be drawn: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_plain_ids() {
        assert_eq!(
            anchor(&["Soviet Union".into(), "Turkey".into()]),
            "thread-soviet-union-turkey"
        );
    }
}
