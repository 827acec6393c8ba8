//! Does a drawing agree with the graph? Measured on the vector shapes: two spaces share an
//! edge when their boundaries share segments longer in all than [`EDGE_KM`] (a meeting at
//! a point is no edge); a border of the graph is drawn when it is such an edge between the
//! two spaces' main pieces, or a crossing declared by a `strait` or `junction` line. A
//! land space in several pieces is measured piece by piece: a piece apart from the one
//! holding its anchor that meets other land spaces (a detached patch inside its
//! neighbours, not an island of its own) draws no border, and is reported with the
//! borders that only it would have drawn.

use std::collections::HashMap;

use chancery_engine::variant::Terrain;
use chancery_engine::{ProvinceId, Variant};
use geo::{Area, BooleanOps, BoundingRect, Intersects, MultiPolygon, Point, Polygon};

use crate::graph::Graph;
use crate::{land, Shapes};

/// Shared boundary shorter than this is a point contact, not an edge.
pub const EDGE_KM: f64 = 1.0;
/// Two outlines closer than this read as one line where the map is drawn (1400 pixels
/// across Europe is 3 to 6 km a pixel; the generator's cells are 4 km): two spaces whose
/// shapes meet corner to corner along a diagonal, or parted by a sliver of land outside
/// play, look as if they share a border though no segment is shared.
pub const GAP_KM: f64 = 5.0;
/// A stretch of one space's outline this long lying within [`GAP_KM`] of another's is a
/// contact a player sees, and tries to move across.
pub const CONTACT_KM: f64 = 5.0;
/// Outline this close to the frame is the map's edge (the generator's cells follow the
/// frame in steps of 4 km).
const FRAME_KM: f64 = 10.0;
/// Outlines are sampled at this spacing for the contact measure.
const SAMPLE_KM: f64 = 1.0;
/// A land space must have this share of its area on real land; a drawn sea at most the
/// rest (the grid's steps along the coast, islands smaller than a cell). The seas of
/// [`crate::Shapes::with_seas_cut`] (`map.geojson`) have the land cut out.
pub const ON_LAND: f64 = 0.95;
/// A detached piece smaller than this that draws no border of its own is a step of the
/// grid's staircase where two shapes meet at a corner, not a patch a player would see.
pub const DETACHED_KM2: f64 = 100.0;

/// A piece of a land space detached from the piece holding its anchor, lying among other
/// land spaces rather than being an island of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Detached {
    pub space: String,
    /// Its area in square kilometres, and a point of its outline (latitude, longitude).
    pub km2: f64,
    pub at: (f64, f64),
    /// The borders of the graph drawn only through this piece, as "a–b".
    pub carries: Vec<String>,
}

/// What `check` found. Every list names spaces by abbreviation.
#[derive(Clone, Debug, Default)]
pub struct DrawingReport {
    /// Borders of the graph, and how many are drawn.
    pub borders: usize,
    pub drawn: usize,
    /// Borders not drawn: no shared edge between the two spaces' main pieces, and no
    /// crossing declared by a `strait` or `junction` line.
    pub missing: Vec<(String, String)>,
    /// Of the drawn borders, those drawn as a junction's crossing.
    pub junctions: usize,
    /// `strait` and `junction` lines that name no border of the graph.
    pub not_borders: Vec<(String, String)>,
    /// Contacts the graph does not have, with their length in km: stretches of outline
    /// longer than [`CONTACT_KM`] within [`GAP_KM`] of each other (a shared edge, a
    /// diagonal of corners, a sliver of land outside play), impassable spaces aside.
    /// And a point of each (latitude, longitude).
    pub foreign: Vec<(String, String, f64, (f64, f64))>,
    /// Spaces whose `at=` anchor lies outside their shape.
    pub anchors_outside: Vec<String>,
    /// Land and coast spaces with less than 95% of their area on land (share on land).
    pub off_land: Vec<(String, f64)>,
    /// Seas with more than 5% of their area on land (share on land).
    pub sea_on_land: Vec<(String, f64)>,
    /// Spaces with no shape at all.
    pub no_shape: Vec<String>,
    /// The least share on land of any land or coast space.
    pub least_on_land: f64,
    /// Detached pieces of land spaces (warnings: the drawing agrees with the graph, but a
    /// player sees a patch of a space inside its neighbours).
    pub detached: Vec<Detached>,
}

impl DrawingReport {
    /// One line per error; empty when the drawing agrees with the graph.
    pub fn errors(&self) -> Vec<String> {
        let mut out = Vec::new();
        for s in &self.no_shape {
            out.push(format!("{s} has no shape"));
        }
        for (a, b) in &self.missing {
            out.push(format!("border {a}–{b} is not drawn"));
        }
        for (a, b) in &self.not_borders {
            out.push(format!("{a}–{b} is declared a strait or junction but is no border"));
        }
        for (a, b, km, (lat, lon)) in &self.foreign {
            out.push(format!(
                "{a} and {b} meet along {km:.0} km of outline (at {lat:.2},{lon:.2}), but the graph has no such border"
            ));
        }
        for s in &self.anchors_outside {
            out.push(format!("the anchor of {s} lies outside its shape"));
        }
        for (s, share) in &self.off_land {
            out.push(format!("{s} has only {:.1}% of its area on land", share * 100.0));
        }
        for (s, share) in &self.sea_on_land {
            out.push(format!("sea {s} has {:.1}% of its area on land", share * 100.0));
        }
        out
    }

    /// One line per detached piece.
    pub fn warnings(&self) -> Vec<String> {
        self.detached
            .iter()
            .map(|d| {
                let carries = if d.carries.is_empty() {
                    String::new()
                } else {
                    format!(", the only edge of {}", d.carries.join(", "))
                };
                format!(
                    "{} has a detached piece of {:.0} km² at {:.2},{:.2}{carries}",
                    d.space, d.km2, d.at.0, d.at.1
                )
            })
            .collect()
    }
}

impl std::fmt::Display for DrawingReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "borders drawn {} of {} ({} as junctions)",
            self.drawn, self.borders, self.junctions
        )?;
        writeln!(f, "contacts the graph lacks: {}", self.foreign.len())?;
        writeln!(f, "anchors outside their space: {}", self.anchors_outside.len())?;
        writeln!(
            f,
            "land spaces off land: {} (least on land {:.1}%); seas on land: {}",
            self.off_land.len(),
            self.least_on_land * 100.0,
            self.sea_on_land.len()
        )?;
        writeln!(f, "detached pieces of land spaces: {}", self.detached.len())
    }
}

type Key = (i64, i64, i64, i64);

fn quantise(x: f64) -> i64 {
    (x * 1e6).round() as i64
}

/// Kilometres between two nearby lon/lat points (flat-earth approximation, ample for
/// the short segments of a boundary).
fn km(a: geo::Coord<f64>, b: geo::Coord<f64>) -> f64 {
    let lat = ((a.y + b.y) / 2.0).to_radians();
    let dx = (b.x - a.x) * lat.cos() * 111.32;
    let dy = (b.y - a.y) * 110.57;
    (dx * dx + dy * dy).sqrt()
}

/// A piece of a space: its index among the shapes and the polygon's among its pieces.
type Piece = (usize, usize);

/// Length of boundary each pair of pieces shares (segments with the same two ends).
fn shared_lengths(shapes: &Shapes) -> HashMap<(Piece, Piece), f64> {
    let mut owners: HashMap<Key, Vec<Piece>> = HashMap::new();
    let mut length: HashMap<Key, f64> = HashMap::new();
    for (si, s) in shapes.spaces.iter().enumerate() {
        for (pi, polygon) in s.geometry.0.iter().enumerate() {
            for ring in std::iter::once(polygon.exterior()).chain(polygon.interiors()) {
                for seg in ring.0.windows(2) {
                    let (a, b) = (seg[0], seg[1]);
                    let (qa, qb) = ((quantise(a.x), quantise(a.y)), (quantise(b.x), quantise(b.y)));
                    if qa == qb {
                        continue;
                    }
                    let (p, q) = if qa < qb { (qa, qb) } else { (qb, qa) };
                    let key = (p.0, p.1, q.0, q.1);
                    let list = owners.entry(key).or_default();
                    if !list.contains(&(si, pi)) {
                        list.push((si, pi));
                    }
                    length.insert(key, km(a, b));
                }
            }
        }
    }
    let mut out: HashMap<(Piece, Piece), f64> = HashMap::new();
    for (key, list) in owners {
        for (i, &a) in list.iter().enumerate() {
            for &b in &list[i + 1..] {
                if a.0 != b.0 {
                    *out.entry((a.min(b), a.max(b))).or_default() += length[&key];
                }
            }
        }
    }
    out
}

/// The pieces' shared lengths summed per pair of spaces.
fn per_space(shapes: &Shapes, pieces: &HashMap<(Piece, Piece), f64>) -> HashMap<(ProvinceId, ProvinceId), f64> {
    let mut out: HashMap<(ProvinceId, ProvinceId), f64> = HashMap::new();
    for (&(a, b), &l) in pieces {
        let (a, b) = (shapes.spaces[a.0].province, shapes.spaces[b.0].province);
        *out.entry((a.min(b), a.max(b))).or_default() += l;
    }
    out
}

/// A contact between two spaces, from `contacts`: its length and a point of it.
#[derive(Clone, Copy, Debug, Default)]
struct Contact {
    km: f64,
    /// Latitude and longitude of the sample nearest the other space.
    at: (f64, f64),
}

/// For each pair of spaces, the length of outline of one lying within [`GAP_KM`] of the
/// other's (the longer of the two ways round), unless water lies between: a sample of one
/// space's outline counts as against another's unless a third space nearer to it is a
/// sea (a strait drawn as water between two lands, or a sea between a land and another
/// sea), or, between two seas, a land. A thin strip of a third land space between two
/// lands is no parting a player sees, so it counts unless wider than [`GAP_KM`].
/// Every outline is sampled every [`SAMPLE_KM`], the samples put in buckets a tenth of
/// a degree high, and each sample looks at the buckets within reach.
fn contacts(variant: &Variant, shapes: &Shapes) -> HashMap<(ProvinceId, ProvinceId), Contact> {
    let terrain = |p: ProvinceId| variant.province(p).terrain;
    // (space, lon, lat, length of outline the sample stands for)
    let mut samples: Vec<(ProvinceId, f64, f64, f64)> = Vec::new();
    // Outlines along the frame are the map's edge, not borders: two spaces that both end
    // there (1936's Egypt and Atlantic at 21° N) run side by side along it for a while.
    let f = shapes.frame;
    let on_edge = |lon: f64, lat: f64| {
        let lat_km = |d: f64| d.abs() * 110.57;
        let lon_km = |d: f64| d.abs() * 111.32 * lat.to_radians().cos();
        lat_km(lat - f.south).min(lat_km(f.north - lat)) < FRAME_KM
            || lon_km(lon - f.west).min(lon_km(f.east - lon)) < FRAME_KM
    };
    for s in &shapes.spaces {
        if terrain(s.province) == Terrain::Impassable {
            continue;
        }
        for polygon in &s.geometry.0 {
            for ring in std::iter::once(polygon.exterior()).chain(polygon.interiors()) {
                for seg in ring.0.windows(2) {
                    let (a, b) = (seg[0], seg[1]);
                    let l = km(a, b);
                    let n = (l / SAMPLE_KM).ceil().max(1.0) as usize;
                    for k in 0..n {
                        let t = (k as f64 + 0.5) / n as f64;
                        let (lon, lat) = (a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
                        if !on_edge(lon, lat) {
                            samples.push((s.province, lon, lat, l / n as f64));
                        }
                    }
                }
            }
        }
    }
    const BUCKET_DEG: f64 = 0.1;
    let key = |lon: f64, lat: f64| ((lon / BUCKET_DEG).floor() as i64, (lat / BUCKET_DEG).floor() as i64);
    let mut buckets: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, &(_, lon, lat, _)) in samples.iter().enumerate() {
        buckets.entry(key(lon, lat)).or_default().push(i);
    }
    let sea = |p: ProvinceId| terrain(p) == Terrain::Sea;
    let mut near: HashMap<(ProvinceId, ProvinceId), Contact> = HashMap::new();
    // The nearest sample of each other space within reach, and its distance.
    let mut nearest: Vec<(ProvinceId, f64)> = Vec::new();
    for &(p, lon, lat, l) in &samples {
        let (bx, by) = key(lon, lat);
        let reach_lat = (GAP_KM / (110.57 * BUCKET_DEG)).ceil() as i64;
        let reach_lon = (GAP_KM / (111.32 * BUCKET_DEG * lat.to_radians().cos().max(0.05))).ceil() as i64;
        nearest.clear();
        for dy in -reach_lat..=reach_lat {
            for dx in -reach_lon..=reach_lon {
                let Some(list) = buckets.get(&(bx + dx, by + dy)) else {
                    continue;
                };
                for &j in list {
                    let (q, qlon, qlat, _) = samples[j];
                    if q == p {
                        continue;
                    }
                    let d = km(geo::Coord { x: lon, y: lat }, geo::Coord { x: qlon, y: qlat });
                    if d > GAP_KM {
                        continue;
                    }
                    match nearest.iter_mut().find(|(x, _)| *x == q) {
                        Some((_, e)) => *e = e.min(d),
                        None => nearest.push((q, d)),
                    }
                }
            }
        }
        for &(q, d) in &nearest {
            let parted = nearest
                .iter()
                .any(|&(c, dc)| c != q && dc < d && if sea(p) && sea(q) { !sea(c) } else { sea(c) });
            if parted {
                continue;
            }
            let e = near.entry((p, q)).or_default();
            e.km += l;
            e.at = (lat, lon);
        }
    }
    let mut out: HashMap<(ProvinceId, ProvinceId), Contact> = HashMap::new();
    for (&(p, q), &c) in &near {
        let e = out.entry((p.min(q), p.max(q))).or_default();
        if c.km > e.km {
            *e = c;
        }
    }
    out
}

/// Square kilometres of a lon/lat polygon (its area in square degrees, scaled at its
/// latitude: ample for the size of a patch).
fn km2(polygon: &Polygon<f64>) -> f64 {
    let lat = polygon.exterior().0.first().map_or(0.0, |c| c.y);
    polygon.unsigned_area() * 111.32 * 110.57 * lat.to_radians().cos()
}

/// The detached pieces of land spaces: every piece but the one holding the anchor (the
/// largest when none does) that shares an edge with another land space.
fn detached_pieces(variant: &Variant, shapes: &Shapes, pieces: &HashMap<(Piece, Piece), f64>) -> Vec<Piece> {
    let land = |si: usize| {
        matches!(
            variant.province(shapes.spaces[si].province).terrain,
            Terrain::Land | Terrain::Coast
        )
    };
    let main: Vec<usize> = shapes
        .spaces
        .iter()
        .map(|s| {
            let polygons = &s.geometry.0;
            let anchor = variant.province(s.province).at.map(|(lat, lon)| Point::new(lon, lat));
            anchor
                .and_then(|a| polygons.iter().position(|p| p.intersects(&a)))
                .unwrap_or_else(|| {
                    (0..polygons.len())
                        .max_by(|&i, &j| polygons[i].unsigned_area().total_cmp(&polygons[j].unsigned_area()))
                        .unwrap_or(0)
                })
        })
        .collect();
    let mut out = Vec::new();
    for (si, s) in shapes.spaces.iter().enumerate() {
        if !land(si) {
            continue;
        }
        for pi in 0..s.geometry.0.len() {
            let piece = (si, pi);
            let among_land = pieces
                .iter()
                .any(|(&(a, b), &l)| l > EDGE_KM && (a == piece && land(b.0) || b == piece && land(a.0)));
            if pi != main[si] && among_land {
                out.push(piece);
            }
        }
    }
    out
}

/// The detached pieces with their areas and the borders drawn only through them (pieces
/// under `DETACHED_KM2` that carry no border are left out as steps of the grid).
fn detached(
    variant: &Variant,
    graph: &Graph,
    shapes: &Shapes,
    pieces: &HashMap<(Piece, Piece), f64>,
    apart: &[Piece],
) -> Vec<Detached> {
    // For each border of the graph, the pieces whose edges draw it.
    let mut drawn_by: HashMap<(ProvinceId, ProvinceId), Vec<Piece>> = HashMap::new();
    for (&(a, b), &l) in pieces {
        if l <= EDGE_KM {
            continue;
        }
        let (pa, pb) = (shapes.spaces[a.0].province, shapes.spaces[b.0].province);
        let list = drawn_by.entry((pa.min(pb), pa.max(pb))).or_default();
        list.extend([a, b]);
    }
    let borders: std::collections::HashSet<(ProvinceId, ProvinceId)> = graph.borders().into_iter().collect();
    let mut out = Vec::new();
    for &piece in apart {
        let (si, pi) = piece;
        let s = &shapes.spaces[si];
        let polygon = &s.geometry.0[pi];
        let mut carries: Vec<String> = drawn_by
            .iter()
            .filter(|(&(a, b), list)| {
                borders.contains(&(a, b)) && (a == s.province || b == s.province) && {
                    // Drawn only by this piece of this space.
                    list.iter()
                        .filter(|p| shapes.spaces[p.0].province == s.province)
                        .all(|p| *p == piece)
                }
            })
            .map(|(&(a, b), _)| format!("{}–{}", variant.province(a).abbr, variant.province(b).abbr))
            .collect();
        carries.sort();
        let area = km2(polygon);
        if carries.is_empty() && area < DETACHED_KM2 {
            continue;
        }
        let c = polygon
            .exterior()
            .0
            .first()
            .copied()
            .unwrap_or(geo::Coord { x: 0.0, y: 0.0 });
        out.push(Detached {
            space: variant.province(s.province).abbr.clone(),
            km2: area,
            at: (c.y, c.x),
            carries,
        });
    }
    out
}

/// Share of a shape's area that lies on Natural Earth's land.
pub fn share_on_land(geometry: &MultiPolygon<f64>) -> f64 {
    let Some(b) = geometry.bounding_rect() else { return 0.0 };
    // Both areas through the same boolean operations, so a ring that touches itself is
    // read the same way in each.
    let total = geometry
        .intersection(&MultiPolygon(vec![b.to_polygon()]))
        .unsigned_area();
    if total <= 0.0 {
        return 0.0;
    }
    geometry.intersection(&land::land_near(geometry)).unsigned_area() / total
}

/// Measures a drawing against the variant's graph.
pub fn check(variant: &Variant, shapes: &Shapes) -> DrawingReport {
    let graph = Graph::new(variant);
    let pieces = shared_lengths(shapes);
    // A border counts as drawn only between the spaces' main pieces (or islands of their
    // own): one drawn only through a patch of a space inside its neighbours is not one a
    // player can see.
    let apart = detached_pieces(variant, shapes, &pieces);
    let between_main: HashMap<(Piece, Piece), f64> = pieces
        .iter()
        .filter(|(&(a, b), _)| !apart.contains(&a) && !apart.contains(&b))
        .map(|(&k, &l)| (k, l))
        .collect();
    let drawn_edges = per_space(shapes, &between_main);
    let abbr = |p: ProvinceId| variant.province(p).abbr.clone();
    let mut report = DrawingReport {
        least_on_land: 1.0,
        ..Default::default()
    };
    let pair = |list: &[(ProvinceId, ProvinceId)], a: ProvinceId, b: ProvinceId| {
        list.iter().any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
    };
    let declared = |a, b| pair(&variant.straits, a, b) || pair(&variant.junctions, a, b);
    for &(a, b) in variant.straits.iter().chain(&variant.junctions) {
        if !graph.may_touch(a, b) || a == b {
            report.not_borders.push((abbr(a), abbr(b)));
        }
    }
    for (a, b) in graph.borders() {
        report.borders += 1;
        let edge = drawn_edges.get(&(a, b)).is_some_and(|&l| l > EDGE_KM);
        let crossing = declared(a, b)
            && shapes
                .crossings
                .iter()
                .any(|c| (c.a, c.b) == (a, b) || (c.b, c.a) == (a, b));
        if pair(&variant.junctions, a, b) && crossing {
            report.junctions += 1;
        }
        if edge || crossing {
            report.drawn += 1;
        } else {
            report.missing.push((abbr(a), abbr(b)));
        }
    }
    let mut foreign: Vec<_> = contacts(variant, shapes)
        .into_iter()
        .filter(|&((a, b), c)| c.km > CONTACT_KM && !graph.may_touch(a, b))
        .collect();
    foreign.sort_by_key(|&((a, b), _)| (a, b));
    report.foreign = foreign
        .into_iter()
        .map(|((a, b), c)| (abbr(a), abbr(b), c.km, c.at))
        .collect();
    for (i, p) in variant.provinces.iter().enumerate() {
        let Some(shape) = shapes.space(i as ProvinceId) else {
            report.no_shape.push(p.abbr.clone());
            continue;
        };
        if let Some((lat, lon)) = p.at {
            if !shape.geometry.intersects(&Point::new(lon, lat)) {
                report.anchors_outside.push(p.abbr.clone());
            }
        }
        match p.terrain {
            Terrain::Land | Terrain::Coast => {
                let share = share_on_land(&shape.geometry);
                report.least_on_land = report.least_on_land.min(share);
                if share < ON_LAND {
                    report.off_land.push((p.abbr.clone(), share));
                }
            }
            Terrain::Sea => {
                let share = share_on_land(&shape.geometry);
                if share > 1.0 - ON_LAND {
                    report.sea_on_land.push((p.abbr.clone(), share));
                }
            }
            Terrain::Impassable => {}
        }
    }
    report.detached = detached(variant, &graph, shapes, &pieces, &apart);
    report
}
