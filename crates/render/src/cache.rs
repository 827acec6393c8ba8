//! Each variant's drawing, prepared once per process. The key is a digest of the
//! variant's content (its spaces with their anchors, its graph), never its name: an
//! uploaded file that calls itself `standard` but moves a border gets a drawing of its
//! own, and the built-in Standard's stays as it is.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write;
use std::sync::{Arc, Mutex, OnceLock};

use chancery_engine::Variant;
use sha2::{Digest, Sha256};

use crate::geometry::MapGeometry;
use crate::RenderError;

/// How many drawings are kept: the built-in variants and the uploads of the games
/// being played. The oldest goes first.
const KEEP: usize = 32;

#[derive(Default)]
struct Cache {
    drawings: HashMap<[u8; 32], Arc<MapGeometry>>,
    order: VecDeque<[u8; 32]>,
}

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

/// A digest of everything in `v` that its drawing depends on: the spaces (anchors,
/// terrain, coasts, names), the graph, and the drawing-only `shape`, `strait`,
/// `junction` and `outside` lines.
pub fn fingerprint(v: &Variant) -> [u8; 32] {
    let mut text = String::new();
    // Debug output of plain data (no hash maps) is deterministic and covers every
    // field, so a new field of a space cannot be forgotten here.
    let _ = write!(
        text,
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        v.id,
        v.provinces,
        v.army_adjacency,
        v.fleet_adjacency,
        v.shape_points,
        v.straits,
        v.junctions,
        v.junction_routes,
        v.outside_points
    );
    Sha256::digest(text.as_bytes()).into()
}

impl MapGeometry {
    /// The prepared drawing of `v`, made on first use and shared after.
    pub fn cached(v: &Variant) -> Result<Arc<MapGeometry>, RenderError> {
        let key = fingerprint(v);
        let lock = || cache().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = lock().drawings.get(&key) {
            return Ok(g.clone());
        }
        // Made outside the lock: shaping an upload takes a while, and other variants'
        // pictures must not wait for it.
        let made = Arc::new(MapGeometry::new(v)?);
        let mut c = lock();
        // Another thread may have made it meanwhile: the first one made is kept, so
        // that every caller shares one drawing.
        if let Some(g) = c.drawings.get(&key) {
            return Ok(g.clone());
        }
        c.drawings.insert(key, made.clone());
        c.order.push_back(key);
        while c.order.len() > KEEP {
            if let Some(old) = c.order.pop_front() {
                c.drawings.remove(&old);
            }
        }
        Ok(made)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_engine::builtin::builtin;

    #[test]
    fn a_changed_board_has_another_fingerprint_under_the_same_name() {
        let v = builtin("standard").unwrap().unwrap();
        let mut moved = v.clone();
        moved.provinces[0].at = Some((10.0, 10.0));
        assert_eq!(fingerprint(&v), fingerprint(&builtin("standard").unwrap().unwrap()));
        assert_ne!(fingerprint(&v), fingerprint(&moved));
    }
}
