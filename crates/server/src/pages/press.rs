//! Press on the game page: the messages the viewer may read, gathered into threads (to
//! everyone, from the GM, and one per set of counterparts), each with a reply form, and
//! a form to start a new conversation.

use std::collections::BTreeMap;
use std::fmt::Write;

use axum::extract::State;
use axum::Json;
use chancery_engine::variant::PowerKind;
use chancery_engine::Variant;
use serde_json::Value;

use super::layout::{esc, utc_text};
use crate::auth::{Account, Viewer};
use crate::error::{ApiResult, Params, Path};
use crate::model::GameStatus;
use crate::services::games::Role;
use crate::store::games::Game;
use crate::App;

/// Where a message belongs, seen from `role`: `all`, `gm`, or the sorted names of the
/// viewer's counterparts.
fn thread_key(m: &Value, role: &Role) -> Vec<String> {
    if m["to"] == "all" {
        return vec!["*all".into()];
    }
    let to: Vec<String> = m["to"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(String::from))
        .collect();
    let from = m["from"].as_str().map(String::from);
    let from_gm = m["from_gm"].as_bool() == Some(true);
    let mut parties: Vec<String> = match role {
        Role::Player(me) => {
            // The GM's messages to the player and the player's to the GM alone are one
            // conversation.
            if from_gm || to == [crate::press::GM] {
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
        _ => to.into_iter().filter(|t| t != crate::press::GM).chain(from).collect(),
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

/// The reply form of a thread; `None` when the viewer may not write to it.
fn reply_form(game: &Game, key: &[String], role: &Role) -> Option<String> {
    let can_send = match role {
        Role::Gm => true,
        Role::Player(_) => game.status != GameStatus::Finished && game.press != "none",
        _ => false,
    };
    let public = key.first().map(String::as_str) == Some("*all");
    let with_gm = key.first().map(String::as_str) == Some("*gm");
    if with_gm && matches!(role, Role::Player(_)) && game.status != GameStatus::Finished {
        return Some(reply_html(game, key, &[crate::press::GM.to_string()]));
    }
    if !can_send || key.iter().any(|k| k.starts_with('*')) && !public {
        return None;
    }
    if !public && game.press == "public" && !matches!(role, Role::Gm) {
        return None;
    }
    Some(reply_html(game, key, if public { &[] } else { key }))
}

/// A reply form for the thread `key`, sending to `to` (everyone when empty).
fn reply_html(game: &Game, key: &[String], to: &[String]) -> String {
    let mut hidden = String::new();
    for k in to {
        let _ = write!(
            hidden,
            r#"<input type="hidden" name="to" value="{}" data-type="array">"#,
            esc(k)
        );
    }
    let id = anchor(key);
    format!(
        r#"<form class="api-form press-form" data-api="/api/games/{}/press" data-method="POST" data-reload data-hash="{id}">{hidden}<label for="{id}-body">Write</label><textarea id="{id}-body" name="body" rows="2" required maxlength="10000"></textarea><button type="submit">Send</button><span class="form-message" role="status" aria-live="polite"></span></form>"#,
        game.id
    )
}

fn message_html(m: &Value, role: &Role) -> String {
    let from = match (m["from"].as_str(), m["from_gm"].as_bool()) {
        (_, Some(true)) => "GM".to_string(),
        (Some(p), _) => p.to_string(),
        (None, _) => "Unnamed (grey press)".to_string(),
    };
    let own = matches!(role, Role::Player(me) if m["from"].as_str() == Some(me.as_str()) && m["from_gm"] != true)
        || (*role == Role::Gm && m["from_gm"] == true);
    let to = match &m["to"] {
        Value::String(_) => "everyone".to_string(),
        Value::Array(a) => a.iter().filter_map(|t| t.as_str()).collect::<Vec<_>>().join(", "),
        _ => String::new(),
    };
    format!(
        r#"<article class="msg{}"><header><strong>{}</strong> to {} · {} · <time datetime="{}">{}</time></header><p>{}</p></article>"#,
        if own { " own" } else { "" },
        esc(&from),
        esc(&to),
        esc(m["phase"].as_str().unwrap_or("")),
        esc(m["sent"].as_str().unwrap_or("")),
        esc(&utc_text(m["sent"].as_str().unwrap_or(""))),
        esc(m["body"].as_str().unwrap_or(""))
    )
}

/// The form to write to any set of powers (or, in public-only games, to everyone).
fn new_form(game: &Game, role: &Role, v: &Variant) -> String {
    let me = match role {
        Role::Player(p) => Some(p.as_str()),
        Role::Gm => None,
        _ => return String::new(),
    };
    if me.is_some() && game.status == GameStatus::Finished {
        return r#"<p class="note">The game is over.</p>"#.to_string();
    }
    let mut boxes = String::new();
    if me.is_some() {
        let _ = write!(
            boxes,
            r#"<label class="check"><input type="checkbox" name="to" value="{0}" data-type="array"> {0}</label>"#,
            crate::press::GM
        );
    }
    let gunboat = game.press == "none" && me.is_some();
    let legend = if gunboat {
        "No press between players in this game: write to the GM"
    } else {
        "New message — to those ticked, or to everyone when none is"
    };
    if gunboat {
        // Only the GM may be written to.
    } else if game.press != "public" || me.is_none() {
        for p in v
            .powers
            .iter()
            .filter(|p| p.kind != PowerKind::Minor && Some(p.name.as_str()) != me)
        {
            let _ = write!(
                boxes,
                r#"<label class="check"><input type="checkbox" name="to" value="{0}" data-type="array"> {0}</label>"#,
                esc(&p.name)
            );
        }
    }
    let grey = if game.grey_press && me.is_some() {
        r#"<label class="check"><input type="checkbox" name="grey" data-type="bool"> Hide my power (grey press)</label>"#
    } else {
        ""
    };
    format!(
        r#"<form id="new-press" class="api-form press-form" data-api="/api/games/{}/press" data-method="POST" data-reload><fieldset><legend>{legend}</legend><div class="checks">{boxes}</div>{grey}<label for="press-body">Message</label><textarea id="press-body" name="body" rows="3" required maxlength="10000"></textarea><button type="submit">Send</button><span class="form-message" role="status" aria-live="polite"></span></fieldset></form>"#,
        game.id
    )
}

pub async fn section(app: &App, game: &Game, role: &Role, viewer: Option<&Account>, v: &Variant) -> ApiResult<String> {
    let everything = Params(crate::press::PressQuery::default());
    let Json(read) = crate::press::read(State(app.clone()), Viewer(viewer.cloned()), Path(game.id), everything).await?;
    let mut threads: BTreeMap<Vec<String>, Vec<&Value>> = BTreeMap::new();
    threads.insert(vec!["*all".into()], Vec::new());
    for m in read["messages"].as_array().into_iter().flatten() {
        threads.entry(thread_key(m, role)).or_default().push(m);
    }
    let mut out = format!(
        r#"<section class="card press" aria-labelledby="press-h" data-game="{}"><h2 id="press-h">Press</h2>"#,
        game.id
    );
    for (key, messages) in &threads {
        let id = anchor(key);
        let _ = write!(
            out,
            r#"<details class="thread" id="{id}" data-thread="{}" data-last="{}"{}><summary>{} <span class="count">({})</span> <span class="new-badge" hidden>new</span></summary><div class="messages">"#,
            esc(&key.join(",")),
            messages
                .last()
                .and_then(|m| m["id"].as_i64())
                .map(|i| i.to_string())
                .unwrap_or_default(),
            if key[0] == "*all" { " open" } else { "" },
            esc(&thread_title(key, role)),
            messages.len()
        );
        if messages.is_empty() {
            out.push_str(r#"<p class="note">No messages yet.</p>"#);
        }
        for m in messages {
            out.push_str(&message_html(m, role));
        }
        out.push_str("</div>");
        if let Some(f) = reply_form(game, key, role) {
            out.push_str(&f);
        }
        out.push_str("</details>");
    }
    out.push_str(&new_form(game, role, v));
    out.push_str("</section>");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn threads_are_per_counterpart_seen_from_the_player() {
        let me = Role::Player("France".into());
        let sent = json!({"from": "France", "from_gm": false, "to": ["Italy", "Germany"]});
        let got = json!({"from": "Italy", "from_gm": false, "to": ["France", "Germany"]});
        assert_eq!(thread_key(&sent, &me), vec!["Germany", "Italy"]);
        assert_eq!(thread_key(&got, &me), thread_key(&sent, &me));
        assert_eq!(
            thread_key(&json!({"from": null, "from_gm": true, "to": ["France"]}), &me),
            vec!["*gm"]
        );
        // A player's note to the GM joins the GM's messages to that player, on both sides.
        let to_gm = json!({"from": "France", "from_gm": false, "to": ["GM"]});
        assert_eq!(thread_key(&to_gm, &me), vec!["*gm"]);
        assert_eq!(thread_key(&to_gm, &Role::Gm), vec!["France"]);
        assert_eq!(
            thread_key(&json!({"from": null, "from_gm": true, "to": ["France"]}), &Role::Gm),
            vec!["France"]
        );
        assert_eq!(
            thread_key(&json!({"from": "Italy", "from_gm": false, "to": "all"}), &me),
            vec!["*all"]
        );
    }

    #[test]
    fn grey_press_has_its_own_thread() {
        let me = Role::Player("France".into());
        let grey = json!({"from": null, "from_gm": false, "grey": true, "to": ["France"]});
        assert_eq!(thread_key(&grey, &me), vec!["*grey"]);
    }

    #[test]
    fn anchors_are_plain_ids() {
        assert_eq!(
            anchor(&["Soviet Union".into(), "Turkey".into()]),
            "thread-soviet-union-turkey"
        );
    }
}
