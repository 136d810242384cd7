"""Learning environments: steps per second of nimkit.rl.NimVectorEnv against
OpenSpiel's raw nim loop and a plain numpy-vectorised Nim environment, and the time
of rl.dataset on the 7-heap board.

    python benches/rl.py [--envs 4096] [--steps 300] [--openspiel-steps 300000]

All play the board 1 3 5 ... 13 (normal play) with uniformly random legal actions.
The draws come from random numbers made before the clock starts, so that the figure
is the environment's: the vector environments pick a random nonempty heap and a
random take from it (the same numpy expression for both), OpenSpiel a random entry
of its legal_actions(). The vector environments return the same things each step:
observations, rewards, terminations and, in their infos, the legal and winning
actions and the outcome. Each contender runs three times in turn; the best counts.
pgx has no Nim environment, so it is not timed.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from _cpu import describe

from nimkit import rl

HEAPS = [1, 3, 5, 7, 9, 11, 13]
RUNS = 3


class NumpyNim:
    """Nim on many boards at once in plain numpy, next-step autoreset, with the same
    labels as nimkit's infos."""

    def __init__(self, n: int, heaps: list[int]) -> None:
        self.start = np.array(heaps, np.int64)
        self.n, self.m, self.top = n, len(heaps), max(heaps)
        self.heaps = np.tile(self.start, (n, 1))
        self.ended = np.zeros(n, bool)
        self.takes = np.arange(1, self.top + 1)
        self.rows = np.arange(n)

    def labels(self) -> dict[str, np.ndarray]:
        n, m, a = self.n, self.m, self.m * self.top + 1
        legal = np.zeros((n, a), np.int8)
        legal[:, :-1] = (self.heaps[:, None, :] >= self.takes[None, :, None]).reshape(n, -1)
        x = np.bitwise_xor.reduce(self.heaps, axis=1)
        target = self.heaps ^ x[:, None]
        take = self.heaps - target
        winning = np.zeros((n, a), np.int8)
        r, i = np.nonzero(take > 0)
        winning[r, (take[r, i] - 1) * m + i] = 1
        return {
            "action_mask": legal,
            "winning_mask": winning,
            "outcome": np.where(x == 0, "P", "N"),
        }

    def step(self, actions: np.ndarray):
        heap, take = actions % self.m, actions // self.m + 1
        size = self.heaps[self.rows, heap]
        legal = (actions >= 0) & (actions < self.m * self.top) & (take <= size)
        fresh = self.ended
        self.heaps[self.rows, heap] = np.where(legal & ~fresh, size - take, size)
        empty = ~self.heaps.any(axis=1)
        reward = np.where(fresh, 0.0, np.where(~legal, -1.0, np.where(empty, 1.0, 0.0)))
        terminated = ~fresh & (~legal | empty)
        self.heaps[fresh] = self.start
        self.ended = terminated
        return self.heaps.copy(), reward.astype(np.float32), terminated, self.labels()


def draws(steps: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (
        rng.random((steps, n, len(HEAPS)), np.float32),
        rng.random((steps, n), np.float32),
    )


def pick(obs: np.ndarray, u_heap: np.ndarray, u_take: np.ndarray) -> np.ndarray:
    """A random nonempty heap and a random take from it, as action ids (a finished
    game's action is ignored)."""
    heap = (u_heap * (obs > 0)).argmax(axis=1)
    size = obs[np.arange(len(obs)), heap]
    take = 1 + (u_take * size).astype(np.int64)
    return (take - 1) * len(HEAPS) + heap


def vector_steps_per_second(make, envs: int, steps: int) -> float:
    u_heap, u_take = draws(steps, envs, 1)
    best = 0.0
    for _ in range(RUNS):
        env = make()
        obs = env.reset()
        start = time.perf_counter()
        for s in range(steps):
            obs = env.step(pick(obs, u_heap[s], u_take[s]))
        best = max(best, envs * steps / (time.perf_counter() - start))
    return best


class NimkitAdapter:
    def __init__(self, envs: int) -> None:
        self.env = rl.NimVectorEnv(num_envs=envs, heaps=HEAPS, opponent=None)

    def reset(self) -> np.ndarray:
        return self.env.reset(seed=0)[0]

    def step(self, actions: np.ndarray) -> np.ndarray:
        return self.env.step(actions)[0]


class NumpyAdapter:
    def __init__(self, envs: int) -> None:
        self.env = NumpyNim(envs, HEAPS)

    def reset(self) -> np.ndarray:
        return self.env.heaps.copy()

    def step(self, actions: np.ndarray) -> np.ndarray:
        return self.env.step(actions)[0]


def openspiel_steps_per_second(steps: int) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("nim", {"pile_sizes": ";".join(map(str, HEAPS)), "is_misere": False})
    u = np.random.default_rng(2).random(steps).tolist()
    best = 0.0
    for _ in range(RUNS):
        state = game.new_initial_state()
        start = time.perf_counter()
        for s in range(steps):
            if state.is_terminal():
                state = game.new_initial_state()
            legal = state.legal_actions()
            state.apply_action(legal[int(u[s] * len(legal))])
        best = max(best, steps / (time.perf_counter() - start))
    return best


def dataset_seconds() -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        X, _ = rl.dataset(HEAPS, labels="winning_mask")
        best = min(best, time.perf_counter() - start)
    assert X.shape == (645_120, 7)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--openspiel-steps", type=int, default=300_000)
    args = parser.parse_args()
    print(f"# {describe()}")
    print(f"# board {' '.join(map(str, HEAPS))}, normal play, {args.envs} games a vector env")
    ours = vector_steps_per_second(lambda: NimkitAdapter(args.envs), args.envs, args.steps)
    plain = vector_steps_per_second(lambda: NumpyAdapter(args.envs), args.envs, args.steps)
    spiel = openspiel_steps_per_second(args.openspiel_steps)
    print(f"nimkit.rl.NimVectorEnv (fresh infos) {ours / 1e6:6.2f} M steps/s")
    print(f"numpy vectorised env (fresh infos)   {plain / 1e6:6.2f} M steps/s")
    print(f"  nimkit / numpy: {ours / plain:.1f}x")
    if spiel is None:
        print("OpenSpiel                not installed (the openspiel extra)")
    else:
        print(f"OpenSpiel raw nim loop               {spiel / 1e6:6.2f} M steps/s")
        print(f"  nimkit / OpenSpiel: {ours / spiel:.1f}x")
    print("pgx                      no Nim environment: not timed")
    print(f"rl.dataset, 645,120 positions with winning masks: {dataset_seconds():.3f} s")


if __name__ == "__main__":
    main()
