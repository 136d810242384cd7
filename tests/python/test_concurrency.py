"""Eight Python threads at once get the same answers as one, without deadlock."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import nimkit as nk
from nimkit import batch

RULES = nk.Rules(misere=True, max_take=(3, None, 7, 2))
HEAPS = np.random.default_rng(8).integers(0, 500, size=(300_000, 4), dtype=np.uint16)
SHARED_RULES = nk.Rules(max_take=5)  # one object, used by every thread


def work(seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    positions = [tuple(int(v) for v in rng.integers(0, 50, size=4)) for _ in range(200)]
    return (
        batch.is_p_position(HEAPS, RULES).tobytes(),
        batch.nim_sum(HEAPS, SHARED_RULES).tobytes(),
        tuple(a.tobytes() for a in batch.winning_move(HEAPS[::3], RULES)),
        batch.count_winning_moves(np.asfortranarray(HEAPS), RULES).tobytes(),
        tuple(nk.analyse(p, RULES).winning_moves for p in positions),
        nk.count_p_positions([10**12] * 4, RULES),
        nk.p_positions([20, 30, 40, 9], RULES).tobytes(),
        nk.simulate([1, 3, 5, 7], RULES, nk.PerfectPlayer(), nk.RandomPlayer(), 2000, seed).wins,
    )


def test_eight_threads_agree_with_one():
    seeds = list(range(16))
    alone = [work(seed) for seed in seeds]
    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = [pool.submit(work, seed) for seed in seeds]
        together = [future.result(timeout=120) for future in futures]
    assert together == alone


def test_one_player_serves_many_threads():
    # Each thread has its own game; the player is shared (it takes turns, never
    # "Already borrowed").
    player = nk.PerfectPlayer()

    def play(seed: int) -> int:
        game = nk.Game([3 + seed % 5, 4, 5, 6])
        while not game.is_over:
            game.push(player.choose(game))
        return len(game.history)

    with ThreadPoolExecutor(max_workers=8) as pool:
        lengths = list(pool.map(play, range(64)))
    assert lengths == [play(seed) for seed in range(64)]
