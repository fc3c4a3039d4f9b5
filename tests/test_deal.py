"""Shuffling and dealing (RULES.md L-1.2, L-2) through the Python API."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import liverpool
from liverpool import Card, Deal, RuleSet, deal, new_deck, shuffled_deck, shuffled_decks
from liverpool.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidCardError,
)

# The public example scenarios, carried by the project.
SHARED_SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "shared"


def conformance_file(name: str) -> Path:
    return SHARED_SCENARIOS / name


def ids(cards: list[Card]) -> list[int]:
    return [c.id for c in cards]


def assert_profile_l_multiset(card_ids: list[int]) -> None:
    """L-1.2: 107 cards, every natural twice, three jokers."""
    counts = Counter(card_ids)
    assert len(card_ids) == 107
    assert all(counts[i] == 2 for i in range(52)), counts
    assert counts[52] == 3


# --- new_deck ---------------------------------------------------------------


def test_new_deck_of_profile_l_is_two_decks_and_three_jokers() -> None:
    deck = new_deck()
    assert_profile_l_multiset(ids(deck))
    assert deck[0] == Card("A♠") and deck[12] == Card("K♠") and deck[51] == Card("K♣")
    assert deck[52] == Card("A♠")
    assert deck[104:] == [Card("JK")] * 3


def test_new_deck_follows_the_profiles_deck_tiers() -> None:
    # C-1: 108 cards up to 6 players, a third deck and 2 more jokers for 7-8.
    contract = RuleSet("contract")
    assert len(new_deck(contract, players=6)) == 108
    big = new_deck(contract, players=8)
    assert len(big) == 162 and big.count(Card("JK")) == 6 and big.count(Card("7♦")) == 3


@pytest.mark.parametrize("players", [1, 9, 300, -1, 10**30, "4"])
def test_player_counts_outside_the_rules_are_refused(players: int) -> None:
    for call in (
        lambda: new_deck(players=players),
        lambda: shuffled_deck(1, players=players),
        lambda: shuffled_decks(2, 1, players=players),
        lambda: deal(new_deck(), 1, 0, 41, players=players),
    ):
        with pytest.raises(InvalidArgumentError) as err:
            call()
        assert err.value.code == "invalid_argument"


# --- shuffled_deck / shuffled_decks -----------------------------------------


def test_shuffled_deck_is_a_reproducible_permutation() -> None:
    deck = shuffled_deck(42)
    assert_profile_l_multiset(ids(deck))
    assert deck == shuffled_deck(42)
    assert deck != shuffled_deck(43)
    assert deck != new_deck()


@pytest.mark.parametrize("seed", [-1, 2**64, "7", 1.5])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(InvalidArgumentError) as err:
        shuffled_deck(seed)  # type: ignore[arg-type]
    assert err.value.code == "invalid_argument"
    with pytest.raises(InvalidArgumentError):
        shuffled_decks(1, seed)  # type: ignore[arg-type]


def test_largest_seed_is_accepted() -> None:
    assert_profile_l_multiset(ids(shuffled_deck(2**64 - 1)))


def test_shuffled_decks_is_a_uint8_array_of_permutations() -> None:
    decks = shuffled_decks(500, 9)
    assert isinstance(decks, np.ndarray)
    assert decks.dtype == np.uint8 and decks.shape == (500, 107)
    assert decks.flags["C_CONTIGUOUS"]
    reference = np.sort(np.array(ids(new_deck()), dtype=np.uint8))
    assert (np.sort(decks, axis=1) == reference).all()
    assert len({row.tobytes() for row in decks}) == 500


def test_row_zero_is_shuffled_deck_and_rows_do_not_depend_on_n() -> None:
    # Row i uses stream i of the seed, whatever the batch size.
    assert list(shuffled_decks(3, 77)[0]) == ids(shuffled_deck(77))
    assert (shuffled_decks(2000, 5)[:100] == shuffled_decks(100, 5)).all()


def test_shuffled_decks_are_identical_for_one_and_two_threads() -> None:
    # Enough rows for several parallel tasks.
    one = shuffled_decks(5000, 123, threads=1)
    two = shuffled_decks(5000, 123, threads=2)
    assert np.array_equal(one, two)
    assert np.array_equal(one, shuffled_decks(5000, 123))


def test_other_profiles_batch_with_their_deck_size() -> None:
    decks = shuffled_decks(4, 1, rules=RuleSet("contract"), players=8)
    assert decks.shape == (4, 162)


def test_empty_batch() -> None:
    assert shuffled_decks(0, 1).shape == (0, 107)


@pytest.mark.parametrize("n", [-1, -(2**40), 10**30, 2.0, "3"])
def test_batch_size_must_be_a_natural_number(n: int) -> None:
    with pytest.raises(InvalidArgumentError) as err:
        shuffled_decks(n, 1)
    assert err.value.code == "invalid_argument"


def test_oversized_batch_is_refused_before_allocating() -> None:
    with pytest.raises(InvalidArgumentError) as err:
        shuffled_decks(2**40, 1)
    assert err.value.code == "batch_too_large"


@pytest.mark.parametrize("threads", [0, -1, 100_000, 10**30, "2"])
def test_bad_thread_counts_are_refused(threads: int) -> None:
    with pytest.raises(InvalidArgumentError) as err:
        shuffled_decks(2, 1, threads=threads)
    assert err.value.code == "invalid_argument"


# --- deal ---------------------------------------------------------------------


def test_conformance_l2_cut_bonus_and_deal() -> None:
    scenario = json.loads(conformance_file("L-2-cut-bonus-and-deal.json").read_text("utf-8"))
    position = scenario["position"]
    step = next(s for s in scenario["steps"] if s.get("expect", "ok") == "ok")
    check = step["check"]
    dealt = deal(
        position["stock"],
        position["round"],
        position["dealer"],
        step["size"],
        RuleSet(position["profile"]),
        players=position["players"],
    )
    assert dealt.cutter == step["seat"] == check["cut_bonus"]
    assert dealt.cut_bonus is True
    assert dealt.cut == 41
    assert [len(h) for h in dealt.hands] == check["hand_sizes"]
    assert dealt.hands == [[Card(c) for c in hand] for hand in check["hands"]]
    assert dealt.up_card == Card(check["discard_top"])
    assert len(dealt.stock) == check["stock_size"]


def test_deal_reads_the_deck_clockwise_from_the_dealers_left() -> None:
    deck = shuffled_deck(3)
    dealt = deal(deck, round=4, dealer=1, cut=10)
    # L-2.5: seat 2 (the dealer's left) gets cards 0, 4, 8, ...; 12 each in round 4.
    assert dealt.hands[2] == deck[0:48:4]
    assert dealt.hands[3] == deck[1:48:4]
    assert dealt.hands[0] == deck[2:48:4]
    assert dealt.hands[1] == deck[3:48:4]
    # L-2.6: the next card is turned up; the rest is the stock, top first.
    assert dealt.up_card == deck[48]
    assert dealt.stock == deck[49:]
    # L-2.2: the cutter is the dealer's right neighbour.
    assert dealt.cutter == 0


def test_the_cut_never_changes_the_deal() -> None:
    # RULES.md L-2.2 Decision: the cut decides only the cut bonus.
    deck = shuffled_deck(8)
    small, large = deal(deck, 2, 0, 1), deal(deck, 2, 0, 106)
    assert (small.hands, small.up_card, small.stock) == (large.hands, large.up_card, large.stock)


@pytest.mark.parametrize(
    ("round_", "cut", "bonus"),
    [(1, 41, True), (3, 41, True), (1, 40, False), (1, 42, False), (4, 49, True), (7, 49, True), (4, 41, False)],
)
def test_cut_bonus_is_the_exact_cut_of_l_2_3(round_: int, cut: int, bonus: bool) -> None:
    assert deal(shuffled_deck(1), round_, 0, cut).cut_bonus is bonus


def test_profile_c_has_no_cut_bonus() -> None:
    contract = RuleSet("contract")
    assert deal(shuffled_deck(1, contract), 1, 0, 41, contract).cut_bonus is False


def test_deck_may_be_a_uint8_array_or_card_strings() -> None:
    row = shuffled_decks(1, 6)[0]
    as_cards = shuffled_deck(6)
    assert deal(row, 1, 0, 41) == deal(as_cards, 1, 0, 41)
    assert deal([str(c) for c in as_cards], 1, 0, 41) == deal(as_cards, 1, 0, 41)
    assert deal(row.astype(np.int64), 1, 0, 41) == deal(as_cards, 1, 0, 41)


@pytest.mark.parametrize("cut", [0, 107, -1, 10**30])
def test_cut_outside_the_deck_is_bad_cut(cut: int) -> None:
    with pytest.raises(IllegalMoveError) as err:
        deal(shuffled_deck(1), 1, 0, cut)
    assert err.value.code == "bad_cut"
    assert err.value.rule == "L-2.2"


@pytest.mark.parametrize("round_", [0, 8, 1000, -3, 10**30])
def test_rounds_outside_the_rules_are_refused(round_: int) -> None:
    # A round the rule set does not have is an argument error (issue 7), code invalid_round.
    with pytest.raises(InvalidArgumentError) as err:
        deal(shuffled_deck(1), round_, 0, 41)
    assert err.value.code == "invalid_round"


@pytest.mark.parametrize("dealer", [4, -1, 256, 10**30, "0"])
def test_dealer_must_be_a_seat(dealer: int) -> None:
    with pytest.raises(InvalidArgumentError) as err:
        deal(shuffled_deck(1), 1, dealer, 41)
    assert err.value.code == "invalid_argument"


@pytest.mark.parametrize(("round_", "cut"), [("1", 41), (1, "41"), (1, 41.0)])
def test_non_integer_round_or_cut_is_an_invalid_argument(round_: object, cut: object) -> None:
    with pytest.raises(InvalidArgumentError) as err:
        deal(shuffled_deck(1), round_, 0, cut)  # type: ignore[arg-type]
    assert err.value.code == "invalid_argument"


def test_deck_with_more_copies_than_the_profile_is_refused() -> None:
    deck = shuffled_deck(1)
    with pytest.raises(InvalidCardError) as err:
        deal([*deck, "JK"], 1, 0, 41)
    assert err.value.code == "too_many_copies"
    with pytest.raises(InvalidCardError) as err:
        deal(["7♦", *deck], 1, 0, 41)
    assert err.value.code == "too_many_copies"


def test_deck_too_small_to_deal_is_refused() -> None:
    with pytest.raises(InvalidArgumentError):
        deal(shuffled_deck(1)[:40], 1, 0, 20)


def test_malformed_decks_are_refused() -> None:
    with pytest.raises(InvalidCardError) as err:
        deal(np.full(107, 60, dtype=np.uint8), 1, 0, 41)
    assert err.value.code == "malformed_card"
    with pytest.raises(InvalidCardError):
        deal(["7X"] * 50, 1, 0, 41)
    with pytest.raises(InvalidArgumentError):
        deal(shuffled_decks(2, 1), 1, 0, 41)  # a 2-D array is not a deck


def test_deal_repr_names_the_parts() -> None:
    text = repr(deal(shuffled_deck(1), 1, 3, 41))
    assert text.startswith("Deal(") and "cut_bonus=True" in text and "stock=66 cards" in text


def test_deal_is_exported_from_the_package() -> None:
    for name in ("Deal", "deal", "new_deck", "shuffled_deck", "shuffled_decks"):
        assert name in liverpool.__all__
    assert isinstance(deal(new_deck(), 1, 0, 41), Deal)


@given(
    seed=st.integers(0, 2**64 - 1),
    round_=st.integers(1, 7),
    dealer=st.integers(0, 3),
    cut=st.integers(1, 106),
)
def test_deal_partitions_the_deck_in_deal_order(seed: int, round_: int, dealer: int, cut: int) -> None:
    deck = shuffled_deck(seed)
    dealt = deal(deck, round_, dealer, cut)
    size = RuleSet().deal_sizes[round_ - 1]
    first = (dealer + 1) % 4
    # Undo the deal: card i went to seat first + i (mod 4) as that seat's (i // 4)-th card.
    replayed = [dealt.hands[(first + i) % 4][i // 4] for i in range(4 * size)]
    assert replayed + [dealt.up_card] + dealt.stock == deck
    assert all(len(hand) == size for hand in dealt.hands)
    assert dealt.cutter == (dealer + 3) % 4
    assert dealt.cut_bonus is (cut == 4 * size + 1)
