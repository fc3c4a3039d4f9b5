"""Positions (CONFORMANCE.md "Position", docs/positions.md) through the Python API:
loading from text or dicts, saving, round trips, defaults and validation errors."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from liverpool import (
    Action,
    Card,
    GameState,
    InvalidArgumentError,
    PositionError,
    RuleSet,
)
from test_game_api import bot_step


def small_position(**changes: Any) -> dict[str, Any]:
    """Round 1, seat 0 to draw; seat 1 is down with a set of queens."""
    pos: dict[str, Any] = {
        "profile": "liverpool",
        "players": 4,
        "round": 1,
        "dealer": 3,
        "active": 0,
        "phase": "draw",
        "hands": [["7♠", "7♥", "9♠"], ["2♦", "K♠"], ["5♠"], ["A♣", "JK"]],
        "stock": ["5♦", "6♦"],
        "discard": ["2♣", "7♦"],
        "table": [{"owner": 1, "cards": ["Q♠", "Q♥", "Q♦"]}],
        "down": [False, True, False, False],
        "totals": [0, 0, 0, 0],
    }
    pos.update(changes)
    return pos


# --- loading ------------------------------------------------------------------------


def test_a_position_loads_with_its_fields() -> None:
    g = GameState.from_position(small_position())
    assert (g.round, g.dealer, g.active, g.phase, g.to_act) == (1, 3, 0, "draw", 0)
    assert [str(c) for c in g.hand(0)] == ["7♠", "9♠", "7♥"]  # id order: suits ♠ ♥ ♦ ♣
    assert [str(c) for c in g.stock] == ["5♦", "6♦"] and g.stock_size == 2  # top first
    assert [str(c) for c in g.discard] == ["2♣", "7♦"] and g.discard_top == Card("7♦")
    assert g.table[0].owner == 1 and g.table[0].meld.kind == "set"
    assert g.down == [False, True, False, False]
    assert g.history == []


def test_text_and_dict_give_the_same_state() -> None:
    pos = small_position()
    assert GameState.from_position(json.dumps(pos, ensure_ascii=False)) == GameState.from_position(pos)
    # ASCII card notation and Card objects read the same.
    ascii_pos = small_position(hands=[["7S", "7h", "9s"], ["2D", Card("K♠")], ["5S"], ["AC", "JK"]])
    assert GameState.from_position(ascii_pos) == GameState.from_position(pos)


def test_missing_fields_take_their_starting_values() -> None:
    g = GameState.from_position({"hands": [["7♠"], ["8♠"], ["9♠"]]})
    assert g.players == 3 and g.round == 1 and g.phase == "draw"
    assert g.dealer == 2 and g.active == 0  # dealer: the last seat; active: its left
    assert g.totals == [0, 0, 0] and g.down == [False] * 3 and g.table == []
    assert g.rules == RuleSet("liverpool")


def test_explicit_rules_replace_the_profile() -> None:
    # Profile L has 3 jokers (L-1.2); profile C has 4 (C-1).
    four_jokers = small_position(hands=[["JK", "JK"], ["JK"], ["JK"], []])
    with pytest.raises(PositionError):
        GameState.from_position(four_jokers)
    g = GameState.from_position(four_jokers, rules=RuleSet("contract"))
    assert g.rules.name == "contract" and g.hand_sizes == [2, 1, 1, 0]


# --- saving and round trips ----------------------------------------------------------


def states_along_a_game(seed: int, players: int = 4, profile: str = "liverpool") -> list[GameState]:
    """Snapshots of one game at every phase it passes through, up to its end."""
    g = GameState(seed, players, RuleSet(profile))
    rng = random.Random(seed)
    out = [g.clone()]
    while not g.is_game_over:
        bot_step(g, rng)
        out.append(g.clone())
    return out


def test_to_position_round_trips_in_every_phase() -> None:
    seen = set()
    for i, g in enumerate(states_along_a_game(21)):
        if i % 7 and g.phase in seen:
            continue  # every state of a rare phase, every 7th otherwise
        seen.add(g.phase)
        pos = g.to_position()
        back = GameState.from_position(pos)
        assert back == g, f"state {i} ({g.phase})"
        assert back.to_position() == pos
    assert seen == {"cut", "draw", "buying", "play", "round_over", "game_over"}


def test_to_json_round_trips_in_every_phase() -> None:
    states = states_along_a_game(22, players=5, profile="contract")
    assert GameState.from_json(states[-1].to_json()).history == states[-1].history  # once, as lists
    for g in states[::11]:
        saved = g.to_json()
        back = GameState.from_json(saved)
        # The JSON carries the history: equal texts are equal histories, compared in one
        # string comparison instead of two Python lists of thousands of actions.
        assert back == g and back.to_json() == saved


def test_save_and_load_a_file(tmp_path: Path) -> None:
    g = states_along_a_game(23)[200]
    path = tmp_path / "position.json"
    path.write_text(json.dumps(g.to_position(), ensure_ascii=False, indent=2), encoding="utf-8")
    assert GameState.from_position(path.read_text(encoding="utf-8")) == g


def test_a_round_that_ends_on_a_take_discard_turn_round_trips() -> None:
    # Seat 0 is down with no card left in hand: it takes the 7♦ and discards it to go
    # out (L-5.7 allows discarding the card just taken; L-5.6 ends the round).
    sevens = {"owner": 0, "cards": ["7♠", "7♥", "7♣"]}
    g = GameState.from_position(
        small_position(
            hands=[[], ["2♦"], ["5♠"], ["A♣"]],
            table=[small_position()["table"][0], sevens],
            down=[True, True, False, False],
        )
    )
    g.apply(0, Action.take_discard())
    g.apply(0, Action.discard("7♦"))
    assert g.is_round_over and g.went_out == 0
    assert GameState.from_position(g.to_position()) == g
    assert GameState.from_json(g.to_json()) == g


def test_a_round_7_go_down_round_trips() -> None:
    # L-8.1: the whole hand as three runs ends the round at once, with no discard.
    runs = [["3♠", "4♠", "5♠", "6♠"], ["8♥", "9♥", "10♥", "J♥"], ["JK", "Q♦", "K♦", "A♦"]]
    g = GameState.from_position(
        small_position(
            round=7,
            phase="play",
            hands=[[c for run in runs for c in run], ["2♦"], ["5♥"], ["A♣"]],
            table=[],
            down=[False] * 4,
        )
    )
    g.apply(0, Action.go_down(runs))
    assert g.is_game_over and g.round_scores is not None and g.round_scores[0] == 0
    assert GameState.from_position(g.to_position()) == g
    assert GameState.from_json(g.to_json()) == g


# --- validation ----------------------------------------------------------------------


BAD_POSITIONS: dict[str, dict[str, Any]] = {
    # L-1.2: two decks hold two copies of each natural card and 3 jokers.
    "three-copies-of-a-card": small_position(hands=[["7♠", "7♠"], ["2♦"], ["7♠"], []]),
    "copies-across-hand-stock-and-table": small_position(stock=["Q♠", "Q♠"]),
    "four-jokers-in-profile-L": small_position(hands=[["JK", "JK"], ["JK"], ["JK"], []]),
    "unknown-phase": small_position(phase="lunch"),
    "round-0": small_position(round=0),
    "round-8": small_position(round=8),
    "table-meld-not-a-set-or-run": small_position(table=[{"owner": 1, "cards": ["7♠", "8♥", "9♦"]}]),
    "table-run-with-a-wrap": small_position(table=[{"owner": 1, "cards": ["K♠", "A♠", "2♠", "3♠"]}]),
    "table-meld-of-a-seat-not-down": small_position(down=[False, False, False, False]),
    "down-without-a-meld": small_position(down=[True, True, False, False]),
    "owner-out-of-range": small_position(table=[{"owner": 7, "cards": ["Q♠", "Q♥", "Q♦"]}]),
    "too-few-hands": small_position(hands=[["7♠"], ["2♦"]]),
    "dealer-out-of-range": small_position(dealer=4),
    "active-out-of-range": small_position(active=-1),
    "totals-too-short": small_position(totals=[0, 0]),
    "malformed-card": small_position(hands=[["11♠"], [], [], []]),
    "card-not-a-string": small_position(hands=[[7], [], [], []]),
    "unknown-profile": small_position(profile="poker"),
    "cut-phase-with-hands": small_position(phase="cut"),
    "one-player": {"hands": [["7♠"]]},
    "taken-discard-outside-play": small_position(taken_discard="7♦"),
}


@pytest.mark.parametrize("pos", BAD_POSITIONS.values(), ids=BAD_POSITIONS.keys())
def test_inconsistent_positions_are_refused(pos: dict[str, Any]) -> None:
    with pytest.raises(PositionError) as info:
        GameState.from_position(pos)
    assert info.value.code == "bad_position"
    assert str(info.value)


def test_the_copies_message_names_the_card() -> None:
    with pytest.raises(PositionError, match="7♠"):
        GameState.from_position(BAD_POSITIONS["three-copies-of-a-card"])


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", '"position"', "null", '{"hands": "7♠"}'])
def test_malformed_json_is_a_position_error(text: str) -> None:
    with pytest.raises(PositionError):
        GameState.from_position(text)


def test_non_json_data_is_a_position_error() -> None:
    with pytest.raises(PositionError):
        GameState.from_position(small_position(hands={"seat 0": {"7♠"}}))
    with pytest.raises(PositionError):
        GameState.from_position(42)  # type: ignore[arg-type]


def test_a_valid_position_is_not_changed_by_a_refused_load() -> None:
    pos = small_position()
    kept = copy.deepcopy(pos)
    GameState.from_position(pos)
    with pytest.raises(PositionError):
        GameState.from_position(dict(pos, phase="lunch"))
    assert pos == kept


def test_history_out_of_range_in_a_saved_game() -> None:
    saved = json.loads(GameState(1).to_json())
    saved["history"] = [{"seat": 9, "do": "cut", "size": 41}]
    with pytest.raises(PositionError):
        GameState.from_json(json.dumps(saved))
    saved["history"] = [{"seat": 0, "do": "fold"}]
    with pytest.raises(PositionError):
        GameState.from_json(json.dumps(saved))
    saved["history"] = []
    saved["format"] = 99
    with pytest.raises(PositionError, match="format"):
        GameState.from_json(json.dumps(saved))


def test_bad_seat_on_a_loaded_position() -> None:
    g = GameState.from_position(small_position())
    with pytest.raises(InvalidArgumentError):
        g.hand(4)
