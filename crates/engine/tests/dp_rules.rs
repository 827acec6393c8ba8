//! The DP rules on the real 1936 and 1648 maps. Each test names the rule (numbered as
//! in docs/rules-dp.md) and the seed's text it rests on.

use chancery_engine::builtin::builtin;
use chancery_engine::dp::*;
use chancery_engine::parse::parse_order;
use chancery_engine::state::{GameState, Phase, PhaseKind, Unit};
use chancery_engine::variant::{Location, PowerId, Season, UnitKind, Variant};

fn variant(name: &str) -> Variant {
    builtin(name).expect("built in").expect("loads")
}

fn power(v: &Variant, name: &str) -> PowerId {
    v.find_power(name).unwrap_or_else(|| panic!("no power {name}"))
}

fn at(v: &Variant, season: Season, year: i32, units: &[(&str, &str)]) -> GameState {
    let mut s = GameState::empty(v, Phase::new(season, year, PhaseKind::Movement));
    for (p, text) in units {
        let (kind, place) = text.split_once(' ').unwrap();
        s.units.push(Unit {
            power: power(v, p),
            kind: if kind == "A" { UnitKind::Army } else { UnitKind::Fleet },
            location: Location::province(v.find_province(place).unwrap()),
        });
    }
    s
}

fn own(v: &Variant, s: &mut GameState, centre: &str, owner: &str) {
    s.owners[v.find_province(centre).unwrap() as usize] = Some(power(v, owner));
}

fn order(v: &Variant, p: &str, text: &str) -> chancery_engine::order::Order {
    parse_order(v, power(v, p), text).unwrap()
}

fn bid(v: &Variant, p: &str, dp: u32, text: &str) -> Bid {
    Bid {
        power: power(v, p),
        dp,
        order: order(v, p, text),
    }
}

fn total(v: &Variant, s: &GameState, p: &str) -> Budget {
    budget(v, s, power(v, p))
}

/// Rule 2: "France receives 5 DPs. The other Great Powers are allocated 3 DPs each";
/// "Factions do not receive any DPs" (1936); 1648 the same 5 and 3.
#[test]
fn opening_budgets() {
    let v = variant("1936");
    let s = GameState::initial(&v);
    let all = budgets(&v, &s);
    assert_eq!(all.len(), 7);
    for b in &all {
        let want = if b.power == power(&v, "France") { 5 } else { 3 };
        assert_eq!(b.total, want, "{}: {:?}", v.power(b.power).name, b.lines);
    }
    assert_eq!(total(&v, &s, "Nationalist Spain").total, 0);
    assert_eq!(total(&v, &s, "Austria").total, 0);
    let v = variant("1648");
    let s = GameState::initial(&v);
    assert_eq!(total(&v, &s, "France").total, 5);
    assert_eq!(total(&v, &s, "Sweden").total, 3);
}

/// Rule 2: "Deduct 1 DP ... for each SC it originally owned, yet is controlled by
/// another power"; never below 0.
#[test]
fn lost_centres_cost_a_dp_each_down_to_zero() {
    let v = variant("1936");
    let mut s = GameState::initial(&v);
    own(&v, &mut s, "Berlin", "Poland");
    let b = total(&v, &s, "Germany");
    assert_eq!(b.total, 2);
    assert!(
        b.lines.iter().any(|l| l.contains("Berlin") && l.contains("Poland")),
        "{:?}",
        b.lines
    );
    // The same deduction as the player reads it.
    assert_eq!(b.base, 3);
    assert_eq!(
        b.deductions,
        [Deduction {
            dp: 1,
            reason: "Berlin is held by Poland".into()
        }]
    );
    // Italy loses its four home centres and its faction holds no Spanish centre:
    // 3 - 4 - 1 is floored at 0.
    let mut s = GameState::initial(&v);
    for c in ["Rome", "Milan", "Naples", "Libya"] {
        own(&v, &mut s, c, "France");
    }
    own(&v, &mut s, "Burgos", "Republican Spain");
    let b = total(&v, &s, "Italy");
    assert_eq!(b.total, 0);
    assert!(b.lines.last().unwrap().contains("floored at 0"), "{:?}", b.lines);
}

/// Rule 2, 1936: "French ownership of any SC within two spaces of Lebanon (i.e. Ankara,
/// Iraq, Suez) cancels any penalty for losing Lebanon."
#[test]
fn lebanon_exception() {
    let v = variant("1936");
    let mut s = GameState::initial(&v);
    own(&v, &mut s, "Lebanon", "Turkey");
    assert_eq!(total(&v, &s, "France").total, 4);
    own(&v, &mut s, "Iraq", "France");
    let b = total(&v, &s, "France");
    assert_eq!(b.total, 5, "{:?}", b.lines);
    assert!(b.lines.iter().any(|l| l.contains("excused") && l.contains("Iraq")));
    assert_eq!(b.deductions.len(), 1);
    assert_eq!(b.deductions[0].dp, 0, "excused");
    assert!(
        b.deductions[0].reason.starts_with("Lebanon is held by Turkey, excused"),
        "{:?}",
        b.deductions
    );
    // The exception covers Lebanon only.
    own(&v, &mut s, "Paris", "Germany");
    assert_eq!(total(&v, &s, "France").total, 4);
}

/// Rule 2, 1936: "Deduct 1 DP from sponsor's DP budget if its corresponding faction
/// controls fewer Spanish SCs than the opposing faction or no longer controls any".
#[test]
fn sponsor_penalty() {
    let v = variant("1936");
    let mut s = GameState::initial(&v);
    assert_eq!(total(&v, &s, "Italy").total, 3);
    assert_eq!(total(&v, &s, "Soviet Union").total, 3);
    own(&v, &mut s, "Madrid", "Republican Spain");
    assert_eq!(total(&v, &s, "Italy").total, 2);
    assert_eq!(total(&v, &s, "Soviet Union").total, 3);
    own(&v, &mut s, "Burgos", "France");
    own(&v, &mut s, "Madrid", "France");
    own(&v, &mut s, "Valencia", "France");
    // Both factions hold none: both sponsors lose the DP.
    assert_eq!(total(&v, &s, "Italy").total, 2);
    assert_eq!(total(&v, &s, "Soviet Union").total, 2);
}

/// Rule 2, 1648: Flanders is a centre Spain "originally owned" though not a home centre.
#[test]
fn flanders_counts_for_spain() {
    let v = variant("1648");
    let mut s = GameState::initial(&v);
    own(&v, &mut s, "Flanders", "France");
    let b = total(&v, &s, "Spain");
    assert_eq!(b.total, 2, "{:?}", b.lines);
    assert_eq!(total(&v, &s, "France").total, 5);
}

fn check(
    v: &Variant,
    s: &GameState,
    p: &str,
    orders: &[chancery_engine::order::Order],
    bids: &[Bid],
) -> Result<(), String> {
    check_bids(v, s, power(v, p), orders, bids).map_err(|e| e.message)
}

fn start_1936() -> (Variant, GameState) {
    let v = variant("1936");
    let s = GameState::initial(&v);
    (v, s)
}

/// Rule 3: "only one DP to a given power except for one minor power where an additional
/// DP might be allocated", within the budget.
#[test]
fn caps_and_budget() {
    let (v, s) = start_1936();
    let ok = [bid(&v, "Germany", 2, "A aus H"), bid(&v, "Germany", 1, "A hun H")];
    assert_eq!(check(&v, &s, "Germany", &[], &ok), Ok(()));
    let three = [bid(&v, "Germany", 3, "A aus H")];
    let e = check(&v, &s, "Germany", &[], &three).unwrap_err();
    assert!(e.starts_with("rule 3") && e.contains("at most 1 DP"), "{e}");
    let two_twos = [bid(&v, "Germany", 2, "A aus H"), bid(&v, "Germany", 2, "A hun H")];
    let e = check(&v, &s, "Germany", &[], &two_twos).unwrap_err();
    assert!(e.contains("only one minor unit may take 2 DPs"), "{e}");
    let twice = [bid(&v, "Germany", 1, "A aus H"), bid(&v, "Germany", 1, "A aus S A mun")];
    assert!(check(&v, &s, "Germany", &[], &twice).unwrap_err().contains("twice"));
    let over = [
        bid(&v, "Germany", 2, "A aus H"),
        bid(&v, "Germany", 1, "A hun H"),
        bid(&v, "Germany", 1, "A fin H"),
    ];
    let e = check(&v, &s, "Germany", &[], &over).unwrap_err();
    assert!(e.contains("spend 4 DPs") && e.contains("budget of 3 DPs"), "{e}");
    // Each breach is told apart by its kind, as well as in words.
    let kind = |bids: &[Bid]| check_bids(&v, &s, power(&v, "Germany"), &[], bids).unwrap_err().kind;
    assert_eq!(kind(&three), BidErrorKind::OverCap);
    assert_eq!(kind(&two_twos), BidErrorKind::OverCap);
    assert_eq!(kind(&twice), BidErrorKind::Twice);
    assert_eq!(kind(&over), BidErrorKind::OverBudget);
    // France may spend five.
    let french = [
        bid(&v, "France", 2, "A bel H"),
        bid(&v, "France", 1, "A boh H"),
        bid(&v, "France", 1, "A mor H"),
        bid(&v, "France", 1, "F gre H"),
    ];
    assert_eq!(check(&v, &s, "France", &[], &french), Ok(()));
}

/// Rule 3: what a bid may be: a great power's hold, move or support for a minor unit.
#[test]
fn what_a_bid_may_be() {
    let (v, s) = start_1936();
    let e = check(
        &v,
        &s,
        "Nationalist Spain",
        &[],
        &[bid(&v, "Nationalist Spain", 1, "A aus H")],
    )
    .unwrap_err();
    assert!(e.contains("gets no DPs"), "{e}");
    let e = check(&v, &s, "Italy", &[], &[bid(&v, "Italy", 1, "A mun H")]).unwrap_err();
    assert!(e.contains("only minor powers' units"), "{e}");
    let e = check(&v, &s, "Italy", &[], &[bid(&v, "Italy", 1, "A aus - lon")]).unwrap_err();
    assert!(e.contains("cannot be given that order"), "{e}");
    let e = check(&v, &s, "Italy", &[], &[bid(&v, "Italy", 1, "F gre C A aus - bos")]).unwrap_err();
    assert!(e.contains("not a convoy") || e.contains("cannot be given"), "{e}");
    // Rule 7: Yugoslavia's units never attack each other, so no bid can ask it.
    let e = check(&v, &s, "Italy", &[], &[bid(&v, "Italy", 1, "A ser - cro")]).unwrap_err();
    assert!(e.contains("never attack each other"), "{e}");
}

/// Rule 3: "may not allocate any DPs to a minor power it intends to attack (or support
/// an attack against)"; for Yugoslavia, Croatia and Serbia count as one.
#[test]
fn attack_ban() {
    let v = variant("1936");
    let s = at(
        &v,
        Season::Spring,
        1936,
        &[
            ("Germany", "A ber"),
            ("Czechoslovakia", "A boh"),
            ("Italy", "A ven"),
            ("Italy", "A svn"),
            ("Yugoslavia", "A cro"),
            ("Yugoslavia", "A ser"),
            ("Hungary", "A hun"),
        ],
    );
    let attack = [order(&v, "Germany", "A ber - boh")];
    let e = check(&v, &s, "Germany", &attack, &[bid(&v, "Germany", 1, "A boh H")]).unwrap_err();
    assert!(e.contains("attacks Czechoslovakia") && e.contains("A ber - boh"), "{e}");
    let yugo = [order(&v, "Italy", "A ven - cro")];
    let e = check(&v, &s, "Italy", &yugo, &[bid(&v, "Italy", 1, "A ser H")]).unwrap_err();
    assert!(e.contains("attacks Yugoslavia"), "{e}");
    let support = [order(&v, "Italy", "A svn S A hun - cro")];
    let e = check(&v, &s, "Italy", &support, &[bid(&v, "Italy", 1, "A ser S A cro")]).unwrap_err();
    assert!(e.contains("supports an attack on Yugoslavia"), "{e}");
    // An attack on another minor bars nothing here.
    assert_eq!(check(&v, &s, "Italy", &yugo, &[bid(&v, "Italy", 1, "A hun H")]), Ok(()));
}

/// Rule 3: "a bid that becomes barred because orders changed later is void at
/// adjudication and reported as void"; rule 12: the report says why.
#[test]
fn barred_later_is_void() {
    let v = variant("1936");
    let s = at(
        &v,
        Season::Spring,
        1936,
        &[("Germany", "A ber"), ("Czechoslovakia", "A boh"), ("Austria", "A aus")],
    );
    let bids = [bid(&v, "Germany", 1, "A boh S A aus")];
    assert_eq!(check(&v, &s, "Germany", &[], &bids), Ok(()));
    let later = [order(&v, "Germany", "A ber - boh")];
    let (orders, report) = resolve_bids(&v, &s, &later, &bids);
    let boh = v.find_province("boh").unwrap();
    assert!(orders.iter().all(|o| o.unit.location.province != boh), "{orders:?}");
    let unit = report
        .units
        .iter()
        .find(|u| u.unit.power == power(&v, "Czechoslovakia"))
        .unwrap();
    assert_eq!(unit.void.len(), 1);
    assert!(unit.void[0].reason.contains("attacks Czechoslovakia"));
    assert!(report.text(&v).contains("void: Germany 1 DP"));
}

/// Rule 3 at adjudication: bids past a limit (only reachable when the caller skipped
/// `check_bids`) are void one by one, in the order given; the others count.
#[test]
fn over_limits_at_adjudication() {
    let v = variant("1936");
    let s = at(
        &v,
        Season::Spring,
        1936,
        &[("Austria", "A aus"), ("Hungary", "A hun"), ("Finland", "A fin")],
    );
    let bids = [
        bid(&v, "Germany", 2, "A aus - boh"),
        bid(&v, "Germany", 2, "A hun - svk"),
        bid(&v, "Germany", 1, "A fin H"),
        bid(&v, "Germany", 1, "A hun - svn"),
    ];
    let (orders, report) = resolve_bids(&v, &s, &[], &bids);
    let shown: Vec<String> = orders.iter().map(|o| o.display(&v).to_string()).collect();
    assert!(shown.contains(&"A aus - boh".to_string()), "{shown:?}");
    assert!(shown.contains(&"A fin H".to_string()));
    assert!(!shown.iter().any(|o| o.starts_with("A hun")), "{shown:?}");
    let hun = report
        .units
        .iter()
        .find(|u| u.unit.power == power(&v, "Hungary"))
        .unwrap();
    assert_eq!(hun.void.len(), 2, "{:?}", hun.void);
}

/// The order the bids give the unit at `at`; "none" when it gets none and so holds.
fn chosen(v: &Variant, s: &GameState, orders: &[chancery_engine::order::Order], bids: &[Bid], at: &str) -> String {
    let (out, _) = resolve_bids(v, s, orders, bids);
    let p = v.find_province(at).unwrap();
    out.iter()
        .find(|o| o.unit.location.province == p)
        .map_or("none".to_string(), |o| o.display(v).to_string())
}

/// Rule 4: the same order in other words adds up; the patron's bonus once per bid;
/// several patrons each get it; a tie holds.
#[test]
fn totals_bonus_and_ties() {
    let v = variant("1936");
    let s = at(
        &v,
        Season::Spring,
        1936,
        &[("Rumania", "A rum"), ("Bulgaria", "A bul"), ("Serbia", "A ser")].map(|(p, u)| {
            if p == "Serbia" {
                ("Yugoslavia", u)
            } else {
                (p, u)
            }
        }),
    );
    // Turkey and Britain (no patrons of Rumania) name the same support differently.
    let bids = [
        bid(&v, "Turkey", 1, "A rum S A bul"),
        bid(&v, "Britain", 1, "Rumania S Bulgaria"),
        bid(&v, "Italy", 1, "A rum - dob"),
    ];
    assert_eq!(chosen(&v, &s, &[], &bids, "rum"), "A rum S bul");
    // France and Poland are both Rumania's patrons: 1+1 and 1+1 against Turkey's 1+Britain's 1+Italy's 1.
    let bids = [
        bid(&v, "France", 1, "A rum - dob"),
        bid(&v, "Poland", 1, "A rum - dob"),
        bid(&v, "Turkey", 1, "A rum H"),
        bid(&v, "Britain", 1, "A rum H"),
        bid(&v, "Italy", 1, "A rum H"),
    ];
    let (out, report) = resolve_bids(&v, &s, &[], &bids);
    let rum = report
        .units
        .iter()
        .find(|u| u.unit.power == power(&v, "Rumania"))
        .unwrap();
    assert_eq!(rum.bids.iter().map(|b| b.value).sum::<u32>(), 7);
    assert!(matches!(rum.decision, resolve::Decision::Won { total: 4 }));
    assert!(out.iter().any(|o| o.display(&v).to_string() == "A rum - dob"));
    // Germany (patron, 1+1) against Italy (also a patron of Bulgaria, 1+1): tie, hold.
    let bids = [bid(&v, "Germany", 1, "A bul - mac"), bid(&v, "Italy", 1, "A bul - dob")];
    assert_eq!(chosen(&v, &s, &[], &bids, "bul"), "A bul H");
    // No bid: no order, so the unit holds.
    assert_eq!(chosen(&v, &s, &[], &[], "ser"), "none");
}

/// Rule 4: "+2 from Spring 1938" in 1936.
#[test]
fn bonus_rises() {
    let v = variant("1936");
    let units = [("Austria", "A aus")];
    let bids = [
        bid(&v, "Germany", 1, "A aus - boh"),
        bid(&v, "Italy", 2, "A aus - swi"),
        bid(&v, "Turkey", 1, "A aus - swi"),
    ];
    let early = at(&v, Season::Fall, 1937, &units);
    assert_eq!(chosen(&v, &early, &[], &bids, "aus"), "A aus - swi");
    let later = at(&v, Season::Spring, 1938, &units);
    assert_eq!(chosen(&v, &later, &[], &bids, "aus"), "A aus H");
}

/// Rule 5 (1648): "the sortie needs to be backed by its patron OR requires two or more
/// DPs from other great powers. No such restrictions ... for non-client minor powers."
#[test]
fn client_sorties_1648() {
    let v = variant("1648");
    let s = at(
        &v,
        Season::Spring,
        1649,
        &[("Swabia", "A swa"), ("Switzerland", "A swi")],
    );
    // One DP from a non-patron: set aside, Swabia holds.
    let lone = [bid(&v, "France", 1, "A swa - bav")];
    let (out, report) = resolve_bids(&v, &s, &[], &lone);
    assert!(out.is_empty(), "{out:?}");
    let swa = report
        .units
        .iter()
        .find(|u| u.unit.power == power(&v, "Swabia"))
        .unwrap();
    assert!(swa.totals[0].set_aside.as_deref().unwrap().starts_with("rule 5"));
    // Two powers, one DP each: considered.
    let two = [bid(&v, "France", 1, "A swa - bav"), bid(&v, "Spain", 1, "A swa - bav")];
    assert_eq!(chosen(&v, &s, &[], &two, "swa"), "A swa - bav");
    // The patron's one DP suffices.
    let patron = [bid(&v, "Sweden", 1, "A swa - bav")];
    assert_eq!(chosen(&v, &s, &[], &patron, "swa"), "A swa - bav");
    // Switzerland has no patron: one DP is enough.
    let free = [bid(&v, "France", 1, "A swi - swa")];
    assert_eq!(chosen(&v, &s, &[], &free, "swi"), "A swi - swa");
    // 1936 has no such rule.
    let v36 = variant("1936");
    let s36 = at(&v36, Season::Spring, 1936, &[("Austria", "A aus")]);
    assert_eq!(
        chosen(&v36, &s36, &[], &[bid(&v36, "Italy", 1, "A aus - swi")], "aus"),
        "A aus - swi"
    );
}

/// Rule 12: the outcome shows each minor unit's order and result in the minor's name;
/// bidders appear only in the GM's report.
#[test]
fn bids_stay_secret() {
    let v = variant("1936");
    let s = at(
        &v,
        Season::Spring,
        1936,
        &[("Germany", "A ber"), ("Czechoslovakia", "A boh"), ("Austria", "A aus")],
    );
    let orders = vec![order(&v, "Germany", "A ber - boh")];
    let bids = [
        bid(&v, "Italy", 1, "A aus S A ber - boh"),
        bid(&v, "Turkey", 1, "A aus H"),
    ];
    let (minor, report) = resolve_bids(&v, &s, &orders, &bids);
    assert!(minor.iter().all(|o| v.is_minor(o.power)));
    let all: Vec<_> = orders.iter().chain(minor.iter()).copied().collect();
    let adj = chancery_engine::adjudicate::adjudicate(&v, &s, &all);
    let json = chancery_engine::json::adjudication_json(&v, &adj);
    let public = format!("{:?} {:?}", json.results, json.refused);
    assert!(!public.contains("Italy") && !public.contains("Turkey"), "{public}");
    let austria = json.results.iter().find(|r| r.unit == "A aus").unwrap();
    assert_eq!(austria.power, "Austria");
    let gm = report.text(&v);
    assert!(
        gm.contains("Italy 1 DP") && gm.contains("Turkey 1 DP") && gm.contains("tie at 1"),
        "{gm}"
    );
}

/// Rule 11: civil disorder disbands the units; empty centres become minors with an
/// army; occupied ones stay until a Fall leaves them empty; former minors' centres go
/// back to those minors.
#[test]
fn civil_disorder_makes_minors() {
    let v = variant("1936");
    let mut s = GameState::initial(&v);
    let germany = power(&v, "Germany");
    own(&v, &mut s, "Austria", "Germany");
    // A French army sits in Munich.
    let mun = v.find_province("mun").unwrap();
    s.units.retain(|u| u.location.province != mun);
    s.units.push(Unit {
        power: power(&v, "France"),
        kind: UnitKind::Army,
        location: Location::province(mun),
    });
    let aus = v.find_province("aus").unwrap();
    s.units.retain(|u| u.location.province != aus);
    let next = civil_disorder(&v, &s, germany);
    assert_eq!(next.disordered, vec![germany]);
    assert_eq!(civil_disorder(&v, &next, germany).disordered, vec![germany]);
    let ber = v.find_province("ber").unwrap();
    let ham = v.find_province("ham").unwrap();
    assert!(next
        .units
        .iter()
        .any(|u| u.location.province == ber && u.power == germany && u.kind == UnitKind::Army));
    assert!(next
        .units
        .iter()
        .any(|u| u.location.province == ham && u.power == germany && u.kind == UnitKind::Army));
    assert!(next
        .units
        .iter()
        .any(|u| u.location.province == aus && u.power == power(&v, "Austria")));
    assert_eq!(next.owners[aus as usize], Some(power(&v, "Austria")));
    assert_eq!(next.owners[mun as usize], Some(germany));
    assert_eq!(next.unit_at(mun).unwrap().power, power(&v, "France"));
    // Its units now take bids, from others; it bids no more, and has no budget.
    let bids = [bid(&v, "France", 1, "A ber - sil")];
    let (out, _) = resolve_bids(&v, &next, &[], &bids);
    assert!(out.iter().any(|o| o.display(&v).to_string() == "A ber - sil"));
    let refused = check_bids(&v, &next, germany, &[], &[bid(&v, "Germany", 1, "A aus H")]);
    assert!(refused.unwrap_err().message.contains("civil disorder"));
    assert_eq!(budget(&v, &next, germany).total, 0);
    // The same bid before the disorder is Germany's to make.
    let before = [bid(&v, "Germany", 1, "A boh H")];
    assert!(check_bids(&v, &s, germany, &[], &before).is_ok());
    // Munich, once empty after a Fall, is rebuilt as an independent minor in the Winter.
    let mut winter = next.clone();
    winter.units.retain(|u| u.location.province != mun);
    let rebuilt = chancery_engine::adjust::minor_rebuilds(&v, &winter);
    assert!(rebuilt.iter().any(|u| u.location.province == mun && u.power == germany));
}

/// Rule 8: "Should a faction's sponsoring Great Power ... be eliminated, its faction is
/// immediately put into civil disorder."
#[test]
fn orphaned_faction() {
    let v = variant("1936");
    let mut s = GameState::initial(&v);
    assert!(orphaned_factions(&v, &s).is_empty());
    let italy = power(&v, "Italy");
    s.units.retain(|u| u.power != italy);
    for o in s.owners.iter_mut() {
        if *o == Some(italy) {
            *o = Some(power(&v, "France"));
        }
    }
    let nationalists = power(&v, "Nationalist Spain");
    assert_eq!(orphaned_factions(&v, &s), vec![nationalists]);
    // In civil disorder the faction's army in Burgos is an independent minor that takes
    // bids (rule 11), with no patron (no Spanish centre is anyone's client).
    let next = civil_disorder(&v, &s, nationalists);
    assert!(orphaned_factions(&v, &next).is_empty(), "declared once");
    // A sponsor put in permanent civil disorder (rule 11) is gone as surely: its
    // faction follows at once, although the sponsor's centres still stand in its name.
    let declared = civil_disorder(&v, &GameState::initial(&v), italy);
    assert!(declared.centre_count(italy) > 0);
    assert_eq!(orphaned_factions(&v, &declared), vec![nationalists]);
    // The GM's declaration applies rule 8 in the same step.
    let (both, orphaned) = chancery_engine::dp::declare_civil_disorder(&v, &GameState::initial(&v), italy);
    assert_eq!(orphaned, vec![nationalists]);
    assert_eq!(both.disordered, vec![italy, nationalists]);
    assert!(orphaned_factions(&v, &both).is_empty());
    let brg = v.find_province("brg").unwrap();
    let army = *next.unit_at(brg).unwrap();
    assert_eq!(army.power, nationalists);
    assert!(patrons_of(&v, &army).is_empty());
    let bids = [bid(&v, "France", 1, "A brg - mad")];
    let (out, _) = resolve_bids(&v, &next, &[], &bids);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].display(&v).to_string(), "A brg - mad");
}

/// Rule 10: 18 centres; Italy counts with the Nationalists; two at once: more wins,
/// equal plays on; 1648 needs no margin over the runner-up.
#[test]
fn victory() {
    use chancery_engine::victory::winner;
    let v = variant("1936");
    let mut s = GameState::initial(&v);
    let give = |s: &mut GameState, who: &str, n: usize| {
        let p = power(&v, who);
        let mut left = n;
        for (i, prov) in v.provinces.iter().enumerate() {
            if left > 0 && prov.sc && s.owners[i] != Some(p) && prov.owner.is_none_or(|o| v.is_minor(o)) {
                s.owners[i] = Some(p);
                left -= 1;
            }
        }
    };
    // Italy 4 + 13 minors = 17, with Nationalist Burgos 18.
    give(&mut s, "Italy", 13);
    assert_eq!(chancery_engine::victory::victory_count(&v, &s, power(&v, "Italy")), 18);
    assert_eq!(winner(&v, &s), Some(power(&v, "Italy")));
    // The end-of-Fall check in `adjudicate` counts the same way.
    let mut fall = s.clone();
    fall.phase = Phase::new(Season::Fall, 1937, PhaseKind::Movement);
    // No units, so the centre count after the Fall leaves the owners as they are.
    fall.units.clear();
    let done = chancery_engine::adjudicate::adjudicate(&v, &fall, &[]);
    assert_eq!(done.winner, Some(power(&v, "Italy")));
    // Rule 8: a faction in civil disorder has no player; its Burgos counts for nobody.
    let mut orphaned = s.clone();
    orphaned.disordered.push(power(&v, "Nationalist Spain"));
    assert_eq!(
        chancery_engine::victory::victory_count(&v, &orphaned, power(&v, "Italy")),
        17
    );
    assert_eq!(winner(&v, &orphaned), None);
    // Rule 11: a great power in civil disorder cannot win, whatever stays in its name.
    let mut lapsed = s.clone();
    lapsed.disordered.push(power(&v, "Italy"));
    assert_eq!(winner(&v, &lapsed), None);
    let v48 = variant("1648");
    let mut s48 = GameState::initial(&v48);
    let france = power(&v48, "France");
    let spain = power(&v48, "Spain");
    let mut n = 0;
    for (i, prov) in v48.provinces.iter().enumerate() {
        let minor = prov.owner.is_some_and(|o| v48.is_minor(o));
        if minor && n < 15 {
            s48.owners[i] = Some(france);
            n += 1;
        } else if minor && n < 29 {
            s48.owners[i] = Some(spain);
            n += 1;
        }
    }
    // France 18, Spain 4 + 14 = 18: equal, play on.
    assert_eq!(s48.centre_count(france), 18);
    assert_eq!(s48.centre_count(spain), 18);
    assert_eq!(winner(&v48, &s48), None);
    // Spain one fewer: France wins with 18 against 17 (no two-centre margin).
    let fla = v48.find_province("fla").unwrap() as usize;
    s48.owners[fla] = Some(power(&v48, "England"));
    assert_eq!(winner(&v48, &s48), Some(france));
}
