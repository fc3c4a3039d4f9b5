"""Run by tests/test_distributed.py inside its own network namespace (Ray then
binds 127.0.0.1 only): one local Ray, and for the same seeds the Ray runs must
give exactly the local runs' numbers. Prints one line per check; exits non-zero
on the first difference."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

import liverpool
from liverpool import RuleSet
from liverpool.agents import tournament
from liverpool.tools import cli
from liverpool.agents.distributed import ensure_ray

FIELDS = ("round_scores", "went_out", "turns", "buys", "cut_bonus", "no_winner", "totals", "winners")


def same_simulation(local: liverpool.SimulationResult, remote: liverpool.SimulationResult) -> None:
    assert (remote.games, remote.seed, remote.first, remote.bots) == (local.games, local.seed, local.first, local.bots)
    for field in FIELDS:
        assert np.array_equal(getattr(local, field), getattr(remote, field)), field


def main() -> int:
    ray = ensure_ray(None)
    assert ray.is_initialized()
    # A batch larger than the tasks (8 per 2 CPUs): uneven seed ranges, with a first index.
    bots = "greedy,random,greedy"
    local = liverpool.simulate(45, seed=11, bots=bots, threads=1, first=3)
    seen: list[int] = []
    remote = liverpool.simulate(45, seed=11, bots=bots, first=3, backend="ray", progress=lambda d, t: seen.append(d))
    same_simulation(local, remote)
    assert seen and seen[-1] == 45 and seen == sorted(seen), seen
    print("simulate: ray == local")

    rules = RuleSet("shanghai")
    local = liverpool.simulate(10, seed=2, bots=["greedy"] * 4, rules=rules)
    same_simulation(local, liverpool.simulate(10, seed=2, bots=["greedy"] * 4, rules=rules, backend="ray"))
    print("simulate with a rule set: ray == local")

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sim.json"
        code = cli.main(["simulate", "--games", "12", "--seed", "4", "--ray", "--json", str(out), "--no-progress"])
        assert code == 0
        on_ray = json.loads(out.read_text())
        code = cli.main(["simulate", "--games", "12", "--seed", "4", "--json", str(out), "--no-progress"])
        here = json.loads(out.read_text())
        assert on_ray["backend"] == "ray" and here["backend"] == "local"
        assert on_ray["seats"] == here["seats"] and on_ray["rounds"] == here["rounds"]
    print("liverpool simulate --ray: same summary")

    for lineup in (["greedy", "random", "greedy"], ["greedy", "liverpool.agents.bots:RandomBot", "random"]):
        here_t = tournament.play(lineup, deals=3, seed=5)
        ray_t = tournament.play(lineup, deals=3, seed=5, backend="ray")
        assert np.array_equal(here_t.totals, ray_t.totals) and np.array_equal(here_t.winners, ray_t.winners), lineup
    print("tournament: ray == local (native and Python line-ups)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
