"""Interactive play in Jupyter with ipywidgets (the ``notebook`` extra).

The board is driven by clicks, or from code exactly as clicks drive it:

>>> from nimkit import PerfectPlayer
>>> board = play([1, 2], opponent=PerfectPlayer())
>>> board.heap.value, board.take.value = 1, "1"
>>> board.move_button.click()
>>> board.game.history
[Move(heap=1, take=1), Move(heap=0, take=1)]
"""

from __future__ import annotations

import html
import warnings
from collections.abc import Iterable
from typing import Any, SupportsIndex, overload

from . import svg as draw
from ._extras import require
from ._terminal import take_back
from .games import Heaps, ImpartialGame
from .outcome import Outcome
from .playing import ComputerPlayer, Game, M, PerfectPlayer
from .position import Move, Position
from .presets import variant as preset
from .rules import Rules, Variant


class PlayWidget:
    """A board against a computer player: the picture, a heap chooser, a take chooser
    and the buttons Move, Hint, Undo and New game; Enter in the take or split box
    moves too. You are player 0 (named "you" on the board). A take the rules do not
    allow is refused with the reason, never changed into another move.

    The widgets are attributes (``heap``, ``take``, ``move_button``, ...), so a
    script or a test can drive the board exactly as clicks do.
    """

    def __init__(
        self,
        variant: Variant,
        opponent: ComputerPlayer,
        human_first: bool = True,
    ) -> None:
        ipw = require("ipywidgets", "notebook")
        self.variant, self.opponent, self.human_first = variant, opponent, human_first
        self.board = ipw.HTML()
        self.status = ipw.HTML()
        self.heap = ipw.Dropdown(description="heap")
        # Text, not a bounded number box: a bounded box silently changes a take it
        # does not allow into one it does (4 under "at most 3" would play 3).
        self.take = ipw.Text(value="1", description="take")
        # Take-and-break codes: the sizes of the heaps a split leaves, e.g. "3 4".
        self.into = ipw.Text(value="", placeholder="e.g. 3 4", description="split into")
        for box in (self.take, self.into):
            _on_enter(box, self.move)
        self.move_button, self.hint_button, self.undo_button, self.new_button = _buttons(
            ipw, self.move, self.hint, self.undo, self.new_game
        )
        splits = variant.rules.splits
        controls = ipw.HBox(
            [self.heap, self.take, *([self.into] if splits else []), self.move_button]
        )
        buttons = ipw.HBox([self.hint_button, self.undo_button, self.new_button])
        title = ipw.HTML(f"<b>{html.escape(str(variant))}</b><br>{html.escape(str(variant.rules))}")
        self.widget = ipw.VBox([title, self.board, controls, buttons, self.status])
        self.new_game()

    def new_game(self) -> None:
        self.game = Game(
            self.variant.position, self.variant.rules, first=0 if self.human_first else 1
        )
        _computer_turn(self.game, self.opponent)
        self._show("Your move." if not self.game.is_over else "")

    def move(self, move: Move | None = None) -> None:
        """Play ``move`` (default: the chosen heap and take), then the computer's reply."""
        if self.game.is_over:
            return self._show("The game is over: start a new one.")
        try:
            if move is None:
                move = self._chosen()
            self.game.push(move)
        except (ValueError, OverflowError) as err:
            return self._show(f"Not allowed: {err}")
        reply = _computer_turn(self.game, self.opponent)
        self._show(f"The computer plays {reply}." if reply else "")

    def hint(self) -> None:
        moves = self.game.position.winning_moves(self.game.rules)
        text = (
            "Hint: " + " or ".join(str(m) for m in moves)
            if moves
            else "You are in a losing position: against perfect play no move wins."
        )
        self._show(text)

    def undo(self) -> None:
        """Take back your last move and the computer's reply."""
        self._show("Taken back." if take_back(self.game) else "Nothing to undo yet.")

    def _chosen(self) -> Move:
        """The move the heap, take and split boxes describe."""
        if self.heap.value is None:
            raise ValueError("no heap is left to take from")
        try:
            take = int(self.take.value.strip())
        except ValueError:
            raise ValueError(f"a take is a whole number, not {self.take.value!r}") from None
        text = self.into.value.replace(",", " ").replace("+", " ")
        try:
            into = [int(part) for part in text.split()]
        except ValueError:
            raise ValueError(f"split into whole numbers, not {self.into.value!r}") from None
        return Move(self.heap.value, take, into or None)

    def _show(self, message: str) -> None:
        self.board.value = draw.game(self.game, ("you", "the computer"))
        movable = [(f"heap {i} ({n})", i) for i, n in enumerate(self.game.position) if n]
        self.heap.options = movable
        self.heap.value = movable[0][1] if movable else None
        if self.game.is_over:
            winner = "You win!" if self.game.winner == 0 else "The computer wins."
            review = "".join(f"<br>{html.escape(str(m))}" for m in self.game.review())
            message = f"{message} <b>{winner}</b>{review or '<br>No mistakes.'}"
        self.status.value = message

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


class OptionsWidget:
    """A board for any impartial game (a sum, a game you define, a token on a graph)
    against a computer player: the position's picture, a chooser of its options and
    the buttons Move, Hint, Undo and New game. You are player 0.

    >>> board = play(Heaps([1]) + Heaps([2]))
    >>> board.option.value = board.game.legal_moves[1]
    >>> board.move_button.click()
    >>> board.game.history
    [Sum(Heaps([1]), Heaps([1])), Sum(Heaps([0]), Heaps([1]))]
    """

    def __init__(
        self,
        start: ImpartialGame,
        opponent: ComputerPlayer,
        human_first: bool = True,
        misere: bool = False,
    ) -> None:
        ipw = require("ipywidgets", "notebook")
        self.start, self.opponent = start, opponent
        self.human_first, self.misere = human_first, misere
        self.board = ipw.HTML()
        self.status = ipw.HTML()
        self.option = ipw.Dropdown(description="move to")
        self.move_button, self.hint_button, self.undo_button, self.new_button = _buttons(
            ipw, self.move, self.hint, self.undo, self.new_game
        )
        ending = "misère play: the last mover loses" if misere else "the last mover wins"
        title = ipw.HTML(f"<b>{html.escape(start.describe())}</b><br>{ending}")
        controls = ipw.HBox([self.option, self.move_button])
        buttons = ipw.HBox([self.hint_button, self.undo_button, self.new_button])
        self.widget = ipw.VBox([title, self.board, controls, buttons, self.status])
        self.new_game()

    def new_game(self) -> None:
        self.game = Game(self.start, first=0 if self.human_first else 1, misere=self.misere)
        reply = _computer_turn(self.game, self.opponent)
        self._show(f"The computer moves to {reply}. Your move." if reply else "Your move.")

    def move(self, option: ImpartialGame | None = None) -> None:
        """Move to ``option`` (default: the chosen one), then the computer replies."""
        if self.game.is_over:
            return self._show("The game is over: start a new one.")
        try:
            self.game.push(self.option.value if option is None else option)
        except ValueError as err:
            return self._show(f"Not allowed: {err}")
        reply = _computer_turn(self.game, self.opponent)
        self._show(f"The computer moves to {reply}." if reply else "")

    def hint(self) -> None:
        moves = self.game.position.winning_moves(self.misere)
        if not moves:
            text = "You are in a losing position: against perfect play no move wins."
        elif self.game.outcome is Outcome.D:
            text = "No move wins; these keep the draw: " + "; ".join(map(str, moves))
        else:
            text = "Hint: move to " + " or ".join(map(str, moves))
        self._show(text)

    def undo(self) -> None:
        """Take back your last move and the computer's reply."""
        self._show("Taken back." if take_back(self.game) else "Nothing to undo yet.")

    def _show(self, message: str) -> None:
        picture = self.game.position._repr_svg_()
        self.board.value = picture or f"<code>{html.escape(str(self.game.position))}</code>"
        options = self.game.legal_moves
        self.option.options = [(str(o), o) for o in options]
        self.option.value = options[0] if options else None
        if self.game.is_over:
            winner = "You win!" if self.game.winner == 0 else "The computer wins."
            review = "".join(f"<br>{html.escape(str(m))}" for m in self.game.review())
            message = f"{message} <b>{winner}</b>{review or '<br>No mistakes.'}"
        self.status.value = message.strip()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def _buttons(ipw: Any, *actions: Any) -> list[Any]:
    """The buttons Move, Hint, Undo and New game, each running its action."""
    names = ("Move", "Hint", "Undo", "New game")
    buttons = [ipw.Button(description=name) for name in names]
    buttons[0].button_style = "primary"
    for button, action in zip(buttons, actions, strict=True):
        button.on_click(lambda _, act=action: act())
    return buttons


def _computer_turn(game: Game[Any, M], opponent: ComputerPlayer) -> M | None:
    """The computer's move, played, when it is its turn."""
    reply = None
    if not game.is_over and game.turn == 1:
        reply = opponent.choose(game)
        if reply is not None:
            game.push(reply)
    return reply


def _on_enter(box: Any, action: Any) -> None:
    """Run ``action`` when Enter is pressed in a text box. ipywidgets 8 marks
    ``on_submit`` deprecated, but its replacement (observing the value) also fires
    when the box merely loses focus, which would play a move on a click elsewhere."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        box.on_submit(lambda _: action())


@overload
def play(  # type: ignore[overload-overlap]  # Heaps first: the narrower type wins
    variant_or_position: Variant | str | Position | Iterable[SupportsIndex] | Heaps,
    rules: Rules | None = None,
    opponent: ComputerPlayer | None = None,
    human_first: bool = True,
) -> PlayWidget: ...


@overload
def play(
    variant_or_position: ImpartialGame,
    rules: None = None,
    opponent: ComputerPlayer | None = None,
    human_first: bool = True,
    misere: bool = False,
) -> OptionsWidget: ...


def play(
    variant_or_position: Any,
    rules: Rules | None = None,
    opponent: ComputerPlayer | None = None,
    human_first: bool = True,
    misere: bool = False,
) -> PlayWidget | OptionsWidget:
    """An interactive board: a preset (or its name), a position (with ``rules``) or
    ``Heaps``, or any other impartial game (its options in a chooser, ``misere``
    for its ending), against ``opponent`` (default: PerfectPlayer)."""
    if isinstance(variant_or_position, Heaps) and rules is None:
        heaps = variant_or_position
        r = heaps.rules
        variant_or_position, rules = heaps.position, Rules(misere, r.max_take, r.take, r.code)
    elif isinstance(variant_or_position, ImpartialGame):
        if rules is not None:
            raise TypeError("a game brings its own rules; give rules only with heaps")
        return OptionsWidget(variant_or_position, opponent or PerfectPlayer(), human_first, misere)
    elif misere:
        raise TypeError("with heaps the ending is the rules': Rules(misere=True)")
    if isinstance(variant_or_position, str):
        variant = preset(variant_or_position)
    elif isinstance(variant_or_position, Variant):
        variant = variant_or_position
    else:
        position = Position(variant_or_position)
        variant = Variant("custom", "your own heaps", position, rules or Rules())
    if rules is not None and variant.rules != rules:
        variant = Variant(variant.name, variant.description, variant.position, rules)
    return PlayWidget(variant, opponent or PerfectPlayer(), human_first)
