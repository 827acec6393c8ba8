//! The drawing of a variant's board that does not change between positions: each
//! space's shape projected to the picture and written as SVG path data, where its
//! unit, centre and name go, and where a fleet on each of its coasts sits. Built once
//! per variant and reused for every render, so that drawing a position is little more
//! than copying strings.
//!
//! The shapes are the variant's real geography in longitude and latitude, made by
//! `chancery_geo` from Natural Earth; this module projects them ([`crate::projection`]), scales them to
//! [`WIDTH`] pixels, simplifies them to what the eye can see at that size, and finds
//! each space's pole of inaccessibility (`polylabel`): the point inside it farthest
//! from its edge, where a unit fits best.

use std::fmt::Write;
use std::sync::{Arc, Mutex, OnceLock};

use chancery_engine::variant::Terrain;
use chancery_engine::{Location, Variant};
use geo::{Area, BoundingRect, Contains, Coord, MapCoordsInPlace, MultiPolygon, Point, Polygon, Rect, Simplify};

use crate::cache::{fingerprint, Kept};
use crate::geom::{edge_distance, Pt};
use crate::labels;
use crate::projection::{Lens, Projection};
use crate::RenderError;
use chancery_geo::Shapes;

/// The width of the map in pixels (SVG user units). At this width on the screen the
/// smallest spaces of 1648 and 1936 in central Europe still hold a unit and a name.
pub const WIDTH: f64 = 1400.0;
const MARGIN: f64 = 4.0;
/// Detail finer than this many pixels is dropped from the outlines.
const SIMPLIFY: f64 = 0.8;
/// Islets smaller than this many square pixels are left out of a space's shape (its
/// largest piece always stays): below what the map can draw at its own scale. Natural
/// Earth's skerries and the slivers clipping leaves were about 1,900 of the 2,700 rings
/// on 1648's board and a third of its path data.
const MIN_ISLET: f64 = 0.5;

/// The precomputed drawing of one variant's board.
#[derive(Clone, Debug)]
pub struct MapGeometry {
    pub(crate) variant_id: String,
    pub(crate) province_count: usize,
    /// Size of the map in pixels.
    pub width: f64,
    pub height: f64,
    /// Each space's shape in pixels.
    pub(crate) shapes: Vec<MultiPolygon<f64>>,
    /// Each space's shape as SVG path data.
    pub(crate) paths: Vec<String>,
    pub(crate) outside_path: String,
    /// The lakes inside the land (holes in land spaces), drawn as water.
    pub(crate) lakes_path: String,
    /// Each crossing (a strait or a junction) as SVG path data.
    pub(crate) crossings: String,
    /// Where a space's unit stands: its pole of inaccessibility.
    pub(crate) anchors: Vec<Pt>,
    /// Where a supply centre's marker goes, beside the unit.
    pub(crate) centre_points: Vec<Pt>,
    /// Per space, per coast (index = coast - 1): where a fleet on that coast is drawn.
    pub(crate) coast_points: Vec<Vec<Pt>>,
    /// Per space, per coast: where the coast's name (`nc`) is written, beyond its fleet.
    pub(crate) coast_labels: Vec<Vec<Pt>>,
    /// Where each space's abbreviation and each full name is written (middle of the
    /// baseline), kept clear of each other and of the markers.
    pub(crate) abbr_labels: Vec<Pt>,
    pub(crate) name_labels: Vec<Pt>,
}

impl MapGeometry {
    /// Shapes `v` and prepares its drawing. Slow for a variant without committed shapes
    /// (it is shaped here): keep the result, or use [`MapGeometry::cached`].
    pub fn new(v: &Variant) -> Result<MapGeometry, RenderError> {
        MapGeometry::from_shapes(v, &crate::shapes::shapes_of(v)?)
    }

    /// The prepared drawing of `v`, made on first use and shared after (the key is
    /// the variant's content, `cache::fingerprint`, never its name).
    pub fn cached(v: &Variant) -> Result<Arc<MapGeometry>, RenderError> {
        static DRAWINGS: OnceLock<Mutex<Kept<MapGeometry>>> = OnceLock::new();
        let store = DRAWINGS.get_or_init(Mutex::default);
        Kept::get_or_make(store, fingerprint(v), || MapGeometry::new(v))
    }

    /// Projects and prepares the shapes of `v`.
    pub fn from_shapes(v: &Variant, g: &Shapes) -> Result<MapGeometry, RenderError> {
        let n = v.provinces.len();
        let mut shapes = vec![MultiPolygon(Vec::new()); n];
        for s in &g.spaces {
            if let Some(slot) = shapes.get_mut(s.province as usize) {
                *slot = s.geometry.clone();
            }
        }
        if let Some(i) = shapes.iter().position(|s| s.0.is_empty()) {
            return Err(RenderError::Shapes(format!("{} has no shape", v.provinces[i].abbr)));
        }
        let f = g.frame;
        let projection = Projection::for_frame(Rect::new(
            Coord { x: f.west, y: f.south },
            Coord { x: f.east, y: f.north },
        ));
        for s in &mut shapes {
            projection.shape(s);
        }
        let mut outside = g.outside.clone();
        projection.shape(&mut outside);
        let lens = lens_for(v, &projection, &shapes);
        for s in &mut shapes {
            s.map_coords_in_place(|c| lens.apply(c));
        }
        outside.map_coords_in_place(|c| lens.apply(c));

        let bounds = bounds(&shapes).ok_or_else(|| RenderError::Shapes("no space has a shape".into()))?;
        let scale = (WIDTH - 2.0 * MARGIN) / bounds.width().max(1e-9);
        let height = (bounds.height() * scale + 2.0 * MARGIN).ceil();
        // Metres (y north) to pixels (y down).
        let to_px = |c: Coord<f64>| Coord {
            x: (c.x - bounds.min().x) * scale + MARGIN,
            y: (bounds.max().y - c.y) * scale + MARGIN,
        };
        for s in &mut shapes {
            s.map_coords_in_place(to_px);
            *s = without_specks(s.simplify(SIMPLIFY));
        }
        outside.map_coords_in_place(to_px);
        let outside = without_specks(outside.simplify(SIMPLIFY));
        let mut crossings = String::new();
        for c in &g.crossings {
            for (k, p) in c.line.coords().enumerate() {
                let q = to_px(lens.apply(projection.point(*p)));
                let _ = write!(crossings, "{}{:.1} {:.1}", if k == 0 { 'M' } else { 'L' }, q.x, q.y);
            }
        }

        let mut anchors: Vec<Pt> = shapes.iter().map(pole).collect();
        spread(&shapes, &mut anchors);
        let centre_points = shapes
            .iter()
            .zip(&anchors)
            .map(|(s, a)| centre_point(s, *a))
            .collect::<Vec<_>>();
        let coast_points = coast_points(v, &shapes, &anchors);
        let coast_labels: Vec<Vec<Pt>> = coast_points
            .iter()
            .zip(&anchors)
            .map(|(coasts, a)| {
                coasts
                    .iter()
                    .map(|p| {
                        let dir = (*p - *a).unit();
                        let dir = if dir.len() == 0.0 { Pt::new(0.0, 1.0) } else { dir };
                        *p + dir * (crate::style::UNIT_R + 8.0) + Pt::new(0.0, 4.0)
                    })
                    .collect()
            })
            .collect();
        let (abbr_labels, name_labels) =
            labels::place(v, &shapes, &anchors, &centre_points, &coast_points, &coast_labels);
        let lakes = MultiPolygon(
            v.provinces
                .iter()
                .zip(&shapes)
                .filter(|(p, _)| !p.is_sea())
                .flat_map(|(_, s)| s.0.iter())
                .chain(outside.0.iter())
                .flat_map(|poly| poly.interiors().iter().cloned())
                .map(|ring| Polygon::new(ring, vec![]))
                .collect(),
        );
        Ok(MapGeometry {
            lakes_path: path_data(&lakes),
            variant_id: v.id.clone(),
            province_count: n,
            width: WIDTH,
            height,
            paths: shapes.iter().map(path_data).collect(),
            outside_path: path_data(&outside),
            shapes,
            crossings,
            anchors,
            centre_points,
            coast_points,
            coast_labels,
            abbr_labels,
            name_labels,
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

    /// Where a space's unit stands, in map pixels.
    pub fn anchor(&self, province: usize) -> Pt {
        self.anchors[province]
    }

    /// Whether a point of the picture lies inside a space's shape.
    pub fn contains(&self, province: usize, at: Pt) -> bool {
        self.shapes[province].contains(&Point::new(at.x, at.y))
    }

    /// The distance from a point inside a space to the nearest edge of its shape.
    pub fn room(&self, province: usize, at: Pt) -> f64 {
        edge_distance(&self.shapes[province], at)
    }
}

/// `shape` without its pieces and holes under [`MIN_ISLET`] square pixels, keeping
/// the largest piece whatever its size (a space always has a shape).
fn without_specks(shape: MultiPolygon<f64>) -> MultiPolygon<f64> {
    let largest = shape.0.iter().map(|p| p.unsigned_area()).fold(0.0, f64::max);
    let big = |ring: &geo::LineString<f64>| Polygon::new(ring.clone(), vec![]).unsigned_area() >= MIN_ISLET;
    MultiPolygon(
        shape
            .0
            .into_iter()
            .filter(|p| {
                let a = p.unsigned_area();
                a >= MIN_ISLET || a == largest
            })
            .map(|p| {
                let (outer, holes) = p.into_inner();
                Polygon::new(outer, holes.into_iter().filter(|h| big(h)).collect())
            })
            .collect(),
    )
}

/// The bounding box of all the shapes.
fn bounds(shapes: &[MultiPolygon<f64>]) -> Option<Rect<f64>> {
    shapes.iter().filter_map(BoundingRect::bounding_rect).reduce(|a, b| {
        Rect::new(
            Coord {
                x: a.min().x.min(b.min().x),
                y: a.min().y.min(b.min().y),
            },
            Coord {
                x: a.max().x.max(b.max().x),
                y: a.max().y.max(b.max().y),
            },
        )
    })
}

/// How far apart, in pixels, the anchors of neighbouring spaces should be for each to
/// hold a unit and a name.
const ROOM: f64 = 44.0;
/// The most the lens magnifies the middle against the rim.
const MAX_LENS: f64 = 2.0;

/// The lens for a crowded map: centred on the median of the anchors (where the spaces
/// crowd), strong enough that the typical distance from an anchor to its nearest
/// neighbour becomes [`ROOM`] pixels, or none when the map already has room.
fn lens_for(v: &Variant, projection: &Projection, shapes: &[MultiPolygon<f64>]) -> Lens {
    let pts: Vec<Coord<f64>> = v
        .provinces
        .iter()
        .filter_map(|p| p.at)
        .map(|(lat, lon)| projection.point(Coord { x: lon, y: lat }))
        .collect();
    let Some(b) = bounds(shapes) else {
        return Lens::none();
    };
    if pts.len() < 3 || b.width() <= 0.0 {
        return Lens::none();
    }
    let median = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs[xs.len() / 2]
    };
    let centre = Coord {
        x: median(pts.iter().map(|p| p.x).collect()),
        y: median(pts.iter().map(|p| p.y).collect()),
    };
    let rim = [
        b.min(),
        b.max(),
        Coord {
            x: b.min().x,
            y: b.max().y,
        },
        Coord {
            x: b.max().x,
            y: b.min().y,
        },
    ]
    .iter()
    .map(|c| ((c.x - centre.x).powi(2) + (c.y - centre.y).powi(2)).sqrt())
    .fold(0.0, f64::max);
    let nearest: Vec<f64> = pts
        .iter()
        .map(|p| {
            pts.iter()
                .map(|q| ((p.x - q.x).powi(2) + (p.y - q.y).powi(2)).sqrt())
                .filter(|d| *d > 0.0)
                .fold(f64::INFINITY, f64::min)
        })
        .filter(|d| d.is_finite())
        .collect();
    if nearest.is_empty() || rim <= 0.0 {
        return Lens::none();
    }
    let px = median(nearest) * (WIDTH - 2.0 * MARGIN) / b.width();
    Lens {
        centre,
        rim,
        a: (ROOM / px.max(1e-9) - 1.0).clamp(0.0, MAX_LENS),
    }
}

/// The pole of inaccessibility of a shape's largest part, where its unit stands.
fn pole(shape: &MultiPolygon<f64>) -> Pt {
    let Some(main) = shape
        .0
        .iter()
        .max_by(|a, b| a.unsigned_area().total_cmp(&b.unsigned_area()))
    else {
        return Pt::new(0.0, 0.0);
    };
    match polylabel::polylabel(main, &0.5) {
        Ok(p) => Pt::new(p.x(), p.y()),
        Err(_) => {
            let r = main.bounding_rect().map(|r| r.center()).unwrap_or_default();
            Pt::new(r.x, r.y)
        }
    }
}

/// Where small spaces crowd, neighbouring units would overlap at their poles: each
/// pair too close is pushed apart, a step at a time, as far as both stay inside their
/// own spaces.
fn spread(shapes: &[MultiPolygon<f64>], anchors: &mut [Pt]) {
    let want = 2.0 * crate::style::UNIT_R + 3.0;
    for _ in 0..8 {
        let mut moved = false;
        for i in 0..anchors.len() {
            for j in i + 1..anchors.len() {
                let d = anchors[i].dist(anchors[j]);
                if d >= want || d < 1e-6 {
                    continue;
                }
                let dir = (anchors[j] - anchors[i]).unit();
                let step = dir * ((want - d) * 0.3);
                for (k, delta) in [(i, step * -1.0), (j, step)] {
                    let to = anchors[k] + delta;
                    if shapes[k].contains(&Point::new(to.x, to.y)) && edge_distance(&shapes[k], to) >= 3.0 {
                        anchors[k] = to;
                        moved = true;
                    }
                }
            }
        }
        if !moved {
            break;
        }
    }
}

/// Where a supply centre's marker goes: beside the unit, on the side with the most
/// room, inside the space when it can be.
fn centre_point(shape: &MultiPolygon<f64>, unit: Pt) -> Pt {
    const OFFSETS: [(f64, f64); 8] = [
        (-1.0, -1.0),
        (1.0, -1.0),
        (0.0, -1.3),
        (-1.3, 0.0),
        (1.3, 0.0),
        (-1.0, 1.0),
        (1.0, 1.0),
        (0.0, 1.3),
    ];
    let step = crate::style::UNIT_R + 4.0;
    OFFSETS
        .iter()
        .map(|&(dx, dy)| unit + Pt::new(dx, dy) * (step * 0.8))
        .map(|p| {
            let inside = shape.contains(&Point::new(p.x, p.y));
            let room = edge_distance(shape, p);
            (p, if inside { room } else { -room })
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(p, _)| p)
        .unwrap_or(unit)
}

/// A fleet on one coast of a split-coast space sits inside the space, near where it
/// meets the waters that coast reaches: the middle of the stretch of its outline that
/// touches those seas, moved a unit's width inwards.
fn coast_points(v: &Variant, shapes: &[MultiPolygon<f64>], anchors: &[Pt]) -> Vec<Vec<Pt>> {
    v.provinces
        .iter()
        .enumerate()
        .map(|(p, prov)| {
            (1..=prov.coasts.len() as u8)
                .map(|c| {
                    let neighbours: Vec<usize> = v
                        .fleet_neighbours(Location::new(p as u16, c))
                        .iter()
                        .map(|l| l.province as usize)
                        .collect();
                    // The coast's waters, not the land spaces along it: a coast's land
                    // neighbours (Finland from St Petersburg's south coast) may share a long
                    // frontier inland that would pull the fleet away from its sea.
                    let seas: Vec<usize> = neighbours
                        .iter()
                        .copied()
                        .filter(|&s| v.provinces[s].terrain == Terrain::Sea)
                        .collect();
                    let seas = if seas.is_empty() { neighbours } else { seas };
                    coast_point(&shapes[p], anchors[p], seas.iter().map(|&s| &shapes[s]))
                })
                .collect()
        })
        .collect()
}

fn coast_point<'a>(shape: &MultiPolygon<f64>, pole: Pt, seas: impl Iterator<Item = &'a MultiPolygon<f64>>) -> Pt {
    let seas: Vec<&MultiPolygon<f64>> = seas.collect();
    // The largest part of the space that meets one of the seas: small islands off a
    // coast (St Petersburg's in the Gulf of Finland) would pull the point offshore.
    let mut parts: Vec<&Polygon<f64>> = shape.0.iter().collect();
    parts.sort_by(|a, b| b.unsigned_area().total_cmp(&a.unsigned_area()));
    let touching: Vec<Pt> = parts
        .iter()
        .map(|poly| {
            poly.exterior()
                .coords()
                .map(|c| Pt::new(c.x, c.y))
                .filter(|&pt| seas.iter().any(|s| edge_distance(s, pt) < 2.0))
                .collect::<Vec<Pt>>()
        })
        .find(|t| !t.is_empty())
        .unwrap_or_default();
    if touching.is_empty() {
        return pole;
    }
    let mean = touching.iter().fold(Pt::new(0.0, 0.0), |s, p| s + *p) * (1.0 / touching.len() as f64);
    // The touching vertex nearest their middle (the mean itself may lie off the coast),
    // set a little inland; if that lands in a hole (Lake Ladoga behind St Petersburg's
    // shore) or outside, the next nearest vertex.
    let mut contacts = touching;
    contacts.sort_by(|a, b| a.dist(mean).total_cmp(&b.dist(mean)));
    contacts
        .into_iter()
        .map(|contact| {
            let inward = (pole - contact).unit();
            let depth = (contact.dist(pole) * 0.6).min(crate::style::UNIT_R * 1.6);
            contact + inward * depth
        })
        .find(|at| shape.contains(&Point::new(at.x, at.y)))
        .unwrap_or(pole)
}

/// SVG path data of a shape: one subpath per ring, so that holes (lakes) stay holes
/// under the even-odd fill rule.
fn path_data(shape: &MultiPolygon<f64>) -> String {
    let mut d = String::new();
    for poly in &shape.0 {
        for ring in std::iter::once(poly.exterior()).chain(poly.interiors()) {
            let pts = &ring.0;
            // A closed ring repeats its first point; Z closes it.
            let end = if pts.len() > 1 && pts.first() == pts.last() {
                pts.len() - 1
            } else {
                pts.len()
            };
            if end < 3 {
                continue;
            }
            // The first point absolute, the rest relative to the one before (one `l`,
            // its pairs repeated): on a board of thousands of short steps this writes
            // about half the characters. Whole tenths keep the sum exact.
            let mut last: Option<(i64, i64)> = None;
            for c in &pts[..end] {
                // Tenths of a pixel: finer than any screen, and short to write.
                let q = ((c.x * 10.0).round() as i64, (c.y * 10.0).round() as i64);
                match last {
                    None => {
                        let _ = write!(d, "M{} {}l", Tenths(q.0), Tenths(q.1));
                    }
                    Some(l) if l == q => continue,
                    Some(l) => {
                        for v in [q.0 - l.0, q.1 - l.1] {
                            // A minus sign separates numbers by itself.
                            if v >= 0 && !d.ends_with('l') {
                                d.push(' ');
                            }
                            let _ = write!(d, "{}", Tenths(v));
                        }
                    }
                }
                last = Some(q);
            }
            if d.ends_with('l') {
                d.pop();
            }
            d.push('Z');
        }
    }
    d
}

/// A length in tenths written as a decimal with at most one place.
struct Tenths(i64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, tenth) = (self.0 / 10, (self.0 % 10).abs());
        if tenth == 0 {
            write!(f, "{whole}")
        } else if self.0 < 0 && whole == 0 {
            write!(f, "-0.{tenth}")
        } else {
            write!(f, "{whole}.{tenth}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, side: f64) -> Polygon<f64> {
        Polygon::new(
            geo::LineString::from(vec![(x, y), (x + side, y), (x + side, y + side), (x, y + side), (x, y)]),
            vec![],
        )
    }

    #[test]
    fn islets_under_half_a_pixel_are_left_out_but_a_space_keeps_its_largest_piece() {
        let land = square(0.0, 0.0, 50.0);
        let shape = MultiPolygon(vec![land.clone(), square(60.0, 0.0, 0.6), square(70.0, 0.0, 0.8)]);
        let kept = without_specks(shape);
        // 0.36 px² goes, 0.64 px² stays.
        assert_eq!(kept.0.len(), 2);
        assert_eq!(kept.0[1], square(70.0, 0.0, 0.8));
        let tiny = MultiPolygon(vec![square(0.0, 0.0, 0.3), square(5.0, 0.0, 0.5)]);
        assert_eq!(without_specks(tiny).0, vec![square(5.0, 0.0, 0.5)]);
        // A hole under half a pixel is filled; a lake stays.
        let holed = Polygon::new(
            land.exterior().clone(),
            vec![
                square(10.0, 10.0, 0.5).exterior().clone(),
                square(20.0, 20.0, 5.0).exterior().clone(),
            ],
        );
        let kept = without_specks(MultiPolygon(vec![holed]));
        assert_eq!(kept.0[0].interiors(), &[square(20.0, 20.0, 5.0).exterior().clone()]);
    }

    #[test]
    fn tenths_are_written_short() {
        let s = |v| Tenths(v).to_string();
        assert_eq!(s(125), "12.5");
        assert_eq!(s(120), "12");
        assert_eq!(s(-5), "-0.5");
        assert_eq!(s(-15), "-1.5");
    }
}
