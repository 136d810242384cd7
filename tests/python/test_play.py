"""Games, computer players, self-play, presets and the terminal game."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pexpect
import pytest

import nimkit as nk
from nimkit import Game, Move, Position, Rules, presets
from nimkit._terminal import board, play

from .children import nimkit_command


def test_game_basics():
    game = Game(Position([3, 4, 5]))
    assert (game.turn, game.first, game.is_over, game.winner) == (0, 0, False, None)
    assert game.predicted_winner == 0
    game.push(Move(0, 2))
    assert game.position == Position([1, 4, 5])
    assert game.turn == 1
    assert game.predicted_winner == 0
    assert game.history == [Move(0, 2)]
    assert len(game.legal_moves) == 1 + 4 + 5
    assert game.pop() == Move(0, 2)
    assert game.position == game.start
    with pytest.raises(IndexError, match="no moves"):
        game.pop()


def test_winner_in_both_endings():
    normal = Game([1, 1])
    normal.push(Move(0, 1))
    normal.push(Move(1, 1))
    assert normal.winner == 1  # took the last object
    misere = Game([1, 1], Rules(misere=True), first=1)
    misere.push(Move(0, 1))
    misere.push(Move(1, 1))
    assert misere.winner == 1  # player 0 took the last object and lost
    with pytest.raises(nk.IllegalMoveError, match="the game is over"):
        misere.push(Move(0, 1))


def test_illegal_moves_and_bad_games():
    game = Game([3, 4], Rules(max_take=2))
    with pytest.raises(nk.IllegalMoveError, match="the rules allow at most 2"):
        game.push(Move(0, 3))
    with pytest.raises(nk.IllegalMoveError, match="there is no heap 2"):
        game.push(Move(2, 1))
    with pytest.raises(TypeError, match=r"move must be a nimkit\.Move"):
        game.push((0, 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="there are two players, 0 and 1; got 2"):
        Game([1], first=2)
    with pytest.raises(ValueError, match="1 per-heap take limits given for 2 heaps"):
        Game([1, 2], Rules(max_take=[3]))


def test_repr_copy_and_review():
    game = Game([3, 4, 5], Rules(misere=True), first=1)
    game.push(Move(2, 1))
    namespace = {"Game": Game, "Position": Position, "Move": Move, "Rules": Rules}
    assert eval(repr(game), namespace) == game
    twin = game.copy()
    twin.push(Move(0, 1))
    assert len(game.history) == 1
    assert len(twin.history) == 2
    import copy
    import pickle

    for other in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other == game
        other.push(Move(0, 1))
        assert len(game.history) == 1
    (mistake,) = game.review()
    assert mistake.ply == 0
    assert mistake.player == 1
    assert mistake.played == Move(2, 1)
    assert mistake.better == (Move(0, 2),)
    assert "winning was take 2 from heap 0" in str(mistake)


@pytest.mark.parametrize("rules", [Rules(), Rules(misere=True), Rules(max_take=3)], ids=repr)
def test_perfect_player_never_loses_a_won_game(rules):
    opponents = [nk.RandomPlayer(seed=1), nk.FalliblePlayer(0.3, seed=2), nk.PerfectPlayer()]
    for seed in range(60):
        board = presets.random_board(heaps=(1, 4), sizes=(0, 8), seed=seed).position
        won = board.outcome(rules) is nk.Outcome.N
        for opponent in opponents:
            game = Game(board, rules)
            players = [nk.PerfectPlayer(), opponent]
            while (move := players[game.turn].choose(game)) is not None:
                game.push(move)
            if won:
                assert game.winner == 0, (board, rules, opponent)


def test_players_are_reproducible_and_validated():
    def moves(player):
        game = Game([9, 9, 9])
        return [player.choose(game) for _ in range(20)]

    assert moves(nk.RandomPlayer(seed=4)) == moves(nk.RandomPlayer(seed=4))
    assert moves(nk.RandomPlayer(seed=4)) != moves(nk.RandomPlayer(seed=5))
    assert nk.PerfectPlayer().choose(Game([3, 4, 5])) == Move(0, 2)
    assert nk.PerfectPlayer().choose(Game([0])) is None
    with pytest.raises(ValueError, match=r"error_rate must be between 0 and 1, got 1\.5"):
        nk.FalliblePlayer(1.5)
    assert repr(nk.FalliblePlayer(0.3, seed=1)) == "FalliblePlayer(error_rate=0.3, seed=1)"
    # numpy's seeds: a Generator in the same state gives the same player.
    rng = lambda: np.random.default_rng(11)  # noqa: E731
    assert moves(nk.RandomPlayer(rng())) == moves(nk.RandomPlayer(rng()))
    sequence = np.random.SeedSequence(3)
    assert moves(nk.RandomPlayer(sequence)) == moves(nk.RandomPlayer(np.random.SeedSequence(3)))
    assert moves(nk.RandomPlayer(np.int64(4))) == moves(nk.RandomPlayer(4))
    with pytest.raises(TypeError, match="a seed is a whole number, None, or a numpy Generator"):
        nk.RandomPlayer(1.5)


def test_simulate():
    rules = presets.MARIENBAD.rules
    result = nk.simulate(
        presets.MARIENBAD.position, rules, nk.PerfectPlayer(), nk.FalliblePlayer(0.3), 5000, seed=9
    )
    again = nk.simulate(
        [1, 3, 5, 7], rules, nk.PerfectPlayer(), nk.FalliblePlayer(0.3), 5000, seed=9
    )
    assert result.wins == again.wins
    np.testing.assert_array_equal(result.lengths, again.lengths)
    assert sum(result.wins) == 5000
    assert result.lengths.dtype == np.uint64  # a game of huge heaps may pass 2**32 moves
    assert result.won_start_share == (0.0, 1.0)
    # The perfect player starts lost, yet wins every game its fallible opponent
    # throws away: some, not all.
    assert 0 < result.wins[0] < 5000
    perfect = nk.simulate([3, 4, 5], None, nk.PerfectPlayer(), nk.PerfectPlayer(), 50)
    assert perfect.wins == (50, 0)
    negative = "must not be negative, got -1\nwhile processing 'n_games'"
    with pytest.raises(ValueError, match=negative):
        nk.simulate([1], None, nk.PerfectPlayer(), nk.PerfectPlayer(), -1)
    seeded = [
        nk.simulate([5, 5], None, nk.RandomPlayer(), nk.RandomPlayer(), 200, seed=seed).lengths
        for seed in (np.random.default_rng(2), np.random.default_rng(2))
    ]
    np.testing.assert_array_equal(*seeded)


def test_simulate_names_what_was_passed_wrongly():
    perfect = nk.PerfectPlayer()
    with pytest.raises(TypeError, match="player_a is the class RandomPlayer; pass a player"):
        nk.simulate([1, 2], None, nk.RandomPlayer, perfect, 10)
    with pytest.raises(TypeError, match="the second argument is the rules"):
        nk.simulate([1, 2], nk.RandomPlayer(), perfect, 10)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="player_b must be a ComputerPlayer"):
        nk.simulate([1, 2], None, perfect, "perfect", 10)


def test_presets():
    assert presets.MARIENBAD.position.outcome(presets.MARIENBAD.rules) is nk.Outcome.P
    lights = presets.THIRTEEN_LIGHTS
    assert lights.position.outcome(lights.rules) is nk.Outcome.P  # so pass
    assert presets.CLASSIC.position.outcome(presets.CLASSIC.rules) is nk.Outcome.N
    assert presets.FRUIT_GAME.position.outcome() is nk.Outcome.N
    # Kayles G(10) = 2, Dawson's Kayles G(10) = 3, Grundy's game G(10) = 0 (CGSuite).
    assert presets.KAYLES.position.outcome(presets.KAYLES.rules) is nk.Outcome.N
    assert presets.DAWSONS_KAYLES.position.grundy(presets.DAWSONS_KAYLES.rules) == (3,)
    assert presets.GRUNDYS_GAME.position.outcome(presets.GRUNDYS_GAME.rules) is nk.Outcome.P
    assert set(presets.VARIANTS) == {
        "marienbad",
        "thirteen-lights",
        "fruit-game",
        "classic",
        "kayles",
        "dawsons-kayles",
        "grundys-game",
    }
    board = presets.random_board(heaps=(2, 6), sizes=(3, 9), seed=11)
    assert board == presets.random_board(heaps=(2, 6), sizes=(3, 9), seed=11)
    assert 2 <= len(board.position) <= 6
    assert all(3 <= n <= 9 for n in board.position)
    with pytest.raises(ValueError, match="heaps must be a range"):
        presets.random_board(heaps=(5, 2))


# --- the terminal game, through a real pseudo-terminal -------------------------------


def spawn(*args: str) -> pexpect.spawn:
    program, arguments = nimkit_command("play", *args)
    child = pexpect.spawn(program, arguments, encoding="utf-8", timeout=30)
    child.expect("Your move: |move first")
    return child


def test_terminal_game_to_the_end():
    child = spawn("--heaps", "1", "2", "--first")
    child.sendline("?")
    child.expect("Hint: take 1 from heap 1.")
    child.sendline("5 1")
    child.expect("there is no heap 5")
    child.sendline("one two")
    child.expect("is not two whole numbers")
    child.sendline("1 18446744073709551616")  # over 2**64 - 1: said, and the game goes on
    child.expect("over the largest allowed")
    child.sendline("1 1")
    child.expect("The computer takes 1 from heap 0.")
    child.sendline("1 1")
    child.expect("You win!")
    child.expect("Review: ")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_undo_and_review():
    child = spawn("--heaps", "3", "4", "5", "--opponent", "perfect", "--first")
    child.sendline("u")
    child.expect("Nothing to undo yet.")
    child.sendline("2 1")  # a mistake: 3 4 4 is an N-position for the computer
    child.expect("The computer takes")
    child.sendline("u")
    child.expect("heap  2 \\| o o o o o ")
    child.sendline("q")
    child.expect("Goodbye.")
    child.expect(pexpect.EOF)


def test_terminal_choose_to_pass_in_thirteen_lights():
    child = spawn("--variant", "thirteen-lights", "--choose", "--opponent", "random", "--seed", "3")
    child.sendline("n")
    child.expect("The computer takes")
    child.sendeof()
    child.expect("Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_ctrl_c_leaves_cleanly():
    child = spawn("--variant", "marienbad")
    child.sendintr()
    child.expect("Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_bad_play_arguments():
    child = pexpect.spawn(
        sys.executable, ["-m", "nimkit", "play", "--opponent", "genius"], encoding="utf-8"
    )
    child.expect("the opponent is perfect, random or fallible:RATE, not 'genius'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_terminal_answers_bad_input_briefly_and_hints_in_lost_positions():
    # Every bad input reprinted all the instructions, the split syntax included for
    # plain Nim, and ? gave no best try in a lost position (issue 45).
    child = spawn("--heaps", "1", "2", "3", "--first")
    child.sendline("one two")
    child.expect("is not two whole numbers. Type a heap and a number to take, like 2 3")
    child.sendline("?")
    child.expect(r"no move wins. Best try: take\s+1 from heap 0\.")  # filled at 80 columns
    assert "split" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_terminal_says_what_a_move_looks_like_under_the_rules_played(monkeypatch):
    # Nim heard about "the sizes of the two or three heaps left", which only rules
    # that split heaps have.
    child = spawn("--heaps", "1", "2", "--first")
    child.sendline("abc")
    child.expect("'abc' is not a move. Type a heap and a number to take, like 2 3 ")
    child.expect(r"\(\? for a hint\)\.")
    child.sendline("1 2 3")
    child.expect("'1 2 3' is not a move. Type a heap and a number to take")
    assert "split" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    # Rules that split heaps are told the split form too.
    monkeypatch.setenv("COLUMNS", "200")
    said: list[str] = []
    answers = iter(["abc", "q"])
    kayles = presets.variant("kayles")
    with pytest.raises(EOFError):
        play(kayles, nk.PerfectPlayer(), True, ask=lambda _: next(answers), say=said.append)
    assert (
        "'abc' is not a move. Type a heap and a number to take, like 2 1, and to split what "
        "is left, the sizes of the two or three heaps it leaves, like 2 1 3 4 (? for a hint)."
    ) in said


def test_terminal_asks_again_unless_the_answer_is_yes_or_no():
    # Any answer not starting with "n" used to mean yes.
    child = spawn("--heaps", "1", "2", "--choose")
    for answer in ("x", "nope"):
        child.sendline(answer)
        child.expect("Please answer y or n.")
        child.expect("move first")
    child.sendline("No")
    child.expect("The computer takes")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child = spawn("--heaps", "1", "2", "--choose")
    child.sendline("YES")
    child.expect("Your move: ")
    assert "The computer" not in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    child = spawn("--heaps", "1", "2", "--choose")
    child.sendeof()
    child.expect("Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_prose_is_filled_to_the_terminal_width(monkeypatch):
    # Long lines ran on past the terminal's edge, broken mid-word.
    monkeypatch.setenv("COLUMNS", "24")
    said: list[str] = []
    answers = iter(["abc", "?", "q"])
    classic = presets.variant("classic")
    with pytest.raises(EOFError):
        play(classic, nk.PerfectPlayer(), True, ask=lambda _: next(answers), say=said.append)
    lines = "\n".join(said).splitlines()
    prose = [line for line in lines if not line.startswith("  heap ")]
    assert max(map(len, prose)) <= 24
    assert board(nk.Game([3, 4, 5])) in said  # the board is drawn as it is, 27 wide
    text = " ".join(" ".join(said).split())
    assert "Enter HEAP TAKE (heaps are numbered from 0); ? for a hint, u to undo" in text
    assert "'abc' is not a move. Type a heap and a number to take, like 2 3 (? for" in text
    assert "Hint: take 2 from heap 0." in text  # 3 4 5: take 2 from heap 0 leaves 1 4 5
    # A real terminal's width, with no COLUMNS to say otherwise.
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    program, arguments = nimkit_command("play", "--heaps", "1", "2", "--first")
    child = pexpect.spawn(
        program, arguments, encoding="utf-8", timeout=30, env=env, dimensions=(24, 50)
    )
    child.expect("Enter HEAP TAKE \\(heaps are numbered from 0\\); \\? for\r\na hint, u to")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_board_columns_stay_put_as_heaps_shrink():
    game = nk.Game([12, 3])
    before = board(game).splitlines()[1]
    game.push(nk.Move(heap=0, take=11))
    after = board(game).splitlines()[1]
    assert before.rindex("3") == after.rindex("3")


def test_play_help_explains_every_option():
    result = subprocess.run(
        [sys.executable, "-m", "nimkit", "play", "--help"], capture_output=True, text=True
    )
    assert "you move first" in result.stdout
    assert "the computer moves first" in result.stdout
