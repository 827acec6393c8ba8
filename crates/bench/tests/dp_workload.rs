//! The DP benchmark must measure what it claims: a 1648 opening where the great powers'
//! orders are legal, their bids pass rule 3 and reach every minor unit the budgets can
//! pay for, and the whole phase resolves and adjudicates without refusals.

// The workload is built by the benchmark itself, so that this test checks the very
// phases that are timed; its `main` and timing helpers go unused here.
#[allow(dead_code)]
#[path = "../benches/dp.rs"]
mod dp_bench;

use chancery_engine::dp::{self, resolve::Decision};
use chancery_engine::validate::validate;
use chancery_engine::OrderKind;

use dp_bench::{dp_opening, run_dp, standard_opening};

#[test]
fn bids_cover_the_minor_units_and_pass_rule_3() {
    let p = dp_opening();
    let (v, state) = (&p.variant, &p.state);

    let minors: Vec<_> = dp::minor_units(v, state).copied().collect();
    assert!(
        minors.len() >= 25,
        "1648 should field about 30 minor units, found {}",
        minors.len()
    );

    // One order per great-power unit, each accepted by the engine.
    let great = state.units.iter().filter(|u| !state.acts_as_minor(v, u.power)).count();
    assert_eq!(p.orders.len(), great);
    for o in &p.orders {
        assert_eq!(
            validate(v, state, o).as_ref(),
            Ok(o),
            "great-power order refused or not canonical"
        );
    }

    // 1 DP on each minor unit, no unit twice: the bids reach as many minor units as
    // the great powers' budgets together can pay for.
    let total: u32 = v.great_powers().map(|g| dp::budget(v, state, g).total).sum();
    let mut on: Vec<_> = p.bids.iter().map(|b| b.order.unit.location.province).collect();
    on.sort_unstable();
    on.dedup();
    assert_eq!(on.len(), p.bids.len(), "a minor unit got two bids");
    assert!(p.bids.iter().all(|b| b.dp == 1));
    assert_eq!(
        on.len(),
        minors.len().min(total as usize),
        "bids on {} of {} minor units with {total} DPs to spend",
        on.len(),
        minors.len()
    );
    for m in &minors {
        let covered = on.contains(&m.location.province);
        assert!(
            covered || p.bids.len() == total as usize,
            "minor unit unbid while DPs were left"
        );
    }
    // Each great power spends its whole budget when there are enough minor units.
    if minors.len() >= total as usize {
        for g in v.great_powers() {
            let spent: u32 = p.bids.iter().filter(|b| b.power == g).map(|b| b.dp).sum();
            assert_eq!(
                spent,
                dp::budget(v, state, g).total,
                "{} left DPs unspent",
                v.power(g).name
            );
        }
    }

    for g in v.great_powers() {
        dp::check_bids(v, state, g, &p.orders, &p.bids).unwrap();
    }
    // The minor orders are holds and moves only, as the brief for the workload says.
    assert!(p
        .bids
        .iter()
        .all(|b| matches!(b.order.kind, OrderKind::Hold | OrderKind::Move { .. })));
    assert!(p.bids.iter().any(|b| matches!(b.order.kind, OrderKind::Move { .. })));
}

#[test]
fn the_dp_phase_resolves_and_adjudicates() {
    let p = dp_opening();
    let (minor_orders, report) = dp::resolve_bids(&p.variant, &p.state, &p.orders, &p.bids);
    assert_eq!(report.units.len(), dp::minor_units(&p.variant, &p.state).count());
    assert!(report.unplaced.is_empty());
    assert!(
        report.units.iter().all(|u| u.void.is_empty()),
        "a bid was void at resolution"
    );
    // Every bid is alone on its unit and counts, so its order is chosen, except a
    // client's move that only a non-patron paid for: 1648 rule 5 sets that aside unless
    // other powers put 2 DPs behind it, and the unit holds.
    for u in report.units.iter().filter(|u| !u.bids.is_empty()) {
        assert_eq!(u.bids.len(), 1);
        let set_aside = u.totals.iter().all(|t| t.set_aside.is_some());
        assert!(
            matches!(u.decision, Decision::Won { .. }) || set_aside,
            "unexpected decision {:?}",
            u.decision
        );
    }
    let counted: usize = report.units.iter().map(|u| u.bids.len()).sum();
    assert_eq!(counted, p.bids.len());
    let won = report
        .units
        .iter()
        .filter(|u| matches!(u.decision, Decision::Won { .. }))
        .count();
    assert!(won > 0);
    assert_eq!(minor_orders.len(), won);

    let adj = run_dp(&p);
    assert_eq!(adj.results.len(), p.state.units.len());
    assert!(adj.refused.is_empty(), "refused: {:?}", adj.refused);
    assert_eq!(adj.next.units.len(), p.state.units.len());
}

#[test]
fn the_standard_phase_moves_every_unit() {
    let p = standard_opening();
    assert_eq!(p.orders.len(), 22);
    assert!(p.orders.iter().all(|o| matches!(o.kind, OrderKind::Move { .. })));
    let adj = chancery_engine::adjudicate(&p.variant, &p.state, &p.orders);
    assert!(adj.refused.is_empty());
    assert_eq!(adj.results.len(), 22);
}
