//! Random legal play: each unit one of its listed orders, each Winter the builds or
//! removals it must make on listed sites. No bids.

use chancery_engine::adjust::surplus;
use chancery_engine::options::{power_orders, Scope};
use chancery_engine::{GameState, OrderKind, PowerId, Variant};

use crate::Decision;

/// A deterministic generator (xorshift64*): the bots need no more, and it keeps the
/// crate's only dependency the engine.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Zero is xorshift's one fixed point.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub fn decide(v: &Variant, state: &GameState, power: PowerId, seed: u64) -> Decision {
    let mut rng = Rng::new(seed);
    let mut orders = Vec::new();
    for (unit, options) in power_orders(v, state, power, Scope::Plausible) {
        if options.is_empty() {
            continue;
        }
        if unit.is_some() {
            orders.push(options[rng.below(options.len())]);
            continue;
        }
        // A Winter: as many builds as allowed on distinct sites, or the removals due.
        let Some(p) = options.first().map(|o| o.power) else {
            continue;
        };
        let s = surplus(state, p);
        let mut pool = options.clone();
        let mut n = s.unsigned_abs() as usize;
        while n > 0 && !pool.is_empty() {
            let pick = pool.swap_remove(rng.below(pool.len()));
            if matches!(pick.kind, OrderKind::Waive) {
                continue;
            }
            pool.retain(|o| {
                o.unit.location.province != pick.unit.location.province || matches!(o.kind, OrderKind::Remove)
            });
            orders.push(pick);
            n -= 1;
        }
    }
    crate::one_support_per_stack(&mut orders);
    Decision {
        orders,
        bids: Vec::new(),
    }
}
