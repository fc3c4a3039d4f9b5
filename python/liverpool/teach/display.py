"""Cards people want to look at: SVG playing cards and HTML boards for notebooks.

Everything here builds strings (no Jupyter import): ``card_svg`` draws one card,
``cards_html`` a wrapping row of them, and ``meld_html``, ``go_down_html``,
``arrangement_html``, ``deal_html`` and ``state_html`` lay out the engine's
objects. The engine classes forward their ``_repr_html_`` here, so a notebook
cell ending in a hand, a meld or a game state shows cards. Labels come from the
``cards`` catalogue of :mod:`liverpool.i18n`; every piece of text is escaped.
Presentation only: the rules are the engine's.

>>> from liverpool import Card
>>> 'aria-label="7 of hearts"' in card_svg(Card("7♥"))
True
>>> [str(c) for c in sort_cards(["JK", "K♠", "2♥", "A♠"], by="rank")]
['A♠', '2♥', 'K♠', 'JK']
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from liverpool._core import Arrangement, Card, Deal, GameState, GoDown, Meld, TableMeld
from liverpool.i18n import meld_label, seat_phrase, text

__all__ = [
    "card_svg",
    "card_back_svg",
    "card_name",
    "card_key",
    "card_keys",
    "sort_cards",
    "card_html",
    "cards_html",
    "meld_html",
    "table_meld_html",
    "go_down_html",
    "arrangement_html",
    "deal_html",
    "state_html",
    "contract_words",
    "list_html",
    "register_ipython_formatter",
]

CardLike = Card | str | int
SortOrder = Literal["suit", "rank"]

# Card geometry: everything is drawn in a 100 × 140 box and scaled by `width`.
_W, _H = 100, 140
_RED = "#c62828"
_BLACK = "#1b1b1b"
_JOKER = "#6a1b9a"
_BORDER = "#9e9e9e"
_SELECTED = "#1565c0"
_HIGHLIGHT = "#f39c12"
_HIGHLIGHT_FILL = "#fff4d6"
_BACK = "#1f4e8c"
_FONT = "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif"

_SUIT_KEYS = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
# The order of suits by suit and of ties by rank: the engine's card-id order.
_SUIT_ORDER = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}

# Suit shapes in a 100 × 100 box, drawn as paths so they never depend on a font
# (or turn into coloured emoji).
_SUIT_SHAPES = {
    "♥": '<path d="M50 100C22 75 0 55 0 30C0 12 13 0 28 0C39 0 46 7 50 17C54 7 61 0 72 0'
    'C87 0 100 12 100 30C100 55 78 75 50 100Z"/>',
    "♦": '<path d="M50 0L88 50L50 100L12 50Z"/>',
    "♠": '<path d="M50 0C78 25 100 45 100 66C100 82 88 92 74 92C64 92 57 87 53 79C54 89 58 96 68 100'
    'L32 100C42 96 46 89 47 79C43 87 36 92 26 92C12 92 0 82 0 66C0 45 22 25 50 0Z"/>',
    "♣": '<circle cx="50" cy="26" r="23"/><circle cx="24" cy="60" r="23"/><circle cx="76" cy="60" r="23"/>'
    '<path d="M45 55C45 78 41 91 30 100L70 100C59 91 55 78 55 55Z"/>',
}


def _star_points(cx: float, cy: float, outer: float, inner: float) -> str:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy + radius * math.sin(angle):.1f}")
    return " ".join(points)


def _card(card: CardLike) -> Card:
    return card if isinstance(card, Card) else Card(card)


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _t(key: str, **params: Any) -> str:
    return text("cards", key, **params)


def _seat(seat: int) -> str:
    """Seat ``seat`` (an API index) as a label people read: "seat 1" is index 0."""
    return seat_phrase(seat, "label")


def _seat_subject(seat: int) -> str:
    """Seat ``seat`` as the subject of a sentence ("o jogador 1 puxa uma carta")."""
    return seat_phrase(seat, "subject")


# ---------------------------------------------------------------------------
# Names and order


def card_name(card: CardLike) -> str:
    """The card's name in the current language: "7 of hearts", "7 de copas", "comodín"."""
    card = _card(card)
    if card.is_joker:
        return _t("joker")
    assert card.suit is not None
    return _t("card_name", rank=_t(f"rank_{card.rank}"), suit=_t(f"suit_{_SUIT_KEYS[card.suit]}"))


def _suit_key(card: Card) -> tuple[int, int, int]:
    if card.is_joker:
        return (1, 0, 0)
    return (0, _SUIT_ORDER[card.suit or "♠"], card.rank)


def _rank_key(card: Card) -> tuple[int, int, int]:
    if card.is_joker:
        return (1, 0, 0)
    return (0, card.rank, _SUIT_ORDER[card.suit or "♠"])


def sort_cards(cards: Iterable[CardLike], by: SortOrder = "suit") -> list[Card]:
    """The cards in presentation order: by suit then rank (``"suit"``) or by rank then
    suit (``"rank"``), aces low, jokers last. Only for showing a hand: it says nothing
    about melds."""
    if by not in ("suit", "rank"):
        raise ValueError(f"sort order must be 'suit' or 'rank', not {by!r}")
    key = _suit_key if by == "suit" else _rank_key
    return sorted((_card(c) for c in cards), key=key)


def card_key(card: CardLike, occurrence: int) -> str:
    """A stable key for the ``occurrence``-th copy of ``card`` in a hand: ``"7♥#0"``, ``"7♥#1"``."""
    return f"{_card(card)}#{occurrence}"


def card_keys(cards: Iterable[CardLike]) -> list[str]:
    """One key per card, numbering the copies of the same card by their order in ``cards``."""
    seen: Counter[str] = Counter()
    keys = []
    for card in cards:
        name = str(_card(card))
        keys.append(f"{name}#{seen[name]}")
        seen[name] += 1
    return keys


def contract_words(state_or_rules: Any, round: int) -> str:
    """The contract of ``round`` in words of the current language ("2 trincas e 1 sequência")."""
    rules = getattr(state_or_rules, "rules", state_or_rules)
    sets, runs, whole_hand = rules.contracts[round - 1]
    parts = []
    if sets:
        parts.append(_t("sets", count=sets))
    if runs:
        parts.append(_t("runs", count=runs))
    words = parts[0] if len(parts) == 1 else _t("contract_and", first=parts[0], second=parts[1])
    return _t("whole_hand", contract=words) if whole_hand else words


# ---------------------------------------------------------------------------
# One card


def _svg_open(width: int, label: str, classes: str, data: str, style: str) -> str:
    height = round(width * _H / _W)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{classes}" {data}width="{width}" height="{height}" '
        f'viewBox="-3 -3 {_W + 6} {_H + 6}" role="img" aria-label="{_esc(label)}" focusable="false" '
        f'style="flex:none;overflow:visible;{style}"><title>{_esc(label)}</title>'
    )


def _suit_shape(suit: str, x: float, y: float, size: float, color: str) -> str:
    scale = size / 100
    return f'<g transform="translate({x:g} {y:g}) scale({scale:g})" fill="{color}">{_SUIT_SHAPES[suit]}</g>'


_JOKER_WORD_MAX_WIDTH = 46  # the free width between the joker's corner indexes


def _corner(rank_text: str, suit: str | None, color: str) -> str:
    # "JK" is wider than "10": a smaller index keeps it off the card's rounded edge.
    size = 24 if len(rank_text) < 2 else 20 if suit is not None else 17
    index = (
        f'<text x="13" y="26" text-anchor="middle" font-family="{_FONT}" font-size="{size}" '
        f'font-weight="bold" fill="{color}">{_esc(rank_text)}</text>'
    )
    if suit is None:  # the joker's index is a small star under "JK"
        return index + f'<polygon points="{_star_points(13, 40, 9, 4)}" fill="{color}"/>'
    return index + _suit_shape(suit, 5, 32, 16, color)


def card_svg(card: CardLike, *, width: int = 48, selected: bool = False, highlight: bool = False) -> str:
    """One playing card as an inline SVG: the rank and suit in the top-left corner and,
    turned round, in the bottom-right; a big suit in the middle; red hearts and diamonds,
    black spades and clubs, a purple joker with a star. ``selected`` lifts the card and
    outlines it in blue; ``highlight`` gives it an amber border and a warm background
    (to show what changed). Named for screen readers in the current language."""
    card = _card(card)
    label = card_name(card)
    classes = "lp-card-face" + (" lp-selected" if selected else "") + (" lp-highlight" if highlight else "")
    style = "transform:translateY(-6px);" if selected else ""
    data = f'data-card="{_esc(card)}" '
    fill = _HIGHLIGHT_FILL if highlight else ("#faf5ff" if card.is_joker else "#ffffff")
    stroke, stroke_width = (
        (_SELECTED, 5) if selected else (_HIGHLIGHT, 4) if highlight else (_BORDER, 1.5)
    )
    parts = [
        _svg_open(width, label, classes, data, style),
        f'<rect x="0" y="0" width="{_W}" height="{_H}" rx="9" ry="9" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{stroke_width}"/>',
    ]
    if card.is_joker:
        color, rank_text, suit = _JOKER, "JK", None
    else:
        assert card.suit is not None
        color = _RED if card.suit in ("♥", "♦") else _BLACK
        rank_text, suit = str(card)[:-1], card.suit
    corner = _corner(rank_text, suit, color)
    parts.append(f"<g>{corner}</g>")
    parts.append(f'<g transform="rotate(180 {_W / 2:g} {_H / 2:g})">{corner}</g>')
    if suit is None:
        parts.append(f'<polygon points="{_star_points(50, 62, 30, 12)}" fill="{color}"/>')
        word = _t("joker_mark")
        # The word sits between the corner indexes (x 27..73): longer words ("COMODÍN",
        # "CORINGA") are squeezed into that width instead of running into the "JK" index.
        word_width = min(_JOKER_WORD_MAX_WIDTH, round(len(word) * 8.5))
        parts.append(
            f'<text x="50" y="112" text-anchor="middle" font-family="{_FONT}" font-size="12" '
            f'font-weight="bold" textLength="{word_width}" lengthAdjust="spacingAndGlyphs" '
            f'fill="{color}">{_esc(word)}</text>'
        )
    elif card.rank > 10:  # a court card: a framed panel with its letter over the suit
        parts.append(
            f'<rect x="24" y="28" width="52" height="84" rx="4" fill="none" stroke="{color}" '
            f'stroke-opacity="0.45" stroke-width="1.5"/>'
        )
        parts.append(
            f'<text x="50" y="72" text-anchor="middle" font-family="{_FONT}" font-size="38" '
            f'font-weight="bold" fill="{color}">{_esc(rank_text)}</text>'
        )
        parts.append(_suit_shape(suit, 37, 80, 26, color))
    else:
        parts.append(_suit_shape(suit, 26, 46, 48, color))
    parts.append("</svg>")
    return "".join(parts)


def card_back_svg(width: int = 48) -> str:
    """The back of a card (a hidden card, the stock), named "face-down card"."""
    label = _t("card_back")
    # A lattice of small diamonds inside the white frame.
    lattice = "".join(
        f"M{x} {y - 6}L{x + 5} {y}L{x} {y + 6}L{x - 5} {y}Z" for x in range(20, 85, 12) for y in range(22, 126, 14)
    )
    return (
        _svg_open(width, label, "lp-card-back", "", "")
        + f'<rect x="0" y="0" width="{_W}" height="{_H}" rx="9" ry="9" fill="{_BACK}" stroke="{_BORDER}" '
        'stroke-width="1.5"/>'
        f'<path d="{lattice}" fill="#ffffff" fill-opacity="0.22"/>'
        '<rect x="10" y="10" width="80" height="120" rx="5" fill="none" stroke="#ffffff" stroke-width="2"/>'
        "</svg>"
    )


# ---------------------------------------------------------------------------
# Rows of cards and melds

_ROW = "display:flex;flex-wrap:wrap;gap:4px;justify-content:flex-start;align-items:flex-end;padding-top:6px;"
_LABEL = "font-weight:600;white-space:nowrap;"
_NOTE = "opacity:0.75;font-size:0.9em;"
_BOX = (
    "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:14px;text-align:left;"
    "display:flex;flex-direction:column;gap:8px;align-items:flex-start;"
)


def _marked(cards: Sequence[Card], wanted: Iterable[CardLike]) -> list[bool]:
    """Which positions of ``cards`` to mark: each wanted card marks one copy, first copies first."""
    left = Counter(str(_card(c)) for c in wanted)
    marks = []
    for card in cards:
        name = str(card)
        marks.append(left[name] > 0)
        if left[name] > 0:
            left[name] -= 1
    return marks


def cards_html(
    cards: Iterable[CardLike],
    *,
    highlight: Iterable[CardLike] = (),
    sort: SortOrder | None = None,
    selected: Iterable[CardLike] = (),
    width: int = 48,
) -> str:
    """A left-aligned, wrapping row of cards. ``highlight`` and ``selected`` name cards
    to mark (one copy per mention); ``sort`` reorders them for display."""
    row = sort_cards(cards, sort) if sort else [_card(c) for c in cards]
    lit = _marked(row, highlight)
    chosen = _marked(row, selected)
    inner = "".join(card_svg(c, width=width, highlight=h, selected=s) for c, h, s in zip(row, lit, chosen))
    if not row:
        inner = f'<span style="{_NOTE}">{_esc(_t("no_cards"))}</span>'
    return f'<div class="lp-cards" style="{_ROW}">{inner}</div>'


def card_html(card: CardLike) -> str:
    """One card (what a notebook shows for a ``Card``)."""
    return f'<div class="lp-cards" style="{_ROW}">{card_svg(card)}</div>'


def list_html(items: list[Any]) -> str | None:
    """The IPython formatter for plain lists: a list of cards as cards, anything else ``None``
    (IPython then shows the usual repr)."""
    if not items or not all(isinstance(item, Card) for item in items):
        return None
    return cards_html(items)


def _meld_caption(meld: Meld) -> str:
    """Under a run with jokers: the cards they stand for (asked of the engine)."""
    notes = []
    for index, card in enumerate(meld.cards):
        if card.is_joker:
            stands_for = meld.joker_stands_for(index)
            if stands_for is not None:
                notes.append(_t("joker_stands_for", card=stands_for))
    return f'<div style="{_NOTE}">{_esc("; ".join(notes))}</div>' if notes else ""


def meld_html(meld: Meld, *, label: str | None = None, highlight: Iterable[CardLike] = ()) -> str:
    """A meld: its label (by default "set" or "run" in the current language) in its own
    cell, then its cards in order, then what its jokers stand for."""
    label = _t(meld.kind) if label is None else label
    return (
        '<div class="lp-meld" style="display:grid;grid-template-columns:auto 1fr;gap:2px 10px;align-items:center;">'
        f'<div class="lp-label" style="{_LABEL}">{_esc(label)}</div>'
        f"<div>{cards_html(meld.cards, highlight=highlight)}{_meld_caption(meld)}</div></div>"
    )


def _meld_tile(meld: Meld, label: str, highlight: Iterable[CardLike], hooks: str = "") -> str:
    """A compact meld for the board: the label above smaller cards (``hooks``: extra
    attributes for pages and tests to find it by)."""
    return (
        f'<div class="lp-meld"{hooks} style="display:flex;flex-direction:column;align-items:flex-start;">'
        f'<div class="lp-label" style="{_LABEL}">{_esc(label)}</div>'
        f"{cards_html(meld.cards, highlight=highlight, width=36)}{_meld_caption(meld)}</div>"
    )


def table_meld_html(table_meld: TableMeld) -> str:
    """A meld on the table with its owner."""
    label = f"{_t(table_meld.meld.kind)} · {_seat(table_meld.owner)}"
    return meld_html(table_meld.meld, label=label)


def _rows(rows: Sequence[tuple[str, str]], align: str = "center") -> str:
    """Label/content pairs as a two-column grid, each label in its own cell."""
    cells = "".join(f'<div class="lp-label" style="{_LABEL}">{_esc(k)}</div><div>{v}</div>' for k, v in rows)
    grid = f"display:grid;grid-template-columns:max-content 1fr;gap:6px 12px;align-items:{align};"
    return f'<div style="{grid}">{cells}</div>'


def _melds_block(melds: Sequence[Meld]) -> str:
    return "".join(meld_html(m) for m in melds)


def go_down_html(go_down: GoDown) -> str:
    """A go-down: each meld labelled set/run, then the cards left and the points left."""
    return f'<div class="lp-go-down" style="{_BOX}">' + _rows(
        [
            (_t("melds"), _melds_block(go_down.melds)),
            (_t("left_in_hand"), cards_html(go_down.left)),
            ("", f"<b>{_esc(_t('points_left', points=go_down.points_left))}</b>"),
        ]
    ) + "</div>"


def arrangement_html(arrangement: Arrangement) -> str:
    """An arrangement: its melds, the cards in no meld and their points."""
    return f'<div class="lp-arrangement" style="{_BOX}">' + _rows(
        [
            (_t("melds"), _melds_block(arrangement.melds) or _esc(_t("no_cards"))),
            (_t("deadwood"), cards_html(arrangement.deadwood)),
            ("", f"<b>{_esc(_t('deadwood_points', points=arrangement.points))}</b>"),
        ]
    ) + "</div>"


def _stock_html(count: int, width: int = 40) -> str:
    count_text = _t("card_count", count=count)
    back = card_back_svg(width) if count else ""
    return (
        f'<div class="lp-stock" style="display:flex;gap:8px;align-items:center;">{back}'
        f'<span style="{_NOTE}">{_esc(count_text)}</span></div>'
    )


def _hidden_hand_html(count: int) -> str:
    """A hand seen from another seat: overlapping card backs and the count, no faces."""
    backs = "".join(
        f'<span style="display:inline-block;margin-left:{0 if i == 0 else -22}px">{card_back_svg(30)}</span>'
        for i in range(count)
    )
    count_text = _t("card_count", count=count)
    return (
        f'<div class="lp-hidden-hand" style="display:flex;align-items:center;gap:8px;flex-wrap:wrap;">'
        f'<div style="display:flex;">{backs}</div><span style="{_NOTE}">{_esc(count_text)}</span></div>'
    )


def _own_hand_count_html(count: int) -> str:
    """The viewer's row when their hand is drawn elsewhere: the count and where to look."""
    count_text = _t("card_count", count=count)
    return (
        f'<span class="lp-own-hand-count" style="{_NOTE}">'
        f'{_esc(count_text)} · {_esc(_t("own_hand_below"))}</span>'
    )


def deal_html(deal: Deal) -> str:
    """A fresh deal: who cut and how many, the up card, the stock and every hand."""
    cut = _t("deal_cutter", seat=_seat_subject(deal.cutter), count=deal.cut)
    if deal.cut_bonus:
        cut += f" — {_t('cut_bonus')}"
    rows = [
        ("", _esc(cut)),
        (_t("up_card"), cards_html([deal.up_card])),
        (_t("stock"), _stock_html(len(deal.stock))),
    ]
    rows += [(_seat(seat), cards_html(hand)) for seat, hand in enumerate(deal.hands)]
    return f'<div class="lp-deal" style="{_BOX}">{_rows(rows)}</div>'


# ---------------------------------------------------------------------------
# The whole board


def _phase_words(state: GameState) -> str:
    phase = state.phase
    if phase in ("round_over", "game_over"):
        return _t(f"phase_{phase}")
    seat = state.to_act if state.to_act is not None else state.active
    return _t(f"phase_{phase}", seat=_seat_subject(seat))


def _seat_name(seat: int, viewer: int | None) -> str:
    return _t("you_suffix", seat=_seat(seat)) if seat == viewer else _seat(seat)


def state_html(
    state: GameState,
    *,
    seat: int | None = None,
    highlight: Iterable[CardLike] = (),
    message: str | None = None,
    own_hand: bool = True,
) -> str:
    """The board: the round and its contract, whose turn it is, the discard pile and the
    stock, the table melds grouped by owner, every hand (face up for ``seat``, or for
    everyone when ``seat`` is None; other hands as backs and a count), who is down, buys
    and totals. ``highlight`` marks cards that just changed; ``message`` is shown on top.
    ``own_hand=False`` keeps ``seat``'s row (count, down, buys, totals) without its cards,
    for a page that shows that hand elsewhere (the card table's clickable hand)."""
    marks = list(highlight)
    viewer = seat
    header = [
        f'<div style="font-size:1.1em;font-weight:700;">{_esc(_t("round_of", round=state.round, rounds=state.rules.rounds))}</div>',
        _rows([(_t("contract"), _esc(contract_words(state, state.round))), (_t("turn"), _esc(_phase_words(state)))]),
    ]
    if message:
        header.append(
            f'<div class="lp-message" style="padding:4px 8px;border-left:3px solid {_HIGHLIGHT};'
            f'background:rgba(243,156,18,0.12);">{_esc(message)}</div>'
        )
    top = state.discard_top
    discard = (
        cards_html([top], highlight=marks) if top is not None else f'<span style="{_NOTE}">{_esc(_t("discard_empty"))}</span>'
    )
    piles = (
        '<div class="lp-piles" style="display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap;">'
        f'<div class="lp-discard"><div class="lp-label" style="{_LABEL}">{_esc(_t("discard_pile"))}</div>{discard}</div>'
        f'<div><div class="lp-label" style="{_LABEL}">{_esc(_t("stock"))}</div>{_stock_html(state.stock_size)}</div>'
        "</div>"
    )

    table = state.table
    if table:
        by_owner: dict[int, list[tuple[int, Meld]]] = {}
        for index, table_meld in enumerate(table):
            by_owner.setdefault(table_meld.owner, []).append((index, table_meld.meld))
        groups = []
        for owner in sorted(by_owner):
            tiles = "".join(
                _meld_tile(
                    meld,
                    f"{meld_label(index)} {_t(meld.kind)}",
                    marks,
                    f' data-meld="{index}" data-owner="{owner}"',
                )
                for index, meld in by_owner[owner]
            )
            groups.append((_seat_name(owner, viewer), f'<div style="{_ROW}gap:6px 16px;">{tiles}</div>'))
        table_block = _rows(groups, align="start")
    else:
        table_block = f'<span style="{_NOTE}">{_esc(_t("table_empty"))}</span>'

    head = [_t("player"), _t("hand"), _t("status"), _t("buys"), _t("total")]
    round_scores = state.round_scores
    if round_scores is not None:
        head.insert(4, _t("round_points"))
    cell = "padding:4px 8px;border-bottom:1px solid rgba(128,128,128,0.3);text-align:left;vertical-align:middle;"
    rows = ["<tr>" + "".join(f'<th style="{cell}{_LABEL}">{_esc(h)}</th>' for h in head) + "</tr>"]
    for player in range(state.players):
        if player == viewer and not own_hand:
            hand = _own_hand_count_html(state.hand_sizes[player])
        elif viewer is None or player == viewer:
            hand = cards_html(state.hand(player), highlight=marks if player == viewer or viewer is None else ())
        else:
            hand = _hidden_hand_html(state.hand_sizes[player])
        acting = player == (state.to_act if state.to_act is not None else -1)
        style = "background:rgba(124,179,66,0.16);" if acting else "background:transparent;"
        name = _seat_name(player, viewer) + (f" · {_t('dealer_mark')}" if player == state.dealer else "")
        values = [
            f"<b>{_esc(name)}</b>",
            hand,
            _esc(_t("is_down") if state.down[player] else _t("not_down")),
            _esc(state.buys[player]),
        ]
        if round_scores is not None:
            values.append(_esc(round_scores[player]))
        values.append(_esc(state.totals[player]))
        # lp-hand-<seat> marks the hand's cell (found by the step-through player's tests)
        tds = [f'<td class="lp-hand-{player}" style="{cell}">{v}</td>' if i == 1 else f'<td style="{cell}">{v}</td>' for i, v in enumerate(values)]
        rows.append(f'<tr style="{style}">' + "".join(tds) + "</tr>")
    players = f'<table class="lp-players" style="border-collapse:collapse;margin:0;table-layout:auto;border:none;">{"".join(rows)}</table>'

    footer = ""
    if state.is_game_over and state.winners:
        names = ", ".join(_seat_name(w, viewer) for w in state.winners)
        footer = f"<div><b>{_esc(_t('winners', seats=names))}</b></div>"
    elif state.went_out is not None:
        footer = f"<div><b>{_esc(_t('went_out', seat=_seat_subject(state.went_out)))}</b></div>"

    body = _rows([(_t("table"), table_block), (_t("hands"), players)], align="start")
    return f'<div class="lp-state" style="{_BOX}">{"".join(header)}{piles}{body}{footer}</div>'


def register_ipython_formatter(shell: Any) -> None:
    """Teach an IPython shell to show a plain list of cards (``parse_cards(...)``,
    ``state.hand(0)``) as cards; other lists keep their usual repr."""
    shell.display_formatter.formatters["text/html"].for_type(list, list_html)
