"""Learning environments of the games beyond Nim: steps per second of
nimkit.rl.GameVectorEnv (stepped in Rust) against the same game as a numpy vector
environment (the same tables looked up with numpy), in the same run.

    python benches/rl_games.py [--envs 4096] [--steps 300]

Node Kayles on the 4 x 5 grid graph, Cram 4 x 5 and 3 x 6 (the value table), and
Kayles on heaps 3, 5 and 8 (each size's Grundy value), normal play and self-play.
Both return the same things each step: observations (a vertex or a place each),
rewards, terminations and, in their infos, the legal and the winning actions and the
outcome; both start a game again the step after it ends. The actions are
random legal ones, picked from the last action mask by the same numpy expression
with random numbers drawn before the clock starts; the clock runs inside ``step``
alone. Each contender runs three times in turn; the best counts.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from _cpu import describe

import nimkit as nk
from nimkit import rl

RUNS = 3


def autoreset(env, legal: np.ndarray, over: np.ndarray, fresh: np.ndarray) -> np.ndarray:
    """A step's rewards, terminations and new observations (games that ended the step
    before have started again: ``fresh``); returns the action mask."""
    rewards = np.where(legal, 1.0, -1.0).astype(np.float32) * over
    rewards[fresh] = 0
    terminated = over & ~fresh
    env.ended = terminated
    obs, infos = env.observe()
    _ = (obs, rewards, terminated)
    return infos["action_mask"]


class NumpyGame:
    """A game on a graph or board on many copies at once in numpy, next-step
    autoreset, with the labels and observations of nimkit's infos."""

    def __init__(self, game, n: int) -> None:
        t = game.value_table()
        self.needs, self.deletes, self.values = t.needs, t.deletes, t.grundy
        self.start, self.n, self.v = np.uint32(t.start), n, t.vertices
        self.masks = np.full(n, self.start, np.uint32)
        self.ended = np.zeros(n, bool)
        self.shifts = np.arange(self.v, dtype=np.uint32)

    def observe(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        m = self.masks[:, None]
        legal = (m & self.needs) == self.needs
        winning = legal & (self.values[m & ~self.deletes] == 0)
        obs = ((m >> self.shifts) & 1).astype(np.int8)
        p = self.values[self.masks] == 0
        infos = {
            "action_mask": legal.view(np.int8),
            "winning_mask": winning.view(np.int8),
            "outcome": np.where(p, "P", "N"),
        }
        return obs, infos

    def reset(self) -> np.ndarray:
        self.masks[:] = self.start
        self.ended[:] = False
        return self.observe()[1]["action_mask"]

    def step(self, actions: np.ndarray) -> np.ndarray:
        needs, deletes = self.needs[actions], self.deletes[actions]
        legal = (self.masks & needs) == needs
        after = np.where(legal, self.masks & ~deletes, self.masks)
        over = ~legal | ~(((after[:, None] & self.needs) == self.needs).any(axis=1))
        fresh = self.ended
        self.masks = np.where(fresh, self.start, after)
        return autoreset(self, legal, over, fresh)


class NumpyHeaps:
    """Heaps under a code that splits them on many copies at once in numpy (the
    tables and action ids of ``GameVectorEnv``), next-step autoreset, with the labels
    and observations of nimkit's infos."""

    def __init__(self, game, n: int) -> None:
        from nimkit.rl._heap_tables import heap_tables

        t = heap_tables(game, False, 4096)
        self.slot, self.take, self.a = t.decode()
        self.allowed, self.values = t.allowed, t.values
        self.start = t.start.astype(np.int64)
        self.heaps = np.tile(self.start, (n, 1))
        self.ended = np.zeros(n, bool)
        self.rows = np.arange(n)
        # One look-up a (game, action) in flat tables by (heap size, move kind): is it
        # a move, and the XOR it makes of the values of the heap and what it leaves.
        count, kinds = t.largest + 1, (t.max_take + 1) * (t.largest + 1)
        self.kind = (self.take * count + self.a).astype(np.intp)
        self.kinds = kinds
        n_, take, a = np.meshgrid(np.arange(count), np.arange(t.max_take + 1), np.arange(count),
                                  indexing="ij")  # fmt: skip
        b = n_ - take - a
        self.is_move = (self.allowed & (b >= a) & (n_ > 0)).reshape(-1)
        v = self.values
        delta = v[n_] ^ v[a] ^ v[np.clip(b, 0, t.largest)]
        self.delta = delta.reshape(-1).astype(np.int32)
        self.slot = self.slot.astype(np.intp)

    def labels(self, h: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        index = h[:, self.slot] * self.kinds + self.kind
        legal = self.is_move[index]
        x = np.bitwise_xor.reduce(self.values[h], axis=1)
        return legal, legal & (self.delta[index] == x[:, None]), x == 0

    def observe(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        legal, winning, p = self.labels(self.heaps)
        infos = {
            "action_mask": legal.view(np.int8),
            "winning_mask": winning.view(np.int8),
            "outcome": np.where(p, "P", "N"),
        }
        return self.heaps.copy(), infos

    def reset(self) -> np.ndarray:
        self.heaps[:] = self.start
        self.ended[:] = False
        return self.observe()[1]["action_mask"]

    def step(self, actions: np.ndarray) -> np.ndarray:
        h, rows = self.heaps, self.rows
        slot, take, a = self.slot[actions], self.take[actions], self.a[actions]
        size = h[rows, slot]
        b = size - take - a
        legal = (size > 0) & (b >= a) & self.allowed[size, take, a]
        after = h.copy()
        after[rows, slot] = np.where(legal, b, size)
        split = legal & (a > 0)
        empty = np.argmax(after == 0, axis=1)
        after[rows[split], empty[split]] = a[split]
        over = ~legal | ~self.labels(after)[0].any(axis=1)
        fresh = self.ended
        after[fresh] = self.start
        self.heaps = after
        return autoreset(self, legal, over, fresh)


class Ours:
    def __init__(self, game, n: int) -> None:
        self.env = rl.GameVectorEnv(n, game)

    def reset(self) -> np.ndarray:
        return self.env.reset(seed=0)[1]["action_mask"]

    def step(self, actions: np.ndarray) -> np.ndarray:
        return self.env.step(actions)[4]["action_mask"]


def steps_per_second(env, n: int, steps: int, draws: np.ndarray) -> float:
    """Steps per second of ``env.step`` alone: the clock stops while the actions
    are picked (the same expression for every contender)."""
    mask, inside = env.reset(), 0.0
    for s in range(steps):
        actions = np.argmax(np.where(mask != 0, draws[s], -1.0), axis=1)
        start = time.perf_counter()
        mask = env.step(actions)
        inside += time.perf_counter() - start
    return n * steps / inside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=300)
    a = parser.parse_args()
    print(f"# {describe()}")
    print(f"# {a.envs} games a vector env, self-play, random legal actions")
    grid = [((r, c), (r, c + 1)) for r in range(4) for c in range(4)]
    grid += [((r, c), (r + 1, c)) for r in range(3) for c in range(5)]
    games = [
        ("Node Kayles, 4 x 5 grid", nk.NodeKayles(grid)),
        ("Cram 4 x 5", nk.Cram(4, 5)),
        ("Cram 3 x 6", nk.Cram(3, 6)),
    ]
    kayles = ("Kayles, heaps 3 5 8", nk.Heaps([3, 5, 8], nk.Rules(code="0.77")))
    for name, game in [*games, kayles]:
        numpy_env = NumpyHeaps if isinstance(game, nk.Heaps) else NumpyGame
        ours, plain = Ours(game, a.envs), numpy_env(game, a.envs)
        actions = ours.env.single_action_space.n
        draws = np.random.default_rng(0).random((a.steps, a.envs, actions), np.float32)
        best = {"ours": 0.0, "numpy": 0.0}
        for _ in range(RUNS):
            for who, env in (("ours", ours), ("numpy", plain)):
                rate = steps_per_second(env, a.envs, a.steps, draws)
                best[who] = max(best[who], rate)
        print(
            f"{name}: rl.GameVectorEnv {best['ours'] / 1e6:.2f} M steps/s, numpy "
            f"{best['numpy'] / 1e6:.2f} M steps/s: {best['ours'] / best['numpy']:.1f}x"
        )


if __name__ == "__main__":
    main()
