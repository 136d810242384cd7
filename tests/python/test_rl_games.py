"""The learning environments of the games beyond Nim (``rl.GameEnv``,
``GameVectorEnv``, ``GameAEC``): the checkers of gymnasium and PettingZoo, and every
label of every position they reach against the core's own answers for that position
built anew: for games on graphs and boards, the engine's search
(``with_vertices_left``), which shares nothing with the value table the environments
step on; for heaps under codes that split, the exact search over positions (not the
Grundy values or the misère quotient the environments step on)."""

from __future__ import annotations

import numpy as np
import pytest

import nimkit as nk
from nimkit import rl

from .reference import with_vertices_left

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

GAMES = {
    "cram-2x3": nk.Cram(2, 3),
    "cram-shaped": nk.Cram(["#..", "...", ".#."]),
    "node-kayles": nk.NodeKayles([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5)]),
    "arc-kayles": nk.ArcKayles({"a": ["b", "c"], "b": ["c", "d"], "d": ["e"], "e": []}),
}


def _mask(obs: np.ndarray) -> int:
    return sum(1 << int(v) for v in np.flatnonzero(obs.reshape(-1)))


def _check_labels(game, misere, table, obs, info):
    """``info``'s labels of the position ``obs`` shows, against the engine."""
    left = set(np.flatnonzero(obs.reshape(-1)).tolist())
    position = with_vertices_left(game, left)
    mask = _mask(obs)
    assert info["outcome"] == ("P" if position.outcome(misere=misere) is nk.Outcome.P else "N")
    legal = np.flatnonzero(info["action_mask"])
    assert len(legal) == len(position.options())
    wins = {mask & ~int(table.deletes[a]) for a in np.flatnonzero(info["winning_mask"])}
    expected = {
        sum(1 << v for v in w._native.numbers()) for w in position.winning_moves(misere=misere)
    }
    assert wins == expected
    assert set(np.flatnonzero(info["winning_mask"])) <= set(legal)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("name", list(GAMES))
def test_gymnasium_checker_passes(name, misere):
    from gymnasium.utils.env_checker import check_env

    check_env(rl.GameEnv(GAMES[name], misere=misere), skip_render_check=True)
    check_env(rl.GameEnv(GAMES[name], misere=misere, opponent=None, render_mode="ansi"))


@pytest.mark.parametrize("name", ["cram-shaped", "arc-kayles"])
def test_pettingzoo_api_and_seed_tests(name):
    from pettingzoo.test import api_test, seed_test

    api_test(rl.GameAEC(GAMES[name], misere=True), num_cycles=100)
    seed_test(lambda: rl.GameAEC(GAMES[name]), num_cycles=50)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("name", list(GAMES))
def test_every_label_on_random_rollouts_is_the_engines(name, misere):
    game = GAMES[name]
    table = game.value_table()
    envs = rl.GameVectorEnv(8, game, misere=misere, opponent="random", first="random")
    obs, infos = envs.reset(seed=5)
    rng = np.random.default_rng(7)
    seen = set()
    for _ in range(12):
        for i in range(envs.num_envs):
            key = _mask(obs[i])
            if key not in seen:
                seen.add(key)
                one = {k: infos[k][i] for k in ("action_mask", "winning_mask", "outcome")}
                _check_labels(game, misere, table, obs[i], one)
        legal = infos["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in legal])
        obs, _, _, _, infos = envs.step(actions)
    assert len(seen) > 5


@pytest.mark.parametrize("misere", [False, True])
def test_playing_the_winning_mask_beats_the_perfect_opponent(misere):
    game = GAMES["node-kayles"]
    start_wins = game.outcome(misere=misere) is nk.Outcome.N
    for seed in range(4):
        env = rl.GameEnv(game, misere=misere, opponent="perfect")
        _, info = env.reset(seed=seed)
        assert (info["outcome"] == "N") == start_wins
        over, reward = False, 0.0
        while not over:
            mask = info["winning_mask"] if info["winning_mask"].any() else info["action_mask"]
            _, reward, over, _, info = env.step(int(np.flatnonzero(mask)[0]))
        assert reward == (1.0 if start_wins else -1.0)


def test_illegal_actions_lose_and_steps_after_the_end_are_refused():
    env = rl.GameEnv(nk.Cram(2, 3), opponent=None)
    _, info = env.reset(seed=0)
    n = env.action_space.n
    assert n == 7
    assert info["action_mask"].sum() == 7
    for bad in (-1, n, 2**62):
        env.reset()
        _, reward, over, _, _ = env.step(bad)
        assert (reward, over) == (-1.0, True)
    env.reset()
    obs, reward, over, _, info = env.step(0)  # the domino on (0, 0) and (0, 1)
    assert obs.tolist() == [[0, 0, 1], [1, 1, 1]]
    assert not over
    _, reward, over, _, _ = env.step(0)  # that domino again: no longer legal
    assert (reward, over) == (-1.0, True)
    with pytest.raises(nk.IllegalMoveError, match="reset"):
        env.step(1)
    envs = rl.GameVectorEnv(3, nk.Cram(2, 3))
    envs.reset(seed=0)
    _, rewards, terminated, _, _ = envs.step(np.array([-5, 6, 99]))
    assert rewards.tolist() == [-1.0, 0.0, -1.0]
    assert terminated.tolist() == [True, False, True]


def test_seeds_reproduce_and_render_draws_the_board():
    def run(seed):
        envs = rl.GameVectorEnv(16, nk.Cram(3, 3), opponent="random", first="random")
        obs, _ = envs.reset(seed=seed)
        out = [obs]
        for _ in range(4):
            obs, *_ = envs.step(np.zeros(16, np.int64))
            out.append(obs)
        return np.stack(out)

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))
    env = rl.GameEnv(nk.Cram(["#..", "..."]), opponent=None, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == "#..\n..."
    env = rl.GameEnv(nk.NodeKayles({"x": ["y"], "y": []}), opponent=None, render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == "vertices left: x y"
    env.step(0)
    assert env.render() == "vertices left: none"


def test_bad_games_are_refused_with_the_reason():
    with pytest.raises(TypeError, match=r"nk\.Heaps, nk\.NodeKayles, nk\.ArcKayles or nk\.Cram"):
        rl.GameEnv(nk.Wythoff(1, 2))
    with pytest.raises(ValueError, match="at most 26 vertices"):
        rl.GameEnv(nk.Cram(5, 6))
    with pytest.raises(TypeError, match="misere must be True, False or None"):
        rl.GameEnv(nk.Cram(2, 2), misere="yes")
    with pytest.raises(ValueError, match="number of games"):
        rl.GameVectorEnv(0, nk.Cram(2, 2))
    for count in (2**63, 2**64, 10**30):
        with pytest.raises(ValueError, match=r"number of games must be below 2\*\*63"):
            rl.GameVectorEnv(count, nk.Cram(2, 2))
        with pytest.raises(ValueError, match=r"number of games must be below 2\*\*63"):
            rl.NimVectorEnv(count, [1, 2])
    with pytest.raises(TypeError, match="GameEnv's alone"):
        rl.GameVectorEnv(2, nk.Cram(2, 2), opponent=lambda obs, info: 0)
    # A board with no move at all.
    with pytest.raises(ValueError, match="no move at its start"):
        rl.GameEnv(nk.Cram(["#.", ".#"]))


CODES = {
    "kayles": ([3, 5, 4], "0.77"),
    "dawsons-kayles": ([6, 5], "0.07"),
    "grundys-game": ([7, 4], "4!.0"),  # splits without taking: take 0
    "dawsons-chess": ([5, 6], "0.137"),
}


def _after(tables, heaps: np.ndarray, action: int) -> tuple[int, ...]:
    """The heaps that ``action`` leaves (as ``GameEnv`` documents its ids)."""
    slots, count = len(heaps), tables.largest + 1
    slot, rest = action % slots, action // slots
    take, a = rest // count, rest % count
    left = [int(h) for h in heaps]
    left[slot] -= take + a
    left.append(a)
    return tuple(sorted(h for h in left if h))


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("name", list(CODES))
def test_every_label_of_heaps_under_a_code_is_the_exact_searchs(name, misere):
    from nimkit.rl._heap_tables import heap_tables

    heaps, code = CODES[name]
    game = nk.Heaps(heaps, nk.Rules(code=code))
    ending = nk.Rules(code=code, misere=misere)
    tables = heap_tables(game, misere, 4096)
    envs = rl.GameVectorEnv(8, game, misere=misere, opponent="random", first="random")
    assert envs.single_action_space.n == tables.num_actions
    obs, infos = envs.reset(seed=1)
    rng = np.random.default_rng(2)
    seen = set()
    for _ in range(10):
        for i in range(envs.num_envs):
            position = nk.Position(sorted(int(h) for h in obs[i] if h))
            if position in seen:
                continue
            seen.add(position)
            assert infos["outcome"][i] == ("P" if position.outcome(ending) is nk.Outcome.P else "N")
            actions = np.flatnonzero(infos["action_mask"][i])
            legal = sorted(_after(tables, obs[i], a) for a in actions)
            options = sorted(
                tuple(sorted(h for h in position.after(m, ending) if h))
                for m in position.moves(ending)
            )
            assert legal == options, position
            winning = {_after(tables, obs[i], a) for a in np.flatnonzero(infos["winning_mask"][i])}
            expected = {
                tuple(sorted(h for h in position.after(m, ending) if h))
                for m in position.winning_moves(ending)
            }
            assert winning == expected, position
        legal = infos["action_mask"].astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in legal])
        obs, _, _, _, infos = envs.step(actions)
    assert len(seen) > 10


@pytest.mark.parametrize("misere", [False, True])
def test_heaps_under_a_code_pass_the_checkers(misere):
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    game = nk.Heaps([3, 4], nk.Rules(code="0.77"))
    check_env(rl.GameEnv(game, misere=misere), skip_render_check=True)
    check_env(rl.GameEnv(game, misere=misere, opponent=None, render_mode="ansi"))
    api_test(rl.GameAEC(game, misere=misere), num_cycles=100)


def test_heaps_that_never_split_play_as_nim():
    env = rl.GameEnv(nk.Heaps([1, 3, 5, 7], nk.Rules(take={1, 3})), misere=True)
    nim = rl.NimEnv([1, 3, 5, 7], rules=nk.Rules(take={1, 3}), misere=True)
    (obs, info), (nim_obs, nim_info) = env.reset(seed=0), nim.reset(seed=0)
    assert obs.tolist() == nim_obs.tolist() == [1, 3, 5, 7]
    np.testing.assert_array_equal(info["winning_mask"], nim_info["winning_mask"])


def test_the_cpu_and_jax_environments_number_and_label_actions_alike():
    rlj = pytest.importorskip("nimkit.rl.jax", reason="the jax extra is not installed")
    import jax

    game = nk.Heaps([3, 5, 8], nk.Rules(code="0.77"))
    for misere in (False, True):
        env = rl.GameEnv(game, misere=misere, opponent=None)
        _, info = env.reset(seed=0)
        state = rlj.make(game, misere=misere).init(jax.random.PRNGKey(0))
        np.testing.assert_array_equal(info["action_mask"], np.asarray(state.legal_action_mask))
        np.testing.assert_array_equal(info["winning_mask"], np.asarray(state.winning_mask))
        assert info["winning_mask"].sum() > 0


def test_games_without_a_move_give_a_dataset_of_one_row():
    X, y = rl.dataset(nk.Heaps([1], nk.Rules(code="0.07")), labels="is_p")
    assert X.tolist() == [[1]]
    assert y.tolist() == [1]
    X, y = rl.dataset(nk.Heaps([], nk.Rules(code="0.77")))
    assert X.shape == (1, 1)
    assert y.shape == (1, 0)


def test_bad_heaps_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="give fewer or smaller heaps"):
        rl.GameEnv(nk.Heaps([300, 300], nk.Rules(code="0.77")))
    with pytest.raises(ValueError, match="no move at its start"):
        rl.GameEnv(nk.Heaps([1], nk.Rules(code="0.07")), opponent=None)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("name", ["kayles", "grundys-game"])
def test_the_dataset_of_heaps_under_a_code_is_every_position_with_the_searchs_labels(
    name, misere
):
    heaps, code = CODES[name]
    ending = nk.Rules(code=code, misere=misere)
    X, y = rl.dataset(nk.Heaps(heaps, nk.Rules(code=code)), labels="is_p", misere=misere)
    # Every position reachable, by a walk over the core's moves of whole positions.
    start = tuple(sorted(heaps))
    reached, todo = {start}, [start]
    while todo:
        position = nk.Position(todo.pop())
        for m in position.moves(ending):
            after = tuple(sorted(h for h in position.after(m, ending) if h))
            if after not in reached:
                reached.add(after)
                todo.append(after)
    rows = [tuple(sorted(int(h) for h in row if h)) for row in X]
    assert len(rows) == len(set(rows)) == len(reached)
    assert set(rows) == reached
    for row, p in zip(rows, y.tolist(), strict=True):
        assert p == (nk.Position(row).outcome(ending) is nk.Outcome.P), row
    _, masks = rl.dataset(nk.Heaps(heaps, nk.Rules(code=code)), misere=misere, sample=5, seed=1)
    assert masks.shape[0] == 5


def test_the_dataset_of_heaps_takes_its_rules_from_the_game():
    X, y = rl.dataset(nk.Heaps([1, 2], nk.Rules(max_take=1)), labels="is_p")
    assert X.tolist() == [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]
    assert y.tolist() == [1, 0, 1, 0, 1, 0]
    with pytest.raises(ValueError, match="holds its rules"):
        rl.dataset(nk.Heaps([1, 2]), rules=nk.Rules())
    with pytest.raises(ValueError, match="raise max_positions"):
        rl.dataset(nk.Heaps([9, 9], nk.Rules(code="0.77")), max_positions=10)


def test_many_equal_heaps_and_the_memory_bound_of_a_code_dataset(monkeypatch):
    # Equal heaps are walked once each: 300 heaps of 1 reach 301 positions.
    X, y = rl.dataset(nk.Heaps([1] * 300, nk.Rules(code="0.77")), labels="is_p")
    assert X.shape == (301, 300)
    assert y.tolist() == [i % 2 == 0 for i in range(301)]  # i heaps of 1: P iff i even
    monkeypatch.setattr(rl, "MAX_DATASET_BYTES", 10**5)
    with pytest.raises(ValueError, match="would take more than 100000 bytes"):
        rl.dataset(nk.Heaps([9, 9], nk.Rules(code="0.77")))
    with pytest.raises(TypeError, match="misere must be True, False or None"):
        rl.dataset(nk.Heaps([3], nk.Rules(code="0.77")), misere="no")
    env = rl.GameEnv(nk.Heaps([3], nk.Rules(code="0.77")), misere=np.bool_(True))
    assert env.misere is True
    assert env.rules == nk.Rules(code="0.77", misere=True)
