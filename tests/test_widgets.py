"""Notebook widgets driven from plain pytest: click, then read the HTML (NOTEBOOK_TESTING.md, level 1)."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from liverpool import RuleSet  # noqa: E402

from liverpool.teach import display
from liverpool.teach.widgets import card_html, cards_html, go_down_explorer  # noqa: E402


def test_cards_are_the_display_svgs() -> None:
    for card in ("7♦", "7♠", "JK"):
        assert display.card_svg(card, width=36) in card_html(card)
    assert cards_html(["A♠", "2♠"]).count("data-card=") == 2


def test_explorer_shows_the_worked_example_l11() -> None:
    ui = go_down_explorer()
    assert "7♠" in ui.result.value and "35" in ui.result.value  # 3+4+5+8+15 left


def test_explorer_reports_no_go_down_and_bad_input() -> None:
    ui = go_down_explorer(hand="2♠ 5♥ 9♦ K♣ 4♠ 7♥", round=1)
    assert "No go-down" in ui.result.value
    ui.hand.value = "7♠ 7♥ 1X"
    ui.button.click()
    assert "malformed_card" in ui.result.value
    ui.hand.value = "5♥ 6♥ 7♥ 8♥ Q♠ Q♥ Q♦"
    ui.round.value = 2
    ui.button.click()
    assert "run" in ui.result.value and "set" in ui.result.value


def test_explorer_uses_the_rule_set() -> None:
    ui = go_down_explorer(hand="7♠ JK JK 9♠ 9♥ 9♦", round=1, rules=RuleSet("liverpool-classic"))
    assert "No go-down" in ui.result.value  # W-4: a set needs two naturals


def test_explorer_speaks_the_learners_language() -> None:
    from liverpool import i18n

    with i18n.language("es"):
        ui = go_down_explorer(hand="2♠ 5♥ 9♦ K♣ 4♠ 7♥", round=1)
        assert "No se puede bajar" in ui.result.value and ui.button.description == "Mejor bajada"
    with i18n.language("pt"):
        ui = go_down_explorer(hand="2♠ 5♥ 9♦ K♣ 4♠ 7♥", round=1)
        assert "Não dá para baixar" in ui.result.value
