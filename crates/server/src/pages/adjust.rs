//! Builds and removals by clicking: which spaces the player may build on, and with what,
//! asked of the engine's own order check, so the map offers exactly the builds the
//! order API would take.

use chancery_engine::parse::parse_order;
use chancery_engine::validate::validate;
use chancery_engine::variant::{Location, Terrain};
use chancery_engine::{GameState, PowerId, ProvinceId, Variant};
use serde_json::{json, Value};

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

/// For the game page's script: `{"builds": n, "sites": [{"space", "orders"}]}` when the
/// power has builds, `{"removals": n}` when it must remove units, null otherwise.
pub fn choices(v: &Variant, state: &GameState, power: PowerId) -> Value {
    let centres = state.centre_count(power) as i64;
    let units = state.unit_count(power) as i64;
    if centres > units {
        let sites: Vec<Value> = (0..v.provinces.len())
            .filter(|p| v.provinces[*p].sc && v.provinces[*p].terrain != Terrain::Sea)
            .filter_map(|p| {
                let orders = builds_at(v, state, power, p as ProvinceId);
                (!orders.is_empty())
                    .then(|| json!({"space": v.provinces[p].abbr.to_ascii_lowercase(), "orders": orders}))
            })
            .collect();
        json!({"builds": centres - units, "sites": sites})
    } else if units > centres {
        json!({"removals": units - centres})
    } else {
        Value::Null
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_engine::json::{state_from_json, StateJson};

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
        let c = choices(&v, &state, russia);
        assert_eq!(c["builds"], 1);
        let sites: Vec<&str> = c["sites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["space"].as_str().unwrap())
            .collect();
        // Rule (adjustments): builds go on a home centre the power owns that is empty;
        // Warsaw is occupied and Rumania is not a Russian home.
        assert_eq!(sites, vec!["mos", "sev", "stp"]);
        let stp = &c["sites"].as_array().unwrap()[2]["orders"];
        assert_eq!(
            stp,
            &json!(["Build A stp", "Build F stp/nc", "Build F stp/sc"]),
            "a fleet on either coast"
        );
        let mos = &c["sites"].as_array().unwrap()[0]["orders"];
        assert_eq!(mos, &json!(["Build A mos"]), "no fleet inland");
    }

    #[test]
    fn a_power_short_of_centres_removes() {
        let (v, state) = winter();
        let italy = v.find_power("Italy").unwrap();
        assert_eq!(
            choices(&v, &state, italy),
            json!({"removals": 1}),
            "two units, one centre"
        );
        let turkey = v.find_power("Turkey").unwrap();
        assert_eq!(
            choices(&v, &state, turkey),
            Value::Null,
            "no centre, no unit: nothing to do"
        );
    }
}
