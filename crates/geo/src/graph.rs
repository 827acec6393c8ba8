//! Which spaces the graph lets touch.

use std::collections::HashSet;

use chancery_engine::variant::Terrain;
use chancery_engine::{ProvinceId, Variant};

pub struct Graph {
    pairs: HashSet<(ProvinceId, ProvinceId)>,
    /// `may_touch` for every pair, row by row: the generator asks it millions of times.
    touch: Vec<bool>,
    count: usize,
}

impl Graph {
    pub fn new(variant: &Variant) -> Graph {
        let mut pairs = HashSet::new();
        let mut add = |a: ProvinceId, b: ProvinceId| {
            if a != b {
                pairs.insert((a.min(b), a.max(b)));
            }
        };
        for (a, list) in variant.army_adjacency.iter().enumerate() {
            for &b in list {
                add(a as ProvinceId, b);
            }
        }
        for a in 0..variant.provinces.len() {
            let p = &variant.provinces[a];
            for coast in 0..=p.coasts.len() {
                let loc = chancery_engine::Location::new(a as ProvinceId, coast as u8);
                for l in variant.fleet_neighbours(loc) {
                    add(a as ProvinceId, l.province);
                }
            }
        }
        let impassable: Vec<bool> = variant
            .provinces
            .iter()
            .map(|p| p.terrain == Terrain::Impassable)
            .collect();
        let count = variant.provinces.len();
        let mut touch = vec![false; count * count];
        for a in 0..count {
            for b in 0..count {
                touch[a * count + b] = a == b
                    || impassable[a]
                    || impassable[b]
                    || pairs.contains(&(a.min(b) as ProvinceId, a.max(b) as ProvinceId));
            }
        }
        Graph { pairs, touch, count }
    }

    /// Whether the two spaces' shapes may share an edge: a border of the graph, or an
    /// impassable space, which borders nothing but is drawn among the others.
    pub fn may_touch(&self, a: ProvinceId, b: ProvinceId) -> bool {
        self.touch[a as usize * self.count + b as usize]
    }

    /// Every border, each once, in order.
    pub fn borders(&self) -> Vec<(ProvinceId, ProvinceId)> {
        let mut v: Vec<_> = self.pairs.iter().copied().collect();
        v.sort_unstable();
        v
    }
}
