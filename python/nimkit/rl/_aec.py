"""PettingZoo AEC environments: two agents take turns on one game."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .. import _core
from .._extras import require
from ..rules import DEFAULT_MAX_POSITIONS, Rules
from ._board import Heaps
from ._gym import _action, _Games

require("pettingzoo", "rl")
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import AgentSelector  # noqa: E402


class _TwoAgents(AECEnv):  # type: ignore[misc]
    """Two agents taking turns on one game (``NimAEC``, ``GameAEC``)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "nim_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(self, games: _Games, render_mode: str | None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self._games = games
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        mask = spaces.Box(0, 1, (games.actions,), np.int8)
        obs = spaces.Dict({"observation": games.encoder.space(), "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = {a: spaces.Discrete(games.actions) for a in self.possible_agents}
        self._seeded = False

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _look(self, fresh: bool) -> None:
        legal, winning, p = self._games.labels()
        self._obs = self._games.observe(legal, None if fresh else np.zeros(1, bool))[0]
        over = any(self.terminations.values())
        self._legal = np.zeros_like(legal[0]) if over else legal[0].copy()
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.agents and not over:
            self.infos[self.agent_selection] = {
                "winning_mask": winning[0].copy(),
                "outcome": "P" if p[0] else "N",
            }

    def observe(self, agent: str) -> dict[str, Any]:
        mask = self._legal if agent == self.agent_selection else np.zeros_like(self._legal)
        return {"observation": np.array(self._obs, copy=True), "action_mask": mask.copy()}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or not self._seeded:
            seed = int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])
            self._seeded = True
        self._games.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()
        self._look(True)

    def step(self, action: Any) -> None:
        if not hasattr(self, "agent_selection"):
            raise _core.IllegalMoveError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rewards, terminated = self._games.step(np.array([_action(action)], np.int64))
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        if terminated[0]:
            other = self.possible_agents[1 - self.possible_agents.index(agent)]
            self.rewards[agent] = int(rewards[0])
            self.rewards[other] = -int(rewards[0])
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()
        self._look(False)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._games.render()

    def close(self) -> None:
        pass


class NimAEC(_TwoAgents):
    """Nim for two agents, ``player_0`` (moves first) and ``player_1``, as a
    PettingZoo ``AECEnv``.

    Each observation is a dict of ``observation`` (encoded as ``NimEnv``'s) and
    ``action_mask`` (int8: the legal actions, all zero for the agent not to move);
    ``infos[agent]`` holds ``winning_mask`` and ``outcome`` for the agent to move.
    The winner gets +1 and the loser -1 when the game ends; an illegal action loses.

    >>> env = NimAEC(heaps=[1, 3, 5, 7], misere=True)
    >>> env.reset(seed=0)
    >>> env.agent_selection, env.observe("player_0")["action_mask"].sum()
    ('player_0', np.int64(16))
    """

    def __init__(
        self,
        heaps: Heaps = (1, 3, 5, 7),
        *,
        rules: Rules | None = None,
        misere: bool | None = None,
        observation: str = "heaps",
        history: int = 1,
        render_mode: str | None = None,
        max_positions: int = DEFAULT_MAX_POSITIONS,
    ) -> None:
        games = _Games.of_heaps(
            1, heaps, rules, misere, None, False, observation, history, max_positions
        )
        super().__init__(games, render_mode)
        self.rules = games.rules


class GameAEC(_TwoAgents):
    """Node Kayles, Arc Kayles or Cram from ``game``'s position for two agents, as
    ``NimAEC`` plays Nim; observations and actions are ``GameEnv``'s.

    >>> import nimkit as nk
    >>> env = GameAEC(nk.Cram(2, 3), misere=True)
    >>> env.reset(seed=0)
    >>> int(env.observe("player_0")["action_mask"].sum()), env.infos["player_0"]["outcome"]
    (7, 'P')
    """

    metadata: ClassVar[dict[str, Any]] = {**_TwoAgents.metadata, "name": "nimkit_game_v0"}

    def __init__(
        self,
        game: Any,
        *,
        misere: bool = False,
        history: int = 1,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(_Games.of_game(1, game, misere, None, False, history), render_mode)
        self.game, self.misere = game, misere
