"""A Gymnasium environment: one seat of a Liverpool game against native bots,
registered as ``Liverpool-v0`` (``import liverpool.agents.envs`` first).

The agent plays ``agent_seat``; the other seats are native bots (``opponents``:
one name for all, or one per other seat: ``"greedy"``, ``"random"``, ``"expert"``
where the engine has it), seeded from the game's seed. ``reset`` and ``step``
return the agent's observation whenever it must decide: the bots' moves in
between are played inside ``step``. Observation, action ids and rewards are those
of the AEC environment (:mod:`liverpool.agents.envs.aec`) for the agent's seat:

- observation ``{"observation": float32, "action_mask": int8}``; the mask is also
  ``info["action_mask"]`` and ``env.action_masks()`` (for mask-aware learners), and
  ``info["legal_actions"]`` names the legal ids;
- ``reward="round"``: minus the agent's round score at each round end (bots'
  rounds included, since their moves happen inside ``step``); ``"ranking"``:
  (higher − lower totals) / (players − 1) when the game ends (L-10.3);
  ``reward_scale`` multiplies every reward (e.g. ``0.01``: a round then costs at
  most a few units);
- ``terminated`` when the game is over (``info["totals"]``, ``info["winners"]``);
  ``truncated`` after ``max_steps`` agent steps (default: none). A ``step`` after
  the end raises ``IllegalMoveError`` (code ``game_over``): call ``reset``; after
  ``close()``, ``reset`` and ``step`` raise ``LiverpoolError`` (``env_closed``).

**Illegal actions.** An id that the mask rules out is refused by the engine and
changes nothing: with ``illegal_action="penalize"`` (default) the step returns the
same observation, ``illegal_reward`` (-1.0), not terminated, and
``info["illegal_action"] = True``; with ``"raise"`` the engine's error is raised.
(``gymnasium.utils.env_checker.check_env`` samples unmasked random ids, so the
default keeps such checks and naive agents running.) A value that is not an
integer id (``0.7``, ``inf``, ``"0"``, ``b"1"``, ``True``) raises
``InvalidArgumentError`` (``invalid_argument``) in both modes, and so does an
integer outside ``0..size-1`` (``invalid_action_id``): no state has such an id.

>>> import gymnasium as gym
>>> import liverpool.agents.envs
>>> env = gym.make("Liverpool-v0", players=3)
>>> obs, info = env.reset(seed=3)
>>> bool(obs["action_mask"].any())
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, SupportsFloat, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from liverpool._core import GameState, NativeBot, RuleSet, game_seeds
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
    game_over_error,
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


class LiverpoolEnv(gym.Env[Observation, np.int64]):
    """One agent seat against native bots (see the module's docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        rules: RuleSet | str | os.PathLike[str] | None = None,
        players: int | None = None,
        agent_seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        reward: RewardMode = "round",
        illegal_action: IllegalMode = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        reward_scale: float = 1.0,
        max_steps: int | None = None,
    ) -> None:
        check_choice("reward", reward, REWARD_MODES)
        check_choice("illegal_action", illegal_action, ILLEGAL_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.rules = resolve_rules(rules)
        self.players = self.rules.default_players if players is None else check_int("players", players, 1)
        self.agent_seat = check_int("agent_seat", agent_seat, 0, self.players - 1)
        others = self.players - 1
        if isinstance(opponents, str):
            names = [opponents] * others
        elif isinstance(opponents, Sequence) and all(isinstance(n, str) for n in opponents):
            names = list(opponents)
        else:
            raise InvalidArgumentError(
                f"opponents must be a bot name or a list of names, not {opponents!r}", "invalid_argument"
            )
        if len(names) != others:
            raise InvalidArgumentError(
                f"{len(names)} opponents for {others} other seats: give one name or one per other seat",
                "invalid_argument",
            )
        for name in names:
            NativeBot(name)  # the engine refuses an unknown bot name now, not mid-game
        self.opponents = names
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_reward = check_float("illegal_reward", illegal_reward)
        self.reward_scale = check_float("reward_scale", reward_scale)
        self.max_steps = None if max_steps is None else check_int("max_steps", max_steps, 1)
        self.render_mode = render_mode
        self.state: GameState = new_state(self.rules, self.players, 0)
        self.observation_space = cast(spaces.Space[Observation], observation_space(self.state))
        self.action_space = spaces.Discrete(self.state.action_space_size)
        self.action_names = names_of(self.rules, self.players)
        self.bots: dict[int, NativeBot] = {}
        self.frame_rows = frame_rows(self.rules, self.players)
        self.game_seed = 0
        self.steps = 0
        self._needs_reset = True
        self._closed = False

    def _bot_seats(self) -> list[int]:
        return [seat for seat in range(self.players) if seat != self.agent_seat]

    def _play_bots(self) -> float:
        """Native bots move until the agent must decide or the game ends; the agent's
        round-score rewards meanwhile."""
        reward = 0.0
        while (seat := self.state.to_act) is not None and seat != self.agent_seat:
            event = self.state.apply(seat, self.bots[seat].choose(self.state, seat))
            if self.reward_mode == "round":
                reward += round_rewards(event, self.players)[self.agent_seat]
        return reward

    def _info(self) -> dict[str, Any]:
        mask = self.state.legal_action_mask(self.agent_seat)
        info: dict[str, Any] = {
            "action_mask": mask.astype(np.int8),
            "legal_actions": legal_names(mask, self.action_names),
        }
        if self.state.is_game_over:
            info["totals"] = self.state.totals
            info["winners"] = self.state.winners
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal action ids of the agent now (bool), for mask-aware learners."""
        mask: npt.NDArray[np.bool_] = self.state.legal_action_mask(self.agent_seat)
        return mask

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        if self._closed:
            raise closed_error()
        super().reset(seed=check_seed(seed))
        self.game_seed = int(self.np_random.integers(SEED_BOUND))
        self.state = new_state(self.rules, self.players, self.game_seed)
        _, bot_seeds = game_seeds(self.game_seed, 0, self.players)
        names = iter(self.opponents)
        self.bots = {seat: NativeBot(next(names), seed=bot_seeds[seat]) for seat in self._bot_seats()}
        self.steps = 0
        self._needs_reset = False
        # A game can open with the bots' moves (the cut, when the agent is not the cutter).
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        return observe(self.state, self.agent_seat), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._closed:
            raise closed_error()
        if self._needs_reset or self.state.is_game_over:
            raise game_over_error()
        action_id = action_arg(action, self.state.action_space_size)
        self.steps += 1
        truncated = self.max_steps is not None and self.steps >= self.max_steps
        try:
            event = self.state.apply_id(self.agent_seat, action_id)
        except LiverpoolError:
            if self.illegal_action == "raise":
                raise
            info = self._info()
            info["illegal_action"] = True
            self._needs_reset = truncated
            return observe(self.state, self.agent_seat), self.illegal_reward, False, truncated, info
        reward = 0.0
        if event is not None and self.reward_mode == "round":
            reward = round_rewards(event, self.players)[self.agent_seat]
        reward += self._play_bots()
        terminated = self.state.is_game_over
        if terminated and self.reward_mode == "ranking":
            reward = ranking_rewards(self.state.totals)[self.agent_seat]
        truncated = truncated and not terminated
        self._needs_reset = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return observe(self.state, self.agent_seat), reward * self.reward_scale, terminated, truncated, self._info()

    def render(self) -> Any:
        """``"ansi"``: the agent's information state (``information_state_string``) as
        text; ``"human"``: the same, printed; ``"rgb_array"``: that text drawn as an RGB
        image (``uint8 (height, width, 3)``)."""
        if self.render_mode is None:
            return None
        text = self.state.information_state_string(self.agent_seat)
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
