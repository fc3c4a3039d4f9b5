"""A Gymnasium vector environment over the native :class:`liverpool.VecEnv`.

``LiverpoolVectorEnv(num_envs, ...)`` is a ``gymnasium.vector.VectorEnv`` of
``num_envs`` games stepped together in Rust: one agent seat per game against native
bots (``opponents``), like ``Liverpool-v0`` but batched and without a Python object
per game per step.

- Observations are ``{"observation": float32 (n, obs_size), "action_mask": int8
  (n, size)}``, **copies** (the native arrays are reused by the next step, and
  learners keep references); ``action_masks()`` gives the bool mask (for
  ``MaskablePPO``-style learners).
- Rewards are the agent seat's column of the native rewards (minus its round scores,
  L-10), times ``reward_scale``.
- Autoreset is Gymnasium's *same-step* mode: a game that ends reports
  ``terminated`` and the row returned is already the next game's; the finished
  game's last observation is ``infos["final_obs"][i]`` (with ``infos["_final_obs"]``
  marking those rows) and its totals ``infos["final_info"]["totals"][i]``.
- Actions: one integer id per game (a go-down or a swap takes several steps of its
  row, docs/action-space.md); floats, bools and strings are refused
  (``InvalidArgumentError``) and an illegal id refuses the whole step, nothing
  changed.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from liverpool._core import RuleSet, VecEnv
from liverpool.agents.envs._common import check_float, check_int, observation_space, new_state, resolve_rules

Observation = dict[str, npt.NDArray[Any]]


class LiverpoolVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of one agent seat against native bots (see the module's docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

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
    ) -> None:
        self.rules = resolve_rules(rules)
        self.players = self.rules.default_players if players is None else check_int("players", players, 1)
        self.agent_seat = check_int("agent_seat", agent_seat, 0, self.players - 1)
        self.reward_scale = check_float("reward_scale", reward_scale)
        self.native = VecEnv(
            num_envs,
            rules=self.rules,
            players=self.players,
            seed=seed,
            opponents=opponents,
            agent_seat=self.agent_seat,
            threads=threads,
        )
        self.num_envs = self.native.num_envs
        probe = new_state(self.rules, self.players, 0)
        self.single_observation_space = observation_space(probe)
        self.single_action_space = spaces.Discrete(self.native.action_space_size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask: npt.NDArray[np.bool_] = np.zeros((self.num_envs, self.native.action_space_size), dtype=np.bool_)

    def _observation(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> Observation:
        self._mask = mask.copy()
        return {"observation": obs.copy(), "action_mask": mask.astype(np.int8)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """bool ``(num_envs, size)``: the legal ids of every game's agent now (a copy)."""
        return self._mask.copy()

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """New games everywhere; ``seed`` (an integer) replaces the seed of every game
        (game ``i`` of episode ``k`` is seeded from ``(seed, i, k)``)."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        obs, mask = self.native.reset(None if seed is None else check_int("seed", seed, 0))
        return self._observation(obs, mask), {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Observation, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        obs, mask, rewards, terminated, truncated = self.native.step(actions)
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

    def close_extras(self, **kwargs: Any) -> None:
        pass
