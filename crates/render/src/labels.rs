//! Where each space's name is written: near its unit, in the first of a few places
//! around it that is clear of the names already placed and of every unit and centre
//! marker, and inside the space when it can be. The most cramped spaces choose first,
//! since the roomy ones have more places that work.

use chancery_engine::Variant;
use geo::{Contains, MultiPolygon, Point};

use crate::geom::{edge_distance, Pt};
use crate::style::{CENTRE_R, FONT, UNIT_R};

/// The width of an average character of the label font, as a share of its size.
const CHAR_WIDTH: f64 = 0.6;

#[derive(Clone, Copy, Debug)]
struct Box2 {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Box2 {
    fn around(c: Pt, half_w: f64, half_h: f64) -> Box2 {
        Box2 {
            x0: c.x - half_w,
            y0: c.y - half_h,
            x1: c.x + half_w,
            y1: c.y + half_h,
        }
    }

    fn overlap(&self, o: &Box2) -> f64 {
        let w = self.x1.min(o.x1) - self.x0.max(o.x0);
        let h = self.y1.min(o.y1) - self.y0.max(o.y0);
        if w > 0.0 && h > 0.0 {
            w * h
        } else {
            0.0
        }
    }
}

/// The width of a label of `chars` characters.
pub(crate) fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * FONT * CHAR_WIDTH
}

/// (abbreviation positions, full-name positions): the middle of each label's baseline.
pub(crate) fn place(
    v: &Variant,
    shapes: &[MultiPolygon<f64>],
    anchors: &[Pt],
    centres: &[Pt],
    coasts: &[Vec<Pt>],
    coast_labels: &[Vec<Pt>],
) -> (Vec<Pt>, Vec<Pt>) {
    let mut markers: Vec<Box2> = Vec::new();
    for (i, prov) in v.provinces.iter().enumerate() {
        markers.push(Box2::around(anchors[i], UNIT_R + 1.0, UNIT_R + 1.0));
        if prov.sc {
            markers.push(Box2::around(centres[i], CENTRE_R + 1.0, CENTRE_R + 1.0));
        }
        for c in &coasts[i] {
            markers.push(Box2::around(*c, UNIT_R, UNIT_R));
        }
        for c in &coast_labels[i] {
            markers.push(Box2::around(*c - Pt::new(0.0, 4.0), 9.0, 6.0));
        }
    }
    let mut order: Vec<usize> = (0..v.provinces.len()).collect();
    let room: Vec<f64> = (0..order.len())
        .map(|i| edge_distance(&shapes[i], anchors[i]))
        .collect();
    order.sort_by(|&a, &b| room[a].total_cmp(&room[b]));
    let mut layouts = Vec::new();
    for names in [false, true] {
        let mut placed: Vec<Box2> = Vec::new();
        let mut at = vec![Pt::new(0.0, 0.0); v.provinces.len()];
        for &i in &order {
            let prov = &v.provinces[i];
            let text = if names {
                prov.name.clone()
            } else {
                display_abbr(&prov.abbr, prov.is_sea())
            };
            let half_w = text_width(&text) / 2.0 + 1.0;
            let half_h = FONT * 0.55;
            let a = anchors[i];
            let below = UNIT_R + half_h + 1.5;
            let side = UNIT_R + half_w + 2.0;
            let candidates = [
                Pt::new(0.0, below),
                Pt::new(0.0, -below),
                Pt::new(side, 0.0),
                Pt::new(-side, 0.0),
                Pt::new(side * 0.8, below),
                Pt::new(-side * 0.8, below),
                Pt::new(side * 0.8, -below),
                Pt::new(-side * 0.8, -below),
                Pt::new(0.0, below + FONT + 2.0),
                Pt::new(0.0, -below - FONT - 2.0),
                Pt::new(side + half_w, 0.0),
                Pt::new(-side - half_w, 0.0),
            ];
            let best = candidates
                .iter()
                .enumerate()
                .map(|(k, d)| {
                    let c = a + *d;
                    let b = Box2::around(c, half_w, half_h);
                    let clash: f64 = placed.iter().map(|p| p.overlap(&b)).sum::<f64>() * 10.0
                        + markers.iter().map(|m| m.overlap(&b)).sum::<f64>() * 3.0;
                    let outside = if shapes[i].contains(&Point::new(c.x, c.y)) {
                        0.0
                    } else {
                        half_w * half_h
                    };
                    (c, b, clash + outside + k as f64 * 2.0)
                })
                .min_by(|x, y| x.2.total_cmp(&y.2));
            if let Some((c, b, _)) = best {
                placed.push(b);
                // The box is centred on the text's middle; SVG writes from the baseline.
                at[i] = Pt::new(c.x, c.y + FONT * 0.35);
            }
        }
        layouts.push(at);
    }
    let names = layouts.pop().unwrap_or_default();
    let abbrs = layouts.pop().unwrap_or_default();
    (abbrs, names)
}

/// `bud` → `Bud`, `nth` → `NTH` (seas in capitals, as on the printed board);
/// abbreviations the file writes with capitals are its own spelling and stay as written.
pub(crate) fn display_abbr(abbr: &str, sea: bool) -> String {
    if abbr.chars().any(|c| c.is_ascii_uppercase()) {
        return abbr.to_string();
    }
    if sea {
        return abbr.to_ascii_uppercase();
    }
    let mut chars = abbr.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
