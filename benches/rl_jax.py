"""JAX environments (nimkit.rl.jax): env-steps per second of random self-play, each
against a baseline measured in the same run.

    python benches/rl_jax.py [--envs 4096] [--steps 200]

- Nim (the board 1 3 5 ... 13): nimkit's environment against a hand-written JAX Nim
  environment of about 40 lines (the same labels: legal and winning actions, the
  outcome), both under ``jit(scan(vmap(step)))``, random legal actions drawn on the
  device, next-step autoreset.
- Kayles (0.77 on the heaps 3 5 8), Node Kayles (a 4 x 5 grid graph) and Cram (4 x 5):
  nimkit's environment under JAX against the same game in numpy (the value table
  looked up with numpy, the same labels), on the same random legal actions drawn
  from the batch's generator.

Where JAX runs on the CPU (no GPU here), that is what the figures are, and the script
says so. Each contender runs three times; the best counts.
"""

from __future__ import annotations

import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
from _cpu import describe

import nimkit as nk
from nimkit.rl import jax as rlj

NIM = [1, 3, 5, 7, 9, 11, 13]


def rollout(env, envs: int, steps: int):
    """A jitted function playing ``steps`` random legal moves in ``envs`` games at once,
    renewing each game that ended (next-step autoreset)."""
    step, init = jax.vmap(env.step), jax.vmap(env.init)

    def one(carry, _):
        state, fresh, key = carry
        key, pick = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(pick, logits)
        ended = state.terminated

        def renew(a, b):
            return jnp.where(ended.reshape((-1,) + (1,) * (a.ndim - 1)), a, b)

        state = jax.tree.map(renew, fresh, state)
        state = step(state, action, jax.random.split(pick, envs))
        return (state, fresh, key), state.winning_mask.sum()

    @jax.jit
    def run(key):
        # The games start where they started: the fresh states are made once.
        fresh = init(jax.random.split(key, envs))
        _, wins = jax.lax.scan(one, (fresh, fresh, key), None, length=steps)
        return wins.sum()

    return run


class HandNim:
    """The hand-written JAX Nim environment: heaps, OpenSpiel's action ids, the legal
    and winning masks by the nim-sum."""

    def __init__(self, heaps: list[int]) -> None:
        self.start = jnp.asarray(heaps, jnp.int32)
        self.h = len(heaps)
        self.num_actions = self.h * max(heaps)
        ids = jnp.arange(self.num_actions)
        self.heap, self.take = ids % self.h, ids // self.h + 1

    def _labels(self, heaps):
        legal = heaps[self.heap] >= self.take
        x = jnp.bitwise_xor.reduce(heaps)
        wins = legal & ((heaps[self.heap] - self.take) ^ heaps[self.heap] ^ x == 0)
        return legal, wins, x != 0

    def init(self, key):
        legal, wins, n = self._labels(self.start)
        return rlj.State(
            self.start, self.start, legal, wins, jnp.int32(0), n, jnp.zeros(2), False, 0, 0
        )

    def step(self, state, action, key):
        heaps = state.position.at[self.heap[action]].add(-self.take[action])
        legal, wins, n = self._labels(heaps)
        over = ~legal.any()
        return state._replace(
            position=heaps,
            observation=heaps,
            legal_action_mask=legal,
            winning_mask=wins,
            wins=n,
            terminated=over,
            rewards=jnp.where(over, jnp.array([1.0, -1.0]), 0.0),
        )


class NumpyTable:
    """A game on a graph or board in numpy: masks of the vertices left, the value
    table looked up, the same labels as the JAX environment."""

    def __init__(self, game, envs: int) -> None:
        t = game.value_table()
        self.needs, self.deletes, self.values = t.needs, t.deletes, t.grundy
        self.start, self.envs = np.uint32(t.start), envs
        self.masks = np.full(envs, self.start, np.uint32)

    def run(self, steps: int, rng: np.random.Generator) -> int:
        wins = 0
        for _ in range(steps):
            m = self.masks[:, None]
            legal = (m & self.needs) == self.needs
            after = m & ~self.deletes
            winning = legal & (self.values[after] == 0)
            wins += int(winning.sum())
            pick = np.argmax(np.where(legal, rng.random(legal.shape), -1.0), axis=1)
            self.masks = np.where(legal.any(axis=1), after[np.arange(self.envs), pick], self.start)
        return wins


def best(f, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=200)
    a = parser.parse_args()
    print(describe())
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}: {jax.devices()}")
    n = a.envs * a.steps
    key = jax.random.PRNGKey(0)

    def jax_rate(env) -> float:
        run = rollout(env, a.envs, a.steps)
        run(key).block_until_ready()  # compile
        return n / best(lambda: run(key).block_until_ready())

    ours, hand = jax_rate(rlj.make(nk.Heaps(NIM))), jax_rate(HandNim(NIM))
    print(f"Nim {NIM}: nimkit.rl.jax {ours / 1e6:.2f} M steps/s, hand-written JAX")
    print(f"  {hand / 1e6:.2f} M steps/s: {ours / hand:.2f}x")
    kayles = jax_rate(rlj.make(nk.Heaps([3, 5, 8], nk.Rules(code="0.77"))))
    misere = jax_rate(rlj.make(nk.Heaps([3, 5, 8], nk.Rules(code="0.77")), misere=True))
    print(f"Kayles 3 5 8: {kayles / 1e6:.2f} M steps/s, misère {misere / 1e6:.2f} M steps/s")
    grid = [((r, c), (r, c + 1)) for r in range(4) for c in range(4)]
    grid += [((r, c), (r + 1, c)) for r in range(3) for c in range(5)]
    boards = [("Node Kayles 4 x 5 grid", nk.NodeKayles(grid)), ("Cram 4 x 5", nk.Cram(4, 5))]
    for name, game in boards:
        rate = jax_rate(rlj.make(game))
        table = NumpyTable(game, a.envs)
        rng = np.random.default_rng(0)
        plain = n / best(lambda table=table, rng=rng: table.run(a.steps, rng))
        print(f"{name}: nimkit.rl.jax {rate / 1e6:.2f} M steps/s, numpy {plain / 1e6:.2f} M")
        print(f"  steps/s: {rate / plain:.2f}x")


if __name__ == "__main__":
    main()
