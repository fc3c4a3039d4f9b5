"""The pure-Python reference (liverpool.reference) on hand-checked facts of RULES.md.

Every expected value here is worked out by hand from the rules, never copied from
the code's output. The differential tests (test_differential.py) then hold the Rust
engine to this reference.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from strategies import rules_dict

from liverpool import reference as ref

L = rules_dict("liverpool")
C = rules_dict("contract")
W = rules_dict("liverpool-classic")


def ids(text: str) -> list[int]:
    return ref.parse_cards(text)


def meld(text: str) -> tuple[int, ...]:
    return tuple(ids(text))


# --------------------------------------------------------------------------- cards


def test_card_ids_follow_the_notation() -> None:
    # naturals suit * 13 + rank - 1, suits ♠♥♦♣ = 0..3, joker 52
    assert ids("A♠ K♠ A♥ 7♦ 10♣ TS ah jk JK") == [0, 12, 13, 32, 48, 9, 13, 52, 52]
    assert ref.parse_card(51) == 51
    assert [ref.card_name(c) for c in (0, 32, 48, 52)] == ["A♠", "7♦", "10♣", "JK"]


@pytest.mark.parametrize("bad", ["11♠", "7X", "", "♠", 53, -1, True, 7.0])
def test_malformed_cards_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        ref.parse_card(bad)  # type: ignore[arg-type]


def test_l_10_1_scoring() -> None:
    # L-10.1: A 15, K 10, 4 at face value.
    assert ref.points_of(ids("A♠ K♦ 4♥"), L) == 15 + 10 + 4 == 29
    assert ref.card_points("JK", L) == 15
    # C-7: joker 25, 4 scores 5; W-10: 2-9 score 5, joker 15.
    assert ref.points_of(ids("JK 4♥ Q♣"), C) == 25 + 5 + 10
    assert ref.points_of(ids("JK 9♥ 10♣"), W) == 15 + 5 + 10


def test_deck_copies_by_player_count() -> None:
    assert ref.deck_copies(ref.JOKER, L) == 3 and ref.deck_copies(0, L) == 2  # L-1.2
    assert ref.deck_copies(ref.JOKER, C, players=6) == 4  # C-1
    assert ref.deck_copies(ref.JOKER, C, players=7) == 6 and ref.deck_copies(0, C, players=7) == 3


# --------------------------------------------------------------------------- melds


def test_sets() -> None:
    assert ref.is_set(ids("7♠ 7♠ 7♥"), L)  # L-4.1 duplicates allowed
    assert ref.is_set(ids("7♠ JK JK"), L)  # L-4.5 one natural is enough in L
    assert not ref.is_set(ids("7♠ JK JK"), W)  # W-4 a set needs 2 naturals
    assert ref.is_set(ids("7♠ 7♦ JK"), W)
    assert not ref.is_set(ids("7♠ 8♠ 7♥"), L)
    assert not ref.is_set(ids("7♠ 7♥"), L)  # too short
    assert not ref.is_set(ids("JK JK JK"), L)  # no natural


def test_runs_ace_low_or_high_never_wrapping() -> None:
    assert ref.run_start(ids("A♥ 2♥ 3♥ 4♥"), L) == 1
    assert ref.run_start(ids("J♥ Q♥ K♥ A♥"), L) == 11
    assert ref.run_start(ids("K♥ A♥ 2♥ 3♥"), L) is None  # L-4.3: K-A-2 is never a run
    assert ref.run_start(ids("Q♥ K♥ A♥ 2♥"), L) is None
    everything = ids("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥")
    assert ref.run_start(everything, L) == 1  # L-4.3 Decision: A..K..A is legal
    assert ref.run_start([*everything, ref.JOKER], L) is None  # 15 positions do not exist


def test_runs_jokers_and_naturals() -> None:
    assert ref.run_start(ids("JK 5♥ 6♥ 7♥"), L) == 4  # the joker's place fixes its position
    assert ref.run_start(ids("5♥ 6♥ 7♥ JK"), L) == 5
    assert ref.run_start(ids("JK A♥ 2♥ 3♥"), L) is None  # nothing below the low ace
    assert ref.run_start(ids("5♥ 6♥ 8♥ 9♥"), L) is None  # a gap
    assert ref.run_start(ids("6♥ 5♥ 7♥ 8♥"), L) is None  # runs are listed low to high
    assert ref.run_start(ids("5♥ 6♠ 7♥ 8♥"), L) is None  # two suits
    assert ref.run_start(ids("5♥ 6♥ 7♥"), L) is None  # L-4.2 at least 4 cards
    # W-4: 3 naturals among the first 4 cards.
    assert ref.run_start(ids("5♥ JK 7♥ JK"), W) is None
    assert ref.run_start(ids("5♥ JK 7♥ JK"), L) == 5
    assert ref.run_start(ids("5♥ 6♥ JK 8♥ JK"), W) == 5
    assert ref.run_start(ids("JK JK 7♥ 8♥ 9♥"), W) is None


def test_l_4_4_runs_touching() -> None:
    assert ref.runs_touch(meld("3♥ 4♥ 5♥ 6♥"), meld("7♥ 8♥ 9♥ 10♥"))
    assert ref.runs_touch(meld("7♥ 8♥ 9♥ 10♥"), meld("3♥ 4♥ 5♥ 6♥"))
    assert not ref.runs_touch(meld("3♥ 4♥ 5♥ 6♥"), meld("7♠ 8♠ 9♠ 10♠"))  # other suit
    assert ref.runs_touch(meld("3♥ 4♥ 5♥ JK"), meld("7♥ 8♥ 9♥ 10♥"))  # the joker is 6♥


# --------------------------------------------------------------------------- go-downs


def test_l_11_worked_example() -> None:
    # L-11: 7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ plus the discard 7♦, round 1 (two sets).
    hand = "7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦"
    assert not ref.has_contract(hand.replace(" 7♦", ""), 1, L)
    assert ref.has_contract(hand, 1, L)
    best = ref.best_go_down(hand, 1, L)
    assert best is not None
    melds, left, points = best
    assert melds == [meld("7♠ 7♥ 7♦"), meld("9♠ 9♥ 9♦")]
    assert left == sorted(ids("3♣ 4♣ 5♣ 8♦ A♥"))
    assert points == 3 + 4 + 5 + 8 + 15 == 35
    # Only one rank has three cards besides the nines: this is the only go-down.
    assert ref.all_go_downs(hand, 1, L) == [(melds, left, points)]


def test_best_go_down_ties_go_to_the_smallest_cards_left() -> None:
    # Four sevens: any three make the set; each leaves one 7 (7 points). 7♠ has the smallest id.
    go_downs = ref.all_go_downs("7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦", 1, L)
    assert len(go_downs) == 4
    assert go_downs[0] == ([meld("9♠ 9♥ 9♦"), meld("7♥ 7♦ 7♣")], ids("7♠"), 7)
    assert [left for _, left, _ in go_downs] == [ids("7♠"), ids("7♥"), ids("7♦"), ids("7♣")]
    assert ref.all_go_downs("7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦", 1, L, limit=2) == go_downs[:2]


def test_two_sets_of_one_rank() -> None:
    # L-4.1 Decision: two sets of the same rank may fill two set requirements.
    assert ref.has_contract("7♠ 7♥ 7♦ 7♠ 7♥ 7♣", 1, L)


def test_l_4_4_adjacent_runs_refused_in_round_3() -> None:
    adjacent = "3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥"
    assert not ref.has_contract(adjacent, 3, L)
    assert ref.has_contract(adjacent, 3, C)  # C-4: no adjacency rule
    assert ref.has_contract("3♥ 4♥ 5♥ 6♥ 5♥ 6♥ 7♥ 8♥", 3, L)  # overlapping
    assert ref.has_contract("3♥ 4♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥", 3, L)  # a gap
    # The joker can only be 4♥ (after A♥ 2♥ 3♥), which touches 5♥-8♥.
    assert not ref.has_contract("A♥ 2♥ 3♥ JK 5♥ 6♥ 7♥ 8♥", 3, L)
    # Here the joker may be J♥ instead of 7♥, leaving a gap.
    assert ref.has_contract("3♥ 4♥ 5♥ 6♥ JK 8♥ 9♥ 10♥", 3, L)


def test_opening_sizes() -> None:
    # L-4.1/L-4.2: exactly 3 and 4 at go-down; a longer run is fine in C-4.
    go_downs = ref.all_go_downs("7♠ 7♥ 7♦ 5♣ 6♣ 7♣ 8♣ 9♣", 2, L)
    runs = {m[1] for m, _, _ in go_downs}
    assert runs == {meld("5♣ 6♣ 7♣ 8♣"), meld("6♣ 7♣ 8♣ 9♣")}
    assert meld("5♣ 6♣ 7♣ 8♣ 9♣") in {m[1] for m, _, _ in ref.all_go_downs("7♠ 7♥ 7♦ 5♣ 6♣ 7♣ 8♣ 9♣", 2, C)}
    best = ref.best_go_down("7♠ 7♥ 7♦ 5♣ 6♣ 7♣ 8♣ 9♣", 2, C)
    assert best == ([meld("7♠ 7♥ 7♦"), meld("5♣ 6♣ 7♣ 8♣ 9♣")], [], 0)


def test_whole_hand_round_7() -> None:
    hand = "A♠ 2♠ 3♠ 4♠ 6♠ 7♠ 8♠ 9♠ 5♥ 6♥ 7♥ 8♥"
    assert ref.has_contract(hand, 7, L)
    assert ref.best_go_down(hand, 7, L) == (
        [meld("A♠ 2♠ 3♠ 4♠"), meld("6♠ 7♠ 8♠ 9♠"), meld("5♥ 6♥ 7♥ 8♥")],
        [],
        0,
    )
    assert not ref.has_contract(hand + " 2♦", 7, L)  # L-8.1: the whole hand, no discard
    assert ref.has_contract(hand + " 9♥", 7, L)  # L-8.2: a run may grow to absorb it
    touching = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 5♥ 6♥ 7♥ 8♥"
    assert not ref.has_contract(touching, 7, L)  # L-4.4 holds in round 7
    assert ref.has_contract(touching, 7, C)
    assert not ref.has_contract("A♠ 2♠ 3♠ 4♠ 6♠ 7♠ 8♠ 9♠", 7, L)  # two runs, not three


def test_outs() -> None:
    # Three sevens and a pair of nines: any nine or a joker completes two sets (round 1).
    hand = "7♠ 7♥ 7♦ 9♠ 9♥ 3♣ 4♣ 5♣ 8♦ A♥"
    nines_and_joker = [
        (ref.parse_card(c), n) for c, n in [("9♠", 1), ("9♥", 1), ("9♦", 2), ("9♣", 2), ("JK", 3)]
    ]
    assert ref.outs(hand, 1, L) == nines_and_joker
    seen = ref.outs(hand, 1, L, seen=["9♦", "JK", "JK", "JK", "JK"])
    assert seen == [(8, 1), (21, 1), (34, 1), (47, 2), (52, 0)]
    assert ref.outs(hand + " 9♦", 1, L) == []  # already has the contract
    assert ref.outs("7♠ 7♥ 9♠ 9♥ 3♣ 4♣", 1, L) == []  # two cards short


def test_invalid_round() -> None:
    with pytest.raises(ValueError, match="L-3"):
        ref.has_contract("7♠ 7♥ 7♦", 8, L)


# --------------------------------------------------------------------------- arrangements


def test_best_arrangement() -> None:
    # A set of sevens and a run from 8♠: K♣ is the only deadwood (10 points).
    assert ref.best_arrangement("7♠ 7♥ 7♦ 8♠ 9♠ 10♠ J♠ K♣", L) == (
        [meld("7♠ 7♥ 7♦"), meld("8♠ 9♠ 10♠ J♠")],
        ids("K♣"),
        10,
    )
    # One long run beats two short ones: the fewest melds.
    assert ref.best_arrangement("3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", L) == ([meld("3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠")], [], 0)
    assert ref.best_arrangement("5♠ 5♥ 5♦ 5♣", L) == ([meld("5♠ 5♥ 5♦ 5♣")], [], 0)
    assert ref.best_arrangement("5♠ 5♥ 9♦", L) == ([], ids("5♠ 5♥ 9♦"), 19)
    assert ref.best_arrangement("", L) == ([], [], 0)


def test_best_arrangement_tie_on_points_goes_to_the_smallest_deadwood() -> None:
    # Profile C (4 and 8 both score 5): 4s set + 5-8♠ leaves 8♥ 8♦, 8s set + 4-7♠ leaves 4♥ 4♦.
    # Both leave 10 points; 4♥ 4♦ (ids 16, 29) are smaller than 8♥ 8♦ (20, 33).
    assert ref.best_arrangement("4♠ 5♠ 6♠ 7♠ 8♠ 8♥ 8♦ 4♥ 4♦", C) == (
        [meld("8♠ 8♥ 8♦"), meld("4♠ 5♠ 6♠ 7♠")],
        ids("4♥ 4♦"),
        10,
    )


# --------------------------------------------------------------------------- independence


def test_reference_never_imports_the_engine() -> None:
    """Load reference.py on its own with every `liverpool` import blocked."""
    source = Path(ref.__file__)
    script = textwrap.dedent(
        f"""
        import importlib.abc, importlib.util, sys

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "liverpool" or name.startswith("liverpool."):
                    raise ImportError("blocked: " + name)
                return None

        sys.meta_path.insert(0, Block())
        spec = importlib.util.spec_from_file_location("reference_alone", {str(source)!r})
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        rules = {{"contracts": [{{"sets": 2, "runs": 0}}], "set_size_min": 3, "set_size_max": 3,
                 "run_size_min": 4, "run_size_max": 4, "min_naturals_set": 1, "min_naturals_run": 1,
                 "run_naturals_window": None, "same_suit_runs_need_gap": True,
                 "points": [15, 15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]}}
        print(module.best_go_down("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦", 1, rules)[2])
        assert not any(name.startswith("liverpool") for name in sys.modules)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "35"


def test_is_go_down() -> None:
    assert ref.is_go_down(["7♠ 7♥ 7♦", "9♠ 9♥ 9♦"], 1, L)
    assert not ref.is_go_down(["7♠ 7♥ 7♦"], 1, L)  # L-4.6: the whole contract at once
    assert not ref.is_go_down(["7♠ 7♥ 7♦ 7♣", "9♠ 9♥ 9♦"], 1, L)  # L-4.1: exactly 3
    assert ref.is_go_down(["7♠ 7♥ 7♦ 7♣", "9♠ 9♥ 9♦"], 1, C)  # C-4: longer is fine
    assert not ref.is_go_down(["3♥ 4♥ 5♥ 6♥", "7♥ 8♥ 9♥ 10♥"], 3, L)  # L-4.4
    assert ref.is_go_down(["5♥ JK JK JK", "9♠ 9♥ 9♦"], 2, C)  # the first group reads as the run
    hand = "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 2♣"
    assert ref.is_go_down(["7♠ 7♥ 7♦", "9♠ 9♥ 9♦"], 1, L, hand=hand)
    assert not ref.is_go_down(["7♠ 7♥ 7♣", "9♠ 9♥ 9♦"], 1, L, hand=hand)  # 7♣ is not held
    whole = "A♠ 2♠ 3♠ 4♠ 6♠ 7♠ 8♠ 9♠ 5♥ 6♥ 7♥ 8♥"
    runs = ["A♠ 2♠ 3♠ 4♠", "6♠ 7♠ 8♠ 9♠", "5♥ 6♥ 7♥ 8♥"]
    assert ref.is_go_down(runs, 7, L, hand=whole)
    assert not ref.is_go_down(runs, 7, L, hand=whole + " K♦")  # L-8.1: the whole hand
