"""RULES.md L-11's position, the worked example (the shared conformance scenario
L-11-worked-example), for the tests that play it: headless notebooks, the browser
content test and the step-through player's tests."""

from __future__ import annotations

from typing import Any

WORKED_EXAMPLE: dict[str, Any] = {
    "round": 1,
    "dealer": 3,
    "active": 0,
    "phase": "draw",
    "hands": [
        ["7♠", "7♥", "9♠", "9♥", "9♦", "3♣", "4♣", "5♣", "8♦", "A♥"],
        ["2♦", "6♠", "10♣", "K♠"],
        ["2♥", "3♥", "5♠", "6♥", "8♠", "10♦", "J♥", "K♥", "K♦", "A♣"],
        ["2♣", "3♦", "5♥", "6♣", "8♥", "10♠", "J♠", "Q♣", "A♦", "JK"],
    ],
    "stock": ["5♦", "6♦", "J♣", "2♠", "3♠", "8♣"],
    "discard": ["9♣", "7♦"],
    "table": [{"owner": 1, "cards": ["4♦", "4♠", "4♥"]}, {"owner": 1, "cards": ["Q♠", "Q♥", "Q♦"]}],
    "down": [False, True, False, False],
}
