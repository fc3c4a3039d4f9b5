"""The card table driven from plain pytest: select cards through the hand widget, click the
enabled buttons, read the HTML (NOTEBOOK_TESTING.md, level 1). Whole games are played to the
end by clicking; the engine is the judge of every move."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import liverpool  # noqa: E402
from liverpool import Action, Card, GameState, NativeBot, RuleSet, i18n  # noqa: E402
from liverpool.game_loop import GameDriver  # noqa: E402
from liverpool.widgets import card_table  # noqa: E402
from liverpool.widgets.table import ACTION_NAMES, hint_facts  # noqa: E402

PACKAGE = Path(liverpool.__file__).parent


def enabled(ui: Any) -> list[str]:
    return [name for name, button in ui.buttons.items() if not button.disabled]


def is_refused(ui: Any) -> bool:
    return "color:#c0392b" in ui.message.value


def click(ui: Any, name: str) -> None:
    assert not ui.buttons[name].disabled, f"{name} is not offered: {ui.message.value}"
    ui.buttons[name].click()


def click_like(ui: Any, action: Action) -> None:
    """Make ``action`` for seat 0 the way a person would: select cards, pick melds, click."""
    name = action.name
    if name == "cut":
        ui.cut_size.value = action.size or 0
    elif name == "go_down":
        for meld in action.melds or []:
            ui.select(meld)
            ui.add_meld_button.click()
            assert not is_refused(ui), ui.message.value
    elif name == "call_liverpool":
        ui.meld_pick.value = action.meld
        ui.end_pick.value = action.end or ""
    elif name in ("lay_off", "swap_joker"):
        ui.select(action.cards if name == "lay_off" else [action.card])
        ui.meld_pick.value = action.meld
        if name == "swap_joker":
            ui.to_pick.value = action.to_meld
        ui.end_pick.value = action.end or ""
    elif name == "discard":
        ui.select([action.card])
    click(ui, name)


def play_greedy_by_clicks(ui: Any, seed: int, max_clicks: int = 4000) -> Counter[str]:
    """Seat 0 plays a greedy bot's choices, each made through the widget. Returns how
    many times each button was clicked."""
    helper = NativeBot("greedy", seed=seed)
    clicks = 0
    clicked: Counter[str] = Counter()
    while not ui.driver.state.is_game_over:
        assert clicks < max_clicks
        state = ui.driver.state
        assert ui.driver.waiting_for_human
        action = helper.choose(state, 0)
        before = len(state.history)
        click_like(ui, action)
        assert not is_refused(ui), ui.message.value
        assert len(ui.driver.state.history) > before
        clicks += 1
        clicked[action.name] += 1
    return clicked


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_a_whole_game_by_clicking_the_greedy_moves(preset: str) -> None:
    ui = card_table(rules=preset, bots=("greedy", "random", "greedy"), seed=4)
    play_greedy_by_clicks(ui, seed=4)
    state = ui.driver.state
    assert state.is_game_over and enabled(ui) == []
    # The scores table has one row per round and the engine's totals.
    rows = re.findall(r"<tr><td[^>]*>(\d+)</td>", ui.scores.value)
    assert [int(r) for r in rows] == list(range(1, state.rules.rounds + 1))
    assert all(f">{total}</td>" in ui.scores.value for total in state.totals)
    assert "game over" in ui.log.value and "(L-10.3)" in ui.message.value


@pytest.mark.parametrize("seed", [0, 7])
def test_a_whole_game_by_random_clicks_on_enabled_buttons(seed: int) -> None:
    """Any enabled button, any selection: the table never gets stuck and the game ends."""
    rng = random.Random(seed)
    ui = card_table(rules=RuleSet.presets()[seed % 3], seed=seed, bots=("greedy", "greedy"))
    for _ in range(5000):
        if ui.driver.state.is_game_over:
            break
        names = enabled(ui)
        assert names, ui.message.value
        before = ui.driver.state.clone()
        if "discard" in names and "go_down" in names and ui.proposal.options and rng.random() < 0.7:
            ui.proposal.value = ui.proposal.options[0][1]
            click(ui, "go_down")
            assert not is_refused(ui)
            continue
        name = rng.choice(names)
        keys = [item["key"] for item in ui.hand.items]
        ui.hand.selected = rng.sample(keys, k=min(len(keys), rng.choice([0, 1, 1, 1, 2])))
        if ui.meld_pick.options:
            ui.meld_pick.value = rng.choice(ui.meld_pick.options)[1]
            ui.to_pick.value = rng.choice(ui.to_pick.options)[1]
        click(ui, name)
        if is_refused(ui):
            assert ui.driver.state == before  # a refused move changes nothing
    assert ui.driver.state.is_game_over


def test_profile_w_offers_the_calls_and_the_draw_waits_for_the_window() -> None:
    ui = card_table(rules="liverpool-classic", bots=("greedy", "random", "greedy"), seed=4)
    clicked = play_greedy_by_clicks(ui, seed=4)
    # W-7: seat 0 called on a discard that fits a table meld, through the buttons.
    assert clicked["call_rummy"] + clicked["call_liverpool"] > 0
    assert "called Liverpool" in ui.log.value and "(W-7.2)" in ui.log.value
    # L-5.1: seat 0's draws from the stock let the bots answer the buying window first.
    assert clicked["draw_stock"] > 0 and "you left" in ui.log.value


def test_decline_is_offered_before_drawing_and_not_after() -> None:
    ui = card_table(seed=5)
    state = ui.driver.state
    while state.phase != "draw" or state.discard_top is None:
        action = NativeBot("greedy", seed=1).choose(state, 0)
        click_like(ui, action)
        state = ui.driver.state
    assert {"take_discard", "decline_discard", "draw_stock"} <= set(enabled(ui))
    top = str(state.discard_top)
    click(ui, "decline_discard")
    state = ui.driver.state
    if state.to_act == 0 and state.phase == "draw":
        # L-5.1: declined, the window closed: only the draw is left.
        assert enabled(ui) == ["draw_stock"]
        assert "take_discard" not in enabled(ui) and (top in ui.message.value or state.discard_top is None)


def test_the_log_shows_the_bots_passes_and_no_hidden_card() -> None:
    ui = card_table(seed=1)
    play_greedy_by_clicks(ui, seed=1)
    log = ui.log.value
    assert re.search(r"seat \d passed: did not buy", log)
    assert "seat 2 drew from the stock" in log  # seat index 1, shown from 1


def position_down_and_playing() -> dict[str, Any]:
    """RULES.md L-11 after seat 0 went down with 7s and 9s, then drew 2♠ on its next turn."""
    return {
        "round": 1,
        "dealer": 3,
        "active": 0,
        "phase": "play",
        "hands": [
            ["3♣", "4♣", "5♣", "A♥", "2♠"],
            ["2♦", "6♠", "10♣", "5♦"],
            ["2♥", "3♥", "5♠", "6♥", "8♠", "10♦", "J♥", "K♥", "K♦", "A♣"],
            ["2♣", "3♦", "5♥", "6♣", "8♥", "10♠", "J♠", "Q♣", "A♦", "JK"],
        ],
        "stock": ["3♠", "8♣"],
        "discard": ["9♣", "8♦", "K♠", "6♦", "J♣"],
        "table": [
            {"owner": 1, "cards": ["4♦", "4♠", "4♥"]},
            {"owner": 1, "cards": ["Q♠", "Q♥", "Q♦"]},
            {"owner": 0, "cards": ["7♠", "7♥", "7♦"]},
            {"owner": 0, "cards": ["9♠", "9♥", "9♦"]},
        ],
        "down": [True, True, False, False],
    }


def table_at(position: dict[str, Any], language: str | None = None) -> Any:
    ui = card_table(seed=0, language=language)
    state = GameState.from_position(position)
    ui.start(GameDriver(state, {seat: NativeBot("greedy", seed=seat) for seat in range(1, state.players)}))
    return ui


@pytest.mark.parametrize(
    ("language", "refused_word", "select_word"),
    [("en", "not allowed", "Select exactly one card"), ("pt", "jogada recusada", "Selecione"), ("es", "jugada rechazada", "Selecciona")],
)
def test_refused_moves_are_explained_and_change_nothing(language: str, refused_word: str, select_word: str) -> None:
    ui = table_at(position_down_and_playing(), language)
    before = ui.driver.state.clone()
    assert set(enabled(ui)) >= {"lay_off", "discard"}
    # Discard with nothing selected: the table asks for one card.
    click(ui, "discard")
    assert is_refused(ui) and select_word in ui.message.value
    assert ui.driver.state == before
    # A♥ does not fit the set of 4s: the engine refuses with its code and rule id.
    ui.select(["A♥"])
    ui.meld_pick.value = 0
    click(ui, "lay_off")
    error = None
    try:
        before.check(0, Action.lay_off(0, ["A♥"]))
    except liverpool.LiverpoolError as exc:
        error = exc
    assert error is not None
    message = ui.message.value
    # The sentence in the language and its rule id, never the error code.
    assert is_refused(ui) and f"{refused_word}: " in message and error.code not in message
    assert error.rule is None or error.rule in message
    assert ui.driver.state == before
    # The legal lay-off of L-11 goes through, and seat 0's log line is in the language.
    ui.select(["4♣"])
    click(ui, "lay_off")
    assert not is_refused(ui)
    with i18n.language(language):
        expected = liverpool.narration.describe_event(
            {"seat": 0, "event": "laid_off", "meld": 0, "cards": ["4♣"]}, viewer=0
        )
    assert expected in ui.log.value


def test_a_swap_through_the_pickers() -> None:
    # A run 5♣-8♣ whose joker stands for 5♣ (L-7.2): seat 0 holds the 5♣.
    position = position_down_and_playing()
    position["table"].append({"owner": 1, "cards": ["JK", "6♣", "7♣", "8♣"]})
    position["hands"][0] = ["5♣", "A♥", "2♠", "K♣"]
    ui = table_at(position)
    assert "swap_joker" in enabled(ui)
    before = ui.driver.state.clone()
    ui.select(["A♥"])  # A♥ is not the card the joker stands for
    ui.meld_pick.value, ui.to_pick.value = 4, 0
    click(ui, "swap_joker")
    assert is_refused(ui) and "cannot swap A♥" in ui.message.value and ui.driver.state == before
    assert "swap_mismatch" not in ui.message.value  # the learner reads the sentence, not the code
    ui.select(["5♣"])
    click(ui, "swap_joker")
    assert not is_refused(ui)
    table = ui.driver.state.table
    assert [str(c) for c in table[4].meld.cards] == ["5♣", "6♣", "7♣", "8♣"]
    assert "JK" in [str(c) for c in table[0].meld.cards]
    assert "you put 5♣ in place of the joker of meld 4; the joker went to meld 0 (L-7.2)" in ui.log.value


def test_hints_name_accepted_go_downs_and_consistent_outs() -> None:
    ui = card_table(seed=2, bots=("greedy", "greedy", "greedy"))
    helper = NativeBot("greedy", seed=2)
    checked_go_downs = checked_outs = 0
    rules = ui.driver.state.rules
    while not ui.driver.state.is_game_over and ui.driver.state.round <= 3:
        state = ui.driver.state
        if state.phase in ("draw", "play"):
            ui.hint_button.click()
            facts = hint_facts(ui.driver)
            assert ui.hint.value
            if facts.go_down is not None:
                assert state.can(0, facts.go_down)
                assert all(str(c) in ui.hint.value for meld in facts.go_down.melds for c in meld)
                checked_go_downs += 1
            deck = Counter(str(c) for c in liverpool.new_deck(rules, state.players))
            visible = Counter(str(c) for c in state.hand(0)) + Counter(str(c) for c in ui.driver.seen_by_human())
            for card, unseen in facts.outs:
                assert 0 <= unseen <= deck[str(card)] - visible[str(card)]
                checked_outs += 1
            hand = Counter(str(c) for c in state.hand(0))
            assert all(hand[str(card)] > 0 for card, *_ in facts.discards)
        action = helper.choose(state, 0)
        if action.name == "draw_stock" and ui.buttons["draw_stock"].disabled:
            click(ui, "decline_discard")
        else:
            click_like(ui, action)
    assert checked_go_downs > 0 and checked_outs > 0


def test_the_exact_cut_is_announced_and_scored() -> None:
    ui = card_table(seed=0)  # seat 0 cuts first with this seed
    state = ui.driver.state
    assert state.phase == "cut" and state.to_act == 0 and enabled(ui) == ["cut"]
    ui.cut_size.value = state.rules.exact_cut(state.round, state.players)
    click(ui, "cut")
    assert "an exact cut: cut bonus for you (L-2.3)" in ui.log.value
    while ui.driver.state.round == 1 and not ui.driver.state.is_round_over:
        ui.auto_button.click()
    assert "cut bonus (L-2.3, L-10.2): you" in ui.log.value
    assert "round 1 over" in ui.message.value  # announced until the learner's next move
    assert "(cut bonus)" in ui.scores.value


def test_new_game_uses_the_pickers() -> None:
    ui = card_table(seed=0)
    ui.profile.value = "contract"
    ui.seed.value = 9
    for picker, kind in zip(ui.bot_pickers, ["random", "greedy", "", "", ""]):
        picker.value = kind
    ui.new_game_button.click()
    state = ui.driver.state
    assert state.players == 3 and state.rules.name == RuleSet("contract").name
    assert [ui.driver.bots[s].kind for s in (1, 2)] == ["random", "greedy"]
    for picker in ui.bot_pickers:
        picker.value = ""
    ui.new_game_button.click()
    assert is_refused(ui) and ui.driver.state is state  # no seat for a bot: nothing changes


def test_labels_speak_the_tables_language() -> None:
    ui = card_table(seed=3, language="es")
    assert ui.buttons["discard"].description == "Descartar"
    assert ui.hint_button.description == "Pista"
    assert i18n.get_language() == "en"  # the table does not change the global language
    assert any(word in ui.log.value for word in ("robó", "tomó", "pasó", "cortó", "rechazó"))


def test_dom_hooks() -> None:
    ui = card_table(seed=0)
    assert "lp-table" in ui.box._dom_classes
    for name in ACTION_NAMES:
        assert {"lp-action", f"lp-action-{name}"} <= set(ui.buttons[name]._dom_classes)
    assert "lp-hint" in ui.hint_button._dom_classes
    assert "lp-log" in ui.log._dom_classes and "lp-scores" in ui.scores._dom_classes
    assert "lp-message" in ui.message._dom_classes


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), language=st.sampled_from(i18n.LANGUAGES))
def test_narration_never_names_a_bots_hidden_card(seed: int, language: str) -> None:
    """A bot's stock draw and penalty card are never named to seat 0 (two rounds per game)."""
    driver = GameDriver.new(seed=seed, bots=("greedy", "random", "greedy"))
    me = NativeBot("greedy", seed=seed)
    with i18n.language(language):
        while not driver.is_over and driver.state.round <= 2:
            steps = list(driver.run_bots())
            if driver.waiting_for_human:
                steps.append(driver.play(me.choose(driver.state, 0)))
            for step in steps:
                words = set(re.split(r"[\s:;,()|.]+", step.text))
                event = step.event
                if step.seat == 0:
                    continue
                if event["event"] == "drew_stock" and event.get("card"):
                    assert event["card"] not in words, step.text
                # The learner's own draw after a buy is named, and with two decks it may be the
                # other copy of the penalty card: only then may that card's name appear.
                own_draw = (event.get("then") or {}).get("card") if (event.get("then") or {}).get("seat") == 0 else None
                if event["event"] == "bought" and event["penalty"] not in (event["card"], own_draw):
                    assert event["penalty"] not in words, step.text


def _catalogue(lang: str) -> dict[str, str]:
    path = resources.files("liverpool.i18n").joinpath("catalogues", lang, "table.json")
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_table_key_used_exists_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    # Keys written in the source...
    used: set[str] = set()
    for module in ("narration.py", "game_loop.py", "widgets/table.py", "widgets/scenario.py"):
        source = (PACKAGE / module).read_text(encoding="utf-8")
        used |= set(re.findall(r'_t\("([a-z_]+)"', source))
        used |= {f"{k}_you" for k in re.findall(r'_say\("([a-z_]+)"', source)}
        used |= set(re.findall(r'_say\("([a-z_]+)"', source))
    used |= {f"button_{name}" for name in ACTION_NAMES}
    catalogues = {lang: _catalogue(lang) for lang in i18n.LANGUAGES}
    for lang, keys in catalogues.items():
        assert used <= set(keys), (lang, used - set(keys))
        assert set(keys) == set(catalogues["en"])
        for key, template in keys.items():
            assert i18n.placeholders(template) == i18n.placeholders(catalogues["en"][key]), (lang, key)
    # ...and keys built at run time: play with a lookup that fails on a missing key.
    missing: list[str] = []
    real_text = i18n.text

    def checked(domain: str, key: str, /, lang: str | None = None, **params: Any) -> str:
        if domain == "table" and key not in catalogues["en"]:
            missing.append(key)
        return real_text(domain, key, lang=lang, **params)

    monkeypatch.setattr(i18n, "text", checked)
    monkeypatch.setattr(liverpool.narration, "text", checked)
    for lang in i18n.LANGUAGES:
        ui = card_table(seed=5, language=lang, bots=("random", "greedy"))
        for _ in range(60):
            if ui.driver.state.is_game_over:
                break
            ui.hint_button.click()
            ui.auto_button.click()
        for action in ui.driver.state.legal_actions(ui.driver.state.to_act)[:3]:
            with i18n.language(lang):
                liverpool.narration.describe_action(0, action)
    assert missing == []


# --- what a newcomer sees (issue 6, part 2) ---------------------------------------------------


def advance_until(ui: Any, done: Any, limit: int = 3000) -> Any:
    """Let the helper bot play seat 0 (through the table's own button) until ``done(driver)``."""
    for _ in range(limit):
        if done(ui.driver):
            return ui
        ui.auto_button.click()
    raise AssertionError("the wanted moment never came")


def face_cards(markup: str) -> Counter[str]:
    return Counter(re.findall(r'class="lp-card-face[^"]*" data-card="([^"]+)"', markup))


def prompt_text(ui: Any) -> str:
    found = re.search(r"<div class='lp-prompt' style='([^']*)'>([^<]*)</div>", ui.message.value)
    assert found is not None, ui.message.value
    return found.group(2)


@pytest.mark.parametrize(("language", "label"), [("en", "Your hand"), ("pt", "Sua mão"), ("es", "Tu mano")])
def test_the_hand_is_shown_once_under_its_label(language: str, label: str) -> None:
    ui = advance_until(card_table(seed=3, language=language), lambda d: d.state.phase == "play" and d.waiting_for_human)
    hand = ui.driver.state.hand(0)
    # The board draws no card of seat 0's hand: its faces are the discard's top and the table.
    state = ui.driver.state
    expected = Counter(str(c) for m in state.table for c in m.meld.cards)
    if state.discard_top is not None:
        expected[str(state.discard_top)] += 1
    assert face_cards(ui.board.value) == expected
    assert "lp-own-hand-count" in ui.board.value and f">{len(hand)} " in ui.board.value
    # The hand widget holds exactly the hand, with its label.
    assert Counter(str(c) for c in ui.hand.cards) == Counter(str(c) for c in hand)
    assert label in ui.hand_label.value


PROMPTS = {
    # language: (cut, draw, buy, play, round over) — a fragment the learner must read
    "en": ("You cut the deck", "Your turn: take", "Do you buy", "Go down if you can", "click Next round"),
    "pt": ("Você corta o baralho", "Sua vez: pegue", "Você compra", "Baixe se puder", "clique em Próxima rodada"),
    "es": ("Cortas la baraja", "Tu turno: toma", "¿Compras", "Bájate si puedes", "pulsa Siguiente ronda"),
}


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_prompt_box_names_the_decision_in_every_phase(language: str) -> None:
    cut, draw, buy, play, over = PROMPTS[language]
    ui = card_table(seed=0, language=language)  # seat 0 cuts first with this seed
    assert ui.driver.state.phase == "cut" and prompt_text(ui).startswith(cut)
    seen: set[str] = set()
    for _ in range(3000):
        state = ui.driver.state
        if state.is_game_over:
            break
        text = prompt_text(ui)
        style = re.search(r"<div class='lp-prompt' style='([^']*)'", ui.message.value)
        assert style is not None and "#f39c12" in style.group(1)  # amber: the learner decides
        if state.phase == "draw" and "take_discard" in enabled(ui):
            assert text.startswith(draw) and str(state.discard_top) in text
            seen.add("draw")
        elif state.phase == "buying":
            assert text.startswith(buy) and str(state.discard_top) in text
            seen.add("buy")
        elif state.phase == "play" and not state.down[0]:
            assert text.startswith(play)
            seen.add("play")
        elif state.phase == "round_over":
            assert over in text and enabled(ui) == ["next_round"]
            seen.add("over")
            break
        ui.auto_button.click()
    assert seen == {"draw", "buy", "play", "over"}, seen
    # The prompt sits right above the hand, and the hand right above the buttons.
    children = list(ui.box.children)
    hand_at = next(i for i, c in enumerate(children) if ui.hand in getattr(c, "children", ()))
    assert children.index(ui.message) == hand_at - 1
    assert ui.buttons["cut"] in children[hand_at + 1].children


def test_enabled_buttons_stand_out_and_disabled_ones_have_no_style() -> None:
    ui = card_table(seed=6, rules="liverpool-classic")
    renders = 0
    while not ui.driver.state.is_game_over and renders < 400:
        legal = {a.name for a in ui.driver.legal()}
        state, seat = ui.driver.state, ui.driver.human
        if ui.driver.waiting_for_human and state.can(seat, Action.decline_discard()):
            legal.add("decline_discard")  # accepted by the engine though never listed (L-5.1)
        for name, button in ui.buttons.items():
            assert button.disabled == (name not in legal), name
            if button.disabled:
                assert button.button_style == ""
            else:
                assert button.button_style in ("primary", "success", "warning")
            assert button.layout.width == "auto"  # the label is never cut
        ui.auto_button.click()
        renders += 1
    assert renders > 50


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_rule_presets_have_readable_names_in_every_language(language: str) -> None:
    ui = card_table(seed=0, language=language)
    labels = dict((value, label) for label, value in ui.profile.options)
    assert list(labels) == RuleSet.presets()
    for preset, label in labels.items():
        assert label != preset and re.search(r"\([LCW]\)$", label), label
        assert i18n.has_text("table", "profile_" + preset.replace("-", "_"))
    expected = {"en": "Liverpool classic (W)", "pt": "Liverpool clássico (W)", "es": "Liverpool clásico (W)"}
    assert labels["liverpool-classic"] == expected[language]
    # The seat pickers read as players, not raw bot ids, and "no player" is said plainly.
    no_player = {"en": "no player", "pt": "sem jogador", "es": "sin jugador"}[language]
    assert any(no_player in label for label, value in ui.bot_pickers[0].options if value == "")


def test_seat_pickers_show_the_seats_in_play_and_one_free_seat() -> None:
    ui = card_table(seed=0, bots=("greedy", "random"))
    shown = [p.layout.display != "none" for p in ui.bot_pickers]
    assert shown == [True, True, True, False, False]
    assert [p.value for p in ui.bot_pickers[:3]] == ["greedy", "random", ""]
    ui.bot_pickers[2].value = "random"  # a third bot: the next seat appears
    assert [p.layout.display != "none" for p in ui.bot_pickers] == [True, True, True, True, False]
    ui.new_game_button.click()
    assert ui.driver.state.players == 4


@given(kinds=st.lists(st.sampled_from(["", "greedy", "random"]), min_size=1, max_size=8))
def test_shown_seats_are_every_seat_up_to_the_last_bot_and_one_more(kinds: list[str]) -> None:
    from liverpool.widgets.table import shown_seats

    shown = shown_seats(kinds)
    assert len(shown) == len(kinds)
    assert all(shown[i] for i, kind in enumerate(kinds) if kind)  # a seat with a bot is never hidden
    hidden = [i for i, s in enumerate(shown) if not s]
    assert all(not kinds[i] for i in hidden)
    assert sum(1 for i, s in enumerate(shown) if s and not any(kinds[i:])) <= 1  # one free seat at most


def test_the_log_is_newest_first_with_bullets_and_marks() -> None:
    ui = card_table(seed=0)
    state = ui.driver.state
    ui.cut_size.value = state.rules.exact_cut(state.round, state.players)
    click(ui, "cut")
    advance_until(ui, lambda d: d.state.round == 2)
    log = ui.log.value
    assert log.startswith("<ul") and "<ol" not in log and "list-style:disc" in log
    texts = [step.text for step in ui.driver.steps]
    positions = [log.find(html_escape(t)) for t in (texts[0], texts[len(texts) // 2], texts[-1])]
    assert all(p >= 0 for p in positions) and positions[0] > positions[1] > positions[2]
    # The learner's moves are marked; the bots' are not.
    mine = re.findall(r"<li class='lp-log-move lp-log-you[^']*'[^>]*>([^<]*)</li>", log)
    assert mine and all(t.startswith("you ") for t in mine)
    others = re.findall(r"<li class='lp-log-move'[^>]*>([^<]*)</li>", log)
    assert others and all(t.startswith("seat ") for t in others)
    assert re.search(r"<li class='lp-log-move[^']*lp-log-round-start'[^>]*>round 2 starts", log)
    # The exact cut and the round's end are separators, the round end above the move that caused it.
    assert "lp-log-move lp-log-you lp-log-cut-bonus" in log
    assert re.search(r"lp-log-round-end lp-log-round-over'[^>]*>round 1 over", log)
    assert re.search(r"lp-log-round-end lp-log-cut-bonus'[^>]*>cut bonus \(L-2.3, L-10.2\): you", log)
    ended = next(step for step in ui.driver.steps if step.round_end)
    assert log.find("round 1 over") < log.find(html_escape(ended.text))


def html_escape(text: str) -> str:
    import html

    return html.escape(text)


@pytest.mark.parametrize(
    ("language", "banner_words"),
    [("en", ("You win", "wins the game", "Shared win", "share the win")),
     ("pt", ("Você venceu", "venceu o jogo", "Vitória dividida", "divide a vitória")),
     ("es", ("Ganaste", "ganó la partida", "Victoria compartida", "Compartes la victoria"))],
)
def test_game_over_shows_a_winner_banner_and_marked_totals(language: str, banner_words: tuple[str, ...]) -> None:
    ui = advance_until(card_table(seed=4, language=language, bots=("greedy", "random")), lambda d: d.state.is_game_over)
    state = ui.driver.state
    banner = re.search(r"<div class='lp-winner-banner'[^>]*>(.*?)</div>", ui.message.value)
    assert banner is not None and any(word in banner.group(1) for word in banner_words)
    if 0 in state.winners:
        assert banner_words[0] in banner.group(1) or banner_words[3] in banner.group(1)
    # Trophies on the engine's winners' totals, and only there.
    assert ui.scores.value.count("class='lp-winner'") == len(state.winners)
    for seat in state.winners:
        assert re.search(rf"class='lp-winner'[^>]*>.*?</svg>{state.totals[seat]}</td>", ui.scores.value)
    legend = {"en": "★ went out", "pt": "★ bateu", "es": "★ salió"}[language]
    assert legend in ui.scores.value


@pytest.mark.parametrize("preset", ["liverpool", "liverpool-classic"])
def test_call_buttons_show_only_where_the_rules_have_calls(preset: str) -> None:
    """W-7: the rummy and Liverpool calls exist in profile W only; elsewhere their buttons are hidden."""
    ui = card_table(seed=1, rules=preset)
    rules = json.loads(RuleSet(preset).to_json())
    assert (ui.buttons["call_rummy"].layout.display != "none") == rules["rummy_call"]
    assert (ui.buttons["call_liverpool"].layout.display != "none") == rules["liverpool_call"]
    assert ui.buttons["discard"].layout.display != "none"
