"""A hypothesis fuzzer on the binding (issue 8, docs/guarantees.md).

Garbage of every Python type goes into the public functions and methods: each call
returns normally or raises a ``LiverpoolError`` subclass with a code, never a bare
``TypeError``/``OverflowError``/``RuntimeError`` and never a crash. Positions
mutated from real states load only if they are playable, and then round-trip.

The number of inputs follows the hypothesis profile (``dev``: 50 per test, ``ci``:
400); a long run: ``HYPOTHESIS_PROFILE=ci pytest tests/test_fuzz_binding.py
--hypothesis-seed=0 -p no:cacheprovider`` with a larger ``max_examples`` in the
``LIVERPOOL_FUZZ_EXAMPLES`` environment variable.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import liverpool
from liverpool import Action, Card, GameState, LiverpoolError, Meld, NativeBot, RuleSet

_EXAMPLES = int(os.environ.get("LIVERPOOL_FUZZ_EXAMPLES", "0")) or None


def _settings(f: Callable[..., None]) -> Callable[..., None]:
    return settings(max_examples=_EXAMPLES)(f) if _EXAMPLES else f


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-1, 0, 1, 52, 53, 255, 256, 2**31, 2**32, 2**63, 2**64, -(2**63) - 1]),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(["7♠", "JK", "10H", "\ud800", "", " ", "low", "high", "greedy", "liverpool"]),
    st.binary(max_size=4),
    st.builds(bytearray, st.binary(max_size=3)),
)
garbage = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=5), inner, max_size=3),
    ),
    max_leaves=8,
)


def _game() -> GameState:
    g = GameState(seed=11)
    g.apply(g.to_act, {"do": "cut"})
    return g


_GAME = _game()
_MELD = Meld.run(["5H", "JK", "7H", "8H"])
_RULES = RuleSet("liverpool")

# Each entry takes two garbage values.
CALLS: dict[str, Callable[[Any, Any], object]] = {
    "Card": lambda a, b: Card(a),
    "Card.from_id": lambda a, b: Card.from_id(a),
    "parse_cards": lambda a, b: liverpool.parse_cards(a),
    "Meld.set": lambda a, b: Meld.set(a),
    "Meld.run": lambda a, b: Meld.run(a),
    "Meld.parse": lambda a, b: Meld.parse(a),
    "Meld.joker_stands_for": lambda a, b: _MELD.joker_stands_for(a),
    "Meld.lay_off": lambda a, b: _MELD.lay_off(a, b),
    "Meld.swap_joker": lambda a, b: _MELD.swap_joker(a),
    "check_go_down": lambda a, b: liverpool.check_go_down(a, b),
    "has_contract": lambda a, b: liverpool.has_contract(a, b),
    "best_go_down": lambda a, b: liverpool.best_go_down(a, b),
    "outs": lambda a, b: liverpool.outs(a, b),
    "best_arrangement": lambda a, b: liverpool.best_arrangement(a),
    "RuleSet": lambda a, b: RuleSet(a),
    "RuleSet.from_json": lambda a, b: RuleSet.from_json(a),
    "RuleSet.from_toml": lambda a, b: RuleSet.from_toml(a),
    "RuleSet.is_wild": lambda a, b: _RULES.is_wild(a),
    "RuleSet.contract_melds": lambda a, b: _RULES.contract_melds(a),
    "RuleSet.exact_cut": lambda a, b: _RULES.exact_cut(a, b),
    "new_deck": lambda a, b: liverpool.new_deck(players=a),
    "shuffled_deck": lambda a, b: liverpool.shuffled_deck(a, players=b),
    "GameState": lambda a, b: GameState(seed=a, players=b),
    "GameState.from_position": lambda a, b: GameState.from_position(a),
    "GameState.from_json": lambda a, b: GameState.from_json(a),
    "GameState.apply": lambda a, b: _GAME.clone().apply(a, b),
    "GameState.check": lambda a, b: _GAME.check(a, b),
    "GameState.can": lambda a, b: _GAME.can(a, b),
    "GameState.legal_actions": lambda a, b: _GAME.legal_actions(a),
    "GameState.hand": lambda a, b: _GAME.hand(a),
    "GameState.view": lambda a, b: _GAME.view(a),
    "GameState.replay": lambda a, b: GameState.replay(a, b),
    "Action.from_dict": lambda a, b: Action.from_dict(a),
    "Action.lay_off": lambda a, b: Action.lay_off(a, b),
    "Action.discard": lambda a, b: Action.discard(a),
    "Action.go_down": lambda a, b: Action.go_down(a),
    "NativeBot": lambda a, b: NativeBot(a, b),
    "NativeBot.choose": lambda a, b: NativeBot("random").choose(_GAME, a),
    "simulate": lambda a, b: liverpool.simulate(1, seed=a, threads=b),
}


@_settings
@given(name=st.sampled_from(sorted(CALLS)), a=garbage, b=garbage)
def test_garbage_arguments_raise_only_typed_errors(name: str, a: object, b: object) -> None:
    before = _GAME.to_json()
    try:
        CALLS[name](a, b)
    except LiverpoolError as e:
        assert e.code in liverpool.error_codes(), (name, e.code)
        assert str(e)
    # Nothing above may change the shared state (apply works on a clone).
    assert _GAME.to_json() == before


def _states() -> list[GameState]:
    """Real states of several presets, a few dozen moves in."""
    out = []
    for i, preset in enumerate(RuleSet.presets()):
        g = GameState(seed=i, rules=RuleSet(preset))
        bot = NativeBot("random", seed=i)
        for _ in range(20 + 7 * i):
            if g.is_game_over:
                break
            g.apply(g.to_act, bot.choose(g))
        out.append(g)
    return out


_STATES = _states()


@st.composite
def mutated_positions(draw: st.DrawFn) -> dict[str, Any]:
    position = draw(st.sampled_from(_STATES)).to_position()
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(sorted(position)))
        position[key] = draw(garbage)
    return position


@_settings
@given(position=mutated_positions())
def test_mutated_positions_load_only_if_playable(position: dict[str, Any]) -> None:
    try:
        g = GameState.from_position(position)
    except LiverpoolError as e:
        assert e.code in liverpool.error_codes()
        return
    assert g.is_game_over or g.legal_actions(), "a loaded live state has a legal move"
    again = GameState.from_position(json.loads(json.dumps(g.to_position(), ensure_ascii=False)))
    assert again.to_json() == GameState.from_json(g.to_json()).to_json()
    bot = NativeBot("random", seed=1)
    for _ in range(20):
        if g.is_game_over:
            break
        g.apply(g.to_act, bot.choose(g))
