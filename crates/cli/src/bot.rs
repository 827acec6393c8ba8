//! `chancery bot`: one power's decision for one phase. A request in the form of
//! `chancery adjudicate` (docs/adjudicate-json.md: the variant and the position; any
//! orders in it are ignored) on standard input or from a file; `{"orders": [...],
//! "bids": [...]}` in the project's notation on standard output. The phase in the
//! position says which kind of orders: movement (with DP bids in 1936 and 1648),
//! retreats, or the Winter's builds and removals.

use std::process::ExitCode;

use chancery_bot::{decide, Level, Settings};
use chancery_engine::json::{state_from_json, StateJson};
use chancery_engine::GameState;
use serde::Deserialize;

use crate::adjudicate_json::read_input;
use crate::commands::load;
use crate::output::{say, Failure};

#[derive(Deserialize)]
struct Request {
    /// When given, it must name the variant of the command line.
    variant: Option<String>,
    /// Absent: the variant's starting position.
    state: Option<StateJson>,
}

pub struct BotArgs<'a> {
    pub variant: &'a str,
    pub power: &'a str,
    pub seed: u64,
    pub level: &'a str,
    pub judgements: Option<u32>,
    pub input: Option<&'a str>,
}

pub fn run(args: &BotArgs) -> Result<ExitCode, Failure> {
    let v = load(args.variant)?;
    let level = Level::parse(args.level)
        .ok_or_else(|| format!("unknown level `{}`: random, baseline or strong", args.level))?;
    let player = v
        .find_power(args.power)
        .ok_or_else(|| format!("{} has no power `{}`", v.title, args.power))?;
    let text = read_input(args.input)?;
    let request: Request = serde_json::from_str(&text).map_err(|e| format!("request: {e}"))?;
    if let Some(name) = &request.variant {
        if load(name).map(|r| r.id) != Ok(v.id.clone()) {
            return Err(format!("the request is for `{name}`, not `{}`", args.variant).into());
        }
    }
    let state = match &request.state {
        Some(s) => state_from_json(&v, s).map_err(|e| format!("state: {e}"))?,
        None => GameState::initial(&v),
    };
    let mut settings = Settings::new(level, args.seed);
    if let Some(j) = args.judgements {
        settings.judgements = j;
    }
    let d = decide(&v, &state, player, &settings);
    // A faction's builds and removals are given in its name (1936): those lines name
    // it, as the request form `Power: order` does.
    let orders: Vec<String> = d
        .orders
        .iter()
        .map(|o| {
            if o.power == player {
                o.display(&v).to_string()
            } else {
                format!("{}: {}", v.power(o.power).name, o.display(&v))
            }
        })
        .collect();
    let bids: Vec<String> = d
        .bids
        .iter()
        .map(|b| format!("{} {}", b.dp, b.order.display(&v)))
        .collect();
    let out = serde_json::json!({"orders": orders, "bids": bids});
    say!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    Ok(ExitCode::SUCCESS)
}
