//! Rule 2: how many DPs a great power may bid this turn, and why.

use crate::state::GameState;
use crate::variant::{PowerId, PowerKind, ProvinceId, Variant};

/// A power's DPs for the current Spring or Fall, with one line per step of the
/// reckoning (base, each deduction, each excuse, the floor at zero) in the rules'
/// terms for the GM, and each deduction again as a sentence for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Whose budget it is.
    pub power: PowerId,
    /// The DPs it may bid this turn: the base less deductions, never below zero.
    pub total: u32,
    /// The reckoning for the GM, one step a line.
    pub lines: Vec<String>,
    /// The DPs before any deduction.
    pub base: u32,
    /// Each deduction and each excuse, in the order of `lines`.
    pub deductions: Vec<Deduction>,
}

/// One deduction from the base budget, or one excused (`dp` 0), said as a player reads
/// it: "Liverpool is held by France".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deduction {
    /// DPs taken off; 0 for an excused loss.
    pub dp: u32,
    /// Why, in a player's words.
    pub reason: String,
}

impl Budget {
    /// "3 DPs (base 3; −1 Berlin held by Poland)": the short form for error messages.
    pub fn summary(&self) -> String {
        format!("{} DP{} ({})", self.total, plural(self.total), self.lines.join("; "))
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn owner_name(v: &Variant, state: &GameState, p: ProvinceId) -> String {
    state.owners[p as usize].map_or("nobody".to_string(), |o| v.power(o).name.clone())
}

/// The budget of `power` in `state`.
pub fn budget(v: &Variant, state: &GameState, power: PowerId) -> Budget {
    let rules = &v.rules.dp;
    let name = &v.power(power).name;
    if v.power(power).kind != PowerKind::Great {
        return Budget {
            power,
            total: 0,
            lines: vec![format!(
                "{name} is not a great power: factions and minor powers get no DPs"
            )],
            base: 0,
            deductions: Vec::new(),
        };
    }
    if state.in_disorder(power) {
        return Budget {
            power,
            total: 0,
            lines: vec![format!(
                "{name} is in civil disorder: its centres are independent minors and it gets no DPs (rule 11)"
            )],
            base: 0,
            deductions: Vec::new(),
        };
    }
    let mut lines = Vec::new();
    let mut deductions = Vec::new();
    let (base, default) = rules.base_budget(power);
    lines.push(format!(
        "base {base} from `rule dp-budget {}`",
        if default { "default".to_string() } else { name.clone() }
    ));
    let mut total = base as i64;

    if rules.lost_centre_penalty > 0 {
        for (p, prov) in v.provinces.iter().enumerate() {
            let lost = prov.sc && prov.owner == Some(power) && state.owners[p].is_some_and(|o| o != power);
            if !lost {
                continue;
            }
            let excuse = rules.excuses.iter().find(|e| {
                e.power == power
                    && e.centre as usize == p
                    && e.while_owning.iter().any(|&c| state.owners[c as usize] == Some(power))
            });
            if let Some(e) = excuse {
                let held: Vec<&str> = e
                    .while_owning
                    .iter()
                    .filter(|&&c| state.owners[c as usize] == Some(power))
                    .map(|&c| v.province(c).name.as_str())
                    .collect();
                lines.push(format!(
                    "±0 {} held by {}: excused while {name} controls {}",
                    prov.name,
                    owner_name(v, state, p as ProvinceId),
                    held.join(", ")
                ));
                deductions.push(Deduction {
                    dp: 0,
                    reason: format!(
                        "{} is held by {}, excused while {name} holds {}",
                        prov.name,
                        owner_name(v, state, p as ProvinceId),
                        held.join(" and ")
                    ),
                });
            } else {
                total -= rules.lost_centre_penalty as i64;
                lines.push(format!(
                    "−{} {} (originally {name}'s) held by {}",
                    rules.lost_centre_penalty,
                    prov.name,
                    owner_name(v, state, p as ProvinceId)
                ));
                deductions.push(Deduction {
                    dp: rules.lost_centre_penalty,
                    reason: format!("{} is held by {}", prov.name, owner_name(v, state, p as ProvinceId)),
                });
            }
        }
    }

    if rules.faction_penalty > 0 {
        if let Some(line) = faction_behind(v, state, power) {
            total -= rules.faction_penalty as i64;
            lines.push(format!("−{} {line}", rules.faction_penalty));
            deductions.push(Deduction {
                dp: rules.faction_penalty,
                reason: line,
            });
        }
    }

    if total < 0 {
        lines.push(format!("floored at 0 (the deductions came to {total})"));
        total = 0;
    }
    Budget {
        power,
        total: total as u32,
        lines,
        base,
        deductions,
    }
}

/// Why a sponsor is penalised for its faction, if it is: the faction controls fewer of
/// its home centres than a rival faction does, or none of them.
fn faction_behind(v: &Variant, state: &GameState, sponsor: PowerId) -> Option<String> {
    let factions: Vec<PowerId> = (0..v.powers.len() as PowerId)
        .filter(|&f| v.power(f).kind == PowerKind::Faction)
        .collect();
    let mine = factions.iter().copied().find(|&f| v.power(f).player == Some(sponsor))?;
    let held = |f: PowerId| {
        v.provinces
            .iter()
            .enumerate()
            .filter(|(p, prov)| prov.sc && prov.homes.contains(&mine) && state.owners[*p] == Some(f))
            .count()
    };
    let own = held(mine);
    let fname = &v.power(mine).name;
    if own == 0 {
        return Some(format!("{fname} controls none of its home centres"));
    }
    factions
        .iter()
        .copied()
        .filter(|&f| f != mine)
        .find(|&f| held(f) > own)
        .map(|f| {
            format!(
                "{fname} controls {own} of its home centres, {} controls {}",
                v.power(f).name,
                held(f)
            )
        })
}

/// Every great power's budget.
pub fn budgets(v: &Variant, state: &GameState) -> Vec<Budget> {
    v.great_powers().map(|p| budget(v, state, p)).collect()
}
