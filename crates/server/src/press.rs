//! Press: messages between powers, to everyone, and from the GM. The game's setting
//! decides what players may send (full: private and public; public: to everyone only;
//! none: nothing), grey press hides the sender's power from the recipients, and each
//! viewer reads only what was sent to them.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;

use crate::auth::{Account, Viewer};
use crate::clock::iso_utc;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult, Body, Path};
use crate::games::{self, role_of, Role};
use crate::App;

const MAX_BODY_CHARS: usize = 10_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// Power names; absent or empty: everyone.
    #[serde(default)]
    pub to: Vec<String>,
    pub body: String,
    /// Hide the sender's power from the recipients (games with grey press only).
    #[serde(default)]
    pub grey: bool,
}

pub async fn send(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(m): Body<Message>,
) -> ApiResult<Json<Value>> {
    let body = m.body.trim();
    if body.is_empty() || body.chars().count() > MAX_BODY_CHARS {
        return Err(ApiError::unprocessable(format!(
            "a message has 1 to {MAX_BODY_CHARS} characters"
        )));
    }
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(&account)).await?;
    let v = game.variant(&app)?;
    let mut to = Vec::new();
    for name in &m.to {
        let p = v
            .find_power(name)
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{name}`")))?;
        let name = v.power(p).name.clone();
        if !to.contains(&name) {
            to.push(name);
        }
    }
    let public = to.is_empty();
    let (sender_power, from_gm) = match &role {
        Role::Gm => (None, true),
        Role::Player(p) => {
            match game.press.as_str() {
                "none" => return Err(ApiError::forbidden("this game has no press")),
                "public" if !public => return Err(ApiError::forbidden("this game allows public press only")),
                _ => {}
            }
            if m.grey && !game.grey_press {
                return Err(ApiError::forbidden("this game has no grey press"));
            }
            if to.len() == 1 && to[0] == *p {
                return Err(ApiError::unprocessable("a message to yourself alone goes nowhere"));
            }
            (Some(p.clone()), false)
        }
        _ => return Err(ApiError::forbidden("only the game's players and GM send press")),
    };
    if game.status == "finished" && !from_gm {
        return Err(ApiError::conflict("the game is over"));
    }
    let state = game.state(&v)?;
    let recipients = if public { "*".to_string() } else { to.join(",") };
    let msg_id = new_id();
    let now = app.clock.now_ms();
    sqlx::query("INSERT INTO press (id, game_id, seq, phase, sender_account, sender_power, from_gm, grey, recipients, body, sent_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
        .bind(msg_id)
        .bind(id)
        .bind(game.seq)
        .bind(state.phase.code())
        .bind(account.id)
        .bind(sender_power.clone())
        .bind(from_gm as i64)
        .bind(m.grey as i64)
        .bind(&recipients)
        .bind(body)
        .bind(now)
        .execute(&app.db.write)
        .await?;
    Ok(Json(json!({
        "id": msg_id, "from": sender_power, "from_gm": from_gm, "grey": m.grey,
        "to": if public { Value::String("all".into()) } else { json!(to) }, "sent": iso_utc(now),
    })))
}

pub async fn read(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, viewer.as_ref()).await?;
    let rows = sqlx::query("SELECT p.id, p.phase, p.sender_power, p.from_gm, p.grey, p.recipients, p.body, p.sent_ms, a.name FROM press p JOIN accounts a ON a.id = p.sender_account WHERE p.game_id = $1 ORDER BY p.sent_ms, p.id")
        .bind(id)
        .fetch_all(&app.db.read)
        .await?;
    let mut out = Vec::new();
    for r in &rows {
        let recipients: String = r.get("recipients");
        let public = recipients == "*";
        let to: Vec<&str> = if public {
            Vec::new()
        } else {
            recipients.split(',').collect()
        };
        let sender: Option<String> = r.get("sender_power");
        let grey = r.get::<i64, _>("grey") != 0;
        let (visible, own) = match &role {
            Role::Gm => (true, false),
            Role::Player(p) => {
                let own = sender.as_deref() == Some(p.as_str());
                (public || own || to.contains(&p.as_str()), own)
            }
            Role::Observer | Role::Visitor => (public, false),
        };
        if !visible {
            continue;
        }
        let show_sender = !grey || own || role == Role::Gm;
        let mut m = json!({
            "id": r.get::<i64, _>("id"),
            "phase": r.get::<String, _>("phase"),
            "from": if show_sender { json!(sender) } else { Value::Null },
            "from_gm": r.get::<i64, _>("from_gm") != 0,
            "grey": grey,
            "to": if public { Value::String("all".into()) } else { json!(to) },
            "body": r.get::<String, _>("body"),
            "sent": iso_utc(r.get("sent_ms")),
        });
        // Only the GM learns which account wrote a message.
        if role == Role::Gm {
            m["account"] = Value::String(r.get("name"));
        }
        out.push(m);
    }
    Ok(Json(json!({"game": id, "messages": out})))
}
