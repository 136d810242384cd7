"""Self-play speed: nimkit.simulate against OpenSpiel's nim played from Python.

    python benches/selfplay.py [--games 5000000] [--openspiel-games 20000]

Both play Marienbad (1 3 5 7, misère) with two uniformly random players; OpenSpiel
(the `openspiel` extra) is driven the way a Python user drives it: a loop over
states with a random choice among the legal actions. Prints games per second and
the ratio, measured in the same run (the best of three runs of each).
"""

from __future__ import annotations

import argparse
import os
import random
import time

# numpy's OpenBLAS keeps idle worker threads that compete with nimkit's on a small
# machine; neither engine uses BLAS, so one BLAS thread changes nothing else.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from _cpu import describe

import nimkit as nk

#: Each engine is timed this many times; the best run counts, for both alike.
RUNS = 3


def openspiel_games_per_second(games: int) -> float:
    import pyspiel

    game = pyspiel.load_game("nim", {"pile_sizes": "1;3;5;7", "is_misere": True})
    rng = random.Random(0)
    best = 0.0
    for _ in range(RUNS):
        start = time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        best = max(best, games / (time.perf_counter() - start))
    return best


def nimkit_games_per_second(games: int) -> float:
    variant = nk.presets.MARIENBAD
    players = nk.RandomPlayer(seed=1), nk.RandomPlayer(seed=2)
    nk.simulate(variant.position, variant.rules, *players, 1000)
    best = 0.0
    for run in range(RUNS):
        start = time.perf_counter()
        result = nk.simulate(variant.position, variant.rules, *players, games, seed=run)
        best = max(best, games / (time.perf_counter() - start))
        assert sum(result.wins) == games
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5_000_000)
    parser.add_argument("--openspiel-games", type=int, default=20_000)
    args = parser.parse_args()
    ours = nimkit_games_per_second(args.games)
    print(f"# {describe()}")
    print(f"nimkit.simulate:             {ours:>12,.0f} games/s")
    try:
        theirs = openspiel_games_per_second(args.openspiel_games)
    except ImportError:
        print("OpenSpiel is not installed: pip install 'nimkit[openspiel]'")
        return
    print(f"OpenSpiel nim from Python:   {theirs:>12,.0f} games/s")
    print(f"ratio:                       {ours / theirs:>12,.0f}x")


if __name__ == "__main__":
    main()
