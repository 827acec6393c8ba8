//! Each variant's drawing, prepared once per process. The key is a digest of the
//! variant's content (its spaces with their anchors, its graph), never its name: an
//! uploaded file that calls itself `standard` but moves a border gets a drawing of its
//! own, and the built-in Standard's stays as it is.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write;
use std::sync::{Arc, Mutex};

use chancery_engine::Variant;
use sha2::{Digest, Sha256};

/// How many drawings are kept: the built-in variants and the uploads of the games
/// being played. The oldest goes first.
const KEEP: usize = 32;

/// The kept drawings by fingerprint, oldest first in `order`. Generic over what is
/// kept, so that this module needs nothing from the drawing it keeps (`geometry.rs`
/// holds the one store of `MapGeometry`s).
pub struct Kept<T> {
    drawings: HashMap<[u8; 32], Arc<T>>,
    order: VecDeque<[u8; 32]>,
}

impl<T> Default for Kept<T> {
    fn default() -> Kept<T> {
        Kept::new()
    }
}

impl<T> Kept<T> {
    pub fn new() -> Kept<T> {
        Kept {
            drawings: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// What `make` gives for `key`, made on first use (outside the lock: shaping an
    /// upload takes a while, and other variants' pictures must not wait for it) and
    /// shared after; the first one made is kept if two threads make it at once.
    pub fn get_or_make<E>(
        store: &Mutex<Kept<T>>,
        key: [u8; 32],
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let lock = || store.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = lock().drawings.get(&key) {
            return Ok(g.clone());
        }
        let made = Arc::new(make()?);
        let mut c = lock();
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
