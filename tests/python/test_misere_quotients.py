"""Misère quotients from Python: the monoid's laws, outcomes against a plain
recursive search written here from the rules (it never sees the quotient), heaps of
any size once stable, the fallback of Position.outcome, and clear errors."""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path

import numpy as np
import pytest

import nimkit as nk


def misere_is_p(code: str):
    """Misère P-positions by the definition: no move (the player to move wins), or
    every move to an N-position. Positions are sorted tuples of heaps."""
    rules = nk.Rules(code=code, misere=True)

    @functools.cache
    def is_p(heaps: tuple[int, ...]) -> bool:
        position = nk.Position(list(heaps))
        moves = position.moves(rules)
        if not moves:
            return False
        return not any(is_p(tuple(sorted(position.after(m, rules)))) for m in moves)

    return is_p


def test_monoid_laws_and_even_order():
    q = nk.TakeAndBreak("0.77").misere_quotient(max_heap=200)
    t = q.table.astype(np.int64)
    n = q.order
    assert t.shape == (n, n)
    assert (t == t.T).all()  # commutative
    assert (t[0] == np.arange(n)).all()  # 0 is the identity
    # Associative: (a b) c == a (b c) for every a, b, c.
    ab_c = t[t[:, :, None], np.arange(n)[None, None, :]]
    a_bc = t[np.arange(n)[:, None, None], t[None, :, :]]
    assert (ab_c == a_bc).all()
    # Plambeck and Siegel: every impartial misère quotient has even order.
    assert n % 2 == 0
    assert q.is_stable
    assert q.period == (71, 12)


@pytest.mark.parametrize("code", ["0.77", "0.75", "0.123", "0.07", "0.4"])
def test_outcomes_equal_the_definition(code):
    q = nk.TakeAndBreak(code).misere_quotient(max_heap=9)
    is_p = misere_is_p(code)
    for count in range(4):
        for heaps in itertools.combinations_with_replacement(range(1, 10), count):
            expected = nk.Outcome.P if is_p(heaps) else nk.Outcome.N
            assert q.outcome(heaps) == expected, (code, heaps)


def test_heaps_of_any_size_once_stable():
    q = nk.TakeAndBreak("0.77").misere_quotient(max_heap=400)
    assert q.max_heap == 167  # stops once the period is proven
    # A heap of 10**18 behaves as the heap with the same place in the period.
    n = 10**18
    assert q.heap_element(n) == q.heap_element(71 + (n - 71) % 12)
    assert q.outcome([12, 400, 10**9]) == q.outcome([12, 76, 77])
    # Position.outcome falls back on the quotient where the search is too large.
    rules = nk.Rules(code="0.77", misere=True)
    assert nk.Position([12, 400, 10**9]).outcome(rules) == q.outcome([12, 400, 10**9])


def test_quotients_larger_than_4096_elements():
    # MisereSolver (Siegel) reaches heap 60 of 0.57 with order 322; the candidates on
    # the way pass 4096 elements (4410 at heap 37), the limit nimkit had before.
    q = nk.TakeAndBreak("0.57").misere_quotient(max_heap=60)
    assert (q.order, q.max_heap) == (322, 60)


def test_unstable_quotients_say_how_far_they_got():
    q = nk.TakeAndBreak("0.35").misere_quotient(max_heap=8)
    assert not q.is_stable
    assert q.period is None
    with pytest.raises(ValueError, match="beyond the misère quotient"):
        q.heap_element(9)
    with pytest.raises(ValueError, match="negative"):
        q.outcome([-1])
    assert "not stable" in repr(q)
    assert "order" in q._repr_html_()


def test_past_the_search_an_outcome_says_why_the_quotient_did_not_answer():
    # The search's limit, then the quotient's: 0.35's outgrows the 4096 elements a
    # quotient the caller did not ask for may have at heap 13;
    # 0.156's has no period proven by heap 300, the quotient the library keeps.
    cases = [
        ("0.35", [40, 40, 40], "could not be extended to heap 13"),
        ("0.156", [400, 3], "heap 400 is beyond the misère quotient, computed to heap 300"),
    ]
    for code, heaps, why in cases:
        rules = nk.Rules(code=code, misere=True)
        with pytest.raises(ValueError, match="max_positions = 100000") as raised:
            nk.Position(heaps).outcome(rules, max_positions=10**5)
        assert why in str(raised.value)


@pytest.mark.parametrize(
    ("code", "values"),
    [
        # CGSuite's fixtures: misère nim values of heaps 0..20.
        ("0.77", [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0]),
        ("0.07", [1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0, 2, 1, 1, 0, 0, 2, 1, 3]),
        ("4!.0", [1, 1, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]),
    ],
)
def test_misere_values_of_single_heaps(code, values):
    rule = nk.TakeAndBreak(code)
    assert rule.misere_grundy_sequence(21).tolist() == values
    genus = rule.genus(20)
    assert genus.sup[0] == values[20]
    assert genus.base == rule.grundy(20)


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4!.0"])
def test_misere_values_equal_the_genus_search(code):
    # Two searches: the values by rank over every multiset below the largest heap,
    # the genus by the hashed walk down from each heap alone.
    rule = nk.TakeAndBreak(code)
    values = rule.misere_grundy_sequence(36).tolist()
    assert [rule.genus(n).sup[0] for n in (31, 33, 35)] == values[31::2]


def test_genus_notation_and_limits():
    kayles = nk.TakeAndBreak("0.77")
    # Nim heaps: 0 = 0^120, *1 = 1^031, *2 = 2^20 (On Numbers and Games, ch. 12).
    assert [str(kayles.genus(n)) for n in range(3)] == ["0^120", "1^031", "2^20"]
    assert kayles.genus(0) == nk.Genus(0, (1, 2, 0))
    with pytest.raises(ValueError, match="more than max_positions"):
        kayles.misere_grundy_sequence(10**13)
    # Refused at once, not after the options of a million heaps are looked through.
    with pytest.raises(ValueError, match="more than max_positions = 1073741824 positions"):
        kayles.misere_grundy_sequence(10**6)
    with pytest.raises(ValueError, match="max_positions = 100 "):
        kayles.genus(30, max_positions=100)
    # One heap of 10**12 has about 10**12 options: refused before any is listed.
    with pytest.raises(ValueError, match="more than max_positions = 100 positions below"):
        kayles.genus(10**12, max_positions=100)
    with pytest.raises(ValueError, match="more than 134217728 moves below"):
        kayles.genus(10**12, max_positions=2**64 - 1)


def test_games_and_players_use_the_quotient_past_the_search():
    rules = nk.Rules(code="0.77", misere=True)
    q = nk.TakeAndBreak("0.77").misere_quotient(max_heap=300)
    start = nk.Position([30, 40, 41])  # its search holds far more than 10**7 positions
    moves = start.winning_moves(rules)
    assert moves
    for move in moves:
        assert q.outcome(start.after(move, rules)) == nk.Outcome.P
    # Every other move leaves an N-position.
    others = [m for m in start.moves(rules) if m not in moves]
    assert all(q.outcome(start.after(m, rules)) == nk.Outcome.N for m in others)
    # A perfect player wins misère Kayles from an N-position, every game.
    wins = nk.simulate(start, rules, nk.PerfectPlayer(), nk.RandomPlayer(), n_games=50).wins
    assert wins == (50, 0)


@pytest.mark.parametrize("misere", [False, True])
def test_perfect_play_from_heaps_past_the_scan_limit(misere):
    # A heap of about 10**12 has 10**12 options: too many to list its winning moves,
    # but a player looks through one option of each class that the period (71, 12) of
    # Kayles' values and of its misère quotient cannot tell apart. Its first winning
    # move is the one a full scan finds from a small heap of the same class, with the
    # part that is not cut off grown by the difference (Winning Ways, ch. 4: Kayles
    # values repeat with period 12 from heap 71).
    rules = nk.Rules(code="0.77", misere=misere)
    for big in (10**12, 10**12 + 5, 10**9 + 7):
        small = 71 + 2 * 12 + (big - 71) % 12
        for other in ([], [4], [7, 2]):
            exact = nk.Position([small, *other]).winning_moves(rules)
            game = nk.Game(nk.Position([big, *other]), rules)
            assert (game.position.outcome(rules) == nk.Outcome.P) == (not exact)
            chosen = nk.PerfectPlayer().choose(game)
            if not exact:
                continue
            first = exact[0]
            into = first.into
            if first.heap == 0 and into is not None:
                into = (into[0], into[1] + big - small)
            assert (chosen.heap, chosen.take, chosen.into) == (first.heap, first.take, into)
            assert game.position.after(chosen, rules).outcome(rules) == nk.Outcome.P
    with pytest.raises(ValueError, match="every winning move"):
        nk.Position([10**12]).winning_moves(rules)


@pytest.mark.parametrize("misere", [False, True])
def test_perfect_players_first_move_is_the_first_winning_move(misere):
    # Below the scan limit a player still looks through one option of each class
    # (at once), where winning_moves lists every option: the first is the same.
    rules = nk.Rules(code="0.77", misere=misere)
    for n in (90, 1007, 100_003, 250_010):
        for other in ([], [6], [3, 9]):
            start = nk.Position([n, *other])
            exact = start.winning_moves(rules)
            chosen = nk.PerfectPlayer().choose(nk.Game(start, rules))
            if exact:
                assert chosen == exact[0], (n, other)
            else:
                assert start.after(chosen, rules).outcome(rules) == nk.Outcome.N


@pytest.mark.parametrize("take", [{1, 3, 4}, {2, 3}, {1, 4}, {2, 5, 6}, {1, 2, 5}])
def test_subtraction_sets_are_codes(take):
    game = nk.SubtractionGame(take)
    q = game.misere_quotient()
    assert q.order % 2 == 0
    rules = nk.Rules(take=take, misere=True)
    # The exact box search (no quotient in it) over every position of three heaps.
    box = nk.solve([12, 12, 12], rules, remoteness=False)
    for heaps in itertools.product(range(13), repeat=3):
        assert q.outcome(heaps) == box.outcome_of(heaps), (take, heaps)
    if q.is_stable:
        # Heaps of any size: the same answer as Position.outcome, which uses it too.
        big = [10**12 + 3, 10**9, 5]
        assert nk.Position(big).outcome(rules) == q.outcome(big)


def test_subtraction_sets_past_a_code_are_refused():
    with pytest.raises(ValueError, match="over 256"):
        nk.SubtractionGame({1, 300}).misere_quotient()


def test_0_75_is_the_quotient_r8():
    """0.75's quotient is R_8 = <a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>, of
    order 8, P-portion {a, b^2}, a, b, c the heaps 1, 2 and 5 (Plambeck, "Taming the
    wild in impartial combinatorial games", 2005; Plambeck and Siegel 2008)."""
    q = nk.TakeAndBreak("0.75").misere_quotient()
    t = q.table
    a, b, c = (q.heap_element(n) for n in (1, 2, 5))
    assert t[a, a] == 0
    assert t[t[b, b], b] == b
    assert t[b, c] == t[a, b]
    assert t[c, c] == t[b, b]
    assert q.order == 8
    assert set(q.p_portion) == {a, t[b, b]}
    assert [h for _, h in q.generators] == [1, 2, 5]
    # The presentation's words: the P-portion as the paper writes it.
    assert {q.word(x) for x in q.p_portion} == {"a", "c^2"}  # c^2 = b^2


def bouton_misere_is_p(values: list[int]) -> bool:
    """Misère Nim (Bouton): with every heap at most 1, P iff their nim-sum is 1;
    otherwise P iff it is 0."""
    nim_sum = functools.reduce(lambda x, y: x ^ y, values, 0)
    return nim_sum == 1 if all(v <= 1 for v in values) else nim_sum == 0


# Plambeck, "Quaternary games" (plambeck.org/oldhtml/mathematics/games/misere/
# quaternary): every three-digit quaternary game (code digits 0-3) has only misère
# nim heaps as values except the seven "woolly mammoths" below; Winning Ways (ch. 13)
# finds .31 (Stalking) the only such two-digit one.
MAMMOTHS = {"0.121", "0.123", "0.131", "0.201", "0.211", "0.312", "0.331", "0.31"}


@pytest.mark.parametrize(
    "code",
    [f"0.{a}{b}" for a in "123" for b in "0123"]
    + [f"0.{a}{b}{c}" for a in "123" for b in "0123" for c in "123"],
)
def test_quaternary_games_are_misere_nim_except_the_mammoths(code):
    # A game whose heaps are all misère nim heaps plays as misère Nim on its Grundy
    # values: its outcomes are Bouton's, and its quotient is tame (T_1 or T_2, of
    # order 2 or 6, as its values are at most 1 or 3). Each mammoth has a position of
    # at most three heaps up to 15 where Bouton's rule fails.
    rules = nk.Rules(code=code, misere=True)
    values = nk.TakeAndBreak(code).grundy_sequence(16).tolist()
    positions = itertools.chain.from_iterable(
        itertools.combinations_with_replacement(range(1, 16), k) for k in (1, 2, 3)
    )
    disagree = [
        w
        for w in positions
        if (nk.Position(list(w)).outcome(rules) == nk.Outcome.P)
        != bouton_misere_is_p([values[h] for h in w])
    ]
    assert bool(disagree) == (code in MAMMOTHS)
    if code not in MAMMOTHS:
        q = nk.TakeAndBreak(code).misere_quotient()
        assert q.is_stable
        assert q.order == (2 if max(values) <= 1 else 6)


def test_0_312_has_plambecks_genus_sequence_and_a_plus_a_is_zero():
    """Plambeck's page on .312 (plambeck.org/oldhtml/mathematics/games/misere/
    quaternary/0312): genus 1^03131, 2^20, 0^02, 2^1420, then 0^02, 1^13 with period
    two; the heap of 4 (A, genus 2^1420) is no nim heap, but A + A plays as 0."""
    t = nk.TakeAndBreak("0.312")
    # nimkit writes a genus up to where its last two digits start to alternate:
    # 1^03131... is 1^031.
    expected = ["1^031", "2^20", "0^02", "2^1420"] + ["0^02", "1^13"] * 4
    assert [str(t.genus(n)) for n in range(1, 13)] == expected
    q = t.misere_quotient()
    a = q.heap_element(4)
    assert q.table[a, a] == 0
    assert a != 0


def miseresolver_quotients() -> list[tuple[str, int, int, str, list[str]]]:
    """tests/data/miseresolver_quotients.txt: (code, largest heap, order,
    presentation, each heap's element as a word), as MisereSolver printed them."""
    path = Path(__file__).parents[1] / "data" / "miseresolver_quotients.txt"
    lines = [line for line in path.read_text().splitlines() if line and line[0] != "#"]
    out = []
    for head, presentation, phi in zip(lines[::3], lines[1::3], lines[2::3], strict=True):
        found = re.fullmatch(r"(\S+) to (\d+): order (\d+) \|P\| \d+", head)
        assert found, head
        code, heap, order = found.groups()
        words = phi.removeprefix("Phi =").split()
        out.append((code, int(heap), int(order), presentation, words))
    return out


@pytest.mark.parametrize(
    ("code", "max_heap", "order", "presentation", "words"),
    [pytest.param(*case, id=case[0]) for case in miseresolver_quotients()],
)
def test_quotients_are_miseresolvers(code, max_heap, order, presentation, words):
    """The quotient is the one Siegel's MisereSolver computes (see the data file):
    MisereSolver's generators are the heaps where a new letter appears; its
    relations hold among nimkit's heap elements, so its monoid maps onto nimkit's,
    and with the orders equal that map is one to one; it carries MisereSolver's
    P-portion onto nimkit's and each heap's word onto the heap's element."""
    q = nk.TakeAndBreak(code).misere_quotient(max_heap=max_heap)
    assert q.order == order
    generator = {w: n for n, w in reversed(list(enumerate(words))) if w.isalpha() and len(w) == 1}

    def element(word: str) -> int:
        heaps = [
            generator[letter]
            for letter, power in re.findall(r"([a-z])(\d*)", word)
            for _ in range(int(power or 1))
        ]
        return q.element(heaps)

    found = re.fullmatch(r"Q = <([a-z,]*)(?: \| (.*))?>; P = \{(.*)\}", presentation)
    assert found, presentation
    letters, relations, p_portion = found.groups()
    assert sorted(generator) == letters.split(",")
    for relation in (relations or "").split(","):
        if relation:
            left, right = relation.split("=")
            assert element(left) == element(right), (code, relation)
    assert sorted(element(w) for w in p_portion.split(",")) == sorted(q.p_portion)
    assert [element(w) for w in words] == [q.heap_element(n) for n in range(len(words))]


@functools.cache
def misere_4_7_loses(heaps: tuple[int, ...]) -> bool:
    """Misère play of 4.7 by recursion over sorted tuples of heaps: split a heap into
    two nonempty heaps (digit 4 before the point), or take 1 and leave none, one heap
    or two nonempty heaps (digit 7)."""
    options = set()
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        parts = [(a, n - a) for a in range(1, n // 2 + 1) if n - a >= 1]
        if n >= 1:
            parts += [(), (n - 1,)] + [(a, n - 1 - a) for a in range(1, (n - 1) // 2 + 1)]
        for part in parts:
            options.add(tuple(sorted(rest + tuple(p for p in part if p))))
    if not options:
        return False  # no move: the player to move has won (misère)
    return not any(misere_4_7_loses(o) for o in options)


def test_a_kept_quotient_answers_the_positions_it_covers():
    # The solver fell back only on a quotient proven for heaps of any size, refusing
    # positions a quotient computed to heap 20 answers (issue 45).
    rules = nk.Rules(code="4.7", misere=True)
    quotient = nk.TakeAndBreak("4.7").misere_quotient(max_heap=20)
    for heaps in ([3, 5, 7], [1, 2, 3], [4, 4], [6, 2, 1], [7, 7, 1]):
        expected = nk.Outcome.P if misere_4_7_loses(tuple(sorted(heaps))) else nk.Outcome.N
        position = nk.Position(heaps)
        assert position.outcome(rules, max_positions=1) == expected
        assert quotient.outcome(heaps) == expected
        for move in position.winning_moves(rules, max_positions=1):
            after = position.after(move, rules)
            assert misere_4_7_loses(tuple(sorted(after)))
    beyond = r"could not be extended to heap \d+.* heaps up to \d+ are solved"
    with pytest.raises(ValueError, match=beyond):
        nk.Position([3, 5, 30]).outcome(rules, max_positions=1)
