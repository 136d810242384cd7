"""``nimkit play``: a game against the computer in the terminal."""

from __future__ import annotations

from collections.abc import Callable

from .game import ComputerPlayer, Game
from .position import Move, Outcome
from .presets import Variant
from .rules import DEFAULT_MAX_POSITIONS

HELP = (
    "Enter HEAP TAKE (heaps are numbered from 0), or HEAP TAKE A B to split what is left "
    "into heaps A and B where the rules allow it; ? for a hint, u to undo, q to quit."
)


def board(game: Game) -> str:
    """The heaps as rows of tokens, with their numbers and sizes."""
    position = game.position
    width = max([1, *(min(n, 40) for n in position)])
    rows = []
    for i, n in enumerate(position):
        tokens = " ".join("o" * min(n, 40)) + (" ..." if n > 40 else "")
        rows.append(f"  heap {i:>2} | {tokens:<{2 * width + 3}} {n}")
    return "\n".join(rows)


def hint(game: Game) -> str:
    moves = game.position.winning_moves(game.rules)
    if not moves:
        return "You are in a losing position: against perfect play no move wins."
    return "Hint: " + " or ".join(str(m) for m in moves) + "."


def parse_move(text: str) -> Move:
    parts = text.replace(",", " ").replace("+", " ").split()
    if len(parts) not in (2, 4, 5):
        raise ValueError(
            "type two numbers: the heap, then how many to take (and, to split, the sizes "
            "of the two or three heaps left)"
        )
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


def play(
    variant: Variant,
    opponent: ComputerPlayer,
    human_first: bool | None,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> Game:
    """Play one game; ``human_first=None`` lets the player choose to start or pass.
    ``max_positions`` bounds the search of rules with no closed form."""
    say(f"{variant.name}: {variant.description}")
    say(f"Rules: {variant.rules}.")
    say(HELP)
    if human_first is None:
        say(board(Game(variant.position, variant.rules, max_positions=max_positions)))
        answer = ask("Do you want to move first? [y/n] ").strip().lower()
        human_first = not answer.startswith("n")
    first = 0 if human_first else 1
    game = Game(variant.position, variant.rules, first=first, max_positions=max_positions)
    while not game.is_over:
        say("")
        say(board(game))
        if game.turn == 0:
            if not _human_turn(game, ask, say):
                continue
        else:
            move = opponent.choose(game)
            assert move is not None, "a game that is not over has a move"
            game.push(move)
            say(f"The computer {_third_person(str(move))}.")
    say("")
    say("You win!" if game.winner == 0 else "The computer wins.")
    _review(game, say)
    return game


def _human_turn(game: Game, ask: Callable[[str], str], say: Callable[[str], None]) -> bool:
    """Ask until the human plays a legal move (True) or undoes (False)."""
    while True:
        text = ask("Your move: ").strip().lower()
        if text in {"q", "quit", "exit"}:
            raise EOFError
        if text in {"?", "h", "hint"}:
            say(hint(game))
            continue
        if text in {"u", "undo"}:
            plies = len(game.history)
            if not any(game.first ^ (ply % 2) == 0 for ply in range(plies)):
                say("Nothing to undo yet.")
                continue
            # Take back the computer's reply and the move before it, to your turn.
            game.pop()
            while game.turn != 0:
                game.pop()
            return False
        try:
            move = parse_move(text)
            game.push(move)
        except (ValueError, OverflowError) as err:
            say(f"{err}. {HELP}")
            continue
        return True


def _review(game: Game, say: Callable[[str], None]) -> None:
    mistakes = game.review()
    if not mistakes:
        if game.start.outcome(game.rules) is Outcome.P and game.first == 0:
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
