"""The 164 cases of DATC v3.0 chapter 6 (the project's tests/datc/*.txt, in the jDip case
format of docs/case-format.md) judged through the Python API alone: a game is set up with
`clear_units`, `set_current_phase`, `set_units` and `set_centers`, given its orders with
`set_orders`, judged with `process`, and compared with `get_units`. The retreat half of a
6.H case goes on from the game its movement half left, as a game would."""

import pathlib
import re

import pytest

import chancery

DATC = pathlib.Path(__file__).resolve().parents[3] / "tests" / "datc"

SEASONS = {"spring": "S", "fall": "F", "autumn": "F", "winter": "W"}
KINDS = {"movement": "M", "retreat": "R", "retreats": "R", "adjustment": "A", "adjustments": "A", "builds": "A"}


def phase_code(text):
    m = re.match(r"\s*(\w+)\s+(\d+)\s*,\s*(\w+)", text)
    season, year, kind = m.group(1).lower(), m.group(2), m.group(3).lower()
    k = KINDS[kind]
    return ("W" if k == "A" else SEASONS[season]) + year + k


def read_cases():
    cases = []
    for path in sorted(DATC.glob("*.txt")):
        case = None
        section = None
        for raw in path.read_text().splitlines():
            line = raw.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            word = line.split()[0]
            if word == "CASE":
                case = {"name": line.split(None, 1)[1].strip(), "sections": {}, "phase": None, "file": path.name}
                section = None
            elif case is None:
                continue  # VARIANT_ALL and other file-level lines
            elif word == "END":
                cases.append(case)
                case = None
            elif word == "PRESTATE_SETPHASE":
                case["phase"] = phase_code(line.split(None, 1)[1])
            elif word == "POSTSTATE_SAME":
                case["sections"]["POSTSTATE_SAME"] = []
            elif word.isupper() and not line.startswith(("\t", " ")):
                section = word
                case["sections"].setdefault(section, [])
            elif case is not None and section:
                case["sections"][section].append(line.strip())
    return cases


def unit_line(line):
    power, unit = line.split(":", 1)
    kind, place = unit.split()
    return power.strip().upper(), f"{kind.upper()} {place.upper()}"


def units_now(game):
    out = set()
    for power, units in game.get_units().items():
        for u in units:
            if not u.startswith("*"):
                out.add((power, u))
    return out


def dislodged_now(game):
    return {(p, u[1:]) for p, units in game.get_units().items() for u in units if u.startswith("*")}


CASES = read_cases()


def test_every_datc_case_is_read():
    # 6.H.N.retreat halves and 6.J.9.b, a second position for one case, share an id.
    ids = {".".join(c["name"].split(".")[:3]) for c in CASES}
    assert len(ids) == 164, len(ids)


def run_case(case, previous):
    s = case["sections"]
    if case["name"].endswith(".retreat"):
        game = previous
        assert game is not None, case["name"]
        if not game.phase.endswith("R"):
            # Every dislodged unit had nowhere to go: a game disbands them and skips the
            # retreat phase, so there is nothing to order and the position must already
            # be the expected one.
            expected = {unit_line(line) for line in s.get("POSTSTATE", [])}
            assert units_now(game) == expected, f"{case['name']}: {sorted(units_now(game))}"
            return game
        expected = {unit_line(line) for line in s.get("PRESTATE_DISLODGED", [])}
        assert expected <= dislodged_now(game), f"{case['name']}: dislodged {dislodged_now(game)}"
    else:
        game = chancery.Game("standard")
        game.clear_units()
        game.set_current_phase(case["phase"])
        for line in s.get("PRESTATE", []):
            power, unit = unit_line(line)
            game.set_units(power, [unit], reset=False)
        if "PRESTATE_SUPPLYCENTER_OWNERS" in s:
            game.clear_centers()
            for line in s["PRESTATE_SUPPLYCENTER_OWNERS"]:
                power, unit = unit_line(line)
                game.set_centers(power, [unit.split()[1]], reset=False)
    before = units_now(game)
    orders, must_refuse = {}, []
    for line in s.get("ORDERS", []):
        m = re.match(r'REFUSED(?:\s+"([^"]*)")?\s*:\s*(.*)', line)
        if m:
            words, line = m.group(1), m.group(2)
            must_refuse.append((line.split(":", 1)[1].strip(), words))
        power, order = line.split(":", 1)
        orders.setdefault(power.strip(), []).append(order.strip())
    refused = []
    for power, lst in orders.items():
        refused += game.set_orders(power, lst, strict=False)
    for order, words in must_refuse:
        hits = [r for r in refused if r.startswith(f"`{order}`")]
        assert hits, f"{case['name']}: `{order}` must be refused; refused: {refused}"
        if words:
            assert words in hits[0], f"{case['name']}: refusal of `{order}` should say {words!r}: {hits[0]}"
    results = game.process()
    if "POSTSTATE_SAME" in s:
        assert units_now(game) == before, case["name"]
        assert not dislodged_now(game), case["name"]
    if "POSTSTATE" in s:
        expected = {unit_line(line) for line in s["POSTSTATE"]}
        assert units_now(game) == expected, f"{case['name']}: {sorted(units_now(game))} != {sorted(expected)}"
    if "POSTSTATE_DISLODGED" in s:
        expected = {unit_line(line) for line in s["POSTSTATE_DISLODGED"]}
        got = {(r["power"], r["unit"]) for r in results if r["result"] == "dislodged"}
        assert expected <= got, f"{case['name']}: dislodged {got}, expected {expected}"
        # The case may leave out a unit with nowhere to retreat: one not waiting to.
        for unit in got - expected:
            assert unit not in dislodged_now(game), f"{case['name']}: {unit} dislodged, not in the case"
    return game


@pytest.mark.parametrize("file", sorted({c["file"] for c in CASES}))
def test_datc_cases_through_the_python_api(file):
    previous = None
    for case in [c for c in CASES if c["file"] == file]:
        previous = run_case(case, previous)
