"""The Python face of the contract search (liverpool.has_contract, best_go_down, ...).

The search itself is checked against a brute-force oracle in the Rust unit tests and
against ``liverpool.reference`` in test_differential.py; here: the API, its input
forms, its errors (types and stable codes), the batches, and the documented examples.
"""

from __future__ import annotations

import doctest
import json
from collections.abc import Callable
from pathlib import Path

import liverpool
import numpy as np
import pytest
from liverpool import (
    Card,
    GoDown,
    RuleSet,
    all_go_downs,
    best_arrangement,
    best_go_down,
    best_go_down_points_left_batch,
    deadwood_batch,
    has_contract,
    has_contract_batch,
    outs,
)
from liverpool.errors import InvalidArgumentError, InvalidCardError, InvalidRulesError

ROOT = Path(__file__).resolve().parents[1]
L11_HAND = "7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"


def texts(melds: list[liverpool.Meld]) -> list[str]:
    return [str(m) for m in melds]


# --------------------------------------------------------------------------- single calls


def test_l11_worked_example() -> None:
    """RULES.md L-11: taking 7♦ gives both sets; 3♣ 4♣ 5♣ 8♦ A♥ stay (35 points, L-10.1)."""
    best = best_go_down(L11_HAND + " 7♦", round=1)
    assert isinstance(best, GoDown)
    assert texts(best.melds) == ["7♠ 7♥ 7♦", "9♠ 9♥ 9♦"]
    assert [m.kind for m in best.melds] == ["set", "set"]
    assert sorted(str(c) for c in best.left) == sorted(["3♣", "4♣", "5♣", "8♦", "A♥"])
    assert best.points_left == 3 + 4 + 5 + 8 + 15
    assert "points_left=35" in repr(best)
    assert has_contract(L11_HAND + " 7♦", 1)
    assert not has_contract(L11_HAND, 1)
    assert best_go_down(L11_HAND, 1) is None


def test_every_input_form_gives_the_same_answer() -> None:
    text = L11_HAND + " 7♦"
    cards = liverpool.parse_cards(text)
    forms = [text, text.split(), cards, [c.id for c in cards], [c.ascii for c in cards]]
    answers = [best_go_down(f, 1) for f in forms]
    assert all(a == answers[0] for a in answers)


def test_l44_runs_overlap_or_leave_a_gap() -> None:
    hand = "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ 5♥ 6♥ K♠"  # the L-4.4 conformance hand
    best = best_go_down(hand, round=3)
    assert best is not None
    assert texts(best.melds) == ["3♥ 4♥ 5♥ 6♥", "6♥ 7♥ 8♥ 9♥"]
    assert best.points_left == 5 + 10 + 10
    for go_down in all_go_downs(hand, 3):
        spans = sorted(m.span for m in go_down.melds)
        assert spans[1][0] != spans[0][1] + 1, "touching runs are never a go-down"


def test_round_7_is_the_whole_hand() -> None:
    yes = "A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♥ 10♦ J♦ Q♦ K♦"
    best = best_go_down(yes, round=7)
    assert best is not None and best.left == [] and best.points_left == 0
    assert [len(m) for m in best.melds] == [4, 5, 4]
    assert not has_contract(yes.replace("K♦", "5♣"), round=7)


def test_all_go_downs_order_and_limit() -> None:
    hand = "7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦ 2♣"
    every = all_go_downs(hand, 1)
    # Four ways to pick three of the four sevens; the 2♣ and a seven stay.
    assert len(every) == 4
    keys = [(g.points_left, [c.id for c in g.left]) for g in every]
    assert keys == sorted(keys)
    assert every[0] == best_go_down(hand, 1)
    assert all_go_downs(hand, 1, limit=2) == every[:2]
    assert all_go_downs(hand, 1, limit=0) == []
    assert all_go_downs("A♠ K♦ 4♥", 1) == []


def test_outs_one_card_short() -> None:
    got = outs(L11_HAND, round=1, seen=["7♣"])
    assert [(str(c), n) for c, n in got] == [("7♠", 1), ("7♥", 1), ("7♦", 2), ("7♣", 1), ("JK", 3)]
    assert outs(L11_HAND + " 7♦", round=1) == []  # already holds the contract
    # Profile C for 7 players has three decks (C-1): one more copy of each card.
    contract = RuleSet("contract")
    seven = dict(outs(L11_HAND, 1, contract, players=7))
    assert seven[Card("7♦")] == 3 and seven[Card("JK")] == 6


def test_best_arrangement() -> None:
    a = best_arrangement("5♥ 6♥ 7♥ 8♥ 8♠ 8♦")
    assert texts(a.melds) == ["5♥ 6♥ 7♥ 8♥"]
    assert [str(c) for c in a.deadwood] == ["8♠", "8♦"]
    assert a.points == 16
    assert best_arrangement("A♠ K♦ 4♥").points == 29  # L-11: nothing melds
    assert texts(best_arrangement("7♠ 7♥ 7♦ 7♣ 7♠ 7♥").melds) == ["7♠ 7♠ 7♥ 7♥ 7♦ 7♣"]


def test_other_profiles() -> None:
    contract = RuleSet("contract")  # C-4: longer melds at go-down
    best = best_go_down("4♠ 5♠ 6♠ 7♠ 8♠ 9♠ K♥ K♦ K♣ K♠ 2♦", 2, contract)
    assert best is not None and texts(best.melds) == ["K♠ K♥ K♦ K♣", "4♠ 5♠ 6♠ 7♠ 8♠ 9♠"]
    classic = RuleSet("liverpool-classic")  # W-4: three naturals in a run's first four
    assert not has_contract("4♠ JK JK 7♠ 9♥ 9♦ 9♣", 2, classic)
    assert has_contract("4♠ 5♠ JK 7♠ 9♥ 9♦ 9♣", 2, classic)


# --------------------------------------------------------------------------- errors


def no_joker_rules() -> RuleSet:
    data = json.loads(RuleSet().to_json())
    for tier in data["deck_tiers"]:
        tier["jokers"] = 0
    return RuleSet.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("call", "error", "code"),
    [
        (lambda: has_contract("7♠ 7♠ 7♠", 1), InvalidCardError, "too_many_copies"),
        (lambda: best_go_down("JK JK JK JK", 1), InvalidCardError, "too_many_copies"),
        (lambda: has_contract("7♠ JK", 1, no_joker_rules()), InvalidCardError, "no_jokers_in_profile"),
        (lambda: best_arrangement("11♠"), InvalidCardError, "malformed_card"),
        (lambda: has_contract([53], 1), InvalidCardError, "malformed_card"),
        (lambda: has_contract("7♠", 0), InvalidArgumentError, "invalid_round"),
        (lambda: has_contract("7♠", 8), InvalidArgumentError, "invalid_round"),
        (lambda: best_go_down("7♠", -1), InvalidArgumentError, "invalid_round"),
        (lambda: all_go_downs("7♠", 10**30), InvalidArgumentError, "invalid_round"),
        (lambda: has_contract("7♠", "one"), InvalidArgumentError, "invalid_argument"),
        (lambda: has_contract(3.5, 1), InvalidArgumentError, "invalid_argument"),
        (lambda: all_go_downs("7♠", 1, limit=-1), InvalidArgumentError, "invalid_argument"),
        (lambda: outs("7♠", 1, players=99), InvalidArgumentError, "invalid_argument"),
        (lambda: outs("7♠", 1, seen="7♥ 7♥ 7♥"), InvalidCardError, "too_many_copies"),
    ],
)
def test_errors_are_typed_with_stable_codes(
    call: Callable[[], object], error: type[liverpool.LiverpoolError], code: str
) -> None:
    with pytest.raises(error) as info:
        call()
    assert info.value.code == code


def test_round_errors_cite_the_rule() -> None:
    # A round the rules do not have is an argument error (not InvalidRulesError).
    with pytest.raises(InvalidArgumentError) as info:
        has_contract("7♠", 9)
    assert info.value.rule == "L-3" and info.value.code == "invalid_round"
    assert not isinstance(info.value, InvalidRulesError)
    assert has_contract("5♠ 5♥ 5♦ 8♠ 8♥ 8♣ K♠ K♥ K♦ 2♣ 3♣ 4♣ 5♣", 8, liverpool.RuleSet("shanghai"))


# --------------------------------------------------------------------------- batches


def random_rows(n: int, width: int, seed: int) -> np.ndarray:
    """Hands dealt from a shuffled profile-L deck (107 cards); every third row is short."""
    rng = np.random.default_rng(seed)
    deck = np.array([i for i in range(52) for _ in range(2)] + [52, 52, 52], dtype=np.uint8)
    rows = np.empty((n, width), dtype=np.uint8)
    for i in range(n):
        rows[i] = rng.permutation(deck)[:width]
        if i % 3 == 0:
            rows[i, -1] = 255
    return rows


def planted_rows(n: int, width: int, seed: int) -> np.ndarray:
    """Hands holding a pair of sets and a run or two, so that many hold a contract."""
    rng = np.random.default_rng(seed)
    rows = np.full((n, width), 255, dtype=np.uint8)
    for i in range(n):
        suit, start = int(rng.integers(4)), int(rng.integers(0, 9))
        run = [suit * 13 + start + k for k in range(4)]
        ranks = rng.choice(13, size=2, replace=False)
        sets = [int(s) * 13 + int(r) for r in ranks for s in rng.choice(4, size=3, replace=False)]
        cards = (run + sets + [52])[:width]
        rows[i, : len(cards)] = cards
    return rows


@pytest.mark.parametrize("round", range(1, 8))
def test_batches_equal_single_calls(round: int) -> None:
    width = RuleSet().deal_sizes[round - 1] + 1
    hands = np.concatenate([random_rows(60, width, round), planted_rows(60, width, round)])
    points = best_go_down_points_left_batch(hands, round)
    has = has_contract_batch(hands, round)
    dead = deadwood_batch(hands)
    assert points.dtype == np.int32 and has.dtype == np.bool_ and dead.dtype == np.int32
    assert points.shape == has.shape == dead.shape == (len(hands),)
    for row, p, h, d in zip(hands, points, has, dead, strict=True):
        hand = [int(c) for c in row if c != 255]
        best = best_go_down(hand, round)
        assert p == (-1 if best is None else best.points_left)
        assert h == (best is not None)
        assert d == best_arrangement(hand).points
    if round in (1, 2, 4, 5):
        assert has.any(), "the planted hands hold the set contracts"


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_batches_do_not_depend_on_threads(threads: int | None) -> None:
    hands = np.concatenate([random_rows(300, 13, 7), planted_rows(300, 13, 7)])
    for round in (1, 5, 6):
        assert np.array_equal(
            best_go_down_points_left_batch(hands, round, threads=threads),
            best_go_down_points_left_batch(hands, round, threads=1),
        )
        assert np.array_equal(
            has_contract_batch(hands, round, threads=threads), has_contract_batch(hands, round, threads=2)
        )
    assert np.array_equal(deadwood_batch(hands, threads=threads), deadwood_batch(hands, threads=1))


def test_batches_accept_views_and_other_rule_sets() -> None:
    hands = planted_rows(40, 13, 3)
    strided = np.asfortranarray(hands)  # not C-contiguous
    assert np.array_equal(best_go_down_points_left_batch(strided, 5), best_go_down_points_left_batch(hands, 5))
    contract = RuleSet("contract")
    got = best_go_down_points_left_batch(hands, 5, contract)
    want = [
        -1 if (b := best_go_down([int(c) for c in row if c != 255], 5, contract)) is None else b.points_left
        for row in hands
    ]
    assert got.tolist() == want
    assert deadwood_batch(np.zeros((3, 0), dtype=np.uint8)).tolist() == [0, 0, 0]
    assert best_go_down_points_left_batch(np.zeros((0, 11), dtype=np.uint8), 1).tolist() == []


@pytest.mark.parametrize(
    ("hands", "code"),
    [
        (np.zeros((2, 11), dtype=np.int64), "invalid_argument"),
        (np.zeros(11, dtype=np.uint8), "invalid_argument"),
        (np.zeros((2, 2, 2), dtype=np.uint8), "invalid_argument"),
        ([[1, 2, 3]], "invalid_argument"),
        (np.array([[1, 2, 60]], dtype=np.uint8), "malformed_card"),
        (np.array([[5, 5, 5]], dtype=np.uint8), "too_many_copies"),
    ],
)
def test_batch_errors(hands: object, code: str) -> None:
    for call in (
        lambda: best_go_down_points_left_batch(hands, 1),  # type: ignore[arg-type]
        lambda: has_contract_batch(hands, 1),  # type: ignore[arg-type]
        lambda: deadwood_batch(hands),  # type: ignore[arg-type]
    ):
        with pytest.raises(liverpool.LiverpoolError) as info:
            call()
        assert info.value.code == code


def test_batch_argument_errors() -> None:
    hands = np.zeros((1, 3), dtype=np.uint8)
    with pytest.raises(InvalidArgumentError):
        deadwood_batch(hands, threads=0)
    with pytest.raises(InvalidArgumentError):
        deadwood_batch(hands, threads="two")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError) as info:
        has_contract_batch(hands, 0)
    assert info.value.code == "invalid_round"


# --------------------------------------------------------------------------- documented examples


SEARCH_FUNCTIONS = [
    has_contract,
    best_go_down,
    all_go_downs,
    outs,
    best_arrangement,
    best_go_down_points_left_batch,
    has_contract_batch,
    deadwood_batch,
]


@pytest.mark.parametrize("function", SEARCH_FUNCTIONS, ids=lambda f: f.__name__)
def test_docstring_examples_run(function: object) -> None:
    """The ``>>>`` examples of the compiled functions' docstrings (pytest's doctest
    collection only sees Python files, so they are run here)."""
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(function, globs={})
    assert tests and tests[0].examples, "every search function documents an example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


def test_docs_search_md_examples_run() -> None:
    result = doctest.testfile(
        str(ROOT / "docs" / "search.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0
    assert result.failed == 0


# --------------------------------------------------------------------------- issue 7 part 5


def test_round_7_outs_list_the_13th_cards_that_keep_a_whole_hand() -> None:
    # L-8.1: 12 cards that already make three runs; the 13th card drawn must keep a
    # whole-hand go-down (it extends a run, or is a joker).
    hand = "3♥ 4♥ 5♥ 6♥ 8♠ 9♠ 10♠ J♠ 2♦ 3♦ 4♦ 5♦"
    assert has_contract(hand, 7)
    got = [(str(card), unseen) for card, unseen in outs(hand, 7)]
    assert got == [("7♠", 2), ("Q♠", 2), ("2♥", 2), ("7♥", 2), ("A♦", 2), ("6♦", 2), ("JK", 3)]
    for card, _ in outs(hand, 7):
        assert has_contract([*liverpool.parse_cards(hand), card], 7)
    # Rounds 1-6 keep their rule: a hand that holds the contract has no outs.
    assert outs("7♠ 7♥ 7♦ 9♠ 9♥ 9♦", 1) == []


def test_all_go_downs_says_when_it_stopped_at_its_limit() -> None:
    hand = "7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦"
    every = all_go_downs(hand, 1)
    assert isinstance(every, liverpool.GoDowns) and isinstance(every, list)
    assert (len(every), every.truncated, every.limit) == (4, False, 1000)
    cut = all_go_downs(hand, 1, limit=3)
    assert (len(cut), cut.truncated) == (3, True)
    assert cut == every[:3]
    assert not all_go_downs(hand, 1, limit=4).truncated
    assert all_go_downs(hand, 1, limit=0) == [] and all_go_downs(hand, 1, limit=0).truncated
    assert all_go_downs("7♠", 1) == [] and not all_go_downs("7♠", 1).truncated


def test_the_points_left_batch_has_a_name_that_says_so_and_the_old_name_warns() -> None:
    ids = [liverpool.Card(c).id for c in "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣".split()]
    hands = np.array([ids], dtype=np.uint8)
    assert best_go_down_points_left_batch(hands, 1).tolist() == [3]  # the 3♣ left in hand
    with pytest.warns(DeprecationWarning, match="best_go_down_points_left_batch"):
        old = liverpool.best_go_down_points_batch(hands, 1)
    assert old.tolist() == [3]


def test_docstrings_state_the_conventions() -> None:
    # Conventions once only in docs/search.md: card id order, runs low to high, span 14.
    assert "card-id order" in (liverpool.GoDown.left.__doc__ or "")
    assert "low to high" in (liverpool.GoDown.melds.__doc__ or "")
    assert "14" in (liverpool.Meld.span.__doc__ or "")
    assert "low to high" in (liverpool.Meld.cards.__doc__ or "")
    assert "suit * 13 + rank - 1" in (liverpool.GoDown.__doc__ or "")
