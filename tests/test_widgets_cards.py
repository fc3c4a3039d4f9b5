"""HandWidget and hand_view: keys, selection, sorting (no browser: the synced traits are the contract)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("anywidget")

from liverpool import Card, i18n, parse_cards  # noqa: E402
from liverpool.teach.widgets.cards import HandWidget, hand_view  # noqa: E402


def keys(widget: HandWidget) -> list[str]:
    return [item["key"] for item in widget.items]


def test_duplicate_cards_get_separate_keys_and_buttons() -> None:
    hand = HandWidget(["7♥", "K♠", "7♥", "JK", "JK"], sort=None)
    assert keys(hand) == ["7♥#0", "K♠#0", "7♥#1", "JK#0", "JK#1"]
    assert hand.cards == parse_cards("7♥ K♠ 7♥ JK JK")


def test_items_carry_the_python_drawn_svg_and_a_translated_label() -> None:
    with i18n.language("pt"):
        hand = HandWidget(["7♥", "JK"], sort="suit")
    assert [item["label"] for item in hand.items] == ["7 de copas", "coringa"]
    for item in hand.items:
        svg = ET.fromstring(item["svg"])
        assert svg.get("data-card") == item["key"].split("#")[0]


def test_selection_gives_cards_in_display_order() -> None:
    hand = HandWidget(["9♠", "7♥", "7♥", "2♣"], sort="rank")
    assert keys(hand) == ["2♣#0", "7♥#0", "7♥#1", "9♠#0"]
    hand.selected = ["9♠#0", "7♥#1"]  # what a click in the browser sends back
    assert hand.selected_cards() == [Card("7♥"), Card("9♠")]
    hand.clear_selection()
    assert hand.selected == [] and hand.selected_cards() == []


def test_resorting_keeps_the_selection_and_the_keys() -> None:
    hand = HandWidget(["K♠", "7♥", "A♦", "7♥", "JK"], sort="suit")
    assert keys(hand) == ["K♠#0", "7♥#0", "7♥#1", "A♦#0", "JK#0"]
    hand.selected = ["7♥#1", "JK#0"]
    hand.resort("rank")
    assert keys(hand) == ["A♦#0", "7♥#0", "7♥#1", "K♠#0", "JK#0"]
    assert hand.selected == ["7♥#1", "JK#0"]
    assert hand.selected_cards() == [Card("7♥"), Card("JK")]


def test_showing_a_new_hand_drops_keys_that_are_gone() -> None:
    hand = HandWidget(["7♥", "7♥", "8♠"])
    hand.selected = ["7♥#1", "8♠#0"]
    hand.show(["7♥", "8♠"])  # one 7♥ was played
    assert hand.selected == ["8♠#0"]


def test_highlight_by_card_or_by_key() -> None:
    hand = HandWidget()
    hand.show(["7♥", "7♥", "8♠"], sort=None, highlight=["7♥"])
    assert hand.highlight == ["7♥#0"]
    hand.show(["7♥", "7♥", "8♠"], sort=None, highlight=["7♥#1", "8♠"])
    assert hand.highlight == ["7♥#1", "8♠#0"]


def test_hand_view_toggle_resorts_and_keeps_selection() -> None:
    view = hand_view(["K♠", "2♥", "A♠"], sort="suit")
    assert keys(view.hand) == ["A♠#0", "K♠#0", "2♥#0"]
    view.hand.selected = ["K♠#0"]
    view.sort_toggle.value = "rank"
    assert keys(view.hand) == ["A♠#0", "2♥#0", "K♠#0"]
    assert view.hand.selected_cards() == [Card("K♠")]
    assert [label for label, _ in view.sort_toggle.options] == ["By suit", "By rank"]
    with i18n.language("es"):
        assert [label for label, _ in hand_view(["2♥"]).sort_toggle.options] == ["Por palo", "Por valor"]


def test_the_browser_module_has_the_test_hooks() -> None:
    hand = HandWidget()
    for hook in ('"lp-hand"', '"lp-card"', '"lp-selected"', "aria-pressed", "dataset.card"):
        assert hook in hand._esm
    assert ":focus-visible" in hand._css


@given(st.lists(st.integers(0, 52), max_size=25), st.sampled_from(["suit", "rank", None]), st.data())
def test_keys_are_unique_and_survive_any_resort(ids: list[int], sort: str | None, data: st.DataObject) -> None:
    cards = [Card.from_id(i) for i in ids]
    hand = HandWidget(cards, sort=sort)  # type: ignore[arg-type]
    assert len(set(keys(hand))) == len(cards)
    chosen = data.draw(st.lists(st.sampled_from(keys(hand)), unique=True) if cards else st.just([]))
    hand.selected = chosen
    before = sorted(hand.selected_cards())
    hand.resort("rank" if sort != "rank" else "suit")
    assert sorted(hand.selected) == sorted(chosen)
    assert sorted(hand.selected_cards()) == before
