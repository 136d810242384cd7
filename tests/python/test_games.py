"""Every impartial game: the protocol, games you define, games on directed graphs, sums
of different games; checked against brute force written here, against the built-in
rules, and against Ferguson's worked examples."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

import nimkit as nk
from nimkit.games import DigraphGame, Heaps, Impartial, Infinite, Sum, kernel


def subtraction(moves: tuple[int, ...]):
    return lambda n: [n - t for t in moves if t <= n]


# --- brute force over an explicit state space ----------------------------------------


def outcome_by_search(start, options, misere: bool) -> str:
    """P, N or D of `start` by retrograde analysis of every state it reaches."""
    states, frontier = {start}, [start]
    while frontier:
        for option in options(frontier.pop()):
            if option not in states:
                states.add(option)
                frontier.append(option)
    label = {s: None for s in states}
    changed = True
    while changed:
        changed = False
        for s in states:
            if label[s] is not None:
                continue
            found = [label[o] for o in options(s)]
            if not found:
                label[s] = "N" if misere else "P"
            elif "P" in found:
                label[s] = "N"
            elif all(f == "N" for f in found):
                label[s] = "P"
            else:
                continue
            changed = True
    return label[start] or "D"


def sum_options(parts):
    """The options of a tuple of (game, position) parts, as tuples."""

    def options(positions):
        for i, (options_of, position) in enumerate(zip(parts, positions, strict=True)):
            for option in options_of(position):
                yield (*positions[:i], option, *positions[i + 1 :])

    return options


def nim_heaps(heaps):
    """Options of a tuple of Nim heaps."""
    return [
        (*heaps[:i], n - t, *heaps[i + 1 :]) for i, n in enumerate(heaps) for t in range(1, n + 1)
    ]


def kayles(heaps):
    """Options of a tuple of Kayles rows (sorted, empty rows dropped)."""
    found = set()
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        for take in (1, 2):
            for left in range(n - take + 1):
                right = n - take - left
                found.add(tuple(sorted(h for h in (*rest, left, right) if h)))
    return sorted(found)


@pytest.mark.parametrize("seed", range(12))
def test_sums_of_different_games_equal_the_product_space(seed):
    rng = np.random.default_rng(seed)
    graph = {0: [1], 1: [2], 2: [0, 3], 3: [], 4: [0]}
    pieces = [
        (lambda: tuple(int(x) for x in rng.integers(0, 4, 2)), nim_heaps, lambda p: Heaps(p)),
        (
            lambda: tuple(sorted(int(x) for x in rng.integers(1, 5, 1))),
            kayles,
            lambda p: Impartial(p, kayles),
        ),
        (lambda: int(rng.integers(0, 5)), lambda n: graph[n], lambda p: DigraphGame(graph, p)),
        (
            lambda: int(rng.integers(0, 9)),
            subtraction((1, 3, 4)),
            lambda p: Impartial(p, subtraction((1, 3, 4))),
        ),
    ]
    chosen = [pieces[i] for i in rng.integers(0, 4, size=rng.integers(1, 4))]
    positions = tuple(make() for make, _, _ in chosen)
    game = Sum(*(wrap(p) for (_, _, wrap), p in zip(chosen, positions, strict=True)))
    options = sum_options([o for _, o, _ in chosen])
    for misere in (False, True):
        expected = outcome_by_search(positions, options, misere)
        assert game.outcome(misere=misere).value == expected, (positions, misere)
        wanted = {"N": "P", "D": "D", "P": None}[expected]
        for move in game.winning_moves(misere=misere):
            assert move.outcome(misere=misere).value == wanted


# --- games you define ------------------------------------------------------------------


def test_a_defined_game_reproduces_the_built_in_rules_value_by_value():
    builtin = nk.SubtractionGame({1, 3, 4})
    for n in range(60):
        assert Impartial(n, subtraction((1, 3, 4))).grundy() == builtin.grundy(n)
    code = nk.TakeAndBreak("0.77")
    for n in range(16):
        assert Impartial((n,) if n else (), kayles).grundy() == code.grundy(n)
    # The options are games of the same family, in the order the function gives them.
    start = Impartial(7, subtraction((1, 3, 4)))
    assert [o.state for o in start.options()] == [6, 4, 3]


def test_chomp_on_small_boards():
    """Chomp (Gale): every rectangle other than 1x1 is an N-position (strategy
    stealing), and from a square board the winning move takes the square at (1, 1),
    leaving an L with arms of equal length."""

    def chomp(board: frozenset[tuple[int, int]]):
        return [
            frozenset(c for c in board if not (c[0] >= i and c[1] >= j))
            for (i, j) in board
            if (i, j) != (0, 0)
        ]

    def rectangle(rows: int, cols: int) -> frozenset[tuple[int, int]]:
        return frozenset(itertools.product(range(rows), range(cols)))

    for rows, cols in itertools.product(range(1, 5), range(1, 5)):
        game = Impartial(rectangle(rows, cols), chomp)
        assert game.outcome() is (nk.Outcome.P if rows == cols == 1 else nk.Outcome.N)
    for size in (2, 3, 4):
        (move,) = Impartial(rectangle(size, size), chomp).winning_moves()
        assert move.state == rectangle(size, size) - rectangle(size, size).intersection(
            itertools.product(range(1, size), range(1, size))
        )


def test_an_object_with_options_is_a_game():
    class Pile:
        def __init__(self, n: int) -> None:
            self.n = n

        def options(self):
            return [Pile(self.n - t) for t in (1, 2) if t <= self.n]

        def __eq__(self, other):
            return isinstance(other, Pile) and other.n == self.n

        def __hash__(self):
            return hash(self.n)

    assert [Impartial(Pile(n)).grundy() for n in range(7)] == [0, 1, 2, 0, 1, 2, 0]


def test_a_cycle_is_a_loopy_game_not_a_hang():
    # Two states that move to each other, and one that can also stop.
    moves = {"a": ["b"], "b": ["a"], "c": ["a", "end"], "end": []}
    assert Impartial("a", moves.__getitem__).outcome() is nk.Outcome.D
    assert Impartial("a", moves.__getitem__).grundy() == Infinite(())
    # c can stop (value 0) or enter the cycle, where the opponent never has to answer
    # with a value-1 position: ∞ with K = {0}, a win (the move to "end").
    assert Impartial("c", moves.__getitem__).grundy() == Infinite((0,))
    assert Impartial("c", moves.__getitem__).outcome() is nk.Outcome.N
    # A chain far longer than Python's recursion limit.
    chain = Impartial(0, lambda n: [n + 1] if n < 100_000 else [])
    assert chain.grundy() == 0  # 100,000 moves: the player who starts makes the last


def test_errors_in_options_reach_the_user_unchanged():
    class Oops(Exception):
        pass

    def options(n):
        if n == 3:
            raise Oops("no options for three")
        return [n - 1] if n else []

    with pytest.raises(Oops, match="no options for three") as raised:
        Impartial(6, options).grundy()
    assert "the state 3" in "".join(getattr(raised.value, "__notes__", ["the state 3"]))
    with pytest.raises(TypeError, match="unhashable"):
        Impartial(0, lambda n: [[1]]).grundy()
    with pytest.raises(TypeError, match="iterable of states, not NoneType"):
        Impartial(0, lambda n: None).grundy()
    with pytest.raises(TypeError, match="give options"):
        Impartial(5)
    with pytest.raises(ValueError, match="more than max_positions = 100 positions"):
        Impartial(0, lambda n: [n + 1]).grundy(max_positions=100)


# --- games on directed graphs -------------------------------------------------------


def test_fergusons_cyclic_graph_has_draws():
    """Ferguson, Part I, 3.4, figure 3.4: a -> b -> c -> a, c -> d -> e. e is terminal,
    d moves to e; from c the move to d loses, so play goes round a, b, c forever: the
    three are tied (draws)."""
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")])
    outcomes = {node: DigraphGame(graph, node).outcome() for node in graph}
    assert outcomes == {"a": "D", "b": "D", "c": "D", "d": "N", "e": "P"}
    assert DigraphGame(graph, "c").grundy() == Infinite((1,))
    assert DigraphGame(graph, "d").grundy() == 1
    # From a draw no move wins; the winning moves are those that keep the draw.
    assert [m.node for m in DigraphGame(graph, "c").winning_moves()] == ["a"]
    with pytest.raises(ValueError, match="has a cycle"):
        kernel(graph)


def test_graphs_as_mappings_arrays_and_networkx_agree():
    edges = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]
    as_networkx = nx.DiGraph(edges)
    as_mapping = {0: [1, 2], 1: [3], 2: [3], 3: [4], 4: []}
    as_array = np.array(edges)
    for node in range(5):
        values = {DigraphGame(g, node).grundy() for g in (as_networkx, as_mapping, as_array)}
        assert len(values) == 1
    assert kernel(as_mapping) == kernel(as_networkx) == kernel(as_array) == {1, 2, 4}
    with pytest.raises(ValueError, match="not a node"):
        DigraphGame(as_mapping, 9)
    with pytest.raises(TypeError, match="directed"):
        DigraphGame(nx.Graph(edges), 0)


def test_random_graphs_against_the_brute_force():
    rng = np.random.default_rng(5)
    for _ in range(60):
        n = int(rng.integers(1, 9))
        graph = {
            u: sorted({int(v) for v in rng.integers(0, n, rng.integers(0, 3))}) for u in range(n)
        }
        for node in range(n):
            game = DigraphGame(graph, node)
            for misere in (False, True):
                assert game.outcome(misere=misere).value == outcome_by_search(
                    node, graph.__getitem__, misere
                )


# --- sums, heaps and the protocol ----------------------------------------------------


def test_fergusons_sum_of_three_games():
    """Ferguson, Part I, 4.3: the sum of a subtraction game S = {1, 2, 3} with 9 chips,
    the game where you remove an even number of chips but not the whole pile, or the
    whole pile when it is odd, with 10, and the game where you remove at least half
    of the pile, with 14: values 1, 4 and 4, nim-sum 1; the winning move takes one
    chip from the first (to 8)."""
    first = Impartial(9, subtraction((1, 2, 3)))

    def even(n):
        return [n - t for t in range(2, n, 2)] + ([0] if n % 2 else [])

    def at_least_half(n):
        return list(range(0, n // 2 + 1)) if n else []

    second, third = Impartial(10, even), Impartial(14, at_least_half)
    assert (first.grundy(), second.grundy(), third.grundy()) == (1, 4, 4)
    total = first + second + third
    assert total.grundy() == 1
    (move,) = total.winning_moves()
    assert [part.state for part in move.parts] == [8, 10, 14]


def test_heaps_merge_in_misere_sums_and_misere_rules_are_refused():
    kayles_rules = nk.Rules(code="0.77")
    merged = Heaps([12, 400], kayles_rules) + Heaps([10**9], kayles_rules)
    assert merged.outcome(misere=True) == nk.Position([12, 400, 10**9]).outcome(
        nk.Rules(code="0.77", misere=True)
    )
    with pytest.raises(ValueError, match="the ending belongs to the question"):
        Heaps([1, 2], nk.Rules(misere=True))
    with pytest.raises(TypeError, match="a sum adds games"):
        Sum(Heaps([1]), 3)  # type: ignore[arg-type]


def test_games_are_immutable_hashable_and_equal_by_position():
    assert Heaps([1, 2]) == Heaps([1, 2])
    assert hash(Heaps([1, 2])) == hash(Heaps([1, 2]))
    assert Heaps([1, 2]) != Heaps([1, 2], nk.Rules(max_take=1))
    assert len({Heaps([3]), Heaps([3]), Heaps([4])}) == 2
    with pytest.raises(AttributeError, match="immutable"):
        Heaps([1]).heaps = (2,)  # type: ignore[misc]
    assert Heaps([2, 7]).rules == nk.Rules()
    assert Heaps([2], nk.Rules(code="0.77")).rules == nk.Rules(code="0.77")
    assert (Heaps([1]) + Heaps([2]) + Heaps([3])).parts == (Heaps([1]), Heaps([2]), Heaps([3]))


def test_game_graph_of_any_game():
    graph = nk.game_graph(Impartial(4, subtraction((1, 2))))
    assert {graph.nodes[n]["label"]: graph.nodes[n]["value"] for n in graph} == {
        "4": 1,
        "3": 0,
        "2": 2,
        "1": 1,
        "0": 0,
    }
    loopy = nk.game_graph(DigraphGame({0: [1], 1: [0]}, 0))
    assert {loopy.nodes[n]["outcome"] for n in loopy} == {"D"}
    # Games on equal graphs are equal games: the node is found in the graph.
    assert loopy.nodes[DigraphGame({0: [1], 1: [0]}, 0)]["value"] == "∞()"


def test_remoteness_of_heaps_equals_the_heap_solvers():
    # Two implementations: the heap solver's own (Position.remoteness) and the
    # labelling of the searched graph of any game.
    for rules in (nk.Rules(), nk.Rules(code="0.07"), nk.Rules(misere=True)):
        plain = nk.Rules(False, rules.max_take, rules.take, rules.code)
        for heaps in ([1, 2, 3], [4, 4], [2, 5, 1], [0]):
            expected = nk.Position(heaps).remoteness(rules)
            assert nk.Heaps(heaps, plain).remoteness(misere=rules.misere) == expected


def test_loopiness_and_remoteness_of_graphs():
    loop = nx.DiGraph([(0, 1), (1, 0), (1, 2), (3, 4), (4, 3)])
    assert [nk.DigraphGame(loop, v).remoteness() for v in range(5)] == [2, 1, 0, None, None]
    assert nk.DigraphGame(loop, 0).is_loopy()
    assert not nk.DigraphGame(loop, 2).is_loopy()
    assert not nk.Heaps([5, 6]).is_loopy()
    assert (nk.Heaps([5]) + nk.DigraphGame(loop, 3)).is_loopy()
    assert not nk.Impartial(9, lambda n: range(n)).is_loopy()
    assert nk.Impartial(0, lambda n: [(n + 1) % 3]).is_loopy()


def test_games_from_one_function_are_one_game():
    def moves(n: int) -> list[int]:
        return [n - 1] if n else []

    a, b = nk.Impartial((1, 2), moves_of_pairs), nk.Impartial((1, 2), moves_of_pairs)
    assert a == b
    assert hash(a) == hash(b)
    assert a.options() == b.options()
    assert nk.Impartial(3, moves) == nk.Impartial(4, moves).options()[0]
    assert nk.Impartial(3, moves) != nk.Impartial(3, lambda n: [n - 1] if n else [])
    assert nk.Impartial(3, moves) != nk.Impartial(2, moves)


def moves_of_pairs(pair: tuple[int, int]) -> list[tuple[int, int]]:
    return [(pair[0] - 1, pair[1])] if pair[0] else []


def test_misere_sums_refuse_at_once_what_they_cannot_search():
    # A Nim heap of a million beside Kayles ran on for minutes while max_positions
    # never stopped it (issue 45): the moves it would weigh are known before the
    # search starts (n (n + 1) / 2 below a Nim heap of n).
    kayles = nk.Heaps([5], nk.Rules(code="0.77"))
    for n in (10**4, 10**6):
        with pytest.raises(ValueError, match=r"weighs each part's moves .* more than \d+"):
            (nk.Heaps([n]) + kayles).outcome(misere=True)
    with pytest.raises(ValueError, match="the product of its parts' positions"):
        (nk.Heaps([3000], nk.Rules(code="0.77")) + nk.Heaps([3000])).outcome(misere=True)
    # within the bound the search answers, as the merged misère rule would
    small = nk.Heaps([30]) + kayles
    assert small.outcome(misere=True) == nk.Outcome.N


def test_exploring_a_game_counts_its_moves():
    with pytest.raises(ValueError, match=r"more than \d+ moves among them"):
        nk.game_graph(nk.Heaps([10**4]), max_nodes=10**6)


@pytest.mark.parametrize(
    "game",
    [
        nk.Wythoff(3, 5),
        nk.MooreNim([1, 2, 4], k=2),
        nk.StaircaseNim([0, 3, 1, 4]),
        nk.CoinTurning("ruler", [1, 0, 1]),
        nk.TurningCorners([[1, 0], [0, 1]]),
        nk.Heaps([5, 3], nk.Rules(code="0.77")),
        nk.Heaps([1, 2]) + nk.Wythoff(1, 2),
    ],
    ids=repr,
)
def test_native_families_pickle_and_repr_from_their_arguments(game):
    import pickle

    again = pickle.loads(pickle.dumps(game))
    assert again == game
    assert hash(again) == hash(game)
    assert type(again) is type(game)
    assert eval(repr(game), vars(nk)) == game  # the repr evaluates back


def test_a_family_that_keeps_a_python_function_says_it_cannot_pickle():
    import pickle

    with pytest.raises(TypeError, match="cannot be made again"):
        pickle.dumps(nk.Impartial(3, lambda n: range(n)))


def test_native_game_names_the_families_and_the_arguments():
    from nimkit import _core

    families = 'no native family "chess"; the families are heaps, sum, wythoff'
    with pytest.raises(ValueError, match=families):
        _core.native_game("chess", ())
    with pytest.raises(TypeError, match="argument 'k': the argument must be an integer"):
        _core.native_game("moore", ([1], "2"))
    with pytest.raises(TypeError, match="takes 2 arguments, not 3"):
        _core.native_game("wythoff", (1, 2, 3))


@pytest.mark.parametrize(
    "rules",
    [nk.Rules(), nk.Rules(max_take=3), nk.Rules(take={1, 3, 4}), nk.Rules(code="0.77")],
    ids=repr,
)
def test_heaps_answers_as_position_and_rules_do(rules):
    from nimkit.rules import with_ending

    # Heaps is a view of Position + Rules: the same values, outcomes and winning
    # moves, which are the options that leave a P-position (asked option by option).
    for heaps in [*itertools.product(range(5), repeat=2), (1, 2, 3), (2, 4, 6)]:
        game, position = Heaps(heaps, rules), nk.Position(heaps)
        values = position.grundy(rules)
        assert game.grundy() == np.bitwise_xor.reduce(np.array(values, dtype=np.uint64))
        for misere in (False, True):
            wins = [g.heaps for g in game.winning_moves(misere=misere)]
            ended = with_ending(rules, misere)
            expected = [
                tuple(position.after(m, ended))
                for m in position.winning_moves(rules, misere=misere)
            ]
            assert wins == expected, (heaps, misere)
            by_options = [
                o.heaps
                for o in game.options()
                if o.outcome(misere=misere) == nk.Outcome.P
            ]
            assert sorted(wins) == sorted(set(by_options)), (heaps, misere)
            assert game.outcome(misere=misere) == position.outcome(rules, misere=misere)


def test_heaps_of_any_size_have_their_winning_moves():
    # A heap of 10**18 has 10**18 options: the solver finds the winning one directly.
    big = 10**18
    assert Heaps([big, big - 5]).winning_moves() == [Heaps([big - 5, big - 5])]
    limited = nk.Rules(max_take=4)  # each heap worth its size mod 5: 0 and 3
    assert Heaps([big, 3], limited).winning_moves() == [
        Heaps([big - 2, 3], limited),
        Heaps([big, 0], limited),
    ]
