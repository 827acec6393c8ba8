//! Chancery's map renderer: draws any variant's board as SVG from the variant's real
//! geography (one shape per space in longitude and latitude), with a position, and
//! optionally the orders and results of one phase.
//!
//! No I/O: the caller gets a `String`. Build a [`MapGeometry`] once per variant (it
//! projects the shapes and places every marker and name) and call [`render_with`] for
//! each picture. The legend is data ([`legend()`]) for the page to show beside the map.
//!
//! The SVG carries `data-` attributes (`data-space`, `data-power`, `data-unit`) on
//! spaces, units and orders so that a page can make them clickable without parsing
//! coordinates.

mod base_map;
mod cache;
mod error;
mod geom;
mod geometry;
mod labels;
mod legend;
mod orders;
#[cfg(feature = "png")]
pub mod png;
mod projection;
mod render;
mod scene;
mod shapes;
mod style;
mod units;

pub use cache::fingerprint;
pub use error::RenderError;
pub use geom::Pt;
pub use geometry::{MapGeometry, WIDTH};
pub use legend::{legend, KeyEntry, Legend, LegendGroup, LegendPower};
pub use render::{render_orders, render_with};
pub use scene::{Labels, RenderOptions};
pub use shapes::shapes_of;
