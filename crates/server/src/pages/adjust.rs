//! Builds and removals by clicking: which spaces the player may build on, and with what,
//! from the engine's list of legal orders (`chancery_engine::options`), so the map
//! offers exactly the builds the order API would take.

use chancery_engine::options::{commanded_powers, Lister, Scope};
use chancery_engine::order::OrderKind;
use chancery_engine::{GameState, PowerId, Variant};
use serde::Serialize;

/// A space the power may build on, with the orders that build there.
#[derive(Serialize, Debug, PartialEq)]
pub struct Site {
    pub space: String,
    pub orders: Vec<String>,
}

/// A unit the power may remove, with the order that removes it.
#[derive(Serialize, Debug, PartialEq)]
pub struct Removal {
    pub unit: String,
    pub order: String,
}

/// What a power does in an adjustment phase, for the game page's script
/// (`game.adjust`): `{"builds": n, "sites": [{"space", "orders"}], "waive": order}` or
/// `{"removals": n, "units": [{"unit", "order"}]}`, every order the engine's own text.
#[derive(Serialize, Debug, PartialEq)]
#[serde(untagged)]
pub enum Adjust {
    Builds {
        builds: usize,
        sites: Vec<Site>,
        waive: Option<String>,
    },
    Removals {
        removals: usize,
        units: Vec<Removal>,
    },
}

/// The power's builds (with the spaces it may build on) or removals; None when it has
/// as many units as centres.
pub fn choices(v: &Variant, state: &GameState, power: PowerId) -> Option<Adjust> {
    let centres = state.centre_count(power);
    let units = state.unit_count(power);
    // The engine's list of the power's adjustment orders: builds grouped by space.
    let mut by_space: Vec<Vec<String>> = vec![Vec::new(); v.provinces.len()];
    let (mut waive, mut removable) = (None, Vec::new());
    for order in Lister::new(v, state, Scope::All).adjustments(power) {
        let text = order.display(v).to_string();
        match order.kind {
            OrderKind::Build { .. } => by_space[order.unit.location.province as usize].push(text),
            OrderKind::Waive => waive = Some(text),
            OrderKind::Remove => removable.push(Removal {
                unit: format!(
                    "{} {}",
                    order.unit.kind.map_or('A', |k| k.letter()),
                    v.location_name(order.unit.location)
                ),
                order: text,
            }),
            _ => {}
        }
    }
    if centres > units {
        let sites = by_space
            .into_iter()
            .enumerate()
            .filter(|(_, orders)| !orders.is_empty())
            .map(|(p, orders)| Site {
                space: v.provinces[p].abbr.to_ascii_lowercase(),
                orders,
            })
            .collect();
        Some(Adjust::Builds {
            builds: centres - units,
            sites,
            waive,
        })
    } else if units > centres {
        Some(Adjust::Removals {
            removals: units - centres,
            units: removable,
        })
    } else {
        None
    }
}

/// What the seat's player does in an adjustment phase: the seat's builds or removals
/// with those of the factions it plays (1936: the Soviet Union's player builds for
/// Republican Spain, a separate power whose Winter is its own), a faction's orders
/// written with its name before them (`Republican Spain: Build A val`), as the order
/// API reads them. A faction adjusting the other way from its sponsor (building while
/// the sponsor removes) is left to the orders box, where its lines are written alike.
pub fn for_seat(v: &Variant, state: &GameState, seat: PowerId) -> Option<Adjust> {
    let mut powers = commanded_powers(v, seat);
    powers.sort_by_key(|&p| p != seat);
    let mut merged: Option<Adjust> = None;
    for p in powers {
        let Some(mut own) = choices(v, state, p) else {
            continue;
        };
        if p != seat {
            prefix_orders(&mut own, &format!("{}: ", v.power(p).name));
        }
        merged = Some(match (merged, own) {
            (None, own) => own,
            (
                Some(Adjust::Builds {
                    builds,
                    mut sites,
                    waive,
                }),
                Adjust::Builds {
                    builds: more,
                    sites: theirs,
                    waive: their_waive,
                },
            ) => {
                sites.extend(theirs);
                Adjust::Builds {
                    builds: builds + more,
                    sites,
                    waive: waive.or(their_waive),
                }
            }
            (
                Some(Adjust::Removals { removals, mut units }),
                Adjust::Removals {
                    removals: more,
                    units: theirs,
                },
            ) => {
                units.extend(theirs);
                Adjust::Removals {
                    removals: removals + more,
                    units,
                }
            }
            (Some(first), _) => first,
        });
    }
    merged
}

fn prefix_orders(a: &mut Adjust, prefix: &str) {
    match a {
        Adjust::Builds { sites, waive, .. } => {
            for order in sites.iter_mut().flat_map(|s| s.orders.iter_mut()) {
                *order = format!("{prefix}{order}");
            }
            if let Some(w) = waive {
                *w = format!("{prefix}{w}");
            }
        }
        Adjust::Removals { units, .. } => {
            for r in units {
                r.order = format!("{prefix}{}", r.order);
            }
        }
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
        let Some(Adjust::Builds { builds, sites, waive }) = choices(&v, &state, russia) else {
            panic!("Russia builds");
        };
        assert_eq!(builds, 1);
        assert_eq!(waive.as_deref(), Some("Waive"), "the engine lists the waiver");
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
        // Two units, one centre: either may go, each with the engine's order.
        assert_eq!(
            serde_json::to_value(&removals).unwrap(),
            json!({"removals": 1, "units": [
                {"unit": "A ven", "order": "Remove A ven"},
                {"unit": "F nap", "order": "Remove F nap"}
            ]})
        );
        let turkey = v.find_power("Turkey").unwrap();
        assert_eq!(choices(&v, &state, turkey), None, "no centre, no unit: nothing to do");
    }

    /// 1936, the Spanish Civil War: the Soviet player orders Republican Spain, a
    /// separate power; with Madrid taken and Valencia empty, the faction's build is
    /// offered beside the Soviet Union's own, written in the faction's name.
    #[test]
    fn a_sponsor_is_offered_its_factions_builds_in_the_factions_name() {
        let v = chancery_engine::builtin::builtin("1936").unwrap().unwrap();
        let s: StateJson = serde_json::from_value(json!({
            "phase": "W1936A",
            "units": [{"power": "Republican Spain", "type": "A", "location": "mad"}],
            "owners": {"val": "Republican Spain", "mad": "Republican Spain"}
        }))
        .unwrap();
        let state = state_from_json(&v, &s).unwrap();
        let soviet = v.find_power("Soviet Union").unwrap();
        assert_eq!(choices(&v, &state, soviet), None, "no Soviet unit or centre here");
        let Some(Adjust::Builds { builds, sites, waive }) = for_seat(&v, &state, soviet) else {
            panic!("the faction builds");
        };
        assert_eq!(builds, 1);
        assert_eq!(waive.as_deref(), Some("Republican Spain: Waive"));
        let val = sites.iter().find(|s| s.space == "val").expect("Valencia offered");
        assert_eq!(val.orders[0], "Republican Spain: Build A val");
        assert!(sites.iter().all(|s| s.space != "mad"), "Madrid is occupied");
        let italy = v.find_power("Italy").unwrap();
        assert!(
            !format!("{:?}", for_seat(&v, &state, italy)).contains("Republican"),
            "Italy plays the other faction"
        );
    }
}
