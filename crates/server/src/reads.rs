//! The connections reads run on.
//!
//! On PostgreSQL, sqlx's pool. On SQLite a pool of our own, because sqlx's pool tests
//! every connection given back to it with a ping, and an SQLite connection answers
//! through a thread of its own: each query then cost two hand-offs to that thread and
//! back, and a task spawned to give the connection back, and a read request makes three
//! or four queries. Under load those hand-offs were most of a request's time (a `perf`
//! profile of the README's mix; crates/server/README.md has the figures). Here a
//! connection goes back to the idle list when its user drops it, nothing more: an SQLite
//! connection serves its commands in order, so one whose user stopped waiting part way
//! (a client that hung up) simply finishes that command before the next.

use std::sync::{Arc, Mutex};

use futures_core::future::BoxFuture;
use futures_core::stream::BoxStream;
use futures_util::{StreamExt, TryStreamExt};
use sqlx::any::{AnyConnectOptions, AnyQueryResult, AnyRow, AnyStatement, AnyTypeInfo};
use sqlx::{Any, AnyConnection, AnyPool, ConnectOptions, Either, Error, Execute, Executor, Transaction};

/// Where reads go: an executor (`&app.db.read`) like a pool.
#[derive(Clone, Debug)]
pub enum Reads {
    Pool(AnyPool),
    Own(OwnPool),
}

/// A fixed number of SQLite connections, each opened with `setup` run on it.
#[derive(Clone)]
pub struct OwnPool {
    inner: Arc<Inner>,
}

type Setup = dyn Fn(&mut AnyConnection) -> BoxFuture<'_, Result<(), Error>> + Send + Sync;

struct Inner {
    idle: Mutex<Vec<AnyConnection>>,
    /// One for each connection, idle or in use.
    permits: Arc<tokio::sync::Semaphore>,
    options: AnyConnectOptions,
    setup: Box<Setup>,
    /// For the rare read that needs a transaction of its own (sqlx's `Transaction` wants
    /// a connection it can own).
    transactions: AnyPool,
}

/// A connection of an [`OwnPool`], given back when dropped.
pub struct Conn {
    conn: Option<AnyConnection>,
    /// Its thread is gone: dropped, not given back.
    broken: bool,
    pool: Arc<Inner>,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl std::ops::Deref for Conn {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        self.conn.as_ref().expect("a connection until dropped")
    }
}

impl std::ops::DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        self.conn.as_mut().expect("a connection until dropped")
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take().filter(|_| !self.broken) {
            self.pool.idle.lock().unwrap_or_else(|e| e.into_inner()).push(conn);
        }
    }
}

impl std::fmt::Debug for OwnPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnPool")
            .field("idle", &self.inner.idle.lock().map(|i| i.len()).unwrap_or(0))
            .finish()
    }
}

impl OwnPool {
    /// Opens `size` connections (each set up by `setup`) and a small sqlx pool beside
    /// them for read transactions.
    pub async fn open(
        options: AnyConnectOptions,
        size: usize,
        setup: Box<Setup>,
        transactions: AnyPool,
    ) -> Result<OwnPool, Error> {
        let mut idle = Vec::with_capacity(size);
        for _ in 0..size {
            idle.push(connect(&options, &*setup).await?);
        }
        Ok(OwnPool {
            inner: Arc::new(Inner {
                idle: Mutex::new(idle),
                permits: Arc::new(tokio::sync::Semaphore::new(size)),
                options,
                setup,
                transactions,
            }),
        })
    }

    /// A connection, waiting for one to be given back when all are in use.
    pub async fn acquire(&self) -> Result<Conn, Error> {
        let permit = self
            .inner
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Error::PoolClosed)?;
        let idle = self.inner.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(conn) => conn,
            // One was dropped as broken: open another in its place.
            None => connect(&self.inner.options, &*self.inner.setup).await?,
        };
        Ok(Conn {
            conn: Some(conn),
            broken: false,
            pool: self.inner.clone(),
            _permit: permit,
        })
    }
}

async fn connect(options: &AnyConnectOptions, setup: &Setup) -> Result<AnyConnection, Error> {
    let mut conn = options.connect().await?;
    setup(&mut conn).await?;
    Ok(conn)
}

/// An error after which a connection is not given back (its thread is gone).
fn breaks(e: &Error) -> bool {
    matches!(e, Error::WorkerCrashed | Error::Io(_) | Error::Protocol(_))
}

impl Reads {
    /// A read transaction (one query's worth of consistency across several).
    pub async fn begin(&self) -> Result<Transaction<'static, Any>, Error> {
        match self {
            Reads::Pool(p) => p.begin().await,
            Reads::Own(o) => o.inner.transactions.begin().await,
        }
    }
}

impl<'c> Executor<'c> for &'c Reads {
    type Database = Any;

    fn fetch_many<'e, 'q: 'e, E>(self, query: E) -> BoxStream<'e, Result<Either<AnyQueryResult, AnyRow>, Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        match self {
            Reads::Pool(p) => p.fetch_many(query),
            Reads::Own(o) => {
                let o = o.clone();
                // Every row is read before the connection is given back; the server's
                // queries are bounded (pages, limits), and most read them all anyway.
                futures_util::stream::once(async move {
                    let mut conn = o.acquire().await?;
                    let rows: Result<Vec<_>, Error> = conn.fetch_many(query).try_collect().await;
                    conn.broken = rows.as_ref().err().is_some_and(breaks);
                    Ok::<_, Error>(futures_util::stream::iter(rows?.into_iter().map(Ok)))
                })
                .try_flatten()
                .boxed()
            }
        }
    }

    fn fetch_optional<'e, 'q: 'e, E>(self, query: E) -> BoxFuture<'e, Result<Option<AnyRow>, Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        match self {
            Reads::Pool(p) => p.fetch_optional(query),
            Reads::Own(o) => {
                let o = o.clone();
                Box::pin(async move {
                    let mut conn = o.acquire().await?;
                    let row = conn.fetch_optional(query).await;
                    conn.broken = row.as_ref().err().is_some_and(breaks);
                    row
                })
            }
        }
    }

    fn prepare_with<'e, 'q: 'e>(
        self,
        sql: &'q str,
        parameters: &'e [AnyTypeInfo],
    ) -> BoxFuture<'e, Result<AnyStatement<'q>, Error>>
    where
        'c: 'e,
    {
        match self {
            Reads::Pool(p) => p.prepare_with(sql, parameters),
            Reads::Own(o) => {
                let o = o.clone();
                Box::pin(async move { o.acquire().await?.prepare_with(sql, parameters).await })
            }
        }
    }

    fn describe<'e, 'q: 'e>(self, sql: &'q str) -> BoxFuture<'e, Result<sqlx::Describe<Any>, Error>>
    where
        'c: 'e,
    {
        match self {
            Reads::Pool(p) => p.describe(sql),
            Reads::Own(o) => {
                let o = o.clone();
                Box::pin(async move { o.acquire().await?.describe(sql).await })
            }
        }
    }
}
