//! A drawn map as a PNG picture (feature `png`), rasterised by resvg with the system's
//! fonts for the names. The font list is read once per process: finding the fonts
//! takes longer than drawing a map.

use std::sync::{Arc, OnceLock};

use resvg::usvg::fontdb;

fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_system_fonts();
            Arc::new(db)
        })
        .clone()
}

fn read(svg: &str) -> Result<resvg::usvg::Tree, String> {
    let options = resvg::usvg::Options {
        fontdb: fonts(),
        ..resvg::usvg::Options::default()
    };
    resvg::usvg::Tree::from_str(svg, &options).map_err(|e| format!("reading the SVG: {e}"))
}

fn paint(tree: &resvg::usvg::Tree, width: u32, height: u32, scale: f32) -> Result<Vec<u8>, String> {
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height).ok_or("the picture has no size")?;
    resvg::render(
        tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| format!("encoding the PNG: {e}"))
}

/// `svg` at `scale` pixels per SVG unit (0.1 to 8).
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    if !(0.1..=8.0).contains(&scale) {
        return Err(format!("a scale of {scale} is outside 0.1 to 8"));
    }
    let tree = read(svg)?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    paint(&tree, w, h, scale)
}

/// `svg` exactly `width` pixels wide (1 to 4000), as high as its proportions make it.
pub fn png_of_width(svg: &str, width: u32) -> Result<Vec<u8>, String> {
    if !(1..=4000).contains(&width) {
        return Err(format!("a width of {width} pixels is outside 1 to 4000"));
    }
    let tree = read(svg)?;
    let size = tree.size();
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).round().max(1.0) as u32;
    paint(&tree, width, height, scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PNG header's size (RFC 2083: the IHDR chunk first, width and height big-endian).
    fn size(png: &[u8]) -> (u32, u32) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        (word(16), word(20))
    }

    #[test]
    fn sizes_follow_the_drawing() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="1700" height="1224" viewBox="0 0 1700 1224"><rect width="1700" height="1224" fill="#8ab"/></svg>"##;
        assert_eq!(size(&png_of_width(svg, 1200).unwrap()), (1200, 864));
        assert_eq!(size(&png(svg, 0.5).unwrap()), (850, 612));
        assert!(png(svg, 9.0).is_err());
        assert!(png_of_width(svg, 0).is_err());
        assert!(png_of_width("<svg", 10).unwrap_err().contains("reading the SVG"));
    }
}
