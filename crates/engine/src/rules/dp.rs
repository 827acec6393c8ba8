//! The Diplomacy Point lines of a variant, typed at load into `DpRules` (their meaning
//! is in `dp::params`). Reading them here, with the other rule lines, keeps the rule
//! reader below the DP modules that use what it read.

use crate::variant::{BonusSchedule, DpRules, Excuse, PowerId, ProvinceId, RuleParam, Season, Variant};

fn number(word: Option<&String>, what: &str) -> Result<u32, String> {
    let w = word.ok_or_else(|| format!("missing {what}"))?;
    w.parse().map_err(|_| format!("{what} `{w}` is not a whole number"))
}

fn power(v: &Variant, word: Option<&String>) -> Result<PowerId, String> {
    let w = word.ok_or("missing power")?;
    v.find_power(w).ok_or_else(|| format!("unknown power `{w}`"))
}

fn province(v: &Variant, word: &str) -> Result<ProvinceId, String> {
    v.find_province(word).ok_or_else(|| format!("unknown space `{word}`"))
}

/// Types one DP rule line into `rules`.
pub(super) fn read_dp_line(v: &Variant, r: &RuleParam, rules: &mut DpRules) -> Result<(), String> {
    let w = &r.values;
    match r.key.as_str() {
        "dp-budget" => {
            let who = match w.first().map(String::as_str) {
                Some("default") => None,
                _ => Some(power(v, w.first())?),
            };
            rules.budgets.push((who, number(w.get(1), "budget")?));
        }
        "dp-penalty" => match w.first().map(String::as_str) {
            Some("lost-original-centre") => rules.lost_centre_penalty = number(w.get(1), "penalty")?,
            Some("faction-behind") => rules.faction_penalty = number(w.get(1), "penalty")?,
            Some("excused") => {
                let who = power(v, w.get(1))?;
                let centre = province(v, w.get(2).ok_or("missing the excused centre")?)?;
                let while_owning = w[3..].iter().map(|s| province(v, s)).collect::<Result<Vec<_>, _>>()?;
                if while_owning.is_empty() {
                    return Err("`excused` needs the centres whose ownership excuses the loss".into());
                }
                rules.excuses.push(Excuse {
                    power: who,
                    centre,
                    while_owning,
                });
            }
            other => {
                return Err(format!(
                    "unknown penalty `{}` (lost-original-centre, excused, faction-behind)",
                    other.unwrap_or("")
                ))
            }
        },
        "client-bonus" => {
            // `B rises R every Y years from SEASON YEAR`, or just `B`.
            let base = number(w.first(), "bonus")?;
            let bonus = if w.len() == 1 {
                BonusSchedule {
                    base,
                    rise: 0,
                    every: 1,
                    from: (Season::Spring, i32::MAX),
                }
            } else {
                let shape = [w.get(1), w.get(3), w.get(5), w.get(6)].map(|x| x.map(String::as_str));
                if shape != [Some("rises"), Some("every"), Some("years"), Some("from")] || w.len() != 9 {
                    return Err("expected `B rises R every Y years from SEASON YEAR`".into());
                }
                let every = number(w.get(4), "period")? as i32;
                if every == 0 {
                    return Err("the period must be at least one year".into());
                }
                let season = Season::parse(&w[7]).ok_or_else(|| format!("unknown season `{}`", w[7]))?;
                let year = w[8].parse().map_err(|_| format!("`{}` is not a year", w[8]))?;
                BonusSchedule {
                    base,
                    rise: number(w.get(2), "rise")?,
                    every,
                    from: (season, year),
                }
            };
            rules.bonus = Some(bonus);
        }
        "sortie" => {
            if w.first().map(String::as_str) != Some("client")
                || w.get(1).map(String::as_str) != Some("patron-or-others")
            {
                return Err("expected `sortie client patron-or-others N`".into());
            }
            rules.client_sortie_threshold = Some(number(w.get(2), "threshold")?);
        }
        _ => {}
    }
    Ok(())
}
