//! Builds and removals by clicking: which spaces the player may build on, and with what,
//! asked of the engine's own order check, so the map offers exactly the builds the
//! order API would take.

use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::variant::{Location, Terrain};
use chancery_engine::{GameState, PowerId, ProvinceId, Variant};
use serde::Serialize;

/// The orders that build on one space: `Build A ber`, `Build F stp/nc`, ….
fn builds_at(v: &Variant, state: &GameState, power: PowerId, province: ProvinceId) -> Vec<String> {
    let prov = v.province(province);
    let mut candidates = vec![format!("Build A {}", prov.abbr.to_ascii_lowercase())];
    if prov.coasts.is_empty() {
        candidates.push(format!("Build F {}", prov.abbr.to_ascii_lowercase()));
    } else {
        for coast in 1..=prov.coasts.len() {
            candidates.push(format!(
                "Build F {}",
                v.location_name(Location::new(province, coast as u8))
            ));
        }
    }
    candidates
        .into_iter()
        .filter(|text| parse_order(v, power, text).and_then(|o| validate(v, state, &o)).is_ok())
        .collect()
}

/// A space the power may build on, with the orders that build there.
#[derive(Serialize, Debug, PartialEq)]
pub struct Site {
    pub space: String,
    pub orders: Vec<String>,
}

/// What a power does in an adjustment phase, for the game page's script
/// (`game.adjust`): `{"builds": n, "sites": [{"space", "orders"}]}` or `{"removals": n}`.
#[derive(Serialize, Debug, PartialEq)]
#[serde(untagged)]
pub enum Adjust {
    Builds { builds: usize, sites: Vec<Site> },
    Removals { removals: usize },
}

/// The power's builds (with the spaces it may build on) or removals; None when it has
/// as many units as centres.
pub fn choices(v: &Variant, state: &GameState, power: PowerId) -> Option<Adjust> {
    let centres = state.centre_count(power);
    let units = state.unit_count(power);
    if centres > units {
        let sites = (0..v.provinces.len())
            .filter(|p| v.provinces[*p].sc && v.provinces[*p].terrain != Terrain::Sea)
            .filter_map(|p| {
                let orders = builds_at(v, state, power, p as ProvinceId);
                (!orders.is_empty()).then(|| Site {
                    space: v.provinces[p].abbr.to_ascii_lowercase(),
                    orders,
                })
            })
            .collect();
        Some(Adjust::Builds {
            builds: centres - units,
            sites,
        })
    } else if units > centres {
        Some(Adjust::Removals {
            removals: units - centres,
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_engine::json::{state_from_json, StateJson};
    use serde_json::json;

    /// Winter 1901 in the standard game with Russia owning one more centre than its
    /// units and two of its four home centres empty.
    fn winter() -> (Variant, GameState) {
        let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
        let s: StateJson = serde_json::from_value(json!({
            "phase": "W1901A",
            "units": [
                {"power": "Russia", "type": "A", "location": "ukr"},
                {"power": "Russia", "type": "A", "location": "war"},
                {"power": "Russia", "type": "F", "location": "bot"},
                {"power": "Russia", "type": "F", "location": "rum"},
                {"power": "Italy", "type": "A", "location": "ven"},
                {"power": "Italy", "type": "F", "location": "nap"}
            ],
            "owners": {"mos": "Russia", "war": "Russia", "stp": "Russia", "sev": "Russia", "rum": "Russia", "ven": "Italy"}
        }))
        .unwrap();
        let state = state_from_json(&v, &s).unwrap();
        (v, state)
    }

    #[test]
    fn builds_are_offered_on_empty_owned_home_centres_only() {
        let (v, state) = winter();
        let russia = v.find_power("Russia").unwrap();
        let Some(Adjust::Builds { builds, sites }) = choices(&v, &state, russia) else {
            panic!("Russia builds");
        };
        assert_eq!(builds, 1);
        let spaces: Vec<&str> = sites.iter().map(|s| s.space.as_str()).collect();
        // Rule (adjustments): builds go on a home centre the power owns that is empty;
        // Warsaw is occupied and Rumania is not a Russian home.
        assert_eq!(spaces, vec!["mos", "sev", "stp"]);
        assert_eq!(
            sites[2].orders,
            vec!["Build A stp", "Build F stp/nc", "Build F stp/sc"],
            "a fleet on either coast"
        );
        assert_eq!(sites[0].orders, vec!["Build A mos"], "no fleet inland");
        // The script reads this spelling (assets/game.js: game.adjust.builds, .sites).
        assert_eq!(
            serde_json::to_value(&sites[0]).unwrap(),
            json!({"space": "mos", "orders": ["Build A mos"]})
        );
    }

    #[test]
    fn a_power_short_of_centres_removes() {
        let (v, state) = winter();
        let italy = v.find_power("Italy").unwrap();
        let removals = choices(&v, &state, italy);
        assert_eq!(
            removals,
            Some(Adjust::Removals { removals: 1 }),
            "two units, one centre"
        );
        assert_eq!(serde_json::to_value(&removals).unwrap(), json!({"removals": 1}));
        let turkey = v.find_power("Turkey").unwrap();
        assert_eq!(choices(&v, &state, turkey), None, "no centre, no unit: nothing to do");
    }
}
