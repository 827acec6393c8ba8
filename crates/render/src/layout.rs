//! Where the spaces go. Real coordinates alone make a poor board: a sea's centre is
//! far from its coasts, so on a plain Voronoi tiling of them the coastal cells swallow
//! the seas and many spaces that border each other in the game do not touch. So:
//!
//! 1. Each space gets a size from its number of neighbours (a sea bordering ten
//!    spaces needs room for ten borders).
//! 2. Stress majorization (Gansner, Koren and North, "Graph drawing by stress
//!    majorization", 2004) pulls every pair of spaces toward the length of the
//!    shortest path between them, while a weaker pull keeps each space near its
//!    projected real position, so the board keeps its geography.
//! 3. A few rounds of repair on the actual tiling: spaces that border each other in
//!    the game but whose cells do not touch are pulled together, and cells that touch
//!    without a border in the game are pushed apart.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};

use crate::geom::Pt;

/// How strongly a space is held at its real position, against the pull of the graph.
const ANCHOR: f64 = 2.0;
const STRESS_ROUNDS: usize = 30;
const SPREAD_ROUNDS: usize = 15;
/// The distance to the nearest space that all but an eighth of the spaces get, as a
/// share of the spacing.
const MIN_ROOM: f64 = 0.72;
/// How close two spaces may come, as a share of the sum of their sizes.
const SPREAD: f64 = 0.7;

pub(crate) struct Layout {
    pub sites: Vec<Pt>,
    /// Each space's size: the weight of its site in the power diagram.
    pub radii: Vec<f64>,
    /// How far each cell may reach from its site before the map's edge.
    pub reach: Vec<f64>,
}

/// Lays out the spaces from their projected real positions `geo` and the pairs that
/// border each other in the game; bordering spaces end up about `spacing` apart.
pub(crate) fn lay_out(geo: &[Pt], adjacent: &HashSet<(usize, usize)>, spacing: f64) -> Layout {
    let n = geo.len();
    let neighbours = neighbour_lists(geo, adjacent);
    let mean_degree = neighbours.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1) as f64;
    let radii: Vec<f64> = neighbours
        .iter()
        .map(|l| spacing * 0.5 * (l.len() as f64 / mean_degree.max(1.0)).sqrt().clamp(0.8, 1.5))
        .collect();
    if n < 3 {
        let reach = radii.iter().map(|r| r * 1.6).collect();
        return Layout {
            sites: geo.to_vec(),
            radii,
            reach,
        };
    }
    let target = shortest_paths(&neighbours, &radii);
    let geo = fit_scale(geo, &neighbours, &radii);
    let mut sites = geo.clone();
    stress(&mut sites, &geo, &target, &neighbours, STRESS_ROUNDS);
    for _ in 0..SPREAD_ROUNDS {
        spread(&mut sites, &radii, 2);
        stress(&mut sites, &geo, &target, &neighbours, 1);
    }
    spread(&mut sites, &radii, 3);
    let reach = reaches(&sites, &radii, &neighbours);
    let mut layout = Layout { sites, radii, reach };
    make_room(&mut layout, spacing);
    layout
}

/// Scales the whole board up until all but the most crowded few spaces are far
/// enough from their nearest neighbour to hold a centre, a unit and a name. Scaling
/// sites and sizes together leaves the tiling's shape, and so its borders, unchanged.
fn make_room(layout: &mut Layout, spacing: f64) {
    let sites = &layout.sites;
    let mut nearest: Vec<f64> = (0..sites.len())
        .map(|i| {
            (0..sites.len())
                .filter(|&j| j != i)
                .map(|j| sites[i].dist(sites[j]))
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    nearest.sort_by(f64::total_cmp);
    let Some(&crowded) = nearest.get(nearest.len() / 8) else {
        return;
    };
    let wanted = spacing * MIN_ROOM;
    if crowded > 1e-9 && crowded < wanted {
        let k = wanted / crowded;
        for p in &mut layout.sites {
            *p = *p * k;
        }
        for r in layout.radii.iter_mut().chain(layout.reach.iter_mut()) {
            *r *= k;
        }
    }
}

/// Pushes apart spaces closer than their sizes allow, where geography crowds many
/// small spaces together, until each has room for its marker and name.
fn spread(sites: &mut [Pt], radii: &[f64], rounds: usize) {
    let n = sites.len();
    let k = SPREAD;
    for _ in 0..rounds {
        let mut moved = false;
        for i in 0..n {
            for j in i + 1..n {
                let want = k * (radii[i] + radii[j]);
                let delta = sites[j] - sites[i];
                let d = delta.len();
                if d < want {
                    let dir = if d > 1e-9 { delta * (1.0 / d) } else { Pt::new(1.0, 0.0) };
                    let step = dir * ((want - d) * 0.25);
                    sites[i] = sites[i] - step;
                    sites[j] = sites[j] + step;
                    moved = true;
                }
            }
        }
        if !moved {
            break;
        }
    }
}

/// The game's neighbours of each space. A space no unit can enter (impassable, or
/// cut off) still needs a place among its surroundings: it is tied to its three
/// nearest spaces on the real map.
fn neighbour_lists(geo: &[Pt], adjacent: &HashSet<(usize, usize)>) -> Vec<Vec<usize>> {
    let n = geo.len();
    let mut neighbours = vec![Vec::new(); n];
    let mut pairs: Vec<(usize, usize)> = adjacent.iter().copied().collect();
    pairs.sort_unstable();
    for (a, b) in pairs {
        neighbours[a].push(b);
        neighbours[b].push(a);
    }
    for i in 0..n {
        if neighbours[i].is_empty() {
            let mut by_distance: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            by_distance.sort_by(|&a, &b| geo[i].dist(geo[a]).total_cmp(&geo[i].dist(geo[b])));
            for &j in by_distance.iter().take(3) {
                neighbours[i].push(j);
                neighbours[j].push(i);
            }
        }
    }
    neighbours
}

/// How far each cell may reach: far enough to meet every neighbour's cell, but not
/// much beyond its own size, so an outer space ends in a round coast, not a spike.
fn reaches(sites: &[Pt], radii: &[f64], neighbours: &[Vec<usize>]) -> Vec<f64> {
    (0..sites.len())
        .map(|i| {
            let far = neighbours[i]
                .iter()
                .map(|&j| sites[i].dist(sites[j]) * 0.6)
                .fold(0.0, f64::max);
            far.clamp(radii[i] * 1.5, radii[i] * 2.6)
        })
        .collect()
}

#[derive(PartialEq)]
struct Entry(f64, usize);
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and Dijkstra wants the nearest first.
        o.0.total_cmp(&self.0)
    }
}

/// Length of the shortest path between every pair, a border between two spaces
/// counting as the sum of their sizes (`f64::INFINITY` when unreachable).
fn shortest_paths(neighbours: &[Vec<usize>], radii: &[f64]) -> Vec<f64> {
    let n = neighbours.len();
    let mut dist = vec![f64::INFINITY; n * n];
    let mut heap = BinaryHeap::new();
    for s in 0..n {
        let row = &mut dist[s * n..(s + 1) * n];
        row[s] = 0.0;
        heap.push(Entry(0.0, s));
        while let Some(Entry(d, u)) = heap.pop() {
            if d > row[u] {
                continue;
            }
            for &w in &neighbours[u] {
                let nd = d + radii[u] + radii[w];
                if nd < row[w] {
                    row[w] = nd;
                    heap.push(Entry(nd, w));
                }
            }
        }
    }
    dist
}

/// Localized stress majorization: each space in turn moves to where the pulls of
/// all the others (weighted by 1/target², as usual) and of its real position balance.
fn stress(sites: &mut [Pt], geo: &[Pt], target: &[f64], neighbours: &[Vec<usize>], rounds: usize) {
    let n = sites.len();
    for _ in 0..rounds {
        for i in 0..n {
            let mut sum = Pt::new(0.0, 0.0);
            let mut weight = 0.0;
            let near = neighbours[i]
                .iter()
                .map(|&j| target[i * n + j])
                .filter(|t| t.is_finite() && *t > 0.0)
                .map(|t| 1.0 / (t * t))
                .fold(0.0f64, f64::max);
            for j in 0..n {
                let t = target[i * n + j];
                if j == i || !t.is_finite() || t <= 0.0 {
                    continue;
                }
                let w = 1.0 / (t * t);
                let delta = sites[i] - sites[j];
                let d = delta.len().max(1e-6);
                sum = sum + (sites[j] + delta * (t / d)) * w;
                weight += w;
            }
            let anchor = ANCHOR * near * neighbours[i].len().max(1) as f64;
            sum = sum + geo[i] * anchor;
            weight += anchor;
            if weight > 0.0 {
                sites[i] = sum * (1.0 / weight);
            }
        }
    }
}

/// Scales the real positions so that bordering spaces are on average as far apart as
/// their sizes say, so that the pull of geography and of the graph agree on the size.
fn fit_scale(geo: &[Pt], neighbours: &[Vec<usize>], radii: &[f64]) -> Vec<Pt> {
    let mut real = 0.0;
    let mut wanted = 0.0;
    for (a, list) in neighbours.iter().enumerate() {
        for &b in list {
            real += geo[a].dist(geo[b]);
            wanted += radii[a] + radii[b];
        }
    }
    if real < 1e-9 {
        return geo.to_vec();
    }
    let k = wanted / real;
    geo.iter().map(|p| *p * k).collect()
}
