"""Widgets and rich displays for the teaching notebooks.

ipywidgets (and anywidget) are imported inside the builders only, so
``import liverpool`` never needs Jupyter. Each builder returns its widgets in a
:class:`types.SimpleNamespace` with the assembled ``box``, so tests can click
buttons and read the rendered HTML without a browser. No rule is decided here:
every question goes to the engine.
"""

from __future__ import annotations

from liverpool.teach.widgets.scenario import (
    board_html,
    card_html,
    cards_html,
    describe_action,
    describe_event,
    describe_refusal,
    scenario_player,
)
from liverpool.teach.widgets.explorer import go_down_explorer
from liverpool.teach.widgets.guided import guided_game
from liverpool.teach.widgets.table import card_table

__all__ = [
    "board_html",
    "card_table",
    "card_html",
    "cards_html",
    "describe_action",
    "describe_event",
    "describe_refusal",
    "go_down_explorer",
    "guided_game",
    "scenario_player",
]
