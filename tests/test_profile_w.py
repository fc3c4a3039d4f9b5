"""Profile W and the fair buying window through the Python API: the properties a front
end reads (``declined``, ``draw_pending``, ``call_offer``, ``penalties``), the W-6 "Yo"
option from a rule set file, the W-9 penalty on a refused go-down, and
``GameState.apply_step`` (the scenario short forms). Every expected fact is a rule of
RULES.md worked out by hand from the positions below."""

from __future__ import annotations

from typing import Any

import pytest
from liverpool import Action, Card, GameState, IllegalMoveError, InvalidRulesError, RuleSet

from w_table_position import W_TABLE, w_table_position

def w_position(**change: Any) -> dict[str, Any]:
    """Round 1, seat 0 in its play phase."""
    return w_table_position(**{"round": 1, "phase": "play", **change})


def test_the_draw_waits_for_the_window_and_says_so() -> None:
    # L-5.1: a draw from the stock while a discard is on offer declines it; the stock
    # card comes when the last seat asked has answered.
    g = GameState.from_position(
        {"round": 1, "active": 0, "phase": "draw", "hands": [["5♠"], ["6♠"], ["7♠"], ["8♠"]],
         "stock": ["J♣", "Q♣"], "discard": ["7♥", "8♥"]}
    )
    assert [a.name for a in g.legal_actions()] == ["take_discard", "draw_stock"]
    event = g.apply(0, Action.draw_stock()).to_dict()
    assert event["event"] == "declined_discard" and event["draw_after"] is True
    assert (g.phase, g.to_act, g.declined, g.draw_pending) == ("buying", 1, True, True)
    with pytest.raises(IllegalMoveError) as info:
        g.apply(2, Action.pass_())
    assert (info.value.code, info.value.rule) == ("not_your_turn", "L-6.3")
    g.apply(1, Action.pass_())
    g.apply(2, Action.pass_())
    last = g.apply(3, Action.pass_()).to_dict()
    assert last["then"] == {"seat": 0, "event": "drew_stock", "card": "J♣"}
    assert (g.phase, g.hand(0)) == ("play", [Card("5♠"), Card("J♣")])


def test_apply_step_expands_the_short_forms_atomically() -> None:
    g = GameState.from_position(
        {"round": 2, "active": 0, "phase": "draw", "hands": [["2♠"], ["2♥"], ["2♣"], ["4♦"]],
         "stock": ["2♦", "3♦", "5♦"], "discard": ["9♥", "K♣"]}
    )
    g.apply(0, Action.decline_discard())
    # A buy by seat 3 stands for the passes of seats 1 and 2 (a scenario's short form).
    events = g.apply_step(3, Action.buy())
    assert [e.kind for e in events] == ["passed", "passed", "bought"]
    assert [e.seat for e in events] == [1, 2, 3]
    # The engine itself never decides for a seat: the plain apply refuses the same.
    h = GameState.from_position(
        {"round": 2, "active": 0, "phase": "draw", "hands": [["2♠"], ["2♥"], ["2♣"], ["4♦"]],
         "stock": ["2♦", "3♦", "5♦"], "discard": ["9♥", "K♣"]}
    )
    h.apply(0, Action.decline_discard())
    with pytest.raises(IllegalMoveError):
        h.apply(3, Action.buy())
    # Atomic: a Liverpool call onto a meld the card does not fit keeps none of its passes.
    w = GameState.from_position(w_position())
    w.apply(0, Action.discard("K♠"))
    before = w.clone()
    with pytest.raises(IllegalMoveError) as info:
        w.apply_step(2, Action.call_liverpool(0))
    assert info.value.code == "invalid_lay_off" and w == before


def test_calls_are_offered_like_the_buying_window() -> None:
    g = GameState.from_position(w_position())
    event = g.apply(0, Action.discard("7♣")).to_dict()
    assert event["calls"] == "rummy"  # W-7.1: the discarder is down, 7♣ fits its 7s
    assert (g.phase, g.call_offer, g.to_act, g.active) == ("calling", ("rummy", 0), 1, 1)
    assert [a.name for a in g.legal_actions()] == ["pass", "call_rummy"]
    assert g.legal_actions(2) == []  # only the seat asked decides
    g.apply(1, Action.pass_())
    called = g.apply(2, Action.call_rummy()).to_dict()
    assert (called["discarder"], called["card"], called["penalty"]) == (0, "7♣", "10♦")
    assert g.call_offer is None and g.phase == "draw" and g.active == 1
    with pytest.raises(IllegalMoveError) as info:
        g.apply(3, Action.call_rummy())
    assert (info.value.code, info.value.rule) == ("call_not_allowed", "W-7")


def test_a_refused_go_down_costs_50_in_w_and_nothing_in_l() -> None:
    hands = [["7♠", "7♥", "8♦", "9♠", "9♥", "9♦", "K♣"], ["3♥"], ["4♥"], ["5♥"]]
    bad = Action.go_down([["7♠", "7♥", "8♦"], ["9♠", "9♥", "9♦"]])
    for profile, charged in (("liverpool-classic", 50), ("liverpool", 0)):
        g = GameState.from_position(
            {"profile": profile, "round": 1, "active": 0, "phase": "play", "hands": hands,
             "stock": ["2♦"], "discard": ["4♣"]}
        )
        assert not g.can(0, bad) and g.penalties == [0, 0, 0, 0]  # W-9: never charged by can/check
        with pytest.raises(IllegalMoveError) as info:
            g.apply(0, bad)
        assert info.value.code == "invalid_meld"
        assert g.penalties == [charged, 0, 0, 0]
        assert ("W-9" in str(info.value)) == (charged > 0)
        # The attempt is in the history, so a replay of a whole game charges it again.
        assert len(g.history) == (1 if charged else 0)
        assert GameState.from_json(g.to_json()) == g


def test_yo_from_a_rule_set_file_lets_the_first_caller_buy() -> None:
    yo = RuleSet.from_toml('base = "liverpool-classic"\nname = "yo"\nbuy_priority = "first_caller"\ncall_order = [3]\n')
    g = GameState.from_position(
        {"profile": "liverpool-classic", "round": 1, "active": 0, "phase": "draw",
         "hands": [["2♠"], ["3♠"], ["4♠"], ["5♠"]], "stock": ["6♦", "7♦"], "discard": ["9♥", "K♣"]},
        yo,
    )
    g.apply(0, Action.draw_stock())
    assert g.to_act == 3  # the rule set's calling order asks seat 3 first
    bought = g.apply(2, Action.buy()).to_dict()  # seat 2 called first: it wins (W-6 "Yo")
    assert (bought["card"], bought["penalty"]) == ("K♣", "6♦")
    assert bought["then"] == {"seat": 0, "event": "drew_stock", "card": "7♦"}  # one buy per discard
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.from_toml('base = "liverpool-classic"\ncall_order = [1, 1]\n')
    assert "call_order[1]" in str(info.value) and info.value.rule == "W-6"


def test_a_floating_player_has_no_cards_and_the_turn_moves_on() -> None:
    g = GameState.from_position(w_position(hands=[["7♣", "9♣"], ["3♥", "4♥"], ["2♣", "6♠"], ["8♦", "8♠"]]))
    g.apply(0, Action.lay_off(0, ["7♣"]))
    event = g.apply(0, Action.lay_off(1, ["9♣"])).to_dict()
    assert event["floating"] is True  # W-8
    assert (g.hand_sizes[0], g.active, g.phase, g.is_round_over) == (0, 1, "draw", False)
