//! `chancery serve`: the club server (crates/server) in this process.

use crate::output::Failure;
use std::process::ExitCode;

pub fn run(options: chancery_server::ServeOptions) -> Result<ExitCode, Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(chancery_server::serve(options))?;
    Ok(ExitCode::SUCCESS)
}
