//! The enums the tables store as their words (`games.status`, `phases.how`, …): sqlx
//! reads and binds them as text, so that the store's rows carry the enum and no layer
//! above compares or parses the words. A stored word no variant has is a decoding
//! error that names the column's type and the word, never a guess.

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::{Any, Database, Decode, Encode, Type};

use crate::model::{
    AccountId, BotLevel, BotTurnOutcome, GameCreation, GameId, GameOutcome, GameStatus, HowProcessed, MailKind,
    MailScope, MessageId, ModerationAction, PhaseSeq, PostId, PressRule, TopicId, Visibility,
};

/// Implements sqlx's text conversions for enums with `as_str`, reading with the
/// function named.
macro_rules! stored_as_words {
    ($($t:ty => $what:literal, $parse:path);* $(;)?) => {$(
        impl Type<Any> for $t {
            fn type_info() -> <Any as Database>::TypeInfo {
                <str as Type<Any>>::type_info()
            }
        }

        impl<'q> Encode<'q, Any> for $t {
            fn encode_by_ref(&self, buf: &mut <Any as Database>::ArgumentBuffer<'q>) -> Result<IsNull, BoxDynError> {
                <&str as Encode<'q, Any>>::encode(self.as_str(), buf)
            }
        }

        impl<'r> Decode<'r, Any> for $t {
            fn decode(value: <Any as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                let text = <String as Decode<'r, Any>>::decode(value)?;
                $parse(&text).ok_or_else(|| format!("unknown {} `{text}` stored", $what).into())
            }
        }
    )*};
}

stored_as_words!(
    GameStatus => "game status", GameStatus::parse;
    PressRule => "press rule", PressRule::parse;
    HowProcessed => "way of processing", HowProcessed::parse;
    MailKind => "kind of mail", MailKind::stored;
    super::members::Role => "member role", super::members::Role::parse;
    BotLevel => "bot level", BotLevel::parse;
    BotTurnOutcome => "bot turn outcome", BotTurnOutcome::parse;
    ModerationAction => "moderation action", ModerationAction::parse;
    Visibility => "forum visibility", Visibility::parse;
    GameCreation => "game creation rule", GameCreation::parse;
);

/// The ids stored as BIGINTs: bound and read as the integer they wrap.
macro_rules! stored_as_integer {
    ($($t:ident),* $(,)?) => {$(
        impl Type<Any> for $t {
            fn type_info() -> <Any as Database>::TypeInfo {
                <i64 as Type<Any>>::type_info()
            }

            fn compatible(ty: &<Any as Database>::TypeInfo) -> bool {
                <i64 as Type<Any>>::compatible(ty)
            }
        }

        impl<'q> Encode<'q, Any> for $t {
            fn encode_by_ref(&self, buf: &mut <Any as Database>::ArgumentBuffer<'q>) -> Result<IsNull, BoxDynError> {
                <i64 as Encode<'q, Any>>::encode_by_ref(&self.0, buf)
            }
        }

        impl<'r> Decode<'r, Any> for $t {
            fn decode(value: <Any as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
                <i64 as Decode<'r, Any>>::decode(value).map($t)
            }
        }
    )*};
}

stored_as_integer!(GameId, AccountId, PostId, PhaseSeq, TopicId, MessageId);

/// `mail_prefs.game_id`: 0 for every game (the column is part of the key, so never
/// NULL), else the game's id. Nothing else is stored; a negative number is a decoding
/// error, never taken for either.
impl Type<Any> for MailScope {
    fn type_info() -> <Any as Database>::TypeInfo {
        <i64 as Type<Any>>::type_info()
    }

    fn compatible(ty: &<Any as Database>::TypeInfo) -> bool {
        <i64 as Type<Any>>::compatible(ty)
    }
}

impl<'q> Encode<'q, Any> for MailScope {
    fn encode_by_ref(&self, buf: &mut <Any as Database>::ArgumentBuffer<'q>) -> Result<IsNull, BoxDynError> {
        let stored = match self {
            MailScope::AllGames => 0,
            MailScope::Game(g) => g.0,
        };
        <i64 as Encode<'q, Any>>::encode(stored, buf)
    }
}

impl<'r> Decode<'r, Any> for MailScope {
    fn decode(value: <Any as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        match <i64 as Decode<'r, Any>>::decode(value)? {
            0 => Ok(MailScope::AllGames),
            g if g > 0 => Ok(MailScope::Game(GameId(g))),
            g => Err(format!("unknown mail scope `{g}` stored (0 for every game, else a game's id)").into()),
        }
    }
}

/// `games.outcome`: "victory: X", "concession to X" or "draw: A, B, …", the words every
/// version wrote. A drawing power whose name holds the separator `, ` (or begins with a
/// quote) is written as a JSON string (`draw: "A, B", C`), so that its name comes back
/// whole; older versions wrote every name bare, and no name they could split wrongly
/// is written bare now. Anything else stored is a decoding error, never a guess.
pub fn outcome_words(outcome: &GameOutcome) -> String {
    match outcome {
        GameOutcome::Victory(w) => format!("victory: {w}"),
        GameOutcome::Concession(w) => format!("concession to {w}"),
        GameOutcome::Draw(powers) => {
            let names: Vec<String> = powers
                .iter()
                .map(|p| {
                    if p.contains(", ") || p.starts_with('"') {
                        serde_json::Value::from(p.as_str()).to_string()
                    } else {
                        p.clone()
                    }
                })
                .collect();
            format!("draw: {}", names.join(", "))
        }
    }
}

/// Reads `games.outcome` as [`outcome_words`] writes it.
pub fn parse_outcome(text: &str) -> Result<GameOutcome, String> {
    let named = |w: &str| {
        if w.is_empty() {
            Err(format!("game outcome `{text}` names no power"))
        } else {
            Ok(w.to_string())
        }
    };
    if let Some(w) = text.strip_prefix("victory: ") {
        return Ok(GameOutcome::Victory(named(w)?));
    }
    if let Some(w) = text.strip_prefix("concession to ") {
        return Ok(GameOutcome::Concession(named(w)?));
    }
    let Some(mut rest) = text.strip_prefix("draw: ") else {
        return Err(format!("unknown game outcome `{text}` stored"));
    };
    let mut powers = Vec::new();
    loop {
        let name = if rest.starts_with('"') {
            let mut quoted = serde_json::Deserializer::from_str(rest).into_iter::<String>();
            let name = match quoted.next() {
                Some(Ok(name)) => name,
                _ => return Err(format!("game outcome `{text}`: a quoted name is not closed")),
            };
            rest = &rest[quoted.byte_offset()..];
            name
        } else {
            let end = rest.find(", ").unwrap_or(rest.len());
            let name = &rest[..end];
            rest = &rest[end..];
            name.to_string()
        };
        powers.push(named(&name)?);
        match rest.strip_prefix(", ") {
            Some(next) => rest = next,
            None if rest.is_empty() => return Ok(GameOutcome::Draw(powers)),
            None => return Err(format!("game outcome `{text}`: `, ` expected after a quoted name")),
        }
    }
}

impl Type<Any> for GameOutcome {
    fn type_info() -> <Any as Database>::TypeInfo {
        <str as Type<Any>>::type_info()
    }
}

impl<'q> Encode<'q, Any> for GameOutcome {
    fn encode_by_ref(&self, buf: &mut <Any as Database>::ArgumentBuffer<'q>) -> Result<IsNull, BoxDynError> {
        <String as Encode<'q, Any>>::encode(outcome_words(self), buf)
    }
}

impl<'r> Decode<'r, Any> for GameOutcome {
    fn decode(value: <Any as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        let text = <String as Decode<'r, Any>>::decode(value)?;
        Ok(parse_outcome(&text)?)
    }
}

#[cfg(test)]
mod tests {
    use sqlx::any::AnyPoolOptions;
    use sqlx::Row;

    use crate::model::{BotLevel, BotTurnOutcome, GameStatus, HowProcessed};

    /// Each word reads back as its enum, and a word no variant has is an error that says
    /// which, rather than a default.
    #[tokio::test]
    async fn stored_words_read_back_and_unknown_ones_are_refused() {
        sqlx::any::install_default_drivers();
        let db = AnyPoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        for how in HowProcessed::ALL {
            let row = sqlx::query("SELECT $1 AS how").bind(how).fetch_one(&db).await.unwrap();
            assert_eq!(row.try_get::<HowProcessed, _>("how").unwrap(), how);
            assert_eq!(row.try_get::<String, _>("how").unwrap(), how.as_str());
        }
        let row = sqlx::query("SELECT 'gm: process now' AS how, 'Active' AS status")
            .fetch_one(&db)
            .await
            .unwrap();
        let e = row.try_get::<HowProcessed, _>("how").unwrap_err().to_string();
        assert!(e.contains("unknown way of processing `gm: process now`"), "{e}");
        let e = row.try_get::<GameStatus, _>("status").unwrap_err().to_string();
        assert!(e.contains("unknown game status `Active`"), "{e}");
        for level in [
            chancery_bot::Level::Random,
            chancery_bot::Level::Baseline,
            chancery_bot::Level::Strong,
        ] {
            let row = sqlx::query("SELECT $1 AS level")
                .bind(BotLevel(level))
                .fetch_one(&db)
                .await
                .unwrap();
            assert_eq!(row.try_get::<BotLevel, _>("level").unwrap(), BotLevel(level));
        }
        let row = sqlx::query("SELECT 'Strong' AS level").fetch_one(&db).await.unwrap();
        let e = row.try_get::<BotLevel, _>("level").unwrap_err().to_string();
        assert!(e.contains("unknown bot level `Strong`"), "{e}");
        // The words older versions wrote in `bot_turns.outcome`.
        for (outcome, word) in BotTurnOutcome::ALL
            .into_iter()
            .zip(["ordered", "no decision", "refused"])
        {
            let row = sqlx::query("SELECT $1 AS outcome")
                .bind(outcome)
                .fetch_one(&db)
                .await
                .unwrap();
            assert_eq!(row.try_get::<String, _>("outcome").unwrap(), word);
            assert_eq!(row.try_get::<BotTurnOutcome, _>("outcome").unwrap(), outcome);
        }
        let row = sqlx::query("SELECT 'no_decision' AS outcome")
            .fetch_one(&db)
            .await
            .unwrap();
        let e = row.try_get::<BotTurnOutcome, _>("outcome").unwrap_err().to_string();
        assert!(e.contains("unknown bot turn outcome `no_decision`"), "{e}");
    }
}
