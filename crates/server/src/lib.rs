//! Chancery's club server: accounts, games, orders, deadlines, press and the game
//! master's tools, persisted in SQLite or PostgreSQL and served as a JSON HTTP API.
//! `chancery serve` and the `chancery-server` binary both call [`serve`].
//!
//! The server is layered (ARCHITECTURE.md and README.md tell the pattern):
//!
//! - [`store`]: all SQL, one module per group of tables, typed rows.
//! - [`services`]: the club's operations on typed values; who may do what.
//! - [`api`] (JSON, with the OpenAPI document derived from it in [`openapi`]) and the
//!   pages (askama templates): two thin faces over the services.
//! - [`model`]: the typed values the layers share ([`model::GameStatus`]);
//!   [`limits`]: every limit on input; [`input`]: the check every string from a client
//!   passes, run by the extractors of [`error`] that every handler reads its request with.
//!
//! Not yet moved to the layers (each keeps its handlers, rules and SQL together):
//!
//! - [`db`]: opening the database and migrations.
//! - [`auth`]: accounts, sessions, login throttling.
//! - [`demo`]: the demo club on an empty database.
//!
//! [`services::processing`] adjudicates a phase exactly once; [`scheduler`] says when.

pub mod api;
pub mod auth;
pub mod clock;
pub mod conditional;
pub mod csrf;
pub mod db;
pub mod deadlines;
pub mod demo;
pub mod error;
pub mod headers;
pub mod input;
pub mod jobs;
pub mod limits;
pub mod model;
pub mod openapi;
mod pages;
pub mod reads;
pub mod routes;
pub mod scheduler;
pub mod services;
pub mod store;
pub mod variants;

use std::net::SocketAddr;
use std::sync::Arc;

use clock::Clock;
use db::Db;

/// Jobs waiting for the job pool, of each weight, before more are refused.
const JOB_QUEUE: usize = 64;
/// Password hashes computed at once (each takes argon2id's 19 MiB and most of a core for
/// tens of milliseconds), and how many may wait: a flood of logins is refused with 503
/// beyond that rather than growing the heap by a hash's memory per waiting request.
const HASHING_THREADS: usize = 2;
const HASHING_QUEUE: usize = 32;

/// How to run a server.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub listen: String,
    /// A `postgres://` or `sqlite:` URL, or a path to an SQLite file.
    pub database: String,
    /// Adds the test-only clock endpoint. Never for production.
    pub test_clock: bool,
    /// How often the scheduler looks for due phases.
    pub tick_ms: u64,
    /// Requests per second allowed to one client: an account with a valid session, else
    /// an address (an IPv6 /64).
    pub rate_per_second: u32,
    /// Create the demo club when the database has no accounts.
    pub demo: bool,
    /// The address browsers reach the server at, when it differs from `listen` (behind a
    /// proxy): its origin is accepted on cookie requests, and `https://` makes the session
    /// cookie `Secure`.
    pub public_url: Option<String>,
    /// `smtp://` or `smtps://` URL of the mail server (`--smtp`, or `CHANCERY_SMTP`).
    pub smtp: Option<String>,
    /// A folder to write each mail to as an `.eml` file, when there is no mail server.
    pub mail_dir: Option<String>,
    /// The sender of the club's mails (`Name <address>`).
    pub mail_from: Option<String>,
    /// Accounts made the club's moderators at start (`--moderator NAME`): how a club
    /// gets its first; moderators appoint the rest. A name with no account is created
    /// with the password in `CHANCERY_MODERATOR_PASSWORD`, else the server stops.
    pub moderators: Vec<String>,
    /// How many phases a bot may have the engine judge for one decision
    /// (`--bot-judgements`); None: the bot crate's default for its level. The effort is
    /// a count, not a time, so that a bot's decision is the same whatever the load.
    pub bot_judgements: Option<u32>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            listen: "127.0.0.1:8080".into(),
            database: "chancery.db".into(),
            test_clock: false,
            tick_ms: 1000,
            rate_per_second: 200,
            demo: true,
            public_url: None,
            smtp: None,
            mail_dir: None,
            mail_from: None,
            moderators: Vec::new(),
            bot_judgements: None,
        }
    }
}

/// What every request handler shares.
pub struct AppState {
    pub db: Db,
    pub clock: Clock,
    pub variants: variants::Cache,
    /// CPU-heavy work: variant files, maps, drawings (see [`jobs`]).
    pub jobs: jobs::Pool,
    /// Password hashing, on threads of its own (see [`services::accounts`]).
    pub hashing: jobs::Pool,
    /// Each variant's prepared map drawing.
    pub maps: services::maps::Drawings,
    pub rate: limits::RateLimiter,
    /// Tokens seen valid, for the rate limit's buckets.
    pub known_sessions: limits::KnownSessions,
    /// Sessions read lately, trusted for a few seconds ([`auth::SessionCache`]).
    pub sessions: auth::SessionCache,
    /// Names this process in the event log, to tell servers sharing a database apart.
    pub server_id: String,
    /// Wakes the scheduler early (a ready mark completed, a GM changed a deadline).
    pub wake: tokio::sync::Notify,
    /// `scheme://host[:port]` of `--public-url`, accepted as a cookie request's `Origin`.
    pub public_origin: Option<String>,
    /// Served over HTTPS (`--public-url https://…`): the session cookie is `Secure`.
    pub secure_cookie: bool,
    /// How mail is sent ([`services::mail::sender`]).
    pub mailer: services::mail::sender::Mailer,
    /// Wakes the mail sender early (mail was just written to the outbox).
    pub mail_wake: tokio::sync::Notify,
    /// The maps lately drawn for results mails.
    pub mail_maps: services::mail::map::Pictures,
    /// Wakes the bots early (a phase opened, a bot was seated).
    pub bot_wake: tokio::sync::Notify,
    /// Each bot decision's budget in the engine's judgements (`--bot-judgements`).
    pub bot_judgements: u32,
}

impl AppState {
    /// The state one server runs on, its pools sized to the machine: what `serve` starts
    /// with, and what a bench or tool driving the services without HTTP builds, so that
    /// a field added here is set in one place.
    pub fn new(
        db: Db,
        clock: Clock,
        mailer: services::mail::sender::Mailer,
        public_origin: Option<String>,
        rate_per_second: u32,
        bot_judgements: u32,
    ) -> App {
        Arc::new(AppState {
            server_id: format!("{}-{}", std::process::id(), db::new_id() % 100_000),
            db,
            clock,
            variants: variants::Cache::default(),
            jobs: jobs::Pool::new("jobs", jobs::cores().max(2), jobs::cores().max(2) - 1, JOB_QUEUE, 5),
            hashing: jobs::Pool::new("hashing", HASHING_THREADS, 1, HASHING_QUEUE, 2),
            maps: services::maps::Drawings::default(),
            rate: limits::RateLimiter::new(rate_per_second),
            known_sessions: limits::KnownSessions::default(),
            sessions: auth::SessionCache::default(),
            wake: tokio::sync::Notify::new(),
            secure_cookie: public_origin.as_deref().is_some_and(|o| o.starts_with("https://")),
            public_origin,
            mailer,
            mail_wake: tokio::sync::Notify::new(),
            mail_maps: services::mail::map::Pictures::default(),
            bot_wake: tokio::sync::Notify::new(),
            bot_judgements,
        })
    }
}

pub type App = Arc<AppState>;

/// `chancery-mail` beside an SQLite database file; None for PostgreSQL and memory.
fn demo_mail_dir(database: &str) -> Option<String> {
    if database.starts_with("postgres:") || database.starts_with("postgresql:") || database.contains(":memory:") {
        return None;
    }
    let path = database
        .strip_prefix("sqlite://")
        .or_else(|| database.strip_prefix("sqlite:"))
        .unwrap_or(database);
    let path = path.split('?').next().unwrap_or(path);
    let folder = std::path::Path::new(path)
        .parent()
        .map(|p| p.join("chancery-mail"))
        .unwrap_or_else(|| "chancery-mail".into());
    Some(folder.to_string_lossy().into_owned())
}

/// Opens the database, creates the demo club if it is empty, starts the scheduler and
/// serves until the process is stopped.
pub async fn serve(opts: ServeOptions) -> Result<(), String> {
    let started = std::time::Instant::now();
    // One line per event on stderr, as the server always logged (a second call, from
    // a process that set up its own, changes nothing).
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
    jobs::give_back_large_blocks();
    let public_origin = opts.public_url.as_deref().map(csrf::public_origin).transpose()?;
    let db = Db::open(&opts.database).await?;
    // Bound before anything else, so that the links in mails can name the port.
    let listener = tokio::net::TcpListener::bind(&opts.listen)
        .await
        .map_err(|e| format!("listening on {}: {e}", opts.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let base_url = match &opts.public_url {
        Some(u) => u.clone(),
        None => format!("http://{addr}"),
    };
    let smtp = opts
        .smtp
        .clone()
        .or_else(|| std::env::var("CHANCERY_SMTP").ok().filter(|s| !s.is_empty()));
    // The demo club, given no transport, writes its mail to a folder beside its SQLite
    // file, so that a club trying Chancery reads what it would send.
    let mail_dir = match (&opts.mail_dir, &smtp) {
        (Some(d), _) => Some(d.clone()),
        (None, None) if opts.demo => demo_mail_dir(&opts.database),
        _ => None,
    };
    if opts.mail_dir.is_none() {
        if let Some(d) = &mail_dir {
            tracing::info!("the demo club's mail is written to {d} (give --smtp to send it)");
        }
    }
    let mailer = services::mail::sender::Mailer::new(
        smtp.as_deref(),
        mail_dir.as_deref(),
        opts.mail_from.as_deref(),
        &base_url,
    )?;
    let clock = if opts.test_clock {
        tracing::warn!("--test-clock is on; anyone can move this server's clock");
        Clock::adjustable()
    } else {
        Clock::system()
    };
    let app = AppState::new(
        db,
        clock,
        mailer,
        public_origin,
        opts.rate_per_second,
        opts.bot_judgements.unwrap_or_else(services::bots::default_judgements),
    );
    let converted = services::history::convert_stored_results(&app).await?;
    if converted > 0 {
        tracing::info!("kept the judgement of {converted} phases stored by an older version");
    }
    if opts.demo {
        demo::create_if_empty(&app).await?;
    }
    let password = std::env::var(services::moderation::MODERATOR_PASSWORD_ENV).ok();
    services::moderation::appoint_from_command_line(&app, &opts.moderators, password.as_deref()).await?;
    tokio::spawn(scheduler::run(app.clone(), opts.tick_ms));
    tokio::spawn(services::mail::sender::run(app.clone(), opts.tick_ms));
    tokio::spawn(services::mail::jobs::run(app.clone(), opts.tick_ms));
    tokio::spawn(services::bots::run(app.clone(), opts.tick_ms));
    let router = routes::router(app.clone(), opts.test_clock);
    // The line tests wait for; keep its shape.
    tracing::info!(
        "listening on http://{addr} ({} database, ready in {} ms)",
        match app.db.backend {
            db::Backend::Sqlite => "SQLite",
            db::Backend::Postgres => "PostgreSQL",
        },
        started.elapsed().as_millis()
    );
    axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
        .await
        .map_err(|e| e.to_string())
}
