//! `chancery serve`: the club server (crates/server) in this process.

use crate::output::Failure;
use std::process::ExitCode;

pub fn run(listen: String, database: String, public_url: Option<String>) -> Result<ExitCode, Failure> {
    let options = chancery_server::ServeOptions {
        listen,
        database,
        public_url,
        ..Default::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(chancery_server::serve(options))?;
    Ok(ExitCode::SUCCESS)
}
