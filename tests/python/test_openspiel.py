"""nimkit.openspiel against OpenSpiel's own nim engine."""

from __future__ import annotations

import random

import pytest

import nimkit as nk

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
from nimkit.openspiel import (  # noqa: E402
    PerfectBot,
    from_action,
    position_of,
    rules_of,
    to_action,
)


def load(piles, misere):
    text = ";".join(str(n) for n in piles)
    return pyspiel.load_game("nim", {"pile_sizes": text, "is_misere": misere})


def test_actions_convert_both_ways():
    game = load([1, 3, 5, 7], misere=True)
    state = game.new_initial_state()
    assert position_of(state) == nk.Position([1, 3, 5, 7])
    assert rules_of(game) == nk.Rules(misere=True)
    legal = state.legal_actions()
    moves = [from_action(a, 4) for a in legal]
    assert sorted(moves) == sorted(nk.Position([1, 3, 5, 7]).moves())
    for action, move in zip(legal, moves, strict=True):
        assert to_action(move, 4) == action
        assert state.action_to_string(action) == f"pile:{move.heap + 1}, take:{move.take};"
        child = state.child(action)
        assert position_of(child) == nk.Position([1, 3, 5, 7]).after(move)
    with pytest.raises(ValueError, match="names no pile"):
        to_action(nk.Move(4, 1), 4)


def play(game, bots, perfect_seat):
    """Play one game on OpenSpiel's engine; return (won by PerfectBot, its first
    turn came in a won position)."""
    state = game.new_initial_state()
    rules = rules_of(game)
    first_turn_won = None
    while not state.is_terminal():
        player = state.current_player()
        if player == perfect_seat and first_turn_won is None:
            first_turn_won = position_of(state).outcome(rules) is nk.Outcome.N
        state.apply_action(bots[player].step(state))
    return state.returns()[perfect_seat] > 0, first_turn_won


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_perfect_bot_wins_every_won_game_against_random_and_mcts(misere):
    rng = random.Random(7)
    won_starts = 0
    for index in range(1500):
        piles = [rng.randint(1, 7) for _ in range(rng.randint(2, 4))]
        game = load(piles, misere)
        seat = index % 2
        if index % 5 == 0:
            evaluator = pyspiel.RandomRolloutEvaluator(1, index)
            opponent = pyspiel.MCTSBot(game, evaluator, 2.0, 200, 10, False, index, False)
        else:
            opponent = pyspiel.make_uniform_random_bot(1 - seat, index)
        bots = [None, None]
        bots[seat], bots[1 - seat] = PerfectBot(game), opponent
        won, first_turn_won = play(game, bots, seat)
        if first_turn_won:
            won_starts += 1
            assert won, (piles, misere, seat)
    assert won_starts > 1000
