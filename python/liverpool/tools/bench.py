"""``liverpool bench``: the engine against baselines measured in the same run.

Every number is measured in this process, on this machine, in one run, so a
ratio never compares numbers from different machines or days. Each section is a
function registered with :func:`section`; it measures one area and returns
:class:`Row` objects (one per printed line, one JSON key each). Add a section by
writing one more decorated function: the table, the JSON and ``--quick`` come
for free. ``docs/benchmarks.md`` explains every number and its target.

Timing: ``time.perf_counter_ns``, one warm-up call, then the best of *k* repeats
(the least disturbed run; noise only ever adds time).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import liverpool
from liverpool.agents.bots import NATIVE_BOTS
from liverpool.tools.options import add_rules_argument, load_rules

DECK_SIZE = 107  # profile L (RULES.md L-1.2)


@dataclass
class Row:
    """One measured number; ``key`` is its name in the JSON output.

    >>> Row("deal_ns_per_deck", "shuffle", 100.0, "ns/deck", baseline=700.0).ratio
    7.0
    >>> Row("missing", "not built", None, "ns").ratio is None
    True
    """

    key: str
    name: str
    value: float | None
    unit: str
    target: str = ""
    baseline: float | None = None
    ratio_key: str | None = None
    note: str = ""
    # How many times faster than the baseline; computed as baseline / value unless given.
    ratio: float | None = None

    def __post_init__(self) -> None:
        if self.ratio is None and self.value and self.baseline is not None:
            self.ratio = self.baseline / self.value


@dataclass
class Context:
    """What every section gets: the run's settings and a place for shared data."""

    quick: bool
    seed: int
    rules: liverpool.RuleSet = field(default_factory=liverpool.RuleSet)
    extra: dict[str, Any] = field(default_factory=dict)  # more JSON fields, e.g. per-round numbers
    notes: list[str] = field(default_factory=list)

    def size(self, quick: int, full: int) -> int:
        return quick if self.quick else full


Section = Callable[[Context], list[Row]]
SECTIONS: list[tuple[str, Section]] = []


def section(name: str) -> Callable[[Section], Section]:
    """Register a benchmark section; sections run in registration order."""

    def register(func: Section) -> Section:
        SECTIONS.append((name, func))
        return func

    return register


# --- timing helpers ---------------------------------------------------------------


def best_ns(func: Callable[[], object], repeats: int, warmup: int = 1) -> int:
    """The fastest of ``repeats`` timed calls, after ``warmup`` untimed ones."""
    for _ in range(warmup):
        func()
    best = None
    for _ in range(repeats):
        start = time.perf_counter_ns()
        func()
        elapsed = time.perf_counter_ns() - start
        best = elapsed if best is None else min(best, elapsed)
    assert best is not None, "repeats must be at least 1"
    return best


class _TimeLimit(Exception):
    """Raised inside a call that exceeded its time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt pure-Python work after ``seconds`` (SIGALRM; a no-op where unavailable)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise _TimeLimit

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _call_each(func: Callable[..., object], hands: list[list[liverpool.Card]], round_: int) -> None:
    for hand in hands:
        func(hand, round_)


def missing(name: str) -> str:
    return f"skipped: {name} is not available in this build"


def random_hands(ctx: Context, round_: int, count: int) -> np.ndarray:
    """``count`` random hands for ``round_``: deal size + 1 cards (a hand after its
    draw), the top cards of independently shuffled decks."""
    size = ctx.rules.deal_sizes[round_ - 1] + 1
    decks = liverpool.shuffled_decks(count, ctx.seed + round_, ctx.rules)
    return np.ascontiguousarray(decks[:, :size])


# --- sections -----------------------------------------------------------------------


@section("deal")
def bench_deal(ctx: Context) -> list[Row]:
    """Batch shuffling against numpy's argsort-of-uniforms permutation per row."""
    repeats = ctx.size(5, 7)  # each call is short: more repeats make the minimum steadier
    n = ctx.size(200_000, 1_000_000)
    all_cores = best_ns(lambda: liverpool.shuffled_decks(n, ctx.seed), repeats) / n
    one_core = best_ns(lambda: liverpool.shuffled_decks(n, ctx.seed, threads=1), repeats) / n

    rows_np = ctx.size(20_000, 100_000)
    rng = np.random.default_rng(ctx.seed)
    numpy_row = best_ns(lambda: np.argsort(rng.random((rows_np, DECK_SIZE)), axis=1), repeats) / rows_np

    single = ctx.size(2_000, 10_000)
    single_call = best_ns(lambda: [liverpool.shuffled_deck(s) for s in range(single)], repeats) / single
    return [
        Row(
            "deal_ns_per_deck",
            "shuffled_decks, all cores",
            all_cores,
            "ns/deck",
            target="< 300 ns/deck; >= 5x numpy",
            baseline=numpy_row,
            ratio_key="deal_speedup_vs_numpy",
            note=f"{n} decks of {DECK_SIZE}",
        ),
        Row("deal_ns_per_deck_1_thread", "shuffled_decks, 1 thread", one_core, "ns/deck", baseline=numpy_row),
        Row(
            "numpy_argsort_ns_per_row",
            "numpy argsort(random((n,107)))",
            numpy_row,
            "ns/row",
            note=f"baseline, {rows_np} rows",
        ),
        Row(
            "deal_single_call_ns",
            "shuffled_deck(seed) from Python",
            single_call,
            "ns/call",
            note="one deck as a list of 107 Card objects",
        ),
    ]


@section("search")
def bench_search(ctx: Context) -> list[Row]:
    """Contract search: native batch, one call from Python, and the pure-Python reference."""
    rows: list[Row] = []
    rounds = range(1, ctx.rules.rounds + 1)
    batch = getattr(liverpool, "best_go_down_points_left_batch", None)
    single = getattr(liverpool, "best_go_down", None)
    try:
        from liverpool import reference
    except ImportError:
        reference = None  # type: ignore[assignment]
    reference_search = getattr(reference, "best_go_down", None)

    batch_by_round: dict[int, float] = {}
    if batch is None:
        rows.append(Row("search_ns_per_hand", "best_go_down_points_left_batch", None, "ns/hand",
                        note=missing("liverpool.best_go_down_points_left_batch")))
    else:
        n = ctx.size(2_000, 20_000)
        for round_ in rounds:
            hands = random_hands(ctx, round_, n)
            batch_by_round[round_] = best_ns(partial(batch, hands, round_), ctx.size(2, 3)) / n
        ctx.extra["search_ns_per_hand_by_round"] = {str(r): v for r, v in batch_by_round.items()}

    reference_by_round: dict[int, float] = {}
    if reference_search is None:
        rows.append(Row("reference_ns_per_hand", "reference.best_go_down", None, "ns/hand",
                        note=missing("liverpool.reference.best_go_down")))
    else:
        rules_dict = json.loads(ctx.rules.to_json())
        budget_s, per_hand_limit_s = ctx.size(1, 5), ctx.size(3, 30)
        for round_ in rounds:
            hands = random_hands(ctx, round_, 200)
            spent, timed = 0, 0
            try:
                for hand in hands:
                    ids = [int(c) for c in hand]
                    start = time.perf_counter_ns()
                    with time_limit(per_hand_limit_s):
                        reference_search(ids, round_, rules_dict)
                    spent += time.perf_counter_ns() - start
                    timed += 1
                    if spent >= budget_s * 1e9:
                        break
            except _TimeLimit:
                ctx.notes.append(f"reference: a round-{round_} hand took over {per_hand_limit_s} s; round left out")
                continue
            if timed:
                reference_by_round[round_] = spent / timed
        ctx.extra["reference_ns_per_hand_by_round"] = {str(r): v for r, v in reference_by_round.items()}
        ctx.extra["reference_hands_per_round_budget_s"] = budget_s

    if batch_by_round:
        search_mean = sum(batch_by_round.values()) / len(batch_by_round)
        # The ratio compares the rounds both sides measured (the reference may skip one).
        common = [r for r in batch_by_round if r in reference_by_round]
        reference_mean = sum(reference_by_round[r] for r in common) / len(common) if common else None
        ratio = None
        if reference_mean is not None:
            ratio = reference_mean / (sum(batch_by_round[r] for r in common) / len(common))
        note = "mean of rounds 1-7, all cores"
        if common and len(common) < len(batch_by_round):
            note += f"; ratio over rounds {common}"
        rows.append(Row(
            "search_ns_per_hand",
            "best_go_down_points_left_batch",
            search_mean,
            "ns/hand",
            target="far below the reference",
            baseline=reference_mean,
            ratio_key="search_speedup_vs_reference",
            ratio=ratio,
            note=note,
        ))
    if reference_by_round:
        rows.append(Row(
            "reference_ns_per_hand",
            "reference.best_go_down (pure Python)",
            sum(reference_by_round.values()) / len(reference_by_round),
            "ns/hand",
            note=f"baseline, mean of rounds {sorted(reference_by_round)}",
        ))

    if single is None:
        rows.append(Row("search_single_call_ns", "best_go_down(hand, round)", None, "ns/call",
                        note=missing("liverpool.best_go_down")))
    else:
        per_round = ctx.size(50, 300)
        times = []
        for round_ in rounds:
            card_hands = [
                [liverpool.Card.from_id(int(c)) for c in hand] for hand in random_hands(ctx, round_, per_round)
            ]
            calls = partial(_call_each, single, card_hands, round_)
            times.append(best_ns(calls, ctx.size(2, 3)) / per_round)
        ctx.extra["search_single_call_ns_by_round"] = {str(r): t for r, t in zip(rounds, times)}
        rows.append(Row(
            "search_single_call_ns",
            "best_go_down(hand, round) from Python",
            sum(times) / len(times),
            "ns/call",
            note="mean of rounds 1-7; hands as lists of Card",
        ))
    return rows


# --- search_worst: the contract search's slow corner (issue 19) ----------------------

WORST_BUYS = 3  # hand sizes up to three buys (each buy: the discard and a penalty card)


def _largest_deck(rules: liverpool.RuleSet) -> tuple[int, int]:
    """(decks, jokers) of the rule set's largest table."""
    tiers = json.loads(rules.to_json())["deck_tiers"]
    largest = max(tiers, key=lambda tier: tier["max_players"])
    return int(largest["decks"]), int(largest["jokers"])


def run_rich_hands(
    rng: np.random.Generator, decks: int, size: int, jokers: int, suits: int, count: int
) -> list[list[liverpool.Card]]:
    """``count`` hands of ``size`` cards: ``jokers`` jokers, and naturals of ``suits``
    suits chosen at random, laid down as stretches of 3 to 6 consecutive ranks (the ace
    low or high) while copies last, so that the hands are full of runs."""
    hands = []
    for _ in range(count):
        chosen = [int(s) for s in rng.choice(4, size=suits, replace=False)]
        copies = {s * 13 + r: decks for s in chosen for r in range(13)}
        naturals: list[int] = []
        while len(naturals) < size - jokers:
            suit = chosen[int(rng.integers(suits))]
            start = int(rng.integers(1, 15))  # position 1..14: the ace is 1 and 14
            for position in range(start, min(start + int(rng.integers(3, 7)), 15)):
                card = suit * 13 + (position - 1) % 13
                if copies[card] and len(naturals) < size - jokers:
                    copies[card] -= 1
                    naturals.append(card)
        ids = sorted(naturals) + [52] * jokers
        hands.append([liverpool.Card.from_id(i) for i in ids])
    return hands


def single_call_ns(func: Callable[..., object], hand: list[liverpool.Card], round_: int, calls: int = 3) -> int:
    """The fastest of ``calls`` timed calls of ``func(hand, round_)``."""
    best = None
    for _ in range(calls):
        start = time.perf_counter_ns()
        func(hand, round_)
        elapsed = time.perf_counter_ns() - start
        best = elapsed if best is None else min(best, elapsed)
    assert best is not None
    return best


@section("search_worst")
def bench_search_worst(ctx: Context) -> list[Row]:
    """The search's slow corner: single ``best_go_down`` calls on joker-rich hands whose
    naturals come from one or two suits, every round, at the deal's size and up to
    three buys more (docs/benchmarks.md)."""
    single = getattr(liverpool, "best_go_down", None)
    if single is None:
        return [Row("search_worst_p99_us", "best_go_down, run-rich hands", None, "µs",
                    note=missing("liverpool.best_go_down"))]
    decks, max_jokers = _largest_deck(ctx.rules)
    count = ctx.size(60, 1_000)
    families: dict[str, dict[str, float]] = {}
    print(f"search_worst: best_go_down single calls, {count} hands per family, each the fastest of 3 calls;"
          f" p50 / p99 / max in µs; {decks} decks, up to {max_jokers} jokers")
    header = "round suits cards " + " ".join(f"{f'{j} jokers':>20}" for j in range(max_jokers + 1))
    print(header)
    for round_ in range(1, ctx.rules.rounds + 1):
        deal = ctx.rules.deal_sizes[round_ - 1]
        for suits in (1, 2):
            for size in range(deal, deal + 2 * WORST_BUYS + 2):
                cells = []
                for jokers in range(max_jokers + 1):
                    if size - jokers > 13 * decks * suits:
                        cells.append(f"{'-':>20}")
                        continue
                    rng = np.random.default_rng([ctx.seed, round_, suits, size, jokers])
                    hands = run_rich_hands(rng, decks, size, jokers, suits, count)
                    times = np.array([single_call_ns(single, hand, round_) for hand in hands]) / 1000
                    p50, p99, top = (float(np.percentile(times, 50)), float(np.percentile(times, 99)),
                                     float(times.max()))
                    families[f"r{round_}_s{suits}_n{size}_j{jokers}"] = {"p50": p50, "p99": p99, "max": top}
                    cells.append(f"{p50:6.1f} {p99:6.1f} {top:6.0f}")
                print(f"{round_:>5} {suits:>5} {size:>5} " + " ".join(cells))
    ctx.extra["search_worst_us_by_family"] = families
    worst_p99 = max(families, key=lambda k: families[k]["p99"])
    worst_max = max(families, key=lambda k: families[k]["max"])
    return [
        Row("search_worst_p99_us", "best_go_down run-rich: worst family p99", families[worst_p99]["p99"], "µs",
            target="<= 50 µs", note=f"family {worst_p99} (round, suits, cards, jokers)"),
        Row("search_worst_max_us", "best_go_down run-rich: worst single hand", families[worst_max]["max"], "µs",
            target="<= 200 µs", note=f"family {worst_max}"),
    ]


@section("open_spiel")
def bench_open_spiel(ctx: Context) -> list[Row]:
    """Context from another engine: OpenSpiel's gin rummy ``min_deadwood`` on 11-card hands."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        ctx.notes.append("open_spiel: pyspiel is not installed (pip install 'liverpool-rummy[bench]'); row skipped")
        return []
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng = np.random.default_rng(ctx.seed)
    count = ctx.size(500, 5_000)
    hands = [[int(c) for c in rng.permutation(52)[:11]] for _ in range(count)]
    per_hand = best_ns(lambda: [utils.min_deadwood(hand) for hand in hands], ctx.size(2, 3)) / count
    return [Row(
        "open_spiel_min_deadwood_ns_per_hand",
        "open_spiel gin_rummy min_deadwood",
        per_hand,
        "ns/hand",
        note="context only: 11 of 52 cards, a different game's search",
    )]


# --- games: native bots, the Python loop, state clones --------------------------


def _python_loop(seed: int, games: int) -> int:
    """Play ``games`` games from Python with uniformly random legal actions
    (``legal_actions`` then ``apply``); returns the number of actions applied."""
    import random

    rng = random.Random(seed)
    actions = 0
    for i in range(games):
        state = liverpool.GameState(seed=seed + i)
        while (seat := state.to_act) is not None:
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            actions += 1
    return actions


def _mid_game_state(seed: int) -> liverpool.GameState:
    """Greedy play into round 3 until melds are on the table and a few turns passed."""
    state = liverpool.GameState(seed=seed)
    bots = [liverpool.NativeBot("greedy", seed=s) for s in range(4)]
    after = 0
    while (seat := state.to_act) is not None and after < 20:
        if state.round >= 3 and state.table:
            after += 1
        state.apply(seat, bots[seat].choose(state, seat))
    return state


@section("games")
def bench_games(ctx: Context) -> list[Row]:
    """Full greedy games natively (one thread, every core), a Python game loop,
    and the cost of cloning a mid-game state (native, and from Python)."""
    if not hasattr(liverpool, "simulate"):
        return [Row("native_games_per_s", "greedy games, native", None, "games/s", note=missing("simulate"))]
    rows: list[Row] = []
    greedy = ["greedy"] * 4
    repeats = ctx.size(2, 3)
    n = ctx.size(300, 3_000)
    one = best_ns(lambda: liverpool.simulate(n, ctx.seed, greedy, threads=1), repeats) / 1e9
    rows.append(Row(
        "native_games_per_s",
        "full 7-round 4-player greedy games, 1 thread",
        n / one,
        "games/s",
        target=">= 4,000 (issue 10)",
        note="liverpool.simulate(n, bots=['greedy'] * 4, threads=1), GIL released",
    ))
    n_all = n * core_count()
    every = best_ns(lambda: liverpool.simulate(n_all, ctx.seed, greedy), repeats) / 1e9
    rows.append(Row("native_games_per_s_all_cores", "the same on every core", n_all / every, "games/s"))

    loop_games = ctx.size(2, 10)
    actions = _python_loop(ctx.seed, loop_games)  # also the warm-up
    loop_s = best_ns(lambda: _python_loop(ctx.seed, loop_games), repeats, warmup=0) / 1e9
    ctx.extra["python_loop_actions_per_game"] = actions / loop_games
    ctx.extra["python_loop_actions_per_s"] = actions / loop_s  # the vec_env section's baseline
    baseline = _open_spiel_loop(ctx)
    rows.append(Row(
        "python_loop_actions_per_s",
        "Python loop: legal_actions + random apply",
        actions / loop_s,
        "actions/s",
        target=">= open_spiel gin loop",
        baseline=baseline,
        ratio_key="python_loop_vs_openspiel_gin",
        ratio=None if baseline is None else (actions / loop_s) / baseline,
        note=f"{loop_games} random games; a random game has about {actions / loop_games:,.0f} actions",
    ))
    rows.append(Row("python_loop_games_per_s", "Python loop: whole random games", loop_games / loop_s, "games/s"))
    if baseline is not None:
        rows.append(Row(
            "openspiel_gin_python_loop_actions_per_s",
            "open_spiel gin_rummy, same Python loop",
            baseline,
            "actions/s",
            note="context: pyspiel legal_actions + apply_action, chance nodes sampled uniformly",
        ))

    rows.append(Row(
        "clone_ns",
        "GameState clone, native (mid-game)",
        liverpool._core.bench_clone_ns(ctx.size(100_000, 1_000_000)),
        "ns",
        target="< 1,000",
        note="round 3 with melds on the table; timed in Rust",
    ))
    state = _mid_game_state(ctx.seed)
    clones = ctx.size(20_000, 200_000)
    python_clone = best_ns(lambda: [state.clone() for _ in range(clones)], repeats) / clones
    rows.append(Row("python_clone_ns", "GameState.clone() from Python", python_clone, "ns", note="includes the call"))
    return rows


def _open_spiel_loop(ctx: Context) -> float | None:
    """Actions per second of OpenSpiel's ``gin_rummy`` driven by the same Python
    loop (random legal actions, chance outcomes drawn uniformly); None without pyspiel."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        ctx.notes.append("games: pyspiel is not installed, so the open_spiel gin loop was skipped")
        return None
    import random

    game = pyspiel.load_game("gin_rummy")
    games = ctx.size(20, 200)

    def loop() -> int:
        rng = random.Random(ctx.seed)
        count = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = outcomes[rng.randrange(len(outcomes))][0]
                else:
                    action = rng.choice(state.legal_actions())
                state.apply_action(action)
                count += 1
        return count

    actions = loop()
    seconds = best_ns(loop, ctx.size(2, 3), warmup=0) / 1e9
    return float(actions / seconds)


def _expert_games(ctx: Context, games: int, opponent: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``games`` games of the expert in one seat against three ``opponent`` bots, the
    expert's seat rotated (a quarter of the games in each seat, seeds ``ctx.seed + seat``).
    Returns per game: the expert won (a shared lowest total counts), the expert's
    total, the mean total of the other seats."""
    won: list[np.ndarray] = []
    mine: list[np.ndarray] = []
    others: list[np.ndarray] = []
    for seat in range(4):
        bots = [opponent] * 4
        bots[seat] = "expert"
        n = games // 4 + (1 if seat < games % 4 else 0)
        if n == 0:
            continue
        r = liverpool.simulate(n, ctx.seed + seat, bots)
        totals = np.asarray(r.totals).reshape(n, 4)
        won.append(np.asarray(r.winners).reshape(n, 4)[:, seat])
        mine.append(totals[:, seat])
        others.append(np.delete(totals, seat, axis=1).mean(axis=1))
    return np.concatenate(won), np.concatenate(mine), np.concatenate(others)


def _win_rate_row(ctx: Context, won: np.ndarray, opponent: str, target: str) -> Row:
    """The expert's win rate against three ``opponent`` bots, with its 95% Wilson interval."""
    from liverpool.teach.explore import wilson_interval

    n = len(won)
    low, high = (float(x) for x in wilson_interval(int(won.sum()), n))
    ctx.extra[f"expert_vs_{opponent}_win_rate_ci95"] = [low, high]
    return Row(
        f"expert_vs_{opponent}_win_rate",
        f"expert vs 3 {opponent}: games won",
        float(won.mean()),
        "",
        target=target,
        note=f"{n} games, seats rotated; 95% CI [{low:.3f}, {high:.3f}]",
    )


def _expert_decision_ms(ctx: Context, games: int) -> list[float]:
    """Milliseconds of each expert decision that had a choice (more than one legal
    action), timed around ``NativeBot.choose`` in games against three greedy bots."""
    times: list[float] = []
    for game in range(games):
        state = liverpool.GameState(seed=ctx.seed + game)
        seat_of_expert = game % 4
        bots = [liverpool.NativeBot("greedy", seed=ctx.seed + 10 * game + s) for s in range(4)]
        bots[seat_of_expert] = liverpool.NativeBot("expert", seed=ctx.seed + game)
        while (seat := state.to_act) is not None:
            if seat == seat_of_expert and len(state.legal_actions(seat)) > 1:
                start = time.perf_counter()
                action = bots[seat].choose(state, seat)
                times.append((time.perf_counter() - start) * 1e3)
            else:
                action = bots[seat].choose(state, seat)
            state.apply(seat, action)
    return times


@section("expert")
def bench_expert(ctx: Context) -> list[Row]:
    """The expert bot's strength (issue 10): one expert against three greedy bots and
    against three random bots, seats rotated, with 95% intervals; and the time of its
    decisions."""
    if "expert" not in NATIVE_BOTS:
        return [Row("expert_vs_greedy_win_rate", "expert vs 3 greedy", None, "", note=missing("expert"))]
    rows: list[Row] = []
    n = ctx.size(8, 2_000)
    won, mine, others = _expert_games(ctx, n, "greedy")
    rows.append(_win_rate_row(ctx, won, "greedy", ">= 0.40 (equals: 0.25)"))
    spread = 1.96 * float(mine.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    rows.append(Row(
        "expert_mean_total", "expert's mean final total", float(mine.mean()), "points", note=f"± {spread:.1f} (95%)"
    ))
    spread = 1.96 * float(others.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    rows.append(Row(
        "expert_vs_greedy_greedy_mean_total",
        "the greedy seats' mean final total",
        float(others.mean()),
        "points",
        note=f"± {spread:.1f} (95%); lower wins (L-10.3)",
    ))
    n_random = ctx.size(4, 400)
    won_r, _, _ = _expert_games(ctx, n_random, "random")
    rows.append(_win_rate_row(ctx, won_r, "random", "near 1"))
    times = _expert_decision_ms(ctx, ctx.size(1, 8))
    note = f"{len(times)} decisions with a choice, vs 3 greedy, timed from Python"
    rows.append(Row("expert_decision_ms_p50", "expert decision, median", float(np.percentile(times, 50)), "ms", note=note))
    rows.append(Row("expert_decision_ms_p99", "expert decision, 99th percentile", float(np.percentile(times, 99)), "ms"))
    return rows


@section("card table")
def bench_card_table(ctx: Context) -> list[Row]:
    """The card table (issue 16): a whole game played by clicking, the learner's moves
    being a greedy bot's choices turned into clicks (``clicks_for``), buying on its
    default ("only when the card would help my hand"); the clicks per game, the share of
    them that answered a buy question, and the time the table takes to answer a click
    (the model's work and the view it sends, bots at the fastest pace)."""
    try:
        from liverpool.teach.game_loop import GameDriver
        from liverpool.teach.widgets.table_model import Settings, TableModel, clicks_for
    except ImportError as exc:  # the widgets need the notebooks extra
        return [Row("table_clicks_per_game", "card table", None, "clicks", note=f"not available: {exc}")]
    clicks: list[int] = []
    buys: list[int] = []
    answer_ms: list[float] = []
    decision_ms: list[float] = []  # all the clicks of one decision, the bots' moves after it included
    for game in range(ctx.size(1, 5)):
        table = TableModel(GameDriver.new(seed=ctx.seed + game), settings=Settings(pace="fast"), seed=ctx.seed + game)
        me = liverpool.NativeBot("greedy", seed=ctx.seed + game)
        while not table.state.is_game_over:
            decision = 0.0
            for intent in clicks_for(table, me.choose(table.state, 0)):
                start = time.perf_counter()
                table.handle(intent)
                table.view()
                answer_ms.append((time.perf_counter() - start) * 1e3)
                decision += answer_ms[-1]
            decision_ms.append(decision)
        clicks.append(table.stats.clicks)
        buys.append(table.stats.buy_answers)
    share = sum(buys) / max(sum(clicks), 1)
    note = f"{len(clicks)} games; before issue 16: 340 clicks, 55 % buy questions"
    return [
        Row("table_clicks_per_game", "card table: clicks per whole game", float(np.mean(clicks)), "clicks", note=note),
        Row("table_buy_question_share", "card table: buy questions among the clicks", share, "", target="<= 0.2"),
        Row("table_click_ms_p50", "card table: answer to a click, median", float(np.percentile(answer_ms, 50)), "ms", target="< 200"),
        Row("table_click_ms_p99", "card table: answer to a click, 99th percentile", float(np.percentile(answer_ms, 99)), "ms", target="< 200"),
        Row("table_decision_ms_p50", "card table: one learner decision, median", float(np.percentile(decision_ms, 50)), "ms",
            note=f"{len(decision_ms)} decisions; its clicks and the bots' moves until the next one"),
    ]


# --- running and reporting ---------------------------------------------------------


def git_commit() -> str | None:
    """The checkout's commit, if the package runs from a git work tree."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def core_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def format_number(value: float | None) -> str:
    """Three significant digits, thousands separators for large values.

    >>> format_number(1234.4), format_number(0.756), format_number(None)
    ('1,234', '0.756', '-')
    """
    if value is None:
        return "-"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def print_table(rows: list[Row]) -> None:
    header = ("name", "value", "unit", "baseline", "ratio", "target")
    lines = [header] + [
        (
            row.name,
            format_number(row.value),
            row.unit,
            format_number(row.baseline),
            "-" if row.ratio is None else f"{row.ratio:.1f}x",
            row.target,
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for i, line in enumerate(lines):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * width for width in widths))
    for row in rows:
        if row.note:
            print(f"  {row.name}: {row.note}")


def collect(rows: list[Row], ctx: Context, failures: list[str]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "quick": ctx.quick,
        "seed": ctx.seed,
        "cores": core_count(),
        "git_commit": git_commit(),
        "liverpool_version": liverpool.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
    }
    for row in rows:
        result[row.key] = row.value
        if row.ratio_key:
            result[row.ratio_key] = row.ratio
    result.update(ctx.extra)
    result["rows"] = [asdict(row) for row in rows]
    result["notes"] = ctx.notes
    result["failed_sections"] = failures
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quick", action="store_true", help="smaller sizes: a smoke run in well under a minute")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the results as JSON to FILE")
    parser.add_argument("--seed", type=int, default=2024, help="seed of every random deck and hand (default 2024)")
    add_rules_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        rules = load_rules(args.rules)
    except liverpool.LiverpoolError as exc:
        print(f"liverpool bench: error: {exc} [{exc.code}]", file=sys.stderr)
        return 2
    ctx = Context(quick=args.quick, seed=args.seed, rules=rules)
    rows: list[Row] = []
    failures: list[str] = []
    started = time.perf_counter()
    print(f"liverpool bench{' --quick' if ctx.quick else ''}: {core_count()} cores, seed {ctx.seed}")
    for name, func in SECTIONS:
        try:
            rows.extend(func(ctx))
        except Exception as exc:  # one broken section must not hide the others
            failures.append(name)
            ctx.notes.append(f"section {name} failed: {type(exc).__name__}: {exc}")
    print()
    print_table(rows)
    for note in ctx.notes:
        print(f"note: {note}")
    print(f"\n{len(rows)} numbers in {time.perf_counter() - started:.1f} s")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(collect(rows, ctx, failures), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 1 if failures else 0


# --- vec_env: the vectorised native environment (docs/action-space.md) ----------------


@section("vec_env")
def bench_vec_env(ctx: Context) -> list[Row]:
    """``VecEnv`` steps per second with uniformly random legal ids drawn natively
    (``sample_actions``), every core, every seat an agent; against the Python loop
    of the games section (the same random play, one action per call)."""
    if not hasattr(liverpool, "VecEnv"):
        return [Row("vec_env_steps_per_s", "VecEnv steps", None, "steps/s", note=missing("VecEnv"))]
    # 2 048 games: enough to share out over the cores, few enough that every game's
    # state and rows stay in cache (4 096 measured a third slower here).
    n = 2_048
    env = liverpool.VecEnv(n, rules=ctx.rules, seed=ctx.seed)
    env.reset()
    # Past the first cuts and deals into ordinary play (random games run for
    # thousands of steps; the start is not typical).
    for k in range(ctx.size(100, 300)):
        env.step(env.sample_actions(k))
    steps = ctx.size(60, 300)
    counter = iter(range(10**9))

    def run() -> None:
        for _ in range(steps):
            env.step(env.sample_actions(next(counter)))

    seconds = best_ns(run, ctx.size(2, 3), warmup=0) / 1e9
    rate = n * steps / seconds
    baseline = ctx.extra.get("python_loop_actions_per_s")
    ctx.extra["vec_env_envs"] = n
    ctx.extra["vec_env_action_space_size"] = env.action_space_size
    return [Row(
        "vec_env_steps_per_s",
        f"VecEnv: {n:,} games, random legal ids, all cores",
        rate,
        "steps/s",
        target=">= 1,000,000 and >= 5x the Python loop",
        ratio_key="vec_env_vs_python_loop",
        ratio=None if baseline is None else rate / baseline,
        note="env.step(env.sample_actions(k)): observation float32 and mask bool rows for every game each step"
        + ("" if baseline is not None else "; no python_loop_actions_per_s in this run, so no ratio"),
    )]


# --- maskable_ppo: the SB3 VecEnv adapter against DummyVecEnv (docs/agents.md) ---------


def _maskable_ppo_steps_per_s(make_env: Callable[[], Any], timesteps: int, n_steps: int, seed: int) -> float:
    """Training steps per second of MaskablePPO (``learn``: rollouts and updates) on
    the ``VecEnv`` ``make_env()`` builds; the model is built before the clock starts."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    venv = make_env()
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=n_steps, batch_size=n_steps * venv.num_envs, n_epochs=1, seed=seed, device="cpu"
    )
    # SB3's default logger makes a folder in the temp directory on every learn().
    model.set_logger(Logger(folder=None, output_formats=[]))
    start = time.perf_counter()
    model.learn(total_timesteps=timesteps)
    seconds = time.perf_counter() - start
    venv.close()
    return model.num_timesteps / seconds


@section("maskable_ppo")
def bench_maskable_ppo(ctx: Context) -> list[Row]:
    """MaskablePPO (sb3-contrib) training on one agent seat against greedy bots:
    ``liverpool.agents.envs.sb3`` (the native games behind SB3's ``VecEnv``) against SB3's
    ``DummyVecEnv`` of ``Liverpool-v0`` (one Python env per game), same policy, same
    sizes, torch on one thread, measured one after the other. The adapter steps its
    games on every core (its default); DummyVecEnv steps one game after another."""
    try:
        import gymnasium as gym
        import torch
        from sb3_contrib import MaskablePPO  # noqa: F401
        from stable_baselines3.common.vec_env import DummyVecEnv

        import liverpool.agents.envs  # noqa: F401  (registers Liverpool-v0)
        from liverpool.agents.envs.sb3 import sb3_vec_env
    except ImportError:
        ctx.notes.append("maskable_ppo: sb3-contrib is not installed (pip install 'liverpool-rummy[rl]'); rows skipped")
        return []
    n_envs = ctx.size(4, 8)
    n_steps = ctx.size(32, 256)
    timesteps = n_envs * n_steps * ctx.size(2, 4)

    def single() -> Any:
        env = gym.make("Liverpool-v0", players=4, opponents="greedy", reward_scale=0.01)
        box = env.observation_space["observation"]  # type: ignore[index]
        return gym.wrappers.TransformObservation(env, lambda obs: obs["observation"], box)

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        adapter = _maskable_ppo_steps_per_s(
            lambda: sb3_vec_env(n_envs, players=4, seed=ctx.seed, reward_scale=0.01),
            timesteps, n_steps, ctx.seed,
        )
        dummy = _maskable_ppo_steps_per_s(lambda: DummyVecEnv([single] * n_envs), timesteps, n_steps, ctx.seed)
    finally:
        torch.set_num_threads(threads)
    return [
        Row(
            "maskable_ppo_adapter_steps_per_s",
            f"MaskablePPO on the SB3 VecEnv adapter, {n_envs} games",
            adapter,
            "steps/s",
            target="> DummyVecEnv",
            baseline=dummy,
            ratio_key="maskable_ppo_adapter_vs_dummy_vec_env",
            ratio=adapter / dummy,
            note=f"{timesteps:,} training steps (rollouts of {n_steps} x {n_envs}, one epoch of updates each), "
            "torch on one thread; the adapter steps its games on every core, DummyVecEnv one by one",
        ),
        Row(
            "maskable_ppo_dummy_vec_env_steps_per_s",
            f"MaskablePPO on DummyVecEnv of {n_envs} Liverpool-v0",
            dummy,
            "steps/s",
        ),
    ]
