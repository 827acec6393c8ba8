//! Reads the `.var` text format (docs/variant-format.md) into a `Variant`.
//!
//! Declarations (powers, spaces) are read in a first pass so that statements may refer
//! to names declared further down; everything else is resolved in a second pass. The
//! first error stops the load: a half-understood map must never be played on.

use std::collections::HashMap;
use std::fmt;

use crate::suggest::nearest;
use crate::variant::*;

/// Why a variant file was not loaded: the first error, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file name given to the loader.
    pub file: String,
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong, naming the word at fault and, where one is close, the name meant.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for LoadError {}

#[derive(Debug)]
enum Token {
    Word(String),
    Attr(String, String),
}

struct Line {
    number: usize,
    tokens: Vec<Token>,
}

fn tokenize(number: usize, text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.peek() {
            None | Some('#') => break,
            _ => {}
        }
        let mut word = String::new();
        let mut key: Option<String> = None;
        let mut quoted_any = false;
        while let Some(&c) = chars.peek() {
            // `#` opens a comment only at the start of a word, so colours like
            // `#c8102e` need no quotes.
            if c.is_whitespace() {
                break;
            }
            chars.next();
            if c == '"' {
                quoted_any = true;
                loop {
                    match chars.next() {
                        None => return Err(format!("line {number}: unclosed quote")),
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e) => word.push(e),
                            None => return Err(format!("line {number}: unclosed quote")),
                        },
                        Some(ch) => word.push(ch),
                    }
                }
            } else if c == '=' && key.is_none() && !quoted_any {
                key = Some(std::mem::take(&mut word));
            } else {
                word.push(c);
            }
        }
        tokens.push(match key {
            Some(k) => Token::Attr(k, word),
            None => Token::Word(word),
        });
    }
    Ok(tokens)
}

struct Loader<'a> {
    file: &'a str,
    line: usize,
}

impl Loader<'_> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, LoadError> {
        Err(LoadError {
            file: self.file.to_string(),
            line: self.line,
            message: message.into(),
        })
    }
}

/// Loads a variant from its text. `file` is the name used in error messages.
pub fn load_variant(file: &str, text: &str) -> Result<Variant, LoadError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let tokens = tokenize(number, raw).map_err(|_| LoadError {
            file: file.to_string(),
            line: number,
            message: "a quoted name is not closed (missing `\"`)".into(),
        })?;
        if !tokens.is_empty() {
            lines.push(Line { number, tokens });
        }
    }
    let mut ld = Loader { file, line: 0 };

    // Pass 1: declarations.
    let mut id = None;
    let mut title = None;
    let mut start = None;
    let mut victory = None;
    let mut powers: Vec<Power> = Vec::new();
    let mut power_names: HashMap<String, PowerId> = HashMap::new();
    let mut province_lines: Vec<&Line> = Vec::new();
    let mut pending_players: Vec<(usize, usize, String)> = Vec::new();
    let mut names: HashMap<String, ProvinceId> = HashMap::new();
    for line in &lines {
        ld.line = line.number;
        let kw = match &line.tokens[0] {
            Token::Word(w) => w.as_str(),
            Token::Attr(k, _) => return ld.err(format!("a line must start with a keyword, not `{k}=`")),
        };
        match kw {
            "variant" => id = Some(single_word(&ld, line, "variant")?),
            "title" => title = Some(single_word(&ld, line, "title")?),
            "start" => start = Some(parse_start(&ld, line)?),
            "victory" => victory = Some(parse_victory(&ld, line)?),
            "power" => {
                let (power, player) = parse_power_decl(&ld, line)?;
                if let Some(player) = player {
                    pending_players.push((line.number, powers.len(), player));
                }
                if powers.len() >= PowerId::MAX as usize {
                    return ld.err("too many powers");
                }
                for name in std::iter::once(&power.name).chain(&power.aliases) {
                    let key = normalise_name(name);
                    if power_names.contains_key(&key) {
                        return ld.err(format!("power name `{name}` is used twice"));
                    }
                    power_names.insert(key, powers.len() as PowerId);
                }
                powers.push(power);
            }
            "province" => {
                let abbr = match line.tokens.get(1) {
                    Some(Token::Word(w)) if !w.is_empty() => w.clone(),
                    _ => return ld.err("`province` needs an abbreviation: province ABBR TERRAIN \"NAME\""),
                };
                if abbr.contains('/') {
                    return ld.err(format!(
                        "abbreviation `{abbr}` may not contain `/` (coasts are given with coasts=)"
                    ));
                }
                let key = normalise_name(&abbr);
                if let Some(&other) = names.get(&key) {
                    let other_line = province_lines[other as usize].number;
                    return ld.err(format!("space `{abbr}` is declared twice (first at line {other_line})"));
                }
                if province_lines.len() >= ProvinceId::MAX as usize {
                    return ld.err("too many spaces");
                }
                names.insert(key, province_lines.len() as ProvinceId);
                province_lines.push(line);
            }
            "army" | "fleet" | "unit" | "client" | "build-site" | "rule" | "shape" | "strait" | "junction"
            | "outside" => {}
            other => {
                const KEYWORDS: [&str; 16] = [
                    "variant",
                    "title",
                    "start",
                    "victory",
                    "power",
                    "province",
                    "army",
                    "fleet",
                    "unit",
                    "client",
                    "build-site",
                    "rule",
                    "shape",
                    "strait",
                    "junction",
                    "outside",
                ];
                let hint = nearest(other, KEYWORDS.iter().copied())
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return ld.err(format!("unknown statement `{other}`{hint}"));
            }
        }
    }
    ld.line = lines.last().map_or(1, |l| l.number);
    let Some(id) = id else {
        return ld.err("the file has no `variant NAME` line");
    };
    let Some(start) = start else {
        return ld.err("the file has no `start SEASON YEAR` line");
    };
    let Some(victory) = victory else {
        return ld.err("the file has no `victory centres N` line");
    };
    if powers.is_empty() {
        return ld.err("the file declares no power");
    }
    if province_lines.is_empty() {
        return ld.err("the file declares no space");
    }
    // A faction's player may be declared after it.
    for (number, index, name) in pending_players {
        ld.line = number;
        match power_names.get(&normalise_name(&name)) {
            Some(&p) if powers[p as usize].kind == PowerKind::Great => powers[index].player = Some(p),
            Some(_) => return ld.err(format!("player=`{name}` must be a great power")),
            None => return ld.err(format!("player=`{name}` is not a declared power")),
        }
    }

    // Spaces, now that every power is known.
    let mut provinces = Vec::with_capacity(province_lines.len());
    for line in &province_lines {
        ld.line = line.number;
        provinces.push(parse_province(&ld, line, &power_names)?);
    }
    for (i, prov) in provinces.iter().enumerate() {
        ld.line = province_lines[i].number;
        for name in std::iter::once(&prov.name).chain(prov.aliases.iter()) {
            let key = normalise_name(name);
            match names.get(&key) {
                Some(&other) if other as usize != i => {
                    return ld.err(format!(
                        "name `{name}` of `{}` is already the name of `{}`",
                        prov.abbr, provinces[other as usize].abbr
                    ));
                }
                _ => {
                    names.insert(key, i as ProvinceId);
                }
            }
        }
    }
    let mut location_base = Vec::with_capacity(provinces.len());
    let mut count = 0u32;
    for p in &provinces {
        location_base.push(count);
        count += 1 + p.coasts.len() as u32;
    }

    let mut variant = Variant {
        id,
        title: title.unwrap_or_default(),
        start,
        victory,
        powers,
        army_adjacency: vec![Vec::new(); provinces.len()],
        fleet_adjacency: vec![Vec::new(); count as usize],
        provinces,
        location_base,
        units: Vec::new(),
        clients: Vec::new(),
        build_sites: Vec::new(),
        rules: Default::default(),
        shape_points: Vec::new(),
        straits: Vec::new(),
        junctions: Vec::new(),
        junction_routes: Vec::new(),
        outside_points: Vec::new(),
        names,
        power_names,
        lookup: Default::default(),
    };
    variant.index_names();

    // Pass 2: adjacency, units and rule parameters.
    for line in &lines {
        ld.line = line.number;
        let Token::Word(kw) = &line.tokens[0] else { continue };
        match kw.as_str() {
            "army" | "fleet" => parse_adjacency(&ld, line, &mut variant)?,
            "unit" => {
                let words = words_only(&ld, line)?;
                if words.len() != 4 {
                    return ld.err("`unit` takes a power, A or F, and a space: unit Russia F stp/sc");
                }
                let power = find_power(&ld, &variant, words[1])?;
                let kind = match words[2].to_ascii_uppercase().as_str() {
                    "A" => UnitKind::Army,
                    "F" => UnitKind::Fleet,
                    other => return ld.err(format!("unit type must be A or F, not `{other}`")),
                };
                let location = find_location(&ld, &variant, words[3])?;
                check_unit_fits(&ld, &variant, kind, location)?;
                variant.units.push(StartUnit { power, kind, location });
            }
            "client" => {
                let words = words_only(&ld, line)?;
                if words.len() < 3 {
                    return ld.err("`client` takes a minor power and at least one patron");
                }
                let minor = find_power(&ld, &variant, words[1])?;
                let patrons = words[2..]
                    .iter()
                    .map(|w| find_power(&ld, &variant, w))
                    .collect::<Result<Vec<_>, _>>()?;
                variant.clients.push((minor, patrons));
            }
            "build-site" => {
                let words = words_only(&ld, line)?;
                if words.len() != 3 {
                    return ld.err("`build-site` takes a power and a space");
                }
                let power = find_power(&ld, &variant, words[1])?;
                let p = find_space(&ld, &variant, words[2])?;
                variant.build_sites.push((power, p));
            }
            "rule" => {
                let words = words_only(&ld, line)?;
                if words.len() < 2 {
                    return ld.err("`rule` takes a key and its values");
                }
                variant.rules.lines.push(RuleParam {
                    key: words[1].to_string(),
                    values: words[2..].iter().map(|s| s.to_string()).collect(),
                    line: line.number,
                });
            }
            "shape" | "strait" | "junction" | "outside" => parse_drawing(&ld, line, &mut variant)?,
            _ => {}
        }
    }
    // The rule lines name powers and spaces, so they are typed once all are declared.
    variant.rules = crate::rules::read(&variant).map_err(|(line, message)| LoadError {
        file: file.to_string(),
        line,
        message,
    })?;
    Ok(variant)
}

/// `shape ABBR LAT,LON…` (points the space's drawn shape must hold), `strait A B` (a
/// border drawn as a crossing over water), `junction A B` (a border drawn as a crossing
/// because no flat map can make it a shared edge) and `outside LAT,LON…` (land that
/// belongs to no space): read only by the map generator.
fn parse_drawing(ld: &Loader, line: &Line, variant: &mut Variant) -> Result<(), LoadError> {
    let words = words_only(ld, line)?;
    if words[0] == "outside" {
        if words.len() < 2 {
            return ld.err("`outside` takes at least one LATITUDE,LONGITUDE: outside 53.4,-8.0");
        }
        for w in &words[1..] {
            match parse_lat_lon(w) {
                Some(point) => variant.outside_points.push(point),
                None => return ld.err(format!("`{w}` is not LATITUDE,LONGITUDE")),
            }
        }
        return Ok(());
    }
    if words[0] == "strait" || words[0] == "junction" {
        if words.len() != 3 && (words[0] == "strait" || words.len() < 5) {
            return ld.err(format!(
                "`{0}` takes two spaces{1}: {0} con bla",
                words[0],
                if words[0] == "junction" {
                    ", then optionally a route of two or more LATITUDE,LONGITUDE"
                } else {
                    ""
                }
            ));
        }
        let a = find_space(ld, variant, words[1])?;
        let b = find_space(ld, variant, words[2])?;
        if a == b {
            return ld.err(format!("`{}` joins a space to itself", words[0]));
        }
        if words[0] == "strait" {
            variant.straits.push((a, b));
        } else {
            variant.junctions.push((a, b));
            let mut route = Vec::new();
            for w in &words[3..] {
                match parse_lat_lon(w) {
                    Some(point) => route.push(point),
                    None => return ld.err(format!("`{w}` is not LATITUDE,LONGITUDE")),
                }
            }
            if !route.is_empty() {
                variant.junction_routes.push(((a, b), route));
            }
        }
        return Ok(());
    }
    if words.len() < 3 {
        return ld.err("`shape` takes a space and at least one LATITUDE,LONGITUDE: shape nap 37.5,14.0");
    }
    let p = find_space(ld, variant, words[1])?;
    for w in &words[2..] {
        match parse_lat_lon(w) {
            Some(point) => variant.shape_points.push((p, point)),
            None => return ld.err(format!("`{w}` is not LATITUDE,LONGITUDE")),
        }
    }
    Ok(())
}

fn parse_lat_lon(v: &str) -> Option<(f64, f64)> {
    let (a, b) = v.split_once(',')?;
    let (lat, lon) = (a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?);
    ((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)).then_some((lat, lon))
}

fn words_only<'l>(ld: &Loader, line: &'l Line) -> Result<Vec<&'l str>, LoadError> {
    line.tokens
        .iter()
        .map(|t| match t {
            Token::Word(w) => Ok(w.as_str()),
            Token::Attr(k, _) => ld.err(format!("unexpected attribute `{k}=` here")),
        })
        .collect()
}

fn single_word(ld: &Loader, line: &Line, kw: &str) -> Result<String, LoadError> {
    let words = words_only(ld, line)?;
    if words.len() != 2 || words[1].is_empty() {
        return ld.err(format!("`{kw}` takes one value (quote it if it has spaces)"));
    }
    Ok(words[1].to_string())
}

fn parse_start(ld: &Loader, line: &Line) -> Result<(Season, i32), LoadError> {
    let words = words_only(ld, line)?;
    if words.len() != 3 {
        return ld.err("`start` takes a season and a year: start Spring 1901");
    }
    let season = Season::parse(words[1])
        .map_or_else(|| ld.err(format!("unknown season `{}` (Spring or Fall)", words[1])), Ok)?;
    let year = words[2]
        .parse::<i32>()
        .map_or_else(|_| ld.err(format!("`{}` is not a year", words[2])), Ok)?;
    Ok((season, year))
}

fn parse_victory(ld: &Loader, line: &Line) -> Result<Victory, LoadError> {
    let words = words_only(ld, line)?;
    if words.len() != 3 {
        return ld.err("`victory` takes `centres N` or `units N`");
    }
    let n = words[2]
        .parse::<u32>()
        .map_or_else(|_| ld.err(format!("`{}` is not a number", words[2])), Ok)?;
    match words[1] {
        "centres" | "centers" | "sc" => Ok(Victory::Centres(n)),
        "units" => Ok(Victory::Units(n)),
        other => ld.err(format!("victory by `{other}`? Use `centres` or `units`")),
    }
}

fn parse_power_decl(ld: &Loader, line: &Line) -> Result<(Power, Option<String>), LoadError> {
    let mut words = Vec::new();
    let mut power = Power {
        name: String::new(),
        kind: PowerKind::Great,
        colour: None,
        adjective: None,
        aliases: Vec::new(),
        other_adjectives: Vec::new(),
        player: None,
    };
    let mut player_name = None;
    for t in &line.tokens[1..] {
        match t {
            Token::Word(w) => words.push(w.as_str()),
            Token::Attr(k, v) => match k.as_str() {
                "colour" | "color" => {
                    let ok = v.len() == 7 && v.starts_with('#') && v[1..].chars().all(|c| c.is_ascii_hexdigit());
                    if !ok {
                        return ld.err(format!("colour `{v}` is not of the form #rrggbb"));
                    }
                    power.colour = Some(v.clone());
                }
                // The first adjective is the one shown; more are also read.
                "adjective" if power.adjective.is_none() => power.adjective = Some(v.clone()),
                "adjective" => power.other_adjectives.push(v.clone()),
                "alias" => power.aliases.push(v.clone()),
                "player" => player_name = Some(v.clone()),
                other => {
                    return ld.err(format!(
                        "unknown power attribute `{other}=` (colour, adjective, alias, player)"
                    ))
                }
            },
        }
    }
    if words.len() != 2 || words[0].is_empty() {
        return ld.err("`power` takes a name and a kind: power Austria great");
    }
    power.name = words[0].to_string();
    power.kind = match words[1] {
        "great" => PowerKind::Great,
        "minor" => PowerKind::Minor,
        "faction" => PowerKind::Faction,
        other => return ld.err(format!("unknown power kind `{other}` (great, minor or faction)")),
    };
    if power.kind == PowerKind::Faction && player_name.is_none() {
        return ld.err(format!("faction `{}` needs player=POWER", power.name));
    }
    Ok((power, player_name))
}

fn parse_province(ld: &Loader, line: &Line, powers: &HashMap<String, PowerId>) -> Result<Province, LoadError> {
    let mut words = Vec::new();
    let mut prov = Province {
        abbr: String::new(),
        name: String::new(),
        terrain: Terrain::Land,
        sc: false,
        homes: Vec::new(),
        owner: None,
        coasts: Vec::new(),
        at: None,
        aliases: Vec::new(),
        canal: false,
        landing: false,
        capital: None,
        naval_base: None,
    };
    let power = |name: &str| -> Result<PowerId, LoadError> {
        powers.get(&normalise_name(name)).copied().map_or_else(
            || {
                let hint = nearest(name, powers.keys().map(String::as_str))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                ld.err(format!("unknown power `{name}`{hint}"))
            },
            Ok,
        )
    };
    let mut explicit_owner = false;
    let mut naval_coast: Option<String> = None;
    for t in &line.tokens[1..] {
        match t {
            Token::Word(w) => words.push(w.as_str()),
            Token::Attr(k, v) => match k.as_str() {
                "home" => {
                    prov.homes.push(power(v)?);
                    prov.sc = true;
                }
                "owner" => {
                    // `owner=none`: a home centre that starts unowned.
                    prov.owner = if v.eq_ignore_ascii_case("none") {
                        None
                    } else {
                        Some(power(v)?)
                    };
                    explicit_owner = true;
                }
                "coasts" => {
                    for c in v.split(',') {
                        let c = c.trim().to_ascii_lowercase();
                        if c.is_empty() || prov.coasts.contains(&c) {
                            return ld.err(format!("coasts `{v}`: empty or repeated coast"));
                        }
                        prov.coasts.push(c);
                    }
                }
                "at" => match parse_lat_lon(v) {
                    Some(point) => prov.at = Some(point),
                    None => return ld.err(format!("at=`{v}` is not LATITUDE,LONGITUDE")),
                },
                "alias" => prov.aliases.push(v.clone()),
                "capital" => prov.capital = Some(power(v)?),
                "naval-base" => {
                    let (p, c) = match v.split_once('/') {
                        Some((p, c)) => (p, Some(c.to_ascii_lowercase())),
                        None => (v.as_str(), None),
                    };
                    prov.naval_base = Some((power(p)?, 0));
                    naval_coast = c;
                }
                other => {
                    return ld.err(format!(
                        "unknown space attribute `{other}=` (home, owner, coasts, at, alias, capital, naval-base)"
                    ))
                }
            },
        }
    }
    if words.len() < 3 {
        return ld.err("`province` takes ABBR TERRAIN \"FULL NAME\" and then flags");
    }
    prov.abbr = words[0].to_string();
    prov.terrain = match words[1] {
        "land" => Terrain::Land,
        "coast" | "coastal" => Terrain::Coast,
        "sea" | "water" => Terrain::Sea,
        "impassable" => Terrain::Impassable,
        other => return ld.err(format!("unknown terrain `{other}` (land, coast, sea or impassable)")),
    };
    prov.name = words[2].to_string();
    for flag in &words[3..] {
        match *flag {
            "sc" => prov.sc = true,
            "canal" => prov.canal = true,
            "landing" => prov.landing = true,
            other => return ld.err(format!("unknown flag `{other}` (sc, canal, landing)")),
        }
    }
    if !prov.coasts.is_empty() && prov.terrain != Terrain::Coast {
        return ld.err(format!("`{}` has coasts but is not a coastal space", prov.abbr));
    }
    if prov.coasts.len() == 1 {
        return ld.err(format!(
            "`{}` lists a single coast; a space with one coast lists none",
            prov.abbr
        ));
    }
    if prov.landing && prov.terrain != Terrain::Sea {
        return ld.err(format!(
            "`landing` is for sea spaces only; `{}` is {}",
            prov.abbr,
            prov.terrain.as_str()
        ));
    }
    if prov.sc && prov.terrain != Terrain::Land && prov.terrain != Terrain::Coast {
        return ld.err(format!(
            "`{}` is a {} space and cannot be a supply centre",
            prov.abbr,
            prov.terrain.as_str()
        ));
    }
    if let Some(c) = naval_coast {
        match prov.coasts.iter().position(|x| *x == c) {
            Some(i) => {
                if let Some(nb) = prov.naval_base.as_mut() {
                    nb.1 = i as u8 + 1;
                }
            }
            None => {
                return ld.err(format!(
                    "naval-base names coast `{c}`, which `{}` does not have",
                    prov.abbr
                ))
            }
        }
    }
    if !explicit_owner {
        prov.owner = prov.homes.first().copied();
    }
    if prov.owner.is_some() && !prov.sc {
        return ld.err(format!("`{}` has an owner but is not a supply centre", prov.abbr));
    }
    Ok(prov)
}

fn find_space(ld: &Loader, v: &Variant, name: &str) -> Result<ProvinceId, LoadError> {
    v.find_province(name).map_or_else(
        || {
            let hint = nearest(name, v.provinces.iter().map(|p| p.abbr.as_str()))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            ld.err(format!("unknown space `{name}`{hint}"))
        },
        Ok,
    )
}

fn find_location(ld: &Loader, v: &Variant, text: &str) -> Result<Location, LoadError> {
    let (name, coast) = match text.split_once('/') {
        Some((n, c)) => (n, Some(c)),
        None => (text, None),
    };
    let p = find_space(ld, v, name)?;
    match coast {
        None => Ok(Location::province(p)),
        Some(c) => match v.find_coast(p, c) {
            Some(ci) => Ok(Location::new(p, ci)),
            None => {
                let have = &v.province(p).coasts;
                if have.is_empty() {
                    ld.err(format!("`{name}` has no separate coasts, so `{text}` names none"))
                } else {
                    ld.err(format!("`{name}` has no coast `{c}` (it has {})", have.join(", ")))
                }
            }
        },
    }
}

fn find_power(ld: &Loader, v: &Variant, name: &str) -> Result<PowerId, LoadError> {
    v.find_power(name).map_or_else(
        || {
            let hint = nearest(name, v.all_power_names(false))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            ld.err(format!("unknown power `{name}`{hint}"))
        },
        Ok,
    )
}

fn check_unit_fits(ld: &Loader, v: &Variant, kind: UnitKind, loc: Location) -> Result<(), LoadError> {
    let prov = v.province(loc.province);
    match kind {
        UnitKind::Army if !v.army_can_stand(loc.province) => ld.err(format!(
            "an army cannot stand in `{}` ({})",
            prov.abbr,
            prov.terrain.as_str()
        )),
        UnitKind::Fleet if !v.fleet_can_stand(loc.province) => ld.err(format!(
            "a fleet cannot stand in `{}` ({})",
            prov.abbr,
            prov.terrain.as_str()
        )),
        UnitKind::Fleet if !prov.coasts.is_empty() && loc.coast == 0 => ld.err(format!(
            "a fleet in `{}` must name its coast ({})",
            prov.abbr,
            prov.coasts.join(", ")
        )),
        UnitKind::Army if loc.coast != 0 => ld.err("an army stands in a space, not on a coast"),
        _ => Ok(()),
    }
}

fn parse_adjacency(ld: &Loader, line: &Line, v: &mut Variant) -> Result<(), LoadError> {
    let words = words_only(ld, line)?;
    let kind = words[0];
    let Some(head) = words.get(1) else {
        return ld.err(format!(
            "`{kind}` takes a space, a colon and its neighbours: {kind} mos: stp lvn"
        ));
    };
    let (from_text, rest): (&str, &[&str]) = if let Some(stripped) = head.strip_suffix(':') {
        (stripped, &words[2..])
    } else if words.get(2) == Some(&":") {
        (head, &words[3..])
    } else {
        return ld.err(format!("expected `:` after `{head}` ({kind} SPACE: NEIGHBOURS…)"));
    };
    let from = find_location(ld, v, from_text)?;
    if kind == "army" {
        if from.coast != 0 {
            return ld.err("army adjacency is between spaces, not coasts");
        }
        if !v.army_can_stand(from.province) {
            let p = v.province(from.province);
            return ld.err(format!(
                "armies cannot stand in `{}` ({}), so it has no army neighbours",
                p.abbr,
                p.terrain.as_str()
            ));
        }
        for w in rest {
            let to = find_location(ld, v, w)?;
            if to.coast != 0 {
                return ld.err(format!("army adjacency names a coast (`{w}`); name the space"));
            }
            if to.province == from.province {
                return ld.err(format!("`{w}` is listed as its own neighbour"));
            }
            let list = &mut v.army_adjacency[from.province as usize];
            if !list.contains(&to.province) {
                list.push(to.province);
            }
        }
    } else {
        let p = v.province(from.province);
        if !v.fleet_can_stand(from.province) {
            return ld.err(format!("fleets cannot stand in `{}` ({})", p.abbr, p.terrain.as_str()));
        }
        if !p.coasts.is_empty() && from.coast == 0 {
            return ld.err(format!(
                "`{}` has coasts; write one fleet line per coast ({})",
                p.abbr,
                p.coasts.join(", ")
            ));
        }
        for w in rest {
            let to = find_location(ld, v, w)?;
            let tp = v.province(to.province);
            if !v.fleet_can_stand(to.province) {
                return ld.err(format!(
                    "fleet adjacency names `{w}`, where fleets cannot go ({})",
                    tp.terrain.as_str()
                ));
            }
            if !tp.coasts.is_empty() && to.coast == 0 {
                return ld.err(format!(
                    "`{w}` has coasts; name the one this border touches ({})",
                    tp.coasts.join(", ")
                ));
            }
            if to.province == from.province {
                return ld.err(format!("`{w}` is listed as its own neighbour"));
            }
            let idx = v.location_index(from);
            let list = &mut v.fleet_adjacency[idx];
            if !list.contains(&to) {
                list.push(to);
            }
        }
    }
    Ok(())
}
