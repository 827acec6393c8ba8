//! The game map as inline SVG, with its legend as HTML under it so that the map has the
//! whole width of its column (`templates/map.html`). The drawing is made on the job pool
//! by [`crate::services::maps`], which keeps each variant's prepared drawing keyed by its
//! file's content, so an upload can never change a built-in variant's map.

use askama::Template;
use axum::http::StatusCode;
use chancery_engine::{Adjudication, GameState, Location, PowerId, ProvinceId, Variant};
use chancery_render::{legend, Legend, LegendPower};

use crate::services::maps::{self, MapOf};
use crate::App;

enum Drawing {
    /// The renderer's SVG and the legend's data.
    Drawn {
        svg: String,
        legend: Legend,
        /// The legend's groups with each power marked far or near: a phone shows the
        /// near ones (the viewer's own and its neighbours', or every great power and
        /// faction for a viewer with none) and folds the rest behind "Every power".
        groups: Vec<Group>,
        any_far: bool,
    },
    /// An upload still being shaped, or a busy server: a reload will show it.
    Pending {
        why: String,
    },
    Failed {
        why: String,
    },
}

struct Group {
    heading: &'static str,
    far: bool,
    powers: Vec<(LegendPower, bool)>,
}

#[derive(Template)]
#[template(path = "map.html")]
struct MapBox<'a> {
    label: &'a str,
    drawing: Drawing,
}

/// The map of `state`, with the phase's orders and results when `adjudication` is given,
/// and its legend, as HTML for a page template. A map that cannot be drawn now or at all
/// gets a note instead, so the rest of the page still works.
pub async fn svg(
    app: &App,
    map: &MapOf,
    state: &GameState,
    adjudication: Option<&Adjudication>,
    label: &str,
) -> String {
    svg_for(app, map, state, adjudication, label, None).await
}

/// [`svg`] for a viewer who plays `power`: on a phone the legend shows that power's and
/// its neighbours' lines and folds the rest behind "more", so that the orders come soon
/// under the map.
pub async fn svg_for(
    app: &App,
    map: &MapOf,
    state: &GameState,
    adjudication: Option<&Adjudication>,
    label: &str,
    power: Option<&str>,
) -> String {
    let drawing = match maps::draw(app, map, state, adjudication, false, maps::PAGE_WAITS_FOR_SHAPING).await {
        Ok(svg) => {
            let legend = legend(&map.variant, state);
            let near = near(&map.variant, state, power);
            let groups: Vec<Group> = legend
                .groups
                .iter()
                .map(|g| {
                    let powers: Vec<(LegendPower, bool)> =
                        g.powers.iter().map(|p| (p.clone(), !near.contains(&p.name))).collect();
                    Group {
                        heading: g.heading,
                        far: powers.iter().all(|(_, far)| *far),
                        powers,
                    }
                })
                .collect();
            let any_far = groups.iter().any(|g| g.powers.iter().any(|(_, far)| *far));
            Drawing::Drawn {
                svg,
                legend,
                groups,
                any_far,
            }
        }
        Err(e) if e.status() == StatusCode::SERVICE_UNAVAILABLE => Drawing::Pending { why: e.message },
        Err(e) => Drawing::Failed { why: e.message },
    };
    // Rendering only fails when writing to the string fails, which it does not.
    MapBox { label, drawing }.render().unwrap_or_default()
}

/// The powers whose legend lines a phone shows unfolded. For a player: its own power,
/// the powers it controls, and every power with a unit or an owned centre on a space
/// next to one where the player's side has a unit or a centre. For anyone else: the
/// great powers and factions (the minors fold).
fn near(v: &Variant, state: &GameState, power: Option<&str>) -> Vec<String> {
    let Some(me) = power.and_then(|p| v.find_power(p)) else {
        return (0..v.powers.len() as PowerId)
            .filter(|&p| !v.is_minor(p))
            .map(|p| v.power(p).name.clone())
            .collect();
    };
    let ours = |o: PowerId| v.controls(me, o);
    // Each space's holder: the unit's power, else the centre's owner.
    let mut held: Vec<Vec<PowerId>> = vec![Vec::new(); v.provinces.len()];
    for u in &state.units {
        held[u.location.province as usize].push(u.power);
    }
    for (p, owner) in state.owners.iter().enumerate() {
        if let Some(o) = owner {
            held[p].push(*o);
        }
    }
    let mut out: Vec<PowerId> = (0..v.powers.len() as PowerId).filter(|&o| ours(o)).collect();
    for (p, holders) in held.iter().enumerate() {
        if !holders.iter().any(|&o| ours(o)) {
            continue;
        }
        let mut next: Vec<ProvinceId> = v.army_adjacency[p].clone();
        let province = &v.provinces[p];
        for coast in 0..=province.coasts.len() {
            let loc = Location::new(p as ProvinceId, coast as u8);
            next.extend(v.fleet_neighbours(loc).iter().map(|l| l.province));
        }
        for n in next {
            for &o in &held[n as usize] {
                if !out.contains(&o) {
                    out.push(o);
                }
            }
        }
    }
    out.into_iter().map(|o| v.powers[o as usize].name.clone()).collect()
}
