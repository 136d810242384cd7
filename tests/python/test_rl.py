"""nimkit.rl: labels against a pure-Python brute force and nimkit.batch, the
environments against gymnasium's and PettingZoo's own checkers, the metrics against a
direct count, observations and action ids against OpenSpiel."""

from __future__ import annotations

import hashlib
import itertools
import math
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np
import pytest

import nimkit as nk
from nimkit import rl

from .reference import with_vertices_left

gym = pytest.importorskip("gymnasium", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")


# --- an independent reference: the game by recursion over explicit moves ----------


def allowed(rule, n: int, t: int) -> bool:
    """Whether one turn may take ``t`` from a heap of ``n`` (``rule``: ("nim",),
    ("limit", k) or ("set", S))."""
    if not 1 <= t <= n:
        return False
    kind = rule[0]
    return kind == "nim" or (kind == "limit" and t <= rule[1]) or (kind == "set" and t in rule[1])


@cache
def is_p(heaps: tuple[int, ...], misere: bool, rule) -> bool:
    moves = [
        (*heaps[:i], n - t, *heaps[i + 1 :])
        for i, n in enumerate(heaps)
        for t in range(1, n + 1)
        if allowed(rule, n, t)
    ]
    if not moves:
        return not misere
    return not any(is_p(after, misere, rule) for after in moves)


def nk_rules(rule, misere):
    kind = rule[0]
    if kind == "nim":
        return nk.Rules(misere=misere)
    if kind == "limit":
        return nk.Rules(misere=misere, max_take=rule[1])
    return nk.Rules(misere=misere, take=set(rule[1]))


RULES = [("nim",), ("limit", 2), ("set", frozenset({1, 3, 4})), ("set", frozenset({2, 3}))]
BOARDS = [[3, 4, 5], [1, 3, 5, 7], [6, 2]]


@pytest.mark.parametrize("rule", RULES, ids=str)
@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("heaps", BOARDS, ids=str)
def test_labels_equal_brute_force_and_batch(heaps, misere, rule):
    rules = nk_rules(rule, misere)
    m, top = len(heaps), max(heaps)
    X = np.array(list(itertools.product(*(range(n + 1) for n in heaps))))
    got = rl.labels(X, heaps, rules=rules)
    assert got["action_mask"].shape == (len(X), m * top + 1)
    for row, legal, winning, p in zip(
        X, got["action_mask"], got["winning_mask"], got["is_p"], strict=True
    ):
        position = tuple(int(n) for n in row)
        assert p == is_p(position, misere, rule), position
        for a in range(m * top + 1):
            heap, take = a % m, a // m + 1
            ok = a < m * top and allowed(rule, position[heap], take)
            assert legal[a] == ok, (position, a)
            if ok:
                after = (*position[:heap], position[heap] - take, *position[heap + 1 :])
                assert winning[a] == is_p(after, misere, rule), (position, a)
            else:
                assert winning[a] == 0
    assert (got["is_p"] == nk.batch.is_p_position(X, rules)).all()


def test_dataset_of_the_seven_heap_board():
    heaps = [1, 3, 5, 7, 9, 11, 13]
    X, y = rl.dataset(heaps)
    assert X.shape == (645_120, 7)
    assert X.dtype == np.int64
    assert y.shape == (645_120, 7 * 13 + 1)
    assert y.dtype == np.int8
    # every position once, and labels in agreement with nimkit.batch
    assert len(np.unique(X, axis=0)) == len(X)
    p = nk.batch.is_p_position(X)
    assert ((y.sum(axis=1) == 0) == p).all()
    first = nk.batch.winning_move(X)
    rows = np.flatnonzero(~p)
    ids = (first[1][rows].astype(np.int64) - 1) * 7 + first[0][rows]
    assert (y[rows, ids] == 1).all()


def test_dataset_samples_curricula_and_noise():
    heaps = [1, 3, 5, 7]
    X, y = rl.dataset(heaps, labels="is_p", balance=True, seed=3)
    assert y.sum() * 2 == len(y)  # as many P as N
    X2, y2 = rl.dataset(heaps, labels="is_p", balance=True, seed=3)
    assert (X == X2).all()
    assert (y == y2).all()
    X, _ = rl.dataset(heaps, sample=50, seed=1)
    assert len(X) == 50
    assert len(np.unique(X, axis=0)) == 50
    X, _ = rl.dataset(heaps, max_nonempty=2, max_heap=4)
    assert (np.count_nonzero(X, axis=1) <= 2).all()
    assert (X <= 4).all()
    kept = itertools.product(range(2), range(4), range(5), range(5))
    assert len(X) == len([p for p in kept if sum(map(bool, p)) <= 2])
    clean = rl.dataset(heaps)[1]
    noisy = rl.dataset(heaps, noise=0.25, seed=7)[1]
    legal = rl.dataset(heaps, labels="action_mask")[1].astype(bool)
    flipped = clean != noisy
    assert not flipped[~legal].any()  # only legal actions' entries flip
    assert 0.2 < flipped[legal].mean() < 0.3


def test_move_accuracy_against_a_direct_count():
    heaps = [2, 3, 4]
    _X, winning = rl.dataset(heaps)
    legal = rl.dataset(heaps, labels="action_mask")[1]
    n = winning.any(axis=1)
    L, W = legal[n].sum(axis=1), winning[n].sum(axis=1)
    for k in (1, 2, 3):
        chances = [
            1 - math.comb(legal - wins, k) / math.comb(legal, k) if k <= legal else 1.0
            for legal, wins in zip(L.tolist(), W.tolist(), strict=True)
        ]
        expected = np.mean(chances)
        got = rl.move_accuracy(lambda X: np.zeros((len(X), 13)), heaps, k=k)
        assert got.positions == n.sum()
        assert got.random == pytest.approx(expected, abs=1e-12)
    oracle = lambda X: rl.labels(X, heaps)["winning_mask"].astype(np.float32)  # noqa: E731
    assert rl.move_accuracy(oracle, heaps).accuracy == 1.0
    worst = lambda X: -rl.labels(X, heaps)["winning_mask"].astype(np.float32)  # noqa: E731
    # the worst scores still hit where every legal action wins
    assert rl.move_accuracy(worst, heaps).accuracy == pytest.approx(np.mean(W == L))
    # one action per position: an illegal one is a miss, a winning one a hit
    first = nk.batch.winning_move
    actions = lambda X: (first(X)[1].astype(np.int64) - 1) * 3 + first(X)[0]  # noqa: E731
    assert rl.move_accuracy(actions, heaps).accuracy == 1.0
    assert rl.move_accuracy(lambda X: np.full(len(X), 10**9), heaps).accuracy == 0.0
    by = rl.move_accuracy(oracle, heaps).by_nonempty
    assert sum(count for _, _, count in by.values()) == n.sum()


def test_check_env_passes():
    from gymnasium.utils.env_checker import check_env

    def first_legal(obs, info):
        return int(np.flatnonzero(info["action_mask"])[0])

    configurations = [
        {},
        {"opponent": "random", "misere": True},
        {"opponent": 0.25, "rules": nk.Rules(max_take=3)},
        {"opponent": None, "observation": "openspiel"},
        {"observation": "binary", "history": 3},
        {"opponent": first_legal, "first": "opponent"},
        {"heaps": rl.RandomBoards(heaps=5, count=(1, 5), sizes=(1, 9)), "first": "random"},
    ]
    for kwargs in configurations:
        kwargs = {"heaps": [1, 3, 5, 7], **kwargs}
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(gym.make("nimkit/Nim-v0", **kwargs).unwrapped, skip_render_check=True)
    check_env(gym.make("nimkit/Nim-v0", render_mode="ansi").unwrapped)


def test_pettingzoo_api_and_seed_tests():
    from pettingzoo.test import api_test, seed_test

    api_test(rl.NimAEC(heaps=[1, 3, 5, 7], misere=True), num_cycles=100)
    seed_test(lambda: rl.NimAEC(heaps=rl.RandomBoards(5, (1, 5), (1, 9))), num_cycles=100)


def test_aec_rewards_the_winner():
    env = rl.NimAEC(heaps=[2, 2])
    env.reset(seed=0)
    env.step(rl.action(heap=0, take=2, num_heaps=2))  # player_0 empties heap 0
    env.step(rl.action(heap=1, take=2, num_heaps=2))  # player_1 takes the last two
    assert env.rewards == {"player_0": -1, "player_1": 1}
    assert all(env.terminations.values())
    env = rl.NimAEC(heaps=[2, 2], misere=True)
    env.reset(seed=0)
    env.step(rl.action(heap=0, take=5, num_heaps=2))  # illegal: player_0 loses
    assert env.rewards == {"player_0": -1, "player_1": 1}


def test_vector_env_api_and_reproducibility():
    from gymnasium.vector import AutoresetMode

    envs = rl.NimVectorEnv(num_envs=64, heaps=[1, 3, 5, 7, 9], opponent="random")
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.single_action_space == gym.spaces.Discrete(5 * 9 + 1)
    assert envs.single_observation_space.shape == (5,)
    assert envs.observation_space.shape == (64, 5)

    def rollout(seed):
        obs, infos = envs.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = []
        for _ in range(30):
            scores = rng.random(infos["action_mask"].shape) * infos["action_mask"]
            obs, rewards, terminated, truncated, infos = envs.step(scores.argmax(axis=1))
            assert not truncated.any()
            assert obs in envs.observation_space
            trace.append((obs.copy(), rewards.copy(), terminated.copy()))
        return trace

    first, again, other = rollout(5), rollout(5), rollout(6)
    assert all(
        (a[0] == b[0]).all() and (a[1] == b[1]).all() for a, b in zip(first, again, strict=False)
    )
    assert any((a[0] != b[0]).any() for a, b in zip(first, other, strict=False))


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("rule", RULES[:2], ids=str)
def test_single_environments_label_every_position_as_the_brute_force(rule, misere):
    """NimEnv's infos and NimAEC's over whole self-play games, against ``is_p``."""
    heaps, rng = [2, 3, 4], np.random.default_rng(5)
    rules = nk_rules(rule, misere)

    def check(position, legal, winning, outcome):
        for a in range(len(legal)):
            heap, take = a % 3, a // 3 + 1
            ok = a < 12 and allowed(rule, position[heap], take)
            assert legal[a] == ok, (position, a)
            after = (*position[:heap], position[heap] - take, *position[heap + 1 :])
            assert winning[a] == (ok and is_p(after, misere, rule)), (position, a)
        assert outcome == ("P" if is_p(position, misere, rule) else "N")

    env, aec = rl.NimEnv(heaps, rules=rules, opponent=None), rl.NimAEC(heaps, rules=rules)
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        aec.reset(seed=seed)
        over = False
        while not over:
            position = tuple(int(n) for n in obs)
            check(position, info["action_mask"], info["winning_mask"], info["outcome"])
            seen = aec.observe(aec.agent_selection)
            assert seen["observation"].tolist() == list(position)
            mine = aec.infos[aec.agent_selection]
            check(position, seen["action_mask"], mine["winning_mask"], mine["outcome"])
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, over, _, info = env.step(action)
            aec.step(action)
        assert all(aec.terminations.values())


@pytest.mark.parametrize("rule", RULES, ids=str)
def test_vector_env_labels_every_step_and_keeps_earlier_infos(rule):
    """Each step's infos are rl.labels of the positions observed, and infos a caller
    keeps from earlier steps are never written again (the core writes a step's labels
    into arrays of an earlier one only when nobody else holds them)."""
    heaps, rules = [1, 3, 5, 7], nk_rules(rule, False)
    envs = rl.NimVectorEnv(num_envs=16, heaps=heaps, rules=rules, opponent="random")
    obs, infos = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    kept = []
    for step in range(40):
        want = rl.labels(obs, heaps, rules=rules)
        assert (infos["action_mask"] == want["action_mask"]).all(), step
        assert (infos["winning_mask"] == want["winning_mask"]).all(), step
        assert infos["outcome"].tolist() == ["P" if p else "N" for p in want["is_p"]]
        if step % 3 == 0:
            kept.append((infos, {k: v.copy() for k, v in infos.items()}))
        scores = rng.random(infos["action_mask"].shape) * infos["action_mask"]
        obs, _, _, _, infos = envs.step(scores.argmax(axis=1))
    for held, copy in kept:
        assert all((held[k] == copy[k]).all() for k in copy)


def test_vector_env_illegal_actions_lose_without_raising():
    envs = rl.NimVectorEnv(num_envs=4, heaps=[1, 2], misere=True)
    envs.reset(seed=0)
    # take 2 from heap 0 (holds 1), an id past the last, a negative one, a legal one
    _, rewards, terminated, _, _ = envs.step(np.array([2, 5, -3, 1]))
    assert rewards.tolist() == [-1, -1, -1, 0]
    assert terminated.tolist() == [True] * 3 + [False]
    # next step: the ended games start again, their actions ignored
    obs, rewards, terminated, _, _infos = envs.step(np.array([0, 0, 0, 0]))
    assert obs[:3].tolist() == [[1, 2]] * 3
    assert rewards[:3].tolist() == [0, 0, 0]
    with pytest.raises(ValueError, match="4 ints"):
        envs.step(np.array([0.5, 1, 2, 3]))


@pytest.mark.parametrize(("misere", "seed"), [(False, 11), (False, 12), (True, 13), (True, 14)])
def test_perfect_opponent_never_loses_a_won_game(misere, seed):
    count = 2048
    boards = rl.RandomBoards(6, (2, 6), (1, 15))
    envs = rl.NimVectorEnv(num_envs=count, heaps=boards, opponent="perfect", misere=misere)
    _, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    # the agent plays at random; once one of its moves is not a winning one, the
    # opponent can win, and must
    lost_cause = np.zeros(count, bool)
    finished = 0
    for _ in range(60):
        legal, winning = infos["action_mask"], infos["winning_mask"]
        live = legal.any(axis=1)
        actions = (rng.random(legal.shape) * legal).argmax(axis=1)
        chosen_wins = winning[np.arange(count), actions].astype(bool)
        lost_cause |= live & ~chosen_wins
        _obs, rewards, terminated, _, infos = envs.step(actions)
        assert (rewards[terminated & lost_cause] == -1).all()
        finished += int((terminated & lost_cause).sum())
        lost_cause &= ~terminated
    assert finished > 1000


def test_openspiel_layout():
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    game = pyspiel.load_game("nim", {"pile_sizes": "1;3;5;7", "is_misere": False})
    env = rl.NimEnv([1, 3, 5, 7], opponent=None, observation="openspiel")
    assert env.action_space.n == game.num_distinct_actions()
    rng = np.random.default_rng(0)
    for _ in range(20):
        state = game.new_initial_state()
        obs, info = env.reset(seed=int(rng.integers(1000)))
        while True:
            assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
            assert obs.tolist() == state.observation_tensor(state.current_player())
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            obs, reward, over, _, info = env.step(action)
            if over:
                assert state.is_terminal()
                assert reward == 1.0
                break


def test_bad_input():
    with pytest.raises(ValueError, match="split"):
        rl.NimEnv([3, 4], rules=nk.Rules(code="0.77"))
    with pytest.raises(ValueError, match="negative"):
        rl.dataset([3, -1])
    with pytest.raises(ValueError, match="actions"):
        rl.dataset([10**6, 10**6])
    with pytest.raises(ValueError, match="no move at its start"):
        rl.NimEnv([0, 0])
    with pytest.raises(ValueError, match="low <= high"):
        rl.NimVectorEnv(2, rl.RandomBoards(3, (1, 3), (5, 2)))
    with pytest.raises(TypeError, match="an int"):
        rl.NimEnv([1, 2]).step("left")
    with pytest.raises(nk.IllegalMoveError, match="reset"):
        rl.NimEnv([1, 2]).step(0)
    with pytest.raises(TypeError, match="opponent"):
        rl.NimEnv([1, 2], opponent=[1])
    with pytest.raises(ValueError, match="unknown opponent"):
        rl.NimEnv([1, 2], opponent="clever")
    with pytest.raises(ValueError, match="probability"):
        rl.NimEnv([1, 2], opponent=1.5)
    with pytest.raises(ValueError, match="rows of 2 heaps"):
        rl.labels([[1, 2, 3]], [2, 3])
    with pytest.raises(ValueError, match="past the board's bound"):
        rl.labels([[5, 1]], [2, 3])
    env = rl.NimEnv([1], opponent=None)
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(nk.IllegalMoveError, match="game is over"):
        env.step(0)
    with pytest.raises(nk.IllegalMoveError, match="reset"):
        rl.NimAEC([1, 2]).step(0)
    # sizes past 64 bits, and samplers, are refused in Python with their names
    with pytest.raises(ValueError, match=r"heap 0 is past 2\*\*64 - 1"):
        rl.NimEnv([2**64])
    with pytest.raises(ValueError, match="sizes's bound is negative"):
        rl.RandomBoards(3, (1, 2), (-1, 3))
    with pytest.raises(TypeError, match="count's bound must be an int"):
        rl.RandomBoards(3, (1.0, 2), (1, 3))
    with pytest.raises(ValueError, match="more than 3 heaps"):
        rl.RandomBoards(3, (1, 4), (1, 3))
    with pytest.raises(ValueError, match="history must be an int in"):
        rl.NimEnv([1, 2], history=10**9)
    with pytest.raises(ValueError, match="sample must be a count"):
        rl.dataset([1, 2], sample=1.5)


def test_numpy_scalars_and_strided_actions_are_taken():
    envs = rl.NimVectorEnv(np.int64(3), [1, 3])
    assert envs.num_envs == 3
    assert isinstance(envs.num_envs, int)
    envs.reset(seed=0)
    # every other entry of an int64 array: not contiguous in memory
    _, rewards, terminated, _, _ = envs.step(np.array([1, 9, 1, 9, 1, 9])[::2])
    assert terminated.tolist() == [False] * 3
    assert rewards.tolist() == [0] * 3
    assert rl.NimEnv([2, 2], observation="binary").reset(seed=0)[0].tolist() == [[0, 1], [0, 1]]


def test_move_accuracy_ranks_scores_in_double_precision():
    heaps = [1, 3, 5, 7]
    # the winning actions ahead by 1e-9: rounded to float32 they would tie with the rest
    near = lambda X: 1.0 + 1e-9 * rl.labels(X, heaps)["winning_mask"]  # noqa: E731
    assert rl.move_accuracy(near, heaps).accuracy == 1.0
    huge = lambda X: 1e300 * rl.labels(X, heaps)["winning_mask"]  # noqa: E731
    assert rl.move_accuracy(huge, heaps).accuracy == 1.0
    # a k past the number of actions ranks every legal action: all hit
    assert rl.move_accuracy(near, heaps, k=2**70).accuracy == 1.0


def test_the_extra_is_named_when_missing(monkeypatch):
    for name in [m for m in sys.modules if m.startswith(("nimkit.rl._", "gymnasium"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    with pytest.raises(ImportError, match=r"nimkit\[rl\]"):
        rl.NimEnv  # noqa: B018


def rollout(seed: int) -> bytes:
    """A digest of 60 steps of a vector environment with random legal actions."""
    env = rl.NimVectorEnv(
        num_envs=700 + seed, heaps=[1, 3, 5, 7, 9], opponent=0.3 if seed % 2 else None
    )
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    digest = hashlib.sha256(obs.tobytes())
    for _ in range(60):
        scores = rng.random(infos["action_mask"].shape) * infos["action_mask"]
        obs, rewards, terminated, _, infos = env.step(scores.argmax(axis=1))
        for part in (obs, rewards, terminated, infos["action_mask"], infos["winning_mask"]):
            digest.update(part.tobytes())
    return digest.digest()


def test_vector_environments_stepped_from_many_threads_agree_with_one():
    # A step starts on the calling thread and the pool's workers join it: eight
    # threads stepping their own environments at once share that pool.
    seeds = list(range(16))
    alone = [rollout(seed) for seed in seeds]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = [f.result(timeout=120) for f in [pool.submit(rollout, s) for s in seeds]]
    assert together == alone


# --- datasets of games on graphs and boards ------------------------------------------


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize(
    "game",
    [
        nk.Cram(2, 3),
        nk.Cram(["#..", "..."]),
        nk.NodeKayles([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)]),
        nk.ArcKayles([(0, 1), (1, 2), (2, 3), (3, 0), (0, 4)]),
    ],
    ids=["cram-2x3", "cram-shaped", "node-kayles", "arc-kayles"],
)
def test_board_datasets_are_the_cores(game, misere):
    X, winning = rl.dataset(game, misere=misere)
    _, legal = rl.dataset(game, misere=misere, labels="action_mask")
    _, p = rl.dataset(game, misere=misere, labels="is_p")
    table = game.value_table()
    left = [v for v in range(table.vertices) if table.start >> v & 1]
    assert X.shape == (2 ** len(left), table.vertices)
    assert {tuple(np.flatnonzero(row)) for row in X} == {
        tuple(c for i, c in enumerate(left) if k >> i & 1) for k in range(2 ** len(left))
    }
    for row, win, can, lost in zip(X, winning, legal, p, strict=True):
        position = with_vertices_left(game, set(np.flatnonzero(row).tolist()))
        assert bool(lost) == (position.outcome(misere=misere) is nk.Outcome.P)
        assert int(can.sum()) == len(position.options())
        mask = sum(1 << int(v) for v in np.flatnonzero(row))
        wins = {mask & ~int(table.deletes[a]) for a in np.flatnonzero(win)}
        expected = {
            sum(1 << v for v in w._native.numbers()) for w in position.winning_moves(misere=misere)
        }
        assert wins == expected


def test_board_datasets_sample_balance_and_refuse_heap_options():
    X, p = rl.dataset(nk.Cram(3, 3), labels="is_p", balance=True, seed=1)
    assert 2 * int(p.sum()) == len(p) > 0
    X, _ = rl.dataset(nk.Cram(3, 3), sample=50, seed=2)
    assert X.shape == (50, 9)
    assert len({tuple(r) for r in X}) == 50
    again = rl.dataset(nk.Cram(3, 3), sample=50, seed=2)
    np.testing.assert_array_equal(again[0], X)
    with pytest.raises(ValueError, match="not for boards"):
        rl.dataset(nk.Cram(2, 2), max_heap=3)
    with pytest.raises(ValueError, match="more than max_positions = 100"):
        rl.dataset(nk.Cram(3, 3), max_positions=100)


def test_a_callable_opponents_move_that_ends_nothing_rewards_plus_zero():
    # The reward after the opponent's answer is the agent's: 0.0, never -0.0 (which
    # prints as a loss and differs under copysign), when neither move ended the game.
    def first_legal(obs, info):
        return int(np.flatnonzero(info["action_mask"])[0])

    env = rl.NimEnv([2, 3, 4], opponent=first_legal)
    _, info = env.reset(seed=1)
    _, reward, over, _, _ = env.step(first_legal(None, info))
    assert not over
    assert reward == 0.0
    assert math.copysign(1.0, reward) == 1.0
