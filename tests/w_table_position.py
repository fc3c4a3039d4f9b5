"""The profile-W table shared by the W tests: seats 0 and 2 are down (two sets of
seat 0 and one of seat 2 on the table), seat 0 to act. Written once here; each test
file states the round, phase and totals its rules need."""

from __future__ import annotations

from typing import Any

W_TABLE = [
    {"owner": 0, "cards": ["7♠", "7♥", "7♦"]},
    {"owner": 0, "cards": ["9♠", "9♥", "9♦"]},
    {"owner": 2, "cards": ["K♥", "K♦", "K♣"]},
]


def w_table_position(**change: Any) -> dict[str, Any]:
    """Profile W (liverpool-classic), seat 0 active; ``change`` sets or adds fields."""
    position: dict[str, Any] = {
        "profile": "liverpool-classic",
        "active": 0,
        "hands": [["7♣", "K♠", "2♦"], ["3♥", "4♥"], ["9♣", "6♠", "6♣"], ["8♦", "8♠"]],
        "stock": ["10♦", "J♦", "Q♦"],
        "discard": ["4♣"],
        "table": W_TABLE,
        "down": [True, False, True, False],
    }
    position.update(change)
    return position
