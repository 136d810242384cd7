"""``nimkit play``: a game against the computer in the terminal."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable
from typing import Any

from .games import ImpartialGame
from .outcome import Outcome
from .playing import ComputerPlayer, Game, PerfectPlayer
from .position import Move, Position
from .rules import DEFAULT_MAX_POSITIONS, Rules, Variant

HELP = (
    "Enter HEAP TAKE (heaps are numbered from 0); ? for a hint, u to undo, q to quit."
)
#: The instructions for rules that split heaps.
HELP_SPLIT = (
    "Enter HEAP TAKE (heaps are numbered from 0), or HEAP TAKE A B to split what is left "
    "into heaps A and B where the rules allow it; ? for a hint, u to undo, q to quit."
)
#: What a bad input hears after what was wrong, instead of the instructions again.
AGAIN = "Type a heap and a number to take, like 2 3 (? for a hint)."
#: The same for rules that split heaps.
AGAIN_SPLIT = (
    "Type a heap and a number to take, like 2 1, and to split what is left, the sizes of "
    "the two or three heaps it leaves, like 2 1 3 4 (? for a hint)."
)


def help_for(rules: Rules) -> str:
    """The instructions, with the split syntax only where the rules split heaps."""
    return HELP_SPLIT if rules.splits else HELP


def board(game: Game[Position, Move]) -> str:
    """The heaps as rows of tokens, with their numbers and sizes; the columns are as
    wide as the start's largest heap, so that they stay put as heaps shrink."""
    position = game.position
    width = max([1, *(min(n, 40) for n in game.start)])
    rows = []
    for i, n in enumerate(position):
        tokens = " ".join("o" * min(n, 40)) + (" ..." if n > 40 else "")
        rows.append(f"  heap {i:>2} | {tokens:<{2 * width + 3}} {n}")
    return "\n".join(rows)


def hint(game: Game[Position, Move]) -> str:
    moves = game.position.winning_moves(game.rules)
    if not moves:
        return _best_try(game)
    return "Hint: " + " or ".join(str(m) for m in moves) + "."


def _best_try(game: Game[Any, Any]) -> str:
    """A lost position's hint: the perfect player's choice, the move that leaves the
    fewest winning replies."""
    lost = "You are in a losing position: against perfect play no move wins."
    best = PerfectPlayer().choose(game)
    return lost if best is None else f"{lost} Best try: {best}."


def parse_move(text: str, splits: bool = False) -> Move:
    """A typed move: the heap and how many to take, then, where the rules split heaps
    (``splits``), the sizes of the two or three heaps left."""
    parts = text.replace(",", " ").replace("+", " ").split()
    if len(parts) not in ((2, 4, 5) if splits else (2,)):
        raise ValueError(f"{text!r} is not a move" if text else "an empty line is not a move")
    try:
        heap, take, *into = (int(p) for p in parts)
    except ValueError:
        count = "two whole numbers" if len(parts) == 2 else "whole numbers"
        raise ValueError(f"{text!r} is not {count}") from None
    return Move(heap, take, into or None)


def _third_person(text: str) -> str:
    """'take 1 from heap 0 and split the rest ...' as 'takes 1 ... and splits ...'."""
    verb, rest = text.split(" ", 1)
    return f"{verb}s {rest.replace(' and split ', ' and splits ')}"


class _Heaps:
    """How the terminal shows heaps and reads a move on them."""

    def __init__(self, rules: Rules) -> None:
        self.help = help_for(rules)
        self.splits = rules.splits
        self.again = AGAIN_SPLIT if rules.splits else AGAIN

    def show(self, game: Game[Any, Any]) -> str:
        return board(game)

    def read(self, text: str, game: Game[Any, Any]) -> Move:
        return parse_move(text, self.splits)

    def hint(self, game: Game[Any, Any]) -> str:
        return hint(game)

    def said(self, move: Move) -> str:
        return _third_person(str(move))


class _Options:
    """How the terminal shows any game: its position and numbered options."""

    help = "Enter the number of an option; ? for a hint, u to undo, q to quit."
    again = "Type the number of an option (? for a hint)."

    def show(self, game: Game[Any, Any]) -> str:
        lines = [f"  {game.position}"]
        lines += [f"  {i:>3}: {option}" for i, option in enumerate(game.legal_moves, 1)]
        return "\n".join(lines)

    def read(self, text: str, game: Game[Any, Any]) -> ImpartialGame:
        options = game.legal_moves
        try:
            number = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not the number of an option") from None
        if not 1 <= number <= len(options):
            raise ValueError(f"there is no option {number}: they go from 1 to {len(options)}")
        option: ImpartialGame = options[number - 1]
        return option

    def hint(self, game: Game[Any, Any]) -> str:
        options = game.legal_moves
        good = game.position.winning_moves(game.misere, game.max_positions)
        numbers = " or ".join(str(options.index(g) + 1) for g in good)
        if game.outcome is Outcome.N:
            return f"Hint: {numbers}."
        if good:
            return f"No move wins; {numbers} keep the draw."
        lost = "You are in a losing position: against perfect play no move wins."
        best = PerfectPlayer().choose(game)
        return lost if best is None else f"{lost} Best try: {options.index(best) + 1}."

    def said(self, move: ImpartialGame) -> str:
        return f"moves to {move}"


def play(
    variant: Variant,
    opponent: ComputerPlayer,
    human_first: bool | None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> Game[Position, Move]:
    """Play one game; ``human_first=None`` lets the player choose to start or pass.
    ``max_positions`` bounds the search of rules with no closed form. What ``say``
    gets is filled to the terminal's width, but for the board."""
    tell = _filled(say)
    tell(f"{variant.name}: {variant.description}")
    tell(f"Rules: {variant.rules}.")
    tell(help_for(variant.rules))
    if human_first is None:
        say(board(Game(variant.position, variant.rules, max_positions=max_positions)))
        human_first = _wants_first(ask, tell)
    first = 0 if human_first else 1
    game = Game(variant.position, variant.rules, first=first, max_positions=max_positions)
    _play_out(game, opponent, _Heaps(variant.rules), ask, say, tell)
    return game


def play_game(
    start: ImpartialGame,
    opponent: ComputerPlayer,
    human_first: bool | None,
    misere: bool = False,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> Game[ImpartialGame, ImpartialGame]:
    """Play any impartial game (a sum, a game you define, a token on a graph) by
    choosing among its numbered options. ``max_positions`` bounds its searches. What
    ``say`` gets is filled to the terminal's width, but for the options."""
    tell = _filled(say)
    ending = "misère play: the last mover loses" if misere else "the last mover wins"
    tell(f"{start.describe()}; {ending}.")
    tell(_Options.help)
    if human_first is None:
        say(f"  {start}")
        human_first = _wants_first(ask, tell)
    game = Game(start, None, 0 if human_first else 1, (), max_positions, misere=misere)
    _play_out(game, opponent, _Options(), ask, say, tell)
    return game


def _filled(say: Callable[[str], None]) -> Callable[[str], None]:
    """``say`` for prose: each line filled to the terminal's width (read each time, as
    the window may change), an indented line's continuations indented further."""

    def tell(text: str) -> None:
        width = shutil.get_terminal_size().columns
        lines = []
        for line in text.split("\n"):
            body = line.lstrip(" ")
            indent = line[: len(line) - len(body)]
            more = indent + "  " if indent else ""
            lines.append(textwrap.fill(body, width, initial_indent=indent, subsequent_indent=more))
        say("\n".join(lines))

    return tell


def _wants_first(ask: Callable[[str], str], tell: Callable[[str], None]) -> bool:
    """Ask until the answer is y, yes, n or no (in any case); q quits, as in the game."""
    while True:
        answer = ask("Do you want to move first? [y/n] ").strip().lower()
        if answer in {"y", "yes", "n", "no"}:
            return answer.startswith("y")
        if answer in {"q", "quit", "exit"}:
            raise EOFError
        tell("Please answer y or n.")


def _play_out(
    game: Game[Any, Any],
    opponent: ComputerPlayer,
    board: _Heaps | _Options,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    tell: Callable[[str], None],
) -> None:
    """Play to the end and review: the board goes to ``say`` as drawn, the prose to
    ``tell``."""
    while not game.is_over:
        say("")
        say(board.show(game))
        if game.turn == 0:
            if not _human_turn(game, board, ask, tell):
                continue
        else:
            move = opponent.choose(game)
            assert move is not None, "a game that is not over has a move"
            game.push(move)
            tell(f"The computer {board.said(move)}.")
    say("")
    tell("You win!" if game.winner == 0 else "The computer wins.")
    _review(game, tell)


def _human_turn(
    game: Game[Any, Any],
    board: _Heaps | _Options,
    ask: Callable[[str], str],
    say: Callable[[str], None],
) -> bool:
    """Ask until the human plays a legal move (True) or undoes (False)."""
    while True:
        text = ask("Your move: ").strip().lower()
        if text in {"q", "quit", "exit"}:
            raise EOFError
        if text in {"?", "h", "hint"}:
            say(board.hint(game))
            continue
        if text in {"u", "undo"}:
            if take_back(game):
                return False
            say("Nothing to undo yet.")
            continue
        try:
            game.push(board.read(text, game))
        except (ValueError, OverflowError) as err:
            say(f"{err}. {board.again}")
            continue
        return True


def take_back(game: Game[Any, Any]) -> bool:
    """Take back the computer's reply and the human's move before it, to the human's
    (player 0's) turn; False when the human has not moved yet."""
    if not any(game.first ^ (ply % 2) == 0 for ply in range(len(game.history))):
        return False
    game.pop()
    while game.turn != 0:
        game.pop()
    return True


def _review(game: Game[Any, Any], say: Callable[[str], None]) -> None:
    mistakes = game.review()
    if not mistakes:
        start = game.start
        ending = game.rules if isinstance(start, Position) else game.misere
        if start.outcome(ending, game.max_positions) is Outcome.P and game.first == 0:
            say("Review: you started in a lost position and the computer never slipped.")
        else:
            say("Review: no mistakes: the winner played perfectly throughout.")
        return
    say("Review: moves that gave a won game away")
    for mistake in mistakes:
        who = "you" if mistake.player == 0 else "the computer"
        better = " or ".join(str(m) for m in mistake.better)
        say(
            f"  move {mistake.ply + 1}: {who} played {mistake.played} in {mistake.before}; "
            f"{better} would have kept the win."
        )
