//! The `chancery` command.

mod adjudicate_json;
mod bot;
mod budget;
mod commands;
mod order_lines;
mod output;
mod render;
mod selfplay;
mod serve;
mod shape;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use output::Failure;

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
        #[arg(long, conflicts_with = "geojson")]
        json: bool,
        /// Print the spaces' shapes on real geography as an RFC 7946 GeoJSON
        /// FeatureCollection.
        #[arg(long)]
        geojson: bool,
    },
    /// Check a variant file and print its counts, and check its drawing (the committed
    /// shapes, NAME.shapes.geojson beside a .var file, or --shapes) against its graph;
    /// exits non-zero on errors.
    Lint {
        /// A built-in variant name or a path to a .var file.
        variant: String,
        /// A shapes file (GeoJSON) to check instead.
        #[arg(long)]
        shapes: Option<String>,
    },
    /// Shape a variant's spaces on the real geography (Natural Earth) and write them as
    /// GeoJSON, the form of variants/NAME.shapes.geojson; prints how the drawing checks.
    Shape {
        /// A built-in variant name or a path to a .var file.
        variant: String,
        /// Output file, or - for stdout.
        #[arg(short, long)]
        output: String,
        /// Side of a grid cell in km: smaller is finer and slower.
        #[arg(long, default_value_t = 4.0)]
        cell_km: f64,
    },
    /// Run the club server: games, deadlines, press and GM tools over HTTP.
    Serve {
        /// Address and port to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// `postgres://…` for PostgreSQL; for SQLite a path or a `sqlite:` URL
        /// (`sqlite:///abs/club.db`, `sqlite:club.db`); the file is created on first start.
        #[arg(long, default_value = "chancery.db")]
        database: String,
        /// The address browsers reach the server at, when a proxy serves it
        /// (`https://club.example`): accepted as the origin of the pages' requests, and
        /// with `https://` the session cookie is marked `Secure`.
        #[arg(long)]
        public_url: Option<String>,
        /// The mail server, `smtp://user:password@host:587` (STARTTLS) or `smtps://…`
        /// (TLS); also read from CHANCERY_SMTP.
        #[arg(long)]
        smtp: Option<String>,
        /// Without a mail server: write each mail to this folder as an `.eml` file.
        #[arg(long)]
        mail_dir: Option<String>,
        /// The sender of the club's mails, `Name <address>`.
        #[arg(long)]
        mail_from: Option<String>,
        /// Make this account a moderator of the club (repeatable): how a club gets its
        /// first moderator, who then appoints others on the moderation page.
        #[arg(long = "moderator", value_name = "NAME")]
        moderators: Vec<String>,
        /// How many phases a bot in a seat may have the engine judge for one decision
        /// (default: the strong bot's own); the effort is a count, not a time, so that
        /// a bot decides alike whatever the machine's load.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        bot_judgements: Option<u32>,
    },
    /// Draw a variant's map to SVG or PNG (by the file name): the starting position,
    /// a saved position, one phase's orders with their results, or a test case.
    Render {
        /// A built-in variant name or a path to a .var file.
        variant: String,
        /// A position in the JSON form of `chancery adjudicate` (default: the start).
        #[arg(long)]
        state: Option<String>,
        /// Orders to adjudicate and draw: {"England": ["F lon - nth"]} or ["England: F lon - nth"].
        #[arg(long, conflicts_with = "case")]
        orders: Option<String>,
        /// A case from a DATC-format case file: its position and orders.
        #[arg(long, num_args = 2, value_names = ["FILE", "CASE"])]
        case: Option<Vec<String>>,
        /// Output file: .svg, .png, or - for SVG on stdout.
        #[arg(short, long)]
        output: String,
        /// Draw the position after the orders instead of the orders.
        #[arg(long)]
        after: bool,
        /// Full names instead of abbreviations.
        #[arg(long)]
        names: bool,
        /// Leave out the legend panel beside the map (each power's centres and units,
        /// and the key): the picture is then the map alone, 1400 pixels wide.
        #[arg(long)]
        no_legend: bool,
        /// Pixels per SVG unit in a PNG.
        #[arg(long, default_value_t = 1.0)]
        scale: f32,
    },
    /// Print each great power's Diplomacy Points this turn, with the reason for each
    /// deduction (1936, 1648).
    Budget {
        /// A built-in variant name or a path to a .var file.
        variant: String,
        /// A position in the JSON form of `chancery adjudicate` (default: the start).
        #[arg(long)]
        state: Option<String>,
        /// A phase as a `chancery adjudicate` request (position, orders, bids): judge
        /// it and print the GM's bid report after the budgets.
        #[arg(long)]
        phase: Option<String>,
    },
    /// Judge one phase: JSON {variant, state, orders, bids} on stdin, outcome on stdout.
    Adjudicate {
        /// Read the request from this file instead of stdin.
        #[arg(long)]
        input: Option<String>,
    },
    /// A bot's orders (and DP bids) for one power: a position in the form of
    /// `chancery adjudicate` on stdin, {"orders": [...], "bids": [...]} on stdout.
    Bot {
        /// A built-in variant name or a path to a .var file.
        variant: String,
        /// The power to play (a great power; it orders its factions too).
        #[arg(long)]
        power: String,
        /// The seed of the bot's dice: the same seed, the same decision.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// random, baseline or strong.
        #[arg(long, default_value = "strong")]
        level: String,
        /// The strong bot's budget: phases the engine may judge for one decision.
        #[arg(long)]
        judgements: Option<u32>,
        /// Read the request from this file instead of stdin.
        #[arg(long)]
        input: Option<String>,
    },
    /// Play whole games between bots, seats rotated, and print a table per kind of
    /// seat: centres at the end, solo wins, eliminations, time per decision.
    Selfplay {
        /// A built-in variant name or a path to a .var file.
        variant: String,
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Years per game (a game also ends at a victory).
        #[arg(long, default_value_t = 20)]
        years: i32,
        /// Seat kinds for the great powers in order, the last repeated to fill the
        /// board: `strong,baseline` is one strong bot against baselines.
        #[arg(long, default_value = "strong,baseline")]
        seats: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The strong bot's budget: phases the engine may judge for one decision.
        #[arg(long)]
        judgements: Option<u32>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve {
            listen,
            database,
            public_url,
            smtp,
            mail_dir,
            mail_from,
            moderators,
            bot_judgements,
        } => serve::run(chancery_server::ServeOptions {
            listen,
            database,
            public_url,
            smtp,
            mail_dir,
            mail_from,
            moderators,
            bot_judgements,
            ..Default::default()
        }),
        Command::Cases { files, verbose, known } => commands::cases(&files, verbose, known.as_deref()),
        Command::Map { variant, json, geojson } => commands::map(&variant, json, geojson),
        Command::Lint { variant, shapes } => commands::lint(&variant, shapes.as_deref()),
        Command::Shape {
            variant,
            output,
            cell_km,
        } => shape::run(&variant, &output, cell_km),
        Command::Adjudicate { input } => adjudicate_json::run(input.as_deref()),
        Command::Bot {
            variant,
            power,
            seed,
            level,
            judgements,
            input,
        } => bot::run(&bot::BotArgs {
            variant: &variant,
            power: &power,
            seed,
            level: &level,
            judgements,
            input: input.as_deref(),
        }),
        Command::Selfplay {
            variant,
            games,
            years,
            seats,
            seed,
            threads,
            judgements,
        } => selfplay::run(&selfplay::SelfplayArgs {
            variant: &variant,
            games,
            years,
            seats: &seats,
            seed,
            threads,
            judgements,
        }),
        Command::Budget { variant, state, phase } => budget::run(&variant, state.as_deref(), phase.as_deref()),
        Command::Render {
            variant,
            state,
            orders,
            case,
            output,
            after,
            names,
            no_legend,
            scale,
        } => render::run(&render::RenderArgs {
            variant: &variant,
            state: state.as_deref(),
            orders: orders.as_deref(),
            case: case.as_deref(),
            output: &output,
            after,
            names,
            no_legend,
            scale,
        }),
    };
    match result {
        Ok(code) => code,
        // The reader has all it wanted (`chancery budget 1936 | head`).
        Err(Failure::PipeClosed) => ExitCode::SUCCESS,
        Err(Failure::Message(e)) => {
            eprintln!("chancery: {e}");
            ExitCode::from(2)
        }
    }
}
