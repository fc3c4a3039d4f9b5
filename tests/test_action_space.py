"""The fixed action space (docs/action-space.md) through the Python API.

Properties over random legal play under every preset (issue 9, part 1): the mask is
exactly the ids of ``legal_actions()``; ``action_from_id(action_id(a)) == a``;
``apply_id(seat, i)`` does what ``apply(seat, action_from_id(i))`` does; a refused id
raises a typed error and changes nothing.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import liverpool
from liverpool import Action, GameState, InvalidArgumentError, LiverpoolError, RuleSet

PRESETS = RuleSet.presets()


def _few() -> settings:
    """A fraction of the profile's examples: each one plays a few hundred moves."""
    return settings(max_examples=max(4, settings().max_examples // 5))


def _check(g: GameState, rng: random.Random) -> None:
    size = g.action_space_size
    mask = g.legal_action_mask()
    assert mask.shape == (size,) and mask.dtype == np.bool_
    encoded = np.zeros(size, dtype=np.bool_)
    for action in g.legal_actions():
        i = g.action_id(action)
        assert not encoded[i], f"two legal actions share id {i}"
        encoded[i] = True
        assert g.action_from_id(i) == action
    assert np.array_equal(mask, encoded), g.phase
    seat = g.to_act
    assert seat is not None
    for other in range(g.players):
        if other != seat:
            assert not g.legal_action_mask(other).any(), "only the seat asked has ids"
    illegal = np.flatnonzero(~mask)
    if len(illegal):
        i = int(rng.choice(illegal))
        before = g.to_json()
        with pytest.raises(LiverpoolError):
            g.apply_id(seat, i)
        assert g.to_json() == before, "a refused id changed the state"


@_few()
@given(seed=st.integers(0, 2**64 - 1), preset=st.sampled_from(PRESETS), steps=st.integers(1, 300))
def test_mask_is_legal_actions_encoded_and_apply_id_is_apply(seed: int, preset: str, steps: int) -> None:
    rules = RuleSet(preset)
    g = GameState(seed=seed, rules=rules)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_game_over:
            break
        _check(g, rng)
        seat = g.to_act
        assert seat is not None
        ids = np.flatnonzero(g.legal_action_mask(seat))
        i = int(rng.choice(ids))
        twin = g.clone()
        expected = twin.apply(seat, g.action_from_id(i))
        assert g.apply_id(seat, i) == expected
        assert g == twin and g.history == twin.history


def test_layout_blocks_tile_the_space_and_match_the_module_function() -> None:
    for preset in PRESETS:
        rules = RuleSet(preset)
        g = GameState(seed=1, rules=rules)
        layout = g.action_layout()
        assert layout == liverpool.action_layout(rules)
        assert list(layout)[:6] == ["draw_stock", "take_discard", "buy", "pass", "call_rummy", "next_round"]
        stops = [0]
        for block in layout.values():
            assert block.start == stops[-1]
            stops.append(block.stop)
        assert stops[-1] == g.action_space_size == liverpool.action_space_size(rules)
    assert liverpool.action_space_size(players=8) > liverpool.action_space_size(players=4)


def test_ids_of_the_cut_and_l51_decline_has_no_id() -> None:
    g = GameState(seed=3)
    cut = g.action_layout()["cut"]
    assert g.action_from_id(cut.start + 40) == Action.cut(41)  # L-2.3: the exact cut
    assert np.flatnonzero(g.legal_action_mask()).tolist() == list(range(cut.start, cut.stop))
    with pytest.raises(InvalidArgumentError) as e:
        g.action_id(Action.decline_discard())  # L-5.1: a draw already declines
    assert e.value.code == "invalid_action_id"


def test_bad_ids_are_typed_errors_that_change_nothing() -> None:
    g = GameState(seed=4)
    before = g.to_json()
    for bad, code in [(g.action_space_size, "invalid_action_id"), (-1, "invalid_argument"), ("3", "invalid_argument")]:
        with pytest.raises(InvalidArgumentError) as e:
            g.apply_id(g.to_act, bad)  # type: ignore[arg-type]
        assert e.value.code == code
    go_down = g.action_layout()["go_down"].start
    with pytest.raises(InvalidArgumentError) as e:
        g.action_from_id(go_down)
    assert e.value.code == "invalid_action_id" and e.value.key == "action_id.not_legal"
    assert g.to_json() == before
    # numpy integers are ids too (what argmax returns).
    cut = g.action_layout()["cut"]
    g.apply_id(g.to_act, np.int64(cut.start + 40))  # type: ignore[arg-type]
    assert g.phase == "draw"
