//! What the drawing layers share: the options a caller chooses and the `Scene` (the
//! variant, its prepared geometry, the powers' styles) each layer draws with. Below
//! every layer, so that `render.rs` calls the layers and none of them reaches back.

use chancery_engine::Variant;

use crate::geometry::MapGeometry;
use crate::style::PowerStyle;

/// What is written in each space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Labels {
    /// The space's abbreviation (`Bud`, `NTH`).
    #[default]
    Abbreviations,
    /// The full name (`Budapest`).
    Names,
    None,
}

#[derive(Clone, Debug)]
pub struct RenderOptions {
    pub labels: Labels,
    /// The legend drawn as a panel beside the map, for a standalone picture. Pages
    /// leave it off and show [`crate::legend()`] as HTML, so the map has the width.
    pub legend: bool,
    /// The variant's title and the phase above the map.
    pub title: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            labels: Labels::Abbreviations,
            legend: false,
            title: true,
        }
    }
}

/// What every layer needs to know.
pub(crate) struct Scene<'a> {
    pub v: &'a Variant,
    pub g: &'a MapGeometry,
    pub styles: &'a [PowerStyle],
}
