//! Colours and the fixed palette of the map. A power's colour comes from its variant
//! file; anything that is not a plain `#rgb`/`#rrggbb` is replaced from a fallback
//! palette, so that no text from a file ends up inside a style attribute.

use chancery_engine::variant::PowerKind;
use chancery_engine::Variant;

pub const PAPER: &str = "#f4efe4";
pub const LAND: &str = "#efe3c8";
pub const SEA: &str = "#c9dcea";
pub const IMPASSABLE: &str = "#b9b5ad";
pub const OUTLINE: &str = "#5b6b78";
pub const COAST_LINE: &str = "#4f6d84";
pub const LAND_LINE: &str = "#9a8a6a";
pub const SEA_LINE: &str = "#a9c3d6";
pub const WALL: &str = "#6e5b44";
pub const INK: &str = "#2b2b2b";
pub const SEA_INK: &str = "#3d5a73";
pub const FAIL: &str = "#d0202f";
pub const BUILD: &str = "#1f8a3a";
pub const NEUTRAL_CENTRE: &str = "#ffffff";

/// The radius of an army's disc: at least 20 pixels across, so a unit reads at a
/// glance on a map 1400 pixels wide.
pub(crate) const UNIT_R: f64 = 10.5;
/// The size of a space's name, in pixels.
pub(crate) const FONT: f64 = 12.0;
/// The radius of a supply centre's marker.
pub(crate) const CENTRE_R: f64 = 5.5;

/// Used for powers whose colour is missing or unreadable.
const FALLBACK: &[&str] = &[
    "#c8102e", "#1f3a93", "#3fa9f5", "#4a4a4a", "#2e9e3e", "#7b4fa6", "#d9a400", "#e67e22", "#17a2b8", "#8d5524",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub fn parse(text: &str) -> Option<Rgb> {
        let hex = text.trim().strip_prefix('#')?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let digit = |i: usize, len: usize| u8::from_str_radix(&hex[i..i + len], 16).ok();
        match hex.len() {
            6 => Some(Rgb(digit(0, 2)?, digit(2, 2)?, digit(4, 2)?)),
            3 => Some(Rgb(digit(0, 1)? * 17, digit(1, 1)? * 17, digit(2, 1)? * 17)),
            _ => None,
        }
    }

    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Mixed with white: `amount` 0 keeps the colour, 1 is white.
    pub fn tint(self, amount: f64) -> Rgb {
        let mix = |c: u8| (c as f64 + (255.0 - c as f64) * amount).round() as u8;
        Rgb(mix(self.0), mix(self.1), mix(self.2))
    }

    /// Relative luminance (WCAG), to choose dark or light text on this colour.
    pub fn luminance(self) -> f64 {
        let lin = |c: u8| {
            let c = c as f64 / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.0) + 0.7152 * lin(self.1) + 0.0722 * lin(self.2)
    }

    pub fn text_colour(self) -> &'static str {
        if self.luminance() > 0.4 {
            "#1c1c1c"
        } else {
            "#ffffff"
        }
    }
}

/// Each power's colours, worked out once per render.
#[derive(Clone, Debug)]
pub struct PowerStyle {
    pub fill: String,
    /// The pale version used to shade the cells of its centres.
    pub tint: String,
    pub text: &'static str,
    pub kind: PowerKind,
}

pub fn power_styles(v: &Variant) -> Vec<PowerStyle> {
    v.powers
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let rgb = p
                .colour
                .as_deref()
                .and_then(Rgb::parse)
                .or_else(|| Rgb::parse(FALLBACK[i % FALLBACK.len()]))
                .unwrap_or(Rgb(128, 128, 128));
            PowerStyle {
                fill: rgb.hex(),
                tint: rgb.tint(0.62).hex(),
                text: rgb.text_colour(),
                kind: p.kind,
            }
        })
        .collect()
}

/// Each power's colours for this position. A power in civil disorder (DP rule 11)
/// keeps its colours, but its units are independent minors now and are drawn as
/// minors are: ringed.
pub(crate) fn styles_of(v: &Variant, state: &chancery_engine::GameState) -> Vec<PowerStyle> {
    let mut styles = power_styles(v);
    for &p in &state.disordered {
        if let Some(st) = styles.get_mut(p as usize) {
            st.kind = PowerKind::Minor;
        }
    }
    styles
}

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['<', '>', '&', '"', '\'']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_in_both_lengths_and_reject_the_rest() {
        assert_eq!(Rgb::parse("#c8102e"), Some(Rgb(0xc8, 0x10, 0x2e)));
        assert_eq!(Rgb::parse("#fff"), Some(Rgb(255, 255, 255)));
        assert_eq!(Rgb::parse("red"), None);
        assert_eq!(Rgb::parse("#12345g"), None);
        assert_eq!(Rgb::parse("#\"/><script>"), None);
    }

    #[test]
    fn text_is_dark_on_pale_colours_and_light_on_dark_ones() {
        assert_eq!(Rgb(255, 240, 150).text_colour(), "#1c1c1c");
        assert_eq!(Rgb(31, 58, 147).text_colour(), "#ffffff");
    }

    #[test]
    fn markup_is_escaped() {
        assert_eq!(escape("A&B <c> \"d\""), "A&amp;B &lt;c&gt; &quot;d&quot;");
    }
}
