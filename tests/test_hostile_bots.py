"""Python bots that cheat, raise, sleep or return garbage (issue 17, "Tournaments and
Python bots"; docs/agents.md "Python bots", docs/guarantees.md).

A Python bot gets its seat's sample of the game (``GameState.sample_for``), never the
game; the driver alone applies its answer for its seat, and the engine referees it.
Every fault is reported with the bot, its seat and the deal, and either stops the game
with ``BotError`` (``bot_failed``) or is played by the greedy bot, as the caller chose.
"""

from __future__ import annotations

import gc
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liverpool import Action, GameState, NativeBot, RuleSet

from liverpool.tools import cli
from liverpool.agents.bots import BotError, BotFault, RandomBot, play_game
from liverpool.i18n import language
from liverpool.agents.tournament import play


class Cheater:
    """Moves for every other seat on the state it is given, then plays its own move."""

    def __init__(self) -> None:
        self.moves_for_others = 0

    def choose(self, state: GameState, seat: int) -> Action:
        mine = state.legal_actions(seat)[0]
        for _ in range(3):
            other = state.to_act
            if other is None or other == seat:
                break
            state.apply(other, state.legal_actions(other)[0])
            self.moves_for_others += 1
        # Move its own seat on the copy too, several times.
        probe = state.clone()
        if probe.to_act == seat:
            probe.apply(seat, probe.legal_actions(seat)[0])
            self.moves_for_others += 1
        return mine


class GcCheater:
    """Finds the real game through the interpreter's objects and moves on it."""

    def choose(self, state: GameState, seat: int) -> Action:
        for obj in gc.get_objects():
            if isinstance(obj, GameState) and obj is not state and obj.to_act is not None and obj.hand_sizes == state.hand_sizes:
                try:
                    obj.apply(obj.to_act, obj.legal_actions()[0])
                except Exception:  # noqa: BLE001 - a cheater does not care
                    pass
        return state.legal_actions(seat)[0]


class Raiser:
    def __init__(self, seed: int = 0) -> None:
        self.calls = 0

    def choose(self, state: GameState, seat: int) -> Action:
        self.calls += 1
        raise ZeroDivisionError("the bot divided by zero")


class Sleeper:
    def __init__(self, seed: int = 0) -> None:
        self.calls = 0

    def choose(self, state: GameState, seat: int) -> Action:
        self.calls += 1
        time.sleep(60)
        return state.legal_actions(seat)[0]


class Returns:
    def __init__(self, value: Any) -> None:
        self.value = value

    def choose(self, state: GameState, seat: int) -> Any:
        return self.value


class NoSeat:
    """The old mistake: ``choose`` without the ``seat`` argument."""

    def choose(self, state: GameState) -> Action:  # type: ignore[empty-body]
        ...


def _only_python_moves_in(game: GameState, seed: int, players: int = 4) -> None:
    """The final game is exactly what its history replays to: no move outside it."""
    again = GameState.replay(game_seed(seed, 0, players), game.history, players=players, rules=game.rules)
    assert again == game


def game_seed(seed: int, game: int = 0, players: int = 4) -> int:
    from liverpool._core import game_seeds

    return game_seeds(seed, game, players)[0]


# ----- what a bot sees -------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["liverpool", "liverpool-classic", "shanghai"])
def test_the_sample_is_all_the_seat_knows_and_no_more(preset: str) -> None:
    """For every state of a greedy game, the seat's sample has the seat's hand, the
    same legal actions, observation and information-state text as the real game, and
    the other hands hold guesses (they differ from the real ones somewhere)."""
    rules = RuleSet(preset)
    game = GameState(seed=3, rules=rules)
    bots = [NativeBot("greedy", seed=s) for s in range(game.players)]
    guessed_differently = 0
    steps = 0
    while (seat := game.to_act) is not None and steps < 600:
        sample = game.sample_for(seat, seed=steps)
        assert sample.hand(seat) == game.hand(seat)
        assert sample.hand_sizes == game.hand_sizes
        assert sample.legal_actions(seat) == game.legal_actions(seat)
        assert sample.information_state_string(seat) == game.information_state_string(seat)
        assert (sample.observation_tensor(seat) == game.observation_tensor(seat)).all()
        assert sample.history == []
        others = [s for s in range(game.players) if s != seat]
        if any(sample.hand(s) != game.hand(s) for s in others) or sample.stock != game.stock:
            guessed_differently += 1
        game.apply(seat, bots[seat].choose(game, seat))
        steps += 1
    assert guessed_differently > steps // 2


def test_a_bot_never_gets_the_game_itself() -> None:
    seen: list[GameState] = []

    class Spy:
        def choose(self, state: GameState, seat: int) -> Action:
            seen.append(state)
            return state.legal_actions(seat)[0]

    game = play_game([Spy(), "greedy", "greedy", "greedy"], seed=4)
    assert seen and all(state is not game for state in seen)
    assert all(state.history == [] for state in seen)


def test_a_cheater_moves_only_its_copy() -> None:
    """The cheater of issue 17 made 182 moves for other seats on the live game; now it
    moves only on its sample, and the game is exactly its own history."""
    cheater = Cheater()
    game = play_game([cheater, "greedy", "greedy", "greedy"], seed=9, on_error="stop")
    assert game.is_game_over
    assert cheater.moves_for_others > 50
    _only_python_moves_in(game, 9)


@pytest.mark.parametrize("on_error", ["stop", "fallback"])
def test_a_bot_that_reaches_the_game_through_gc_is_stopped(on_error: str) -> None:
    with pytest.raises(BotError) as info:
        play_game([GcCheater(), "greedy", "greedy", "greedy"], seed=2, on_error=on_error)  # type: ignore[arg-type]
    fault = info.value.fault
    assert (fault.kind, fault.seat, fault.deal, fault.bot) == ("cheated", 0, 0, "GcCheater")
    assert info.value.code == "bot_failed"
    assert "the game stops" in str(info.value)


# ----- faults --------------------------------------------------------------------------------


def test_a_raising_bot_stops_the_game_with_its_seat_and_deal() -> None:
    with pytest.raises(BotError) as info:
        play_game(["greedy", "greedy", Raiser(), "greedy"], seed=1, game=7)
    fault = info.value.fault
    assert (fault.kind, fault.seat, fault.deal, fault.bot) == ("raised", 2, 7, "Raiser")
    assert fault.detail == "ZeroDivisionError: the bot divided by zero"
    # Shown to people: seats from 1, in the current language.
    assert "seat 3" in str(info.value) and "deal 7" in str(info.value)
    with language("pt"):
        assert "jogador 3" in str(info.value) and "distribuição 7" in str(info.value)
    with language("es"):
        assert "jugador 3" in str(info.value) and "reparto 7" in str(info.value)


def test_fallback_lets_the_greedy_bot_decide_and_records_every_fault() -> None:
    raiser = Raiser()
    faults: list[BotFault] = []
    game = play_game([raiser, "greedy", "greedy", "greedy"], seed=5, on_error="fallback", faults=faults)
    assert game.is_game_over
    assert len(faults) == raiser.calls > 20
    assert {f.kind for f in faults} == {"raised"}
    # Each fault names the move the greedy bot made instead, and the game holds it.
    played = [(s, a) for s, a in game.history if s == 0]
    assert [f.fallback for f in faults] == [a for _, a in played]
    # The same as seating the greedy bot with that seat's native seed: the fallback
    # is that bot.
    assert game == play_game(["greedy"] * 4, seed=5)


def test_a_sleeping_bot_forfeits_after_the_time_limit_and_is_not_asked_again() -> None:
    sleeper = Sleeper()
    faults: list[BotFault] = []
    game = play_game(["greedy", sleeper, "greedy", "greedy"], seed=3, time_limit=0.2, on_error="fallback", faults=faults)
    assert game.is_game_over
    assert sleeper.calls == 1
    assert [(f.kind, f.seat, f.detail) for f in faults] == [("timeout", 1, "0.2")]
    assert "gave no answer within 0.2 s" in faults[0].message()
    # Its thread sleeps on as a daemon; the bot is never asked again (one thread, not
    # one per decision).
    assert any(t.name == "liverpool-bot-1" and t.daemon for t in threading.enumerate())


def test_a_sleeping_bot_stops_the_game_when_asked_to() -> None:
    with pytest.raises(BotError) as info:
        play_game([Sleeper(), "greedy"], seed=3, time_limit=0.1)
    assert info.value.fault.kind == "timeout"


@pytest.mark.parametrize(
    "value",
    [None, 42, "discard", b"\x00", 3.5, ["cut"], {"do": "nonsense"}, {"not": "an action"}, Action, object()],
)
def test_garbage_returns_are_bad_returns(value: Any) -> None:
    with pytest.raises(BotError) as info:
        play_game([Returns(value), "greedy"], seed=0)
    assert info.value.fault.kind == "bad_return"
    assert len(info.value.fault.detail) <= 200


def test_an_illegal_action_is_refused_by_the_engine_and_reported() -> None:
    with pytest.raises(BotError) as info:
        play_game([Returns(Action.discard("7♦")), "greedy"], seed=0)
    fault = info.value.fault
    assert (fault.kind, fault.code) == ("illegal", "wrong_phase")
    assert fault.detail == "Action.discard('7♦')"
    assert fault.error is not None and fault.error.code == "wrong_phase"
    # The step dict form of an action is accepted.
    game = play_game([Returns({"do": "cut"}), "greedy"], seed=0, on_error="fallback")
    assert game.is_game_over


def test_a_bot_without_the_seat_argument_is_reported() -> None:
    with pytest.raises(BotError) as info:
        play_game([NoSeat(), "greedy", "greedy"], seed=0)
    assert info.value.fault.kind == "raised"
    assert info.value.fault.detail.startswith("TypeError")


def test_bad_options_are_typed() -> None:
    from liverpool import InvalidArgumentError

    for kwargs in ({"on_error": "ignore"}, {"time_limit": 0}, {"time_limit": -1}, {"time_limit": float("nan")}, {"time_limit": "1"}):
        with pytest.raises(InvalidArgumentError):
            play_game(["greedy", "greedy"], **kwargs)  # type: ignore[arg-type]


BEHAVIOURS = ["raise", "none", "illegal", "ok", "dict", "garbage", "cheat", "sleep"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(BEHAVIOURS), min_size=1, max_size=30), st.integers(0, 50))
def test_any_mix_of_faults_gives_a_finished_game_with_fallback(script: list[str], seed: int) -> None:
    """Property (a hypothesis strategy of hostile bots): whatever a bot does at each
    decision — raise, return nothing or garbage, move illegally, move every seat on
    its copy, sleep past the limit — fallback finishes the game, the real game is its
    own history, and the faults are exactly the decisions that went wrong (a bot that
    timed out is not asked again)."""

    class Scripted:
        def __init__(self) -> None:
            self.i = 0
            self.wrong = 0
            self.wrong_before_last = 0

        def choose(self, state: GameState, seat: int) -> Any:
            what = script[self.i % len(script)]
            self.i += 1
            self.wrong_before_last = self.wrong
            legal = state.legal_actions(seat)
            if what == "raise":
                self.wrong += 1
                raise RuntimeError("no")
            if what == "none":
                self.wrong += 1
                return None
            if what == "illegal":
                bad = Action.next_round()
                if bad in legal:
                    return bad
                self.wrong += 1
                return bad
            if what == "dict":
                return legal[-1].to_dict()
            if what == "garbage":
                self.wrong += 1
                return [legal[0]]
            if what == "cheat":
                # Moves every seat it can on its copy: not a fault, and no effect.
                while (other := state.to_act) is not None and state.history_len < 5:
                    state.apply(other, state.legal_actions(other)[0])
                return legal[0]
            if what == "sleep":
                self.wrong += 1
                time.sleep(0.3)
                return legal[0]
            return legal[0]

    bot = Scripted()
    faults: list[BotFault] = []
    game = play_game([bot, "greedy", "greedy"], seed=seed, on_error="fallback", faults=faults, time_limit=0.1)
    assert game.is_game_over
    timeouts = [f.kind for f in faults].count("timeout")
    assert timeouts <= 1
    # On a loaded machine an honest decision may pass the 0.1 s limit too: then it is
    # the one timeout, the bot's last decision (never asked again), not counted as wrong.
    honest_timeout = timeouts == 1 and bot.wrong == bot.wrong_before_last
    assert len(faults) == bot.wrong + honest_timeout
    _only_python_moves_in(game, seed, players=3)


# ----- old bots keep working ---------------------------------------------------------------


class DiscardHighestBot:
    """The example of docs/bots.md, unchanged."""

    def __init__(self) -> None:
        self.rules = RuleSet()

    def choose(self, state: GameState, seat: int) -> Action:
        legal = state.legal_actions(seat)
        names = {a.name for a in legal}
        for wanted in ("go_down", "swap_joker", "lay_off"):
            if wanted in names:
                return next(a for a in legal if a.name == wanted)
        discards = [a for a in legal if a.name == "discard"]
        if discards:
            return max(discards, key=lambda a: self.rules.card_points(a.card))
        for wanted in ("pass", "draw_stock", "decline_discard", "next_round"):
            if wanted in names:
                return next(a for a in legal if a.name == wanted)
        return legal[0]


class WrapsGreedy:
    def __init__(self, seed: int) -> None:
        self.bot = NativeBot("greedy", seed=seed)

    def choose(self, state: GameState, seat: int) -> Action:
        return self.bot.choose(state, seat)


def test_old_protocol_bots_play_unchanged() -> None:
    game = play_game([DiscardHighestBot(), "greedy", RandomBot(seed=1), "greedy"], seed=1)
    assert game.is_game_over
    again = play_game([DiscardHighestBot(), "greedy", RandomBot(seed=1), "greedy"], seed=1)
    assert again == game


def test_a_native_bot_thinking_on_the_sample_plays_as_on_the_game() -> None:
    """The greedy bot reads only what its seat knows, so on the sample it makes the
    moves it makes on the real game (explore.py's NoBuyBot relies on it)."""
    from liverpool._core import game_seeds

    for seed in range(3):
        _, seeds = game_seeds(seed, 0, 4)
        wrapped = play_game([WrapsGreedy(seeds[0]), "greedy", "greedy", "greedy"], seed=seed)
        assert wrapped == play_game(["greedy"] * 4, seed=seed)


# ----- tournaments ---------------------------------------------------------------------------


@pytest.fixture
def bot_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "hostile_bots_for_tests.py").write_text(
        textwrap.dedent(
            """
            import time

            class Raiser:
                def __init__(self, seed):
                    pass
                def choose(self, state, seat):
                    raise KeyError("boom")

            class Sleeper:
                def choose(self, state, seat):
                    time.sleep(60)

            class Unbuildable:
                def __init__(self, seed):
                    raise RuntimeError("no config file")
                def choose(self, state, seat):
                    return state.legal_actions(seat)[0]
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "broken_bots_for_tests.py").write_text("raise RuntimeError('import-time failure')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "hostile_bots_for_tests"


def test_tournament_stops_cleanly_on_a_raising_bot(bot_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["tournament", "greedy", f"{bot_module}:Raiser", "greedy", "--deals", "2", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    assert f"{bot_module}:Raiser" in err and "seat 2" in err and "deal 0" in err and "KeyError: 'boom'" in err
    assert "[bot_failed]" in err


def test_tournament_goes_on_with_fallback(bot_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(
        ["tournament", "greedy", f"{bot_module}:Raiser", "--deals", "2", "--no-progress", "--on-bot-error", "fallback"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert f"{bot_module}:Raiser:" in out and "faults, played by the greedy bot" in out
    result = play(["greedy", f"{bot_module}:Raiser"], deals=2, on_error="fallback")
    assert result.fault_counts()[f"{bot_module}:Raiser"] == len(result.faults) > 0
    assert {f.kind for f in result.faults} == {"raised"}
    # Every decision of the raiser was the greedy bot's: both entries are greedy.
    assert result.to_dict()["fault_counts"] == result.fault_counts()


def test_tournament_benches_a_sleeping_entry(bot_module: str) -> None:
    result = play(["greedy", f"{bot_module}:Sleeper"], deals=3, time_limit=0.1, on_error="fallback")
    # One timeout in all: the entry is played by the greedy bot from then on.
    assert [f.kind for f in result.faults] == ["timeout"]
    assert result.games == 6


def test_tournament_reports_a_class_that_cannot_be_built(bot_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["tournament", "greedy", f"{bot_module}:Unbuildable", "--deals", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "could not be built" in err and "no config file" in err


def test_tournament_reports_a_module_that_fails_to_import(bot_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["tournament", "greedy", "broken_bots_for_tests:Bot", "--deals", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "import-time failure" in err


def test_tournament_time_limit_flag(bot_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(
        ["tournament", "greedy", f"{bot_module}:Sleeper", "--deals", "1", "--no-progress", "--time-limit", "0.1"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "gave no answer within 0.1 s" in err and "Traceback" not in err


def test_simulate_points_python_bots_to_the_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["simulate", "--games", "2", "--bots", "greedy,liverpool.agents.bots:RandomBot", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "liverpool.agents.bots:RandomBot is a Python bot" in err and "liverpool tournament" in err


def test_hostile_objects_are_refused_with_typed_errors() -> None:
    from liverpool import InvalidArgumentError

    class Exploding:
        @property
        def choose(self) -> Any:
            raise RuntimeError("no choose for you")

        def __repr__(self) -> str:
            raise RuntimeError("no repr either")

    with pytest.raises(InvalidArgumentError):
        play_game([Exploding(), "greedy"])  # type: ignore[list-item]

    class HostileDict(dict):  # type: ignore[type-arg]
        def items(self) -> Any:
            raise RuntimeError("no items")

        def keys(self) -> Any:
            raise RuntimeError("no keys")

    # Whatever reading it does, the game goes on: a fault or a move, never an escape.
    assert play_game([Returns(HostileDict(do="cut")), "greedy"], seed=0, on_error="fallback").is_game_over
