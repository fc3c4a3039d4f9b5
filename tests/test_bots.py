"""Native bots, the Python bot interface and batch simulation.

Every check here is seeded, so it cannot flake: the same seed gives the same games
on every run and machine.
"""

from __future__ import annotations

import liverpool
import numpy as np
import pytest
from liverpool import (
    Action,
    GameState,
    NativeBot,
    RandomBot,
    RuleSet,
    play_game,
    simulate,
)
from liverpool._core import game_seeds
from liverpool.agents.bots import Bot, BotError
from liverpool.errors import InvalidArgumentError

ARRAYS = ("round_scores", "went_out", "turns", "buys", "cut_bonus", "no_winner", "totals", "winners")
MIXED = ("greedy", "random", "greedy", "random")


def same_results(a: liverpool.SimulationResult, b: liverpool.SimulationResult) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ARRAYS)


@pytest.fixture(scope="module")
def mixed() -> liverpool.SimulationResult:
    # Greedy and random alternate, so that neither kind always plays first.
    return simulate(300, seed=2024, bots=MIXED, threads=2)


def test_greedy_beats_random(mixed: liverpool.SimulationResult) -> None:
    # L-10.3: lower totals are better; the greedy seats must win most games.
    greedy_mean = mixed.totals[:, [0, 2]].mean()
    random_mean = mixed.totals[:, [1, 3]].mean()
    assert greedy_mean < random_mean / 2, (greedy_mean, random_mean)
    greedy_wins = mixed.winners[:, [0, 2]].any(axis=1).mean()
    assert greedy_wins > 0.9


def test_shapes_and_dtypes(mixed: liverpool.SimulationResult) -> None:
    g, r, p = 300, 7, 4
    assert (mixed.games, mixed.rounds, mixed.players, len(mixed)) == (g, r, p, g)
    assert mixed.bots == MIXED
    expected = {
        "round_scores": ((g, r, p), np.int32),
        "went_out": ((g, r), np.int8),
        "turns": ((g, r), np.int32),
        "buys": ((g, r, p), np.int16),
        "cut_bonus": ((g, r), np.int8),
        "no_winner": ((g, r), np.bool_),
        "totals": ((g, p), np.int32),
        "winners": ((g, p), np.bool_),
    }
    for name, (shape, dtype) in expected.items():
        array = getattr(mixed, name)
        assert array.shape == shape and array.dtype == dtype, name


def test_results_are_consistent_with_the_rules(mixed: liverpool.SimulationResult) -> None:
    # L-10.3: totals are the sums of the round scores; the winners hold the lowest.
    assert np.array_equal(mixed.round_scores.sum(axis=1), mixed.totals)
    assert np.array_equal(mixed.winners, mixed.totals == mixed.totals.min(axis=1, keepdims=True))
    # Every game ended (7 rounds each, a round either has a winner or none).
    assert np.array_equal(mixed.no_winner, mixed.went_out == -1)
    assert (mixed.turns >= 1).all()
    # L-10.1 / L-10.2: who goes out scores 0, or -50 with the cut bonus.
    games, rounds = np.nonzero(mixed.went_out >= 0)
    seats = mixed.went_out[games, rounds]
    winner_scores = mixed.round_scores[games, rounds, seats]
    bonus = np.where(mixed.cut_bonus[games, rounds] == seats, -50, 0)
    assert np.array_equal(winner_scores, bonus)
    # L-2.3: a cut bonus seat is a real seat; the random seats buy (L-6) far more.
    assert ((mixed.cut_bonus >= -1) & (mixed.cut_bonus < 4)).all()
    assert mixed.buys[:, :, [1, 3]].mean() > mixed.buys[:, :, [0, 2]].mean()


def test_identical_for_any_thread_count_and_with_progress() -> None:
    one = simulate(150, seed=9, bots=MIXED, threads=1)
    calls: list[tuple[int, int]] = []
    two = simulate(150, seed=9, bots=MIXED, threads=2, progress=lambda done, total: calls.append((done, total)))
    assert same_results(one, two)
    assert calls[-1] == (150, 150) and [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_same_seed_same_games_other_seed_other_games() -> None:
    a = simulate(40, seed=5, bots=["greedy"] * 4)
    b = simulate(40, seed=5, bots=["greedy"] * 4)
    c = simulate(40, seed=6, bots=["greedy"] * 4)
    assert same_results(a, b)
    assert not np.array_equal(a.round_scores, c.round_scores)


def test_game_i_depends_only_on_seed_and_index() -> None:
    # A smaller batch is a prefix of a larger one.
    small = simulate(10, seed=77, bots=MIXED)
    large = simulate(25, seed=77, bots=MIXED)
    assert np.array_equal(small.totals, large.totals[:10])


def test_play_game_replays_simulated_games() -> None:
    # The Python driver with native bot names plays game i of simulate(seed) exactly.
    result = simulate(6, seed=31, bots=MIXED, threads=1)
    for i in range(6):
        game = play_game(list(MIXED), seed=31, game=i)
        assert game.is_game_over
        assert game.totals == result.totals[i].tolist()
        assert game.winners == np.flatnonzero(result.winners[i]).tolist()


def test_round_scores_equal_the_final_hands() -> None:
    # L-10.1 / L-10.2 recomputed from the hands left at each round's end.
    rules = RuleSet()
    state = GameState(seed=4)
    bots = [NativeBot("greedy", seed=s) for s in range(3)] + [NativeBot("random", seed=3)]
    rounds = 0
    while (seat := state.to_act) is not None:
        event = state.apply(seat, bots[seat].choose(state, seat))
        end = event.round_end
        if end is not None:
            rounds += 1
            expected = [sum(rules.card_points(c) for c in hand) for hand in state.hands]
            if state.cut_bonus is not None:
                expected[state.cut_bonus] += rules.cut_bonus
            assert end["scores"] == expected == state.round_scores
    assert rounds == 7


class DiscardHighestBot:
    """A user-written bot: take nothing, go down when the engine offers it, lay off
    anything, and otherwise discard the highest-scoring card."""

    def __init__(self) -> None:
        self.rules = RuleSet()

    def choose(self, state: GameState, seat: int) -> Action:
        legal = state.legal_actions(seat)
        by_name: dict[str, list[Action]] = {}
        for action in legal:
            by_name.setdefault(action.name, []).append(action)
        for name in ("go_down", "swap_joker", "lay_off"):
            if name in by_name:
                return by_name[name][0]
        if "discard" in by_name:
            return max(by_name["discard"], key=lambda a: self.rules.card_points(a.card) if a.card else 0)
        for name in ("pass", "draw_stock", "decline_discard", "next_round"):
            if name in by_name:
                return by_name[name][0]
        return legal[0]  # the cut


def test_python_bots_play_against_native_ones() -> None:
    mine = DiscardHighestBot()
    assert isinstance(mine, Bot) and isinstance(NativeBot("random"), Bot)
    totals = np.zeros(4)
    for i in range(4):
        game = play_game([mine, "greedy", RandomBot(seed=i), "random"], seed=i)
        assert game.is_game_over and len(game.history) > 100
        totals += game.totals
    # The user bot goes down and sheds: it beats both random bots over these games.
    assert totals[0] < totals[2] and totals[0] < totals[3]


def test_native_bot_follows_the_protocol() -> None:
    state = GameState(seed=12)
    bot = NativeBot("greedy", seed=3)
    assert (bot.kind, bot.seed, repr(bot)) == ("greedy", 3, "NativeBot('greedy', seed=3)")
    seat = state.to_act
    assert seat is not None
    first = bot.choose(state, seat)
    assert state.can(seat, first)
    # Same seed, same state: same choice (the greedy cut comes from its own RNG).
    assert NativeBot("greedy", seed=3).choose(state, None) == first
    with pytest.raises(InvalidArgumentError, match="no decision"):
        bot.choose(state, (seat + 1) % 4)


def test_bad_bot_names_are_refused() -> None:
    with pytest.raises(InvalidArgumentError) as info:
        simulate(2, bots=["greedy", "clever", "random", "greedy"])
    assert info.value.code == "invalid_argument" and "clever" in str(info.value)
    with pytest.raises(InvalidArgumentError):
        NativeBot("minimax")
    with pytest.raises(InvalidArgumentError):
        play_game(["greedy", "oracle", "greedy", "greedy"])
    with pytest.raises(InvalidArgumentError):
        play_game(["greedy", 42, "greedy", "greedy"])  # type: ignore[list-item]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InvalidArgumentError):
        simulate(-1)
    with pytest.raises(InvalidArgumentError):
        simulate(2, threads=0)
    with pytest.raises(InvalidArgumentError, match="1 bots"):
        play_game(["greedy"], players=4)
    with pytest.raises(InvalidArgumentError):
        simulate(2, bots=["greedy"] * 9)  # L-1.1: more seats than profile L allows
    with pytest.raises(InvalidArgumentError):
        simulate(2, progress=42)  # type: ignore[arg-type]


def test_a_bot_that_breaks_the_rules_is_stopped() -> None:
    class Cheater:
        def choose(self, state: GameState, seat: int) -> Action:
            return Action.discard("A♠") if state.phase != "cut" else Action.cut(41)

    # The engine refuses the move; the driver reports it as the bot's fault
    # (tests/test_hostile_bots.py has every kind of fault).
    with pytest.raises(BotError) as info:
        play_game([Cheater(), "greedy", "greedy", "greedy"], seed=1)
    assert info.value.code == "bot_failed"
    assert info.value.fault.kind == "illegal" and info.value.fault.seat == 0
    assert info.value.fault.code in {"not_your_turn", "wrong_phase", "card_not_in_hand"}


def test_other_profiles_and_player_counts_run() -> None:
    for preset, bots in [("contract", ["greedy"] * 5), ("liverpool-classic", ["greedy", "random", "greedy"])]:
        result = simulate(6, seed=1, bots=bots, rules=RuleSet(preset))
        assert result.totals.shape == (6, len(bots))
        assert np.array_equal(result.round_scores.sum(axis=1), result.totals)


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_every_preset_simulates_and_replays(preset: str) -> None:
    # The simulator under every preset: games end, totals add up, and play_game
    # replays game i move by move (the fair window, W-7 calls and W-8 included).
    rules = RuleSet(preset)
    bots = ["greedy", "greedy", "random", "greedy"]
    result = simulate(4, seed=5, bots=bots, rules=rules, threads=1)
    assert np.array_equal(result.round_scores.sum(axis=1), result.totals)
    for i in range(2):
        game = play_game(bots, seed=5, rules=rules, game=i)
        assert game.is_game_over and game.totals == result.totals[i].tolist()
        # Only the seat the engine asked ever decided (L-6.3): every move was legal then.
        assert GameState.replay(game_seeds(5, i, 4)[0], game.history, 4, rules) == game


def test_clone_benchmark_helper() -> None:
    assert liverpool._core.bench_clone_ns(1000) > 0
