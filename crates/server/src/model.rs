//! Typed values the layers pass between them: the store reads them from rows, the
//! services decide with them, the JSON handlers and the pages show them.

use std::fmt;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A logged-in account.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: AccountId,
    pub name: String,
    /// The account's time zone, in which pages give times beside UTC; None for UTC.
    pub zone: Option<chrono_tz::Tz>,
}

/// Declares the ids the database keeps as BIGINTs: each its own type, so that one is
/// never taken for another, yet the bare integer on the wire, in the OpenAPI document
/// (fields say `value_type = i64`) and in the database (`store/words.rs` binds and
/// reads them); shown and parsed as that integer.
macro_rules! integer_ids {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::num::ParseIntError;

            fn from_str(s: &str) -> Result<$name, Self::Err> {
                s.parse().map($name)
            }
        }
    )*};
}

integer_ids! {
    /// An account's id: the `accounts.id` of its row.
    AccountId;
    /// A forum post's id: the `posts.id` of its row.
    PostId;
    /// A forum topic's id: the `topics.id` of its row (a game's thread too).
    TopicId;
    /// A game's id: the `games.id` of its row.
    GameId;
    /// A press message's id: the `press.id` of its row (and `press_recipients.press_id`).
    MessageId;
    /// A phase's number within its game: `phases.seq`, 0 for the opening phase, one
    /// more for each phase processed (`games.seq` is the current one).
    PhaseSeq;
}

impl PhaseSeq {
    /// The opening phase of every game.
    pub const FIRST: PhaseSeq = PhaseSeq(0);

    /// The phase processing this one makes.
    pub fn next(self) -> PhaseSeq {
        PhaseSeq(self.0 + 1)
    }

    /// The phase processed into this one; None for the opening phase.
    pub fn previous(self) -> Option<PhaseSeq> {
        (self.0 > 0).then(|| PhaseSeq(self.0 - 1))
    }
}

/// Where a game stands. Stored as its lower-case name in `games.status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Waiting for players or its start time; no phase has a deadline.
    Forming,
    /// Running: the current phase has a deadline.
    Active,
    /// Running, the deadline stopped by the GM.
    Paused,
    /// Ended by victory, draw or concession.
    Finished,
}

impl GameStatus {
    /// Started and not yet ended: phases are played (the deadline may be paused).
    pub fn running(self) -> bool {
        matches!(self, Self::Active | Self::Paused)
    }
}

/// What players may send each other in a game (the GM may always write, and a player
/// may always write to the GM). Stored as its lower-case name in `games.press`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PressRule {
    /// Private and public press.
    Full,
    /// Press to everyone only.
    Public,
    /// No press between players (gunboat).
    None,
}

/// How a phase came to be processed. Stored as its words in `phases.how`, and shown
/// and served as them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum HowProcessed {
    /// Its deadline passed.
    #[serde(rename = "deadline")]
    Deadline,
    /// Every seated power marked ready (early processing on).
    #[serde(rename = "all ready")]
    AllReady,
    /// The GM turned early processing on when every seated power was ready already.
    #[serde(rename = "all ready when early processing came on")]
    AllReadyWhenEarlyOn,
    /// The GM processed it at once.
    #[serde(rename = "gm")]
    Gm,
    /// The GM rolled it forward after changing its orders (judged again).
    #[serde(rename = "gm: rolled forward with changed orders")]
    RolledForwardChanged,
    /// The demo club's setup played it.
    #[serde(rename = "demo")]
    Demo,
}

/// How a finished game ended. `games.outcome` stores it as the words older versions
/// wrote ("victory: X", "draw: A, B", "concession to X"), which `store/words.rs` alone
/// reads and writes; the API and the pages show the same words (its `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    /// A power reached the variant's victory condition.
    Victory(String),
    /// The powers sharing a draw, by the GM's decision or the survivors' vote.
    Draw(Vec<String>),
    /// The GM ended the game in a concession to one power.
    Concession(String),
}

impl GameOutcome {
    /// Whether `power` won: the victory or the concession is its.
    pub fn won_by(&self, power: &str) -> bool {
        matches!(self, GameOutcome::Victory(w) | GameOutcome::Concession(w) if w == power)
    }

    /// Whether `power` shares the draw (names are compared whole).
    pub fn drawn_by(&self, power: &str) -> bool {
        matches!(self, GameOutcome::Draw(powers) if powers.iter().any(|p| p == power))
    }
}

impl fmt::Display for GameOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameOutcome::Victory(w) => write!(f, "victory: {w}"),
            GameOutcome::Draw(powers) => write!(f, "draw: {}", powers.join(", ")),
            GameOutcome::Concession(w) => write!(f, "concession to {w}"),
        }
    }
}

/// The words, as the API always gave the outcome.
impl Serialize for GameOutcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// What a mail preference covers: every game, or one. `mail_prefs.game_id` stores
/// every game as 0 (a key column cannot hold NULL), which `store/words.rs` alone reads
/// and writes; JSON shows the same integer (`game_id`: 0 for every game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MailScope {
    AllGames,
    Game(GameId),
}

impl From<Option<GameId>> for MailScope {
    fn from(game: Option<GameId>) -> MailScope {
        game.map_or(MailScope::AllGames, MailScope::Game)
    }
}

impl MailScope {
    /// The game it is for; None for every game.
    pub fn game(self) -> Option<GameId> {
        match self {
            MailScope::AllGames => None,
            MailScope::Game(g) => Some(g),
        }
    }
}

impl Serialize for MailScope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MailScope::AllGames => s.serialize_i64(0),
            MailScope::Game(g) => g.serialize(s),
        }
    }
}

// A club setting, stored as its lower-case name in `club_settings` under the key
// `board_visibility` (store::moderation). Not in the doc comment, which the OpenAPI
// document shows to clients.
/// Who may read the forum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Anyone, visitors included (the default).
    Public,
    /// Members who are logged in; visitors are told to log in.
    Members,
}

// A club setting, stored as its lower-case name in `club_settings` under the key
// `game_creation` (store::moderation).
/// Who may create games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameCreation {
    /// Every member (the default).
    Members,
    /// Moderators only.
    Moderators,
}

/// The kinds of mail, each turned on or off per account (and per game). Stored as its
/// lower-case name in `outbox.kind` and `mail_prefs.kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailKind {
    /// The confirmation link of a new address; always sent.
    Confirm,
    /// The results of each processed phase.
    Results,
    /// Reminders before a deadline, when the reader's power still has orders to give.
    Reminders,
    /// New private press and GM announcements, batched.
    Press,
    /// A game's start and end, replacements and civil disorder.
    Game,
    /// To the GM: phases processed (with the powers that gave no orders by the
    /// deadline), players leaving.
    Gm,
    /// Replies to the reader's topics in the club's forum; off unless chosen.
    Forum,
    /// The daily digest that gathers the others (`services::mail::digest`); its
    /// unsubscribe link turns every kind off.
    Digest,
}

impl MailKind {
    /// The kinds a reader may choose: every kind the club sends, and only those.
    pub const CHOSEN: [MailKind; 6] = [
        MailKind::Results,
        MailKind::Reminders,
        MailKind::Press,
        MailKind::Game,
        MailKind::Gm,
        MailKind::Forum,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::Confirm => "confirm",
            MailKind::Results => "results",
            MailKind::Reminders => "reminders",
            MailKind::Press => "press",
            MailKind::Game => "game",
            MailKind::Gm => "gm",
            // The word stored in `mail_prefs` and `outbox` and carried by the unsubscribe
            // links of mails already sent, from when the forum was called the board.
            MailKind::Forum => "board",
            MailKind::Digest => "digest",
        }
    }

    /// A kind a mail's unsubscribe link names: one a reader chooses, or the digest.
    pub fn parse_link(s: &str) -> Option<MailKind> {
        if s == MailKind::Digest.as_str() {
            return Some(MailKind::Digest);
        }
        MailKind::parse(s)
    }

    /// A kind a reader may choose, by its name.
    pub fn parse(s: &str) -> Option<MailKind> {
        MailKind::CHOSEN.into_iter().find(|k| k.as_str() == s)
    }

    /// Any kind, by its stored name (the outbox holds confirmations and digests too).
    pub fn stored(s: &str) -> Option<MailKind> {
        [MailKind::Confirm, MailKind::Digest]
            .into_iter()
            .chain(MailKind::CHOSEN)
            .find(|k| k.as_str() == s)
    }

    /// What the account page calls it.
    pub fn label(self) -> &'static str {
        match self {
            MailKind::Confirm => "address confirmation",
            MailKind::Results => "results of each phase",
            MailKind::Reminders => "deadline reminders",
            MailKind::Press => "private press and GM announcements",
            MailKind::Game => "game start, end, replacements and civil disorder",
            MailKind::Gm => "as GM: phases processed, missing orders, players leaving",
            MailKind::Forum => "replies in the forum's topics you follow (your own topics, unless you unfollow them)",
            MailKind::Digest => "any kind (the daily digest and all it gathers)",
        }
    }

    /// Whether the kind is sent to an account that has not chosen: everything about the
    /// games one plays or runs is; forum replies are not, as a web forum's are not.
    pub fn on_by_default(self) -> bool {
        !matches!(self, MailKind::Forum)
    }
}

impl fmt::Display for MailKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::{GameStatus, HowProcessed, MailKind, PressRule};

    #[test]
    fn press_rules_read_back_as_stored() {
        for s in PressRule::ALL {
            assert_eq!(PressRule::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
    }

    #[test]
    fn statuses_read_back_as_stored() {
        for s in GameStatus::ALL {
            assert_eq!(GameStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(GameStatus::parse("Active"), None);
    }

    #[test]
    fn ways_of_processing_read_back_as_stored() {
        for h in HowProcessed::ALL {
            assert_eq!(HowProcessed::parse(h.as_str()), Some(h));
            assert_eq!(serde_json::to_value(h).unwrap(), h.as_str());
        }
        assert_eq!(HowProcessed::parse("gm: process now"), None);
    }

    #[test]
    fn mail_kinds_read_back_as_stored() {
        for k in MailKind::CHOSEN {
            assert_eq!(MailKind::parse(k.as_str()), Some(k));
            assert_eq!(MailKind::stored(k.as_str()), Some(k));
        }
        for k in [MailKind::Confirm, MailKind::Digest] {
            assert_eq!(MailKind::parse(k.as_str()), None, "not a reader's choice");
            assert_eq!(MailKind::stored(k.as_str()), Some(k));
        }
        assert_eq!(MailKind::parse_link("digest"), Some(MailKind::Digest));
    }
}

/// A game's deadline schedule as stored. Here, beside the other stored values, because
/// the store's `Game` gives it (`Game::schedule`): were it a service's type, the store
/// would use the services that use the store.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    pub movement: i64,
    pub retreat: i64,
    pub adjustment: i64,
    /// "HH:MM" in `time_zone`, when deadlines fall at a fixed time of day.
    pub at: Option<String>,
    pub time_zone: Option<String>,
}

impl Default for Schedule {
    /// A day to move, half a day to retreat or adjust, at no fixed time.
    fn default() -> Schedule {
        Schedule {
            movement: 24 * 60,
            retreat: 12 * 60,
            adjustment: 12 * 60,
            at: None,
            time_zone: None,
        }
    }
}

/// A bot's level as the server stores it (`bots.level`, `bot_fill.level`): the bot
/// crate's level, wrapped so that the store reads and writes it as its word and the
/// layers above compare levels, never words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotLevel(pub chancery_bot::Level);

impl BotLevel {
    pub fn as_str(self) -> &'static str {
        self.0.as_str()
    }

    pub fn parse(word: &str) -> Option<BotLevel> {
        chancery_bot::Level::parse(word).map(BotLevel)
    }
}

/// What came of a bot's turn (`bot_turns.outcome`, stored as its words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotTurnOutcome {
    /// The bot gave its orders (or bid), which were accepted.
    Ordered,
    /// The power had nothing to decide; it was marked ready.
    NoDecision,
    /// The server refused what the bot gave; the power was marked ready without it.
    Refused,
}

/// What a moderation log entry records (`moderation_log.action`, stored as its word;
/// the JSON and the log page show the same word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModerationAction {
    Appoint,
    Remove,
    Suspend,
    Reinstate,
    Hide,
    Show,
    Pin,
    Unpin,
    Lock,
    Unlock,
    /// A change of who reads the forum: `board_visibility`, the word kept from when the
    /// forum was called the board, as clubs' logs hold it.
    ForumVisibility,
    GameCreation,
    /// A moderator made someone a game's GM.
    Gm,
    /// A member edited their own post (the text before).
    Edit,
    /// A member deleted their own post (the text deleted).
    Delete,
}

impl Serialize for ModerationAction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The words the stored enums are kept as (and shown and served as): `ALL`, `as_str`,
/// `parse` (None for any other word) and `Display`, from one table per enum, so that the
/// word written and the word read cannot drift apart. `store/words.rs` binds and reads
/// them through `as_str` and `parse`.
macro_rules! words {
    ($($t:ident { $($v:ident => $w:literal),* $(,)? })*) => {$(
        impl $t {
            pub const ALL: [$t; [$($w),*].len()] = [$($t::$v),*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($t::$v => $w,)*
                }
            }

            pub fn parse(word: &str) -> Option<$t> {
                match word {
                    $($w => Some($t::$v),)*
                    _ => None,
                }
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )*};
}

words! {
    GameStatus { Forming => "forming", Active => "active", Paused => "paused", Finished => "finished" }
    PressRule { Full => "full", Public => "public", None => "none" }
    HowProcessed {
        Deadline => "deadline",
        AllReady => "all ready",
        AllReadyWhenEarlyOn => "all ready when early processing came on",
        Gm => "gm",
        RolledForwardChanged => "gm: rolled forward with changed orders",
        Demo => "demo",
    }
    Visibility { Public => "public", Members => "members" }
    GameCreation { Members => "members", Moderators => "moderators" }
    BotTurnOutcome { Ordered => "ordered", NoDecision => "no decision", Refused => "refused" }
    ModerationAction {
        Appoint => "appoint",
        Remove => "remove",
        Suspend => "suspend",
        Reinstate => "reinstate",
        Hide => "hide",
        Show => "show",
        Pin => "pin",
        Unpin => "unpin",
        Lock => "lock",
        Unlock => "unlock",
        ForumVisibility => "board_visibility",
        GameCreation => "game_creation",
        Gm => "gm",
        Edit => "edit",
        Delete => "delete",
    }
}
