//! What each unit of a position could legally be ordered to do, worked out once per
//! position so that drawing many order sets for it stays cheap.

use chancery_engine::validate::Validator;
use chancery_engine::variant::Terrain;
use chancery_engine::{GameState, Location, ProvinceId, UnitKind, Variant};

#[derive(Clone, Debug, Default)]
pub struct UnitOptions {
    /// Spaces (and coasts) the unit can move to in one step.
    pub moves: Vec<Location>,
    /// For an army: destinations some sea route of the fleets on the board reaches.
    pub convoy_moves: Vec<ProvinceId>,
    /// For a fleet at sea: (army's space, destination) pairs whose route needs it.
    pub convoys: Vec<(ProvinceId, ProvinceId)>,
}

pub fn unit_options(v: &Variant, state: &GameState) -> Vec<UnitOptions> {
    let mut opts: Vec<UnitOptions> = state
        .units
        .iter()
        .map(|u| UnitOptions {
            moves: match u.kind {
                UnitKind::Army => v
                    .army_neighbours(u.location.province)
                    .iter()
                    .filter(|&&p| v.army_can_stand(p))
                    .map(|&p| Location::province(p))
                    .collect(),
                UnitKind::Fleet => v.fleet_neighbours(u.location).to_vec(),
            },
            ..UnitOptions::default()
        })
        .collect();
    let coasts: Vec<ProvinceId> = (0..v.provinces.len() as ProvinceId)
        .filter(|&p| v.province(p).terrain == Terrain::Coast)
        .collect();
    let mut validator = Validator::new();
    validator.index(v, state);
    for (a, army) in state.units.iter().enumerate() {
        let from = army.location.province;
        if army.kind != UnitKind::Army || v.province(from).terrain != Terrain::Coast {
            continue;
        }
        for &to in coasts.iter().filter(|&&p| p != from) {
            let fleets = validator.convoy_fleets(v, state, from, to);
            if fleets.is_empty() {
                continue;
            }
            opts[a].convoy_moves.push(to);
            for f in fleets {
                if let Some(i) = state.unit_index_at(f) {
                    opts[i].convoys.push((from, to));
                }
            }
        }
    }
    opts
}
