//! The typed values of `crates/server/src/model.rs` go into the database and come back
//! as the same values through the store's own functions, on both backends (issue 25,
//! "Types at the boundary": ids and numbers with types, read by `store/` only). The
//! columns keep their SQL types, so rows written by older versions read alike.
mod common;

use chancery_server::db::Db;
use chancery_server::model::{AccountId, GameId, GameStatus, HowProcessed, MailKind, PhaseSeq, PressRule};
use chancery_server::store;
use chancery_server::store::mail::{NewMail, PhaseMap};
use chancery_server::store::phases::{PhaseRow, Table};

async fn open(target: &common::Target) -> Db {
    Db::open(&target.url).await.expect("open the test database")
}

/// An account and a forming game of it, written as their creation writes them.
async fn account_and_game(db: &Db) -> (AccountId, GameId) {
    let account = AccountId(41);
    store::accounts::insert(&db.write, account, "alice", "hash", 1_000)
        .await
        .unwrap();
    let game = GameId(7_000_000_001);
    store::games::insert(
        &db.write,
        &store::games::NewGameRow {
            id: game,
            name: "typed",
            variant: "standard",
            variant_text: None,
            gm_id: account,
            press: PressRule::Full,
            grey_press: false,
            anonymous: false,
            reveal_at_end: false,
            movement_minutes: 60,
            retreat_minutes: 30,
            adjustment_minutes: 30,
            start_at_ms: None,
            state_json: "{}",
            created_ms: 1_000,
            deadline_time: None,
            time_zone: None,
            process_when_ready: false,
        },
    )
    .await
    .unwrap();
    (account, game)
}

fn phase(game: GameId, seq: i64) -> PhaseRow {
    PhaseRow {
        game_id: game,
        seq: PhaseSeq(seq),
        phase: format!("P{seq}"),
        state_json: "{}".into(),
        result_json: "{}".into(),
        processed_ms: 2_000 + seq,
        how: HowProcessed::Deadline,
        bid_report: None,
        missing: Vec::new(),
        judged_json: None,
    }
}

/// A phase's number (`PhaseSeq`) is stored in the BIGINT `seq` columns of `games`,
/// `phases` and the outbox's maps and read back as the same number: a new game is at
/// the first phase, each advance is the next, and a phase is found by its number.
#[tokio::test(flavor = "multi_thread")]
async fn phase_numbers_round_trip() {
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        let (account, game) = account_and_game(&db).await;

        let row = store::games::by_id(&db.read, game).await.unwrap().unwrap();
        assert_eq!(row.seq, PhaseSeq::FIRST);
        for seq in 0..3 {
            store::phases::insert(&db.write, Table::Phases, &phase(game, seq))
                .await
                .unwrap();
            store::games::advance(
                &db.write,
                game,
                PhaseSeq(seq),
                "{}",
                GameStatus::Active,
                None,
                Some(9_000),
            )
            .await
            .unwrap();
        }
        let row = store::games::by_id(&db.read, game).await.unwrap().unwrap();
        assert_eq!(row.seq, PhaseSeq(3));
        assert_eq!(row.seq.previous(), Some(PhaseSeq(2)));
        assert_eq!(PhaseSeq::FIRST.previous(), None);

        let listed: Vec<PhaseSeq> = store::phases::list(&db.read, game)
            .await
            .unwrap()
            .iter()
            .map(|p| p.seq)
            .collect();
        assert_eq!(listed, [PhaseSeq(0), PhaseSeq(1), PhaseSeq(2)]);
        let one = store::phases::get(&db.read, Table::Phases, game, PhaseSeq(1))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((one.game_id, one.seq, one.phase.as_str()), (game, PhaseSeq(1), "P1"));
        assert!(store::phases::get(&db.read, Table::Phases, game, PhaseSeq(3))
            .await
            .unwrap()
            .is_none());

        // The outbox keeps a mail's maps as JSON `[game, seq]` pairs: the same bare
        // integers older versions wrote.
        let maps = vec![
            PhaseMap {
                game_id: game,
                seq: PhaseSeq(2),
            },
            PhaseMap {
                game_id: game,
                seq: PhaseSeq(0),
            },
        ];
        store::mail::enqueue(
            &db.write,
            &NewMail {
                id: 5,
                account_id: account,
                address: "alice@example.org".into(),
                game_id: Some(game),
                kind: MailKind::Results,
                subject: "results".into(),
                text_body: "text".into(),
                html_body: "<p>html</p>".into(),
                message_id: "<m5@example.org>".into(),
                created_ms: 3_000,
                due_ms: 3_000,
                maps: maps.clone(),
                digest_ms: None,
            },
        )
        .await
        .unwrap();
        let mails = store::mail::of_game(&db.read, game, 10).await.unwrap();
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0].maps, maps);
        let pool = target.database().await;
        let stored: String = sqlx::query_scalar("SELECT maps FROM outbox WHERE id = 5")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(stored, format!("[[{game},2],[{game},0]]"));
    }
}

/// A topic's id (`TopicId`) is stored in `topics.id` and the posts' `topic_id` and read
/// back as the same id: by the topic, by its game, on its posts, on a search's hits; a
/// visitor (no reader) has read nothing.
#[tokio::test(flavor = "multi_thread")]
async fn topic_ids_round_trip() {
    use chancery_server::model::{PostId, TopicId};
    use chancery_server::store::forum::{self, NewPost, NewTopic};
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        let (account, game) = account_and_game(&db).await;
        let (talk, thread) = (TopicId(8_000_000_003), TopicId(8_000_000_004));
        for (id, title, game_id) in [(talk, "Openings talk", None), (thread, "typed", Some(game))] {
            forum::insert_topic(
                &db.write,
                &NewTopic {
                    id,
                    title,
                    author: account,
                    game_id,
                    created_ms: 1_000,
                },
            )
            .await
            .unwrap();
        }
        let mut tx = db.write.begin().await.unwrap();
        for (n, topic) in [(1, talk), (2, talk), (3, thread)] {
            forum::insert_post(
                &mut tx,
                &NewPost {
                    id: PostId(n),
                    topic_id: topic,
                    author: account,
                    body: "the Lepanto opening sends Italy's fleets east",
                    created_ms: 1_000 + n,
                },
            )
            .await
            .unwrap();
        }
        tx.commit().await.unwrap();
        forum::mark_read(&db.write, account, talk, 1_001).await.unwrap();

        assert_eq!(forum::game_topic(&db.read, game).await.unwrap(), Some(thread));
        let seen = forum::topic(&db.read, Some(account), talk).await.unwrap().unwrap();
        assert_eq!((seen.id, seen.posts, seen.read_ms), (talk, 2, Some(1_001)));
        let visitor = forum::topic(&db.read, None, talk).await.unwrap().unwrap();
        assert_eq!((visitor.id, visitor.read_ms), (talk, None));
        let listed: Vec<TopicId> = forum::page(&db.read, None, 0, 10)
            .await
            .unwrap()
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(listed.len(), 2);
        assert!(listed.contains(&talk) && listed.contains(&thread));
        let posts = forum::posts(&db.read, talk, 0, 10).await.unwrap();
        let ids: Vec<(PostId, TopicId)> = posts.iter().map(|p| (p.id, p.topic_id)).collect();
        assert_eq!(ids, [(PostId(1), talk), (PostId(2), talk)]);
        let owner = forum::owner(&db.read, PostId(3)).await.unwrap().unwrap();
        assert_eq!((owner.author, owner.topic_id), (account, thread));

        let postgres = target.label == "postgres";
        // One word is the same query in FTS5's syntax and `to_tsquery`'s.
        let mut hits: Vec<(PostId, TopicId)> = forum::search(&db.read, postgres, "lepanto", 10)
            .await
            .unwrap()
            .iter()
            .map(|h| (h.post.id, h.post.topic_id))
            .collect();
        hits.sort();
        assert_eq!(hits, [(PostId(1), talk), (PostId(2), talk), (PostId(3), thread)]);
    }
}

/// A mail preference's scope (`MailScope`) is stored in `mail_prefs.game_id` as it
/// always was, 0 for every game and the game's id for one, and read back as the scope;
/// the JSON of the settings still says 0 for every game. A number no version stores (a
/// negative one) is a decoding error, never taken for every game.
#[tokio::test(flavor = "multi_thread")]
async fn mail_scopes_round_trip() {
    use chancery_server::model::MailScope;
    use chancery_server::store::mail::Pref;
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        let (account, game) = account_and_game(&db).await;
        store::mail::set_pref(&db.write, account, MailScope::AllGames, MailKind::Results, false)
            .await
            .unwrap();
        store::mail::set_pref(&db.write, account, MailScope::Game(game), MailKind::Results, true)
            .await
            .unwrap();
        store::mail::set_pref(&db.write, account, MailScope::Game(game), MailKind::Press, false)
            .await
            .unwrap();
        let prefs = store::mail::prefs(&db.read, account).await.unwrap();
        let pref = |scope, kind, enabled| Pref { scope, kind, enabled };
        assert_eq!(
            prefs,
            [
                pref(MailScope::AllGames, MailKind::Results, false),
                pref(MailScope::Game(game), MailKind::Press, false),
                pref(MailScope::Game(game), MailKind::Results, true),
            ]
        );
        assert_eq!(serde_json::to_value(MailScope::AllGames).unwrap(), serde_json::json!(0));
        assert_eq!(
            serde_json::to_value(MailScope::Game(game)).unwrap(),
            serde_json::json!(game.0)
        );

        // The rows are those older versions wrote and read.
        let pool = target.database().await;
        let mut stored: Vec<i64> =
            sqlx::query_scalar("SELECT game_id FROM mail_prefs WHERE account_id = $1 ORDER BY game_id")
                .bind(account.0)
                .fetch_all(&pool)
                .await
                .unwrap();
        stored.dedup();
        assert_eq!(stored, [0, game.0]);
        store::mail::clear_pref(&db.write, account, MailScope::Game(game), MailKind::Press)
            .await
            .unwrap();
        assert_eq!(store::mail::prefs(&db.read, account).await.unwrap().len(), 2);

        sqlx::query("INSERT INTO mail_prefs (account_id, game_id, kind, enabled) VALUES ($1, -5, 'results', 1)")
            .bind(account.0)
            .execute(&pool)
            .await
            .unwrap();
        let e = store::mail::prefs(&db.read, account).await.unwrap_err().to_string();
        assert!(e.contains("unknown mail scope `-5`"), "{e}");
    }
}

/// The club's settings are stored as their words under their keys (who reads the forum
/// still under `board_visibility`, as clubs' databases hold it) and read back as
/// `Visibility` and `GameCreation`; a setting never set has its default, and a word no
/// variant has is a decoding error that names it, not a silent default.
#[tokio::test(flavor = "multi_thread")]
async fn club_settings_round_trip() {
    use chancery_server::model::{GameCreation, Visibility};
    use chancery_server::store::moderation::{self, ClubSettingsRow};
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        let defaults = ClubSettingsRow {
            forum: Visibility::Public,
            game_creation: GameCreation::Members,
        };
        assert_eq!(moderation::club_settings(&db.read).await.unwrap(), defaults);
        moderation::set_forum_visibility(&db.write, Visibility::Members)
            .await
            .unwrap();
        let read = moderation::club_settings(&db.read).await.unwrap();
        assert_eq!(
            (read.forum, read.game_creation),
            (Visibility::Members, GameCreation::Members)
        );
        moderation::set_game_creation(&db.write, GameCreation::Moderators)
            .await
            .unwrap();
        moderation::set_forum_visibility(&db.write, Visibility::Public)
            .await
            .unwrap();
        let read = moderation::club_settings(&db.read).await.unwrap();
        assert_eq!(
            (read.forum, read.game_creation),
            (Visibility::Public, GameCreation::Moderators)
        );

        let pool = target.database().await;
        let stored: Vec<(String, String)> = sqlx::query_as("SELECT name, value FROM club_settings ORDER BY name")
            .fetch_all(&pool)
            .await
            .unwrap();
        let stored: Vec<(&str, &str)> = stored.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(
            stored,
            [("board_visibility", "public"), ("game_creation", "moderators")]
        );

        sqlx::query("UPDATE club_settings SET value = 'everyone' WHERE name = 'board_visibility'")
            .execute(&pool)
            .await
            .unwrap();
        let e = moderation::club_settings(&db.read).await.unwrap_err().to_string();
        assert!(e.contains("unknown forum visibility `everyone`"), "{e}");
    }
}

/// A finished game's outcome is stored in `games.outcome` as the words older versions
/// wrote ("victory: X", "concession to X", "draw: A, B" from the GM's end, the
/// survivors' vote and processing) and read back as a `GameOutcome` by the store, the
/// player records' seats included; the words written now are those same words. A
/// drawing power whose name holds `, ` is written quoted so that it comes back whole;
/// a word no version wrote is a decoding error that names it, not a guess.
#[tokio::test(flavor = "multi_thread")]
async fn game_outcomes_round_trip() {
    use chancery_server::model::GameOutcome::{self, Concession, Draw, Victory};
    let names = |ps: &[&str]| ps.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    // As older versions wrote them, power names of uploaded variants included.
    let written_before: Vec<(&str, GameOutcome)> = vec![
        ("victory: France", Victory("France".into())),
        ("concession to England", Concession("England".into())),
        (
            "draw: England, France, Russia",
            Draw(names(&["England", "France", "Russia"])),
        ),
        (
            "draw: Austria, England, France, Germany, Italy, Russia, Turkey",
            Draw(names(&[
                "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
            ])),
        ),
        ("draw: %, _, A,B, Italy_", Draw(names(&["%", "_", "A,B", "Italy_"]))),
        ("victory: A,B", Victory("A,B".into())),
        ("concession to Ottoman Empire", Concession("Ottoman Empire".into())),
    ];
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        let (account, game) = account_and_game(&db).await;
        store::members::insert(&db.write, game, account, Some("France"), 1_000)
            .await
            .unwrap();
        let pool = target.database().await;
        let stored = || async {
            sqlx::query_scalar::<_, Option<String>>("SELECT outcome FROM games WHERE id = $1")
                .bind(game.0)
                .fetch_one(&pool)
                .await
                .unwrap()
        };
        let read = || async { store::games::by_id(&db.read, game).await.unwrap().unwrap().outcome };

        assert_eq!(read().await, None, "a game not over has no outcome");
        for (text, outcome) in &written_before {
            sqlx::query("UPDATE games SET outcome = $1 WHERE id = $2")
                .bind(*text)
                .bind(game.0)
                .execute(&pool)
                .await
                .unwrap();
            assert_eq!(read().await.as_ref(), Some(outcome), "{text}");
            let seats = store::players::seats(&db.read, account, true).await.unwrap();
            assert_eq!(seats[0].outcome.as_ref(), Some(outcome), "{text}");
            // The API and the pages show the same words.
            assert_eq!(outcome.to_string(), *text);

            store::games::finish(&db.write, game, outcome).await.unwrap();
            assert_eq!(stored().await.as_deref(), Some(*text), "written as before");
        }
        store::games::advance(
            &db.write,
            game,
            PhaseSeq::FIRST,
            "{}",
            GameStatus::Finished,
            Some(&Victory("Turkey".into())),
            None,
        )
        .await
        .unwrap();
        assert_eq!(stored().await.as_deref(), Some("victory: Turkey"));

        // A name holding the separator would be two powers if written bare.
        let quoted = Draw(names(&["A, B", "C", "\"Q\""]));
        store::games::finish(&db.write, game, &quoted).await.unwrap();
        assert_eq!(stored().await.as_deref(), Some(r#"draw: "A, B", C, "\"Q\"""#));
        assert_eq!(read().await, Some(quoted));

        for (text, error) in [
            ("won by France", "unknown game outcome `won by France`"),
            ("Victory: France", "unknown game outcome `Victory: France`"),
            ("draw", "unknown game outcome `draw`"),
            ("victory: ", "names no power"),
            ("draw: France, ", "names no power"),
            (r#"draw: "A, B"C"#, "`, ` expected after a quoted name"),
            (r#"draw: "A, B"#, "a quoted name is not closed"),
        ] {
            sqlx::query("UPDATE games SET outcome = $1 WHERE id = $2")
                .bind(text)
                .bind(game.0)
                .execute(&pool)
                .await
                .unwrap();
            let e = store::games::by_id(&db.read, game).await.unwrap_err().to_string();
            assert!(e.contains(error), "{text}: {e}");
        }
    }
}

/// What came of a bot's turn is stored in `bot_turns.outcome` as the words older
/// versions wrote ("ordered", "no decision", "refused"), and the store's readers of the
/// phases a bot played count the ordered turns alone.
#[tokio::test(flavor = "multi_thread")]
async fn bot_turn_outcomes_round_trip() {
    use chancery_server::model::BotTurnOutcome;
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        let (_, game) = account_and_game(&db).await;
        let seq = PhaseSeq(4);
        let turns = [
            ("England", BotTurnOutcome::Ordered),
            ("France", BotTurnOutcome::NoDecision),
            ("Germany", BotTurnOutcome::Refused),
        ];
        for (power, outcome) in turns {
            store::bots::claim(&db.write, game, seq, power, "server-a", 5_000)
                .await
                .unwrap();
            store::bots::done(&db.write, game, seq, power, outcome, 6_000)
                .await
                .unwrap();
        }
        let pool = target.database().await;
        let stored: Vec<(String, String)> =
            sqlx::query_as("SELECT power, outcome FROM bot_turns WHERE game_id = $1 ORDER BY power")
                .bind(game.0)
                .fetch_all(&pool)
                .await
                .unwrap();
        let stored: Vec<(&str, &str)> = stored.iter().map(|(p, o)| (p.as_str(), o.as_str())).collect();
        assert_eq!(
            stored,
            [
                ("England", "ordered"),
                ("France", "no decision"),
                ("Germany", "refused")
            ]
        );
        assert_eq!(store::bots::played_in(&db.read, game, seq).await.unwrap(), ["England"]);
        let played = store::bots::played(&db.read, game).await.unwrap();
        assert_eq!(
            played.iter().map(|p| (p.seq, p.power.as_str())).collect::<Vec<_>>(),
            [(seq, "England")]
        );
    }
}

/// The moderation log's action is stored as the word older versions wrote
/// (`board_visibility` for who reads the forum, as clubs' logs hold it) and read back
/// as a `ModerationAction`; a word no version wrote is a decoding error that names it.
#[tokio::test(flavor = "multi_thread")]
async fn moderation_actions_round_trip() {
    use chancery_server::model::ModerationAction;
    use chancery_server::store::moderation::{self, NewEntry};
    let words = [
        "appoint",
        "remove",
        "suspend",
        "reinstate",
        "hide",
        "show",
        "pin",
        "unpin",
        "lock",
        "unlock",
        "board_visibility",
        "game_creation",
        "gm",
        "edit",
        "delete",
    ];
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        for (i, action) in ModerationAction::ALL.into_iter().enumerate() {
            let entry = NewEntry {
                id: 9_000 + i as i64,
                at_ms: 10_000 + i as i64,
                moderator: None,
                action,
                target: "t",
                detail: "d",
            };
            moderation::log(&db.write, &entry).await.unwrap();
        }
        let pool = target.database().await;
        let stored: Vec<String> = sqlx::query_scalar("SELECT action FROM moderation_log ORDER BY at_ms")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(stored, words);
        let read: Vec<ModerationAction> = moderation::entries(&db.read, 0, 100)
            .await
            .unwrap()
            .iter()
            .rev()
            .map(|e| e.action)
            .collect();
        assert_eq!(read, ModerationAction::ALL);

        sqlx::query("UPDATE moderation_log SET action = 'ban' WHERE id = 9000")
            .execute(&pool)
            .await
            .unwrap();
        let e = moderation::entries(&db.read, 0, 100).await.err().unwrap().to_string();
        assert!(e.contains("unknown moderation action `ban`"), "{e}");
    }
}

/// A press message's id is a `MessageId` in the store's rows and in the page cursor,
/// stored in the BIGINT `press.id` and `press_recipients.press_id` as before: messages
/// of one millisecond are ordered by it, and a private message's recipients are found
/// by it.
#[tokio::test(flavor = "multi_thread")]
async fn message_ids_round_trip() {
    use chancery_server::model::MessageId;
    use chancery_server::store::press::{self, NewMessage, Readable, Recipients};
    for target in common::targets().await {
        eprintln!("backend: {}", target.label);
        let db = open(&target).await;
        let (account, game) = account_and_game(&db).await;
        let private = Recipients::Private {
            powers: vec!["France".into()],
            gm: false,
        };
        let mut tx = db.write.begin().await.unwrap();
        for (id, recipients) in [(10, &Recipients::Everyone), (20, &private), (30, &Recipients::Everyone)] {
            let m = NewMessage {
                id: MessageId(id),
                game_id: game,
                seq: PhaseSeq::FIRST,
                phase: "S1901M",
                sender_account: account,
                sender_power: Some("England"),
                from_gm: false,
                grey: false,
                recipients,
                body: "hello",
                sent_ms: 5_000,
            };
            press::insert(&mut tx, &m).await.unwrap();
        }
        tx.commit().await.unwrap();

        let read = |before: (i64, MessageId)| {
            let db = &db;
            async move {
                press::readable(&db.read, game, &Readable::Power("France"), 0, before, 10)
                    .await
                    .unwrap()
            }
        };
        let all = read((i64::MAX, MessageId(i64::MIN))).await;
        assert_eq!(
            all.iter().map(|m| m.id).collect::<Vec<_>>(),
            [MessageId(30), MessageId(20), MessageId(10)]
        );
        assert_eq!(all[1].recipients, private, "found by the message's id");
        let older = read((5_000, MessageId(30))).await;
        assert_eq!(
            older.iter().map(|m| m.id).collect::<Vec<_>>(),
            [MessageId(20), MessageId(10)]
        );

        let pool = target.database().await;
        let stored: Vec<i64> = sqlx::query_scalar("SELECT press_id FROM press_recipients ORDER BY press_id")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(stored, [20]);
    }
}
