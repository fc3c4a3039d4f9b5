"""A Gymnasium vector environment over the native :class:`liverpool.VecEnv`.

``LiverpoolVectorEnv(num_envs, ...)`` is a ``gymnasium.vector.VectorEnv`` of
``num_envs`` games stepped together in Rust: one agent seat per game against native
bots (``opponents``), like ``Liverpool-v0`` but batched and without a Python object
per game per step.

- Observations are ``{"observation": float32 (n, obs_size), "action_mask": int8
  (n, size)}`` in ``observation_space`` (the batch of ``single_observation_space``,
  the spaces of ``Liverpool-v0``), **new arrays every call** (the native arrays are
  reused by the next step, and learners keep references); ``action_masks()`` gives
  the bool mask (for ``MaskablePPO``-style learners).
- Rewards are the agent seat's column of the native rewards (minus its round scores,
  L-10), times ``reward_scale``.
- Autoreset is Gymnasium's *same-step* mode (``metadata["autoreset_mode"]``): a game
  that ends reports ``terminated`` and the row returned is already the next game's;
  the finished game's last observation is ``infos["final_obs"][i]`` (with
  ``infos["_final_obs"]`` marking those rows) and its info
  ``infos["final_info"]`` (``{"totals": ..., "_totals": ...}``: each finished game's
  final totals), as ``gymnasium.vector.SyncVectorEnv`` lays them out. ``truncated``
  is always False: the engine's turn cap (L-9.3) ends every round, and an illegal id
  is refused, so no game can stall.
- Actions: one integer id per game, shape ``(num_envs,)`` (a go-down or a swap takes
  several steps of its row, docs/action-space.md). Floats, bools, strings, ragged
  lists and other shapes are refused (``InvalidArgumentError``, ``invalid_argument``),
  ids outside the space too (``invalid_action_id``), and an illegal id refuses the
  whole step (``invalid_action_id``, naming the game): nothing changes.
- ``render_mode="ansi"`` or ``"rgb_array"``: ``render()`` gives one frame per game
  (the agent's information state, as ``Liverpool-v0`` renders it).
- ``reset(seed=s)`` seeds every game (game ``i`` of episode ``k`` from ``(s, i, k)``);
  a list of seeds is accepted in Gymnasium's form for one integer,
  ``[s, s + 1, …, s + n - 1]`` (or all ``None``). ``step`` before ``reset`` raises
  ``IllegalMoveError`` (``game_over``); after ``close()``, ``reset`` and ``step``
  raise ``LiverpoolError`` (``env_closed``).

>>> envs = LiverpoolVectorEnv(2, players=4, seed=0, threads=1)
>>> obs, info = envs.reset(seed=1)
>>> obs["observation"].shape == (2, envs.single_observation_space["observation"].shape[0])
True
>>> obs, rewards, terminated, truncated, info = envs.step(envs.native.sample_actions(0))
>>> envs.observation_space.contains(obs)
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from liverpool._core import RuleSet, VecEnv
from liverpool.agents.envs._common import (
    actions_arg,
    check_choice,
    check_float,
    check_int,
    check_seed,
    closed_error,
    frame_rows,
    game_over_error,
    new_state,
    observation_space,
    render_rgb,
    resolve_rules,
)
from liverpool.errors import InvalidArgumentError

Observation = dict[str, npt.NDArray[Any]]


def vector_seed(seed: object, num_envs: int) -> int | None:
    """The one seed of the native games from ``reset``'s ``seed``: ``None``, an
    integer, or a list in Gymnasium's form for one integer (``[s, s + 1, …]``, or all
    ``None``); anything else is ``InvalidArgumentError`` (the games are seeded together
    from one integer, never one by one)."""
    if not isinstance(seed, (list, tuple)):
        return check_seed(seed)
    if len(seed) != num_envs:
        raise InvalidArgumentError(f"{len(seed)} seeds for {num_envs} games", "invalid_argument")
    if all(s is None for s in seed):
        return None
    first = check_seed(seed[0])
    if first is None or [check_seed(s) for s in seed] != list(range(first, first + num_envs)):
        raise InvalidArgumentError(
            "the games are seeded together from one integer: give seed=s or [s, s + 1, ...], not " + repr(seed),
            "invalid_argument",
        )
    return first


class LiverpoolVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of one agent seat against native bots (see the module's docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi", "rgb_array"]}

    def __init__(
        self,
        num_envs: int,
        rules: RuleSet | str | os.PathLike[str] | None = None,
        players: int | None = None,
        agent_seat: int = 0,
        opponents: str = "greedy",
        seed: int | None = None,
        threads: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None:
            check_choice("render_mode", render_mode, ("ansi", "rgb_array"))
        self.render_mode = render_mode
        self.rules = resolve_rules(rules)
        self.players = self.rules.default_players if players is None else check_int("players", players, 1)
        self.agent_seat = check_int("agent_seat", agent_seat, 0, self.players - 1)
        self.reward_scale = check_float("reward_scale", reward_scale)
        if not isinstance(opponents, str):
            raise InvalidArgumentError(f"opponents must be a native bot's name, not {opponents!r}", "invalid_argument")
        self.opponents = opponents
        self.native = VecEnv(
            num_envs,
            rules=self.rules,
            players=self.players,
            seed=check_seed(seed),
            opponents=opponents,
            agent_seat=self.agent_seat,
            threads=threads,
        )
        self.num_envs = self.native.num_envs
        self.action_space_size = self.native.action_space_size
        probe = new_state(self.rules, self.players, 0)
        self.single_observation_space = observation_space(probe)
        self.single_action_space = spaces.Discrete(self.action_space_size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask: npt.NDArray[np.bool_] = np.zeros((self.num_envs, self.action_space_size), dtype=np.bool_)
        self._needs_reset = True
        self.frame_rows = frame_rows(self.rules, self.players)

    def _observation(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> Observation:
        self._mask = mask.copy()
        return {"observation": obs.copy(), "action_mask": mask.astype(np.int8)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """bool ``(num_envs, size)``: the legal ids of every game's agent now (a copy)."""
        return self._mask.copy()

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """New games everywhere; ``seed`` replaces the seed of every game (game ``i``
        of episode ``k`` is seeded from ``(seed, i, k)``). No options are read."""
        if self.closed:
            raise closed_error()
        if options is not None and not isinstance(options, dict):
            raise InvalidArgumentError(f"options must be a dict or None, not {options!r}", "invalid_argument")
        obs, mask = self.native.reset(vector_seed(seed, self.num_envs))
        self._needs_reset = False
        return self._observation(obs, mask), {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Observation, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        if self.closed:
            raise closed_error()
        if self._needs_reset:
            raise game_over_error()
        ids = actions_arg(actions, self.num_envs, self.action_space_size)
        obs, mask, rewards, terminated, truncated = self.native.step(ids)
        reward = rewards[:, self.agent_seat].astype(np.float64) * self.reward_scale
        done = terminated.copy()
        infos: dict[str, Any] = {}
        if done.any():
            final = self.native.final_observations
            final_obs = np.full(self.num_envs, None, dtype=object)
            totals = np.full(self.num_envs, None, dtype=object)
            last = self.native.last_totals
            for i in np.flatnonzero(done):
                final_obs[i] = {"observation": final[i].copy(), "action_mask": np.zeros(mask.shape[1], dtype=np.int8)}
                totals[i] = last[i].tolist()
            infos["final_obs"] = final_obs
            infos["_final_obs"] = done.copy()
            infos["final_info"] = {"totals": totals, "_totals": done.copy()}
            infos["_final_info"] = done.copy()
        return self._observation(obs, mask), reward, done, truncated.copy(), infos

    def render(self) -> tuple[Any, ...] | None:
        """One frame per game, of the agent's information state
        (``information_state_string``): text for ``render_mode="ansi"``, an RGB array
        of one size for ``"rgb_array"`` (as ``Liverpool-v0`` draws it); ``None``
        without a render mode. Each frame copies its game out of Rust: for videos
        and debugging, not for every training step."""
        if self.render_mode is None:
            return None
        texts = [self.native.game(i).information_state_string(self.agent_seat) for i in range(self.num_envs)]
        if self.render_mode == "ansi":
            return tuple(texts)
        return tuple(render_rgb(text, self.frame_rows) for text in texts)

    def close_extras(self, **kwargs: Any) -> None:
        pass
