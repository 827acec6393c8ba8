#!/usr/bin/env python3
"""Chancery's Python package against the `diplomacy` package (PyPI 1.1.2), side by side in
one process: the same Standard phases (random games whose orders come from the package's
own lists), each engine timed on the same work, the two alternating round by round so
that the machine's load falls on both alike.

    python bench/python-vs-diplomacy.py [--games 20] [--rounds 5] [--seed 1] [--many-only]

Prints, per measure, the median over rounds of the per-phase mean, and the ratio; then
`process_many` over every recorded position on 1, 2 and all cores, the thread counts
alternating within each round (`--many-only` skips the comparison with the package).
"""

import argparse
import os
import random
import sys
import statistics
import time

import chancery
import diplomacy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "python", "tests"))
from random_orders import pick_orders  # noqa: E402


def record_games(n, seed, years=8):
    """Each game as a list of phases' orders, played in the package."""
    games = []
    for g in range(n):
        rng = random.Random(seed * 1000 + g)
        d = diplomacy.Game()
        phases = []
        while not d.is_game_done and int(d.get_current_phase()[1:5]) < 1901 + years:
            orders = pick_orders(d, rng)
            for p, lst in orders.items():
                d.set_orders(p, lst)
            d.process()
            phases.append(orders)
        games.append(phases)
    return games


def time_process(engine, games):
    """Mean seconds per process() over every phase of every game."""
    total, count = 0.0, 0
    for phases in games:
        g = diplomacy.Game() if engine == "diplomacy" else chancery.Game()
        for orders in phases:
            for p, lst in orders.items():
                if engine == "diplomacy":
                    g.set_orders(p, lst)
                else:
                    g.set_orders(p, lst, strict=False)
            t = time.perf_counter()
            g.process()
            total += time.perf_counter() - t
            count += 1
    return total / count


def time_possible(engine, games):
    """Mean seconds per get_all_possible_orders() over the positions of the games."""
    total, count = 0.0, 0
    for phases in games:
        g = diplomacy.Game() if engine == "diplomacy" else chancery.Game()
        for orders in phases:
            t = time.perf_counter()
            g.get_all_possible_orders()
            total += time.perf_counter() - t
            count += 1
            for p, lst in orders.items():
                if engine == "diplomacy":
                    g.set_orders(p, lst)
                else:
                    g.set_orders(p, lst, strict=False)
            g.process()
    return total / count


def positions_for_many(games):
    """Chancery games at every recorded phase, with that phase's orders given."""
    out = []
    for phases in games:
        g = chancery.Game()
        for orders in phases:
            for p, lst in orders.items():
                g.set_orders(p, lst, strict=False)
            out.append(g.copy())
            g.process()
    return out


def time_many(batch, threads):
    games = [g.copy() for g in batch]
    t = time.perf_counter()
    chancery.process_many(games, threads=threads)
    return (time.perf_counter() - t) / len(games)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--many-only", action="store_true")
    a = ap.parse_args()
    games = record_games(a.games, a.seed)
    phases = sum(len(g) for g in games)
    print(f"{a.games} games, {phases} phases; load average {os.getloadavg()[0]:.2f} at the start")
    res = {k: [] for k in ["process/diplomacy", "process/chancery", "possible/diplomacy", "possible/chancery"]}
    for r in range(0 if a.many_only else a.rounds):
        order = ["diplomacy", "chancery"] if r % 2 == 0 else ["chancery", "diplomacy"]
        for engine in order:
            res[f"process/{engine}"].append(time_process(engine, games))
        for engine in order:
            res[f"possible/{engine}"].append(time_possible(engine, games))
    if not a.many_only:
        print_comparison(res)
    batch = positions_for_many(games) * 4
    cores = os.cpu_count() or 1
    counts = sorted({1, 2, cores})
    many = {n: [] for n in counts}
    for r in range(a.rounds):
        for n in counts if r % 2 == 0 else reversed(counts):
            many[n].append(time_many(batch, n))
    one = statistics.median(many[1])
    for n in counts:
        t = statistics.median(many[n])
        print(f"process_many({len(batch)} games, threads={n}): {t * 1e6:6.2f} µs per game-phase, {one / t:4.2f}× one thread")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


def print_comparison(res):
    med = {k: statistics.median(v) * 1e6 for k, v in res.items()}
    print(f"process():                 diplomacy {med['process/diplomacy']:8.1f} µs   chancery {med['process/chancery']:7.1f} µs   {med['process/diplomacy'] / med['process/chancery']:5.1f}×")
    print(f"get_all_possible_orders(): diplomacy {med['possible/diplomacy']:8.1f} µs   chancery {med['possible/chancery']:7.1f} µs   {med['possible/diplomacy'] / med['possible/chancery']:5.1f}×")


if __name__ == "__main__":
    main()
