"""Moore's Nim, coin turning, Turning Corners and Green Hackenbush from Python: brute
force written here (the plain definition of each game, searched), the published
values, and what a user sees (names, pictures, explanations, sums, play, errors).
The native core is checked against its own exhaustive searches in tests/integration/moore.rs,
tests/integration/coin_turning.rs and tests/integration/hackenbush.rs."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

import nimkit as nk
from nimkit import CoinTurning, GreenHackenbush, MooreNim, Outcome, TurningCorners


def moore_options(heaps: tuple[int, ...], k: int) -> set[tuple[int, ...]]:
    found = set()
    for size in range(1, k + 1):
        for chosen in itertools.combinations(range(len(heaps)), size):
            for lowered in itertools.product(*(range(heaps[i]) for i in chosen)):
                after = list(heaps)
                for i, h in zip(chosen, lowered, strict=True):
                    after[i] = h
                found.add(tuple(after))
    return found


@cache
def moore_wins(heaps: tuple[int, ...], k: int, misere: bool) -> bool:
    options = moore_options(heaps, k)
    if not options:
        return misere
    return any(not moore_wins(o, k, misere) for o in options)


@cache
def moore_value(heaps: tuple[int, ...], k: int) -> int:
    seen = {moore_value(o, k) for o in moore_options(heaps, k)}
    return min(set(range(len(seen) + 1)) - seen)


@pytest.mark.parametrize(("count", "k"), [(2, 1), (3, 2), (3, 3), (4, 2)])
def test_moore_nim_equals_brute_force(count, k):
    for heaps in itertools.product(range(4), repeat=count):
        game = MooreNim(heaps, k=k)
        assert game.grundy() == moore_value(heaps, k), heaps
        for misere in (False, True):
            won = moore_wins(heaps, k, misere)
            assert game.outcome(misere=misere) is (Outcome.N if won else Outcome.P)
            expected = sorted(o for o in moore_options(heaps, k) if not moore_wins(o, k, misere))
            found = sorted(m.heaps for m in game.winning_moves(misere=misere))
            assert found == (expected if won else [])


def test_moore_nim_of_huge_heaps():
    big = MooreNim([2**64 - 1, 2**64 - 1, 2**63], k=2)
    # The digits add up to 3 or 2 in the top place and 2 below: lower two heaps to
    # the third's size is the only way to make them all 0 or 3.
    assert big.outcome() is Outcome.N
    assert [m.heaps for m in big.winning_moves()] == [(2**63, 2**63, 2**63)]
    assert "k + 1 = 3" in big.explain()
    # k as large as it gets: every heap at once, so only all zeros is P.
    assert [m.heaps for m in MooreNim([3, 5], k=2**64 - 1).winning_moves()] == [(0, 0)]
    # Very many heaps under k = 3: the subsets to try are refused, not searched for hours.
    with pytest.raises(ValueError, match=r"sets of up to 3 of [0-9]+ heaps, more than 10000000"):
        MooreNim([*range(1, 2000), 5], k=3).winning_moves()
    with pytest.raises(ValueError, match="k must be at least 1"):
        MooreNim([1, 2], k=0)
    with pytest.raises(ValueError, match="more than the 10000000 a game lists"):
        big.grundy()


def coin_moves(rule: str, coins: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The sets of coins a move turns, from the rules as Ferguson states them."""
    most = {"turning_turtles": 2, "twins": 2, "mock_turtles": 3, "moebius": 5, "mogul": 7}
    moves = []
    for x in (c for c in range(len(coins)) if coins[c]):
        if rule == "ruler":
            moves += [tuple(range(x - j + 1, x + 1)) for j in range(1, x + 2)]
            continue
        least = 2 if rule == "twins" else 1
        for size in range(least - 1, most[rule]):
            moves += [(*others, x) for others in itertools.combinations(range(x), size)]
    return moves


@cache
def coin_value(rule: str, coins: tuple[int, ...]) -> int:
    seen = set()
    for move in coin_moves(rule, coins):
        after = list(coins)
        for c in move:
            after[c] ^= 1
        seen.add(coin_value(rule, tuple(after)))
    return min(set(range(len(seen) + 1)) - seen)


@pytest.mark.parametrize("rule", list(nk.coins.RULES))
def test_coin_rows_equal_brute_force(rule):
    for coins in itertools.product((0, 1), repeat=7):
        game = CoinTurning(rule, coins)
        assert game.grundy() == coin_value(rule, coins), coins
        winning = set()
        for move in coin_moves(rule, coins):
            after = [c ^ (i in move) for i, c in enumerate(coins)]
            if coin_value(rule, tuple(after)) == 0:
                winning.add(tuple(sorted(move, reverse=True)))
        assert set(game.winning_turns()) == (winning if game.grundy() else set())


def test_published_coin_values():
    # Mock Turtles: the odious numbers (OEIS A000069); Ruler: the largest power of 2
    # dividing n, coins numbered from 1 (OEIS A006519); Ferguson, Part I, 5.3.
    assert CoinTurning("mock_turtles", [0] * 8).coin_values() == [1, 2, 4, 7, 8, 11, 13, 14]
    assert CoinTurning("ruler", [0] * 8).coin_values() == [1, 2, 1, 4, 1, 2, 1, 8]
    with pytest.raises(ValueError, match='no coin-turning rule "turtles"'):
        CoinTurning("turtles", [1])
    # Mogul's values grow fast: their bit sets are bounded by max_positions.
    with pytest.raises(ValueError, match="up to coin 102 need bit sets of 16777216 values"):
        CoinTurning("mogul", [0] * 200 + [1]).grundy()
    assert len(CoinTurning("mogul", [0] * 120).coin_values(max_positions=2**26)) == 120
    with pytest.raises(ValueError, match="a coin is 1 \\(heads\\) or 0"):
        CoinTurning("ruler", [2])


def test_turning_corners():
    # Ferguson 5.4: g(x, y) = x ⊗ y; 2 ⊗ 3 = 1 and 3 ⊗ 3 = 2 in the nimber field.
    board = [[0] * 4 for _ in range(4)]
    board[2][3] = board[3][3] = 1
    game = TurningCorners(board)
    assert game.grundy() == nk.nim_multiply(2, 3) ^ nk.nim_multiply(3, 3) == 3
    for a, b, x, y in game.winning_rectangles():
        after = [list(r) for r in board]
        for r, c in ((a, b), (a, y), (x, b), (x, y)):
            after[r][c] ^= 1
        assert TurningCorners(after).grundy() == 0
    assert game.winning_rectangles()
    assert "Tartan theorem" in game.explain()
    assert game._repr_svg_().count('stroke="#c22"') == 4
    with pytest.raises(ValueError, match="rows are of one length"):
        TurningCorners([[0, 1], [1]])


def chop(edges: frozenset, e: tuple, ends: dict, ground: set) -> frozenset:
    """The edges still joined to the ground once ``e`` is chopped."""
    kept = edges - {e}
    reached, frontier = set(ground), list(ground)
    while frontier:
        u = frontier.pop()
        for f in kept:
            a, b = ends[f]
            for p, q in ((a, b), (b, a)):
                if p == u and q not in reached:
                    reached.add(q)
                    frontier.append(q)
    return frozenset(f for f in kept if ends[f][0] in reached)


def test_hackenbush_equals_brute_force():
    import networkx as nx

    rng = random.Random(3)
    for _ in range(60):
        graph = nx.MultiGraph()
        graph.add_node("g")
        nodes = ["g", "a", "b", "c", "d"]
        for _ in range(rng.randint(1, 7)):
            graph.add_edge(rng.choice(nodes), rng.choice(nodes))
        game = GreenHackenbush(graph, ground="g")
        ends = {e: (e[0], e[1]) for e in graph.edges(keys=True)}

        @cache
        def value(edges: frozenset) -> int:
            seen = {value(chop(edges, e, ends, {"g"})) for e in edges}  # noqa: B023
            return min(set(range(len(seen) + 1)) - seen)

        standing = frozenset(game.edges)
        assert game.grundy() == value(standing)
        winning = {e for e in standing if value(chop(standing, e, ends, {"g"})) == 0}
        assert set(game.winning_edges()) == (winning if game.grundy() else set())


def test_hackenbush_of_the_issue_and_its_picture():
    import networkx as nx

    G = nx.MultiGraph([(0, 1), (1, 2), (2, 0), (1, 3)])
    game = GreenHackenbush(G, ground=0)
    assert game.grundy() == 0
    assert game.winning_edges() == []
    # A second twig makes it 1: chop either twig, or the edge between them.
    G.add_edge(2, 4)
    game = GreenHackenbush(G, ground=0)
    assert game.grundy() == 1
    assert game.winning_edges() == [(1, 2, 0), (1, 3, 0), (2, 4, 0)]
    svg = game._repr_svg_()
    assert svg.count('stroke="#d22"') == 3
    assert "red: the edges to chop" in svg
    assert "Fusion principle" in game.explain()
    assert repr(GreenHackenbush([(0, 1), (1, 1)], ground=0)) == (
        "GreenHackenbush([(0, 1), (1, 1)], ground=[0])"
    )
    assert "The edges to chop: (1, 2, 0), (1, 3, 0), (2, 4, 0)." in game.explain()
    # Several ground nodes, edge lists, and errors.
    assert GreenHackenbush([("x", "y")], ground=["x", "y"]).grundy() == 1
    with pytest.raises(ValueError, match="not a node of the graph"):
        GreenHackenbush(G, ground=99)
    with pytest.raises(TypeError, match="undirected"):
        GreenHackenbush(nx.DiGraph([(0, 1)]), ground=0)


def test_every_family_is_a_component_and_plays():
    parts = [
        MooreNim([3, 5], k=2),
        CoinTurning("mock_turtles", [1, 0, 1, 1]),
        TurningCorners([[0, 1], [1, 1]]),
        GreenHackenbush([(0, 1), (1, 2)], ground=0),
    ]
    total = nk.Sum(*parts)
    values = [p.grundy() for p in parts]
    assert total.grundy() == values[0] ^ values[1] ^ values[2] ^ values[3]
    for part in parts:
        game = nk.Game(part)
        perfect, dice = nk.PerfectPlayer(), nk.RandomPlayer(seed=2)
        first_wins = part.outcome() is Outcome.N
        while not game.is_over:
            move = (perfect if game.turn == (0 if first_wins else 1) else dice).choose(game)
            assert move is not None
            game.push(move)
        assert game.winner == (0 if first_wins else 1)
        assert part._repr_html_()


def test_heap_families_draw_themselves():
    staircase = nk.StaircaseNim([0, 3, 1, 4])
    svg = staircase._repr_svg_()
    # Two winning moves: from step 3 down to step 2, and from step 2 up onto step 1.
    assert svg.count('stroke="#2a2"') == 2
    assert "<title>step 3: 4 coins</title>" in svg
    assert MooreNim([3, 5], k=2)._repr_svg_().count('class="token"') == 8
