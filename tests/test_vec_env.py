"""``liverpool.VecEnv`` (docs/action-space.md "VecEnv"): determinism across thread
counts, masks equal to each game's ``legal_action_mask``, illegal ids refused with
nothing changed, rewards equal to the round scores, automatic reset. Kept cheap: a
few games and a few hundred steps."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# --- hostile inputs (issue 17): refused with a typed error, never truncated -----------

_N = 3


def _hostile_actions() -> st.SearchStrategy[object]:
    """Action arrays a careless or hostile caller could pass: the right length but
    not integers (floats like 6.7, bools, complex, strings, objects), the wrong shape,
    integers outside the space or masked out."""
    floats = st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=_N, max_size=_N)
    return st.one_of(
        floats.map(lambda xs: np.array(xs, dtype=np.float64)),
        floats,
        st.lists(st.booleans(), min_size=_N, max_size=_N).map(np.array),
        st.lists(st.booleans(), min_size=_N, max_size=_N),
        st.lists(st.complex_numbers(allow_nan=False), min_size=_N, max_size=_N).map(np.array),
        st.lists(st.text(max_size=3), min_size=_N, max_size=_N),
        st.lists(st.binary(max_size=3), min_size=_N, max_size=_N),
        st.lists(st.integers(-(2**70), 2**70), min_size=0, max_size=_N + 2).filter(lambda xs: len(xs) != _N),
        st.lists(st.integers(-(2**63), -1) | st.integers(2_000, 2**63 - 1), min_size=_N, max_size=_N),
        st.lists(st.integers(0, 2**64 - 1), min_size=_N, max_size=_N).map(lambda xs: np.array(xs, dtype=np.uint64)),
        st.lists(st.integers(0, 5), min_size=_N, max_size=_N).map(lambda xs: np.array([xs])),
        st.just(np.array(6.7)),
        st.just(None),
        st.just({"a": 1}),
    )


@settings(max_examples=150, deadline=None)
@given(actions=_hostile_actions())
def test_hostile_action_arrays_are_refused_and_change_nothing(actions: object) -> None:
    env = VecEnv(_N, seed=11)
    obs, mask = env.reset()
    before = [env.game(i).to_json() for i in range(_N)]
    kept = obs.copy(), mask.copy()
    legal = all(
        isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) and 0 <= int(a) < mask.shape[1]
        and mask[i, int(a)]
        for i, a in enumerate(actions if isinstance(actions, (list, np.ndarray)) and np.ndim(actions) == 1
                              and len(actions) == _N else [None])
    )
    if legal:  # an all-legal integer array is a normal step
        env.step(actions)  # type: ignore[arg-type]
        return
    with pytest.raises(InvalidArgumentError) as e:
        env.step(actions)  # type: ignore[arg-type]
    assert e.value.code in ("invalid_argument", "invalid_action_id")
    assert [env.game(i).to_json() for i in range(_N)] == before
    assert np.array_equal(obs, kept[0]) and np.array_equal(mask, kept[1])


def test_float_and_bool_ids_are_not_truncated_to_ids() -> None:
    env = VecEnv(1, seed=2)
    _, mask = env.reset()
    cut = int(np.flatnonzero(mask[0])[3])
    for bad in ([cut + 0.7], [float(cut)], np.array([cut], dtype=np.float32), [True], np.array([1 + 0j])):
        with pytest.raises(InvalidArgumentError) as e:
            env.step(bad)  # type: ignore[arg-type]
        assert e.value.key == "vec_env.actions_kind", bad
    env.step(np.array([cut], dtype=np.int32))  # any integer dtype is fine
    assert env.game(0).phase == "draw"


def test_numpy_integers_are_counts_seeds_and_indices_and_bools_are_not() -> None:
    env = VecEnv(np.int64(2), seed=np.uint32(7), threads=np.int8(1), agent_seat=np.int16(0))
    assert env.num_envs == 2
    env.reset(seed=np.int64(3))
    env.sample_actions(np.uint64(5))
    assert env.game(np.int32(1)).players == 4
    for kwargs in ({"n": True}, {"n": np.bool_(True)}, {"n": 2.0}, {"n": "2"}, {"n": 2, "seed": True},
                   {"n": 2, "seed": 1.5}, {"n": 2, "threads": True}, {"n": 2, "agent_seat": 1.5},
                   {"n": 2, "seed": -1}, {"n": 2, "seed": 2**64}):
        with pytest.raises(InvalidArgumentError) as e:
            VecEnv(**kwargs)  # type: ignore[arg-type]
        assert e.value.code == "invalid_argument", kwargs
    for bad in (True, 1.0, "1", -1, 2):
        with pytest.raises(InvalidArgumentError):
            env.game(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        env.sample_actions(0.5)  # type: ignore[arg-type]
