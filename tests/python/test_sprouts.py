"""Sprouts against a brute force on plain drawings written here
(``sprouts_reference``: no simplification, no lands, no sum rule), and against the
published outcomes of the n-spot games."""

from __future__ import annotations

import pickle
from functools import cache

import pytest

import nimkit as nk
from nimkit import Outcome

from . import sprouts_reference as brute


@cache
def every_position(spots: int) -> frozenset[brute.Plain]:
    return frozenset(brute.reachable(brute.start(spots)))


def engine(position: brute.Plain) -> nk.Sprouts:
    return nk.Sprouts(brute.text(position))


def check(position: brute.Plain, moves: bool = True) -> None:
    """The core's value, outcomes and (with ``moves``) options and winning moves of
    ``position`` against the brute force's."""
    game = engine(position)
    written = brute.text(position)
    assert game.grundy() == brute.grundy(position), written
    assert game.outcome() == (Outcome.N if brute.grundy(position) else Outcome.P), written
    assert game.outcome(misere=True) == (Outcome.N if brute.misere_wins(position) else Outcome.P), (
        written
    )
    if not moves:
        return
    # The winning moves, as sets of canonical positions.
    options = {str(engine(o)): o for o in brute.options(position)}
    assert {str(o) for o in game.options()} == set(options), written
    normal = {s for s, o in options.items() if brute.grundy(o) == 0}
    misere = {s for s, o in options.items() if not brute.misere_wins(o)}
    assert {str(m) for m in game.winning_moves()} == normal, written
    assert {str(m) for m in game.winning_moves(misere=True)} == misere, written


@pytest.mark.parametrize("spots", [1, 2, 3])
def test_every_position_from_few_spots_equals_the_brute_force(spots: int) -> None:
    positions = every_position(spots)
    assert len(positions) > {1: 2, 2: 40, 3: 1000}[spots]
    for position in positions:
        check(position)


@pytest.mark.research
def test_every_position_from_four_spots_equals_the_brute_force() -> None:
    positions = every_position(4)
    assert len(positions) > 50_000
    for position in positions:
        check(position, moves=False)


@pytest.mark.parametrize("spots", range(6))
def test_the_n_spot_games_published_outcomes(spots: int) -> None:
    # Normal play: a first-player win iff n mod 6 is 3, 4 or 5 (Applegate, Jacobson
    # and Sleator, CMU-CS-91-144, 1991), the value then 1 (Lemoine and Viennot,
    # arXiv 1008.2320). Misère play: a first-player win at n = 1, 5, 6 of 1..6
    # (OEIS A164950, from Lemoine and Viennot, arXiv 0908.4407, Fig. 1).
    game = nk.Sprouts(spots)
    wins = spots % 6 in (3, 4, 5)
    assert game.grundy() == int(wins)
    assert game.outcome() == (Outcome.N if wins else Outcome.P)
    misere = spots in (0, 1, 5)
    assert game.outcome(misere=True) == (Outcome.N if misere else Outcome.P)


@pytest.mark.research
def test_six_spots_published_outcomes() -> None:
    game = nk.Sprouts(6)
    assert game.grundy() == 0
    assert game.outcome(misere=True) == Outcome.N


@pytest.mark.research
@pytest.mark.parametrize("spots", range(6, 13))
def test_normal_play_to_twelve_spots(spots: int) -> None:
    # The outcomes Applegate, Jacobson and Sleator computed to 11 spots (CMU-CS-91-144,
    # 1991) and Lemoine and Viennot to 44 (arXiv 1008.2320), and the values of their
    # tables: a first-player win iff n mod 6 is 3, 4 or 5, and the value then 1.
    # Seconds each (12 spots: about 20 s on the quick build; the Sprouts guide's table).
    wins = spots % 6 in (3, 4, 5)
    assert nk.Sprouts(spots).outcome() == (Outcome.N if wins else Outcome.P)
    assert nk.Sprouts(spots).grundy() == int(wins)


@pytest.mark.parametrize(
    "spots",
    [
        pytest.param(13, marks=pytest.mark.research),
        *(pytest.param(n, marks=pytest.mark.record) for n in range(14, 21)),
    ],
)
def test_normal_play_past_twelve_spots(spots: int) -> None:
    # The reach the Sprouts guide states (13 spots about half a minute on the release
    # build, 14 to 20 spots half a minute to eight each): the outcomes Lemoine and Viennot
    # computed to 44 spots (arXiv 1008.2320), a first-player win iff n mod 6 is 3, 4, 5.
    wins = spots % 6 in (3, 4, 5)
    assert nk.Sprouts(spots).outcome() == (Outcome.N if wins else Outcome.P)


# Misère play (OEIS A164950, from Lemoine and Viennot, arXiv 0908.4407): whether the
# first player wins the n-spot game, for n = 1..20.
MISERE_WINS = [1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0]


@pytest.mark.research
@pytest.mark.parametrize(
    "spots",
    [7, 8, 9, 10, 11, 13, *(pytest.param(n, marks=pytest.mark.record) for n in (12, 14))],
)
def test_misere_play_past_six_spots(spots: int) -> None:
    # Seconds each on the quick build to 11 spots, 13 about a minute; 12 and 14 a
    # few minutes each, `record` cases (the Sprouts guide's misère table).
    wins = MISERE_WINS[spots - 1]
    assert nk.Sprouts(spots).outcome(misere=True) == (Outcome.N if wins else Outcome.P)


def test_strings_round_trip_and_games_pickle() -> None:
    game = nk.Sprouts("0*2.1a1a")
    again = nk.Sprouts(str(game))
    assert again == game
    assert hash(again) == hash(game)
    assert pickle.loads(pickle.dumps(game)) == game
    assert repr(game) == f"Sprouts({str(game)!r})"
    assert str(nk.Sprouts(0)) == "!"
    assert nk.Sprouts("!").options() == []
    assert nk.Sprouts("0*3") == nk.Sprouts(3) == nk.Sprouts("0.0.0")
    for option in nk.Sprouts(4).options():
        assert nk.Sprouts(str(option)) == option


def test_sums_with_other_games() -> None:
    total = nk.Sprouts(3) + nk.Heaps([2]) + nk.Cram(2, 3)
    assert total.grundy() == 1 ^ 2 ^ nk.Cram(2, 3).grundy()
    # Misère play of the sum, by the sum's own search, against the brute force's.
    assert (nk.Sprouts(2) + nk.Heaps([1])).outcome(misere=True) == Outcome.N


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("01", "a boundary of its own"),
        ("a", "met once"),
        ("0..0", "empty"),
        ("0x", "'x' is not a spot"),
        ("0*41", "40 spots"),
        ("1a1a!0", "comes last"),
        ("0." * 60_000, "bytes long, more than the 100000 read"),
    ],
)
def test_malformed_strings_are_refused(text: str, says: str) -> None:
    with pytest.raises(ValueError, match="not a Sprouts position") as raised:
        nk.Sprouts(text)
    assert says in str(raised.value)
    assert len(str(raised.value)) < 500  # a long text is quoted by its start only


def test_too_many_spots_and_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="more than the 40"):
        nk.Sprouts(41)
    with pytest.raises((ValueError, OverflowError)):
        nk.Sprouts(-1)
    with pytest.raises(TypeError):
        nk.Sprouts(2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="evict"):
        nk.Sprouts(3).grundy(evict=True)


def test_the_memory_bound_holds_the_values_found() -> None:
    # The proof-number search enters the values it proves within max_memory.
    with pytest.raises(MemoryError, match="max_memory = 2000"):
        nk.Sprouts(9).outcome(max_memory=2_000)
    assert nk.Sprouts(9).outcome(max_memory=10_000_000) == Outcome.N
    # So does the misère search, with the numbers of positions not yet proved.
    # Nine spots needs more than 200 KiB and less than 1 MiB (small lands keyed by
    # their misère forms, whose store has a bound of its own: the guide).
    with pytest.raises(MemoryError, match="max_memory = 20000"):
        nk.Sprouts(9).outcome(misere=True, max_memory=20_000)
    assert nk.Sprouts(9).outcome(misere=True, max_memory=10_000_000) == Outcome.P
    # Past the bound, room made by dropping the smallest positions found.
    with pytest.raises(MemoryError, match="max_memory = 102400"):
        nk.Sprouts(9).outcome(misere=True, max_memory="100 KiB")
    assert nk.Sprouts(9).outcome(misere=True, max_memory="100 KiB", evict=True) == Outcome.P


def test_a_perfect_player_wins_the_games_it_should() -> None:
    # Four spots: a first-player win in normal play, a loss in misère play. Two
    # perfect players play it out, and the first wins exactly where it should.
    for misere, first_wins in ((False, True), (True, False)):
        game = nk.Game(nk.Sprouts(4), misere=misere)
        players = (nk.PerfectPlayer(), nk.PerfectPlayer())
        mover = 0
        while game.legal_moves:
            game.push(players[mover].choose(game))
            mover ^= 1
        # With no move left, the player to move lost (normal) or won (misère).
        winner = mover ^ 1 if not misere else mover
        assert (winner == 0) == first_wins
