//! What can go wrong when drawing: its own module, below every other, so that the
//! modules that prepare a drawing and the one that draws can all name it.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The variant's shapes cannot be drawn (missing, or not one per space).
    Shapes(String),
    /// The geometry was built for another variant.
    WrongVariant { geometry: String, variant: String },
    /// The position or the results name something the variant does not have.
    BadPosition(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Shapes(why) => write!(f, "the map's shapes cannot be drawn: {why}"),
            RenderError::WrongVariant { geometry, variant } => {
                write!(f, "the map geometry is for variant `{geometry}`, not `{variant}`")
            }
            RenderError::BadPosition(why) => write!(f, "the position does not fit the variant: {why}"),
        }
    }
}

impl std::error::Error for RenderError {}
