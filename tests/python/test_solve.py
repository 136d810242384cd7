"""nimkit.solve: outcomes and remoteness of whole boxes by search."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import nimkit as nk

RULES = [
    nk.Rules(),
    nk.Rules(misere=True),
    nk.Rules(max_take=2),
    nk.Rules(misere=True, max_take=(1, None, 3)),
]


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_remoteness_satisfies_its_recurrence_on_every_position(rules):
    solution = nk.solve([4, 5, 6], rules)
    assert solution.remoteness.shape == (5, 6, 7)
    assert solution.remoteness.dtype == np.uint32
    for heaps in itertools.product(range(5), range(6), range(7)):
        position = nk.Position(heaps)
        assert solution.outcome_of(position) is position.outcome(rules)
        children = [position.after(m, rules) for m in position.moves(rules)]
        r = solution.remoteness_of(position)
        if not children:
            assert r == 0
        elif solution.is_p[heaps]:
            assert r == 1 + max(solution.remoteness_of(c) for c in children)
        else:
            winning = [solution.remoteness_of(c) for c in children if solution.is_p[tuple(c)]]
            assert r == 1 + min(winning)
        # In normal play the player who makes the last move wins: N odd, P even.
        if not rules.misere:
            assert r % 2 == (0 if solution.is_p[heaps] else 1)


def test_known_remoteness():
    assert nk.Position([7]).remoteness() == 1  # take everything
    assert nk.Position([1, 1]).remoteness() == 2
    assert nk.Position([0]).remoteness() == 0
    # Thirteen lights: three rounds of 4 (the loser moves, the winner completes 4),
    # then the loser takes the last light: 7 moves.
    assert nk.Position([13]).remoteness(nk.Rules(misere=True, max_take=3)) == 7


def test_solve_errors():
    with pytest.raises(ValueError, match="the box holds 1030301 positions, over the limit of 1000"):
        nk.solve([100, 100, 100], max_positions=1000)
    solution = nk.solve([2, 2])
    with pytest.raises(ValueError, match="outside the solved box"):
        solution.remoteness_of([3, 0])


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_outcome_only_search_agrees(rules):
    full = nk.solve([6, 7, 8], rules)
    fast = nk.solve([6, 7, 8], rules, remoteness=False)
    np.testing.assert_array_equal(fast.is_p, full.is_p)
    assert fast.remoteness is None
    with pytest.raises(ValueError, match="without remoteness"):
        fast.remoteness_of([1, 2, 3])
