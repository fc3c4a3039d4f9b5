"""Small ipywidgets helpers for the teaching notebooks.

ipywidgets is imported only inside these functions, so ``import liverpool`` never
needs Jupyter. Each builder returns its widgets in a :class:`types.SimpleNamespace`
as well as the assembled box, so tests can click buttons and read the output
(``ui.button.click(); ui.result.value``) without a browser.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import liverpool
from liverpool import Card, LiverpoolError, RuleSet

_RED_SUITS = {"♥", "♦"}


_CHIP_STYLE = (
    "display:inline-block;min-width:2.2em;padding:2px 4px;margin:1px;border:1px solid #999;"
    "border-radius:4px;background:#fff;text-align:center;font-family:monospace;"
)


def card_html(card: Card | str) -> str:
    """One card as a small HTML chip (red for hearts and diamonds, purple for jokers).

    >>> 'color:#c0392b">7♦</span>' in card_html("7♦")
    True
    """
    card = card if isinstance(card, Card) else Card(card)
    color = "#8e44ad" if card.is_joker else ("#c0392b" if card.suit in _RED_SUITS else "#222")
    return f'<span class="lp-card" style="{_CHIP_STYLE}color:{color}">{html.escape(str(card))}</span>'


def cards_html(cards: Iterable[Card | str]) -> str:
    """A row of card chips."""
    return "".join(card_html(c) for c in cards)


def go_down_explorer(
    hand: str = "7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦", round: int = 1, rules: RuleSet | None = None
) -> SimpleNamespace:
    """A hand box, a round picker and a button that asks the engine for the best go-down.

    Returns a namespace with ``box`` (display it), ``hand``, ``round``, ``button``, ``result``.
    """
    import ipywidgets as widgets

    rules = rules or RuleSet()
    hand_box = widgets.Text(value=hand, description="Hand", layout=widgets.Layout(width="36em"))
    round_picker = widgets.Dropdown(
        options=[(f"{r}: {rules.describe_contract(r)}", r) for r in range(1, rules.rounds + 1)],
        value=round,
        description="Round",
    )
    button = widgets.Button(description="Best go-down", button_style="primary")
    result = widgets.HTML()

    def explain(_: Any = None) -> None:
        try:
            cards = liverpool.parse_cards(hand_box.value)
            best = liverpool.best_go_down(cards, round_picker.value, rules)
        except LiverpoolError as error:
            result.value = f"<b>{html.escape(type(error).__name__)}</b> [{error.code}]: {html.escape(str(error))}"
            return
        if best is None:
            result.value = f"No go-down: this hand does not hold <i>{rules.describe_contract(round_picker.value)}</i>."
            return
        melds = "<br>".join(f"{m.kind}: {cards_html(m.cards)}" for m in best.melds)
        result.value = f"{melds}<br>left in hand: {cards_html(best.left)} = <b>{best.points_left}</b> points"

    button.on_click(explain)
    explain()
    box = widgets.VBox([widgets.HBox([hand_box, round_picker, button]), result])
    return SimpleNamespace(box=box, hand=hand_box, round=round_picker, button=button, result=result)
