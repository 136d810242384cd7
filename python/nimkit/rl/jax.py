"""Exact labels on the accelerator: functional environments in JAX, in the style of
pgx, for the games nimkit solves (the ``jax`` extra: ``pip install 'nimkit[jax]'``).

``make(game, misere=False)`` takes a game of heaps (``nk.Heaps``: Nim, a take limit, a
subtraction set or a take-and-break code) or a game on a graph or board
(``nk.NodeKayles``, ``nk.ArcKayles``, ``nk.Cram``) and gives an ``Env`` whose
``init(key)`` and ``step(state, action, key)`` are pure JAX (``jit`` and ``vmap`` them),
with no Python callback: the core computes the tables once, on the host, and the
device looks positions up in them.

- Heaps: the Grundy value of every heap size up to the largest (the core's sequence);
  misère play by Bouton's rule for Nim and take limits, and otherwise through the
  rule's misère quotient of the heaps up to the largest (its multiplication table,
  its heaps' elements and its P-portion), or a ValueError where the core finds none.
- Graphs and boards: the value and misère outcome of every position of the graph
  (``value_table()``: at most 26 vertices).

Actions. Heaps: as ``nimkit.rl`` numbers them for ``GameEnv`` (OpenSpiel's ids,
``(take - 1) * num_heaps + heap``, under a rule that never splits; under a code that
splits, ``(take * (largest + 1) + a) * slots + slot``, the move taking ``take`` from
the heap in ``slot`` and leaving heaps ``a`` and ``b = n - take - a`` with ``a <= b``
(``a = 0``: one heap, or none); the heaps live in ``slots`` places (as many as the
objects at the start), a split putting ``b`` in place of the heap and ``a`` in the
first empty place). Node Kayles: the vertex picked; Arc Kayles and Cram: the edge
(domino), numbered as ``ValueTable.needs`` lists them (``vertex_edges`` order; for
Cram cell ``(r, c)`` is vertex ``r * cols + c``).

Each ``State`` holds the ``observation`` (the heaps, or the board's or graph's
vertices left), ``legal_action_mask``, ``winning_mask`` (the legal moves that win in
the environment's ending), ``grundy`` (the normal-play value), ``wins`` (whether the
player to move wins in the environment's ending), ``rewards`` (one per player:
+1 to the winner, -1 to the loser at the end; an illegal action loses at once),
``terminated``, ``current_player`` (drawn from the key at ``init``) and
``step_count``. A step on a terminated state changes nothing and rewards nothing.

>>> import jax
>>> import nimkit as nk
>>> from nimkit.rl import jax as rlj
>>> env = rlj.make(nk.Heaps([3, 5, 8], nk.Rules(code="0.77")), misere=True)
>>> state = env.init(jax.random.PRNGKey(0))
>>> int(state.legal_action_mask.sum()), int(state.winning_mask.sum()), bool(state.wins)
(16, 1, True)
>>> state = env.step(state, int(state.winning_mask.argmax()))
>>> bool(state.wins), [int(h) for h in state.observation if h]
(False, [3, 3, 8, 1])
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .._extras import require
from ..boards import Cram, _Deleting
from ..games import Heaps
from ._heap_tables import heap_tables

if TYPE_CHECKING:
    import jax

__all__ = ["Env", "State", "make"]


class State(NamedTuple):
    """One game in progress (a JAX pytree: ``vmap`` makes a batch of them)."""

    position: jax.Array
    observation: jax.Array
    legal_action_mask: jax.Array
    winning_mask: jax.Array
    grundy: jax.Array
    wins: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    current_player: jax.Array
    step_count: jax.Array


@dataclass(frozen=True)
class Env:
    """A game as a functional environment: ``init(key)``, ``step(state, action, key)``.

    Build one with ``make``; ``num_actions`` names the actions (see the module's
    docstring), ``misere`` the ending.
    """

    num_actions: int
    misere: bool
    _rules: Any

    def init(self, key: jax.Array) -> State:
        """The game at its start, the first player drawn from ``key`` (terminated at
        once if the start has no move)."""
        jax, jnp = _jax()
        position = self._rules.start()
        player = jax.random.bernoulli(key).astype(jnp.int32)
        state = self._state(position, player, jnp.zeros(2, jnp.float32), False, 0)
        return state._replace(terminated=~state.legal_action_mask.any())

    def step(self, state: State, action: Any, key: jax.Array | None = None) -> State:
        """The state after the player to move plays ``action`` (``key`` is taken for
        pgx's signature; the games have no chance)."""
        _, jnp = _jax()
        action = jnp.asarray(action, jnp.int32)
        if self.num_actions == 0:
            legal, after = jnp.bool_(False), state.position
        else:
            # An action outside 0..num_actions names no move: it loses, as an illegal
            # one does (JAX would wrap or clamp the index).
            inside = (action >= 0) & (action < self.num_actions)
            named = jnp.clip(action, 0, self.num_actions - 1)
            legal = inside & state.legal_action_mask[named]
            after = self._rules.after(state.position, named)
        position = jnp.where(legal, after, state.position)
        position = jnp.where(state.terminated, state.position, position)
        player = 1 - state.current_player
        moved = self._state(position, player, jnp.zeros(2, jnp.float32), False, 0)
        over = ~moved.legal_action_mask.any()
        # The mover wins normal play with the last move and loses misère play; an
        # illegal move loses at once.
        mover_wins = jnp.where(legal, over != self.misere, False)
        ended = over | ~legal
        mover = state.current_player
        reward = jnp.where(mover_wins, 1.0, -1.0).astype(jnp.float32)
        rewards = jnp.zeros(2, jnp.float32).at[mover].set(reward).at[1 - mover].set(-reward)
        rewards = jnp.where(ended & ~state.terminated, rewards, 0.0)
        return moved._replace(
            current_player=jnp.where(state.terminated, state.current_player, player),
            rewards=rewards,
            terminated=state.terminated | ended,
            step_count=state.step_count + jnp.where(state.terminated, 0, 1),
        )

    def _state(
        self, position: jax.Array, player: Any, rewards: Any, terminated: Any, steps: Any
    ) -> State:
        _, jnp = _jax()
        rules = self._rules
        legal = rules.legal(position)
        wins_after = rules.wins_after(position, self.misere)
        return State(
            position=position,
            observation=rules.observe(position),
            legal_action_mask=legal,
            winning_mask=legal & ~wins_after,
            grundy=rules.grundy(position),
            wins=rules.wins(position, self.misere),
            rewards=jnp.asarray(rewards, jnp.float32),
            terminated=jnp.asarray(terminated, jnp.bool_),
            current_player=jnp.asarray(player, jnp.int32),
            step_count=jnp.asarray(steps, jnp.int32),
        )


def make(
    game: Any,
    misere: bool = False,
    *,
    max_quotient: int = 4096,
    cache: str | os.PathLike[str] | None = None,
) -> Env:
    """The functional environment of ``game`` (``nk.Heaps``, ``nk.NodeKayles``,
    ``nk.ArcKayles`` or ``nk.Cram``, at the position to start from) in normal or
    misère play. ``max_quotient``: the most elements of a misère quotient handed to
    the device (its table has their square): ValueError past it. ``cache``: a
    directory where the value table of a game on a graph is kept
    (``value_table(cache=...)``).

    >>> import nimkit as nk
    >>> env = make(nk.Cram(4, 5))
    >>> env.num_actions   # the dominoes of a 4 x 5 board
    31
    """
    _jax()
    if not isinstance(misere, bool):
        raise TypeError(f"misere must be True or False, not {misere!r}")
    if isinstance(game, Heaps):
        if cache is not None:
            raise ValueError(
                "cache keeps the value tables of games on graphs and boards, not heaps"
            )
        rules: Any = _HeapRules(game, misere, max_quotient)
    elif isinstance(game, _Deleting):  # Node Kayles, Arc Kayles, Cram
        rules = _TableRules(game, cache)
    else:
        raise TypeError(
            f"no JAX environment for {type(game).__name__}: give nk.Heaps, "
            "nk.NodeKayles, nk.ArcKayles or nk.Cram"
        )
    return Env(num_actions=rules.num_actions, misere=misere, _rules=rules)


def _jax() -> tuple[Any, Any]:
    jax = require("jax", "jax")
    return jax, jax.numpy


class _TableRules:
    """A game on a graph or board: positions are masks of the vertices left."""

    def __init__(self, game: _Deleting, cache: str | os.PathLike[str] | None) -> None:
        _, jnp = _jax()
        table = game.value_table(cache=cache)
        self.num_actions = int(table.needs.size)
        self.vertices = table.vertices
        self.shape = game.shape if isinstance(game, Cram) else (self.vertices,)
        self._start = table.start
        self.needs = jnp.asarray(table.needs)
        self.deletes = jnp.asarray(table.deletes)
        self.values = jnp.asarray(table.grundy)
        self.misere_wins = jnp.asarray(table.misere_wins)
        self.bits = jnp.arange(self.vertices, dtype=jnp.uint32)

    def start(self) -> Any:
        _, jnp = _jax()
        return jnp.uint32(self._start)

    def legal(self, p: Any) -> Any:
        return (p & self.needs) == self.needs

    def after(self, p: Any, action: Any) -> Any:
        return p & ~self.deletes[action]

    def afters(self, p: Any) -> Any:
        return p & ~self.deletes

    def grundy(self, p: Any) -> Any:
        _, jnp = _jax()
        return self.values[p].astype(jnp.int32)

    def wins(self, p: Any, misere: bool) -> Any:
        return self.misere_wins[p] if misere else self.values[p] != 0

    def wins_after(self, p: Any, misere: bool) -> Any:
        """Whether the player to move wins after each action (where legal)."""
        return self.wins(self.afters(p), misere)

    def observe(self, p: Any) -> Any:
        return ((p >> self.bits) & 1).astype(bool).reshape(self.shape)


class _HeapRules:
    """A game of heaps under one heap rule: positions are heap sizes in fixed places,
    looked up in the core's tables (``_heap_tables``)."""

    def __init__(self, game: Heaps, misere: bool, max_quotient: int) -> None:
        _, jnp = _jax()
        tables = heap_tables(game, misere, max_quotient)
        self.splits, self.largest = tables.splits, tables.largest
        self.max_take, self.slots = tables.max_take, tables.slots
        self.num_actions = tables.num_actions
        self._start = tables.start
        self.values = jnp.asarray(tables.values)
        slot, take, a = tables.decode()
        self.slot = jnp.asarray(slot.astype(np.int32))
        self.take = jnp.asarray(take.astype(np.int32))
        self.a = jnp.asarray(a.astype(np.int32))
        self.allowed = jnp.asarray(tables.allowed)
        self.misere_kind = tables.misere or "none"
        if tables.quotient is not None:
            q = tables.quotient
            self.table = jnp.asarray(q.table)
            self.elements = jnp.asarray(q.elements)
            self.p_portion = jnp.asarray(q.p)
            self.identity = q.identity

    def start(self) -> Any:
        _, jnp = _jax()
        return jnp.asarray(self._start)

    def legal(self, p: Any) -> Any:
        _, jnp = _jax()
        n = p[self.slot]
        b = n - self.take - self.a
        fits = (b >= self.a) & (n >= self.take) & (self.take <= self.max_take)
        ok = self.allowed[
            jnp.clip(n, 0, self.largest),
            jnp.clip(self.take, 0, self.max_take),
            jnp.clip(self.a, 0, self.allowed.shape[2] - 1),
        ]
        return fits & ok & (n > 0)

    def after(self, p: Any, action: Any) -> Any:
        _, jnp = _jax()
        slot, take, a = self.slot[action], self.take[action], self.a[action]
        n = p[slot]
        left = p.at[slot].set(jnp.maximum(n - take - a, 0))
        if not self.splits:
            return left
        empty = jnp.argmax(left == 0)
        return jnp.where(a > 0, left.at[empty].set(a), left)

    def afters(self, p: Any) -> Any:
        jax, jnp = _jax()
        return jax.vmap(lambda action: self.after(p, action))(jnp.arange(self.num_actions))

    def grundy(self, p: Any) -> Any:
        _, jnp = _jax()
        return jnp.bitwise_xor.reduce(self.values[p], axis=-1)

    def wins(self, p: Any, misere: bool) -> Any:
        jax, jnp = _jax()
        if not misere:
            return self.grundy(p) != 0
        if self.misere_kind == "bouton":
            g = self.values[p]
            x = jnp.bitwise_xor.reduce(g, axis=-1)
            return jnp.where((g > 1).any(axis=-1), x != 0, x == 0)
        element = jax.lax.fori_loop(
            0,
            p.shape[-1],
            lambda i, e: self.table[e, self.elements[p[..., i]]],
            jnp.full(p.shape[:-1], self.identity, jnp.int32),
        )
        return ~self.p_portion[element]

    def wins_after(self, p: Any, misere: bool) -> Any:
        """Whether the player to move wins after each action (where legal), from the
        values of the heap it changes and of the heaps it leaves, without building
        the positions: the nim-sum in normal play; Bouton's rule; or the product of
        the other heaps' quotient elements (from products before and after each
        place) with those of the heaps left."""
        jax, jnp = _jax()
        n = jnp.clip(p[self.slot], 0, self.largest)
        a = jnp.clip(self.a, 0, self.largest)
        b = jnp.clip(n - self.take - self.a, 0, self.largest)
        g = self.values[p]
        if not misere or self.misere_kind == "bouton":
            x = jnp.bitwise_xor.reduce(g) ^ self.values[n] ^ self.values[a] ^ self.values[b]
            if not misere:
                return x != 0
            big = (g > 1).sum() - (self.values[n] > 1) + (self.values[a] > 1)
            big = big + (self.values[b] > 1)
            return jnp.where(big > 0, x != 0, x == 0)
        e = self.elements[p]

        def times(x: Any, y: Any) -> tuple[Any, Any]:
            z = self.table[x, y]
            return z, x

        _, before = jax.lax.scan(times, jnp.int32(self.identity), e)
        _, after = jax.lax.scan(times, jnp.int32(self.identity), e[::-1])
        others = self.table[before[self.slot], after[::-1][self.slot]]
        element = self.table[self.table[others, self.elements[a]], self.elements[b]]
        return ~self.p_portion[element]

    def observe(self, p: Any) -> Any:
        return p
