"""Games in progress, computer players and self-play. The engine is the Rust core."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, SupportsIndex, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt

from . import _core
from ._seeds import Seed, seed_value
from .games import Heaps, ImpartialGame
from .outcome import Outcome
from .position import Move, Position
from .rules import DEFAULT_MAX_POSITIONS, Rules, position_and_rules, rules_or_default

if TYPE_CHECKING:
    from .rules import Variant

#: What a game's positions and moves are: Position and Move for heaps under Rules,
#: ImpartialGame for both when any game is played (a move is the option it reaches).
P = TypeVar("P", Position, ImpartialGame)
M = TypeVar("M", Move, ImpartialGame)


@dataclass(frozen=True)
class Mistake(Generic[P, M]):
    """A move that turned a won position into a lost one."""

    ply: int
    player: int
    played: M
    before: P
    #: Every move that would have kept the win (from a heap with more than 2**24
    #: options, the first of each class of moves that the period cannot tell apart).
    better: tuple[M, ...]

    def __str__(self) -> str:
        options = ", ".join(str(m) for m in self.better)
        return (
            f"move {self.ply + 1}: player {self.player} played {self.played} in {self.before}; "
            f"winning was {options}"
        )


class Game(Generic[P, M]):
    """A game from a starting position; player ``first`` (0 or 1) moves first.

    >>> game = Game(Position([3, 4, 5]))
    >>> game.push(Move(heap=0, take=2)); game.position
    Position([1, 4, 5])

    ``moves`` replays a history, so that the repr evaluates back to the same game.
    Rules with no closed form (misère play of subtraction sets other than {1..k} and
    of take-and-break codes) are solved once, by searching every position the start
    can reach; ValueError says so when that is more than ``max_positions``.

    Any impartial game plays too (a ``Sum``, a game you define, a ``DigraphGame``):
    a move is then the option it reaches, and ``misere`` gives the ending. A loopy
    game may go on forever; its ``outcome`` is D where neither side can force a win.

    >>> from nimkit import Impartial
    >>> race = Game(Heaps([2]) + Impartial(3, lambda n: range(n)))
    >>> race.legal_moves
    [Sum(Heaps([1]), Impartial(3)), Sum(Heaps([0]), Impartial(3)), Sum(Heaps([2]), Impartial(0)),
     Sum(Heaps([2]), Impartial(1)), Sum(Heaps([2]), Impartial(2))]
    >>> race.push(race.legal_moves[4]); race.outcome
    Outcome.P
    """

    @overload
    def __init__(
        self: Game[Position, Move],
        position: Position | Iterable[SupportsIndex] | Variant,
        rules: Rules | None = None,
        first: int = 0,
        moves: Iterable[Move] = (),
        max_positions: int = DEFAULT_MAX_POSITIONS,
        *,
        misere: bool | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self: Game[ImpartialGame, ImpartialGame],
        position: ImpartialGame,
        rules: None = None,
        first: int = 0,
        moves: Iterable[ImpartialGame] = (),
        max_positions: int = DEFAULT_MAX_POSITIONS,
        *,
        misere: bool | None = None,
    ) -> None: ...

    def __init__(
        self,
        position: Any,
        rules: Rules | None = None,
        first: int = 0,
        moves: Iterable[Any] = (),
        max_positions: int = DEFAULT_MAX_POSITIONS,
        *,
        misere: bool | None = None,
    ) -> None:
        self._max_positions = max_positions
        self._state: Any
        if isinstance(position, Heaps) and rules is None:
            # Heaps are played with heap moves, as Game(position, rules).
            r = position.rules
            position, rules = position.position, Rules(bool(misere), r.max_take, r.take, r.code)
            misere = None
        if isinstance(position, ImpartialGame):
            if rules is not None:
                raise TypeError("a game brings its own rules; give rules only with heaps")
            self._rules = None
            self._state = _core.PlayedGame(position._native, first, bool(misere), max_positions)
        else:
            # Heaps or a preset; misere=, where given, sets the rules' ending.
            position, self._rules = position_and_rules(position, rules, misere)
            self._state = _core.Game(position, self._rules, first, max_positions)
        for move in moves:
            self.push(move)

    @property
    def rules(self) -> Rules:
        """The heap rules (for a game that is not heaps, there are none: ValueError)."""
        if self._rules is None:
            raise ValueError(f"{self.start!r} is not heaps under rules: it has no Rules")
        return self._rules

    @property
    def max_positions(self) -> int:
        """The bound of each search the game needs."""
        return self._max_positions

    @property
    def misere(self) -> bool:
        """Whether the last mover loses."""
        return self._state.misere if self._rules is None else self._rules.misere

    def _out(self, native: Any) -> Any:
        """A position or move of the native state as the user's object: for heaps it is
        one already; any other game wraps the core's handle."""
        return native if self._rules is not None else ImpartialGame._of(native)

    @property
    def position(self) -> P:
        """The current position."""
        position: P = self._out(self._state.position())
        return position

    @property
    def start(self) -> P:
        start: P = self._out(self._state.start())
        return start

    @property
    def first(self) -> int:
        return cast(int, self._state.first())

    @property
    def turn(self) -> int:
        """The player to move, 0 or 1."""
        return cast(int, self._state.to_move())

    @property
    def history(self) -> list[M]:
        return [self._out(move) for move in self._state.history()]

    @property
    def legal_moves(self) -> list[M]:
        if self._rules is None:
            return [self._out(option) for option in self._state.options()]
        return cast("list[M]", self._state.position().moves(self._rules))

    @property
    def is_over(self) -> bool:
        """True when no move is left (with a subtraction set, small heaps may stay)."""
        return cast(bool, self._state.is_over())

    @property
    def winner(self) -> int | None:
        """Who won (normal play: whoever made the last move; misère: the other), or
        None while the game goes on."""
        return cast("int | None", self._state.winner())

    @property
    def predicted_winner(self) -> int | None:
        """Who wins from here if both sides play perfectly (None from a draw)."""
        return cast("int | None", self._state.predicted_winner())

    @property
    def outcome(self) -> Outcome:
        """The outcome of the current position for the player to move."""
        if self._rules is None:
            outcome: Outcome = self._state.outcome()
            return outcome
        return Outcome.P if self._state.is_p() else Outcome.N

    def push(self, move: M) -> None:
        """Play ``move`` (for any game: the option it reaches); IllegalMoveError says
        why it is not allowed."""
        if self._rules is not None:
            self._state.push(move)
            return
        if not isinstance(move, ImpartialGame):
            raise TypeError(f"a move of {self.start!r} is the game it reaches, not {move!r}")
        try:
            self._state.push(move._native)
        except _core.IllegalMoveError:
            if self.is_over:
                raise
            options = ", ".join(map(str, self.legal_moves)) or "none"
            raise _core.IllegalMoveError(
                f"{move} is not an option of {self.position}; the options are {options}"
            ) from None

    def pop(self) -> M:
        """Take back the last move."""
        last = self._state.pop()
        if last is None:
            raise IndexError("pop from a game with no moves")
        return cast(M, self._out(last))

    def review(self) -> list[Mistake[P, M]]:
        """Every move that turned a won position into a lost one (or a draw)."""
        out = self._out
        return [
            Mistake(ply, player, out(played), out(before), tuple(map(out, better)))
            for ply, player, played, before, better in self._state.review()
        ]

    def copy(self) -> Game[P, M]:
        """An independent copy: moves pushed on one do not change the other."""
        twin: Game[P, M] = object.__new__(Game)
        twin._rules, twin._state = self._rules, self._state.copy()
        twin._max_positions = self._max_positions
        return twin

    def __copy__(self) -> Game[P, M]:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game[P, M]:
        # Rules, positions and moves are immutable; the history is the game's own.
        return self.copy()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as the arguments that replay it (the solver is found again)."""
        if self._rules is None:
            raise TypeError(f"a game of {self.start!r} cannot be pickled: only heaps can")
        args = (self.start, self._rules, self.first, self.history, self._max_positions)
        return Game, args

    def __repr__(self) -> str:
        args = [repr(self.start)]
        if self._rules is not None and self._rules != Rules():
            args.append(repr(self._rules))
        if self.first:
            args.append(f"first={self.first}")
        if self._state.has_history():
            args.append(f"moves={self.history!r}")
        if self._rules is None and self.misere:
            args.append("misere=True")
        return f"Game({', '.join(args)})"

    def svg(self) -> str:
        """The game in progress as SVG text: the heaps (or the position's picture)."""
        if self._rules is None:
            return self._out(self._state.position()).svg()  # type: ignore[no-any-return]
        from . import svg

        return svg.game(self)

    def _repr_svg_(self) -> str | None:
        try:
            return self.svg()
        except (ValueError, ImportError):
            return None

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        status = f"player {self.winner} won" if self.is_over else f"player {self.turn} to move"
        printer.text(f"{self!r}\n{self.position}: {status}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        mine = (self.start, self._rules, self.first, self.history, self.misere)
        return mine == (other.start, other._rules, other.first, other.history, other.misere)

    __hash__ = None  # type: ignore[assignment]  # a game changes as it is played


class ComputerPlayer:
    """A computer player: ``choose(game)`` returns its move (None when none is left)."""

    _style: tuple[str, float]

    def __init__(self, style: str, error_rate: float = 0.0, seed: Seed = None) -> None:
        self._style = (style, error_rate)
        self._seed = seed
        seed_bits = seed_value(seed)
        self._engine = _core.Player(style, error_rate, seed_bits)

    def choose(self, game: Game[Any, M]) -> M | None:
        """The player's move in ``game`` (None when the game is over)."""
        chosen = self._engine.choose(game._state)
        return None if chosen is None else cast(M, game._out(chosen))


class PerfectPlayer(ComputerPlayer):
    """Always plays a winning move when there is one. From a lost position it does not
    give up: it plays the move that leaves the fewest winning replies and the longest
    game, so that a fallible opponent has the most chances to go wrong.

    With ``style="fastest"`` it wins in the fewest moves and loses in the most, by the
    remoteness of every position below the game's start (built once per game when the
    box holds at most the game's ``max_positions``; beyond that it plays as
    ``style="perfect"``)."""

    def __init__(self, style: str = "perfect") -> None:
        if style not in ("perfect", "fastest"):
            raise ValueError(f"style must be 'perfect' or 'fastest', not {style!r}")
        super().__init__(style, 0.0, 0)

    def __repr__(self) -> str:
        style = self._style[0]
        return "PerfectPlayer()" if style == "perfect" else f"PerfectPlayer(style={style!r})"


class RandomPlayer(ComputerPlayer):
    """Plays a uniformly random legal move; reproducible with a seed."""

    def __init__(self, seed: Seed = None) -> None:
        super().__init__("random", 0.0, seed)

    def __repr__(self) -> str:
        return f"RandomPlayer(seed={self._seed!r})"


class FalliblePlayer(ComputerPlayer):
    """Plays perfectly, except that with probability ``error_rate`` it plays a random
    legal move."""

    def __init__(self, error_rate: float, seed: Seed = None) -> None:
        # float() would read True as 1.0 and "0.5" as 0.5.
        if isinstance(error_rate, (bool, str, bytes, bytearray)):
            raise TypeError(f"error_rate must be a number, not {type(error_rate).__name__}")
        super().__init__("fallible", float(error_rate), seed)
        self.error_rate = float(error_rate)

    def __repr__(self) -> str:
        return f"FalliblePlayer(error_rate={self.error_rate!r}, seed={self._seed!r})"


@dataclass(frozen=True)
class Simulation:
    """What ``simulate`` returns."""

    #: Games won by player_a and by player_b.
    wins: tuple[int, int]
    #: The number of moves of every game.
    lengths: npt.NDArray[np.uint64]
    #: The share of games in which each player's first turn came in a won position.
    won_start_share: tuple[float, float]

    def __repr__(self) -> str:
        # A summary: the lengths of a million games do not belong in a repr.
        games = len(self.lengths)
        mean = f"{self.lengths.mean():.2f}" if games else "n/a"
        return (
            f"Simulation(wins={self.wins}, games={games}, mean_length={mean}, "
            f"won_start_share={self.won_start_share})"
        )


def _is_player_class(value: object) -> bool:
    return isinstance(value, type) and issubclass(value, ComputerPlayer)


def simulate(
    position: Position | Iterable[SupportsIndex],
    rules: Rules | None,
    player_a: ComputerPlayer,
    player_b: ComputerPlayer,
    n_games: int = 1000,
    seed: Seed = 0,
    max_positions: int = DEFAULT_MAX_POSITIONS,
) -> Simulation:
    """Play ``n_games`` games from ``position``, player_a moving first, in Rust on all
    cores. The players' random choices come from streams derived from ``seed`` and
    the game number, so the result is reproducible whatever the thread count.
    ``max_positions`` bounds the search of rules with no closed form, as for Game.

    >>> simulate([1, 2], None, PerfectPlayer(), RandomPlayer(), n_games=100).wins
    (100, 0)
    """
    if isinstance(rules, ComputerPlayer) or _is_player_class(rules):
        raise TypeError(
            "simulate(position, rules, player_a, player_b, n_games): the second "
            "argument is the rules (None for plain Nim), not a player, e.g. "
            "simulate([1, 2], None, PerfectPlayer(), RandomPlayer(), 100)"
        )
    players: tuple[tuple[str, object], ...] = (("player_a", player_a), ("player_b", player_b))
    for name, player in players:
        if isinstance(player, type) and issubclass(player, ComputerPlayer):
            kind = player.__name__
            raise TypeError(f"{name} is the class {kind}; pass a player, e.g. {kind}()")
        if not isinstance(player, ComputerPlayer):
            raise TypeError(
                f"{name} must be a ComputerPlayer (PerfectPlayer, RandomPlayer, "
                f"FalliblePlayer), not {type(player).__name__}"
            )
    rules = rules_or_default(rules)
    heaps = position.heaps if isinstance(position, Position) else position
    wins, lengths, won = _core.simulate(
        heaps, rules, player_a._style, player_b._style, n_games, seed_value(seed), max_positions
    )
    share = tuple(w / n_games if n_games else 0.0 for w in won)
    return Simulation((wins[0], wins[1]), lengths, (share[0], share[1]))
