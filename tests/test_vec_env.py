"""``liverpool.VecEnv`` (docs/action-space.md "VecEnv"): determinism across thread
counts, masks equal to each game's ``legal_action_mask``, illegal ids refused with
nothing changed, rewards equal to the round scores, automatic reset. Kept cheap: a
few games and a few hundred steps."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import liverpool
from liverpool import ConcurrentUseError, GameState, InvalidArgumentError, RuleSet, VecEnv


def _run(env: VecEnv, steps: int) -> list[tuple[np.ndarray, ...]]:
    obs, mask = env.reset()
    trace = [(obs.copy(), mask.copy(), env.to_act.copy())]
    for k in range(steps):
        out = env.step(env.sample_actions(k))
        trace.append(tuple(a.copy() for a in out) + (env.to_act.copy(),))
    return trace


@pytest.mark.parametrize("opponents", [None, "greedy"])
def test_the_same_seed_gives_the_same_arrays_with_one_or_two_threads(opponents: str | None) -> None:
    rules = RuleSet("liverpool-classic")
    one = _run(VecEnv(8, rules=rules, seed=5, opponents=opponents, threads=1), 80)
    two = _run(VecEnv(8, rules=rules, seed=5, opponents=opponents, threads=2), 80)
    for a, b in zip(one, two, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)
    other_seed = _run(VecEnv(8, rules=rules, seed=6, opponents=opponents, threads=1), 80)
    assert any(not np.array_equal(a[0], b[0]) for a, b in zip(one, other_seed))


def test_rows_are_each_games_mask_and_observation() -> None:
    for preset in ["liverpool", "contract", "liverpool-classic"]:
        env = VecEnv(4, rules=RuleSet(preset), seed=2)
        obs, mask = env.reset()
        assert obs.shape == (4, env.observation_size) and obs.dtype == np.float32
        assert mask.shape == (4, env.action_space_size) and mask.dtype == np.bool_
        for k in range(120):
            for i in range(4):
                game = env.game(i)
                seat = int(env.to_act[i])
                assert seat == game.to_act
                assert np.array_equal(mask[i], game.legal_action_mask(seat))
                assert np.array_equal(obs[i], game.observation_tensor(seat))
            obs, mask, *_ = env.step(env.sample_actions(k))


def test_an_illegal_id_is_refused_naming_the_game_and_nothing_changes() -> None:
    env = VecEnv(3, seed=1)
    obs, mask = env.reset()
    before = [env.game(i).to_json() for i in range(3)]
    kept = obs.copy(), mask.copy()
    actions = env.sample_actions(0)
    actions[1] = env.action_layout()["draw_stock"].start  # L-2.2: the game waits for the cut
    with pytest.raises(InvalidArgumentError) as e:
        env.step(actions)
    assert e.value.code == "invalid_action_id" and e.value.params["env"] == "1"
    for bad in ([0, 0], "abc", [[1, 2, 3]]):
        with pytest.raises(InvalidArgumentError):
            env.step(bad)  # type: ignore[arg-type]
    assert [env.game(i).to_json() for i in range(3)] == before
    assert np.array_equal(obs, kept[0]) and np.array_equal(mask, kept[1])


def test_rewards_are_minus_round_scores_and_finished_games_reset_at_once() -> None:
    env = VecEnv(2, seed=3, opponents="greedy", agent_seat=2)
    env.reset()
    sums = np.zeros((2, 4), dtype=np.float64)
    finished = 0
    for k in range(100_000):
        totals_before = [env.game(i).totals for i in range(2)]
        _, _, rewards, terminated, truncated = env.step(env.sample_actions(k))
        assert not truncated.any() and (env.to_act == 2).all()
        sums += rewards
        for i in range(2):
            if terminated[i]:
                # L-10.3: a game's rewards add up to minus its final totals.
                assert np.array_equal(sums[i], -env.last_totals[i])
                sums[i] = 0
                finished += 1
                game = env.game(i)
                assert game.round == 1 and game.totals == [0, 0, 0, 0]
            else:
                added = np.array(env.game(i).totals) - np.array(totals_before[i])
                assert np.array_equal(rewards[i], -added)  # L-10.1
        if finished >= 2:
            break
    assert finished >= 2 and env.episodes.sum() == finished


def test_bad_arguments_are_typed_errors() -> None:
    for kwargs, code in [
        ({"n": 0}, "invalid_argument"),
        ({"n": 2, "opponents": "nobody"}, "invalid_argument"),
        ({"n": 2, "opponents": "greedy", "agent_seat": 4}, "invalid_argument"),
        ({"n": 2, "players": 1}, "invalid_argument"),
        ({"n": 2, "threads": 0}, "invalid_argument"),
    ]:
        with pytest.raises(liverpool.LiverpoolError) as e:
            VecEnv(**kwargs)  # type: ignore[arg-type]
        assert e.value.code == code, kwargs
    assert liverpool.action_space_size(players=4) == VecEnv(1).action_space_size == GameState().action_space_size


def test_a_busy_vec_env_raises_concurrent_use_error() -> None:
    # One call at a time per environment (docs/guarantees.md "Threads"): other threads
    # get a typed error at once, never RuntimeError('Already borrowed') or a crash.
    env = VecEnv(64, seed=4)
    env.reset()
    seen: list[str] = []
    barrier = threading.Barrier(3)

    def worker(offset: int) -> None:
        barrier.wait()
        for k in range(40):
            try:
                env.step(env.sample_actions(offset + k))
                seen.append("ok")
            except ConcurrentUseError as e:
                seen.append("busy" if e.code == "busy" and isinstance(e, RuntimeError) else repr(e))
            except InvalidArgumentError as e:
                # Another thread stepped between this thread's sample and its step:
                # the ids are stale, refused as illegal, and nothing changed.
                seen.append("stale" if e.code == "invalid_action_id" else repr(e))
            except Exception as e:  # anything else fails the test below
                seen.append(repr(e))
            if not (env.num_envs == 64 and env.action_space_size > 0):
                seen.append("sizes unavailable")

    threads = [threading.Thread(target=worker, args=(1000 * i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert "ok" in seen and set(seen) <= {"ok", "busy", "stale"}, set(seen)
    # Whatever interleaving happened, every row is still its game's.
    for i in range(0, 64, 16):
        assert np.array_equal(env.step(env.sample_actions(7))[1][i], env.game(i).legal_action_mask(int(env.to_act[i])))
