//! The benchmark's workload, so that its figures mean the same from run to run and stand
//! for real games: at least 1,000 legal order
//! sets for the 22-unit opening and for positions with 30+ units, the same on every run.

use chancery_bench::workload::{standard_workload, MIDGAME_UNITS, SETS};
use chancery_engine::{OrderKind, UnitKind};

#[test]
fn workload_is_legal_large_enough_and_fixed() {
    let w = standard_workload();
    // Every drawn order passed the engine's validation (rules section on legal orders;
    // DATC 4.D: an illegal order would only measure the refusal path).
    assert_eq!(w.refused, 0, "the generator drew orders the engine refuses");
    assert!(w.opening.len() >= SETS && w.midgame.len() >= SETS);
    for set in &w.opening {
        assert_eq!(w.state(set).units.len(), 22, "the Standard opening has 22 units");
        assert_eq!(set.orders.len(), 22);
    }
    for set in &w.midgame {
        let n = w.state(set).units.len();
        assert!(n >= MIDGAME_UNITS, "mid-game position with only {n} units");
        assert_eq!(set.orders.len(), n);
    }
    // All six kinds of movement order occur.
    let all = || w.opening.iter().chain(&w.midgame).flat_map(|s| s.orders.iter());
    let count = |f: &dyn Fn(&OrderKind) -> bool| all().filter(|o| f(&o.kind)).count();
    assert!(count(&|k| matches!(k, OrderKind::Hold)) > 0);
    assert!(count(&|k| matches!(k, OrderKind::Move { via_convoy: false, .. })) > 0);
    assert!(count(&|k| matches!(k, OrderKind::Move { via_convoy: true, .. })) > 0);
    assert!(count(&|k| matches!(k, OrderKind::SupportHold { .. })) > 0);
    assert!(count(&|k| matches!(k, OrderKind::SupportMove { .. })) > 0);
    assert!(count(&|k| matches!(k, OrderKind::Convoy { .. })) > 0);
    assert!(all().any(|o| o.unit.kind == Some(UnitKind::Fleet)));

    let again = standard_workload();
    let same = |a: &[chancery_bench::workload::OrderSet], b: &[chancery_bench::workload::OrderSet]| {
        a.iter().zip(b).all(|(x, y)| x.orders == y.orders)
    };
    assert!(same(&w.opening, &again.opening) && same(&w.midgame, &again.midgame));
    assert_eq!(w.positions, again.positions);
}
