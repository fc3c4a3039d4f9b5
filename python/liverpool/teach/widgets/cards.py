"""A hand of cards you can click: :class:`HandWidget` and :func:`hand_view`.

The widget is an anywidget with an inline ES module and inline CSS (no npm, no
build step). Python draws every card (:func:`liverpool.teach.display.card_svg`); the
browser only lays out buttons and reports which ones are pressed. Each card is a
real ``<button>``: Tab reaches it, Enter or Space toggles it, ``aria-pressed``
tells a screen reader whether it is selected, and the focus ring stays visible.

This module imports ipywidgets and anywidget, so it is only imported on demand
(``from liverpool.teach.widgets.cards import HandWidget``), never by ``import liverpool``.

DOM hooks for browser tests: the root has class ``lp-hand``; every card button has
class ``lp-card``, ``data-card="7♥"`` and ``data-key="7♥#0"``; selected buttons
have ``lp-selected``, highlighted ones ``lp-highlight``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import anywidget
import ipywidgets
import traitlets

from liverpool._core import Card
from liverpool.teach.display import CardLike, SortOrder, card_keys, card_name, card_svg, sort_cards
from liverpool.i18n import text

__all__ = ["HandWidget", "HandView", "hand_view"]

_ESM = r"""
function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "lp-hand";
  root.setAttribute("role", "group");
  el.appendChild(root);

  function toggle(key) {
    if (model.get("disabled") || !model.get("selectable")) return;
    const current = model.get("selected");
    const next = current.includes(key) ? current.filter((k) => k !== key) : [...current, key];
    model.set("selected", next);
    model.save_changes();
  }

  function draw() {
    const selected = new Set(model.get("selected"));
    const highlight = new Set(model.get("highlight"));
    const disabled = model.get("disabled");
    const selectable = model.get("selectable");
    // Redrawing replaces the buttons: remember which card had the keyboard focus.
    const active = document.activeElement;
    const focusedKey = active && root.contains(active) ? active.dataset.key : null;
    root.classList.toggle("lp-disabled", disabled);
    root.classList.toggle("lp-not-selectable", !selectable);
    const buttons = model.get("items").map((item) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "lp-card";
      button.classList.toggle("lp-selected", selected.has(item.key));
      button.classList.toggle("lp-highlight", highlight.has(item.key));
      button.dataset.key = item.key;
      button.dataset.card = item.key.split("#")[0];
      button.setAttribute("aria-label", item.label);
      if (selectable) button.setAttribute("aria-pressed", selected.has(item.key) ? "true" : "false");
      button.disabled = disabled;
      button.innerHTML = item.svg;
      button.addEventListener("click", () => toggle(item.key));
      return button;
    });
    root.replaceChildren(...buttons);
    if (focusedKey !== null) {
      const again = buttons.find((b) => b.dataset.key === focusedKey);
      if (again) again.focus();
    }
  }

  const events = ["change:items", "change:selected", "change:highlight", "change:disabled", "change:selectable"];
  for (const event of events) model.on(event, draw);
  draw();
  return () => { for (const event of events) model.off(event, draw); };
}
export default { render };
"""

_CSS = """
.lp-hand { display: flex; flex-wrap: wrap; gap: 4px; justify-content: flex-start; align-items: flex-end;
  padding: 12px 8px 8px; }
.lp-hand .lp-card { appearance: none; background: none; border: 0; margin: 0; padding: 0; line-height: 0;
  border-radius: 5px; cursor: pointer; transition: transform 120ms ease, box-shadow 120ms ease; }
.lp-hand .lp-card svg { display: block; pointer-events: none; }
.lp-hand .lp-card:hover:not(:disabled) { transform: translateY(-3px); }
.lp-hand .lp-card.lp-selected { transform: translateY(-10px); box-shadow: 0 0 0 3px #1565c0; }
.lp-hand .lp-card.lp-highlight { box-shadow: 0 0 0 3px #f39c12; }
.lp-hand .lp-card.lp-selected.lp-highlight { box-shadow: 0 0 0 3px #1565c0, 0 0 0 6px #f39c12; }
.lp-hand .lp-card:focus-visible { outline: 3px dashed #111; outline-offset: 3px; }
.lp-hand .lp-card:disabled { cursor: default; opacity: 0.6; }
.lp-hand.lp-not-selectable .lp-card { cursor: default; }
@media (prefers-reduced-motion: reduce) { .lp-hand .lp-card { transition: none; } }
"""


class HandWidget(anywidget.AnyWidget):
    """A row of clickable cards.

    The synced traits are the whole browser contract: ``items`` (``{"key", "svg",
    "label"}`` dicts in display order), ``selected`` (keys, changed by clicks and
    from Python), ``highlight`` (keys), ``disabled`` and ``selectable``. Most code
    uses the Python API instead: :meth:`show`, :meth:`selected_cards`,
    :meth:`clear_selection`.

    >>> hand = HandWidget()
    >>> hand.show(["7♥", "K♠", "7♥"], sort="rank")
    >>> [item["key"] for item in hand.items]
    ['7♥#0', '7♥#1', 'K♠#0']
    """

    _esm = _ESM
    _css = _CSS

    items = traitlets.List(traitlets.Dict()).tag(sync=True)
    selected = traitlets.List(traitlets.Unicode()).tag(sync=True)
    highlight = traitlets.List(traitlets.Unicode()).tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)
    selectable = traitlets.Bool(True).tag(sync=True)

    def __init__(
        self,
        cards: Iterable[CardLike] = (),
        *,
        sort: SortOrder | None = "suit",
        highlight: Iterable[CardLike | str] = (),
        width: int = 56,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self._cards: dict[str, Card] = {}
        self._hand: list[Card] = []
        self._highlight_keys: list[str] = []
        self.sort: SortOrder | None = sort
        self.width = width
        self.show(cards, sort=sort, highlight=highlight)

    def show(
        self, cards: Iterable[CardLike], *, sort: SortOrder | None = "suit", highlight: Iterable[CardLike | str] = ()
    ) -> None:
        """Show ``cards`` in ``sort`` order (``None`` keeps the given order).

        Each card's key is its name and its copy number in the given order ("7♥#0",
        "7♥#1"), so two equal cards stay two separate buttons and a re-sort keeps
        what is selected. ``highlight`` names cards (one copy per mention) or keys."""
        hand = [c if isinstance(c, Card) else Card(c) for c in cards]
        keys = card_keys(hand)
        self._hand = hand
        self._cards = dict(zip(keys, hand))
        self.sort = sort
        self._highlight_keys = self._keys_for(highlight, keys)
        self._redraw()

    def resort(self, by: SortOrder | None) -> None:
        """Show the same cards in another order, keeping the selection."""
        self.sort = by
        self._redraw()

    def selected_cards(self) -> list[Card]:
        """The selected cards, in display order."""
        chosen = set(self.selected)
        return [self._cards[item["key"]] for item in self.items if item["key"] in chosen]

    def clear_selection(self) -> None:
        self.selected = []

    @property
    def cards(self) -> list[Card]:
        """The cards shown, in display order."""
        return [self._cards[item["key"]] for item in self.items]

    def _keys_for(self, wanted: Iterable[CardLike | str], keys: list[str]) -> list[str]:
        remaining: Counter[str] = Counter()
        direct: list[str] = []
        for item in wanted:
            if isinstance(item, str) and "#" in item:
                direct.append(item)
            else:
                remaining[str(item if isinstance(item, Card) else Card(item))] += 1
        chosen = [k for k in direct if k in keys]
        for key in keys:
            name = key.rsplit("#", 1)[0]
            if remaining[name] > 0 and key not in chosen:
                chosen.append(key)
                remaining[name] -= 1
        return chosen

    def _redraw(self) -> None:
        ordered = list(self._cards) if self.sort is None else _sorted_keys(self._cards, self.sort)
        self.items = [
            {"key": key, "svg": card_svg(self._cards[key], width=self.width), "label": card_name(self._cards[key])}
            for key in ordered
        ]
        self.highlight = [k for k in self._highlight_keys if k in self._cards]
        self.selected = [k for k in self.selected if k in self._cards]


def _sorted_keys(cards: dict[str, Card], by: SortOrder) -> list[str]:
    """Keys in presentation order; equal cards keep their copy order (#0 before #1)."""
    distinct = {str(card): card for card in cards.values()}
    order = {str(card): index for index, card in enumerate(sort_cards(distinct.values(), by))}
    return sorted(cards, key=lambda key: (order[str(cards[key])], int(key.rsplit("#", 1)[1])))


class HandView(ipywidgets.VBox):  # type: ignore[misc]
    """A :class:`HandWidget` under a "by suit / by rank" toggle."""

    def __init__(self, hand: HandWidget, sort_toggle: ipywidgets.ToggleButtons):
        super().__init__([sort_toggle, hand])
        self.hand = hand
        self.sort_toggle = sort_toggle


def hand_view(cards: Iterable[CardLike], sort: SortOrder = "suit") -> HandView:
    """A hand to click on and a toggle that re-sorts it (by suit or by rank) without
    losing the selection. ``view.hand`` is the :class:`HandWidget`."""
    hand = HandWidget(cards, sort=sort)
    toggle = ipywidgets.ToggleButtons(
        options=[(text("cards", "sort_by_suit"), "suit"), (text("cards", "sort_by_rank"), "rank")],
        value=sort,
        description=text("cards", "sort_label"),
        style={"button_width": "auto"},
    )

    def resort(change: dict[str, Any]) -> None:
        hand.resort(change["new"])

    toggle.observe(resort, names="value")
    return HandView(hand, toggle)
