"""A PettingZoo AEC environment: two agents take turns on one board."""

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


class NimAEC(AECEnv):  # type: ignore[misc]
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

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "nim_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

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
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self._games = _Games(
            1, heaps, rules, misere, None, False, observation, history, max_positions
        )
        self.rules = self._games.rules
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        actions = self._games.board.actions
        mask = spaces.Box(0, 1, (actions,), np.int8)
        obs = spaces.Dict({"observation": self._games.encoder.space(), "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
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
        return " ".join(str(n) for n in self._games.core.observe()[0].tolist())

    def close(self) -> None:
        pass
