"""Simulation on one machine or on a Ray cluster: :func:`simulate` with ``backend=``.

Game ``i`` of a batch seeded with ``seed`` depends only on ``(seed, i)``, the bots
and the rules (see :func:`liverpool._core.simulate`). So a batch splits into seed
ranges, games ``first..first + k``, that can run anywhere; joined in order with
:meth:`SimulationResult.concat <liverpool.SimulationResult.concat>` they give
exactly the arrays of the local run.

- ``backend="local"`` (the default) is the native call itself: every core of this
  machine, the GIL released, nothing in Python per game.
- ``backend="ray"`` cuts the batch into ranges, runs each as a Ray task (one CPU,
  one engine thread each) and fills the progress bar as tasks finish. With no
  ``ray_address`` a local Ray is started (``ray.init()``); otherwise it joins that
  cluster, whose nodes need this package installed. A Ray this module started is
  left running for the next call (``ray.shutdown()`` stops it).

Ray is imported only for ``backend="ray"``; it is the ``distributed`` extra
(``pip install 'liverpool-rummy[distributed]'``).

>>> from liverpool.agents.distributed import simulate, seed_ranges
>>> seed_ranges(10, 3)
[(0, 4), (4, 3), (7, 3)]
>>> simulate(4, seed=2, bots="greedy,random", threads=1).totals.shape
(4, 2)
>>> simulate(4, backend="spark")
Traceback (most recent call last):
...
liverpool.errors.InvalidArgumentError: backend must be 'local' or 'ray', not 'spark'
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Literal

from liverpool import _core
from liverpool._core import RuleSet, SimulationResult
from liverpool.errors import InvalidArgumentError

__all__ = ["BACKENDS", "simulate", "simulate_ray", "seed_ranges", "import_ray"]

#: The values of ``backend``.
BACKENDS: tuple[str, ...] = ("local", "ray")

Backend = Literal["local", "ray"]
Progress = Callable[[int, int], object]


def simulate(
    games: int,
    seed: int | None = None,
    bots: Sequence[str] | str | None = None,
    rules: RuleSet | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    first: int | None = None,
    *,
    backend: Backend = "local",
    ray_address: str | None = None,
) -> SimulationResult:
    """Play ``games`` full games between native bots and return their results.

    The arguments before ``backend`` are those of the native
    :func:`liverpool._core.simulate` (one bot name per seat, ``threads`` of this
    machine, ``progress(done, total)``, ``first`` game index). ``backend="ray"``
    runs seed ranges as Ray tasks on the cluster at ``ray_address`` (a local Ray
    when ``None``; ``threads`` is then the engine threads of each task, default 1)
    and returns the same numbers as the local run.
    """
    if backend == "local":
        if ray_address is not None:
            raise InvalidArgumentError("ray_address is only for backend='ray'", "invalid_argument")
        return _core.simulate(games, seed=seed, bots=bots, rules=rules, threads=threads, progress=progress, first=first)
    if backend == "ray":
        return simulate_ray(
            games, seed=seed, bots=bots, rules=rules, progress=progress, first=first, address=ray_address, threads=threads
        )
    raise InvalidArgumentError(f"backend must be 'local' or 'ray', not {backend!r}", "invalid_argument")


def seed_ranges(games: int, parts: int, first: int = 0) -> list[tuple[int, int]]:
    """``games`` game indices from ``first`` cut into at most ``parts`` consecutive
    ranges ``(first, count)`` of near-equal size (the first ranges one longer)."""
    parts = max(1, min(parts, games))
    size, extra = divmod(games, parts)
    ranges = []
    start = first
    for part in range(parts):
        count = size + (1 if part < extra else 0)
        if count:
            ranges.append((start, count))
        start += count
    return ranges


def import_ray() -> ModuleType:
    """The ``ray`` module, or an ``ImportError`` that names the extra to install."""
    try:
        return importlib.import_module("ray")
    except ModuleNotFoundError as exc:
        raise ImportError(
            "the Ray backend needs the 'distributed' extra: pip install 'liverpool-rummy[distributed]'"
        ) from exc


def ensure_ray(address: str | None) -> ModuleType:
    """Ray, connected: to ``address``, or to a new local Ray when ``None`` (with
    Ray's usage statistics off unless ``RAY_USAGE_STATS_ENABLED`` says otherwise). A
    Ray already initialised in this process is used as it is."""
    ray = import_ray()
    if not ray.is_initialized():
        if address is None:
            # A Ray started for this process reports no usage statistics unless asked to.
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    return ray


def _play_range(first: int, games: int, seed: int, bots: list[str], rules_json: str, threads: int) -> SimulationResult:
    """The body of one Ray task: games ``first..first + games`` of the batch."""
    rules = _core.RuleSet.from_json(rules_json)
    return _core.simulate(games, seed=seed, bots=bots, rules=rules, threads=threads, first=first)


def simulate_ray(
    games: int,
    seed: int | None = None,
    bots: Sequence[str] | str | None = None,
    rules: RuleSet | None = None,
    progress: Progress | None = None,
    first: int | None = None,
    address: str | None = None,
    threads: int | None = None,
    tasks: int | None = None,
) -> SimulationResult:
    """:func:`simulate` on Ray: ``tasks`` seed ranges (default four per CPU of the
    cluster, so the bar moves and a slow node does not hold the rest), each a
    task of one CPU running ``threads`` engine threads (default 1).

    Bad arguments (bots, rules, counts) are refused here, before any task starts,
    by a zero-game local run with the same arguments.
    """
    seed = 0 if seed is None else seed
    first = 0 if first is None else first
    threads = 1 if threads is None else threads
    if not isinstance(games, int) or games < 0:
        raise InvalidArgumentError(f"games must be a non-negative integer, not {games!r}", "invalid_argument")
    # The engine checks every other argument up front (the last index included), and
    # names the bots: tasks get the names, never the caller's objects.
    check = _core.simulate(0, seed=seed, bots=bots, rules=rules, threads=threads, first=first + games)
    names = list(check.bots)
    rules_json = (rules or RuleSet()).to_json()
    started = time.perf_counter()
    ray = ensure_ray(address)
    if tasks is None:
        tasks = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    ranges = seed_ranges(games, tasks, first)
    if not ranges:
        empty = _core.simulate(0, seed=seed, bots=names, rules=rules, first=first)
        return SimulationResult.concat([empty], seconds=time.perf_counter() - started)
    task = ray.remote(num_cpus=1)(_play_range)
    pending: dict[Any, int] = {
        task.remote(start, count, seed, names, rules_json, threads): part for part, (start, count) in enumerate(ranges)
    }
    parts: dict[int, SimulationResult] = {}
    done = 0
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                part = pending.pop(ref)
                parts[part] = ray.get(ref)
                done += ranges[part][1]
            if progress is not None:
                progress(done, games)
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    return SimulationResult.concat([parts[i] for i in range(len(ranges))], seconds=time.perf_counter() - started)
