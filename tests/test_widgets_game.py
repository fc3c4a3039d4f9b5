"""The game widgets driven from plain pytest: click the step-through player, read its HTML
(NOTEBOOK_TESTING.md, level 1). The position and moves are RULES.md L-11's worked example;
every expected card list below is a fact of that rule text, not output copied from the code."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("ipywidgets")

import liverpool  # noqa: E402
from liverpool import Action, GameState, i18n  # noqa: E402
from liverpool.teach.widgets import board_html, describe_action, describe_event, scenario_player  # noqa: E402

from worked_example import WORKED_EXAMPLE  # noqa: E402 - the one copy of L-11's position

STEPS = [
    {"seat": 0, "do": "take_discard"},
    {"seat": 0, "do": "go_down", "melds": [["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]]},
    {"seat": 0, "do": "lay_off", "meld": 0, "cards": ["4♣"], "expect": {"error": "same_turn_as_go_down"}},
    {"seat": 0, "do": "discard", "card": "8♦"},
    {"seat": 1, "do": "draw_stock"},
    {"seat": 1, "do": "discard", "card": "K♠"},
    {"seat": 2, "do": "draw_stock"},
    {"seat": 2, "do": "discard", "card": "6♦"},
    {"seat": 3, "do": "draw_stock"},
    {"seat": 3, "do": "discard", "card": "J♣"},
    {"seat": 0, "do": "draw_stock"},
    {"seat": 0, "do": "lay_off", "meld": 0, "cards": ["4♣"]},
]

CHIP = re.compile(r'data-card="([^"]+)"')


def chips(fragment: str) -> list[str]:
    return CHIP.findall(fragment)


def hand_on_board(board: str, seat: int) -> list[str]:
    cell = re.search(rf'<td class="lp-hand-{seat}"[^>]*>(.*?)</td>', board)
    assert cell, f"no hand row for seat {seat}"
    return chips(cell.group(1))


def table_rows(board: str) -> list[tuple[int, list[str]]]:
    """(owner, cards) per table meld, in table order (the board groups them by owner)."""
    melds_part = board.split('class="lp-players"')[0]  # the hands come after the table melds
    tiles = re.split(r'<div class="lp-meld"', melds_part)[1:]
    melds = []
    for tile in tiles:
        hooks = re.match(r' data-meld="(\d+)" data-owner="(\d+)"', tile)
        assert hooks, "a table meld without its index and owner"
        melds.append((int(hooks.group(1)), int(hooks.group(2)), chips(tile)))
    return [(owner, cards) for _, owner, cards in sorted(melds)]


def discard_top_on_board(board: str) -> str:
    match = re.search(r'<div class="lp-discard">(.*?)</svg>', board, flags=re.S)
    assert match
    return chips(match.group(1))[0]


def click(ui, times: int = 1) -> None:
    for _ in range(times):
        ui.next_button.click()


def test_the_player_starts_at_the_position() -> None:
    ui = scenario_player(WORKED_EXAMPLE, STEPS)
    assert ui.progress.value == "step 0 of 12"
    assert ui.back_button.disabled and not ui.next_button.disabled
    assert discard_top_on_board(ui.board.value) == "7♦"
    assert sorted(hand_on_board(ui.board.value, 0)) == sorted(WORKED_EXAMPLE["hands"][0])
    assert [owner for owner, _ in table_rows(ui.board.value)] == [1, 1]


def test_taking_7d_and_going_down_with_both_sets() -> None:
    ui = scenario_player(WORKED_EXAMPLE, STEPS)
    click(ui)
    assert "7♦" in hand_on_board(ui.board.value, 0)
    assert discard_top_on_board(ui.board.value) == "9♣"
    click(ui)
    rows = table_rows(ui.board.value)
    assert rows[2][0] == 0 and sorted(rows[2][1]) == sorted(["7♠", "7♥", "7♦"])
    assert rows[3][0] == 0 and sorted(rows[3][1]) == sorted(["9♠", "9♥", "9♦"])
    assert sorted(hand_on_board(ui.board.value, 0)) == sorted(["3♣", "4♣", "5♣", "8♦", "A♥"])
    assert "went down" in ui.board.value


def test_the_refused_lay_off_shows_its_code_and_changes_nothing() -> None:
    ui = scenario_player(WORKED_EXAMPLE, STEPS)
    click(ui, 2)
    before = ui.current()
    click(ui)
    message = re.search(r"<div class='lp-message' style='([^']*)'>(.*?)</div>", ui.board.value)
    # The learner reads the sentence and the rule id, never the error code.
    assert message and "L-5.3" in message.group(2) and "same_turn_as_go_down" not in message.group(2)
    assert "only allowed on a turn after the go-down turn" in message.group(2)
    assert "#c0392b" in message.group(1)  # shown in red
    assert "lp-refused" in ui.log.value and "lp-mismatch" not in ui.log.value  # refused as the scenario expects
    assert ui.current() == before
    assert sorted(hand_on_board(ui.board.value, 0)) == sorted(["3♣", "4♣", "5♣", "8♦", "A♥"])


def test_clicking_to_the_end_gives_the_final_hands_and_table() -> None:
    ui = scenario_player(WORKED_EXAMPLE, STEPS)
    click(ui, 4)
    assert sorted(hand_on_board(ui.board.value, 0)) == sorted(["3♣", "4♣", "5♣", "A♥"])  # L-11: 4 cards left
    assert discard_top_on_board(ui.board.value) == "8♦"
    click(ui, 8)
    board = ui.board.value
    assert ui.progress.value == "step 12 of 12" and ui.next_button.disabled
    # Stock order 5♦ 6♦ J♣ 2♠: seats 1-3 draw one each, seat 0 draws 2♠ and lays off 4♣.
    assert sorted(hand_on_board(board, 0)) == sorted(["3♣", "5♣", "A♥", "2♠"])
    assert sorted(hand_on_board(board, 1)) == sorted(["2♦", "6♠", "10♣", "5♦"])
    assert sorted(hand_on_board(board, 2)) == sorted(WORKED_EXAMPLE["hands"][2])
    assert sorted(hand_on_board(board, 3)) == sorted(WORKED_EXAMPLE["hands"][3])
    assert sorted(table_rows(board)[0][1]) == sorted(["4♦", "4♠", "4♥", "4♣"])
    assert ui.log.value.count("<li>") == 12 and "lp-mismatch" not in ui.log.value


def test_back_and_reset_return_to_earlier_boards() -> None:
    ui = scenario_player(WORKED_EXAMPLE, STEPS)
    start = ui.board.value
    click(ui, 2)
    after_go_down = ui.board.value
    click(ui)
    ui.back_button.click()
    assert ui.board.value == after_go_down and ui.progress.value == "step 2 of 12"
    ui.reset_button.click()
    assert ui.board.value == start and ui.log.value.count("<li>") == 0 and ui.back_button.disabled


def test_a_step_the_engine_judges_differently_is_flagged() -> None:
    steps = [{"seat": 0, "do": "discard", "card": "8♦"}]  # expects ok, but seat 0 has not drawn
    ui = scenario_player(WORKED_EXAMPLE, steps)
    click(ui)
    assert "cannot discard now" in ui.log.value and "(L-5.5)" in ui.log.value and "lp-mismatch" in ui.log.value
    steps = [{"seat": 0, "do": "take_discard", "expect": {"error": "wrong_phase"}}]  # expects a refusal
    ui = scenario_player(WORKED_EXAMPLE, steps)
    click(ui)
    assert "lp-mismatch" in ui.log.value


def test_the_player_accepts_a_game_state_and_action_pairs() -> None:
    game = GameState.from_position(WORKED_EXAMPLE)
    ui = scenario_player(game, [(0, Action.take_discard()), (0, {"do": "discard", "card": "7♦"})])
    click(ui, 2)
    assert discard_top_on_board(ui.board.value) == "7♦"  # L-5.7: the card just taken may be discarded
    assert game.phase == "draw"  # the player worked on a copy


def test_malformed_steps_and_positions_raise_typed_errors() -> None:
    with pytest.raises(liverpool.InvalidArgumentError) as missing_seat:
        scenario_player(WORKED_EXAMPLE, [{"do": "take_discard"}])
    assert missing_seat.value.code == "invalid_argument"
    with pytest.raises(liverpool.InvalidArgumentError):
        scenario_player(WORKED_EXAMPLE, [{"seat": 0, "do": "fly"}])
    with pytest.raises(liverpool.InvalidArgumentError):
        scenario_player(WORKED_EXAMPLE, ["take_discard"])
    with pytest.raises(liverpool.PositionError):
        scenario_player({"hands": [["7♠", "7♠", "7♠"], [], [], []]}, [])  # three copies: the deck has two


def test_board_html_escapes_the_message_and_shows_round_scores() -> None:
    # RULES.md L-9.2: empty stock, one discard: the draw ends the round with no winner and
    # every hand scores: A♠ K♦ 4♥ = 29 (L-11), JK 2♣ = 17.
    game = GameState.from_position(
        {"round": 1, "hands": [["A♠", "K♦", "4♥"], ["JK", "2♣"]], "discard": ["4♠"], "dealer": 1, "active": 0}
    )
    event = game.apply(0, Action.draw_stock())
    # Seats are shown to people from 1.
    assert "no winner" in describe_event(event) and "scores seat 1: 29 · seat 2: 17" in describe_event(event)
    board = board_html(game, message="<b>not bold</b>")
    assert "&lt;b&gt;not bold&lt;/b&gt;" in board and "round scores: seat 1: 29 · seat 2: 17" in board


def test_describe_action_names_the_move() -> None:
    assert describe_action(2, {"do": "swap_joker", "meld": 0, "card": "6♥", "to_meld": 1}) == (
        "seat 3: swap 6♥ for the joker of meld 1, joker to meld 2"  # melds shown from 1
    )
    assert describe_action(0, Action.go_down([["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]])) == (
        "seat 1: go down with 7♠ 7♥ 7♦ | 9♠ 9♥ 9♦"
    )


@pytest.mark.parametrize(
    ("language", "progress", "refused", "took"),
    [
        (
            "pt",
            "passo 0 de 12",
            "jogada recusada: só se acrescentam cartas num turno depois daquele em que se baixou (L-5.3)",
            "o jogador 1 pegou 7♦ do descarte",
        ),
        (
            "es",
            "paso 0 de 12",
            "jugada rechazada: solo se añaden cartas en un turno posterior al de la bajada (L-5.3)",
            "el jugador 1 tomó 7♦ del descarte",
        ),
    ],
)
def test_the_player_speaks_the_learners_language(language: str, progress: str, refused: str, took: str) -> None:
    steps = [dict(step) for step in STEPS]
    steps[2]["note"] = "L-5.3: no lay-off on the go-down turn"  # a notebook's note stays as given
    with liverpool.i18n.language(language):
        ui = scenario_player(WORKED_EXAMPLE, steps)
        assert ui.progress.value == progress
        click(ui)
        assert took in ui.board.value and took in ui.log.value
        click(ui, 2)
        assert refused in ui.board.value
        assert "<i>L-5.3: no lay-off on the go-down turn</i>" in ui.log.value
        # Cards and codes never change with the language: the board is still the same game.
        assert sorted(hand_on_board(ui.board.value, 0)) == sorted(["3♣", "4♣", "5♣", "8♦", "A♥"])


def test_describe_action_in_portuguese_and_spanish() -> None:
    swap = {"do": "swap_joker", "meld": 0, "card": "6♥", "to_meld": 1}
    with liverpool.i18n.language("pt"):
        assert describe_action(2, swap) == "jogador 3: trocar 6♥ pelo coringa da combinação 1, coringa para a combinação 2"
    with liverpool.i18n.language("es"):
        assert describe_action(2, swap) == (
            "jugador 3: cambiar 6♥ por el comodín de la combinación 1, comodín a la combinación 2"
        )


@pytest.mark.parametrize("language", ["pt", "es"])
def test_the_player_board_says_the_phase_in_words_not_its_id(language: str) -> None:
    with i18n.language(language):
        ui = scenario_player(WORKED_EXAMPLE, STEPS)
        for _ in range(len(STEPS) + 1):
            state, board = ui.current(), ui.board.value
            text = re.sub(r"<svg.*?</svg>", " ", board, flags=re.S)
            assert not re.search(rf"\b(phase|fase) {state.phase}\b", text) and f">{state.phase}<" not in text
            seat = state.to_act if state.to_act is not None else state.active
            words = i18n.text("cards", f"phase_{state.phase}", seat=i18n.seat_phrase(seat, "subject"))
            assert html.escape(words) in text
            assert "lp-state" in board  # drawn like the card table's board
            click(ui)
