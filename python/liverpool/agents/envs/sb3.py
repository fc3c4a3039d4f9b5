"""A stable-baselines3 ``VecEnv`` over the native :class:`liverpool.VecEnv` (the
``rl`` extra installs stable-baselines3 and sb3-contrib).

:class:`LiverpoolSB3VecEnv` (``sb3_vec_env(num_envs, ...)`` makes one) takes the
arguments of :class:`liverpool.agents.envs.vector.LiverpoolVectorEnv` and follows SB3's
conventions, so SB3's algorithms and ``VecEnv`` wrappers (``VecMonitor``,
``VecNormalize``, ``VecCheckNan``, ``VecFrameStack``, …) take it as it is:

- a ``Box`` observation (the observation tensor; its ``high`` is each entry's bound,
  docs/action-space.md) and a ``Discrete`` action of the fixed action space;
- ``action_masks()`` and ``env_method("action_masks")`` give the legal ids (bool
  ``(num_envs, size)``), what sb3-contrib's ``MaskablePPO`` reads;
- ``dones = terminated | truncated``; the finished game's last observation in
  ``infos[i]["terminal_observation"]``, its totals in ``infos[i]["totals"]``, and
  ``infos[i]["TimeLimit.truncated"]`` (always False: every game ends, L-9.3);
- every array returned is new (SB3's rollout buffer keeps references);
- ``seed(s)`` (SB3 gives game ``i`` the seed ``s + i``; the native games are seeded
  together from ``s``) takes effect at the next ``reset()``;
- ``render_mode="rgb_array"``: ``render()`` tiles every game's frame (SB3's own
  tiling), and ``VecVideoRecorder`` can record them.

Actions are validated before any game moves: an integer array of shape
``(num_envs,)`` with ids in the space, each legal in its game (else
``InvalidArgumentError``, codes ``invalid_argument`` / ``invalid_action_id``);
after ``close()``, ``reset`` and ``step`` raise ``LiverpoolError`` (``env_closed``).

>>> venv = sb3_vec_env(2, seed=0, threads=1)
>>> obs = venv.reset()
>>> obs.shape == (2,) + venv.observation_space.shape
True
>>> obs, rewards, dones, infos = venv.step(venv.vector.native.sample_actions(0))
>>> venv.action_masks().shape == (2, venv.action_space.n)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvStepReturn
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("liverpool.agents.envs.sb3 needs stable-baselines3: pip install 'liverpool-rummy[rl]'") from exc

from gymnasium import spaces

from liverpool.agents.envs._common import actions_arg, check_seed, closed_error, game_over_error
from liverpool.agents.envs.vector import LiverpoolVectorEnv
from liverpool.errors import InvalidArgumentError

Indices = None | int | Iterable[int]


class LiverpoolSB3VecEnv(VecEnv):
    """``num_envs`` Liverpool games (one agent seat against native bots each) as one
    SB3 ``VecEnv``; keyword arguments as :class:`LiverpoolVectorEnv`'s."""

    def __init__(self, num_envs: int, **kwargs: Any) -> None:
        self.vector = LiverpoolVectorEnv(num_envs, **kwargs)
        # Read by VecEnv.__init__ through get_attr; SB3 renders rgb_array frames (tiled).
        self.render_mode: str | None = self.vector.render_mode
        single = self.vector.single_observation_space
        assert isinstance(single, spaces.Dict)
        box = single["observation"]
        super().__init__(self.vector.num_envs, box, self.vector.single_action_space)
        self._actions: npt.NDArray[np.int64] | None = None
        self._started = False

    def _check_open(self) -> None:
        if self.vector.closed:
            raise closed_error()

    def reset(self) -> npt.NDArray[np.float32]:
        """New games everywhere, seeded by the last ``seed()`` (then forgotten, as SB3's
        own ``VecEnv`` do) or else by the games' generator."""
        self._check_open()
        obs, _ = self.vector.reset(seed=self._seeds[0])
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._actions = None
        self._started = True
        observation: npt.NDArray[np.float32] = obs["observation"]
        return observation

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds the games at the next ``reset()`` (a non-negative integer; ``None``
        draws one)."""
        checked = check_seed(seed)
        if checked is not None and checked + self.num_envs > 2**64 - 1:
            raise InvalidArgumentError(f"seed must be below 2**64 - {self.num_envs}, not {checked}", "invalid_argument")
        return super().seed(checked)

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        """Checks ``actions`` (an integer array ``(num_envs,)`` of ids in the space) at
        once; ``step_wait`` plays them."""
        self._check_open()
        if not self._started:
            raise game_over_error()
        self._actions = actions_arg(actions, self.num_envs, self.vector.action_space_size)

    def step_wait(self) -> VecEnvStepReturn:
        self._check_open()
        if self._actions is None:
            raise InvalidArgumentError("step_wait() without step_async(actions) first", "invalid_argument")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, info = self.vector.step(actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]["observation"]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            infos[i]["totals"] = info["final_info"]["totals"][i]
        return obs["observation"], reward.astype(np.float32), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """bool ``(num_envs, size)``: every game's legal ids now."""
        return self.vector.action_masks()

    def close(self) -> None:
        self.vector.close()

    def get_images(self) -> Sequence[npt.NDArray[Any] | None]:
        """Every game's frame (``render_mode="rgb_array"``; SB3's ``render()`` tiles
        them, ``VecVideoRecorder`` records them), else ``None`` for each."""
        if self.vector.render_mode != "rgb_array":
            return [None for _ in range(self.num_envs)]
        frames = self.vector.render()
        assert frames is not None
        return list(frames)

    def _indices(self, indices: Indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """An attribute of the games (they share one: the vector environment's, or
        this adapter's ``render_mode``); ``AttributeError`` for an unknown one."""
        source = self if attr_name == "render_mode" else self.vector
        value = getattr(source, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        """Sets an attribute of the vector environment, which all games share."""
        setattr(self.vector, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any) -> list[Any]:
        """``"action_masks"``: one mask row per game asked; any other method of the
        vector environment is called once and its result given for every game."""
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.vector.action_masks()
            return [masks[i] for i in idx]
        result = getattr(self.vector, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type, indices: Indices = None) -> list[bool]:
        """No game is a Gymnasium environment with wrappers."""
        return [False for _ in self._indices(indices)]


def sb3_vec_env(num_envs: int, **kwargs: Any) -> LiverpoolSB3VecEnv:
    """A :class:`LiverpoolSB3VecEnv` of ``num_envs`` games (``kwargs`` as
    :class:`~liverpool.agents.envs.vector.LiverpoolVectorEnv`'s)."""
    return LiverpoolSB3VecEnv(num_envs, **kwargs)
