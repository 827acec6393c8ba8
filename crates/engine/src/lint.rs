//! Map checks for `chancery lint`: what a map author gets wrong when writing adjacency
//! by hand, and what a reconstructed map must satisfy before anyone plays on it.

use crate::variant::{Location, ProvinceId, Terrain, UnitKind, Variant};

/// How bad a finding is. Ordered, so that the worst of a report is its maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Suspicious but possibly meant, such as two close spaces without a border; the
    /// author looks and decides.
    Warning,
    /// The map is wrong (a one-way border, a fleet route along no shared coast, a space
    /// no unit can reach): no game may be played on it until it is fixed.
    Error,
}

/// One thing [`lint`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Warning or error.
    pub severity: Severity,
    /// What is wrong and where, naming the spaces.
    pub message: String,
}

fn err(out: &mut Vec<Finding>, message: String) {
    out.push(Finding {
        severity: Severity::Error,
        message,
    });
}

fn warn(out: &mut Vec<Finding>, message: String) {
    out.push(Finding {
        severity: Severity::Warning,
        message,
    });
}

/// Great-circle distance in km between two (lat, lon) points.
pub fn km(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (la1, lo1) = (a.0.to_radians(), a.1.to_radians());
    let (la2, lo2) = (b.0.to_radians(), b.1.to_radians());
    let h = ((la2 - la1) / 2.0).sin().powi(2) + la1.cos() * la2.cos() * ((lo2 - lo1) / 2.0).sin().powi(2);
    2.0 * 6371.0 * h.sqrt().asin()
}

/// Checks a loaded map: borders both ways, terrain that matches its borders, fleet
/// moves along a shared coast (DATC 6.A.9), every space reachable, centres and starting
/// units where they may stand, and borders that match the spaces' `at=` distances.
pub fn lint(v: &Variant) -> Vec<Finding> {
    let mut out = Vec::new();
    let name = |p: ProvinceId| v.province(p).abbr.clone();
    let n = v.provinces.len() as ProvinceId;

    // Symmetry.
    for p in 0..n {
        for &q in v.army_neighbours(p) {
            if !v.army_neighbours(q).contains(&p) {
                err(
                    &mut out,
                    format!("army border {}–{} is written only from {}", name(p), name(q), name(p)),
                );
            }
        }
        for c in 0..=v.province(p).coasts.len() as u8 {
            let from = Location::new(p, c);
            for &to in v.fleet_neighbours(from) {
                if !v.fleet_neighbours(to).contains(&from) {
                    err(
                        &mut out,
                        format!(
                            "fleet border {}–{} is written only from {}",
                            v.location_name(from),
                            v.location_name(to),
                            v.location_name(from)
                        ),
                    );
                }
            }
        }
    }

    // Terrain consistency.
    for p in 0..n {
        let prov = v.province(p);
        for &q in v.army_neighbours(p) {
            let other = v.province(q);
            if other.terrain == Terrain::Sea && !other.landing {
                err(&mut out, format!("army border {}–{} enters the sea", name(p), name(q)));
            }
            if other.terrain == Terrain::Impassable {
                err(&mut out, format!("{} borders impassable {}", name(p), name(q)));
            }
        }
        match prov.terrain {
            Terrain::Land => {
                if !v.fleet_neighbours(Location::province(p)).is_empty() {
                    err(&mut out, format!("{} is inland but has fleet borders", name(p)));
                }
            }
            Terrain::Coast => {
                let total: usize = (0..=prov.coasts.len() as u8)
                    .map(|c| v.fleet_neighbours(Location::new(p, c)).len())
                    .sum();
                if total == 0 {
                    warn(&mut out, format!("{} is coastal but no fleet can reach it", name(p)));
                }
                if !prov.coasts.is_empty() && !v.fleet_neighbours(Location::province(p)).is_empty() {
                    err(
                        &mut out,
                        format!("{} has coasts, but a fleet border names no coast", name(p)),
                    );
                }
                for c in 1..=prov.coasts.len() as u8 {
                    if v.fleet_neighbours(Location::new(p, c)).is_empty() {
                        err(
                            &mut out,
                            format!("coast {} has no fleet border", v.location_name(Location::new(p, c))),
                        );
                    }
                }
            }
            Terrain::Sea => {
                if v.army_neighbours(p).is_empty() && prov.landing {
                    warn(
                        &mut out,
                        format!("{} is a landing sea but no army border leads in", name(p)),
                    );
                }
            }
            Terrain::Impassable => {
                if !v.army_neighbours(p).is_empty() || !v.fleet_neighbours(Location::province(p)).is_empty() {
                    err(&mut out, format!("impassable {} has borders", name(p)));
                }
            }
        }
        // A fleet moving between two coastal spaces must follow a shared coast: both
        // must border a common sea (DATC 6.A.9 — fleets follow coasts).
        for c in 0..=prov.coasts.len() as u8 {
            let from = Location::new(p, c);
            for &to in v.fleet_neighbours(from) {
                let tp = v.province(to.province);
                if prov.terrain == Terrain::Coast && tp.terrain == Terrain::Coast && !prov.canal && !tp.canal {
                    let shared = v.fleet_neighbours(from).iter().any(|s| {
                        v.province(s.province).is_sea()
                            && v.fleet_neighbours(to).iter().any(|t| t.province == s.province)
                    });
                    if !shared {
                        warn(
                            &mut out,
                            format!(
                                "fleet border {}–{} joins two coasts that share no sea",
                                v.location_name(from),
                                v.location_name(to)
                            ),
                        );
                    }
                }
            }
        }
    }

    // Reachability over the union of borders.
    let mut seen = vec![false; n as usize];
    let start = (0..n).find(|&p| v.province(p).terrain != Terrain::Impassable);
    if let Some(s) = start {
        let mut stack = vec![s];
        seen[s as usize] = true;
        while let Some(p) = stack.pop() {
            let fleets = (0..=v.province(p).coasts.len() as u8)
                .flat_map(|c| v.fleet_neighbours(Location::new(p, c)).iter().map(|l| l.province));
            for q in v.army_neighbours(p).iter().copied().chain(fleets) {
                if !seen[q as usize] {
                    seen[q as usize] = true;
                    stack.push(q);
                }
            }
        }
        for p in 0..n {
            if !seen[p as usize] && v.province(p).terrain != Terrain::Impassable {
                err(&mut out, format!("{} cannot be reached from {}", name(p), name(s)));
            }
        }
    }

    // Centres and units.
    for p in 0..n {
        let prov = v.province(p);
        if prov.sc && prov.terrain == Terrain::Impassable {
            err(&mut out, format!("{} is impassable but a centre", name(p)));
        }
    }
    let mut occupied: Vec<(ProvinceId, u8)> = Vec::new();
    let stacking = v.rule_on(crate::rules::Rule::Stacking);
    for u in &v.units {
        let p = u.location.province;
        if !stacking && occupied.iter().any(|(q, _)| *q == p) {
            err(&mut out, format!("two starting units in {}", name(p)));
        }
        occupied.push((p, u.power));
        if u.kind == UnitKind::Fleet && !v.fleet_can_stand(p) {
            err(&mut out, format!("a starting fleet stands in {}", name(p)));
        }
    }
    for r in &v.rules.lines {
        if !crate::rules::known_keys().any(|k| k == r.key) {
            warn(
                &mut out,
                format!("line {}: no mechanism reads rule `{}`", r.line, r.key),
            );
        }
    }

    // Geometry: borders between far-apart spaces, and near spaces without a border.
    let coords: Vec<Option<(f64, f64)>> = v.provinces.iter().map(|p| p.at).collect();
    let missing = coords.iter().filter(|c| c.is_none()).count();
    if missing > 0 {
        warn(&mut out, format!("{missing} spaces have no at= coordinates"));
    }
    let neighbours = |p: ProvinceId| -> Vec<ProvinceId> {
        let mut all: Vec<ProvinceId> = v.army_neighbours(p).to_vec();
        for c in 0..=v.province(p).coasts.len() as u8 {
            all.extend(v.fleet_neighbours(Location::new(p, c)).iter().map(|l| l.province));
        }
        all.sort_unstable();
        all.dedup();
        all
    };
    for p in 0..n {
        let Some(a) = coords[p as usize] else { continue };
        let nb = neighbours(p);
        for &q in &nb {
            if q <= p {
                continue;
            }
            let Some(b) = coords[q as usize] else { continue };
            let limit = if v.province(p).is_sea() || v.province(q).is_sea() {
                2000.0
            } else {
                1300.0
            };
            let d = km(a, b);
            if d > limit {
                warn(
                    &mut out,
                    format!("{}–{} are adjacent but {:.0} km apart", name(p), name(q), d),
                );
            }
        }
        if v.province(p).terrain == Terrain::Impassable {
            continue;
        }
        let mut nearest: Vec<(f64, ProvinceId)> = (0..n)
            .filter(|&q| q != p && v.province(q).terrain != Terrain::Impassable)
            .filter_map(|q| coords[q as usize].map(|b| (km(a, b), q)))
            .collect();
        nearest.sort_by(|x, y| x.0.total_cmp(&y.0));
        for &(d, q) in nearest.iter().take(2) {
            if !nb.contains(&q) && d < 200.0 {
                warn(
                    &mut out,
                    format!("{} and {} are {:.0} km apart but not adjacent", name(p), name(q), d),
                );
            }
        }
    }
    out
}

/// Counts for the lint report.
pub struct Counts {
    /// Inland spaces.
    pub land: usize,
    /// Coastal spaces.
    pub coast: usize,
    /// Sea spaces.
    pub sea: usize,
    /// Impassable spaces.
    pub impassable: usize,
    /// Supply centres.
    pub centres: usize,
    /// Per power: its name, its starting units and its starting centres, which a map
    /// author compares with the rulebook.
    pub units: Vec<(String, usize, usize)>,
}

/// How many spaces of each terrain, centres, and starting units and centres per power
/// the map has: the summary `chancery lint` prints.
pub fn counts(v: &Variant) -> Counts {
    let t = |t: Terrain| v.provinces.iter().filter(|p| p.terrain == t).count();
    Counts {
        land: t(Terrain::Land),
        coast: t(Terrain::Coast),
        sea: t(Terrain::Sea),
        impassable: t(Terrain::Impassable),
        centres: v.centre_count(),
        units: (0..v.powers.len())
            .map(|i| {
                let units = v.units.iter().filter(|u| u.power as usize == i).count();
                let centres = v.provinces.iter().filter(|p| p.owner == Some(i as u8)).count();
                (v.powers[i].name.clone(), units, centres)
            })
            .collect(),
    }
}
