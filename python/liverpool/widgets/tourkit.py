"""Shared pieces of the rules tour widgets: translated text, card HTML, refusals, a card picker.

Nothing here decides a rule. Cards are drawn by :mod:`liverpool.display` (the package's
card pictures); results are left-aligned lines of text and cards.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from types import SimpleNamespace
from typing import Any

from liverpool import Card, display
from liverpool import LiverpoolError, Meld, RuleSet
from liverpool.i18n import text

__all__ = [
    "t",
    "line",
    "OPEN",
    "LINE",
    "cards_html",
    "meld_html",
    "refusal_html",
    "ok_html",
    "note_html",
    "root_box",
    "card_picker",
    "CARD_KINDS",
    "contract_words",
]

_SUITS = ("♠", "♥", "♦", "♣")
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: The picker's card kinds: 52 natural cards, suit by suit, then two jokers (54 buttons).
CARD_KINDS: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in _SUITS for rank in _RANKS) + ("JK", "JK")


def t(key: str, /, **params: Any) -> str:
    """A sentence of the ``tour`` catalogue in the current language."""
    return text("tour", key, **params)


#: One line of a result: a label and its cards side by side, left-aligned, wrapping.
LINE = "display:flex;align-items:center;gap:6px;flex-wrap:wrap;justify-content:flex-start;margin:2px 0"


#: The opening tag of such a line, for f-strings.
OPEN = f'<div class="lp-line" style="{LINE}">'


def line(*parts: str, css_class: str = "lp-line", style: str = "") -> str:
    """Pieces of HTML (text, card rows) on one left-aligned line."""
    return f'<div class="{css_class}" style="{LINE};{style}">{"".join(parts)}</div>'


def cards_html(cards: Iterable[Card | str], *, highlight: Iterable[Card | str] = (), width: int = 40) -> str:
    """A left-aligned row of card pictures (:func:`liverpool.display.cards_html`)."""
    return str(display.cards_html(list(cards), highlight=tuple(highlight), width=width))


def meld_html(meld: Meld, *, label: str | None = None, highlight: Iterable[Card | str] = ()) -> str:
    """A meld: its kind in words, its cards, what its run jokers stand for (:func:`liverpool.display.meld_html`)."""
    return str(display.meld_html(meld, label=label, highlight=tuple(highlight)))


def refusal_html(error: LiverpoolError) -> str:
    """The engine's refusal as a learner reads it: its sentence in the page's language,
    which ends with the rule id it cites. The error code is for programs: it stays in
    ``data-code`` (and the rule in ``data-rule``), never in the visible text."""
    rule = f' data-rule="{html.escape(error.rule)}"' if error.rule else ""
    return (
        f'<div class="lp-refusal" data-code="{html.escape(error.code)}"{rule} style="color:#922b21">'
        f"✗ {html.escape(error.message)}</div>"
    )


def ok_html(sentence: str) -> str:
    """A sentence saying the engine accepted something (already HTML-safe)."""
    return line(f"✓ {sentence}", css_class="lp-accepted", style="color:#1e8449")


def note_html(sentence: str) -> str:
    """A neutral line of explanation (already HTML-safe; may hold card rows)."""
    return line(sentence, css_class="lp-note")


def root_box(name: str, children: Sequence[Any]) -> Any:
    """The builder's root ``VBox`` with the browser test's hooks ``lp-tour`` and ``lp-tour-<name>``."""
    import ipywidgets as widgets

    box = widgets.VBox(list(children), layout=widgets.Layout(align_items="flex-start"))
    box.add_class("lp-tour")
    box.add_class(f"lp-tour-{name}")
    return box


def try_button(label: str, style: str = "primary") -> Any:
    """A main action button (hook ``lp-try``)."""
    import ipywidgets as widgets

    button = widgets.Button(description=label, button_style=style)
    button.add_class("lp-try")
    return button


def result_area() -> Any:
    """The HTML area where the engine's answer is written (hook ``lp-result``)."""
    import ipywidgets as widgets

    area = widgets.HTML()
    area.add_class("lp-result")
    return area


def card_picker(initial: Iterable[Card | str] = ()) -> SimpleNamespace:
    """A grid of the 54 card kinds as toggle buttons (one row per suit, a row for the two jokers).

    Returns a namespace with ``box``, ``buttons`` (one per kind, in :data:`CARD_KINDS` order),
    ``selected()`` (the picked cards in the order they were picked: the order matters for a
    run's jokers), ``set(cards)``, ``clear()`` and ``on_change(callback)``.
    """
    import ipywidgets as widgets

    order: list[int] = []
    listeners: list[Callable[[], None]] = []
    buttons: list[Any] = []
    quiet = [False]

    def toggled(index: int, change: dict[str, Any]) -> None:
        if change["new"]:
            order.append(index)
        elif index in order:
            order.remove(index)
        if not quiet[0]:
            for listener in listeners:
                listener()

    for index, kind in enumerate(CARD_KINDS):
        card = Card(kind)
        color = "#8e44ad" if card.is_joker else ("#c0392b" if card.suit in ("♥", "♦") else "#222")
        button = widgets.ToggleButton(
            value=False,
            description=str(card),
            layout=widgets.Layout(width="3.4em", padding="0"),
            style={"text_color": color},
        )
        button.add_class("lp-pick")
        button.observe(lambda change, i=index: toggled(i, change), names="value")
        buttons.append(button)

    rows = [widgets.HBox(buttons[r * 13 : (r + 1) * 13]) for r in range(4)] + [widgets.HBox(buttons[52:])]
    box = widgets.VBox(rows)
    box.add_class("lp-picker")

    def selected() -> list[Card]:
        return [Card(CARD_KINDS[i]) for i in order]

    def set_cards(cards: Iterable[Card | str]) -> None:
        quiet[0] = True
        try:
            for button in buttons:
                button.value = False
            for card in cards:
                name = str(card if isinstance(card, Card) else Card(card))
                free = [i for i, kind in enumerate(CARD_KINDS) if kind == name and not buttons[i].value]
                if free:
                    buttons[free[0]].value = True
        finally:
            quiet[0] = False
        for listener in listeners:
            listener()

    def clear() -> None:
        set_cards(())

    def on_change(callback: Callable[[], None]) -> None:
        listeners.append(callback)

    set_cards(initial)
    return SimpleNamespace(box=box, buttons=buttons, selected=selected, set=set_cards, clear=clear, on_change=on_change)


def contract_words(rules: RuleSet, round: int) -> str:
    """The contract of ``round`` in words, in the current language (from ``RuleSet.contracts``)."""
    sets, runs, whole_hand = rules.contracts[round - 1]
    parts = []
    if sets:
        parts.append(t("n_sets", n=sets) if sets > 1 else t("one_set"))
    if runs:
        parts.append(t("n_runs", n=runs) if runs > 1 else t("one_run"))
    words = t("and").join(parts)
    return t("whole_hand_contract", melds=words) if whole_hand else words
