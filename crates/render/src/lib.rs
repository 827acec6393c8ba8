//! Chancery's map renderer: draws any variant's board as SVG from the variant's own
//! data, with a position, and optionally the orders and results of one phase.
//!
//! No I/O: the caller gets a `String`. Build a [`MapGeometry`] once per variant and
//! call [`render_with`] for each picture; [`render_svg`] does both for one-off use.
//!
//! The SVG carries `data-` attributes (`data-space`, `data-power`, `data-unit`) on
//! spaces, units and orders so that a page can make them clickable without parsing
//! coordinates.

mod board;
mod geom;
mod geometry;
mod layout;
mod legend;
mod orders;
mod render;
mod style;
mod units;
mod voronoi;

pub use geom::Pt;
pub use geometry::{BorderKind, MapGeometry};
pub use render::{render_svg, render_with, Labels, RenderError, RenderOptions};
