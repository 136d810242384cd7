"""Interactive play in Jupyter with ipywidgets (the ``notebook`` extra)."""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any, SupportsIndex

from ._extras import require
from ._svg import game_svg
from .game import ComputerPlayer, Game, PerfectPlayer
from .position import Move, Position
from .presets import VARIANTS, Variant
from .rules import Rules


class PlayWidget:
    """A board against a computer player: the picture, a heap chooser, a take chooser
    and the buttons Move, Hint, Undo and New game. You are player 0.

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
        self.take = ipw.BoundedIntText(value=1, min=1, max=1, description="take")
        # Take-and-break codes: the sizes of the heaps a split leaves, e.g. "3 4".
        self.into = ipw.Text(value="", placeholder="e.g. 3 4", description="split into")
        self.move_button = ipw.Button(description="Move", button_style="primary")
        self.hint_button = ipw.Button(description="Hint")
        self.undo_button = ipw.Button(description="Undo")
        self.new_button = ipw.Button(description="New game")
        self.move_button.on_click(lambda _: self.move())
        self.hint_button.on_click(lambda _: self.hint())
        self.undo_button.on_click(lambda _: self.undo())
        self.new_button.on_click(lambda _: self.new_game())
        self.heap.observe(lambda _: self._limit_take(), names="value")
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
        self._computer_turn()
        self._show("Your move." if not self.game.is_over else "")

    def move(self, move: Move | None = None) -> None:
        """Play ``move`` (default: the chosen heap and take), then the computer's reply."""
        if self.game.is_over:
            return self._show("The game is over: start a new one.")
        try:
            if move is None:
                text = self.into.value.replace(",", " ").replace("+", " ")
                into = [int(part) for part in text.split()]
                move = Move(self.heap.value, self.take.value, into or None)
            self.game.push(move)
        except ValueError as err:
            return self._show(f"Not allowed: {err}")
        reply = self._computer_turn()
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
        history = self.game.history
        if not any(self.game.first ^ (ply % 2) == 0 for ply in range(len(history))):
            return self._show("Nothing to undo yet.")
        self.game.pop()
        while self.game.turn != 0:
            self.game.pop()
        self._show("Taken back.")

    def _computer_turn(self) -> Move | None:
        reply = None
        if not self.game.is_over and self.game.turn == 1:
            reply = self.opponent.choose(self.game)
            if reply is not None:
                self.game.push(reply)
        return reply

    def _limit_take(self) -> None:
        if self.heap.value is None:
            return
        size = self.game.position[self.heap.value]
        rules = self.game.rules
        limit: Any = rules.max_take if rules.take is None else rules.take
        if rules.heap_rule is not None:
            limit = rules.heap_rule.max_take
            # A digit before the point splits without taking.
            self.take.min = 0 if not rules.heap_rule.code.startswith("0") else 1
        if isinstance(limit, tuple):
            limit = limit[self.heap.value]
        if isinstance(limit, frozenset):
            limit = max(limit)  # the core explains a take outside the set
        self.take.max = max(self.take.min, min(size, limit) if limit is not None else size)

    def _show(self, message: str) -> None:
        self.board.value = game_svg(self.game)
        movable = [(f"heap {i} ({n})", i) for i, n in enumerate(self.game.position) if n]
        self.heap.options = movable
        self.heap.value = movable[0][1] if movable else None
        self._limit_take()
        if self.game.is_over:
            winner = "You win!" if self.game.winner == 0 else "The computer wins."
            review = "".join(f"<br>{html.escape(str(m))}" for m in self.game.review())
            message = f"{message} <b>{winner}</b>{review or '<br>No mistakes.'}"
        self.status.value = message

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


def play(
    variant_or_position: Variant | str | Position | Iterable[SupportsIndex],
    rules: Rules | None = None,
    opponent: ComputerPlayer | None = None,
    human_first: bool = True,
) -> PlayWidget:
    """An interactive board: a preset (or its name) or a position, against
    ``opponent`` (default: PerfectPlayer)."""
    if isinstance(variant_or_position, str):
        variant = VARIANTS[variant_or_position]
    elif isinstance(variant_or_position, Variant):
        variant = variant_or_position
    else:
        position = Position(variant_or_position)
        variant = Variant("custom", "your own heaps", position, rules or Rules())
    if rules is not None and variant.rules != rules:
        variant = Variant(variant.name, variant.description, variant.position, rules)
    return PlayWidget(variant, opponent or PerfectPlayer(), human_first)
