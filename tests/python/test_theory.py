"""The Python API against the pure-Python reference and the native search."""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nimkit as nk
from nimkit import _core

from . import reference as ref

limit = st.integers(1, 5)


@st.composite
def games(draw):
    """A small position and rules that fit it, with every take-limit form."""
    heaps = tuple(draw(st.lists(st.integers(0, 7), max_size=4)))
    max_take = draw(
        st.one_of(
            st.none(),
            limit,
            st.lists(st.one_of(st.none(), limit), min_size=len(heaps), max_size=len(heaps)).map(
                tuple
            ),
        )
    )
    return heaps, draw(st.booleans()), max_take


@given(games())
def test_outcome_and_winning_moves_match_the_reference(game):
    heaps, misere, max_take = game
    rules = nk.Rules(misere=misere, max_take=max_take)
    position = nk.Position(heaps)
    expected_p = ref.is_p(heaps, misere, max_take)
    assert position.outcome(rules) is (nk.Outcome.P if expected_p else nk.Outcome.N)
    expected_moves = ref.winning_moves(heaps, misere, max_take)
    assert [(m.heap, m.take) for m in position.winning_moves(rules)] == expected_moves


@given(games())
def test_grundy_values_and_nim_sum_match_the_mex_reference(game):
    heaps, misere, max_take = game
    rules = nk.Rules(misere=misere, max_take=max_take)
    expected = tuple(ref.grundy(n, ref.limit_of(max_take, i)) for i, n in enumerate(heaps))
    position = nk.Position(heaps)
    assert position.grundy(rules) == expected
    assert position.nim_sum(rules) == reduce(xor, expected, 0)


@given(games())
def test_moves_are_exactly_the_legal_moves(game):
    heaps, misere, max_take = game
    rules = nk.Rules(misere=misere, max_take=max_take)
    position = nk.Position(heaps)
    moves = position.moves(rules)
    assert [(m.heap, m.take) for m in moves] == ref.legal_moves(heaps, max_take)
    for move in moves:
        assert position.is_legal(move, rules)
        assert position.after(move, rules).heaps == ref.play(heaps, move.heap, move.take)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("max_take", [None, 2, (1, None, 3)])
def test_native_search_agrees_with_closed_forms_on_a_box(misere, max_take):
    bounds = (5, 6, 7)
    rules = nk.Rules(misere=misere, max_take=max_take)
    table, _ = _core.solve_box(bounds, nk.Rules(misere, max_take), 10**6)
    assert table.shape == (6, 7, 8)
    assert table.dtype == np.bool_
    for heaps in itertools.product(*(range(b + 1) for b in bounds)):
        assert table[heaps] == (nk.Position(heaps).outcome(rules) is nk.Outcome.P)
    assert 0 < table.sum() < table.size


def test_native_search_refuses_a_box_that_is_too_large():
    with pytest.raises(ValueError, match="the box holds 1000000 positions, over the limit of 10"):
        _core.solve_box((99, 99, 99), nk.Rules(), 10)


@pytest.mark.parametrize(
    ("heaps", "rules", "outcome", "moves"),
    [
        ((1, 3, 5, 7), nk.Rules(misere=True), nk.Outcome.P, []),
        ((13,), nk.Rules(misere=True, max_take=3), nk.Outcome.P, []),
        ((3, 4, 5), nk.Rules(), nk.Outcome.N, [nk.Move(0, 2)]),
        ((), nk.Rules(), nk.Outcome.P, []),
        ((), nk.Rules(misere=True), nk.Outcome.N, []),
        ((0, 0), nk.Rules(misere=True), nk.Outcome.N, []),
        ((1, 1, 1), nk.Rules(misere=True), nk.Outcome.P, []),
        ((2, 2, 1), nk.Rules(misere=True), nk.Outcome.N, [nk.Move(2, 1)]),
        ((14,), nk.Rules(misere=True, max_take=3), nk.Outcome.N, [nk.Move(0, 1)]),
    ],
)
def test_classic_positions(heaps, rules, outcome, moves):
    analysis = nk.analyse(heaps, rules)
    assert analysis.outcome is outcome
    assert list(analysis.winning_moves) == moves


def test_huge_heaps():
    top = 2**64 - 1
    position = nk.Position([top, top - 1, 5])
    assert position.nim_sum() == 1 ^ 5
    moves = position.winning_moves()
    assert moves == [nk.Move(0, 4), nk.Move(1, 4), nk.Move(2, 4)]
    assert all(position.after(move).nim_sum() == 0 for move in moves)
    limited = nk.Rules(max_take=top)  # a limit of 2**64 - 1 never binds
    assert position.grundy(limited) == position.grundy()
    assert nk.Position([top]).grundy(nk.Rules(max_take=2**63)) == (top % (2**63 + 1),)
