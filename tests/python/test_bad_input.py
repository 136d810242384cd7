"""The bad-input matrix: every kind of bad input against every public entry point.

The guide's table "Bad input" (docs/guide/limits.md) lists the same kinds and
exceptions; a test below keeps the two in step.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import nimkit as nk
from nimkit import batch

BATCH = [batch.nim_sum, batch.is_p_position, batch.winning_move, batch.count_winning_moves]


def scalar_entry_points(heaps):
    """Every public entry point that takes one position, fed ``heaps``."""
    return {
        "Position": lambda: nk.Position(heaps),
        "analyse": lambda: nk.analyse(heaps),
        "Game": lambda: nk.Game(heaps),
        "simulate": lambda: nk.simulate(heaps, None, nk.PerfectPlayer(), nk.PerfectPlayer(), 1),
        "p_positions": lambda: nk.p_positions(heaps),
        "count_p_positions": lambda: nk.count_p_positions(heaps),
        "pad": lambda: batch.pad([heaps]),
    }


def array_entry_points(array):
    """Every public entry point that takes an array of positions, fed ``array``."""
    calls = {f.__name__: (lambda f=f: f(array)) for f in BATCH}
    try:
        import dask.array as da

        import nimkit.dask as nkd
    except ImportError:
        return calls
    for f in (nkd.nim_sum, nkd.is_p_position, nkd.count_winning_moves):
        calls[f"dask.{f.__name__}"] = lambda f=f: f(da.from_array(array, chunks=1)).compute()
    return calls


# kind -> (the bad value for one position, for an array, the exception)
MATRIX = {
    "negative": ([1, -2], np.array([[1, -2]], dtype=np.int64), ValueError),
    "float": ([1, 2.5], np.array([[1.0, 2.5]]), TypeError),
    "bool": ([True, 2], np.array([[True, False]]), TypeError),
    "object": ([1, object()], np.array([[1, object()]], dtype=object), TypeError),
    "too large": ([1, 2**64], None, OverflowError),
    "complex": ([1j], np.array([[1j]]), TypeError),
    "string": ("135", np.array([["1", "3"]]), TypeError),
}


@pytest.mark.parametrize("kind", MATRIX)
def test_bad_heaps_everywhere(kind):
    heaps, array, error = MATRIX[kind]
    for name, call in scalar_entry_points(heaps).items():
        with pytest.raises(error):
            call()
        assert name  # every entry point was exercised
    if array is not None:
        for call in array_entry_points(array).values():
            with pytest.raises(error):
                call()


def test_values_past_uint64_in_an_array():
    # numpy cannot even hold 2**64 in an integer array: it becomes an object array.
    with pytest.raises(TypeError):
        batch.nim_sum(np.array([[1, 2**64]]))


@pytest.mark.parametrize("max_take", [0, -1, (1, 0), 2.5, True, "3", 2**64])
def test_bad_take_limits_everywhere(max_take):
    with pytest.raises((ValueError, TypeError, OverflowError)):
        nk.Rules(max_take=max_take)


def count_entry_points(value):
    """Every count or limit a native call takes, fed ``value``."""
    kayles, misere = nk.TakeAndBreak("0.77"), nk.Rules(code="0.77", misere=True)
    return {
        "grundy_sequence": lambda: kayles.grundy_sequence(value),
        "period": lambda: kayles.period(max_heap=value),
        "misere_quotient": lambda: kayles.misere_quotient(max_heap=value),
        "misere_grundy_sequence": lambda: kayles.misere_grundy_sequence(value),
        "genus max_positions": lambda: kayles.genus(3, max_positions=value),
        "subtraction grundy_sequence": lambda: nk.SubtractionGame({1, 3}).grundy_sequence(value),
        "subtraction misere_quotient": lambda: nk.SubtractionGame({1, 3}).misere_quotient(value),
        "outcome max_positions": lambda: nk.Position([3, 4]).outcome(misere, max_positions=value),
        "moves limit": lambda: nk.Position([3, 4]).moves(limit=value),
        "simulate n_games": lambda: nk.simulate(
            [1, 2], None, nk.RandomPlayer(1), nk.RandomPlayer(2), n_games=value
        ),
    }


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (True, TypeError, "not bool"),
        (2.0, TypeError, "not float"),
        ("3", TypeError, "not str"),
        (-1, ValueError, "must not be negative"),
        (2**64, OverflowError, "over the largest allowed"),
    ],
)
def test_bad_counts_everywhere(value, error, message):
    for name, call in count_entry_points(value).items():
        with pytest.raises(error, match=message) as caught:
            call()
        # The native layer's own note names the argument that failed.
        notes = getattr(caught.value, "__notes__", [])
        assert any(note.startswith("while processing '") for note in notes), name


@pytest.mark.parametrize("value", [True, 2.0, "2"])
def test_python_level_counts_refuse_bool_float_and_str(value):
    with pytest.raises(TypeError, match="n_heaps must be an integer"):
        nk.p_positions(3, n_heaps=value)
    if not isinstance(value, float):
        with pytest.raises(TypeError, match="error_rate must be a number"):
            nk.FalliblePlayer(value)


def test_wrong_count_of_per_heap_limits_everywhere():
    rules = nk.Rules(max_take=(1, 2))
    heaps = [1, 2, 3]
    calls = [
        lambda: nk.Position(heaps).outcome(rules),
        lambda: nk.analyse(heaps, rules),
        lambda: nk.Game(heaps, rules),
        lambda: nk.simulate(heaps, rules, nk.PerfectPlayer(), nk.PerfectPlayer(), 1),
        lambda: nk.p_positions(heaps, rules),
        lambda: nk.count_p_positions(heaps, rules),
        *[lambda f=f: f(np.array([heaps]), rules) for f in BATCH],
    ]
    for call in calls:
        with pytest.raises(ValueError, match="2 per-heap take limits given for 3 heaps"):
            call()


@pytest.mark.parametrize(
    "shape", [(), (0,), (5,), (2, 3), (2, 3, 4)], ids=lambda s: "x".join(map(str, s)) or "0-d"
)
def test_shapes(shape):
    array = np.ones(shape, dtype=np.uint8)
    for f in BATCH:
        if not shape:
            with pytest.raises(ValueError, match="at least one dimension"):
                f(array)
        else:
            result = f(array)
            first = result[0] if isinstance(result, tuple) else result
            assert np.shape(first) == shape[:-1]


def test_wrong_out_shape_and_dtype():
    heaps = np.ones((4, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="out has shape"):
        batch.nim_sum(heaps, out=np.empty(3, dtype=np.uint64))
    with pytest.raises(TypeError, match="dtype uint64"):
        batch.nim_sum(heaps, out=np.empty(4, dtype=np.int64))


def test_illegal_moves_and_finished_games():
    game = nk.Game([1, 2], nk.Rules(max_take=1))
    for move, reason in [
        (nk.Move(5, 1), "there is no heap 5"),
        (nk.Move(0, 2), "the rules allow at most 1"),
    ]:
        with pytest.raises(nk.IllegalMoveError, match=reason):
            game.push(move)
        with pytest.raises(nk.IllegalMoveError, match=reason):
            game.position.after(move, game.rules)
    with pytest.raises(nk.IllegalMoveError, match="take at least 1"):
        nk.Move(0, 0)
    over = nk.Game([0, 0])
    with pytest.raises(nk.IllegalMoveError, match="the game is over"):
        over.push(nk.Move(0, 1))


def test_empty_inputs_are_well_defined():
    assert batch.nim_sum(np.zeros((0, 3), dtype=np.uint8)).shape == (0,)
    np.testing.assert_array_equal(batch.is_p_position(np.zeros((2, 0), dtype=np.uint8)), [1, 1])
    assert nk.analyse([]).outcome is nk.Outcome.P
    assert nk.analyse([], nk.Rules(misere=True)).outcome is nk.Outcome.N
    assert nk.count_p_positions([]) == 1
    assert batch.pad([]).shape == (0, 0)
    assert nk.Game([]).is_over


def test_work_that_would_explode_is_refused_up_front():
    # Take limits with bounds that differ make the exact count exponential in the
    # number of heaps: refused before any counting, naming what to change. (What is
    # refused is tested, not how fast: a timed test fails on a loaded machine.)
    bounds = [10**15 + 987654321 * i**3 + 12345 * i for i in range(20)]
    with pytest.raises(ValueError, match=r"partial XORs.*equal bounds"):
        nk.count_p_positions(bounds, nk.Rules(max_take=10**12 + 39))
    # A perfect player in a lost position of many heaps weighs a bounded number of
    # moves (each weighing looks at every heap), so it answers at all.
    game = nk.Game([1] * 200_000 + [2, 2])
    assert game.outcome is nk.Outcome.P
    move = nk.PerfectPlayer().choose(game)
    assert move in game.position.moves(game.rules)


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: nk.Position([200]).remoteness(nk.Rules(code="0.77")), "below [200]"),
        (lambda: nk.solve([1000], nk.Rules(code="0.77")), "below [1000]"),
        (lambda: nk.solve([40, 90], nk.Rules(code="0.77")), "below [40, 90]"),
    ],
)
def test_normal_play_searches_of_a_code_are_refused_at_once(call, named):
    # Kayles' splits reach every multiset of heaps below: far more positions than
    # max_positions, known before the search starts.
    with pytest.raises(ValueError, match="normal play") as raised:
        call()
    assert named in str(raised.value)
    assert "misère" not in str(raised.value)


def test_box_search_limits_explain_the_rules_asked_about():
    big = nk.Position([9000, 9000])
    with pytest.raises(ValueError, match="weighs up to 20 takes from each heap") as raised:
        big.remoteness(nk.Rules(max_take=20), max_positions=10**9)
    assert "no take limit" not in str(raised.value)
    with pytest.raises(ValueError, match="as many takes as the heap holds"):
        big.remoteness(nk.Rules(), max_positions=10**9)
    with pytest.raises(ValueError, match="heap by heap: up to 20 takes; as many"):
        big.remoteness(nk.Rules(max_take=(20, None)), max_positions=10**9)


def test_no_silent_casts_in_tables_and_plots():
    with pytest.raises(TypeError, match="not bytes"):
        nk.p_positions(b"3", n_heaps=1)
    with pytest.raises(ValueError, match="must not be negative"):
        nk.plots.outcome_map(-1, 3)
    with pytest.raises(TypeError, match="not float"):
        nk.plots.grundy_map(2.7, 3)
    with pytest.raises(TypeError, match="not bool"):
        nk.plots.outcome_map(3, 3, others=[True])


def test_out_overlapping_the_heaps_through_another_base_is_refused():
    buffer = bytearray(8 * 6)
    heaps = np.frombuffer(buffer, dtype=np.uint64).reshape(3, 2)
    heaps[:] = [[1, 2], [3, 5], [7, 7]]
    out = np.frombuffer(buffer, dtype=np.uint64)[:3]  # another base, the same memory
    with pytest.raises(ValueError, match="overlaps the heaps"):
        batch.nim_sum(heaps, out=out)
    assert heaps.tolist() == [[1, 2], [3, 5], [7, 7]]


def test_guide_table_matches_the_matrix():
    readme = (Path(__file__).parents[2] / "docs" / "guide" / "limits.md").read_text()
    table = readme[readme.index("| bad input |") :].split("\n\n")[0]
    rows = {
        cells[0]: cells[2]
        for line in table.splitlines()[2:]
        if (cells := [c.strip() for c in line.strip("|").split("|")])
    }
    for kind, (_, _, error) in MATRIX.items():
        assert re.search(rf"\b{error.__name__}\b", rows[kind]), kind
    for kind in [
        "take limit below 1",
        "bad count or limit",
        "bad subtraction set",
        "search too large",
        "wrong count of per-heap limits",
        "wrong shape",
        "illegal move",
        "game already over",
        "empty arrays",
    ]:
        assert kind in rows, kind


@pytest.mark.parametrize(
    "call",
    [
        lambda: nk.SubtractionGame({1, 3, 4}).grundy_sequence(2**63),
        lambda: nk.SubtractionGame({1, 3, 4}).grundy_sequence(10**13),
        lambda: nk.simulate([1, 2], None, nk.RandomPlayer(1), nk.RandomPlayer(2), n_games=10**13),
        lambda: nk.simulate(
            [1, 2], None, nk.RandomPlayer(1), nk.RandomPlayer(2), n_games=2**64 - 1
        ),
        lambda: nk.solve([10**12], max_positions=10**13, remoteness=False),
        # 10**8 rows (within max_rows) of 100 heaps: 80 GB, reserved before the walk.
        lambda: nk.p_positions([0] * 98 + [10**8 - 1] * 2),
    ],
)
def test_requests_too_large_for_memory_are_memory_errors(call):
    with pytest.raises(MemoryError, match="not enough memory"):
        call()


def test_tables_refuse_a_heap_count_their_walk_cannot_take():
    with pytest.raises(ValueError, match="100000 heaps are more than the 1024"):
        nk.p_positions(0, n_heaps=100_000)


def test_ragged_batch_rows_name_the_problem():
    # numpy alone says "setting an array element with a sequence"
    with pytest.raises(ValueError, match=r"differ in length.*batch\.pad"):
        nk.batch.is_p_position([[1, 3, 5, 7], [3, 4, 5]])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"max_heap": 2.5}, TypeError, "integer"),
        ({"max_elements": 0}, ValueError, "max_elements must be at least 1"),
        ({"max_heap": 0}, ValueError, "max_heap must be at least 1"),
    ],
)
def test_misere_table_refuses_bad_counts(kwargs, error, match):
    with pytest.raises(error, match=match):
        nk.misere_table(digits=1, **kwargs)


def test_misere_table_refuses_a_directory(tmp_path):
    with pytest.raises(ValueError, match="is a directory"):
        nk.misere_table(digits=1, max_heap=20, path=tmp_path)


# Errors from the wrong layer, found by a hostile sweep (issue 45): each now names the
# problem in the caller's terms.
def test_a_checkpoint_that_is_a_file(tmp_path):
    path = tmp_path / "afile"
    path.write_text("x")
    with pytest.raises(ValueError, match="is a file: give a directory"):
        nk.TakeAndBreak("0.77").grundy_sequence(100, checkpoint=path)


def test_digraph_successors_that_are_not_iterable():
    with pytest.raises(TypeError, match="successors of node 1 must be an iterable"):
        nk.DigraphGame({1: 5}, 1)


@pytest.mark.parametrize("top", [10**7, 2**63 + 5])
def test_an_edge_array_far_past_its_edges(top):
    edges = np.array([[0, top]], dtype=np.uint64)
    with pytest.raises(ValueError, match=f"names node {top} but has 1 edge:"):
        nk.DigraphGame(edges, 0)


def test_octal_equivalences_names_only_the_bad_argument():
    with pytest.raises(ValueError, match=r"^digits must be 1 to 4, not 0$"):
        nk.octal_equivalences(0)
    with pytest.raises(ValueError, match=r"^heaps must be 64 to 65536, not 10$"):
        nk.octal_equivalences(1, heaps=10)


def test_an_unhashable_state_is_refused_at_once():
    with pytest.raises(TypeError, match=r"hashable.*list: \[1, 2\]"):
        nk.Impartial([1, 2], lambda s: [])


def test_nim_multiply_refuses_object_arrays_of_non_integers():
    with pytest.raises(TypeError, match="whole numbers, not float"):
        nk.nim_multiply(np.array([1.5, 2], dtype=object), np.array([3, 4], dtype=object))
    big = np.array([2**64 - 1], dtype=object)  # Python ints past int64 still work
    assert nk.nim_multiply(big, np.array([1], dtype=object)).tolist() == [2**64 - 1]


def test_an_empty_hackenbush_game_is_legitimate():
    game = nk.GreenHackenbush([], ground=0)
    assert game.grundy() == 0
    assert game.outcome() == nk.Outcome.P
    with pytest.raises(ValueError, match="not a node of the graph"):
        nk.GreenHackenbush([(0, 1)], ground=7)
