"""Seed ranges, SimulationResult.concat / pickling, the backend argument, and Ray.

A batch split by game index and joined again must be the batch itself: game ``i``
depends only on ``(seed, i)``. The Ray test starts a local Ray in a network
namespace of its own (``unshare -n``, loopback only): Ray binds to the machine's
interface address otherwise, and it must never send traffic beyond loopback.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from liverpool import InvalidArgumentError, RuleSet, SimulationResult, simulate
from liverpool.agents.distributed import import_ray, seed_ranges

FIELDS = ("round_scores", "went_out", "turns", "buys", "cut_bonus", "no_winner", "totals", "winners")
RAY_CHECK = Path(__file__).parent / "ray_checks" / "ray_equality.py"


def assert_same_games(a: SimulationResult, b: SimulationResult) -> None:
    assert (a.games, a.rounds, a.players, a.seed, a.first, a.bots) == (b.games, b.rounds, b.players, b.seed, b.first, b.bots)
    for field in FIELDS:
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


@given(games=st.integers(0, 200), parts=st.integers(1, 50), first=st.integers(0, 10**6))
def test_seed_ranges_cover_the_batch_in_order(games: int, parts: int, first: int) -> None:
    ranges = seed_ranges(games, parts, first)
    assert len(ranges) <= parts
    assert all(count > 0 for _, count in ranges)
    indices = [i for start, count in ranges for i in range(start, start + count)]
    assert indices == list(range(first, first + games))
    sizes = [count for _, count in ranges]
    assert not sizes or max(sizes) - min(sizes) <= 1


BATCH_BOTS = ["greedy", "greedy", "greedy"]
BATCH = simulate(8, seed=9, bots=BATCH_BOTS, threads=1)


# Each example plays the batch's 8 games again: a few dozen examples cover the cuts.
@settings(max_examples=30)
@given(cuts=st.lists(st.integers(0, 8), min_size=0, max_size=3))
def test_concat_of_seed_ranges_is_the_whole_batch(cuts: list[int]) -> None:
    whole = BATCH
    bounds = [0, *sorted(cuts), 8]
    parts = [simulate(hi - lo, seed=9, bots=BATCH_BOTS, threads=1, first=lo) for lo, hi in zip(bounds, bounds[1:])]
    joined = SimulationResult.concat(parts)
    assert_same_games(whole, joined)
    assert joined.seconds == pytest.approx(sum(p.seconds for p in parts))
    assert SimulationResult.concat(parts, seconds=1.5).seconds == 1.5


def test_a_range_is_the_same_games_as_in_the_whole_batch() -> None:
    whole = simulate(10, seed=4, threads=2)
    tail = simulate(4, seed=4, threads=1, first=6)
    assert tail.first == 6 and "first=6" in repr(tail)
    assert np.array_equal(whole.totals[6:], tail.totals)
    assert np.array_equal(whole.round_scores[6:], tail.round_scores)


def test_pickling_keeps_every_field() -> None:
    result = simulate(5, seed=3, bots="greedy,random,greedy,greedy", rules=RuleSet("shanghai"), first=7)
    again = pickle.loads(pickle.dumps(result))
    assert_same_games(result, again)
    assert again.seconds == result.seconds


def test_concat_refuses_parts_that_do_not_follow() -> None:
    a = simulate(3, seed=1, threads=1)
    b = simulate(3, seed=1, threads=1, first=3)
    with pytest.raises(InvalidArgumentError) as gap:
        SimulationResult.concat([b, a])
    assert gap.value.key == "sim.concat_part" and gap.value.params["expected_first"] == "6"
    with pytest.raises(InvalidArgumentError) as other_seed:
        SimulationResult.concat([a, simulate(3, seed=2, threads=1, first=3)])
    assert other_seed.value.key == "sim.concat_part"
    with pytest.raises(InvalidArgumentError) as other_bots:
        SimulationResult.concat([a, simulate(3, seed=1, bots=["greedy"] * 4, threads=1, first=3)])
    assert other_bots.value.key == "sim.concat_part"
    with pytest.raises(InvalidArgumentError) as empty:
        SimulationResult.concat([])
    assert empty.value.key == "sim.concat_empty"
    with pytest.raises(InvalidArgumentError):
        SimulationResult.concat([a, "not a result"])  # type: ignore[list-item]


def test_backend_argument() -> None:
    with pytest.raises(InvalidArgumentError, match="backend"):
        simulate(1, backend="dask")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="ray_address"):
        simulate(1, ray_address="127.0.0.1:6379")
    with pytest.raises(InvalidArgumentError):
        simulate(1, first=-1)


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(ImportError, match=r"'distributed' extra"):
        import_ray()
    with pytest.raises(ImportError, match=r"'distributed' extra"):
        simulate(2, backend="ray")


def loopback_only_command(script: Path) -> list[str]:
    """``script`` run by this Python in a new network namespace with only loopback up."""
    return ["unshare", "-n", "sh", "-c", f"ip link set lo up && exec {sys.executable} {script}"]


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None,
    reason="a network namespace needs root, unshare and ip (the Ray test never runs outside one)",
)
def test_ray_gives_the_local_numbers() -> None:
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "PYTHONWARNINGS": "error::DeprecationWarning"}
    proc = subprocess.run(
        loopback_only_command(RAY_CHECK), capture_output=True, text=True, env=env, timeout=240, check=False
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for line in (
        "simulate: ray == local",
        "simulate with a rule set: ray == local",
        "liverpool simulate --ray: same summary",
        "tournament: ray == local (native and Python line-ups)",
    ):
        assert line in proc.stdout
