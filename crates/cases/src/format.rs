//! The case file's sections, read into plain data. Names are kept as text here; they
//! are resolved against the variant when the case runs, so that one file may name
//! several variants.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A `Power: A prov` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseUnit {
    pub line: usize,
    pub text: String,
}

/// A `SUCCESS: Power: order` or `FAILURE: …` line of PRESTATE_RESULTS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriorResult {
    pub line: usize,
    pub success: bool,
    pub order: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Case {
    pub name: String,
    pub line: usize,
    pub variant: String,
    pub phase: Option<(usize, String)>,
    /// Powers in permanent civil disorder at the start (DP rules 8 and 11), each with its
    /// line, from `PRESTATE_CIVIL_DISORDER` lines.
    pub disordered: Vec<(usize, String)>,
    pub owners: Option<Vec<CaseUnit>>,
    pub units: Vec<CaseUnit>,
    pub dislodged: Vec<CaseUnit>,
    pub results: Vec<PriorResult>,
    pub orders: Vec<CaseUnit>,
    pub post_same: bool,
    pub post_units: Option<Vec<CaseUnit>>,
    pub post_dislodged: Option<Vec<CaseUnit>>,
    pub post_owners: Option<Vec<CaseUnit>>,
    /// `POSTSTATE_CIVIL_DISORDER`: every power in civil disorder after the phase (those
    /// declared before it and those rule 8 added), each with its line; `Some(empty)`
    /// for `POSTSTATE_CIVIL_DISORDER none`.
    pub post_disordered: Option<Vec<(usize, String)>>,
    /// `POSTSTATE_WINNER France` (or `none`): who has won as the phase ends, with the
    /// line; `Some((line, None))` for `none`.
    pub post_winner: Option<(usize, Option<String>)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Owners,
    Units,
    Dislodged,
    Results,
    Orders,
    PostUnits,
    PostDislodged,
    PostOwners,
}

/// Reads every case of a file. A structural error (a line outside any case, a section
/// that does not exist) stops the reading; names are checked when the case runs.
pub fn parse_cases(text: &str) -> Result<Vec<Case>, CaseError> {
    let mut cases = Vec::new();
    let mut variant = String::from("standard");
    let mut current: Option<Case> = None;
    let mut section = Section::None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (head, rest) = match content.split_once(char::is_whitespace) {
            Some((h, r)) => (h, r.trim()),
            None => (content, ""),
        };
        let err = |message: String| Err(CaseError { line, message });
        match head {
            "VARIANT_ALL" => {
                if rest.is_empty() {
                    return err("VARIANT_ALL needs a variant name".into());
                }
                variant = rest.to_string();
                continue;
            }
            "CASE" => {
                if let Some(c) = current.take() {
                    return err(format!("case `{}` (line {}) has no END", c.name, c.line));
                }
                current = Some(Case {
                    name: rest.to_string(),
                    line,
                    variant: variant.clone(),
                    ..Case::default()
                });
                section = Section::None;
                continue;
            }
            _ => {}
        }
        let Some(case) = current.as_mut() else {
            return err(format!("`{content}` is outside a CASE … END block"));
        };
        section = match head {
            "PRESTATE_SETPHASE" => {
                case.phase = Some((line, rest.to_string()));
                Section::None
            }
            "PRESTATE_CIVIL_DISORDER" => {
                // Power names may have spaces ("Nationalist Spain"), so commas part them.
                let names: Vec<&str> = rest.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
                if names.is_empty() {
                    return err("PRESTATE_CIVIL_DISORDER needs the powers in civil disorder".into());
                }
                case.disordered.extend(names.into_iter().map(|n| (line, n.to_string())));
                Section::None
            }
            "POSTSTATE_CIVIL_DISORDER" => {
                let list = case.post_disordered.get_or_insert_with(Vec::new);
                if !rest.eq_ignore_ascii_case("none") {
                    let names: Vec<&str> = rest.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
                    if names.is_empty() {
                        return err("POSTSTATE_CIVIL_DISORDER needs the powers in civil disorder, or `none`".into());
                    }
                    list.extend(names.into_iter().map(|n| (line, n.to_string())));
                }
                Section::None
            }
            "POSTSTATE_WINNER" => {
                if rest.is_empty() {
                    return err("POSTSTATE_WINNER needs the winning power, or `none`".into());
                }
                let winner = (!rest.eq_ignore_ascii_case("none")).then(|| rest.to_string());
                case.post_winner = Some((line, winner));
                Section::None
            }
            "PRESTATE_SUPPLYCENTER_OWNERS" => {
                case.owners.get_or_insert_with(Vec::new);
                Section::Owners
            }
            "PRESTATE" => Section::Units,
            "PRESTATE_DISLODGED" => Section::Dislodged,
            "PRESTATE_RESULTS" => Section::Results,
            "ORDERS" => Section::Orders,
            "POSTSTATE" => {
                case.post_units.get_or_insert_with(Vec::new);
                Section::PostUnits
            }
            "POSTSTATE_SAME" => {
                case.post_same = true;
                Section::None
            }
            "POSTSTATE_DISLODGED" => {
                case.post_dislodged.get_or_insert_with(Vec::new);
                Section::PostDislodged
            }
            "POSTSTATE_SUPPLYCENTER_OWNERS" => {
                case.post_owners.get_or_insert_with(Vec::new);
                Section::PostOwners
            }
            "END" => {
                cases.push(current.take().expect("inside a case"));
                Section::None
            }
            _ => {
                let item = CaseUnit {
                    line,
                    text: content.to_string(),
                };
                match section {
                    Section::None => {
                        return err(format!(
                            "`{content}` is not in a section (PRESTATE, ORDERS, POSTSTATE, …)"
                        ));
                    }
                    Section::Owners => case.owners.get_or_insert_with(Vec::new).push(item),
                    Section::Units => case.units.push(item),
                    Section::Dislodged => case.dislodged.push(item),
                    Section::Orders => case.orders.push(item),
                    Section::PostUnits => case.post_units.get_or_insert_with(Vec::new).push(item),
                    Section::PostDislodged => case.post_dislodged.get_or_insert_with(Vec::new).push(item),
                    Section::PostOwners => case.post_owners.get_or_insert_with(Vec::new).push(item),
                    Section::Results => {
                        let (word, order) = match content.split_once(':') {
                            Some((w, o)) => (w.trim().to_ascii_uppercase(), o.trim()),
                            None => {
                                return err(format!(
                                    "a result line starts with SUCCESS: or FAILURE:, not `{content}`"
                                ))
                            }
                        };
                        let success = match word.as_str() {
                            "SUCCESS" => true,
                            "FAILURE" => false,
                            _ => return err(format!("a result line starts with SUCCESS: or FAILURE:, not `{word}`")),
                        };
                        case.results.push(PriorResult {
                            line,
                            success,
                            order: order.to_string(),
                        });
                    }
                }
                section
            }
        };
    }
    if let Some(c) = current {
        return Err(CaseError {
            line: c.line,
            message: format!("case `{}` has no END", c.name),
        });
    }
    Ok(cases)
}
