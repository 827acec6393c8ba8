//! From longitude and latitude to the plane of the picture. The projection is chosen
//! from the variant's frame: a Lambert conformal conic with standard parallels a sixth
//! of the way in from the frame's edges for a frame of middle latitudes (Europe, the
//! usual case: shapes keep their look and north stays up), and a Lambert azimuthal
//! equal-area centred on the frame for one that reaches the tropics or the poles, where
//! a cone fits badly. proj4rs does the arithmetic, so the formulas are PROJ's.

use geo::{Coord, MapCoordsInPlace, MultiPolygon, Rect};
use proj4rs::proj::Proj;
use proj4rs::transform::transform;

pub(crate) struct Projection {
    from: Proj,
    to: Proj,
}

impl Projection {
    /// The projection for a frame given in degrees (x longitude, y latitude).
    pub fn for_frame(frame: Rect<f64>) -> Projection {
        let (w, s) = (frame.min().x, frame.min().y);
        let (e, n) = (frame.max().x, frame.max().y);
        let lon_0 = (w + e) / 2.0;
        let lat_0 = (s + n) / 2.0;
        let conic = s.signum() == n.signum() && s.abs().min(n.abs()) >= 20.0 && s.abs().max(n.abs()) <= 75.0;
        let def = if conic {
            let span = n - s;
            format!(
                "+proj=lcc +lat_1={} +lat_2={} +lat_0={lat_0} +lon_0={lon_0} +ellps=WGS84 +units=m",
                s + span / 6.0,
                n - span / 6.0
            )
        } else {
            format!("+proj=laea +lat_0={lat_0} +lon_0={lon_0} +ellps=WGS84 +units=m")
        };
        Projection {
            from: Proj::from_proj_string("+proj=longlat +ellps=WGS84").expect("a fixed, valid definition"),
            to: Proj::from_proj_string(&def).expect("built from numbers, always valid"),
        }
    }

    /// Projects a shape in place, in degrees in and metres out (y north).
    pub fn shape(&self, shape: &mut MultiPolygon<f64>) {
        shape.map_coords_in_place(|c| self.point(c));
    }

    /// One point, degrees in, metres out. A point the projection cannot take (a pole of
    /// the cone) stays where the others send their neighbours: at the origin.
    pub fn point(&self, c: Coord<f64>) -> Coord<f64> {
        let mut p = (c.x.to_radians(), c.y.to_radians(), 0.0);
        match transform(&self.from, &self.to, &mut p) {
            Ok(()) => Coord { x: p.0, y: p.1 },
            Err(_) => Coord { x: 0.0, y: 0.0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn europe_gets_a_cone_with_north_up_and_east_right() {
        let p = Projection::for_frame(Rect::new(Coord { x: -25.0, y: 30.0 }, Coord { x: 45.0, y: 72.0 }));
        let paris = p.point(Coord { x: 2.35, y: 48.85 });
        let berlin = p.point(Coord { x: 13.4, y: 52.5 });
        let rome = p.point(Coord { x: 12.5, y: 41.9 });
        assert!(berlin.x > paris.x && berlin.y > paris.y);
        assert!(rome.y < paris.y);
        // Paris to Berlin is about 880 km on the ground; a conformal cone keeps that
        // within a few per cent in the middle of its frame.
        let d = ((berlin.x - paris.x).powi(2) + (berlin.y - paris.y).powi(2)).sqrt();
        assert!((850_000.0..920_000.0).contains(&d), "{d}");
    }
}

/// A radial magnifier over the projected map: points at distance r from `centre` move
/// to r·(1+a)/(1 + a·r/R), so the middle of the map is drawn (1+a) times larger than
/// the rim at R while no point crosses another (the map stays one piece, angles at the
/// centre kept). A map whose spaces crowd in the middle (1648's Empire, 1936's
/// Balkans) gets room for a unit and a name in each without making the picture wider
/// than a screen. No projection library offers this (it is a cartographer's
/// variable-scale lens, not a map projection); it is three lines of arithmetic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lens {
    pub centre: Coord<f64>,
    pub rim: f64,
    pub a: f64,
}

impl Lens {
    pub fn none() -> Lens {
        Lens {
            centre: Coord { x: 0.0, y: 0.0 },
            rim: 1.0,
            a: 0.0,
        }
    }

    pub fn apply(&self, c: Coord<f64>) -> Coord<f64> {
        if self.a <= 0.0 {
            return c;
        }
        let d = c - self.centre;
        let r = (d.x * d.x + d.y * d.y).sqrt();
        let k = (1.0 + self.a) / (1.0 + self.a * r / self.rim);
        self.centre + d * k
    }
}
