//! The drawing of a variant's board that does not change between positions: where
//! each space is, its cell, the borders between cells, and where each coast sits.
//! Built once per variant (`MapGeometry::new`) and reused for every render.
//!
//! The cells are a Voronoi tiling of the spaces' `at=` coordinates: each cell is the
//! part of the plane nearer its own space than any other, cut off by a disc around
//! the space so that the outer seas end in a rounded coast instead of running to the
//! edge of the picture. With at most a few hundred spaces, clipping a disc by one
//! half-plane per other space is fast enough and needs no general Voronoi algorithm.

use std::collections::HashSet;
use std::fmt::Write;

use chancery_engine::variant::Terrain;
use chancery_engine::{Location, Variant};

use crate::geom::{EdgeFrom, Polygon, Pt};
use crate::layout::lay_out;
use crate::voronoi::power_cells;
use crate::RenderError;

/// The median distance between a space and its nearest other space, in pixels. Sets
/// the map's scale so that a crowded map gets bigger rather than cramped.
pub(crate) const SPACING: f64 = 62.0;
const MARGIN: f64 = 12.0;

/// How a border between two touching cells is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorderKind {
    /// Between two land spaces a unit can cross.
    Land,
    /// Between land and sea: the coastline.
    Coast,
    /// Between two seas.
    Sea,
    /// The cells touch on the drawing, but no unit may cross: a wall on the map.
    Closed,
}

#[derive(Clone, Debug)]
pub struct Border {
    pub a: usize,
    pub b: usize,
    pub from: Pt,
    pub to: Pt,
    pub kind: BorderKind,
}

/// The precomputed drawing of one variant's board.
#[derive(Clone, Debug)]
pub struct MapGeometry {
    pub(crate) variant_id: String,
    pub(crate) province_count: usize,
    /// Size of the map area in pixels (the legend is drawn beside it).
    pub width: f64,
    pub height: f64,
    pub(crate) cells: Vec<Polygon>,
    /// Each cell as SVG path data.
    pub(crate) cell_paths: Vec<String>,
    /// Where a space's unit and label sit: its cell's centre of mass.
    pub(crate) anchors: Vec<Pt>,
    /// Per space, per coast (index = coast - 1): where a fleet on that coast is drawn.
    pub(crate) coast_points: Vec<Vec<Pt>>,
    pub(crate) borders: Vec<Border>,
    /// Spaces adjacent in the game whose cells do not touch on the drawing.
    pub(crate) links: Vec<(usize, usize)>,
    /// Spaces whose position was guessed from their neighbours (no `at=`).
    pub(crate) guessed: Vec<usize>,
}

impl MapGeometry {
    /// Lays out the board of `v`. Fails only when no space has coordinates to start from.
    pub fn new(v: &Variant) -> Result<MapGeometry, RenderError> {
        let n = v.provinces.len();
        let adjacent = adjacency(v);
        let (coords, guessed) = coordinates(v, &adjacent)?;
        let layout = lay_out(&project(&coords), &adjacent, SPACING);

        // Shift everything so the cells start at the margin.
        let mut min = Pt::new(f64::INFINITY, f64::INFINITY);
        let mut max = Pt::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for (p, r) in layout.sites.iter().zip(&layout.reach) {
            min = Pt::new(min.x.min(p.x - r), min.y.min(p.y - r));
            max = Pt::new(max.x.max(p.x + r), max.y.max(p.y + r));
        }
        let shift = Pt::new(MARGIN - min.x, MARGIN - min.y);
        let sites: Vec<Pt> = layout.sites.iter().map(|p| *p + shift).collect();
        let width = (max.x - min.x + 2.0 * MARGIN).ceil();
        let height = (max.y - min.y + 2.0 * MARGIN).ceil();

        let cells = power_cells(&sites, &layout.radii, &layout.reach);
        let anchors: Vec<Pt> = cells
            .iter()
            .zip(&sites)
            .map(|(c, s)| if c.is_empty() { *s } else { c.centroid() })
            .collect();
        let cell_paths = cells.iter().map(path_data).collect();
        let borders = borders(v, &cells, &sites, &adjacent);
        let touching: HashSet<(usize, usize)> = borders.iter().map(|b| (b.a, b.b)).collect();
        let mut links: Vec<(usize, usize)> = adjacent
            .iter()
            .copied()
            .filter(|pair| !touching.contains(pair))
            .collect();
        links.sort_unstable();
        let coast_points = coast_points(v, &cells, &anchors);
        Ok(MapGeometry {
            variant_id: v.id.clone(),
            province_count: n,
            width,
            height,
            cells,
            cell_paths,
            anchors,
            coast_points,
            borders,
            links,
            guessed,
        })
    }

    /// Whether this geometry was built for `v` (same id and number of spaces).
    pub fn fits(&self, v: &Variant) -> bool {
        self.variant_id == v.id && self.province_count == v.provinces.len()
    }

    /// Where a unit at `loc` is drawn.
    pub fn location_point(&self, loc: Location) -> Pt {
        let p = loc.province as usize;
        if loc.coast > 0 {
            if let Some(pt) = self.coast_points[p].get(loc.coast as usize - 1) {
                return *pt;
            }
        }
        self.anchors[p]
    }

    /// The centre of a space's cell, in map pixels.
    pub fn anchor(&self, province: usize) -> Pt {
        self.anchors[province]
    }

    /// The outline of a space's cell, for a page that wants to hit-test clicks.
    pub fn cell(&self, province: usize) -> &[Pt] {
        &self.cells[province].points
    }

    /// Spaces the variant gives no `at=` for, placed among their neighbours instead.
    pub fn guessed(&self) -> &[usize] {
        &self.guessed
    }
}

/// Pairs of spaces (lower index first) that some unit may move between.
fn adjacency(v: &Variant) -> HashSet<(usize, usize)> {
    let mut set = HashSet::new();
    let mut add = |a: usize, b: usize| {
        if a != b {
            set.insert((a.min(b), a.max(b)));
        }
    };
    for (p, list) in v.army_adjacency.iter().enumerate() {
        for &q in list {
            add(p, q as usize);
        }
    }
    for (p, prov) in v.provinces.iter().enumerate() {
        for c in 0..=prov.coasts.len() as u8 {
            for to in v.fleet_neighbours(Location::new(p as u16, c)) {
                add(p, to.province as usize);
            }
        }
    }
    set
}

/// (latitude, longitude) of every space. A space without `at=` is put at the average
/// of its placed neighbours, repeatedly, so a variant file that leaves some out still
/// draws; one with no coordinates at all cannot.
/// (latitude, longitude) of every space, and which of them were guessed.
type Placed = (Vec<(f64, f64)>, Vec<usize>);

fn coordinates(v: &Variant, adjacent: &HashSet<(usize, usize)>) -> Result<Placed, RenderError> {
    let n = v.provinces.len();
    let mut at: Vec<Option<(f64, f64)>> = v.provinces.iter().map(|p| p.at).collect();
    if n > 0 && at.iter().all(Option::is_none) {
        return Err(RenderError::NoCoordinates);
    }
    let mut neighbours = vec![Vec::new(); n];
    for &(a, b) in adjacent {
        neighbours[a].push(b);
        neighbours[b].push(a);
    }
    let guessed: Vec<usize> = (0..n).filter(|&i| at[i].is_none()).collect();
    let mut missing = guessed.clone();
    while !missing.is_empty() {
        let mut placed_any = false;
        let mut still = Vec::new();
        for &i in &missing {
            let known: Vec<(f64, f64)> = neighbours[i].iter().filter_map(|&j| at[j]).collect();
            if known.is_empty() {
                still.push(i);
                continue;
            }
            let k = known.len() as f64;
            let lat = known.iter().map(|c| c.0).sum::<f64>() / k;
            let lon = known.iter().map(|c| c.1).sum::<f64>() / k;
            // Nudged off the average so that two guessed neighbours do not coincide.
            let nudge = 0.3 * ((i % 7) as f64 - 3.0) / 3.0;
            at[i] = Some((lat + nudge, lon - nudge));
            placed_any = true;
        }
        if !placed_any {
            let names: Vec<&str> = still.iter().map(|&i| v.provinces[i].abbr.as_str()).collect();
            return Err(RenderError::Unplaceable(names.join(", ")));
        }
        missing = still;
    }
    Ok((at.into_iter().map(|c| c.unwrap_or((0.0, 0.0))).collect(), guessed))
}

/// Equirectangular projection at the map's middle latitude, scaled so that the median
/// nearest-neighbour distance is `SPACING` pixels. Coincident spaces are pulled apart,
/// since two sites on one point have no border between them.
fn project(coords: &[(f64, f64)]) -> Vec<Pt> {
    if coords.is_empty() {
        return Vec::new();
    }
    let lat_min = coords.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let lat_max = coords.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    let squeeze = ((lat_min + lat_max) / 2.0).clamp(-70.0, 70.0).to_radians().cos();
    let mut pts: Vec<Pt> = coords.iter().map(|&(lat, lon)| Pt::new(lon * squeeze, -lat)).collect();
    for i in 1..pts.len() {
        while pts[..i].iter().any(|q| q.dist(pts[i]) < 1e-3) {
            let a = i as f64 * 2.4;
            pts[i] = pts[i] + Pt::new(a.cos(), a.sin()) * 0.05;
        }
    }
    let mut nearest: Vec<f64> = (0..pts.len())
        .map(|i| {
            (0..pts.len())
                .filter(|&j| j != i)
                .map(|j| pts[i].dist(pts[j]))
                .fold(f64::INFINITY, f64::min)
        })
        .filter(|d| d.is_finite())
        .collect();
    nearest.sort_by(f64::total_cmp);
    let median = nearest.get(nearest.len() / 2).copied().unwrap_or(1.0).max(1e-6);
    let scale = SPACING / median;
    pts.iter().map(|p| *p * scale).collect()
}

fn path_data(poly: &Polygon) -> String {
    let mut d = String::with_capacity(poly.points.len() * 14);
    for (k, p) in poly.points.iter().enumerate() {
        let _ = write!(d, "{}{:.1} {:.1}", if k == 0 { "M" } else { "L" }, p.x, p.y);
    }
    if !poly.points.is_empty() {
        d.push('Z');
    }
    d
}

/// The shared stretch of two cells' edges on their bisector. Each cell was cut by its
/// own disc, so the two edges may differ in length; only the common part is a border
/// between the two spaces, the rest is outer coast.
fn borders(v: &Variant, cells: &[Polygon], sites: &[Pt], adjacent: &HashSet<(usize, usize)>) -> Vec<Border> {
    let mut out = Vec::new();
    for (a, ca) in cells.iter().enumerate() {
        for (k, edge) in ca.edges.iter().enumerate() {
            let EdgeFrom::Site(b) = *edge else { continue };
            if b <= a {
                continue;
            }
            let cb = &cells[b];
            let Some(kb) = cb.edges.iter().position(|e| *e == EdgeFrom::Site(a)) else {
                continue;
            };
            let dir = (sites[b] - sites[a]).perp().unit();
            let seg = |c: &Polygon, k: usize| {
                let p = c.points[k];
                let q = c.points[(k + 1) % c.points.len()];
                (p, q)
            };
            let (p, q) = seg(ca, k);
            let (r, s) = seg(cb, kb);
            let (tp, tq) = (dir.dot(p), dir.dot(q));
            let (tr, ts) = (dir.dot(r), dir.dot(s));
            let lo = tp.min(tq).max(tr.min(ts));
            let hi = tp.max(tq).min(tr.max(ts));
            if hi - lo < 0.5 {
                continue;
            }
            let at = |t: f64| p + dir * (t - tp);
            out.push(Border {
                a,
                b,
                from: at(lo),
                to: at(hi),
                kind: border_kind(v, a, b, adjacent),
            });
        }
    }
    out
}

fn border_kind(v: &Variant, a: usize, b: usize, adjacent: &HashSet<(usize, usize)>) -> BorderKind {
    let ta = v.provinces[a].terrain;
    let tb = v.provinces[b].terrain;
    let sea_a = ta == Terrain::Sea;
    let sea_b = tb == Terrain::Sea;
    let impassable = ta == Terrain::Impassable || tb == Terrain::Impassable;
    let inland_meets_sea = (sea_a && tb == Terrain::Land) || (sea_b && ta == Terrain::Land);
    if !impassable && !inland_meets_sea && !adjacent.contains(&(a.min(b), a.max(b))) {
        return BorderKind::Closed;
    }
    match (sea_a, sea_b) {
        (true, true) => BorderKind::Sea,
        (false, false) => BorderKind::Land,
        _ => BorderKind::Coast,
    }
}

/// A fleet on one coast of a split-coast space is drawn toward the waters that coast
/// reaches: the average direction of its fleet neighbours, halfway to the cell's edge.
fn coast_points(v: &Variant, cells: &[Polygon], anchors: &[Pt]) -> Vec<Vec<Pt>> {
    v.provinces
        .iter()
        .enumerate()
        .map(|(p, prov)| {
            (1..=prov.coasts.len() as u8)
                .map(|c| {
                    let me = anchors[p];
                    let dir = v
                        .fleet_neighbours(Location::new(p as u16, c))
                        .iter()
                        .map(|to| (anchors[to.province as usize] - me).unit())
                        .fold(Pt::new(0.0, 0.0), |s, d| s + d)
                        .unit();
                    if dir.len() == 0.0 || cells[p].is_empty() {
                        return me;
                    }
                    let reach = cells[p].ray_exit(me, dir);
                    me + dir * (reach * 0.55).min(26.0)
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_engine::builtin::builtin;

    fn standard() -> Variant {
        builtin("standard").unwrap().unwrap()
    }

    #[test]
    fn every_standard_space_gets_a_cell_around_its_anchor() {
        let v = standard();
        let g = MapGeometry::new(&v).unwrap();
        assert_eq!(g.cells.len(), v.provinces.len());
        for (i, c) in g.cells.iter().enumerate() {
            assert!(!c.is_empty(), "{} has no cell", v.provinces[i].abbr);
            assert!(
                g.anchors
                    .iter()
                    .enumerate()
                    .all(|(j, a)| j == i || a.dist(g.anchors[i]) > 20.0),
                "{} is cramped",
                v.provinces[i].abbr
            );
        }
        assert!(g.guessed.is_empty());
    }

    #[test]
    fn most_borders_of_the_game_are_borders_on_the_drawing() {
        // The layout bends the real map so that spaces that border each other in the
        // game touch on the board; the rest are drawn as dotted links.
        let v = standard();
        let g = MapGeometry::new(&v).unwrap();
        let adjacent = adjacency(&v).len();
        let shown = adjacent - g.links.len();
        assert!(shown * 10 >= adjacent * 8, "{shown} of {adjacent}");
        let closed = g.borders.iter().filter(|b| b.kind == BorderKind::Closed).count();
        assert!(closed * 5 <= g.borders.len(), "{closed} walls");
    }

    #[test]
    fn cells_do_not_overlap() {
        // Voronoi cells only share edges: their areas add up to at most the picture.
        let v = standard();
        let g = MapGeometry::new(&v).unwrap();
        let total: f64 = g.cells.iter().map(|c| c.area().abs()).sum();
        assert!(total <= g.width * g.height);
    }

    #[test]
    fn split_coasts_are_drawn_on_their_own_side() {
        // St Petersburg's north coast faces the Barents Sea, its south coast the Gulf
        // of Bothnia: the north coast must be drawn above the south one.
        let v = standard();
        let g = MapGeometry::new(&v).unwrap();
        let stp = v.find_province("stp").unwrap();
        let nc = g.location_point(Location::new(stp, v.find_coast(stp, "nc").unwrap()));
        let sc = g.location_point(Location::new(stp, v.find_coast(stp, "sc").unwrap()));
        assert!(nc.y < sc.y);
    }

    #[test]
    fn a_space_without_coordinates_is_placed_among_its_neighbours() {
        let mut v = standard();
        let boh = v.find_province("boh").unwrap() as usize;
        v.provinces[boh].at = None;
        let g = MapGeometry::new(&v).unwrap();
        assert_eq!(g.guessed, vec![boh]);
        assert!(!g.cells[boh].is_empty());
    }

    #[test]
    fn a_variant_with_no_coordinates_is_an_error() {
        let mut v = standard();
        for p in &mut v.provinces {
            p.at = None;
        }
        assert!(matches!(MapGeometry::new(&v), Err(RenderError::NoCoordinates)));
    }
}

#[cfg(test)]
mod stats {
    use super::*;
    use chancery_engine::variant_file::load_variant;

    /// Prints how well the drawing matches the game's graph, for tuning the layout.
    #[test]
    #[ignore]
    fn print_layout_stats() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "var") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(v) = load_variant(&path.to_string_lossy(), &text) else {
                continue;
            };
            let g = MapGeometry::new(&v).unwrap();
            let adjacent = adjacency(&v).len();
            let closed = g.borders.iter().filter(|b| b.kind == BorderKind::Closed).count();
            println!(
                "{}: {} spaces, {} adjacencies, {} shown as borders, {} links, {} closed borders, {}x{}",
                v.id,
                v.provinces.len(),
                adjacent,
                adjacent - g.links.len(),
                g.links.len(),
                closed,
                g.width,
                g.height
            );
        }
    }
}
