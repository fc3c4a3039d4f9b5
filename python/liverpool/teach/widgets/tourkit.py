"""Shared pieces of the rules tour widgets: translated text, card HTML, refusals, a card picker.

Nothing here decides a rule. Cards are drawn by :mod:`liverpool.teach.display` (the package's
card pictures); results are left-aligned lines of text and cards.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from types import SimpleNamespace
from typing import Any

from liverpool import Card

from liverpool.teach import display
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
    "melds_words",
]

_SUITS = ("♠", "♥", "♦", "♣")
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: The picker's card kinds: 52 natural cards, suit by suit, then the joker (53 buttons).
CARD_KINDS: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in _SUITS for rank in _RANKS) + ("JK",)


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
    """A left-aligned row of card pictures (:func:`liverpool.teach.display.cards_html`)."""
    return str(display.cards_html(list(cards), highlight=tuple(highlight), width=width))


def meld_html(meld: Meld, *, label: str | None = None, highlight: Iterable[Card | str] = ()) -> str:
    """A meld: its kind in words, its cards, what its run jokers stand for (:func:`liverpool.teach.display.meld_html`)."""
    return str(display.meld_html(meld, label=label, highlight=tuple(highlight)))


def refusal_html(error: LiverpoolError) -> str:
    """The engine's refusal as a learner reads it: the sentence and the rule it cites (the
    rule id once: messages often end with it). The error code is for programs and tests,
    kept in the ``data-code`` attribute, never shown."""
    message = str(error)
    rule = error.rule or ""
    cited = f"{html.escape(rule)} — " if rule and rule not in message else ""
    return (
        f'<div class="lp-refusal" data-code="{html.escape(error.code)}" data-rule="{html.escape(rule)}" '
        f'style="color:#922b21">✗ {cited}{html.escape(message)}</div>'
    )


def ok_html(sentence: str) -> str:
    """A sentence saying the engine accepted something (already HTML-safe)."""
    return line(f"✓ {sentence}", css_class="lp-accepted", style="color:#1e8449")


def note_html(sentence: str) -> str:
    """A neutral line of explanation (already HTML-safe; may hold card rows)."""
    return line(sentence, css_class="lp-note")


#: Every tour control fits a phone's width (390 px): rows of controls wrap, a field with
#: its label wraps the label above it, and no control is wider than the page.
NARROW_PAGE_CSS = """<style>
.lp-tour { max-width: 100%; }
.lp-tour .widget-hbox, .lp-tour .widget-inline-hbox, .lp-tour .widget-toggle-buttons .btn-group,
.lp-tour .widget-toggle-buttons { flex-wrap: wrap; }
.lp-tour .widget-inline-hbox, .lp-tour .widget-hbox > *, .lp-tour .widget-text input { max-width: 100%; }
.lp-tour .widget-inline-hbox .widget-label { max-width: 100%; }
.lp-tour .widget-text input { min-width: 8em; }
.lp-tour .widget-button:not(.lp-pick) { width: auto; min-width: 148px; max-width: 100%; height: auto;
  min-height: var(--jp-widgets-inline-height, 28px); white-space: normal; }
</style>"""


def root_box(name: str, children: Sequence[Any]) -> Any:
    """The builder's root ``VBox`` with the browser test's hooks ``lp-tour`` and ``lp-tour-<name>``
    (and the style that keeps its controls inside a narrow page, :data:`NARROW_PAGE_CSS`)."""
    import ipywidgets as widgets

    style = widgets.HTML(NARROW_PAGE_CSS, layout=widgets.Layout(height="0px", margin="0"))
    box = widgets.VBox([style, *children], layout=widgets.Layout(align_items="flex-start", max_width="100%"))
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


#: How many copies of a kind the deck holds: two of each natural card, three jokers (L-1.2).
_COPIES = {"natural": 2, "joker": 3}


def card_picker(initial: Iterable[Card | str] = ()) -> SimpleNamespace:
    """A grid of the 53 card kinds as buttons, suit by suit, wrapping on a narrow page.

    The deck has two copies of every natural card and three jokers (L-1.2), and a set may
    repeat a card (L-4.1): a click picks a card, the next click its second copy (a joker: up
    to three), the click after that puts them all back. The button shows the count
    ("7♠ ×2").

    Returns a namespace with ``box``, ``buttons`` (one per kind, in :data:`CARD_KINDS` order,
    ``button.count`` the copies picked), ``press(kind)`` (a click on that kind's button),
    ``selected()`` (the picked cards in the order they were picked: the order matters for a
    run's jokers), ``set(cards)``, ``clear()`` and ``on_change(callback)``.
    """
    import ipywidgets as widgets

    order: list[int] = []  # kind indices, one entry per picked copy, in picking order
    listeners: list[Callable[[], None]] = []
    buttons: list[Any] = []

    def most(index: int) -> int:
        return _COPIES["joker" if CARD_KINDS[index] == "JK" else "natural"]

    def redraw(index: int) -> None:
        button = buttons[index]
        count = order.count(index)
        button.count = count
        name = str(Card(CARD_KINDS[index]))
        button.description = name if count < 2 else f"{name} ×{count}"
        # Picked: a light highlight that keeps the suit's colour readable.
        button.style.button_color = "#f9e79f" if count else None
        button.style.font_weight = "bold" if count else ""
        button.tooltip = name

    def notify() -> None:
        for listener in listeners:
            listener()

    def press(index_or_kind: int | str) -> None:
        index = index_or_kind if isinstance(index_or_kind, int) else CARD_KINDS.index(str(Card(index_or_kind)))
        if order.count(index) < most(index):
            order.append(index)
        else:
            order[:] = [i for i in order if i != index]
        redraw(index)
        notify()

    for index, kind in enumerate(CARD_KINDS):
        card = Card(kind)
        color = "#8e44ad" if card.is_joker else ("#c0392b" if card.suit in ("♥", "♦") else "#222")
        button = widgets.Button(
            description=str(card),
            layout=widgets.Layout(min_width="3.4em", width="auto", padding="0 4px", margin="1px"),
            style={"text_color": color},
        )
        button.count = 0
        button.add_class("lp-pick")
        button.on_click(lambda _, i=index: press(i))
        buttons.append(button)

    # Each suit on its own line, wrapping when the page is narrower than 13 buttons
    # (a phone: 390 px holds about seven), so no card is ever cut off.
    wrap = widgets.Layout(flex_flow="row wrap", width="100%")
    rows = [widgets.HBox(buttons[r * 13 : (r + 1) * 13], layout=wrap) for r in range(4)]
    rows.append(widgets.HBox(buttons[52:], layout=wrap))
    box = widgets.VBox(rows, layout=widgets.Layout(width="100%", max_width="100%"))
    box.add_class("lp-picker")

    def selected() -> list[Card]:
        return [Card(CARD_KINDS[i]) for i in order]

    def set_cards(cards: Iterable[Card | str]) -> None:
        order.clear()
        for card in cards:
            index = CARD_KINDS.index(str(card if isinstance(card, Card) else Card(card)))
            if order.count(index) < most(index):
                order.append(index)
        for index in range(len(buttons)):
            redraw(index)
        notify()

    def clear() -> None:
        set_cards(())

    def on_change(callback: Callable[[], None]) -> None:
        listeners.append(callback)

    set_cards(initial)
    return SimpleNamespace(
        box=box, buttons=buttons, press=press, selected=selected, set=set_cards, clear=clear, on_change=on_change
    )


def melds_words(sets: int, runs: int) -> str:
    """"2 sets and 1 run" in the current language, through the catalogue's plural templates
    (a kind with no meld is left out)."""
    parts = []
    if sets:
        parts.append(t("set_count", count=sets))
    if runs:
        parts.append(t("run_count", count=runs))
    return t("and").join(parts)


def contract_words(rules: RuleSet, round: int) -> str:
    """The contract of ``round`` in words, in the current language, from the engine's
    contract data (``RuleSet.contracts``): "2 runs", never a count the contract lacks."""
    sets, runs, whole_hand = rules.contracts[round - 1]
    words = melds_words(sets, runs)
    return t("whole_hand_contract", melds=words) if whole_hand else words
