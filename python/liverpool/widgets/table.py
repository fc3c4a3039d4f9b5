"""The card table: play a whole game of Liverpool in a notebook, seat 0 against native bots.

>>> ui = card_table(seed=3)        # doctest: +SKIP
>>> ui.box                         # doctest: +SKIP

The learner sees the board (``display.state_html`` from seat 0: the other hands are
card backs), their hand as clickable cards, and only the moves the engine allows now
as buttons. Cards are selected in the hand, then an action is clicked: **discard**
one card; **lay off** the selection on the table meld picked in the list; **swap
joker** puts the selected card in place of the joker of the picked meld and moves
the joker to the target meld; **go down** with the melds staged one at a time (select
cards, **add as meld**), or with the engine's proposal for the selection (or the
whole hand). A refused move shows the engine's code, rule id and message and changes
nothing. The bots' moves, passes on a buy included, are narrated in the log. **Hint**
asks the engine: the best go-down now, the outs (cards that would complete the
contract, with how many copies seat 0 has not seen) and the discards that keep the
most options. **Play my turn** lets a greedy native bot choose seat 0's move.

Button enabling comes from the engine only: a kind of move is offered when
``GameState.legal_actions(0)`` lists at least one move of that kind (and **decline**,
which the engine accepts but never lists, when ``GameState.can`` allows it). A draw
from the stock while the discard is on offer lets the bots answer first (L-5.1); in
profile W the calls on a discard that fits a table meld are offered the same way
(**call rummy**, **call Liverpool** onto the picked meld, W-7).

Stable DOM hooks (CSS classes, for the browser test and for styling):

=========================  ================================================
``lp-table``               the root box
``lp-action``              every action button, plus ``lp-action-<name>``
                           with the engine's action name: ``cut``,
                           ``take_discard``, ``decline_discard``,
                           ``draw_stock``, ``buy``, ``pass``, ``go_down``,
                           ``lay_off``, ``swap_joker``, ``discard``,
                           ``next_round``, ``call_rummy``,
                           ``call_liverpool`` (profile W, W-7)
``lp-stage``               the "add as meld" and "clear melds" buttons
``lp-auto``                the "play my turn for me" button
``lp-hint``                the hint button; ``lp-hint-panel`` its output
``lp-log``                 the event log, newest first (one ``<li>`` per
                           sentence; ``lp-log-you`` marks the learner's)
``lp-scores``              the table of round scores and totals
``lp-message``             the message area: winner banner, the round just
                           ended, the refusal of the last move, the prompt
``lp-prompt``              the prompt box: the learner's decision now
``lp-board``               the board; ``lp-new-game`` the new-game button
``lp-meld-pick``           the table-meld list (lay off, swap from);
                           ``lp-to-pick`` the swap target; ``lp-end-pick``
=========================  ================================================
"""

from __future__ import annotations

import html
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import liverpool
from liverpool import display, i18n
from liverpool._core import Action, Card, GameState, Meld, NativeBot, RuleSet
from liverpool.errors import LiverpoolError
from liverpool.game_loop import GameDriver, Step
from liverpool.narration import DOMAIN, describe_refusal, who

__all__ = [
    "card_table",
    "hint_facts",
    "expert_hint_html",
    "discard_options",
    "profile_name",
    "profile_options",
    "bot_options",
    "shown_seats",
    "ACTION_NAMES",
    "BOT_KINDS",
    "BUTTON_STYLES",
]

#: The action buttons, by the engine's action names, in display order.
ACTION_NAMES: tuple[str, ...] = (
    "cut",
    "take_discard",
    "decline_discard",
    "draw_stock",
    "buy",
    "pass",
    "go_down",
    "lay_off",
    "swap_joker",
    "discard",
    "next_round",
    "call_rummy",
    "call_liverpool",
)

#: The native bot kinds a seat can be given ("" leaves the seat empty).
BOT_KINDS: tuple[str, ...] = ("expert", "greedy", "random")

#: How an offered move looks (ipywidgets ``button_style``): the usual way on in blue,
#: a choice that gives something up in amber, a gain (a buy, going down) in green.
BUTTON_STYLES: dict[str, str] = {
    "cut": "primary",
    "take_discard": "primary",
    "decline_discard": "warning",
    "draw_stock": "primary",
    "buy": "success",
    "pass": "warning",
    "go_down": "success",
    "lay_off": "primary",
    "swap_joker": "primary",
    "discard": "primary",
    "next_round": "success",
    "call_rummy": "success",
    "call_liverpool": "success",
}

_SEATS = 5  # bot pickers (seats 1..5); the seats in play and one empty seat are shown
_REFUSED = "color:#c0392b;"
_LOG_BOX = (
    "max-height:18em;overflow-y:auto;border:1px solid #ddd;margin:0;padding:4px 8px 4px 1.8em;"
    "background:#fcfcfc;list-style:disc outside;"
)
_LOG_YOU = "color:#0d47a1;font-weight:600;background:rgba(21,101,192,0.07);"
_LOG_ROUND_OVER = (
    "list-style:none;margin:8px 0 0 -1.2em;padding:4px 6px;border-top:2px solid #555;"
    "background:#eef3e8;font-weight:700;"
)
_LOG_ROUND_LINE = "list-style:none;margin-left:-1.2em;padding:1px 6px;background:#eef3e8;"
_LOG_ROUND_START = "list-style:none;margin:6px 0 0 -1.2em;padding:3px 6px;border-top:1px dashed #888;font-weight:700;"
_LOG_CUT_BONUS = "list-style:none;margin-left:-1.2em;padding:2px 6px;background:#fff4d6;border-left:4px solid #f39c12;font-weight:600;"
_LOG_GAME_OVER = "list-style:none;margin-left:-1.2em;padding:4px 6px;background:#e3f2e1;border-left:4px solid #2e7d32;font-weight:700;"
_PROMPT_BOX = (
    "font-size:1.15em;font-weight:600;padding:10px 14px;margin:6px 0;border-radius:6px;"
    "border-left:6px solid {border};background:{background};"
)
_PROMPT_YOURS = {"border": "#f39c12", "background": "#fff4d6"}
_PROMPT_WAITING = {"border": "#9e9e9e", "background": "#f2f2f2"}
_BANNER = (
    "font-size:1.4em;font-weight:700;padding:12px 16px;margin:6px 0;border-radius:8px;"
    "background:#e3f2e1;border:2px solid #2e7d32;color:#1b5e20;"
)
_ROUND_NEWS = "padding:6px 12px;margin:6px 0;border-radius:6px;background:#eef3e8;border-left:6px solid #558b2f;"
# A trophy drawn as SVG (an emoji may have no font in the learner's browser).
_TROPHY = (
    "<svg class='lp-trophy' width='1em' height='1em' viewBox='0 0 24 24' aria-hidden='true' "
    "style='vertical-align:-0.12em;margin-right:0.3em'><path fill='#f9a825' stroke='#8d6e00' stroke-width='1' "
    "d='M7 2h10v2h4v3a5 5 0 0 1-5 5h-.4A5 5 0 0 1 13 14.8V18h3v3H8v-3h3v-3.2A5 5 0 0 1 8.4 12H8a5 5 0 0 1-5-5V4h4z"
    "M5 6v1a3 3 0 0 0 2.3 2.9A8 8 0 0 1 7 8V6zm14 0h-2v2a8 8 0 0 1-.3 1.9A3 3 0 0 0 19 7z'/></svg>"
)
# Faded disabled controls and buttons that grow with their labels (no "Add selection as …").
_TABLE_CSS = """<style>
.lp-table .widget-button { width: auto; min-width: 6em; }
.lp-table button:disabled, .lp-table .widget-dropdown select:disabled { opacity: 0.38; }
.lp-table .lp-action:not(:disabled) { font-weight: 600; }
</style>"""


def _t(key: str, **params: Any) -> str:
    return i18n.text(DOMAIN, key, **params)


# ----- the engine's answers behind the hint -------------------------------------------------


def _without_one(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def discard_options(state: GameState, seat: int, seen: Iterable[Card]) -> list[tuple[Card, int, int, bool]]:
    """For each distinct card of ``seat``'s hand: ``(card, unseen outs, points left,
    keeps contract)`` of the hand without it, best first. The engine answers
    (``has_contract``, ``outs``, ``best_arrangement``); this only sorts them: keep the
    contract if possible, then the most unseen outs, then the fewest points left."""
    hand = state.hand(seat)
    rules = state.rules
    seen = list(seen)
    options = []
    for card in sorted(set(hand)):
        rest = _without_one(hand, card)
        holds = (not state.down[seat]) and liverpool.has_contract(rest, state.round, rules)
        if state.down[seat] or holds:
            unseen = 0
        else:
            unseen = sum(n for _, n in liverpool.outs(rest, state.round, rules, seen=seen, players=state.players))
        points = liverpool.best_arrangement(rest, rules).points
        options.append((card, unseen, points, holds))
    options.sort(key=lambda o: (not o[3], -o[1], o[2], o[0]))
    return options


def hint_facts(driver: GameDriver) -> SimpleNamespace:
    """What the engine knows for seat 0 now: ``go_down`` (an ``Action`` the engine
    accepts now, or None), ``best`` (the ``GoDown`` of ``best_go_down`` for the hand, or
    None), ``outs`` (``[(card, unseen copies)]``, seat 0's view) and ``discards`` (see
    :func:`discard_options`, in the play phase only)."""
    state = driver.state
    seat = driver.human
    hand = state.hand(seat)
    rules = state.rules
    seen = driver.seen_by_human()
    best = None
    go_down: Action | None = None
    outs: list[tuple[Card, int]] = []
    discards: list[tuple[Card, int, int, bool]] = []
    if not state.down[seat] and not state.is_round_over and hand:
        best = liverpool.best_go_down(hand, state.round, rules)
        if best is not None:
            candidate = Action.go_down([m.cards for m in best.melds])
            if driver.waiting_for_human and state.can(seat, candidate):
                go_down = candidate
            elif driver.waiting_for_human:
                # best_go_down may use every card; the engine's legal list keeps one to discard.
                go_down = next((a for a in driver.legal() if a.name == "go_down"), None)
        else:
            outs = liverpool.outs(hand, state.round, rules, seen=seen, players=state.players)
    if driver.waiting_for_human and state.phase == "play" and len(hand) > 1:
        discards = discard_options(state, seat, seen)
    return SimpleNamespace(go_down=go_down, best=best, outs=outs, discards=discards)


def expert_hint_html(driver: GameDriver) -> str:
    """The expert bot's suggestion for the learner's seat and its reason (the engine's
    ``GameState.hint``, from that seat's view only), or "" when it is not their turn."""
    if not driver.waiting_for_human:
        return ""
    suggestion = driver.state.hint(driver.human)
    return (
        f"<div class='lp-expert-hint'><b>{html.escape(_t('hint_expert'))}</b> "
        f"{html.escape(suggestion.reason)}</div>"
    )


def _hint_html(driver: GameDriver) -> str:
    facts = hint_facts(driver)
    state = driver.state
    parts: list[str] = []
    expert = expert_hint_html(driver)
    if expert:
        parts.append(expert)
    if facts.go_down is not None:
        melds = [Meld.parse(group, state.rules) for group in facts.go_down.melds or []]
        body = "".join(display.meld_html(m) for m in melds)
        parts.append(f"<div><b>{html.escape(_t('hint_go_down_now'))}</b>{body}</div>")
    elif facts.best is not None:
        parts.append(
            f"<div><b>{html.escape(_t('hint_contract_held'))}</b>{display.go_down_html(facts.best)}</div>"
        )
    elif state.down[driver.human]:
        parts.append(f"<div>{html.escape(_t('hint_already_down'))}</div>")
    if facts.outs:
        items = "".join(
            f"<li>{display.cards_html([card], width=32)} {html.escape(_t('hint_unseen', count=n))}</li>"
            for card, n in facts.outs
        )
        parts.append(f"<div><b>{html.escape(_t('hint_outs'))}</b><ul class='lp-outs'>{items}</ul></div>")
    elif facts.best is None and not state.down[driver.human] and not state.is_round_over:
        parts.append(f"<div>{html.escape(_t('hint_no_outs'))}</div>")
    if facts.discards:
        rows = []
        for card, unseen, points, holds in facts.discards[:3]:
            why = _t("hint_keeps_contract") if holds else _t("hint_keeps_outs", count=unseen)
            if state.down[driver.human]:
                why = ""
            rows.append(
                f"<li>{display.cards_html([card], width=32)} "
                f"{html.escape(why)} {html.escape(_t('hint_points_left', points=points))}</li>"
            )
        parts.append(f"<div><b>{html.escape(_t('hint_discards'))}</b><ol class='lp-discards'>{''.join(rows)}</ol></div>")
    if not parts:
        parts.append(html.escape(_t("hint_nothing")))
    return "<div class='lp-hint-panel'>" + "".join(parts) + "</div>"


# ----- the table --------------------------------------------------------------------------


def _meld_label(index: int, owner: int, cards: Iterable[Card]) -> str:
    return f"#{index} · {who(owner, 0)}: {' '.join(str(c) for c in cards)}"


def _scores_html(driver: GameDriver) -> str:
    """One row per finished round (★ for the seat that went out, the cut bonus marked),
    then the totals; at game over the engine's winners get a trophy."""
    state = driver.state
    seats = range(state.players)
    cell = "padding:2px 10px;border-bottom:1px solid #e0e0e0;text-align:right;"
    head = f"<th style='{cell}text-align:left'>{html.escape(_t('scores_round'))}</th>" + "".join(
        f"<th style='{cell}'>{html.escape(who(s, driver.human))}</th>" for s in seats
    )
    rows = [f"<tr>{head}</tr>"]
    bonus_seen = False
    for result in driver.rounds:
        cells = []
        for s in seats:
            mark = ""
            if s == result.winner:
                mark += " ★"
            if s == result.cut_bonus_seat:
                bonus_seen = True
                mark += (
                    " <span class='lp-cut-bonus' style='background:#fff4d6;border:1px solid #f39c12;"
                    f"border-radius:4px;padding:0 4px;font-size:0.85em'>({html.escape(_t('scores_cut_bonus'))})</span>"
                )
            cells.append(f"<td style='{cell}'>{result.scores[s]}{mark}</td>")
        rows.append(f"<tr><td style='{cell}text-align:left'>{result.round}</td>{''.join(cells)}</tr>")
    winners = set(state.winners) if state.is_game_over else set()
    total_cell = f"{cell}font-weight:700;border-top:2px solid #555;"
    totals = "".join(
        f"<td class='lp-winner' style='{total_cell}background:#e3f2e1'>{_TROPHY}{t}</td>"
        if s in winners
        else f"<td style='{total_cell}'>{t}</td>"
        for s, t in enumerate(state.totals)
    )
    rows.append(f"<tr><td style='{total_cell}text-align:left'>{html.escape(_t('scores_total'))}</td>{totals}</tr>")
    legend = [_t("scores_legend_went_out")] if driver.rounds else []
    if bonus_seen:
        legend.append(_t("scores_legend_cut_bonus"))
    note = (
        f"<div class='lp-scores-legend' style='opacity:0.75;font-size:0.9em'>{html.escape(' · '.join(legend))}</div>"
        if legend
        else ""
    )
    return f"<table class='lp-scores-table' style='border-collapse:collapse'>{''.join(rows)}</table>{note}"


def _prompt(driver: GameDriver) -> str:
    """The decision the learner faces now, in a sentence of the table's language."""
    state = driver.state
    if state.is_game_over:
        return _t("prompt_game_over", winners=", ".join(who(s, driver.human) for s in state.winners))
    if not driver.waiting_for_human:
        return _t("prompt_wait")
    phase = state.phase
    names = {a.name for a in driver.legal()}
    top = state.discard_top
    if phase == "cut":
        return _t("prompt_cut", most=state.stock_size - 1)
    if phase == "draw" and "take_discard" in names and top is not None:
        return _t("prompt_draw", card=str(top))
    if phase == "draw" and state.declined and top is not None:
        return _t("prompt_draw_declined", card=str(top))
    if phase == "draw":
        return _t("prompt_draw_stock")
    if phase == "buying":
        return _t("prompt_buy", card=str(top))
    if phase == "calling" and state.call_offer is not None:
        kind, discarder = state.call_offer
        if kind == "rummy":
            return _t("prompt_call_rummy", seat=who(discarder, driver.human), card=str(top))
        return _t("prompt_call_liverpool", card=str(top))
    if phase == "call_discard":
        return _t("prompt_call_discard")
    if phase == "play":
        return _t("prompt_play_down") if state.down[driver.human] else _t("prompt_play")
    if phase == "round_over":
        return _t("prompt_next_round")
    return ""


def _winner_banner(driver: GameDriver) -> str:
    """At game over: who won (the engine's winners), the learner first if among them."""
    state = driver.state
    winners = list(state.winners)
    if not winners:
        return ""
    others = [who(s, driver.human) for s in winners if s != driver.human]
    if driver.human in winners:
        words = _t("banner_you_share", others=", ".join(others)) if others else _t("banner_you_win")
    elif len(winners) == 1:
        words = _t("banner_winner", winner=others[0])
    else:
        words = _t("banner_winners", winners=", ".join(others))
    return f"<div class='lp-winner-banner' style='{_BANNER}'>{_TROPHY}{html.escape(words)}</div>"


def _prompt_html(driver: GameDriver) -> str:
    """The prompt box (``lp-prompt``): amber when the learner must decide, grey otherwise."""
    colours = _PROMPT_YOURS if driver.waiting_for_human else _PROMPT_WAITING
    style = _PROMPT_BOX.format(**colours)
    return f"<div class='lp-prompt' style='{style}'>{html.escape(_prompt(driver))}</div>"


def profile_name(preset: str) -> str:
    """A rule preset's readable name in the current language ("Liverpool clássico (W)");
    a preset with no catalogue entry keeps its id."""
    key = "profile_" + preset.replace("-", "_")
    return _t(key) if i18n.has_text(DOMAIN, key) else preset


def profile_options() -> list[tuple[str, str]]:
    """The engine's rule presets as (readable name, preset id) pairs for a dropdown."""
    return [(profile_name(preset), preset) for preset in RuleSet.presets()]


def bot_options() -> list[tuple[str, str]]:
    """A seat picker's choices: each native bot kind, then "no player" (value "")."""
    return [(_t(f"bot_{kind}"), kind) for kind in BOT_KINDS] + [(_t("no_player"), "")]


def shown_seats(kinds: Sequence[str]) -> list[bool]:
    """Which seat pickers to show, given their values: every seat up to the last one
    with a bot, and the first empty seat after it (to add a player)."""
    filled = [index for index, kind in enumerate(kinds) if kind]
    last = filled[-1] if filled else -1
    return [index <= last + 1 for index in range(len(kinds))]


def calls_absent(rules: RuleSet) -> set[str]:
    """The call buttons (W-7) that this rule set never offers, so the table hides them.
    Read from the rule set's own options, never decided here."""
    options = json.loads(rules.to_json())
    return {name for name, key in (("call_rummy", "rummy_call"), ("call_liverpool", "liverpool_call")) if not options.get(key)}


def card_table(
    *,
    rules: str | RuleSet = "liverpool",
    bots: Sequence[str] = ("greedy", "greedy", "greedy"),
    seed: int = 0,
    language: str | None = None,
    pace: float = 0.0,
) -> SimpleNamespace:
    """A card table where the learner plays seat 0 against native bots (``"expert"``,
    ``"greedy"`` or ``"random"``, one per other seat) under the rule preset ``rules``. ``language``
    pins the table's language (default: the current one). ``pace`` is a pause in
    seconds after each bot move, so a notebook shows the moves arriving one by one.

    Returns a namespace: ``box`` (display it), ``hand`` (the hand widget), ``buttons``
    (action buttons by engine action name), ``log``, ``hint_button``, ``hint``,
    ``scores``, ``message``, ``board`` (HTML widgets), ``driver`` (the
    :class:`~liverpool.game_loop.GameDriver`, replaced by **New game**), the pickers
    ``meld_pick``, ``to_pick``, ``end_pick``, ``cut_size``, ``proposal``, the
    go-down staging ``add_meld_button``, ``clear_melds_button``, ``staged``, the
    ``auto_button``, ``new_game_button`` with ``profile``, ``bot_pickers``, ``seed``,
    ``select(cards)`` to select cards from Python and ``start(driver)`` to play on from
    another :class:`~liverpool.game_loop.GameDriver` (e.g. one built from a position).
    """
    import ipywidgets as widgets

    from liverpool.widgets.cards import HandWidget

    lang = i18n.get_language() if language is None else language

    @contextmanager
    def speaking() -> Iterator[None]:
        with i18n.language(lang):
            yield

    wide = {"description_width": "initial"}
    with speaking():
        preset = rules if isinstance(rules, str) else rules.name
        profile = widgets.Dropdown(
            options=profile_options(),
            value=preset,
            description=_t("label_rules"),
            style=wide,
            layout=widgets.Layout(width="auto"),
        )
        if preset not in RuleSet.presets():  # a rule set of the learner's own
            profile.options = [*profile.options, (preset, preset)]
            profile.value = preset
        bot_pickers = []
        for index in range(max(_SEATS, len(bots))):
            value = bots[index] if index < len(bots) else ""
            bot_pickers.append(
                widgets.Dropdown(
                    options=bot_options(),
                    value=value,
                    description=who(index + 1, 0),
                    style=wide,
                    layout=widgets.Layout(width="auto"),
                )
            )
        seed_box = widgets.IntText(
            value=seed, description=_t("label_seed"), style=wide, layout=widgets.Layout(width="11em")
        )
        new_game_button = widgets.Button(description=_t("button_new_game"), icon="refresh")
        board = widgets.HTML()
        message = widgets.HTML()
        hand = HandWidget()
        hand_label = widgets.HTML(f"<b style='font-size:1.1em'>{html.escape(i18n.text('cards', 'hand_label'))}</b>")
        sort_pick = widgets.ToggleButtons(
            options=[(_t("sort_suit"), "suit"), (_t("sort_rank"), "rank")],
            value="suit",
            style={"button_width": "auto"},
        )
        meld_pick = widgets.Dropdown(
            options=[], description=_t("label_meld"), style=wide, layout=widgets.Layout(width="26em")
        )
        to_pick = widgets.Dropdown(
            options=[], description=_t("label_joker_to"), style=wide, layout=widgets.Layout(width="26em")
        )
        end_pick = widgets.Dropdown(
            options=[(_t("end_auto"), ""), (_t("end_low"), "low"), (_t("end_high"), "high")],
            value="",
            description=_t("label_end"),
            style=wide,
            # "auto" sized the list to the label, cutting "qualquer"/"cualquiera"
            layout=widgets.Layout(width="16em"),
        )
        cut_size = widgets.IntText(
            value=0, description=_t("label_cut_size"), style=wide, layout=widgets.Layout(width="11em")
        )
        proposal = widgets.Dropdown(
            options=[], description=_t("label_proposal"), style=wide, layout=widgets.Layout(width="34em")
        )
        staged_view = widgets.HTML()
        add_meld_button = widgets.Button(description=_t("button_add_meld"), icon="plus")
        clear_melds_button = widgets.Button(description=_t("button_clear_melds"), icon="times")
        buttons = {name: widgets.Button(description=_t(f"button_{name}")) for name in ACTION_NAMES}
        auto_button = widgets.Button(description=_t("button_auto"), icon="magic")
        hint_button = widgets.Button(description=_t("button_hint"), icon="lightbulb-o", button_style="info")
        hint = widgets.HTML()
        log = widgets.HTML()
        scores = widgets.HTML()

    # Buttons as wide as their labels, in every language.
    for button in [*buttons.values(), add_meld_button, clear_melds_button, auto_button, hint_button, new_game_button]:
        button.layout = widgets.Layout(width="auto", min_width="6em")
    for name, button in buttons.items():
        button.add_class("lp-action")
        button.add_class(f"lp-action-{name}")
    for button in (add_meld_button, clear_melds_button):
        button.add_class("lp-stage")
    auto_button.add_class("lp-auto")
    hint_button.add_class("lp-hint")
    hint.add_class("lp-hint-panel")
    log.add_class("lp-log")
    scores.add_class("lp-scores")
    message.add_class("lp-message")
    board.add_class("lp-board")
    new_game_button.add_class("lp-new-game")
    meld_pick.add_class("lp-meld-pick")
    to_pick.add_class("lp-to-pick")
    end_pick.add_class("lp-end-pick")
    for picker in bot_pickers:
        picker.add_class("lp-seat-pick")
    profile.add_class("lp-profile-pick")
    ui = SimpleNamespace()
    staged: list[list[Card]] = []
    log_items: list[str] = []  # one block of <li> per move, oldest first; drawn newest first
    gained: list[Card] = []
    refusal: list[str] = []  # the last refusal, shown instead of the prompt until the next move
    round_news: list[str] = []  # the end of a round that happened since the learner's last move

    def round_end_items(step: Step) -> str:
        """The end of a round as a separator: how it ended, the scores and totals, the cut
        bonus and the game's end each marked."""
        driver: GameDriver = ui.driver
        result = driver.rounds[-1] if driver.rounds else None
        bonus = (
            _t("cut_bonus_scored", who=who(result.cut_bonus_seat, driver.human))
            if result is not None and result.cut_bonus_seat is not None
            else None
        )
        items = []
        last = len(step.round_end) - 1
        for index, line in enumerate(step.round_end):
            if index == 0:
                kind, style = "lp-log-round-over", _LOG_ROUND_OVER
            elif line == bonus:
                kind, style = "lp-log-cut-bonus", _LOG_CUT_BONUS
            elif index == last and driver.state.is_game_over:
                kind, style = "lp-log-game-over", _LOG_GAME_OVER
            else:
                kind, style = "lp-log-round-line", _LOG_ROUND_LINE
            items.append(f"<li class='lp-log-round-end {kind}' style='{style}'>{html.escape(line)}</li>")
        return "".join(items)

    def draw_log() -> None:
        log.value = f"<ul class='lp-log-list' style='{_LOG_BOX}'>{''.join(reversed(log_items))}</ul>"

    def log_step(step: Step) -> None:
        if step.round_end:
            round_news[:] = step.round_end
        classes = ["lp-log-move"]
        style = ""
        if step.seat == ui.driver.human:
            classes.append("lp-log-you")
            style = _LOG_YOU
        if step.event.get("event") == "round_started":
            classes.append("lp-log-round-start")
            style += _LOG_ROUND_START
        if step.event.get("cut_bonus"):
            classes.append("lp-log-cut-bonus")
            style += "background:#fff4d6;border-left:4px solid #f39c12;"
        move = f"<li class='{' '.join(classes)}' style='{style}'>{html.escape(step.text)}</li>"
        # Newest first: the round's end sits above the move that ended it.
        log_items.append((round_end_items(step) if step.round_end else "") + move)
        draw_log()

    def selection() -> list[Card]:
        """The selected cards in the order they were clicked (a run is read low to high)."""
        shown = {item["key"] for item in hand.items}
        return [Card(key.rsplit("#", 1)[0]) for key in hand.selected if key in shown]

    def refresh_proposals(_: Any = None) -> None:
        with speaking():
            state = ui.driver.state
            if state.phase != "play" or state.down[ui.driver.human] or not ui.driver.waiting_for_human:
                proposal.options = []
                return
            pool = selection() or state.hand(ui.driver.human)
            found = liverpool.all_go_downs(pool, state.round, state.rules, limit=24)
            proposal.options = [
                (" | ".join(" ".join(str(c) for c in m.cards) for m in g.melds), index) for index, g in enumerate(found)
            ]
            ui.proposals = found

    def board_html(highlight: Iterable[Card] = ()) -> str:
        """The board from seat 0, without seat 0's cards: the hand widget shows them."""
        state = ui.driver.state
        board = display.state_html(state, seat=ui.driver.human, highlight=list(highlight), own_hand=False)
        return f"<div class='lp-board'>{board}</div>"

    def render() -> None:
        with speaking():
            driver: GameDriver = ui.driver
            state = driver.state
            legal_names = {a.name for a in driver.legal()}
            if driver.waiting_for_human and state.can(driver.human, Action.decline_discard()):
                legal_names.add("decline_discard")  # accepted, never listed (L-5.1)
            absent = calls_absent(state.rules)
            for name, button in buttons.items():
                button.disabled = name not in legal_names
                button.button_style = "" if button.disabled else BUTTON_STYLES.get(name, "primary")
                button.layout.display = "none" if name in absent else None
            auto_button.disabled = not driver.waiting_for_human
            can_stage = "go_down" in legal_names
            add_meld_button.disabled = clear_melds_button.disabled = not can_stage
            proposal.disabled = not can_stage
            meld_pick.disabled = to_pick.disabled = end_pick.disabled = not (
                legal_names & {"lay_off", "swap_joker", "call_liverpool"}
            )
            cut_size.disabled = "cut" not in legal_names
            board.value = board_html(highlight=gained)
            hand.show(state.hand(driver.human), sort=sort_pick.value, highlight=list(gained))
            melds = [(_meld_label(i, t.owner, t.meld.cards), i) for i, t in enumerate(state.table)]
            current = meld_pick.value
            meld_pick.options = melds
            if current is not None and any(v == current for _, v in melds):
                meld_pick.value = current
            target = to_pick.value
            to_pick.options = melds
            if target is not None and any(v == target for _, v in melds):
                to_pick.value = target
            staged_view.value = (
                "".join(display.cards_html(group, width=32) for group in staged)
                if staged
                else f"<i>{html.escape(_t('staged_none'))}</i>"
            )
            parts = []
            if state.is_game_over:
                parts.append(_winner_banner(driver))
            if round_news:
                lines = "".join(
                    f"<div style='font-weight:{700 if index == 0 else 400}'>{html.escape(line)}</div>"
                    for index, line in enumerate(round_news)
                )
                parts.append(f"<div class='lp-round-news' style='{_ROUND_NEWS}'>{lines}</div>")
            if refusal:
                parts.append(f"<div class='lp-refusal' style='{_REFUSED}font-weight:600'>{html.escape(refusal[0])}</div>")
            parts.append(_prompt_html(driver))
            message.value = f"<div class='lp-message'>{''.join(parts)}</div>"
            scores.value = _scores_html(driver)
            hint.value = ""
        refresh_proposals()

    def after_human(step: Step) -> None:
        gained[:] = step.gained
        round_news.clear()
        log_step(step)
        for bot_step in ui.driver.run_bots():
            log_step(bot_step)
            if pace > 0:
                board.value = board_html()
                with speaking():
                    message.value = f"<div class='lp-message'>{_prompt_html(ui.driver)}</div>"
                time.sleep(pace)
        if ui.driver.state.phase == "cut" or ui.driver.state.is_round_over:
            staged.clear()

    def attempt(build: Callable[[], Action | str]) -> None:
        """Build the learner's move from the selection and apply it; a string is a
        request for more input (shown, nothing applied)."""
        with speaking():
            refusal.clear()
            built = build()
            if isinstance(built, str):
                refusal.append(built)
                render()
                return
            try:
                step = ui.driver.play(built)
            except LiverpoolError as exc:
                refusal.append(describe_refusal(exc))
                render()
                return
            if built.name == "go_down":
                staged.clear()
            if built.name in ("go_down", "lay_off", "swap_joker", "discard"):
                hand.clear_selection()
            after_human(step)
        render()

    def one_card(key: str) -> Card | str:
        cards = selection()
        return cards[0] if len(cards) == 1 else _t(key)

    def end_value() -> Any:
        return end_pick.value or None

    def build_simple(name: str) -> Callable[[], Action | str]:
        makers: dict[str, Callable[[], Action]] = {
            "take_discard": Action.take_discard,
            "decline_discard": Action.decline_discard,
            "draw_stock": Action.draw_stock,
            "buy": Action.buy,
            "pass": Action.pass_,
            "next_round": Action.next_round,
            "call_rummy": Action.call_rummy,
            "cut": lambda: Action.cut(cut_size.value if cut_size.value > 0 else None),
        }
        return makers[name]

    def build_call_liverpool() -> Action | str:
        if meld_pick.value is None:
            return _t("need_meld")
        return Action.call_liverpool(meld_pick.value, end_value())

    def build_discard() -> Action | str:
        card = one_card("need_one_card_discard")
        return card if isinstance(card, str) else Action.discard(card)

    def build_lay_off() -> Action | str:
        cards = selection()
        if not cards:
            return _t("need_cards_lay_off")
        if meld_pick.value is None:
            return _t("need_meld")
        return Action.lay_off(meld_pick.value, cards, end_value())

    def build_swap() -> Action | str:
        card = one_card("need_one_card_swap")
        if isinstance(card, str):
            return card
        if meld_pick.value is None or to_pick.value is None:
            return _t("need_meld")
        return Action.swap_joker(meld_pick.value, card, to_pick.value, end_value())

    def build_go_down() -> Action | str:
        if staged:
            return Action.go_down(staged)
        found = getattr(ui, "proposals", [])
        if proposal.value is None or not found:
            return _t("need_go_down")
        return Action.go_down([m.cards for m in found[proposal.value].melds])

    def add_meld(_: Any = None) -> None:
        with speaking():
            refusal.clear()
            cards = selection()
            if not cards:
                refusal.append(_t("need_cards_meld"))
            else:
                rules = ui.driver.state.rules
                try:
                    Meld.parse(cards, rules)
                except LiverpoolError as exc:
                    # Clicked out of order? If the engine sees the cards as exactly one
                    # meld, stage its order (where a joker sits in a run); else explain.
                    arranged = liverpool.best_arrangement(cards, rules)
                    if len(arranged.melds) == 1 and not arranged.deadwood:
                        staged.append(arranged.melds[0].cards)
                        hand.clear_selection()
                    else:
                        refusal.append(describe_refusal(exc))
                else:
                    staged.append(cards)
                    hand.clear_selection()
        render()

    def clear_melds(_: Any = None) -> None:
        staged.clear()
        refusal.clear()
        render()

    def auto(_: Any = None) -> None:
        if not ui.driver.waiting_for_human:
            return
        choice = ui.helper.choose(ui.driver.state, ui.driver.human)
        attempt(lambda: choice)

    def show_hint(_: Any = None) -> None:
        with speaking():
            hint.value = _hint_html(ui.driver)

    def start(driver: GameDriver) -> None:
        ui.driver = driver
        ui.helper = NativeBot("greedy", seed=seed_box.value)
        staged.clear()
        log_items.clear()
        round_news.clear()
        gained.clear()
        refusal.clear()
        with speaking():
            log.value = ""
            for step in driver.run_bots():
                log_step(step)
        render()

    def new_game(_: Any = None) -> None:
        names = [p.value for p in bot_pickers if p.value]
        with speaking():
            refusal.clear()
            if not names:
                refusal.append(_t("need_bot"))
                render()
                return
            try:
                driver = GameDriver.new(seed=seed_box.value, bots=names, rules=profile.value)
            except LiverpoolError as exc:
                refusal.append(describe_refusal(exc))
                render()
                return
        start(driver)

    for name in ("cut", "take_discard", "decline_discard", "draw_stock", "buy", "pass", "next_round", "call_rummy"):
        buttons[name].on_click(lambda _, build=build_simple(name): attempt(build))
    buttons["call_liverpool"].on_click(lambda _: attempt(build_call_liverpool))
    buttons["discard"].on_click(lambda _: attempt(build_discard))
    buttons["lay_off"].on_click(lambda _: attempt(build_lay_off))
    buttons["swap_joker"].on_click(lambda _: attempt(build_swap))
    buttons["go_down"].on_click(lambda _: attempt(build_go_down))
    add_meld_button.on_click(add_meld)
    clear_melds_button.on_click(clear_melds)
    auto_button.on_click(auto)
    hint_button.on_click(show_hint)
    new_game_button.on_click(new_game)
    sort_pick.observe(lambda _: render(), names="value")
    hand.observe(refresh_proposals, names="selected")

    def select(cards: Iterable[Card | str]) -> None:
        """Select ``cards`` in the hand (one copy per mention), as clicks would."""
        wanted = Counter(str(Card(c) if isinstance(c, str) else c) for c in cards)
        keys = []
        for item in hand.items:
            name = item["key"].split("#", 1)[0]
            if wanted[name] > 0:
                keys.append(item["key"])
                wanted[name] -= 1
        hand.selected = keys
        refresh_proposals()

    first = GameDriver.new(seed=seed, bots=list(bots), rules=rules if isinstance(rules, RuleSet) else preset)

    def row(children: list[Any]) -> Any:
        return widgets.HBox(children, layout=widgets.Layout(flex_flow="row wrap", align_items="center"))

    def show_seats(_: Any = None) -> None:
        for picker, shown in zip(bot_pickers, shown_seats([p.value for p in bot_pickers])):
            picker.layout.display = None if shown else "none"

    for picker in bot_pickers:
        picker.observe(show_seats, names="value")
    show_seats()

    with speaking():
        log_heading = widgets.HTML(f"<b>{html.escape(_t('heading_log'))}</b>")
        scores_heading = widgets.HTML(f"<b>{html.escape(_t('heading_scores'))}</b>")
    draw_row = row(
        [cut_size]
        + [
            buttons[n]
            for n in ("cut", "take_discard", "decline_discard", "draw_stock", "buy", "pass", "call_rummy", "next_round")
        ]
    )
    meld_row = row([buttons["go_down"], proposal])
    stage_row = row([add_meld_button, clear_melds_button, staged_view])
    lay_row = row([buttons["lay_off"], buttons["swap_joker"], buttons["call_liverpool"], meld_pick, to_pick, end_pick])
    play_row = row([buttons["discard"], auto_button, hint_button])
    setup = widgets.VBox([row([profile, seed_box, new_game_button]), row(bot_pickers)])
    hand_box = widgets.VBox([row([hand_label, sort_pick]), hand])
    hand_box.add_class("lp-hand-box")
    box = widgets.VBox(
        [
            widgets.HTML(_TABLE_CSS),
            setup,
            board,
            message,
            hand_box,
            draw_row,
            meld_row,
            stage_row,
            lay_row,
            play_row,
            hint,
            log_heading,
            log,
            scores_heading,
            scores,
        ]
    )
    box.add_class("lp-table")
    ui.__dict__.update(
        box=box,
        hand=hand,
        buttons=buttons,
        log=log,
        hint_button=hint_button,
        hint=hint,
        scores=scores,
        message=message,
        board=board,
        meld_pick=meld_pick,
        to_pick=to_pick,
        end_pick=end_pick,
        cut_size=cut_size,
        proposal=proposal,
        add_meld_button=add_meld_button,
        clear_melds_button=clear_melds_button,
        staged=staged,
        auto_button=auto_button,
        new_game_button=new_game_button,
        profile=profile,
        bot_pickers=bot_pickers,
        seed=seed_box,
        sort=sort_pick,
        hand_label=hand_label,
        select=select,
        start=start,
        language=lang,
    )
    start(first)
    return ui
