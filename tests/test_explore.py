"""liverpool.teach.explore: each answer checked against an independent way of getting it,
determinism by seed, and the plots (Agg backend) in every language."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import matplotlib
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from liverpool import NativeBot, RuleSet, deal, has_contract, i18n, play_game, shuffled_decks, simulate

from liverpool.teach import explore
from liverpool._core import game_seeds

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.figure import Figure  # noqa: E402

RULES = RuleSet()


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def _binomial_bound(successes: int, trials: int, p: float, sigmas: float = 4.0) -> bool:
    """Whether ``successes`` is within ``sigmas`` standard deviations of ``trials × p``."""
    return abs(successes - trials * p) <= sigmas * math.sqrt(trials * p * (1 - p))


# Intervals


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_holds_the_proportion(case: tuple[int, int]) -> None:
    successes, trials = case
    low, high = explore.wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0
    assert high - low > 0


def test_wilson_interval_matches_a_worked_value() -> None:
    # 10 of 100, the Wilson 95 % interval is [0.0552, 0.1744] (Newcombe 1998, method 3).
    low, high = explore.wilson_interval(10, 100)
    assert float(low) == pytest.approx(0.0552, abs=5e-4)
    assert float(high) == pytest.approx(0.1744, abs=5e-4)


def test_mean_interval_is_the_standard_error() -> None:
    values = np.array([[1.0, 10.0], [3.0, 10.0], [5.0, 10.0], [7.0, 10.0]])
    mean, half = explore.mean_interval(values)
    assert mean.tolist() == [4.0, 10.0]
    assert half[0] == pytest.approx(explore.Z95 * np.std(values[:, 0], ddof=1) / 2)
    assert half[1] == 0.0


# 1. The contract in the hand


@pytest.mark.parametrize("round_", range(1, 8))
def test_dealt_hands_are_the_first_players_hand_then_the_stock(round_: int) -> None:
    decks = shuffled_decks(5, seed=11)
    hands = explore.dealt_hands(decks, round_, draws=4, rules=RULES, players=4)
    size = RULES.deal_sizes[round_ - 1]
    for row, deck in enumerate(decks):
        dealt = deal(deck, round_, dealer=3, cut=1)
        assert sorted(hands[row, :size].tolist()) == sorted(card.id for card in dealt.hands[0])
        assert hands[row, size:].tolist() == [card.id for card in dealt.stock[:4]]


def test_contract_odds_agree_with_has_contract_hand_by_hand() -> None:
    games, draws = 60, 3
    odds = explore.contract_odds(games=games, draws=draws, seed=5, rounds=range(1, 8))
    decks = shuffled_decks(games, seed=5)
    for i, round_ in enumerate(odds.rounds):
        hands = explore.dealt_hands(decks, round_, draws, RULES, 4)
        size = RULES.deal_sizes[round_ - 1]
        for k in range(draws + 1):
            one_by_one = sum(has_contract(hand[: size + k].tolist(), round_) for hand in hands)
            assert odds.held[i, k] == one_by_one, (round_, k)


@given(st.integers(0, 2**64 - 1))
def test_a_hand_keeps_its_contract_as_cards_are_added(seed: int) -> None:
    odds = explore.contract_odds(games=40, draws=6, seed=seed)
    assert all(not RULES.contracts[r - 1][2] for r in odds.rounds)  # round 7 left out by default
    assert (np.diff(odds.held, axis=1) >= 0).all()


def test_contract_odds_are_deterministic_by_seed() -> None:
    first = explore.contract_odds(games=300, draws=4, seed=3)
    again = explore.contract_odds(games=300, draws=4, seed=3)
    other = explore.contract_odds(games=300, draws=4, seed=4)
    assert np.array_equal(first.held, again.held)
    assert not np.array_equal(first.held, other.held)
    low, high = first.interval()
    assert (low <= first.frequency).all() and (first.frequency <= high).all()


# 2. The cut bonus


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_the_bonus_table_marks_the_exact_cut_only(preset: str) -> None:
    rules = RuleSet(preset)
    table = explore.bonus_table(rules, 4)
    for round_ in range(1, rules.rounds + 1):
        bonus_cuts = np.flatnonzero(table[round_ - 1]).tolist()
        assert bonus_cuts == ([rules.exact_cut(round_, 4)] if rules.cut_bonus else [])


def test_uniform_cuts_earn_the_bonus_about_once_in_106() -> None:
    odds = explore.cut_bonus_odds(games=3000, seed=2)
    uniform = odds.kinds.index("uniform")
    assert odds.expected[uniform] == pytest.approx(1 / 106)
    assert odds.cuts[uniform] == 3000 * 7
    assert _binomial_bound(int(odds.bonuses[uniform]), int(odds.cuts[uniform]), 1 / 106)


def test_cut_odds_agree_with_simulate_and_with_the_models() -> None:
    games, seed = 400, 9
    odds = explore.cut_bonus_odds(games=games, seed=seed, spreads=(1, 3))
    assert odds.kinds == ("uniform", "in_game", "aim", "aim", "middle")
    in_game = odds.kinds.index("in_game")
    direct = simulate(games, seed=seed, bots=["greedy"] * 4).cut_bonus
    assert odds.bonuses[in_game] == int((direct >= 0).sum())
    # An error of sd 1 card hits the exact cut with P(|Z| < 0.5) = erf(0.5 / sqrt 2).
    assert odds.expected[2] == pytest.approx(math.erf(0.5 / math.sqrt(2)), rel=1e-9)
    for j in range(len(odds.kinds)):
        assert _binomial_bound(int(odds.bonuses[j]), int(odds.cuts[j]), float(odds.expected[j])), odds.kinds[j]
    # Aiming better earns the bonus more often.
    assert odds.expected[2] > odds.expected[3] > odds.expected[odds.kinds.index("uniform")]


def test_without_a_cut_bonus_no_cut_earns_one() -> None:
    odds = explore.cut_bonus_odds(games=50, seed=0, rules=RuleSet("contract"))
    assert odds.bonuses.tolist() == [0] * len(odds.kinds)
    assert odds.expected.tolist() == [0.0] * len(odds.kinds)


def test_cut_odds_are_deterministic_by_seed() -> None:
    first = explore.cut_bonus_odds(games=200, seed=4)
    assert np.array_equal(first.bonuses, explore.cut_bonus_odds(games=200, seed=4).bonuses)
    assert not np.array_equal(first.bonuses, explore.cut_bonus_odds(games=200, seed=5).bonuses)


# 3. Round lengths


def test_round_lengths_are_simulates_turns() -> None:
    lengths = explore.round_lengths(games=50, seed=8)
    direct = simulate(50, seed=8, bots=["greedy"] * 4)
    assert np.array_equal(lengths.turns, direct.turns)
    assert np.array_equal(lengths.no_winner, direct.no_winner)
    assert lengths.median().shape == (7,)
    mixed = explore.round_lengths(games=20, seed=8, bots=("greedy", "random", "greedy", "greedy"))
    assert np.array_equal(mixed.turns, simulate(20, seed=8, bots="greedy,random,greedy,greedy").turns)


# 4. Buying


def test_play_game_seeds_a_python_held_bot_like_simulate() -> None:
    """buying_value relies on this: a greedy NativeBot object given the seat's seed
    from game_seeds plays exactly as the bot simulate seats there."""
    direct = simulate(6, seed=21, bots=["greedy"] * 4)
    for game in range(6):
        seat = game % 4
        _, bot_seeds = game_seeds(21, game, 4)
        bots: list[Any] = ["greedy"] * 4
        bots[seat] = NativeBot("greedy", seed=bot_seeds[seat])
        state = play_game(bots, seed=21, game=game)
        assert state.totals == direct.totals[game].tolist()


def test_the_no_buy_bot_never_buys_and_otherwise_plays_greedy() -> None:
    bot = explore.NoBuyBot(seed=5)
    state = play_game([bot, "greedy", "greedy", "greedy"], seed=3)
    actions = [action.name for seat, action in state.history if seat == 0]
    assert "buy" not in actions
    assert bot.declined > 0  # the greedy bot wanted to buy: those were passes
    assert "go_down" in actions


def test_buying_value_against_its_baseline() -> None:
    games, seed = 24, 6
    value = explore.buying_value(games=games, seed=seed)
    assert value.seats.tolist() == [g % 4 for g in range(games)]
    baseline = simulate(games, seed=seed, bots=["greedy"] * 4)
    rows = np.arange(games)
    assert np.array_equal(value.baseline_totals, baseline.totals[rows, value.seats])
    assert np.array_equal(value.baseline_wins, baseline.winners[rows, value.seats])
    for game in (0, 5):
        bots: list[Any] = ["greedy"] * 4
        _, bot_seeds = game_seeds(seed, game, 4)
        bots[game % 4] = explore.NoBuyBot(bot_seeds[game % 4])
        state = play_game(bots, seed=seed, game=game)
        assert value.no_buy_totals[game] == state.totals[game % 4]
        assert value.no_buy_wins[game] == (game % 4 in state.winners)
    # A game where the bot never wanted to buy is the baseline game itself.
    same = value.declined == 0
    assert np.array_equal(value.no_buy_totals[same], value.baseline_totals[same])
    mean, half = value.mean_difference()
    assert mean == pytest.approx(float(np.mean(value.no_buy_totals - value.baseline_totals)))
    assert half > 0
    again = explore.buying_value(games=games, seed=seed)
    assert np.array_equal(again.no_buy_totals, value.no_buy_totals)
    assert np.array_equal(again.declined, value.declined)


# 5. Seats


def test_seat_results_are_simulates() -> None:
    lineups = (("greedy",) * 4, ("random", "greedy", "greedy"))
    seats = explore.seat_results(games=40, seed=2, lineups=lineups)
    for j, lineup in enumerate(lineups):
        direct = simulate(40, seed=2, bots=list(lineup))
        assert np.array_equal(seats.totals[j], direct.totals)
        assert np.array_equal(seats.winners[j], direct.winners)
        assert np.allclose(seats.win_rates(j), direct.winners.mean(axis=0))
        # Every game has a winner, so the seats' win rates add up to at least 1.
        assert seats.win_rates(j).sum() >= 1.0


# Plots and languages


def _small_results() -> dict[str, Any]:
    return {
        "contract": explore.contract_odds(games=50, draws=2, seed=1),
        "cut": explore.cut_bonus_odds(games=30, seed=1),
        "turns": explore.round_lengths(games=20, seed=1),
        "buying": explore.buying_value(games=8, seed=1),
        "seats": explore.seat_results(games=20, seed=1),
    }


PLOTS: list[tuple[str, Callable[..., Figure], str]] = [
    ("contract", explore.plot_contract_odds, "contract_title"),
    ("cut", explore.plot_cut_bonus_odds, "cut_title"),
    ("turns", explore.plot_round_lengths, "turns_title"),
    ("buying", explore.plot_buying_value, "buy_title"),
    ("seats", explore.plot_score_distributions, "scores_title"),
    ("seats", explore.plot_win_rates, "wins_title"),
]


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    return _small_results()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize(("name", "plot", "title"), PLOTS, ids=[p[1].__name__ for p in PLOTS])
def test_plots_are_figures_with_translated_titles(
    results: dict[str, Any], name: str, plot: Callable[..., Figure], title: str, lang: str
) -> None:
    with i18n.language(lang):
        figure = plot(results[name])
    assert isinstance(figure, Figure)
    titles = [ax.get_title() for ax in figure.axes]
    assert i18n.text("explore", title, lang=lang) in titles
    if lang != "en":
        assert i18n.text("explore", title, lang="en") not in titles
    labels = [ax.get_ylabel() for ax in figure.axes]
    assert all(label for label in labels)
    figure.canvas.draw()  # the figure renders


@pytest.mark.parametrize(("name", "plot", "title"), PLOTS, ids=[p[1].__name__ for p in PLOTS])
def test_plots_draw_into_a_given_axes(
    results: dict[str, Any], name: str, plot: Callable[..., Figure], title: str
) -> None:
    figure, ax = plt.subplots()
    assert plot(results[name], ax=ax) is figure
    assert ax.get_title() == i18n.text("explore", title)


def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    english = i18n.catalogue("en", "explore")
    assert english
    for lang in i18n.LANGUAGES:
        translated = i18n.catalogue(lang, "explore")
        assert set(translated) == set(english), lang
        for key, template in translated.items():
            assert i18n.placeholders(template) == i18n.placeholders(english[key]), (lang, key)



def test_progress_bar_counts_the_work(capsys: pytest.CaptureFixture[str]) -> None:
    explore.contract_odds(games=20, draws=2, seed=0, progress=True)
    explore.round_lengths(games=10, seed=0, progress=True)
    err = capsys.readouterr().err
    assert "18/18" in err  # 6 rounds × 3 values of k
    assert "10/10" in err
