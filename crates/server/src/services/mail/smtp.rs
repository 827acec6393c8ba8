//! The SMTP side of the sender: one connection kept from mail to mail, and a send that
//! records a mail as sent before the mail server can have taken it.
//!
//! A mail server takes a message when the line holding a single dot that ends its DATA
//! reaches it (RFC 5321 §4.1.1.4, §3.3); a client that stops before that leaves it an
//! unfinished message, which it discards. So the sender commits its "sent" mark after
//! the message's last byte and before that dot: a kill before the commit leaves the mail
//! unsent in the outbox and the mail server without it; a kill after the dot leaves it
//! sent and marked. What is left is the instant between the commit and the dot's write,
//! where a kill loses the mail instead of sending it twice; on PostgreSQL the dot is
//! written straight after the commit's request, before its reply (see [`Smtp::send`]).
//!
//! lettre does the protocol: its connection ([`AsyncSmtpConnection`]) sends the commands,
//! reads the replies, does STARTTLS or TLS and AUTH, and its `message_iter` escapes the
//! message and writes the dot once the iterator it is given has ended; our iterator
//! commits in its last `next`. The socket under lettre's connection is ours ([`Gate`]):
//! when the commit fails it refuses the dot's write, and after a commit it notes whether
//! any byte left, which is how a broken connection is told from a taken mail.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{AsyncSmtpConnection, AsyncTokioStream, Tls, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// How long one step of the conversation (connecting, a command's reply) may take.
const STEP: Duration = Duration::from_secs(30);
/// A kept connection idle longer than this is closed and a new one opened (mail servers
/// drop idle clients after a few minutes; RFC 5321 §4.5.3.2.7 asks them to wait five).
const IDLE: Duration = Duration::from_secs(60);

/// Where and how to reach the mail server: `--smtp` read.
pub struct Config {
    host: String,
    port: u16,
    tls: Tls,
    credentials: Option<Credentials>,
    hello: ClientId,
}

impl Config {
    /// Reads an `smtp://` or `smtps://` URL. `smtp://` uses STARTTLS and requires it,
    /// except to a loopback address, where plain SMTP is allowed; `?tls=opportunistic`
    /// takes STARTTLS only when offered, `?tls=required` always requires it; `smtps://`
    /// is TLS from the first byte. The user and password (percent-encoded) are sent with
    /// AUTH; a path names this host in EHLO (else `hello`). Ports default as RFC 8314
    /// has them: 25 for plain SMTP, 587 with STARTTLS, 465 for TLS.
    pub fn parse(url: &str, hello: &str) -> Result<Config, String> {
        let shown = redact(url);
        let bad = |why: String| format!("--smtp {shown}: {why}");
        let parsed = url::Url::parse(url).map_err(|e| bad(e.to_string()))?;
        let host = parsed
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("no host".into()))?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let loopback = host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
        let tls_param = parsed
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.into_owned());
        let params = || TlsParameters::new(host.clone()).map_err(|e| bad(e.to_string()));
        let (tls, port) = match (parsed.scheme(), tls_param.as_deref()) {
            ("smtp", None) if loopback => (Tls::None, 25),
            ("smtp", None | Some("required")) => (Tls::Required(params()?), 587),
            ("smtp", Some("opportunistic")) => (Tls::Opportunistic(params()?), 587),
            ("smtps", None) => (Tls::Wrapper(params()?), 465),
            (scheme @ ("smtp" | "smtps"), Some(other)) => {
                return Err(bad(format!(
                    "tls={other} is not one of required or opportunistic (for {scheme}://)"
                )))
            }
            (scheme, _) => return Err(bad(format!("{scheme}:// is not smtp:// or smtps://"))),
        };
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(|s| s.into_owned())
                .map_err(|e| bad(e.to_string()))
        };
        let credentials = match parsed.password() {
            Some(password) => Some(Credentials::new(decode(parsed.username())?, decode(password)?)),
            None if !parsed.username().is_empty() => {
                return Err(bad("a user without a password".into()));
            }
            None => None,
        };
        let path = parsed.path().trim_matches('/');
        let hello = if path.is_empty() { hello } else { path };
        // RFC 5321 §4.1.4: a host name, or an address literal.
        let hello = match hello.trim_start_matches('[').trim_end_matches(']').parse() {
            Ok(std::net::IpAddr::V4(ip)) => ClientId::Ipv4(ip),
            Ok(std::net::IpAddr::V6(ip)) => ClientId::Ipv6(ip),
            Err(_) => ClientId::Domain(hello.to_string()),
        };
        Ok(Config {
            port: parsed.port().unwrap_or(port),
            host,
            tls,
            credentials,
            hello,
        })
    }

    /// Trusts `pem`'s certificates besides the system's (a club's own mail server).
    pub fn trust(&mut self, pem: &[u8]) -> Result<(), String> {
        let certificate =
            lettre::transport::smtp::client::Certificate::from_pem(pem).map_err(|e| format!("a certificate: {e}"))?;
        let params = TlsParameters::builder(self.host.clone())
            .add_root_certificate(certificate)
            .build()
            .map_err(|e| e.to_string())?;
        self.tls = match &self.tls {
            Tls::None => Tls::None,
            Tls::Opportunistic(_) => Tls::Opportunistic(params),
            Tls::Required(_) => Tls::Required(params),
            Tls::Wrapper(_) => Tls::Wrapper(params),
        };
        Ok(())
    }

    /// How the connection is made, for the console and messages.
    pub fn describe(&self) -> String {
        let how = match self.tls {
            Tls::None => "plain SMTP",
            Tls::Opportunistic(_) => "SMTP with STARTTLS when offered",
            Tls::Required(_) => "SMTP with STARTTLS",
            Tls::Wrapper(_) => "SMTP over TLS",
        };
        format!("{how} to {}:{}", self.host, self.port)
    }
}

/// The URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, rest)), Some(_)) => {
            let (userinfo, host) = rest.rsplit_once('@').unwrap_or(("", rest));
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{scheme}://{user}:…@{host}")
        }
        _ => url.to_string(),
    }
}

/// A refusal or a failure, in the mail server's words or the connection's.
#[derive(Debug)]
pub struct Failure {
    pub why: String,
    pub kind: FailureKind,
    /// The mail server answered (4xx or 5xx), as against a connection that failed.
    answered: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Try again later: a 4xx, a connection that failed, or a refusal that is not about
    /// this mail (the greeting, AUTH, or the sender's address: the club's settings).
    Later,
    /// The recipient refused for good (5xx to RCPT): the address bounces.
    Recipient,
    /// The message refused for good (5xx at its end, or it cannot be sent to this
    /// mail server at all); the address is not to blame.
    Message,
}

impl Failure {
    fn later(why: impl fmt::Display) -> Failure {
        Failure {
            why: why.to_string(),
            kind: FailureKind::Later,
            answered: false,
        }
    }

    /// lettre's error at a step where a 5xx means `permanent`.
    fn at(e: lettre::transport::smtp::Error, permanent: FailureKind) -> Failure {
        Failure {
            why: e.to_string(),
            kind: if e.is_permanent() {
                permanent
            } else {
                FailureKind::Later
            },
            answered: e.is_permanent() || e.is_transient(),
        }
    }
}

/// What became of one mail.
#[derive(Debug)]
pub enum Outcome {
    /// Marked sent (the commit was made) and taken by the mail server.
    Taken,
    /// Not taken; the mark was not committed.
    NotTaken(Failure),
    /// Not taken, but the mark was committed before the mail server refused the mail
    /// or the connection broke before the dot left: the mark is to be undone.
    Undo(Failure),
    /// Taken by the mail server, but the commit sent before the dot then failed: the
    /// mail is to be marked sent afresh.
    TakenUnmarked(String),
}

/// The commit that records a mail as sent; run just before the dot.
pub type Commit<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;

/// The mail server, with the connection kept between mails.
pub struct Smtp {
    config: Config,
    open: tokio::sync::Mutex<Option<Open>>,
}

struct Open {
    conn: AsyncSmtpConnection,
    gate: Arc<GateState>,
    used: Instant,
}

impl Smtp {
    pub fn new(config: Config) -> Smtp {
        Smtp {
            config,
            open: tokio::sync::Mutex::new(None),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Sends `message` to the envelope's recipients and runs `commit` between the
    /// message's last byte and the dot that ends it. Needs a multi-threaded runtime (the
    /// commit is waited for inside lettre's writing, see [`ThenCommit`]); on any other
    /// the commit is made before the message is written, and the window in which a kill
    /// loses the mail is the writing of the message.
    ///
    /// `applied_once_sent` says that the database applies the commit once its request
    /// has left this process, whatever becomes of the process (PostgreSQL reads and
    /// runs a COMMIT already on its socket before it notices the client gone): then the
    /// dot follows the request at once and the reply is awaited after the mail server's,
    /// so that a kill between the two costs nothing and the instant left is the one
    /// between two system calls. SQLite commits in a thread of this process, so there
    /// the commit is awaited before the dot.
    pub async fn send(
        &self,
        envelope: &Envelope,
        message: &[u8],
        commit: Commit<'_>,
        applied_once_sent: bool,
    ) -> Outcome {
        let mut open = self.open.lock().await;
        let reuse = match open.as_mut() {
            Some(o) if o.used.elapsed() < IDLE => step(async { o.conn.command(Rset).await.map_err(Failure::from) })
                .await
                .is_ok(),
            _ => false,
        };
        if !reuse {
            *open = None;
            match self.connect().await {
                Ok(o) => *open = Some(o),
                Err(f) => return Outcome::NotTaken(f),
            }
        }
        let Some(o) = open.as_mut() else {
            return Outcome::NotTaken(Failure::later("no connection"));
        };
        let outcome = transaction(o, envelope, message, commit, applied_once_sent).await;
        if matches!(outcome, Outcome::Taken) {
            o.used = Instant::now();
        } else {
            // Whatever state the conversation is in, a new one starts clean; closing
            // this one mid-DATA is what makes the mail server drop the message.
            *open = None;
        }
        outcome
    }

    async fn connect(&self) -> Result<Open, Failure> {
        let c = &self.config;
        let tcp = step(async {
            TcpStream::connect((c.host.as_str(), c.port))
                .await
                .map_err(|e| Failure::later(format!("connecting to {}:{}: {e}", c.host, c.port)))
        })
        .await?;
        let _ = tcp.set_nodelay(true);
        let gate = Arc::new(GateState::default());
        let stream: Box<dyn AsyncTokioStream> = Box::new(Gate {
            tcp,
            state: gate.clone(),
        });
        let stream: Box<dyn AsyncTokioStream> = match &c.tls {
            Tls::Wrapper(params) => {
                // TLS from the first byte: lettre's stream, over the gate, wrapped so
                // that its connection can take it as a stream of its own.
                #[allow(deprecated)]
                let mut tls = lettre::transport::smtp::client::AsyncNetworkStream::use_existing_tokio1(stream);
                step(async { tls.upgrade_tls(params.clone()).await.map_err(Failure::from) }).await?;
                Box::new(Wrapped(tls))
            }
            _ => stream,
        };
        let mut conn = step(async {
            AsyncSmtpConnection::connect_with_transport(stream, &c.hello)
                .await
                .map_err(Failure::from)
        })
        .await?;
        match &c.tls {
            Tls::Opportunistic(params) if conn.can_starttls() => {
                step(async { conn.starttls(params.clone(), &c.hello).await.map_err(Failure::from) }).await?;
            }
            Tls::Required(params) => {
                step(async { conn.starttls(params.clone(), &c.hello).await.map_err(Failure::from) }).await?;
            }
            _ => {}
        }
        if let Some(credentials) = &c.credentials {
            step(async { conn.auth(DEFAULT_MECHANISMS, credentials).await.map_err(Failure::from) }).await?;
        }
        Ok(Open {
            conn,
            gate,
            used: Instant::now(),
        })
    }
}

impl From<lettre::transport::smtp::Error> for Failure {
    /// Outside a mail's own conversation a refusal is never the mail's fault.
    fn from(e: lettre::transport::smtp::Error) -> Failure {
        Failure::at(e, FailureKind::Later)
    }
}

/// One step of the conversation, given [`STEP`] to finish.
async fn step<T>(f: impl Future<Output = Result<T, Failure>>) -> Result<T, Failure> {
    match tokio::time::timeout(STEP, f).await {
        Ok(r) => r,
        Err(_) => Err(Failure::later(format!(
            "the mail server did not answer within {} s",
            STEP.as_secs()
        ))),
    }
}

/// MAIL, RCPT, DATA, the message, the commit and the dot, on an open connection.
async fn transaction(
    o: &mut Open,
    envelope: &Envelope,
    message: &[u8],
    commit: Commit<'_>,
    applied_once_sent: bool,
) -> Outcome {
    // As lettre's own `send` does: say so when the addresses or the message are not
    // ASCII, and do not send them to a server that cannot take them.
    let mut options = Vec::new();
    let non_ascii_address = envelope.from().is_some_and(|a| !a.to_string().is_ascii())
        || envelope.to().iter().any(|a| !a.to_string().is_ascii());
    if non_ascii_address {
        if !o.conn.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Outcome::NotTaken(Failure {
                why: "the address is not ASCII and the mail server does not take SMTPUTF8".into(),
                kind: FailureKind::Message,
                answered: false,
            });
        }
        options.push(MailParameter::SmtpUtfEight);
    }
    if !message.is_ascii() {
        if !o.conn.server_info().supports_feature(Extension::EightBitMime) {
            return Outcome::NotTaken(Failure {
                why: "the message is not ASCII and the mail server does not take 8BITMIME".into(),
                kind: FailureKind::Message,
                answered: false,
            });
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    let conn = &mut o.conn;
    let before_data = async {
        // A sender's address refused is the club's setting, not this mail's fault.
        conn.command(Mail::new(envelope.from().cloned(), options))
            .await
            .map_err(Failure::from)?;
        for to in envelope.to() {
            conn.command(Rcpt::new(to.clone(), vec![]))
                .await
                .map_err(|e| Failure::at(e, FailureKind::Recipient))?;
        }
        conn.command(Data)
            .await
            .map_err(|e| Failure::at(e, FailureKind::Message))?;
        Ok::<(), Failure>(())
    };
    if let Err(f) = step(before_data).await {
        return Outcome::NotTaken(f);
    }
    let mut committed = None;
    let multi_thread = tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread;
    let mut commit = Some(commit);
    if !multi_thread {
        let result = match commit.take() {
            Some(c) => c.await,
            None => Ok(()),
        };
        if let Err(why) = result {
            return Outcome::NotTaken(Failure::later(format!("recording the mail as sent: {why}")));
        }
        o.gate.watch();
        committed = Some(Committed::Done(Ok(())));
    }
    let parts = ThenCommit {
        message: Some(message),
        commit,
        applied_once_sent,
        committed: &mut committed,
        gate: &o.gate,
    };
    let reply = step(async {
        o.conn
            .message_iter(parts)
            .await
            .map_err(|e| Failure::at(e, FailureKind::Message))
    })
    .await;
    let committed = match committed {
        Some(Committed::InFlight(c)) => match c.await {
            Ok(()) => Some(Ok(())),
            // The dot followed the commit's request, which the database then refused.
            Err(why) => {
                return match reply {
                    Ok(_) => Outcome::TakenUnmarked(why),
                    Err(f) => Outcome::NotTaken(f),
                }
            }
        },
        Some(Committed::Done(result)) => Some(result),
        None => None,
    };
    match (committed, reply) {
        (Some(Ok(())), Ok(_)) => Outcome::Taken,
        (Some(Ok(())), Err(f)) if f.answered => Outcome::Undo(f),
        // No reply after the dot: the mail server may well have the mail. Counted as
        // sent, so that it never arrives twice.
        (Some(Ok(())), Err(f)) if o.gate.wrote() => {
            tracing::warn!(
                "mail: no reply after the end of the message ({}); counted as sent",
                f.why
            );
            Outcome::Taken
        }
        (Some(Ok(())), Err(f)) => Outcome::Undo(f),
        (Some(Err(why)), _) => Outcome::NotTaken(Failure::later(format!("recording the mail as sent: {why}"))),
        (None, Err(f)) => Outcome::NotTaken(f),
        (None, Ok(_)) => Outcome::NotTaken(Failure::later("the message ended without its commit")),
    }
}

/// The message, then nothing: the `next` that ends it runs the commit first, so lettre
/// writes the dot only after the mark is in the database, and a gate shut by a failed
/// commit turns that write into an error.
struct ThenCommit<'m, 'c> {
    message: Option<&'m [u8]>,
    commit: Option<Commit<'c>>,
    applied_once_sent: bool,
    committed: &'m mut Option<Committed<'c>>,
    gate: &'m GateState,
}

/// Where the commit stands when lettre writes the dot.
enum Committed<'c> {
    Done(Result<(), String>),
    /// Its request has left; its reply is awaited after the mail server's.
    InFlight(Commit<'c>),
}

impl ThenCommit<'_, '_> {
    fn done(&mut self, result: Result<(), String>) {
        match &result {
            Ok(()) => self.gate.watch(),
            Err(_) => self.gate.shut(),
        }
        *self.committed = Some(Committed::Done(result));
    }
}

impl<'m> Iterator for ThenCommit<'m, '_> {
    type Item = &'m [u8];

    fn next(&mut self) -> Option<&'m [u8]> {
        if let Some(m) = self.message.take() {
            return Some(m);
        }
        if let Some(mut commit) = self.commit.take() {
            if self.applied_once_sent {
                // One poll writes the request to the database's socket and returns
                // without its reply (no waker is needed: the future is polled again,
                // awaited, once lettre has read the mail server's reply).
                let mut cx = Context::from_waker(std::task::Waker::noop());
                match commit.as_mut().poll(&mut cx) {
                    Poll::Ready(result) => self.done(result),
                    Poll::Pending => {
                        self.gate.watch();
                        *self.committed = Some(Committed::InFlight(commit));
                    }
                }
            } else {
                // lettre polls this iterator inside its own future, so the commit is
                // waited for here, on this thread, with the runtime's other work moved
                // elsewhere.
                let handle = tokio::runtime::Handle::current();
                let result = tokio::task::block_in_place(|| handle.block_on(commit));
                self.done(result);
            }
        }
        None
    }
}

#[derive(Debug, Default)]
struct GateState {
    /// A commit failed: nothing more may be written.
    shut: AtomicBool,
    /// The commit was made: note whether any byte leaves after it.
    watching: AtomicBool,
    wrote: AtomicBool,
}

impl GateState {
    fn shut(&self) {
        self.shut.store(true, Ordering::SeqCst);
    }
    fn watch(&self) {
        self.wrote.store(false, Ordering::SeqCst);
        self.watching.store(true, Ordering::SeqCst);
    }
    fn wrote(&self) -> bool {
        self.wrote.load(Ordering::SeqCst)
    }
}

/// The connection's socket, which can be shut to writing and tells whether a byte left
/// since the commit.
#[derive(Debug)]
struct Gate {
    tcp: TcpStream,
    state: Arc<GateState>,
}

impl AsyncRead for Gate {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Gate {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if self.state.shut.load(Ordering::SeqCst) {
            return Poll::Ready(Err(io::Error::other(
                "the mail could not be recorded as sent, so its end is not written",
            )));
        }
        let written = Pin::new(&mut self.tcp).poll_write(cx, buf);
        if matches!(written, Poll::Ready(Ok(n)) if n > 0) && self.state.watching.load(Ordering::SeqCst) {
            self.state.wrote.store(true, Ordering::SeqCst);
        }
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

impl AsyncTokioStream for Gate {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.tcp.peer_addr()
    }
}

/// lettre's TLS stream (futures' traits) as a stream lettre's connection takes (tokio's).
/// (lettre marks the type deprecated as not meant to be public; it is the only way to
/// put its TLS over a socket of our own before the greeting.)
#[allow(deprecated)]
#[derive(Debug)]
struct Wrapped(lettre::transport::smtp::client::AsyncNetworkStream);

#[allow(deprecated)]
impl AsyncRead for Wrapped {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let unfilled = buf.initialize_unfilled();
        match futures_io::AsyncRead::poll_read(Pin::new(&mut self.0), cx, unfilled) {
            Poll::Ready(Ok(n)) => {
                buf.advance(n);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => Poll::Pending,
        }
    }
}

#[allow(deprecated)]
impl AsyncWrite for Wrapped {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        futures_io::AsyncWrite::poll_write(Pin::new(&mut self.0), cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        futures_io::AsyncWrite::poll_flush(Pin::new(&mut self.0), cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        futures_io::AsyncWrite::poll_close(Pin::new(&mut self.0), cx)
    }
}

#[allow(deprecated)]
impl AsyncTokioStream for Wrapped {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.0.peer_addr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_read() {
        let c = Config::parse("smtp://127.0.0.1:2525", "club.example").unwrap();
        assert!(matches!(c.tls, Tls::None), "plain SMTP to a loopback address");
        assert_eq!(c.hello, ClientId::Domain("club.example".into()));
        let c = Config::parse("smtp://127.0.0.1:2525", "127.0.0.1").unwrap();
        assert_eq!(c.hello, ClientId::Ipv4(std::net::Ipv4Addr::LOCALHOST));
        assert_eq!((c.host.as_str(), c.port), ("127.0.0.1", 2525));
        assert!(c.credentials.is_none());
        let c = Config::parse("smtp://me%40club:p%3Ass@mail.example", "club.example").unwrap();
        assert!(
            matches!(c.tls, Tls::Required(_)),
            "STARTTLS required away from loopback"
        );
        assert_eq!(c.port, 587);
        assert_eq!(c.credentials, Some(Credentials::new("me@club".into(), "p:ss".into())));
        let c = Config::parse("smtps://u:p@mail.example", "club.example").unwrap();
        assert!(matches!(c.tls, Tls::Wrapper(_)));
        assert_eq!(c.port, 465);
        let c = Config::parse("smtp://localhost:25?tls=required", "club.example").unwrap();
        assert!(matches!(c.tls, Tls::Required(_)));
        let c = Config::parse("smtp://mail.example?tls=opportunistic", "club.example").unwrap();
        assert!(matches!(c.tls, Tls::Opportunistic(_)));
        let c = Config::parse("smtp://[::1]:2525/judge.club.example", "club.example").unwrap();
        assert_eq!(c.host, "::1");
        assert_eq!(c.hello, ClientId::Domain("judge.club.example".into()));
        for bad in [
            "ftp://mail.example",
            "smtp://mail.example?tls=sometimes",
            "smtp://me@mail.example",
            "smtp:///nohost",
            "not a url",
        ] {
            assert!(Config::parse(bad, "club.example").is_err(), "{bad}");
        }
        let e = Config::parse("smtp://me:secret@mail.example?tls=x", "c").err().unwrap();
        assert!(!e.contains("secret"), "{e}");
    }

    #[test]
    fn redaction() {
        assert_eq!(
            redact("smtp://me:secret@mail.example:587"),
            "smtp://me:…@mail.example:587"
        );
        assert_eq!(redact("smtp://mail.example"), "smtp://mail.example");
    }
}
