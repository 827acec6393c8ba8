//! `chancery bot` and `chancery selfplay` as a script sees them: the bot's answer is in
//! the project's notation and `chancery adjudicate` takes all of it.

use std::io::Write;
use std::process::{Command, Stdio};

fn chancery(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chancery"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The Soviet Union's first orders in 1936 (its Republican Spanish faction's units
/// included) and its DP bids, sent back through `adjudicate` with the power's name:
/// nothing refused, unreadable or void.
#[test]
fn a_bots_orders_and_bids_go_through_adjudicate() {
    for level in ["baseline", "strong"] {
        let (code, out, err) = chancery(
            &[
                "bot",
                "1936",
                "--power",
                "Soviet Union",
                "--level",
                level,
                "--seed",
                "3",
            ],
            r#"{"variant": "1936"}"#,
        );
        assert_eq!(code, 0, "{err}");
        let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
        let orders = answer["orders"].as_array().unwrap();
        let bids = answer["bids"].as_array().unwrap();
        assert!(!orders.is_empty() && !bids.is_empty(), "{out}");
        let request = serde_json::json!({
            "variant": "1936",
            "orders": {"Soviet Union": orders},
            "bids": {"Soviet Union": bids},
        });
        let (code, out, err) = chancery(&["adjudicate"], &request.to_string());
        assert_eq!(code, 0, "{err}");
        let judged: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(judged.get("unreadable").is_none(), "{out}");
        assert!(judged["refused"].as_array().is_none_or(|r| r.is_empty()), "{out}");
        assert!(!judged["bid_report"].as_str().unwrap().contains("void"), "{out}");
    }
}

#[test]
fn bot_refuses_an_unknown_power_or_level_with_a_message() {
    let (code, _, err) = chancery(&["bot", "standard", "--power", "Narnia"], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("no power `Narnia`"), "{err}");
    let (code, _, err) = chancery(&["bot", "standard", "--power", "France", "--level", "genius"], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("unknown level"), "{err}");
}

#[test]
fn selfplay_prints_a_row_per_kind_of_seat() {
    let (code, out, err) = chancery(
        &[
            "selfplay",
            "standard",
            "--games",
            "2",
            "--years",
            "2",
            "--seats",
            "baseline,random",
            "--threads",
            "2",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 games"), "{out}");
    let row = |kind: &str| {
        out.lines()
            .find(|l| l.starts_with(kind))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    // Two games of seven seats: one baseline and six random players in each.
    assert!(row("baseline").split_whitespace().nth(1) == Some("2"), "{out}");
    assert!(row("random").split_whitespace().nth(1) == Some("12"), "{out}");
}
