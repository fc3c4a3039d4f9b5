"""liverpool.teach.display: SVG cards, rows, melds and boards (well-formed, translated, hiding what must be hidden)."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import liverpool
from liverpool import Card, GameState, Meld, i18n
from liverpool.teach import display

SVG = "{http://www.w3.org/2000/svg}"
ALL_CARDS = [Card.from_id(i) for i in range(53)]


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def face_svgs(markup: str) -> list[ET.Element]:
    root = parse(f"<div>{markup}</div>")
    return [e for e in root.iter(f"{SVG}svg") if "lp-card-face" in e.get("class", "")]


def back_svgs(markup: str) -> list[ET.Element]:
    root = parse(f"<div>{markup}</div>")
    return [e for e in root.iter(f"{SVG}svg") if "lp-card-back" in e.get("class", "")]


def fills(svg: str) -> set[str]:
    return set(re.findall(r'fill="(#[0-9a-f]{6})"', svg))


def played_state(seed: int, steps: int) -> GameState:
    """A game a few moves in, going down whenever the engine offers it, so the table has melds."""
    state = GameState(seed=seed)
    for step in range(steps):
        if state.is_round_over:
            break
        actions = state.legal_actions()
        go_downs = [a for a in actions if a.name == "go_down"]
        assert state.to_act is not None
        state.apply(state.to_act, go_downs[0] if go_downs else actions[(step * 7) % len(actions)])
    return state


# --- one card ---------------------------------------------------------------


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_every_card_is_well_formed_svg_named_for_screen_readers(card: Card) -> None:
    svg = display.card_svg(card)
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == display.card_name(card)
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}title").text == display.card_name(card)  # type: ignore[union-attr]
    assert root.get("data-card") == str(card)
    assert root.find(f"{SVG}rect").get("rx")  # type: ignore[union-attr]  # rounded corners


def test_suit_colours_red_black_and_a_distinct_joker() -> None:
    red, black, joker = fills(display.card_svg("7♥")), fills(display.card_svg("7♠")), fills(display.card_svg("JK"))
    assert fills(display.card_svg("Q♦")) & red - {"#ffffff"} and "#c62828" in red
    assert "#c62828" not in black and "#c62828" not in fills(display.card_svg("2♣"))
    assert "#1b1b1b" in black and "#1b1b1b" not in red
    # The joker has its own colour, a star and its word, and none of the suit colours.
    assert not joker & {"#c62828", "#1b1b1b"}
    assert "<polygon" in display.card_svg("JK") and "<polygon" not in display.card_svg("7♥")
    assert ">JOKER<" in display.card_svg("JK")
    with i18n.language("es"):
        assert ">COMODÍN<" in display.card_svg("JK")


def test_selected_and_highlight_change_the_drawing() -> None:
    plain, chosen, lit = (display.card_svg("5♣", selected=s, highlight=h) for s, h in [(0, 0), (1, 0), (0, 1)])
    assert len({plain, chosen, lit}) == 3
    assert "lp-selected" in chosen and "translateY" in chosen and "lp-selected" not in plain
    assert "lp-highlight" in lit and "lp-highlight" not in plain


def test_width_scales_the_card() -> None:
    assert parse(display.card_svg("5♣", width=80)).get("width") == "80"
    assert parse(display.card_svg("5♣", width=80)).get("height") == "112"


def test_card_back_shows_no_card() -> None:
    back = display.card_back_svg()
    root = parse(back)
    assert root.get("aria-label") == "face-down card"
    assert "data-card" not in back
    with i18n.language("pt"):
        assert parse(display.card_back_svg()).get("aria-label") == "carta virada para baixo"


@pytest.mark.parametrize(
    ("lang", "seven", "ace", "joker"),
    [
        ("en", "7 of hearts", "ace of spades", "joker"),
        ("pt", "7 de copas", "ás de espadas", "coringa"),
        ("es", "7 de corazones", "as de picas", "comodín"),
    ],
)
def test_card_names_in_each_language(lang: str, seven: str, ace: str, joker: str) -> None:
    with i18n.language(lang):
        assert display.card_name("7♥") == seven
        assert display.card_name("A♠") == ace
        assert display.card_name("JK") == joker
        assert parse(display.card_svg("7♥")).get("aria-label") == seven
    assert display.card_name("7♥") == "7 of hearts"


def test_every_card_has_its_own_name_in_every_language() -> None:
    for lang in i18n.LANGUAGES:
        with i18n.language(lang):
            names = [display.card_name(c) for c in ALL_CARDS]
        assert len(set(names)) == 53, lang


# --- order and keys ---------------------------------------------------------


def test_sort_by_suit_and_by_rank() -> None:
    hand = liverpool.parse_cards("JK K♠ 2♥ A♠ 2♠ 10♣ 2♥ A♦")
    assert [str(c) for c in display.sort_cards(hand, by="suit")] == ["A♠", "2♠", "K♠", "2♥", "2♥", "A♦", "10♣", "JK"]
    assert [str(c) for c in display.sort_cards(hand, by="rank")] == ["A♠", "A♦", "2♠", "2♥", "2♥", "10♣", "K♠", "JK"]
    with pytest.raises(ValueError):
        display.sort_cards(hand, by="colour")  # type: ignore[arg-type]


@given(st.lists(st.integers(0, 52), max_size=30), st.sampled_from(["suit", "rank"]))
def test_sorting_is_a_permutation_with_jokers_last(ids: list[int], by: display.SortOrder) -> None:
    cards = [Card.from_id(i) for i in ids]
    ordered = display.sort_cards(cards, by=by)
    assert Counter(ordered) == Counter(cards)
    jokers = [c.is_joker for c in ordered]
    assert jokers == sorted(jokers)  # all the False first, then the jokers
    naturals = [c for c in ordered if not c.is_joker]
    suit_index = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}
    if by == "suit":
        keys = [(suit_index[c.suit or ""], c.rank) for c in naturals]
    else:
        keys = [(c.rank, suit_index[c.suit or ""]) for c in naturals]
    assert keys == sorted(keys)


def test_duplicate_cards_keep_separate_keys() -> None:
    assert display.card_keys(["7♥", "K♠", "7♥", "JK", "JK"]) == ["7♥#0", "K♠#0", "7♥#1", "JK#0", "JK#1"]


# --- rows and melds ---------------------------------------------------------


@given(st.lists(st.integers(0, 52), max_size=40), st.sampled_from([None, "suit", "rank"]))
def test_any_card_row_is_well_formed_with_one_svg_per_card(ids: list[int], sort: display.SortOrder | None) -> None:
    cards = [Card.from_id(i) for i in ids]
    row = display.cards_html(cards, sort=sort)
    faces = face_svgs(row)
    assert len(faces) == len(cards)
    assert Counter(f.get("data-card") for f in faces) == Counter(str(c) for c in cards)


def test_row_is_left_aligned_and_wraps() -> None:
    row = display.cards_html(["7♥", "8♥"])
    style = parse(row).get("style", "")
    assert "flex-wrap:wrap" in style and "justify-content:flex-start" in style
    assert "right" not in style and "justify-content:flex-end" not in style


def test_highlight_and_selected_mark_one_copy_per_mention() -> None:
    row = display.cards_html(["7♥", "7♥", "8♥"], highlight=["7♥"], selected=["8♥"])
    faces = face_svgs(row)
    assert ["lp-highlight" in f.get("class", "") for f in faces] == [True, False, False]
    assert ["lp-selected" in f.get("class", "") for f in faces] == [False, False, True]


def test_meld_is_labelled_by_kind_in_each_language() -> None:
    run = Meld.run(["JK", "5♥", "6♥", "7♥"])
    labels = {"en": ("set", "run"), "pt": ("trinca", "sequência"), "es": ("trío", "escalera")}
    for lang, (set_word, run_word) in labels.items():
        with i18n.language(lang):
            markup = display.meld_html(run)
            assert f">{run_word}<" in markup
            assert f">{set_word}<" in display.meld_html(Meld.set("9♠ 9♥ 9♦"))
            # The engine says what the joker stands for; the display only shows it.
            assert "4♥" in markup
    assert ">my label<" in display.meld_html(run, label="my label")
    assert len(face_svgs(display.meld_html(run))) == 4


def test_go_down_shows_melds_cards_left_and_points() -> None:
    best = liverpool.best_go_down("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦", round=1)
    assert best is not None
    markup = display.go_down_html(best)
    assert len(face_svgs(markup)) == 11
    assert f"{best.points_left} points left in hand" in markup
    assert markup.count(">set<") == 2
    with i18n.language("pt"):
        assert f"{best.points_left} pontos na mão" in display.go_down_html(best)


def test_arrangement_and_deal() -> None:
    arrangement = liverpool.best_arrangement("7♠ 7♥ 7♦ 3♣ K♦")
    markup = display.arrangement_html(arrangement)
    assert len(face_svgs(markup)) == 5 and f"{arrangement.points} points" in markup
    dealt = liverpool.deal(liverpool.shuffled_deck(5), round=1, dealer=0, cut=30)
    markup = display.deal_html(dealt)
    assert len(face_svgs(markup)) == sum(len(h) for h in dealt.hands) + 1
    assert len(back_svgs(markup)) == 1  # the stock
    assert f"{len(dealt.stock)} cards" in markup


# --- the board --------------------------------------------------------------


def visible_cards(state: GameState, seat: int | None) -> Counter[str]:
    seats = range(state.players) if seat is None else [seat]
    shown = [str(c) for s in seats for c in state.hand(s)]
    shown += [str(c) for tm in state.table for c in tm.meld.cards]
    if state.discard_top is not None:
        shown.append(str(state.discard_top))
    return Counter(shown)


@pytest.mark.parametrize("seed", [3, 11])
def test_board_hides_the_other_hands(seed: int) -> None:
    state = played_state(seed, 80)
    assert state.table, "the test wants a board with melds"
    for seat in [0, 1, None]:
        markup = display.state_html(state, seat=seat)
        faces = face_svgs(markup)
        assert Counter(f.get("data-card") for f in faces) == visible_cards(state, seat)
        # No other name of a card either: the aria-labels are exactly the visible faces.
        labels = Counter(e.get("aria-label") for e in parse(f"<div>{markup}</div>").iter(f"{SVG}svg"))
        expected = Counter(display.card_name(c) for c in visible_cards(state, seat).elements())
        backs = labels.pop("face-down card", 0)
        assert labels == expected
        hidden = 0 if seat is None else sum(n for s, n in enumerate(state.hand_sizes) if s != seat)
        assert backs == hidden + (1 if state.stock_size else 0)


@pytest.mark.parametrize("seed", [3, 11])
def test_board_without_the_own_hand_keeps_the_row_but_no_face_of_it(seed: int) -> None:
    """own_hand=False (the card table draws the hand itself): seat 0's cards are nowhere on
    the board, its row still says how many cards, down, buys and total."""
    state = played_state(seed, 80)
    for lang, count_word in (("en", "cards"), ("pt", "cartas"), ("es", "cartas")):
        with i18n.language(lang):
            markup = display.state_html(state, seat=0, own_hand=False)
            full = display.state_html(state, seat=0)
            note = i18n.text("cards", "own_hand_below")
        faces = Counter(f.get("data-card") for f in face_svgs(markup))
        expected = visible_cards(state, 0) - Counter(str(c) for c in state.hand(0))
        assert faces == expected
        assert Counter(f.get("data-card") for f in face_svgs(full)) == visible_cards(state, 0)
        row = re.search(r'class="lp-own-hand-count"[^>]*>([^<]*)<', markup)
        assert row is not None and f"{state.hand_sizes[0]} {count_word}" in row.group(1) and note in row.group(1)
        # The row of seat 0 is still there, with as many cells as the others.
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", markup)
        assert len(rows) == state.players + 1
        assert len({r.count("<td") for r in rows[1:]}) == 1
        parse(f"<div>{markup}</div>")


def test_board_words_round_contract_turn_and_table_groups() -> None:
    state = played_state(3, 80)
    markup = display.state_html(state, seat=0)
    assert "Round 1 of 7" in markup and ">2 sets<" in markup
    for index, table_meld in enumerate(state.table):
        assert f"#{index + 1} {table_meld.meld.kind}" in markup  # melds shown from 1, like seats
    # Seats are shown to people from 1: seat index 0 is "seat 1".
    assert "seat 1 (you)" in markup and "seat 0" not in markup
    with i18n.language("pt"):
        pt = display.state_html(state, seat=0)
        assert "Rodada 1 de 7" in pt and ">2 trincas<" in pt and "jogador 1 (você)" in pt and "Monte" in pt
        assert ">Turno<" in pt and "jogador 0" not in pt
    with i18n.language("es"):
        es = display.state_html(state, seat=0)
        assert "Ronda 1 de 7" in es and ">2 tríos<" in es and "Mazo" in es and ">Descarte<" in es


@pytest.mark.parametrize(
    ("lang", "one", "three", "none"),
    [("en", "1 card", "3 cards", "no cards"), ("pt", "1 carta", "3 cartas", "nenhuma carta"), ("es", "1 carta", "3 cartas", "ninguna carta")],
)
def test_card_counts_and_contracts_take_their_plural_from_the_translation_layer(
    lang: str, one: str, three: str, none: str
) -> None:
    with i18n.language(lang):
        assert [display._stock_html(n).count(text) for n, text in ((1, one), (3, three), (0, none))] == [1, 1, 1]
        assert "(s)" not in display.contract_words(liverpool.RuleSet(), 2)
    with i18n.language("pt"):
        assert display.contract_words(liverpool.RuleSet(), 2) == "1 trinca e 1 sequência"


def test_contract_words_for_every_round() -> None:
    rules = liverpool.RuleSet()
    words = [display.contract_words(rules, r) for r in range(1, 8)]
    assert words[1] == "1 set and 1 run"
    assert words[6].startswith("3 runs") and "no discard" in words[6]
    with i18n.language("pt"):
        assert display.contract_words(rules, 5) == "2 trincas e 1 sequência"


def test_message_and_labels_are_escaped() -> None:
    state = GameState(seed=1)
    markup = display.state_html(state, message="<script>alert(1)</script>")
    assert "<script>" not in markup and "&lt;script&gt;" in markup
    parse(f"<div>{markup}</div>")
    assert "&lt;b&gt;" in display.meld_html(Meld.set("9♠ 9♥ 9♦"), label="<b>")


# --- rich display in notebooks ---------------------------------------------


def test_repr_html_of_every_class_is_the_display_html() -> None:
    card = Card("7♥")
    meld = Meld.run(["JK", "5♥", "6♥", "7♥"])
    best = liverpool.best_go_down("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦", round=1)
    arrangement = liverpool.best_arrangement("7♠ 7♥ 7♦ 3♣ K♦")
    dealt = liverpool.deal(liverpool.shuffled_deck(5), round=1, dealer=0, cut=30)
    state = played_state(3, 80)
    assert best is not None and state.table
    pairs = [
        (card, display.card_html(card)),
        (meld, display.meld_html(meld)),
        (best, display.go_down_html(best)),
        (arrangement, display.arrangement_html(arrangement)),
        (dealt, display.deal_html(dealt)),
        (state.table[0], display.table_meld_html(state.table[0])),
        (state, display.state_html(state)),
    ]
    for obj, expected in pairs:
        assert obj._repr_html_() == expected, type(obj).__name__
        assert "<svg" in expected
    with i18n.language("es"):
        assert "7 de corazones" in card._repr_html_()


def test_list_formatter_only_takes_lists_of_cards() -> None:
    hand = liverpool.parse_cards("7♥ 8♥ JK")
    markup = display.list_html(hand)
    assert markup is not None and len(face_svgs(markup)) == 3
    assert display.list_html([Card("7♥"), "8♥"]) is None
    assert display.list_html([1, 2]) is None
    assert display.list_html([]) is None


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_liverpool_does_not_import_ipython_or_widgets() -> None:
    out = run_python(
        "import sys, liverpool, liverpool.teach.display; "
        "print(sorted(m for m in ('IPython', 'ipywidgets', 'anywidget') if m in sys.modules))"
    )
    assert out == "[]"


def test_running_ipython_shows_lists_of_cards() -> None:
    pytest.importorskip("IPython")
    out = run_python(
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "import liverpool\n"
        "data, _ = shell.display_formatter.format(liverpool.parse_cards('7♥ 8♥'))\n"
        "mixed, _ = shell.display_formatter.format([liverpool.Card('7♥'), 3])\n"
        "print(data['text/html'].count('lp-card-face'), 'text/html' in mixed, mixed['text/plain'])\n"
    )
    assert out == "2 False [Card('7♥'), 3]"


def test_board_at_the_end_of_a_round_shows_the_round_scores() -> None:
    state = GameState(seed=5)
    bot = liverpool.NativeBot("greedy", seed=1)
    while not state.is_round_over:
        assert state.to_act is not None
        state.apply(state.to_act, bot.choose(state))
    assert state.round_scores is not None and state.went_out is not None
    markup = display.state_html(state, seat=1)
    assert ">This round<" in markup
    assert f"seat {state.went_out + 1} went out" in markup  # seats shown from 1
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", markup)
    for score, total in zip(state.round_scores, state.totals):
        assert str(score) in cells and str(total) in cells
    assert Counter(f.get("data-card") for f in face_svgs(markup)) == visible_cards(state, 1)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_joker_word_is_fitted_between_the_corner_indexes(lang: str) -> None:
    # The word's drawn width is fixed by textLength, so no language's word can reach
    # the turned-round "JK" index (which starts at x=75 of the 100-wide card).
    with i18n.language(lang):
        root = ET.fromstring(display.card_svg("JK"))
    word = [t for t in root.iter(f"{SVG}text") if t.text != "JK"]
    assert len(word) == 1
    width, centre = float(word[0].get("textLength", "0")), float(word[0].get("x", "0"))
    assert 0 < width and centre + width / 2 < 75 and centre - width / 2 > 25
    assert word[0].get("lengthAdjust") == "spacingAndGlyphs"
