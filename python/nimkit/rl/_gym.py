"""gymnasium environments: one game (``NimEnv``, ``GameEnv``) and many stepped at once
in the core (``NimVectorEnv``, ``GameVectorEnv``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from .. import _core
from .._extras import require
from ..rules import DEFAULT_MAX_POSITIONS, Rules, with_ending
from ._board import Encoder, Heaps, History, VertexEncoder, ending, start_of
from ._heap_tables import MAX_QUOTIENT, heap_tables

gym = require("gymnasium", "rl")
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

#: What an opponent may be: None (self-play), "perfect", "random", a probability of a
#: random move by an otherwise perfect player, or a callable ``(obs, info) -> action``.
Opponent = str | float | Callable[[Any, dict[str, Any]], int] | None


def _core_opponent(opponent: Opponent, first: str) -> tuple[str, float, str] | None:
    """The core's form of a built-in opponent; None for self-play and callables."""
    if opponent is None or callable(opponent):
        return None
    if isinstance(opponent, str):
        return (opponent, 0.0, first)
    if isinstance(opponent, bool) or not isinstance(opponent, (int, float)):
        raise TypeError(
            "opponent must be None, 'perfect', 'random', a probability or a callable, "
            f"not {type(opponent).__name__}"
        )
    if not 0.0 <= opponent <= 1.0:
        raise ValueError(
            f"an opponent given as a probability of a random move must be in [0, 1], not {opponent}"
        )
    return ("fallible", float(opponent), first)


Labels = tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.bool_]]


def _game_count(count: object) -> int:
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ValueError(f"the number of games must be an int >= 1, not {count!r}")
    if count >= 2**63:
        # Past what the core counts (and any machine's memory): not an OverflowError.
        raise ValueError(f"the number of games must be below 2**63, not {count!r}")
    return int(count)


class _Games:
    """The core's games with their encoder: what every environment steps."""

    def __init__(self, core: Any, encoder: Encoder | VertexEncoder, count: int) -> None:
        self.core, self.encoder, self.count = core, encoder, count
        self.rules: Rules | None = None  # the rules of games of heaps
        self.actions: int = core.actions
        one = encoder.encode(np.zeros((1, core.width), np.int64), np.zeros(1, np.uint32), None)
        depth = encoder.history
        self.history = History(depth, count, one.shape[1:], one.dtype) if depth > 1 else None
        self._labels: Labels | None = None

    @classmethod
    def of_heaps(
        cls,
        count: object,
        heaps: Heaps,
        rules: Rules | None,
        misere: bool | None,
        opponent: tuple[str, float, str] | None,
        autoreset: bool,
        observation: str,
        history: int,
        max_positions: int,
    ) -> _Games:
        """Games of heaps under rules that never split."""
        n = _game_count(count)
        start, bounds = start_of(heaps)
        ruled = with_ending(rules, misere)
        core = _core.Envs(n, start, ruled, opponent, autoreset, max_positions)
        games = cls(core, Encoder(observation, bounds, history), n)
        games.rules = ruled
        return games

    @classmethod
    def of_game(
        cls,
        count: object,
        game: Any,
        misere: bool,
        opponent: tuple[str, float, str] | None,
        autoreset: bool,
        history: int,
    ) -> _Games:
        """Games of ``game`` from its position: heaps (``nk.Heaps``), Node Kayles, Arc
        Kayles or Cram."""
        from ..boards import Cram, _OnGraph
        from ..games import Heaps

        misere = bool(ending(misere))
        n = _game_count(count)
        if isinstance(game, Heaps):
            if not game.rules.splits:
                heaps = [int(h) for h in game.heaps]
                rules = game.rules
                games = cls.of_heaps(
                    n, heaps, rules, misere, opponent, autoreset, "heaps", history,
                    DEFAULT_MAX_POSITIONS,
                )  # fmt: skip
                return games
            tables = heap_tables(game, misere, MAX_QUOTIENT)
            q = tables.quotient
            quotient = (
                None if q is None else (q.table.ravel().tolist(), q.elements.tolist(), q.p.tolist())
            )
            core = _core.Envs.of_code(
                n, tables.start.tolist(), tables.values.tolist(), tables.moves, quotient,
                opponent, autoreset,
            )  # fmt: skip
            bounds = [tables.largest] * tables.slots
            games = cls(core, Encoder("heaps", bounds, history), n)
            games.rules = with_ending(game.rules, misere)
            return games
        if not isinstance(game, (Cram, _OnGraph)):
            raise TypeError(
                "a GameEnv plays nk.Heaps, nk.NodeKayles, nk.ArcKayles or nk.Cram, not "
                f"{type(game).__name__}"
            )
        core = _core.Envs.of_graph(n, game._native, misere, opponent, autoreset)
        vertices = core.vertices
        assert vertices is not None, "games on graphs have vertices"
        if isinstance(game, Cram):
            board: tuple[int, ...] = game.shape
            names: tuple[Any, ...] = ()
        else:
            board, names = (vertices,), game._names()
        return cls(core, VertexEncoder(vertices, board, names, history), n)

    def render(self) -> str:
        """The first game's position as text."""
        return self.encoder.render(self.core.observe()[0])

    def reset(self, seed: int | None) -> None:
        self.core.reset(seed)
        self._labels = None

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[Any, Any]:
        """Rewards and terminations; the core labels the new positions in the same pass."""
        rewards, terminated, legal, winning, p = self.core.step(actions)
        self._labels = (legal.view(np.int8), winning.view(np.int8), p)
        return rewards, terminated

    def labels(self) -> Labels:
        """The labels of every game's position now."""
        if self._labels is None:
            legal, winning, p = self.core.labels()
            self._labels = (legal.view(np.int8), winning.view(np.int8), p)
        return self._labels

    def observe(
        self, legal: npt.NDArray[np.int8], fresh: npt.NDArray[np.bool_] | None
    ) -> npt.NDArray[Any]:
        """Observations now; ``fresh``: games that have just started (all if None)."""
        obs: npt.NDArray[Any]
        if isinstance(self.encoder, VertexEncoder):
            obs = self.core.vertex_bits().reshape(self.count, *self.encoder.board)
        elif self.encoder.kind == "openspiel":
            over = np.logical_not(legal.any(axis=1))
            obs = self.encoder.encode(self.core.observe(), self.core.moves(), over)
        else:  # what the moves made and the ends change nothing in
            obs = self.encoder.encode(self.core.observe(), None, None)
        if self.history is None:
            return obs
        self.history.start(np.ones(self.count, bool) if fresh is None else fresh, obs)
        return self.history.frames.copy() if fresh is None else self.history.push(obs)


class _OneGame(gym.Env):  # type: ignore[misc,name-defined]
    """One game against an opponent (``NimEnv``, ``GameEnv``)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        make: Callable[[tuple[str, float, str] | None], _Games],
        opponent: Opponent,
        first: str,
        render_mode: str | None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self._callable = opponent if callable(opponent) else None
        if self._callable is not None and first not in ("agent", "opponent", "random"):
            raise ValueError(f"first must be 'agent', 'opponent' or 'random', not {first!r}")
        self._first = first
        self._games = make(_core_opponent(opponent, first))
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self._games.actions)
        self.observation_space = self._games.encoder.space()
        self._seeded = False
        self._over: bool | None = None  # None before the first reset

    def _now(self, fresh: bool) -> tuple[Any, dict[str, Any]]:
        legal, winning, p = self._games.labels()
        obs = self._games.observe(legal, None if fresh else np.zeros(1, bool))
        info = {
            "action_mask": legal[0].copy(),
            "winning_mask": winning[0].copy(),
            "outcome": "P" if p[0] else "N",
        }
        return obs[0], info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            self._games.reset(int(self.np_random.integers(2**63)))
            self._seeded = True
        else:
            self._games.reset(None)
        self._over = False
        if self._callable is not None:
            # An opening move by the callable that ends the game: start again, a
            # bounded number of times.
            for _ in range(1000):
                opens = self._first == "opponent" or (
                    self._first == "random" and self.np_random.random() < 0.5
                )
                if not opens:
                    break
                obs, info = self._now(True)
                if not self._play(self._callable(obs, info))[1]:
                    break
                self._games.reset(None)
            else:
                raise ValueError("every opening move of the opponent ended the game")
        return self._now(True)

    def _play(self, action: Any) -> tuple[float, bool]:
        rewards, terminated = self._games.step(np.array([_action(action)], np.int64))
        return float(rewards[0]), bool(terminated[0])

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        action = _action(action)
        if self._over is not False:
            raise _core.IllegalMoveError(
                "the game is over: call reset()" if self._over else "call reset() before step()"
            )
        reward, over = self._play(action)
        if not over and self._callable is not None:
            obs, info = self._now(False)
            answer, over = self._play(self._callable(obs, info))
            # The opponent's reward, the agent's loss (0.0, not -0.0, when no one won).
            reward = -answer if answer else 0.0
        self._over = over
        obs, info = self._now(False)
        return obs, reward, over, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._games.render()


class NimEnv(_OneGame):
    """Nim as a gymnasium environment: the agent plays against ``opponent``.

    Actions are OpenSpiel's ids: ``(take - 1) * num_heaps + heap`` (its
    ``num_distinct_actions`` of them; the last names no move). An illegal action
    loses the game for the player who made it. Rewards are +1 when the agent wins,
    -1 when it loses (under ``misere``, taking the last object loses), else 0; in
    self-play (``opponent=None``) the reward is the mover's.

    ``info`` holds ``action_mask`` and ``winning_mask`` (int8, one per action: legal,
    and legal and winning) and ``outcome`` ('P' when the player to move loses against
    perfect play, else 'N'), exact for every position.

    >>> env = NimEnv(heaps=[1, 3, 5, 7], opponent="perfect")
    >>> obs, info = env.reset(seed=0)
    >>> obs.tolist(), info["outcome"]
    ([1, 3, 5, 7], 'P')
    >>> env.step(2)[1:3]  # take 1 from heap 2: the perfect opponent replies
    (0.0, False)
    """

    def __init__(
        self,
        heaps: Heaps = (1, 3, 5, 7),
        *,
        rules: Rules | None = None,
        misere: bool | None = None,
        opponent: Opponent = "perfect",
        first: str = "agent",
        observation: str = "heaps",
        history: int = 1,
        render_mode: str | None = None,
        max_positions: int = DEFAULT_MAX_POSITIONS,
    ) -> None:
        def make(core_opponent: tuple[str, float, str] | None) -> _Games:
            return _Games.of_heaps(
                1, heaps, rules, misere, core_opponent, False,
                observation, history, max_positions,
            )  # fmt: skip

        super().__init__(make, opponent, first, render_mode)
        self.rules = self._games.rules


class GameEnv(_OneGame):
    """A game nimkit solves, from ``game``'s position, as a gymnasium environment
    stepped in the core: heaps (``nk.Heaps``: Nim, a take limit, a subtraction set or
    a take-and-break code such as Kayles), Node Kayles, Arc Kayles or Cram. The agent
    plays against ``opponent``.

    - Heaps under a rule that never splits play as ``NimEnv`` (OpenSpiel's action
      ids, observations the heap sizes).
    - Heaps under a code that splits them (``nk.Rules(code="0.77")``) live in as many
      places as the start has objects; action ``(take * (largest + 1) + a) * places +
      place`` takes ``take`` from the heap in ``place`` and leaves heaps ``a`` and
      ``n - take - a`` (``a`` the smaller, 0 for one heap or none; ``a`` moves to the
      first empty place), as in ``nimkit.rl.jax``. Observations: the places' heap
      sizes (int64). Misère play needs the code's misère quotient (ValueError where
      the core finds none within 4,096 elements).
    - Node Kayles, Arc Kayles and Cram: every position of the game's graph is valued
      once first (``value_table()``: at most 26 vertices, a board's filled cells
      included). Actions are the table's moves: the vertex picked for Node Kayles
      (vertices numbered in the graph's order), the edge for Arc Kayles and the
      domino for Cram, numbered as ``value_table().needs`` lists them. Observations
      are int8, 1 for each vertex left (for Cram, rows x cols: 1 for each empty cell).

    Rewards, ``info`` and the opponents are ``NimEnv``'s; ``misere``: the player who
    makes the last move loses.

    >>> import nimkit as nk
    >>> env = GameEnv(nk.Cram(2, 3))
    >>> obs, info = env.reset(seed=0)
    >>> obs.tolist(), info["outcome"], int(info["winning_mask"].sum())
    ([[1, 1, 1], [1, 1, 1]], 'N', 3)

    Kayles in misère play: from a row of 5 pins, two moves win: one pin from the
    end (leaving 4), or the middle pin (leaving 2 and 2).

    >>> env = GameEnv(nk.Heaps([5], nk.Rules(code="0.77")), misere=True)
    >>> obs, info = env.reset(seed=0)
    >>> obs.tolist(), info["outcome"], info["winning_mask"].nonzero()[0].tolist()
    ([5, 0, 0, 0, 0], 'N', [30, 40])
    >>> env.step(30)[0].tolist()   # 5 -> 4, and the opponent's answer
    [1, 1, 0, 0, 0]
    """

    def __init__(
        self,
        game: Any,
        *,
        misere: bool = False,
        opponent: Opponent = "perfect",
        first: str = "agent",
        history: int = 1,
        render_mode: str | None = None,
    ) -> None:
        def make(core_opponent: tuple[str, float, str] | None) -> _Games:
            return _Games.of_game(1, game, misere, core_opponent, False, history)

        super().__init__(make, opponent, first, render_mode)
        self.game, self.misere = game, bool(misere)
        self.rules = self._games.rules  # the rules of heaps played (None for graphs)


def _action(action: Any) -> int:
    """An action as an int (a numpy scalar or 0-d array too); anything else is
    refused here rather than taken as an illegal move."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an int, not {type(action).__name__}")
    return int(action) if -(2**63) <= action < 2**63 else -1


class _ManyGames(VectorEnv):
    """Many games stepped at once in the core (``NimVectorEnv``, ``GameVectorEnv``)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium declares it an instance variable)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(self, games: _Games) -> None:
        self._games = games
        self.num_envs = num_envs = games.count
        self.single_action_space = spaces.Discrete(games.actions)
        self.single_observation_space = games.encoder.space()
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._ended = np.zeros(num_envs, bool)
        self._seeded = False

    def _now(self, fresh: npt.NDArray[np.bool_] | None) -> tuple[Any, dict[str, Any]]:
        legal, winning, p = self._games.labels()
        obs = self._games.observe(legal, fresh)
        every = np.ones(self.num_envs, bool)
        infos = {
            "action_mask": legal,
            "winning_mask": winning,
            "outcome": np.where(p, "P", "N"),
            "_action_mask": every,
            "_winning_mask": every.copy(),
            "_outcome": every.copy(),
        }
        return obs, infos

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if seed is not None:
            self._np_random, self._np_random_seed = gym.utils.seeding.np_random(seed)
        if seed is not None or not self._seeded:
            self._games.reset(int(self.np_random.integers(2**63)))
            self._seeded = True
        else:
            self._games.reset(None)
        self._ended[:] = False
        return self._now(None)

    def step(self, actions: npt.ArrayLike) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} ints, one a game, not an array of "
                f"shape {actions.shape} and dtype {actions.dtype}"
            )
        if actions.dtype == np.uint64:  # ids past int64 name no move
            actions = np.where(actions >= 2**63, -1, actions.astype(np.int64, copy=False))
        fresh = self._ended.copy()
        rewards, terminated = self._games.step(np.ascontiguousarray(actions, dtype=np.int64))
        self._ended = terminated.copy()
        obs, infos = self._now(fresh)
        return obs, rewards, terminated, np.zeros(self.num_envs, bool), infos


def _no_callable(opponent: object, cls: str, alone: str) -> None:
    if callable(opponent):
        raise TypeError(f"a callable opponent is {alone}'s alone: {cls} steps in the core")


class NimVectorEnv(_ManyGames):
    """``num_envs`` games of Nim stepped at once in the core (a gymnasium
    ``VectorEnv``, next-step autoreset: the step after a game ends starts it again
    and ignores its action).

    Observations, actions, rewards and the info labels are those of ``NimEnv``, as
    arrays with one row a game; ``opponent`` is None (self-play), "perfect", "random"
    or a probability (a callable opponent is ``NimEnv``'s alone). An illegal action
    loses its game; it never raises inside a rollout.

    >>> envs = NimVectorEnv(num_envs=3, heaps=[1, 3, 5, 7])
    >>> obs, infos = envs.reset(seed=0)
    >>> obs.shape, infos["action_mask"].shape
    ((3, 4), (3, 29))
    """

    def __init__(
        self,
        num_envs: int,
        heaps: Heaps = (1, 3, 5, 7),
        *,
        rules: Rules | None = None,
        misere: bool | None = None,
        opponent: str | float | None = None,
        first: str = "agent",
        observation: str = "heaps",
        history: int = 1,
        max_positions: int = DEFAULT_MAX_POSITIONS,
    ) -> None:
        _no_callable(opponent, "NimVectorEnv", "NimEnv")
        super().__init__(
            _Games.of_heaps(
                num_envs, heaps, rules, misere, _core_opponent(opponent, first), True,
                observation, history, max_positions,
            )
        )  # fmt: skip
        self.rules = self._games.rules


class GameVectorEnv(_ManyGames):
    """``num_envs`` games of Node Kayles, Arc Kayles or Cram from ``game``'s position,
    stepped at once in the core (next-step autoreset); observations, actions and
    labels are ``GameEnv``'s, as arrays with one row a game, and the opponents
    ``NimVectorEnv``'s.

    >>> import nimkit as nk
    >>> envs = GameVectorEnv(num_envs=4, game=nk.NodeKayles([(0, 1), (1, 2), (2, 3), (3, 4)]))
    >>> obs, infos = envs.reset(seed=0)
    >>> obs.shape, infos["action_mask"].shape
    ((4, 5), (4, 5))
    """

    def __init__(
        self,
        num_envs: int,
        game: Any,
        *,
        misere: bool = False,
        opponent: str | float | None = None,
        first: str = "agent",
        history: int = 1,
    ) -> None:
        _no_callable(opponent, "GameVectorEnv", "GameEnv")
        core_opponent = _core_opponent(opponent, first)
        super().__init__(_Games.of_game(num_envs, game, misere, core_opponent, True, history))
        self.game, self.misere = game, misere
