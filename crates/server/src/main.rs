//! `chancery-server`: the server alone, with the same options as `chancery serve`. The
//! integration tests start this binary so that they can kill it.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut opts = chancery_server::ServeOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let parsed: Result<(), String> = match arg.as_str() {
            "--listen" => value("--listen").map(|v| opts.listen = v),
            "--database" => value("--database").map(|v| opts.database = v),
            "--test-clock" => {
                opts.test_clock = true;
                Ok(())
            }
            "--no-demo" => {
                opts.demo = false;
                Ok(())
            }
            "--tick-ms" => value("--tick-ms").and_then(|v| {
                v.parse().map(|n| opts.tick_ms = n).map_err(|_| "--tick-ms needs a number".into())
            }),
            "--public-url" => value("--public-url").map(|v| opts.public_url = Some(v)),
            "--smtp" => value("--smtp").map(|v| opts.smtp = Some(v)),
            "--mail-dir" => value("--mail-dir").map(|v| opts.mail_dir = Some(v)),
            "--mail-from" => value("--mail-from").map(|v| opts.mail_from = Some(v)),
            "--moderator" => value("--moderator").map(|v| opts.moderators.push(v)),
            "--bot-judgements" => value("--bot-judgements").and_then(|v| match v.parse() {
                Ok(n) if n > 0 => {
                    opts.bot_judgements = Some(n);
                    Ok(())
                }
                _ => Err("--bot-judgements needs a number above 0".into()),
            }),
            "--rate" => value("--rate").and_then(|v| {
                v.parse().map(|n| opts.rate_per_second = n).map_err(|_| "--rate needs a number".into())
            }),
            other => Err(format!(
                "unknown argument `{other}`; usage: chancery-server [--listen ADDR:PORT] [--database URL] [--no-demo] [--tick-ms N] [--rate N] [--public-url URL] [--smtp URL] [--mail-dir DIR] [--mail-from ADDRESS] [--moderator NAME]... [--bot-judgements N] [--test-clock]"
            )),
        };
        if let Err(e) = parsed {
            eprintln!("chancery-server: {e}");
            return ExitCode::from(2);
        }
    }
    run(opts)
}

fn run(opts: chancery_server::ServeOptions) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("chancery-server: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(chancery_server::serve(opts)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chancery-server: {e}");
            ExitCode::from(1)
        }
    }
}
