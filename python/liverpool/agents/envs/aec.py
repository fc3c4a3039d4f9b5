"""A PettingZoo AEC environment: every seat of a Liverpool game is an agent.

Agents are ``"player_0"`` … ``"player_{n-1}"`` (seat numbers). The agent to act is
always the seat the engine waits for (``GameState.to_act``): the cutter, the
active player, a seat in a buying window, the next dealer; one seat may act
several times in a row (a go-down takes several ids, docs/action-space.md). Each
observation is a dict:

- ``"observation"``: ``GameState.observation_tensor(seat)``, float32 (the seat's
  own view: its hand, never another's; docs/action-space.md, "Observation");
- ``"action_mask"``: ``GameState.legal_action_mask(seat)`` as int8, 1 for every
  legal action id (all zeros for a seat that has no decision to make).

Actions are the ids of the engine's fixed action space (``Discrete(size)``); the
acting agent's ``info["legal_actions"]`` names its legal ids. Rewards:
``reward="round"`` (default) gives every seat minus its round score when a round
ends (L-10.1, L-10.2; the cut bonus counts), so an episode's return is minus the
final total; ``reward="ranking"`` gives nothing until the game ends, then each seat
(higher − lower totals) / (players − 1) (L-10.3). ``reward_scale`` multiplies
every reward. The game ends after its last round: every agent is then terminated.
``max_steps`` (default none) truncates every agent after that many steps.

An illegal id (masked out) changes nothing in the game — the engine refuses it —
and, by default (``illegal_action="penalize"``), gives the acting agent
``illegal_reward`` (-1.0) with ``info["illegal_action"] = True``; the same agent
acts again. ``illegal_action="raise"`` raises the engine's
``IllegalMoveError``/``InvalidArgumentError`` instead. A value that is not an
integer id (``0.7``, ``"0"``, ``b"1"``, ``True``, ``None`` for a live agent) raises
``InvalidArgumentError`` (``invalid_argument``) in both modes, and so does an
integer outside ``0..size-1`` (``invalid_action_id``). After ``close()``, ``reset``
and ``step`` raise ``LiverpoolError`` with code ``env_closed``.

:func:`env` wraps :func:`raw_env` in PettingZoo's ``OrderEnforcingWrapper`` (the
classic games' convention).

>>> from liverpool.agents.envs import aec_env
>>> env = aec_env(players=3, seed=1)
>>> env.reset(seed=7)
>>> env.agent_selection in env.agents
True
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from liverpool._core import GameState, RuleSet
from liverpool.agents.envs._common import (
    ILLEGAL_MODES,
    RENDER_MODES,
    REWARD_MODES,
    SEED_BOUND,
    IllegalMode,
    RewardMode,
    action_arg,
    check_choice,
    check_float,
    check_int,
    check_seed,
    closed_error,
    frame_rows,
    legal_names,
    names_of,
    new_state,
    observation_space,
    observe,
    ranking_rewards,
    render_rgb,
    resolve_rules,
    round_rewards,
)
from liverpool.errors import InvalidArgumentError, LiverpoolError

Observation = dict[str, npt.NDArray[Any]]


class LiverpoolAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """Liverpool for several agents, one per seat (see the module's docstring)."""

    metadata = {
        "name": "liverpool_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        rules: RuleSet | str | os.PathLike[str] | None = None,
        players: int | None = None,
        seed: int | None = None,
        reward: RewardMode = "round",
        illegal_action: IllegalMode = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        reward_scale: float = 1.0,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        check_choice("reward", reward, REWARD_MODES)
        check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.rules = resolve_rules(rules)
        self.players = self.rules.default_players if players is None else check_int("players", players, 1)
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_reward = check_float("illegal_reward", illegal_reward)
        self.reward_scale = check_float("reward_scale", reward_scale)
        self.max_steps = None if max_steps is None else check_int("max_steps", max_steps, 1)
        self.render_mode = render_mode
        self._rng = np.random.default_rng(check_seed(seed))
        # A state to size the spaces (and to refuse a bad table size now).
        self.state: GameState = new_state(self.rules, self.players, 0)
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        obs_space = observation_space(self.state)
        act_space = spaces.Discrete(self.state.action_space_size)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: act_space for agent in self.possible_agents}
        self.action_names = names_of(self.rules, self.players)
        self.frame_rows = frame_rows(self.rules, self.players)
        self.game_seed = 0
        self.steps = 0
        self._closed = False

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
        if self._closed:
            raise closed_error()
        if seed is not None:
            self._rng = np.random.default_rng(check_seed(seed))
        self.game_seed = int(self._rng.integers(SEED_BOUND))
        self.state = new_state(self.rules, self.players, self.game_seed)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select_to_act()
        if self.render_mode == "human":
            self.render()

    def _select_to_act(self) -> None:
        to_act = self.state.to_act
        if to_act is not None:
            self.agent_selection = self.possible_agents[to_act]
            mask = self.state.legal_action_mask(to_act)
            self.infos[self.agent_selection]["legal_actions"] = legal_names(mask, self.action_names)

    def observe(self, agent: str) -> Observation:
        return observe(self.state, self.seat_of(agent))

    def step(self, action: int | None) -> None:
        if self._closed:
            raise closed_error()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidArgumentError(f"{agent} must act: None is only for a terminated agent", "invalid_argument")
        action_id = action_arg(action, self.state.action_space_size)
        seat = self.seat_of(agent)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps += 1
        try:
            event = self.state.apply_id(seat, action_id)
        except LiverpoolError:
            if self.illegal_action == "raise":
                raise
            # Refused: the game is unchanged and the same seat acts again.
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": True}
            event = None
        if event is not None and self.reward_mode == "round":
            for a, r in zip(self.agents, round_rewards(event, self.players)):
                self.rewards[a] = r * self.reward_scale
        if self.state.is_game_over:
            if self.reward_mode == "ranking":
                for a, r in zip(self.agents, ranking_rewards(self.state.totals)):
                    self.rewards[a] = r * self.reward_scale
            self.terminations = {a: True for a in self.agents}
            for a in self.agents:
                self.infos[a] = {"totals": self.state.totals, "winners": self.state.winners}
        else:
            if self.max_steps is not None and self.steps >= self.max_steps:
                self.truncations = {a: True for a in self.agents}
            self._select_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """``"ansi"``: the seat to act's information state (``information_state_string``)
        as text; ``"human"``: the same, printed; ``"rgb_array"``: that text drawn as an
        RGB image (``uint8 (height, width, 3)``)."""
        if self.render_mode is None:
            return None
        seat = self.state.to_act if self.state.to_act is not None else 0
        text = self.state.information_state_string(seat)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
            return None
        return render_rgb(text, self.frame_rows)

    def close(self) -> None:
        """After ``close`` (which may be called again), ``reset`` and ``step`` raise
        ``LiverpoolError`` with code ``env_closed``."""
        self._closed = True


def raw_env(**kwargs: Any) -> LiverpoolAECEnv:
    """The environment itself (keyword arguments as :class:`LiverpoolAECEnv`'s)."""
    return LiverpoolAECEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """:func:`raw_env` in PettingZoo's ``OrderEnforcingWrapper``, as the classic games
    ship (``step`` before ``reset`` is refused; attribute access checked)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def aec_env(**kwargs: Any) -> LiverpoolAECEnv:
    """A :class:`LiverpoolAECEnv` (keyword arguments as its constructor's)."""
    return LiverpoolAECEnv(**kwargs)
