"""Issue 8: the hostile-input reproducers of the binding, as regression tests.

Each bad argument raises a ``LiverpoolError`` subclass with a stable code (never a
bare ``TypeError``/``OverflowError``/``UnicodeEncodeError``); unreachable positions
are refused on load; sharing objects between threads follows docs/guarantees.md.
"""

from __future__ import annotations

import threading

import pytest

import liverpool
from liverpool import (
    Card,
    ConcurrentUseError,
    GameState,
    InvalidArgumentError,
    InvalidCardError,
    LiverpoolError,
    Meld,
    NativeBot,
    PositionError,
    check_go_down,
    parse_cards,
)


def test_round_over_in_the_last_round_is_refused() -> None:
    # L-10.3: after the last round the game is over (next_round used to panic).
    with pytest.raises(PositionError) as e:
        GameState.from_position({"players": 2, "round": 7, "phase": "round_over", "hands": [["2♣"], ["4♣"]]})
    assert e.value.key == "position.round_over_last"


def test_dead_positions_are_refused() -> None:
    with pytest.raises(PositionError) as e:
        GameState.from_position(
            {"players": 2, "phase": "play", "hands": [[], ["4♣"]], "stock": ["A♠"], "discard": ["K♦"]}
        )
    assert e.value.code == "bad_position"
    # Profile W models floating (W-8): a seat that is down with no cards in draw is
    # reachable, and no legal action from there leads to a state without a legal move.
    # (Not down, it is not: issue 17, tests/test_unreachable_positions.py.)
    g = GameState.from_position(
        {
            "profile": "liverpool-classic",
            "players": 3,
            "phase": "draw",
            "hands": [[], ["4♣"], ["5♣"]],
            "stock": ["A♠"],
            "discard": ["K♦"],
            "table": [{"owner": 0, "cards": ["7♠", "7♥", "7♦"]}, {"owner": 0, "cards": ["9♠", "9♥", "9♦"]}],
            "down": [True, False, False],
        }
    )
    for action in g.legal_actions():
        after = g.clone()
        after.apply(after.to_act, action)
        assert after.is_game_over or after.legal_actions()


@pytest.mark.parametrize(
    "extra, key",
    [
        ({"totals": [2**31 - 10, 0]}, "position.score_range"),
        ({"buys": [255, 0]}, "position.buys_range"),
        ({"turn": 2**32 - 1}, "position.turn_range"),
    ],
)
def test_out_of_range_fields_are_refused(extra: dict[str, object], key: str) -> None:
    position = {"players": 2, "phase": "draw", "hands": [["5♥"], ["4♣"]], "stock": ["A♠"], "discard": ["K♦"]}
    GameState.from_position(position)  # the same position without the field loads
    with pytest.raises(PositionError) as e:
        GameState.from_position({**position, **extra})
    assert e.value.key == key


def test_meld_apis_respect_the_copy_limit() -> None:
    # L-1.2: the same cards has_contract refuses.
    with pytest.raises(InvalidCardError) as e:
        check_go_down(["7S 7S 7S", "7S 7S 7S"], 1)
    assert (e.value.code, e.value.rule) == ("too_many_copies", "L-1.2")
    with pytest.raises(InvalidCardError) as e:
        Meld.set(["7S"] * 10**6)
    assert "1000000" in str(e.value)


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda: parse_cards(None), "invalid_argument"),
        (lambda: Meld.set(None), "invalid_argument"),
        (lambda: Card.from_id(2**64), "malformed_card"),
        (lambda: Card.from_id(-1), "malformed_card"),
        (lambda: Card(-1), "malformed_card"),
        (lambda: Card("\ud800"), "malformed_card"),
        (lambda: Card(True), "invalid_argument"),
        (lambda: Card.from_id(True), "invalid_argument"),
        (lambda: parse_cards(b"\x05\x33"), "invalid_argument"),
        (lambda: parse_cards(bytearray(b"\x05")), "invalid_argument"),
        (lambda: Meld.run(["5H", "JK", "7H", "8H"]).joker_stands_for(-1), "invalid_argument"),
        (lambda: Meld.run(["5H", "JK", "7H", "8H"]).joker_stands_for(2**64), "invalid_argument"),
        (lambda: liverpool.simulate(2**64 - 1), "batch_too_large"),
        (lambda: liverpool.simulate(2**32 + 1, threads=1), "batch_too_large"),
    ],
)
def test_every_bad_argument_is_a_typed_error(call: object, code: str) -> None:
    with pytest.raises(LiverpoolError) as e:
        call()  # type: ignore[operator]
    assert e.value.code == code
    assert e.value.key != "text", "binding messages have ids so they translate"


def test_binding_messages_translate() -> None:
    liverpool.set_language("pt")
    try:
        with pytest.raises(InvalidArgumentError) as e:
            parse_cards(None)
        assert e.value.key == "arg.not_cards"
        assert str(e.value) != e.value.english
    finally:
        liverpool.set_language("en")


def test_card_from_id_and_card_agree() -> None:
    for i in [-1, 53, 255, 2**63]:
        with pytest.raises(InvalidCardError) as a:
            Card.from_id(i)
        with pytest.raises(InvalidCardError) as b:
            Card(i)
        assert (a.value.code, a.value.key) == (b.value.code, b.value.key)
    assert Card.from_id(52) == Card(52) == Card("JK")


# ----- threads (docs/guarantees.md) ----------------------------------------------------


def _started_game() -> GameState:
    g = GameState(seed=3)
    g.apply(g.to_act, {"do": "cut"})
    return g


def test_a_game_state_is_shared_safely_between_threads() -> None:
    # A reader polling legal_actions used to make the writer's apply fail with
    # "Already borrowed". Now every call sees a consistent state.
    g = _started_game()
    stop = threading.Event()
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            while not stop.is_set():
                g.legal_actions()
                g.to_json()
        except BaseException as e:  # pragma: no cover - the failure being tested
            errors.append(e)

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    bot = NativeBot("random", seed=1)
    try:
        for _ in range(300):
            if g.is_game_over:
                break
            g.apply(g.to_act, bot.choose(g))
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert errors == []


def test_a_busy_native_bot_raises_concurrent_use_error() -> None:
    # One choose at a time per bot: a second thread gets a typed error at once, never
    # RuntimeError('Already borrowed'); the bot's other methods stay available.
    g = _started_game()
    bot = NativeBot("greedy", seed=5)
    seen: list[str] = []
    barrier = threading.Barrier(4)

    def worker() -> None:
        barrier.wait()
        for _ in range(200):
            try:
                bot.choose(g)
                seen.append("ok")
            except ConcurrentUseError as e:
                assert e.code == "busy" and isinstance(e, RuntimeError)
                seen.append("busy")
            assert bot.kind == "greedy" and bot.seed == 5

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert "ok" in seen
    assert set(seen) <= {"ok", "busy"}
