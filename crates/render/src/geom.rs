//! Points of the picture, for placing markers and drawing arrows, and how far one lies
//! from the edge of a shape.

use std::ops::{Add, Mul, Sub};

use geo::{Distance, Euclidean, LineString, MultiPolygon, Point, Polygon};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

impl Pt {
    pub const fn new(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }
    pub fn dot(self, o: Pt) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn cross(self, o: Pt) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn len(self) -> f64 {
        self.dot(self).sqrt()
    }
    pub fn dist(self, o: Pt) -> f64 {
        (self - o).len()
    }
    /// The unit vector in this direction, or zero for the zero vector.
    pub fn unit(self) -> Pt {
        let l = self.len();
        if l > 1e-12 {
            self * (1.0 / l)
        } else {
            Pt::new(0.0, 0.0)
        }
    }
    /// Rotated a quarter turn (counter-clockwise in y-down screen space is clockwise).
    pub fn perp(self) -> Pt {
        Pt::new(-self.y, self.x)
    }
    pub fn lerp(self, o: Pt, t: f64) -> Pt {
        self + (o - self) * t
    }
}

impl Add for Pt {
    type Output = Pt;
    fn add(self, o: Pt) -> Pt {
        Pt::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Pt {
    type Output = Pt;
    fn sub(self, o: Pt) -> Pt {
        Pt::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f64> for Pt {
    type Output = Pt;
    fn mul(self, k: f64) -> Pt {
        Pt::new(self.x * k, self.y * k)
    }
}

/// How far `at` is from the nearest edge of `shape` (outer rings and holes).
pub(crate) fn edge_distance(shape: &MultiPolygon<f64>, at: Pt) -> f64 {
    let p = Point::new(at.x, at.y);
    shape
        .0
        .iter()
        .flat_map(|poly: &Polygon<f64>| std::iter::once(poly.exterior()).chain(poly.interiors()))
        .map(|ring: &LineString<f64>| Euclidean.distance(&p, ring))
        .fold(f64::INFINITY, f64::min)
}
