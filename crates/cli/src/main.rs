//! The `chancery` command.

mod adjudicate_json;
mod commands;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "chancery",
    version,
    about = "Chancery: a Diplomacy judge and game-master server"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run test-case files (DATC text format); prints failures and `N passed, M failed`.
    Cases {
        #[arg(required = true)]
        files: Vec<String>,
        /// Also print one line per passing case.
        #[arg(long)]
        verbose: bool,
        /// A file naming cases (one per line) whose result is known to differ on
        /// purpose, e.g. where DATC v3.0 changed a v2.4 preference. They are reported
        /// and not counted.
        #[arg(long)]
        known: Option<String>,
    },
    /// Print a variant's map.
    Map {
        /// A built-in variant name or a path to a .var file.
        variant: String,
        /// Print the graph as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check a variant file and print its counts; exits non-zero on errors.
    Lint {
        /// A built-in variant name or a path to a .var file.
        variant: String,
    },
    /// Adjudicate one phase: JSON {variant, state, orders} on stdin, outcome on stdout.
    Adjudicate {
        /// Read the request from this file instead of stdin.
        #[arg(long)]
        input: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Cases { files, verbose, known } => commands::cases(&files, verbose, known.as_deref()),
        Command::Map { variant, json } => commands::map(&variant, json),
        Command::Lint { variant } => commands::lint(&variant),
        Command::Adjudicate { input } => adjudicate_json::run(input.as_deref()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("chancery: {e}");
            ExitCode::from(2)
        }
    }
}
