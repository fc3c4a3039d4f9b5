"""The library adapters of liverpool.agents.envs (issue 18, item 2), each checked by the
library's own tools, never by imitations of them:

- stable-baselines3: ``check_env`` on ``Liverpool-v0``, ``make_vec_env`` (which
  passes ``render_mode``), the ``VecEnv`` adapter over the native ``VecEnv`` under
  ``VecMonitor``/``VecNormalize``/``VecCheckNan``, and a MaskablePPO training smoke;
- Gymnasium: the vector adapter under ``gymnasium.wrappers.vector`` wrappers and
  laid out as ``SyncVectorEnv``'s same-step autoreset lays out its infos;
- hostile input to every adapter: typed errors with stable codes, nothing changed.

stable-baselines3, sb3-contrib and torch are imported unconditionally: they are in
the ``rl`` extra that setup installs, so a missing one fails this file, it never
skips.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import VecCheckNan, VecEnv, VecMonitor, VecNormalize

import liverpool
import liverpool.agents.envs
from liverpool import IllegalMoveError, InvalidArgumentError, LiverpoolError
from liverpool.agents.envs import LiverpoolEnv, aec_env, observation_high
from liverpool.agents.envs.sb3 import LiverpoolSB3VecEnv, sb3_vec_env
from liverpool.agents.envs.vector import LiverpoolVectorEnv

# Two cores shared by many: torch must not start a thread per core in every worker.
torch.set_num_threads(1)


def masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


# --- stable-baselines3 ------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"players": 3, "rules": "shanghai", "reward": "ranking", "reward_scale": 0.01},
        {"opponents": "random", "max_steps": 20, "reward_scale": 0.01},  # truncation
    ],
)
def test_sb3_check_env_passes_on_the_gymnasium_env(kwargs: dict[str, Any]) -> None:
    # SB3's checker, warnings as errors (pytest's filterwarnings = error): it warns
    # about nothing in Liverpool-v0.
    sb3_check_env(LiverpoolEnv(**kwargs), warn=True)


def test_make_vec_env_builds_liverpool_v0_with_its_render_mode() -> None:
    # make_vec_env passes render_mode="rgb_array" unless told otherwise: the issue's
    # crash. SB3 tiles the frames of its environments, so every rgb_array frame must
    # have one size.
    plain = make_vec_env("Liverpool-v0", n_envs=2)
    assert plain.render_mode == "rgb_array" and plain.reset()["observation"].shape[0] == 2
    venv = make_vec_env("Liverpool-v0", n_envs=2, seed=3, env_kwargs={"players": 4, "render_mode": "rgb_array"})
    obs = venv.reset()
    assert set(obs) == {"observation", "action_mask"} and obs["observation"].shape[0] == 2
    rng = np.random.default_rng(0)
    sizes = set()
    for k in range(400):
        obs, _, _, _ = venv.step(masked_random(obs["action_mask"], rng))
        if k % 20 == 0:  # drawing a frame takes milliseconds
            sizes.add(venv.render(mode="rgb_array").shape)
    assert len(sizes) == 1
    height, width, channels = sizes.pop()
    assert channels == 3 and height > 100 and width > 2 * 100  # two frames side by side


def test_the_adapter_is_an_sb3_vec_env_with_masks() -> None:
    venv = sb3_vec_env(3, seed=1, threads=1)
    assert isinstance(venv, VecEnv) and isinstance(venv, LiverpoolSB3VecEnv)
    assert is_masking_supported(venv)
    obs = venv.reset()
    assert obs.shape == (3,) + venv.observation_space.shape and obs.dtype == np.float32
    assert venv.observation_space.contains(obs[0])
    masks = get_action_masks(venv)
    assert masks.shape == (3, liverpool.action_space_size()) and masks.dtype == np.bool_
    for i in range(3):
        assert np.array_equal(masks[i], venv.vector.native.game(i).legal_action_mask(0))
    assert venv.get_attr("render_mode") == [None, None, None]
    assert venv.env_is_wrapped(gym.Wrapper) == [False] * 3
    assert len(venv.env_method("action_masks", indices=[0, 2])) == 2


def test_the_adapter_copies_and_reports_finished_games_under_sb3_wrappers() -> None:
    scale = 0.01
    adapter = sb3_vec_env(4, seed=2, threads=1, reward_scale=scale)
    venv = VecCheckNan(VecNormalize(VecMonitor(adapter), norm_obs=True, norm_reward=True), raise_exception=True)
    rng = np.random.default_rng(1)
    venv.seed(5)
    venv.reset()
    raw_returns = np.zeros(4)
    finished = 0
    for _ in range(4000):
        actions = masked_random(get_action_masks(venv), rng)
        obs, _, dones, infos = venv.step(actions)
        raw = venv.get_original_reward()
        raw_returns += raw
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert info["terminal_observation"].shape == obs[i].shape
            assert info["TimeLimit.truncated"] is False
            # VecMonitor's episode return is the game's: minus the agent's total, scaled (L-10.3).
            assert info["episode"]["r"] == pytest.approx(-scale * info["totals"][0], abs=1e-4)
            assert raw_returns[i] == pytest.approx(-scale * info["totals"][0], abs=1e-4)
            raw_returns[i] = 0.0
            finished += 1
        if finished >= 2:
            break
    assert finished >= 2
    # Arrays are new at every step: what a rollout buffer kept is still what it saw.
    kept = [adapter.reset()]
    for k in range(20):
        obs, rewards, dones, infos = adapter.step(adapter.vector.native.sample_actions(k))
        kept += [obs, rewards, dones]
    seen = [a.copy() for a in kept]
    adapter.step(adapter.vector.native.sample_actions(99))
    assert all(np.array_equal(a, b) for a, b in zip(kept, seen))
    assert not any(np.shares_memory(a, b) for k, a in enumerate(kept) for b in kept[k + 1 :])


def test_the_adapter_is_seeded_by_seed_then_reset() -> None:
    a, b = sb3_vec_env(2, threads=1), sb3_vec_env(2, threads=1)
    assert a.seed(7) == [7, 8]
    b.seed(7)
    first, second = a.reset(), b.reset()
    assert np.array_equal(first, second)
    for k in range(50):
        actions = a.vector.native.sample_actions(k)
        assert np.array_equal(a.step(actions)[0], b.step(actions)[0])
    b.seed(8)
    assert not np.array_equal(b.reset(), a.reset())


def test_maskable_ppo_trains_on_the_adapter_and_predicts_legal_ids() -> None:
    # A smoke, seconds long: the adapter feeds MaskablePPO's rollouts and updates, and
    # the masked policy only ever picks legal ids.
    venv = sb3_vec_env(4, seed=0, threads=1, reward_scale=0.01)
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu",
        policy_kwargs={"net_arch": [32]},
    )
    # SB3's default logger makes a folder in the temp directory on every learn().
    model.set_logger(Logger(folder=None, output_formats=[]))
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    obs = venv.reset()
    for _ in range(300):
        masks = venv.action_masks()
        actions, _ = model.predict(obs, action_masks=masks, deterministic=False)
        assert masks[np.arange(4), actions].all()
        obs, _, _, _ = venv.step(actions)
    # sb3-contrib's own masked evaluation plays whole games through the adapter.
    rewards, lengths = evaluate_policy(
        model, VecMonitor(sb3_vec_env(4, seed=1, threads=1, reward_scale=0.01)), n_eval_episodes=4,
        return_episode_rewards=True, warn=True,
    )
    assert len(rewards) == len(lengths) == 4 and min(lengths) > 20


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
def test_pettingzoo_api_test_passes_with_truncation() -> None:
    # Every agent truncated after 40 steps: PettingZoo's checker walks the dead steps.
    from pettingzoo.test import api_test

    from liverpool.agents.envs import env

    api_test(env(seed=3, max_steps=40), num_cycles=200)
    e = env(seed=3, max_steps=40)
    e.reset(seed=3)
    ends = set()
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            ends.add((agent, terminated, truncated))
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    # Every seat ends truncated, none terminated, the game still running.
    assert ends == {(f"player_{s}", False, True) for s in range(4)}
    assert e.unwrapped.steps == 40 and not e.unwrapped.state.is_game_over


# --- Gymnasium vector -------------------------------------------------------------------


def play_vector(envs: Any, steps: int, seed: int) -> list[dict[str, Any]]:
    """Masked-random steps; the infos of the steps where a game finished."""
    rng = np.random.default_rng(seed)
    envs.reset(seed=seed)
    ends = []
    for _ in range(steps):
        masks = envs.unwrapped.action_masks() if hasattr(envs.unwrapped, "action_masks") else None
        if masks is None:
            masks = np.stack(envs.call("action_masks"))
        _, _, terminated, truncated, infos = envs.step(masked_random(masks, rng))
        if np.any(terminated | truncated):
            ends.append(infos)
            if len(ends) >= 2:
                break
    return ends


def test_vector_env_declares_same_step_autoreset_and_its_spaces() -> None:
    envs = LiverpoolVectorEnv(3, players=4, seed=1, threads=1)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    single = gym.make("Liverpool-v0", players=4)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, _ = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    for k in range(200):
        obs, *_ = envs.step(envs.native.sample_actions(k))
        assert envs.observation_space.contains(obs)


def test_vector_infos_are_laid_out_as_sync_vector_envs_same_step_infos() -> None:
    # Gymnasium's own vector env of two Liverpool-v0 in the same autoreset mode is the
    # reference for where the final observation and info go.
    reference = SyncVectorEnv(
        [lambda: gym.make("Liverpool-v0", players=4, opponents="greedy") for _ in range(2)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    ours = LiverpoolVectorEnv(2, players=4, opponents="greedy", threads=1)
    theirs_end = play_vector(reference, 5000, seed=0)[0]
    ours_end = play_vector(ours, 5000, seed=0)[0]
    for key in ("final_obs", "_final_obs", "final_info", "_final_info"):
        assert key in theirs_end and key in ours_end, key
    done = np.flatnonzero(ours_end["_final_obs"])
    for infos, rows in ((theirs_end, np.flatnonzero(theirs_end["_final_obs"])), (ours_end, done)):
        assert infos["final_obs"].dtype == object and infos["_final_obs"].dtype == np.bool_
        for i in rows:
            final = infos["final_obs"][i]
            assert set(final) == {"observation", "action_mask"}
            assert ours.single_observation_space.contains(final)
            assert not final["action_mask"].any(), "a finished game has no decision"
            totals = infos["final_info"]["totals"][i]
            assert len(totals) == 4 and infos["final_info"]["_totals"][i]


def test_vector_env_under_gymnasium_vector_wrappers() -> None:
    scale = 0.5
    envs = DictInfoToList(RecordEpisodeStatistics(LiverpoolVectorEnv(3, players=4, threads=1, reward_scale=scale)))
    rng = np.random.default_rng(2)
    envs.reset(seed=4)
    sums = np.zeros(3)
    lengths = np.zeros(3, dtype=int)
    finished = 0
    for _ in range(6000):
        _, rewards, terminated, truncated, infos = envs.step(masked_random(envs.unwrapped.action_masks(), rng))
        assert isinstance(infos, list) and len(infos) == 3
        sums += rewards
        lengths += 1
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            totals = infos[i]["final_info"]["totals"]
            # RecordEpisodeStatistics counts the game's steps and its return: minus the
            # agent's total, scaled (L-10.3).
            assert infos[i]["episode"]["r"] == pytest.approx(-scale * totals[0])
            assert infos[i]["episode"]["l"] == lengths[i]
            assert sums[i] == pytest.approx(-scale * totals[0])
            sums[i], lengths[i] = 0.0, 0
            finished += 1
        if finished >= 2:
            break
    assert finished >= 2


def test_vector_seeds_follow_gymnasiums_forms() -> None:
    a = LiverpoolVectorEnv(3, threads=1)
    b = LiverpoolVectorEnv(3, threads=1)
    obs_a, _ = a.reset(seed=9)
    obs_b, _ = b.reset(seed=[9, 10, 11])
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    b.reset(seed=[None, None, None])
    for bad in ([9, 9, 9], [9, 10], 1.5, "9", True, -1, [None, 3, None]):
        with pytest.raises(InvalidArgumentError) as e:
            a.reset(seed=bad)  # type: ignore[arg-type]
        assert e.value.code == "invalid_argument", bad


# --- hostile input to every adapter -------------------------------------------------------

BAD_ACTION_ARRAYS: list[tuple[object, str]] = [
    (np.array([0.0, 1.0, 2.0]), "invalid_argument"),
    (np.array([True, False, True]), "invalid_argument"),
    (np.array(["a", "b", "c"]), "invalid_argument"),
    ([[0], [1, 2], [3]], "invalid_argument"),
    (np.zeros((3, 1), dtype=np.int64), "invalid_argument"),
    (np.zeros(2, dtype=np.int64), "invalid_argument"),
    (np.zeros(4, dtype=np.int64), "invalid_argument"),
    (None, "invalid_argument"),
    ({"a": 1}, "invalid_argument"),
    (np.array([0, -1, 0]), "invalid_action_id"),
    (np.array([0, 10**6, 0]), "invalid_action_id"),
    (np.array([2**64 - 1, 0, 0], dtype=np.uint64), "invalid_action_id"),
]


@pytest.mark.parametrize("actions,code", BAD_ACTION_ARRAYS)
def test_vector_adapters_refuse_bad_actions_and_change_nothing(actions: object, code: str) -> None:
    vector = LiverpoolVectorEnv(3, seed=1, threads=1)
    vector.reset()
    adapter = sb3_vec_env(3, seed=1, threads=1)
    adapter.reset()
    for native, step in ((vector.native, vector.step), (adapter.vector.native, adapter.step_async)):
        before = [native.game(i).to_json() for i in range(3)]
        with pytest.raises(InvalidArgumentError) as e:
            step(actions)  # type: ignore[arg-type]
        assert e.value.code == code
        assert [native.game(i).to_json() for i in range(3)] == before


def test_vector_adapters_refuse_an_illegal_id_naming_the_game() -> None:
    vector = LiverpoolVectorEnv(3, seed=1, threads=1)
    vector.reset()
    adapter = sb3_vec_env(3, seed=1, threads=1)
    adapter.reset()
    draw = liverpool.action_layout()["draw_stock"].start  # L-2.2: every game waits for its cut
    for native, step in ((vector.native, vector.step), (adapter.vector.native, adapter.step)):
        actions = native.sample_actions(0)
        actions[2] = draw
        before = [native.game(i).to_json() for i in range(3)]
        with pytest.raises(InvalidArgumentError) as e:
            step(actions)
        assert e.value.code == "invalid_action_id" and e.value.params["env"] == "2"
        assert [native.game(i).to_json() for i in range(3)] == before


def test_every_adapter_refuses_use_before_reset_and_after_close() -> None:
    vector = LiverpoolVectorEnv(2, threads=1)
    adapter = sb3_vec_env(2, threads=1)
    single = LiverpoolEnv(players=4)
    aec = aec_env(players=4)
    for step in (vector.step, adapter.step, single.step):
        with pytest.raises(IllegalMoveError) as e:
            step(np.zeros(2, dtype=np.int64) if step is not single.step else 0)
        assert e.value.code == "game_over"
    with pytest.raises(InvalidArgumentError) as e:
        adapter.step_wait()
    assert e.value.code == "invalid_argument"
    vector.reset()
    adapter.reset()
    single.reset(seed=0)
    aec.reset(seed=0)
    for env in (vector, adapter, single, aec):
        env.close()
        env.close()  # closing twice is allowed (Gymnasium's check_env checks it)
    for call in (
        lambda: vector.step(np.zeros(2, dtype=np.int64)),
        lambda: vector.reset(),
        lambda: adapter.step(np.zeros(2, dtype=np.int64)),
        lambda: adapter.reset(),
        lambda: single.step(0),
        lambda: single.reset(),
        lambda: aec.step(0),
        lambda: aec.reset(),
    ):
        with pytest.raises(LiverpoolError) as e:
            call()
        assert e.value.code == "env_closed"


@pytest.mark.parametrize("seed", [1.5, "3", True, -1, 2**64, b"1", [1]])
def test_every_adapter_refuses_seeds_of_the_wrong_type(seed: object) -> None:
    single = LiverpoolEnv(players=4)
    aec = aec_env(players=4)
    vector = LiverpoolVectorEnv(2, threads=1)
    adapter = sb3_vec_env(2, threads=1)
    calls = [
        lambda: single.reset(seed=seed),
        lambda: aec.reset(seed=seed),
        lambda: adapter.seed(seed),
        lambda: LiverpoolVectorEnv(2, seed=seed),
        lambda: aec_env(seed=seed),
    ]
    if not isinstance(seed, list):
        calls.append(lambda: vector.reset(seed=seed))
    for call in calls:
        with pytest.raises(InvalidArgumentError) as e:
            call()  # type: ignore[no-untyped-call]
        assert e.value.code == "invalid_argument"


@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
def test_ids_outside_the_space_are_refused_not_penalized(illegal_action: str) -> None:
    single = LiverpoolEnv(players=4, illegal_action=illegal_action)  # type: ignore[arg-type]
    single.reset(seed=0)
    aec = aec_env(players=4, illegal_action=illegal_action)
    aec.reset(seed=0)
    size = liverpool.action_space_size()
    for bad in (-1, size, 2**70, np.int64(-5), np.array([size])):
        for env, step in ((single, single.step), (aec, aec.step)):
            before = env.state.to_json()
            with pytest.raises(InvalidArgumentError) as e:
                step(bad)  # type: ignore[arg-type]
            assert e.value.code == "invalid_action_id", bad
            assert env.state.to_json() == before
    # A one-element integer array is an id (what predict returns for one observation).
    single.step(np.array([int(np.flatnonzero(single.action_masks())[0])]))


def test_observation_bounds_are_per_entry_and_hold_in_play() -> None:
    # docs/action-space.md "Bounds": flags and one-hot blocks at most 1, card counts at
    # most the copies the deck holds (two decks and their jokers in profile L, L-1.2).
    rules = liverpool.RuleSet("liverpool")
    high = observation_high(rules, 4)
    layout = liverpool.GameState(rules=rules).observation_layout()
    assert high[layout["phase"]].tolist() == [1.0] * 8
    assert high[layout["hand"]][:52].tolist() == [2.0] * 52 and high[layout["hand"]][52] == 3.0
    assert high[layout["stock_size"]][0] == rules.deck_size(4) == 107
    env = aec_env(rules=rules, players=4)
    space = env.observation_space("player_0")
    assert np.array_equal(space["observation"].high, high)
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    seen = np.zeros_like(high)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert space.contains(obs)
        seen = np.maximum(seen, obs["observation"])
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert (seen <= high).all() and (seen[layout["phase"]] == 1).any()


def test_the_bench_section_skips_cleanly_without_sb3_contrib(monkeypatch: pytest.MonkeyPatch) -> None:
    # ``liverpool bench`` must not fail where the rl extra is not installed.
    from liverpool.tools import bench

    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # import sb3_contrib now raises ImportError
    ctx = bench.Context(quick=True, seed=0)
    assert bench.bench_maskable_ppo(ctx) == []
    assert any("sb3-contrib is not installed" in note for note in ctx.notes)


def _hostile_vector_actions(n: int) -> st.SearchStrategy[object]:
    """What a careless learner could hand a vector adapter: floats, bools, strings,
    complex numbers, nested or ragged lists, other lengths and shapes, ids outside the
    space, huge unsigned ids, and (sometimes) a valid array of legal-looking ids."""
    size = liverpool.action_space_size()
    floats = st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=n, max_size=n)
    return st.one_of(
        floats.map(np.array),
        floats,
        st.lists(st.booleans(), min_size=n, max_size=n).map(np.array),
        st.lists(st.text(max_size=2), min_size=n, max_size=n),
        st.lists(st.complex_numbers(allow_nan=False), min_size=n, max_size=n).map(np.array),
        st.lists(st.integers(0, size - 1), min_size=0, max_size=n + 2).filter(lambda xs: len(xs) != n),
        st.lists(st.integers(-(2**63), -1) | st.integers(size, 2**63 - 1), min_size=n, max_size=n),
        st.lists(st.integers(0, 2**64 - 1), min_size=n, max_size=n).map(lambda xs: np.array(xs, dtype=np.uint64)),
        st.lists(st.integers(0, size - 1), min_size=n, max_size=n).map(lambda xs: np.array([xs])),
        st.lists(st.lists(st.integers(0, 3), max_size=3), min_size=n, max_size=n),
        st.sampled_from([None, 3, 3.5, "abc", {"a": 1}, np.array(6.7), object()]),
    )


@settings(max_examples=80, deadline=None)
@given(actions=_hostile_vector_actions(3))
def test_hostile_action_arrays_change_no_game_in_either_vector_adapter(actions: object) -> None:
    vector = LiverpoolVectorEnv(3, seed=11, threads=1)
    vector.reset()
    adapter = sb3_vec_env(3, seed=11, threads=1)
    adapter.reset()
    for native, step in ((vector.native, vector.step), (adapter.vector.native, adapter.step)):
        before = [native.game(i).to_json() for i in range(3)]
        try:
            step(actions)  # type: ignore[arg-type]
        except InvalidArgumentError as e:
            assert e.code in ("invalid_argument", "invalid_action_id")
            assert [native.game(i).to_json() for i in range(3)] == before
        else:
            # Only an integer array of legal ids (one per game) may be played.
            played = np.asarray(actions)
            assert played.shape == (3,) and played.dtype.kind in "iu"


def test_vector_adapters_render_every_game() -> None:
    vector = LiverpoolVectorEnv(2, threads=1, render_mode="ansi")
    vector.reset(seed=1)
    assert vector.render() == tuple(vector.native.game(i).information_state_string(0) for i in range(2))
    assert LiverpoolVectorEnv(2, threads=1).render() is None
    with pytest.raises(InvalidArgumentError):
        LiverpoolVectorEnv(2, render_mode="human")
    # SB3 tiles the games' frames (two frames: one above the other).
    adapter = sb3_vec_env(2, threads=1, render_mode="rgb_array")
    adapter.reset()
    assert adapter.render_mode == "rgb_array"
    single = sb3_vec_env(1, threads=1, render_mode="rgb_array")
    single.reset()
    frame = single.render()
    tiled = adapter.render()
    assert frame is not None and tiled is not None
    assert tiled.shape == (2 * frame.shape[0], frame.shape[1], 3) and tiled.dtype == np.uint8
