"""Take-and-break codes from Python: rules, moves that split, every function, and the
answers against a pure-Python reference written here from the definition of a code."""

from __future__ import annotations

import pickle
from functools import cache

import numpy as np
import pytest

import nimkit as nk
from nimkit import Move, Position, Rules, batch
from nimkit.cli import main

KAYLES = Rules(code="0.77")


def options(code: str, n: int) -> list[tuple[int, tuple[int, ...]]]:
    """(take, heaps left) for every option of a heap of n, from the code's digits."""
    distinct = "!" in code
    before, after = code.replace("!", "").split(".")
    digits = [int(d, 16) for d in (before or "0") + after]
    found = []
    for t, d in enumerate(digits):
        m = n - t
        if m < 0:
            continue
        if t and d & 1 and m == 0:
            found.append((t, ()))
        if t and d & 2 and m > 0:
            found.append((t, (m,)))
        for a in range(1, m // 2 + 1):
            if d & 4 and not (distinct and 2 * a == m):
                found.append((t, (a, m - a)))
        for a in range(1, m // 3 + 1):
            for b in range(a, (m - a) // 2 + 1):
                c = m - a - b
                if d & 8 and not (distinct and (a == b or b == c)):
                    found.append((t, (a, b, c)))
    return found


@cache
def is_p(code: str, misere: bool, heaps: tuple[int, ...]) -> bool:
    key = tuple(sorted(h for h in heaps if h))
    children = [
        key[:i] + key[i + 1 :] + left for i, n in enumerate(key) for _, left in options(code, n)
    ]
    if not children:
        return not misere
    return not any(is_p(code, misere, child) for child in children)


def test_the_issue_examples():
    pos = Position([9, 5])
    moves = pos.moves(KAYLES)
    assert moves[:2] == [Move(heap=0, take=1), Move(heap=0, take=1, into=(1, 7))]
    assert len(moves) == 9 + 5
    assert pos.after(Move(heap=0, take=2, into=(3, 4)), KAYLES) == Position([3, 4, 5])
    assert nk.TakeAndBreak("0.77").grundy(10**6) == nk.TakeAndBreak("0.77").grundy(10**6 % 12 + 84)
    assert nk.presets.KAYLES.rules == KAYLES
    assert nk.presets.GRUNDYS_GAME.rules == Rules(code="4!.0")
    assert nk.presets.DAWSONS_KAYLES.rules == Rules(code="0.07")


def test_rules_and_moves_are_values():
    rules = Rules(code="4.0!", misere=True)
    assert repr(rules) == "Rules(misere=True, code='4!.0')"
    assert eval(repr(rules), {"Rules": Rules}) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert hash(Rules(code="0.770")) == hash(KAYLES)
    assert KAYLES.code == "0.77"
    assert KAYLES.splits
    assert KAYLES.take is None
    assert KAYLES.max_take is None
    assert not Rules(code="0.77", misere=True).has_closed_form
    move = Move(heap=1, take=0, into=(2, 5))
    assert repr(move) == "Move(heap=1, take=0, into=(2, 5))"
    assert eval(repr(move), {"Move": Move}) == move
    assert pickle.loads(pickle.dumps(move)) == move
    assert str(move) == "split heap 1 into 2 + 5"
    assert move != Move(heap=1, take=0, into=(5, 2))
    assert nk.TakeAndBreak("0.77") == KAYLES.heap_rule
    assert pickle.loads(pickle.dumps(nk.TakeAndBreak("4!.0"))) == nk.TakeAndBreak("4!.0")


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "empty"),
        ("0.8z", "'z' is not a hexadecimal digit"),
        ("0.0", "no move at all"),
        ("1.7", "may only split"),
        ("077", "point"),
    ],
)
def test_bad_codes(code, message):
    with pytest.raises(ValueError, match=message):
        Rules(code=code)


def test_bad_moves():
    with pytest.raises(ValueError, match="two or three sizes"):
        Move(0, 1, into=(3,))
    with pytest.raises(ValueError, match="nonempty"):
        Move(0, 1, into=(0, 3))
    with pytest.raises(ValueError, match="at least 1"):
        Move(0, 0)
    with pytest.raises(TypeError):
        Rules(code=77)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not max_take and code"):
        Rules(max_take=2, code="0.77")
    pos = Position([9])
    for move, reason in [
        (Move(0, 2, into=(3, 3)), "cannot lose 2 and split into 3 + 3"),
        (Move(0, 3), "at most 2"),
        (Move(0, 1, into=(4, 3)), "split into 4 + 3"),
    ]:
        assert reason in pos.illegal_reason(move, KAYLES)
        with pytest.raises(nk.IllegalMoveError):
            pos.after(move, KAYLES)
    # Splits are not Nim moves.
    assert pos.illegal_reason(Move(0, 1, into=(3, 5))) is not None


CODES = ["0.77", "0.07", "4!.0", "0.137", "0.6", "0.4", "8.0", "0.f!", "4.3"]


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("misere", [False, True])
def test_outcomes_and_winning_moves_equal_the_reference(code, misere):
    rules = Rules(code=code, misere=misere)
    for heaps in [(a, b) for a in range(9) for b in range(a + 1)] + [(3, 4, 6), (8, 5, 2)]:
        pos = Position(heaps)
        assert (pos.outcome(rules) is nk.Outcome.P) == is_p(code, misere, heaps), heaps
        winning = {m for m in pos.moves(rules) if is_p(code, misere, pos.after(m, rules).heaps)}
        assert set(pos.winning_moves(rules)) == winning, heaps
        if not misere:
            assert pos.nim_sum(rules) == np.bitwise_xor.reduce(pos.grundy(rules))


def test_grundy_sequence_and_period():
    kayles = nk.TakeAndBreak("0.77")
    # CGSuite's fixtures: heaps 1..20.
    assert kayles.grundy_sequence(21)[1:].tolist() == [
        1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1,
    ]  # fmt: skip
    assert kayles.period() == (71, 12)
    assert nk.TakeAndBreak("0.07").period() == (53, 34)
    grundy = nk.TakeAndBreak("4!.0")
    assert grundy.period() is None
    with pytest.raises(ValueError, match="no period is proven"):
        grundy.grundy(10**9)
    with pytest.raises(ValueError, match="no period is proven"):
        Position([10**9]).outcome(Rules(code="4!.0"))


def test_games_and_players_split_and_undo():
    game = nk.Game([9], KAYLES)
    game.push(Move(heap=0, take=1, into=(3, 5)))
    assert game.position == Position([3, 5])
    assert game.pop() == Move(heap=0, take=1, into=(3, 5))
    assert game.position == Position([9])
    for rules in (KAYLES, Rules(code="0.77", misere=True), Rules(code="4!.0")):
        game = nk.Game([7, 4], rules)
        perfect = nk.PerfectPlayer()
        won = game.outcome is nk.Outcome.N
        while not game.is_over:
            player = perfect if game.turn == 0 else nk.RandomPlayer(seed=len(game.history))
            game.push(player.choose(game))
        assert (game.winner == 0) == won or not won
        while game.history:
            game.pop()
        assert game.position == Position([7, 4])
    result = nk.simulate([7, 4], KAYLES, nk.PerfectPlayer(), nk.RandomPlayer(1), n_games=50)
    assert result.wins[0] == 50


def test_remoteness_through_splits():
    # Kayles: from 3 the only winning move knocks out the middle pin, leaving 1 + 1,
    # after which two more moves end the game; 2 is taken at once.
    assert Position([3]).remoteness(KAYLES) == 3
    assert Position([2]).remoteness(KAYLES) == 1
    assert Position([0, 0]).remoteness(KAYLES) == 0
    with pytest.raises(ValueError, match="max_positions"):
        Position([30, 30]).remoteness(KAYLES, max_positions=100)


def test_batch_normal_play_uses_grundy_values():
    heaps = np.array([[9, 5], [3, 1], [20, 0], [10**12, 7]], dtype=np.uint64)
    rules = KAYLES
    expected = [Position(row.tolist()).nim_sum(rules) for row in heaps]
    assert batch.nim_sum(heaps, rules).tolist() == expected
    assert batch.is_p_position(heaps, rules).tolist() == [x == 0 for x in expected]
    counts = [len(Position(row.tolist()).winning_moves(rules)) for row in heaps[:3]]
    assert batch.count_winning_moves(heaps[:3], rules).tolist() == counts
    # winning_move returns the parts too under rules that split, as winning_split.
    for got, split in zip(
        batch.winning_move(heaps[:3], rules), batch.winning_split(heaps[:3], rules), strict=True
    ):
        assert got.tolist() == split.tolist()
    with pytest.raises(ValueError, match="leave out= out"):
        batch.winning_move(heaps[:3], rules, out=(np.zeros(3, np.int64), np.zeros(3, np.uint64)))
    heap, take, into = batch.winning_split(heaps[:3], rules)
    for row, h, t, parts in zip(heaps[:3].tolist(), heap, take, into.tolist(), strict=True):
        moves = Position(row).winning_moves(rules)
        if not moves:
            assert (h, t, parts) == (-1, 0, [0, 0, 0])
            continue
        first = moves[0]
        assert (h, t) == (first.heap, first.take)
        assert parts == [*(first.into or ()), 0, 0, 0][:3]
    # Without splits, the parts are zeros and the moves those of winning_move.
    plain = np.array([[3, 4, 5], [1, 2, 3]])
    first = batch.winning_move(plain)
    found = batch.winning_split(plain)
    assert found[0].tolist() == first[0].tolist()
    assert found[1].tolist() == first[1].tolist()
    assert not found[2].any()
    # A heap of 10**12 has about 10**12 splits: its outcome is O(1), but listing or
    # counting every winning move is refused, not left to run for hours. The first
    # winning move is found among one option of each class of equal values (the
    # period): in a game, and in winning_split.
    huge = Position([10**12, 7])
    assert huge.outcome(rules) is (nk.Outcome.P if expected[3] == 0 else nk.Outcome.N)
    for call in (
        lambda: huge.winning_moves(rules),
        lambda: batch.count_winning_moves(heaps, rules),
    ):
        with pytest.raises(ValueError, match="options, more than"):
            call()
    game = nk.Game(huge, rules)
    move = nk.PerfectPlayer().choose(game)
    assert move is not None
    assert huge.after(move, rules).nim_sum(rules) == 0
    heap, take, into = batch.winning_split(heaps, rules)
    assert (heap[3], take[3], tuple(into[3])) == (move.heap, move.take, (*move.into, 0))
    # An analysis lists that first winning move, and says it is not every one.
    analysis = nk.analyse(huge, rules)
    assert (analysis.winning_moves, analysis.every_winning_move) == ((move,), False)


@pytest.mark.parametrize("code", ["0.77", "0.07", "4!.0", "8.0"])
def test_misere_batch_searches_from_every_row(code):
    rules = Rules(code=code, misere=True)
    rng = np.random.default_rng(7)
    heaps = rng.integers(0, 12, size=(40, 3)).astype(np.int16)
    heaps[0] = [11, 0, 11]  # rows need not lie below one another
    expected = [is_p(code, True, tuple(row)) for row in heaps.tolist()]
    assert batch.is_p_position(heaps, rules).tolist() == expected
    counts = [len(Position(row).winning_moves(rules)) for row in heaps.tolist()]
    assert batch.count_winning_moves(heaps, rules).tolist() == counts
    heap, take, into = batch.winning_split(heaps, rules)
    for row, h, t, parts in zip(heaps.tolist(), heap, take, into.tolist(), strict=True):
        moves = Position(row).winning_moves(rules)
        if not moves:
            assert (h, t, parts) == (-1, 0, [0, 0, 0])
            continue
        first = moves[0]
        assert (h, t, parts) == (first.heap, first.take, [*(first.into or ()), 0, 0, 0][:3])
    with pytest.raises(ValueError, match="max_positions"):
        batch.is_p_position(heaps, rules, max_positions=10)


@pytest.mark.parametrize("code", ["0.77", "0.07", "4!.0", "0.6"])
@pytest.mark.parametrize("misere", [False, True])
def test_solve_labels_the_box_through_splits(code, misere):
    rules = Rules(code=code, misere=misere)
    solution = nk.solve([7, 5, 3], rules)
    fast = nk.solve([7, 5, 3], rules, remoteness=False)
    assert solution.is_p.shape == (8, 6, 4)
    assert (fast.is_p == solution.is_p).all()
    assert solution.remoteness is not None
    for heaps in np.ndindex(solution.is_p.shape):
        assert solution.is_p[heaps] == is_p(code, misere, heaps), heaps
    for heaps in [(7, 5, 3), (3, 0, 2), (0, 0, 0), (6, 1, 1)]:
        pos = Position(heaps)
        assert solution.remoteness_of(pos) == pos.remoteness(rules), heaps
    with pytest.raises(ValueError, match="max_positions"):
        nk.solve([7, 5, 3], rules, max_positions=100)


def test_explain_names_the_split_and_its_values():
    text = str(nk.explain([9, 6], KAYLES))
    assert "take-and-break code 0.77" in text
    assert "heap 0 of 9 (Grundy value 4) becomes heaps of 1 and 7, whose Grundy values " in text
    assert "1 and 2 have nim-sum 3, leaving 1 7 6" in text
    svg = nk.analyse([9, 6], KAYLES)._repr_svg_()
    assert "split 1 + 7" in svg


def test_cli_code(capsys):
    assert main(["analyse", "9", "6", "--code", "0.77"]) == 0
    out = capsys.readouterr().out
    assert "take-and-break code 0.77" in out
    assert "split the rest into 1 + 7  (9 -> 1 + 7), leaving 1 7 6" in out
    with pytest.raises(SystemExit):
        main(["analyse", "9", "--code", "0.8z"])
    assert "hexadecimal" in capsys.readouterr().err


def test_reports_name_what_decided(capsys):
    # Misère play of a code: no nim-sum table (it decides nothing), and the method
    # named is the one that answered: the search here, the quotient for large heaps.
    assert main(["analyse", "9", "6", "--code", "0.77", "--misere"]) == 0
    out = capsys.readouterr().out
    assert "binary" not in out
    assert "Nim-sum" not in out
    assert "exhaustive search" in out
    assert main(["analyse", "1000", "1000", "1000", "--misere", "--take", "1,3,4"]) == 0
    out = capsys.readouterr().out
    assert "misère quotient" in out
    assert "exhaustive search" not in out
    analysis = nk.analyse([1000, 1000, 1000], nk.Rules(misere=True, take={1, 3, 4}))
    assert analysis.method == "misère quotient"
    assert nk.analyse([9, 6], nk.Rules(code="0.77", misere=True)).method == "search"
    assert nk.analyse([9, 6], KAYLES).method == "closed form"
    assert "misère quotient" in str(nk.explain(analysis))
    # The picture draws the digital-sum table only where the nim-sum decides.
    misere_svg = nk.analyse([9, 6], nk.Rules(code="0.77", misere=True))._repr_svg_()
    assert "nim-sum" not in misere_svg
    assert "(by search)" in misere_svg
    assert "nim-sum" in nk.analyse([9, 6], KAYLES)._repr_svg_()


def test_widget_splits_a_heap():
    board = nk.widgets.play("kayles", opponent=nk.RandomPlayer(seed=3))
    assert board.into in board.widget.children[2].children
    board.heap.value, board.take.value, board.into.value = 0, "2", "3 5"
    board.move()
    assert board.game.history[0] == Move(heap=0, take=2, into=(3, 5))
    board.into.value = "x"
    board.move()
    assert "Not allowed" in board.status.value
    # Grundy's game splits without taking: a take of 0.
    grundy = nk.widgets.play("grundys-game")
    grundy.heap.value, grundy.take.value, grundy.into.value = 0, "0", "3 7"
    grundy.move()
    assert grundy.game.history[0] == Move(heap=0, take=0, into=(3, 7))
