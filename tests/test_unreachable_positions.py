"""Positions that play cannot reach are refused on load, in every profile (issue 17,
"Profile-W positions"; docs/positions.md "Validation", docs/guarantees.md promise 4).

Each field of the position format is checked against each profile: a value no game of
that profile can produce raises ``PositionError`` (``bad_position``) with a sentence that
says why. The property tests take every state of real greedy games, written with the
engine's own ``to_position``: each loads and round-trips; mutated, each is either refused
or a game with a legal move for the seat to act that greedy bots play to the end.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from liverpool import Action, GameState, NativeBot, PositionError, RuleSet

from w_table_position import W_TABLE, w_table_position

def w_position(**change: Any) -> dict[str, Any]:
    """Profile W (liverpool-classic), round 2, seat 0 to draw; seats 0 and 2 are down."""
    return w_table_position(
        **{"round": 2, "dealer": 3, "phase": "draw", "totals": [10, 20, 30, 40], **change}
    )


def l_position(**change: Any) -> dict[str, Any]:
    """The same deal in profile L."""
    return w_position(**{"profile": "liverpool", **change})


def refusal(position: dict[str, Any]) -> str:
    with pytest.raises(PositionError) as info:
        GameState.from_position(position)
    assert info.value.code == "bad_position"
    assert info.value.key is not None
    return info.value.key


def test_the_base_positions_load() -> None:
    for position in (w_position(), l_position(), w_position(phase="play")):
        assert GameState.from_position(position).to_act == 0


# --- issue 17's reproducers, one per class ------------------------------------------------

UNREACHABLE: dict[str, tuple[dict[str, Any], str]] = {
    # L-5.6: emptying the hand ends the round; only a player who is down floats (W-8).
    "W: empty hand, not down": (w_position(hands=[["7♣"], [], ["9♣"], ["8♦"]]), "position.empty_hand_not_down"),
    "W: empty hand of the seat to draw, not down": (
        w_position(hands=[["7♣"], [], ["9♣"], ["8♦"]], active=1),
        "position.empty_hand_not_down",
    ),
    # L-5.5: the active player in play keeps a card for the discard.
    "L: empty hand in play": (l_position(phase="play", hands=[[], ["3♥"], ["9♣"], ["8♦"]]), "position.play_empty_hand"),
    # W-9: penalties are whole attempts of the rule set's size, never negative, and
    # none where the rule set charges none.
    "W: negative penalty": (w_position(penalties=[-50, 0, 0, 0]), "position.penalty_value"),
    "W: penalty not a multiple": (w_position(penalties=[0, 30, 0, 0]), "position.penalty_value"),
    "L: any penalty": (l_position(penalties=[0, 50, 0, 0]), "position.penalty_profile"),
    "contract: any penalty": (l_position(profile="contract", penalties=[0, 0, 0, 50]), "position.penalty_profile"),
    "W: penalty before the deal": (
        {**GameState(rules=RuleSet("liverpool-classic")).to_position(), "penalties": [50, 0, 0, 0]},
        "position.unset_field",
    ),
    # W-8: the taken card is remembered only where it may not be discarded.
    "L: taken_discard": (l_position(phase="play", taken_discard="K♠"), "position.taken_discard_profile"),
    "shanghai: taken_discard": (
        l_position(profile="shanghai", phase="play", taken_discard="K♠"),
        "position.taken_discard_profile",
    ),
    # A round's result exists only once it is over.
    "L: round scores in a live round": (l_position(round_scores=[0, 5, 0, 0]), "position.unset_field"),
    "L: a winner in a live round": (l_position(winner=1), "position.unset_field"),
    "cut: buys before the deal": (
        {**GameState().to_position(), "buys": [1, 0, 0, 0]},
        "position.unset_field",
    ),
    # L-2.3: only the cutter earns the cut bonus, and only where there is one.
    "L: cut bonus of a seat that did not cut": (l_position(cut_bonus=0), "position.cut_bonus_seat"),
    "shanghai: a cut bonus": (l_position(profile="shanghai", cut_bonus=2), "position.cut_bonus_off"),
    # L-6: no buys without buying; never more than the C-5 limit.
    "no-buy: a buy": (l_position(profile="no-buy", buys=[0, 1, 0, 0]), "position.buys_range"),
    "shanghai: four buys": (l_position(profile="shanghai", buys=[0, 4, 0, 0]), "position.buys_range"),
}


@pytest.mark.parametrize("case", UNREACHABLE, ids=list(UNREACHABLE))
def test_unreachable_positions_are_refused(case: str) -> None:
    position, key = UNREACHABLE[case]
    assert refusal(position) == key


def test_reachable_neighbours_still_load() -> None:
    """The values next to the refused ones are what play produces, and load."""
    GameState.from_position(w_position(penalties=[0, 100, 0, 0]))
    GameState.from_position(w_position(phase="play", taken_discard="K♠"))
    GameState.from_position(l_position(cut_bonus=2))  # seat 2 cuts when seat 3 deals
    GameState.from_position(l_position(profile="shanghai", buys=[0, 3, 0, 0]))
    # W-8: a floating player (down, no cards) in a live round.
    GameState.from_position(w_position(hands=[[], ["3♥", "4♥"], ["9♣"], ["8♦"]], active=1))


def test_the_seat_that_went_out_holds_no_cards() -> None:
    """L-5.6: a finished round's winner has an empty hand; naming a seat that holds
    cards is refused, the real winner loads."""
    game = GameState(seed=4)
    bots = [NativeBot("greedy", seed=s) for s in range(4)]
    while game.phase != "round_over":
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bots[seat].choose(game, seat))
    position = game.to_position()
    assert GameState.from_position(position) == GameState.from_position(game.to_position())
    holder = next(s for s in range(4) if game.hand_sizes[s] > 0)
    assert refusal({**position, "winner": holder}) == "position.winner_holds_cards"


def test_the_issue_17_dead_state_cannot_be_loaded() -> None:
    """Issue 17: a seat that is not down with an empty hand loaded, and after it took a
    discard that fits a table meld nobody had a legal move. Now the position is refused,
    and no position that loads leads to such a state in one step."""
    dead = w_position(hands=[["7♣", "K♠"], ["3♥"], ["6♣"], []], active=3, discard=["9♣"], dealer=2)
    assert refusal(dead) == "position.empty_hand_not_down"


def test_the_messages_say_why_in_every_language() -> None:
    from liverpool.i18n import language

    position, _ = UNREACHABLE["W: penalty not a multiple"]
    with pytest.raises(PositionError) as info:
        GameState.from_position(position)
    assert "W-9" in str(info.value) and "30" in str(info.value) and "50" in str(info.value)
    with language("pt"):
        assert "penalidade" in str(info.value)
    with language("es"):
        assert "penalización" in str(info.value)


# --- property tests over real games -----------------------------------------------------


def positions_of_a_greedy_game(preset: str, seed: int, limit: int = 400) -> list[dict[str, Any]]:
    game = GameState(seed=seed, rules=RuleSet(preset))
    bots = [NativeBot("greedy", seed=seed + s) for s in range(game.players)]
    positions = [game.to_position()]
    while (seat := game.to_act) is not None and len(positions) < limit:
        game.apply(seat, bots[seat].choose(game, seat))
        positions.append(game.to_position())
    return positions


PRESETS = ["liverpool", "liverpool-classic", "shanghai", "contract", "no-buy"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_state_of_a_greedy_game_loads_and_round_trips(preset: str) -> None:
    for position in positions_of_a_greedy_game(preset, seed=1):
        state = GameState.from_position(position)
        assert state.to_position() == position


def _mutations(position: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One hostile change of one field: the values a hand-written position could hold."""
    pos = copy.deepcopy(position)
    players = len(pos["hands"])
    seat = rng.randrange(players)
    field = rng.choice(
        [
            "empty_hand",
            "penalties",
            "taken_discard",
            "totals",
            "round_scores",
            "winner",
            "cut_bonus",
            "buys",
            "phase",
            "down",
            "turn",
            "move_card",
            "declined",
            "active",
        ]
    )
    if field == "empty_hand":
        pos["hands"][seat] = []
    elif field == "penalties":
        pos["penalties"] = [rng.choice([0, -50, 25, 50, 100, 7]) for _ in range(players)]
    elif field == "taken_discard":
        cards = [c for hand in pos["hands"] for c in hand] or ["7♦"]
        pos["taken_discard"] = rng.choice(cards)
    elif field in ("totals", "round_scores"):
        pos[field] = [rng.choice([0, -50, 5, 120]) for _ in range(players)]
    elif field in ("winner", "cut_bonus"):
        pos[field] = seat
    elif field == "buys":
        pos["buys"] = [rng.choice([0, 1, 3, 4, 200]) for _ in range(players)]
    elif field == "phase":
        pos["phase"] = rng.choice(["cut", "draw", "play", "round_over"])
        for extension in ("buying", "calling", "caller", "declined"):
            pos.pop(extension, None)
    elif field == "down":
        pos["down"] = [rng.random() < 0.5 for _ in range(players)]
    elif field == "turn":
        pos["turn"] = rng.choice([0, 1, 500, 20_000])
    elif field == "move_card":
        source = [h for h in pos["hands"] if h]
        if source:
            card = rng.choice(source).pop()
            rng.choice(pos["hands"]).append(card)
    elif field == "declined":
        pos["declined"] = True
    elif field == "active":
        pos["active"] = seat
    return pos


def _play_out(state: GameState, seed: int) -> None:
    bots = [NativeBot("greedy", seed=seed + s) for s in range(state.players)]
    steps = 0
    while (seat := state.to_act) is not None:
        assert state.legal_actions(seat), "a loaded game reached a state with no legal move"
        state.apply(seat, bots[seat].choose(state, seat))
        steps += 1
        assert steps < 20_000
    assert state.is_game_over


REAL_POSITIONS = {preset: positions_of_a_greedy_game(preset, seed=7, limit=250) for preset in PRESETS}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PRESETS), st.integers(0, 10**6), st.integers(1, 3))
# Found by this test: round scores in W-7's call window (phase call_discard) loaded, and
# then the state differed from its own reloaded position (docs/positions.md).
@example(preset="liverpool-classic", seed=2003, changes=1)
def test_a_mutated_position_is_refused_or_playable_to_the_end(preset: str, seed: int, changes: int) -> None:
    rng = random.Random(seed)
    position = rng.choice(REAL_POSITIONS[preset])
    for _ in range(changes):
        position = _mutations(position, rng)
    try:
        state = GameState.from_position(position)
    except PositionError as exc:
        assert exc.code == "bad_position" and str(exc)
        return
    if state.to_act is not None:
        assert state.legal_actions(state.to_act)
    # What loaded writes back to itself, and greedy bots finish the game from it.
    assert GameState.from_position(state.to_position()) == state
    _play_out(state, seed)


def test_the_engine_writes_no_taken_discard_where_it_means_nothing() -> None:
    """Profile L lets a player discard the card it took, so the state does not record
    it and the position has no ``taken_discard`` (and round-trips)."""
    game = GameState.from_position(l_position())
    game.apply(0, Action.take_discard())
    assert "taken_discard" not in game.to_position()
    w = GameState.from_position(w_position())
    w.apply(0, Action.take_discard())
    assert w.to_position()["taken_discard"] == "4♣"
