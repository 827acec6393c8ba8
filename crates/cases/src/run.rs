//! Runs one case: builds the position and checks the case itself, judges the orders and
//! bids through the engine's one entry point (`judge_phase`), as a server judges a
//! phase, and compares the result with the expected sections.

use chancery_engine::dp::{check_bids, parse_bid, Bid};
use chancery_engine::parse::parse_order_line;
use chancery_engine::phase::{judge_phase, PhaseResult};
use chancery_engine::rules::Rule;
use chancery_engine::stacking;
use chancery_engine::state::{Carried, Dislodged, GameState, Phase, PhaseKind, Unit};
use chancery_engine::validate::validate;
use chancery_engine::variant::UnitKind;
use chancery_engine::{Location, Order, OrderKind, PowerId, Variant};

use crate::carried::{self, split};
use crate::format::{Case, CaseUnit};
use crate::unit_lines::{compare, describe, power, same, split_power};
use crate::write::CasePosition;

#[derive(Clone, Debug)]
pub struct CaseReport {
    pub name: String,
    pub line: usize,
    /// Empty when the case passed.
    pub differences: Vec<String>,
}

impl CaseReport {
    pub fn passed(&self) -> bool {
        self.differences.is_empty()
    }
}

fn parse_phase(text: &str) -> Result<Phase, String> {
    let cleaned = text.replace(',', " ");
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    if words.len() != 3 {
        return Err(format!("phase `{text}` is not `Season Year, Kind`"));
    }
    let kind = match words[2].to_ascii_lowercase().as_str() {
        "movement" | "move" | "moves" => PhaseKind::Movement,
        "retreat" | "retreats" => PhaseKind::Retreat,
        "adjustment" | "adjustments" | "build" | "builds" => PhaseKind::Adjustment,
        other => return Err(format!("unknown phase kind `{other}`")),
    };
    let season = match words[0].to_ascii_lowercase().as_str() {
        "winter" => chancery_engine::Season::Fall,
        w => chancery_engine::Season::parse(w).ok_or_else(|| format!("unknown season `{}`", words[0]))?,
    };
    let year = words[1].parse().map_err(|_| format!("`{}` is not a year", words[1]))?;
    Ok(Phase::new(season, year, kind))
}

fn owners_from(v: &Variant, items: &[CaseUnit]) -> Result<Vec<Option<PowerId>>, String> {
    let mut owners = vec![None; v.provinces.len()];
    for item in items {
        let (p, rest) = split_power(v, &item.text).map_err(|e| format!("line {}: {e}", item.line))?;
        let (_, order) = parse_order_line(v, rest).map_err(|e| format!("line {}: {e}", item.line))?;
        owners[order.unit.location.province as usize] = Some(p);
    }
    Ok(owners)
}

/// A DP bid line after its power: `DP A Austria S A Munich - Bohemia` spends one DP,
/// `DP 2 A Austria …` two (`dp::parse_bid`). `None` when the line is an ordinary order.
fn parse_bid_line(v: &Variant, power: PowerId, text: &str) -> Result<Option<Bid>, String> {
    match text.split_once(char::is_whitespace) {
        Some((word, _)) if word.eq_ignore_ascii_case("dp") => parse_bid(v, power, text).map(Some),
        _ => Ok(None),
    }
}

/// Checks each power's bids as the judge would on submission (rule 3: a breach fails
/// the case with the player's message). The powers in civil disorder come with the
/// position.
fn check_submitted_bids(v: &Variant, state: &GameState, orders: &[Order], bids: &[(usize, Bid)]) -> Result<(), String> {
    if bids.is_empty() {
        return Ok(());
    }
    let all: Vec<Bid> = bids.iter().map(|(_, b)| *b).collect();
    let mut powers: Vec<PowerId> = all.iter().map(|b| b.power).collect();
    powers.sort_unstable();
    powers.dedup();
    for power in powers {
        let line = bids.iter().find(|(_, b)| b.power == power).map_or(0, |(l, _)| *l);
        check_bids(v, state, power, orders, &all).map_err(|e| format!("line {line}: {e}"))?;
    }
    Ok(())
}

/// What a case gives the judge: the position, the orders and the bids as submitted
/// (bids checked as a judge checks them on submission).
struct Setup {
    state: GameState,
    orders: Vec<Order>,
    bids: Vec<Bid>,
    /// `REFUSED:` lines the judge accepted after all (or refused for another reason), as
    /// differences.
    accepted: Vec<String>,
}

/// Why the judge refuses `power`'s `text` (an order, or a `DP …` bid) at submission in
/// `state`, given the orders and bids it has already submitted; `None` if it accepts
/// it: a `REFUSED:` line's check. An order is refused as the server refuses it
/// (`validate`), a bid when it breaks rule 3 together with the others (`check_bids`,
/// which also bars a bid on a minor the power attacks). A line that cannot be read is a
/// mistake in the case (`Err`), not a refusal, so that a typo cannot pass for one.
fn refusal(
    v: &Variant,
    state: &GameState,
    power: PowerId,
    text: &str,
    orders: &[Order],
    bids: &[Bid],
) -> Result<Option<String>, String> {
    if let Some(bid) = parse_bid_line(v, power, text)? {
        let mut all = bids.to_vec();
        all.push(bid);
        return Ok(check_bids(v, state, power, orders, &all).err().map(|e| e.to_string()));
    }
    let (_, order) = parse_order_line(v, text).map_err(|e| format!("order `{text}` cannot be read: {e}"))?;
    Ok(validate(v, state, &Order { power, ..order })
        .err()
        .map(|e| e.to_string()))
}

/// A `REFUSED: Power: order` line, or `REFUSED "words": Power: order` where the refusal's
/// message must contain the words: the words (if any) and the rest after the colon.
fn refused_line(text: &str) -> Option<(Option<&str>, &str)> {
    let t = text.trim_start();
    if !t.get(..7)?.eq_ignore_ascii_case("refused") {
        return None;
    }
    let after = t[7..].trim_start();
    let (words, after) = match after.strip_prefix('"') {
        Some(quoted) => {
            let end = quoted.find('"')?;
            (Some(&quoted[..end]), quoted[end + 1..].trim_start())
        }
        None => (None, after),
    };
    Some((words, after.strip_prefix(':')?.trim()))
}

/// A position no judge could reach: an army at sea, a fleet inland, or two units in one
/// space where the variant does not let units stack.
fn check_position(v: &Variant, state: &GameState) -> Result<(), String> {
    let dislodged: Vec<Unit> = state.dislodged.iter().map(|d| d.unit).collect();
    for (units, what) in [(&state.units, "PRESTATE"), (&dislodged, "PRESTATE_DISLODGED")] {
        for (i, u) in units.iter().enumerate() {
            let p = u.location.province;
            let name = &v.province(p).name;
            let fits = match u.kind {
                UnitKind::Army => v.army_can_stand(p),
                UnitKind::Fleet => v.fleet_can_stand(p),
            };
            if !fits {
                let unit = match u.kind {
                    UnitKind::Army => "an army",
                    UnitKind::Fleet => "a fleet",
                };
                return Err(format!(
                    "{what}: impossible position: {unit} cannot stand in {name} ({})",
                    describe(v, u)
                ));
            }
            let Some(other) = units[..i].iter().find(|o| o.location.province == p) else {
                continue;
            };
            if !v.rule_on(Rule::Stacking) {
                return Err(format!(
                    "{what}: impossible position: two units in {name}, and {} does not let units stack",
                    v.title
                ));
            }
            // Original 1958 rules 3 and 4: only one power's units stack, and only in its
            // capital or a naval base of its own.
            let stacks_here =
                stacking::capital(v, state, u.power) == Some(p) || stacking::naval_base(v, p, u.power).is_some();
            if other.power != u.power || !stacks_here {
                return Err(format!(
                    "{what}: impossible position: {} and {} in {name}, which is not a capital or naval base where {} may stack",
                    describe(v, other),
                    describe(v, u),
                    v.power(u.power).name
                ));
            }
        }
    }
    Ok(())
}

/// Runs a case against its variant.
pub fn run_case(case: &Case, v: &Variant) -> CaseReport {
    let mut report = CaseReport {
        name: case.name.clone(),
        line: case.line,
        differences: Vec::new(),
    };
    if let Err(e) = run_inner(case, v, &mut report.differences) {
        report.differences.push(format!("cannot run: {e}"));
    }
    report
}

/// The position a case starts from and the orders it gives (bids already resolved into
/// orders for the minor units, by `judge_phase`), for tools that draw or replay a case.
pub fn case_setup(case: &Case, v: &Variant) -> Result<(GameState, Vec<Order>), String> {
    let setup = setup(case, v)?;
    let judged = judge_phase(v, &setup.state, &setup.orders, &setup.bids);
    let mut orders = setup.orders;
    orders.extend(judged.minor_orders);
    Ok((setup.state, orders))
}

/// The position, orders and bids a case gives the judge, as read and checked (an
/// unreadable order, an impossible position and a wrong `REFUSED:` line are errors).
pub fn case_position(case: &Case, v: &Variant) -> Result<CasePosition, String> {
    let setup = setup(case, v)?;
    if let Some(wrong) = setup.accepted.first() {
        return Err(wrong.clone());
    }
    Ok(CasePosition {
        state: setup.state,
        orders: setup.orders,
        bids: setup.bids,
    })
}

/// A case judged as a server judges a phase: through the engine's one entry point.
pub fn judge_case(case: &Case, v: &Variant) -> Result<PhaseResult, String> {
    let setup = setup(case, v)?;
    Ok(judge_phase(v, &setup.state, &setup.orders, &setup.bids))
}

fn setup(case: &Case, v: &Variant) -> Result<Setup, String> {
    let phase = match &case.phase {
        Some((line, text)) => parse_phase(text).map_err(|e| format!("line {line}: {e}"))?,
        None => Phase::new(v.start.0, v.start.1, PhaseKind::Movement),
    };
    let mut state = GameState::empty(v, phase);
    if let Some(owners) = &case.owners {
        state.owners = owners_from(v, owners)?;
    }
    for (line, name) in &case.disordered {
        let p = power(v, name).ok_or_else(|| format!("line {line}: unknown power `{name}`"))?;
        if v.is_minor(p) {
            return Err(format!(
                "line {line}: {name} is a minor power; only great powers and factions fall into civil disorder"
            ));
        }
        if !state.in_disorder(p) {
            state.disordered.push(p);
        }
    }
    let (units, carried) = split(v, &case.units, false)?;
    state.units = units;
    state.carried = carried;
    let (dislodged, carried) = split(v, &case.dislodged, true)?;
    state.carried.extend(carried);
    for unit in dislodged {
        state.dislodged.push(Dislodged {
            unit,
            attacker_from: None,
        });
    }
    // What the previous movement phase tells a retreat: who came from where, and
    // which empty spaces saw a bounce.
    let mut failed_into = Vec::new();
    for r in &case.results {
        let (p, rest) = split_power(v, &r.order).map_err(|e| format!("line {}: {e}", r.line))?;
        let Ok((_, order)) = parse_order_line(v, rest) else {
            continue;
        };
        let _ = p;
        if let OrderKind::Move { to, via_convoy } = order.kind {
            let dest = to.province;
            if r.success {
                let from = order.unit.location;
                let by_land = !via_convoy
                    && order.unit.kind.is_none_or(|k| {
                        v.can_reach_province(k, from, dest)
                            || v.can_reach_province(k, Location::province(from.province), dest)
                    });
                for d in state.dislodged.iter_mut().filter(|d| d.unit.location.province == dest) {
                    d.attacker_from = by_land.then_some(from.province);
                }
            } else {
                failed_into.push(dest);
            }
        }
    }
    // A standoff needs two moves that failed into a space left empty; a single failed
    // move into an empty space lost a head-to-head battle or its convoy.
    for &dest in &failed_into {
        let empty = !state.units.iter().any(|u| u.location.province == dest)
            && !state.dislodged.iter().any(|d| d.unit.location.province == dest);
        if empty && failed_into.iter().filter(|&&p| p == dest).count() >= 2 && !state.standoffs.contains(&dest) {
            state.standoffs.push(dest);
        }
    }

    check_position(v, &state)?;

    let mut orders: Vec<Order> = Vec::new();
    let mut bids: Vec<(usize, Bid)> = Vec::new();
    let mut refused: Vec<(usize, Option<&str>, PowerId, &str)> = Vec::new();
    for item in &case.orders {
        let (because, text) = match refused_line(&item.text) {
            Some((because, rest)) => (Some(because), rest),
            None => (None, item.text.as_str()),
        };
        let (p, rest) = split_power(v, text).map_err(|e| format!("line {}: {e}", item.line))?;
        if let Some(because) = because {
            refused.push((item.line, because, p, rest));
            continue;
        }
        if let Some(bid) = parse_bid_line(v, p, rest).map_err(|e| format!("line {}: {e}", item.line))? {
            bids.push((item.line, bid));
            continue;
        }
        // An order that cannot be read is a mistake in the case, not an order a judge
        // would ignore: the case fails with the parser's message. (An order that is read
        // but illegal is given, and the judge ignores it, as the DATC requires.)
        let (_, order) =
            parse_order_line(v, rest).map_err(|e| format!("line {}: order `{rest}` cannot be read: {e}", item.line))?;
        orders.push(Order { power: p, ..order });
    }
    check_submitted_bids(v, &state, &orders, &bids)?;
    let bids: Vec<Bid> = bids.into_iter().map(|(_, b)| b).collect();
    let mut accepted = Vec::new();
    for (line, because, p, text) in refused {
        let who = &v.power(p).name;
        match refusal(v, &state, p, text, &orders, &bids).map_err(|e| format!("line {line}: {e}"))? {
            None => accepted.push(format!(
                "line {line}: `{who}: {text}` must be refused at submission but was accepted"
            )),
            Some(message) => {
                if let Some(words) = because.filter(|w| !message.contains(w)) {
                    accepted.push(format!(
                        "line {line}: `{who}: {text}` was refused, but with `{message}`, not for `{words}`"
                    ));
                }
            }
        }
    }
    Ok(Setup {
        state,
        orders,
        bids,
        accepted,
    })
}

fn run_inner(case: &Case, v: &Variant, diffs: &mut Vec<String>) -> Result<(), String> {
    let setup = setup(case, v)?;
    diffs.extend(setup.accepted.iter().cloned());
    let state = &setup.state;
    let judged = judge_phase(v, state, &setup.orders, &setup.bids);
    let result = &judged.adjudication;

    // The units of the next position: where each unit ended (with stacks and boarding
    // a unit may end elsewhere than its order says: a fleet that lands an army goes
    // back), after rule 8 too. A movement phase's dislodged units are read from the
    // results, since a minor's are removed at once and never reach the next position.
    let actual_units = result.next.units.clone();
    let actual_dislodged: Vec<Unit> = result
        .results
        .iter()
        .filter(|r| r.dislodged_by.is_some())
        .filter_map(|r| r.unit)
        .collect();

    let (expected_units, expected_carried): (Vec<Unit>, Vec<Carried>) = if case.post_same {
        (state.units.clone(), state.carried.clone())
    } else if let Some(items) = &case.post_units {
        split(v, items, false)?
    } else {
        return Err("the case has neither POSTSTATE nor POSTSTATE_SAME".into());
    };
    compare(v, "units", &expected_units, &actual_units, diffs);
    let (aboard_dislodged, aboard): (Vec<Carried>, Vec<Carried>) =
        result.next.carried.iter().partition(|c| c.carrier_dislodged);
    carried::compare(v, "armies aboard", &expected_carried, &aboard, diffs);
    if let Some(items) = &case.post_dislodged {
        let (_, expected) = split(v, items, true)?;
        carried::compare(v, "armies aboard dislodged fleets", &expected, &aboard_dislodged, diffs);
    }
    if case.post_same {
        compare(v, "dislodged", &[], &actual_dislodged, diffs);
    } else if let Some(items) = &case.post_dislodged {
        let (expected, _) = split(v, items, true)?;
        // The jDip files leave out dislodged units that have nowhere to go (they are
        // destroyed at once); the oracle lists them. Both forms are accepted.
        let must_list: Vec<Unit> = actual_dislodged
            .iter()
            .copied()
            .filter(|u| {
                expected.iter().any(|e| same(e, u))
                    || result
                        .results
                        .iter()
                        .any(|r| r.unit == Some(*u) && !r.retreats.is_empty())
            })
            .collect();
        compare(v, "dislodged", &expected, &must_list, diffs);
    }
    if let Some(expected) = &case.post_disordered {
        let mut want = Vec::new();
        for (line, name) in expected {
            want.push(power(v, name).ok_or_else(|| format!("line {line}: unknown power `{name}`"))?);
        }
        let name = |p: &PowerId| v.power(*p).name.clone();
        let got = &result.next.disordered;
        let missing: Vec<String> = want.iter().filter(|p| !got.contains(p)).map(name).collect();
        let extra: Vec<String> = got.iter().filter(|p| !want.contains(p)).map(name).collect();
        if !missing.is_empty() {
            diffs.push(format!("civil disorder: expected but missing: {}", missing.join(", ")));
        }
        if !extra.is_empty() {
            diffs.push(format!(
                "civil disorder: present but not expected: {}",
                extra.join(", ")
            ));
        }
    }
    if let Some((line, expected)) = &case.post_winner {
        let want = match expected {
            Some(name) => Some(power(v, name).ok_or_else(|| format!("line {line}: unknown power `{name}`"))?),
            None => None,
        };
        if want != result.winner {
            let name = |o: Option<PowerId>| o.map_or("nobody".to_string(), |p| v.power(p).name.clone());
            diffs.push(format!("winner: expected {}, got {}", name(want), name(result.winner)));
        }
    }
    if let Some(items) = &case.post_owners {
        let expected = owners_from(v, items)?;
        let mut next = result.next.clone();
        chancery_engine::adjudicate::update_owners(v, &mut next);
        for (p, (e, a)) in expected.iter().zip(next.owners.iter()).enumerate() {
            if e.is_some() && e != a {
                let name = |o: &Option<PowerId>| o.map_or("nobody".to_string(), |p| v.power(p).name.clone());
                diffs.push(format!(
                    "owner of {}: expected {}, got {}",
                    v.provinces[p].abbr,
                    name(e),
                    name(a)
                ));
            }
        }
    }
    Ok(())
}
