//! The one way to judge a whole phase: the powers' orders and Diplomacy Point bids in;
//! the minor units' orders chosen from the bids, the adjudication, rule 8's orphaned
//! factions, the next position, the winner and the GM's bid report out, as one
//! [`PhaseResult`]. Every caller that judges a phase (the case runner, the CLI, and the
//! server's processing and history as they move to it) calls [`judge_phase`], so that
//! none can leave a step out or run the steps in another order.

use serde::{Deserialize, Serialize};

use crate::adjudicate::{Adjudication, Judge};
use crate::dp::{self, Bid, BidReport};
use crate::order::Order;
use crate::state::{GameState, Phase, PhaseKind};
use crate::variant::{PowerId, Variant};

/// Everything one judged phase leaves behind: what a renderer needs to draw it (the
/// position before and every unit's order with its outcome), what a history page needs
/// to explain it (`OrderResult::reason` gives each outcome's reason in words), the next
/// position, and the GM's private account of the bidding.
///
/// Powers, provinces and units are the variant's indices, as everywhere in the engine:
/// a stored result reads back only against the same variant file. `json::adjudication_json`
/// gives the public result with names instead. Order errors are stored as their message
/// (see `OrderError`'s `Deserialize`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseResult {
    /// The position that was judged.
    pub before: GameState,
    /// The orders the bids bought for the minor units (movement phases of variants
    /// with minor powers), in each minor's own name; they are among the orders
    /// `adjudication` judged, so its results never say who paid for them.
    pub minor_orders: Vec<Order>,
    /// Each unit's (or adjustment order's) order and outcome, the orders that reached
    /// no unit, the next position and the winner. `adjudication.next` is the position
    /// after rule 8 too: the one the game goes on from.
    pub adjudication: Adjudication,
    /// Factions that rule 8 (1936) put into permanent civil disorder as the phase
    /// ended, because their sponsor was gone: their units were disbanded and their
    /// empty centres became independent minors in `adjudication.next`.
    pub orphaned: Vec<PowerId>,
    /// Who bid what and why each minor unit got its order (DP rule 12: for the GM
    /// alone). `None` where nothing is bid: retreats, adjustments and variants without
    /// minor powers.
    pub bid_report: Option<BidReport>,
}

impl PhaseResult {
    /// The phase that was judged.
    pub fn phase(&self) -> Phase {
        self.adjudication.phase
    }

    /// The position the game goes on from.
    pub fn next(&self) -> &GameState {
        &self.adjudication.next
    }

    /// The great power that won as this phase ended.
    pub fn winner(&self) -> Option<PowerId> {
        self.adjudication.winner
    }
}

/// Judges the phase `state` is in. `orders` are the orders the powers (and factions,
/// through their players) gave, as parsed; `bids` every power's DP bids, already
/// accepted at submission (`dp::check_bids`): a bid that breaks a rule at judging time
/// (on a minor the bidder now attacks, rule 4) is void here and the report says why.
/// A caller leaves out the orders of a power it treats as absent.
///
/// The steps, in the order the rules take them:
/// 1. Movement phases of variants with minor powers: the bids become orders for the
///    minor units, client bonus and 1648's client sorties included (`dp::resolve_bids`).
///    A minor unit nobody bid on keeps any order given to it directly (a case or a GM
///    may give one); otherwise it holds.
/// 2. The adjudication of every order, and the next position (`adjudicate`).
/// 3. Rule 8: each faction whose sponsor is eliminated or in civil disorder goes into
///    civil disorder at once (`dp::orphans_into_disorder`; the GM's declaration between
///    phases applies the same rule through `dp::declare_civil_disorder`).
pub fn judge_phase(v: &Variant, state: &GameState, orders: &[Order], bids: &[Bid]) -> PhaseResult {
    judge_phase_with(v, state, orders, bids, &mut Judge::new())
}

/// As [`judge_phase`], reusing a judge's buffers.
pub fn judge_phase_with(
    v: &Variant,
    state: &GameState,
    orders: &[Order],
    bids: &[Bid],
    judge: &mut Judge,
) -> PhaseResult {
    let takes_bids = state.phase.kind == PhaseKind::Movement && v.has_minors();
    let (minor_orders, bid_report) = if takes_bids {
        let (chosen, report) = dp::resolve_bids(v, state, orders, bids);
        (chosen, Some(report))
    } else {
        (Vec::new(), None)
    };
    let mut adjudication = if minor_orders.is_empty() {
        judge.adjudicate_owned(v, state, orders)
    } else {
        let mut all = Vec::with_capacity(orders.len() + minor_orders.len());
        all.extend_from_slice(orders);
        all.extend_from_slice(&minor_orders);
        judge.adjudicate_owned(v, state, &all)
    };
    let orphaned = dp::orphans_into_disorder(v, &mut adjudication.next);
    PhaseResult {
        before: state.clone(),
        minor_orders,
        adjudication,
        orphaned,
        bid_report,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::builtin;
    use crate::parse::parse_order;
    use crate::state::Unit;
    use crate::variant::{Location, Season, UnitKind};

    fn variant(name: &str) -> Variant {
        builtin(name).unwrap().unwrap()
    }

    fn order(v: &Variant, power: &str, text: &str) -> Order {
        parse_order(v, v.find_power(power).unwrap(), text).unwrap()
    }

    fn unit(v: &Variant, power: &str, kind: UnitKind, at: &str) -> Unit {
        Unit {
            power: v.find_power(power).unwrap(),
            kind,
            location: Location::province(v.find_province(at).unwrap()),
        }
    }

    /// Spring 1938: Italy has lost every centre and keeps one army, in Tunisia; France
    /// attacks it with support, and with `boxed` France also stands in Southern Algeria,
    /// so the army has nowhere to retreat.
    fn italy_last_stand(v: &Variant, boxed: bool) -> (GameState, Vec<Order>) {
        let mut s = GameState::empty(v, Phase::new(Season::Spring, 1938, PhaseKind::Movement));
        let italy = v.find_power("Italy").unwrap();
        let nationalists = v.find_power("Nationalist Spain").unwrap();
        let burgos = v.find_province("Burgos").unwrap();
        let france = v.find_power("France").unwrap();
        // Italy has lost every centre but is still on the board with one army.
        for owner in s.owners.iter_mut().filter(|o| **o == Some(italy)) {
            *owner = Some(france);
        }
        s.owners[burgos as usize] = Some(nationalists);
        s.units = vec![
            unit(v, "Italy", UnitKind::Army, "Tunisia"),
            unit(v, "France", UnitKind::Army, "Algiers"),
            unit(v, "France", UnitKind::Army, "Libya"),
            unit(v, "Nationalist Spain", UnitKind::Army, "Burgos"),
        ];
        if boxed {
            s.units.push(unit(v, "France", UnitKind::Army, "Southern Algeria"));
        }
        let orders = vec![
            order(v, "France", "A Algiers - Tunisia"),
            order(v, "France", "A Libya S A Algiers - Tunisia"),
        ];
        (s, orders)
    }

    /// 1936 rule 8: "Should a faction's sponsoring Great Power ... be eliminated, its
    /// faction is immediately put into civil disorder". Italy's last unit is dislodged
    /// with nowhere to go and, with no centre left, Italy is eliminated; the
    /// Nationalists go into civil disorder at the end of the same phase: their army in
    /// Burgos is disbanded and Burgos, empty, becomes an independent minor with an army
    /// of its own.
    #[test]
    fn rule_8_fires_as_the_sponsor_is_eliminated() {
        let v = variant("1936");
        let (s, orders) = italy_last_stand(&v, true);
        let italy = v.find_power("Italy").unwrap();
        let nationalists = v.find_power("Nationalist Spain").unwrap();
        let burgos = v.find_province("Burgos").unwrap();
        let r = judge_phase(&v, &s, &orders, &[]);
        assert_eq!(r.orphaned, vec![nationalists]);
        let next = r.next();
        assert!(next.in_disorder(nationalists));
        assert_eq!(next.unit_count(italy), 0);
        // The army in Burgos was disbanded and Burgos, empty, has a new army in the
        // Nationalists' colours: an independent minor (rule 11 by way of rule 8).
        let at_burgos: Vec<_> = next.units.iter().filter(|u| u.location.province == burgos).collect();
        assert_eq!(at_burgos.len(), 1);
        assert!(next.acts_as_minor(&v, at_burgos[0].power));
        assert_eq!(r.bid_report.as_ref().map(|b| b.phase), Some(s.phase));
        assert_eq!(r.before, s);
    }

    /// An army dislodged with a retreat open is still in the game: Italy is not
    /// eliminated until the retreat phase ends with it disbanded, and rule 8 waits.
    #[test]
    fn rule_8_waits_for_the_sponsors_retreat() {
        let v = variant("1936");
        let (s, orders) = italy_last_stand(&v, false);
        let nationalists = v.find_power("Nationalist Spain").unwrap();
        let r = judge_phase(&v, &s, &orders, &[]);
        assert!(r.orphaned.is_empty());
        assert_eq!(r.next().phase.kind, PhaseKind::Retreat);
        // No retreat order: the army is disbanded, and Italy is gone.
        let retreat = judge_phase(&v, r.next(), &[], &[]);
        assert_eq!(retreat.orphaned, vec![nationalists]);
        assert!(retreat.next().in_disorder(nationalists));
    }

    /// Rule 4: the winning bid becomes the minor unit's own order, and the adjudication
    /// judges it with the great powers' orders.
    #[test]
    fn bids_become_the_minors_orders() {
        let v = variant("1936");
        let s = GameState::initial(&v);
        let minor = *s.units.iter().find(|u| v.is_minor(u.power)).unwrap();
        let hold = Order::hold(&minor);
        let france = v.find_power("France").unwrap();
        let r = judge_phase(
            &v,
            &s,
            &[],
            &[Bid {
                power: france,
                dp: 1,
                order: hold,
            }],
        );
        assert_eq!(r.minor_orders, vec![hold]);
        let result = r.adjudication.results.iter().find(|x| x.unit == Some(minor)).unwrap();
        assert_eq!(result.order, Some(hold));
        assert!(r.orphaned.is_empty());
    }

    /// A variant without minor powers has no bidding, so no report.
    #[test]
    fn standard_has_no_bid_report() {
        let v = variant("standard");
        let s = GameState::initial(&v);
        let r = judge_phase(&v, &s, &[order(&v, "France", "A par - bur")], &[]);
        assert!(r.bid_report.is_none());
        assert_eq!(
            r.adjudication,
            crate::adjudicate::adjudicate(&v, &s, &[order(&v, "France", "A par - bur")])
        );
    }

    /// The result survives storage: what a server writes reads back the same.
    #[test]
    fn a_result_reads_back_from_json() {
        let v = variant("1936");
        let s = GameState::initial(&v);
        let r = judge_phase(&v, &s, &[order(&v, "France", "A par - bur")], &[]);
        let text = serde_json::to_string(&r).unwrap();
        let back: PhaseResult = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
        assert_eq!(back.before, r.before);
        assert_eq!(back.next(), r.next());
    }
}
