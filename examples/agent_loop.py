"""The agent loop of liverpool.agents.envs, with two policies that learn nothing:

- ``random``: any action id at all; the engine refuses the illegal ones, which
  change nothing and cost the agent ``illegal_reward`` (-1) each;
- ``masked``: a uniformly random *legal* id, read from the observation's mask.

First the Gymnasium environment (one seat against greedy bots, ``Liverpool-v0``),
then the PettingZoo AEC environment (every seat masked-random).

    python examples/agent_loop.py --episodes 3 --seed 0

Needs the ``rl`` extra: ``pip install 'liverpool-rummy[rl]'``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

import liverpool.agents.envs

Policy = Callable[[dict[str, npt.NDArray[Any]], np.random.Generator], int]


def random_policy(obs: dict[str, npt.NDArray[Any]], rng: np.random.Generator) -> int:
    return int(rng.integers(len(obs["action_mask"])))


def masked_policy(obs: dict[str, npt.NDArray[Any]], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def gym_episodes(policy: Policy, episodes: int, seed: int, max_steps: int) -> None:
    env = gym.make("Liverpool-v0", players=4, opponents="greedy")
    rng = np.random.default_rng(seed)
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        episode_return, steps, illegal = 0.0, 0, 0
        terminated = truncated = False
        while not (terminated or truncated) and steps < max_steps:
            obs, reward, terminated, truncated, info = env.step(policy(obs, rng))
            episode_return += float(reward)
            steps += 1
            illegal += bool(info.get("illegal_action"))
        outcome = f"final totals {info['totals']}" if terminated else f"stopped after {max_steps} steps"
        print(f"gym {policy.__name__}: episode {episode}: return {episode_return:.0f}, {steps} steps, {illegal} illegal; {outcome}")
    env.close()


def aec_episodes(episodes: int, seed: int) -> None:
    env = liverpool.agents.envs.aec_env(players=4)
    rng = np.random.default_rng(seed)
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        returns = {agent: 0.0 for agent in env.agents}
        steps = 0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            returns[agent] += float(reward)
            action = None if terminated or truncated else masked_policy(obs, rng)
            env.step(action)
            steps += 1
        print(f"aec masked: episode {episode}: {steps} steps, returns {[round(r) for r in returns.values()]}")
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=2000, help="cap for the random policy's episodes")
    args = parser.parse_args()
    gym_episodes(random_policy, args.episodes, args.seed, args.max_steps)
    gym_episodes(masked_policy, args.episodes, args.seed, 10**7)
    aec_episodes(args.episodes, args.seed)


if __name__ == "__main__":
    main()
