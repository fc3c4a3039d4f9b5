"""Hypothesis strategies for hands and card groups.

Cards are ids (``suit * 13 + rank - 1``, joker 52), as the reference uses them.
Rule sets are the plain dicts of ``RuleSet(name).to_json()``.

- :func:`random_hands`: hands drawn from the real deck of a preset (copies respected).
- :func:`planted_hands`: a round's contract built from random legal-looking melds
  (jokers sometimes, same-suit runs end to end sometimes), then spoiled a little:
  a card removed, a card swapped for a neighbour rank, noise cards added. Many of
  these hands are one card away from the contract, where bugs hide.
- :func:`card_groups`: card groups biased towards near-sets and near-runs.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from typing import Any

from hypothesis import strategies as st

import liverpool
from liverpool import reference

JOKER = 52
PRESETS = tuple(liverpool.RuleSet.presets())
ROUNDS = tuple(range(1, 8))


def rounds_of(name: str) -> tuple[int, ...]:
    """Every round of a preset or of ``"custom-c8"`` (8 in Shanghai, C-8)."""
    return tuple(range(1, engine_rules(name).rounds + 1))


# A custom rule set (C-8 custom contracts): profile C with reordered rounds, one run of
# 7, a set of 4 beside a run of 5, and a whole-hand round with a set in it.
CUSTOM_TOML = """
base = "contract"
name = "custom-c8"
deal_sizes = [10, 10, 10, 10, 12, 12, 12]
contracts = [
  { runs = 2 },
  { melds = [{ kind = "run", min = 7 }] },
  { sets = 2 },
  { melds = [{ kind = "set", min = 4 }, { kind = "run", min = 5 }] },
  { sets = 1, melds = [{ kind = "run", min = 5 }, { kind = "run" }] },
  { sets = 3 },
  { sets = 1, runs = 2, whole_hand = true },
]
"""


@functools.cache
def engine_rules(name: str) -> liverpool.RuleSet:
    """A preset, or ``"custom-c8"``: the rule set of :data:`CUSTOM_TOML`."""
    if name == "custom-c8":
        return liverpool.RuleSet.from_toml(CUSTOM_TOML)
    return liverpool.RuleSet(name)


@functools.cache
def _rules_text(name: str) -> str:
    return engine_rules(name).to_json()


def rules_dict(name: str) -> dict[str, Any]:
    """A fresh copy of a preset's rule set as the reference takes it."""
    rules: dict[str, Any] = json.loads(_rules_text(name))
    return rules


def deck_tier(rules: dict[str, Any], players: int = 4) -> dict[str, int]:
    return next((t for t in rules["deck_tiers"] if players <= t["max_players"]), rules["deck_tiers"][-1])


def full_deck(rules: dict[str, Any], players: int = 4) -> list[int]:
    """Every card of the deck, copies included (L-1.2: 107 cards in profile L)."""
    tier = deck_tier(rules, players)
    return [card for card in range(52) for _ in range(tier["decks"])] + [JOKER] * tier["jokers"]


def keep_deck_copies(cards: list[int], rules: dict[str, Any], players: int = 4) -> list[int]:
    """Drop the copies of a card beyond what the deck holds."""
    tier = deck_tier(rules, players)
    kept: Counter[int] = Counter()
    out = []
    for card in cards:
        limit = tier["jokers"] if card == JOKER else tier["decks"]
        if kept[card] < limit:
            kept[card] += 1
            out.append(card)
    return sorted(out)


def card(rank: int, suit: int) -> int:
    """The id of a natural card; rank 14 is the ace again (a run's high end)."""
    return suit * 13 + (1 if rank == 14 else rank) - 1


def random_hands(
    rules: dict[str, Any], min_size: int = 6, max_size: int = 15
) -> st.SearchStrategy[list[int]]:
    """Hands dealt from the real deck of a preset: distinct deck positions, so copies are respected."""
    deck = full_deck(rules)
    positions = st.lists(st.integers(0, len(deck) - 1), unique=True, min_size=min_size, max_size=max_size)
    return positions.map(lambda picks: sorted(deck[i] for i in picks))


def _sometimes(draw: st.DrawFn, one_in: int) -> bool:
    """True about once in ``one_in`` draws; shrinks to False."""
    return draw(st.integers(0, one_in - 1)) == one_in - 1


def _wild(draw: st.DrawFn, rules: dict[str, Any]) -> int:
    """A wild card of the deck: a joker, or (C-8 California) a card of the wild rank."""
    wild = rules.get("wild_rank")
    if wild is None:
        return JOKER
    return card(reference.RANK_NAMES.index(wild), draw(st.integers(0, 3)))


def _planted_set(draw: st.DrawFn, rules: dict[str, Any], size: int, jokers_ok: bool) -> list[int]:
    rank = draw(st.integers(1, 13))
    needed = max(1, rules["min_naturals_set"])
    return [
        _wild(draw, rules) if jokers_ok and i >= needed and _sometimes(draw, 4) else card(rank, draw(st.integers(0, 3)))
        for i in range(size)
    ]


def _planted_run(
    draw: st.DrawFn,
    rules: dict[str, Any],
    length: int,
    jokers_ok: bool,
    previous: tuple[int, int, int] | None,
) -> tuple[list[int], tuple[int, int, int]]:
    """A run of ``length`` cards, and its (suit, low, high). Next to ``previous`` sometimes."""
    if previous is not None and _sometimes(draw, 2):
        # Same suit as the previous run: end to end (L-4.4 refuses), overlapping or with a gap.
        suit, low, high = previous
        start = draw(st.sampled_from([high + 1, low - length, high - 1, high + 2, low]))
    else:
        suit = draw(st.integers(0, 3))
        start = draw(st.integers(1, 15 - length))
    start = min(max(start, 1), 15 - length)
    cards = [card(position, suit) for position in range(start, start + length)]
    if jokers_ok:
        for i in range(length):
            if _sometimes(draw, 5):
                cards[i] = _wild(draw, rules)
    return cards, (suit, start, start + length - 1)


@st.composite
def planted_hands(draw: st.DrawFn, rules: dict[str, Any], round: int, max_size: int = 16) -> list[int]:
    """A hand that holds (or nearly holds) the round's contract (each meld of its own
    length, C-8; wild cards where the deck has them: jokers, or the wild rank)."""
    contract = reference.contract_for(round, rules)
    jokers_ok = deck_tier(rules)["jokers"] > 0 or rules.get("wild_rank") is not None
    hand: list[int] = []
    previous = None
    for kind, low, high in sorted(reference.meld_ranges(contract, rules), key=lambda r: r[0] == "run"):
        extra = 1 if kind == "set" else 2
        size = draw(st.integers(low, min(low + extra, high or low + extra, 14)))
        if kind == "set":
            hand += _planted_set(draw, rules, size, jokers_ok)
        else:
            run, previous = _planted_run(draw, rules, size, jokers_ok, previous)
            hand += run
    # Spoil it a little: each change is optional and shrinks away.
    if hand and _sometimes(draw, 3):
        hand.pop(draw(st.integers(0, len(hand) - 1)))
    if hand and _sometimes(draw, 3):
        i = draw(st.integers(0, len(hand) - 1))
        if hand[i] != JOKER:
            rank, suit = hand[i] % 13 + 1, hand[i] // 13
            hand[i] = card((rank + draw(st.sampled_from([-1, 1])) - 1) % 13 + 1, suit)
    room = max(0, max_size - len(hand))
    hand += draw(st.lists(st.sampled_from(full_deck(rules)), max_size=min(3, room)))
    return keep_deck_copies(hand, rules)[:max_size]


def hands(rules: dict[str, Any], round: int, max_size: int = 15) -> st.SearchStrategy[list[int]]:
    """Planted near-misses (two thirds) and random deals (one third)."""
    planted = planted_hands(rules, round, max_size=max_size)
    return st.one_of(planted, planted, random_hands(rules, max_size=max_size))


@st.composite
def card_groups(draw: st.DrawFn) -> list[int]:
    """A card group for meld validation: near-sets, near-runs, or anything."""
    shape = draw(st.sampled_from(["set", "run", "any"]))
    if shape == "set":
        rank = draw(st.integers(1, 13))
        size = draw(st.integers(2, 6))
        group = [JOKER if _sometimes(draw, 4) else card(rank, draw(st.integers(0, 3))) for _ in range(size)]
    elif shape == "run":
        suit = draw(st.integers(0, 3))
        length = draw(st.integers(2, 14))
        start = draw(st.integers(1, 16 - length))
        # Position 15 is a 2 again: a wrap K-A-2, which is never a run (L-4.3).
        group = [
            JOKER if _sometimes(draw, 4) else card(p if p <= 14 else p - 13, suit)
            for p in range(start, start + length)
        ]
    else:
        group = draw(st.lists(st.integers(0, JOKER), min_size=1, max_size=8))
    # Near misses: one card moved a rank, one card of another suit, or two cards swapped.
    if group and _sometimes(draw, 3):
        i = draw(st.integers(0, len(group) - 1))
        if group[i] != JOKER:
            rank, suit = group[i] % 13 + 1, group[i] // 13
            if _sometimes(draw, 2):
                group[i] = card(rank % 13 + 1, suit)
            else:
                group[i] = card(rank, (suit + 1) % 4)
    if len(group) > 1 and _sometimes(draw, 4):
        i, j = draw(st.integers(0, len(group) - 1)), draw(st.integers(0, len(group) - 1))
        group[i], group[j] = group[j], group[i]
    return group
