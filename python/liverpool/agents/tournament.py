"""``liverpool tournament``: bots against each other in rotating seats, with
confidence intervals.

::

    liverpool tournament greedy random greedy greedy --deals 500
    liverpool tournament greedy expert mybots:CautiousBot --deals 100 --plot target/t.png
    liverpool tournament greedy random expert --deals 20000 --ray --json target/t.json

**Line-up.** One entry per seat: a native bot name (``greedy``, ``random``,
``expert`` where the engine has it) or a Python bot given as ``module:Class``,
built as ``Class(seed=...)`` for every game (the :class:`liverpool.agents.bots.Bot`
protocol), or a saved learned policy given as ``policy:PATH.npz``
(:mod:`liverpool.agents.policy_bot`, refused before any game if it was trained for another
table). The same name may appear twice; its entries are reported apart
(``greedy``, ``greedy#2``).

**Rotating seats (duplicate deals).** With ``n`` entries, each *deal* (game index
``i`` of the batch seeded with ``seed``) is played once per *seating*, so every
entry plays every deal from every seat and card luck is the same for all.
``seatings="rotate"`` (the default) uses the ``n`` rotations of the line-up; they
keep the order around the table, so who sits after whom still matters (a bot
that sits after a weak discarder does better). ``seatings="all"`` plays every
one of the ``n!`` orders and removes that too. ``deals × seatings`` games in all.

**Numbers.** Per entry, ranked by win rate and then mean score: the win rate, where a game won by ``k`` tied seats
(L-10.3) counts ``1/k`` for each of them (so the win rates of a game add up to 1);
the mean final score (lower is better, L-10.3); and for both a 95% confidence
interval, mean ± 1.96 standard errors with the deal as the unit (an entry's
result on a deal is its average over the seatings, which are correlated since
they share the cards). With fewer than two deals the interval is unknown (NaN).

**Python bots.** A Python bot sees only its seat's sample of the game and acts only
by returning its action; ``time_limit`` bounds each decision and ``on_error``
says what a fault does (stop, or let the greedy bot decide and go on), as in
:func:`liverpool.agents.bots.play_game`. An entry whose bot timed out is played by the
greedy bot for the rest of the tournament (its thread is never asked again), so a
sleeping bot costs at most one idle thread. Faults are in ``result.faults``.

**Speed.** A line-up of native bots only runs through :func:`liverpool.simulate`
(native, parallel; ``--ray`` on Ray); any Python bot makes it a Python loop of
:func:`liverpool.agents.bots.play_game` (on Ray: deal ranges as tasks; the bot's module
must be importable on the workers).

>>> result = play(["greedy", "random", "greedy"], deals=4, seed=1)
>>> result.entries, result.totals.shape
(('greedy', 'random', 'greedy#2'), (12, 3))
>>> float(result.win_share.sum())
12.0
>>> [round(s.win_rate, 3) for s in result.stats()] == [round(float(x), 3) for x in result.win_share.mean(axis=0)]
True
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liverpool import i18n
from liverpool._core import RuleSet, game_seeds
from liverpool.agents.bots import DEFAULT_TIME_LIMIT, Bot, BotError, BotFault, OnError, _check_options, build_bot, play_game
from liverpool.tools.options import add_progress_argument, add_ray_argument, add_rules_argument, load_rules, write_json
from liverpool.agents.distributed import Backend, ensure_ray
from liverpool.agents.distributed import simulate as _simulate
from liverpool.errors import InvalidArgumentError, LiverpoolError
from liverpool.agents.policy_bot import POLICY_PREFIX, load_policy, policy_bot_class
from liverpool.tools.progress import ProgressBar

__all__ = ["EntryStats", "TournamentResult", "play", "load_bot_class", "seating_orders", "Z95"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

Progress = Callable[[int, int], object]


def load_bot_class(spec: str) -> type:
    """The class named by ``module:Class`` (``InvalidArgumentError`` if there is none),
    or for ``policy:PATH`` a :class:`liverpool.agents.policy_bot.PolicyBot` of the policy
    saved at ``PATH`` (``PolicyFileError`` if it cannot be played)."""
    if spec.startswith(POLICY_PREFIX):
        return policy_bot_class(spec[len(POLICY_PREFIX) :])
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise InvalidArgumentError(f"{spec!r} is not module:Class", "invalid_argument")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - a module that fails on import is a bad argument
        raise InvalidArgumentError(f"{spec!r}: cannot import {module_name!r}: {exc}", "invalid_argument") from exc
    cls = getattr(module, class_name, None)
    if not isinstance(cls, type):
        raise InvalidArgumentError(f"{spec!r}: {module_name} has no class {class_name!r}", "invalid_argument")
    return cls


def _entry_names(bots: Sequence[str]) -> tuple[str, ...]:
    """Labels for the entries: the spec, ``#k`` added from a name's second entry on."""
    seen: dict[str, int] = {}
    names = []
    for spec in bots:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(names)


def _rotation(entries: int, rotation: int) -> list[int]:
    """The entry at each seat in ``rotation``: seat ``s`` holds entry ``(s + rotation) % n``."""
    return [(seat + rotation) % entries for seat in range(entries)]


def seating_orders(entries: int, seatings: str = "rotate") -> list[list[int]]:
    """The entry at each seat, for each seating: the ``n`` rotations or all ``n!`` orders.

    >>> seating_orders(3)
    [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    >>> len(seating_orders(4, "all"))
    24
    """
    if seatings == "rotate":
        return [_rotation(entries, r) for r in range(entries)]
    if seatings == "all":
        return [list(order) for order in itertools.permutations(range(entries))]
    raise InvalidArgumentError(f"seatings must be 'rotate' or 'all', not {seatings!r}", "invalid_argument")


@dataclass(frozen=True)
class EntryStats:
    """The numbers of one entry of the line-up (intervals: 95%, the deal as the unit)."""

    entry: str
    bot: str
    games: int
    win_rate: float
    win_rate_ci: tuple[float, float]
    mean_score: float
    mean_score_ci: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "bot": self.bot,
            "games": self.games,
            "win_rate": self.win_rate,
            "win_rate_ci": list(self.win_rate_ci),
            "mean_score": self.mean_score,
            "mean_score_ci": list(self.mean_score_ci),
        }


def _mean_ci(per_deal: npt.NDArray[np.float64]) -> tuple[float, tuple[float, float]]:
    """Mean and 95% interval of per-deal values (NaN interval below two deals)."""
    n = len(per_deal)
    if n == 0:
        return math.nan, (math.nan, math.nan)
    mean = float(per_deal.mean())
    if n < 2:
        return mean, (math.nan, math.nan)
    half = Z95 * float(per_deal.std(ddof=1)) / math.sqrt(n)
    return mean, (mean - half, mean + half)


@dataclass(frozen=True)
class TournamentResult:
    """A tournament's games, entry by entry.

    Game ``g`` is deal ``g // m`` in seating ``g % m`` (``m`` seatings). The arrays
    are indexed ``[game, entry]``, not by seat: ``seats[g, e]`` is the seat entry
    ``e`` held in game ``g``.
    """

    bots: tuple[str, ...]
    entries: tuple[str, ...]
    deals: int
    seed: int
    rules: str
    backend: str
    seconds: float
    #: ``(games, entries)`` int32: final totals (L-10.3: lowest wins).
    totals: npt.NDArray[np.int32]
    #: ``(games, entries)`` bool: the entry is among the game's winners.
    winners: npt.NDArray[np.bool_]
    #: ``(games, entries)`` int8: the seat of the entry.
    seats: npt.NDArray[np.int8]
    #: The Python bots' faults, in play order (``on_error="fallback"``; each decision
    #: was then made by the greedy bot). ``fault.bot`` is the entry's name.
    faults: tuple[BotFault, ...] = ()

    def fault_counts(self) -> dict[str, int]:
        """Faults per entry (entries without any are left out)."""
        counts: dict[str, int] = {}
        for fault in self.faults:
            counts[fault.bot] = counts.get(fault.bot, 0) + 1
        return counts

    @property
    def games(self) -> int:
        return int(self.totals.shape[0])

    @property
    def seatings(self) -> int:
        """Seatings per deal (games = deals × seatings)."""
        return self.games // self.deals if self.deals else 1

    @property
    def win_share(self) -> npt.NDArray[np.float64]:
        """``(games, entries)``: 1 for a win, ``1/k`` for a win shared by ``k`` seats, else 0."""
        k = self.winners.sum(axis=1, keepdims=True)
        share: npt.NDArray[np.float64] = self.winners / np.maximum(k, 1)
        return share

    def stats(self) -> list[EntryStats]:
        """Win rate and mean score of every entry, with 95% intervals."""
        n = len(self.entries)
        m = self.seatings
        per_deal_wins = self.win_share.reshape(self.deals, m, n).mean(axis=1)
        per_deal_scores = self.totals.astype(np.float64).reshape(self.deals, m, n).mean(axis=1)
        result = []
        for e, (entry, bot) in enumerate(zip(self.entries, self.bots)):
            win, win_ci = _mean_ci(per_deal_wins[:, e])
            score, score_ci = _mean_ci(per_deal_scores[:, e])
            result.append(EntryStats(entry, bot, self.games, win, win_ci, score, score_ci))
        return result

    def ranking(self) -> list[EntryStats]:
        """:meth:`stats` best first: by win rate, then by mean score (lower first, L-10.3)."""
        return sorted(self.stats(), key=lambda s: (-s.win_rate, s.mean_score))

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return {
            "bots": list(self.bots),
            "entries": list(self.entries),
            "deals": self.deals,
            "seatings": self.seatings,
            "games": self.games,
            "seed": self.seed,
            "rules": self.rules,
            "backend": self.backend,
            "seconds": self.seconds,
            "ties": "a win shared by k seats counts 1/k for each",
            "confidence": "95%, mean ± 1.96 standard errors over deals",
            "stats": [s.to_dict() for s in self.stats()],
            "ranking": [s.entry for s in self.ranking()],
            "fault_counts": self.fault_counts(),
            "faults": [f.to_dict() for f in self.faults[:1000]],
        }

    def format(self) -> str:
        """The text the command prints."""
        lines = [
            (
                f"{self.games:,} games ({self.deals:,} deals × {self.seatings} seatings), seed {self.seed}, "
                f"rules {self.rules}, {self.backend}: {self.seconds:.2f} s"
            ),
            "",
        ]
        header = ("rank", "entry", "win rate", "95% CI", "mean score", "95% CI")
        rows = [
            (
                str(rank),
                s.entry,
                f"{s.win_rate:.1%}",
                f"{s.win_rate_ci[0]:.1%} – {s.win_rate_ci[1]:.1%}",
                f"{s.mean_score:.1f}",
                f"{s.mean_score_ci[0]:.1f} – {s.mean_score_ci[1]:.1f}",
            )
            for rank, s in enumerate(self.ranking(), start=1)
        ]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header, *rows]]
        lines += [
            "",
            "ranked by win rate, then mean score; a win shared by k seats counts 1/k for each (L-10.3); "
            "lower scores are better",
        ]
        counts = self.fault_counts()
        if counts:
            lines.append("")
            for entry, count in counts.items():
                first = next(f for f in self.faults if f.bot == entry)
                lines.append(i18n.text("bots", "summary.faults", entry=entry, count=count, first=first.message()))
        return "\n".join(lines)

    def plot(self, path: str | Path | None = None) -> Any:
        """Win rates and mean scores with their intervals (matplotlib); saved to
        ``path`` when given. Returns the figure."""
        import matplotlib

        if path is not None:
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        stats = self.stats()
        labels = [s.entry for s in stats]
        fig, (ax_win, ax_score) = plt.subplots(1, 2, figsize=(9, 0.6 * len(stats) + 2))
        for ax, values, cis, title in (
            (ax_win, [s.win_rate for s in stats], [s.win_rate_ci for s in stats], "win rate (ties shared)"),
            (ax_score, [s.mean_score for s in stats], [s.mean_score_ci for s in stats], "mean final score (lower wins)"),
        ):
            errors = np.array([[v - lo, hi - v] for v, (lo, hi) in zip(values, cis)]).T
            errors = np.nan_to_num(errors)
            ax.barh(labels, values, xerr=errors, capsize=4, color="#4c72b0")
            ax.set_title(title)
            ax.invert_yaxis()
        fig.suptitle(f"{self.games:,} games, {self.deals:,} deals, rules {self.rules}, 95% intervals")
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=110)
            plt.close(fig)
        return fig


def _play_python_deals(
    specs: Sequence[str],
    orders: Sequence[Sequence[int]],
    first_deal: int,
    deals: int,
    seed: int,
    rules_json: str | None,
    progress: Progress | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    on_error: OnError = "stop",
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_], list[BotFault]]:
    """Deals ``first_deal..first_deal + deals`` in every seating, by seat: totals,
    winners and the Python bots' faults.

    Each seat's bot gets the seed ``simulate`` gives that seat's native bot in the
    same game, so a native entry plays exactly as it would in ``simulate``."""
    rules = RuleSet.from_json(rules_json) if rules_json is not None else None
    n, m = len(specs), len(orders)
    names = _entry_names(specs)
    classes = {spec: load_bot_class(spec) for spec in specs if ":" in spec}
    totals = np.zeros((deals * m, n), dtype=np.int32)
    winners = np.zeros((deals * m, n), dtype=np.bool_)
    faults: list[BotFault] = []
    # Entries whose bot timed out: the greedy bot plays them from then on.
    benched: set[int] = set()
    for d in range(deals):
        deal = first_deal + d
        _, bot_seeds = game_seeds(seed, deal, n)
        for k, order in enumerate(orders):
            seated: list[Bot | str] = []
            for seat, entry in enumerate(order):
                spec = specs[entry]
                if entry in benched:
                    seated.append("greedy")
                elif spec in classes:
                    bot = build_bot(classes[spec], bot_seeds[seat], label=names[entry], seat=seat, deal=deal)
                    seated.append(bot)  # type: ignore[arg-type]
                else:
                    seated.append(spec)
            found: list[BotFault] = []
            state = play_game(
                seated,
                seed=seed,
                rules=rules,
                game=deal,
                time_limit=time_limit,
                on_error=on_error,
                faults=found,
                names=[names[entry] for entry in order],
            )
            faults += found
            benched |= {order[f.seat] for f in found if f.kind == "timeout"}
            g = d * m + k
            totals[g] = state.totals
            winners[g, state.winners] = True
            if progress is not None:
                progress(g + 1, deals * m)
    return totals, winners, faults


def play(
    bots: Sequence[str],
    deals: int,
    seed: int = 0,
    rules: RuleSet | None = None,
    *,
    seatings: str = "rotate",
    backend: Backend = "local",
    ray_address: str | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    on_error: OnError = "stop",
) -> TournamentResult:
    """Play ``deals`` deals, each once per seating of the line-up ``bots`` (one
    entry per seat: native names or ``module:Class``; ``seatings``: ``"rotate"``
    or ``"all"``), and return the results.

    ``backend="ray"`` runs on Ray (``ray_address``: a cluster, else a local Ray).
    ``progress(done, total)`` counts games. The results depend only on the
    arguments before ``backend``: the same on every backend and thread count.

    Python bots: ``time_limit`` seconds per decision (``None``: none) and
    ``on_error`` (``"stop"``: the first fault raises :class:`liverpool.agents.bots.BotError`
    naming the bot, its seat and the deal; ``"fallback"``: the greedy bot makes that
    decision and the fault is kept in ``result.faults``), as in
    :func:`liverpool.agents.bots.play_game`.
    """
    specs = list(bots)
    n = len(specs)
    faults: list[BotFault] = []
    if n == 0:
        raise InvalidArgumentError("a tournament needs at least one bot", "invalid_argument")
    if not isinstance(deals, int) or deals < 0:
        raise InvalidArgumentError(f"deals must be a non-negative integer, not {deals!r}", "invalid_argument")
    _check_options(time_limit, on_error)
    for spec in specs:
        if spec.startswith(POLICY_PREFIX):
            # A saved policy plays only the table it was trained for: refused here,
            # before any game, rather than as a fault in the first one.
            load_policy(spec[len(POLICY_PREFIX) :]).check_table(rules, n)
        elif ":" in spec:
            load_bot_class(spec)
    orders = seating_orders(n, seatings)
    m = len(orders)
    rules_name = (rules or RuleSet()).name
    started = time.perf_counter()
    games = deals * m
    seat_of_entry = np.array([[order.index(e) for e in range(n)] for order in orders], dtype=np.int8)
    if all(":" not in spec for spec in specs):
        by_seat_totals = np.zeros((deals, m, n), dtype=np.int32)
        by_seat_winners = np.zeros((deals, m, n), dtype=np.bool_)
        for k, order in enumerate(orders):
            lineup = [specs[e] for e in order]
            offset = k * deals

            def report(done: int, _total: int, offset: int = offset) -> None:
                if progress is not None:
                    progress(offset + done, games)

            result = _simulate(
                deals,
                seed=seed,
                bots=lineup,
                rules=rules,
                threads=threads,
                progress=report,
                backend=backend,
                ray_address=ray_address,
            )
            by_seat_totals[:, k, :] = result.totals
            by_seat_winners[:, k, :] = result.winners
        seat_totals = by_seat_totals.reshape(games, n)
        seat_winners = by_seat_winners.reshape(games, n)
    elif backend == "local":
        seat_totals, seat_winners, faults = _play_python_deals(
            specs, orders, 0, deals, seed, rules.to_json() if rules else None, progress, time_limit, on_error
        )
    elif backend == "ray":
        seat_totals, seat_winners, faults = _python_deals_on_ray(
            specs, orders, deals, seed, rules, ray_address, progress, time_limit, on_error
        )
    else:
        raise InvalidArgumentError(f"backend must be 'local' or 'ray', not {backend!r}", "invalid_argument")
    # From seats to entries: game g = deal * m + seating.
    seats = np.tile(seat_of_entry, (deals, 1)).astype(np.int8)
    rows = np.arange(games)[:, None]
    return TournamentResult(
        bots=tuple(specs),
        entries=_entry_names(specs),
        deals=deals,
        seed=seed,
        rules=rules_name,
        backend=backend,
        seconds=time.perf_counter() - started,
        totals=seat_totals[rows, seats].astype(np.int32),
        winners=seat_winners[rows, seats].astype(np.bool_),
        seats=seats,
        faults=tuple(faults),
    )


def _python_deals_on_ray(
    specs: Sequence[str],
    orders: Sequence[Sequence[int]],
    deals: int,
    seed: int,
    rules: RuleSet | None,
    address: str | None,
    progress: Progress | None,
    time_limit: float | None,
    on_error: OnError,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_], list[BotFault]]:
    """The Python loop as Ray tasks, one range of deals each (an entry that times out
    is benched within its task's range)."""
    from liverpool.agents.distributed import seed_ranges

    n, m = len(specs), len(orders)
    ray = ensure_ray(address)
    tasks = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    ranges = seed_ranges(deals, tasks)
    rules_json = rules.to_json() if rules else None
    task = ray.remote(num_cpus=1)(_play_python_deals)
    pending = {
        task.remote(list(specs), [list(o) for o in orders], first, count, seed, rules_json, None, time_limit, on_error): i
        for i, (first, count) in enumerate(ranges)
    }
    parts: dict[int, tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_], list[BotFault]]] = {}
    done = 0
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            i = pending.pop(ref)
            try:
                parts[i] = ray.get(ref)
            except Exception as exc:
                # A bot's fault in a task arrives wrapped in Ray's error (with the remote
                # traceback): raise the fault itself, as the local run does.
                cause = getattr(exc, "cause", None)
                if isinstance(cause, LiverpoolError):
                    raise cause from None
                raise
            done += ranges[i][1] * m
        if progress is not None:
            progress(done, deals * m)
    if not parts:
        return np.zeros((0, n), dtype=np.int32), np.zeros((0, n), dtype=np.bool_), []
    totals = np.concatenate([parts[i][0] for i in range(len(ranges))])
    winners = np.concatenate([parts[i][1] for i in range(len(ranges))])
    faults = [f for i in range(len(ranges)) for f in parts[i][2]]
    return totals, winners, faults


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="one entry per seat: a native bot (greedy, random, expert), a Python bot as module:Class, "
        "or a saved policy as policy:PATH.npz",
    )
    parser.add_argument("--deals", type=int, default=200, help="deals, each played once per seating (default 200)")
    parser.add_argument(
        "--seatings",
        choices=("rotate", "all"),
        default="rotate",
        help="the n rotations of the line-up (default) or all n! seat orders",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    parser.add_argument("--threads", type=int, default=None, help="engine threads (default: every core; with --ray: per task)")
    add_rules_argument(parser)
    add_ray_argument(parser, "run on Ray: a new local Ray, or the cluster at ADDRESS (extra 'distributed')")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the summary as JSON to FILE")
    parser.add_argument("--plot", metavar="FILE", type=Path, help="also draw win rates and scores to FILE (PNG, SVG, PDF)")
    parser.add_argument(
        "--time-limit",
        metavar="SECONDS",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        help=f"seconds a Python bot may take per decision (default {DEFAULT_TIME_LIMIT:g}; 0: no limit)",
    )
    parser.add_argument(
        "--on-bot-error",
        choices=("stop", "fallback"),
        default="stop",
        help="a Python bot that raises, returns no action, makes an illegal move or times out: "
        "stop the tournament (default), or let the greedy bot make that decision and go on",
    )
    add_progress_argument(parser)


def run(args: argparse.Namespace) -> int:
    """``liverpool tournament`` (see the module's docstring); the function API is :func:`play`."""
    try:
        rules = load_rules(args.rules)
        seatings = len(seating_orders(len(args.bots), args.seatings))
        bar = ProgressBar(args.deals * seatings, label="games", enabled=args.progress)
        try:
            result = play(
                args.bots,
                args.deals,
                seed=args.seed,
                rules=rules,
                seatings=args.seatings,
                backend="local" if args.ray is None else "ray",
                ray_address=args.ray or None,
                threads=args.threads,
                progress=bar,
                time_limit=args.time_limit or None,
                on_error=args.on_bot_error,
            )
        finally:
            bar.close()
    except BotError as exc:
        print(f"liverpool tournament: {exc} [{exc.code}]", file=sys.stderr)
        return 2
    except LiverpoolError as exc:
        print(f"liverpool tournament: error: {exc} [{exc.code}]", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(f"liverpool tournament: error: {exc}", file=sys.stderr)
        return 2
    print(result.format())
    if args.json:
        write_json(args.json, result.to_dict())
    if args.plot:
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        result.plot(args.plot)
        print(f"wrote {args.plot}")
    return 0
