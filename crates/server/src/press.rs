//! Press: messages between powers, to everyone, from the GM, and from a player to the
//! GM alone. The game's setting decides what players may send to each other (full:
//! private and public; public: to everyone only; none: nothing); a message to the GM
//! alone is always allowed. Grey press hides the sender's power from the recipients, and
//! each viewer reads only what was sent to them.

use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::Row;

use crate::auth::{Account, Viewer};
use crate::clock::iso_utc;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult, Body, Params, Path};
use crate::model::GameStatus;
use crate::services::games::{self, role_of, Role};
use crate::App;

use crate::limits::MAX_PRESS_CHARS;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// Power names, or "GM"; absent or empty: everyone.
    #[serde(default)]
    pub to: Vec<String>,
    pub body: String,
    /// Hide the sender's power from the recipients (games with grey press only).
    #[serde(default)]
    pub grey: bool,
}

/// The recipient name for the game's GM.
pub const GM: &str = "GM";

pub async fn send(
    State(app): State<App>,
    account: Account,
    Path(id): Path<i64>,
    Body(m): Body<Message>,
) -> ApiResult<Json<Value>> {
    let body = m.body.trim();
    if body.is_empty() || body.chars().count() > MAX_PRESS_CHARS {
        return Err(ApiError::unprocessable(format!(
            "a message has 1 to {MAX_PRESS_CHARS} characters"
        )));
    }
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(&account)).await?;
    let v = game.variant(&app)?;
    let mut to = Vec::new();
    for name in &m.to {
        // Players may write to the GM privately, whatever the press setting, as a
        // judge's "Master" can always be written to.
        if name.eq_ignore_ascii_case(GM) || name.eq_ignore_ascii_case("master") {
            if !to.iter().any(|t| t == GM) {
                to.push(GM.to_string());
            }
            continue;
        }
        let p = v
            .find_power(name)
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{name}`")))?;
        let name = v.power(p).name.clone();
        if !to.contains(&name) {
            to.push(name);
        }
    }
    let public = to.is_empty();
    let to_gm_only = to == [GM];
    let (sender_power, from_gm) = match &role {
        Role::Gm if to_gm_only => return Err(ApiError::unprocessable("a message to yourself alone goes nowhere")),
        Role::Gm => {
            to.retain(|t| t != GM);
            (None, true)
        }
        Role::Player(p) if to_gm_only => (Some(p.clone()), false),
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
    if game.status == GameStatus::Finished && !from_gm {
        return Err(ApiError::conflict("the game is over"));
    }
    let state = game.state(&v)?;
    let recipients = if public { "*".to_string() } else { to.join(",") };
    let msg_id = new_id();
    let now = app.clock.now_ms();
    let (pool, phase, sender, body) = (
        app.db.write.clone(),
        state.phase.code(),
        sender_power.clone(),
        body.to_string(),
    );
    // Grey press hides the sender from other players; the GM always knows it.
    let grey = m.grey && !to_gm_only;
    let (game_seq, account_id) = (game.seq, account.id);
    let insert = async move {
        sqlx::query("INSERT INTO press (id, game_id, seq, phase, sender_account, sender_power, from_gm, grey, recipients, body, sent_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
            .bind(msg_id)
            .bind(id)
            .bind(game_seq)
            .bind(phase)
            .bind(account_id)
            .bind(sender)
            .bind(from_gm as i64)
            .bind(grey as i64)
            .bind(recipients)
            .bind(body)
            .bind(now)
            .execute(&pool)
            .await?;
        Ok(())
    };
    app.db.writing(insert).await?;
    Ok(Json(json!({
        "id": msg_id, "from": sender_power, "from_gm": from_gm, "grey": grey,
        "to": if public { Value::String("all".into()) } else { json!(to) }, "sent": iso_utc(now),
    })))
}

/// Most messages one read returns; a long game's press is read in pages.
const PAGE_MAX: i64 = 1000;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PressQuery {
    /// Only messages sent at or after this time (ms since 1970 UTC): a client polling
    /// for news passes the `latest_ms` of its last read (and drops ids it already has).
    #[serde(default)]
    pub since_ms: Option<i64>,
    /// Only messages sent before this time: for paging back through older press.
    #[serde(default)]
    pub before_ms: Option<i64>,
    /// The newest this many (1 to 1000, the default) of the messages that match.
    #[serde(default)]
    pub limit: Option<i64>,
}

pub async fn read(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<i64>,
    Params(q): Params<PressQuery>,
) -> ApiResult<Json<Value>> {
    let limit = q.limit.unwrap_or(PAGE_MAX);
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(ApiError::unprocessable(format!("`limit` is 1 to {PAGE_MAX}")));
    }
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, viewer.as_ref()).await?;
    // Who may read what is decided in the query, so that the page limit counts only
    // the viewer's messages and a long game's other conversations are never fetched.
    // Recipients are stored as `*` or `A,B,C`; `,A,B,C,` LIKE `%,B,%` finds B.
    let (visible, me) = match &role {
        Role::Gm => ("1 = 1", String::new()),
        Role::Player(p) => (
            "(p.recipients = '*' OR (p.sender_power = $5 AND p.from_gm = 0) OR (',' || p.recipients || ',') LIKE $6)",
            p.clone(),
        ),
        Role::Observer | Role::Visitor => ("p.recipients = '*'", String::new()),
    };
    let sql = format!(
        "SELECT p.id, p.phase, p.sender_power, p.from_gm, p.grey, p.recipients, p.body, p.sent_ms, a.name FROM press p JOIN accounts a ON a.id = p.sender_account
         WHERE p.game_id = $1 AND p.sent_ms >= $2 AND p.sent_ms < $3 AND {visible} ORDER BY p.sent_ms DESC, p.id DESC LIMIT $4"
    );
    let mut query = sqlx::query(&sql)
        .bind(id)
        .bind(q.since_ms.unwrap_or(i64::MIN))
        .bind(q.before_ms.unwrap_or(i64::MAX))
        .bind(limit + 1);
    if let Role::Player(_) = role {
        query = query.bind(&me).bind(format!("%,{me},%"));
    }
    let mut rows = query.fetch_all(&app.db.read).await?;
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    rows.reverse();
    let latest_ms = rows.last().map(|r| r.get::<i64, _>("sent_ms"));
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
            "sent_ms": r.get::<i64, _>("sent_ms"),
        });
        // Only the GM learns which account wrote a message.
        if role == Role::Gm {
            m["account"] = Value::String(r.get("name"));
        }
        out.push(m);
    }
    Ok(Json(
        json!({"game": id, "messages": out, "more": more, "latest_ms": latest_ms}),
    ))
}
