"""A stable-baselines3 ``VecEnv`` over the native :class:`liverpool.VecEnv` (needs
``stable-baselines3``; ``sb3-contrib``'s ``MaskablePPO`` reads the masks through
``env_method("action_masks")`` / ``action_masks()``).

``sb3_vec_env(num_envs, ...)`` takes the arguments of
:class:`liverpool.agents.envs.vector.LiverpoolVectorEnv` and follows SB3's conventions:
a ``Box`` observation (the observation tensor; the mask is separate), ``dones =
terminated | truncated``, the finished game's last observation in
``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]``, arrays
copied (SB3's rollout buffer keeps references).

Not run here: stable-baselines3 needs torch, which is not installed on the
development machine (tests/test_envs.py skips its test without it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from liverpool.agents.envs.vector import LiverpoolVectorEnv


def sb3_vec_env(num_envs: int, **kwargs: Any) -> Any:
    """A :class:`LiverpoolSB3VecEnv`-like SB3 ``VecEnv`` of ``num_envs`` games
    (``kwargs`` as :class:`~liverpool.agents.envs.vector.LiverpoolVectorEnv`'s). SB3 is
    imported here, so this module imports without it."""
    try:
        from stable_baselines3.common.vec_env.base_vec_env import VecEnv as SB3VecEnv
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installed extras
        raise ImportError(
            "liverpool.agents.envs.sb3 needs stable-baselines3: pip install 'liverpool-rummy[rl]' stable-baselines3"
        ) from exc

    class LiverpoolSB3VecEnv(_Adapter, SB3VecEnv):  # type: ignore[misc]
        """``num_envs`` Liverpool games as one SB3 ``VecEnv``."""

        def __init__(self) -> None:
            self.vector = LiverpoolVectorEnv(num_envs, **kwargs)
            box = self.vector.single_observation_space["observation"]  # type: ignore[index]
            SB3VecEnv.__init__(self, self.vector.num_envs, box, self.vector.single_action_space)
            self._actions = np.zeros(self.vector.num_envs, dtype=np.int64)
            self._seed = None

    return LiverpoolSB3VecEnv()


class _Adapter:
    """The methods of the SB3 adapter (mixed into SB3's ``VecEnv`` by :func:`sb3_vec_env`)."""

    vector: LiverpoolVectorEnv
    num_envs: int
    _actions: npt.NDArray[np.int64]
    _seed: int | None

    def reset(self) -> npt.NDArray[np.float32]:
        obs, _ = self.vector.reset(seed=self._seed)
        self._seed = None
        observation: npt.NDArray[np.float32] = obs["observation"]
        return observation

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], list[dict[str, Any]]]:
        obs, reward, terminated, truncated, info = self.vector.step(self._actions)
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

    def seed(self, seed: int | None = None) -> Sequence[None | int]:
        self._seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        pass

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.vector, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.vector, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.vector.action_masks()
            return [masks[i] for i in idx]
        result = getattr(self.vector, method_name)(*args, **kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]
