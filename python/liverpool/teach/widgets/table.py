"""The card table: play a whole game of Liverpool in a notebook, seat 0 against native bots.

>>> table = card_table(seed=3)     # doctest: +SKIP
>>> table                          # doctest: +SKIP

One anywidget (:class:`CardTable`): a Python model with one synced trait, ``view``,
and a front end written as an inline ES module (``table_view.js``, no npm, no build
step). The parts, each findable and testable on its own:

* the **model** and its **intents**: :class:`liverpool.teach.widgets.table_model.TableModel`
  (what a click on the stock, the discard pile, a meld, a slot or a card means);
* the **view state**: :func:`liverpool.teach.widgets.table_model.build_view`, the engine's view
  for the learner's seat and the places the engine lets them click now;
* the **front end**: draws the view and sends intents back (``model.send``); it
  decides no rule;
* the **widget**: :class:`liverpool.teach.widgets.table_widget.CardTable` (imported only when a
  table is built, so ``import liverpool.teach.widgets`` needs no anywidget).

The loop is :class:`liverpool.teach.game_loop.GameDriver`, as in ``liverpool play``. The DOM
hooks are listed in docs/card-table.md.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import liverpool
from liverpool import i18n
from liverpool._core import Action, Card, GameState, RuleSet
from liverpool.teach.game_loop import GameDriver
from liverpool.teach.narration import DOMAIN
from liverpool.teach.widgets.table_model import PACES, Settings, TableModel

if TYPE_CHECKING:  # the widget needs anywidget, imported only when a table is built
    from liverpool.teach.widgets.table_widget import CardTable

__all__ = [
    "card_table",
    "hint_facts",
    "expert_hint_html",
    "discard_options",
    "profile_name",
    "profile_options",
    "bot_options",
    "shown_seats",
    "BOT_KINDS",
]

#: The native bot kinds a seat can be given ("" leaves the seat empty).
BOT_KINDS: tuple[str, ...] = ("expert", "greedy", "random")


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


# ----- the table --------------------------------------------------------------------------


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


def _pace_key(pace: str | float) -> str:
    if isinstance(pace, str):
        return pace if pace in PACES else "normal"
    return min(PACES, key=lambda key: abs(PACES[key] - pace))


def card_table(
    *,
    rules: str | RuleSet = "liverpool",
    bots: Sequence[str] = ("greedy", "greedy", "greedy"),
    seed: int = 0,
    language: str | None = None,
    pace: str | float = "normal",
    buying: str = "helps",
    undo: bool = True,
) -> CardTable:
    """A card table where the learner plays seat 0 against native bots (``"expert"``,
    ``"greedy"`` or ``"random"``, one per other seat) under the rule preset ``rules``.
    ``language`` pins the table's language (default: the current one); ``pace`` is the
    bots' pace (``"fast"``, ``"normal"``, ``"slow"`` or seconds); ``buying`` when to ask
    about buying (``"always"``, ``"helps"``, ``"never"``); ``undo=False`` is the "no
    undo" mode."""
    lang = i18n.get_language() if language is None else language
    driver = GameDriver.new(seed=seed, bots=list(bots), rules=rules)
    if buying not in ("always", "helps", "never"):
        buying = "helps"
    settings = Settings(buying=buying, undo=undo, pace=_pace_key(pace))  # type: ignore[arg-type]
    model = TableModel(driver, language=lang, settings=settings, bot_kinds=list(bots), seed=seed, rules=rules)
    from liverpool.teach.widgets.table_widget import CardTable

    return CardTable(model)
