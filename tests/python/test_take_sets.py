"""Rules with subtraction sets, from Python: the API, every function against the
exact search of ``nimkit.solve`` over whole boxes, games and players, bad input."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimkit as nk
from nimkit.cli import main


def test_rules_api():
    rules = nk.Rules(take={4, 1, 3})
    assert repr(rules) == "Rules(take={1, 3, 4})"
    assert str(rules) == "normal play (taking the last object wins), take 1, 3 or 4 per turn"
    assert rules.take == frozenset({1, 3, 4})
    assert rules.max_take is None
    assert rules.has_closed_form
    assert rules == nk.Rules(take=[1, 3, 4, 4]) == nk.Rules(take=nk.SubtractionGame({1, 3, 4}))
    assert hash(rules) == hash(nk.Rules(take=(4, 3, 1)))
    assert rules != nk.Rules(take={1, 3})
    assert pickle.loads(pickle.dumps(rules)) == rules
    per_heap = nk.Rules(misere=True, take=[{2, 3}, None, {1}])
    assert repr(per_heap) == "Rules(misere=True, take=({2, 3}, None, {1}))"
    assert per_heap.take == (frozenset({2, 3}), None, frozenset({1}))
    assert "take sets per heap: {2, 3}, any, {1}" in str(per_heap)
    assert not per_heap.has_closed_form
    assert eval(repr(per_heap), {"Rules": nk.Rules}) == per_heap
    # {1..k} is Nim with take limit k: misère play keeps its closed form.
    assert nk.Rules(misere=True, take={1, 2, 3}).has_closed_form
    assert not nk.Rules(misere=True, take={1, 3}).has_closed_form


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"take": set()}, ValueError, "at least one element"),
        ({"take": {0, 1}}, ValueError, "0 is not a move"),
        ({"take": [-1, 2]}, ValueError, "must not be negative"),
        ({"take": {1.5}}, TypeError, "must be an integer, not float"),
        ({"take": 3}, TypeError, "take must be a set of positive ints"),
        ({"take": "13"}, TypeError, "take must be a set of positive ints"),
        ({"take": [{1}, 2]}, TypeError, "take for heap 1 must be a set"),
        ({"take": {1, 2**30}}, ValueError, "too large"),
        ({"take": {1}, "max_take": 2}, ValueError, "either max_take or take"),
    ],
)
def test_bad_sets(kwargs, error, message):
    with pytest.raises(error, match=message):
        nk.Rules(**kwargs)


def test_one_set_per_heap_must_fit_the_position():
    rules = nk.Rules(take=[{1}, {2}])
    with pytest.raises(ValueError, match="2 per-heap take limits given for 3 heaps"):
        nk.Position([1, 2, 3]).outcome(rules)


def test_moves_and_illegal_takes():
    rules = nk.Rules(take={1, 3, 4})
    position = nk.Position([3, 5])
    assert position.moves(rules) == [
        nk.Move(0, 1),
        nk.Move(0, 3),
        nk.Move(1, 1),
        nk.Move(1, 3),
        nk.Move(1, 4),
    ]
    reason = "cannot take 2 from heap 1; the rules allow only {1, 3, 4}"
    assert reason in position.illegal_reason(nk.Move(1, 2), rules)
    with pytest.raises(nk.IllegalMoveError, match="allow only"):
        position.after(nk.Move(1, 2), rules)
    # Several winning moves in one heap.
    assert nk.Position([3]).winning_moves(rules) == [nk.Move(0, 1), nk.Move(0, 3)]


SETS = [{1, 3, 4}, {2, 3}, {1, 4}, {2, 5, 7}, {1, 2, 3}]


@pytest.mark.parametrize("take", SETS, ids=str)
@pytest.mark.parametrize("misere", [False, True])
def test_every_function_equals_search_on_a_whole_box(take, misere):
    rules = nk.Rules(misere=misere, take=take)
    bounds = (9, 7, 6)
    solution = nk.solve(bounds, rules)
    outcome_only = nk.solve(bounds, rules, remoteness=False)
    np.testing.assert_array_equal(outcome_only.is_p, solution.is_p)
    assert 0 < solution.is_p.sum() < solution.is_p.size
    rows = np.array(list(itertools.product(*(range(b + 1) for b in bounds))), dtype=np.uint16)
    is_p = nk.batch.is_p_position(rows, rules)
    heaps, takes = nk.batch.winning_move(rows, rules)
    counts = nk.batch.count_winning_moves(rows, rules)
    np.testing.assert_array_equal(is_p, solution.is_p.ravel())
    for i, row in enumerate(map(tuple, rows.tolist())):
        position = nk.Position(row)
        children = [position.after(m, rules) for m in position.moves(rules)]
        expected = [
            m
            for m, c in zip(position.moves(rules), children, strict=True)
            if solution.outcome_of(c) is nk.Outcome.P
        ]
        assert position.winning_moves(rules) == expected, row
        assert position.outcome(rules) is solution.outcome_of(row)
        assert counts[i] == len(expected)
        first = (expected[0].heap, expected[0].take) if expected else (-1, 0)
        assert (heaps[i], takes[i]) == first
        if not misere:
            assert (position.nim_sum(rules) == 0) == bool(solution.is_p[row])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sets(st.integers(1, 6), min_size=1, max_size=3) | st.none(), min_size=1, max_size=3
    ),
    st.booleans(),
)
def test_one_set_per_heap_equals_search(takes, misere):
    rules = nk.Rules(misere=misere, take=takes)
    bounds = (6,) * len(takes)
    solution = nk.solve(bounds, rules, remoteness=False)
    for row in itertools.product(*(range(b + 1) for b in bounds)):
        assert nk.Position(row).outcome(rules) is solution.outcome_of(row)


def test_misere_search_names_the_box_over_the_limit():
    # A set with an element over 256 has no take-and-break code, so no misère
    # quotient to fall back on: only the search.
    rules = nk.Rules(misere=True, take={2, 300})
    message = "needs the 1003003001 positions of the box \\[1000, 1000, 1000\\]"
    with pytest.raises(ValueError, match=message):
        nk.Position([1000, 1000, 1000]).outcome(rules)
    with pytest.raises(ValueError, match="over max_positions = 1000"):
        nk.analyse([20, 20, 20], rules, max_positions=1000)
    with pytest.raises(ValueError, match="max_positions"):
        nk.batch.is_p_position([[30, 30, 30]], rules, max_positions=1000)
    with pytest.raises(ValueError, match="max_positions"):
        nk.Game([20, 20, 20], rules, max_positions=1000)
    # Sets with a code fall back on the misère quotient where the search is too large.
    quotient = nk.SubtractionGame({2, 3}).misere_quotient()
    small = nk.Rules(misere=True, take={2, 3})
    assert nk.Position([1000, 1000, 1000]).outcome(small) == quotient.outcome([1000] * 3)
    # Normal play needs no search, whatever the heaps.
    normal = nk.Rules(take={2, 3})
    huge = [2**64 - 1, 2**64 - 2, 2**63]
    expected = nk.SubtractionGame({2, 3}).is_p_position(huge)
    assert (nk.Position(huge).outcome(normal) is nk.Outcome.P) == expected
    assert nk.Position([1000, 1000, 1000]).grundy(small) == (0, 0, 0)


def test_games_end_when_no_heap_can_be_moved():
    for misere, winner in [(False, 0), (True, 1)]:
        game = nk.Game([3, 1], nk.Rules(misere=misere, take={2, 3}))
        assert game.legal_moves == [nk.Move(0, 2), nk.Move(0, 3)]
        game.push(nk.Move(0, 2))
        assert game.is_over
        assert game.winner == winner
        assert game.position == nk.Position([1, 1])


@pytest.mark.parametrize("misere", [False, True])
def test_perfect_players_win_every_won_start(misere):
    rules = nk.Rules(misere=misere, take={1, 3, 4})
    start = nk.Position([7, 5, 4])
    assert start.outcome(rules) is nk.Outcome.N
    for player in [nk.PerfectPlayer(), nk.PerfectPlayer(style="fastest")]:
        result = nk.simulate(start, rules, player, nk.RandomPlayer(), 500, seed=3)
        assert result.wins == (500, 0)


def test_the_fastest_player_wins_in_the_remoteness():
    rules = nk.Rules(misere=True, take={1, 3, 4})
    start = nk.Position([7, 5, 4])
    fastest = nk.PerfectPlayer(style="fastest")
    both = nk.simulate(start, rules, fastest, fastest, 5)
    assert set(both.lengths.tolist()) == {start.remoteness(rules)}
    hurried = nk.simulate(start, rules, fastest, nk.RandomPlayer(), 300, seed=1)
    assert hurried.lengths.max() <= start.remoteness(rules)
    # Against the same opponent, the plain perfect player takes longer on average.
    plain = nk.simulate(start, rules, nk.PerfectPlayer(), nk.RandomPlayer(), 300, seed=1)
    assert plain.lengths.mean() > hurried.lengths.mean()
    assert repr(fastest) == "PerfectPlayer(style='fastest')"
    with pytest.raises(ValueError, match="style must be"):
        nk.PerfectPlayer(style="slow")


def test_a_game_with_sets_replays_from_its_repr():
    game = nk.Game([5, 6], nk.Rules(misere=True, take={2, 3}))
    player = nk.PerfectPlayer()
    while (move := player.choose(game)) is not None:
        game.push(move)
    namespace = {"Game": nk.Game, "Position": nk.Position, "Rules": nk.Rules, "Move": nk.Move}
    assert eval(repr(game), namespace) == game
    assert game.winner == game.predicted_winner


def test_cli_take(capsys):
    assert main(["analyse", "3", "5", "7", "--take", "2,3", "--misere", "--json"]) == 0
    facts = __import__("json").loads(capsys.readouterr().out)
    assert facts["rules"] == {"misere": True, "max_take": None, "take": [2, 3], "code": None}
    assert (
        facts["outcome"] == nk.Position([3, 5, 7]).outcome(nk.Rules(misere=True, take={2, 3})).value
    )
    assert main(["analyse", "3", "5", "--take", "1,3,4/none"]) == 0
    assert "take sets per heap: {1, 3, 4}, any" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["analyse", "3", "--take", "x"])
    with pytest.raises(SystemExit):
        main(["analyse", "3", "--take", "1,2", "--max-take", "2"])


def test_p_position_tables_refuse_sets():
    with pytest.raises(ValueError, match=r"not subtraction sets; use nimkit\.solve"):
        nk.p_positions([5, 5], nk.Rules(take={1, 3}))
    with pytest.raises(ValueError, match="not subtraction sets"):
        nk.count_p_positions([5, 5], nk.Rules(take=[{1, 3}, None]))


def test_a_simulation_repr_is_a_summary():
    result = nk.simulate([3, 4], nk.Rules(take={1, 2}), nk.PerfectPlayer(), nk.RandomPlayer(), 100)
    assert repr(result).startswith("Simulation(wins=(100, 0), games=100, mean_length=")
