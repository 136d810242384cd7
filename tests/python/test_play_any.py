"""Playing any impartial game: Game over sums, games you define and loopy graphs, the
computer players, the terminal and the notebook widget."""

from __future__ import annotations

import pickle
from functools import cache

import networkx as nx
import pexpect
import pytest

import nimkit as nk
from nimkit import Game, Outcome
from nimkit._terminal import play_game

from .children import nimkit_command


def subtraction(n: int) -> list[int]:
    return [n - t for t in (1, 3, 4) if t <= n]


@cache
def wins(state: tuple[int, int], misere: bool) -> bool:
    """Brute force over (Nim heap, subtraction heap): does the player to move win?"""
    nim, sub = state
    options = [(k, sub) for k in range(nim)] + [(nim, s) for s in subtraction(sub)]
    if not options:
        return misere
    return any(not wins(o, misere) for o in options)


def race(nim: int, sub: int) -> nk.Sum:
    return nk.Heaps([nim]) + nk.Impartial(sub, subtraction)


def test_a_game_of_any_game_moves_by_options():
    game = Game(race(2, 5))
    assert game.legal_moves == race(2, 5).options()
    assert game.turn == 0
    assert game.first == 0
    assert not game.is_over
    assert game.winner is None
    with pytest.raises(nk.IllegalMoveError, match=r"\(2\) \+ \(6\) is not an option of"):
        game.push(race(2, 6))
    game.push(race(2, 4))
    assert game.position == race(2, 4)
    assert game.turn == 1
    assert game.history == [race(2, 4)]
    twin = game.copy()
    twin.push(race(0, 4))
    assert len(game.history) == 1
    assert len(twin.history) == 2
    assert game.pop() == race(2, 4)
    assert game.position == game.start
    with pytest.raises(IndexError, match="no moves"):
        game.pop()
    assert repr(Game(race(1, 1), first=1, misere=True)) == (
        "Game(Sum(Heaps([1]), Impartial(1)), first=1, misere=True)"
    )
    with pytest.raises(TypeError, match="only heaps"):
        pickle.dumps(game)


@pytest.mark.parametrize("misere", [False, True])
def test_winner_outcome_and_prediction_follow_the_ending(misere):
    for nim in range(4):
        for sub in range(6):
            game = Game(race(nim, sub), misere=misere)
            won = wins((nim, sub), misere)
            assert game.outcome is (Outcome.N if won else Outcome.P)
            assert game.predicted_winner == (0 if won else 1)
    game = Game(race(1, 0), misere=misere)
    game.push(race(0, 0))
    assert game.is_over
    assert game.winner == (1 if misere else 0)


def test_heaps_play_with_heap_moves_and_rules_belong_to_heaps():
    game = Game(nk.Heaps([3, 4], nk.Rules(code="0.77")), misere=True)
    assert game.position == nk.Position([3, 4])
    assert game.rules == nk.Rules(misere=True, code="0.77")
    assert game.misere
    assert Game(nk.Heaps([1, 2])) == Game([1, 2])
    with pytest.raises(TypeError, match="own rules"):
        Game(race(1, 1), nk.Rules(max_take=2))  # type: ignore[call-overload]
    # misere=True asks for misère play with heaps too (issue 45: one way everywhere)
    assert Game([1, 2], misere=True).rules == nk.Rules(misere=True)
    with pytest.raises(ValueError, match="has no Rules"):
        _ = Game(race(1, 1)).rules


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_perfect_player_wins_every_won_game(misere, seed):
    perfect, dice = nk.PerfectPlayer(), nk.RandomPlayer(seed=seed)
    for nim in range(4):
        for sub in range(7):
            game = Game(race(nim, sub), misere=misere)
            predicted = game.predicted_winner
            players = (perfect, dice) if predicted == 0 else (dice, perfect)
            while not game.is_over:
                move = players[game.turn].choose(game)
                assert move is not None
                game.push(move)
            assert game.winner == predicted
            # The loser's moves from won positions are exactly what review reports.
            assert all(m.player != predicted for m in game.review())


def test_players_are_reproducible_and_fallible_at_rate_one_is_random():
    def moves(player: nk.ComputerPlayer) -> list[nk.ImpartialGame]:
        game = Game(race(3, 9))
        while not game.is_over:
            move = player.choose(game)
            assert move is not None
            game.push(move)
        return game.history

    assert moves(nk.RandomPlayer(seed=5)) == moves(nk.RandomPlayer(seed=5))
    assert moves(nk.FalliblePlayer(1.0, seed=5)) == moves(nk.FalliblePlayer(1.0, seed=5))
    assert moves(nk.FalliblePlayer(0.0, seed=5)) == moves(nk.PerfectPlayer())
    # (3) + (9) is won; always blundering, the first player gives it away for some seed.
    assert any(moves(nk.FalliblePlayer(1.0, seed=s))[0].outcome() is Outcome.N for s in range(8))
    assert nk.PerfectPlayer().choose(Game(race(0, 0))) is None


def test_from_a_lost_position_the_perfect_player_leaves_fewest_winning_replies():
    # (1) + (10) is lost; its options leave 2, 2, 2 and 1 winning replies (searched
    # above by brute force: wins()), so the player moves to (1) + (6).
    game = Game(race(1, 10))
    assert not wins((1, 10), False)
    replies = [
        sum(not wins((o.parts[0].heaps[0], o.parts[1].state), False) for o in opt.options())
        for opt in game.legal_moves
    ]
    assert replies == [2, 2, 2, 1]
    assert nk.PerfectPlayer().choose(game) == race(1, 6)


def test_loopy_game_draws_are_kept_and_wins_taken():
    # 0 <-> 1 with 1 -> 2 (2 ends the game): 1 wins by moving to 2, 0 loses.
    # 5 <-> 6 with exits 6 -> 1 and 5 -> 7 -> 2 that hand the win over: a draw.
    edges = [(0, 1), (1, 0), (1, 2), (5, 6), (6, 5), (6, 1), (5, 7), (7, 2)]
    graph = nx.DiGraph(edges)
    game = Game(nk.DigraphGame(graph, 1))
    assert game.outcome is Outcome.N
    assert game.predicted_winner == 0
    perfect = nk.PerfectPlayer()
    while not game.is_over:
        move = perfect.choose(game)
        assert move is not None
        game.push(move)
    assert game.winner == 0
    assert game.history == [nk.DigraphGame(graph, 2)]
    draw = Game(nk.DigraphGame(graph, 5))
    assert draw.outcome is Outcome.D
    assert draw.predicted_winner is None
    for turn in range(20):
        move = perfect.choose(draw)
        assert move == nk.DigraphGame(graph, 6 if turn % 2 == 0 else 5)
        draw.push(move)
    assert not draw.is_over
    assert draw.review() == []


def test_terminal_play_of_a_sum_in_process(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # the prose is filled to the terminal's width
    answers = iter(["?", "9", "x", "u", "2", "q"])  # options of (2) + (3): 1, 0, 2, 0
    said: list[str] = []
    with pytest.raises(EOFError):
        play_game(
            race(2, 3), nk.PerfectPlayer(), True, ask=lambda _: next(answers), say=said.append
        )
    text = "\n".join(said)
    assert "the sum of Nim heaps 2 and the game you defined, at state 3" in text
    assert "    1: (1) + (3)\n    2: (0) + (3)\n    3: (2) + (2)\n    4: (2) + (0)" in text
    assert "Hint: 1." in text  # values 1 xor 1: (1) + (3) is the one P-position
    assert "there is no option 9: they go from 1 to 4" in text
    assert "'x' is not the number of an option" in text
    assert "Nothing to undo yet." in text
    assert "The computer moves to (0) + (2)." in text  # value 0 xor 0


def test_terminal_play_of_a_sum_from_the_command_line():
    program, arguments = nimkit_command("play", "--sum", "nim:1", "take=1,2:2", "--first")
    child = pexpect.spawn(program, arguments, encoding="utf-8", timeout=30)
    child.expect("the sum of Nim heaps 1 and heaps 2, ")
    child.expect("Your move: ")
    # Values 1 and 2 mod 3 = 2; options (0)+(2), (1)+(1), (1)+(0): only the second wins.
    child.sendline("?")
    child.expect("Hint: 2.")
    child.sendline("2")
    child.expect("The computer moves to")
    child.sendline("1")
    child.expect("You win!")
    child.expect("Review: no mistakes")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_widget_plays_any_game_to_the_end():
    board = nk.widgets.play(race(1, 2), opponent=nk.PerfectPlayer())
    assert isinstance(board, nk.widgets.OptionsWidget)
    assert [label for label, _ in board.option.options] == ["(0) + (2)", "(1) + (1)"]
    board.hint()  # value 1 xor 0 (2 in the subtraction game): both options win
    assert board.status.value == "Hint: move to (0) + (2) or (1) + (1)"
    board.undo()
    assert board.status.value == "Nothing to undo yet."
    board.move(race(1, 9))
    assert board.status.value.startswith("Not allowed: (1) + (9) is not an option")
    board.option.value = race(1, 1)
    board.move_button.click()
    assert board.game.history == [race(1, 1), race(0, 1)]
    board.undo()
    assert board.game.history == []
    assert board.status.value == "Taken back."
    board.move(race(1, 1))
    board.move(race(0, 0))
    assert board.game.is_over
    assert "You win!" in board.status.value
    board.move(race(0, 0))
    assert board.status.value.startswith("The game is over: start a new one.")
    board.new_button.click()
    assert board.game.history == []
    assert "<svg" in board.board.value


def test_widget_of_a_loopy_game_and_of_heaps():
    graph = nx.DiGraph([(0, 1), (1, 0)])
    board = nk.widgets.play(nk.DigraphGame(graph, 0), human_first=False)
    assert board.status.value == "The computer moves to the token on node 1. Your move."
    board.hint()
    assert board.status.value.startswith("No move wins; these keep the draw: ")
    misere = nk.widgets.play(nk.Heaps([1, 1]), misere=True)
    assert isinstance(misere, nk.widgets.PlayWidget)
    assert misere.game.rules.misere
    with pytest.raises(TypeError, match="own rules"):
        nk.widgets.play(race(1, 1), nk.Rules())  # type: ignore[call-overload]
