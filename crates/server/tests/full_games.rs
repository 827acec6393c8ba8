//! Whole games over HTTP, one per built-in variant, against the real server: every
//! playable power has a player who writes legal orders for all its units (chosen at
//! random with a seeded generator and checked by the engine first, so the server must
//! accept every one), bids DPs on minor units where the variant has them, retreats,
//! builds and removes, and the game runs through three game years. After each phase
//! the test checks what the rules and the club's promises demand of the server: the
//! phase moved on once, the result shows every unit's order, outcome and reason, the
//! history keeps every phase, and no bid or bidder leaks (1936/1648 rule 12).

mod common;

use std::collections::BTreeMap;

use chancery_engine::adjust::{build_sites, surplus};
use chancery_engine::dp::{self, Bid};
use chancery_engine::json::{state_from_json, StateJson};
use chancery_engine::options::has_choice;
use chancery_engine::validate::{retreat_options, validate};
use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, Location, Order, OrderKind, PhaseKind, PowerId, UnitKind, UnitRef, Variant};
use common::{full_game, Api, Server};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// At least three game years are played; the game goes on, up to `MAX_YEARS`, until a
/// retreat or disband, a build or removal and a waived build have all happened (armed
/// minors in 1936 keep the great powers apart for the first years).
const YEARS: i32 = 3;
const MAX_YEARS: i32 = 10;

/// What the game showed over its course, for the assertions at the end.
#[derive(Default)]
struct Tally {
    phases: usize,
    retreats_or_disbands: usize,
    builds_or_removals: usize,
    waived_builds: usize,
    bids: usize,
    by_clock: usize,
}

/// One player's bid as submitted this phase, to look for in what others can read.
struct PlacedBid {
    bidder: String,
    dp: u32,
}

struct Game<'a> {
    server: &'a Server,
    v: Variant,
    id: i64,
    gm: Api,
    observer: Api,
    players: Vec<(String, Api)>,
    rng: StdRng,
    tally: Tally,
}

fn variant(name: &str) -> Variant {
    chancery_engine::builtin::builtin(name)
        .unwrap_or_else(|| panic!("no built-in variant {name}"))
        .unwrap_or_else(|e| panic!("variant {name}: {e:?}"))
}

fn unit_ref(kind: UnitKind, location: Location) -> UnitRef {
    UnitRef {
        kind: Some(kind),
        location,
    }
}

/// Where a unit could step in one move, before the engine's checks.
fn steps(v: &Variant, kind: UnitKind, at: Location) -> Vec<Location> {
    match kind {
        UnitKind::Army => v
            .army_neighbours(at.province)
            .iter()
            .map(|&p| Location::province(p))
            .collect(),
        UnitKind::Fleet => v.fleet_neighbours(at).to_vec(),
    }
}

/// Legal movement orders for the units `power` controls: mostly attacks, each backed by
/// as many supports as the power's other units can give, so that dislodgements happen.
fn movement_orders(v: &Variant, state: &GameState, power: PowerId, rng: &mut StdRng) -> Vec<Order> {
    let mut mine: Vec<usize> = (0..state.units.len())
        .filter(|&i| v.controls(power, state.units[i].power))
        .collect();
    mine.shuffle(rng);
    let mut orders: BTreeMap<usize, Order> = BTreeMap::new();
    for &i in &mine {
        if orders.contains_key(&i) {
            continue;
        }
        let u = state.units[i];
        let me = unit_ref(u.kind, u.location);
        let hold = Order {
            power,
            unit: me,
            kind: OrderKind::Hold,
        };
        // Units that stay are what attacks dislodge.
        if rng.gen_bool(0.4) {
            orders.insert(i, hold);
            continue;
        }
        let mut moves: Vec<Order> = steps(v, u.kind, u.location)
            .into_iter()
            .map(|to| Order {
                power,
                unit: me,
                kind: OrderKind::Move { to, via_convoy: false },
            })
            .filter_map(|o| validate(v, state, &o).ok())
            .collect();
        moves.shuffle(rng);
        // Prefer a space another power's unit holds, then one whose centre another power
        // owns: that is where units get dislodged.
        let target = |o: &Order| match o.kind {
            OrderKind::Move { to, .. } => to.province,
            _ => unreachable!(),
        };
        let occupied = |o: &Order| state.unit_at(target(o)).is_some_and(|t| !v.controls(power, t.power));
        let owned = |o: &Order| state.owners[target(o) as usize].is_some_and(|w| w != power);
        let pick = moves
            .iter()
            .find(|o| occupied(o))
            .or(moves.iter().find(|o| owned(o)))
            .or(moves.first())
            .copied();
        let Some(attack) = pick else {
            orders.insert(i, hold);
            continue;
        };
        let OrderKind::Move { to, .. } = attack.kind else {
            unreachable!()
        };
        orders.insert(i, attack);
        for &j in &mine {
            if orders.contains_key(&j) || rng.gen_bool(0.2) {
                continue;
            }
            let s = state.units[j];
            let support = Order {
                power,
                unit: unit_ref(s.kind, s.location),
                kind: OrderKind::SupportMove { unit: me, to },
            };
            if let Ok(o) = validate(v, state, &support) {
                orders.insert(j, o);
            }
        }
    }
    orders.into_values().collect()
}

/// A legal order for a minor unit, given in the minor's name as the engine checks it.
fn minor_order(v: &Variant, state: &GameState, index: usize, rng: &mut StdRng) -> Order {
    let u = state.units[index];
    let me = unit_ref(u.kind, u.location);
    let mut options: Vec<Order> = steps(v, u.kind, u.location)
        .into_iter()
        .map(|to| Order {
            power: u.power,
            unit: me,
            kind: OrderKind::Move { to, via_convoy: false },
        })
        .collect();
    for other in &state.units {
        if other.location != u.location {
            options.push(Order {
                power: u.power,
                unit: me,
                kind: OrderKind::SupportHold {
                    unit: unit_ref(other.kind, other.location),
                },
            });
        }
    }
    options.shuffle(rng);
    options
        .iter()
        .find_map(|o| validate(v, state, o).ok())
        .unwrap_or(Order {
            power: u.power,
            unit: me,
            kind: OrderKind::Hold,
        })
}

/// Bids of 1 DP on as many minor units as `budget` allows, each kept only when the
/// engine's rule 3 check (budget, caps, no bid on a minor the power attacks) passes.
fn choose_bids(
    v: &Variant,
    state: &GameState,
    power: PowerId,
    own: &[Order],
    budget: u32,
    rng: &mut StdRng,
) -> Vec<Bid> {
    let mut minors: Vec<usize> = (0..state.units.len())
        .filter(|&i| state.acts_as_minor(v, state.units[i].power))
        .collect();
    minors.shuffle(rng);
    let mut bids = Vec::new();
    for i in minors {
        if bids.len() as u32 >= budget {
            break;
        }
        let bid = Bid {
            power,
            dp: 1,
            order: minor_order(v, state, i, rng),
        };
        let mut trial = bids.clone();
        trial.push(bid);
        if dp::check_bids(v, state, power, own, &trial).is_ok() {
            bids = trial;
        }
    }
    bids
}

fn retreat_orders(v: &Variant, state: &GameState, power: PowerId, rng: &mut StdRng) -> Vec<Order> {
    let mut out = Vec::new();
    for (i, d) in state.dislodged.iter().enumerate() {
        if !v.controls(power, d.unit.power) {
            continue;
        }
        let me = unit_ref(d.unit.kind, d.unit.location);
        let mut options = retreat_options(v, state, i);
        options.shuffle(rng);
        let kind = match options.first() {
            Some(&to) if rng.gen_bool(0.7) => OrderKind::Retreat { to },
            _ => OrderKind::Disband,
        };
        let order = Order { power, unit: me, kind };
        out.push(validate(v, state, &order).unwrap_or_else(|e| panic!("retreat {kind:?}: {e}")));
    }
    out
}

/// Builds on some free home centres (sometimes fewer than allowed, so that the engine
/// waives the rest) or removals down to the centre count.
fn adjustment_orders(
    v: &Variant,
    state: &GameState,
    power: PowerId,
    rng: &mut StdRng,
    waived: &mut usize,
) -> Vec<Order> {
    let s = surplus(state, power);
    let mut out = Vec::new();
    if s > 0 {
        let mut sites = build_sites(v, state, power);
        sites.shuffle(rng);
        let want = if rng.gen_bool(0.4) { rng.gen_range(0..s) } else { s } as usize;
        for p in sites {
            if out.len() >= want {
                break;
            }
            let coasts = v.province(p).coasts.len() as u8;
            let mut tries = vec![(UnitKind::Army, 0)];
            tries.extend((0..=coasts).map(|c| (UnitKind::Fleet, c)));
            tries.shuffle(rng);
            let built = tries.into_iter().find_map(|(kind, coast)| {
                let order = Order {
                    power,
                    unit: unit_ref(kind, Location { province: p, coast }),
                    kind: OrderKind::Build { kind: Some(kind) },
                };
                validate(v, state, &order).ok()
            });
            out.extend(built);
        }
        *waived += s as usize - out.len();
    } else if s < 0 {
        let mut own: Vec<_> = state.units.iter().filter(|u| u.power == power).collect();
        own.shuffle(rng);
        for u in own.into_iter().take((-s) as usize) {
            let order = Order {
                power,
                unit: unit_ref(u.kind, u.location),
                kind: OrderKind::Remove,
            };
            out.push(validate(v, state, &order).expect("a removal of one's own unit"));
        }
    }
    out
}

/// Submits `power`'s bids, within the budget the API states for it; returns them.
async fn bid(
    v: &Variant,
    (path, seq): (&str, i64),
    api: &Api,
    power: PowerId,
    state: &GameState,
    own: &[Order],
    rng: &mut StdRng,
) -> Vec<Bid> {
    let budget = api.get(&path.replace("/bids", "/budget")).await;
    assert_eq!(budget["budgets"][0]["power"], v.powers[power as usize].name.as_str());
    let total = budget["budgets"][0]["total"].as_u64().expect("a budget") as u32;
    let bids = choose_bids(v, state, power, own, total, rng);
    if bids.is_empty() {
        return bids;
    }
    let body: Vec<Value> = bids
        .iter()
        .map(|b| {
            let at = b.order.unit.location.province;
            json!({"unit": v.province(at).abbr, "dp": b.dp, "order": b.order.display(v).to_string()})
        })
        .collect();
    let (status, out) = api
        .call("POST", path, Some(json!({"bids": body, "replace": true, "seq": seq})))
        .await;
    assert_eq!(status, 200, "bids {body:?}: {out}");
    assert_eq!(out["bids"].as_array().unwrap().len(), bids.len(), "{out}");
    bids
}

impl Game<'_> {
    fn path(&self, rest: &str) -> String {
        format!("/api/games/{}{rest}", self.id)
    }

    fn state_of(&self, view: &Value) -> GameState {
        let json: StateJson = serde_json::from_value(view["state"].clone()).expect("the position");
        state_from_json(&self.v, &json).expect("a position the engine reads")
    }

    /// Plays one phase; returns false once the game has ended.
    async fn phase(&mut self) -> bool {
        let view = self.gm.get(&self.path("")).await;
        if view["status"] != "active" {
            return false;
        }
        let seq = view["seq"].as_i64().unwrap();
        let code = view["phase"].as_str().unwrap().to_string();
        let state = self.state_of(&view);
        let v = &self.v;
        let mut sent: Vec<String> = Vec::new();
        let mut placed: Vec<PlacedBid> = Vec::new();
        let mut must_act = Vec::new();
        for (name, api) in &self.players {
            let power = v.find_power(name).unwrap();
            if has_choice(v, &state, power) {
                must_act.push(api.clone());
            }
            let orders = match state.phase.kind {
                PhaseKind::Movement => movement_orders(v, &state, power, &mut self.rng),
                PhaseKind::Retreat => retreat_orders(v, &state, power, &mut self.rng),
                PhaseKind::Adjustment => {
                    adjustment_orders(v, &state, power, &mut self.rng, &mut self.tally.waived_builds)
                }
            };
            let texts: Vec<String> = orders.iter().map(|o| o.display(v).to_string()).collect();
            if !texts.is_empty() {
                let (status, body) = api
                    .call(
                        "POST",
                        &self.path("/orders"),
                        Some(json!({"orders": texts, "replace": true, "seq": seq})),
                    )
                    .await;
                assert_eq!(status, 200, "{code} {name} {texts:?}: {body}");
                // Each unit of an Original 1958 stack takes its own order, one line each
                // (rules 3 and 4; docs/rules-1958.md), so a stack's orders must all stay.
                assert_eq!(
                    body["orders"].as_array().unwrap().len(),
                    texts.len(),
                    "one stored order per unit ({texts:?}): {body}"
                );
            }
            let bidder = v.powers[power as usize].kind == PowerKind::Great;
            if state.phase.kind == PhaseKind::Movement && bidder && v.has_minors() {
                let bids = bid(
                    v,
                    (&self.path("/bids"), seq),
                    api,
                    power,
                    &state,
                    &orders,
                    &mut self.rng,
                )
                .await;
                self.tally.bids += bids.len();
                placed.extend(bids.iter().map(|b| PlacedBid {
                    bidder: name.clone(),
                    dp: b.dp,
                }));
            }
            sent.extend(texts);
        }
        let before = self.server.visitor().get(&self.path("/phases")).await;
        assert_eq!(before["phases"].as_array().unwrap().len() as i64, seq);

        // Every third phase waits for the deadline; the others end when all are ready.
        if self.tally.phases % 3 == 2 || must_act.is_empty() {
            let now = self.server.visitor().get("/api/test/clock").await["now_ms"]
                .as_i64()
                .unwrap();
            let deadline = view["deadline_ms"].as_i64().expect("a running game has a deadline");
            self.server.advance(deadline - now + 1).await;
            self.tally.by_clock += 1;
        } else {
            let last = must_act.len() - 1;
            for (i, api) in must_act.iter().enumerate() {
                let r = api.post(&self.path("/ready"), json!({"seq": seq})).await;
                assert_eq!(r["processed"], i == last, "only the last ready player ends {code}: {r}");
            }
        }
        self.check(seq, &code, &state, &sent, &placed).await;
        self.tally.phases += 1;
        true
    }

    async fn check(&mut self, seq: i64, code: &str, state: &GameState, sent: &[String], placed: &[PlacedBid]) {
        let visitor = self.server.visitor();
        let view = self.gm.get(&self.path("")).await;
        assert_eq!(view["seq"], seq + 1, "{code} was processed exactly once");

        // Every processed phase stays in the history, in order.
        let history = visitor.get(&self.path("/phases")).await;
        let list = history["phases"].as_array().unwrap();
        assert_eq!(list.len() as i64, seq + 1, "{history}");
        for (i, p) in list.iter().enumerate() {
            assert_eq!(p["seq"], i as i64, "{history}");
        }
        assert_eq!(list[seq as usize]["phase"], code, "{history}");

        let phase = visitor.get(&self.path(&format!("/phases/{seq}"))).await;
        let result = &phase["result"];
        assert_eq!(result["phase"], code, "{phase}");
        assert_eq!(
            view["state"], result["next"],
            "the game goes on from the published result"
        );
        let results = result["results"].as_array().unwrap();
        for r in results {
            assert!(!r["outcome"].as_str().unwrap().is_empty(), "{r}");
            assert!(
                !r["reason"].as_str().unwrap().is_empty(),
                "an outcome has its reason: {r}"
            );
        }
        let minor = |r: &Value| {
            self.v
                .find_power(r["power"].as_str().unwrap())
                .is_some_and(|p| self.v.is_minor(p))
        };
        match state.phase.kind {
            PhaseKind::Movement => {
                assert_eq!(results.len(), state.units.len(), "one result per unit: {phase}");
                for r in results.iter().filter(|r| !minor(r)) {
                    assert!(r["order"].is_string(), "every player's unit has its order shown: {r}");
                }
            }
            PhaseKind::Retreat => {
                assert_eq!(
                    results.len(),
                    state.dislodged.len(),
                    "one result per dislodged unit: {phase}"
                );
                self.tally.retreats_or_disbands += results.len();
            }
            PhaseKind::Adjustment => {
                self.tally.builds_or_removals += results
                    .iter()
                    .filter(|r| ["built", "removed", "removed_in_disorder"].contains(&r["outcome"].as_str().unwrap()))
                    .count();
            }
        }
        // Units destroyed in movement for want of a retreat count as disbands (DATC 4.D).
        self.tally.retreats_or_disbands += results.iter().filter(|r| r["outcome"] == "disbanded").count();
        let shown: Vec<&str> = results.iter().filter_map(|r| r["order"].as_str()).collect();
        for order in sent {
            assert!(
                shown.contains(&order.as_str()),
                "{code}: `{order}` is missing from {shown:?}"
            );
        }

        // Rule 12: who bid, and how much, is for the GM alone.
        let player = &self.players[seq as usize % self.players.len()].1;
        for who in [&visitor, &self.observer, player] {
            for path in ["", "/phases", &format!("/phases/{seq}"), "/press"] {
                let (status, body) = who.call("GET", &self.path(path), None).await;
                if status != 200 {
                    continue;
                }
                let text = body.to_string();
                for secret in ["\"dp\"", "\"bids\"", "bid_report", "bid-report"] {
                    assert!(!text.contains(secret), "{path} shows `{secret}`");
                }
                for b in placed {
                    let said = format!("{} {} DP", b.bidder, b.dp);
                    assert!(!text.contains(&said), "{path} shows `{said}`");
                }
            }
        }
        if !placed.is_empty() {
            let (status, _) = self.observer.call("GET", &self.path("/bids"), None).await;
            assert_eq!(status, 403, "an observer reads no bids");
            let (status, _) = player
                .call("GET", &self.path(&format!("/gm/bid-report?seq={seq}")), None)
                .await;
            assert_eq!(status, 403, "the bid report is the GM's alone");
        }
    }
}

async fn play(name: &str, seed: u64) {
    for target in common::targets().await {
        let started = std::time::Instant::now();
        let server = Server::start(&target.url);
        let prefix = format!("full-{name}");
        let gm = server.register(&format!("{prefix}-gm")).await;
        let (id, players) = full_game(&server, &gm, name, json!({}), &prefix).await;
        let observer = server.register(&format!("{prefix}-obs")).await;
        observer.post(&format!("/api/games/{id}/observe"), json!({})).await;
        let v = variant(name);
        let first = GameState::initial(&v).phase.year;
        let mut game = Game {
            server: &server,
            v,
            id,
            gm,
            observer,
            players,
            rng: StdRng::seed_from_u64(seed),
            tally: Tally::default(),
        };
        loop {
            let view = game.gm.get(&game.path("")).await;
            let year = game.state_of(&view).phase.year;
            let t = &game.tally;
            let seen_all = t.retreats_or_disbands > 0 && t.builds_or_removals > 0 && t.waived_builds > 0;
            if year >= first + MAX_YEARS || (year >= first + YEARS && seen_all) || !game.phase().await {
                break;
            }
        }
        let t = &game.tally;
        let view = game.gm.get(&game.path("")).await;
        let years = game.state_of(&view).phase.year - first;
        eprintln!(
            "{name} on {}: {years} years, {} phases ({} by deadline), {} retreats/disbands, {} builds/removals, {} builds waived, {} bids, {:.1?}",
            target.label,
            t.phases,
            t.by_clock,
            t.retreats_or_disbands,
            t.builds_or_removals,
            t.waived_builds,
            t.bids,
            started.elapsed()
        );
        assert!(years >= YEARS, "the game ended after {years} years");
        // At least Spring and Fall movement in each year.
        assert!(t.phases >= 2 * years as usize, "{} phases in {years} years", t.phases);
        assert!(t.retreats_or_disbands > 0, "no unit retreated or disbanded");
        assert!(t.builds_or_removals > 0, "no unit was built or removed");
        assert!(t.waived_builds > 0, "no build was left to be waived");
        if game.v.has_minors() {
            assert!(t.bids > 0, "no DP was bid");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn standard_three_years() {
    play("standard", 1901).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn ambition_and_empire_1936_three_years() {
    play("1936", 1936).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn sixteen_forty_eight_three_years() {
    play("1648", 1648).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn original_1958_three_years() {
    play("original-1958", 1958).await;
}
