"""The Python face of the game: whole games through the API, views, copies, errors.

Rule facts asserted here are the hand-checked ones of RULES.md (L-10 scoring, the
L-11 example); everything else is checked against the engine's own invariants
(scores recomputed from the final hands, winners = lowest totals, ...).
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest
from liverpool import (
    Action,
    Card,
    Event,
    GameState,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidCardError,
    LiverpoolError,
    PositionError,
    RuleSet,
    TableMeld,
)


def keep_value(hand: list[Card], card: Card) -> int:
    """How much a card seems to belong in `hand` (same rank, close cards of its suit)."""
    if card.is_joker:
        return 100
    same_rank = sum(1 for c in hand if c.rank == card.rank)
    near = sum(1 for c in hand if c.suit == card.suit and 0 < abs(c.rank - card.rank) <= 2)
    return 2 * same_rank + near


def greedy_action(g: GameState, rng: random.Random) -> Action:
    """A simple seeded bot: lays what it can, keeps pairs, throws the loneliest card.

    Only a way to drive games to their end in tests: every choice is one of
    `legal_actions()`, so the engine decides every rule.
    """
    legal = g.legal_actions()
    by_name: dict[str, list[Action]] = {}
    for a in legal:
        by_name.setdefault(a.name, []).append(a)
    for name in ("go_down", "lay_off", "swap_joker"):
        if name in by_name:
            return rng.choice(by_name[name])
    for name in ("call_rummy", "call_liverpool"):  # W-7
        if name in by_name and rng.random() < 0.7:
            return rng.choice(by_name[name])
    seat = g.to_act
    assert seat is not None
    hand = g.hand(seat)
    top = g.discard_top
    wanted = top is not None and keep_value(hand, top) >= 2
    if "take_discard" in by_name and wanted and rng.random() < 0.8:
        return by_name["take_discard"][0]
    if "buy" in by_name and top is not None and keep_value(hand, top) >= 3 and rng.random() < 0.5:
        return by_name["buy"][0]
    if "discard" in by_name:
        return min(by_name["discard"], key=discard_key(hand, rng))
    for name in ("pass", "draw_stock", "decline_discard", "next_round", "cut"):
        if name in by_name:
            return rng.choice(by_name[name])
    return rng.choice(legal)


def bot_step(g: GameState, rng: random.Random) -> Event:
    """Apply `greedy_action` for the seat the engine waits for."""
    seat = g.to_act
    assert seat is not None, "the game is over"
    return g.apply(seat, greedy_action(g, rng))


def discard_key(hand: list[Card], rng: random.Random) -> Callable[[Action], tuple[int, int, float]]:
    """Throw the loneliest card first, the most expensive among equals (L-10.1)."""

    def key(a: Action) -> tuple[int, int, float]:
        assert a.card is not None
        return (keep_value(hand, a.card), -a.card.points(), rng.random())

    return key


def hand_points(hand: list[Card], rules: RuleSet) -> int:
    return sum(c.points(rules) for c in hand)


# --- whole games ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "players", "seed"),
    [("liverpool", 4, 1), ("liverpool", 4, 2), ("liverpool", 2, 3), ("contract", 5, 4), ("liverpool-classic", 3, 5)],
)
def test_a_full_game_to_the_end(profile: str, players: int, seed: int) -> None:
    rules = RuleSet(profile)
    g = GameState(seed, players, rules)
    rng = random.Random(seed)
    rounds_scored = 0
    running_totals = [0] * players
    while not g.is_game_over:
        seat = g.to_act
        assert seat is not None, "L-10.3: only a finished game waits for nobody"
        event = g.apply(seat, greedy_action(g, rng))
        if event.round_end is None:
            continue
        rounds_scored += 1
        end = event.round_end
        assert g.is_round_over and end["round"] == g.round == rounds_scored
        # L-10.1 / L-10.2: every seat scores its hand, the cutter adds the cut bonus.
        expected = [
            hand_points(g.hand(s), rules) + (rules.cut_bonus if g.cut_bonus == s else 0) for s in range(players)
        ]
        assert g.round_scores == expected == end["scores"]
        if end["winner"] is not None:
            assert g.hand_sizes[end["winner"]] == 0, "L-5.6: the winner has no card left"
        running_totals = [t + s for t, s in zip(running_totals, expected)]
        assert g.totals == running_totals == end["totals"]
    assert rounds_scored == rules.rounds == g.round
    assert g.phase == "game_over" and g.to_act is None and g.legal_actions() == []
    lowest = min(g.totals)
    assert g.winners == [s for s in range(players) if g.totals[s] == lowest], "L-10.3: lowest total wins"
    # The game is over for every seat and every action.
    for seat in range(players):
        with pytest.raises(IllegalMoveError) as info:
            g.apply(seat, Action.draw_stock())
        assert info.value.code in {"round_over", "game_over"}
    # The whole game replays from its seed and history.
    assert GameState.replay(seed, g.history, players, rules) == g


def test_same_seed_same_game() -> None:
    def play(seed: int) -> GameState:
        g = GameState(seed)
        rng = random.Random(0)
        for _ in range(300):
            bot_step(g, rng)
        return g

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_cut_without_a_size_is_drawn_from_the_seed() -> None:
    a, b = GameState(5), GameState(5)
    a.apply(a.cutter, Action.cut())
    b.apply(b.cutter, Action.cut())
    assert a == b
    assert a.history == [(a.cutter, Action.cut())], "the history records the action as given"


# --- scoring facts (RULES.md L-10, L-11) -------------------------------------------


def test_scores_of_the_worked_example_and_the_cut_bonus() -> None:
    # Seat 0 goes out; seat 1 holds A♠ K♦ 4♥ = 15 + 10 + 4 = 29 (L-11); seat 2 holds
    # JK 7♣ = 15 + 7 = 22 (L-10.1) and earned the cut bonus as the cutter, the dealer's
    # right neighbour (L-2.2, L-2.3): 22 - 50 = -28 (L-10.2).
    g = GameState.from_position(
        {
            "round": 1,
            "phase": "play",
            "dealer": 3,
            "active": 0,
            "hands": [["8♦"], ["A♠", "K♦", "4♥"], ["JK", "7♣"], ["2♠", "10♥", "Q♣"]],
            "stock": ["5♦"],
            "discard": ["2♣"],
            "table": [{"owner": 0, "cards": ["7♠", "7♥", "7♦"]}, {"owner": 0, "cards": ["9♠", "9♥", "9♦"]}],
            "down": [True, False, False, False],
            "totals": [10, 20, 30, 40],
            "cut_bonus": 2,
        }
    )
    event = g.apply(0, Action.discard("8♦"))
    assert event.kind == "discarded" and event.to_dict()["went_out"] is True
    assert g.round_scores == [0, 29, -28, 22]
    assert g.totals == [10, 49, 2, 62]
    # L-2.1: the deal passes clockwise, so seat 0 deals (and starts) the next round.
    assert g.went_out == 0 and g.phase == "round_over" and g.to_act == 0


# --- views ----------------------------------------------------------------------


def _position_for_views() -> dict[str, object]:
    return {
        "round": 2,
        "phase": "draw",
        "dealer": 3,
        "active": 0,
        "hands": [["7♠", "7♥", "2♦"], ["K♣", "Q♣", "3♥"], ["5♠"], ["9♦", "JK"]],
        "stock": ["4♦", "8♣", "A♥"],
        "discard": ["6♠", "10♦"],
    }


def test_view_shows_own_hand_and_only_sizes_of_others() -> None:
    g = GameState.from_position(_position_for_views())
    v = g.view(1)
    assert v["seat"] == 1
    assert Counter(v["hand"]) == Counter(["K♣", "Q♣", "3♥"])
    assert v["hand_sizes"] == [3, 3, 1, 2]
    assert v["stock_size"] == 3
    assert v["discard"] == ["6♠", "10♦"]
    text = repr(v)
    for hidden in ("7♠", "5♠", "9♦", "JK", "4♦", "8♣", "A♥"):
        assert hidden not in text, f"{hidden} belongs to another hand or the stock"


def test_information_state_ignores_what_the_seat_cannot_see() -> None:
    base = _position_for_views()
    swapped = copy.deepcopy(base)
    # Exchange a card of seat 1's hand with the top of the stock: seat 0 cannot tell.
    swapped["hands"][1][0], swapped["stock"][0] = base["stock"][0], base["hands"][1][0]  # type: ignore[index]
    a, b = GameState.from_position(base), GameState.from_position(swapped)
    assert a != b
    for seat in (0, 2, 3):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
    assert a.information_state_string(1) != b.information_state_string(1)
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))


def test_observation_tensor_layout() -> None:
    g = GameState.from_position(_position_for_views())
    layout = g.observation_layout()
    t = g.observation_tensor(1)
    assert t.dtype == np.float32 and t.ndim == 1
    stops = [s.stop for s in layout.values()]
    assert t.shape == (stops[-1],)
    starts = [s.start for s in layout.values()]
    assert starts[0] == 0 and starts[1:] == stops[:-1], "the blocks tile the tensor"
    hand = t[layout["hand"]]
    assert hand.shape == (53,)
    for card in ("K♣", "Q♣", "3♥"):
        assert hand[Card(card).id] == 1
    assert hand.sum() == 3
    # Seat blocks are relative to the observer (seat 1): its own size first.
    assert list(t[layout["hand_sizes"]]) == [3, 1, 2, 3]
    assert t[layout["discard_top"]][Card("10♦").id] == 1
    assert t[layout["stock_size"]][0] == 3
    assert list(t[layout["round"]]) == [0, 1, 0, 0, 0, 0, 0]
    assert t[layout["phase"]].sum() == 1


# --- copies and serialization -----------------------------------------------------


def _game_in_progress(actions: int = 120, seed: int = 9) -> GameState:
    g = GameState(seed)
    rng = random.Random(seed)
    for _ in range(actions):
        bot_step(g, rng)
    return g


def test_clone_is_independent() -> None:
    g = _game_in_progress()
    for twin in (g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert twin == g and twin.history == g.history
        bot_step(twin, random.Random(0))
        assert twin != g
        assert len(twin.history) == len(g.history) + 1


def test_json_round_trip_is_exact() -> None:
    g = _game_in_progress()
    back = GameState.from_json(g.to_json())
    assert back == g and back.history == g.history
    # Equal states go on identically, shuffles included (the RNG state is in the JSON).
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(200):
        if g.is_game_over:
            break
        ea = bot_step(g, rng_a)
        eb = bot_step(back, rng_b)
        assert ea == eb
    assert g == back


def test_replay_accepts_actions_and_step_dicts() -> None:
    g = _game_in_progress(60)
    as_dicts = [(seat, a.to_dict()) for seat, a in g.history]
    assert GameState.replay(9, as_dicts) == g


def test_replay_names_the_refused_action() -> None:
    with pytest.raises(IllegalMoveError) as info:
        GameState.replay(0, [(0, Action.discard("7♠"))])
    assert info.value.code in {"not_your_turn", "wrong_phase"}
    assert "action 0" in str(info.value)


# --- actions ----------------------------------------------------------------------


ALL_KINDS = [
    Action.cut(),
    Action.cut(41),
    Action.take_discard(),
    Action.decline_discard(),
    Action.buy(),
    Action.pass_(),
    Action.draw_stock(),
    Action.go_down([["7♠", "7♥", "7♦"], ["JK", "5♥", "6♥", "7♥"]]),
    Action.lay_off(0, ["4♣", "5♣"]),
    Action.lay_off(2, ["JK"], end="low"),
    Action.swap_joker(1, "4♥", 0, end="high"),
    Action.discard("10♦"),
    Action.next_round(),
    Action.call_liverpool(0),
    Action.call_liverpool(2, end="low"),
    Action.call_rummy(),
]


@pytest.mark.parametrize("action", ALL_KINDS, ids=repr)
def test_action_round_trips(action: Action) -> None:
    assert Action.from_dict(action.to_dict()) == action
    assert eval(repr(action), {"Action": Action}) == action
    assert pickle.loads(pickle.dumps(action)) == action
    assert action.to_dict()["do"] == action.name
    assert hash(Action.from_dict(action.to_dict())) == hash(action)


def test_action_fields_and_repr() -> None:
    a = Action.discard(Card("8♦"))
    assert repr(a) == "Action.discard('8♦')"
    assert a.name == "discard" and a.card == Card("8♦") and a.meld is None
    assert Action.pass_().name == "pass"
    lay = Action.lay_off(3, "JK", end="high")
    assert (lay.meld, lay.cards, lay.end) == (3, [Card("JK")], "high")
    swap = Action.swap_joker(1, "5♥", 2)
    assert (swap.meld, swap.card, swap.to_meld, swap.end) == (1, Card("5♥"), 2, None)
    assert Action.go_down([["7♠", "7♥", "7♦"]]).melds == [[Card("7♠"), Card("7♥"), Card("7♦")]]
    assert Action.cut(41).size == 41 and Action.cut().size is None
    assert len({Action.buy(), Action.buy(), Action.pass_()}) == 2


def test_action_from_dict_ignores_step_keys_and_accepts_cards() -> None:
    step = {"seat": 2, "do": "lay_off", "meld": 0, "cards": [Card("4♣")], "expect": "ok", "check": {}}
    assert Action.from_dict(step) == Action.lay_off(0, ["4♣"])
    assert Action.from_dict({"do": "discard", "card": "ts"}) == Action.discard("10♠")


@pytest.mark.parametrize(
    "bad",
    [
        {"do": "fold"},
        {"card": "8♦"},
        {"do": "discard"},
        {"do": "discard", "card": 8},
        {"do": "lay_off", "meld": -1, "cards": ["4♣"]},
        {"do": "discard", "card": object()},
    ],
    ids=["unknown", "no-do", "missing-card", "card-not-a-string", "negative-meld", "not-json"],
)
def test_bad_action_dicts_are_invalid_arguments(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        Action.from_dict(bad)
    assert info.value.code == "invalid_argument"


def test_bad_action_arguments() -> None:
    with pytest.raises(InvalidCardError):
        Action.discard("11♠")
    with pytest.raises(InvalidArgumentError):
        Action.lay_off(-1, ["4♣"])
    with pytest.raises(InvalidArgumentError):
        Action.lay_off(0, ["4♣"], end="middle")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        Action.cut("ten")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        Action.go_down("7♠ 7♥ 7♦")
    with pytest.raises(InvalidArgumentError):
        Action.from_dict([("do", "buy")])  # type: ignore[arg-type]


# --- acting and errors ------------------------------------------------------------


def test_legal_actions_are_sorted_unique_and_all_allowed() -> None:
    g = _game_in_progress(40)
    for _ in range(60):
        legal = g.legal_actions()
        assert legal == sorted(set(legal))
        seat = g.to_act
        assert seat is not None
        assert all(g.can(seat, a) for a in legal)
        others = [s for s in range(g.players) if s != seat]
        assert all(g.legal_actions(s) == [] for s in others)
        g.apply(seat, legal[-1])


def test_refused_action_raises_with_code_and_rule_and_changes_nothing() -> None:
    g = GameState(3)
    g.apply(g.cutter, Action.cut(20))
    before = g.to_json()
    wrong_seat = (g.active + 1) % g.players
    with pytest.raises(IllegalMoveError) as info:
        g.apply(wrong_seat, Action.take_discard())
    assert info.value.code == "not_your_turn" and info.value.rule is not None
    assert info.value.rule in str(info.value)
    with pytest.raises(IllegalMoveError) as info:
        g.apply(g.active, Action.discard(g.hand(g.active)[0]))
    assert info.value.code == "wrong_phase"
    assert g.to_json() == before
    # check() raises the same error; can() says no.
    with pytest.raises(IllegalMoveError) as info:
        g.check(wrong_seat, Action.take_discard())
    assert info.value.code == "not_your_turn"
    assert not g.can(wrong_seat, Action.take_discard())
    g.check(g.active, Action.take_discard())  # legal: returns without raising
    assert g.can(g.active, Action.take_discard())


def test_apply_takes_step_dicts_and_returns_events() -> None:
    g = GameState(3)
    event = g.apply(g.cutter, {"do": "cut", "size": 41})
    assert isinstance(event, Event)
    assert event.kind == "dealt" and event.seat == g.cutter
    d = event.to_dict()
    assert d["event"] == "dealt" and d["size"] == 41 and d["cut_bonus"] is True  # L-2.3: 4 x 10 + 1
    assert g.cut_bonus == g.cutter
    assert g.hand_sizes == [10, 10, 10, 10] and g.phase == "draw"
    assert "dealt" in repr(event)


@pytest.mark.parametrize("seat", [-1, 4, 99, 2**70, "0", None, 1.0])
def test_bad_seat_is_an_invalid_argument(seat: object) -> None:
    g = GameState(3)
    for call in (
        lambda: g.apply(seat, Action.cut(5)),  # type: ignore[arg-type]
        lambda: g.check(seat, Action.cut(5)),  # type: ignore[arg-type]
        lambda: g.can(seat, Action.cut(5)),  # type: ignore[arg-type]
        lambda: g.hand(seat),  # type: ignore[arg-type]
        lambda: g.view(seat),  # type: ignore[arg-type]
        lambda: g.observation_tensor(seat),  # type: ignore[arg-type]
        lambda: g.information_state_string(seat),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidArgumentError):
            call()
    if seat is not None:
        with pytest.raises(InvalidArgumentError):
            g.legal_actions(seat)  # type: ignore[arg-type]


def test_bad_construction_arguments() -> None:
    with pytest.raises(InvalidArgumentError):
        GameState(players=1)
    with pytest.raises(InvalidArgumentError):
        GameState(players=9)
    with pytest.raises(InvalidArgumentError):
        GameState(seed=-1)
    with pytest.raises(InvalidArgumentError):
        GameState(seed="7")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        GameState(players=2, rules=RuleSet("contract"))  # C-1: 3 to 8 players
    with pytest.raises(PositionError):
        GameState.from_json("{}")
    with pytest.raises(PositionError):
        GameState.from_json("not json")
    with pytest.raises(InvalidArgumentError):
        g = GameState(0)
        g.apply(0, "discard 8♦")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        GameState.replay(0, [Action.buy()])  # type: ignore[list-item]


def test_errors_share_the_base_class() -> None:
    g = GameState(0)
    with pytest.raises(LiverpoolError):
        g.apply(g.active, Action.buy())


def test_properties_of_a_fresh_game() -> None:
    g = GameState(42)
    assert g.round == 1 and g.phase == "cut" and g.players == 4
    assert g.cutter == (g.dealer + 3) % 4 == g.to_act  # L-2.2: the dealer's right neighbour
    assert g.active == (g.dealer + 1) % 4  # L-2.7
    assert g.stock_size == 107 == len(g.stock)  # L-1.2
    assert g.hands == [[], [], [], []] and g.discard == [] and g.discard_top is None
    assert g.table == [] and g.down == [False] * 4 and g.totals == [0] * 4
    assert g.round_scores is None and g.cut_bonus is None and g.winners == []
    assert g.turn == 0 and not g.is_round_over and not g.is_game_over
    assert g.rules == RuleSet("liverpool") and g.contract == "2 sets"
    assert g.history == [] and "phase='cut'" in repr(g)


def test_table_melds() -> None:
    g = GameState.from_position(
        {
            "phase": "play",
            "hands": [["4♣", "2♦"], [], [], []],
            "table": [{"owner": 0, "cards": ["5♣", "6♣", "7♣", "8♣"]}],
            "down": [True, False, False, False],
        }
    )
    (meld,) = g.table
    assert isinstance(meld, TableMeld)
    assert meld.owner == 0 and meld.meld.kind == "run" and len(meld.meld) == 4
    g.apply(0, Action.lay_off(0, ["4♣"]))
    assert [str(c) for c in g.table[0].meld.cards] == ["4♣", "5♣", "6♣", "7♣", "8♣"]
    assert "owner=0" in repr(g.table[0])


W_POSITION = {
    "profile": "liverpool-classic",
    "round": 3,
    "phase": "play",
    "active": 0,
    "hands": [["J♥", "9♥"], ["2♠", "3♠"], ["4♦"], ["5♣"]],
    "stock": ["6♦", "7♦"],
    "discard": ["9♣"],
    "table": [{"owner": 0, "cards": ["5♥", "6♥", "7♥", "8♥"]}, {"owner": 0, "cards": ["2♣", "3♣", "4♣", "JK"]}],
    "down": [True, False, False, False],
    "taken_discard": "J♥",
}


def test_profile_w_keeps_a_discardable_card() -> None:
    # W-8: the card taken from the discard pile may not be discarded this turn, so
    # (L-5.5) a lay-off that would leave only that card is refused: the player would
    # have no legal move. Found by the state machine of test_game_stateful.py.
    g = GameState.from_position(W_POSITION)
    before = g.clone()
    with pytest.raises(IllegalMoveError) as info:
        g.apply(0, Action.lay_off(0, ["9♥"]))
    assert info.value.code == "must_keep_discard"
    assert g == before
    with pytest.raises(IllegalMoveError) as info:
        g.apply(0, Action.discard("J♥"))
    assert info.value.code == "discard_taken_card"
    g.apply(0, Action.discard("9♥"))
    assert g.active == 1


def test_profile_w_position_with_only_the_taken_card_is_refused() -> None:
    stuck = dict(W_POSITION, hands=[["J♥"], ["2♠", "3♠"], ["4♦"], ["5♣"]])
    with pytest.raises(PositionError) as info:
        GameState.from_position(stuck)
    assert info.value.code == "bad_position" and "W-8" in str(info.value)
