"""A pure-Python reference of meld validation and contract search.

This module restates the rules of ``RULES.md`` (profile L by default, profiles C
and W as data) as short, plain functions. It is deliberately slow and simple:
the Rust engine (``liverpool._core``) must agree with it, and the differential
tests check that it does. It never imports the engine, so it can also be read
and run on its own in a notebook.

Cards are given as strings in the notation of ``CONFORMANCE.md`` (``"7♦"``,
``"10♣"``, ``"TS"``, ``"JK"``) or as integer ids: a natural card is
``suit * 13 + rank - 1`` with suits ♠ ♥ ♦ ♣ = 0..3 and ranks A = 1 … K = 13;
the joker is 52. Results use ids only.

Rule parameters are a plain ``dict``: the JSON of a rule set, for example
``json.loads(liverpool.RuleSet("contract").to_json())``.

Conventions of the results:

- a **canonical set** is its sorted card ids (so jokers, id 52, come last);
- a **canonical run** is its ids from low to high, with 52 where a joker stands;
- a list of melds holds the sets first, sorted, then the runs, sorted;
- a **go-down** is ``(melds, left, points_left)`` with ``left`` sorted.

A contract is a list of melds, each a kind with its own minimum length (C-8):
``{"sets": 2}`` or ``{"melds": [{"kind": "run", "min": 7}]}``, or both. With a
**wild rank** (C-8 California, ``"wild_rank": "Q"``) every card of that rank is
wild exactly as a joker: the search reads each wild card as a joker (id 52), so
the conventions above apply to that *joker form*; then the wild cards are named:
reading the melds list in order, each 52 takes the hand's next wild card by id,
and the wild cards left over stay in hand (so a named set is its naturals sorted,
then its wild cards).

>>> rules = {"set_size_min": 3, "min_naturals_set": 1}
>>> is_set(["7♠", "7♥", "JK"], rules)
True
>>> card_name(parse_card("td"))
'10♦'
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

__all__ = [
    "JOKER",
    "parse_card",
    "parse_cards",
    "card_name",
    "rank_of",
    "suit_of",
    "card_points",
    "points_of",
    "is_wild",
    "contract_for",
    "meld_ranges",
    "deck_copies",
    "is_set",
    "run_start",
    "meld_kind",
    "runs_touch",
    "is_go_down",
    "has_contract",
    "best_go_down",
    "all_go_downs",
    "outs",
    "best_arrangement",
]

Rules = Mapping[str, Any]
CardLike = str | int
MeldIds = tuple[int, ...]
GoDown = tuple[list[MeldIds], list[int], int]

JOKER = 52
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_LETTERS = "SHDC"
RANK_NAMES = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
ACE_HIGH = 14  # L-4.3: an ace is position 1 (low) or 14 (high) in a run.


# --------------------------------------------------------------------------- cards


def parse_card(card: CardLike) -> int:
    """The id of one card given as notation (``"7♦"``, ``"TS"``, ``"JK"``) or as an id.

    >>> parse_card("A♠"), parse_card("K♣"), parse_card("jk"), parse_card(17)
    (0, 51, 52, 17)
    """
    if isinstance(card, bool):  # bool is an int subclass; True is not a card
        raise ValueError(f"{card!r} is not a card")
    if isinstance(card, int):
        if 0 <= card <= JOKER:
            return card
        raise ValueError(f"card id {card} is out of range 0..=52")
    if not isinstance(card, str):
        raise ValueError(f"{card!r} is not a card: expected a string or an id")
    text = card.strip()
    if text.upper() == "JK":
        return JOKER
    rank_text, suit_char = text[:-1].upper(), text[-1:]
    if suit_char in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_char)
    elif suit_char and suit_char.upper() in SUIT_LETTERS:
        suit = SUIT_LETTERS.index(suit_char.upper())
    else:
        raise ValueError(f"{card!r} is not a card: unknown suit")
    if rank_text == "T":
        rank_text = "10"
    if rank_text not in RANK_NAMES[1:]:
        raise ValueError(f"{card!r} is not a card: unknown rank")
    return suit * 13 + RANK_NAMES.index(rank_text) - 1


def parse_cards(cards: Iterable[CardLike] | str) -> list[int]:
    """Ids of several cards: an iterable of cards, or one string of space-separated cards."""
    if isinstance(cards, str):
        cards = cards.split()
    return [parse_card(c) for c in cards]


def rank_of(card: int) -> int:
    """1 (ace) … 13 (king); 0 for the joker."""
    return 0 if card == JOKER else card % 13 + 1


def suit_of(card: int) -> int | None:
    """0..3 for ♠ ♥ ♦ ♣; ``None`` for the joker."""
    return None if card == JOKER else card // 13


def card_name(card: int) -> str:
    """The notation of a card id, e.g. ``'7♦'`` or ``'JK'``."""
    if card == JOKER:
        return "JK"
    return RANK_NAMES[rank_of(card)] + SUIT_SYMBOLS[card // 13]


POINT_KEYS = ["joker", *RANK_NAMES[1:]]


def card_points(card: CardLike, rules: Rules) -> int:
    """Points a card scores left in hand (L-10.1, C-7, W-10): ``points`` by rank name
    (``{"joker": 15, "A": 15, ...}``) or as a list of 14, the joker first.

    >>> card_points("A♠", {"points": [15, 15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]})
    15
    >>> card_points("JK", {"points": {"joker": 25, "A": 15}})
    25
    """
    points = rules["points"]
    rank = rank_of(parse_card(card))
    if isinstance(points, Mapping):
        return int(points[POINT_KEYS[rank]])
    return int(points[rank])


def _wild_rank(rules: Rules) -> int | None:
    """The wild rank (1..13) of a rule set, from ``"Q"`` or 12; ``None`` if only jokers are wild."""
    wild = rules.get("wild_rank")
    if wild is None:
        return None
    if isinstance(wild, int):
        return wild
    name = str(wild).upper()
    return RANK_NAMES.index("10" if name == "T" else name)


def is_wild(card: CardLike, rules: Rules) -> bool:
    """Is this card wild: a joker, or a card of the wild rank (C-8 California)?

    >>> is_wild("Q♠", {"wild_rank": "Q"}), is_wild("Q♠", {}), is_wild("JK", {})
    (True, False, True)
    """
    c = parse_card(card)
    return c == JOKER or rank_of(c) == _wild_rank(rules)


def points_of(cards: Iterable[CardLike], rules: Rules) -> int:
    """Points of a group of cards left in hand (L-10.1)."""
    return sum(card_points(c, rules) for c in cards)


# --------------------------------------------------------------------------- rule data


def contract_for(round: int, rules: Rules) -> dict[str, Any]:
    """The contract of a 1-based round (L-3, C-8): ``{"melds", "sets", "runs", "whole_hand"}``.

    ``melds`` lists ``{"kind", "min"}`` per meld (``min`` is ``None`` for the rule
    set's opening size): first the counted sets and runs, then the listed melds.
    """
    contracts = rules["contracts"]
    if not 1 <= round <= len(contracts):
        raise ValueError(f"round {round} does not exist: rounds are 1..={len(contracts)} (L-3)")
    contract = contracts[round - 1]
    melds = [{"kind": "set", "min": None}] * contract.get("sets", 0)
    melds += [{"kind": "run", "min": None}] * contract.get("runs", 0)
    melds += [{"kind": m["kind"], "min": m.get("min")} for m in contract.get("melds", [])]
    return {
        "melds": melds,
        "sets": sum(m["kind"] == "set" for m in melds),
        "runs": sum(m["kind"] == "run" for m in melds),
        "whole_hand": contract.get("whole_hand", False),
    }


def meld_ranges(contract: Mapping[str, Any], rules: Rules) -> list[tuple[str, int, int | None]]:
    """``(kind, min, max)`` of each meld of a contract at go-down (L-4.1, L-4.2, L-8.2, C-8).

    The minimum is the meld's own or the opening size (``whole_hand_run_min`` for a
    run of a whole-hand round); the maximum is the profile's cap for the kind, never
    below that minimum, and none in a whole-hand round or without a cap.
    """
    ranges = []
    for meld in contract["melds"]:
        kind = meld["kind"]
        if contract["whole_hand"]:
            default, cap = (rules["set_size_min"] if kind == "set" else rules["whole_hand_run_min"]), None
        elif kind == "set":
            default, cap = rules["set_size_min"], rules["set_size_max"]
        else:
            default, cap = rules["run_size_min"], rules["run_size_max"]
        low = default if meld["min"] is None else meld["min"]
        ranges.append((kind, low, None if cap is None else max(cap, low)))
    return ranges


def deck_copies(card: int, rules: Rules, players: int = 4) -> int:
    """How many copies of a card the deck holds for this many players (L-1.2, C-1, W-1)."""
    tiers = rules["deck_tiers"]
    tier = next((t for t in tiers if players <= t["max_players"]), tiers[-1])
    return int(tier["jokers"] if card == JOKER else tier["decks"])


# --------------------------------------------------------------------------- melds


def is_set(cards: Iterable[CardLike], rules: Rules, min_size: int | None = None) -> bool:
    """Is this group a set (L-4.1, L-4.5, W-4)?

    A set holds at least ``min_size`` cards (default ``set_size_min``), at least one
    natural card and at least ``min_naturals_set`` of them, and all its naturals
    share one rank. Suits are free and duplicates are allowed.

    >>> rules = {"set_size_min": 3, "min_naturals_set": 1}
    >>> is_set("7♠ 7♠ 7♥", rules), is_set("7♠ 8♠ 7♥", rules), is_set("JK JK JK", rules)
    (True, False, False)
    """
    ids = parse_cards(cards)
    if min_size is None:
        min_size = rules["set_size_min"]
    naturals = [c for c in ids if not is_wild(c, rules)]
    if len(ids) < min_size:
        return False
    if len(naturals) < max(1, rules["min_naturals_set"]):
        return False
    return len({rank_of(c) for c in naturals}) == 1


def _rank_at(position: int) -> int:
    """The rank a run position stands for: 1..13, and 14 is the ace again (L-4.3)."""
    return 1 if position == ACE_HIGH else position


def run_start(cards: Iterable[CardLike], rules: Rules, min_length: int | None = None) -> int | None:
    """The position (1..14) of a run's first card, or ``None`` if the group is not a run.

    The cards are listed low to high, so every card, a joker included, stands for
    one position (L-4.2, L-4.3, L-4.5). Positions are A = 1, 2..10, J = 11, Q = 12,
    K = 13 and A = 14: an ace may be low or high but a run never wraps (K-A-2).
    A run holds at least ``min_length`` cards (default ``run_size_min``), at most 14,
    all naturals of one suit, and at least ``min_naturals_run`` naturals (counted
    among its first ``run_naturals_window`` cards when that is set, W-4).

    >>> rules = {"run_size_min": 4, "min_naturals_run": 1, "run_naturals_window": None}
    >>> run_start("JK 5♥ 6♥ 7♥", rules), run_start("J♥ Q♥ K♥ A♥", rules)
    (4, 11)
    >>> print(run_start("Q♥ K♥ A♥ 2♥", rules))
    None
    """
    ids = parse_cards(cards)
    if min_length is None:
        min_length = rules["run_size_min"]
    if not min_length <= len(ids) <= 14:
        return None
    naturals = [c for c in ids if not is_wild(c, rules)]
    if not naturals or len({suit_of(c) for c in naturals}) != 1:
        return None
    counted = ids if rules.get("run_naturals_window") is None else ids[: rules["run_naturals_window"]]
    if sum(1 for c in counted if not is_wild(c, rules)) < max(1, rules["min_naturals_run"]):
        return None
    # Try every place the run could start; each natural must match its position.
    for start in range(1, ACE_HIGH + 2 - len(ids)):
        if all(is_wild(c, rules) or rank_of(c) == _rank_at(start + i) for i, c in enumerate(ids)):
            return start
    return None


def meld_kind(cards: Iterable[CardLike], rules: Rules) -> str | None:
    """``"set"``, ``"run"`` or ``None``; a group that is both (``5♥ JK JK JK``) reads as a set."""
    ids = parse_cards(cards)
    if is_set(ids, rules):
        return "set"
    if run_start(ids, rules) is not None:
        return "run"
    return None


def _run_suit(run: MeldIds) -> int:
    return next(c // 13 for c in run if c != JOKER)


def runs_touch(first: MeldIds, second: MeldIds) -> bool:
    """L-4.4: do two runs of one suit sit end to end, neither overlapping nor leaving a gap?

    Both are canonical runs (low to high); a joker counts at the position it stands for.

    >>> runs_touch(tuple(parse_cards("3♥ 4♥ 5♥ 6♥")), tuple(parse_cards("7♥ 8♥ 9♥ 10♥")))
    True
    >>> runs_touch(tuple(parse_cards("3♥ 4♥ 5♥ 6♥")), tuple(parse_cards("6♥ 7♥ 8♥ 9♥")))
    False
    """
    if _run_suit(first) != _run_suit(second):
        return False
    a, b = _span(first), _span(second)
    return b[0] == a[1] + 1 or a[0] == b[1] + 1


def _span(run: MeldIds) -> tuple[int, int]:
    """(low, high) positions of a canonical run."""
    start = _start_of_canonical_run(run)
    return start, start + len(run) - 1


def _start_of_canonical_run(run: MeldIds) -> int:
    # A canonical run came from the search, so it is a run of some length; no rule check here.
    index, card = next((i, c) for i, c in enumerate(run) if c != JOKER)
    start = rank_of(card) - index
    return start if start >= 1 else ACE_HIGH - index


# --------------------------------------------------------------------------- candidate melds


def _fits(meld: MeldIds, counts: Mapping[int, int]) -> bool:
    """Can the multiset ``counts`` supply every card of ``meld`` (copies counted)?"""
    return all(counts.get(card, 0) >= n for card, n in Counter(meld).items())


def _candidate_sets(counts: Counter[int], rules: Rules, min_size: int, max_size: int | None) -> list[MeldIds]:
    """Every distinct canonical set the cards in ``counts`` can form, of size min..max."""
    found = []
    jokers = counts[JOKER]
    for rank in range(1, 14):
        ids = [suit * 13 + rank - 1 for suit in range(4)]
        # How many copies of each suit of this rank go in, then how many jokers.
        for copies in itertools.product(*(range(counts[i] + 1) for i in ids)):
            naturals = tuple(i for i, n in zip(ids, copies, strict=True) for _ in range(n))
            for j in range(jokers + 1):
                meld = naturals + (JOKER,) * j
                if max_size is not None and len(meld) > max_size:
                    break
                if is_set(meld, rules, min_size=min_size):
                    found.append(meld)
    return found


def _candidate_runs(
    counts: Counter[int], rules: Rules, min_length: int, max_length: int | None
) -> list[MeldIds]:
    """Every distinct canonical run the cards in ``counts`` can form, of length min..max."""
    found = []
    jokers = counts[JOKER]
    longest = 14 if max_length is None else min(max_length, 14)
    for suit in range(4):
        for start in range(1, ACE_HIGH + 1):
            for length in range(min_length, min(longest, ACE_HIGH + 1 - start) + 1):
                naturals = [suit * 13 + _rank_at(p) - 1 for p in range(start, start + length)]
                for meld in _fillings(naturals, counts, jokers):
                    if run_start(meld, rules, min_length=min_length) == start:
                        found.append(meld)
    return found


def _fillings(naturals: list[int], counts: Counter[int], jokers: int) -> Iterator[MeldIds]:
    """Each way to fill these run positions with held naturals and up to ``jokers`` jokers."""
    # A position whose card is not held at all must take a joker; any other may take one too.
    forced = [i for i, c in enumerate(naturals) if counts[c] == 0]
    optional = [i for i, c in enumerate(naturals) if counts[c] > 0]
    for extra in range(jokers - len(forced) + 1):
        for chosen in itertools.combinations(optional, extra):
            joker_at = set(forced) | set(chosen)
            meld = tuple(JOKER if i in joker_at else c for i, c in enumerate(naturals))
            if _fits(meld, counts):  # e.g. an ace at both ends needs two copies
                yield meld


# --------------------------------------------------------------------------- contract search


def _ids_and_contract(
    hand: Iterable[CardLike] | str, round: int, rules: Rules
) -> tuple[list[int], dict[str, Any]]:
    return sorted(parse_cards(hand)), contract_for(round, rules)


def _joker_form(hand: Iterable[int], rules: Rules) -> list[int]:
    """The hand as the search reads it: every wild card counted as a joker (id 52)."""
    return sorted(JOKER if is_wild(c, rules) else c for c in hand)


def _name_wilds(melds: list[MeldIds], hand: list[int], rules: Rules) -> tuple[list[MeldIds], list[int]]:
    """Give joker-form melds the hand's wild cards: reading the melds in order, each 52
    takes the next wild card by id. Returns the named melds and the cards left, sorted."""
    wilds = iter(sorted(c for c in hand if is_wild(c, rules)))
    named = [tuple(next(wilds) if c == JOKER else c for c in meld) for meld in melds]
    left = Counter(hand) - Counter(c for meld in named for c in meld)
    return named, sorted(left.elements())


def _fits_slots(melds: list[MeldIds], ranges: list[tuple[int, int | None]]) -> bool:
    """Can each meld fill one slot (min..max cards), one meld per slot?"""
    if len(melds) != len(ranges):
        return False
    for order in itertools.permutations(ranges):
        if all(low <= len(m) and (high is None or len(m) <= high) for m, (low, high) in zip(melds, order, strict=True)):
            return True
    return False


def _choose(
    candidates: list[MeldIds], how_many: int, first: int, counts: Counter[int]
) -> Iterator[tuple[list[MeldIds], Counter[int]]]:
    """Every way to pick ``how_many`` candidates (from index ``first`` on, repeats allowed,
    in index order so each multiset of melds comes once) that the cards in ``counts`` can
    all supply together. Yields the picked melds and the cards left over."""
    if how_many == 0:
        yield [], counts
        return
    for index in range(first, len(candidates)):
        meld = candidates[index]
        if _fits(meld, counts):
            rest = counts - Counter(meld)
            for more, left in _choose(candidates, how_many - 1, index, rest):
                yield [meld, *more], left


def _go_downs(hand: list[int], contract: Mapping[str, Any], rules: Rules) -> Iterator[GoDown]:
    """Every distinct go-down of ``contract`` in ``hand`` (L-4.6, L-8, C-8), in joker form
    (wild cards read as 52), in no particular order.

    Candidates of each kind are the melds of the widest length range of that kind's
    slots; a choice of melds counts when they can fill the slots one by one.
    """
    ranges = meld_ranges(contract, rules)
    set_slots = [(low, high) for kind, low, high in ranges if kind == "set"]
    run_slots = [(low, high) for kind, low, high in ranges if kind == "run"]

    def widest(slots: list[tuple[int, int | None]]) -> tuple[int, int | None]:
        if not slots:
            return 99, 0
        highs = [h for _, h in slots]
        return min(low for low, _ in slots), None if None in highs else max(h for h in highs if h is not None)

    counts = Counter(_joker_form(hand, rules))
    sets = _candidate_sets(counts, rules, *widest(set_slots)) if set_slots else []
    runs = _candidate_runs(counts, rules, *widest(run_slots)) if run_slots else []
    if contract["whole_hand"]:
        choices = _partitions(counts, sets, runs, len(set_slots), len(run_slots))
    else:
        choices = (
            (chosen_sets, chosen_runs, left)
            for chosen_sets, after_sets in _choose(sets, len(set_slots), 0, counts)
            for chosen_runs, left in _choose(runs, len(run_slots), 0, after_sets)
        )
    for chosen_sets, chosen_runs, left_counts in choices:
        if not (_fits_slots(chosen_sets, set_slots) and _fits_slots(chosen_runs, run_slots)):
            continue
        if rules["same_suit_runs_need_gap"] and any(
            runs_touch(a, b) for a, b in itertools.combinations(chosen_runs, 2)
        ):
            continue  # L-4.4
        left = sorted(left_counts.elements())
        yield sorted(chosen_sets) + sorted(chosen_runs), left, points_of(left, rules)


def _partitions(
    counts: Counter[int], sets: list[MeldIds], runs: list[MeldIds], sets_wanted: int, runs_wanted: int
) -> Iterator[tuple[list[MeldIds], list[MeldIds], Counter[int]]]:
    """Every way to split all the cards in ``counts`` into exactly these melds (L-8.1).

    The smallest card left must belong to one of the melds, so only melds whose
    smallest card it is are tried; a split found twice (through equal cards) is
    reported once.
    """
    found = set()
    melds_from = _melds_by_smallest_card(sets, runs)

    def split(left: Counter[int], chosen_sets: tuple[MeldIds, ...], chosen_runs: tuple[MeldIds, ...]) -> None:
        cards_left = left.total()
        melds_left = sets_wanted + runs_wanted - len(chosen_sets) - len(chosen_runs)
        if cards_left == 0 or melds_left == 0:
            if cards_left == 0 and melds_left == 0:
                found.add((tuple(sorted(chosen_sets)), tuple(sorted(chosen_runs))))
            return
        smallest = min(left.elements())
        for meld, is_a_set in melds_from[smallest]:
            if (
                is_a_set
                and len(chosen_sets) == sets_wanted
                or not is_a_set
                and len(chosen_runs) == runs_wanted
            ):
                continue
            if melds_left == 1 and len(meld) != cards_left:
                continue  # the last meld must take every card left
            if _fits(meld, left):
                if is_a_set:
                    split(left - Counter(meld), (*chosen_sets, meld), chosen_runs)
                else:
                    split(left - Counter(meld), chosen_sets, (*chosen_runs, meld))

    split(counts, (), ())
    for chosen_sets, chosen_runs in sorted(found):
        yield list(chosen_sets), list(chosen_runs), Counter()


def _melds_by_smallest_card(
    sets: list[MeldIds], runs: list[MeldIds]
) -> dict[int, list[tuple[MeldIds, bool]]]:
    """Candidate melds (each with ``True`` for a set) listed under their smallest card id.

    When every card below ``c`` is already placed, a meld that takes ``c`` has ``c``
    as its smallest card: these lists are exactly the melds worth trying.
    """
    by_card: dict[int, list[tuple[MeldIds, bool]]] = {card: [] for card in range(JOKER + 1)}
    for meld in sets:
        by_card[min(meld)].append((meld, True))
    for meld in runs:
        by_card[min(meld)].append((meld, False))
    return by_card


def _go_down_order(go_down: GoDown) -> tuple[int, list[int], list[MeldIds]]:
    """Fewest points left, then the smallest left cards, then the smallest melds."""
    melds, left, points = go_down
    return points, left, melds


def _ordered_go_downs(hand: list[int], contract: Mapping[str, Any], rules: Rules) -> list[GoDown]:
    """Every distinct go-down, best first, with the wild cards named."""
    ordered = sorted(set(_hashable(g) for g in _go_downs(hand, contract, rules)), key=_go_down_order)
    named = []
    for melds, _, _ in ordered:
        named_melds, left = _name_wilds(list(melds), hand, rules)
        named.append((named_melds, left, points_of(left, rules)))
    return named


def _hashable(go_down: GoDown) -> Any:
    melds, left, points = go_down
    return tuple(melds), tuple(left), points


def is_go_down(
    melds: Iterable[Iterable[CardLike] | str],
    round: int,
    rules: Rules,
    hand: Iterable[CardLike] | str | None = None,
) -> bool:
    """Are these card groups a legal go-down of the round's contract (L-4, L-4.6, L-8, C-8)?

    Each group must read as a set or a run (runs listed low to high), the kinds must
    be the contract's and each group must fill one of the contract's melds of its
    kind (its length within that meld's range), and same-suit runs must not touch
    (L-4.4, when the profile has it). With ``hand``, the melds must come from it
    and, in a whole-hand round, use all of it (L-8.1).
    """
    groups = [tuple(parse_cards(m)) for m in melds]
    contract = contract_for(round, rules)
    ranges = meld_ranges(contract, rules)
    set_slots = [(low, high) for kind, low, high in ranges if kind == "set"]
    run_slots = [(low, high) for kind, low, high in ranges if kind == "run"]
    run_floor = rules["whole_hand_run_min"] if contract["whole_hand"] else rules["run_size_min"]
    if hand is not None:
        held, used = Counter(parse_cards(hand)), Counter(c for g in groups for c in g)
        if used - held or (contract["whole_hand"] and held != used):
            return False

    def readings(group: MeldIds) -> list[str]:
        kinds = []
        if is_set(group, rules):
            kinds.append("set")
        if run_start(group, rules, min_length=run_floor) is not None:
            kinds.append("run")
        return kinds

    # A group such as 5♥ JK JK JK reads both ways: try every choice of readings.
    for kinds in itertools.product(*(readings(g) for g in groups)):
        sets = [g for g, kind in zip(groups, kinds, strict=True) if kind == "set"]
        runs = [g for g, kind in zip(groups, kinds, strict=True) if kind == "run"]
        if not (_fits_slots(sets, set_slots) and _fits_slots(runs, run_slots)):
            continue
        if rules["same_suit_runs_need_gap"] and any(
            _runs_touch_any(a, b, rules) for a, b in itertools.combinations(runs, 2)
        ):
            continue
        return True
    return False


def _runs_touch_any(first: MeldIds, second: MeldIds, rules: Rules) -> bool:
    """:func:`runs_touch` for runs that may hold wild cards of any id."""
    to_jokers = tuple(JOKER if is_wild(c, rules) else c for c in first)
    other = tuple(JOKER if is_wild(c, rules) else c for c in second)
    return runs_touch(to_jokers, other)


def has_contract(hand: Iterable[CardLike] | str, round: int, rules: Rules) -> bool:
    """Does the hand hold the round's contract (L-3, L-4, L-8, C-8)?

    >>> rules = {"contracts": [{"sets": 2, "runs": 0}], "set_size_min": 3, "set_size_max": 3,
    ...          "run_size_min": 4, "run_size_max": 4, "min_naturals_set": 1,
    ...          "min_naturals_run": 1, "same_suit_runs_need_gap": True,
    ...          "points": [15, 15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]}
    >>> has_contract("7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣", 1, rules), has_contract("7♠ 7♥ 9♠ 9♥", 1, rules)
    (True, False)
    """
    ids, contract = _ids_and_contract(hand, round, rules)
    return next(_go_downs(ids, contract, rules), None) is not None


def best_go_down(hand: Iterable[CardLike] | str, round: int, rules: Rules) -> GoDown | None:
    """The go-down leaving the fewest points (L-10.1), or ``None`` without the contract.

    Ties go to the smallest sorted list of cards left, then the smallest melds list
    (both in joker form when the rules have a wild rank).
    """
    ids, contract = _ids_and_contract(hand, round, rules)
    ordered = _ordered_go_downs(ids, contract, rules)
    return ordered[0] if ordered else None


def all_go_downs(
    hand: Iterable[CardLike] | str, round: int, rules: Rules, limit: int | None = None
) -> list[GoDown]:
    """Every distinct go-down, best first (the order of :func:`best_go_down`), at most ``limit``."""
    ids, contract = _ids_and_contract(hand, round, rules)
    ordered = _ordered_go_downs(ids, contract, rules)
    return ordered if limit is None else ordered[:limit]


def outs(
    hand: Iterable[CardLike] | str,
    round: int,
    rules: Rules,
    seen: Iterable[CardLike] = (),
    players: int = 4,
) -> list[tuple[int, int]]:
    """The cards that would complete the contract: ``[(card id, copies unseen), ...]``.

    A card counts when adding one copy of it gives the contract; ``unseen`` is the
    deck's copies (L-1.2) minus those in the hand and in ``seen``, never below 0.
    In rounds 1-6 a hand that already holds the contract has no outs; in a
    whole-hand round (L-8) the outs are the cards that keep a whole-hand go-down.
    """
    ids, contract = _ids_and_contract(hand, round, rules)
    if not contract["whole_hand"] and has_contract(ids, round, rules):
        return []
    held, seen_counts = Counter(ids), Counter(parse_cards(seen))
    deck_has_jokers = deck_copies(JOKER, rules, players) > 0
    result = []
    for card in range(JOKER + 1):
        if card == JOKER and not deck_has_jokers:
            continue
        if has_contract([*ids, card], round, rules):
            unseen = deck_copies(card, rules, players) - held[card] - seen_counts[card]
            result.append((card, max(0, unseen)))
    return result


# --------------------------------------------------------------------------- best arrangement


def best_arrangement(hand: Iterable[CardLike] | str, rules: Rules) -> tuple[list[MeldIds], list[int], int]:
    """Disjoint legal melds that leave the fewest points of deadwood: ``(melds, deadwood, points)``.

    Any number of sets (at least ``set_size_min`` cards) and runs (at least
    ``run_size_min``), of any length; the minimum-naturals rules apply, L-4.4 does
    not. Ties: the smallest sorted deadwood, then the fewest melds, then the
    smallest melds list (sets first, then runs).

    How: take the smallest card left; either it is deadwood or it is the smallest
    card of one of the melds. Trying both, for the cards that remain, gives
    every arrangement; remembering the best answer for each set of remaining
    cards keeps that fast. Because the melds list puts sets first, the best is
    kept separately for each number of sets, so that answers compose exactly.
    """
    held = sorted(parse_cards(hand))
    hand_ids = tuple(_joker_form(held, rules))
    counts = Counter(hand_ids)
    sets = _candidate_sets(counts, rules, rules["set_size_min"], None)
    runs = _candidate_runs(counts, rules, rules["run_size_min"], None)
    melds_from = _melds_by_smallest_card(sets, runs)

    Arrangement = tuple[int, tuple[int, ...], tuple[MeldIds, ...], tuple[MeldIds, ...]]

    def order(a: Arrangement) -> tuple[Any, ...]:
        points, deadwood, set_melds, run_melds = a
        return points, deadwood, len(set_melds) + len(run_melds), set_melds + run_melds

    @functools.cache
    def best(remaining: tuple[int, ...], sets_wanted: int) -> Arrangement | None:
        """The best arrangement of ``remaining`` (sorted ids) with exactly ``sets_wanted`` sets."""
        if sets_wanted < 0:
            return None
        if not remaining:
            return (0, (), (), ()) if sets_wanted == 0 else None
        smallest, rest = remaining[0], Counter(remaining[1:])
        options: list[Arrangement] = []
        as_deadwood = best(remaining[1:], sets_wanted)
        if as_deadwood is not None:
            points, deadwood, set_melds, run_melds = as_deadwood
            options.append(
                (points + card_points(smallest, rules), (smallest, *deadwood), set_melds, run_melds)
            )
        for meld, is_a_set in melds_from[smallest]:
            others = list(meld)
            others.remove(smallest)
            if not _fits(tuple(others), rest):
                continue
            after = tuple(sorted((rest - Counter(others)).elements()))
            sub = best(after, sets_wanted - 1 if is_a_set else sets_wanted)
            if sub is None:
                continue
            points, deadwood, set_melds, run_melds = sub
            if is_a_set:
                set_melds = tuple(sorted((*set_melds, meld)))
            else:
                run_melds = tuple(sorted((*run_melds, meld)))
            options.append((points, deadwood, set_melds, run_melds))
        return min(options, key=order, default=None)

    most_sets = len(hand_ids) // rules["set_size_min"]
    answers = [a for k in range(most_sets + 1) if (a := best(hand_ids, k)) is not None]
    points, deadwood, set_melds, run_melds = min(answers, key=order)
    named, left = _name_wilds([*set_melds, *run_melds], held, rules)
    return named, left, points
