"""The go-down explorer of the rules tour (L-3, L-5.2, L-5.5).

It updates live when the hand or the round changes: the engine's best go-down as cards
(only if the engine would accept it from a player holding this hand after drawing), or
"no go-down" with what the contract still lacks, and the outs (the cards that would give
the contract, with how many copies are unseen). Root classes ``lp-tour
lp-tour-go-down-explorer``, answer area ``lp-result``, button ``lp-try``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import liverpool
from liverpool import Action, Card, GameState, LiverpoolError, Meld, RuleSet
from liverpool.teach.widgets.tourkit import (
    OPEN,
    line,
    contract_words,
    melds_words,
    cards_html,
    meld_html,
    note_html,
    ok_html,
    refusal_html,
    result_area,
    root_box,
    t,
    try_button,
)

__all__ = ["go_down_explorer", "explore"]

_DEFAULT_HAND = "7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦"


def _e(value: object) -> str:
    return html.escape(str(value))


def _holding(cards: list[Card], round: int, rules: RuleSet) -> GameState:
    """A position where seat 0 holds ``cards`` in the play phase of ``round`` (after drawing)."""
    players = rules.default_players
    # The other seats hold one card each: an empty hand belongs only to a seat that is
    # down (W-8 floating), and the engine refuses positions play cannot reach.
    spare = list(liverpool.new_deck(rules, players))
    for card in cards:
        if card in spare:
            spare.remove(card)
    return GameState.from_position(
        {
            "profile": rules.name,
            "players": players,
            "round": round,
            "dealer": players - 1,
            "active": 0,
            "phase": "play",
            "hands": [[str(c) for c in cards]] + [[str(spare[seat])] for seat in range(players - 1)],
            "stock": [],
            "discard": [],
            "table": [],
            "down": [False] * players,
            "totals": [0] * players,
        },
        rules,
    )


def explore(
    cards: Iterable[Card | str] | str, round: int, rules: RuleSet | None = None
) -> tuple[str, list[Meld] | None]:
    """The explorer's answer for a hand and a round: ``(html, suggestion)``.

    ``suggestion`` is the go-down shown (its melds), or ``None`` when none is shown; a
    suggestion is only made when ``GameState.check`` accepts it for a player holding the hand.
    """
    rules = rules or RuleSet()
    try:
        hand = liverpool.parse_cards(cards)
        best = liverpool.best_go_down(hand, round, rules)
        state = _holding(hand, round, rules)
    except LiverpoolError as error:
        return refusal_html(error), None
    contract = contract_words(rules, round)
    head = f"{OPEN}{_e(t('contract_is', round=round, contract=contract))}</div>"
    if best is not None:
        action = Action.go_down([m.cards for m in best.melds])
        try:
            state.check(0, action)
        except LiverpoolError as error:
            melds = "".join(f"{OPEN}{meld_html(m)}</div>" for m in best.melds)
            return head + note_html(_e(t("holds_but_refused"))) + melds + refusal_html(error), None
        melds = "".join(f"{OPEN}{meld_html(m)}</div>" for m in best.melds)
        left = (
            line(_e(t("left_in_hand")), cards_html(best.left), f"= <b>{_e(t('points', n=best.points_left))}</b>")
            if best.left
            else ""
        )
        return head + ok_html(_e(t("best_go_down"))) + melds + left, list(best.melds)
    return head + _missing_html(hand, round, rules) + _outs_html(hand, round, rules), None


def _missing_html(hand: list[Card], round: int, rules: RuleSet) -> str:
    """Which part of the contract is missing: the contract's kinds against the melds of the
    engine's best arrangement of the hand."""
    sets, runs, _ = rules.contracts[round - 1]
    arrangement = liverpool.best_arrangement(hand, rules)
    found_sets = sum(m.kind == "set" for m in arrangement.melds)
    found_runs = sum(m.kind == "run" for m in arrangement.melds)
    lines = [f"<div><b>{_e(t('no_go_down'))}</b></div>"]
    if arrangement.melds:
        melds = "".join(f"{OPEN}{meld_html(m)}</div>" for m in arrangement.melds)
        lines.append(note_html(_e(t("best_arrangement_has", melds=melds_words(found_sets, found_runs)))) + melds)
    else:
        lines.append(note_html(_e(t("no_melds_found"))))
    missing = melds_words(max(sets - found_sets, 0), max(runs - found_runs, 0))
    if missing:
        lines.append(note_html(_e(t("missing", what=missing))))
    else:
        lines.append(note_html(_e(t("missing_fit"))))
    return "".join(lines)


def _outs_html(hand: list[Card], round: int, rules: RuleSet) -> str:
    found = liverpool.outs(hand, round, rules)
    if not found:
        return note_html(_e(t("no_outs")))
    chips = line(*(line(cards_html([card]), f"×{count}") for card, count in found))
    total = sum(count for _, count in found)
    sentence = f"{t('outs_cards', count=len(found))} ({t('unseen_copies', count=total)}):"
    return f"{OPEN}{_e(sentence)}</div>{chips}"


def go_down_explorer(
    hand: Iterable[Card | str] | str = _DEFAULT_HAND, round: int = 1, rules: RuleSet | None = None
) -> SimpleNamespace:
    """L-3 / L-5.2: a hand and a round → the best go-down the engine accepts, or what is
    missing and the outs. Updates live as the hand or the round changes.

    Returns a namespace with ``box``, ``hand`` (text), ``round`` (dropdown), ``button``,
    ``result`` (HTML) and ``suggestion()`` (the melds shown, or ``None``).
    """
    import ipywidgets as widgets

    rules = rules or RuleSet()
    text_value = hand if isinstance(hand, str) else " ".join(str(c if isinstance(c, Card) else Card(c)) for c in hand)
    hand_box = widgets.Text(
        value=text_value,
        description=t("hand"),
        style={"description_width": "initial"},
        layout=widgets.Layout(width="100%", max_width="36em"),
    )
    round_picker = widgets.Dropdown(
        options=[(f"{r}: {contract_words(rules, r)}", r) for r in range(1, rules.rounds + 1)],
        value=round,
        description=t("round"),
        style={"description_width": "initial"},
        layout=widgets.Layout(width="auto"),  # the contract words in full
    )
    button = try_button(t("best_go_down_button"))
    shown = widgets.HTML()
    result = result_area()
    current: list[list[Meld] | None] = [None]

    def update(_: Any = None) -> None:
        try:
            shown.value = cards_html(liverpool.parse_cards(hand_box.value))
        except LiverpoolError:
            shown.value = ""
        result.value, current[0] = explore(hand_box.value, round_picker.value, rules)

    hand_box.observe(update, names="value")
    round_picker.observe(update, names="value")
    button.on_click(update)
    update()
    box = root_box("go-down-explorer", [widgets.HBox([hand_box, round_picker, button]), shown, result])
    return SimpleNamespace(
        box=box,
        hand=hand_box,
        round=round_picker,
        button=button,
        result=result,
        suggestion=lambda: current[0],
        rules=rules,
    )
