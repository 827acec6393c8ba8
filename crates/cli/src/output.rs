//! What a verb writes to standard output, and how a verb fails. `println!` panics when
//! the reader has gone (`chancery budget 1936 | head`); a write through `say!` returns
//! the error instead, and a closed pipe then ends the command quietly, as Unix tools do.

use std::io;

/// Why a verb stopped: a message for the user, or a reader that stopped reading.
#[derive(Debug)]
pub enum Failure {
    Message(String),
    PipeClosed,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Message(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::Message(message.to_string())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::PipeClosed
        } else {
            Failure::Message(format!("cannot write the output: {e}"))
        }
    }
}

/// `println!` to standard output that returns a write error (as a `Failure`) from the
/// enclosing function instead of panicking; `say!(raw …)` writes without the newline.
macro_rules! say {
    (raw $($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*).map_err($crate::output::Failure::from)?
    }};
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::output::Failure::from)?
    }};
}
pub(crate) use say;
