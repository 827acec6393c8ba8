//! `chancery render`: draws a variant's map to an SVG or PNG file — the starting
//! position, a saved position, the orders of one phase with their results, or a
//! test case.

use std::process::ExitCode;

use chancery_cases::{case_setup, parse_cases, Case};
use chancery_engine::json::{state_from_json, StateJson};
use chancery_engine::parse::parse_named_order;
use chancery_engine::phase::judge_phase;
use chancery_engine::{Adjudication, GameState, Order, Variant};
use chancery_render::{render_with, Labels, MapGeometry, RenderOptions};

use crate::commands::load;
use crate::order_lines::OrderLines;
use crate::output::{say, Failure};

pub struct RenderArgs<'a> {
    pub variant: &'a str,
    pub state: Option<&'a str>,
    pub orders: Option<&'a str>,
    /// [case file, case name]
    pub case: Option<&'a [String]>,
    pub output: &'a str,
    /// Draw the position after the orders instead of the orders themselves.
    pub after: bool,
    pub names: bool,
    pub no_legend: bool,
    pub scale: f32,
}

pub fn run(args: &RenderArgs) -> Result<ExitCode, Failure> {
    let v = load(args.variant)?;
    let (state, orders) = match args.case {
        Some([file, name]) => {
            if args.state.is_some() || args.orders.is_some() {
                return Err("--case brings its own position and orders; leave out --state and --orders".into());
            }
            case_position(&v, file, name)?
        }
        Some(_) => return Err("--case takes a case file and a case name".into()),
        None => {
            let state = match args.state {
                Some(path) => {
                    let text = read(path)?;
                    let json: StateJson = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
                    state_from_json(&v, &json).map_err(|e| format!("{path}: {e}"))?
                }
                None => GameState::initial(&v),
            };
            let orders = match args.orders {
                Some(path) => Some(orders_file(&v, path)?),
                None => None,
            };
            (state, orders)
        }
    };
    // Judged as the server judges (rule 8 included, for --after); a case's bids are
    // already its minor units' orders.
    let adjudication: Option<Adjudication> = orders.map(|o| judge_phase(&v, &state, &o, &[]).adjudication);
    let options = RenderOptions {
        labels: if args.names {
            Labels::Names
        } else {
            Labels::Abbreviations
        },
        legend: !args.no_legend,
        ..RenderOptions::default()
    };
    let g = MapGeometry::new(&v).map_err(|e| e.to_string())?;
    let svg = match (&adjudication, args.after) {
        (Some(a), true) => render_with(&g, &v, &a.next, None, &options),
        (Some(a), false) => render_with(&g, &v, &state, Some(a), &options),
        (None, true) => return Err("--after needs orders (--orders or --case)".into()),
        (None, false) => render_with(&g, &v, &state, None, &options),
    }
    .map_err(|e| e.to_string())?;
    write_output(args.output, &svg, args.scale)?;
    Ok(ExitCode::SUCCESS)
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
}

fn orders_file(v: &Variant, path: &str) -> Result<Vec<Order>, String> {
    let file: OrderLines = serde_json::from_str(&read(path)?).map_err(|e| format!("{path}: {e}"))?;
    file.into_lines()
        .iter()
        .map(|line| parse_named_order(v, line).map_err(|e| format!("{path}: `{line}`: {e}")))
        .collect()
}

/// The position and orders of one case of a case file, set up exactly as the case
/// runner does (bids resolved into the minor units' orders).
fn case_position(v: &Variant, file: &str, name: &str) -> Result<(GameState, Option<Vec<Order>>), String> {
    let cases = parse_cases(&read(file)?).map_err(|e| format!("{file}: {e}"))?;
    let case: &Case = cases
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| {
            let some: Vec<&str> = cases.iter().take(5).map(|c| c.name.as_str()).collect();
            format!("{file} has no case `{name}` (it has {}…)", some.join(", "))
        })?;
    let (state, orders) = case_setup(case, v).map_err(|e| format!("{file}: case `{}`: {e}", case.name))?;
    Ok((state, Some(orders)))
}

fn write_output(path: &str, svg: &str, scale: f32) -> Result<(), Failure> {
    if path == "-" {
        say!("{svg}");
        return Ok(());
    }
    let bytes = if path.to_ascii_lowercase().ends_with(".png") {
        if !(0.1..=8.0).contains(&scale) {
            return Err(Failure::Message(format!("--scale {scale} is outside 0.1 to 8")));
        }
        chancery_render::png::png(svg, scale)?
    } else {
        svg.as_bytes().to_vec()
    };
    std::fs::write(path, bytes).map_err(|e| Failure::Message(format!("{path}: {e}")))
}
