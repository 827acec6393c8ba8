//! From a grid of labels to polygons whose shared boundaries are exactly shared.
//!
//! Each label's cell edges are chained into rings; the rings are cut into arcs at the
//! corners where three labels meet; each arc is smoothed and simplified once, and both
//! spaces beside it use that one result, so neighbours share identical vertices and the
//! topology of the grid is kept.

use std::collections::HashMap;

use geo::{ChaikinSmoothing, Contains, Coord, Densify, Euclidean, LineString, MultiPolygon, Polygon, Simplify};

use crate::grid::{Grid, OUTSIDE_LAND, OUTSIDE_WATER};

/// Beyond the grid.
const BEYOND: u16 = u16::MAX - 2;
/// Douglas–Peucker tolerance after smoothing, in cells.
const SIMPLIFY_CELLS: f64 = 0.35;
/// Longest segment, in cells, before the return to longitude and latitude.
const DENSIFY_CELLS: f64 = 6.0;

pub struct Traced {
    /// Indexed by space.
    pub spaces: Vec<MultiPolygon<f64>>,
    pub outside: MultiPolygon<f64>,
}

pub fn trace(grid: &Grid, labels: &[u16], spaces: usize) -> Traced {
    let (w, h) = (grid.w, grid.h);
    let label_at = |i: i64, j: i64| -> u16 {
        if i < 0 || j < 0 || i >= w as i64 || j >= h as i64 {
            BEYOND
        } else {
            labels[j as usize * w + i as usize]
        }
    };
    // Directed edges, interior on the left, grouped by label.
    let vid = |i: usize, j: usize| (j * (w + 1) + i) as u32;
    let mut edges: HashMap<u16, Vec<(u32, u32)>> = HashMap::new();
    for j in 0..h {
        for i in 0..w {
            let l = labels[j * w + i];
            if l == OUTSIDE_WATER {
                continue;
            }
            let (ii, jj) = (i as i64, j as i64);
            let e = edges.entry(l).or_default();
            if label_at(ii, jj - 1) != l {
                e.push((vid(i, j), vid(i + 1, j)));
            }
            if label_at(ii + 1, jj) != l {
                e.push((vid(i + 1, j), vid(i + 1, j + 1)));
            }
            if label_at(ii, jj + 1) != l {
                e.push((vid(i + 1, j + 1), vid(i, j + 1)));
            }
            if label_at(ii - 1, jj) != l {
                e.push((vid(i, j + 1), vid(i, j)));
            }
        }
    }
    // A vertex where the boundary must stay put: three or more labels meet, or two meet
    // corner to corner.
    let is_node = |v: u32| -> bool {
        let (i, j) = ((v as usize % (w + 1)) as i64, (v as usize / (w + 1)) as i64);
        let q = [
            label_at(i - 1, j - 1),
            label_at(i, j - 1),
            label_at(i, j),
            label_at(i - 1, j),
        ];
        let mut distinct = q.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() >= 3 || (distinct.len() == 2 && q[0] == q[2] && q[1] == q[3])
    };
    let point = |v: u32| -> (f64, f64) { ((v as usize % (w + 1)) as f64, (v as usize / (w + 1)) as f64) };

    let mut arcs: HashMap<(u32, u32), Vec<Coord<f64>>> = HashMap::new();
    let mut out_spaces = vec![MultiPolygon(Vec::new()); spaces];
    let mut outside = MultiPolygon(Vec::new());
    let mut keys: Vec<u16> = edges.keys().copied().collect();
    keys.sort_unstable();
    for l in keys {
        let mut list = edges.remove(&l).unwrap_or_default();
        list.sort_unstable();
        let rings = chain(&list, &point);
        let mut outers: Vec<(Vec<u32>, f64, Polygon<f64>)> = Vec::new();
        let mut holes: Vec<(Vec<u32>, Coord<f64>)> = Vec::new();
        for ring in rings {
            let area = signed_area(&ring, &point);
            if area > 0.0 {
                let poly = Polygon::new(
                    LineString(ring.iter().chain(ring.first()).map(|&v| point(v).into()).collect()),
                    vec![],
                );
                outers.push((ring, area, poly));
            } else {
                // The centre of the cell on the hole's inner side, to find its outer ring.
                let (ax, ay) = point(ring[0]);
                let (bx, by) = point(ring[1]);
                let (dx, dy) = (bx - ax, by - ay);
                let inside = Coord {
                    x: (ax + bx) / 2.0 - dy * 0.5,
                    y: (ay + by) / 2.0 + dx * 0.5,
                };
                holes.push((ring, inside));
            }
        }
        let mut hole_lists: Vec<Vec<Vec<u32>>> = vec![Vec::new(); outers.len()];
        for (ring, inside) in holes {
            let owner = outers
                .iter()
                .enumerate()
                .filter(|(_, (_, _, poly))| poly.contains(&inside))
                .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
                .map(|(k, _)| k);
            if let Some(k) = owner {
                hole_lists[k].push(ring);
            }
        }
        let mut polygons = Vec::new();
        for ((outer, _, _), hs) in outers.into_iter().zip(hole_lists) {
            let exterior = smooth_ring(&outer, grid, &is_node, &point, &mut arcs);
            let interiors = hs
                .iter()
                .map(|r| smooth_ring(r, grid, &is_node, &point, &mut arcs))
                .collect();
            polygons.push(Polygon::new(exterior, interiors));
        }
        if l == OUTSIDE_LAND {
            outside.0.extend(polygons);
        } else if (l as usize) < spaces {
            out_spaces[l as usize].0.extend(polygons);
        }
    }
    Traced {
        spaces: out_spaces,
        outside,
    }
}

/// Chains one label's directed edges (sorted) into rings of vertex ids. Where two of the
/// label's cells meet only at a corner, the chain turns left, keeping each ring around
/// cells joined by sides.
fn chain(list: &[(u32, u32)], point: &impl Fn(u32) -> (f64, f64)) -> Vec<Vec<u32>> {
    let mut used = vec![false; list.len()];
    let outgoing = |v: u32| {
        let start = list.partition_point(|e| e.0 < v);
        let end = list.partition_point(|e| e.0 <= v);
        start..end
    };
    let mut rings = Vec::new();
    for first in 0..list.len() {
        if used[first] {
            continue;
        }
        used[first] = true;
        let mut ring = vec![list[first].0];
        let (mut from, mut at) = list[first];
        loop {
            if at == ring[0] {
                break;
            }
            ring.push(at);
            let (fx, fy) = point(from);
            let (ax, ay) = point(at);
            let d = (ax - fx, ay - fy);
            let mut pick = None;
            for k in outgoing(at) {
                if used[k] {
                    continue;
                }
                let (bx, by) = point(list[k].1);
                let e = (bx - ax, by - ay);
                let cross = d.0 * e.1 - d.1 * e.0;
                // Prefer the left turn, then straight on, then right.
                let rank = if cross > 0.0 {
                    0
                } else if cross == 0.0 {
                    1
                } else {
                    2
                };
                if pick.is_none_or(|(r, _)| rank < r) {
                    pick = Some((rank, k));
                }
            }
            let Some((_, k)) = pick else { break };
            used[k] = true;
            from = at;
            at = list[k].1;
        }
        rings.push(ring);
    }
    rings
}

fn signed_area(ring: &[u32], point: &impl Fn(u32) -> (f64, f64)) -> f64 {
    let mut s = 0.0;
    for k in 0..ring.len() {
        let (ax, ay) = point(ring[k]);
        let (bx, by) = point(ring[(k + 1) % ring.len()]);
        s += ax * by - bx * ay;
    }
    s / 2.0
}

/// A ring of grid vertices, smoothed arc by arc (each arc once, shared with the space on
/// its other side), in lon/lat.
fn smooth_ring(
    ring: &[u32],
    grid: &Grid,
    is_node: &impl Fn(u32) -> bool,
    point: &impl Fn(u32) -> (f64, f64),
    arcs: &mut HashMap<(u32, u32), Vec<Coord<f64>>>,
) -> LineString<f64> {
    let n = ring.len();
    let nodes: Vec<usize> = (0..n).filter(|&k| is_node(ring[k])).collect();
    let mut coords: Vec<Coord<f64>> = Vec::new();
    if nodes.is_empty() {
        // A closed arc: start it at its least vertex, run it the way whose second vertex
        // is less, so both sides pick the same arc.
        let m = (0..n).min_by_key(|&k| ring[k]).unwrap_or(0);
        let forward: Vec<u32> = (0..n).map(|k| ring[(m + k) % n]).collect();
        let backward: Vec<u32> = (0..n).map(|k| ring[(m + n - k) % n]).collect();
        let flipped = n > 1 && backward[1] < forward[1];
        let canonical = if flipped { &backward } else { &forward };
        let key = (canonical[0], canonical.get(1).copied().unwrap_or(canonical[0]));
        let arc = arcs
            .entry(key)
            .or_insert_with(|| {
                let mut closed = canonical.clone();
                closed.push(canonical[0]);
                smooth_arc(&closed, grid, point, true)
            })
            .clone();
        coords = arc;
        if flipped {
            coords.reverse();
        }
        return LineString(coords);
    }
    for (idx, &s) in nodes.iter().enumerate() {
        let e = nodes[(idx + 1) % nodes.len()];
        let len = if e > s { e - s } else { e + n - s };
        let seq: Vec<u32> = (0..=len).map(|k| ring[(s + k) % n]).collect();
        let rev: Vec<u32> = seq.iter().rev().copied().collect();
        let flipped = (rev[0], rev[1]) < (seq[0], seq[1]);
        let canonical = if flipped { &rev } else { &seq };
        let key = (canonical[0], canonical[1]);
        let mut arc = arcs
            .entry(key)
            .or_insert_with(|| smooth_arc(canonical, grid, point, false))
            .clone();
        if flipped {
            arc.reverse();
        }
        if !coords.is_empty() {
            arc.remove(0);
        }
        coords.extend(arc);
    }
    // The last arc ends where the first began.
    if let (Some(f), Some(l)) = (coords.first().copied(), coords.last().copied()) {
        if f != l {
            coords.push(f);
        }
    }
    LineString(coords)
}

fn smooth_arc(vertices: &[u32], grid: &Grid, point: &impl Fn(u32) -> (f64, f64), closed: bool) -> Vec<Coord<f64>> {
    // Corners only: the straight runs of the staircase carry nothing.
    let pts: Vec<Coord<f64>> = vertices.iter().map(|&v| point(v).into()).collect();
    let mut corners: Vec<Coord<f64>> = Vec::with_capacity(pts.len());
    for k in 0..pts.len() {
        if k == 0 || k + 1 == pts.len() {
            corners.push(pts[k]);
            continue;
        }
        let (a, b, c) = (pts[k - 1], pts[k], pts[k + 1]);
        let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
        if cross != 0.0 {
            corners.push(b);
        }
    }
    let line = LineString(corners);
    let smoothed = line.chaikin_smoothing(2);
    let simplified = smoothed.simplify(SIMPLIFY_CELLS);
    // A loop that simplification would collapse keeps its smoothed form.
    let looped = closed || smoothed.0.first() == smoothed.0.last();
    let simplified = if looped && simplified.0.len() < 5 {
        smoothed
    } else {
        simplified
    };
    // A straight run in the plane is not straight in longitude and latitude: points every
    // few cells keep a long edge (the frame's, a sea's) where the grid put it.
    let dense = Euclidean.densify(&simplified, DENSIFY_CELLS);
    dense.0.iter().map(|c| grid.to_lon_lat(c.x, c.y)).collect()
}
