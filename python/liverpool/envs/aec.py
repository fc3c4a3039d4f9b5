"""A PettingZoo AEC environment: every seat of a Liverpool game is an agent.

Agents are ``"player_0"`` … ``"player_{n-1}"`` (seat numbers). The agent to act is
always the seat the engine waits for (``GameState.to_act``): the cutter, the
active player, a seat in a buying window, the next dealer; one seat may act
several times in a row. Each observation is a dict:

- ``"observation"``: ``GameState.observation_tensor(seat)``, float32 (the seat's
  own view: its hand, never another's; docs/action-space.md, "Observation");
- ``"action_mask"``: ``GameState.legal_action_mask(seat)`` as int8, 1 for every
  legal action id (all zeros for a seat that has no decision to make).

Actions are the ids of the engine's fixed action space (``Discrete(size)``).
Rewards: ``reward="round"`` (default) gives every seat minus its round score
when a round ends (L-10.1, L-10.2; the cut bonus counts), so an episode's return
is minus the final total; ``reward="ranking"`` gives nothing until the game ends,
then each seat (higher − lower totals) / (players − 1) (L-10.3). The game ends
after its last round: every agent is then terminated. No truncation.

An illegal id (masked out) changes nothing in the game — the engine refuses it —
and, by default (``illegal_action="penalize"``), gives the acting agent
``illegal_reward`` (-1.0) with ``info["illegal_action"] = True``; the same agent
acts again. ``illegal_action="raise"`` raises the engine's
``IllegalMoveError``/``InvalidArgumentError`` instead.

>>> from liverpool.envs import aec_env
>>> env = aec_env(players=3, seed=1)
>>> env.reset(seed=7)
>>> env.agent_selection in env.agents
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from liverpool._core import GameState, RuleSet
from liverpool.envs._common import (
    ILLEGAL_MODES,
    REWARD_MODES,
    SEED_BOUND,
    IllegalMode,
    RewardMode,
    check_choice,
    new_state,
    observation_space,
    observe,
    ranking_rewards,
    resolve_rules,
    round_rewards,
)
from liverpool.errors import InvalidArgumentError, LiverpoolError

Observation = dict[str, npt.NDArray[Any]]


class LiverpoolAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """Liverpool for several agents, one per seat (see the module's docstring)."""

    metadata = {"name": "liverpool_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        rules: RuleSet | str | None = None,
        players: int | None = None,
        seed: int | None = None,
        reward: RewardMode = "round",
        illegal_action: IllegalMode = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        check_choice("reward", reward, REWARD_MODES)
        check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, ("ansi",))
        self.rules = resolve_rules(rules)
        self.players = self.rules.default_players if players is None else players
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._rng = np.random.default_rng(seed)
        # A state to size the spaces (and to refuse a bad table size now).
        self.state: GameState = new_state(self.rules, self.players, 0)
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        obs_space = observation_space(self.state)
        act_space = spaces.Discrete(self.state.action_space_size)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: act_space for agent in self.possible_agents}
        self.game_seed = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        space: spaces.Space[Any] = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        space: spaces.Space[Any] = self.action_spaces[agent]
        return space

    @staticmethod
    def seat_of(agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seeded by ``seed`` when given, else by the environment's generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game_seed = int(self._rng.integers(SEED_BOUND))
        self.state = new_state(self.rules, self.players, self.game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select_to_act()

    def _select_to_act(self) -> None:
        to_act = self.state.to_act
        if to_act is not None:
            self.agent_selection = self.possible_agents[to_act]

    def observe(self, agent: str) -> Observation:
        return observe(self.state, self.seat_of(agent))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of(agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        try:
            if action is None:
                raise InvalidArgumentError(f"{agent} must act: None is only for a terminated agent", "invalid_argument")
            event = self.state.apply_id(seat, int(action))
        except (LiverpoolError, TypeError, ValueError):
            if self.illegal_action == "raise":
                raise
            # Refused: the game is unchanged and the same seat acts again.
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        if self.reward_mode == "round":
            for a, r in zip(self.agents, round_rewards(event, self.players)):
                self.rewards[a] = r
        if self.state.is_game_over:
            if self.reward_mode == "ranking":
                for a, r in zip(self.agents, ranking_rewards(self.state.totals)):
                    self.rewards[a] = r
            self.terminations = {a: True for a in self.agents}
            for a in self.agents:
                self.infos[a] = {"totals": self.state.totals, "winners": self.state.winners}
        else:
            self._select_to_act()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return repr(self.state)
        return None

    def close(self) -> None:
        pass


def aec_env(**kwargs: Any) -> LiverpoolAECEnv:
    """A :class:`LiverpoolAECEnv` (keyword arguments as its constructor's)."""
    return LiverpoolAECEnv(**kwargs)
