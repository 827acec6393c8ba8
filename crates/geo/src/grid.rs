//! The generator: a grid of equal-area cells over the frame, each land or water, grown
//! into spaces from their anchors under the graph's constraints, then traced.
//!
//! Growth is one multi-source shortest-path pass over all spaces at once. Land cells go
//! only to land, coast and impassable spaces, water cells only to seas, and a cell is
//! taken by a space only if each already-labelled cell that shares a side with it belongs
//! to the same space or to one the graph lets it touch. So two spaces the graph does not
//! join can meet at a corner but never along an edge, and an inland space never touches
//! water. Land that no space reaches within its range stays outside play.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use chancery_engine::variant::Terrain;
use chancery_engine::{ProvinceId, Variant};
use geo::{Coord, LineString};

use crate::graph::Graph;
use crate::projection::Projection;
use crate::{land, Crossing, Frame, Options, ShapeError};

/// Land that belongs to no space.
pub const OUTSIDE_LAND: u16 = u16::MAX - 1;
/// Water that belongs to no sea.
pub const OUTSIDE_WATER: u16 = u16::MAX;
/// Land held out of play by an `outside` point while the spaces grow: it competes with
/// them for cells, touches any of them, and becomes `OUTSIDE_LAND` once they have grown.
const HELD: u16 = u16::MAX - 2;
/// Cells (rows and columns) kept between spaces the graph does not join: two cells of
/// 4 km keep their outlines about 8 km apart, more than `check::GAP_KM`.
const APART_CELLS: i64 = 2;
/// How far land held out of play reaches from its point.
const HELD_RANGE_KM: f64 = 120.0;

/// Margin around the anchors, in degrees of latitude and of longitude.
const MARGIN_LAT: f64 = 2.0;
const MARGIN_LON: f64 = 3.0;
/// How far a land space may grow beyond its nearest seed, as a multiple of the distance
/// from its anchor to the nearest other land anchor, and the bounds of that range (km).
const RANGE_FACTOR: f64 = 3.0;
const RANGE_MIN_KM: f64 = 150.0;
const RANGE_MAX_KM: f64 = 1500.0;
/// Rounds of corridor seeding for borders the growth leaves undrawn.
const CORRIDOR_ROUNDS: usize = 6;
/// The longest crossing drawn for a border that is not a declared strait.
const CROSSING_MAX_KM: f64 = 300.0;
/// The shortest a junction's crossing is drawn.
const JUNCTION_MIN_KM: f64 = 60.0;
/// An island that no space reached joins the nearest coast space within this distance,
/// if the seas around it let it.
const ISLAND_REACH_KM: f64 = 60.0;

pub struct Grid {
    pub w: usize,
    pub h: usize,
    /// Side of a cell in metres, and the plane coordinates of the grid's lower-left corner.
    pub cell: f64,
    pub x0: f64,
    pub y0: f64,
    pub projection: Projection,
    pub land: Vec<bool>,
    /// Whether each cell lies inside the variant's frame; no space takes a cell outside.
    pub in_frame: Vec<bool>,
}

impl Grid {
    /// Lon/lat of a point given in cell units from the lower-left corner.
    pub fn to_lon_lat(&self, gx: f64, gy: f64) -> Coord<f64> {
        let (lon, lat) = self
            .projection
            .inverse(self.x0 + gx * self.cell, self.y0 + gy * self.cell);
        Coord { x: lon, y: lat }
    }

    /// The cell holding a lon/lat point, if it is on the grid.
    pub fn cell_of(&self, lon: f64, lat: f64) -> Option<usize> {
        let (x, y) = self.projection.forward(lon, lat);
        let i = ((x - self.x0) / self.cell).floor();
        let j = ((y - self.y0) / self.cell).floor();
        if i >= 0.0 && j >= 0.0 && (i as usize) < self.w && (j as usize) < self.h {
            Some(j as usize * self.w + i as usize)
        } else {
            None
        }
    }
}

/// The frame around a variant's anchors and shaping points.
pub fn frame_of(variant: &Variant) -> Result<Frame, ShapeError> {
    let mut f = Frame {
        west: f64::INFINITY,
        south: f64::INFINITY,
        east: f64::NEG_INFINITY,
        north: f64::NEG_INFINITY,
    };
    let points = variant
        .provinces
        .iter()
        .map(|p| p.at.ok_or_else(|| ShapeError::NoAnchor(p.abbr.clone())))
        .chain(variant.shape_points.iter().map(|(_, p)| Ok(*p)));
    for point in points {
        let (lat, lon) = point?;
        f.west = f.west.min(lon - MARGIN_LON);
        f.east = f.east.max(lon + MARGIN_LON);
        f.south = f.south.min(lat - MARGIN_LAT);
        f.north = f.north.max(lat + MARGIN_LAT);
    }
    let c = land::COVERED;
    f.west = f.west.max(c.west);
    f.east = f.east.min(c.east);
    f.south = f.south.max(c.south);
    f.north = f.north.min(c.north);
    if f.west >= f.east || f.south >= f.north {
        return Err(ShapeError::OutsideData(format!(
            "the anchors lie outside the geography Chancery has (longitude {} to {}, latitude {} to {})",
            c.west, c.east, c.south, c.north
        )));
    }
    Ok(f)
}

/// The grid over a frame, each cell marked land or water from Natural Earth.
pub fn make_grid(frame: Frame, cell_km: f64) -> Grid {
    let projection = Projection::centred((frame.south + frame.north) / 2.0, (frame.west + frame.east) / 2.0);
    let (mut xmin, mut ymin, mut xmax, mut ymax) = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    const STEPS: usize = 64;
    for k in 0..=STEPS {
        let t = k as f64 / STEPS as f64;
        let lon = frame.west + t * (frame.east - frame.west);
        let lat = frame.south + t * (frame.north - frame.south);
        for (lon, lat) in [
            (lon, frame.south),
            (lon, frame.north),
            (frame.west, lat),
            (frame.east, lat),
        ] {
            let (x, y) = projection.forward(lon, lat);
            xmin = xmin.min(x);
            xmax = xmax.max(x);
            ymin = ymin.min(y);
            ymax = ymax.max(y);
        }
    }
    let cell = cell_km * 1000.0;
    let w = ((xmax - xmin) / cell).ceil() as usize;
    let h = ((ymax - ymin) / cell).ceil() as usize;
    let mut grid = Grid {
        w,
        h,
        cell,
        x0: xmin,
        y0: ymin,
        projection,
        land: vec![false; w * h],
        in_frame: vec![true; w * h],
    };
    rasterise_land(&mut grid, frame);
    // The grid is a rectangle in the plane, so its corners reach far beyond the frame
    // (for a frame down to the tropics, past 100° E, where the committed land ends and
    // everything reads as water). A cell outside the frame is neither land nor water of
    // any space: it stays unlabelled and undrawn, so the map ends at the frame.
    let in_frame = frame_mask(&grid, frame);
    for (cell, inside) in grid.land.iter_mut().zip(&in_frame) {
        *cell &= *inside;
    }
    grid.in_frame = in_frame;
    grid
}

/// The cells whose centres lie inside the frame's outline (its four edges sampled finely
/// enough that the curved parallels and meridians stay within a cell's width).
fn frame_mask(grid: &Grid, frame: Frame) -> Vec<bool> {
    const STEPS: usize = 512;
    let mut ring = Vec::with_capacity(4 * STEPS + 1);
    let lerp = |a: f64, b: f64, k: usize| a + (b - a) * k as f64 / STEPS as f64;
    for k in 0..STEPS {
        ring.push((lerp(frame.west, frame.east, k), frame.south));
    }
    for k in 0..STEPS {
        ring.push((frame.east, lerp(frame.south, frame.north, k)));
    }
    for k in 0..STEPS {
        ring.push((lerp(frame.east, frame.west, k), frame.north));
    }
    for k in 0..STEPS {
        ring.push((frame.west, lerp(frame.north, frame.south, k)));
    }
    ring.push(ring[0]);
    let mut crossings: Vec<Vec<f64>> = vec![Vec::new(); grid.h];
    let pts: Vec<(f64, f64)> = ring
        .iter()
        .map(|&(lon, lat)| {
            let (x, y) = grid.projection.forward(lon, lat);
            ((x - grid.x0) / grid.cell, (y - grid.y0) / grid.cell)
        })
        .collect();
    add_crossings(&mut crossings, grid.h, &pts);
    fill_rows(grid, &mut crossings)
}

/// Adds, for each row whose centre line a segment of the ring crosses, the crossing's x.
fn add_crossings(crossings: &mut [Vec<f64>], h: usize, pts: &[(f64, f64)]) {
    for seg in pts.windows(2) {
        let ((xa, ya), (xb, yb)) = (seg[0], seg[1]);
        if !(ya.is_finite() && yb.is_finite()) || ya == yb {
            continue;
        }
        let (lo, hi) = if ya < yb { (ya, yb) } else { (yb, ya) };
        // Rows whose centre line j + 0.5 lies in [lo, hi).
        let first = (lo - 0.5).ceil().max(0.0) as usize;
        let last = (hi - 0.5).ceil().min(h as f64) as usize;
        for (j, row) in crossings.iter_mut().enumerate().take(last).skip(first) {
            let y = j as f64 + 0.5;
            row.push(xa + (y - ya) * (xb - xa) / (yb - ya));
        }
    }
}

/// The cells inside the rings whose row crossings are given (even–odd rule).
fn fill_rows(grid: &Grid, crossings: &mut [Vec<f64>]) -> Vec<bool> {
    let mut inside = vec![false; grid.w * grid.h];
    for (j, row) in crossings.iter_mut().enumerate() {
        row.sort_by(f64::total_cmp);
        for pair in row.chunks_exact(2) {
            // Cells whose centre i + 0.5 lies in [pair[0], pair[1]).
            let a = (pair[0] - 0.5).ceil().max(0.0) as usize;
            let b = (pair[1] - 0.5).ceil().clamp(0.0, grid.w as f64) as usize;
            for i in a..b {
                inside[j * grid.w + i] = true;
            }
        }
    }
    inside
}

/// Marks the cells whose centres lie on land, row by row (even–odd crossings of every
/// ring). geo-rasterize would do this but pins geo 0.18; the scan is a few lines.
fn rasterise_land(grid: &mut Grid, frame: Frame) {
    let mut crossings: Vec<Vec<f64>> = vec![Vec::new(); grid.h];
    // The grid is a rectangle in the plane, so its corners reach well beyond the frame's
    // longitudes and latitudes.
    let pad = 15.0;
    for polygon in &land::land().0 {
        let Some(b) = geo::BoundingRect::bounding_rect(polygon) else {
            continue;
        };
        if b.max().x < frame.west - pad
            || b.min().x > frame.east + pad
            || b.max().y < frame.south - pad
            || b.min().y > frame.north + pad
        {
            continue;
        }
        for ring in std::iter::once(polygon.exterior()).chain(polygon.interiors()) {
            let pts: Vec<(f64, f64)> = ring
                .0
                .iter()
                .map(|c| {
                    let (x, y) = grid.projection.forward(c.x, c.y);
                    ((x - grid.x0) / grid.cell, (y - grid.y0) / grid.cell)
                })
                .collect();
            add_crossings(&mut crossings, grid.h, &pts);
        }
    }
    grid.land = fill_rows(grid, &mut crossings);
}

fn is_land_space(t: Terrain) -> bool {
    t != Terrain::Sea
}

/// The four cells sharing a side with `c`.
fn sides(grid: &Grid, c: usize) -> impl Iterator<Item = usize> {
    let (w, h) = (grid.w, grid.h);
    let (i, j) = (c % w, c / w);
    [
        (i > 0).then(|| c - 1),
        (i + 1 < w).then(|| c + 1),
        (j > 0).then(|| c - w),
        (j + 1 < h).then(|| c + w),
    ]
    .into_iter()
    .flatten()
}

/// The nearest cell of the wanted kind (land or water) to `c`, searching outwards.
fn nearest_of_kind(grid: &Grid, c: usize, want_land: bool, max_cells: usize) -> Option<usize> {
    let (ci, cj) = ((c % grid.w) as i64, (c / grid.w) as i64);
    for r in 0..=max_cells as i64 {
        let mut best: Option<(i64, usize)> = None;
        for dj in -r..=r {
            for di in -r..=r {
                if di.abs() != r && dj.abs() != r {
                    continue;
                }
                let (i, j) = (ci + di, cj + dj);
                if i < 0 || j < 0 || i >= grid.w as i64 || j >= grid.h as i64 {
                    continue;
                }
                let k = j as usize * grid.w + i as usize;
                if grid.land[k] == want_land && grid.in_frame[k] {
                    let d = di * di + dj * dj;
                    if best.is_none_or(|(bd, bk)| (d, k) < (bd, bk)) {
                        best = Some((d, k));
                    }
                }
            }
        }
        if let Some((_, k)) = best {
            return Some(k);
        }
    }
    None
}

/// Each cell of the variant's grid labelled with its space (or `OUTSIDE_LAND`,
/// `OUTSIDE_WATER`), and the crossings over water the graph asks for: everything of
/// the shapes but their outlines, which `trace` draws from the labels.
pub struct Labelled {
    pub frame: Frame,
    pub grid: Grid,
    pub labels: Vec<u16>,
    pub crossings: Vec<Crossing>,
}

pub fn label(variant: &Variant, options: &Options) -> Result<Labelled, ShapeError> {
    if !(options.cell_km.is_finite() && options.cell_km >= 0.5) {
        return Err(ShapeError::BadOptions(format!("cell size {} km", options.cell_km)));
    }
    let frame = frame_of(variant)?;
    let grid = make_grid(frame, options.cell_km);
    let graph = Graph::new(variant);
    let labels = grow_with_corridors(variant, &grid, &graph);
    let crossings = crossings(variant, &grid, &graph, &labels);
    Ok(Labelled {
        frame,
        grid,
        labels,
        crossings,
    })
}

/// Seeds (cell, space) from anchors, shaping points and `outside` points (as `HELD`),
/// each on a cell of its kind.
fn seeds(variant: &Variant, grid: &Grid) -> Vec<(usize, ProvinceId)> {
    let mut out = Vec::new();
    let points = variant
        .provinces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.at.map(|at| (i as ProvinceId, at)))
        .chain(variant.shape_points.iter().copied())
        .chain(variant.outside_points.iter().map(|&at| (HELD, at)));
    // An anchor on the wrong kind of ground (a sea anchor on land) is moved to the nearest
    // cell of the right kind within this reach.
    let reach = (800_000.0 / grid.cell).ceil() as usize;
    for (p, (lat, lon)) in points {
        let want_land = p == HELD || is_land_space(variant.provinces[p as usize].terrain);
        let Some(c) = grid.cell_of(lon, lat) else { continue };
        if let Some(k) = nearest_of_kind(grid, c, want_land, reach) {
            out.push((k, p));
        }
    }
    out
}

/// Each land space's range in cells: how far beyond its nearest seed it may grow.
fn ranges(variant: &Variant, grid: &Grid) -> Vec<u32> {
    let anchors: Vec<Option<(f64, f64)>> = variant
        .provinces
        .iter()
        .map(|p| {
            p.at.filter(|_| is_land_space(p.terrain))
                .map(|(lat, lon)| grid.projection.forward(lon, lat))
        })
        .collect();
    anchors
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            None => u32::MAX,
            Some((x, y)) => {
                let nearest = anchors
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| *k != i)
                    .filter_map(|(_, b)| b.map(|(bx, by)| ((bx - x).powi(2) + (by - y).powi(2)).sqrt()))
                    .fold(f64::INFINITY, f64::min);
                let km = (RANGE_FACTOR * nearest / 1000.0).clamp(RANGE_MIN_KM, RANGE_MAX_KM);
                (km * 1000.0 / grid.cell * 10.0) as u32
            }
        })
        .collect()
}

/// Grows the spaces, then, for each border of the graph that the growth left without a
/// shared edge (straits aside), seeds a corridor of cells between the two spaces' nearest
/// cells and grows again; keeps the round with the fewest borders missing.
fn grow_with_corridors(variant: &Variant, grid: &Grid, graph: &Graph) -> Vec<u16> {
    let mut extra: Vec<(usize, ProvinceId)> = Vec::new();
    let mut best: Option<(usize, Vec<u16>)> = None;
    let mut tried = std::collections::HashSet::new();
    for _round in 0..CORRIDOR_ROUNDS {
        let mut labels = grow(variant, grid, graph, &extra);
        attach_islands(variant, grid, graph, &mut labels);
        for l in labels.iter_mut().filter(|l| **l == HELD) {
            *l = OUTSIDE_LAND;
        }
        drop_detached(variant, grid, graph, &mut labels);
        let missing: Vec<(ProvinceId, ProvinceId, usize, usize)> =
            missing_borders(variant, grid, graph, &labels, &|_, _| false)
                .into_iter()
                .filter(|&(a, b, _, _)| !is_declared_crossing(variant, a, b))
                .collect();
        if best.as_ref().is_none_or(|(m, _)| missing.len() < *m) {
            best = Some((missing.len(), labels.clone()));
        }
        let mut added = false;
        for (a, b, ca, cb) in missing {
            if !tried.insert((a, b, ca, cb)) {
                continue;
            }
            added |= corridor(variant, grid, a, b, ca, cb, &mut extra);
        }
        if !added {
            break;
        }
    }
    best.map(|(_, l)| l).unwrap_or_default()
}

fn is_pair(list: &[(ProvinceId, ProvinceId)], a: ProvinceId, b: ProvinceId) -> bool {
    list.iter().any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}

/// A border the variant file says is drawn as a crossing (`strait` or `junction`).
fn is_declared_crossing(variant: &Variant, a: ProvinceId, b: ProvinceId) -> bool {
    is_pair(&variant.straits, a, b) || is_pair(&variant.junctions, a, b)
}

/// The cell of a space's anchor, as `seeds` places it.
fn anchor_cell(variant: &Variant, grid: &Grid, p: ProvinceId) -> Option<usize> {
    let (lat, lon) = variant.provinces[p as usize].at?;
    let want_land = is_land_space(variant.provinces[p as usize].terrain);
    let reach = (800_000.0 / grid.cell).ceil() as usize;
    nearest_of_kind(grid, grid.cell_of(lon, lat)?, want_land, reach)
}

/// Rounds of `drop_detached`: a piece given to a neighbour can leave another behind.
const DETACHED_ROUNDS: usize = 4;

/// Gives each piece of a land space that is apart from the piece holding its anchor and
/// lies among other land spaces (a patch inside its neighbours, not an island or a
/// stretch of coast of its own) to the neighbour it shares most sides with, among those
/// the graph lets touch everything round the piece. A border drawn only through such a
/// patch is no border a player can see, so it is left to the corridors or to a declared
/// crossing instead.
fn drop_detached(variant: &Variant, grid: &Grid, graph: &Graph, labels: &mut [u16]) {
    let count = variant.provinces.len();
    let land = |l: u16| (l as usize) < count && is_land_space(variant.provinces[l as usize].terrain);
    let anchors: Vec<Option<usize>> = (0..count)
        .map(|p| anchor_cell(variant, grid, p as ProvinceId))
        .collect();
    for _round in 0..DETACHED_ROUNDS {
        // Every piece of every land space: cells joined by sides.
        let mut piece_of = vec![u32::MAX; labels.len()];
        let mut pieces: Vec<(u16, Vec<usize>)> = Vec::new();
        for start in 0..labels.len() {
            let l = labels[start];
            if !land(l) || piece_of[start] != u32::MAX {
                continue;
            }
            let id = pieces.len() as u32;
            piece_of[start] = id;
            let mut cells = vec![start];
            let mut k = 0;
            while k < cells.len() {
                let c = cells[k];
                k += 1;
                for s in sides(grid, c) {
                    if labels[s] == l && piece_of[s] == u32::MAX {
                        piece_of[s] = id;
                        cells.push(s);
                    }
                }
            }
            pieces.push((l, cells));
        }
        // The main piece of each space: the one holding its anchor, else the largest.
        let mut main: Vec<u32> = anchors
            .iter()
            .enumerate()
            .map(|(p, a)| {
                a.map_or(
                    u32::MAX,
                    |a| if labels[a] as usize == p { piece_of[a] } else { u32::MAX },
                )
            })
            .collect();
        for (id, (l, cells)) in pieces.iter().enumerate() {
            let m = &mut main[*l as usize];
            if *m == u32::MAX
                || (anchors[*l as usize].is_none_or(|a| labels[a] != *l) && pieces[*m as usize].1.len() < cells.len())
            {
                *m = id as u32;
            }
        }
        let mut changed = false;
        for (id, (l, cells)) in pieces.iter().enumerate() {
            if main[*l as usize] == id as u32 {
                continue;
            }
            let mut around: Vec<(u16, usize)> = Vec::new();
            for &c in cells {
                for s in sides(grid, c) {
                    let m = labels[s];
                    if m == *l || m as usize >= count {
                        continue;
                    }
                    match around.iter_mut().find(|(x, _)| *x == m) {
                        Some((_, n)) => *n += 1,
                        None => around.push((m, 1)),
                    }
                }
            }
            if !around.iter().any(|&(m, _)| land(m)) {
                continue;
            }
            let mut candidates: Vec<(u16, usize)> = around.iter().copied().filter(|&(m, _)| land(m)).collect();
            candidates.sort_by_key(|&(m, n)| (Reverse(n), m));
            let heir = candidates
                .iter()
                .map(|&(q, _)| q)
                .find(|&q| around.iter().all(|&(m, _)| m == q || graph.may_touch(m, q)));
            if let Some(q) = heir {
                for &c in cells {
                    labels[c] = q;
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// Seeds the cells of a path joined by sides from `ca` (in `a`) to `cb` (in `b`): the
/// first half to `a`, the rest to `b`, each cell only to a space of its kind.
fn corridor(
    variant: &Variant,
    grid: &Grid,
    a: ProvinceId,
    b: ProvinceId,
    ca: usize,
    cb: usize,
    extra: &mut Vec<(usize, ProvinceId)>,
) -> bool {
    let (mut i, mut j) = ((ca % grid.w) as i64, (ca / grid.w) as i64);
    let (ti, tj) = ((cb % grid.w) as i64, (cb / grid.w) as i64);
    let mut path = vec![ca];
    let (di, dj) = ((ti - i).signum(), (tj - j).signum());
    let (span_i, span_j) = ((ti - i).abs().max(1), (tj - j).abs().max(1));
    let (si, sj) = (i, j);
    while (i, j) != (ti, tj) {
        // Step along the axis that is further behind its share of the way.
        let done_i = (i - si).abs() as f64 / span_i as f64;
        let done_j = (j - sj).abs() as f64 / span_j as f64;
        if i != ti && (j == tj || done_i <= done_j) {
            i += di;
        } else {
            j += dj;
        }
        path.push(j as usize * grid.w + i as usize);
    }
    let land_a = is_land_space(variant.provinces[a as usize].terrain);
    let land_b = is_land_space(variant.provinces[b as usize].terrain);
    // Two seas whose nearest waters are parted by land: a corridor would only scatter
    // patches of each over the waters on the way (1648's Atlantic and Indian Ocean met
    // in the Aegean that way).
    if !land_a && !land_b && path.iter().any(|&c| grid.land[c]) {
        return false;
    }
    let half = path.len() / 2;
    let mut added = false;
    for (k, &c) in path.iter().enumerate() {
        let first = if k < half {
            (a, land_a, b, land_b)
        } else {
            (b, land_b, a, land_a)
        };
        let owner = if grid.land[c] == first.1 {
            first.0
        } else if grid.land[c] == first.3 {
            first.2
        } else {
            continue;
        };
        extra.push((c, owner));
        added = true;
    }
    added
}

/// Borders of the graph whose spaces share no side of a cell (and those `also` names even
/// when they do), each with the closest pair of cells of the two.
fn missing_borders(
    variant: &Variant,
    grid: &Grid,
    graph: &Graph,
    labels: &[u16],
    also: &dyn Fn(ProvinceId, ProvinceId) -> bool,
) -> Vec<(ProvinceId, ProvinceId, usize, usize)> {
    let count = variant.provinces.len();
    let mut touching = std::collections::HashSet::new();
    let mut rim: Vec<Vec<usize>> = vec![Vec::new(); count];
    for c in 0..labels.len() {
        let l = labels[c];
        if l as usize >= count {
            continue;
        }
        let mut on_rim = false;
        for s in sides(grid, c) {
            let m = labels[s];
            if m != l {
                on_rim = true;
                if (m as usize) < count {
                    touching.insert((l.min(m), l.max(m)));
                }
            }
        }
        if on_rim {
            rim[l as usize].push(c);
        }
    }
    let xy = |c: usize| ((c % grid.w) as i64, (c / grid.w) as i64);
    // Each rim sorted by column, for a sweep that looks only at nearby columns.
    for r in rim.iter_mut() {
        r.sort_by_key(|&c| (xy(c).0, c));
    }
    let mut out = Vec::new();
    for (a, b) in graph.borders() {
        if touching.contains(&(a, b)) && !also(a, b) {
            continue;
        }
        let rb = &rim[b as usize];
        let mut best: Option<(i64, usize, usize)> = None;
        for &ca in &rim[a as usize] {
            let (xa, ya) = xy(ca);
            let start = rb.partition_point(|&c| xy(c).0 < xa);
            let consider = |cb: usize, best: &mut Option<(i64, usize, usize)>| -> bool {
                let (xb, yb) = xy(cb);
                let dx2 = (xa - xb) * (xa - xb);
                if best.is_some_and(|(bd, _, _)| dx2 > bd) {
                    return false;
                }
                let d = dx2 + (ya - yb) * (ya - yb);
                if best.is_none_or(|(bd, _, _)| d < bd) {
                    *best = Some((d, ca, cb));
                }
                true
            };
            for &cb in &rb[start..] {
                if !consider(cb, &mut best) {
                    break;
                }
            }
            for &cb in rb[..start].iter().rev() {
                if !consider(cb, &mut best) {
                    break;
                }
            }
        }
        if let Some((_, ca, cb)) = best {
            out.push((a, b, ca, cb));
        }
    }
    out
}

fn grow(variant: &Variant, grid: &Grid, graph: &Graph, extra: &[(usize, ProvinceId)]) -> Vec<u16> {
    let n = grid.w * grid.h;
    let mut labels: Vec<u16> = grid
        .land
        .iter()
        .map(|&l| if l { OUTSIDE_LAND } else { OUTSIDE_WATER })
        .collect();
    let range = ranges(variant, grid);
    let held_range = (HELD_RANGE_KM * 1000.0 / grid.cell * 10.0) as u32;
    let mut heap: BinaryHeap<Reverse<(u32, u32, u16)>> = BinaryHeap::new();
    for (c, p) in seeds(variant, grid).into_iter().chain(extra.iter().copied()) {
        heap.push(Reverse((0, c as u32, p)));
    }
    let mut done = vec![false; n];
    let (w, h) = (grid.w as i64, grid.h as i64);
    while let Some(Reverse((d, c, p))) = heap.pop() {
        let c = c as usize;
        if done[c] || !grid.in_frame[c] {
            continue;
        }
        // A cell joins a space only beside a cell the space already holds (seeds aside),
        // so every piece of a space grows from one of its seeds: a diagonal step alone
        // would leave two pieces meeting at a corner, which the drawing shows as apart.
        if d > 0 && !sides(grid, c).any(|k| labels[k] == p) {
            continue;
        }
        let ok = p == HELD || apart_from_strangers(grid, graph, &labels, c, p);
        if !ok {
            continue;
        }
        done[c] = true;
        labels[c] = p;
        let (want_land, reach) = if p == HELD {
            (true, held_range)
        } else {
            (is_land_space(variant.provinces[p as usize].terrain), range[p as usize])
        };
        let (i, j) = ((c % grid.w) as i64, (c / grid.w) as i64);
        for (di, dj, cost) in [
            (1, 0, 10),
            (-1, 0, 10),
            (0, 1, 10),
            (0, -1, 10),
            (1, 1, 14),
            (1, -1, 14),
            (-1, 1, 14),
            (-1, -1, 14),
        ] {
            let (a, b) = (i + di, j + dj);
            if a < 0 || b < 0 || a >= w || b >= h {
                continue;
            }
            let k = (b * w + a) as usize;
            if done[k] || grid.land[k] != want_land || !grid.in_frame[k] {
                continue;
            }
            let nd = d + cost;
            if nd <= reach {
                heap.push(Reverse((nd, k as u32, p)));
            }
        }
    }
    labels
}

/// Whether `p` may take cell `c`: no cell within `APART_CELLS` (in rows and columns)
/// belongs to a space the graph does not let `p` touch. Sides alone would let two such
/// spaces meet corner to corner, which along a diagonal draws as a shared border
/// (Standard's Burgundy and Piedmont shared 200 km of outline that way, with no segment
/// in common); the band keeps them apart by more than `check::GAP_KM`, and the cells
/// between go to a space that may touch both, or stay outside play.
fn apart_from_strangers(grid: &Grid, graph: &Graph, labels: &[u16], c: usize, p: u16) -> bool {
    let (i, j) = ((c % grid.w) as i64, (c / grid.w) as i64);
    let r = APART_CELLS;
    for dj in -r..=r {
        for di in -r..=r {
            let (a, b) = (i + di, j + dj);
            if a < 0 || b < 0 || a >= grid.w as i64 || b >= grid.h as i64 {
                continue;
            }
            let l = labels[(b * grid.w as i64 + a) as usize];
            if !(l == OUTSIDE_LAND || l == OUTSIDE_WATER || l == HELD || graph.may_touch(l, p)) {
                return false;
            }
        }
    }
    true
}

/// Islands that no space's growth reached join the nearest coast space across a narrow
/// water, when every sea around the island borders that space.
fn attach_islands(variant: &Variant, grid: &Grid, graph: &Graph, labels: &mut [u16]) {
    let n = labels.len();
    let mut component = vec![u32::MAX; n];
    let reach = (ISLAND_REACH_KM * 1000.0 / grid.cell).ceil() as usize;
    let mut next = 0u32;
    for start in 0..n {
        if labels[start] != OUTSIDE_LAND || component[start] != u32::MAX {
            continue;
        }
        // The island: outside land joined by sides.
        let mut cells = vec![start];
        component[start] = next;
        let mut k = 0;
        let mut touches_space_land = false;
        while k < cells.len() {
            let c = cells[k];
            k += 1;
            for s in sides(grid, c) {
                if labels[s] == OUTSIDE_LAND && component[s] == u32::MAX {
                    component[s] = next;
                    cells.push(s);
                } else if grid.land[s] && labels[s] != OUTSIDE_LAND {
                    touches_space_land = true;
                }
            }
        }
        next += 1;
        if touches_space_land {
            continue;
        }
        // Breadth-first over water to the nearest space land, in rings of distance.
        let mut dist = std::collections::HashMap::new();
        let mut frontier: Vec<usize> = cells.clone();
        for &c in &cells {
            dist.insert(c, 0usize);
        }
        let mut candidates: Vec<ProvinceId> = Vec::new();
        for step in 1..=reach {
            let mut following = Vec::new();
            for &c in &frontier {
                for s in sides(grid, c) {
                    if dist.contains_key(&s) {
                        continue;
                    }
                    dist.insert(s, step);
                    if grid.land[s] {
                        let l = labels[s];
                        if (l as usize) < variant.provinces.len()
                            && variant.provinces[l as usize].terrain == Terrain::Coast
                            && !candidates.contains(&l)
                        {
                            candidates.push(l);
                        }
                    } else {
                        following.push(s);
                    }
                }
            }
            if !candidates.is_empty() {
                break;
            }
            frontier = following;
        }
        candidates.sort_unstable();
        let seas: Vec<u16> = cells
            .iter()
            .flat_map(|&c| sides(grid, c))
            .map(|s| labels[s])
            .filter(|&l| (l as usize) < variant.provinces.len())
            .collect();
        if let Some(&p) = candidates
            .iter()
            .find(|&&p| seas.iter().all(|&s| graph.may_touch(s, p)))
        {
            for &c in &cells {
                labels[c] = p;
            }
        }
    }
}

/// A crossing for each border of the graph whose spaces share no side of a cell: a line
/// between the closest cells of the two, for a declared strait or a gap of at most
/// `CROSSING_MAX_KM`. A longer line would cross the map (1648's Atlantic to the Indian
/// Ocean ran from Biscay to the Persian Gulf): such a border is left to `check` to report.
fn crossings(variant: &Variant, grid: &Grid, graph: &Graph, labels: &[u16]) -> Vec<Crossing> {
    let centre = |c: usize| ((c % grid.w) as f64 + 0.5, (c / grid.w) as f64 + 0.5);
    let max_cells = CROSSING_MAX_KM * 1000.0 / grid.cell;
    let min_cells = JUNCTION_MIN_KM * 1000.0 / grid.cell;
    // A junction is drawn even where its spaces touch through a patch of one of them that
    // no neighbour could take: `check` does not count such a patch as an edge.
    missing_borders(variant, grid, graph, labels, &|a, b| is_pair(&variant.junctions, a, b))
        .into_iter()
        .filter(|&(a, b, ca, cb)| {
            let ((xa, ya), (xb, yb)) = (centre(ca), centre(cb));
            is_declared_crossing(variant, a, b) || (xa - xb).hypot(ya - yb) <= max_cells
        })
        .map(|(a, b, ca, cb)| {
            if let Some((_, route)) = variant
                .junction_routes
                .iter()
                .find(|((x, y), _)| (*x, *y) == (a, b) || (*y, *x) == (a, b))
            {
                let line = route.iter().map(|&(lat, lon)| geo::Coord { x: lon, y: lat }).collect();
                return Crossing {
                    a,
                    b,
                    line: LineString(line),
                };
            }
            let (mut xa, mut ya) = centre(ca);
            let (mut xb, mut yb) = centre(cb);
            // A junction's two spaces meet at a point (or nearly): drawn between their
            // closest cells it would be a dot, so it reaches into each space, along the
            // line between them, to a length a player sees.
            let length = (xb - xa).hypot(yb - ya);
            if is_pair(&variant.junctions, a, b) && length < min_cells {
                let (ux, uy) = if length > 0.0 {
                    ((xb - xa) / length, (yb - ya) / length)
                } else {
                    (1.0, 0.0)
                };
                let grow = (min_cells - length) / 2.0;
                (xa, ya) = (xa - ux * grow, ya - uy * grow);
                (xb, yb) = (xb + ux * grow, yb + uy * grow);
            }
            Crossing {
                a,
                b,
                line: LineString(vec![grid.to_lon_lat(xa, ya), grid.to_lon_lat(xb, yb)]),
            }
        })
        .collect()
}
