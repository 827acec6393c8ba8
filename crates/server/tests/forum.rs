//! The club's forum and its moderators, over real HTTP on SQLite
//! and PostgreSQL: topics and replies in plain text (links, quotes, never HTML), unread
//! marks, pinned announcements, locked topics, hidden posts, search, pages, a thread per
//! game, moderators from the command line and then by moderators, suspensions that stop
//! posting, orders, bids and press (403), a game's GM replaced by a moderator, the
//! moderation log, and a members-only forum invisible to visitors.

mod common;

use common::smtp::{confirm, link, to, Sink};
use common::{full_game, player, Api, Server};
use serde_json::{json, Value};

/// Starts a server on `url`, registers `names`, and restarts it with `--moderator
/// first`, as a club makes its first moderator: the sessions stay valid.
async fn club(url: &str, names: &[&str]) -> (Server, Vec<Api>) {
    let server = Server::start(url);
    let mut apis = Vec::new();
    for n in names {
        apis.push(server.register(n).await);
    }
    server.kill();
    let server = Server::start_adding(url, &["--moderator", names[0]]);
    let apis = apis
        .into_iter()
        .map(|a| Api::new(&server.base, a.token.clone()))
        .collect();
    (server, apis)
}

async fn page(api: &Api, path: &str) -> (u16, String) {
    let (status, body) = api.call("GET", path, None).await;
    (
        status,
        body.as_str().map(str::to_string).unwrap_or_else(|| body.to_string()),
    )
}

fn topic_in(list: &Value, id: i64) -> &Value {
    list["topics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap_or_else(|| panic!("topic {id} not listed: {list}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn moderators_come_from_the_command_line_then_from_moderators() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna", "ben"]).await;
        let (boss, anna, ben) = (&apis[0], &apis[1], &apis[2]);
        assert!(
            server
                .log
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.contains("boss is a moderator")),
            "the server says whom it made a moderator"
        );
        // Not a moderator: refused, and the page says so.
        let (status, body) = ben.call("GET", "/api/moderation", None).await;
        assert_eq!(status, 403, "{body}");
        assert_eq!(page(ben, "/moderation").await.0, 403);
        assert_eq!(server.visitor().call("GET", "/api/moderation", None).await.0, 401);
        let (status, _) = ben
            .call("POST", "/api/moderation/moderators", Some(json!({"account": "ben"})))
            .await;
        assert_eq!(status, 403, "a member cannot make themselves a moderator");

        // The first moderator appoints another; the second is one at once.
        boss.post("/api/moderation/moderators", json!({"account": "anna"}))
            .await;
        let overview = anna.get("/api/moderation").await;
        let names: Vec<&str> = overview["moderators"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["anna", "boss"]);
        assert_eq!(
            overview["moderators"][1]["appointed_by"],
            Value::Null,
            "boss: the command line"
        );
        assert_eq!(overview["moderators"][0]["appointed_by"], "boss");
        let (status, _) = boss
            .call("POST", "/api/moderation/moderators", Some(json!({"account": "anna"})))
            .await;
        assert_eq!(status, 409, "already a moderator");
        let (status, _) = boss
            .call("POST", "/api/moderation/moderators", Some(json!({"account": "nobody"})))
            .await;
        assert_eq!(status, 404);

        // Anna removes boss; she cannot then remove herself, the last one.
        anna.call("DELETE", "/api/moderation/moderators/boss", None).await;
        let (status, body) = anna.call("DELETE", "/api/moderation/moderators/anna", None).await;
        assert_eq!(status, 409, "the club keeps a moderator: {body}");
        assert_eq!(boss.call("GET", "/api/moderation", None).await.0, 403);

        // Every action is in the log, newest first, with who did it.
        let log = anna.get("/api/moderation/log").await;
        let entries: Vec<(String, String, String)> = log["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["moderator"].as_str().unwrap_or("command line").to_string(),
                    e["action"].as_str().unwrap().to_string(),
                    e["target"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(
            entries,
            [
                ("anna".into(), "remove".into(), "boss".into()),
                ("boss".into(), "appoint".into(), "anna".into()),
                ("command line".into(), "appoint".into(), "boss".into()),
            ]
        );
        let (status, html) = page(anna, "/moderation").await;
        assert_eq!(status, 200);
        assert!(html.contains("id=\"moderation-log\"") && html.contains("made a moderator by the command line"));
        drop(server);

        // An unknown name on the command line stops the server with a clear message.
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chancery-server"))
            .args([
                "--listen",
                "127.0.0.1:0",
                "--database",
                &target.url,
                "--no-demo",
                "--moderator",
                "ghost",
            ])
            .output()
            .expect("run the server");
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--moderator ghost: no such account"), "{err}");
    }
}

/// A new club's first moderator at first start. `--moderator NAME` for a
/// name with no account creates it with the password from `CHANCERY_MODERATOR_PASSWORD`
/// (the environment, not the command line), before the server listens, so no visitor
/// can take the name first; without the password the server stops and says how. An
/// existing account's password is never changed by it.
#[tokio::test(flavor = "multi_thread")]
async fn a_new_club_gets_its_first_moderator_at_first_start() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let binary = env!("CARGO_BIN_EXE_chancery-server");
        // No password: the server refuses to start, and says what to do.
        let out = std::process::Command::new(binary)
            .args([
                "--listen",
                "127.0.0.1:0",
                "--database",
                &target.url,
                "--no-demo",
                "--moderator",
                "founder",
            ])
            .env_remove("CHANCERY_MODERATOR_PASSWORD")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("no such account") && said.contains("CHANCERY_MODERATOR_PASSWORD"),
            "{said}"
        );
        // A password too short is refused as registration refuses it.
        let out = std::process::Command::new(binary)
            .args([
                "--listen",
                "127.0.0.1:0",
                "--database",
                &target.url,
                "--no-demo",
                "--moderator",
                "founder",
            ])
            .env("CHANCERY_MODERATOR_PASSWORD", "abc")
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot create the account"));

        let args = ["--test-clock", "--no-demo", "--tick-ms", "50", "--moderator", "founder"];
        let env = [("CHANCERY_MODERATOR_PASSWORD", "a long club secret")];
        let server = Server::start_in_env(None, &target.url, &args, &env);
        assert!(server
            .log
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains("created the account founder")));
        let visitor = server.visitor();
        let (status, _) = visitor
            .call(
                "POST",
                "/api/register",
                Some(json!({"name": "founder", "password": "someone else's"})),
            )
            .await;
        assert_eq!(status, 409, "the name is taken before anyone can register it");
        let session = visitor
            .post(
                "/api/login",
                json!({"name": "founder", "password": "a long club secret"}),
            )
            .await;
        let founder = Api::new(&server.base, session["token"].as_str().map(str::to_string));
        let overview = founder.get("/api/moderation").await;
        assert_eq!(overview["moderators"][0]["name"], "founder");
        let log = founder.get("/api/moderation/log").await;
        assert_eq!(log["entries"][0]["moderator"], Value::Null, "the command line's doing");
        server.kill();
        // Started again with another password: the account keeps its own.
        let env = [("CHANCERY_MODERATOR_PASSWORD", "a different secret")];
        let server = Server::start_in_env(None, &target.url, &args, &env);
        let visitor = server.visitor();
        let (status, _) = visitor
            .call(
                "POST",
                "/api/login",
                Some(json!({"name": "founder", "password": "a different secret"})),
            )
            .await;
        assert_eq!(status, 401);
        visitor
            .post(
                "/api/login",
                json!({"name": "founder", "password": "a long club secret"}),
            )
            .await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn topics_replies_plain_text_and_unread_marks() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna", "ben"]).await;
        let (anna, ben) = (&apis[1], &apis[2]);
        let body = "Seven seats, weekly deadlines.\nRules at https://example.org/rules.\n\n\
                    > someone asked: who GMs?\nMe. <script>alert(1)</script> javascript:alert(2) \
                    <a href=\"javascript:alert(3)\">x</a>";
        let written = anna
            .post("/api/forum/topics", json!({"title": "Players wanted", "body": body}))
            .await;
        let topic = written["topic"].as_i64().unwrap();
        assert_eq!(written["page"], 1);

        // Formatting: a paragraph of two lines with a link, a quote, a paragraph; the
        // text as written comes back too.
        let view = ben.get(&format!("/api/forum/topics/{topic}")).await;
        let post = &view["posts"][0];
        assert_eq!(post["body"], body);
        assert_eq!(post["author"], "anna");
        let blocks = post["blocks"].as_array().unwrap();
        assert_eq!(
            blocks.iter().map(|b| b["quote"].as_i64().unwrap()).collect::<Vec<_>>(),
            [0, 1, 0]
        );
        assert_eq!(
            blocks[0]["lines"][1][1],
            json!({"kind": "link", "text": "https://example.org/rules"})
        );
        // The page: the link is a link (nofollow ugc), the markup is text.
        let (status, html) = page(ben, &format!("/forum/topics/{topic}")).await;
        assert_eq!(status, 200);
        assert!(
            html.contains(r#"<a href="https://example.org/rules" rel="nofollow ugc noopener""#),
            "{html}"
        );
        assert!(
            html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "the markup shown as text"
        );
        assert!(!html.contains("<script>alert") && !html.contains("href=\"javascript"));
        assert!(html.contains("<blockquote class=\"quote quote-1\"><p>someone asked: who GMs?</p></blockquote>"));

        // Unread marks: new to ben until he reads it; anna wrote it, so read for her.
        let list = ben.get("/api/forum/topics").await;
        // (ben read it above through the API; a reply makes it new again.)
        assert_eq!(topic_in(&list, topic)["unread"], false, "{list}");
        assert_eq!(topic_in(&anna.get("/api/forum/topics").await, topic)["unread"], false);
        let reply = ben
            .post(
                &format!("/api/forum/topics/{topic}/posts"),
                json!({"body": "> Seven seats\nCount me in."}),
            )
            .await;
        assert_eq!(reply["topic"], topic);
        let list = anna.get("/api/forum/topics").await;
        assert_eq!(topic_in(&list, topic)["unread"], true, "ben's reply is new to anna");
        assert_eq!(topic_in(&list, topic)["posts"], 2);
        let (_, html) = page(anna, "/forum").await;
        assert!(
            html.contains(&format!("<tr data-topic=\"{topic}\" class=\"unread-topic\">")),
            "{html}"
        );
        let view = anna.get(&format!("/api/forum/topics/{topic}")).await;
        assert_eq!(view["posts"][0]["unread"], false);
        assert_eq!(
            view["posts"][1]["unread"], true,
            "the reply is marked new as she reads it"
        );
        assert_eq!(topic_in(&anna.get("/api/forum/topics").await, topic)["unread"], false);
        // Visitors read a public forum, with no marks.
        let visitor = server.visitor();
        assert_eq!(
            topic_in(&visitor.get("/api/forum/topics").await, topic)["unread"],
            false
        );
        let (status, html) = page(&visitor, &format!("/forum/topics/{topic}")).await;
        assert_eq!(status, 200);
        assert!(html.contains("Log in</a> to reply"));

        // Bad input: clear errors, nothing stored.
        for (path, bad, field) in [
            ("/api/forum/topics", json!({"title": "ab", "body": "x"}), "title"),
            (
                "/api/forum/topics",
                json!({"title": "A title", "body": "   \n  "}),
                "body",
            ),
            (
                "/api/forum/topics",
                json!({"title": "A title", "body": "x".repeat(10_001)}),
                "body",
            ),
            (
                "/api/forum/topics",
                json!({"title": "x".repeat(121), "body": "x"}),
                "title",
            ),
        ] {
            let (status, out) = ben.call("POST", path, Some(bad)).await;
            assert_eq!(status, 422, "{out}");
            assert_eq!(out["field"], field, "{out}");
        }
        let (status, out) = ben
            .call(
                "POST",
                "/api/forum/topics",
                Some(json!({"title": "Line\nbreak", "body": "x"})),
            )
            .await;
        assert_eq!(status, 422, "a title is one line: {out}");
        let (status, _) = ben
            .call("POST", "/api/forum/topics", Some(json!({"title": "A title"})))
            .await;
        assert_eq!(status, 422, "no text");
        let (status, _) = visitor
            .call(
                "POST",
                "/api/forum/topics",
                Some(json!({"title": "A title", "body": "x"})),
            )
            .await;
        assert_eq!(status, 401);
        let (status, _) = ben
            .call("POST", "/api/forum/topics/12345/posts", Some(json!({"body": "x"})))
            .await;
        assert_eq!(status, 404);
        assert_eq!(ben.call("GET", "/api/forum/topics/12345", None).await.0, 404);
        assert_eq!(
            ben.call("GET", &format!("/api/forum/topics/{topic}?page=0"), None)
                .await
                .0,
            404
        );
        assert_eq!(
            ben.call("GET", &format!("/api/forum/topics/{topic}?page=2"), None)
                .await
                .0,
            404
        );
        assert_eq!(ben.call("GET", "/api/forum/topics?page=abc", None).await.0, 400);
        assert_eq!(
            anna.get("/api/forum/topics").await["topics"].as_array().unwrap().len(),
            1
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn moderators_pin_lock_and_hide_and_every_action_is_logged() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna", "ben"]).await;
        let (boss, anna, ben) = (&apis[0], &apis[1], &apis[2]);
        let rules = boss
            .post("/api/forum/topics", json!({"title": "Club rules", "body": "Be civil."}))
            .await["topic"]
            .as_i64()
            .unwrap();
        server.advance(1000).await;
        let chat = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Openings", "body": "Lepanto or Key Lepanto?"}),
            )
            .await["topic"]
            .as_i64()
            .unwrap();
        // Newest first, until the rules are pinned as an announcement.
        let ids = |l: &Value| -> Vec<i64> {
            l["topics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["id"].as_i64().unwrap())
                .collect()
        };
        assert_eq!(ids(&ben.get("/api/forum/topics").await), [chat, rules]);
        let (status, _) = ben
            .call(
                "PATCH",
                &format!("/api/forum/topics/{rules}"),
                Some(json!({"pinned": true})),
            )
            .await;
        assert_eq!(status, 403, "members do not pin");
        boss.call(
            "PATCH",
            &format!("/api/forum/topics/{rules}"),
            Some(json!({"pinned": true})),
        )
        .await;
        let list = ben.get("/api/forum/topics").await;
        assert_eq!(ids(&list), [rules, chat]);
        assert_eq!(topic_in(&list, rules)["pinned"], true);
        let (status, _) = boss
            .call("PATCH", &format!("/api/forum/topics/{rules}"), Some(json!({})))
            .await;
        assert_eq!(status, 422, "nothing to change");

        // Ben is rude; a moderator hides the post, giving a reason.
        let rude = ben
            .post(
                &format!("/api/forum/topics/{chat}/posts"),
                json!({"body": "Only fools play Lepanto, anna."}),
            )
            .await["post"]
            .as_i64()
            .unwrap();
        let (status, out) = boss
            .call(
                "PUT",
                &format!("/api/forum/posts/{rude}/hidden"),
                Some(json!({"hidden": true})),
            )
            .await;
        assert_eq!(status, 422, "a reason is required: {out}");
        let (status, _) = ben
            .call(
                "PUT",
                &format!("/api/forum/posts/{rude}/hidden"),
                Some(json!({"hidden": true, "reason": "mine"})),
            )
            .await;
        assert_eq!(status, 403);
        boss.call(
            "PUT",
            &format!("/api/forum/posts/{rude}/hidden"),
            Some(json!({"hidden": true, "reason": "insults"})),
        )
        .await;
        let (status, _) = boss
            .call(
                "PUT",
                &format!("/api/forum/posts/{rude}/hidden"),
                Some(json!({"hidden": true, "reason": "again"})),
            )
            .await;
        assert_eq!(status, 409, "already hidden");
        // Members and visitors see that a post was hidden, never its text.
        for reader in [anna, ben, &server.visitor()] {
            let view = reader.get(&format!("/api/forum/topics/{chat}")).await;
            let p = &view["posts"][1];
            assert_eq!(p["hidden"], true);
            assert_eq!(p["body"], Value::Null);
            assert_eq!(p["blocks"], json!([]));
            assert_eq!(p["hidden_reason"], Value::Null);
            let (_, html) = page(reader, &format!("/forum/topics/{chat}")).await;
            assert!(!html.contains("Only fools"), "a hidden post's text on the page");
            assert!(html.contains("Hidden by a moderator."));
        }
        // Nor in the forum's feed, which is well-formed Atom with the visible posts.
        let (status, feed) = page(&server.visitor(), "/forum/feed.atom").await;
        assert_eq!(status, 200);
        let doc = roxmltree::Document::parse(&feed).expect("the feed is XML");
        assert_eq!(doc.root_element().tag_name().name(), "feed");
        assert!(
            feed.contains("Lepanto or Key Lepanto?") && feed.contains("/forum/posts/"),
            "{feed}"
        );
        assert!(!feed.contains("Only fools"), "a hidden post in the feed");
        let hidden_search = anna.get("/api/forum/search?q=fools").await;
        assert_eq!(hidden_search["found"], json!([]), "hidden posts are never found");
        // The moderator reads it, and why it was hidden.
        let view = boss.get(&format!("/api/forum/topics/{chat}")).await;
        assert_eq!(view["posts"][1]["body"], "Only fools play Lepanto, anna.");
        assert_eq!(view["posts"][1]["hidden_by"], "boss");
        assert_eq!(view["posts"][1]["hidden_reason"], "insults");

        // Locked: members cannot reply, a moderator still can; unlocked, they can again.
        boss.call(
            "PATCH",
            &format!("/api/forum/topics/{chat}"),
            Some(json!({"locked": true})),
        )
        .await;
        let (status, out) = anna
            .call(
                "POST",
                &format!("/api/forum/topics/{chat}/posts"),
                Some(json!({"body": "But…"})),
            )
            .await;
        assert_eq!(status, 409, "{out}");
        assert!(out["error"].as_str().unwrap().contains("locked"));
        let view = anna.get(&format!("/api/forum/topics/{chat}")).await;
        assert_eq!(
            (view["locked"].clone(), view["can_reply"].clone()),
            (json!(true), json!(false))
        );
        let (_, html) = page(anna, &format!("/forum/topics/{chat}")).await;
        assert!(html.contains("id=\"why-no-reply\"") && !html.contains("id=\"reply-body\""));
        boss.post(
            &format!("/api/forum/topics/{chat}/posts"),
            json!({"body": "Closed: keep it civil."}),
        )
        .await;
        boss.call(
            "PATCH",
            &format!("/api/forum/topics/{chat}"),
            Some(json!({"locked": false})),
        )
        .await;
        anna.post(&format!("/api/forum/topics/{chat}/posts"), json!({"body": "Thanks."}))
            .await;
        boss.call(
            "PUT",
            &format!("/api/forum/posts/{rude}/hidden"),
            Some(json!({"hidden": false})),
        )
        .await;
        assert_eq!(
            ben.get(&format!("/api/forum/topics/{chat}")).await["posts"][1]["body"],
            "Only fools play Lepanto, anna."
        );

        let log = boss.get("/api/moderation/log").await;
        let actions: Vec<&str> = log["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["action"].as_str().unwrap())
            .collect();
        assert_eq!(actions, ["show", "unlock", "lock", "hide", "pin", "appoint"]);
        let hide = &log["entries"][3];
        assert_eq!(hide["moderator"], "boss");
        assert_eq!(hide["detail"], "insults");
        assert!(hide["target"].as_str().unwrap().contains("by ben"));
        assert_eq!(
            anna.call("GET", "/api/moderation/log", None).await.0,
            403,
            "the log is for moderators"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_suspended_account_reads_but_cannot_post_order_bid_or_send_press() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "the-gm"]).await;
        let (boss, gm) = (&apis[0], &apis[1]);
        let (id, players) = full_game(&server, gm, "1936", json!({}), "s").await;
        let germany = player(&players, "Germany");
        let topic = germany
            .post("/api/forum/topics", json!({"title": "Hello", "body": "Hi all"}))
            .await["topic"]
            .as_i64()
            .unwrap();

        let (status, out) = boss
            .call(
                "POST",
                "/api/moderation/suspensions",
                Some(json!({"account": "s-player0", "reason": "spam", "days": 0})),
            )
            .await;
        assert_eq!(status, 422, "{out}");
        let (status, _) = boss
            .call(
                "POST",
                "/api/moderation/suspensions",
                Some(json!({"account": "boss", "reason": "test"})),
            )
            .await;
        assert_eq!(status, 409, "not oneself");
        let (status, _) = gm
            .call(
                "POST",
                "/api/moderation/suspensions",
                Some(json!({"account": "boss", "reason": "coup"})),
            )
            .await;
        assert_eq!(status, 403, "members do not suspend");
        let name = players
            .iter()
            .position(|(p, _)| p == "Germany")
            .map(|i| format!("s-player{i}"))
            .unwrap();
        let s = boss
            .post(
                "/api/moderation/suspensions",
                json!({"account": name, "reason": "spamming the forum", "days": 7}),
            )
            .await;
        assert!(s["until"].as_str().unwrap().ends_with('Z'));

        let refused = |out: &Value| {
            let e = out["error"].as_str().unwrap_or_default();
            assert!(e.contains("suspended") && e.contains("spamming the forum"), "{out}");
            assert_eq!(out["suspended"], true);
        };
        let tries = [
            (
                "POST",
                "/api/forum/topics".to_string(),
                json!({"title": "Buy now", "body": "cheap"}),
            ),
            (
                "POST",
                format!("/api/forum/topics/{topic}/posts"),
                json!({"body": "cheap"}),
            ),
            (
                "POST",
                format!("/api/games/{id}/orders"),
                json!({"orders": ["A ber - kie"], "phase": "S1936M"}),
            ),
            ("POST", format!("/api/games/{id}/bids"), json!({"bids": [], "seq": 0})),
            ("POST", format!("/api/games/{id}/press"), json!({"body": "hello"})),
            ("POST", format!("/api/games/{id}/ready"), json!({"seq": 0})),
        ];
        for (method, path, body) in &tries {
            let (status, out) = germany.call(method, path, Some(body.clone())).await;
            assert_eq!(status, 403, "{method} {path}: {out}");
            refused(&out);
        }
        // Reading is not refused.
        germany.get(&format!("/api/games/{id}")).await;
        germany.get(&format!("/api/forum/topics/{topic}")).await;
        let (_, html) = page(germany, &format!("/forum/topics/{topic}")).await;
        assert!(html.contains("id=\"why-no-reply\"") && html.contains("spamming the forum"));
        // Others play on.
        player(&players, "France")
            .post(&format!("/api/games/{id}/press"), json!({"body": "Germany is quiet"}))
            .await;

        let overview = boss.get("/api/moderation").await;
        assert_eq!(overview["suspensions"][0]["name"], name.as_str());
        boss.call("DELETE", &format!("/api/moderation/suspensions/{name}"), None)
            .await;
        let (status, _) = boss
            .call("DELETE", &format!("/api/moderation/suspensions/{name}"), None)
            .await;
        assert_eq!(status, 404, "no longer suspended");
        let (status, out) = germany
            .call("POST", &format!("/api/games/{id}/press"), Some(json!({"body": "back"})))
            .await;
        assert_eq!(status, 200, "{out}");

        // A suspension with days ends by itself.
        boss.post(
            "/api/moderation/suspensions",
            json!({"account": name, "reason": "cool off", "days": 1}),
        )
        .await;
        assert_eq!(
            germany
                .call(
                    "POST",
                    "/api/forum/topics",
                    Some(json!({"title": "Again", "body": "x"}))
                )
                .await
                .0,
            403
        );
        server.advance(24 * 60 * 60 * 1000 + 1).await;
        assert_eq!(
            germany
                .call(
                    "POST",
                    "/api/forum/topics",
                    Some(json!({"title": "Again", "body": "x"}))
                )
                .await
                .0,
            201
        );
        let actions: Vec<String> = boss.get("/api/moderation/log").await["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{} {}", e["action"].as_str().unwrap(), e["target"].as_str().unwrap()))
            .collect();
        assert_eq!(
            actions[..3],
            [
                format!("suspend {name}"),
                format!("reinstate {name}"),
                format!("suspend {name}")
            ]
        );
    }
}

/// A suspension stops everything a suspended account could act with, not
/// only posts and orders: joining and creating games, draw votes, and every GM tool
/// (403 with the reason and the end); a moderator gives its game another GM, never a
/// suspended one.
#[tokio::test(flavor = "multi_thread")]
async fn a_suspended_account_cannot_join_create_vote_or_use_gm_tools() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "the-gm", "walker", "newgm"]).await;
        let (boss, gm, walker) = (&apis[0], &apis[1], &apis[2]);
        let (id, players) = full_game(&server, gm, "1936", json!({}), "v").await;
        let forming = gm.post("/api/games", json!({"name": "Forming"})).await["id"]
            .as_i64()
            .unwrap();
        let germany = player(&players, "Germany");
        let name = players
            .iter()
            .position(|(p, _)| p == "Germany")
            .map(|i| format!("v-player{i}"))
            .unwrap();
        let suspend = |who: String, days: Option<i64>| {
            let mut body = json!({"account": who, "reason": "abusive press"});
            if let Some(d) = days {
                body["days"] = json!(d);
            }
            boss.post("/api/moderation/suspensions", body)
        };
        let s = suspend(name.clone(), Some(3)).await;
        let until = s["until"].as_str().unwrap().to_string();
        let refused = |what: &str, status: u16, out: &Value, until: Option<&str>| {
            assert_eq!(status, 403, "{what}: {out}");
            assert_eq!(out["suspended"], true, "{what}: {out}");
            assert_eq!(out["reason"], "abusive press", "{what}: {out}");
            let e = out["error"].as_str().unwrap();
            assert!(e.contains("abusive press"), "{what}: {out}");
            match until {
                Some(u) => assert!(e.contains(u) && out["until"] == u, "{what}: the end is said: {out}"),
                None => assert!(
                    e.contains("until a moderator lifts it") && out["until"].is_null(),
                    "{what}: {out}"
                ),
            }
        };
        let tries = [
            (
                "POST",
                format!("/api/games/{forming}/join"),
                Some(json!({"power": "England"})),
            ),
            ("POST", "/api/games".to_string(), Some(json!({"name": "My own"}))),
            ("POST", format!("/api/games/{id}/draw-vote"), None),
            ("DELETE", format!("/api/games/{id}/draw-vote"), None),
        ];
        for (method, path, body) in &tries {
            let (status, out) = germany.call(method, path, body.clone()).await;
            refused(&format!("{method} {path}"), status, &out, Some(&until));
        }
        // Nothing was done: no seat taken, no game made, no vote.
        let view = germany.get(&format!("/api/games/{forming}")).await;
        assert!(
            !view.to_string().contains(&name),
            "the suspended account holds no seat: {view}"
        );
        // Joining stays open to others.
        walker
            .post(&format!("/api/games/{forming}/join"), json!({"power": "England"}))
            .await;

        // A suspended GM uses no tool, on a running or a forming game.
        suspend("the-gm".to_string(), None).await;
        let gm_tries = [
            ("POST", format!("/api/games/{forming}/gm/start"), None),
            ("POST", format!("/api/games/{id}/gm/process"), None),
            (
                "POST",
                format!("/api/games/{id}/gm/extend"),
                Some(json!({"minutes": 60})),
            ),
            ("POST", format!("/api/games/{id}/gm/pause"), None),
            ("POST", format!("/api/games/{id}/gm/resume"), None),
            ("POST", format!("/api/games/{id}/gm/rollback"), None),
            ("POST", format!("/api/games/{id}/gm/rollforward"), None),
            (
                "POST",
                format!("/api/games/{forming}/gm/assign"),
                Some(json!({"power": "France", "account": "newgm"})),
            ),
            (
                "POST",
                format!("/api/games/{id}/gm/replace"),
                Some(json!({"power": "Italy", "account": "newgm"})),
            ),
            (
                "POST",
                format!("/api/games/{id}/gm/civil-disorder"),
                Some(json!({"power": "Italy", "permanent": false})),
            ),
            (
                "POST",
                format!("/api/games/{id}/gm/end"),
                Some(json!({"result": "draw", "powers": ["Italy", "France"]})),
            ),
            (
                "POST",
                format!("/api/games/{id}/gm/settings"),
                Some(json!({"name": "Renamed"})),
            ),
            (
                "PUT",
                format!("/api/games/{id}/gm/reminders"),
                Some(json!({"minutes": [60]})),
            ),
            (
                "POST",
                format!("/api/games/{id}/gm/transfer"),
                Some(json!({"account": "newgm"})),
            ),
            (
                "POST",
                format!("/api/games/{id}/orders"),
                Some(json!({"power": "Italy", "orders": ["A rom h"], "phase": "S1936M"})),
            ),
            (
                "POST",
                format!("/api/games/{id}/press"),
                Some(json!({"body": "GM here"})),
            ),
        ];
        for (method, path, body) in &gm_tries {
            let (status, out) = gm.call(method, path, body.clone()).await;
            refused(&format!("GM {method} {path}"), status, &out, None);
        }
        let view = gm.get(&format!("/api/games/{id}")).await;
        assert_eq!(view["status"], "active", "nothing paused or ended: {view}");
        assert_eq!(view["name"], "v game", "not renamed: {view}");
        // The GM still reads the game (reading is not refused).
        assert_eq!(gm.call("GET", &format!("/api/games/{id}/gm/events"), None).await.0, 200);

        // A moderator gives the game another GM, but never a suspended account.
        let (status, out) = boss
            .call(
                "POST",
                &format!("/api/games/{id}/gm/transfer"),
                Some(json!({"account": name})),
            )
            .await;
        assert_eq!(status, 409, "a suspended account is no GM: {out}");
        boss.post(&format!("/api/games/{id}/gm/transfer"), json!({"account": "newgm"}))
            .await;
        let newgm = &apis[3];
        newgm.post(&format!("/api/games/{id}/gm/pause"), json!({})).await;

        // Lifted, the player acts again.
        boss.call("DELETE", &format!("/api/moderation/suspensions/{name}"), None)
            .await;
        let (status, out) = germany.call("POST", &format!("/api/games/{id}/draw-vote"), None).await;
        assert_eq!(status, 200, "{out}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn each_game_has_a_thread_and_a_moderator_may_replace_its_gm() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "the-gm", "other", "newgm"]).await;
        let (boss, gm, other) = (&apis[0], &apis[1], &apis[2]);
        let game = gm.post("/api/games", json!({"name": "Autumn league"})).await;
        let id = game["id"].as_i64().unwrap();
        let thread = server.visitor().get(&format!("/api/games/{id}/thread")).await;
        let topic = thread["topic"].as_i64().unwrap();
        let view = other.get(&format!("/api/forum/topics/{topic}")).await;
        assert_eq!(view["title"], "Autumn league");
        assert_eq!(view["game"], id);
        assert!(view["note"].as_str().unwrap().contains("not press"), "{view}");
        // The game's page links it; the address leads to it.
        let (_, html) = page(other, &format!("/games/{id}")).await;
        assert!(
            html.contains(&format!("href=\"/games/{id}/thread\"")),
            "the game page links its thread"
        );
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let r = client
            .get(format!("{}/games/{id}/thread", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.headers()["location"], format!("/forum/topics/{topic}"));
        // The forum's old addresses (`/board/…`, from when it was called the board) are in
        // mails already sent, feed readers and bookmarks: each leads on for good, query
        // and all.
        for (old, new) in [
            (
                format!("/board/topics/{topic}?page=1"),
                format!("/forum/topics/{topic}?page=1"),
            ),
            ("/board".to_string(), "/forum".to_string()),
            ("/board?page=2".to_string(), "/forum?page=2".to_string()),
            (
                "/board/search?q=league".to_string(),
                "/forum/search?q=league".to_string(),
            ),
            ("/board/feed.atom".to_string(), "/forum/feed.atom".to_string()),
        ] {
            let r = client.get(format!("{}{old}", server.base)).send().await.unwrap();
            let to = r.headers()["location"].to_str().unwrap().to_string();
            assert_eq!((r.status().as_u16(), to.as_str()), (308, new.as_str()), "{old}");
        }
        let r = client
            .get(format!("{}/board/topics/x", server.base))
            .send()
            .await
            .unwrap();
        assert_eq!(
            r.status().as_u16(),
            400,
            "an old address with no topic number is refused"
        );
        assert_eq!(server.visitor().call("GET", "/api/games/999/thread", None).await.0, 404);
        // Listed once someone writes in it.
        assert!(other.get("/api/forum/topics").await["topics"]
            .as_array()
            .unwrap()
            .is_empty());
        other
            .post(
                &format!("/api/forum/topics/{topic}/posts"),
                json!({"body": "Is a seat left?"}),
            )
            .await;
        let list = gm.get("/api/forum/topics").await;
        assert_eq!(topic_in(&list, topic)["game"], id);
        let (_, html) = page(other, &format!("/forum/topics/{topic}")).await;
        assert!(html.contains("id=\"game-thread-note\""));

        // A moderator appoints a new GM; a member who is not the GM cannot.
        let (status, _) = other
            .call(
                "POST",
                &format!("/api/games/{id}/gm/transfer"),
                Some(json!({"account": "other"})),
            )
            .await;
        assert_eq!(status, 403);
        // The moderators' page offers the games not finished by name, with their GMs,
        // and takes the new GM by name; a name with no account is said plainly.
        let overview = boss.get("/api/moderation").await;
        assert_eq!(overview["games"][0]["name"], "Autumn league");
        assert_eq!(overview["games"][0]["gm"], "the-gm");
        let (_, html) = page(boss, "/moderation").await;
        assert!(
            html.contains(&format!(
                "<option value=\"{id}\">Autumn league (forming; GM the-gm)</option>"
            )),
            "{html}"
        );
        let (status, out) = boss
            .call(
                "POST",
                &format!("/api/games/{id}/gm/transfer"),
                Some(json!({"account": "nobody"})),
            )
            .await;
        assert_eq!(status, 404, "{out}");
        assert!(out["error"].as_str().unwrap().contains("nobody"), "{out}");
        boss.post(&format!("/api/games/{id}/gm/transfer"), json!({"account": "newgm"}))
            .await;
        assert_eq!(server.visitor().get(&format!("/api/games/{id}")).await["gm"], "newgm");
        let (_, html) = page(boss, "/moderation").await;
        assert!(html.contains("Autumn league (forming; GM newgm)"), "{html}");
        let log = boss.get("/api/moderation/log").await;
        assert_eq!(log["entries"][0]["action"], "gm");
        assert!(log["entries"][0]["detail"].as_str().unwrap().contains("newgm"), "{log}");

        // The club may let only moderators create games.
        boss.call(
            "PATCH",
            "/api/moderation/settings",
            Some(json!({"game_creation": "moderators"})),
        )
        .await;
        let (status, out) = gm.call("POST", "/api/games", Some(json!({"name": "Mine"}))).await;
        assert_eq!(status, 403, "{out}");
        let made = boss.post("/api/games", json!({"name": "Club game"})).await;
        assert!(made["id"].as_i64().is_some());
    }
}

/// The topics a search finds, as `(topic, title)`, best first.
async fn found_topics(api: &Api, q: &str) -> Vec<(i64, String)> {
    api.get(&format!("/api/forum/search?q={q}")).await["found"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["topic"].as_i64().unwrap(), f["title"].as_str().unwrap().to_string()))
        .collect()
}

/// A game's thread bears the game's name, so a GM renaming the game (its
/// settings) renames the thread in the forum and in search: the new name finds it and
/// the old one no longer does, whether the thread had posts when it was renamed or got
/// its first one after.
#[tokio::test(flavor = "multi_thread")]
async fn a_renamed_games_thread_is_found_by_its_new_name_only() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "the-gm", "anna"]).await;
        let (gm, anna) = (&apis[1], &apis[2]);
        let thread_of = |id: i64| {
            let visitor = server.visitor();
            async move {
                visitor.get(&format!("/api/games/{id}/thread")).await["topic"]
                    .as_i64()
                    .unwrap()
            }
        };
        let rename = |id: i64, name: &'static str| async move {
            let view = gm
                .post(&format!("/api/games/{id}/gm/settings"), json!({"name": name}))
                .await;
            assert_eq!(view["name"], name, "{view}");
        };
        // A thread with a post, renamed.
        let talked = gm.post("/api/games", json!({"name": "Zeppelin league"})).await["id"]
            .as_i64()
            .unwrap();
        let topic = thread_of(talked).await;
        anna.post(
            &format!("/api/forum/topics/{topic}/posts"),
            json!({"body": "Is a seat left?"}),
        )
        .await;
        assert_eq!(
            found_topics(anna, "zeppelin").await,
            [(topic, "Zeppelin league".to_string())]
        );
        rename(talked, "Marmalade cup").await;
        assert_eq!(
            found_topics(anna, "marmalade").await,
            [(topic, "Marmalade cup".to_string())]
        );
        assert!(
            found_topics(anna, "zeppelin").await.is_empty(),
            "the old name is not found"
        );
        assert_eq!(
            anna.get(&format!("/api/forum/topics/{topic}")).await["title"],
            "Marmalade cup"
        );
        assert_eq!(
            topic_in(&anna.get("/api/forum/topics").await, topic)["title"],
            "Marmalade cup"
        );
        // A thread renamed before anyone wrote in it: its first post carries the new name.
        let quiet = gm.post("/api/games", json!({"name": "Quince trophy"})).await["id"]
            .as_i64()
            .unwrap();
        let second = thread_of(quiet).await;
        rename(quiet, "Walnut shield").await;
        anna.post(
            &format!("/api/forum/topics/{second}/posts"),
            json!({"body": "Count me in"}),
        )
        .await;
        assert_eq!(
            found_topics(anna, "walnut").await,
            [(second, "Walnut shield".to_string())]
        );
        assert!(
            found_topics(anna, "quince").await.is_empty(),
            "the old name is not found"
        );
        // Renamed twice: only the last name is found, and a reply's text still is.
        rename(talked, "Treacle bowl").await;
        assert_eq!(
            found_topics(anna, "treacle").await,
            [(topic, "Treacle bowl".to_string())]
        );
        assert!(
            found_topics(anna, "marmalade").await.is_empty(),
            "the old name is not found"
        );
        assert_eq!(found_topics(anna, "seat").await, [(topic, "Treacle bowl".to_string())]);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_members_only_forum_is_invisible_to_visitors() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna"]).await;
        let (boss, anna) = (&apis[0], &apis[1]);
        let game = anna.post("/api/games", json!({"name": "Secret society"})).await;
        let id = game["id"].as_i64().unwrap();
        let topic = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Members matter", "body": "The quartermaster speaks"}),
            )
            .await["topic"]
            .as_i64()
            .unwrap();
        let post = anna.get(&format!("/api/forum/topics/{topic}")).await["posts"][0]["id"]
            .as_i64()
            .unwrap();
        let thread = anna.get(&format!("/api/games/{id}/thread")).await["topic"]
            .as_i64()
            .unwrap();
        anna.post(
            &format!("/api/forum/topics/{thread}/posts"),
            json!({"body": "Recruiting the quartermaster"}),
        )
        .await;
        let (status, _) = anna
            .call("PATCH", "/api/moderation/settings", Some(json!({"forum": "members"})))
            .await;
        assert_eq!(status, 403, "members do not change the club's settings");
        // The setting's old name, `board`, is still read, for clients written before the
        // forum was renamed.
        let set = boss
            .call("PATCH", "/api/moderation/settings", Some(json!({"board": "members"})))
            .await
            .1;
        assert_eq!(set["forum"], "members");

        let visitor = server.visitor();
        let addresses = [
            "/api/forum/topics".to_string(),
            format!("/api/forum/topics/{topic}"),
            format!("/api/forum/topics/{thread}"),
            "/api/forum/search?q=quartermaster".to_string(),
            format!("/api/games/{id}/thread"),
            "/forum".to_string(),
            format!("/forum/topics/{topic}"),
            format!("/forum/posts/{post}"),
            "/forum/search?q=quartermaster".to_string(),
            format!("/games/{id}/thread"),
            "/forum/feed.atom".to_string(),
            // The old addresses answer as the new ones do.
            "/board".to_string(),
            format!("/board/topics/{topic}"),
            format!("/board/posts/{post}"),
        ];
        for path in &addresses {
            let (status, body) = visitor.call("GET", path, None).await;
            assert_eq!(status, 401, "{path}");
            let text = body.to_string();
            assert!(
                !text.contains("quartermaster") && !text.contains("Members matter"),
                "{path}: {text}"
            );
            // A made-up or expired token is no member either.
            let stranger = Api::new(&server.base, Some("0".repeat(64)));
            assert_eq!(stranger.call("GET", path, None).await.0, 401, "{path}");
        }
        // Nor does it leak through the game's pages and feed, or the lobby.
        for path in [
            format!("/games/{id}"),
            format!("/games/{id}/feed.atom"),
            "/".to_string(),
        ] {
            let (status, text) = page(&visitor, &path).await;
            assert_eq!(status, 200, "{path}");
            assert!(!text.contains("quartermaster"), "{path}");
        }
        // Members read everything.
        for path in &addresses {
            let (status, _) = anna.call("GET", path, None).await;
            assert!(status == 200 || status == 303, "{path}: {status}");
        }
        assert_eq!(
            anna.get("/api/forum/search?q=QUARTERMASTER").await["found"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
        // Public again: visitors read.
        boss.call("PATCH", "/api/moderation/settings", Some(json!({"forum": "public"})))
            .await;
        assert_eq!(
            visitor.call("GET", &format!("/api/forum/topics/{topic}"), None).await.0,
            200
        );
    }
}

/// A link shared with tracking parameters (`?utm_source=…`) or any other parameter a
/// page does not know still opens the page: pages ignore what they do not read, as
/// every web page does (a 400 page for a newsletter's link helps nobody).
#[tokio::test(flavor = "multi_thread")]
async fn pages_ignore_query_parameters_they_do_not_know() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna"]).await;
        let (boss, anna) = (&apis[0], &apis[1]);
        let (id, _players) = full_game(&server, boss, "1936", json!({}), "q").await;
        let topic = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Tracked", "body": "A shared link"}),
            )
            .await;
        let (topic, post) = (topic["topic"].as_i64().unwrap(), topic["post"].as_i64().unwrap());
        let tail = "utm_source=newsletter&utm_medium=email&fbclid=x1&ref=club";
        let pages = [
            "/".to_string(),
            "/login".to_string(),
            "/register".to_string(),
            "/account".to_string(),
            "/players/anna".to_string(),
            format!("/games/{id}"),
            format!("/games/{id}/gm"),
            format!("/games/{id}/feed.atom"),
            format!("/games/{id}/thread"),
            "/forum".to_string(),
            "/forum?page=1".to_string(),
            "/forum/feed.atom".to_string(),
            format!("/forum/topics/{topic}"),
            format!("/forum/topics/{topic}?page=1"),
            format!("/forum/posts/{post}"),
            "/forum/search".to_string(),
            "/forum/search?q=shared".to_string(),
            "/moderation".to_string(),
            "/moderation?page=1".to_string(),
        ];
        for path in &pages {
            let joined = if path.contains('?') { '&' } else { '?' };
            let (status, body) = page(boss, &format!("{path}{joined}{tail}")).await;
            assert_eq!(status, 200, "{path} with unknown parameters: {body}");
        }
        // A known parameter with a bad value is still refused, as before.
        assert_eq!(page(boss, &format!("/forum?page=abc&{tail}")).await.0, 400);
        let (_, html) = page(anna, &format!("/forum/search?q=shared&{tail}")).await;
        assert!(html.contains("A shared link"), "the search still reads `q`");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn search_and_pages() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna"]).await;
        let anna = &apis[0]; // a moderator: no posting limit for these 26 posts
        let topic = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Long thread", "body": "Post 1: we hold 100% of Iberia"}),
            )
            .await["topic"]
            .as_i64()
            .unwrap();
        for n in 2..=26 {
            server.advance(10).await;
            anna.post(
                &format!("/api/forum/topics/{topic}/posts"),
                json!({"body": format!("Post {n}: 100 units")}),
            )
            .await;
        }
        // 26 posts: two pages of 25 and 1.
        let first = anna.get(&format!("/api/forum/topics/{topic}?page=1")).await;
        assert_eq!(
            (first["pages"].as_i64(), first["posts"].as_array().unwrap().len()),
            (Some(2), 25)
        );
        let second = anna.get(&format!("/api/forum/topics/{topic}?page=2")).await;
        assert_eq!(second["posts"][0]["body"], "Post 26: 100 units");
        let (_, html) = page(anna, &format!("/forum/topics/{topic}?page=1")).await;
        assert!(html.contains(&format!("href=\"/forum/topics/{topic}?page=2\" rel=\"next\"")));

        // Any case; the page a post is on; a title is found on its topic's first post.
        let found = anna.get("/api/forum/search?q=IBERIA").await;
        let hits = found["found"].as_array().unwrap();
        assert_eq!(hits.len(), 1, "{found}");
        assert_eq!(hits[0]["page"], 1);
        let found = anna.get("/api/forum/search?q=POST%2026").await;
        assert_eq!(found["found"].as_array().unwrap().len(), 1, "both words: {found}");
        assert_eq!(found["found"][0]["page"], 2);
        let found = anna.get("/api/forum/search?q=long%20thread").await;
        assert_eq!(found["found"].as_array().unwrap().len(), 1, "{found}");
        assert_eq!(found["found"][0]["excerpt"], "Post 1: we hold 100% of Iberia");
        // `100%` is the word 100: in all 26 posts.
        assert_eq!(
            anna.get("/api/forum/search?q=100%25").await["found"]
                .as_array()
                .unwrap()
                .len(),
            26
        );
        for bad in ["ab", "%20%20%20", "%25%25%25", "-units"] {
            let (status, out) = anna.call("GET", &format!("/api/forum/search?q={bad}"), None).await;
            assert_eq!(status, 422, "{bad}: {out}");
        }
        let (status, html) = page(anna, "/forum/search?q=ab").await;
        assert_eq!(status, 200);
        assert!(html.contains("a search has 3 to"), "said on the page");
        let (_, html) = page(anna, "/forum/search?q=iberia").await;
        assert!(html.contains("Post 1: we hold 100% of Iberia"));
    }
}

/// The posts a search finds, as `(author, excerpt)`, best first.
async fn found(api: &Api, q: &str) -> Vec<String> {
    let url = format!("/api/forum/search?q={}", q.replace(' ', "%20").replace('"', "%22"));
    api.get(&url).await["found"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["excerpt"].as_str().unwrap().to_string())
        .collect()
}

/// Search is full text on both backends (FTS5; tsvector under GIN),
/// ranked: a word is found in its other forms, a phrase only as a phrase, `or` and
/// `-word` work alike on both, a word of a topic's title ranks its topic first; hidden
/// posts are never found, and a members-only forum is not searched by visitors.
#[tokio::test(flavor = "multi_thread")]
async fn full_text_search_finds_word_forms_and_phrases_and_never_hidden_posts() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna", "ben"]).await;
        let (boss, anna, ben) = (&apis[0], &apis[1], &apis[2]);
        let spring = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Spring offensive", "body": "The armies were supporting each other in Munich.\n\nHold the line at Kiel."}),
            )
            .await["topic"]
            .as_i64()
            .unwrap();
        server.advance(31_000).await; // the posting limit: 2 a minute
        ben.post(
            "/api/forum/topics",
            json!({"title": "Fleet talk", "body": "A fleet in the North Sea is supported by another fleet."}),
        )
        .await;
        server.advance(31_000).await; // the posting limit: 2 a minute
        let weak = ben
            .post(
                &format!("/api/forum/topics/{spring}/posts"),
                json!({"body": "Munich hold is weak"}),
            )
            .await["post"]
            .as_i64()
            .unwrap();
        server.advance(31_000).await; // the posting limit: 2 a minute
        anna.post(
            &format!("/api/forum/topics/{spring}/posts"),
            json!({"body": "Next year we hold Munich and Berlin"}),
        )
        .await;
        server.advance(31_000).await; // the posting limit: 2 a minute
        ben.post(
            "/api/forum/topics",
            json!({"title": "Convoy rules", "body": "Which of the two is right?"}),
        )
        .await;
        server.advance(31_000).await; // the posting limit: 2 a minute
        anna.post(
            &format!("/api/forum/topics/{spring}/posts"),
            json!({"body": "I read the rule book on convoys twice, and the part on retreats."}),
        )
        .await;

        let first = "The armies were supporting each other in Munich. Hold the line at Kiel.";
        let fleet = "A fleet in the North Sea is supported by another fleet.";
        // Word forms: `army` finds `armies`, `support` finds `supporting` and `supported`.
        assert_eq!(found(anna, "army support").await, [first]);
        let mut support = found(anna, "supports").await;
        support.sort();
        assert_eq!(support, [fleet, first]);
        // A phrase is its words side by side, in order.
        assert_eq!(
            found(anna, "\"hold Munich\"").await,
            ["Next year we hold Munich and Berlin"]
        );
        assert_eq!(found(anna, "hold munich").await.len(), 3, "the words anywhere");
        assert_eq!(found(anna, "\"line at Kiel\"").await, [first]);
        // `or`, and `-word` leaving posts out.
        let mut either = found(anna, "kiel or sea").await;
        either.sort();
        assert_eq!(either, [fleet, first]);
        let mut not_weak = found(anna, "munich -weak").await;
        not_weak.sort();
        assert_eq!(not_weak, ["Next year we hold Munich and Berlin", first]);
        // Ranked: the topic whose title has the word comes before a post that only
        // mentions it.
        assert_eq!(
            found(anna, "convoy").await,
            [
                "Which of the two is right?",
                "I read the rule book on convoys twice, and the part on retreats."
            ]
        );

        // A hidden post is never found, by members or moderators.
        assert_eq!(found(anna, "weak").await.len(), 1);
        boss.call(
            "PUT",
            &format!("/api/forum/posts/{weak}/hidden"),
            Some(json!({"hidden": true, "reason": "off topic"})),
        )
        .await;
        assert!(found(anna, "weak").await.is_empty());
        assert!(found(boss, "weak").await.is_empty());
        let (_, html) = page(anna, "/forum/search?q=munich").await;
        assert!(
            html.contains("Next year we hold Munich") && !html.contains("is weak"),
            "{html}"
        );
        // Shown again, it is found again (the index holds visible posts only).
        boss.call(
            "PUT",
            &format!("/api/forum/posts/{weak}/hidden"),
            Some(json!({"hidden": false})),
        )
        .await;
        assert_eq!(found(anna, "weak").await, ["Munich hold is weak"]);
        boss.call(
            "PUT",
            &format!("/api/forum/posts/{weak}/hidden"),
            Some(json!({"hidden": true, "reason": "off topic"})),
        )
        .await;
        assert!(found(anna, "weak").await.is_empty());
        // Nor is a post its author deleted.
        server.advance(31_000).await; // the posting limit: 2 a minute
        let gone = ben
            .post(
                &format!("/api/forum/topics/{spring}/posts"),
                json!({"body": "Zeppelins over Kiel"}),
            )
            .await["post"]
            .as_i64()
            .unwrap();
        assert_eq!(found(anna, "zeppelin").await, ["Zeppelins over Kiel"]);
        let (status, out) = ben.call("DELETE", &format!("/api/forum/posts/{gone}"), None).await;
        assert_eq!(status, 200, "{out}");
        assert!(found(anna, "zeppelin").await.is_empty());

        // A members-only forum: visitors search nothing, members as before.
        let visitor = server.visitor();
        assert_eq!(found(&visitor, "munich").await.len(), 2);
        boss.call("PATCH", "/api/moderation/settings", Some(json!({"forum": "members"})))
            .await;
        let (status, out) = visitor.call("GET", "/api/forum/search?q=munich", None).await;
        assert_eq!(status, 401, "{out}");
        assert!(!out.to_string().contains("Munich"), "{out}");
        let (status, html) = page(&visitor, "/forum/search?q=munich").await;
        assert_eq!(status, 401);
        assert!(!html.contains("hold Munich"), "{html}");
        assert_eq!(found(anna, "munich").await.len(), 2);
    }
}

/// Posts `body` as a reply with `api`'s token; the status, the body and `Retry-After`.
async fn try_reply(api: &Api, topic: i64, body: &str) -> (u16, Value, Option<u64>) {
    let r = reqwest::Client::new()
        .post(format!("{}/api/forum/topics/{topic}/posts", api.base))
        .bearer_auth(api.token.as_deref().unwrap())
        .json(&json!({ "body": body }))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let retry = r
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().unwrap());
    (status, r.json().await.unwrap(), retry)
}

/// A per-account posting limit. A new account (under three days) writes
/// 2 posts a minute and 20 a day, an older one 5 and 100; beyond, 429 with
/// `Retry-After` (when the oldest post in the window leaves it) and words a page can
/// show. Moderators have no limit; deleting a post does not give it back.
#[tokio::test(flavor = "multi_thread")]
async fn posting_is_limited_per_minute_and_per_day_new_accounts_more() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna"]).await;
        let (boss, anna) = (&apis[0], &apis[1]);
        let topic = anna
            .post("/api/forum/topics", json!({"title": "Flood", "body": "one"}))
            .await["topic"]
            .as_i64()
            .unwrap();
        server.advance(10_000).await;
        let (status, out, _) = try_reply(anna, topic, "two").await;
        assert_eq!(status, 201, "{out}");
        let (status, out, retry) = try_reply(anna, topic, "three").await;
        assert_eq!(status, 429, "a new account: 2 a minute: {out}");
        assert_eq!(retry, Some(50), "the first post leaves the minute in 50 s");
        assert_eq!(out["retry_after"], 50);
        let e = out["error"].as_str().unwrap();
        assert!(
            e.contains("2 posts in a minute") && e.contains("under 3 days") && e.contains("50 seconds"),
            "{e}"
        );
        // Deleting does not give a post back.
        let last = anna.get(&format!("/api/forum/topics/{topic}")).await["posts"][1]["id"]
            .as_i64()
            .unwrap();
        anna.call("DELETE", &format!("/api/forum/posts/{last}"), None).await;
        assert_eq!(try_reply(anna, topic, "three").await.0, 429);
        // A new topic counts as a post too.
        let (status, _) = anna
            .call(
                "POST",
                "/api/forum/topics",
                Some(json!({"title": "Again", "body": "x"})),
            )
            .await;
        assert_eq!(status, 429);
        server.advance(50_000).await;
        assert_eq!(try_reply(anna, topic, "three").await.0, 201);

        // 20 a day for a new account.
        for n in 4..=20 {
            server.advance(31_000).await;
            let (status, out, _) = try_reply(anna, topic, &format!("post {n}")).await;
            assert_eq!(status, 201, "post {n}: {out}");
        }
        server.advance(61_000).await;
        let (status, out, retry) = try_reply(anna, topic, "twenty-one").await;
        assert_eq!(status, 429, "{out}");
        assert!(out["error"].as_str().unwrap().contains("20 posts in a day"), "{out}");
        let retry = retry.unwrap();
        assert!(
            (23 * 3600..=24 * 3600).contains(&retry),
            "until the first leaves the day: {retry}"
        );
        let (_, html) = page(anna, &format!("/forum/topics/{topic}")).await;
        assert!(html.contains("id=\"send-reply\""), "the page still offers the form");

        // Three days on, the account is no longer new: 5 a minute.
        server.advance(3 * 24 * 3600 * 1000).await;
        for n in 1..=5 {
            let (status, out, _) = try_reply(anna, topic, &format!("burst {n}")).await;
            assert_eq!(status, 201, "burst {n}: {out}");
        }
        let (status, out, retry) = try_reply(anna, topic, "burst 6").await;
        assert_eq!(status, 429, "{out}");
        assert_eq!(retry, Some(60));
        assert!(out["error"].as_str().unwrap().contains("5 posts in a minute"), "{out}");
        assert!(!out["error"].as_str().unwrap().contains("days old"), "{out}");

        // Moderators have no limit.
        for n in 1..=8 {
            let (status, out, _) = try_reply(boss, topic, &format!("moderator {n}")).await;
            assert_eq!(status, 201, "{out}");
        }
    }
}

/// A member edits their own post for an hour after writing it (then 409),
/// and it says "edited"; deletes it only while no one has replied after it (as phpBB
/// lets a member delete only a topic's last post). Never another's post, nor in a locked
/// topic; the search follows the edit; moderators read the earlier texts on the topic
/// and both actions in the log.
#[tokio::test(flavor = "multi_thread")]
async fn authors_edit_within_an_hour_and_delete_until_replied_to() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let (server, apis) = club(&target.url, &["boss", "anna", "ben"]).await;
        let (boss, anna, ben) = (&apis[0], &apis[1], &apis[2]);
        let made = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Gunboat", "body": "Friday at 8, zeppelin"}),
            )
            .await;
        let (topic, first) = (made["topic"].as_i64().unwrap(), made["post"].as_i64().unwrap());
        let edit = |api: &Api, post: i64, body: &str| {
            let body = json!({ "body": body });
            let path = format!("/api/forum/posts/{post}");
            let api = api.clone();
            async move { api.call("PATCH", &path, Some(body)).await }
        };
        let (status, _) = edit(ben, first, "hijacked").await;
        assert_eq!(status, 403, "only its author");
        let (status, out) = edit(anna, first, "Friday at 9, airship").await;
        assert_eq!(status, 200, "{out}");
        assert_eq!(out["body"], "Friday at 9, airship");
        assert_eq!(out["edits"], 1);
        assert!(out["edited"].as_str().unwrap().ends_with('Z'));
        assert_eq!(edit(anna, first, "Friday at 9, airship").await.0, 409, "the same text");
        assert_eq!(edit(anna, first, "   ").await.0, 422);
        // Search follows the edit: the new word is found, the old one no more.
        assert_eq!(found(ben, "airship").await.len(), 1);
        assert!(found(ben, "zeppelin").await.is_empty());
        // The page says "edited"; moderators read the earlier text there, members not.
        let (_, html) = page(ben, &format!("/forum/topics/{topic}")).await;
        assert!(html.contains("class=\"meta edited-note\">Edited"), "{html}");
        assert!(!html.contains("zeppelin"), "members do not read the earlier text");
        let (_, html) = page(boss, &format!("/forum/topics/{topic}")).await;
        assert!(html.contains("Earlier texts (1, moderators only)") && html.contains("Friday at 8, zeppelin"));
        let view = boss.get(&format!("/api/forum/topics/{topic}")).await;
        assert_eq!(view["posts"][0]["versions"][0]["body"], "Friday at 8, zeppelin");
        assert!(
            ben.get(&format!("/api/forum/topics/{topic}")).await["posts"][0]["versions"]
                .as_array()
                .unwrap()
                .is_empty()
        );
        let view = anna.get(&format!("/api/forum/topics/{topic}")).await;
        assert_eq!(
            (
                view["posts"][0]["can_edit"].as_bool(),
                view["posts"][0]["can_delete"].as_bool()
            ),
            (Some(true), Some(true))
        );

        // Someone replies: the first post can no longer be deleted, but still edited
        // within the hour; the reply's author may delete theirs (the last).
        server.advance(1000).await;
        let reply = ben
            .post(&format!("/api/forum/topics/{topic}/posts"), json!({"body": "I'm in"}))
            .await["post"]
            .as_i64()
            .unwrap();
        let (status, out) = anna.call("DELETE", &format!("/api/forum/posts/{first}"), None).await;
        assert_eq!(status, 409, "{out}");
        assert!(out["error"].as_str().unwrap().contains("replied after"), "{out}");
        assert_eq!(
            anna.call("DELETE", &format!("/api/forum/posts/{reply}"), None).await.0,
            403
        );
        let view = anna.get(&format!("/api/forum/topics/{topic}")).await;
        assert_eq!(view["posts"][0]["can_delete"], false);
        let (status, out) = ben.call("DELETE", &format!("/api/forum/posts/{reply}"), None).await;
        assert_eq!(status, 200, "{out}");
        let view = anna.get(&format!("/api/forum/topics/{topic}")).await;
        assert_eq!(view["posts"].as_array().unwrap().len(), 1, "gone from the topic");
        assert_eq!(topic_in(&anna.get("/api/forum/topics").await, topic)["posts"], 1);
        assert_eq!(ben.call("GET", &format!("/forum/posts/{reply}"), None).await.0, 404);
        assert_eq!(
            ben.call("DELETE", &format!("/api/forum/posts/{reply}"), None).await.0,
            404
        );

        // An hour after writing, no more edits.
        server.advance(60 * 60 * 1000).await;
        let (status, out) = edit(anna, first, "Saturday").await;
        assert_eq!(status, 409, "{out}");
        assert!(out["error"].as_str().unwrap().contains("60 minutes"), "{out}");
        // Locked: neither edit nor delete.
        let second = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Short lived", "body": "typo here"}),
            )
            .await;
        let (t2, p2) = (second["topic"].as_i64().unwrap(), second["post"].as_i64().unwrap());
        boss.call(
            "PATCH",
            &format!("/api/forum/topics/{t2}"),
            Some(json!({"locked": true})),
        )
        .await;
        assert_eq!(edit(anna, p2, "no typo").await.0, 409);
        assert_eq!(
            anna.call("DELETE", &format!("/api/forum/posts/{p2}"), None).await.0,
            409
        );
        boss.call(
            "PATCH",
            &format!("/api/forum/topics/{t2}"),
            Some(json!({"locked": false})),
        )
        .await;
        // A topic's only post deleted: the topic leaves the list.
        anna.call("DELETE", &format!("/api/forum/posts/{p2}"), None).await;
        let list = anna.get("/api/forum/topics").await;
        assert!(!list.to_string().contains("Short lived"), "{list}");

        // Moderators see both in the log, with the texts.
        let log = boss.get("/api/moderation/log").await;
        let entries = log["entries"].as_array().unwrap();
        let of = |action: &str, needle: &str| {
            entries
                .iter()
                .any(|e| e["action"] == action && e["detail"].as_str().unwrap().contains(needle))
        };
        assert!(of("edit", "Friday at 8, zeppelin"), "{log}");
        assert!(of("delete", "I'm in") && of("delete", "typo here"), "{log}");
    }
}

/// Mail for replies to one's topics follows the mail preferences, off by
/// default. Over real SMTP (aiosmtpd): nothing until the starter turns the kind on, then
/// one mail per reply by someone else, with the reply and a link to it.
#[tokio::test(flavor = "multi_thread")]
async fn replies_are_mailed_to_the_topic_starter_only_once_chosen() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let anna = server.register("anna").await;
        let ben = server.register("ben").await;
        confirm(&sink, &server, &anna, "anna@players.example").await;
        let topic = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Gunboat night", "body": "Friday?"}),
            )
            .await["topic"]
            .as_i64()
            .unwrap();
        // Off by default: ben's reply mails nobody.
        ben.post(
            &format!("/api/forum/topics/{topic}/posts"),
            json!({"body": "First reply, unmailed"}),
        )
        .await;
        let settings = anna.get("/api/me/mail").await;
        assert!(
            settings["kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"] == "board"),
            "the account page offers the kind: {settings}"
        );
        anna.call(
            "PUT",
            "/api/me/mail/prefs",
            Some(json!({"kind": "board", "enabled": true})),
        )
        .await;
        // Her own replies never mail her.
        anna.post(
            &format!("/api/forum/topics/{topic}/posts"),
            json!({"body": "Talking to myself"}),
        )
        .await;
        let reply = ben
            .post(
                &format!("/api/forum/topics/{topic}/posts"),
                json!({"body": "Second reply:\nFriday suits me"}),
            )
            .await;
        let post = reply["post"].as_i64().unwrap();
        // The confirmation and one reply.
        sink.wait_for(2, 30).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let mails = sink.mails();
        let forum: Vec<&Value> = to(&mails, "anna@players.example")
            .into_iter()
            .filter(|m| m["headers"]["subject"] != "Confirm your address")
            .collect();
        assert_eq!(forum.len(), 1, "{forum:#?}");
        let m = forum[0];
        assert_eq!(m["headers"]["subject"], "ben replied to \u{201c}Gunboat night\u{201d}");
        let text = m["text"].as_str().unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        let at = lines
            .iter()
            .position(|l| *l == "  Second reply:")
            .unwrap_or_else(|| panic!("{text}"));
        assert_eq!(lines[at + 1], "  Friday suits me", "the reply, line by line");
        assert!(!text.contains("unmailed") && !text.contains("myself"), "{text}");
        assert!(m["headers"].get("list-unsubscribe").is_some(), "one click turns it off");
        let url = link(m, &format!("{}/forum/posts/", server.base));
        assert_eq!(url, format!("{}/forum/posts/{post}", server.base));
        assert_eq!(mails.len(), 2, "nobody else was mailed");
    }
}

/// Topic subscription. Any member follows any topic and unfollows it; a
/// reply by someone else mails each follower who has forum mails on (off by default),
/// one mail until they read the topic again; the starter follows their own topic until
/// they unfollow it. Over real SMTP (aiosmtpd).
#[tokio::test(flavor = "multi_thread")]
async fn members_follow_topics_and_get_one_mail_until_they_read_again() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let sink = Sink::start();
        let server = Server::mailing_to(&target.url, &sink);
        let anna = server.register("anna").await;
        let ben = server.register("ben").await;
        let carl = server.register("carl").await;
        let dora = server.register("dora").await;
        for (who, addr) in [
            (&anna, "anna@x.example"),
            (&ben, "ben@x.example"),
            (&dora, "dora@x.example"),
        ] {
            confirm(&sink, &server, who, addr).await;
        }
        // Anna and Ben turn forum mails on; Dora leaves them off.
        for who in [&anna, &ben] {
            who.call(
                "PUT",
                "/api/me/mail/prefs",
                Some(json!({"kind": "board", "enabled": true})),
            )
            .await;
        }
        let topic = anna
            .post(
                "/api/forum/topics",
                json!({"title": "Summer league", "body": "Who plays?"}),
            )
            .await["topic"]
            .as_i64()
            .unwrap();
        let view = ben.get(&format!("/api/forum/topics/{topic}")).await;
        assert_eq!(view["following"]["following"], false, "{view}");
        let f = ben
            .call(
                "PUT",
                &format!("/api/forum/topics/{topic}/follow"),
                Some(json!({"following": true})),
            )
            .await
            .1;
        assert_eq!(
            (f["following"].as_bool(), f["mailed"].as_bool()),
            (Some(true), Some(true)),
            "{f}"
        );
        let f = dora
            .call(
                "PUT",
                &format!("/api/forum/topics/{topic}/follow"),
                Some(json!({"following": true})),
            )
            .await
            .1;
        assert_eq!(f["mailed"], false, "forum mails off: following mails nothing: {f}");
        let (_, html) = page(&dora, &format!("/forum/topics/{topic}")).await;
        assert!(html.contains("replies are not mailed"), "the page says why");
        assert_eq!(
            anna.get(&format!("/api/forum/topics/{topic}")).await["following"]["following"],
            true
        );
        assert_eq!(
            server
                .visitor()
                .call(
                    "PUT",
                    &format!("/api/forum/topics/{topic}/follow"),
                    Some(json!({"following": true}))
                )
                .await
                .0,
            401
        );
        assert_eq!(
            ben.call(
                "PUT",
                "/api/forum/topics/12345/follow",
                Some(json!({"following": true}))
            )
            .await
            .0,
            404
        );

        let forum_mails = |addr: &str| {
            to(&sink.mails(), addr)
                .into_iter()
                .filter(|m| m["headers"]["subject"] != "Confirm your address")
                .map(|m| m["text"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        let settle = || tokio::time::sleep(std::time::Duration::from_millis(800));
        // Carl replies twice: Anna (starter) and Ben get one mail each, not two.
        server.advance(31_000).await;
        carl.post(
            &format!("/api/forum/topics/{topic}/posts"),
            json!({"body": "Me, as Turkey"}),
        )
        .await;
        server.advance(31_000).await;
        carl.post(
            &format!("/api/forum/topics/{topic}/posts"),
            json!({"body": "Or Russia"}),
        )
        .await;
        sink.wait_for(5, 30).await;
        settle().await;
        let (a, b) = (forum_mails("anna@x.example"), forum_mails("ben@x.example"));
        assert_eq!((a.len(), b.len()), (1, 1), "{a:?} {b:?}");
        assert!(
            a[0].contains("carl replied to your topic") && a[0].contains("Me, as Turkey"),
            "{}",
            a[0]
        );
        assert!(
            b[0].contains("a topic you follow") && b[0].contains("Me, as Turkey"),
            "{}",
            b[0]
        );
        assert!(forum_mails("dora@x.example").is_empty());
        // Ben reads the topic: the next reply mails him again; Anna has not read it.
        ben.get(&format!("/api/forum/topics/{topic}")).await;
        server.advance(31_000).await;
        carl.post(
            &format!("/api/forum/topics/{topic}/posts"),
            json!({"body": "Third word"}),
        )
        .await;
        sink.wait_for(6, 30).await;
        settle().await;
        assert_eq!(forum_mails("ben@x.example").len(), 2);
        assert!(forum_mails("ben@x.example")[1].contains("Third word"));
        assert_eq!(forum_mails("anna@x.example").len(), 1, "Anna has not read it since");
        // Both unfollow (Anna her own topic); they read it, and a reply mails nobody.
        for who in [&anna, &ben] {
            who.call(
                "PUT",
                &format!("/api/forum/topics/{topic}/follow"),
                Some(json!({"following": false})),
            )
            .await;
            who.get(&format!("/api/forum/topics/{topic}")).await;
        }
        assert_eq!(
            anna.get(&format!("/api/forum/topics/{topic}")).await["following"]["following"],
            false
        );
        server.advance(31_000).await;
        carl.post(&format!("/api/forum/topics/{topic}/posts"), json!({"body": "Anyone?"}))
            .await;
        settle().await;
        settle().await;
        assert_eq!(forum_mails("ben@x.example").len(), 2);
        assert_eq!(forum_mails("anna@x.example").len(), 1);
        // Nobody's own reply mails themselves.
        anna.call(
            "PUT",
            &format!("/api/forum/topics/{topic}/follow"),
            Some(json!({"following": true})),
        )
        .await;
        server.advance(31_000).await;
        anna.post(&format!("/api/forum/topics/{topic}/posts"), json!({"body": "Me again"}))
            .await;
        settle().await;
        assert_eq!(forum_mails("anna@x.example").len(), 1);
        assert_eq!(sink.mails().len(), 3 + 3, "three confirmations, three reply mails");
    }
}
