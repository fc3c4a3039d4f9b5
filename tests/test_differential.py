"""Differential tests: the Rust engine (``liverpool``) against the pure-Python reference.

For every preset (the three profiles and the C-8 variations: wild queens, 7 cards
in round 1, 8 rounds, no buying) and a custom rule set with per-meld lengths
(``strategies.CUSTOM_TOML``: a run of 7, a set of 4 with a run of 5, a whole-hand
round with a set), every round, on random deals and on planted near-miss hands
(tests/strategies.py), the engine and ``liverpool.reference`` must agree on
whether the contract is held, the best go-down, every go-down, the outs, the best
arrangement and the batch search; and every solution the engine returns must be
accepted by the reference validator and by the engine's own validators.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import PRESETS, card_groups, engine_rules, full_deck, hands, keep_deck_copies, rounds_of, rules_dict

import liverpool
from liverpool import reference as ref

# Higher than any hand the strategies make can have go-downs, so "every go-down" is every one.
ALL_LIMIT = 100_000
PAD = 255  # the batch's padding value


def share(fraction: int) -> settings:
    """Run 1/fraction of the profile's examples: for tests parametrized over many cases."""
    return settings(max_examples=max(5, settings().max_examples // fraction))


RULE_SETS = (*PRESETS, "custom-c8")
ROUND_CASES = [(name, r) for name in RULE_SETS for r in rounds_of(name)]


def canonical(meld: liverpool.Meld) -> tuple[int, ...]:
    """A meld as the search writes it (and the reference too): a set's naturals by id
    then its wild cards, a run's cards low to high."""
    return tuple(c.id for c in meld.cards)


def as_reference(go_down: liverpool.GoDown) -> tuple[list[tuple[int, ...]], list[int], int]:
    """An engine GoDown in the reference's plain form (melds, left, points_left)."""
    return [canonical(m) for m in go_down.melds], sorted(c.id for c in go_down.left), go_down.points_left


def assert_engine_go_down_is_legal(
    go_down: liverpool.GoDown, hand: list[int], round: int, preset: str
) -> None:
    """The engine's go-down uses the hand's cards and passes every validator we have."""
    rules = rules_dict(preset)
    contract = ref.contract_for(round, rules)
    groups = [[c.id for c in m.cards] for m in go_down.melds]
    kinds = [m.kind for m in go_down.melds]
    assert kinds == ["set"] * contract["sets"] + ["run"] * contract["runs"]
    # C-8: every meld fills one of the contract's melds of its kind and length.
    ranges = sorted(ref.meld_ranges(contract, rules), key=lambda r: (r[0], -r[1]))
    by_length = sorted(zip(kinds, groups, strict=True), key=lambda kg: (kg[0], -len(kg[1])))
    for (kind, low, high), (got_kind, group) in zip(ranges, by_length, strict=True):
        assert kind == got_kind and low <= len(group) and (high is None or len(group) <= high)
    assert sorted([c for g in groups for c in g] + [c.id for c in go_down.left]) == sorted(hand)
    assert go_down.points_left == ref.points_of([c.id for c in go_down.left], rules)
    assert ref.is_go_down(groups, round, rules, hand=hand)
    for group, kind in zip(groups, kinds, strict=True):
        getattr(liverpool.Meld, kind)(group, engine_rules(preset))  # raises if refused
    liverpool.check_go_down(groups, round, engine_rules(preset))  # opening sizes, L-4.4


@pytest.mark.parametrize(("preset", "round"), ROUND_CASES)
@share(4)
@given(data=st.data())
def test_go_downs_agree(preset: str, round: int, data: st.DataObject) -> None:
    rules = rules_dict(preset)
    hand = data.draw(hands(rules, round), label="hand")
    expected = ref.all_go_downs(hand, round, rules)
    event(f"go-downs: {'none' if not expected else 'one' if len(expected) == 1 else 'several'}")

    assert liverpool.has_contract(hand, round, engine_rules(preset)) == bool(expected)
    best = liverpool.best_go_down(hand, round, engine_rules(preset))
    if not expected:
        assert best is None
        assert liverpool.all_go_downs(hand, round, engine_rules(preset)) == []
        return
    assert best is not None
    assert as_reference(best) == expected[0]
    assert_engine_go_down_is_legal(best, hand, round, preset)

    every = liverpool.all_go_downs(hand, round, engine_rules(preset), limit=ALL_LIMIT)
    assert [as_reference(g) for g in every] == expected
    assert not every.truncated
    for go_down in every:
        assert_engine_go_down_is_legal(go_down, hand, round, preset)
    few = liverpool.all_go_downs(hand, round, engine_rules(preset), limit=2)
    assert [as_reference(g) for g in few] == expected[:2]
    assert few.truncated == (len(expected) > 2)


@pytest.mark.parametrize("preset", RULE_SETS)
@share(2)
@given(data=st.data())
def test_outs_agree(preset: str, data: st.DataObject) -> None:
    rules = rules_dict(preset)
    round = data.draw(st.sampled_from(rounds_of(preset)), label="round")
    hand = data.draw(hands(rules, round, max_size=13), label="hand")
    # Seen cards come from the rest of the deck, so no card is over-counted.
    rest = full_deck(rules)
    for card in hand:
        rest.remove(card)
    picks = data.draw(st.lists(st.integers(0, len(rest) - 1), unique=True, max_size=8), label="seen")
    seen = [rest[i] for i in picks]
    players = data.draw(st.sampled_from([None, 4, 7]), label="players")

    expected = ref.outs(hand, round, rules, seen=seen, players=players or 4)
    event(f"outs: {'some' if expected else 'none'}")
    got = liverpool.outs(hand, round, engine_rules(preset), seen=seen, players=players)
    assert [(card.id, unseen) for card, unseen in got] == expected


@pytest.mark.parametrize("preset", RULE_SETS)
@given(data=st.data())
def test_best_arrangement_agrees(preset: str, data: st.DataObject) -> None:
    rules = rules_dict(preset)
    round = data.draw(st.sampled_from(rounds_of(preset)), label="round")
    hand = data.draw(hands(rules, round, max_size=14), label="hand")
    melds, deadwood, points = ref.best_arrangement(hand, rules)

    got = liverpool.best_arrangement(hand, engine_rules(preset))
    assert got.points == points
    assert sorted(c.id for c in got.deadwood) == deadwood
    assert [canonical(m) for m in got.melds] == melds
    # Every meld is legal on both sides (any length; L-4.4 does not apply) and the cards add up.
    groups = [[c.id for c in m.cards] for m in got.melds]
    for meld, group in zip(got.melds, groups, strict=True):
        if meld.kind == "set":
            assert ref.is_set(group, rules)
        else:
            assert ref.run_start(group, rules) is not None
        getattr(liverpool.Meld, meld.kind)(group, engine_rules(preset))
    assert sorted([c for g in groups for c in g] + deadwood) == sorted(hand)


@pytest.mark.parametrize("preset", RULE_SETS)
@share(2)
@given(data=st.data())
def test_batch_agrees(preset: str, data: st.DataObject) -> None:
    rules = rules_dict(preset)
    round = data.draw(st.sampled_from(rounds_of(preset)), label="round")
    batch = data.draw(st.lists(hands(rules, round, max_size=12), min_size=1, max_size=5), label="hands")
    width = max(len(h) for h in batch) + data.draw(st.integers(0, 2), label="extra padding")
    array = np.full((len(batch), width), PAD, dtype=np.uint8)
    for row, hand in zip(array, batch, strict=True):
        row[: len(hand)] = hand
    threads = data.draw(st.sampled_from([None, 1, 2]), label="threads")

    best_points = liverpool.best_go_down_points_left_batch(array, round, engine_rules(preset), threads=threads)
    holds = liverpool.has_contract_batch(array, round, engine_rules(preset), threads=threads)
    deadwood = liverpool.deadwood_batch(array, engine_rules(preset), threads=threads)
    expected_points = []
    for hand in batch:
        best = ref.best_go_down(hand, round, rules)
        expected_points.append(-1 if best is None else best[2])
    assert best_points.dtype == np.int32 and deadwood.dtype == np.int32 and holds.dtype == np.bool_
    assert best_points.tolist() == expected_points
    assert holds.tolist() == [points >= 0 for points in expected_points]
    assert deadwood.tolist() == [ref.best_arrangement(hand, rules)[2] for hand in batch]


@pytest.mark.parametrize("preset", RULE_SETS)
@given(group=card_groups())
def test_meld_validation_agrees(preset: str, group: list[int]) -> None:
    rules = rules_dict(preset)
    # L-1.2 (issue 8): more copies of a card than the largest deck holds is refused
    # before any meld question; the reference only answers meld questions.
    deck = keep_deck_copies(group, rules, max_players(rules))
    if sorted(deck) != sorted(group):
        with pytest.raises(liverpool.InvalidCardError):
            liverpool.Meld.set(group, engine_rules(preset))
        return
    assert accepted(liverpool.Meld.set, group, preset) == ref.is_set(group, rules)
    start = ref.run_start(group, rules)
    assert accepted(liverpool.Meld.run, group, preset) == (start is not None)
    if start is not None:
        assert liverpool.Meld.run(group, engine_rules(preset)).span == (start, start + len(group) - 1)


def max_players(rules: dict[str, Any]) -> int:
    return int(rules["max_players"])


def accepted(validator: Any, group: list[int], preset: str) -> bool:
    """Does the engine validator accept the group? A refusal must be a typed invalid_meld."""
    try:
        validator(group, engine_rules(preset))
    except liverpool.IllegalMoveError as error:
        assert error.code == "invalid_meld"
        return False
    return True
