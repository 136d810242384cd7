"""The classical games against independent references: brute-force searches written
here over whole boxes of positions, the plain mex, and published values."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

import nimkit as nk
from nimkit import Outcome, Wythoff

BOX = 30


def wythoff_options(a: int, b: int) -> list[tuple[int, int]]:
    moves = [(x, b) for x in range(a)] + [(a, y) for y in range(b)]
    return moves + [(a - t, b - t) for t in range(1, min(a, b) + 1)]


@cache
def wythoff_wins(a: int, b: int, misere: bool) -> bool:
    options = wythoff_options(a, b)
    if not options:
        return misere
    return any(not wythoff_wins(x, y, misere) for x, y in options)


@pytest.mark.parametrize("misere", [False, True])
def test_wythoff_outcomes_and_winning_moves_equal_brute_force(misere):
    for a in range(BOX):
        for b in range(BOX):
            game = Wythoff(a, b)
            won = wythoff_wins(a, b, misere)
            assert game.outcome(misere=misere) is (Outcome.N if won else Outcome.P)
            expected = sorted(o for o in wythoff_options(a, b) if not wythoff_wins(*o, misere))
            assert sorted(m.heaps for m in game.winning_moves(misere=misere)) == expected


def test_wythoff_p_positions_are_the_beatty_pairs():
    # Wythoff (1907); OEIS A000201 and A001950.
    pairs = [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13), (9, 15), (11, 18), (12, 20)]
    found = [
        (a, b) for a in range(21) for b in range(a, 21) if Wythoff(a, b).outcome() is Outcome.P
    ]
    assert found == pairs


def test_wythoff_grundy_values_are_the_mex_table():
    n = 24
    naive = np.zeros((n, n), dtype=int)
    for a in range(n):
        for b in range(n):
            seen = {naive[x, y] for x, y in wythoff_options(a, b)}
            naive[a, b] = min(set(range(len(seen) + 1)) - seen)
    table = nk.wythoff_grundy_table(n)
    assert table.dtype == np.uint8
    assert (table == naive).all()
    assert Wythoff(17, 23).grundy() == naive[17, 23]
    wide = nk.wythoff_grundy_table(200)
    assert wide.dtype == (np.uint8 if wide.max() <= 255 else np.uint16)
    assert (wide[:n, :n] == naive).all()
    assert (wide == wide.T).all()


def test_wythoff_table_is_the_published_one():
    table = nk.wythoff_grundy_table(2000)
    # The lower triangle, rows 0..7 (Winning Ways p. 76; OEIS A317205, of A004481).
    triangle = [
        [0],
        [1, 2],
        [2, 0, 1],
        [3, 4, 5, 6],
        [4, 5, 3, 2, 7],
        [5, 3, 4, 0, 6, 8],
        [6, 7, 8, 1, 9, 10, 3],
        [7, 8, 6, 9, 0, 1, 4, 5],
    ]
    for a, row in enumerate(triangle):
        assert table[a, : a + 1].tolist() == row
    # CGSuite's test fixtures (GameHeapTest, coordinate games): row 10, columns 0..20,
    # and the 30 options of (10, 10).
    assert table[10, :21].tolist() == [
        10,
        11,
        9,
        8,
        13,
        12,
        0,
        15,
        16,
        17,
        14,
        18,
        7,
        6,
        2,
        3,
        1,
        4,
        5,
        23,
        28,
    ]
    assert len(Wythoff(10, 10).options()) == 30
    # The diagonal (OEIS A047708).
    diagonal = [0, 2, 1, 6, 7, 8, 3, 5, 4, 16, 14, 15, 10, 9, 11, 20, 13, 21, 12, 25]
    assert np.diag(table)[:20].tolist() == diagonal
    # Every row, column and diagonal is a permutation of the naturals (Winning Ways;
    # Landman for the diagonal): within the table each line's values are distinct, and
    # since G(a, b) differs from b by at most 2a (the column and the diagonal exclude
    # at most 2a values), every value v turns up in row a by column v + 2a.
    n = len(table)
    for a in range(0, n, 97):
        for line in (table[a], table[:, a], np.diag(table, a)):
            assert len(set(line.tolist())) == len(line)
        if a < 600:
            assert set(range(200)) <= set(table[a, : 200 + 2 * a + 1].tolist())


def test_wythoff_of_huge_heaps_is_exact():
    game = Wythoff(10**18, 2 * 10**18)
    (move,) = game.winning_moves()
    assert move.heaps == (10**18, 618033988749894848)
    assert move.outcome() is Outcome.P
    # ⌊kφ⌋ for k = 381966011250105152, checked with Python's integers:
    # x = ⌊kφ⌋ exactly when (2x - k)**2 < 5k**2 < (2x + 2 - k)**2.
    x, k = 618033988749894848, 10**18 - 618033988749894848
    assert (2 * x - k) ** 2 < 5 * k * k < (2 * x + 2 - k) ** 2
    top = Wythoff(2**64 - 1, 2**64 - 2)
    assert Wythoff(2, 1) in top.winning_moves()
    with pytest.raises(OverflowError, match=r"2\*\*64 - 1"):
        Wythoff(2**64, 1)
    with pytest.raises(ValueError, match="needs a table of"):
        Wythoff(10**6, 10**6).grundy()


def test_wythoff_plays_explains_and_draws():
    game = nk.Game(Wythoff(5, 9))
    perfect, dice = nk.PerfectPlayer(), nk.RandomPlayer(seed=1)
    while not game.is_over:
        move = (perfect if game.turn == 0 else dice).choose(game)
        assert move is not None
        game.push(move)
    assert game.winner == 0
    text = Wythoff(3, 6).explain()
    assert "Wythoff's theorem" in text
    assert "k = 3, whose pair is (4, 7)" in text
    assert "Winning moves: (3, 5)." in text
    svg = Wythoff(3, 6)._repr_svg_()
    assert svg.count('fill="#c33"') == 4  # (0, 0), (1, 2), (2, 1), (3, 5) on the 4 x 7 board
    assert (Wythoff(3, 5) + nk.Heaps([2])).grundy() == 2


def staircase_options(coins: tuple[int, ...]) -> list[tuple[int, ...]]:
    found = []
    for step in range(1, len(coins)):
        for t in range(1, coins[step] + 1):
            after = list(coins)
            after[step] -= t
            after[step - 1] += t
            found.append(tuple(after))
    return found


@cache
def staircase_value(coins: tuple[int, ...]) -> int:
    seen = {staircase_value(o) for o in staircase_options(coins)}
    return min(set(range(len(seen) + 1)) - seen)


@cache
def staircase_wins(coins: tuple[int, ...], misere: bool) -> bool:
    options = staircase_options(coins)
    if not options:
        return misere
    return any(not staircase_wins(o, misere) for o in options)


def test_staircase_nim_equals_brute_force():
    import itertools

    staircases = [*itertools.product(range(4), repeat=4), *itertools.product(range(3), repeat=5)]
    for coins in staircases:
        game = nk.StaircaseNim(coins)
        assert game.grundy() == staircase_value(coins), coins
        for misere in (False, True):
            won = staircase_wins(coins, misere)
            assert game.outcome(misere=misere) is (Outcome.N if won else Outcome.P)
            expected = sorted(o for o in staircase_options(coins) if not staircase_wins(o, misere))
            assert sorted(m.coins for m in game.winning_moves(misere=misere)) == expected


def test_staircase_nim_of_large_piles_and_in_sums():
    big = nk.StaircaseNim([10**17, 2**62, 5, 2**62 + 7])
    assert big.grundy() == 7
    # 7 coins come down from step 3 onto step 2.
    assert [m.coins for m in big.winning_moves()] == [(10**17, 2**62, 12, 2**62)]
    assert (big + nk.Heaps([7])).outcome() is Outcome.P
    assert "3 xor 4 = 7" in nk.StaircaseNim([0, 3, 1, 4]).explain()
    # A move adds coins to a step: the whole staircase must fit in 64 bits.
    with pytest.raises(ValueError, match="more than 2\\*\\*64 - 1"):
        nk.StaircaseNim([2**64 - 1, 1])
    assert len(nk.StaircaseNim([2**64 - 2, 1]).options()) == 1


@pytest.mark.parametrize("n", [11, 30, 200])
def test_misere_turning_corners_refuses_at_once_what_it_cannot_search(n):
    # 200 x 200 with one head never finished and took 12.5 s to hear Ctrl-C; 30 x 30
    # still ran at 20 s (issue 45): the boards a search must hold are counted first.
    board = [[0] * n for _ in range(n)]
    board[-1][-1] = 1
    with pytest.raises(ValueError, match="searched over the boards its moves reach, at least"):
        nk.TurningCorners(board).outcome(misere=True)


def test_winning_rectangles_are_the_winning_moves():
    rng = np.random.default_rng(4)
    for _ in range(20):
        board = nk.TurningCorners(rng.integers(0, 2, size=(5, 6)).tolist())
        expected = []
        for move in board.winning_moves():
            turned = [
                (r, c)
                for r, (old, new) in enumerate(zip(board.rows, move.rows, strict=True))
                for c in range(len(old))
                if old[c] != new[c]
            ]
            (a, b), (x, y) = turned[0], turned[-1]
            expected.append((a, b, x, y))
        assert board.winning_rectangles() == expected
