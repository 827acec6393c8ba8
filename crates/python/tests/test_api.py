"""The Python API's contract: the `diplomacy` package's names and forms, errors as
exceptions with the engine's words, the options module's lists matching what
`set_orders` takes, `process_many` matching `process`, bots deterministic."""

import random
import threading

import pytest

import chancery


def test_a_new_game_reads_like_the_package():
    g = chancery.Game()
    assert g.phase == g.get_current_phase() == "S1901M"
    assert g.powers == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
    assert sorted(g.get_units("RUSSIA")) == ["A MOS", "A WAR", "F SEV", "F STP/SC"]
    assert g.get_centers("france") == ["BRE", "MAR", "PAR"] or sorted(g.get_centers("france")) == ["BRE", "MAR", "PAR"]
    assert g.get_orderable_locations("RUSSIA") == ["MOS", "SEV", "STP", "WAR"]
    state = g.get_state()
    assert {"name", "units", "centers", "homes", "retreats", "builds", "civil_disorder"} <= set(state)
    assert state["builds"]["FRANCE"] == {"count": 0, "homes": []}
    assert not g.is_game_done and g.outcome == []


def test_orders_in_either_notation_and_results_with_reasons():
    g = chancery.Game()
    g.set_orders("FRANCE", ["A PAR - BUR", "F BRE - MAO"])
    g.set_orders("GERMANY", "Army Munich -> Burgundy")
    results = {r["unit"]: r for r in g.process()}
    # Two equal attacks on Burgundy bounce (the standoff rule; DATC 6.A.11's shape).
    assert results["A PAR"]["result"] == "bounce"
    assert "bounced" in results["A PAR"]["reason"] and "Munich" in results["A PAR"]["reason"]
    assert results["F BRE"]["result"] == ""
    assert g.phase == "F1901M"
    assert "F MAO" in g.get_units("FRANCE")


def test_refusals_are_exceptions_with_the_engines_words():
    g = chancery.Game()
    with pytest.raises(chancery.OrderError, match="not adjacent"):
        g.set_orders("FRANCE", ["A PAR - MUN"])
    # DATC 6.A.2: an army may not go to sea.
    with pytest.raises(chancery.OrderError, match="sea"):
        g.set_orders("ENGLAND", ["A LVP - IRI"])
    # Lenient like the package: the refusal is returned, the good order kept.
    refused = g.set_orders("ENGLAND", ["A LVP - IRI", "F LON - NTH"], strict=False)
    assert len(refused) == 1 and "IRI" in refused[0]
    assert g.get_orders("ENGLAND") == ["F LON - NTH"]
    with pytest.raises(chancery.ChanceryError, match="no power"):
        g.get_units("ATLANTIS")
    with pytest.raises(chancery.VariantError):
        chancery.Game("no-such-variant")
    assert issubclass(chancery.OrderError, ValueError)


def test_every_listed_order_is_accepted_and_the_lists_cover_the_units():
    rng = random.Random(7)
    g = chancery.Game()
    for _ in range(30):
        possible = g.get_all_possible_orders()
        for power in g.powers:
            chosen = []
            for loc in g.get_orderable_locations(power):
                options = [o for key, lst in possible.items() if key.split("/")[0] == loc for o in lst]
                assert options, f"{g.phase}: nothing listed for {power}'s {loc}"
                for o in options:
                    # strict: each listed order alone is accepted.
                    g.set_orders(power, [o])
                chosen.append(rng.choice(options))
            if g.phase.endswith("A"):
                chosen = chosen[: abs(g.get_state()["builds"][power]["count"])]
            g.set_orders(power, chosen, strict=False)
        g.process()


def test_process_many_matches_process_and_releases_the_lock():
    games = [chancery.Game() for _ in range(16)]
    twins = [g.copy() for g in games]
    for phase in range(12):
        for i, (g, t) in enumerate(zip(games, twins)):
            for power in g.powers:
                orders = chancery.bot_orders(g, power, seed=phase * 100 + i, level="random")
                g.set_orders(power, orders)
                t.set_orders(power, orders)
        chancery.process_many(games)
        for t in twins:
            t.process()
        for g, t in zip(games, twins):
            assert g.get_state()["units"] == t.get_state()["units"]
            assert g.phase == t.phase
    # Threads judge at once: the lock is released while the engine works.
    def work():
        for _ in range(50):
            chancery.Game().process()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_a_copy_is_independent():
    g = chancery.Game()
    c = g.copy()
    c.set_orders("FRANCE", ["A PAR - BUR"])
    c.process()
    assert g.phase == "S1901M" and "A PAR" in g.get_units("FRANCE")
    assert "A BUR" in c.get_units("FRANCE")


def test_bots_are_deterministic_and_legal_in_every_variant():
    for variant in chancery.variants():
        g = chancery.Game(variant)
        for power in g.powers:
            a = chancery.bot_decision(g, power, seed=3, level="baseline")
            b = chancery.bot_decision(g, power, seed=3, level="baseline")
            assert a == b
            g.set_orders(power, a["orders"])
            if a["bids"]:
                g.set_bids(power, a["bids"])
        g.process()


def test_bids_are_checked_against_rule_3():
    g = chancery.Game("1936")
    budget = g.get_budget("GERMANY")
    assert budget["total"] > 0 and budget["lines"]
    with pytest.raises(chancery.BidError):
        g.set_bids("GERMANY", [f"{budget['total'] + 5} A Austria H"] if False else ["99 A vie H"])
    with pytest.raises(chancery.OrderError, match="minor power"):
        g.set_orders("AUSTRIA", ["A vie H"])


def test_set_up_positions_like_the_package():
    g = chancery.Game()
    g.clear_units()
    g.set_current_phase("F1902M")
    g.set_units("ENGLAND", ["F NTH", "A YOR"])
    g.set_units("GERMANY", ["A HOL"], reset=False)
    g.clear_centers()
    g.set_centers("ENGLAND", ["LON", "EDI"])
    assert g.phase == "F1902M"
    assert sorted(g.get_units("ENGLAND")) == ["A YOR", "F NTH"]
    assert g.get_centers("ENGLAND") == ["EDI", "LON"] or sorted(g.get_centers("ENGLAND")) == ["EDI", "LON"]
    with pytest.raises(chancery.ChanceryError):
        g.set_current_phase("X1902Q")
