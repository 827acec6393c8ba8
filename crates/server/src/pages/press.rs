//! Press on the game page: the messages the viewer may read, gathered into threads (to
//! everyone, from the GM, and one per set of counterparts), each with a reply form, and
//! a form to start a new conversation (`templates/press.html`).

use std::collections::BTreeMap;

use askama::Template;
use chancery_engine::{PowerId, Variant};

use super::layout::utc_text;
use crate::auth::Account;
use crate::error::{ApiError, ApiResult};
use crate::limits::MAX_PRESS_CHARS;
use crate::model::GameStatus;
use crate::services::games::Role;
use crate::services::press::{self, PressMessage, PressQuery, GM};
use crate::store::games::Game;
use crate::App;

/// Where a message belongs, seen from `role`: `all`, `gm`, or the sorted names of the
/// viewer's counterparts.
fn thread_key(m: &PressMessage, role: &Role) -> Vec<String> {
    if m.to.is_everyone() {
        return vec!["*all".into()];
    }
    let to = m.to.powers().to_vec();
    let from = m.from.clone();
    let mut parties: Vec<String> = match role {
        Role::Player(me) => {
            // The GM's messages to the player and the player's to the GM alone are one
            // conversation.
            if m.from_gm || to == [GM] {
                return vec!["*gm".into()];
            }
            let mut p: Vec<String> = to.into_iter().chain(from.clone()).filter(|p| p != me).collect();
            if from.is_none() {
                p.push("*grey".into());
            }
            p
        }
        // The GM's own messages go in the thread of their recipients; the rest are
        // conversations between players.
        _ => to.into_iter().filter(|t| t != GM).chain(from).collect(),
    };
    parties.sort();
    parties.dedup();
    parties
}

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

fn anchor(key: &[String]) -> String {
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
        Role::Player(_) => game.status != GameStatus::Finished && game.press != "none",
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
    if !public && game.press == "public" && !matches!(role, Role::Gm) {
        return None;
    }
    Some(if public { Vec::new() } else { key.to_vec() })
}

struct MessageView {
    own: bool,
    from: String,
    to: String,
    phase: String,
    sent: String,
    sent_text: String,
    body: String,
}

fn message_view(m: &PressMessage, role: &Role) -> MessageView {
    let from = match (&m.from, m.from_gm) {
        (_, true) => GM.to_string(),
        (Some(p), _) => p.clone(),
        (None, _) => "Unnamed (grey press)".to_string(),
    };
    MessageView {
        own: m.own(role),
        from,
        to: if m.to.is_everyone() {
            "everyone".to_string()
        } else {
            m.to.powers().join(", ")
        },
        phase: m.phase.clone(),
        sent: m.sent.clone(),
        sent_text: utc_text(&m.sent),
        body: m.body.clone(),
    }
}

struct Thread {
    anchor: String,
    key: String,
    /// The newest message's id, for the page's "new" badge.
    last: String,
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
    let gunboat = game.press == "none" && me.is_some();
    let legend = if gunboat {
        "No press between players in this game: write to the GM"
    } else {
        "New message — to those ticked, or to everyone when none is"
    };
    // In a game without press, only the GM may be written to.
    if !gunboat && (game.press != "public" || me.is_none()) {
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
    game: i64,
    threads: Vec<Thread>,
    new_form: NewForm,
    max_chars: usize,
}

/// The game page's press section, as HTML.
pub async fn section(app: &App, game: &Game, role: &Role, viewer: Option<&Account>, v: &Variant) -> ApiResult<String> {
    let read = press::read(app, viewer, game.id, &PressQuery::default()).await?;
    let mut threads: BTreeMap<Vec<String>, Vec<&PressMessage>> = BTreeMap::new();
    threads.insert(vec!["*all".into()], Vec::new());
    for m in &read.messages {
        threads.entry(thread_key(m, role)).or_default().push(m);
    }
    let section = PressSection {
        game: game.id,
        threads: threads
            .iter()
            .map(|(key, messages)| Thread {
                anchor: anchor(key),
                key: key.join(","),
                last: messages.last().map(|m| m.id.to_string()).unwrap_or_default(),
                open: key[0] == "*all",
                title: thread_title(key, role),
                messages: messages.iter().map(|m| message_view(m, role)).collect(),
                reply: reply_to(game, key, role),
            })
            .collect(),
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
    use crate::services::press::{Everyone, Recipients};

    fn message(from: Option<&str>, from_gm: bool, to: &[&str]) -> PressMessage {
        PressMessage {
            id: 1,
            phase: "S1901M".into(),
            from: from.map(str::to_string),
            from_gm,
            grey: from.is_none() && !from_gm,
            to: if to.is_empty() {
                Recipients::Everyone(Everyone::All)
            } else {
                Recipients::Powers(to.iter().map(|s| s.to_string()).collect())
            },
            body: String::new(),
            sent: String::new(),
            sent_ms: 0,
            account: None,
        }
    }

    #[test]
    fn threads_are_per_counterpart_seen_from_the_player() {
        let me = Role::Player("France".into());
        let sent = message(Some("France"), false, &["Italy", "Germany"]);
        let got = message(Some("Italy"), false, &["France", "Germany"]);
        assert_eq!(thread_key(&sent, &me), vec!["Germany", "Italy"]);
        assert_eq!(thread_key(&got, &me), thread_key(&sent, &me));
        assert_eq!(thread_key(&message(None, true, &["France"]), &me), vec!["*gm"]);
        // A player's note to the GM joins the GM's messages to that player, on both sides.
        let to_gm = message(Some("France"), false, &["GM"]);
        assert_eq!(thread_key(&to_gm, &me), vec!["*gm"]);
        assert_eq!(thread_key(&to_gm, &Role::Gm), vec!["France"]);
        assert_eq!(thread_key(&message(None, true, &["France"]), &Role::Gm), vec!["France"]);
        assert_eq!(thread_key(&message(Some("Italy"), false, &[]), &me), vec!["*all"]);
    }

    #[test]
    fn grey_press_has_its_own_thread() {
        let me = Role::Player("France".into());
        assert_eq!(thread_key(&message(None, false, &["France"]), &me), vec!["*grey"]);
    }

    #[test]
    fn anchors_are_plain_ids() {
        assert_eq!(
            anchor(&["Soviet Union".into(), "Turkey".into()]),
            "thread-soviet-union-turkey"
        );
    }
}
