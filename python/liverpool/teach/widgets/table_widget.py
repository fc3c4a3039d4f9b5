"""The card table's widget: an anywidget whose one synced trait, ``view``, is the view
state (:func:`liverpool.teach.widgets.table_model.build_view`), and whose front end is the inline
ES module ``table_view.js`` (with ``table_view.css``; no npm, no build step). The front end
sends intents as custom messages; :meth:`CardTable.intent` handles them the same way from
Python. This module imports anywidget: it is only imported when a table is built."""

from __future__ import annotations

from importlib import resources
from typing import Any

import anywidget
import traitlets

from liverpool.teach.game_loop import GameDriver
from liverpool.teach.widgets.table_model import TableModel

__all__ = ["CardTable"]


def _asset(name: str) -> str:
    return resources.files("liverpool.teach.widgets").joinpath(name).read_text(encoding="utf-8")


class CardTable(anywidget.AnyWidget):
    """The whole table as one widget. ``view`` (synced) is the view state; the front end
    sends intents as custom messages, which :meth:`intent` handles the same way."""

    _esm = _asset("table_view.js")
    _css = _asset("table_view.css")
    view = traitlets.Dict().tag(sync=True)

    def __init__(self, model: TableModel, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model = model
        model.on_change = self.refresh
        self.on_msg(self._on_message)
        self.refresh()

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict):
            self.intent(**content)

    def intent(self, **intent: Any) -> None:
        """Handle one intent (``kind="stock"``, ``kind="select", key="7♥#0"``, …) and redraw."""
        self.model.handle(intent)
        self.refresh()

    def refresh(self) -> None:
        self.view = self.model.view()

    @property
    def driver(self) -> GameDriver:
        return self.model.driver

    @property
    def box(self) -> CardTable:
        """The widget itself (``display(table.box)`` of older notebooks still works)."""
        return self
