pub fn run(_input: Option<&str>) -> Result<std::process::ExitCode, String> {
    Err("not yet".into())
}
