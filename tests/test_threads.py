"""Threads on one shared ``GameState`` (docs/guarantees.md, "Threads"; issue 17).

One writer plays a whole game with ``apply`` / ``apply_id`` while reader threads call
every public method and property of the same object, for a bounded number of rounds.
Before the fix, a reader polling ``legal_action_mask()`` or ``hint()`` made the
writer's ``apply`` fail with a bare ``RuntimeError: Already borrowed``; now a call that
finds the state in use waits for it. Nothing here measures time: the assertions are
that no call raised anything but the typed errors it may raise on a state that moved
on, and that every result is of one whole state.
"""

from __future__ import annotations

import copy
import pickle
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from liverpool import Action, GameState, LiverpoolError, NativeBot, RuleSet

#: Every public attribute of GameState, read or called by the readers below. A new
#: method must be added here (the test fails otherwise), so the guarantee keeps
#: covering every method.
CALLS: dict[str, Callable[[GameState, int], Any]] = {
    # constructors and conversions
    "replay": lambda g, s: GameState.replay(0, []),
    "from_position": lambda g, s: GameState.from_position(g.to_position()),
    "to_position": lambda g, s: g.to_position(),
    "from_json": lambda g, s: GameState.from_json(g.to_json()),
    "to_json": lambda g, s: g.to_json(),
    "clone": lambda g, s: g.clone(),
    "sample_for": lambda g, s: g.sample_for(s, seed=s),
    # reading
    "round": lambda g, s: g.round,
    "dealer": lambda g, s: g.dealer,
    "cutter": lambda g, s: g.cutter,
    "active": lambda g, s: g.active,
    "phase": lambda g, s: g.phase,
    "declined": lambda g, s: g.declined,
    "draw_pending": lambda g, s: g.draw_pending,
    "call_offer": lambda g, s: g.call_offer,
    "to_act": lambda g, s: g.to_act,
    "players": lambda g, s: g.players,
    "rules": lambda g, s: g.rules,
    "contract": lambda g, s: g.contract,
    "hands": lambda g, s: g.hands,
    "hand": lambda g, s: g.hand(s),
    "hand_sizes": lambda g, s: g.hand_sizes,
    "stock": lambda g, s: g.stock,
    "stock_size": lambda g, s: g.stock_size,
    "discard": lambda g, s: g.discard,
    "discard_top": lambda g, s: g.discard_top,
    "table": lambda g, s: g.table,
    "down": lambda g, s: g.down,
    "down_this_turn": lambda g, s: g.down_this_turn,
    "buys": lambda g, s: g.buys,
    "totals": lambda g, s: g.totals,
    "penalties": lambda g, s: g.penalties,
    "round_scores": lambda g, s: g.round_scores,
    "cut_bonus": lambda g, s: g.cut_bonus,
    "turn": lambda g, s: g.turn,
    "went_out": lambda g, s: g.went_out,
    "is_round_over": lambda g, s: g.is_round_over,
    "is_game_over": lambda g, s: g.is_game_over,
    "winners": lambda g, s: g.winners,
    "history": lambda g, s: g.history,
    "history_len": lambda g, s: g.history_len,
    # acting (readers only ask; the writer acts)
    "legal_actions": lambda g, s: g.legal_actions(),
    "hint": lambda g, s: g.hint(budget=1),
    "check": lambda g, s: g.check(s, Action.draw_stock()),
    "can": lambda g, s: g.can(s, Action.draw_stock()),
    # A reader's apply of a move that is never legal (a cut of no cards, L-2.2):
    # refused, and nothing changes.
    "apply": lambda g, s: g.apply(s, Action.cut(0)),
    "apply_step": lambda g, s: g.apply_step(s, Action.cut(0)),
    "apply_id": lambda g, s: g.apply_id(s, 10**9),
    # views
    "view": lambda g, s: g.view(s),
    "information_state_string": lambda g, s: g.information_state_string(s),
    "observation_tensor": lambda g, s: g.observation_tensor(s),
    "observation_layout": lambda g, s: g.observation_layout(),
    # the action space
    "action_space_size": lambda g, s: g.action_space_size,
    "action_layout": lambda g, s: g.action_layout(),
    "legal_action_mask": lambda g, s: g.legal_action_mask(),
    "action_id": lambda g, s: g.action_id(Action.draw_stock()),
    "action_from_id": lambda g, s: g.action_from_id(0),
    "action_ids": lambda g, s: g.action_ids(Action.draw_stock()),
    "action_from_ids": lambda g, s: g.action_from_ids([0]),
    "selection_ids": lambda g, s: g.selection_ids,
    # dunders a user reaches through the standard library
    "__eq__": lambda g, s: g == g.clone(),
    "__repr__": lambda g, s: repr(g),
    "_repr_html_": lambda g, s: g._repr_html_(),
    "__copy__": lambda g, s: copy.copy(g),
    "__deepcopy__": lambda g, s: copy.deepcopy(g),
    "__reduce__": lambda g, s: pickle.loads(pickle.dumps(g)),
    # a native bot thinking on the shared state (it copies it)
    "NativeBot.choose": lambda g, s: NativeBot("greedy", seed=s).choose(g) if g.to_act is not None else None,
}

#: Typed refusals a reader may meet because the writer moved the game on, or because
#: it asked for a move the engine refuses: never a RuntimeError.
ALLOWED_CODES = {
    "invalid_argument",  # hint / NativeBot.choose for a seat no longer asked, or at game over
    "invalid_action_id",
    "not_your_turn",
    "wrong_phase",
}


def test_every_public_method_is_hammered() -> None:
    public = {name for name in dir(GameState) if not name.startswith("_")}
    covered = {name for name in CALLS if not name.startswith("_") and "." not in name}
    assert public - covered == set(), f"add these to CALLS: {sorted(public - covered)}"


@pytest.mark.parametrize("rules", ["liverpool", "liverpool-classic"])
def test_readers_never_break_a_writer(rules: str) -> None:
    """Issue 17: with readers polling every method, the writer's ``apply`` never fails
    and the game it plays is exactly the one a lone thread plays (the same moves)."""
    game = GameState(seed=5, rules=RuleSet(rules))
    alone = game.clone()
    writer_errors: list[BaseException] = []
    reader_errors: list[str] = []
    stop = threading.Event()
    start = threading.Barrier(4)
    moves = 0
    reads = [0, 0, 0]

    def writer() -> None:
        nonlocal moves
        bots = [NativeBot("greedy", seed=s) for s in range(game.players)]
        start.wait()
        try:
            while (seat := game.to_act) is not None and moves < 3000:
                action = bots[seat].choose(game, seat)
                if moves % 2:
                    # Every accepted move has its ids (a go-down or a swap several, one id
                    # at a time); another thread may slip in between two of them.
                    for action_id in game.action_ids(action):
                        game.apply_id(seat, action_id)
                else:
                    game.apply(seat, action)
                moves += 1
        except BaseException as exc:  # noqa: BLE001 - any failure is the test's finding
            writer_errors.append(exc)
        finally:
            stop.set()

    def reader(k: int) -> None:
        names = list(CALLS)
        offset = k * 7
        i = offset
        start.wait()
        while not stop.is_set() or i < offset + len(names):
            reads[k] += 1
            name = names[i % len(names)]
            seat = i % game.players
            try:
                CALLS[name](game, seat)
            except LiverpoolError as exc:
                if exc.code not in ALLOWED_CODES and not name.startswith(("check", "apply", "action_id")):
                    reader_errors.append(f"{name}: {exc.code}: {exc}")
            except BaseException as exc:  # noqa: BLE001 - a bare error is the bug
                reader_errors.append(f"{name}: {type(exc).__name__}: {exc}")
            i += 1

    threads = [threading.Thread(target=writer)] + [threading.Thread(target=reader, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert writer_errors == []
    assert reader_errors == []
    assert game.is_game_over  # a whole game was played under the readers
    assert min(reads) >= len(CALLS)
    # The same moves by one thread alone give the same state (history included):
    # the readers changed nothing.
    for seat, action in game.history:
        alone.apply(seat, action)
    assert alone == game


def test_snapshots_are_whole_states() -> None:
    """Each call sees one whole state: a position read while a writer plays always
    loads (it passes every reachability check) and conserves the deck."""
    game = GameState(seed=11)
    deck = len(game.stock)
    stop = threading.Event()
    positions: list[dict[str, Any]] = []

    reading = threading.Event()

    def writer() -> None:
        reading.wait()
        bot = NativeBot("random", seed=1)
        while (seat := game.to_act) is not None and game.history_len < 300:
            game.apply(seat, bot.choose(game, seat))
        stop.set()

    def reader() -> None:
        while len(positions) < 2000:
            positions.append(game.to_position())
            reading.set()
            if stop.is_set():
                break

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert positions
    for pos in positions[:: max(1, len(positions) // 50)]:
        loaded = GameState.from_position(pos)
        if loaded.phase != "cut":
            table = sum(len(m.meld) for m in loaded.table)
            assert sum(loaded.hand_sizes) + loaded.stock_size + len(loaded.discard) + table == deck


def test_a_waiting_call_is_served_not_refused() -> None:
    """A thread that finds the state in use (another thread inside ``hint``) waits and
    then gets its answer: no ConcurrentUseError, no RuntimeError."""
    game = GameState(seed=2)
    game.apply(game.to_act, Action.cut())
    results: list[Any] = []
    errors: list[BaseException] = []

    def hinter() -> None:
        try:
            for _ in range(5):
                results.append(game.hint(budget=64).action)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def actor() -> None:
        try:
            for _ in range(200):
                mask = game.legal_action_mask()
                results.append(bool(np.array_equal(mask, game.legal_action_mask())))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=hinter), threading.Thread(target=actor)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(r is True for r in results if isinstance(r, bool))
