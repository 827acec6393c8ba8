//! Opening the database (SQLite file or PostgreSQL), applying the migrations, and the
//! per-game lock every write transaction starts with.

use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool, ConnectOptions, Executor, Row, Transaction};

use crate::reads::{OwnPool, Reads};

use crate::error::{ApiError, ApiResult};

/// The migrations, in order. Each is applied once, in one transaction, and recorded in
/// `schema_migrations`.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../migrations/0001_init.sql")),
    (2, "dp_bids", include_str!("../migrations/0002_dp_bids.sql")),
    (
        3,
        "deadline_time_of_day",
        include_str!("../migrations/0003_deadline_time_of_day.sql"),
    ),
    (
        4,
        "login_failures",
        include_str!("../migrations/0004_login_failures.sql"),
    ),
    (5, "draw_votes", include_str!("../migrations/0005_draw_votes.sql")),
    (
        6,
        "missing_orders",
        include_str!("../migrations/0006_missing_orders.sql"),
    ),
    (7, "disorder_seat", include_str!("../migrations/0007_disorder_seat.sql")),
    (8, "reveal_at_end", include_str!("../migrations/0008_reveal_at_end.sql")),
    (9, "phase_results", include_str!("../migrations/0009_phase_results.sql")),
    (10, "set_aside", include_str!("../migrations/0010_set_aside.sql")),
    (
        11,
        "early_processing",
        include_str!("../migrations/0011_early_processing.sql"),
    ),
    (12, "press_reads", include_str!("../migrations/0012_press_reads.sql")),
    (
        13,
        "press_thread_reads",
        include_str!("../migrations/0013_press_thread_reads.sql"),
    ),
    (15, "mail", include_str!("../migrations/0015_mail.sql")),
    (
        16,
        "mail_reminders",
        include_str!("../migrations/0016_mail_reminders.sql"),
    ),
    (17, "mail_press", include_str!("../migrations/0017_mail_press.sql")),
    (18, "mail_maps", include_str!("../migrations/0018_mail_maps.sql")),
    (19, "mail_digest", include_str!("../migrations/0019_mail_digest.sql")),
    // The forum's migrations keep the name `board` they were written and recorded under:
    // a migration's name and file are what a club's database has applied.
    (20, "board", include_str!("../migrations/0020_board.sql")),
    (
        25,
        "board_posting",
        include_str!("../migrations/0025_board_posting.sql"),
    ),
    (
        26,
        "topic_follows",
        include_str!("../migrations/0026_topic_follows.sql"),
    ),
    (28, "bots", include_str!("../migrations/0028_bots.sql")),
    (
        31,
        "phase_missing_json",
        include_str!("../migrations/0031_phase_missing_json.sql"),
    ),
    (
        32,
        "outbox_maps_json",
        include_str!("../migrations/0032_outbox_maps_json.sql"),
    ),
];

/// Migrations written once per backend, where the two databases have no common SQL
/// (full-text search): version, name, SQLite's text, PostgreSQL's. Applied in order of
/// version among [`MIGRATIONS`].
const BACKEND_MIGRATIONS: &[(i64, &str, &str, &str)] = &[
    (
        22,
        "outbox_order",
        include_str!("../migrations/0022_outbox_order.sqlite.sql"),
        include_str!("../migrations/0022_outbox_order.postgres.sql"),
    ),
    (
        24,
        "board_search",
        include_str!("../migrations/0024_board_search.sqlite.sql"),
        include_str!("../migrations/0024_board_search.postgres.sql"),
    ),
    (
        27,
        "board_search_visible",
        include_str!("../migrations/0027_board_search_visible.sqlite.sql"),
        include_str!("../migrations/0027_board_search_visible.postgres.sql"),
    ),
    (
        30,
        "press_recipients",
        include_str!("../migrations/0030_press_recipients.sqlite.sql"),
        include_str!("../migrations/0030_press_recipients.postgres.sql"),
    ),
];

/// SQLite connections for reads (each a thread of sqlx's), beside the one writer.
const READ_CONNECTIONS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Db {
    /// For reads: an executor like a pool (on SQLite one of our own, see [`crate::reads`]).
    pub read: Reads,
    /// For write transactions. On SQLite a single connection, so that writers in this
    /// process queue here instead of failing with SQLITE_BUSY.
    pub write: AnyPool,
    pub backend: Backend,
    /// SQLite only: the thread the hot write transactions run on (see [`Db::writing`]).
    lane: Option<WriteLane>,
}

type Job = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// A thread with its own single-threaded runtime for SQLite's write transactions.
///
/// SQLite runs one writer at a time, so a write transaction's latency is its turn in the
/// queue plus its own statements, and each statement is a round trip to the driver's
/// worker thread. On the main runtime every round trip also puts the transaction's task
/// at the back of a run queue shared with hundreds of reads; under load those waits,
/// repeated a dozen times while holding the one write connection, were nearly all of a
/// write's time. On this lane the transaction only ever waits for other writes.
#[derive(Clone)]
struct WriteLane {
    jobs: tokio::sync::mpsc::UnboundedSender<Job>,
}

impl WriteLane {
    fn start() -> Result<WriteLane, String> {
        let (jobs, mut queue) = tokio::sync::mpsc::unbounded_channel::<Job>();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("starting the write thread: {e}"))?;
        std::thread::Builder::new()
            .name("chancery-writes".into())
            .spawn(move || {
                runtime.block_on(async move {
                    while let Some(job) = queue.recv().await {
                        tokio::spawn(job);
                    }
                })
            })
            .map_err(|e| format!("starting the write thread: {e}"))?;
        Ok(WriteLane { jobs })
    }
}

pub type Tx = Transaction<'static, Any>;

/// `postgres://…` URLs are taken as they are. An SQLite database may be named by a
/// `sqlite:` URL in any of the forms sqlx reads (`sqlite:///abs/p.db`,
/// `sqlite://rel.db`, `sqlite:rel.db`, with `?` options) or by a plain path; either way
/// the file is created when missing (`mode=rwc`), as the help promises, unless the URL
/// chooses its own `mode`.
pub fn normalise_url(url: &str) -> (String, Backend) {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return (url.to_string(), Backend::Postgres);
    }
    let url = if url.starts_with("sqlite:") {
        url.to_string()
    } else {
        // A path may hold characters a URL gives a meaning to.
        let mut escaped = String::with_capacity(url.len());
        for c in url.chars() {
            match c {
                '%' => escaped.push_str("%25"),
                '?' => escaped.push_str("%3F"),
                '#' => escaped.push_str("%23"),
                c => escaped.push(c),
            }
        }
        format!("sqlite://{escaped}")
    };
    let chooses_mode = url
        .split_once('?')
        .is_some_and(|(_, query)| query.split('&').any(|p| p.starts_with("mode=")));
    let url = match (chooses_mode, url.contains('?')) {
        (true, _) => url,
        (false, true) => format!("{url}&mode=rwc"),
        (false, false) => format!("{url}?mode=rwc"),
    };
    (url, Backend::Sqlite)
}

impl Db {
    pub async fn open(url: &str) -> Result<Db, String> {
        sqlx::any::install_default_drivers();
        let (url, backend) = normalise_url(url);
        let options = AnyConnectOptions::from_str(&url)
            .map_err(|e| format!("database URL: {e}"))?
            .disable_statement_logging();
        let db = match backend {
            Backend::Postgres => {
                let pool = AnyPoolOptions::new()
                    .max_connections(16)
                    .connect_with(options)
                    .await
                    .map_err(|e| format!("connecting to PostgreSQL: {e}"))?;
                // Open a few connections before serving: a connection's password
                // exchange (SCRAM) is slow enough that opening them on the first burst
                // of requests would stall it.
                let mut warm = Vec::new();
                for _ in 0..4 {
                    warm.push(
                        pool.acquire()
                            .await
                            .map_err(|e| format!("connecting to PostgreSQL: {e}"))?,
                    );
                }
                drop(warm);
                // Row locks let PostgreSQL writers run side by side: no lane.
                Db {
                    read: Reads::Pool(pool.clone()),
                    write: pool,
                    backend,
                    lane: None,
                }
            }
            Backend::Sqlite => {
                let connect = |max: u32| {
                    AnyPoolOptions::new()
                        .max_connections(max)
                        .after_connect(|conn, _| sqlite_setup(conn))
                        .connect_with(options.clone())
                };
                let open = |e: sqlx::Error| format!("opening {url}: {e}");
                let write = connect(1).await.map_err(open)?;
                // The write connection first: it creates the file and sets WAL.
                let transactions = connect(2).await.map_err(open)?;
                let read = OwnPool::open(options.clone(), READ_CONNECTIONS, Box::new(sqlite_setup), transactions)
                    .await
                    .map_err(open)?;
                Db {
                    read: Reads::Own(read),
                    write,
                    backend,
                    lane: Some(WriteLane::start()?),
                }
            }
        };
        db.migrate().await?;
        Ok(db)
    }

    /// Runs `work` (a whole write transaction) on the write lane when there is one, or
    /// here. On the lane the work finishes even if the caller stops waiting (a client
    /// hanging up); here a dropped request rolls its transaction back. Either way nothing
    /// is half written.
    pub async fn writing<T: Send + 'static>(
        &self,
        work: impl std::future::Future<Output = ApiResult<T>> + Send + 'static,
    ) -> ApiResult<T> {
        let Some(lane) = &self.lane else {
            return work.await;
        };
        let (done, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::pin(async move {
            let _ = done.send(work.await);
        });
        lane.jobs
            .send(job)
            .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
        answer
            .await
            .unwrap_or_else(|_| Err(ApiError::unavailable("the write failed; try again")))
    }

    async fn migrate(&self) -> Result<(), String> {
        let err = |e: sqlx::Error| format!("migrating the database: {e}");
        let mut tx = self.write.begin().await.map_err(err)?;
        if self.backend == Backend::Postgres {
            // Two servers starting together on one database: the second waits here.
            sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock(727001)) AS l")
                .execute(&mut *tx)
                .await
                .map_err(err)?;
        }
        sqlx::query(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
        )
        .execute(&mut *tx)
        .await
        .map_err(err)?;
        let applied: Vec<i64> = sqlx::query("SELECT version FROM schema_migrations")
            .fetch_all(&mut *tx)
            .await
            .map_err(err)?
            .iter()
            .map(|r| r.get::<i64, _>(0))
            .collect();
        let mut all: Vec<(i64, &str, &str)> = MIGRATIONS.to_vec();
        all.extend(BACKEND_MIGRATIONS.iter().map(|(v, n, sqlite, postgres)| {
            (
                *v,
                *n,
                if self.backend == Backend::Postgres {
                    *postgres
                } else {
                    *sqlite
                },
            )
        }));
        all.sort_by_key(|m| m.0);
        for (version, name, sql) in &all {
            if applied.contains(version) {
                continue;
            }
            for statement in split_statements(sql) {
                sqlx::query(&statement)
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| format!("migration {version} ({name}): {e}\n{statement}"))?;
            }
            sqlx::query("INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)")
                .bind(*version)
                .bind(*name)
                .bind(crate::clock::system_ms())
                .execute(&mut *tx)
                .await
                .map_err(err)?;
        }
        tx.commit().await.map_err(err)
    }
}

/// Every SQLite connection's settings. WAL lets readers run beside the writer; FULL makes
/// each acknowledged commit survive a power cut, not only a crash.
fn sqlite_setup(conn: &mut sqlx::AnyConnection) -> futures_core::future::BoxFuture<'_, Result<(), sqlx::Error>> {
    Box::pin(async move {
        conn.execute("PRAGMA journal_mode = WAL").await?;
        conn.execute("PRAGMA synchronous = FULL").await?;
        conn.execute("PRAGMA busy_timeout = 10000").await?;
        conn.execute("PRAGMA foreign_keys = ON").await?;
        Ok(())
    })
}

/// Splits a migration file into statements: `;` at a line's end closes one (in a
/// `CREATE TRIGGER`, only the `END;` of its body); `--` lines are comments.
fn split_statements(sql: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in sql.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("--") || trimmed.is_empty() {
            continue;
        }
        current.push_str(line);
        current.push('\n');
        let trigger = current.trim_start().to_ascii_uppercase().starts_with("CREATE TRIGGER");
        let closes = if trigger {
            trimmed.eq_ignore_ascii_case("END;")
        } else {
            trimmed.ends_with(';')
        };
        if closes {
            out.push(current.trim().trim_end_matches(';').to_string());
            current.clear();
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

/// A new row identifier: random, positive and below 2^53 so that JavaScript clients
/// read it exactly.
pub fn new_id() -> i64 {
    use rand::Rng;
    rand::thread_rng().gen_range(1..(1i64 << 53))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_split_at_line_ends() {
        let s = split_statements("-- c\nCREATE TABLE a (x BIGINT);\n\nCREATE INDEX i ON a (x);\n");
        assert_eq!(s, vec!["CREATE TABLE a (x BIGINT)", "CREATE INDEX i ON a (x)"]);
    }

    #[test]
    fn a_trigger_is_one_statement() {
        let s = split_statements(
            "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n  DELETE FROM b;\n  INSERT INTO b VALUES (1);\nEND;\nCREATE INDEX i ON a (x);\n",
        );
        assert_eq!(s.len(), 2, "{s:?}");
        assert!(s[0].starts_with("CREATE TRIGGER") && s[0].ends_with("END"), "{s:?}");
        assert_eq!(s[1], "CREATE INDEX i ON a (x)");
    }

    #[test]
    fn paths_and_sqlite_urls_create_the_file() {
        assert_eq!(normalise_url("club.db").0, "sqlite://club.db?mode=rwc");
        assert_eq!(
            normalise_url("/tmp/a?b#c%d.db").0,
            "sqlite:///tmp/a%3Fb%23c%25d.db?mode=rwc"
        );
        assert_eq!(normalise_url("sqlite:///srv/p.db").0, "sqlite:///srv/p.db?mode=rwc");
        assert_eq!(normalise_url("sqlite:rel.db").0, "sqlite:rel.db?mode=rwc");
        assert_eq!(
            normalise_url("sqlite://p.db?cache=private").0,
            "sqlite://p.db?cache=private&mode=rwc"
        );
        assert_eq!(normalise_url("sqlite://p.db?mode=ro").0, "sqlite://p.db?mode=ro");
        assert_eq!(normalise_url("postgres://u@h/d").1, Backend::Postgres);
    }
}
