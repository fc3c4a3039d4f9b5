"""Standard environments for game-playing agents (the ``rl`` extra:
``pip install 'liverpool-rummy[rl]'``).

- :class:`LiverpoolAECEnv` / :func:`aec_env`: PettingZoo AEC, every seat an agent.
- :class:`LiverpoolEnv`: Gymnasium, one seat against native bots, registered as
  ``Liverpool-v0`` when this package is imported (``gym.make("Liverpool-v0")``).
- :mod:`liverpool.agents.envs.vector`: a Gymnasium vector env over the native ``VecEnv``;
  :mod:`liverpool.agents.envs.sb3`: a stable-baselines3 ``VecEnv`` over it (MaskablePPO).
- :func:`observation_high`: each observation entry's bound, to scale by.

Both observe ``{"observation": float32, "action_mask": int8}`` and act with the
ids of the engine's fixed action space (docs/action-space.md); docs/agents.md
describes rewards, seeding and what an illegal id does.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "liverpool.agents.envs needs the 'rl' extra (PettingZoo, Gymnasium): pip install 'liverpool-rummy[rl]'"
    ) from exc

from liverpool.agents.envs._common import observation_high
from liverpool.agents.envs.aec import LiverpoolAECEnv, aec_env, env, raw_env
from liverpool.agents.envs.gym_env import LiverpoolEnv

__all__ = ["LiverpoolAECEnv", "LiverpoolEnv", "aec_env", "env", "raw_env", "observation_high", "ENV_ID"]

#: The Gymnasium id of :class:`LiverpoolEnv`.
ENV_ID = "Liverpool-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="liverpool.agents.envs.gym_env:LiverpoolEnv")
