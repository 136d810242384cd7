"""Value semantics of the public classes, and the bad-input cases."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Sequence

import numpy as np
import pytest

import nimkit as nk
from nimkit import Move, Position, Rules


def test_public_names():
    assert set(nk.__all__) == {
        "Analysis",
        "ComputerPlayer",
        "DigraphGame",
        "Heaps",
        "Impartial",
        "ImpartialGame",
        "Infinite",
        "Sum",
        "kernel",
        "Explanation",
        "FalliblePlayer",
        "Game",
        "Genus",
        "MisereQuotient",
        "Mistake",
        "PerfectPlayer",
        "PeriodCertificate",
        "RandomPlayer",
        "Simulation",
        "Solution",
        "TakeAndBreak",
        "SubtractionGame",
        "presets",
        "simulate",
        "solve",
        "IllegalMoveError",
        "Move",
        "Outcome",
        "Position",
        "Rules",
        "analyse",
        "analyze",
        "batch",
        "count_p_positions",
        "draw_game_graph",
        "explain",
        "game_graph",
        "p_position_table",
        "plots",
        "to_frame",
        "widgets",
        "p_positions",
        "verify_certificate",
        "verify",
        "Verified",
        "CertificateError",
        "StaircaseNim",
        "MooreNim",
        "CoinTurning",
        "TurningCorners",
        "GreenHackenbush",
        "Wythoff",
        "nim_inverse",
        "nim_multiply",
        "OctalClass",
        "octal_equivalences",
        "MisereTableRow",
        "misere_table",
        "wythoff_grundy_table",
        "NodeKayles",
        "ArcKayles",
        "Cram",
        "cram_table",
        "Sprouts",
        "SproutsRow",
        "sprouts_table",
    }
    assert issubclass(nk.IllegalMoveError, ValueError)
    # Nothing the package imports for itself shows as one of its names.
    assert not hasattr(nk, "PackageNotFoundError")
    assert nk.analyze is nk.analyse


def test_package_metadata():
    from importlib.metadata import metadata, version

    assert nk.__version__ == version("nimkit")
    info = metadata("nimkit")
    assert info["License-Expression"] == "MIT"
    assert any(url.startswith("Documentation, ") for url in info.get_all("Project-URL"))
    # One wheel for every CPython from 3.10 on: the stable ABI.
    assert nk._core.__file__.endswith(".abi3.so")


def test_position_is_an_immutable_hashable_sequence():
    position = Position([1, 3, 5, 7])
    assert list(position) == [1, 3, 5, 7]
    assert len(position) == 4
    assert position[2] == 5
    assert position[-1] == 7
    assert position[1:3] == Position([3, 5])
    assert 5 in position
    assert position.index(7) == 3
    assert position == Position((1, 3, 5, 7))
    assert position != (1, 3, 5, 7)
    assert len({position, Position([1, 3, 5, 7]), Position([1, 3, 5])}) == 2
    with pytest.raises(AttributeError, match="not writable"):
        position.heaps = (1,)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        position.extra = 1  # type: ignore[attr-defined]
    assert position.count(5) == 1
    assert list(reversed(position)) == [7, 5, 3, 1]
    assert position[::2] == Position([1, 5])
    assert isinstance(position, Sequence)
    assert str(position) == "1 3 5 7"
    assert str(Position()) == "(no heaps)"


@pytest.mark.parametrize(
    "value",
    [
        Position([1, 3, 5, 7]),
        Position([]),
        Position([2**64 - 1]),
        Move(heap=3, take=2),
        Rules(),
        Rules(misere=True, max_take=3),
        Rules(max_take=(3, None, 5)),
    ],
)
def test_repr_evaluates_back_and_pickles(value):
    namespace = {"Position": Position, "Move": Move, "Rules": Rules}
    assert eval(repr(value), namespace) == value
    assert pickle.loads(pickle.dumps(value)) == value


def test_positions_accept_numpy_integers():
    assert Position(np.array([1, 2, 3], dtype=np.uint64)) == Position([1, 2, 3])
    assert Position([np.int8(4)]).heaps == (4,)


def test_rules():
    assert Rules(max_take=[3, None]).max_take == (3, None)
    assert Rules(max_take=np.int64(4)).max_take == 4
    assert Rules(misere=True) == Rules(misere=True, max_take=None)
    assert Rules(misere=True) != Rules()
    assert hash(Rules(max_take=2)) == hash(Rules(max_take=2))
    assert str(Rules(misere=True, max_take=3)) == (
        "misère play (taking the last object loses), take at most 3 per turn"
    )
    assert "take limits per heap: 3, none" in str(Rules(max_take=(3, None)))


def test_after_plays_a_move():
    position = Position([3, 4, 5])
    assert position.after(Move(0, 2)) == Position([1, 4, 5])
    assert position.after(Move(2, 5)) == Position([3, 4, 0])
    assert Position([0, 0]).is_empty
    assert not position.is_empty


def test_moves_listing_is_bounded():
    with pytest.raises(ValueError, match="legal moves, more than"):
        Position([2**40]).moves()
    assert len(Position([2**40]).moves(Rules(max_take=3))) == 3


def test_analysis_object():
    analysis = nk.analyse([3, 4, 5])
    assert analysis.position == Position([3, 4, 5])
    assert analysis.grundy == (3, 4, 5)
    assert analysis.nim_sum == 2
    assert analysis.outcome is nk.Outcome.N
    assert analysis.outcome.player_to_move_wins
    assert analysis.to_dict()["winning_moves"] == [
        {"heap": 0, "take": 2, "into": None, "becomes": [1]}
    ]
    text = str(analysis)
    assert "take 2 from heap 0  (3 -> 1), leaving 1 4 5" in text
    assert "the player to move wins against perfect play" in text


def test_digital_sum_table_marks_the_odd_columns():
    lines = str(nk.analyse([3, 4, 5])).splitlines()
    table = lines[lines.index("") + 1 : lines.index("", lines.index("") + 1)]
    binary = [line.split()[-1] for line in table[1:4]]
    assert binary == ["011", "100", "101"]
    marker = table[-1]
    column = table[1].rindex("011")
    assert marker[column : column + 3] == " ^ "
    assert marker.endswith("odd number of 1s")


# --- bad input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heaps", "error", "message"),
    [
        ([1, -2], ValueError, "heap 1 must not be negative, got -2"),
        ([-(2**200)], ValueError, "heap 0 must not be negative"),
        ([1.5], TypeError, "heap 0 must be an integer, not float"),
        ([1.0], TypeError, "heap 0 must be an integer, not float"),
        ([True], TypeError, "heap 0 must be an integer, not bool"),
        (["3"], TypeError, "heap 0 must be an integer, not str"),
        ("135", TypeError, "heaps must be an iterable of integers, not str"),
        (5, TypeError, "heaps must be an iterable of integers, not int"),
        ([None], TypeError, "heap 0 must be an integer, not NoneType"),
        ([2**64], OverflowError, r"heap 0 is 18446744073709551616, over the largest allowed"),
        ([0, 2**300], OverflowError, "heap 1 is"),
        (np.array([1.0, 2.0]), TypeError, "heap 0 must be an integer, not float64"),
        ({1: 2}, TypeError, "heaps must be an iterable of integers, not dict"),
    ],
)
def test_bad_heaps(heaps, error, message):
    with pytest.raises(error, match=message):
        Position(heaps)
    with pytest.raises(error, match=message):
        nk.analyse(heaps)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"max_take": 0}, ValueError, "take limit must be at least 1, got 0"),
        ({"max_take": -1}, ValueError, "max_take must not be negative"),
        ({"max_take": (1, 0)}, ValueError, "at least 1, got 0 for heap 1"),
        ({"max_take": (1, -3)}, ValueError, "max_take for heap 1 must not be negative"),
        ({"max_take": 2.5}, TypeError, "max_take must be None, an integer >= 1, or one"),
        ({"max_take": True}, TypeError, "max_take must be an integer, not bool"),
        ({"max_take": "3"}, TypeError, "max_take must be None, an integer >= 1"),
        ({"max_take": 2**64}, OverflowError, "max_take is 18446744073709551616"),
        ({"misere": 1}, TypeError, "misere"),
        ({"take": []}, ValueError, "take is empty"),
        ({"take": {1: 2}}, TypeError, "take must be a set of positive ints"),
        ({"take": [{1: 2}]}, TypeError, "take for heap 0 must be a set"),
        ({"max_take": {0: 1}}, TypeError, "max_take must be None"),
    ],
)
def test_bad_rules(kwargs, error, message):
    with pytest.raises(error, match=message):
        Rules(**kwargs)


def test_per_heap_limits_must_match_the_heap_count():
    rules = Rules(max_take=(1, 2))
    with pytest.raises(ValueError, match="2 per-heap take limits given for 3 heaps"):
        Position([1, 2, 3]).outcome(rules)
    with pytest.raises(ValueError, match="2 per-heap take limits given for 1 heaps"):
        nk.analyse([1], rules)


@pytest.mark.parametrize(
    ("move", "rules", "message"),
    [
        (lambda: Move(heap=3, take=1), None, "there is no heap 3 \\(the position has 2 heaps\\)"),
        (lambda: Move(heap=1, take=3), None, "cannot take 3 from heap 1, which has only 2"),
        (lambda: Move(heap=0, take=4), Rules(max_take=3), "the rules allow at most 3"),
        (lambda: Move(heap=2**64 - 1, take=1), None, "there is no heap"),
    ],
)
def test_illegal_moves(move, rules, message):
    position = Position([5, 2])
    with pytest.raises(nk.IllegalMoveError, match=message):
        position.after(move(), rules)
    assert not position.is_legal(move(), rules)
    assert "illegal move" in position.illegal_reason(move(), rules)


@pytest.mark.parametrize(
    ("heap", "take", "error", "message"),
    [
        (0, 0, nk.IllegalMoveError, "a move must take at least 1 object"),
        (0, -1, ValueError, "take must not be negative"),
        (-1, 1, ValueError, "heap must not be negative"),
        (0, 1.0, TypeError, "take must be an integer, not float"),
        (False, 1, TypeError, "heap must be an integer, not bool"),
        (0, 2**64, OverflowError, r"take is 18446744073709551616, over"),
    ],
)
def test_bad_moves(heap, take, error, message):
    with pytest.raises(error, match=message):
        Move(heap, take)


def test_after_needs_a_move_and_rules():
    with pytest.raises(TypeError, match=r"move must be a nimkit\.Move, not tuple"):
        Position([1]).after((0, 1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rules must be a nimkit\.Rules, not dict"):
        Position([1]).outcome({"misere": True})  # type: ignore[arg-type]


# One way to ask for misère play, and presets wherever a position and its rules are
# asked for (issue 45).
def test_presets_stand_for_their_position_and_rules():
    for preset in (nk.presets.MARIENBAD, nk.presets.THIRTEEN_LIGHTS):
        assert nk.analyse(preset) == nk.analyse(preset.position, preset.rules)
        game = nk.Game(preset)
        assert (game.position, game.rules) == (preset.position, preset.rules)
        assert nk.explain(preset).blocks == nk.explain(preset.position, preset.rules).blocks
    with pytest.raises(TypeError, match="brings its rules"):
        nk.analyse(nk.presets.MARIENBAD, nk.Rules())


@pytest.mark.parametrize(
    "rules", [nk.Rules(), nk.Rules(max_take=3), nk.Rules(take={1, 3, 4}), nk.Rules(code="0.77")]
)
def test_misere_true_asks_for_misere_play_everywhere(rules):
    misere = nk.Rules._of(nk._core.Rules(True, rules.take_rule))
    for heaps in ([1, 3, 5, 7], [2, 2], [4, 1, 6], [1, 1, 1]):
        position = nk.Position(heaps)
        assert position.outcome(rules, misere=True) == position.outcome(misere)
        assert position.winning_moves(rules, misere=True) == position.winning_moves(misere)
        assert position.outcome(misere, misere=False) == position.outcome(rules)
        assert nk.analyse(heaps, rules, misere=True) == nk.analyse(heaps, misere)
        assert nk.Game(heaps, rules, misere=True).rules == misere


ONE_AT_A_TIME = "can only reduce the heaps of value 1 one at a time"
ANSWERED = "is answered by taking the rest of the limit plus one from the same heap"


@pytest.mark.parametrize("max_take", [None, 1, 2, 3])
def test_misere_endgame_explanations_match_the_moves_that_exist(max_take):
    # The explanation of 13 lights said "only reduce the heaps of value 1 one at a
    # time" although 13 can move to 12, 11 or 10 (values 0, 3, 2): every claim is now
    # read against the position's moves.
    rules = nk.Rules(misere=True, max_take=max_take)
    checked = 0
    for heaps in itertools.product(range(14), repeat=2):
        position = nk.Position(heaps)
        values = position.grundy(rules)
        if max(values) > 1 or not position.moves(rules):
            continue
        text = " ".join(body for _, body in nk.explain(position, rules).blocks)
        value = lambda p, i: p.grundy(rules)[i]  # noqa: E731
        if ONE_AT_A_TIME in text:
            for move in position.moves(rules):
                assert value(position, move.heap) == 1
                assert value(position.after(move, rules), move.heap) == 0
        else:
            assert ANSWERED in text
            assert max(heaps) > 1  # otherwise the plain endgame text is true
            for move in position.moves(rules):
                after = position.after(move, rules)
                if (value(position, move.heap), value(after, move.heap)) == (1, 0):
                    continue
                reply = nk.Move(heap=move.heap, take=max_take + 1 - move.take)
                assert reply in after.moves(rules)
                assert value(after.after(reply, rules), move.heap) == values[move.heap]
        checked += 1
    assert checked >= 3  # 0 1, 1 0 and 1 1 in Nim; dozens under a limit
