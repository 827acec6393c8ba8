//! `chancery shape`: shapes a variant's spaces on the real geography and writes the
//! GeoJSON that `variants/NAME.shapes.geojson` holds; prints how the drawing checks.

use std::process::ExitCode;
use std::time::Instant;

use chancery_geo::Options;

use crate::commands::load;
use crate::output::{say, Failure};

pub fn run(variant: &str, output: &str, cell_km: f64) -> Result<ExitCode, Failure> {
    let v = load(variant)?;
    let started = Instant::now();
    let shapes = chancery_geo::shape(&v, &Options { cell_km }).map_err(|e| e.to_string())?;
    let elapsed = started.elapsed();
    let text = shapes.to_geojson(&v);
    if output == "-" {
        say!(raw "{text}");
    } else {
        std::fs::write(output, &text).map_err(|e| format!("{output}: {e}"))?;
    }
    let report = chancery_geo::check(&v, &shapes);
    eprintln!("{}: shaped in {:.2} s", v.id, elapsed.as_secs_f64());
    eprint!("{report}");
    for e in report.errors() {
        eprintln!("  {e}");
    }
    Ok(ExitCode::SUCCESS)
}
