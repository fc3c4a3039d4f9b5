"""The rules tour: one hands-on control per rule of profile L, each answered by the engine.

Every builder returns a :class:`types.SimpleNamespace` with ``box`` (display it) and its
controls, so a test can set values, click, and read ``result.value`` (HTML). No rule is
re-coded here: each answer comes from the engine (``RuleSet``, ``deal``, ``Meld``,
``check_go_down``, the contract search, ``GameState.from_position`` with ``check``/``can``/
``apply``/``legal_actions``). Refusals show the engine's code, rule id and message. Every
label and sentence comes from the ``tour`` catalogue (:func:`liverpool.i18n.text`).

Builders (rule taught → root class):

=============================  ==========  ==================================
builder                        rule        root box classes
=============================  ==========  ==================================
``deck_explorer()``            L-1         ``lp-tour lp-tour-deck-explorer``
``cut_explorer()``             L-2         ``lp-tour lp-tour-cut-explorer``
``contract_ladder()``          L-3         ``lp-tour lp-tour-contract-ladder``
``meld_checker()``             L-4         ``lp-tour lp-tour-meld-checker``
``ace_explorer()``             L-4.3       ``lp-tour lp-tour-ace-explorer``
``same_suit_runs_playground()`` L-4.4      ``lp-tour lp-tour-same-suit-runs``
``joker_lab()``                L-4.5, L-7  ``lp-tour lp-tour-joker-lab``
``lay_off_lab()``              L-5.3       ``lp-tour lp-tour-lay-off-lab``
``keep_a_card_demo()``         L-5.5       ``lp-tour lp-tour-keep-a-card``
``buying_table()``             L-6         ``lp-tour lp-tour-buying-table``
``round7_builder()``           L-8         ``lp-tour lp-tour-round7-builder``
``recycling_demo()``           L-9         ``lp-tour lp-tour-recycling``
``scoring_calculator()``       L-10        ``lp-tour lp-tour-scoring``
``go_down_explorer()``         L-3, L-5.2  ``lp-tour lp-tour-go-down-explorer``
=============================  ==========  ==================================

DOM hooks for the browser test: the root box has ``lp-tour`` and ``lp-tour-<name>``;
the main buttons have ``lp-try`` (where a builder has no button, its main control: the
deck explorer's slider, the contract ladder's round picker; the buying table's also ``lp-buy``/``lp-pass``, its
reset ``lp-reset``); the answer area has ``lp-result``; card-picker toggles ``lp-pick``.
``go_down_explorer`` lives in :mod:`liverpool.teach.widgets.explorer` and is re-exported here.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

import liverpool
from liverpool import Action, Card, GameState, LiverpoolError, Meld, RuleSet
from liverpool.i18n import meld_label, text
from liverpool.teach.widgets.explorer import go_down_explorer
from liverpool.teach.widgets.tourkit import (
    card_picker,
    OPEN,
    cards_html,
    contract_words,
    line,
    meld_html,
    note_html,
    ok_html,
    refusal_html,
    result_area,
    root_box,
    t,
    try_button,
)

__all__ = [
    "deck_explorer",
    "cut_explorer",
    "contract_ladder",
    "meld_checker",
    "ace_explorer",
    "same_suit_runs_playground",
    "joker_lab",
    "lay_off_lab",
    "keep_a_card_demo",
    "buying_table",
    "round7_builder",
    "recycling_demo",
    "scoring_calculator",
    "go_down_explorer",
    "contract_words",
]

# Labels in full: ipywidgets cuts a description at ~90px ("Combinac…") unless told otherwise.
_WIDE = {"description_width": "initial"}

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _e(value: object) -> str:
    return html.escape(str(value))


def seat_words(seat: int) -> str:
    """Seat index ``seat`` as people count seats, from 1: ``seat_words(1)`` is "seat 2" in
    the current language (plain text; the API keeps its indices from 0)."""
    return text("common", "seat", seat=seat)  # an API index: i18n.text shows it from 1


def _seat(seat: int) -> str:
    return _e(seat_words(seat))


def _position(
    *,
    round: int,
    hands: Sequence[Iterable[Card | str]],
    phase: str = "play",
    active: int = 0,
    dealer: int = 3,
    stock: Iterable[Card | str] = (),
    discard: Iterable[Card | str] = (),
    table: Sequence[tuple[int, Iterable[Card | str]]] = (),
    down: Sequence[bool] | None = None,
    totals: Sequence[int] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position in the CONFORMANCE.md format (cards as strings)."""
    players = len(hands)
    return {
        "profile": "liverpool",
        "players": players,
        "round": round,
        "dealer": dealer,
        "active": active,
        "phase": phase,
        "hands": [[str(c) for c in hand] for hand in hands],
        "stock": [str(c) for c in stock],
        "discard": [str(c) for c in discard],
        "table": [{"owner": owner, "cards": [str(c) for c in cards]} for owner, cards in table],
        "down": list(down) if down is not None else [False] * players,
        "totals": list(totals) if totals is not None else [0] * players,
        **extra,
    }


def _meld_number(index: int) -> str:
    """A table meld's index as the board writes it, from 1 ("#1", "nº 1", "n.º 1")."""
    return meld_label(index)


def _table_html(state: GameState) -> str:
    rows = [f"{OPEN}{_e(_meld_number(index))} · {_seat(tm.owner)} · {meld_html(tm.meld)}</div>" for index, tm in enumerate(state.table)]
    return "".join(rows) or note_html(_e(t("table_empty")))


# ---------------------------------------------------------------- L-1 deck


def deck_explorer(players: int = 4, rules: RuleSet | None = None) -> SimpleNamespace:
    """L-1: players → deck size, jokers, copies of each card and cards per rank (from ``new_deck``)."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    slider = widgets.IntSlider(value=players, min=2, max=8, description=t("players"), style=_WIDE)
    slider.add_class("lp-try")  # the main control: there is no button
    result = result_area()

    def show(_: Any = None) -> None:
        try:
            deck = liverpool.new_deck(rules, slider.value)
            size = rules.deck_size(slider.value)
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        # What the player count changes: ask the engine to deal round 1 from this deck.
        first_deal = liverpool.deal(deck, 1, 0, 1, rules, slider.value)
        hand = len(first_deal.hands[0])
        jokers = [c for c in deck if c.is_joker]
        copies = Counter(str(c) for c in deck if not c.is_joker)
        per_rank = Counter(c.rank for c in deck if not c.is_joker)
        ranks = " · ".join(f"{_RANK_NAMES.get(rank, str(rank))}: {count}" for rank, count in sorted(per_rank.items()))
        result.value = (
            f"<div><b>{_e(t('deck_size', n=size))}</b></div>"
            f"{OPEN}{_e(t('jokers', n=len(jokers)))} {cards_html(jokers)}</div>"
            f"{OPEN}{_e(t('copies_each', n=max(copies.values())))}</div>"
            f"{OPEN}{_e(t('cards_per_rank'))} {ranks}</div>"
            f"{OPEN}{_e(t('deck_deal', players=slider.value, hand=hand, dealt=hand * slider.value, stock=len(first_deal.stock)))}</div>"
        )

    slider.observe(show, names="value")
    show()
    box = root_box("deck-explorer", [slider, result])
    return SimpleNamespace(box=box, players=slider, result=result, rules=rules)


# ---------------------------------------------------------------- L-2 cut and deal


def _exact_cut_summary(rules: RuleSet) -> str:
    """ "rounds 1–3: 41 · rounds 4–7: 49", grouping rounds with the same exact cut."""
    groups: list[tuple[int, int, int]] = []
    for round in range(1, rules.rounds + 1):
        size = rules.exact_cut(round)
        if groups and groups[-1][2] == size:
            groups[-1] = (groups[-1][0], round, size)
        else:
            groups.append((round, round, size))
    return " · ".join(
        t("rounds_exact", first=first, last=last, n=size) if first != last else t("round_exact", round=first, n=size)
        for first, last, size in groups
    )


def cut_explorer(
    round: int = 1, cut: int | None = None, seed: int = 7, rules: RuleSet | None = None
) -> SimpleNamespace:
    """L-2: a round and a cut size → the deal, the up-card, who starts and whether the cut earns the bonus."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    players = rules.default_players
    deck = liverpool.shuffled_deck(seed, rules)
    dealer = 0
    round_picker = widgets.Dropdown(
        options=[(str(r), r) for r in range(1, rules.rounds + 1)], value=round, description=t("round"), style=_WIDE
    )
    slider = widgets.IntSlider(
        value=cut if cut is not None else rules.exact_cut(round),
        min=1,
        max=rules.deck_size(players) - 1,
        description=t("cut_size"), style=_WIDE,
    )
    exact_button = try_button(t("exact_cut_button"), style="")
    result = result_area()

    def show(_: Any = None) -> None:
        r = round_picker.value
        try:
            dealt = liverpool.deal(deck, r, dealer, slider.value, rules)
            state = GameState.from_position(
                _position(
                    round=r, hands=[[]] * players, phase="cut", dealer=dealer, active=(dealer + 1) % players, stock=deck
                ),
                rules,
            )
            state.apply(state.cutter, Action.cut(slider.value))
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        exact = rules.exact_cut(r)
        if dealt.cut_bonus:
            verdict = ok_html(_e(t("cut_bonus_yes", seat=seat_words(dealt.cutter), bonus=rules.cut_bonus)))
        else:
            verdict = note_html(_e(t("cut_bonus_no", n=dealt.cut, exact=exact)))
        hands = "".join(f"{OPEN}{_seat(seat)}: {cards_html(hand)}</div>" for seat, hand in enumerate(dealt.hands))
        result.value = (
            f"{OPEN}{_e(t('dealer_cutter', dealer=seat_words(dealer), cutter=seat_words(dealt.cutter)))}</div>"
            f"{verdict}"
            f"{OPEN}{_e(t('exact_sizes'))} {_e(_exact_cut_summary(rules))}</div>"
            f"{hands}"
            f"{OPEN}{_e(t('up_card'))} {cards_html([dealt.up_card])} · {_e(t('stock_left', n=len(dealt.stock)))}</div>"
            f"<div><b>{_e(t('starts', seat=seat_words(state.active)))}</b></div>"
        )

    def to_exact(_: Any = None) -> None:
        slider.value = rules.exact_cut(round_picker.value)

    round_picker.observe(show, names="value")
    slider.observe(show, names="value")
    exact_button.on_click(to_exact)
    show()
    box = root_box("cut-explorer", [widgets.HBox([round_picker, slider, exact_button]), result])
    return SimpleNamespace(box=box, round=round_picker, cut=slider, button=exact_button, result=result, rules=rules)


# ---------------------------------------------------------------- L-3 contracts

#: One dealt hand per round that holds its contract (checked by the engine when shown).
SAMPLE_HANDS: dict[int, str] = {
    1: "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦",
    2: "Q♠ Q♥ Q♦ 5♥ 6♥ 7♥ 8♥ 2♣ 9♠ K♦",
    3: "3♠ 4♠ 5♠ 6♠ 8♦ 9♦ 10♦ J♦ 2♥ K♣",
    4: "4♠ 4♥ 4♦ 8♣ 8♠ 8♥ K♦ K♣ K♠ 2♥ 6♦ 10♠",
    5: "5♠ 5♥ 5♦ J♣ J♠ J♥ 2♦ 3♦ 4♦ JK 7♠ Q♥",
    6: "A♥ A♠ A♣ 6♣ 7♣ 8♣ 9♣ 10♥ J♥ Q♥ K♥ 3♦",
    7: "2♠ 3♠ 4♠ 5♠ 7♥ 8♥ 9♥ 10♥ J♦ Q♦ K♦ A♦",
}


def contract_ladder(rules: RuleSet | None = None) -> SimpleNamespace:
    """L-3: the seven contracts in words, with a sample hand per round and the engine's go-down of it."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    picker = widgets.Dropdown(
        options=[(f"{r}: {contract_words(rules, r)}", r) for r in range(1, rules.rounds + 1)],
        value=1,
        description=t("round"), style=_WIDE,
    )
    picker.add_class("lp-try")  # the main control: there is no button
    ladder = widgets.HTML()
    result = result_area()
    header = "".join(
        f"<th style='text-align:left;padding:2px 8px'>{_e(t(k))}</th>" for k in ("round", "deal", "contract")
    )
    ladder.value = (
        f"<table><tr>{header}</tr>"
        + "".join(
            f"<tr><td style='padding:2px 8px'>{r}</td><td style='padding:2px 8px'>{rules.deal_sizes[r - 1]}</td>"
            f"<td style='padding:2px 8px'>{_e(contract_words(rules, r))}</td></tr>"
            for r in range(1, rules.rounds + 1)
        )
        + "</table>"
    )

    def show(_: Any = None) -> None:
        r = picker.value
        hand = liverpool.parse_cards(SAMPLE_HANDS.get(r, ""))
        best = liverpool.best_go_down(hand, r, rules)
        if best is None:
            result.value = note_html(_e(t("no_go_down")))
            return
        melds = "".join(f"{OPEN}{meld_html(m)}</div>" for m in best.melds)
        result.value = (
            f"{OPEN}{_e(t('sample_hand'))} {cards_html(hand)}</div>"
            f"{ok_html(_e(t('holds_contract', contract=contract_words(rules, r))))}{melds}"
        )

    picker.observe(show, names="value")
    show()
    box = root_box("contract-ladder", [ladder, picker, result])
    return SimpleNamespace(box=box, round=picker, ladder=ladder, result=result, rules=rules)


# ---------------------------------------------------------------- L-4 melds


def _jokers_html(meld: Meld) -> str:
    """What a set's jokers stand for (a run's are shown under its cards by ``meld_html``)."""
    if meld.kind != "set" or not any(card.is_joker for card in meld.cards):
        return ""
    rank = _RANK_NAMES.get(meld.rank or 0, str(meld.rank))
    return note_html(_e(t("joker_in_set", rank=rank)))


def meld_checker(cards: Iterable[Card | str] = ("7♠", "7♥", "JK"), rules: RuleSet | None = None) -> SimpleNamespace:
    """L-4: pick cards, choose set / run / auto → a valid meld, or the engine's refusal with its rule id."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    picker = card_picker(cards)
    kind = widgets.ToggleButtons(
        options=[(t("auto"), "auto"), (t("kind_set"), "set"), (t("kind_run"), "run")], value="auto"
    )
    button = try_button(t("check"))
    clear = widgets.Button(description=t("clear"))
    picked = widgets.HTML()
    result = result_area()

    def check(_: Any = None) -> None:
        chosen = picker.selected()
        picked.value = note_html(f"{_e(t('picked'))} {cards_html(chosen)}")
        if not chosen:
            result.value = note_html(_e(t("pick_cards")))
            return
        build = {"auto": Meld.parse, "set": Meld.set, "run": Meld.run}[kind.value]
        try:
            meld = build(chosen, rules)
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        result.value = ok_html(_e(t("valid_meld"))) + f"{OPEN}{meld_html(meld)}</div>" + _jokers_html(meld)

    button.on_click(check)
    clear.on_click(lambda _: picker.clear())
    picker.on_change(check)
    kind.observe(check, names="value")
    check()
    box = root_box("meld-checker", [picker.box, widgets.HBox([kind, button, clear]), picked, result])
    return SimpleNamespace(box=box, picker=picker, kind=kind, button=button, clear=clear, result=result, rules=rules)


ACE_EXAMPLES: dict[str, tuple[str, ...]] = {
    "low": ("A", "2", "3", "4"),
    "high": ("J", "Q", "K", "A"),
    "full": ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"),
    "wrap": ("K", "A", "2", "3"),
}


def ace_explorer(example: str = "low", suit: str = "♥", rules: RuleSet | None = None) -> SimpleNamespace:
    """L-4.3: ace low (A 2 3 4), ace high (J Q K A), the full run A..K..A, and the refused wrap K A 2 3."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    picker = widgets.ToggleButtons(options=[(t(f"ace_{name}"), name) for name in ACE_EXAMPLES], value=example)
    suit_picker = widgets.Dropdown(options=["♠", "♥", "♦", "♣"], value=suit, description=t("suit"), style=_WIDE)
    button = try_button(t("check"))
    result = result_area()

    def check(_: Any = None) -> None:
        cards = [Card(rank + suit_picker.value) for rank in ACE_EXAMPLES[picker.value]]
        try:
            meld = Meld.run(cards, rules)
        except LiverpoolError as error:
            result.value = f"{OPEN}{cards_html(cards)}</div>" + refusal_html(error)
            return
        span = meld.span or (0, 0)
        result.value = (
            ok_html(_e(t("valid_meld")))
            + f"{OPEN}{meld_html(meld)}</div>"
            + note_html(_e(t("positions", low=span[0], high=span[1])))
        )

    button.on_click(check)
    picker.observe(check, names="value")
    suit_picker.observe(check, names="value")
    check()
    box = root_box("ace-explorer", [widgets.HBox([picker, suit_picker, button]), result])
    return SimpleNamespace(box=box, example=picker, suit=suit_picker, button=button, result=result, rules=rules)


def _run_from(start: int, suit: str, length: int = 4) -> list[Card]:
    """The run of ``length`` cards from rank position ``start`` (1 = ace low … 14 = ace high)."""
    return [Card(_RANK_NAMES.get(p, str(p)) + suit) for p in range(start, start + length)]


def same_suit_runs_playground(
    first: int = 3, second: int = 7, suit: str = "♥", rules: RuleSet | None = None
) -> SimpleNamespace:
    """L-4.4: two same-suit runs moved by two sliders → the engine's round-3 go-down check
    (adjacent: ``adjacent_runs``; overlapping or apart: accepted)."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    first_slider = widgets.IntSlider(value=first, min=1, max=11, description=t("first_run"), style=_WIDE)
    second_slider = widgets.IntSlider(value=second, min=1, max=11, description=t("second_run"), style=_WIDE)
    button = try_button(t("check"))
    strip = widgets.HTML()
    result = result_area()

    def check(_: Any = None) -> None:
        runs = [_run_from(first_slider.value, suit), _run_from(second_slider.value, suit)]
        cells = []
        for position in range(1, 15):
            marks = sum(start <= position < start + 4 for start in (first_slider.value, second_slider.value))
            shade = ("#fff", "#d6eaf8", "#85c1e9")[marks]
            cells.append(
                f"<td style='border:1px solid #aaa;padding:2px 5px;background:{shade}'>"
                f"{_RANK_NAMES.get(position, str(position))}</td>"
            )
        strip.value = f"<table style='border-collapse:collapse'><tr>{''.join(cells)}</tr></table>"
        shown = "".join(f"{OPEN}{cards_html(run)}</div>" for run in runs)
        try:
            liverpool.check_go_down(runs, 3, rules)
        except LiverpoolError as error:
            result.value = shown + refusal_html(error)
            return
        result.value = shown + ok_html(_e(t("runs_accepted")))

    button.on_click(check)
    first_slider.observe(check, names="value")
    second_slider.observe(check, names="value")
    check()
    box = root_box("same-suit-runs", [first_slider, second_slider, button, strip, result])
    return SimpleNamespace(box=box, first=first_slider, second=second_slider, button=button, result=result, rules=rules)


# ---------------------------------------------------------------- L-4.5 / L-7 jokers

#: The other melds on the joker lab's table: a set (seat 2) and a run (seat 0).
_JOKER_EXAMPLES = ("5♥ JK 7♥ 8♥", "JK 5♥ 6♥ 7♥", "Q♠ Q♥ JK")
_JOKER_TABLE: tuple[tuple[int, str], ...] = ((2, "K♠ K♥ K♦"), (0, "9♣ 10♣ J♣ Q♣"))


def joker_lab(meld: str = "5♥ JK 7♥ 8♥", rules: RuleSet | None = None) -> SimpleNamespace:
    """L-4.5 / L-7: a meld with a joker → what the joker stands for; a set's joker is locked; a run's
    joker is freed by the exact card, and the engine says where the freed joker may go."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    meld_text = widgets.Text(
        value=meld,
        description=t("meld"),
        style=_WIDE,
        continuous_update=False,  # answer when the learner presses Enter or leaves the field
        layout=widgets.Layout(width="100%", max_width="24em"),
    )
    examples = widgets.Dropdown(
        # A placeholder first, so the list never starts blank; the meld shown, if it is one of them.
        options=[(t("pick_example"), ""), *((e, e) for e in _JOKER_EXAMPLES)],
        value=meld if meld in _JOKER_EXAMPLES else "",
        description=t("examples"), style=_WIDE,
    )
    button = try_button(t("check"))
    result = result_area()

    def check(_: Any = None) -> None:
        try:
            parsed = Meld.parse(meld_text.value, rules)
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        parts = [f"{OPEN}{meld_html(parsed)}</div>", _jokers_html(parsed)]
        jokers = [i for i, c in enumerate(parsed.cards) if c.is_joker]
        if not jokers:
            parts.append(note_html(_e(t("no_joker"))))
        elif parsed.kind == "set":
            natural = next(c for c in parsed.cards if not c.is_joker)
            try:
                parsed.swap_joker(natural)
            except LiverpoolError as error:
                parts.append(note_html(_e(t("set_joker_locked"))) + refusal_html(error))
        else:
            # Every joker of the run, each with the card that frees it (L-7.1).
            for number, joker in enumerate(jokers, start=1):
                if len(jokers) > 1:
                    freeing = parsed.joker_stands_for(joker)
                    shown = cards_html([freeing]) if freeing is not None else ""
                    parts.append(f"<div><b>{line(_e(t('joker_number', n=number)), shown)}</b></div>")
                parts.append(_swap_html(parsed, joker, rules))
        result.value = "".join(parts)

    def use_example(change: dict[str, Any]) -> None:
        if change["new"]:
            meld_text.value = change["new"]  # answers through `typed` below

    def typed(change: dict[str, Any]) -> None:
        # A meld typed by hand is no longer the example: the list goes back to its
        # placeholder, so picking that example again works and shows it again.
        if examples.value and change["new"] != examples.value:
            examples.value = ""
        check()

    button.on_click(check)
    examples.observe(use_example, names="value")
    meld_text.observe(typed, names="value")
    check()
    box = root_box("joker-lab", [widgets.HBox([meld_text, button]), examples, result])
    return SimpleNamespace(box=box, meld=meld_text, examples=examples, button=button, result=result, rules=rules)


def _swap_html(run: Meld, joker: int, rules: RuleSet) -> str:
    """The run swap: the card that frees the joker, the run after it, and for every table meld
    the engine's answer to "may the freed joker go there?"."""
    freeing = run.joker_stands_for(joker)
    if freeing is None:
        return ""
    swapped = run.swap_joker(freeing)
    lines = [
        line(_e(t("frees_joker")), cards_html([freeing]), "→", cards_html(swapped.cards, highlight=[freeing]))
    ]
    keep = "2♦" if str(freeing) != "2♦" else "3♦"
    table = [(1, run.cards)] + [(owner, liverpool.parse_cards(cards)) for owner, cards in _JOKER_TABLE]
    try:
        state = GameState.from_position(
            _position(
                round=2,
                hands=[[freeing, keep], ["4♠"], ["5♣"], ["6♦"]],
                stock=["8♠", "8♥"],
                discard=["2♣"],
                table=table,
                down=[True, True, True, False],
            ),
            rules,
        )
    except LiverpoolError as error:
        return "".join(lines) + refusal_html(error)
    lines.append(f"<div><b>{_e(t('where_joker_goes'))}</b></div>")
    for target, tm in enumerate(state.table):
        head = f"{_e(_meld_number(target))} · {_seat(tm.owner)} · {meld_html(tm.meld)}"
        try:
            state.check(0, Action.swap_joker(0, freeing, target))
        except LiverpoolError as error:
            lines.append(f"{OPEN}{head}</div>{refusal_html(error)}")
            continue
        after = state.clone()
        after.apply(0, Action.swap_joker(0, freeing, target))
        lines.append(f"{OPEN}{head}</div>" + ok_html(f"{_e(t('joker_may_go'))} {meld_html(after.table[target].meld)}"))
    return "".join(lines)


# ---------------------------------------------------------------- L-5 a turn

_LAY_OFF_HAND = ("4♥", "9♥", "Q♣", "8♣", "JK", "5♠")
_LAY_OFF_TABLE: tuple[tuple[int, str], ...] = (
    (0, "5♥ 6♥ 7♥ 8♥"),
    (1, "Q♠ Q♥ Q♦"),
    (2, "9♣ 10♣ J♣ Q♣"),
)


def _lay_off_position(down_this_turn: bool) -> dict[str, Any]:
    return _position(
        round=2,
        hands=[_LAY_OFF_HAND, ["2♠", "3♠"], ["2♦"], ["3♦", "4♦"]],
        stock=["K♠", "K♥", "10♦"],
        discard=["6♠"],
        table=[(owner, liverpool.parse_cards(cards)) for owner, cards in _LAY_OFF_TABLE],
        down=[True, True, True, False],
        down_this_turn=down_this_turn,
    )


def lay_off_lab(rules: RuleSet | None = None) -> SimpleNamespace:
    """L-5.3: lay off at either end of a run, on anyone's meld, and the refusal on the go-down turn."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    card = widgets.Dropdown(options=list(_LAY_OFF_HAND), value=_LAY_OFF_HAND[0], description=t("card"), style=_WIDE)
    base = GameState.from_position(_lay_off_position(False), rules)
    target = widgets.Dropdown(
        options=[(f"{_meld_number(i)} · {seat_words(tm.owner)} · {tm.meld}", i) for i, tm in enumerate(base.table)],
        value=0,
        description=t("meld"), style=_WIDE,
    )
    end = widgets.ToggleButtons(options=[(t("auto"), "auto"), (t("end_low"), "low"), (t("end_high"), "high")])
    same_turn = widgets.Checkbox(value=False, description=t("went_down_this_turn"), style=_WIDE)
    button = try_button(t("lay_off"))
    result = result_area()

    def state_now() -> GameState:
        return GameState.from_position(_lay_off_position(same_turn.value), rules)

    def legal_html(state: GameState) -> str:
        moves = [a for a in state.legal_actions(0) if a.name == "lay_off"]
        if not moves:
            return note_html(_e(t("no_lay_off_now")))
        listed = " · ".join(_e(_action_words(a)) for a in moves)
        return note_html(f"{_e(t('legal_lay_offs'))} {listed}")

    def try_it(_: Any = None) -> None:
        state = state_now()
        side = None if end.value == "auto" else end.value
        action = Action.lay_off(target.value, [card.value], side)
        head = f"{OPEN}{_e(t('hand'))} {cards_html(state.hand(0))}</div>{_table_html(state)}"
        try:
            state.check(0, action)
        except LiverpoolError as error:
            result.value = head + refusal_html(error) + legal_html(state)
            return
        state.apply(0, action)
        result.value = (
            head
            + ok_html(_e(t("laid_off", card=card.value, meld=target.value)))
            + _table_html(state)
            + legal_html(state)
        )

    button.on_click(try_it)
    try_it()
    box = root_box("lay-off-lab", [widgets.HBox([card, target]), widgets.HBox([end, same_turn]), button, result])
    return SimpleNamespace(
        box=box, card=card, meld=target, end=end, same_turn=same_turn, button=button, result=result, rules=rules
    )


def keep_a_card_demo(rules: RuleSet | None = None) -> SimpleNamespace:
    """L-5.5: a player who is down holds 4♥ 9♥ beside 5♥–8♥; each lay-off fits, but the second
    would leave no card to discard, so the engine refuses it (``must_keep_discard``)."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    position = _position(
        round=2,
        hands=[["4♥", "9♥"], ["2♠", "3♠"], ["2♦"], ["3♦", "4♦"]],
        stock=["K♠", "K♥"],
        discard=["6♠"],
        table=[(0, liverpool.parse_cards("5♥ 6♥ 7♥ 8♥"))],
        down=[True, False, False, False],
    )
    holder = [GameState.from_position(position, rules)]
    buttons = {name: try_button(t("lay_off_card", card=name)) for name in ("4♥", "9♥")}
    reset = widgets.Button(description=t("reset"))
    reset.add_class("lp-reset")
    result = result_area()

    def show(message: str = "") -> None:
        state = holder[0]
        legal = " · ".join(_e(_action_words(a)) for a in state.legal_actions(0))
        result.value = (
            message
            + f"{OPEN}{_e(t('hand'))} {cards_html(state.hand(0))}</div>"
            + _table_html(state)
            + note_html(f"{_e(t('engine_allows'))} {legal}")
        )

    def lay(name: str) -> None:
        state = holder[0]
        action = Action.lay_off(0, [name])
        try:
            state.apply(0, action)
        except LiverpoolError as error:
            show(refusal_html(error))
            return
        show(ok_html(_e(t("laid_off", card=name, meld=0))))

    for name, button in buttons.items():
        button.on_click(lambda _, n=name: lay(n))

    def restart(_: Any = None) -> None:
        holder[0] = GameState.from_position(position, rules)
        show()

    reset.on_click(restart)
    show()
    box = root_box("keep-a-card", [widgets.HBox([*buttons.values(), reset]), result])
    return SimpleNamespace(box=box, buttons=buttons, reset=reset, result=result, state=lambda: holder[0], rules=rules)


def _action_words(action: Action) -> str:
    """An action in words, for lists of legal moves (never its repr)."""
    if action.name == "discard" and action.card is not None:
        return t("act_discard", card=str(action.card))
    if action.name == "lay_off":
        return t("act_lay_off", cards=" ".join(str(c) for c in action.cards or []), meld=action.meld)
    return t("act_" + action.name)


# ---------------------------------------------------------------- L-6 buying

#: The buying table: seat 0 is to play and will decline the K♣ on the discard pile.
BUYING_POSITION: dict[str, Any] = _position(
    round=2,
    active=0,
    phase="draw",
    hands=[
        ["2♠", "3♠", "4♥", "6♣", "7♣", "8♠", "10♠", "J♦", "Q♥", "A♠"],
        ["2♥", "3♥", "5♠", "6♥", "8♥", "10♦", "J♥", "K♥", "K♦", "A♣"],
        ["2♣", "3♣", "5♥", "6♠", "8♣", "10♣", "J♠", "Q♣", "A♦", "JK"],
        ["4♦", "5♣", "7♥", "9♠", "9♦", "10♥", "J♣", "Q♠", "K♠", "A♥"],
    ],
    stock=["2♦", "3♦", "5♦", "6♦", "7♦"],
    discard=["4♠", "9♥", "K♣"],
)


def buying_table(rules: RuleSet | None = None) -> SimpleNamespace:
    """L-6: the discard is declined; the learner decides for each seat in the engine's priority
    order (buy / pass buttons only for the seat being asked), and sees the penalty card, the
    chain and who gets what."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    players = int(BUYING_POSITION["players"])
    holder: list[GameState] = []
    log: list[str] = []
    rows: dict[int, SimpleNamespace] = {}
    for seat in range(players):
        label = widgets.HTML()
        buy = try_button(t("buy"))
        buy.add_class("lp-buy")
        passing = try_button(t("pass"), style="")
        passing.add_class("lp-pass")
        buy.on_click(lambda _, s=seat: act(s, Action.buy()))
        passing.on_click(lambda _, s=seat: act(s, Action.pass_()))
        rows[seat] = SimpleNamespace(label=label, buy=buy, passing=passing, box=widgets.HBox([label, buy, passing]))
    draw = try_button(t("draw_stock"))
    reset = widgets.Button(description=t("reset"))
    reset.add_class("lp-reset")
    result = result_area()

    def show() -> None:
        state = holder[0]
        asked = state.to_act if state.phase == "buying" else None
        for seat, row in rows.items():
            shown = "" if seat == asked else "none"
            row.buy.layout.display = shown
            row.passing.layout.display = shown
            role = t("active_player") if seat == state.active else ""
            row.label.value = (
                f"<span style='display:inline-block;min-width:16em'>{_seat(seat)} {_e(role)} · "
                f"{_e(t('cards_in_hand', n=state.hand_sizes[seat]))}</span>"
            )
        draw.layout.display = "" if state.phase == "draw" and asked is None and log else "none"
        top = state.discard_top
        stock_top = state.stock[0] if state.stock else None
        status = []
        if state.phase == "buying" and asked is not None and top is not None:
            status.append(line(f"<b>{_e(t('asking', seat=seat_words(asked)))}</b>", cards_html([top])))
            if stock_top is not None:
                status.append(note_html(f"{_e(t('penalty_card'))} {cards_html([stock_top])}"))
        elif state.phase == "draw":
            status.append(note_html(_e(t("chain_over", seat=seat_words(state.active)))))
        else:
            status.append(note_html(_e(t("turn_goes_on", seat=seat_words(state.active)))))
        chain = "".join(f"<li>{line}</li>" for line in log)
        result.value = "".join(status) + (f"<ol>{chain}</ol>" if chain else "")

    def act(seat: int, action: Action) -> None:
        state = holder[0]
        try:
            event = state.apply(seat, action).to_dict()
        except LiverpoolError as error:
            log.append(refusal_html(error))
            show()
            return
        who = seat_words(seat)
        kind = event.get("event")
        if kind == "bought":
            log.append(
                line(
                    _e(t("log_bought", seat=who)),
                    cards_html([event["card"]]),
                    f"+ {_e(t('penalty'))}",
                    cards_html([event["penalty"]]),
                )
            )
        elif kind == "passed":
            log.append(_e(t("log_passed", seat=who)))
        elif kind == "drew_stock" and event.get("card"):
            log.append(line(_e(t("log_drew", seat=who)), cards_html([event["card"]])))
        else:
            log.append(_e(t("log_" + str(kind), seat=who)))
        show()

    def restart(_: Any = None) -> None:
        state = GameState.from_position(BUYING_POSITION, rules)
        log.clear()
        top = state.discard_top
        state.apply(state.active, Action.decline_discard())
        declined = _e(t("log_declined", seat=seat_words(state.active)))
        log.append(line(declined, cards_html([top] if top else [])))
        holder[:] = [state]
        show()

    draw.on_click(lambda _: act(holder[0].active, Action.draw_stock()))
    reset.on_click(restart)
    restart()
    box = root_box("buying-table", [*(row.box for row in rows.values()), widgets.HBox([draw, reset]), result])
    return SimpleNamespace(
        box=box, seats=rows, draw=draw, reset=reset, result=result, state=lambda: holder[0], rules=rules
    )


# ---------------------------------------------------------------- L-8 round 7

_ROUND7_HAND = "2♠ 3♠ 4♠ 5♠ 6♠ 9♥ 10♥ J♥ Q♥ 4♦ 5♦ 6♦ 7♦"


def round7_builder(hand: str = _ROUND7_HAND, rules: RuleSet | None = None) -> SimpleNamespace:
    """L-8: a 12- or 13-card round-7 hand; lay it as three runs (the engine's whole-hand check)
    or ask the engine for every arrangement."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    hand_text = widgets.Text(
        value=hand, description=t("hand"), style=_WIDE, layout=widgets.Layout(width="100%", max_width="36em")
    )
    runs = [
        widgets.Text(
            value=value,
            description=t("run_n", n=i + 1),
            style=_WIDE,
            layout=widgets.Layout(width="100%", max_width="30em"),
        )
        for i, value in enumerate(("2♠ 3♠ 4♠ 5♠ 6♠", "", ""))
    ]
    button = try_button(t("go_down"))
    arrangements = try_button(t("arrangements"), style="info")
    result = result_area()

    def state_for(cards: list[Card]) -> GameState:
        return GameState.from_position(
            _position(round=7, hands=[cards, ["K♣"], ["8♣"], ["3♣"]], stock=["A♣", "2♣"], discard=["9♣"]),
            rules,
        )

    def go_down(_: Any = None) -> None:
        try:
            cards = liverpool.parse_cards(hand_text.value)
            melds = [liverpool.parse_cards(r.value) for r in runs if r.value.strip()]
            state = state_for(cards)
            state.check(0, Action.go_down(melds))
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        event = state.apply(0, Action.go_down(melds)).to_dict()
        scores = (event.get("round_end") or {}).get("scores", [])
        result.value = (
            ok_html(_e(t("round7_out")))
            + "".join(f"{OPEN}{meld_html(tm.meld)}</div>" for tm in state.table)
            + note_html(_e(t("round_scores", scores=", ".join(str(s) for s in scores))))
        )

    def arrange(_: Any = None) -> None:
        try:
            cards = liverpool.parse_cards(hand_text.value)
            found = liverpool.all_go_downs(cards, 7, rules, limit=20)
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        if not found:
            result.value = note_html(_e(t("no_arrangement")))
            return
        blocks = [
            f"<div style='margin-bottom:4px'><b>{i + 1}.</b> " + " ".join(meld_html(m) for m in option.melds) + "</div>"
            for i, option in enumerate(found)
        ]
        # The first way goes into the run fields, so Go down lays exactly what is shown.
        first = [" ".join(str(card) for card in meld.cards) for meld in found[0].melds]
        for field, value in zip(runs, [*first, *([""] * len(runs))], strict=False):
            field.value = value
        result.value = (
            note_html(_e(t("arrangements_count", count=len(found))))
            + "".join(blocks)
            + note_html(_e(t("arrangement_in_fields", button=t("go_down"))))
        )

    button.on_click(go_down)
    arrangements.on_click(arrange)
    go_down()
    box = root_box("round7-builder", [hand_text, *runs, widgets.HBox([button, arrangements]), result])
    return SimpleNamespace(
        box=box, hand=hand_text, runs=runs, button=button, arrangements=arrangements, result=result, rules=rules
    )


# ---------------------------------------------------------------- L-9 stock exhaustion

RECYCLE_POSITION: dict[str, Any] = _position(
    round=1,
    phase="draw",
    hands=[["K♠", "2♦"], ["3♥"], ["4♣"], ["5♠"]],
    discard=["2♣", "5♦", "9♠", "K♥", "7♣"],
    seed=20240601,
)
NO_WINNER_POSITION: dict[str, Any] = _position(
    round=2,
    phase="draw",
    active=1,
    hands=[["A♠", "K♦", "4♥"], ["JK", "2♣"], ["10♥", "J♥", "Q♥"], ["5♦"]],
    discard=["4♠"],
    totals=[10, 20, 30, 40],
)


def _the_draw(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The stock draw among a step's events: a ``drew_stock`` event, or the one a pass
    set off when it closed the buying window (with the round's end, if it ended it)."""
    for event in reversed(events):
        if event.get("event") == "drew_stock":
            return dict(event)
        then: dict[str, Any] | None = event.get("then")
        if then:
            return {**then, "round_end": event.get("round_end")}
    return events[-1]


def recycling_demo(rules: RuleSet | None = None) -> SimpleNamespace:
    """L-9: a draw from the empty stock shuffles the discard pile (but its top) into a new stock;
    with no pile to shuffle the round ends with no winner."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    recycle = try_button(t("draw_empty_stock"))
    no_winner = try_button(t("draw_no_stock"), style="warning")
    result = result_area()

    def piles(state: GameState) -> str:
        # Each text in its own span: adjacent bare text would merge into one flex item, with no gap.
        words = (t("stock_size", n=state.stock_size), "·", t("discard_pile"))
        return line(*(f"<span>{_e(w)}</span>" for w in words), cards_html(state.discard))

    def draw(position: dict[str, Any]) -> None:
        state = GameState.from_position(position, rules)
        seat = state.active
        head = piles(state)
        try:
            # The other seats pass on the top discard first (L-5.1); the draw follows.
            events = [e.to_dict() for e in state.apply_step(seat, Action.draw_stock())]
        except LiverpoolError as error:
            result.value = head + refusal_html(error)
            return
        event = _the_draw(events)
        end = event.get("round_end")
        if end is None:
            result.value = (
                head
                + ok_html(_e(t("recycled", n=event.get("recycled", 0))))
                + f"{OPEN}{_e(t('drew', seat=seat_words(seat)))} {cards_html([event['card']])}</div>"
                + piles(state)
            )
            return
        scores = "".join(
            f"{OPEN}{_seat(s)}: {cards_html(state.hand(s))} = <b>{score}</b></div>"
            for s, score in enumerate(end["scores"])
        )
        result.value = head + note_html(_e(t("no_winner"))) + scores

    recycle.on_click(lambda _: draw(RECYCLE_POSITION))
    no_winner.on_click(lambda _: draw(NO_WINNER_POSITION))
    draw(RECYCLE_POSITION)
    box = root_box("recycling", [widgets.HBox([recycle, no_winner]), result])
    return SimpleNamespace(box=box, recycle=recycle, no_winner=no_winner, result=result, rules=rules)


# ---------------------------------------------------------------- L-10 scoring

#: The last round's winner (seat 0) goes out with these three runs; the learner is seat 1.
_GOING_OUT = ("2♠ 3♠ 4♠ 5♠", "2♥ 3♥ 4♥ 5♥", "2♦ 3♦ 4♦ 5♦")


def scoring_calculator(
    cards: Iterable[Card | str] = ("A♠", "K♦", "4♥"),
    totals: Sequence[int] = (120, 95, 101, 99),
    rules: RuleSet | None = None,
    other_hands: Sequence[str] = ("K♣ 9♣", "7♣"),
) -> SimpleNamespace:
    """L-10: pick the cards left in your hand → points per card and the total; the cut bonus;
    and, with the totals before round 7 and the cards the two other seats hold (fields the
    learner edits, ``other_hands``), who wins the game (lowest total) when seat 0 goes out."""
    import ipywidgets as widgets

    rules = rules or RuleSet()
    picker = card_picker(cards)
    bonus = widgets.Checkbox(value=False, description=t("you_cut_exactly"), style=_WIDE)
    before = [
        widgets.IntText(
            value=v, description=seat_words(s), style=_WIDE, layout=widgets.Layout(width="100%", max_width="12em")
        )
        for s, v in enumerate(totals)
    ]
    # The other seats' cards left in hand are the learner's to say (no invented scores):
    # the engine scores exactly what is written here.
    others = [
        widgets.Text(
            value=cards_left,
            description=t("cards_left_of", seat=seat_words(seat)),
            style=_WIDE,
            continuous_update=False,
            layout=widgets.Layout(width="100%", max_width="22em"),
        )
        for seat, cards_left in zip((2, 3), other_hands, strict=True)
    ]
    button = try_button(t("score_round"))
    result = result_area()

    def score(_: Any = None) -> None:
        hand = picker.selected()
        per_card = "".join(
            f"<tr><td>{cards_html([c])}</td>"
            f"<td style='text-align:right;padding-left:1em'>{rules.card_points(c)}</td></tr>"
            for c in hand
        )
        runs = [liverpool.parse_cards(r) for r in _GOING_OUT]
        winner_hand = [c for run in runs for c in run]
        try:
            left = [liverpool.parse_cards(field.value) for field in others]
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        position = _position(
            round=rules.rounds,
            # Dealer 2: its right neighbour, seat index 1 (the learner's hand), is the
            # cutter, the only seat that can have earned the cut bonus (L-2.3).
            dealer=2,
            hands=[winner_hand, hand, *left],
            stock=["8♠", "8♥"],
            discard=["10♠"],
            totals=[w.value for w in before],
        )
        if bonus.value:
            position["cut_bonus"] = 1
        try:
            state = GameState.from_position(position, rules)
            event = state.apply(0, Action.go_down(runs)).to_dict()
        except LiverpoolError as error:
            result.value = refusal_html(error)
            return
        end = event.get("round_end") or {}
        scores = end.get("scores", [])
        rows = "".join(
            f"<tr><td>{_seat(s)}</td><td style='text-align:right'>{w.value}</td>"
            f"<td style='text-align:right'>{scores[s]:+d}</td><td style='text-align:right'><b>{total}</b></td></tr>"
            for s, (w, total) in enumerate(zip(before, end.get("totals", []), strict=False))
        )
        header = "".join(
            f"<th style='padding:2px 8px'>{_e(t(k))}</th>" for k in ("seat_column", "before", "this_round", "total")
        )
        winners = ", ".join(seat_words(s) for s in end.get("winners", []))
        your_score = t("your_round_score_seat", seat=seat_words(1), n=scores[1] if len(scores) > 1 else 0)
        result.value = (
            f"<table>{per_card}</table>"
            + f"<div><b>{_e(your_score)}</b></div>"
            + (note_html(_e(t("cut_bonus_applied", bonus=rules.cut_bonus))) if bonus.value else "")
            + note_html(_e(t("seat0_out", seat=seat_words(0))))
            + f"<table><tr>{header}</tr>{rows}</table>"
            + f"<div><b>{_e(t('game_winners', seats=winners))}</b></div>"
        )

    button.on_click(score)
    picker.on_change(score)
    bonus.observe(score, names="value")
    for w in [*before, *others]:
        w.observe(score, names="value")
    score()
    wrap = widgets.Layout(flex_flow="row wrap")
    box = root_box(
        "scoring",
        [
            picker.box,
            bonus,
            *others,
            widgets.HBox(before[:2], layout=wrap),
            widgets.HBox(before[2:], layout=wrap),
            button,
            result,
        ],
    )
    return SimpleNamespace(
        box=box, picker=picker, bonus=bonus, totals=before, others=others, button=button, result=result, rules=rules
    )
