"""``liverpool simulate``: many native bot games, summarised.

::

    liverpool simulate --games 1000 --seed 0 --bots greedy,greedy,random,greedy
    liverpool simulate --games 20000 --threads 2 --json target/sim.json
    liverpool simulate --games 100000 --ray              # a local Ray
    liverpool simulate --games 1000000 --ray HOST:6379   # a Ray cluster

The games run natively in parallel (:func:`liverpool.simulate`); the same seed
gives the same games whatever the thread count, and on Ray (``--ray``, the
``distributed`` extra) the same numbers as here (:mod:`liverpool.agents.distributed`). The summary gives, per seat and
per bot, the win rate (a shared win counts for every seat in it, L-10.3) and the
mean total; per round, the mean number of turns, the buys, the rounds that ended
with no winner (L-9.2, L-9.3) and the cut bonuses (L-2.3); and the speed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from liverpool import i18n
from liverpool._core import RuleSet, SimulationResult
from liverpool.tools.options import add_progress_argument, add_ray_argument, add_rules_argument, load_rules, write_json
from liverpool.agents.distributed import Backend, simulate
from liverpool.errors import LiverpoolError
from liverpool.tools.progress import ProgressBar

DEFAULT_BOTS = "greedy,greedy,random,greedy"


def summarize(
    result: SimulationResult, rules: RuleSet | None = None, threads: int | None = None, backend: str = "local"
) -> dict[str, Any]:
    """The numbers the command prints, as plain JSON-ready data.

    >>> from liverpool import simulate
    >>> s = summarize(simulate(8, seed=1, bots=["greedy"] * 4, threads=1))
    >>> s["games"], len(s["seats"]), len(s["rounds"])
    (8, 4, 7)
    >>> sum(seat["wins"] for seat in s["seats"]) >= 8
    True
    """
    rules = rules or RuleSet()
    games, players = result.games, result.players
    totals = result.totals.astype(np.int64)
    winners = result.winners
    went_out = result.went_out
    buys = result.buys.astype(np.int64)
    turns = result.turns
    n = max(games, 1)
    seats = []
    for seat, bot in enumerate(result.bots):
        wins = int(winners[:, seat].sum())
        outright = int((winners[:, seat] & (winners.sum(axis=1) == 1)).sum())
        seats.append({
            "seat": seat,
            "bot": bot,
            "wins": wins,
            "outright_wins": outright,
            "win_rate": wins / n,
            "mean_total": float(totals[:, seat].mean()) if games else 0.0,
            "went_out_rate": float((went_out == seat).mean()) if games else 0.0,
            "buys_per_round": float(buys[:, :, seat].mean()) if games else 0.0,
        })
    by_bot: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(result.bots):
        cols = [s for s, b in enumerate(result.bots) if b == name]
        by_bot[name] = {
            "seats": len(cols),
            "win_rate": float(winners[:, cols].mean()) if games else 0.0,
            "mean_total": float(totals[:, cols].mean()) if games else 0.0,
        }
    rounds = []
    for k in range(result.rounds):
        rounds.append({
            "round": k + 1,
            "contract": rules.describe_contract(k + 1),
            "mean_turns": float(turns[:, k].mean()) if games else 0.0,
            "max_turns": int(turns[:, k].max()) if games else 0,
            "buys_per_round": float(buys[:, k, :].sum(axis=1).mean()) if games else 0.0,
            "no_winner": int(result.no_winner[:, k].sum()),
            "cut_bonuses": int((result.cut_bonus[:, k] >= 0).sum()),
        })
    seconds = result.seconds
    return {
        "games": games,
        "seed": result.seed,
        "players": players,
        "bots": list(result.bots),
        "rules": rules.name,
        "threads": threads,
        "backend": backend,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else None,
        "seats": seats,
        "by_bot": by_bot,
        "rounds": rounds,
        "mean_turns_per_round": float(turns.mean()) if games else 0.0,
        "no_winner_rounds": int(result.no_winner.sum()),
        "draws": int((winners.sum(axis=1) > 1).sum()),
    }


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in [header, *rows]]


def format_summary(s: dict[str, Any]) -> str:
    """The summary as the text the command prints."""
    threads = "every core" if s["threads"] is None else f"{s['threads']} thread{'s' if s['threads'] != 1 else ''}"
    if s.get("backend", "local") == "ray":
        threads = f"on Ray, {threads if s['threads'] is not None else '1 thread'} per task"
    speed = "-" if s["games_per_second"] is None else f"{s['games_per_second']:,.0f} games/s"
    lines = [
        (
            f"{s['games']:,} games, seed {s['seed']}, rules {s['rules']}, {s['players']} players: "
            f"{', '.join(s['bots'])} ({threads})"
        ),
        f"finished in {s['seconds']:.2f} s: {speed}",
        "",
    ]
    lines += _table(
        ("seat", "bot", "wins", "win rate", "mean total", "went out", "buys/round"),
        [
            (
                str(x["seat"]),
                x["bot"],
                str(x["wins"]),
                f"{x['win_rate']:.1%}",
                f"{x['mean_total']:.1f}",
                f"{x['went_out_rate']:.1%}",
                f"{x['buys_per_round']:.2f}",
            )
            for x in s["seats"]
        ],
    )
    lines += ["", "by bot:"]
    lines += _table(
        ("bot", "seats", "win rate", "mean total"),
        [(name, str(b["seats"]), f"{b['win_rate']:.1%}", f"{b['mean_total']:.1f}") for name, b in s["by_bot"].items()],
    )
    lines.append("")
    lines += _table(
        ("round", "contract", "mean turns", "max turns", "buys/round", "no winner", "cut bonus"),
        [
            (
                str(r["round"]),
                r["contract"],
                f"{r['mean_turns']:.1f}",
                str(r["max_turns"]),
                f"{r['buys_per_round']:.2f}",
                str(r["no_winner"]),
                str(r["cut_bonuses"]),
            )
            for r in s["rounds"]
        ],
    )
    rounds_played = s["games"] * len(s["rounds"])
    lines += [
        "",
        (
            f"mean round length {s['mean_turns_per_round']:.1f} turns; rounds with no winner: "
            f"{s['no_winner_rounds']} of {rounds_played:,}; drawn games: {s['draws']}"
        ),
    ]
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the batch (default 0)")
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        help=f"one native bot per seat, comma-separated: greedy, random or expert (default {DEFAULT_BOTS})",
    )
    parser.add_argument(
        "--threads", type=int, default=None, help="worker threads (default: every core; with --ray: per task, default 1)"
    )
    add_ray_argument(
        parser, "run seed ranges as Ray tasks: on a new local Ray, or on the cluster at ADDRESS (extra 'distributed')"
    )
    add_rules_argument(parser)
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the summary as JSON to FILE")
    add_progress_argument(parser)


def run(args: argparse.Namespace) -> int:
    # A Python bot (module:Class) cannot run inside the native batch: say where it
    # plays instead of "unknown bot".
    python_bots = [name for name in str(args.bots).split(",") if ":" in name]
    if python_bots:
        print(f"liverpool simulate: error: {i18n.text('bots', 'simulate.python_bot', spec=python_bots[0])}", file=sys.stderr)
        return 2
    try:
        rules = load_rules(args.rules)
        backend: Backend = "local" if args.ray is None else "ray"
        bar = ProgressBar(args.games, label="games", enabled=args.progress)
        try:
            result = simulate(
                args.games,
                seed=args.seed,
                bots=args.bots,
                rules=rules,
                threads=args.threads,
                progress=bar,
                backend=backend,
                ray_address=args.ray or None,
            )
        finally:
            bar.close()
    except LiverpoolError as exc:
        print(f"liverpool simulate: error: {exc} [{exc.code}]", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"liverpool simulate: error: {exc}", file=sys.stderr)
        return 2
    summary = summarize(result, rules, args.threads, backend)
    print(format_summary(summary))
    if args.json:
        write_json(args.json, summary)
    return 0
