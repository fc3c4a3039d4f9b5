"""The rules tour widgets, driven from pytest: set values, click, read the HTML the learner sees.

Every expectation is a fact of RULES.md profile L or an answer of the engine asked
independently here; cards are read back from the pictures' ``data-card`` attributes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import liverpool  # noqa: E402
from liverpool import Action, Card, GameState, LiverpoolError, RuleSet, i18n  # noqa: E402
from liverpool.teach.widgets import tour  # noqa: E402
from liverpool.teach.widgets.explorer import explore  # noqa: E402


def cards_in(html: str) -> list[str]:
    """The cards drawn in ``html``, in order."""
    return re.findall(r'data-card="([^"]+)"', html)


def words(html: str) -> str:
    """The text of ``html`` without its card pictures and tags."""
    no_svg = re.sub(r"<svg.*?</svg>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", no_svg)).replace("&#x27;", "'")


def pick(ui: SimpleNamespace, *cards: str) -> None:
    ui.picker.set(cards)


def tour_text(key: str, **params: Any) -> str:
    return i18n.text("tour", key, **params)


# ---------------------------------------------------------------- L-1, L-2, L-3


@pytest.mark.parametrize("players", [2, 4, 8])
def test_deck_explorer_counts_the_engine_deck(players: int) -> None:
    ui = tour.deck_explorer()
    ui.players.value = players
    deck = liverpool.new_deck(RuleSet(), players)
    text = words(ui.result.value)
    assert f"{len(deck)} cards" in text and "107 cards" in text  # L-1.2
    assert cards_in(ui.result.value).count("JK") == sum(c.is_joker for c in deck) == 3
    assert "A: 8" in text and "K: 8" in text
    # what the player count changes is the deal: as many hands as players, the rest in the stock
    dealt = liverpool.deal(deck, 1, 0, 1, RuleSet(), players)
    hand = len(dealt.hands[0])
    assert f"With {players} players, round 1 deals {hand} cards each ({hand * players} in all)" in text
    assert f"{len(dealt.stock)} cards are left in the stock" in text


def test_cut_of_41_earns_the_bonus_in_round_1_and_40_does_not() -> None:
    ui = tour.cut_explorer(round=1, cut=41)
    bonus = tour_text("cut_bonus_yes", seat="seat 4", bonus=-50)  # seat index 3, shown from 1
    assert bonus in words(ui.result.value)
    ui.cut.value = 40
    assert "Exact cut!" not in words(ui.result.value)
    assert tour_text("cut_bonus_no", n=40, exact=41) in words(ui.result.value)
    assert "rounds 1–3: 41" in words(ui.result.value) and "rounds 4–7: 49" in words(ui.result.value)


def test_cut_explorer_round_4_needs_49_and_shows_the_engine_deal() -> None:
    ui = tour.cut_explorer(round=4, cut=41, seed=3)
    assert "Exact cut!" not in words(ui.result.value)
    ui.button.click()  # "exact cut" moves the slider to the engine's exact size
    assert ui.cut.value == 49 and "Exact cut!" in words(ui.result.value)
    dealt = liverpool.deal(liverpool.shuffled_deck(3), 4, 0, 49)
    shown = cards_in(ui.result.value)
    expected = [str(c) for hand in dealt.hands for c in hand] + [str(dealt.up_card)]
    assert shown == expected and all(len(hand) == 12 for hand in dealt.hands)  # L-2.5
    assert "seat 2 plays first" in words(ui.result.value)  # L-2.7: the dealer's left neighbour (index 1)


def test_contract_ladder_sample_hands_hold_their_contracts() -> None:
    ui = tour.contract_ladder()
    ladder = words(ui.ladder.value)
    assert "2 sets" in ladder and "1 set and 1 run" in ladder and "3 runs, the whole hand, no discard" in ladder
    for round in range(1, 8):
        ui.round.value = round
        hand = tour.SAMPLE_HANDS[round]
        assert liverpool.has_contract(hand, round)
        assert len(liverpool.parse_cards(hand)) == RuleSet().deal_sizes[round - 1]
        assert "The engine finds the contract" in words(ui.result.value)


# ---------------------------------------------------------------- L-4


def test_meld_checker_accepts_a_set_and_explains_a_refusal() -> None:
    ui = tour.meld_checker(cards=())
    pick(ui, "7♠", "7♥", "7♦")
    assert "A valid meld." in words(ui.result.value) and cards_in(ui.result.value) == ["7♠", "7♥", "7♦"]
    ui.kind.value = "run"
    assert "invalid_meld" in ui.result.value and "L-4." in ui.result.value
    ui.clear.click()
    assert ui.picker.selected() == [] and tour_text("pick_cards") in words(ui.result.value)


def test_meld_checker_keeps_the_picking_order_for_a_run_joker() -> None:
    ui = tour.meld_checker(cards=())
    ui.kind.value = "run"
    for name in ("5♥", "JK", "7♥", "8♥"):
        ui.picker.buttons[tour_kinds().index(name)].click()
    assert [str(c) for c in ui.picker.selected()] == ["5♥", "JK", "7♥", "8♥"]
    ui.button.click()
    assert "A valid meld." in words(ui.result.value) and "6♥" in words(ui.result.value)


def tour_kinds() -> list[str]:
    from liverpool.teach.widgets.tourkit import CARD_KINDS

    assert len(CARD_KINDS) == 53  # 52 natural kinds and the joker
    return list(CARD_KINDS)


@pytest.mark.parametrize(
    ("example", "accepted", "span"),
    [("low", True, "1 to 4"), ("high", True, "11 to 14"), ("full", True, "1 to 14"), ("wrap", False, "")],
)
def test_ace_explorer(example: str, accepted: bool, span: str) -> None:
    ui = tour.ace_explorer()
    ui.example.value = example
    ui.suit.value = "♣"
    ui.button.click()
    assert all(card.endswith("♣") for card in cards_in(ui.result.value))
    if accepted:
        assert "A valid meld." in words(ui.result.value) and f"Positions {span}" in words(ui.result.value)
    else:
        assert "invalid_meld" in ui.result.value and "L-4.3" in ui.result.value


def test_same_suit_runs_adjacent_refused_overlap_and_gap_accepted() -> None:
    ui = tour.same_suit_runs_playground(first=3, second=7)
    assert "adjacent_runs" in ui.result.value and "L-4.4" in ui.result.value
    ui.second.value = 6  # 3-6 and 6-9 share position 6
    assert "adjacent_runs" not in ui.result.value and tour_text("runs_accepted") in words(ui.result.value)
    ui.second.value = 8  # a gap at 7
    assert tour_text("runs_accepted") in words(ui.result.value)
    ui.first.value = 12 - 8  # 4-7 then 8-11: adjacent again
    assert "adjacent_runs" in ui.result.value


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 11), st.integers(1, 11))
def test_same_suit_runs_agree_with_the_engine(first: int, second: int) -> None:
    ui = tour.same_suit_runs_playground(first=first, second=second)
    runs = [cards_in(ui.result.value)[:4], cards_in(ui.result.value)[4:8]]
    try:
        liverpool.check_go_down(runs, 3)
        refused = False
    except LiverpoolError as error:
        refused = error.code == "adjacent_runs"
    assert ("adjacent_runs" in ui.result.value) == refused == (abs(first - second) == 4)


# ---------------------------------------------------------------- L-4.5, L-7


def test_joker_lab_run_swap_and_where_the_joker_goes() -> None:
    ui = tour.joker_lab("5♥ JK 7♥ 8♥")
    html = ui.result.value
    assert tour_text("frees_joker") in words(html) and "6♥" in cards_in(html)
    assert "joker_unplaced" in html  # back on its own run: L-7.2
    assert words(html).count(tour_text("joker_may_go")) == 2  # the set and the other run take it
    assert cards_in(html).count("JK") >= 3


def test_joker_lab_set_joker_is_locked() -> None:
    ui = tour.joker_lab("Q♠ Q♥ JK")
    assert "joker_locked" in ui.result.value and "L-7.1" in ui.result.value
    ui.meld.value = "Q♠ Q♥ Q♦"
    ui.button.click()
    assert tour_text("no_joker") in words(ui.result.value)
    ui.examples.value = "JK 5♥ 6♥ 7♥"
    assert "4♥" in cards_in(ui.result.value)


# ---------------------------------------------------------------- L-5


@pytest.mark.parametrize(
    ("card", "meld", "end", "code"),
    [
        ("4♥", 0, "low", None),
        ("9♥", 0, "high", None),
        ("4♥", 2, "auto", "invalid_lay_off"),
        ("Q♣", 1, "auto", None),  # another player's meld
        ("8♣", 2, "auto", None),
        ("5♠", 0, "auto", "invalid_lay_off"),
    ],
)
def test_lay_off_lab(card: str, meld: int, end: str, code: str | None) -> None:
    ui = tour.lay_off_lab()
    ui.card.value, ui.meld.value, ui.end.value = card, meld, end
    ui.button.click()
    if code is None:
        assert tour_text("laid_off", card=card, meld=meld) in words(ui.result.value)
    else:
        assert code in ui.result.value


@pytest.mark.parametrize(("end", "position"), [("low", 0), ("high", -1)])
def test_lay_off_lab_joker_takes_the_chosen_end(end: str, position: int) -> None:
    ui = tour.lay_off_lab()
    ui.card.value, ui.meld.value, ui.end.value = "JK", 0, end
    ui.button.click()
    after = ui.result.value.split(tour_text("laid_off", card="JK", meld=0))[1]
    run = cards_in(after)[:5]
    assert run[position] == "JK" and sorted(run) == sorted(["JK", "5♥", "6♥", "7♥", "8♥"])


def test_lay_off_refused_on_the_go_down_turn() -> None:
    ui = tour.lay_off_lab()
    ui.same_turn.value = True
    ui.button.click()
    assert "same_turn_as_go_down" in ui.result.value and "L-5.3" in ui.result.value
    assert tour_text("no_lay_off_now") in words(ui.result.value)


def test_keep_a_card_refuses_the_last_lay_off() -> None:
    ui = tour.keep_a_card_demo()
    ui.buttons["4♥"].click()
    assert tour_text("laid_off", card="4♥", meld=0) in words(ui.result.value)
    ui.buttons["9♥"].click()
    assert "must_keep_discard" in ui.result.value and "L-5.5" in ui.result.value
    assert [str(c) for c in ui.state().hand(0)] == ["9♥"]
    assert "discard 9♥" in words(ui.result.value) and "lay off 9♥" not in words(ui.result.value)
    ui.reset.click()
    assert len(ui.state().hand(0)) == 2


# ---------------------------------------------------------------- L-6


def visible_seats(ui: SimpleNamespace) -> list[int]:
    return [seat for seat, row in ui.seats.items() if row.buy.layout.display != "none"]


def test_buying_table_chain() -> None:
    ui = tour.buying_table()
    state: Callable[[], GameState] = ui.state
    assert visible_seats(ui) == [state().to_act] == [1]  # L-6.3: the active player's left first
    top_of_stock = str(state().stock[0])
    assert top_of_stock in cards_in(ui.result.value)  # the penalty card is the stock's top
    ui.seats[1].passing.click()
    assert visible_seats(ui) == [2]
    ui.seats[2].buy.click()
    bought = [part for part in ui.result.value.split("<li>") if "seat 3 buys" in words(part)]  # index 2
    assert len(bought) == 1 and cards_in(bought[0]) == ["K♣", top_of_stock]
    assert state().hand_sizes[2] == 12 and str(state().discard_top) == "9♥"
    # L-6.4: the buyer of the previous card is not asked for the next one
    asked = []
    while state().phase == "buying":
        seat = visible_seats(ui)[0]
        asked.append(seat)
        ui.seats[seat].passing.click()
    assert 2 not in asked[:1] and asked[0] == 1
    assert visible_seats(ui) == [] and ui.draw.layout.display != "none"
    ui.draw.click()
    assert state().phase == "play" and state().active == 0  # L-6.5: buying never moves the turn
    ui.reset.click()
    assert visible_seats(ui) == [1] and state().hand_sizes == [10, 10, 10, 10]


def test_buying_table_penalty_card_goes_to_the_buyer() -> None:
    ui = tour.buying_table()
    stock_top = ui.state().stock[0]
    ui.seats[1].buy.click()
    assert stock_top in ui.state().hand(1) and Card("K♣") in ui.state().hand(1)
    line = [part for part in ui.result.value.split("<li>") if "seat 2 buys" in words(part)][0]  # index 1
    assert cards_in(line) == ["K♣", str(stock_top)]


# ---------------------------------------------------------------- L-8, L-9, L-10


def test_round7_builder() -> None:
    ui = tour.round7_builder()
    assert "whole_hand_required" in ui.result.value
    ui.runs[1].value = "9♥ 10♥ J♥ Q♥"
    ui.runs[2].value = "4♦ 5♦ 6♦ 7♦"
    ui.button.click()
    assert tour_text("round7_out") in words(ui.result.value)
    ui.arrangements.click()
    found = liverpool.all_go_downs(ui.hand.value, 7, limit=20)
    assert tour_text("arrangements_count", count=len(found)) in words(ui.result.value) and found
    ui.hand.value = "2♠ 3♠ 4♠ 5♠ 9♥ 10♥ J♥ Q♥ 4♦ 5♦ 6♦ K♣"
    ui.arrangements.click()
    assert tour_text("no_arrangement") in words(ui.result.value)


def test_recycling_demo() -> None:
    ui = tour.recycling_demo()
    assert tour_text("recycled", n=4) in words(ui.result.value)
    assert "Stock: 3 cards" in words(ui.result.value) and cards_in(ui.result.value)[-1] == "7♣"
    ui.no_winner.click()
    text = words(ui.result.value)
    assert tour_text("no_winner") in text
    for score in (29, 17, 30, 5):  # L-9.2 scores every hand
        assert f"= {score}" in text


def test_scoring_calculator() -> None:
    ui = tour.scoring_calculator(cards=("A♠", "K♦", "4♥"), totals=(120, 95, 101, 99))
    text = words(ui.result.value)
    assert "15" in text and tour_text("your_round_score_seat", seat="seat 2", n=29) in text  # L-11: 15 + 10 + 4
    ui.bonus.value = True
    assert tour_text("your_round_score_seat", seat="seat 2", n=29 - 50) in words(ui.result.value)  # L-10.2
    ui.bonus.value = False
    pick(ui, "JK", "10♣", "7♦")
    assert tour_text("your_round_score_seat", seat="seat 2", n=15 + 10 + 7) in words(ui.result.value)
    ui.totals[1].value = 50  # now seat index 1 (shown "seat 2") has the lowest total
    assert tour_text("game_winners", seats="seat 2") in words(ui.result.value)


# ---------------------------------------------------------------- the go-down explorer


def test_go_down_explorer_updates_when_the_round_changes() -> None:
    ui = tour.go_down_explorer(hand="7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 6♣ 8♦", round=1)
    assert ui.suggestion() is not None and tour_text("best_go_down") in words(ui.result.value)
    ui.round.value = 3  # two runs: only one run in this hand
    assert ui.suggestion() is None
    text = words(ui.result.value)
    assert tour_text("missing", what=tour_text("run_count", count=1)) in text
    ui.round.value = 2  # a set and a run
    assert ui.suggestion() is not None and {m.kind for m in ui.suggestion()} == {"set", "run"}
    ui.hand.value = "7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"
    ui.round.value = 1
    outs = liverpool.outs("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥", 1)
    assert ui.suggestion() is None and tour_text("outs_cards", count=len(outs)) in words(ui.result.value)
    assert "7♦" in cards_in(ui.result.value)


def test_go_down_explorer_never_suggests_a_go_down_that_leaves_no_discard() -> None:
    ui = tour.go_down_explorer(hand="7♠ 7♥ 7♦ 9♠ 9♥ 9♦", round=1)  # L-5.5: nothing left to discard
    assert ui.suggestion() is None and "must_keep_discard" in ui.result.value


def test_go_down_explorer_shows_bad_input_as_a_refusal() -> None:
    ui = tour.go_down_explorer(hand="7♠ 1X", round=1)
    assert "malformed_card" in ui.result.value and ui.suggestion() is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_go_down_explorer_suggestions_are_accepted_by_the_engine(data: st.DataObject) -> None:
    deck = liverpool.new_deck()
    round = data.draw(st.integers(1, 7), label="round")
    size = data.draw(st.integers(6, 14), label="size")
    indices = data.draw(st.lists(st.integers(0, len(deck) - 1), min_size=size, max_size=size, unique=True))
    hand = [deck[i] for i in indices]
    _, suggestion = explore(hand, round)
    best = liverpool.best_go_down(hand, round)
    if suggestion is None:
        if best is not None:  # the engine found one, but refuses it from this hand
            state = _holding(hand, round)
            assert not state.can(0, Action.go_down([m.cards for m in best.melds]))
        return
    melds = [m.cards for m in suggestion]
    liverpool.check_go_down(melds, round)  # raises if refused
    assert _holding(hand, round).can(0, Action.go_down(melds))


def _holding(hand: list[Card], round: int) -> GameState:
    return GameState.from_position(
        {
            "profile": "liverpool",
            "players": 4,
            "round": round,
            "dealer": 3,
            "active": 0,
            "phase": "play",
            "hands": [[str(c) for c in hand], [], [], []],
            "stock": [],
            "discard": [],
            "table": [],
            "down": [False] * 4,
            "totals": [0] * 4,
        }
    )


def test_go_down_explorer_widget_follows_its_hand() -> None:
    ui = tour.go_down_explorer(hand="2♠ 5♥ 9♦ K♣ 4♠ 7♥", round=1)
    assert ui.suggestion() is None and tour_text("no_melds_found") in words(ui.result.value)
    ui.hand.value = "Q♠ Q♥ Q♦ 5♣ 5♦ 5♥ 2♠"
    assert ui.suggestion() is not None


# ---------------------------------------------------------------- every builder: hooks, languages, no repr

BUILDERS: dict[str, Callable[[], SimpleNamespace]] = {
    "deck-explorer": tour.deck_explorer,
    "cut-explorer": tour.cut_explorer,
    "contract-ladder": tour.contract_ladder,
    "meld-checker": tour.meld_checker,
    "ace-explorer": tour.ace_explorer,
    "same-suit-runs": tour.same_suit_runs_playground,
    "joker-lab": tour.joker_lab,
    "lay-off-lab": tour.lay_off_lab,
    "keep-a-card": tour.keep_a_card_demo,
    "buying-table": tour.buying_table,
    "round7-builder": tour.round7_builder,
    "recycling": tour.recycling_demo,
    "scoring": tour.scoring_calculator,
    "go-down-explorer": tour.go_down_explorer,
}


def _all_widgets(widget: Any) -> list[Any]:
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += _all_widgets(child)
    return found


@pytest.mark.parametrize("name", list(BUILDERS))
def test_dom_hooks(name: str) -> None:
    ui = BUILDERS[name]()
    classes = ui.box._dom_classes
    assert "lp-tour" in classes and f"lp-tour-{name}" in classes
    inner = _all_widgets(ui.box)
    assert any("lp-result" in w._dom_classes for w in inner)
    assert any("lp-try" in w._dom_classes for w in inner)
    assert name in (tour.__doc__ or "")


NO_REPR = ("Card(", "Meld(", "Action.", "<liverpool", "GoDown", "TableMeld")


def _click_everything(ui: SimpleNamespace) -> list[str]:
    """Click every button once, collecting the result after each click."""
    seen = [ui.result.value]
    for widget in _all_widgets(ui.box):
        if hasattr(widget, "click") and widget.layout.display != "none":
            widget.click()
            seen.append(ui.result.value)
    return seen


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("name", list(BUILDERS))
def test_no_python_repr_reaches_the_html(name: str, lang: str) -> None:
    with i18n.language(lang):
        ui = BUILDERS[name]()
        for html in _click_everything(ui):
            assert html and not any(marker in html for marker in NO_REPR), html


def test_portuguese_rendering() -> None:
    with i18n.language("pt"):
        ui = tour.meld_checker(cards=("7♠", "7♥", "7♦"))
        assert "Uma combinação válida." in words(ui.result.value)
        buying = tour.buying_table()
        assert "O motor pergunta ao jogador 2" in words(buying.result.value) and "Carta de penalidade" in words(
            buying.result.value
        )
        assert buying.seats[1].buy.description == "Comprar"
        ladder = tour.contract_ladder()
        assert "1 trinca e 1 sequência" in words(ladder.ladder.value)
        explorer = tour.go_down_explorer(hand="7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥", round=1)
        assert "O que falta: 1 trinca." in words(explorer.result.value) and "(s)" not in words(explorer.result.value)


def test_spanish_rendering() -> None:
    with i18n.language("es"):
        ui = tour.same_suit_runs_playground(first=3, second=6)
        assert "Aceptadas como las dos escaleras de la ronda 3." in words(ui.result.value)
        cut = tour.cut_explorer(round=1, cut=41)
        assert "¡Corte exacto! El jugador 4 gana el premio por cortar" in words(cut.result.value)
        ladder = tour.contract_ladder()
        assert "1 trío y 2 escaleras" in words(ladder.ladder.value)
        keep = tour.keep_a_card_demo()
        assert "añadir 4♥ a la combinación 1" in words(keep.result.value)
    assert "Jokers" in words(tour.deck_explorer().result.value)  # the language is restored


def described_controls(widget: Any) -> list[Any]:
    """Every control under ``widget`` that shows a description beside it (buttons excluded:
    their description is their face, sized to fit)."""
    import ipywidgets as widgets

    found = []
    if getattr(widget, "description", "") and not isinstance(widget, (widgets.Button, widgets.ToggleButton)):
        found.append(widget)
    for child in getattr(widget, "children", ()):
        found.extend(described_controls(child))
    return found


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_tour_label_is_cut(lang: str) -> None:
    # ipywidgets cuts a description at ~90px ("Combinac…") unless its width is "initial".
    with i18n.language(lang):
        builders = [getattr(tour, name) for name in tour.__all__ if name != "contract_words"]
        uis = [build() for build in builders]
    controls = [c for ui in uis for c in described_controls(ui.box)]
    assert len(controls) >= 10
    cut = [c.description for c in controls if c.style.description_width != "initial"]
    assert cut == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_joker_lab_examples_never_start_blank(lang: str) -> None:
    with i18n.language(lang):
        shown = tour.joker_lab()
        own = tour.joker_lab("K♣ JK K♥")
    assert shown.examples.label == shown.meld.value  # the example shown is the meld checked
    with i18n.language(lang):
        placeholder = tour_text("pick_example")
    assert own.examples.label == placeholder and own.examples.value == ""
    own.examples.value = "Q♠ Q♥ JK"
    assert own.meld.value == "Q♠ Q♥ JK" and "joker_locked" in own.result.value


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_table_melds_are_numbered_as_the_board_numbers_them(lang: str) -> None:
    # "nº 1 · jogador 2 · trinca" for index 0, not a bare "0 ·" a newcomer cannot place.
    with i18n.language(lang):
        ui = tour.lay_off_lab()
        numbers = {value: i18n.meld_label(value) for _, value in ui.meld.options}
        joker = tour.joker_lab()
    assert len(numbers) >= 2
    assert all(label.startswith(numbers[value] + " · ") for label, value in ui.meld.options)
    assert numbers[0] + " · " in joker.result.value  # where the freed joker may go


# ---------------------------------------------------------------- issue 15, item 5: the tour's quirks


def test_meld_checker_opens_on_the_notebooks_two_copy_set_without_a_refusal() -> None:
    # Notebook 02 opens the checker on 7♠ 7♠ 7♥: two decks, so a set may repeat a card (L-4.1).
    ui = tour.meld_checker(["7♠", "7♠", "7♥"])
    assert "lp-refusal" not in ui.result.value, words(ui.result.value)
    assert tour_text("valid_meld") in words(ui.result.value) and cards_in(ui.result.value) == ["7♠", "7♠", "7♥"]
    seven = ui.picker.buttons[tour_kinds().index("7♠")]
    assert seven.count == 2 and seven.description == "7♠ ×2"
    seven.click()  # a third click puts both copies back
    assert [str(c) for c in ui.picker.selected()] == ["7♥"] and seven.count == 0


def test_card_picker_holds_the_decks_copies_and_no_more() -> None:
    ui = tour.meld_checker(cards=())
    for _ in range(3):
        ui.picker.press("JK")
    assert [str(c) for c in ui.picker.selected()] == ["JK", "JK", "JK"]  # three jokers (L-1.2)
    ui.picker.press("JK")
    assert ui.picker.selected() == []
    ui.picker.set(["K♠", "K♠", "K♠"])  # only two K♠ exist
    assert [str(c) for c in ui.picker.selected()] == ["K♠", "K♠"]


def test_card_picker_rows_wrap_on_a_narrow_page() -> None:
    # At 390 px a row of 13 buttons does not fit: each suit's row wraps (K♠ stays reachable).
    ui = tour.meld_checker(cards=())
    rows = ui.picker.box.children
    assert len(rows) == 5 and all(row.layout.flex_flow == "row wrap" for row in rows)
    assert ui.picker.buttons[tour_kinds().index("K♠")] in rows[0].children


def test_round7_arrangements_fill_the_run_fields_so_go_down_works() -> None:
    ui = tour.round7_builder()
    assert "whole_hand_required" in ui.result.value
    ui.arrangements.click()
    first = liverpool.all_go_downs(ui.hand.value, 7, limit=20)[0]
    assert [field.value for field in ui.runs] == [" ".join(str(c) for c in m.cards) for m in first.melds]
    assert tour_text("arrangement_in_fields", button=tour_text("go_down")) in words(ui.result.value)
    ui.button.click()  # L-8.1: the whole hand as three runs
    assert tour_text("round7_out") in words(ui.result.value) and "lp-refusal" not in ui.result.value


def test_joker_lab_explains_every_joker_of_the_meld() -> None:
    ui = tour.joker_lab("JK 5♥ JK 7♥")
    text = words(ui.result.value)
    meld = liverpool.Meld.parse("JK 5♥ JK 7♥")
    freeing = [str(meld.joker_stands_for(i)) for i, c in enumerate(meld.cards) if c.is_joker]
    assert sorted(freeing) == ["4♥", "6♥"]
    assert text.count(tour_text("frees_joker")) == 2  # L-7.1, once per joker
    for number in (1, 2):
        assert tour_text("joker_number", n=number) in text
    html = ui.result.value
    for card in freeing:  # each freeing card is shown swapped into the run
        assert card in cards_in(html)


def test_joker_lab_examples_follow_what_is_typed() -> None:
    ui = tour.joker_lab("5♥ JK 7♥ 8♥")
    assert ui.examples.value == "5♥ JK 7♥ 8♥"
    ui.meld.value = "Q♠ Q♥ JK"  # typed: the answer is for the typed meld, the list is no longer on the example
    assert ui.examples.value == "" and tour_text("set_joker_locked") in words(ui.result.value)
    ui.examples.value = "5♥ JK 7♥ 8♥"  # picking the same example again shows it again
    assert ui.meld.value == "5♥ JK 7♥ 8♥" and tour_text("frees_joker") in words(ui.result.value)


def test_scoring_calculator_scores_only_the_hands_it_is_given() -> None:
    ui = tour.scoring_calculator(cards=("A♠", "K♦", "4♥"), totals=(0, 0, 0, 0))
    rules = RuleSet()

    def round_scores() -> list[int]:
        table = ui.result.value.split("<table>")[2]
        return [int(cell) for cell in re.findall(r"<td style='text-align:right'>([+-]\d+)</td>", table)]

    for others in (("K♣ 9♣", "7♣"), ("JK", "2♦ 3♦")):
        ui.others[0].value, ui.others[1].value = others
        expected = [0, 29] + [sum(rules.card_points(c) for c in liverpool.parse_cards(h)) for h in others]
        assert round_scores() == expected  # L-10.1: what each hand holds, nothing invented
    ui.others[1].value = "2♦ X"
    assert "malformed_card" in ui.result.value


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_contracts_are_worded_from_the_engine_contract_data(lang: str) -> None:
    rules = RuleSet()
    with i18n.language(lang):
        for round, (sets, runs, _) in enumerate(rules.contracts, start=1):
            words_ = tour.contract_words(rules, round)
            assert "(s)" not in words_
            if runs:
                assert i18n.text("tour", "run_count", count=runs) in words_
            if sets:
                assert i18n.text("tour", "set_count", count=sets) in words_
            else:
                assert i18n.text("tour", "set_count", count=1).split()[-1] not in words_
        explorer = tour.go_down_explorer(hand="7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 6♣ 8♦", round=3)
        text = words(explorer.result.value)
        assert "(s)" not in text
        assert i18n.text("tour", "contract_is", round=3, contract=i18n.text("tour", "run_count", count=2)) in text
        assert i18n.text("tour", "missing", what=i18n.text("tour", "run_count", count=1)) in text


def test_contract_words_in_english() -> None:
    rules = RuleSet()
    assert tour.contract_words(rules, 3) == "2 runs"  # round 3: two runs (L-3)
    assert tour.contract_words(rules, 2) == "1 set and 1 run"


def test_a_refusal_shows_the_sentence_and_rule_never_the_raw_code() -> None:
    ui = tour.meld_checker(cards=())
    pick(ui, "7♠", "7♥", "7♦")
    ui.kind.value = "run"  # L-4.2: not one suit
    shown = words(ui.result.value)
    assert "invalid_meld" not in shown and "L-4.2" in shown
    assert shown.count("L-4.2") == 1  # the rule id once, even when the message ends with it
    assert 'data-code="invalid_meld"' in ui.result.value  # kept for programs and tests


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_seats_are_shown_counting_from_1(lang: str) -> None:
    # Glossary decision: people count seats from 1; the API keeps its indices from 0.
    template = i18n.catalogue(lang, "common")["seat"]
    assert isinstance(template, str)
    zero = template.format(seat=0)  # "seat 0": an index shown as it is, never to people
    with i18n.language(lang):
        for ui in (tour.cut_explorer(), tour.buying_table(), tour.scoring_calculator(), tour.recycling_demo()):
            assert zero not in words(ui.result.value), words(ui.result.value)[:200]
        four = tour.cut_explorer()
        assert template.format(seat=4) in words(four.result.value)  # the fourth seat, index 3
        assert i18n.text("common", "seat", seat=3) == template.format(seat=4)  # i18n shows indices from 1
