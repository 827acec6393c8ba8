"""Random orders for a Standard game of the `diplomacy` package, drawn from its own lists
(a move more often than not, so that the games see contact): what the comparison test
and bench/python-vs-diplomacy.py give both engines."""


def pick_orders(dgame, rng):
    possible = dgame.get_all_possible_orders()
    chosen = {}
    # Sorted, since the package's lists come from sets (their order varies per process).
    for power, locs in sorted(dgame.get_orderable_locations().items()):
        locs = sorted(locs)
        orders = []
        if dgame.get_current_phase().endswith("A"):
            count = dgame.get_state()["builds"][power]["count"]
            options = sorted(o for loc in locs for o in possible[loc] if o != "WAIVE")
            rng.shuffle(options)
            used = set()
            for o in options:
                if len(orders) == abs(count):
                    break
                loc = o.split()[1][:3]
                if loc not in used:
                    used.add(loc)
                    orders.append(o)
        else:
            for loc in locs:
                if possible[loc]:
                    # Moves more often than not, so that the games see contact.
                    every = sorted(possible[loc])
                    moves = [o for o in every if " - " in o and " S " not in o and " C " not in o and "VIA" not in o]
                    pool = moves if moves and rng.random() < 0.6 else every
                    orders.append(rng.choice(pool))
        chosen[power] = orders
    return chosen
