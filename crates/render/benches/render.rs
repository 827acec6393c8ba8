//! How long drawing a map takes: a 1648 position with its orders should take under 5 ms
//! (pages draw one per view), the shapes loaded and projected once per variant (`geometry`, measured
//! on its own). Uses the largest variant file in variants/, falling back to the
//! built-in standard map.

use std::path::Path;

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::builtin;
use chancery_engine::variant_file::load_variant;
use chancery_engine::{GameState, Location, Order, OrderKind, UnitKind, UnitRef, Variant};
use chancery_render::{render_with, MapGeometry, RenderOptions};
use criterion::{criterion_group, criterion_main, Criterion};

fn largest_variant() -> Variant {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../variants");
    let mut best: Option<Variant> = None;
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "var") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(v) = load_variant(&path.to_string_lossy(), &text) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| v.provinces.len() > b.provinces.len()) {
            best = Some(v);
        }
    }
    best.unwrap_or_else(|| {
        builtin("standard")
            .expect("standard is built in")
            .expect("standard loads")
    })
}

/// Every unit tries its first neighbouring space: a busy, repeatable phase with
/// bounces and dislodgements to draw.
fn busy_orders(v: &Variant, state: &GameState) -> Vec<Order> {
    state
        .units
        .iter()
        .filter_map(|u| {
            let to = match u.kind {
                UnitKind::Army => v
                    .army_neighbours(u.location.province)
                    .first()
                    .map(|&p| Location::province(p)),
                UnitKind::Fleet => v.fleet_neighbours(u.location).first().copied(),
            }?;
            Some(Order {
                power: u.power,
                unit: UnitRef {
                    kind: Some(u.kind),
                    location: u.location,
                },
                kind: OrderKind::Move { to, via_convoy: false },
            })
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let v = largest_variant();
    let state = GameState::initial(&v);
    let options = RenderOptions::default();
    let geometry = MapGeometry::new(&v).expect("the variant has shapes");
    let orders = busy_orders(&v, &state);
    let result = adjudicate(&v, &state, &orders);
    eprintln!(
        "variant {}: {} spaces, {} powers, {} units, {} orders",
        v.id,
        v.provinces.len(),
        v.powers.len(),
        state.units.len(),
        orders.len()
    );
    let name = |what: &str| format!("{what} {}", v.id);
    c.bench_function(&name("render position"), |b| {
        b.iter(|| render_with(&geometry, &v, &state, None, &options).unwrap())
    });
    c.bench_function(&name("render with orders"), |b| {
        b.iter(|| render_with(&geometry, &v, &state, Some(&result), &options).unwrap())
    });
    let mut slow = c.benchmark_group("once per variant");
    slow.sample_size(10);
    slow.bench_function(name("geometry"), |b| b.iter(|| MapGeometry::new(&v).unwrap()));
    slow.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
