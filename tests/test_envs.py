"""liverpool.agents.envs: the PettingZoo AEC environment (api_test, seed_test), the
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
from hypothesis import given, settings
from hypothesis import strategies as st
import liverpool
from liverpool import GameState, IllegalMoveError, InvalidArgumentError, LiverpoolError, RuleSet
from liverpool.agents.envs import LiverpoolAECEnv, LiverpoolEnv, aec_env
from liverpool.agents.envs._common import ranking_rewards
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


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"players": 3, "rules": "shanghai", "reward": "ranking", "render_mode": "ansi"},
        {"opponents": "random", "max_steps": 20, "reward_scale": 0.01, "render_mode": "rgb_array"},
    ],
)
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


def test_aec_reward_scale_multiplies_every_round_reward() -> None:
    env = aec_env(players=4, reward_scale=0.01)
    returns = play_aec(env, seed=3)
    # L-10.3: the scaled returns are minus the totals / 100.
    assert [returns[f"player_{s}"] for s in range(4)] == pytest.approx([-t / 100 for t in env.state.totals])


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


# --- hostile inputs (issue 17) and the conventions of issue 18 ------------------------

NOT_IDS = [0.7, float("inf"), float("nan"), "0", b"1", True, np.bool_(False), 1 + 0j, [1], None]


@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
def test_steps_refuse_values_that_are_not_ids_and_change_nothing(illegal_action: str) -> None:
    gym_env = LiverpoolEnv(players=4, illegal_action=illegal_action)  # type: ignore[arg-type]
    gym_env.reset(seed=1)
    aec = aec_env(players=4, illegal_action=illegal_action)
    aec.reset(seed=1)
    for bad in NOT_IDS:
        for env, step in ((gym_env, gym_env.step), (aec, aec.step)):
            before = env.state.to_json()
            with pytest.raises(InvalidArgumentError) as e:
                step(bad)  # type: ignore[arg-type]
            assert e.value.code == "invalid_argument", bad
            assert env.state.to_json() == before
    # numpy integers and 0-d integer arrays are ids (what policies return).
    legal = int(np.flatnonzero(gym_env.action_masks())[0])
    gym_env.step(np.array(legal))
    aec.step(np.int64(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0])))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"agent_seat": 1.5},
        {"agent_seat": True},
        {"agent_seat": "1"},
        {"players": 2.0},
        {"players": "4"},
        {"illegal_reward": "x"},
        {"illegal_reward": float("nan")},
        {"reward_scale": None},
        {"max_steps": 0},
        {"rules": 3},
        {"opponents": 3},
        {"opponents": [1, 2, 3]},
        {"render_mode": "video"},
    ],
)
def test_constructors_refuse_bad_arguments_with_typed_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(LiverpoolError):
        LiverpoolEnv(**kwargs)
    aec_kwargs = {k: v for k, v in kwargs.items() if k not in ("agent_seat", "opponents")}
    if aec_kwargs:
        with pytest.raises(LiverpoolError):
            aec_env(**aec_kwargs)


def test_a_step_after_the_game_is_over_raises_game_over() -> None:
    env = LiverpoolEnv(players=3)
    with pytest.raises(LiverpoolError) as e:
        env.step(0)  # before reset
    assert e.value.code == "game_over"
    play_gym(env, seed=4)
    with pytest.raises(LiverpoolError) as e:
        env.step(0)
    assert e.value.code == "game_over"


def test_truncation_names_and_scaled_rewards() -> None:
    env = LiverpoolEnv(players=4, max_steps=5, reward_scale=0.01)
    obs, info = env.reset(seed=0)
    names = liverpool.action_names(env.rules, 4)
    assert info["legal_actions"] == [names[i] for i in np.flatnonzero(obs["action_mask"])]
    truncated = False
    steps = 0
    while not truncated:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
        assert not terminated
    assert steps == 5
    # Scaled: a whole game's return is minus the agent's total / 100 (L-10.3).
    scaled = LiverpoolEnv(players=4, agent_seat=2, reward_scale=0.01)
    total, _ = play_gym(scaled, seed=9)
    assert total == pytest.approx(-scaled.state.totals[2] / 100)
    aec = aec_env(players=4, max_steps=7)
    aec.reset(seed=0)
    for agent in aec.agent_iter():
        obs, _, terminated, truncated, info = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        assert info["legal_actions"] == [names[i] for i in np.flatnonzero(obs["action_mask"])]
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert aec.steps == 7


@pytest.mark.parametrize("mode", ["ansi", "human", "rgb_array"])
def test_render_modes(mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    env = LiverpoolEnv(players=4, render_mode=mode)
    env.reset(seed=0)
    out = env.render()
    if mode == "ansi":
        assert isinstance(out, str) and out == env.state.information_state_string(0)
    elif mode == "human":
        assert out is None and env.state.information_state_string(0) in capsys.readouterr().out
    else:
        assert isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3
        assert out.min() < 64 and out.max() == 255  # dark text drawn on white


@apply_marks(*PETTINGZOO_DICT_WARNINGS)
def test_env_and_raw_env_and_render_test() -> None:
    from liverpool.agents.envs import env as wrapped_env
    from liverpool.agents.envs import raw_env
    from pettingzoo.test import render_test

    api_test(wrapped_env(seed=2), num_cycles=100)
    render_test(lambda render_mode=None: raw_env(render_mode=render_mode))


def test_vector_env_copies_rows_and_reports_final_observations() -> None:
    from liverpool.agents.envs.vector import LiverpoolVectorEnv

    envs = LiverpoolVectorEnv(3, players=4, agent_seat=1, opponents="greedy", seed=5, threads=1, reward_scale=0.5)
    assert envs.single_action_space.n == liverpool.action_space_size()  # type: ignore[attr-defined]
    obs, _ = envs.reset(seed=2)
    kept = obs["observation"].copy()
    finished = 0
    sums = np.zeros(3)
    for k in range(20_000):
        mask = envs.action_masks()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        actions = envs.native.sample_actions(k)
        old = obs
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert not np.shares_memory(obs["observation"], envs.native.final_observations)
        assert old["observation"] is not obs["observation"]
        sums += reward
        if terminated.any():
            for i in np.flatnonzero(terminated):
                final = info["final_obs"][i]["observation"]
                phase = envs.native.game(i).observation_layout()["phase"]
                assert final[phase][5] == 1.0, "the final observation is at game over"
                # L-10.3: the scaled rewards of a game add up to minus its total, scaled.
                assert sums[i] == pytest.approx(-0.5 * info["final_info"]["totals"][i][1])
                sums[i] = 0
                finished += 1
            break
    assert finished >= 1
    assert not np.array_equal(kept, obs["observation"]) or finished


def test_imitation_data_rows_are_legal_ids_of_the_bots_moves() -> None:
    from liverpool.agents.envs.imitation import record

    data = record(1, bot="greedy", seed=3)
    rows = len(data["action"])
    assert rows > 100 and data["obs"].shape[0] == data["mask"].shape[0] == rows
    assert data["mask"][np.arange(rows), data["action"]].all()
    names = liverpool.action_names()
    assert any(names[a] == "go_down" for a in data["action"])
    only = record(1, bot="greedy", seed=3, seats=[2])
    assert set(only["seat"].tolist()) == {2} and len(only["action"]) < rows
    # The expert with a small budget (fast data); a budget for another bot is refused.
    expert = record(1, bot="expert", seed=3, seats=[0], budget=1, players=3)
    assert expert["mask"][np.arange(len(expert["action"])), expert["action"]].all()
    with pytest.raises(InvalidArgumentError):
        record(1, bot="greedy", budget=1)


@settings(max_examples=60, deadline=None)
@given(
    value=st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=4),
        st.binary(max_size=4),
        st.booleans(),
        st.complex_numbers(allow_nan=False),
        st.lists(st.integers(0, 5), max_size=2),
    )
)
def test_hostile_step_values_are_typed_errors_that_change_nothing(value: object) -> None:
    gym_env = LiverpoolEnv(players=3)
    gym_env.reset(seed=0)
    aec = aec_env(players=3)
    aec.reset(seed=0)
    for env, step in ((gym_env, gym_env.step), (aec, aec.step)):
        before = env.state.to_json()
        with pytest.raises(InvalidArgumentError):
            step(value)  # type: ignore[arg-type]
        assert env.state.to_json() == before


def test_imitation_cli_writes_an_npz(tmp_path: Path) -> None:
    from liverpool.agents.envs.imitation import main

    out = tmp_path / "greedy.npz"
    assert main(["--games", "1", "--bot", "greedy", "--players", "3", "--out", str(out)]) == 0
    data = np.load(out)
    assert data["mask"][np.arange(len(data["action"])), data["action"]].all()
