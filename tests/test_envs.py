"""liverpool.envs: the PettingZoo AEC environment (api_test, seed_test), the
Gymnasium ``Liverpool-v0`` (check_env), rewards equal to the engine's scores
(L-10), illegal ids that change nothing, and the example script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from liverpool import GameState, IllegalMoveError, InvalidArgumentError, LiverpoolError, RuleSet
from liverpool.envs import LiverpoolAECEnv, LiverpoolEnv, aec_env
from liverpool.envs._common import ranking_rewards
from pettingzoo.test import api_test, seed_test

EXAMPLE = Path(__file__).parents[1] / "examples" / "agent_loop.py"

# PettingZoo's api_test recommends a plain Box observation; the {"observation",
# "action_mask"} dict is the documented format for masked turn-based games, so
# these two advisory warnings (and only these) are expected.
PETTINGZOO_DICT_WARNINGS = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning"),
]


def apply_marks(*marks: Any) -> Any:
    def wrap(f: Any) -> Any:
        for mark in marks:
            f = mark(f)
        return f

    return wrap


@apply_marks(*PETTINGZOO_DICT_WARNINGS)
@pytest.mark.parametrize("kwargs", [{}, {"players": 3, "rules": "shanghai", "reward": "ranking"}])
def test_aec_passes_the_pettingzoo_api_test(kwargs: dict[str, Any]) -> None:
    api_test(aec_env(seed=1, **kwargs), num_cycles=300)


def test_aec_passes_the_seed_test() -> None:
    seed_test(lambda: aec_env(players=4), num_cycles=300)


@pytest.mark.parametrize("kwargs", [{}, {"players": 3, "rules": "shanghai", "reward": "ranking", "render_mode": "ansi"}])
def test_gym_env_passes_check_env(kwargs: dict[str, Any]) -> None:
    env = gym.make("Liverpool-v0", **kwargs)
    check_env(env.unwrapped)


def play_aec(env: LiverpoolAECEnv, seed: int) -> dict[str, float]:
    """A whole game of masked-random play; each agent's return."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    returns = {agent: 0.0 for agent in env.agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += float(reward)
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        if terminated or truncated:
            env.step(None)
            continue
        # The acting agent is the seat the engine waits for, and its mask is the engine's.
        assert env.state.to_act == env.seat_of(agent)
        assert np.array_equal(mask.astype(bool), env.state.legal_action_mask(env.seat_of(agent)))
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return returns


def test_aec_round_rewards_add_up_to_minus_the_totals() -> None:
    env = aec_env(players=4)
    returns = play_aec(env, seed=3)
    assert env.state.is_game_over and env.agents == []
    # L-10.3: a seat's total is the sum of its round scores (the cut bonus included).
    assert [returns[f"player_{s}"] for s in range(4)] == [-float(t) for t in env.state.totals]


def test_aec_ranking_rewards_come_at_the_end() -> None:
    env = aec_env(players=3, rules="shanghai", reward="ranking")
    returns = play_aec(env, seed=5)
    expected = ranking_rewards(env.state.totals)
    assert [returns[f"player_{s}"] for s in range(3)] == pytest.approx(expected)
    assert sum(expected) == pytest.approx(0.0)
    winner = env.state.winners[0]
    assert expected[winner] == max(expected), "L-10.3: the lowest total ranks first"


def test_an_illegal_id_changes_nothing() -> None:
    env = aec_env(players=4)
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.state.to_json()
    env.step(illegal)
    assert env.state.to_json() == before and env.agent_selection == agent
    assert env.rewards[agent] == -1.0 and env.infos[agent]["illegal_action"] is True
    strict = aec_env(players=4, illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(LiverpoolError):
        strict.step(illegal)
    assert strict.state.to_json() == before

    gym_env = LiverpoolEnv(players=4)
    obs, _ = gym_env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = gym_env.state.to_json()
    obs2, reward, terminated, truncated, info = gym_env.step(illegal)
    assert gym_env.state.to_json() == before and np.array_equal(obs["observation"], obs2["observation"])
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, False, False, True)


def play_gym(env: LiverpoolEnv, seed: int) -> tuple[float, list[int]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, terminated, actions = 0.0, False, []
    while not terminated:
        assert env.state.to_act == env.agent_seat
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += float(reward)
    assert info["totals"] == env.state.totals
    return total, actions


def test_gym_returns_minus_the_agents_total_and_is_deterministic() -> None:
    env = LiverpoolEnv(players=4, agent_seat=2, opponents=["greedy", "random", "greedy"])
    total, actions = play_gym(env, seed=9)
    assert total == -env.state.totals[2]
    again, actions_again = play_gym(LiverpoolEnv(players=4, agent_seat=2, opponents=["greedy", "random", "greedy"]), seed=9)
    assert (again, actions_again) == (total, actions)


def test_bad_configurations_are_refused() -> None:
    with pytest.raises(InvalidArgumentError):
        LiverpoolEnv(agent_seat=4)
    with pytest.raises(InvalidArgumentError):
        LiverpoolEnv(opponents=["greedy", "greedy"])
    with pytest.raises(InvalidArgumentError):
        LiverpoolEnv(opponents="grumpy")
    with pytest.raises(InvalidArgumentError):
        aec_env(reward="money")
    with pytest.raises(LiverpoolError):
        aec_env(players=1)


def test_spaces_match_the_engine() -> None:
    env = aec_env(players=5, rules="shanghai")
    env.reset(seed=0)
    state = GameState(players=5, rules=env.rules)
    assert env.action_space("player_0").n == state.action_space_size  # type: ignore[attr-defined]
    obs = env.observe("player_0")
    assert obs["observation"].shape == state.observation_tensor(0).shape
    assert obs["action_mask"].shape == (state.action_space_size,)
    assert isinstance(IllegalMoveError("x"), LiverpoolError)


def test_example_script_runs() -> None:
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE), "--episodes", "1", "--max-steps", "300"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert any(line.startswith("gym random_policy: episode 0") for line in lines)
    masked = next(line for line in lines if line.startswith("gym masked_policy: episode 0"))
    assert " 0 illegal; final totals" in masked
    assert any(line.startswith("aec masked: episode 0") for line in lines)


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_every_preset_plays_to_the_end_inside_the_spaces(preset: str) -> None:
    # Seven seats: three decks in most presets, the largest counts the box must hold.
    env = aec_env(rules=preset, players=7)
    space = env.observation_space("player_0")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    returns = {agent: 0.0 for agent in env.agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        assert space.contains(obs)
        returns[agent] += float(reward)
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert [returns[f"player_{s}"] for s in range(7)] == [-float(t) for t in env.state.totals]
