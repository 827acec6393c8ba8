"""Every built-in variant played through the Python API to its end: Diplomacy Point bids
in 1936 and 1648 (DP rules 2-3: each great power bids within its budget every Spring and
Fall), Original 1958's stacks and boarding (victory by 18 units, its rule 10), with the
bots giving the orders and `set_orders`/`set_bids` checking them as a player's."""

import pytest

import chancery

# A victory comes sooner with one player better than the rest.
STRONGER = {"standard": "FRANCE", "1936": "GERMANY", "1648": "FRANCE", "original-1958": "FRANCE"}


@pytest.mark.parametrize("variant", ["standard", "1936", "1648", "original-1958"])
def test_a_game_plays_to_its_victory(variant):
    game = chancery.Game(variant)
    bids_given = 0
    for turn in range(400):
        if game.is_game_done:
            break
        for n, power in enumerate(game.powers):
            level = "baseline" if power == STRONGER[variant] else "random"
            decision = chancery.bot_decision(game, power, seed=turn * 31 + n, level=level)
            # strict: any order or bid the engine refuses raises here.
            game.set_orders(power, decision["orders"])
            if decision["bids"]:
                game.set_bids(power, decision["bids"])
                bids_given += len(decision["bids"])
        game.process()
    assert game.is_game_done, f"{variant}: no winner by {game.phase}"
    phase, winner = game.outcome
    assert winner in game.powers
    if variant in ("1936", "1648"):
        assert bids_given > 0, "great powers bid DPs in a DP variant"
    if variant == "original-1958":
        # Rule 10: victory by 18 units, armies aboard fleets counted.
        assert len(game.get_units(winner)) >= 18
    else:
        assert len(game.get_centers(winner)) >= 18
    # The history replays from the saved game to the same end.
    again = chancery.Game.from_saved_game_format(game.to_saved_game_format())
    assert again.get_state()["units"] == game.get_state()["units"]
