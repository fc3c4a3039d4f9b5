"""Meld validation, lay-offs, joker swaps and the go-down check (RULES.md L-4, L-5.3, L-7)."""

from __future__ import annotations

import pytest

from liverpool import Card, IllegalMoveError, Meld, RuleSet, check_go_down


def test_sets_l41() -> None:
    assert Meld.set("7♠ 7♠ 7♥").kind == "set"  # duplicates allowed
    assert Meld.set("7♠ JK JK").rank == 7  # L-4.5: one natural is enough in profile L
    with pytest.raises(IllegalMoveError) as info:
        Meld.set("7♠ 8♠ 7♥")
    assert info.value.code == "invalid_meld" and info.value.rule == "L-4.1"
    with pytest.raises(IllegalMoveError):
        Meld.set("JK JK JK")  # every meld holds a natural (L-4.5 Decision)


def test_set_needs_two_naturals_in_profile_w() -> None:
    with pytest.raises(IllegalMoveError):
        Meld.set("7♠ JK JK", RuleSet("liverpool-classic"))  # W-4
    assert Meld.set("7♠ 7♦ JK", RuleSet("liverpool-classic")).kind == "set"


def test_runs_l42_l43() -> None:
    assert Meld.run("A♥ 2♥ 3♥ 4♥").span == (1, 4)  # ace low
    assert Meld.run("J♥ Q♥ K♥ A♥").span == (11, 14)  # ace high
    full = "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
    assert Meld.run(full).span == (1, 14)  # Decision: A..K..A does not wrap
    for bad in ["Q♥ K♥ A♥ 2♥", "K♥ A♥ 2♥ 3♥", "3♥ 4♥ 6♥ 7♥", "3♥ 4♥ 5♠ 6♥", "3♥ 4♥ 5♥"]:
        with pytest.raises(IllegalMoveError) as info:
            Meld.run(bad)
        assert info.value.code == "invalid_meld"


def test_jokers_stand_where_they_are_placed_l45() -> None:
    run = Meld.run(["JK", "5♥", "6♥", "7♥"])
    assert run.span == (4, 7)
    assert run.joker_stands_for(0) == Card("4♥")
    assert run.joker_stands_for(1) is None
    assert Meld.run("5♥ 6♥ 7♥ JK").joker_stands_for(3) == Card("8♥")
    assert Meld.set("Q♠ Q♥ JK").joker_stands_for(2) is None


def test_run_naturals_window_profile_w() -> None:
    rules = RuleSet("liverpool-classic")  # W-4: 3 naturals in the first 4
    assert Meld.run("5♥ 6♥ JK 8♥ JK", rules).kind == "run"
    with pytest.raises(IllegalMoveError):
        Meld.run("5♥ JK JK 8♥ 9♥", rules)


def test_lay_off_l53() -> None:
    run = Meld.run("5♥ 6♥ 7♥ 8♥")
    assert run.lay_off("4♥").span == (4, 8)
    assert run.lay_off("9♥ 10♥").span == (5, 10)
    assert run.lay_off("JK").span == (5, 9)  # a joker goes high by default
    assert run.lay_off("JK", end="low").span == (4, 8)
    assert run.lay_off("10♥ JK").cards[-2] == Card("JK")  # the joker fills the gap at 9
    assert run.span == (5, 8)  # the original meld is unchanged
    for bad in ["6♥", "10♥", "4♠"]:
        with pytest.raises(IllegalMoveError) as info:
            run.lay_off(bad)
        assert info.value.code == "invalid_lay_off"


def test_lay_off_joker_beyond_the_ace_is_refused() -> None:
    top = Meld.run("J♥ Q♥ K♥ A♥")
    with pytest.raises(IllegalMoveError):
        top.lay_off("JK", end="high")
    assert top.lay_off("JK").span == (10, 14)  # no room high: it goes low
    assert Meld.set("4♦ 4♠ 4♥").lay_off("4♣ JK").cards[-2:] == [Card("4♣"), Card("JK")]


def test_swap_joker_l7() -> None:
    run = Meld.run("5♥ JK 7♥ 8♥")
    assert run.swap_joker("6♥").cards == [Card(c) for c in ["5♥", "6♥", "7♥", "8♥"]]
    with pytest.raises(IllegalMoveError) as info:
        run.swap_joker("K♣")
    assert (info.value.code, info.value.rule) == ("swap_mismatch", "L-7.2")
    with pytest.raises(IllegalMoveError) as info:
        Meld.set("Q♠ Q♥ JK").swap_joker("Q♦")
    assert (info.value.code, info.value.rule) == ("joker_locked", "L-7.1")


@pytest.mark.parametrize(
    ("melds", "round", "code"),
    [
        ([["3♥", "4♥", "5♥", "6♥"], ["7♥", "8♥", "9♥", "10♥"]], 3, "adjacent_runs"),  # L-4.4
        ([["3♥", "4♥", "5♥", "6♥", "7♥"], ["9♠", "10♠", "J♠", "Q♠"]], 3, "meld_size"),  # L-4.2
        ([["3♥", "3♠", "3♦", "3♣"], ["9♠", "9♥", "9♦"]], 1, "meld_size"),  # L-4.1
        ([["3♥", "3♠", "3♦"], ["9♠", "9♥", "9♦"]], 3, "contract_not_met"),
        ([["3♥", "3♠", "3♦"]], 1, "contract_not_met"),
        ([["3♥", "4♥", "6♥", "7♥"], ["9♠", "10♠", "J♠", "Q♠"]], 3, "invalid_meld"),
    ],
)
def test_go_down_refusals(melds: list[list[str]], round: int, code: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        check_go_down(melds, round)
    assert info.value.code == code
    assert info.value.rule is not None and info.value.rule in str(info.value)


def test_go_downs_accepted() -> None:
    overlapping = check_go_down([["3♥", "4♥", "5♥", "6♥"], ["5♥", "6♥", "7♥", "8♥"]], 3)
    assert [m.span for m in overlapping] == [(3, 6), (5, 8)]
    gap = check_go_down([["3♥", "4♥", "5♥", "6♥"], ["8♥", "9♥", "10♥", "J♥"]], 3)
    assert len(gap) == 2
    # L-4.1 Decision: two sets of one rank may fill two set requirements.
    assert len(check_go_down([["7♠", "7♥", "7♦"], ["7♠", "7♣", "JK"]], 1)) == 2
    # L-8: round 7, runs longer than 4 absorb the whole hand.
    whole = check_go_down([["A♠", "2♠", "3♠", "4♠", "5♠"], ["9♥", "10♥", "J♥", "Q♥"], ["2♦", "3♦", "4♦", "5♦"]], 7)
    assert [len(m) for m in whole] == [5, 4, 4]


def test_longer_melds_are_fine_in_profile_c() -> None:
    rules = RuleSet("contract")  # C-4 Decision: longer melds at go-down, no L-4.4
    melds = check_go_down([["3♥", "4♥", "5♥", "6♥", "7♥"], ["8♥", "9♥", "10♥", "J♥"]], 3, rules)
    assert [len(m) for m in melds] == [5, 4]
