//! Reads orders as players type them: MILA (`F STP/SC - BOT`), jDip (`A bud-ser`), and
//! plain words (`Army Budapest moves to Serbia`, `F St Petersburg south coast S ...`).
//!
//! The parser only resolves names; whether the order is legal on the board is the job
//! of `validate`.

use crate::order::{Order, OrderError, OrderKind, UnitRef};
use crate::suggest::nearest;
use crate::variant::{coast_abbreviation, normalise_name, Location, PowerId, UnitKind, Variant};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Dash,
    Slash,
    Open,
    Close,
    Colon,
}

fn tokenize(text: &str) -> Result<Vec<Tok>, OrderError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == ',' || c == ';' {
            chars.next();
        } else if c == '-' || c == '=' || c == '>' || c == '–' || c == '→' {
            // "-", "->", "=>", ">", "–", "→" all mean "moves to".
            chars.next();
            while chars.peek().is_some_and(|&d| d == '>' || d == '-') {
                chars.next();
            }
            out.push(Tok::Dash);
        } else if c == '/' {
            chars.next();
            out.push(Tok::Slash);
        } else if c == '(' || c == '[' {
            chars.next();
            out.push(Tok::Open);
        } else if c == ')' || c == ']' {
            chars.next();
            out.push(Tok::Close);
        } else if c == ':' {
            chars.next();
            out.push(Tok::Colon);
        } else if c.is_alphanumeric() || c == '.' || c == '\'' || c == '_' {
            let mut w = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_alphanumeric() || d == '.' || d == '\'' || d == '_' {
                    w.extend(d.to_lowercase());
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(Tok::Word(w));
        } else {
            return Err(OrderError::Syntax(format!("unexpected character `{c}`")));
        }
    }
    Ok(out)
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
        .any(|set| set.contains(&w))
        || matches!(w, "via" | "by" | "build" | "b" | "remove" | "waive")
}

struct Parser<'v> {
    v: &'v Variant,
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser<'_> {
    fn peek_word(&self) -> Option<&str> {
        match self.toks.get(self.pos) {
            Some(Tok::Word(w)) => Some(w.as_str()),
            _ => None,
        }
    }

    fn eat_word(&mut self, set: &[&str]) -> bool {
        match self.peek_word() {
            Some(w) if set.contains(&w) => {
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
        match self.peek_word() {
            Some("a" | "army") => {
                self.pos += 1;
                Some(UnitKind::Army)
            }
            Some("f" | "fleet") => {
                self.pos += 1;
                Some(UnitKind::Fleet)
            }
            _ => None,
        }
    }

    /// Skips a power name or adjective before a unit ("S Russian A gal", DATC 4.C.5).
    fn skip_nationality(&mut self) {
        if let Some(w) = self.peek_word() {
            let is_power = self.v.find_power(w).is_some()
                || self
                    .v
                    .powers
                    .iter()
                    .any(|p| p.adjective.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(w)));
            if is_power && self.v.find_province(w).is_none() {
                self.pos += 1;
            }
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
        let words: Vec<&str> = self.toks[self.pos..self.pos + run]
            .iter()
            .map(|t| match t {
                Tok::Word(w) => w.as_str(),
                _ => "",
            })
            .collect();
        for len in (1..=run.min(6)).rev() {
            let name = words[..len].join(" ");
            if let Some(p) = self.v.find_province(&name) {
                self.pos += len;
                let coast = self.coast(p)?;
                return Ok(Location::new(p, coast));
            }
        }
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
                let Some(w) = self.peek_word().map(str::to_string) else {
                    return Err(OrderError::Syntax("a coast must follow `/`".into()));
                };
                self.pos += 1;
                text = w;
                if self.peek_word() == Some("coast") {
                    self.pos += 1;
                }
                explicit = true;
            }
            Some(Tok::Open) => {
                self.pos += 1;
                while let Some(w) = self.peek_word().map(str::to_string) {
                    self.pos += 1;
                    if !text.is_empty() {
                        text.push(' ');
                    }
                    text.push_str(&w);
                }
                if self.toks.get(self.pos) != Some(&Tok::Close) {
                    return Err(OrderError::Syntax("a `(` is not closed".into()));
                }
                self.pos += 1;
                explicit = true;
            }
            Some(Tok::Word(w)) => {
                let w = w.clone();
                let next = self.toks.get(self.pos + 1);
                if matches!(w.as_str(), "north" | "south" | "east" | "west")
                    && matches!(next, Some(Tok::Word(c)) if c == "coast")
                {
                    self.pos += 2;
                    text = format!("{w} coast");
                    explicit = true;
                } else if matches!(w.as_str(), "nc" | "sc" | "ec" | "wc") {
                    self.pos += 1;
                    text = w;
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
        let words: Vec<String> = self.toks[self.pos..]
            .iter()
            .map_while(|t| match t {
                Tok::Word(w) => Some(w.clone()),
                _ => None,
            })
            .collect();
        for len in (1..=words.len()).rev() {
            let name = words[..len].join(" ");
            let found = self.v.find_power(&name).or_else(|| {
                self.v
                    .powers
                    .iter()
                    .position(|p| p.adjective.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(&name)))
                    .map(|i| i as PowerId)
            });
            if let Some(p) = found {
                self.pos += len;
                return Ok(Some(p));
            }
        }
        let name = words.join(" ");
        let nearest = nearest(&name, self.v.powers.iter().map(|p| p.name.as_str())).map(str::to_string);
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
        Tok::Word(w) => w.clone(),
        Tok::Dash => "-".into(),
        Tok::Slash => "/".into(),
        Tok::Open => "(".into(),
        Tok::Close => ")".into(),
        Tok::Colon => ":".into(),
    }
}

/// Parses one order given by `power`. A leading `Power:` is accepted and must match.
pub fn parse_order(v: &Variant, power: PowerId, text: &str) -> Result<Order, OrderError> {
    let (named, order) = parse_order_line(v, text)?;
    match named {
        Some(p) if p != power => Err(OrderError::Other(format!(
            "this order is written for {}, not {}",
            v.power(p).name,
            v.power(power).name
        ))),
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
                let n = nearest(name, v.powers.iter().map(|p| p.name.as_str())).map(str::to_string);
                return Err(OrderError::UnknownPower {
                    name: name.to_string(),
                    nearest: n,
                });
            }
        }
        body = rest;
    }
    let toks = tokenize(body)?;
    if toks.is_empty() {
        return Err(OrderError::Empty);
    }
    let mut p = Parser { v, toks, pos: 0 };
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
