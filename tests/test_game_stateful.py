"""A hypothesis state machine that plays games through the Python API.

From random seeds, rule profiles and player counts it plays legal actions, a
simple bot's actions, and random actions of every kind with random arguments
(cards not in hand, meld numbers off the table, other seats, bad seats). After
every step it checks the invariants that must hold whatever happened:

- every card of the deck is in exactly one place: hands, stock, discard pile, table;
- hand sizes moved exactly as the action says (a draw adds 1, a buy 2, a discard
  removes 1, a go-down the cards laid, a deal fills every hand, a rummy call gives
  the discarder 2, a stock card drawn when a buying window closes adds 1, ...);
- nobody takes another player's right away (L-5.1, L-6.3): an action is accepted
  only from the seat the engine waits for (``to_act``), except buys and passes
  under the W-6 "Yo" variation, where the first caller wins;
- a refused action raises a typed error and leaves the state exactly as it was —
  but for W-9, which charges a refused go-down attempt 50 points and says so;
- ``from_json(to_json())`` and ``replay(seed, history)`` give back the state;
- ``to_act`` is a seat, and is ``None`` only when the game is over.

The number of runs follows the hypothesis profile of ``conftest.py`` (``dev`` /
``ci``); the steps per run grow with it.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from liverpool import (
    Action,
    Card,
    Event,
    GameState,
    InvalidArgumentError,
    LiverpoolError,
    RuleSet,
    error_codes,
    new_deck,
)
from test_game_api import bot_step, greedy_action

def _player_counts(name: str) -> range:
    rules = json.loads(RuleSet(name).to_json())
    return range(rules["min_players"], rules["max_players"] + 1)


# Every preset (the three profiles and the C-8 variations), with its player counts.
PROFILES = {name: _player_counts(name) for name in RuleSet.presets()}
PROFILES["liverpool-classic-yo"] = PROFILES["liverpool-classic"]


def ruleset(profile: str) -> RuleSet:
    """A preset, or profile W with the W-6 "Yo" buying priority (a rule set option)."""
    if profile == "liverpool-classic-yo":
        data = json.loads(RuleSet("liverpool-classic").to_json())
        data.update(buy_priority="first_caller", call_order=[2, 0])
        return RuleSet.from_json(json.dumps(data))
    return RuleSet(profile)

ALL_CARDS = [Card.from_id(i) for i in range(53)]
KNOWN_CODES = set(error_codes())
RULE_ID = re.compile(r"[LCW]-\d+(\.\d+)?")

# Runs come from the profile (dev 50, ci 100, long 1000); longer runs under the long one.
STEPS = 40 if settings.default is not None and settings.default.max_examples >= 200 else 30
# Up to this many bot actions before the random steps start, so that later rounds,
# buying chains, lay-offs and game ends are reached (a whole game is ~2000 actions).
MAX_WARMUP = 2400


def hand_deltas(event: Event, action: Action) -> dict[int, int] | None:
    """How each seat's hand size changes when `action` is accepted, from the rules
    of RULES.md. `None` for actions that set every hand (the deal, a new round)."""
    seat = event.seat
    name = action.name
    data = event.to_dict()
    if name in ("cut", "next_round"):
        return None
    deltas: dict[int, int] = {}
    if name == "take_discard":
        deltas = {seat: 1}
    elif name == "draw_stock" and data["event"] == "drew_stock":
        # L-9.2: no card when no stock can be formed (the round then ends).
        deltas = {seat: 0 if data["card"] is None else 1}
    elif name == "buy":
        deltas = {seat: 2}  # L-6.2: the card and a penalty card
    elif name == "call_rummy":
        deltas = {data["discarder"]: 2}  # W-7.1: the discard back and a penalty card
    elif name == "go_down":
        assert action.melds is not None
        deltas = {seat: -sum(len(m) for m in action.melds)}
    elif name == "lay_off":
        assert action.cards is not None
        deltas = {seat: -len(action.cards)}
    elif name in ("swap_joker", "discard"):
        deltas = {seat: -1}  # L-7.2: the joker goes to the table, never to the hand
    # call_liverpool: taken and laid off at once (W-7.2); decline_discard, pass: nothing.
    then = data.get("then")
    if then is not None:
        # L-5.1: the window this action closed had a pending stock draw.
        assert then["event"] == "drew_stock"
        if then["card"] is not None:
            deltas[then["seat"]] = deltas.get(then["seat"], 0) + 1
    return deltas


class GameMachine(RuleBasedStateMachine):
    game: GameState
    seed: int
    players: int
    ruleset: RuleSet  # not `rules`: RuleBasedStateMachine has a `rules` of its own

    @initialize(
        seed=st.integers(0, 2**64 - 1),
        profile=st.sampled_from(sorted(PROFILES)),
        data=st.data(),
    )
    def start(self, seed: int, profile: str, data: st.DataObject) -> None:
        self.seed = seed
        self.ruleset = ruleset(profile)
        self.options = json.loads(self.ruleset.to_json())
        self.players = data.draw(st.sampled_from(PROFILES[profile]), label="players")
        self.game = GameState(seed, self.players, self.ruleset)
        self.deck = Counter(c.id for c in new_deck(self.ruleset, self.players))
        warmup = data.draw(st.integers(0, MAX_WARMUP), label="warmup")
        bot = random.Random(seed)
        for _ in range(warmup):
            if not self.game.legal_actions():
                break
            bot_step(self.game, bot)

    # --- steps ---

    def accept(self, seat: int, action: Action) -> None:
        """Apply an action the engine allows and check what moved."""
        g = self.game
        before_sizes = g.hand_sizes
        before_table = len(g.table)
        before_history = len(g.history)
        yo = self.options["buy_priority"] == "first_caller" and action.name in ("buy", "pass")
        assert seat == g.to_act or yo, "L-6.3: only the seat the engine waits for decides"
        event = g.apply(seat, action)
        assert event.seat == seat
        assert len(g.history) == before_history + 1 and g.history[-1] == (seat, action)
        deltas = hand_deltas(event, action)
        if deltas is None:
            if action.name == "cut":
                deal = self.ruleset.deal_sizes[g.round - 1]
                assert g.hand_sizes == [deal] * self.players  # L-2.5
                assert len(g.discard) == 1 and g.table == []  # L-2.6
            else:
                assert g.hand_sizes == [0] * self.players and g.phase == "cut"
        else:
            expected = [size + deltas.get(s, 0) for s, size in enumerate(before_sizes)]
            assert g.hand_sizes == expected, f"{action!r} by seat {seat}: {event.to_dict()}"
        if action.name == "go_down":
            assert action.melds is not None
            assert len(g.table) == before_table + len(action.melds)
        elif action.name != "next_round":
            assert len(g.table) == before_table, "only a go-down adds melds (L-4.6)"
        if event.to_dict().get("floating"):
            assert g.hand_sizes[seat] == 0 and g.active != seat, "W-8: floating ends the turn"

    def refuse(self, seat: int, action: Action) -> None:
        """Apply an action the engine refuses: a typed error, and nothing changes."""
        g = self.game
        before = g.clone()
        with pytest.raises(LiverpoolError) as info:
            g.apply(seat, action)
        error = info.value
        assert error.code in KNOWN_CODES
        if error.rule is not None:
            assert RULE_ID.fullmatch(error.rule) and error.rule in str(error), repr(error)
        if g.penalties != before.penalties:
            # W-9: a failed go-down attempt is charged (and kept in the history).
            assert action.name == "go_down" and "W-9" in str(error)
            charge = self.options["failed_go_down_penalty"]
            assert charge > 0 and g.penalties[seat] == before.penalties[seat] + charge
            assert g.history == [*before.history, (seat, action)]
            after, prior = g.to_position(), before.to_position()
            after.pop("penalties")
            prior.pop("penalties", None)
            assert after == prior
            return
        assert g == before and g.history == before.history
        with pytest.raises(type(error)) as again:
            g.check(seat, action)
        assert again.value.code == error.code

    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        legal = self.game.legal_actions()
        if not legal:
            assert self.game.is_game_over
            return
        seat = self.game.to_act
        assert seat is not None
        self.accept(seat, data.draw(st.sampled_from(legal), label="legal action"))

    @rule(bot_seed=st.integers(0, 2**32 - 1))
    def bot_action(self, bot_seed: int) -> None:
        if not self.game.legal_actions():
            return
        seat = self.game.to_act
        assert seat is not None
        self.accept(seat, greedy_action(self.game, random.Random(bot_seed)))

    @rule(data=st.data())
    def any_action(self, data: st.DataObject) -> None:
        g = self.game
        seat = data.draw(st.integers(0, self.players - 1), label="seat")
        hand = g.hand(seat)
        card = st.sampled_from(hand + ALL_CARDS) if hand else st.sampled_from(ALL_CARDS)
        cards = st.lists(card, max_size=5)
        meld = st.integers(0, len(g.table) + 1)
        end = st.sampled_from([None, "low", "high"])
        action = data.draw(
            st.one_of(
                st.builds(Action.cut, st.none() | st.integers(-2, 120)),
                st.sampled_from(
                    [
                        Action.take_discard(),
                        Action.decline_discard(),
                        Action.buy(),
                        Action.pass_(),
                        Action.draw_stock(),
                        Action.next_round(),
                        Action.call_rummy(),
                    ]
                ),
                st.builds(Action.call_liverpool, meld, end),
                st.builds(Action.go_down, st.lists(cards, max_size=4)),
                st.builds(Action.lay_off, meld, cards, end),
                st.builds(Action.swap_joker, meld, card, meld, end),
                st.builds(Action.discard, card),
            ),
            label="action",
        )
        if g.can(seat, action):
            self.accept(seat, action)
        else:
            self.refuse(seat, action)

    @rule(seat=st.sampled_from([-1, 16, 2**40]))
    def bad_seat(self, seat: int) -> None:
        before = self.game.clone()
        with pytest.raises(InvalidArgumentError):
            self.game.apply(seat, Action.draw_stock())
        assert self.game == before

    # --- invariants ---

    @invariant()
    def every_card_in_exactly_one_place(self) -> None:
        g = self.game
        seen = Counter(c.id for c in g.stock)
        seen.update(c.id for c in g.discard)
        for hand in g.hands:
            seen.update(c.id for c in hand)
        for m in g.table:
            seen.update(c.id for c in m.meld.cards)
        assert seen == self.deck
        assert len(g.stock) == g.stock_size and [len(h) for h in g.hands] == g.hand_sizes

    @invariant()
    def someone_is_to_act_until_the_game_ends(self) -> None:
        g = self.game
        if g.is_game_over:
            assert g.to_act is None and g.winners
        else:
            assert g.to_act in range(self.players)
            assert g.legal_actions(), "a seat to act always has a legal action"
            others = [s for s in range(self.players) if s != g.to_act]
            assert all(g.legal_actions(s) == [] for s in others), "only the seat asked decides"

    @invariant()
    def json_round_trip(self) -> None:
        back = GameState.from_json(self.game.to_json())
        assert back == self.game and back.history == self.game.history

    @invariant()
    def replay_gives_the_same_state(self) -> None:
        assert GameState.replay(self.seed, self.game.history, self.players, self.ruleset) == self.game


GameMachine.TestCase.settings = settings(settings.default, stateful_step_count=STEPS)
test_game_state_machine = GameMachine.TestCase
