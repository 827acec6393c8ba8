//! The equal-area plane the generator works in: Lambert azimuthal equal-area centred on
//! the frame, so that a grid cell is the same area of Europe everywhere.

use proj4rs::proj::Proj;

pub struct Projection {
    geographic: Proj,
    plane: Proj,
}

impl Projection {
    pub fn centred(lat: f64, lon: f64) -> Projection {
        let plane = Proj::from_proj_string(&format!(
            "+proj=laea +lat_0={lat} +lon_0={lon} +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs"
        ))
        .expect("a valid laea projection");
        let geographic = Proj::from_proj_string("+proj=longlat +ellps=WGS84 +no_defs").expect("longlat");
        Projection { geographic, plane }
    }

    /// (lon, lat) in degrees to (x, y) in metres.
    pub fn forward(&self, lon: f64, lat: f64) -> (f64, f64) {
        let mut p = (lon.to_radians(), lat.to_radians(), 0.0);
        match proj4rs::transform::transform(&self.geographic, &self.plane, &mut p) {
            Ok(()) => (p.0, p.1),
            // Only the antipode of the centre has no image; nothing on a board is there.
            Err(_) => (f64::NAN, f64::NAN),
        }
    }

    /// (x, y) in metres to (lon, lat) in degrees.
    pub fn inverse(&self, x: f64, y: f64) -> (f64, f64) {
        let mut p = (x, y, 0.0);
        match proj4rs::transform::transform(&self.plane, &self.geographic, &mut p) {
            Ok(()) => (p.0.to_degrees(), p.1.to_degrees()),
            Err(_) => (f64::NAN, f64::NAN),
        }
    }
}
