//! Reads orders as players type them: MILA (`F STP/SC - BOT`), jDip (`A bud-ser`), and
//! plain words (`Army Budapest moves to Serbia`, `F St Petersburg south coast S ...`).
//!
//! The parser only resolves names; whether the order is legal on the board is the job
//! of `validate`.

use smallvec::SmallVec;

use crate::order::{Order, OrderError, OrderKind, UnitRef};
use crate::suggest::nearest;
use crate::variant::{coast_abbreviation, normalise_name, Location, PowerId, UnitKind, Variant};

/// A token of an order: words are slices of the text, compared ignoring ASCII case.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'t> {
    Word(&'t str),
    Dash,
    Slash,
    Open,
    Close,
    Colon,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '.' || c == '\''
}

fn is_ascii_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'\''
}

/// The character at byte `i` of `text` and its length: ASCII is read as bytes, the
/// rest decoded.
fn char_at(text: &str, i: usize) -> (char, usize) {
    let b = text.as_bytes()[i];
    if b < 0x80 {
        return (b as char, 1);
    }
    let c = text[i..].chars().next().expect("i is a character boundary");
    (c, c.len_utf8())
}

/// An order's tokens: on the stack for all but the wordiest orders.
type Toks<'t> = SmallVec<[Tok<'t>; 24]>;

/// Splits `text` into `out`, which the parser owns: filled in place, since moving a
/// token array costs more than reading the order.
fn tokenize<'t>(text: &'t str, out: &mut Toks<'t>) -> Result<(), OrderError> {
    // The text is read byte by byte; only a character outside ASCII is decoded.
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let (c, len) = char_at(text, i);
        // An underscore joins words as a space would (`st_petersburg`).
        if c.is_whitespace() || c == ',' || c == ';' || c == '_' {
            i += len;
        } else if c == '-' || c == '=' || c == '>' || c == '–' || c == '→' {
            // "-", "->", "=>", ">", "–", "→" all mean "moves to".
            i += len;
            while i < bytes.len() && (bytes[i] == b'>' || bytes[i] == b'-') {
                i += 1;
            }
            out.push(Tok::Dash);
        } else if c == '/' {
            i += 1;
            out.push(Tok::Slash);
        } else if c == '(' || c == '[' {
            i += 1;
            out.push(Tok::Open);
        } else if c == ')' || c == ']' {
            i += 1;
            out.push(Tok::Close);
        } else if c == ':' {
            i += 1;
            out.push(Tok::Colon);
        } else if is_word_char(c) {
            let start = i;
            i += len;
            while i < bytes.len() {
                if is_ascii_word_byte(bytes[i]) {
                    i += 1;
                } else if bytes[i] >= 0x80 {
                    let (d, n) = char_at(text, i);
                    if !is_word_char(d) {
                        break;
                    }
                    i += n;
                } else {
                    break;
                }
            }
            out.push(Tok::Word(&text[start..i]));
        } else {
            return Err(OrderError::Syntax(format!("unexpected character `{c}`")));
        }
    }
    Ok(())
}

/// Whether a typed word is one of the keywords `set` (written lowercase).
fn is_one_of(w: &str, set: &[&str]) -> bool {
    set.iter().any(|k| k.eq_ignore_ascii_case(w))
}

const HOLD: &[&str] = &["h", "hold", "holds", "stand", "stands"];
const SUPPORT: &[&str] = &["s", "support", "supports", "sup"];
const CONVOY: &[&str] = &["c", "convoy", "convoys", "transport", "transports"];
const DISBAND: &[&str] = &["d", "disband", "disbands"];
const MOVE: &[&str] = &["m", "move", "moves", "to", "attack", "attacks"];
const RETREAT: &[&str] = &["r", "retreat", "retreats"];
const BOARD: &[&str] = &["b", "board", "boards", "embark", "embarks"];

fn is_keyword(w: &str) -> bool {
    [HOLD, SUPPORT, CONVOY, DISBAND, MOVE, RETREAT]
        .iter()
        .any(|set| is_one_of(w, set))
        || is_one_of(w, &["via", "by", "build", "b", "remove", "waive"])
}

struct Parser<'v, 't> {
    v: &'v Variant,
    toks: Toks<'t>,
    pos: usize,
}

impl<'t> Parser<'_, 't> {
    fn peek_word(&self) -> Option<&'t str> {
        match self.toks.get(self.pos) {
            Some(Tok::Word(w)) => Some(w),
            _ => None,
        }
    }

    /// The word `k` places after the current token, if the tokens up to it are words.
    fn word_at(&self, k: usize) -> Option<&'t str> {
        match self.toks.get(self.pos..self.pos + k + 1)? {
            run if run.iter().all(|t| matches!(t, Tok::Word(_))) => match run[k] {
                Tok::Word(w) => Some(w),
                _ => None,
            },
            _ => None,
        }
    }

    fn eat_word(&mut self, set: &[&str]) -> bool {
        match self.peek_word() {
            Some(w) if is_one_of(w, set) => {
                self.pos += 1;
                true
            }
            _ => false,
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn unit_kind(&mut self) -> Option<UnitKind> {
        let w = self.peek_word()?;
        let kind = if is_one_of(w, &["a", "army"]) {
            UnitKind::Army
        } else if is_one_of(w, &["f", "fleet"]) {
            UnitKind::Fleet
        } else {
            return None;
        };
        self.pos += 1;
        Some(kind)
    }

    /// A power's name or adjective at the current token, its words joined by spaces
    /// or hyphens (`Austria-Hungary`, `Austro-Hungarian`): the power and the tokens it
    /// takes.
    fn power_name(&self) -> Option<(PowerId, usize)> {
        // Token positions of the words, hyphens between them skipped.
        let word_pos = |k: usize| -> Option<usize> {
            let mut at = self.pos;
            for _ in 0..k {
                at += 1;
                if self.toks.get(at) == Some(&Tok::Dash) {
                    at += 1;
                }
            }
            matches!(self.toks.get(at), Some(Tok::Word(_))).then_some(at)
        };
        let word = |k: usize| match word_pos(k).map(|at| self.toks[at]) {
            Some(Tok::Word(w)) => Some(w),
            _ => None,
        };
        let (p, n) = self.v.lookup.powers.longest(word)?;
        Some((p, word_pos(n - 1)? + 1 - self.pos))
    }

    /// Skips a power name or adjective before a unit ("S Russian A gal", DATC 4.C.5).
    fn skip_nationality(&mut self) {
        let Some((_, taken)) = self.power_name() else { return };
        let skip = if taken == 1 {
            // A one-word name that is also a space's name is the space.
            self.v.lookup.provinces.longest(|k| self.word_at(k)).is_none()
        } else {
            // Several words (or a hyphen) only before a unit's type, so that a move
            // such as `Denmark - Norway` is not read as the power Denmark-Norway.
            matches!(self.toks.get(self.pos + taken), Some(Tok::Word(w)) if is_one_of(w, &["a", "f", "army", "fleet"]))
        };
        if skip {
            self.pos += taken;
        }
    }

    /// A unit designation: optional kind, then a location.
    fn unit(&mut self) -> Result<UnitRef, OrderError> {
        self.skip_nationality();
        let kind = self.unit_kind();
        let location = self.location()?;
        Ok(UnitRef { kind, location })
    }

    /// A space, possibly several words long, then an optional coast.
    fn location(&mut self) -> Result<Location, OrderError> {
        let mut run = 0;
        while let Some(Tok::Word(_)) = self.toks.get(self.pos + run) {
            run += 1;
        }
        if run == 0 {
            return Err(match self.toks.get(self.pos) {
                None => OrderError::Syntax("the order stops where a province was expected".into()),
                Some(t) => OrderError::Syntax(format!("expected a province, found `{}`", tok_text(t))),
            });
        }
        if let Some((p, len)) = self.v.lookup.provinces.longest(|k| self.word_at(k)) {
            self.pos += len;
            let coast = self.coast(p)?;
            return Ok(Location::new(p, coast));
        }
        let words: Vec<String> = self.toks[self.pos..self.pos + run]
            .iter()
            .map(|t| match t {
                Tok::Word(w) => w.to_lowercase(),
                _ => String::new(),
            })
            .collect();
        // Name the unknown part: the words up to the next keyword.
        let mut unknown: Vec<&str> = Vec::new();
        for w in &words {
            if !unknown.is_empty() && is_keyword(w) {
                break;
            }
            unknown.push(w);
        }
        let name = unknown.join(" ");
        let suggestion = nearest(&normalise_name(&name), self.v.all_names().map(|(n, _)| n)).map(|n| {
            let p = self.v.find_province(n).map(|p| self.v.province(p));
            match p {
                Some(p) if !p.abbr.eq_ignore_ascii_case(n) => format!("{} ({})", p.abbr.to_lowercase(), p.name),
                Some(p) => format!("{} ({})", n, p.name),
                None => n.to_string(),
            }
        });
        Err(OrderError::UnknownProvince {
            name,
            nearest: suggestion,
        })
    }

    /// `/sc`, `(sc)`, `(south coast)`, `south coast`, `sc`.
    fn coast(&mut self, p: u16) -> Result<u8, OrderError> {
        let start = self.pos;
        let mut text = String::new();
        let explicit;
        match self.toks.get(self.pos) {
            Some(Tok::Slash) => {
                self.pos += 1;
                let Some(w) = self.peek_word() else {
                    return Err(OrderError::Syntax("a coast must follow `/`".into()));
                };
                self.pos += 1;
                text = w.to_ascii_lowercase();
                if self.peek_word().is_some_and(|w| w.eq_ignore_ascii_case("coast")) {
                    self.pos += 1;
                }
                explicit = true;
            }
            Some(Tok::Open) => {
                self.pos += 1;
                while let Some(w) = self.peek_word() {
                    self.pos += 1;
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    text.push_str(&w.to_ascii_lowercase());
                }
                if self.toks.get(self.pos) != Some(&Tok::Close) {
                    return Err(OrderError::Syntax("a `(` is not closed".into()));
                }
                self.pos += 1;
                explicit = true;
            }
            Some(&Tok::Word(w)) => {
                let next = self.toks.get(self.pos + 1);
                if is_one_of(w, &["north", "south", "east", "west"])
                    && matches!(next, Some(Tok::Word(c)) if c.eq_ignore_ascii_case("coast"))
                {
                    self.pos += 2;
                    text = format!("{} coast", w.to_ascii_lowercase());
                    explicit = true;
                } else if is_one_of(w, &["nc", "sc", "ec", "wc"]) {
                    self.pos += 1;
                    text = w.to_ascii_lowercase();
                    explicit = true;
                } else {
                    explicit = false;
                }
            }
            _ => explicit = false,
        }
        if !explicit {
            return Ok(0);
        }
        let prov = self.v.province(p);
        if prov.coasts.is_empty() {
            // DATC 4.B.6: a coast on a space without coasts is ignored, unless it is
            // not a coast at all.
            if coast_abbreviation(&text).is_some() {
                return Ok(0);
            }
            self.pos = start;
            return Err(OrderError::UnknownCoast {
                province: prov.name.clone(),
                coast: text,
                coasts: Vec::new(),
            });
        }
        match self.v.find_coast(p, &text) {
            Some(c) => Ok(c),
            None => Err(OrderError::UnknownCoast {
                province: prov.name.clone(),
                coast: text,
                coasts: prov.coasts.clone(),
            }),
        }
    }

    fn move_marker(&mut self) -> Option<bool> {
        if self.toks.get(self.pos) == Some(&Tok::Dash) {
            self.pos += 1;
            self.eat_word(&["to"]);
            return Some(false);
        }
        if self.eat_word(MOVE) {
            self.eat_word(&["to"]);
            return Some(false);
        }
        if self.eat_word(RETREAT) {
            self.eat_word(&["to"]);
            return Some(true);
        }
        None
    }

    fn via_convoy(&mut self) -> Result<bool, OrderError> {
        if self.eat_word(&["via", "by"]) {
            self.eat_word(&["convoy", "c", "sea"]);
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// The `B [power]` of a boarding order (Original 1958 rule 7), if it follows.
    fn board_marker(&mut self) -> Option<()> {
        (self.v.rule_on(crate::rules::Rule::Boarding) && self.eat_word(BOARD)).then_some(())
    }

    /// The other unit's nationality after `B`: a power's name or adjective, or nothing
    /// (the ordering power's own).
    fn board_with(&mut self) -> Result<Option<PowerId>, OrderError> {
        if self.at_end() {
            return Ok(None);
        }
        if let Some((p, taken)) = self.power_name() {
            self.pos += taken;
            return Ok(Some(p));
        }
        let name = self.toks[self.pos..].iter().map(tok_text).collect::<Vec<_>>().join(" ");
        let nearest = nearest(&name, self.v.all_power_names(true)).map(str::to_string);
        Err(OrderError::UnknownPower { name, nearest })
    }

    fn finish(&self) -> Result<(), OrderError> {
        match self.toks.get(self.pos) {
            None => Ok(()),
            Some(t) => Err(OrderError::Syntax(format!(
                "unexpected `{}` after a complete order",
                tok_text(t)
            ))),
        }
    }
}

fn tok_text(t: &Tok) -> String {
    match t {
        Tok::Word(w) => w.to_string(),
        Tok::Dash => "-".into(),
        Tok::Slash => "/".into(),
        Tok::Open => "(".into(),
        Tok::Close => ")".into(),
        Tok::Colon => ":".into(),
    }
}

/// Parses one order given by `power`. A leading `Power:` is accepted when it names
/// `power` or a faction `power` plays (1936: the Soviet Union's player writes
/// `Republican Spain: Build A val`). Builds, waives, removals and disbands then belong
/// to the faction, whose Winter is its own; an order to a unit stays the seat's, which
/// commands the faction's units as its own, so that the same unit ordered with and
/// without the prefix is one unit ordered twice, not two orders voiding each other.
pub fn parse_order(v: &Variant, power: PowerId, text: &str) -> Result<Order, OrderError> {
    let (named, order) = parse_order_line(v, text)?;
    match named {
        Some(p) if p != power && !v.controls(power, p) => Err(OrderError::Other(format!(
            "this order is written for {}, not {}",
            v.power(p).name,
            v.power(power).name
        ))),
        Some(p)
            if matches!(
                order.kind,
                OrderKind::Build { .. } | OrderKind::Waive | OrderKind::Remove | OrderKind::Disband
            ) =>
        {
            Ok(Order { power: p, ..order })
        }
        _ => Ok(Order { power, ..order }),
    }
}

/// Parses `Power: order`, as written where no seat tells whose order it is (order files,
/// case positions): a line without its power is refused rather than guessed.
pub fn parse_named_order(v: &Variant, text: &str) -> Result<Order, OrderError> {
    match parse_order_line(v, text)? {
        (Some(power), order) => Ok(Order { power, ..order }),
        (None, _) => Err(OrderError::Other(
            "say which power gives the order, as in `England: F lon - nth`".to_string(),
        )),
    }
}

/// Parses `Power: A par`, a unit standing on the board (test positions, tools): the
/// power, the unit's type and its space, and nothing ordered.
pub fn parse_unit(v: &Variant, text: &str) -> Result<crate::state::Unit, OrderError> {
    let order = parse_named_order(v, text)?;
    match (order.unit.kind, &order.kind) {
        (Some(kind), OrderKind::Hold) => Ok(crate::state::Unit {
            power: order.power,
            kind,
            location: order.unit.location,
        }),
        _ => Err(OrderError::Other(format!(
            "`{}` is not a unit: write `Power: A space` or `Power: F space`",
            text.trim()
        ))),
    }
}

/// Parses `[Power:] order`. Without a power prefix the order's power is 0 and the
/// returned power is None.
pub fn parse_order_line(v: &Variant, text: &str) -> Result<(Option<PowerId>, Order), OrderError> {
    let mut power = None;
    let mut body = text;
    if let Some((name, rest)) = text.split_once(':') {
        let name = name.trim();
        match v.find_power(name) {
            Some(p) => power = Some(p),
            None => {
                let n = nearest(name, v.all_power_names(false)).map(str::to_string);
                return Err(OrderError::UnknownPower {
                    name: name.to_string(),
                    nearest: n,
                });
            }
        }
        body = rest;
    }
    let mut p = Parser {
        v,
        toks: Toks::new(),
        pos: 0,
    };
    tokenize(body, &mut p.toks)?;
    if p.at_end() {
        return Err(OrderError::Empty);
    }
    let order = parse_body(&mut p, power.unwrap_or(0))?;
    p.finish()?;
    Ok((power, order))
}

fn parse_body(p: &mut Parser, power: PowerId) -> Result<Order, OrderError> {
    let none = UnitRef {
        kind: None,
        location: Location::province(0),
    };
    if p.eat_word(&["waive", "waives", "w"]) {
        let unit = if p.at_end() { none } else { p.unit()? };
        return Ok(Order {
            power,
            unit,
            kind: OrderKind::Waive,
        });
    }
    if p.eat_word(&["build", "builds", "b"]) {
        let kind = p.unit_kind();
        let location = p.location()?;
        return Ok(Order {
            power,
            unit: UnitRef { kind, location },
            kind: OrderKind::Build { kind },
        });
    }
    if p.eat_word(&["remove", "removes"]) {
        let unit = p.unit()?;
        return Ok(Order {
            power,
            unit,
            kind: OrderKind::Remove,
        });
    }
    if p.eat_word(DISBAND) {
        let unit = p.unit()?;
        return Ok(Order {
            power,
            unit,
            kind: OrderKind::Disband,
        });
    }
    let unit = p.unit()?;
    let kind = if p.at_end() || p.eat_word(HOLD) {
        OrderKind::Hold
    } else if let Some(retreat) = p.move_marker() {
        let to = p.location()?;
        let via_convoy = p.via_convoy()?;
        if !retreat && !via_convoy && p.board_marker().is_some() {
            let with = p.board_with()?;
            return Ok(Order {
                power,
                unit,
                kind: OrderKind::Board { to: Some(to), with },
            });
        }
        if retreat {
            OrderKind::Retreat { to }
        } else {
            OrderKind::Move { to, via_convoy }
        }
    } else if p.eat_word(SUPPORT) {
        let target = p.unit()?;
        if p.at_end() || p.eat_word(HOLD) {
            OrderKind::SupportHold { unit: target }
        } else if p.move_marker().is_some() {
            let to = p.location()?;
            OrderKind::SupportMove { unit: target, to }
        } else {
            return Err(OrderError::Syntax(
                "a support names the unit and, for a move, `- DESTINATION`".into(),
            ));
        }
    } else if p.eat_word(CONVOY) {
        let army = p.unit()?;
        if p.move_marker().is_none() {
            return Err(OrderError::Syntax("a convoy names the army and `- DESTINATION`".into()));
        }
        let to = p.location()?;
        OrderKind::Convoy { army, to }
    } else if p.board_marker().is_some() {
        // With the boarding rule, `A lon B` boards; a build is written `Build A lon`
        // (and `A lon B` in a winter phase is read as that build by `validate`).
        OrderKind::Board {
            to: None,
            with: p.board_with()?,
        }
    } else if p.eat_word(DISBAND) {
        OrderKind::Disband
    } else if p.eat_word(&["remove", "removes"]) {
        OrderKind::Remove
    } else if p.eat_word(&["build", "builds", "b"]) {
        OrderKind::Build { kind: unit.kind }
    } else {
        let word = p.toks.get(p.pos).map(tok_text).unwrap_or_default();
        return Err(OrderError::Syntax(format!(
            "`{word}` is not an order; write H (hold), - (move), S (support), C (convoy), R (retreat) or D (disband)"
        )));
    };
    Ok(Order { power, unit, kind })
}
