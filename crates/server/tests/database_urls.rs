//! `--database` takes a plain path or any `sqlite:` URL form and creates the file, as
//! the help says (`sqlite:///path/p.db` used to fail with "unable to open database
//! file").

mod common;

use common::Server;

#[tokio::test(flavor = "multi_thread")]
async fn every_sqlite_form_creates_its_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let absolute = dir.path().join("absolute.db");
    let cases: Vec<(String, std::path::PathBuf)> = vec![
        (format!("sqlite://{}", absolute.display()), absolute.clone()),
        ("sqlite:relative.db".into(), dir.path().join("relative.db")),
        ("sqlite://slashes.db".into(), dir.path().join("slashes.db")),
        (
            format!("sqlite://{}?cache=private", dir.path().join("options.db").display()),
            dir.path().join("options.db"),
        ),
        ("plain.db".into(), dir.path().join("plain.db")),
        (
            dir.path().join("with ? and #.db").display().to_string(),
            dir.path().join("with ? and #.db"),
        ),
    ];
    for (url, file) in cases {
        assert!(!file.exists());
        let server = Server::start_in(Some(dir.path()), &url, &["--no-demo"]);
        let health = server.visitor().get("/api/health").await;
        assert_eq!(health["ok"], true, "{url}");
        // The database is really there: an account outlives the server.
        server.register("keeper").await;
        server.kill();
        assert!(file.exists(), "--database {url} should create {}", file.display());
        let again = Server::start_in(Some(dir.path()), &url, &["--no-demo"]);
        let (status, _) = again
            .visitor()
            .call(
                "POST",
                "/api/login",
                Some(serde_json::json!({"name": "keeper", "password": common::PASSWORD})),
            )
            .await;
        assert_eq!(status, 200, "{url}: the account is kept");
    }
}
