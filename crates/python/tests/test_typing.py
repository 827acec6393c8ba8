"""The typed stubs describe the module as it is: a script using the API passes
`mypy --strict`, and every name the stubs declare exists at run time."""

import pathlib
import subprocess
import sys

import pytest

import chancery

SCRIPT = '''
import chancery

g: chancery.Game = chancery.Game("standard")
units: list[str] = g.get_units("FRANCE")
every: dict[str, list[str]] = g.get_units()
possible: dict[str, list[str]] = g.get_all_possible_orders()
refused: list[str] = g.set_orders("FRANCE", ["A PAR - BUR"], strict=False)
for r in g.process():
    reason: str = r["reason"]
orders: list[str] = chancery.bot_orders(g, "FRANCE", seed=1, level="baseline")
chancery.process_many([g, g.copy()])
saved = g.to_saved_game_format()
again: chancery.Game = chancery.Game.from_saved_game_format(saved)
try:
    g.set_orders("FRANCE", "A PAR - MUN")
except chancery.OrderError as e:
    text: str = str(e)
'''


def test_the_stubs_pass_mypy_strict(tmp_path):
    pytest.importorskip("mypy")
    script = tmp_path / "use.py"
    script.write_text(SCRIPT)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", str(script)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_stubbed_name_exists():
    stub = pathlib.Path(chancery.__file__).with_name("_chancery.pyi").read_text()
    for name in ["Game", "process_many", "bot_orders", "bot_decision", "variants", "OrderError", "BidError"]:
        assert f" {name}" in stub or f"class {name}" in stub
        assert hasattr(chancery, name)
    for method in [m for m in dir(chancery.Game) if not m.startswith("_")]:
        assert f"def {method}(" in stub, f"Game.{method} has no stub"
    assert pathlib.Path(chancery.__file__).with_name("py.typed").exists()
