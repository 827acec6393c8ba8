//! `set_aside_orders` and `set_aside_bids`: orders and bids taken off a phase but kept,
//! so that they can come back (migration 10 says when), and what a rollback leaves
//! behind, listed for the GM's log.

use crate::model::{GameId, PhaseSeq};
use sqlx::{AnyConnection, Row};

/// Why orders and bids were set aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A rollback took their phase back.
    Rollback,
    /// A civil-disorder declaration ended their power's part (rule 11).
    Disorder,
}

impl Why {
    fn as_str(self) -> &'static str {
        match self {
            Why::Rollback => "rollback",
            Why::Disorder => "disorder",
        }
    }
}

/// Which rows: every power's after phase `seq` (a rollback to it), or one power's in
/// phase `seq` (a declaration).
#[derive(Clone, Copy, Debug)]
pub enum Rows<'a> {
    After(PhaseSeq),
    Of(PhaseSeq, &'a str),
}

impl Rows<'_> {
    /// The condition on `seq` (`$2`) and power (`$3`); `$1` is the game.
    fn condition(self) -> &'static str {
        match self {
            Rows::After(_) => "game_id = $1 AND seq > $2",
            Rows::Of(..) => "game_id = $1 AND seq = $2 AND power = $3",
        }
    }

    fn seq(self) -> PhaseSeq {
        match self {
            Rows::After(s) | Rows::Of(s, _) => s,
        }
    }
}

/// One line of what was set aside, for the GM's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub seq: PhaseSeq,
    pub power: String,
    /// The order, `2 DP: order` for a bid, or `ready`.
    pub what: String,
}

/// The orders, bids and ready marks `rows` names, by phase and power.
pub async fn list(conn: &mut AnyConnection, game_id: GameId, rows: Rows<'_>) -> sqlx::Result<Vec<Line>> {
    let c = rows.condition();
    let sql = [
        format!("SELECT seq, power, text AS what, unit_key AS k FROM orders WHERE {c}"),
        format!("SELECT seq, power, CAST(dp AS TEXT) || ' DP: ' || text AS what, unit_key AS k FROM bids WHERE {c}"),
        format!("SELECT seq, power, 'ready' AS what, '~' AS k FROM ready WHERE {c}"),
    ]
    .join(" UNION ALL ")
        + " ORDER BY seq, power, k";
    let mut q = sqlx::query(&sql).bind(game_id).bind(rows.seq());
    if let Rows::Of(_, power) = rows {
        q = q.bind(power.to_string());
    }
    q.fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|r| {
            Ok(Line {
                seq: r.try_get("seq")?,
                power: r.try_get("power")?,
                what: r.try_get("what")?,
            })
        })
        .collect()
}

/// Moves the orders and bids `rows` names into the set-aside tables and drops the ready
/// marks, which only ever meant "judge this phase now".
pub async fn set_aside(conn: &mut AnyConnection, game_id: GameId, rows: Rows<'_>, why: Why) -> sqlx::Result<()> {
    let c = rows.condition();
    let statements = [
        format!(
            "INSERT INTO set_aside_orders (game_id, seq, power, unit_key, text, submitted_ms, why) \
             SELECT game_id, seq, power, unit_key, text, submitted_ms, '{}' FROM orders WHERE {c} \
             ON CONFLICT DO NOTHING",
            why.as_str()
        ),
        format!(
            "INSERT INTO set_aside_bids (game_id, seq, power, unit_key, dp, text, submitted_ms, why) \
             SELECT game_id, seq, power, unit_key, dp, text, submitted_ms, '{}' FROM bids WHERE {c} \
             ON CONFLICT DO NOTHING",
            why.as_str()
        ),
        format!("DELETE FROM orders WHERE {c}"),
        format!("DELETE FROM bids WHERE {c}"),
        format!("DELETE FROM ready WHERE {c}"),
    ];
    for sql in &statements {
        let mut q = sqlx::query(sql).bind(game_id).bind(rows.seq());
        if let Rows::Of(_, power) = rows {
            q = q.bind(power.to_string());
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Puts the orders and bids set aside from phase `seq` back (a roll forward restored the
/// result that leads to it).
pub async fn restore(conn: &mut AnyConnection, game_id: GameId, seq: PhaseSeq) -> sqlx::Result<()> {
    for sql in [
        "INSERT INTO orders (game_id, seq, power, unit_key, text, submitted_ms) \
         SELECT game_id, seq, power, unit_key, text, submitted_ms FROM set_aside_orders WHERE game_id = $1 AND seq = $2 \
         ON CONFLICT DO NOTHING",
        "INSERT INTO bids (game_id, seq, power, unit_key, dp, text, submitted_ms) \
         SELECT game_id, seq, power, unit_key, dp, text, submitted_ms FROM set_aside_bids WHERE game_id = $1 AND seq = $2 \
         ON CONFLICT DO NOTHING",
        "DELETE FROM set_aside_orders WHERE game_id = $1 AND seq = $2",
        "DELETE FROM set_aside_bids WHERE game_id = $1 AND seq = $2",
    ] {
        sqlx::query(sql).bind(game_id).bind(seq).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Forgets what was set aside from phase `seq` on: a phase judged anew leads to another
/// position, where they were never given.
pub async fn forget_from(conn: &mut AnyConnection, game_id: GameId, seq: PhaseSeq) -> sqlx::Result<()> {
    for sql in [
        "DELETE FROM set_aside_orders WHERE game_id = $1 AND seq >= $2",
        "DELETE FROM set_aside_bids WHERE game_id = $1 AND seq >= $2",
    ] {
        sqlx::query(sql).bind(game_id).bind(seq).execute(&mut *conn).await?;
    }
    Ok(())
}
