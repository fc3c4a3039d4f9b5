"""One sentence per move, event, round end or refusal, in the learner's language.

Used by the terminal game (``liverpool play``), the card table widget and the
step-through scenario player. Every fact comes from the engine's ``Event``
(``GameState.apply``), the ``Action`` and, for a go-down, the state after it;
the words come from the ``table`` catalogue of :mod:`liverpool.i18n`.

``viewer`` is the seat whose eyes the narration uses: that seat is "you", and a
card only that seat may see (its own stock draw, its penalty card) is named; for
any other seat such a card is never named. ``viewer=None`` is the all-seeing
narrator of a worked example: every seat by number, every card named. Seats are
shown to people from 1 (seat index 2 is "seat 3"), with the article each sentence
needs (:func:`who`); the events keep the API's indices.

>>> from liverpool import i18n
>>> event = {"seat": 2, "event": "drew_stock", "card": "7♥", "passed": []}
>>> describe_event(event, viewer=0)
'seat 3 drew from the stock'
>>> describe_event(event, viewer=None)
'seat 3 drew 7♥ from the stock'
>>> with i18n.language("es"):
...     describe_event({"seat": 0, "event": "took_discard", "card": "9♣"}, viewer=0)
'tomaste 9♣ del descarte'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from liverpool import i18n
from liverpool._core import Action, Card, Event, GameState
from liverpool.errors import LiverpoolError
from liverpool.i18n import text

__all__ = [
    "DOMAIN",
    "who",
    "cards_text",
    "describe_event",
    "describe_action",
    "describe_round_end",
    "round_end_lines",
    "describe_refusal",
    "seat_values",
]

#: The catalogue domain of every sentence here (and of the card table's labels).
DOMAIN = "table"


def _t(key: str, **params: Any) -> str:
    return text(DOMAIN, key, **params)


def who(seat: int, viewer: int | None, case: str = "label") -> str:
    """"you" for the viewer, "seat N" for anyone else (N counted from 1), in the current
    language and in the grammatical ``case`` the text needs (``liverpool.i18n.SEAT_CASES``):
    a ``label`` (score lists, table rows, buttons) is bare; the ``subject`` of a sentence
    takes its article in Portuguese and Spanish ("o jogador 3 puxou…", "el jugador 3 robó…").

    >>> with i18n.language("pt"):
    ...     who(2, 0), who(2, 0, "subject"), who(0, 0)
    ('jogador 3', 'o jogador 3', 'você')
    """
    return i18n.seat_phrase(seat, case, you=viewer is not None and seat == viewer)


def cards_text(cards: Iterable[Card | str]) -> str:
    return " ".join(str(c) for c in cards)


def _melds_text(melds: Iterable[Iterable[Card | str]]) -> str:
    return " | ".join(cards_text(m) for m in melds)


def _say(key: str, seat: int, viewer: int | None, **params: Any) -> str:
    """The sentence ``key`` about ``seat``: the ``<key>_you`` form when the viewer
    acts (its verb agrees with "you" in every language), else ``<key>`` with ``{who}``."""
    if viewer is not None and seat == viewer:
        return _t(f"{key}_you", **params)
    return _t(key, who=who(seat, viewer, "subject"), **params)


def _sees(seat: int, viewer: int | None) -> bool:
    return viewer is None or seat == viewer


def seat_values(values: Sequence[int], viewer: int | None) -> str:
    """``you: 12 · seat 2: 30 · …`` (a colon keeps a seat number apart from its points)."""
    return " · ".join(f"{who(s, viewer)}: {v}" for s, v in enumerate(values))


def describe_event(
    event: Event | dict[str, Any],
    *,
    viewer: int | None = 0,
    action: Action | None = None,
    state: GameState | None = None,
    offered: Card | str | None = None,
    round_end: bool = True,
) -> str:
    """One sentence on what an applied action did.

    ``action`` (the move) or ``state`` (the game after it) name a go-down's melds;
    ``offered`` is the card a ``passed`` event declined to buy (the event itself does
    not carry it). With ``round_end`` the round's end, if the event ended it, is
    appended (see :func:`round_end_lines`).
    """
    e = event if isinstance(event, dict) else event.to_dict()
    seat: int = e["seat"]
    kind = e.get("event")
    if kind == "dealt":
        sentence = _say("dealt", seat, viewer, size=e["size"], up_card=e["up_card"])
        if e.get("cut_bonus"):
            sentence += _t("cut_bonus", who=who(e["cutter"], viewer, "object"))
    elif kind == "took_discard":
        sentence = _say("took_discard", seat, viewer, card=e["card"])
    elif kind == "declined_discard":
        if e.get("draw_after"):
            # L-5.1: a draw from the stock while the discard is on offer declines it;
            # the others are asked first.
            sentence = _say("drew_past_discard", seat, viewer, card=e.get("card") or "—")
            if e.get("window_open"):
                sentence += _t("window_first")
        else:
            sentence = _say("declined_discard", seat, viewer, card=e.get("card") or "—")
            if e.get("window_open"):
                sentence += _t("window_open")
    elif kind == "bought":
        if _sees(seat, viewer):
            sentence = _say("bought_seen", seat, viewer, card=e["card"], penalty=e["penalty"])
        else:
            sentence = _say("bought", seat, viewer, card=e["card"])
    elif kind == "passed":
        if e.get("call"):
            sentence = _say(f"passed_call_{e['call']}", seat, viewer)
        elif offered is not None:
            sentence = _say("passed_on", seat, viewer, card=str(offered))
        else:
            sentence = _say("passed", seat, viewer)
    elif kind == "called_rummy":
        sentence = _say("called_rummy", seat, viewer, offender=who(e["discarder"], viewer, "subject"), card=e["card"])
        if _sees(e["discarder"], viewer):
            sentence += _t("rummy_penalty_seen", penalty=e["penalty"])
    elif kind == "called_liverpool":
        sentence = _say("called_liverpool", seat, viewer, card=e["card"], meld=e["meld"])
    elif kind == "drew_stock":
        if e.get("card") is None:
            sentence = _say("no_stock", seat, viewer)
        elif _sees(seat, viewer):
            sentence = _say("drew_stock_seen", seat, viewer, card=e["card"])
        else:
            sentence = _say("drew_stock", seat, viewer)
    elif kind == "went_down":
        if action is not None and action.melds:
            melds = _melds_text(action.melds)
        elif state is not None:
            melds = _melds_text(state.table[m].meld.cards for m in e["melds"])
        else:
            melds = _t("table_melds", melds=", ".join(str(m) for m in e["melds"]))
        sentence = _say("went_down", seat, viewer, melds=melds)
    elif kind == "laid_off":
        sentence = _say("laid_off", seat, viewer, cards=cards_text(e["cards"]), meld=e["meld"])
    elif kind == "swapped_joker":
        sentence = _say("swapped_joker", seat, viewer, card=e["card"], meld=e["meld"], to_meld=e["to_meld"])
    elif kind == "discarded":
        sentence = _say("discarded", seat, viewer, card=e["card"])
        if e.get("went_out"):
            sentence += _t("went_out_you" if viewer is not None and seat == viewer else "went_out")
        if e.get("calls"):
            sentence += _t(f"calls_offered_{e['calls']}")
    elif kind == "round_started":
        sentence = _say("round_started", e["dealer"], viewer, round=e["round"])
    else:
        sentence = f"{who(seat, viewer)}: {kind}"
    if e.get("recycled"):
        sentence += _t("recycled", count=e["recycled"])
    if e.get("floating"):
        sentence += _t("floating_you" if viewer is not None and seat == viewer else "floating")
    then = e.get("then")
    if then:
        # L-5.1: the window this move closed had a pending stock draw.
        sentence += "; " + describe_event(then, viewer=viewer, round_end=False)
    end = e.get("round_end")
    if round_end and end:
        sentence += ". " + " — ".join(round_end_lines(end, viewer=viewer))
    return sentence


def round_end_lines(
    end: dict[str, Any], *, viewer: int | None = 0, cut_bonus_seat: int | None = None
) -> list[str]:
    """The end of a round: how it ended, the scores, the totals, the cut bonus if
    someone earned it, and the winners when the game is over."""
    winner = end.get("winner")
    reason = end["reason"]
    if reason in ("went_out", "whole_hand") and winner is not None:
        how = _say(f"end_{reason}", winner, viewer)
    else:
        how = _t(f"end_{reason}") if reason in ("stock_exhausted", "turn_limit") else reason
    # L-10.2: the cut bonus is shown in the score line of the seat that earned it.
    bonus = end.get("cut_bonus") or []
    scores = " · ".join(
        f"{who(s, viewer)}: {score}" + (_t("score_with_cut_bonus", points=bonus[s]) if bonus and bonus[s] else "")
        for s, score in enumerate(end["scores"])
    )
    lines = [
        _t("round_over", round=end["round"], how=how),
        _t("scores_line", scores=scores),
        _t("totals_line", totals=seat_values(end["totals"], viewer)),
    ]
    if cut_bonus_seat is not None:
        lines.append(_t("cut_bonus_scored", who=who(cut_bonus_seat, viewer)))
    penalties = end.get("penalties") or []
    charged = [s for s, p in enumerate(penalties) if p]
    if charged:
        lines.append(_t("penalties_line", seats=", ".join(f"{who(s, viewer)} +{penalties[s]}" for s in charged)))
    if end.get("game_over"):
        lines.append(_t("game_over", winners=", ".join(who(s, viewer) for s in end["winners"])))
    return lines


def describe_round_end(end: dict[str, Any], *, viewer: int | None = 0, cut_bonus_seat: int | None = None) -> str:
    """:func:`round_end_lines` as one text, one line each."""
    return "\n".join(round_end_lines(end, viewer=viewer, cut_bonus_seat=cut_bonus_seat))


def describe_action(seat: int, action: Action | dict[str, Any], *, viewer: int | None = None) -> str:
    """A move before it is applied, e.g. ``seat 1: lay off 4♣ on table meld 0``.

    >>> describe_action(2, Action.discard("K♠"))
    'seat 3: discard K♠'
    """
    action = action if isinstance(action, Action) else Action.from_dict(action)
    name = action.name
    if name == "cut":
        what = _t("act_cut", size=action.size) if action.size is not None else _t("act_cut_random")
    elif name == "go_down":
        what = _t("act_go_down", melds=_melds_text(action.melds or []))
    elif name == "lay_off":
        end = _t(f"act_end_{action.end}") if action.end else ""
        what = _t("act_lay_off", cards=cards_text(action.cards or []), meld=action.meld, end=end)
    elif name == "swap_joker":
        end = _t(f"act_end_{action.end}") if action.end else ""
        what = _t("act_swap_joker", card=action.card, meld=action.meld, to_meld=action.to_meld, end=end)
    elif name == "discard":
        what = _t("act_discard", card=action.card)
    elif name == "call_liverpool":
        end = _t(f"act_end_{action.end}") if action.end else ""
        what = _t("act_call_liverpool_on", meld=action.meld, end=end)
    else:
        what = _t(f"act_{name}")
    return f"{who(seat, viewer)}: {what}"


def describe_refusal(error: LiverpoolError) -> str:
    """What a learner reads when a move is refused: the engine's sentence in the current
    language, which ends with the rule id ("… (L-5.3)"), after a short "not allowed".
    Never the error code (``invalid_meld``): codes are for programs (``error.code``) and
    logs, and the sentence is said once.

    >>> g = GameState.from_position({"profile": "liverpool", "players": 4, "round": 1, "dealer": 3,
    ...     "active": 0, "phase": "play", "hands": [["3♥", "5♠"], ["4♥"], ["5♥"], ["6♥"]], "discard": ["2♣"]})
    >>> try:
    ...     g.apply(1, Action.discard("4♥"))
    ... except LiverpoolError as e:
    ...     error = e
    >>> error.code, error.english
    ('not_your_turn', "it is seat 0's turn, not seat 1's (L-1.3)")
    >>> with i18n.language("es"):
    ...     describe_refusal(error)
    'jugada rechazada: es el turno del jugador 1, no del jugador 2 (L-1.3)'
    """
    return text("common", "refusal", sentence=error.message)
