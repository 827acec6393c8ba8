//! Plane geometry for the schematic map: points, convex polygons whose edges remember
//! which line cut them, and the few measurements the layout needs.

use std::ops::{Add, Mul, Sub};

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

/// What made an edge of a cell: the map's outer boundary, or the bisector with the
/// site of another space. Borders between spaces are drawn from the second kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeFrom {
    Boundary,
    Site(usize),
}

/// A convex polygon; `edges[i]` tells what made the edge from vertex i to vertex i+1.
#[derive(Clone, Debug, Default)]
pub struct Polygon {
    pub points: Vec<Pt>,
    pub edges: Vec<EdgeFrom>,
}

impl Polygon {
    /// A regular polygon approximating a circle, all of its edges boundary.
    pub fn disc(centre: Pt, radius: f64, sides: usize) -> Polygon {
        let points = (0..sides)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / sides as f64;
                centre + Pt::new(a.cos(), a.sin()) * radius
            })
            .collect();
        Polygon {
            points,
            edges: vec![EdgeFrom::Boundary; sides],
        }
    }

    pub fn is_empty(&self) -> bool {
        self.points.len() < 3
    }

    /// Keeps the part where `normal · p <= offset`; the new edge along the line is
    /// labelled `from` (Sutherland–Hodgman for one half-plane).
    pub fn clip(&self, normal: Pt, offset: f64, from: EdgeFrom) -> Polygon {
        let n = self.points.len();
        let mut out = Polygon {
            points: Vec::with_capacity(n + 1),
            edges: Vec::with_capacity(n + 1),
        };
        if n == 0 {
            return out;
        }
        const EPS: f64 = 1e-9;
        for i in 0..n {
            let a = self.points[i];
            let b = self.points[(i + 1) % n];
            let da = normal.dot(a) - offset;
            let db = normal.dot(b) - offset;
            let a_in = da <= EPS;
            let b_in = db <= EPS;
            let crossing = || a.lerp(b, da / (da - db));
            match (a_in, b_in) {
                (true, true) => {
                    out.points.push(a);
                    out.edges.push(self.edges[i]);
                }
                (true, false) => {
                    out.points.push(a);
                    out.edges.push(self.edges[i]);
                    out.points.push(crossing());
                    out.edges.push(from);
                }
                (false, true) => {
                    out.points.push(crossing());
                    out.edges.push(self.edges[i]);
                }
                (false, false) => {}
            }
        }
        out.drop_slivers();
        out
    }

    /// Removes zero-length edges that clipping through a vertex leaves behind.
    fn drop_slivers(&mut self) {
        let mut i = 0;
        while self.points.len() > 1 && i < self.points.len() {
            let j = (i + 1) % self.points.len();
            if self.points[i].dist(self.points[j]) < 1e-7 {
                // Keep the label of the edge that leaves the surviving vertex.
                self.edges[i] = self.edges[j];
                self.points.remove(j);
                self.edges.remove(j);
                if j < i {
                    i -= 1;
                }
            } else {
                i += 1;
            }
        }
    }

    pub fn area(&self) -> f64 {
        let n = self.points.len();
        (0..n)
            .map(|i| self.points[i].cross(self.points[(i + 1) % n]))
            .sum::<f64>()
            / 2.0
    }

    /// The centre of mass; the vertex average for a degenerate polygon.
    pub fn centroid(&self) -> Pt {
        let n = self.points.len();
        let a = self.area();
        if n == 0 {
            return Pt::new(0.0, 0.0);
        }
        if a.abs() < 1e-9 {
            let sum = self.points.iter().fold(Pt::new(0.0, 0.0), |s, p| s + *p);
            return sum * (1.0 / n as f64);
        }
        let mut c = Pt::new(0.0, 0.0);
        for i in 0..n {
            let p = self.points[i];
            let q = self.points[(i + 1) % n];
            let k = p.cross(q);
            c = c + (p + q) * k;
        }
        c * (1.0 / (6.0 * a))
    }

    /// How far a ray from `from` (inside the polygon) in direction `dir` travels
    /// before it leaves the polygon.
    pub fn ray_exit(&self, from: Pt, dir: Pt) -> f64 {
        let n = self.points.len();
        let mut best = f64::INFINITY;
        for i in 0..n {
            let a = self.points[i];
            let b = self.points[(i + 1) % n];
            let e = b - a;
            let denom = dir.cross(e);
            if denom.abs() < 1e-12 {
                continue;
            }
            let t = (a - from).cross(e) / denom;
            let u = (a - from).cross(dir) / denom;
            if t > 1e-9 && (-1e-9..=1.0 + 1e-9).contains(&u) {
                best = best.min(t);
            }
        }
        if best.is_finite() {
            best
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Polygon {
        Polygon {
            points: vec![
                Pt::new(0.0, 0.0),
                Pt::new(2.0, 0.0),
                Pt::new(2.0, 2.0),
                Pt::new(0.0, 2.0),
            ],
            edges: vec![EdgeFrom::Boundary; 4],
        }
    }

    #[test]
    fn clipping_halves_a_square_and_labels_the_cut() {
        let half = square().clip(Pt::new(1.0, 0.0), 1.0, EdgeFrom::Site(7));
        assert!((half.area() - 2.0).abs() < 1e-9);
        assert_eq!(half.edges.iter().filter(|e| **e == EdgeFrom::Site(7)).count(), 1);
        let c = half.centroid();
        assert!((c.x - 0.5).abs() < 1e-9 && (c.y - 1.0).abs() < 1e-9);
    }

    #[test]
    fn clipping_away_everything_leaves_nothing() {
        let none = square().clip(Pt::new(1.0, 0.0), -1.0, EdgeFrom::Site(1));
        assert!(none.is_empty());
    }

    #[test]
    fn a_ray_from_the_middle_leaves_at_the_edge() {
        let d = square().ray_exit(Pt::new(1.0, 1.0), Pt::new(1.0, 0.0));
        assert!((d - 1.0).abs() < 1e-9);
    }
}
