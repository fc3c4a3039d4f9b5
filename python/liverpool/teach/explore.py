"""A curious player's questions, answered with the batch engine: how often the
contract is already in the hand, how often a cut earns the bonus, how long rounds
last, whether buying helps, and how scores and wins spread over the seats.

Each question has a function that computes the answer (seeded, deterministic, plain
numpy data in a small dataclass) and one or two ``plot_...(result, ax=None)``
functions that draw it with matplotlib (imported only there) and return the
``Figure``. Titles and axis labels speak the current language
(:func:`liverpool.i18n.set_language`). Every rule question goes to the engine
(``has_contract_batch``, ``deal``, ``simulate``, ``play_game``); this module only
counts. Long runs show a tqdm bar (``progress=True``; by default only on a terminal
or in a notebook).

>>> odds = contract_odds(games=200, draws=2, seed=1)
>>> odds.frequency.shape        # rounds 1-6, k = 0, 1, 2 cards drawn
(6, 3)
>>> bool((odds.frequency[:, 1:] >= odds.frequency[:, :-1]).all())
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from liverpool._core import (
    Action,
    GameState,
    NativeBot,
    RuleSet,
    deal,
    game_seeds,
    has_contract_batch,
    new_deck,
    shuffled_decks,
    simulate,
)
from liverpool.agents.bots import Bot, play_game
from liverpool.i18n import text
from liverpool.tools.progress import ProgressBar

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "ContractOdds",
    "CutBonusOdds",
    "RoundLengths",
    "BuyingValue",
    "SeatResults",
    "NoBuyBot",
    "wilson_interval",
    "mean_interval",
    "contract_odds",
    "cut_bonus_odds",
    "round_lengths",
    "buying_value",
    "seat_results",
    "plot_contract_odds",
    "plot_cut_bonus_odds",
    "plot_round_lengths",
    "plot_buying_value",
    "plot_score_distributions",
    "plot_win_rates",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: The z value of a two-sided 95 % interval.
Z95 = 1.959963984540054


def _t(key: str, **params: Any) -> str:
    return text("explore", key, **params)


# Intervals


def wilson_interval(
    successes: npt.ArrayLike, trials: npt.ArrayLike, z: float = Z95
) -> tuple[FloatArray, FloatArray]:
    """The Wilson score interval (95 % by default) of a binomial proportion, elementwise.

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 or at
    ``trials`` successes.

    >>> low, high = wilson_interval(50, 100)
    >>> round(float(low), 3), round(float(high), 3)
    (0.404, 0.596)
    """
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denominator = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denominator
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denominator
    # Exact ends where rounding would leave a hair of a gap (0 or all successes).
    low = np.where(k <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k >= n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def mean_interval(values: npt.ArrayLike, axis: int = 0, z: float = Z95) -> tuple[FloatArray, FloatArray]:
    """The mean along ``axis`` and the half-width of its normal 95 % interval
    (``z`` standard errors).

    >>> mean, half = mean_interval([1.0, 2.0, 3.0])
    >>> float(mean), round(float(half), 3)
    (2.0, 1.132)
    """
    data = np.asarray(values, dtype=np.float64)
    n = data.shape[axis]
    mean = data.mean(axis=axis)
    spread = data.std(axis=axis, ddof=1) if n > 1 else np.zeros_like(mean)
    return mean, z * spread / math.sqrt(n)


def _error_bars(value: FloatArray, low: FloatArray, high: FloatArray) -> FloatArray:
    """``yerr`` for matplotlib: the distances from ``value`` down to ``low`` and up to
    ``high`` (never negative, even where rounding puts ``value`` a hair outside)."""
    return np.maximum(0.0, np.stack([value - low, high - value]))


def _progress(total: int, unit: str, progress: bool | None) -> ProgressBar:
    """A progress bar labelled in the learner's language (``unit`` is "games" or "hands")."""
    return ProgressBar(total, label=text("explore", f"progress_{unit}"), enabled=progress)


def _simulate(
    games: int, seed: int, bots: Sequence[str], rules: RuleSet | None, progress: bool | None
) -> Any:
    bar = _progress(games, "games", progress)
    try:
        return simulate(games, seed=seed, bots=list(bots), rules=rules, progress=bar)
    finally:
        bar.close()


def _figure(ax: Axes | None, size: tuple[float, float] = (7.0, 4.0)) -> tuple[Figure, Axes]:
    import matplotlib.pyplot as plt

    if ax is None:
        figure, ax = plt.subplots(figsize=size)
        return figure, ax
    return _owner(ax), ax


def _owner(ax: Axes) -> Figure:
    """The figure ``ax`` draws on (a subfigure's parent figure for an axes in one)."""
    return cast("Figure", ax.figure.figure if hasattr(ax.figure, "figure") else ax.figure)


def _bot_label(name: str) -> str:
    key = f"bot_{name}"
    label = _t(key)
    return name if label == key else label


# 1. The contract in the hand, dealt and after k draws


@dataclass(frozen=True)
class ContractOdds:
    """How many of ``games`` dealt hands hold each round's contract after ``k`` more cards.

    ``held[i, k]``: of the hands of round ``rounds[i]``, how many hold its contract
    (``has_contract_batch``) once the next ``draws[k]`` stock cards are added.
    """

    games: int
    players: int
    rounds: tuple[int, ...]
    draws: IntArray
    held: IntArray

    @property
    def frequency(self) -> FloatArray:
        """``held / games``: the share of hands holding the contract."""
        return self.held / self.games

    def interval(self) -> tuple[FloatArray, FloatArray]:
        """The 95 % Wilson interval of :attr:`frequency`, elementwise."""
        return wilson_interval(self.held, self.games)


def dealt_hands(
    decks: npt.NDArray[np.uint8], round: int, draws: int, rules: RuleSet, players: int
) -> npt.NDArray[np.uint8]:
    """Seat 0's hand of ``round`` for each shuffled deck, then the first ``draws`` stock cards.

    The deal of L-2.5 with the dealer in the last seat: seat 0 (the dealer's left,
    who plays first) gets cards 0, ``players``, 2 × ``players``, … of the deck; after the
    deal comes the up-card (L-2.6), then the stock. So the columns are the dealt hand
    and then the stock cards in the order they would be drawn.
    ``tests/test_explore.py`` checks this layout against :func:`liverpool.deal`.
    """
    size = rules.deal_sizes[round - 1]
    dealt = np.arange(size) * players
    stock_top = size * players + 1
    columns = np.concatenate([dealt, np.arange(stock_top, stock_top + draws)])
    return np.ascontiguousarray(decks[:, columns])


def contract_odds(
    games: int = 4000,
    draws: int = 15,
    seed: int = 0,
    rules: RuleSet | None = None,
    rounds: Sequence[int] | None = None,
    players: int | None = None,
    progress: bool | None = None,
) -> ContractOdds:
    """How often each round's contract is in the dealt hand, and after 1 … ``draws`` more cards.

    Deals ``games`` seeded decks (``shuffled_decks(games, seed)``), takes the first
    player's hand (:func:`dealt_hands`), and asks ``has_contract_batch`` for the hand
    plus the next ``k`` stock cards, ``k = 0 … draws``. The same decks serve every
    round and every ``k``, so the curves are comparable.

    Keeping every card drawn is the best a player with perfect discards could do: in a
    game you discard one card a turn, but the contract of rounds 1–6 uses at most 11
    cards, so a player who kept the right ones would hold it too. The others' draws and
    takes from the discard pile are ignored.

    ``rounds`` defaults to the rounds whose contract is not the whole hand: in round 7
    (L-8) every card must be in a run, so a growing hand does not answer the question.
    """
    rules = rules if rules is not None else RuleSet()
    players = players if players is not None else rules.default_players
    if rounds is None:
        rounds = [r for r, (_, _, whole_hand) in enumerate(rules.contracts, start=1) if not whole_hand]
    decks = shuffled_decks(games, seed=seed, rules=rules, players=players)
    held = np.zeros((len(rounds), draws + 1), dtype=np.int64)
    bar = _progress(len(rounds) * (draws + 1), "hands", progress)
    try:
        for i, round_ in enumerate(rounds):
            hands = dealt_hands(decks, round_, draws, rules, players)
            size = rules.deal_sizes[round_ - 1]
            for k in range(draws + 1):
                held[i, k] = int(has_contract_batch(np.ascontiguousarray(hands[:, : size + k]), round_, rules).sum())
                bar(i * (draws + 1) + k + 1)
    finally:
        bar.close()
    return ContractOdds(games, players, tuple(rounds), np.arange(draws + 1, dtype=np.int64), held)


def plot_contract_odds(result: ContractOdds, ax: Axes | None = None) -> Figure:
    """One line per round: the share of hands holding the contract against the cards
    drawn, with its 95 % interval as a band."""
    figure, ax = _figure(ax)
    low, high = result.interval()
    for i, round_ in enumerate(result.rounds):
        (line,) = ax.plot(result.draws, result.frequency[i], marker="o", markersize=3, label=_t("round", round=round_))
        ax.fill_between(result.draws, low[i], high[i], color=line.get_color(), alpha=0.2)
    ax.set_title(_t("contract_title"))
    ax.set_xlabel(_t("contract_xlabel"))
    ax.set_ylabel(_t("contract_ylabel"))
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    return figure


# 2. The cut bonus


@dataclass(frozen=True)
class CutBonusOdds:
    """How often cuts earn the cut bonus (L-2.3), for several ways of cutting.

    ``kinds[j]`` names a way of cutting (``"uniform"``, ``"in_game"``, ``"aim"``,
    ``"middle"``), ``spreads[j]`` its standard deviation in cards (0 for the uniform
    ones); ``bonuses[j]`` of ``cuts[j]`` cuts earned the bonus; ``expected[j]`` is the
    exact probability under that model.
    """

    games: int
    kinds: tuple[str, ...]
    spreads: tuple[float, ...]
    cuts: IntArray
    bonuses: IntArray
    expected: FloatArray

    @property
    def frequency(self) -> FloatArray:
        return self.bonuses / self.cuts

    def interval(self) -> tuple[FloatArray, FloatArray]:
        return wilson_interval(self.bonuses, self.cuts)

    def labels(self) -> list[str]:
        """The ways of cutting, in the current language."""
        return [_t(f"cut_{kind}", spread=_number(spread)) for kind, spread in zip(self.kinds, self.spreads)]


def _number(value: float) -> str:
    return f"{value:g}"


def bonus_table(rules: RuleSet, players: int) -> BoolArray:
    """``table[round - 1, cut]``: whether cutting ``cut`` cards in ``round`` earns the
    bonus, asked of :func:`liverpool.deal` for every legal cut (column 0 is unused)."""
    deck = new_deck(rules, players)
    table = np.zeros((rules.rounds, len(deck)), dtype=np.bool_)
    for round_ in range(1, rules.rounds + 1):
        for cut in range(1, len(deck)):
            table[round_ - 1, cut] = deal(deck, round_, players - 1, cut, rules, players).cut_bonus
    return table


def _normal_cdf(x: FloatArray) -> FloatArray:
    erf = np.vectorize(math.erf, otypes=[np.float64])
    result: FloatArray = 0.5 * (1.0 + erf(x / math.sqrt(2.0)))
    return result


def _rounded_normal_pmf(centre: float, spread: float, largest: int) -> FloatArray:
    """P(cut = c), c = 0 … largest, of a normal cut rounded to a whole card and clipped to
    1 … largest (the tails land on the ends), as the sampler in :func:`cut_bonus_odds` draws."""
    edges = np.arange(1, largest, dtype=np.float64) + 0.5  # between c and c + 1
    cdf = np.concatenate([[0.0], _normal_cdf((edges - centre) / spread), [1.0]])
    return np.concatenate([[0.0], np.diff(cdf)])


def cut_bonus_odds(
    games: int = 2000,
    seed: int = 0,
    rules: RuleSet | None = None,
    spreads: Sequence[float] = (2, 4, 8),
    middle_spread: float = 12,
    players: int | None = None,
    progress: bool | None = None,
) -> CutBonusOdds:
    """How often a cut earns the bonus (L-2.3) over the rounds of ``games`` games.

    Ways of cutting, ``games × rounds`` cuts each:

    - ``uniform``: a cut uniform over 1 … 106 (the engine's default, L-2.4): 1/106;
    - ``in_game``: the cuts the greedy bots made in ``simulate(games, seed)``
      (``SimulationResult.cut_bonus``), also uniform;
    - ``aim`` (one per ``spreads`` entry): **the assumption for a human cutter** who
      aims at the exact size (41 or 49 cards) and misses by a normal error of that many
      cards (standard deviation), rounded to a whole card; 2 is a practised hand, 8 a
      rough guess from the packet's thickness;
    - ``middle``: a casual cut around the middle of the deck (normal, centre half the
      deck, ``middle_spread`` cards), who does not aim at all.

    Whether a cut earns the bonus is asked of :func:`liverpool.deal` once per round and
    cut size (:func:`bonus_table`); the numpy generator seeded with ``seed`` draws the
    cuts. ``expected`` holds each model's exact probability.
    """
    rules = rules if rules is not None else RuleSet()
    players = players if players is not None else rules.default_players
    table = bonus_table(rules, players)
    largest = table.shape[1] - 1
    rounds = rules.rounds
    round_index = np.tile(np.arange(rounds), games)
    rng = np.random.default_rng(seed)

    kinds: list[str] = []
    spread_list: list[float] = []
    cuts: list[int] = []
    bonuses: list[int] = []
    expected: list[float] = []

    def add(kind: str, spread: float, drawn: IntArray, pmfs: Sequence[FloatArray]) -> None:
        kinds.append(kind)
        spread_list.append(spread)
        cuts.append(drawn.size)
        bonuses.append(int(table[round_index, drawn].sum()))
        expected.append(float(np.mean([pmf @ table[r] for r, pmf in enumerate(pmfs)])))

    uniform_pmf = np.concatenate([[0.0], np.full(largest, 1.0 / largest)])
    add("uniform", 0, rng.integers(1, largest + 1, size=round_index.size), [uniform_pmf] * rounds)

    result = _simulate(games, seed, ["greedy"] * players, rules, progress)
    in_game = np.asarray(result.cut_bonus)
    kinds.append("in_game")
    spread_list.append(0)
    cuts.append(in_game.size)
    bonuses.append(int((in_game >= 0).sum()))
    expected.append(float(np.mean([uniform_pmf @ table[r] for r in range(rounds)])))

    # The exact cut of each round: the one cut size the engine rewards.
    exact = table.argmax(axis=1).astype(np.float64)
    for spread in spreads:
        centres = exact[round_index]
        drawn = np.clip(np.rint(rng.normal(centres, spread)), 1, largest).astype(np.int64)
        add("aim", spread, drawn, [_rounded_normal_pmf(exact[r], spread, largest) for r in range(rounds)])
    centre = (largest + 1) / 2
    drawn = np.clip(np.rint(rng.normal(centre, middle_spread, size=round_index.size)), 1, largest).astype(np.int64)
    add("middle", middle_spread, drawn, [_rounded_normal_pmf(centre, middle_spread, largest)] * rounds)

    return CutBonusOdds(
        games,
        tuple(kinds),
        tuple(spread_list),
        np.asarray(cuts, dtype=np.int64),
        np.asarray(bonuses, dtype=np.int64),
        np.asarray(expected, dtype=np.float64),
    )


def plot_cut_bonus_odds(result: CutBonusOdds, ax: Axes | None = None) -> Figure:
    """Bars of the cut-bonus frequency per way of cutting with 95 % intervals, the exact
    probabilities as markers, and 1/106 (a uniform cut) as a dashed line."""
    figure, ax = _figure(ax)
    low, high = result.interval()
    positions = np.arange(len(result.kinds))
    frequency = result.frequency
    ax.bar(positions, frequency, yerr=_error_bars(frequency, low, high), capsize=4, color="tab:blue", alpha=0.8)
    ax.plot(positions, result.expected, "D", color="black", label=_t("cut_expected"))
    uniform = result.expected[result.kinds.index("uniform")] if "uniform" in result.kinds else None
    if uniform is not None:
        ax.axhline(uniform, linestyle="--", color="grey", label=_t("cut_uniform_line"))
    ax.set_xticks(positions, result.labels(), rotation=20, ha="right")
    ax.set_title(_t("cut_title"))
    ax.set_ylabel(_t("cut_ylabel"))
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    figure.tight_layout()
    return figure


# 3. How long rounds last


@dataclass(frozen=True)
class RoundLengths:
    """Turns per round of ``games`` simulated games (``SimulationResult.turns``)."""

    games: int
    bots: tuple[str, ...]
    turns: npt.NDArray[np.int32]
    no_winner: BoolArray

    @property
    def rounds(self) -> int:
        return int(self.turns.shape[1])

    def median(self) -> FloatArray:
        """The median number of turns of each round."""
        result: FloatArray = np.median(self.turns, axis=0)
        return result


def round_lengths(
    games: int = 1000,
    seed: int = 0,
    rules: RuleSet | None = None,
    bots: Sequence[str] = ("greedy", "greedy", "greedy", "greedy"),
    progress: bool | None = None,
) -> RoundLengths:
    """How many turns each round lasts, over ``games`` games of native ``bots``.

    A turn is one player's draw … discard; the round's last turn counts
    (``SimulationResult.turns``). ``no_winner`` marks rounds that ended with the stock
    exhausted (L-9.2) or at the turn cap.
    """
    result = _simulate(games, seed, bots, rules, progress)
    return RoundLengths(games, tuple(bots), np.asarray(result.turns), np.asarray(result.no_winner))


def plot_round_lengths(result: RoundLengths, ax: Axes | None = None) -> Figure:
    """A box plot of the turns per round (whiskers at the 5th and 95th percentiles)."""
    figure, ax = _figure(ax)
    rounds = np.arange(1, result.rounds + 1)
    ax.boxplot([result.turns[:, r - 1] for r in rounds], whis=(5, 95), showfliers=False)
    ax.set_xticks(rounds, [str(r) for r in rounds])
    ax.set_title(_t("turns_title"))
    ax.set_xlabel(_t("turns_xlabel"))
    ax.set_ylabel(_t("turns_ylabel"))
    ax.grid(axis="y", alpha=0.3)
    return figure


# 4. Does buying help?


class NoBuyBot:
    """The greedy native bot, except that it passes on every buy (L-6): the only
    difference from ``NativeBot("greedy", seed)``.

    ``declined`` counts the buys it passed on.
    """

    def __init__(self, seed: int) -> None:
        self.bot = NativeBot("greedy", seed=seed)
        self.declined = 0

    def choose(self, state: GameState, seat: int) -> Action:
        action = self.bot.choose(state, seat)
        if action.name == "buy":
            self.declined += 1
            return Action.pass_()
        return action

    def __repr__(self) -> str:
        return "NoBuyBot()"


@dataclass(frozen=True)
class BuyingValue:
    """One greedy seat that never buys, against the same seat buying as usual.

    Game ``i`` (``play_game(..., seed, game=i)``) seats :class:`NoBuyBot` at
    ``seats[i]`` (rotating) and greedy bots elsewhere; the baseline is game ``i`` of
    ``simulate(games, seed)`` with four greedy bots: the same deals and bot seeds, with
    the seat buying. ``*_totals`` and ``*_wins`` are that seat's final total and whether
    it won (a shared win counts), ``declined`` the buys the non-buyer passed on and
    ``baseline_buys`` the buys the seat made in the baseline game.
    """

    games: int
    players: int
    seats: IntArray
    no_buy_totals: IntArray
    no_buy_wins: BoolArray
    declined: IntArray
    baseline_totals: IntArray
    baseline_wins: BoolArray
    baseline_buys: IntArray

    def win_rates(self) -> FloatArray:
        """Win rates of [the seat that never buys, the same seat buying]."""
        return np.array([self.no_buy_wins.mean(), self.baseline_wins.mean()])

    def win_intervals(self) -> tuple[FloatArray, FloatArray]:
        wins = [int(self.no_buy_wins.sum()), int(self.baseline_wins.sum())]
        return wilson_interval(wins, self.games)

    def mean_totals(self) -> tuple[FloatArray, FloatArray]:
        """Mean totals of [never buys, buys] and their 95 % half-widths."""
        return mean_interval(np.stack([self.no_buy_totals, self.baseline_totals], axis=1))

    def mean_difference(self) -> tuple[float, float]:
        """The mean of (total without buying − total with buying), game by game, and its
        95 % half-width: positive means buying lowers (improves) the total."""
        mean, half = mean_interval(self.no_buy_totals - self.baseline_totals)
        return float(mean), float(half)


def buying_value(
    games: int = 1000,
    seed: int = 0,
    rules: RuleSet | None = None,
    players: int = 4,
    progress: bool | None = None,
) -> BuyingValue:
    """Whether buying helps the greedy bot: :class:`NoBuyBot` in one seat (rotating
    with the game number) against greedy bots, played in Python with
    :func:`liverpool.play_game`, compared with the same games where that seat buys.

    It runs in Python, one or two milliseconds a game (the greedy bots choose in Rust).
    """
    baseline = _simulate(games, seed, ["greedy"] * players, rules, progress)
    seats = np.arange(games, dtype=np.int64) % players
    totals = np.zeros(games, dtype=np.int64)
    wins = np.zeros(games, dtype=np.bool_)
    declined = np.zeros(games, dtype=np.int64)
    bar = _progress(games, "games", progress)
    try:
        for game in range(games):
            seat = int(seats[game])
            # The bot seed play_game would give a greedy bot in this seat.
            _, bot_seeds = game_seeds(seed, game, players)
            no_buy = NoBuyBot(seed=bot_seeds[seat])
            bots: list[Bot | str] = ["greedy"] * players
            bots[seat] = no_buy
            # NoBuyBot is this package's own code: no per-decision thread (time_limit=None).
            state = play_game(bots, seed=seed, rules=rules, players=players, game=game, time_limit=None)
            totals[game] = state.totals[seat]
            wins[game] = seat in state.winners
            declined[game] = no_buy.declined
            bar(game + 1)
    finally:
        bar.close()
    rows = np.arange(games)
    return BuyingValue(
        games,
        players,
        seats,
        totals,
        wins,
        declined,
        np.asarray(baseline.totals)[rows, seats].astype(np.int64),
        np.asarray(baseline.winners)[rows, seats],
        np.asarray(baseline.buys).sum(axis=1)[rows, seats].astype(np.int64),
    )


def plot_buying_value(result: BuyingValue, ax: Axes | None = None) -> Figure:
    """Two panels: win rates and mean totals of the seat that never buys and of the same
    seat buying, with 95 % intervals (the win-rate panel marks 1 / players). With ``ax``
    given, only the win rates are drawn there."""
    import matplotlib.pyplot as plt

    labels = [_t("buy_never"), _t("buy_always")]
    colours = ["tab:orange", "tab:blue"]
    if ax is None:
        figure, (win_ax, total_ax) = plt.subplots(1, 2, figsize=(9.0, 4.0))
    else:
        figure, win_ax, total_ax = _owner(ax), ax, None
    rates = result.win_rates()
    low, high = result.win_intervals()
    win_ax.bar(labels, rates, yerr=_error_bars(rates, low, high), capsize=4, color=colours)
    win_ax.axhline(1 / result.players, linestyle="--", color="grey", label=_t("fair_share"))
    win_ax.set_title(_t("buy_title"))
    win_ax.set_ylabel(_t("win_rate"))
    win_ax.legend()
    if total_ax is not None:
        means, half = result.mean_totals()
        total_ax.bar(labels, means, yerr=half, capsize=4, color=colours)
        total_ax.set_title(_t("buy_totals_title"))
        total_ax.set_ylabel(_t("mean_total"))
    figure.tight_layout()
    return figure


# 5. Scores and wins by seat


@dataclass(frozen=True)
class SeatResults:
    """Final totals and wins per seat for each line-up of native bots.

    ``totals[j]`` is ``(games, players)`` for ``lineups[j]``; ``winners[j]`` marks the
    seats with the lowest total (a shared win counts for each, L-10.3).
    """

    games: int
    lineups: tuple[tuple[str, ...], ...]
    totals: tuple[npt.NDArray[np.int32], ...]
    winners: tuple[BoolArray, ...]

    def win_rates(self, lineup: int) -> FloatArray:
        result: FloatArray = self.winners[lineup].mean(axis=0)
        return result

    def win_intervals(self, lineup: int) -> tuple[FloatArray, FloatArray]:
        return wilson_interval(self.winners[lineup].sum(axis=0), self.games)

    def lineup_label(self, lineup: int) -> str:
        return " · ".join(_bot_label(bot) for bot in self.lineups[lineup])


def seat_results(
    games: int = 1000,
    seed: int = 0,
    rules: RuleSet | None = None,
    lineups: Sequence[Sequence[str]] = (
        ("greedy", "greedy", "greedy", "greedy"),
        ("greedy", "greedy", "random", "greedy"),
    ),
    progress: bool | None = None,
) -> SeatResults:
    """Totals and wins by seat, ``games`` games of each line-up (``simulate``, the same
    seed for each, so the line-ups see the same deals as long as their play agrees).

    Random bots make long rounds (their hands grow): a line-up with one costs several
    times the games of four greedy bots."""
    results = [_simulate(games, seed, lineup, rules, progress) for lineup in lineups]
    return SeatResults(
        games,
        tuple(tuple(lineup) for lineup in lineups),
        tuple(np.asarray(r.totals) for r in results),
        tuple(np.asarray(r.winners) for r in results),
    )


def plot_score_distributions(result: SeatResults, ax: Axes | None = None) -> Figure:
    """Histograms of the final totals, one per line-up and bot kind (all its seats together),
    each scaled to sum to 1."""
    figure, ax = _figure(ax)
    everything = np.concatenate([t.ravel() for t in result.totals])
    bins = np.linspace(everything.min(), everything.max(), 50).tolist()
    for j, lineup in enumerate(result.lineups):
        for kind in dict.fromkeys(lineup):
            seats = [s for s, bot in enumerate(lineup) if bot == kind]
            totals = result.totals[j][:, seats].ravel()
            ax.hist(
                totals,
                bins=bins,
                weights=np.full(totals.size, 1.0 / totals.size),  # each series sums to 1: seat counts differ
                histtype="step",
                linewidth=1.5,
                label=_t("score_series", lineup=result.lineup_label(j), bot=_bot_label(kind)),
            )
    ax.set_title(_t("scores_title"))
    ax.set_xlabel(_t("scores_xlabel"))
    ax.set_ylabel(_t("scores_ylabel"))
    ax.legend(fontsize="small")
    return figure


def plot_win_rates(result: SeatResults, ax: Axes | None = None) -> Figure:
    """Win rate of each seat, one group of bars per seat and one colour per line-up,
    with 95 % intervals and a dashed line at 1 / players."""
    figure, ax = _figure(ax)
    lineups = len(result.lineups)
    width = 0.8 / lineups
    players = result.totals[0].shape[1]
    seats = np.arange(players)
    for j in range(lineups):
        rates = result.win_rates(j)
        low, high = result.win_intervals(j)
        ax.bar(
            seats + (j - (lineups - 1) / 2) * width,
            rates,
            width,
            yerr=_error_bars(rates, low, high),
            capsize=3,
            label=result.lineup_label(j),
        )
    ax.axhline(1 / players, linestyle="--", color="grey", label=_t("fair_share"))
    ax.set_xticks(seats, [_t("seat", seat=s) for s in seats])
    ax.set_title(_t("wins_title"))
    ax.set_ylabel(_t("win_rate"))
    ax.legend(fontsize="small")
    return figure


#: The questions in notebook order: (compute, plots).
QUESTIONS: tuple[tuple[Callable[..., Any], tuple[Callable[..., Figure], ...]], ...] = (
    (contract_odds, (plot_contract_odds,)),
    (cut_bonus_odds, (plot_cut_bonus_odds,)),
    (round_lengths, (plot_round_lengths,)),
    (buying_value, (plot_buying_value,)),
    (seat_results, (plot_score_distributions, plot_win_rates)),
)
