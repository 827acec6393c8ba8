//! The club's moderators and what they may do: the forum's visibility and who may create
//! games (the club's settings), moderators appointed and removed, accounts suspended and
//! reinstated, and the moderation log every such action writes (the forum's own actions,
//! hiding posts, pinning and locking topics, are in [`super::forum`] and log here too).
//!
//! A suspended account may read (and change its own account) but not act in the club:
//! no posts, orders, bids, ready marks, draw votes, press, joining or creating games,
//! and no GM tools (a moderator gives its games another GM). Every service that lets an
//! account act asks [`refuse_if_suspended`] first (403, saying until when and why).
//! Leaving a forming game stays open: it only gives a seat back.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::clock::iso_utc;
use crate::db::{new_id, Db};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::limits::{MAX_MODERATION_REASON_CHARS, MAX_SUSPENSION_DAYS};
use crate::model::{Account, AccountId, GameCreation, GameId, GameStatus, ModerationAction, Visibility};
use crate::store::{self, moderation as db};
use crate::App;

/// The club's settings.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct ClubSettings {
    pub forum: Visibility,
    pub game_creation: GameCreation,
}

/// Settings to change; those left out keep their value.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"forum": "members"}))]
pub struct SettingsChange {
    /// Who reads the forum (`board`, its old name, is read too, so that a client written
    /// before the rename keeps working).
    #[serde(default, alias = "board")]
    pub forum: Option<Visibility>,
    #[serde(default)]
    pub game_creation: Option<GameCreation>,
}

pub async fn settings(db: &Db) -> ApiResult<ClubSettings> {
    let db::ClubSettingsRow { forum, game_creation } = db::club_settings(&db.read).await?;
    Ok(ClubSettings { forum, game_creation })
}

/// Whether `viewer` may read the forum (a visitor of a members-only forum may not: 401).
pub async fn may_read_forum(db: &Db, viewer: Option<&Account>) -> ApiResult<()> {
    if viewer.is_none() && settings(db).await?.forum == Visibility::Members {
        return Err(ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "this club's forum is for its members: log in to read it",
        ));
    }
    Ok(())
}

pub async fn is_moderator(db: &Db, account: Option<&Account>) -> ApiResult<bool> {
    Ok(match account {
        Some(a) => db::is_moderator(&db.read, a.id).await?,
        None => false,
    })
}

/// 403 unless `account` is a moderator.
pub async fn require_moderator(db: &Db, account: &Account) -> ApiResult<()> {
    if is_moderator(db, Some(account)).await? {
        Ok(())
    } else {
        Err(ApiError::coded(
            ErrorCode::ModeratorOnly,
            "only a club moderator can do that",
        ))
    }
}

/// Whether the account is suspended now.
pub async fn is_suspended(app: &App, account: AccountId) -> ApiResult<bool> {
    Ok(db::suspension(&app.db.read, account, app.clock.now_ms())
        .await?
        .is_some())
}

/// 403 when `account` is suspended: it may read, but not act in the club.
pub async fn refuse_if_suspended(app: &App, account: &Account) -> ApiResult<()> {
    let Some(s) = db::suspension(&app.db.read, account.id, app.clock.now_ms()).await? else {
        return Ok(());
    };
    let until = match s.until_ms {
        Some(ms) => format!("until {}", iso_utc(ms)),
        None => "until a moderator lifts it".to_string(),
    };
    Err(ApiError::coded(ErrorCode::Suspended, format!(
        "your account is suspended {until} ({}: {}); you may read, but not post, play (orders, bids, ready marks, draw votes), send press, join or create games or use GM tools",
        s.by, s.reason
    ))
    .with(serde_json::json!({"suspended": true, "until": s.until_ms.map(iso_utc), "reason": s.reason})))
}

/// Writes an entry of the moderation log (`moderator` None: the command line).
pub async fn log<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    e: E,
    now_ms: i64,
    moderator: Option<&Account>,
    action: ModerationAction,
    target: &str,
    detail: &str,
) -> ApiResult<()> {
    db::log(
        e,
        &db::NewEntry {
            id: new_id(),
            at_ms: now_ms,
            moderator: moderator.map(|a| a.id),
            action,
            target,
            detail,
        },
    )
    .await?;
    Ok(())
}

/// Changes the club's settings.
pub async fn change_settings(app: &App, account: &Account, c: SettingsChange) -> ApiResult<ClubSettings> {
    require_moderator(&app.db, account).await?;
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    if let Some(v) = c.forum {
        db::set_forum_visibility(&mut *tx, v).await?;
        log(
            &mut *tx,
            now,
            Some(account),
            ModerationAction::ForumVisibility,
            "the forum",
            &format!(
                "readable by {}",
                match v {
                    Visibility::Public => "anyone",
                    Visibility::Members => "members only",
                }
            ),
        )
        .await?;
    }
    if let Some(g) = c.game_creation {
        db::set_game_creation(&mut *tx, g).await?;
        log(
            &mut *tx,
            now,
            Some(account),
            ModerationAction::GameCreation,
            "new games",
            &format!("created by {}", g.as_str()),
        )
        .await?;
    }
    tx.commit().await?;
    settings(&app.db).await
}

/// 403 when the club lets only moderators create games and `account` is not one.
pub async fn may_create_game(db: &Db, account: &Account) -> ApiResult<()> {
    if settings(db).await?.game_creation == GameCreation::Moderators && !is_moderator(db, Some(account)).await? {
        return Err(ApiError::forbidden(
            "in this club only moderators create games; ask one of them",
        ));
    }
    Ok(())
}

/// A moderator, as listed.
#[derive(Serialize, ToSchema)]
pub struct Moderator {
    pub name: String,
    /// Who appointed them; null for the command line.
    pub appointed_by: Option<String>,
    /// When, ISO 8601 UTC.
    pub since: String,
}

/// An account suspended now.
#[derive(Serialize, ToSchema)]
pub struct Suspension {
    pub name: String,
    pub reason: String,
    pub by: String,
    /// ISO 8601 UTC.
    pub since: String,
    /// ISO 8601 UTC; null until a moderator lifts it.
    pub until: Option<String>,
}

/// A game that is not finished, for choosing whose GM to replace.
#[derive(Serialize, ToSchema)]
pub struct OpenGame {
    #[schema(value_type = i64)]
    pub id: GameId,
    pub name: String,
    /// Not `finished`.
    pub status: GameStatus,
    /// Its GM now.
    pub gm: String,
}

/// Most games the overview lists for the GM form (the newest).
pub const OPEN_GAMES: i64 = 500;

/// What the moderators' page shows: the settings, the moderators, the suspensions, and
/// the games not finished with their GMs.
#[derive(Serialize, ToSchema)]
pub struct Overview {
    pub settings: ClubSettings,
    pub moderators: Vec<Moderator>,
    pub suspensions: Vec<Suspension>,
    /// The newest 500 games not finished, newest first.
    pub games: Vec<OpenGame>,
}

pub async fn overview(app: &App, account: &Account) -> ApiResult<Overview> {
    require_moderator(&app.db, account).await?;
    let moderators = db::moderators(&app.db.read)
        .await?
        .into_iter()
        .map(|m| Moderator {
            name: m.name,
            appointed_by: m.granted_by,
            since: iso_utc(m.granted_ms),
        })
        .collect();
    let suspensions = db::suspensions(&app.db.read, app.clock.now_ms())
        .await?
        .into_iter()
        .map(|s| Suspension {
            name: s.name,
            reason: s.reason,
            by: s.by,
            since: iso_utc(s.since_ms),
            until: s.until_ms.map(iso_utc),
        })
        .collect();
    let games = db::open_games(&app.db.read, OPEN_GAMES)
        .await?
        .into_iter()
        .map(|g| OpenGame {
            id: g.id,
            name: g.name,
            status: g.status,
            gm: g.gm,
        })
        .collect();
    Ok(Overview {
        settings: settings(&app.db).await?,
        moderators,
        suspensions,
        games,
    })
}

async fn account_named<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    e: E,
    name: &str,
) -> ApiResult<(AccountId, String)> {
    store::accounts::by_name(e, name.trim())
        .await?
        .map(|a| (a.id, a.name))
        .ok_or_else(|| ApiError::not_found(format!("no account `{}`", name.trim())))
}

/// An account to appoint as moderator.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"account": "anna"}))]
pub struct Appoint {
    pub account: String,
}

/// Appoints a moderator.
pub async fn appoint(app: &App, account: &Account, a: Appoint) -> ApiResult<Moderator> {
    require_moderator(&app.db, account).await?;
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    let (id, name) = account_named(&mut *tx, &a.account).await?;
    if !db::grant(&mut *tx, id, Some(account.id), now).await? {
        return Err(ApiError::conflict(format!("`{name}` is already a moderator")));
    }
    log(
        &mut *tx,
        now,
        Some(account),
        ModerationAction::Appoint,
        &name,
        "made a moderator",
    )
    .await?;
    tx.commit().await?;
    Ok(Moderator {
        name,
        appointed_by: Some(account.name.clone()),
        since: iso_utc(now),
    })
}

/// Ends a moderator's role (their own too, as long as another moderator remains).
pub async fn remove(app: &App, account: &Account, name: &str) -> ApiResult<()> {
    require_moderator(&app.db, account).await?;
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    let (id, name) = account_named(&mut *tx, name).await?;
    if db::moderators(&mut *tx).await?.len() == 1 && db::is_moderator(&mut *tx, id).await? {
        return Err(ApiError::conflict(
            "the club's last moderator cannot step down; appoint another first",
        ));
    }
    if !db::revoke(&mut *tx, id).await? {
        return Err(ApiError::not_found(format!("`{name}` is not a moderator")));
    }
    log(
        &mut *tx,
        now,
        Some(account),
        ModerationAction::Remove,
        &name,
        "no longer a moderator",
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// A suspension to impose.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"account": "spammer", "reason": "advertising in every topic", "days": 30}))]
pub struct Suspend {
    pub account: String,
    /// Said to the account whenever it is refused; 1 to 500 characters.
    pub reason: String,
    /// 1 to 3,650 days; absent: until a moderator lifts it.
    #[serde(default)]
    pub days: Option<i64>,
}

/// Suspends an account (not a moderator: remove the role first; never oneself).
pub async fn suspend(app: &App, account: &Account, s: Suspend) -> ApiResult<Suspension> {
    require_moderator(&app.db, account).await?;
    let reason = s.reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_MODERATION_REASON_CHARS {
        return Err(ApiError::unprocessable(format!(
            "a suspension's reason has 1 to {MAX_MODERATION_REASON_CHARS} characters"
        )));
    }
    if let Some(d) = s.days {
        if !(1..=MAX_SUSPENSION_DAYS).contains(&d) {
            return Err(ApiError::unprocessable(format!(
                "`days` is 1 to {MAX_SUSPENSION_DAYS}, or absent for a suspension until lifted"
            )));
        }
    }
    let now = app.clock.now_ms();
    let until = s.days.map(|d| now + d * 24 * 60 * 60 * 1000);
    let mut tx = app.db.write.begin().await?;
    let (id, name) = account_named(&mut *tx, &s.account).await?;
    if id == account.id {
        return Err(ApiError::conflict("a moderator cannot suspend themselves"));
    }
    if db::is_moderator(&mut *tx, id).await? {
        return Err(ApiError::conflict(format!(
            "`{name}` is a moderator; remove the role before suspending them"
        )));
    }
    db::suspend(&mut *tx, id, reason, account.id, now, until).await?;
    let span = match until {
        Some(u) => format!("until {}", iso_utc(u)),
        None => "until lifted".to_string(),
    };
    log(
        &mut *tx,
        now,
        Some(account),
        ModerationAction::Suspend,
        &name,
        &format!("{span}: {reason}"),
    )
    .await?;
    tx.commit().await?;
    Ok(Suspension {
        name,
        reason: reason.to_string(),
        by: account.name.clone(),
        since: iso_utc(now),
        until: until.map(iso_utc),
    })
}

/// Lifts an account's suspension.
pub async fn reinstate(app: &App, account: &Account, name: &str) -> ApiResult<()> {
    require_moderator(&app.db, account).await?;
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    let (id, name) = account_named(&mut *tx, name).await?;
    if !db::lift(&mut *tx, id, now).await? {
        return Err(ApiError::not_found(format!("`{name}` is not suspended")));
    }
    log(
        &mut *tx,
        now,
        Some(account),
        ModerationAction::Reinstate,
        &name,
        "suspension lifted",
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Entries of the log a page shows.
pub const LOG_PAGE: i64 = 50;

/// An entry of the moderation log.
#[derive(Serialize, ToSchema)]
pub struct Entry {
    /// ISO 8601 UTC.
    pub at: String,
    /// Who did it: a moderator, or a post's author for `edit` and `delete`; null for the
    /// command line.
    pub moderator: Option<String>,
    /// `appoint`, `remove`, `suspend`, `reinstate`, `hide`, `show`, `pin`, `unpin`,
    /// `lock`, `unlock`, `board_visibility`, `game_creation`, `gm`; and a member's own
    /// `edit` (the text before) and `delete` (the text deleted) of a post.
    #[schema(value_type = String)]
    pub action: ModerationAction,
    /// What it was done to: an account, a post, a topic, a game.
    pub target: String,
    pub detail: String,
}

/// A page of the moderation log, newest first.
#[derive(Serialize, ToSchema)]
pub struct Log {
    pub entries: Vec<Entry>,
    pub page: i64,
    pub pages: i64,
}

/// The moderation log, moderators only.
pub async fn log_page(app: &App, account: &Account, page: i64) -> ApiResult<Log> {
    require_moderator(&app.db, account).await?;
    let total = db::entry_count(&app.db.read).await?;
    let pages = ((total + LOG_PAGE - 1) / LOG_PAGE).max(1);
    if page < 1 || page > pages {
        return Err(ApiError::not_found(format!("the log has pages 1 to {pages}")));
    }
    let entries = db::entries(&app.db.read, (page - 1) * LOG_PAGE, LOG_PAGE)
        .await?
        .into_iter()
        .map(|e| Entry {
            at: iso_utc(e.at_ms),
            moderator: e.moderator,
            action: e.action,
            target: e.target,
            detail: e.detail,
        })
        .collect();
    Ok(Log { entries, page, pages })
}

/// The environment variable that holds the password of a `--moderator` account to
/// create at first start. From the environment, never the command line, where any user
/// of the machine reads it in `ps`.
pub const MODERATOR_PASSWORD_ENV: &str = "CHANCERY_MODERATOR_PASSWORD";

/// Makes the named accounts moderators at start-up (`--moderator`), logging each new
/// one as the command line's doing. A name with no account yet is created when
/// `password` (from [`MODERATOR_PASSWORD_ENV`]) is given, with the checks registration
/// makes, before the server listens: so a new club has its first moderator at once,
/// and no visitor can register the name first. Without it an unknown name stops the
/// server: a club's first moderator must not silently fail to be one. An existing
/// account's password is never changed.
pub async fn appoint_from_command_line(app: &App, names: &[String], password: Option<&str>) -> Result<(), String> {
    for name in names {
        let exists = store::accounts::by_name(&app.db.read, name.trim())
            .await
            .map_err(|e| e.to_string())?
            .is_some();
        if exists {
            if password.is_some() {
                tracing::info!(
                    "{} exists; {MODERATOR_PASSWORD_ENV} is not used for it (its password stays)",
                    name.trim()
                );
            }
            continue;
        }
        let Some(password) = password else {
            return Err(format!(
                "--moderator {name}: no such account. To create it now, give its password in the environment \
                 variable {MODERATOR_PASSWORD_ENV} (never on the command line); or register it and restart"
            ));
        };
        crate::services::accounts::create_account(app, name.trim(), password)
            .await
            .map_err(|e| format!("--moderator {name}: cannot create the account: {}", e.message))?;
        tracing::info!("created the account {}", name.trim());
    }
    appoint_at_start(&app.db, names, app.clock.now_ms(), "the command line").await
}

/// Makes the named accounts moderators, by no moderator's hand (`how` says whose, in the
/// log: the command line, the demo club).
pub async fn appoint_at_start(db: &Db, names: &[String], now_ms: i64, how: &str) -> Result<(), String> {
    for name in names {
        let account = store::accounts::by_name(&db.read, name.trim())
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("--moderator {name}: no such account (register it first)"))?;
        let mut tx = db.write.begin().await.map_err(|e| e.to_string())?;
        if db::grant(&mut *tx, account.id, None, now_ms)
            .await
            .map_err(|e| e.to_string())?
        {
            log(
                &mut *tx,
                now_ms,
                None,
                ModerationAction::Appoint,
                &account.name,
                &format!("made a moderator by {how}"),
            )
            .await
            .map_err(|e| e.message)?;
            tracing::info!("{} is a moderator", account.name);
        }
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    Ok(())
}
