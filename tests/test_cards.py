"""Cards and their notation (CONFORMANCE.md "Cards"; points L-10.1, C-7, W-10)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import liverpool
from liverpool import Card, InvalidArgumentError, InvalidCardError, RuleSet

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "♠♥♦♣"


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("7♦", 7, "♦"), ("10♣", 10, "♣"), ("TS", 10, "♠"), ("ah", 1, "♥"), ("Kc", 13, "♣"), ("qD", 12, "♦")],
)
def test_parses_the_notation_of_conformance_md(text: str, rank: int, suit: str) -> None:
    card = Card(text)
    assert (card.rank, card.suit, card.is_joker) == (rank, suit, False)


def test_joker() -> None:
    joker = Card("JK")
    assert joker.is_joker and joker.rank == 0 and joker.suit is None
    assert str(joker) == "JK" and joker.id == 52


@pytest.mark.parametrize("bad", ["", "1♠", "11H", "7X", "♠", "JKK", "0S", "10", "A♠♠"])
def test_malformed_card_is_a_typed_error(bad: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card(bad)
    assert info.value.code == "malformed_card"
    assert isinstance(info.value, ValueError)


def test_ids_out_of_range_and_wrong_types() -> None:
    with pytest.raises(InvalidCardError):
        Card(53)
    with pytest.raises(InvalidCardError):
        Card(-1)
    with pytest.raises(InvalidArgumentError):
        Card(3.5)  # type: ignore[arg-type]


@given(st.integers(min_value=0, max_value=52))
def test_every_card_round_trips_through_both_notations(card_id: int) -> None:
    card = Card.from_id(card_id)
    assert Card(str(card)) == card
    assert Card(card.ascii) == card
    assert Card(card.id) == card
    assert pickle.loads(pickle.dumps(card)) == card
    assert eval(repr(card), {"Card": Card}) == card


def test_ids_follow_suit_major_order() -> None:
    for suit_index, suit in enumerate(SUITS):
        for rank_index, rank in enumerate(RANKS):
            assert Card(rank + suit).id == suit_index * 13 + rank_index


def test_cards_hash_and_order() -> None:
    assert len({Card("7♦"), Card("7d"), Card("7D")}) == 1
    assert sorted([Card("JK"), Card("2♠"), Card("A♠")]) == [Card("A♠"), Card("2♠"), Card("JK")]


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # L-10.1: 2-10 face value, J Q K 10, A 15, joker 15.
        ("liverpool", {"2♠": 2, "9♥": 9, "10♦": 10, "J♣": 10, "K♠": 10, "A♥": 15, "JK": 15}),
        # C-7: joker 25, ace 15, K Q J 10 score 10, every other card 5.
        ("contract", {"2♠": 5, "9♥": 5, "10♦": 10, "J♣": 10, "K♠": 10, "A♥": 15, "JK": 25}),
        # W-10: 2-9 are 5, 10 J Q K are 10, ace and joker 15.
        ("liverpool-classic", {"2♠": 5, "9♥": 5, "10♦": 10, "J♣": 10, "K♠": 10, "A♥": 15, "JK": 15}),
    ],
)
def test_points_per_profile(preset: str, expected: dict[str, int]) -> None:
    rules = RuleSet(preset)
    for text, points in expected.items():
        assert Card(text).points(rules) == points
        assert rules.card_points(text) == points


def test_parse_cards_accepts_strings_lists_and_ids() -> None:
    assert liverpool.parse_cards("7♦ 10♣ JK") == [Card("7♦"), Card("10♣"), Card("JK")]
    assert liverpool.parse_cards(["7♦", 22, Card("JK")]) == [Card("7♦"), Card(22), Card("JK")]
    with pytest.raises(InvalidCardError):
        liverpool.parse_cards("7♦ 1X")


def test_card_lists_share_the_immutable_card_objects() -> None:
    first, second = liverpool.parse_cards("7♦ 7♦")
    assert first is second  # the binding hands out one object per card id
    assert liverpool.new_deck()[0] is liverpool.parse_cards("A♠")[0]
