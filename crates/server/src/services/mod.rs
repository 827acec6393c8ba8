//! The services: the club's operations, one module per domain. A service takes typed
//! values (the viewer's account, ids, a request's fields) and returns typed values or an
//! [`ApiError`](crate::error::ApiError); it decides who may do what and what the rules
//! allow, and reads and writes only through [`crate::store`]. The JSON handlers
//! ([`crate::api`]) and the pages both call services, so the two faces cannot disagree.
//!
//! - [`accounts`]: accounts, sessions, the login throttle.
//! - [`games`]: games as stored and shown: loading and locking one, roles, settings,
//!   views and a player's own games; [`new_game`]: creating one; [`seats`]: joining,
//!   leaving, starting, and a player put in a seat.
//! - [`orders`]: orders and ready marks, each for the phase it names; [`bids`]: DP bids,
//!   budgets and the GM's bid report; [`order_words`]: orders in words, and examples
//!   from a power's own units.
//! - [`gm`]: the game master's tools; [`bots`]: bots in seats, seated by the GM and
//!   deciding each phase on the job pool, exactly once across servers.
//! - [`press`]: messages, and who may send and read each.
//! - [`votes`]: the players' draw votes.
//! - [`players`]: the club's player records.
//! - [`forum`]: the club's forum (topics, replies, game threads, unread marks,
//!   full-text search read by [`forum_search`]), its text formatted by [`forum_text`];
//!   [`moderation`]: moderators, the club's settings, suspensions and the moderation log.
//! - [`variants`]: the built-in variants.
//! - [`maps`]: each variant's map, made and drawn on the job pool; its GeoJSON.
//! - [`history`]: processed phases as stored, never judged again (phases stored
//!   before the judgement was kept are converted once, at start-up).
//! - [`mail`]: everything the club mails, in one room: what is mailed and to whom,
//!   written to the outbox in the event's transaction; addresses and preferences;
//!   reminders, press in batches and the digest run by the clock; a game's mails for its
//!   GM; and the sender that delivers the outbox (SMTP or a mail folder).
//! - [`processing`]: judging a phase exactly once; the GM's rollback and roll forward.
//! - [`map_tools`]: the viewer's own orders drawn, a unit's legal [`targets`]; the
//!   [`sandbox`], orders judged on the current position and never stored.

pub mod accounts;
pub mod bids;
pub mod bots;
pub mod forum;
pub mod forum_search;
pub mod forum_text;
pub mod games;
pub mod gm;
pub mod history;
pub mod mail;
pub mod map_tools;
pub mod maps;
pub mod moderation;
pub mod new_game;
pub mod order_words;
pub mod orders;
pub mod players;
pub mod press;
pub mod processing;
pub mod sandbox;
pub mod seats;
pub mod stored_orders;
pub mod targets;
pub mod variants;
pub mod votes;
