"""nimkit.rl.jax: every label of every state reached on random games against the
core's own answers for that position (the move lists, the Grundy values, the
outcomes: for misère heaps of codes that split, the exact search over positions,
not the quotient the environment uses), in both endings; jit, vmap, keys, rewards
and the errors."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import nimkit as nk

from .reference import with_vertices_left

jax = pytest.importorskip("jax", reason="the jax extra is not installed")
jnp = jax.numpy
rlj = pytest.importorskip("nimkit.rl.jax")

HEAP_GAMES = [
    ([1, 3, 5, 7], nk.Rules()),
    ([2, 4, 6], nk.Rules(max_take=2)),
    ([4, 6, 9], nk.Rules(take={1, 3, 4})),
    ([3, 5, 8], nk.Rules(code="0.77")),  # Kayles
    ([6, 9], nk.Rules(code="0.07")),  # Dawson's Kayles
    ([7, 4], nk.Rules(code="4!.0")),  # Grundy's game: splits without taking
    ([5, 6], nk.Rules(code="0.137")),  # Dawson's Chess
    # Misère quotients periodic from a small heap on: the heaps past the period take
    # the element of their place in it.
    ([10, 3], nk.Rules(take={1, 3})),
    ([12], nk.Rules(code="0.12")),
    ([6, 2], nk.Rules(code="4.0")),
]


def walk(env, states: int, seed: int):
    """``states`` states of random games (each a new one once it ends), every action
    a random legal one, stepped by ``jit(vmap(step))`` on 8 games at once."""
    step = jax.jit(jax.vmap(env.step))
    init = jax.jit(jax.vmap(env.init))
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, 8))
    seen = []
    while len(seen) < states:
        for i in range(8):
            seen.append(jax.tree.map(lambda x, i=i: np.asarray(x[i]), state))
        key, pick, sub = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        actions = jax.random.categorical(pick, logits)
        state = step(state, actions, jax.random.split(sub, 8))
        fresh = init(jax.random.split(sub, 8))
        ended = state.terminated

        def renew(new, old, ended=ended):
            return jnp.where(ended.reshape((-1,) + (1,) * (old.ndim - 1)), new, old)

        state = jax.tree.map(renew, fresh, state)
    return [s for s in seen if not s.terminated]


def afters(env, position) -> np.ndarray:
    """The position each action leaves (where legal), by one jitted call per env."""
    if env not in _AFTERS:
        _AFTERS[env] = jax.jit(env._rules.afters)
    return np.asarray(_AFTERS[env](jnp.asarray(position)))


_AFTERS: dict = {}


def heaps_of(observation) -> tuple[int, ...]:
    return tuple(sorted(int(h) for h in observation if h))


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize(("heaps", "rules"), HEAP_GAMES, ids=[str(r) for _, r in HEAP_GAMES])
def test_heap_labels_are_the_cores(heaps, rules, misere):
    env = rlj.make(nk.Heaps(heaps, rules), misere=misere)
    if rules.take_rule is None:
        ending = nk.Rules(misere=misere)
    elif isinstance(rules.take_rule, int):
        ending = nk.Rules(misere=misere, max_take=rules.take_rule)
    elif isinstance(rules.take_rule, nk.TakeAndBreak):
        ending = nk.Rules(misere=misere, code=rules.take_rule.code)
    else:
        ending = nk.Rules(misere=misere, take=set(rules.take_rule.take))
    for state in walk(env, 120, seed=len(heaps)):
        position = nk.Position(heaps_of(state.observation))
        assert int(state.grundy) == position.nim_sum(rules)
        assert bool(state.wins) == position.outcome(ending).player_to_move_wins
        after = [heaps_of(p) for p in afters(env, state.position)]
        legal = Counter(after[a] for a in np.flatnonzero(state.legal_action_mask))
        options = Counter(heaps_of(position.after(m, rules)) for m in position.moves(rules))
        assert legal == options, position
        winning = {after[a] for a in np.flatnonzero(state.winning_mask)}
        expected = {heaps_of(position.after(m, ending)) for m in position.winning_moves(ending)}
        assert winning == expected, position


def board_games():
    return [
        nk.Cram(3, 3),
        nk.Cram(["..#.", "....", ".#.."]),
        nk.NodeKayles([(0, 1), (1, 2), (2, 3), (3, 0), (0, 4), (4, 5), (5, 6)]),
        nk.ArcKayles([(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (1, 5), (5, 6), (6, 7)]),
    ]


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("index", range(4))
def test_board_labels_are_the_cores(index, misere):
    game = board_games()[index]
    env = rlj.make(game, misere=misere)
    table = game.value_table()
    names = sorted(game._native.numbers())
    for state in walk(env, 60, seed=index):
        mask = int(state.position)
        left = [v for v in range(table.vertices) if mask >> v & 1]
        position = with_vertices_left(game, left)
        assert int(state.grundy) == position.grundy()
        assert bool(state.wins) == position.outcome(misere=misere).player_to_move_wins
        legal = np.flatnonzero(state.legal_action_mask)
        assert len(legal) == len(position.options())
        winning = {int(mask & ~int(table.deletes[a])) for a in np.flatnonzero(state.winning_mask)}
        expected = {
            sum(1 << v for v in w._native.numbers()) for w in position.winning_moves(misere=misere)
        }
        assert winning == expected
    assert names == [v for v in range(table.vertices) if table.start >> v & 1]


def test_value_table_against_the_search():
    game = nk.Cram(3, 4)
    table = game.value_table()
    assert table.vertices == 12
    assert table.grundy.size == 4096
    for mask in range(0, 4096, 37):
        cells = [v for v in range(12) if mask >> v & 1]
        position = with_vertices_left(game, cells)
        assert int(table.grundy[mask]) == position.grundy()
        assert bool(table.misere_wins[mask]) == position.outcome(misere=True).player_to_move_wins
    with pytest.raises(ValueError, match="at most 26 vertices"):
        nk.Cram(3, 9).value_table()


def test_same_key_same_game_and_jit_equals_plain():
    env = rlj.make(nk.Heaps([3, 5, 8], nk.Rules(code="0.77")))
    a = env.init(jax.random.PRNGKey(3))
    b = jax.jit(env.init)(jax.random.PRNGKey(3))
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
    players = {int(env.init(jax.random.PRNGKey(k)).current_player) for k in range(16)}
    assert players == {0, 1}
    action = int(np.flatnonzero(a.legal_action_mask)[0])
    plain, jitted = env.step(a, action), jax.jit(env.step)(a, action)
    for x, y in zip(plain, jitted, strict=True):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


@pytest.mark.parametrize("misere", [False, True])
def test_rewards_go_to_the_winner_and_illegal_moves_lose(misere):
    env = rlj.make(nk.Heaps([2], nk.Rules()), misere=misere)
    state = env.init(jax.random.PRNGKey(0))
    mover = int(state.current_player)
    # Take both: the mover made the last move.
    state = env.step(state, 1)
    assert bool(state.terminated)
    assert not bool(state.legal_action_mask.any())
    won = 1.0 if not misere else -1.0
    assert float(state.rewards[mover]) == won
    assert float(state.rewards[1 - mover]) == -won
    later = env.step(state, 0)
    assert float(jnp.abs(later.rewards).sum()) == 0
    assert int(later.step_count) == 1
    state = env.init(jax.random.PRNGKey(0))
    mover = int(state.current_player)
    illegal = env.step(env.step(state, 1), 0)
    assert float(illegal.rewards.sum()) == 0
    env = rlj.make(nk.Heaps([1, 2], nk.Rules()), misere=misere)
    state = env.init(jax.random.PRNGKey(0))
    mover = int(state.current_player)
    bad = env.step(state, 2)  # take 2 from the heap of 1
    assert not bool(state.legal_action_mask[2])
    assert bool(bad.terminated)
    assert float(bad.rewards[mover]) == -1.0
    assert [int(h) for h in bad.observation] == [1, 2]


def test_what_has_no_environment_is_refused():
    with pytest.raises(TypeError, match="no JAX environment for Wythoff"):
        rlj.make(nk.Wythoff(3, 4))
    with pytest.raises(ValueError, match="one rule for every heap"):
        rlj.make(nk.Heaps([3, 4], nk.Rules(max_take=[1, 2])))
    with pytest.raises(ValueError, match="misère quotient could not be extended"):
        rlj.make(nk.Heaps([40], nk.Rules(code="0.07")), misere=True, max_quotient=1024)
    with pytest.raises(ValueError, match="more than max_quotient = 4"):
        rlj.make(nk.Heaps([9], nk.Rules(take={1, 3, 4})), misere=True, max_quotient=4)
    # Normal play of the same game needs no quotient.
    assert rlj.make(nk.Heaps([40], nk.Rules(code="0.07"))).num_actions > 0


@pytest.mark.parametrize("jit", [False, True])
def test_actions_that_name_no_move_lose(jit):
    env = rlj.make(nk.Heaps([3, 5]))
    step = jax.jit(env.step) if jit else env.step
    state = env.init(jax.random.PRNGKey(0))
    mover = int(state.current_player)
    for action in [-1, -2, env.num_actions, env.num_actions + 7, 2**31 - 1]:
        after = step(state, action)
        assert [int(h) for h in after.observation] == [3, 5], action
        assert bool(after.terminated), action
        assert float(after.rewards[mover]) == -1.0, action


def test_a_start_with_no_move_is_over():
    state = rlj.make(nk.Heaps([0]), misere=True).init(jax.random.PRNGKey(0))
    assert bool(state.terminated)
    assert bool(state.wins)  # misère: the player to move, who has no move, has won
    env = rlj.make(nk.Cram(1, 1))
    assert env.num_actions == 0
    state = env.init(jax.random.PRNGKey(0))
    assert bool(state.terminated)
    later = env.step(state, 0)
    assert float(jnp.abs(later.rewards).sum()) == 0
    assert rlj.make(nk.Heaps([], nk.Rules(code="0.77"))).num_actions == 0


def test_tables_too_large_and_bad_endings_are_refused_up_front():
    for heaps, rules in [([3000], nk.Rules()), ([10**6], nk.Rules(take={1, 3, 4}))]:
        with pytest.raises(ValueError, match="give fewer or smaller heaps"):
            rlj.make(nk.Heaps(heaps, rules))
    with pytest.raises(ValueError, match="27009000 actions"):
        rlj.make(nk.Heaps([3000], nk.Rules(code="0.77")))
    with pytest.raises(TypeError, match="misere must be True or False"):
        rlj.make(nk.Heaps([1]), misere="no")
