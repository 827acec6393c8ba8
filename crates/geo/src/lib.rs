//! The board on the real geography of Europe: every space of a variant shaped from
//! Natural Earth's land (committed in `geodata/`, compiled in), the variant's anchors and
//! its graph, and a check that a drawing agrees with the graph.
//!
//! - [`shape`] makes a variant's [`Shapes`] (the generator, deterministic; also used on
//!   the fly for uploaded variants that come without shapes).
//! - [`builtin_shapes`] gives the committed shapes of a built-in variant, read with
//!   [`Shapes::from_geojson`] and written with [`Shapes::to_geojson`] (RFC 7946).
//! - [`check`] measures a drawing against the graph (`chancery lint`).
//!
//! Coordinates are WGS84 longitude/latitude (x = longitude, y = latitude), as GeoJSON has
//! them; the renderer chooses its own projection.

mod check;
mod geojson_io;
mod graph;
mod grid;
mod land;
mod projection;
mod trace;

use chancery_engine::{ProvinceId, Variant};
use geo::{LineString, MultiPolygon};

pub use check::{check, share_on_land, DrawingReport};

/// The part of the globe a variant's board shows, in degrees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub west: f64,
    pub south: f64,
    pub east: f64,
    pub north: f64,
}

/// The drawn shape of one space.
#[derive(Clone, Debug)]
pub struct SpaceShape {
    pub province: ProvinceId,
    pub geometry: MultiPolygon<f64>,
}

/// A border of the graph drawn as a short line between two spaces rather than as a shared
/// edge: across a strait (declared with `strait A B` in the variant file), or where the
/// generator could not make the two shapes meet (which `check` reports).
#[derive(Clone, Debug)]
pub struct Crossing {
    pub a: ProvinceId,
    pub b: ProvinceId,
    pub line: LineString<f64>,
}

/// Every space's shape, the crossings, and the land inside the frame that belongs to no
/// space (drawn as impassable).
#[derive(Clone, Debug)]
pub struct Shapes {
    pub frame: Frame,
    pub spaces: Vec<SpaceShape>,
    pub crossings: Vec<Crossing>,
    pub outside: MultiPolygon<f64>,
}

impl Shapes {
    /// The shape of a space, if it has one.
    pub fn space(&self, province: ProvinceId) -> Option<&SpaceShape> {
        self.spaces.iter().find(|s| s.province == province)
    }

    /// Reads shapes written by [`Shapes::to_geojson`] (or any FeatureCollection whose
    /// features carry the variant's abbreviations in `abbr`).
    pub fn from_geojson(variant: &Variant, text: &str) -> Result<Shapes, String> {
        geojson_io::read(variant, text)
    }

    /// The RFC 7946 FeatureCollection: one feature per space (`abbr`, `name`, `terrain`),
    /// then the crossings (`kind: "crossing"`) and the land outside play
    /// (`kind: "outside"`).
    pub fn to_geojson(&self, variant: &Variant) -> String {
        geojson_io::write(self, variant)
    }

    /// The shapes for a reader of the geography rather than for the drawing: each sea
    /// with Natural Earth's land cut out (land outside play such as Iceland or the
    /// Faroes, islands smaller than the generator's cells, the steps of its coast), so
    /// that no sea lies over land (`map.geojson`, `chancery map --geojson`). The drawing
    /// keeps the seas on the grid, where sea and coast share their edges exactly.
    pub fn with_seas_cut(&self, variant: &Variant) -> Shapes {
        let mut out = self.clone();
        for s in &mut out.spaces {
            if variant.province(s.province).terrain == chancery_engine::variant::Terrain::Sea {
                s.geometry = land::without_land(&s.geometry);
            }
        }
        out
    }
}

/// How finely to shape.
#[derive(Clone, Debug)]
pub struct Options {
    /// Side of a grid cell in kilometres: smaller is finer and slower. The committed
    /// shapes use the default; an uploaded variant may be shaped coarser.
    pub cell_km: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options { cell_km: 4.0 }
    }
}

/// Why a variant could not be shaped.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeError {
    /// A space has no `at=` anchor, so nothing says where it is.
    NoAnchor(String),
    /// The options make no sense (a cell size that is not a positive number of km).
    BadOptions(String),
    /// The anchors span more of the globe than the committed land covers.
    OutsideData(String),
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeError::NoAnchor(abbr) => write!(f, "space `{abbr}` has no at= anchor to shape it from"),
            ShapeError::BadOptions(why) => write!(f, "bad shaping options: {why}"),
            ShapeError::OutsideData(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ShapeError {}

/// Shapes the variant's spaces on the committed geography. Deterministic: the same
/// variant and options give the same shapes.
pub fn shape(variant: &Variant, options: &Options) -> Result<Shapes, ShapeError> {
    let labelled = grid::label(variant, options)?;
    let traced = trace::trace(&labelled.grid, &labelled.labels, variant.provinces.len());
    let spaces = traced
        .spaces
        .into_iter()
        .enumerate()
        .filter(|(_, g)| !g.0.is_empty())
        .map(|(p, geometry)| SpaceShape {
            province: p as ProvinceId,
            geometry,
        })
        .collect();
    Ok(Shapes {
        frame: labelled.frame,
        spaces,
        crossings: labelled.crossings,
        outside: traced.outside,
    })
}

/// The committed shapes of a built-in variant (`variants/NAME.shapes.geojson`).
pub fn builtin_shapes(name: &str) -> Option<&'static str> {
    const SHAPES: &[(&str, &str)] = &[
        ("standard", include_str!("../../../variants/standard.shapes.geojson")),
        ("1936", include_str!("../../../variants/1936.shapes.geojson")),
        ("1648", include_str!("../../../variants/1648.shapes.geojson")),
        (
            "original-1958",
            include_str!("../../../variants/original-1958.shapes.geojson"),
        ),
    ];
    SHAPES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, text)| *text)
}
