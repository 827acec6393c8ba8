//! Orders as players type them: the notations the parser must read, and for bad input
//! a message that names the problem (never a panic).

use chancery_engine::builtin::builtin;
use chancery_engine::order::OrderKind;
use chancery_engine::parse::{parse_order, parse_order_line};
use chancery_engine::state::{GameState, Phase, PhaseKind};
use chancery_engine::validate::validate;
use chancery_engine::{Season, UnitKind, Variant};
use proptest::prelude::*;

fn standard() -> Variant {
    builtin("standard").unwrap().unwrap()
}

/// Parses and validates `text` for `power` at the Standard opening (or `state`).
fn check(v: &Variant, state: &GameState, power: &str, text: &str) -> Result<String, String> {
    let p = v.find_power(power).unwrap();
    let order = parse_order(v, p, text).map_err(|e| e.to_string())?;
    let order = validate(v, state, &order).map_err(|e| e.to_string())?;
    Ok(order.display(v).to_string())
}

#[test]
fn notations_players_type_are_read() {
    let v = standard();
    let s = GameState::initial(&v);
    let good = [
        ("Austria", "A bud - ser", "A bud - ser"),
        ("Austria", "a BUD-ser", "A bud - ser"),
        ("Austria", "A Budapest -> Serbia", "A bud - ser"),
        ("Austria", "Army Budapest moves to Serbia", "A bud - ser"),
        ("Austria", "A bud to ser", "A bud - ser"),
        ("Austria", "bud - ser", "A bud - ser"),
        ("Russia", "F STP/SC - BOT", "F stp/sc - bot"),
        ("Russia", "F stp(sc) - bot", "F stp/sc - bot"),
        (
            "Russia",
            "F St Petersburg south coast - Gulf of Bothnia",
            "F stp/sc - bot",
        ),
        ("Russia", "F St. Petersburg (sc) -> bot", "F stp/sc - bot"),
        ("Russia", "F sev H", "F sev H"),
        ("Russia", "F sev holds", "F sev H"),
        ("Russia", "A war S A mos - ukr", "A war S A mos - ukr"),
        ("Russia", "A war supports A mos", "A war S A mos"),
        ("Russia", "Russia: A war S A mos", "A war S A mos"),
        ("England", "F lon - eng", "F lon - eng"),
        ("England", "F London - English Channel", "F lon - eng"),
        ("France", "F bre - mid", "F bre - mao"),
        ("Germany", "A mun - Tyrol", "A mun - tyr"),
    ];
    for (power, text, want) in good {
        assert_eq!(check(&v, &s, power, text).as_deref(), Ok(want), "{text}");
    }
}

#[test]
fn adjustment_and_retreat_orders_parse() {
    let v = standard();
    let p = |t: &str| parse_order_line(&v, t).map(|(_, o)| o.kind);
    assert!(matches!(
        p("Build A mos"),
        Ok(OrderKind::Build {
            kind: Some(UnitKind::Army)
        })
    ));
    assert!(matches!(
        p("B F stp/nc"),
        Ok(OrderKind::Build {
            kind: Some(UnitKind::Fleet)
        })
    ));
    assert!(matches!(p("Remove A par"), Ok(OrderKind::Remove)));
    assert!(matches!(p("Disband F nth"), Ok(OrderKind::Disband)));
    assert!(matches!(p("A hol D"), Ok(OrderKind::Disband)));
    assert!(matches!(p("Waive"), Ok(OrderKind::Waive)));
    assert!(matches!(p("A hol R bel"), Ok(OrderKind::Retreat { .. })));
    assert!(matches!(
        p("A lon - bel via convoy"),
        Ok(OrderKind::Move { via_convoy: true, .. })
    ));
    assert!(matches!(p("F nth C A lon - bel"), Ok(OrderKind::Convoy { .. })));
    assert!(matches!(p("F nth convoys A lon to bel"), Ok(OrderKind::Convoy { .. })));
}

/// At least twenty distinct bad inputs, each with the message a player sees. Each
/// message must name the problem (the rule it breaks or the unknown name).
#[test]
fn bad_orders_get_precise_messages() {
    let v = standard();
    let opening = GameState::initial(&v);
    let mut retreat = GameState::initial(&v);
    retreat.phase = Phase::new(Season::Spring, 1901, PhaseKind::Retreat);
    let mut winter = GameState::initial(&v);
    winter.phase = Phase::new(Season::Fall, 1901, PhaseKind::Adjustment);
    let munich = v.find_province("mun").unwrap();
    winter.units.retain(|u| u.location.province != munich);
    let mut atlantic = GameState::initial(&v);
    atlantic.units.push(chancery_engine::Unit {
        power: v.find_power("France").unwrap(),
        kind: UnitKind::Fleet,
        location: chancery_engine::Location::province(v.find_province("mao").unwrap()),
    });
    let cases: &[(&GameState, &str, &str, &str)] = &[
        (&opening, "England", "", "empty"),
        (
            &opening,
            "England",
            "F nrth - eng",
            "unknown province `nrth`; did you mean `nth",
        ),
        (
            &opening,
            "Austria",
            "A Veinna - Galicia",
            "unknown province `veinna`; did you mean `vie (Vienna)`",
        ),
        (&opening, "England", "F lon - xyz", "unknown province `xyz`"),
        (&opening, "England", "F lon - nth - eng", "unexpected `-`"),
        (&opening, "England", "F lon jumps eng", "`jumps` is not an order"),
        (&opening, "England", "F lon - eng $", "unexpected character `$`"),
        (
            &opening,
            "England",
            "F lon - ",
            "the order stops where a province was expected",
        ),
        (
            &opening,
            "Russia",
            "F stp/xc - bot",
            "has no coast `xc`; its coasts are nc, sc",
        ),
        (&opening, "England", "A yor - lon", "there is no unit in Yorkshire"),
        (&opening, "England", "F lvp - iri", "an army"),
        (
            &opening,
            "England",
            "A lvp - iri",
            "an army cannot move to Irish Sea, which is sea",
        ),
        (
            &opening,
            "Germany",
            "F kie - mun",
            "a fleet cannot move to Munich, which is inland",
        ),
        (
            &opening,
            "England",
            "F edi - lon",
            "is not adjacent to Edinburgh for fleets",
        ),
        (
            &opening,
            "Germany",
            "A mun - par",
            "is not adjacent to Munich for armies",
        ),
        (&opening, "Germany", "F lon - nth", "belongs to England, not to you"),
        (&opening, "Germany", "F kie - kie", "cannot move to the space it is in"),
        (&opening, "Germany", "A mun S A mun", "cannot support itself"),
        (
            &opening,
            "Germany",
            "F kie S A mun - boh",
            "could not move to Bohemia itself",
        ),
        (
            &opening,
            "England",
            "F lon C A lvp - bel",
            "only a fleet at sea can convoy",
        ),
        (
            &opening,
            "England",
            "A lvp - bel",
            "no sea route can carry an army there",
        ),
        (&opening, "France", "F bre - spa", "not adjacent"),
        (
            &atlantic,
            "France",
            "F mao - spa",
            "more than one coast the fleet can reach; say which (nc or sc)",
        ),
        (
            &opening,
            "Turkey",
            "Build A con",
            "build orders are not allowed in Spring 1901 movement",
        ),
        (&retreat, "England", "F lon - nth", "was not dislodged"),
        (&winter, "Germany", "Build A par", "not one of your home centres"),
        (&winter, "Germany", "Build A ber", "occupied"),
        (
            &winter,
            "Germany",
            "Build F mun",
            "cannot be built in Munich, which is inland",
        ),
        (
            &winter,
            "Germany",
            "F kie - den",
            "move orders are not allowed in Winter 1901 adjustments",
        ),
        (
            &opening,
            "England",
            "Engalnd: F lon - nth",
            "unknown power `Engalnd`; did you mean `England`",
        ),
    ];
    assert!(cases.len() >= 20);
    for (state, power, text, want) in cases {
        match check(&v, state, power, text) {
            Ok(o) => panic!("`{text}` was accepted as `{o}`"),
            Err(e) => assert!(e.contains(want), "`{text}`: message `{e}` should contain `{want}`"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// No input may panic the parser or the validator.
    #[test]
    fn random_text_never_panics(text in "\\PC{0,60}") {
        let v = standard();
        let s = GameState::initial(&v);
        if let Ok((_, order)) = parse_order_line(&v, &text) {
            let _ = validate(&v, &s, &order);
        }
    }

    /// Random sequences of order-like words: still no panic.
    #[test]
    fn random_order_words_never_panic(words in proptest::collection::vec(
        proptest::sample::select(vec!["A", "F", "-", "S", "C", "H", "via", "convoy", "/", "(", ")", "sc", "nc", "stp",
            "bul", "spa", "lon", "nth", "Build", "Remove", "Waive", "D", "R", "to", "St", "Petersburg", "south", "coast",
            ":", "England"]),
        0..12)) {
        let v = standard();
        let s = GameState::initial(&v);
        let text = words.join(" ");
        if let Ok((_, order)) = parse_order_line(&v, &text) {
            let _ = validate(&v, &s, &order);
        }
    }
}

/// Original 1958's rule text calls three of its powers by short names (rule 2: Austria,
/// England, Turkey); the variant file gives them as aliases with their adjectives, so a
/// player may write either, as the name before an order, a nationality before a unit,
/// or the power after `B`.
#[test]
fn original_1958_reads_its_powers_short_names() {
    let v = builtin("original-1958").unwrap().unwrap();
    let named = |n: &str| v.find_power(n).unwrap_or_else(|| panic!("`{n}` is not a power"));
    for (short, full) in [
        ("England", "United Kingdom"),
        ("Turkey", "Ottoman Turkey"),
        ("Austria", "Austria-Hungary"),
    ] {
        assert_eq!(named(short), named(full), "{short}");
        let (p, _) = parse_order_line(&v, &format!("{short}: A par H")).unwrap();
        assert_eq!(p, Some(named(full)));
    }
    let france = named("France");
    for (adjective, full) in [
        ("English", "United Kingdom"),
        ("Turkish", "Ottoman Turkey"),
        ("Austrian", "Austria-Hungary"),
    ] {
        let o = parse_order(&v, france, &format!("A bre B {adjective}")).unwrap();
        assert_eq!(
            o.kind,
            OrderKind::Board {
                to: None,
                with: Some(named(full))
            },
            "{adjective}"
        );
        let o = parse_order(&v, france, &format!("A bur S {adjective} A par")).unwrap();
        assert!(matches!(o.kind, OrderKind::SupportHold { .. }), "{adjective}: {o:?}");
    }
    // The name shown stays the page's own.
    assert_eq!(v.power(named("England")).name, "United Kingdom");
    assert_eq!(v.power(named("England")).adjective.as_deref(), Some("British"));
}

/// Every variant's powers answer to the usual short forms and other names players write
/// (a player writes what they know): as the name before an order, and, with their adjectives, as the
/// nationality before a unit. The name shown stays the variant's own.
#[test]
fn every_variant_reads_its_powers_other_names() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            "standard",
            &[
                ("Aus", "Austria"),
                ("Austria-Hungary", "Austria"),
                ("Eng", "England"),
                ("Fra", "France"),
                ("Ger", "Germany"),
                ("Ita", "Italy"),
                ("Rus", "Russia"),
                ("Tur", "Turkey"),
                ("Ottoman Empire", "Turkey"),
            ],
        ),
        (
            "1936",
            &[
                ("Great Britain", "Britain"),
                ("United Kingdom", "Britain"),
                ("UK", "Britain"),
                ("England", "Britain"),
                ("USSR", "Soviet Union"),
                ("Russia", "Soviet Union"),
                ("Sov", "Soviet Union"),
                ("Pol", "Poland"),
                ("Nationalists", "Nationalist Spain"),
                ("Republicans", "Republican Spain"),
                ("Romania", "Rumania"),
                ("Holland", "Netherlands"),
                ("Persia", "Iran"),
            ],
        ),
        (
            "1648",
            &[
                ("Muscovy", "Russia"),
                ("Ottoman Empire", "Turkey"),
                ("Denmark", "Denmark-Norway"),
                ("Den", "Denmark-Norway"),
                ("Poland", "Poland-Lithuania"),
                ("Pol", "Poland-Lithuania"),
                ("Swe", "Sweden"),
                ("Spa", "Spain"),
            ],
        ),
        (
            "original-1958",
            &[
                ("UK", "United Kingdom"),
                ("Britain", "United Kingdom"),
                ("Eng", "United Kingdom"),
                ("Tur", "Ottoman Turkey"),
                ("Ottoman Empire", "Ottoman Turkey"),
                ("Aus", "Austria-Hungary"),
            ],
        ),
    ];
    for (variant, names) in cases {
        let v = builtin(variant).unwrap().unwrap();
        for (other, full) in *names {
            let want = v.find_power(full).unwrap();
            assert_eq!(v.find_power(other), Some(want), "{variant}: `{other}`");
            let line = format!("{other}: A {} H", v.provinces[0].abbr);
            let (p, _) = parse_order_line(&v, &line).unwrap_or_else(|e| panic!("{variant}: `{line}`: {e}"));
            assert_eq!(p, Some(want), "{variant}: `{line}`");
            assert_eq!(v.power(want).name, *full);
        }
    }
    // Adjectives before a unit (DATC 4.C.5 reads a nationality there).
    for (variant, adjective, text) in [
        ("1936", "Russian", "A mos S Russian A len"),
        ("1648", "Muscovite", "A mos S Muscovite A nov"),
        ("1648", "Turkish", "A bel S Turkish F con"),
        ("standard", "Ottoman", "A con S Ottoman F ank"),
    ] {
        let v = builtin(variant).unwrap().unwrap();
        let o = parse_order(&v, 0, text).unwrap_or_else(|e| panic!("{variant}: {adjective}: {e}"));
        assert!(
            matches!(o.kind, OrderKind::SupportHold { .. }),
            "{variant}: {adjective}: {o:?}"
        );
    }
}

/// "Did you mean" weighs every name a power answers to, and proposes only a close one
/// ("Turkey" was once answered "did you mean Italy?").
#[test]
fn unknown_powers_get_only_a_close_suggestion() {
    for (variant, typed, want) in [
        ("original-1958", "Turky", Some("Turkey")),
        ("original-1958", "Englund", Some("England")),
        ("original-1958", "Ottoman Turky", Some("Ottoman Turkey")),
        ("1648", "Muscvy", Some("Muscovy")),
        ("1936", "USSSR", Some("USSR")),
        ("standard", "Turkei", Some("Turkey")),
        ("standard", "Bavaria", None),
        ("original-1958", "Spain", None),
        ("1936", "Yugoslvia", Some("Yugoslavia")),
        ("1648", "Holy Roman Empire", None),
    ] {
        let v = builtin(variant).unwrap().unwrap();
        let err = parse_order_line(&v, &format!("{typed}: A par H"))
            .unwrap_err()
            .to_string();
        match want {
            Some(name) => assert!(
                err.ends_with(&format!("did you mean `{name}`?")),
                "{variant}: `{typed}`: {err}"
            ),
            None => assert!(
                err.starts_with(&format!("unknown power `{typed}`")) && !err.contains("did you mean"),
                "{variant}: `{typed}`: {err}"
            ),
        }
    }
    // After `B`, adjectives are candidates too.
    let v = builtin("original-1958").unwrap().unwrap();
    let france = v.find_power("France").unwrap();
    let err = parse_order(&v, france, "A bre B Englsh").unwrap_err().to_string();
    assert!(err.ends_with("did you mean `English`?"), "{err}");
}

/// A convoy lands its army, so its destination must be a space an army may stand in:
/// `F nth C A lon - hel` would carry an army into the sea (DATC 6.A.2 forbids the army's
/// own move there; the convoy order asking for it is as impossible).
#[test]
fn a_convoy_to_a_sea_space_is_refused() {
    let v = standard();
    let mut s = GameState::initial(&v);
    let england = v.find_power("England").unwrap();
    let nth = v.find_province("nth").unwrap();
    s.units.retain(|u| u.power != england);
    for (kind, at) in [
        (UnitKind::Fleet, nth),
        (UnitKind::Army, v.find_province("lon").unwrap()),
    ] {
        s.units.push(chancery_engine::Unit {
            power: england,
            kind,
            location: chancery_engine::Location::province(at),
        });
    }
    assert_eq!(
        check(&v, &s, "England", "F nth C A lon - bel"),
        Ok("F nth C A lon - bel".into())
    );
    let refused = check(&v, &s, "England", "F nth C A lon - hel").unwrap_err();
    assert!(refused.contains("Helgoland Bight, which is sea"), "{refused}");
}

/// 1936, "The Spanish Civil War" (seed 000): "The Italian player submits orders for
/// Nationalist Spain, while the Soviet player does the same for Republican Spain",
/// the two "treated for all purposes other than victory as separate powers". So the
/// Soviet seat may write a line for Republican Spain: the faction's Winter builds are
/// the faction's own, its units' orders are the seat's, and another power's prefix
/// (Italy's faction, or Italy) is still refused.
#[test]
fn a_sponsor_writes_its_factions_orders_under_the_factions_name() {
    let v = builtin("1936").unwrap().unwrap();
    let soviet = v.find_power("Soviet Union").unwrap();
    let republicans = v.find_power("Republican Spain").unwrap();
    let madrid = v.find_province("Madrid").unwrap();

    let movement = GameState::initial(&v);
    let order = parse_order(&v, soviet, "Republican Spain: A val - mad").unwrap();
    assert_eq!(order.power, soviet, "a unit's order stays the seat's");
    assert!(validate(&v, &movement, &order).is_ok());
    for foreign in ["Nationalist Spain: A brg - mad", "Italy: A rom H"] {
        let e = parse_order(&v, soviet, foreign).unwrap_err().to_string();
        assert!(e.contains("not Soviet Union"), "{foreign}: {e}");
    }

    // Winter 1936 (the Fall adjustments) with Madrid taken by the Republicans: one build for the faction.
    let mut winter = GameState::initial(&v);
    winter.phase = Phase::new(Season::Fall, 1936, PhaseKind::Adjustment);
    winter.owners[madrid as usize] = Some(republicans);
    let build = parse_order(&v, soviet, "Republican Spain: Build A mad").unwrap();
    assert_eq!(build.power, republicans, "the build is the faction's");
    let result = chancery_engine::judge_phase(&v, &winter, &[build], &[]);
    let built: Vec<_> = result
        .adjudication
        .results
        .iter()
        .filter(|r| r.outcome == chancery_engine::Outcome::Built)
        .filter_map(|r| r.unit)
        .collect();
    assert_eq!(built.len(), 1, "{:?}", result.adjudication.refused);
    assert_eq!((built[0].power, built[0].location.province), (republicans, madrid));
    // Without the prefix the same words are the Soviet Union's, which has no home there.
    let own = parse_order(&v, soviet, "Build A mad").unwrap();
    assert_eq!(own.power, soviet);
    assert!(validate(&v, &winter, &own).is_err());
}
