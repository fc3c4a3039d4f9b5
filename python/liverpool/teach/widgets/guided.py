"""A guided first game ("learn by playing"): round 1 from a fixed deal, at the same card
table, against the real engine and greedy bots, with a coach who says what to do next and
why.

The lessons, in order: take the 7♦ because it makes a set; go down now (L-5.2); you may
not lay off on the turn you went down, so discard (L-5.3); pass on cards that do not help,
and buy the K♣ with its penalty card (L-6.2); on a later turn, draw and lay off; then play
the round out, and read the scoring at its end (L-10.1). A move other than the lesson's is
not applied and the coach says why (the lesson's sentence); a move the rules refuse is
refused by the engine, with its sentence and rule id (trying to lay off on the go-down
turn is the L-5.3 lesson itself).

>>> table = guided_game(language="pt")   # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from liverpool import i18n
from liverpool._core import Action, GameState, NativeBot
from liverpool.teach.game_loop import GameDriver
from liverpool.teach.narration import DOMAIN, who
from liverpool.teach.widgets.table_model import Settings, TableModel

__all__ = ["GUIDED_POSITION", "Coach", "guided_driver", "guided_game", "LESSONS"]

#: The fixed deal (a CONFORMANCE.md position): round 1 (two sets), the learner to draw,
#: the 7♦ on the discard pile. The bots' hands and the stock are chosen so that, as the
#: greedy bots play, seat 1 throws away the K♣ the learner then buys (with the 7♣ as the
#: penalty card), and nobody goes down before the learner's lay-off turn.
GUIDED_POSITION: dict[str, Any] = {
    "profile": "liverpool",
    "players": 4,
    "round": 1,
    "dealer": 3,
    "active": 0,
    "phase": "draw",
    "hands": [
        ["7♠", "7♥", "K♠", "K♥", "K♦", "Q♦", "3♣", "5♥", "8♣", "9♠"],
        ["5♠", "5♦", "4♦", "4♠", "3♦", "3♥", "6♠", "6♥", "2♣", "K♣"],
        ["2♠", "4♥", "6♦", "8♠", "10♥", "9♣", "A♦", "5♣", "J♦", "3♠"],
        ["2♥", "4♣", "6♥", "8♦", "10♠", "2♦", "A♠", "5♦", "J♠", "6♣"],
    ],
    "stock": [
        "8♥", "7♣", "A♣", "10♣", "9♥", "A♥", "K♦", "5♠", "9♠", "J♥", "Q♥", "6♠", "7♥", "8♥",
        "4♠", "2♣", "9♥", "3♦", "J♥", "10♦", "8♦", "5♥", "4♦", "6♦", "3♥", "Q♣", "Q♠",
    ],
    "discard": ["7♦"],
}

#: The lessons in order; the coach moves to the next when its move has been made.
LESSONS: tuple[str, ...] = ("take", "go_down", "no_lay_off", "buy", "draw", "lay_off", "free")
_BOUGHT = "K♣"
_DISCARD = "Q♦"


def _t(key: str, **params: Any) -> str:
    return i18n.text(DOMAIN, key, **params)


def guided_driver() -> GameDriver:
    """The guided game's driver: the fixed deal, greedy bots at seats 1–3."""
    state = GameState.from_position(GUIDED_POSITION)
    return GameDriver(state, {seat: NativeBot("greedy", seed=seat) for seat in (1, 2, 3)})


@dataclass
class Coach:
    """The coach of the guided game: the current lesson, what it says, and which of the
    learner's moves it lets through (the engine still judges every move)."""

    lesson: int = 0

    @property
    def name(self) -> str:
        return LESSONS[min(self.lesson, len(LESSONS) - 1)]

    @property
    def free(self) -> bool:
        """After the lessons the learner plays on, the table's settings apply."""
        return self.name == "free"

    def finished(self, model: TableModel) -> bool:
        return model.state.is_round_over or model.state.round > 1

    def say(self, model: TableModel) -> str:
        state = model.state
        if self.finished(model):
            scores = state.round_scores or [0] * state.players
            return _t("coach_scoring", count=scores[model.seat])
        if not model.driver.waiting_for_human:
            return ""
        name = self.name
        if state.phase == "buying":
            card = str(state.discard_top)
            if name == "buy" and card == _BOUGHT:
                return _t("coach_buy", card=card, who=who(1, model.seat))
            if not self.free:
                return _t("coach_pass", card=card)
            return ""
        return {
            "take": lambda: _t("coach_take", card=str(state.discard_top)),
            "go_down": lambda: _t("coach_go_down"),
            "no_lay_off": lambda: _t("coach_no_lay_off", card=_DISCARD),
            "buy": lambda: _t("coach_wait_buy"),
            "draw": lambda: _t("coach_draw"),
            "lay_off": lambda: _t("coach_lay_off", card=_BOUGHT),
            "free": lambda: _t("coach_free"),
        }[name]()

    def expects(self, model: TableModel, action: Action) -> bool:
        """Whether ``action`` is the lesson's move (or one the lesson leaves free)."""
        state = model.state
        name = self.name
        if self.free or self.finished(model):
            return True
        if state.phase == "buying":
            wanted = "buy" if name == "buy" and str(state.discard_top) == _BOUGHT else "pass"
            return action.name == wanted
        if name == "take":
            return action.name == "take_discard"
        if name == "go_down":
            return action.name == "go_down"
        if name == "no_lay_off":
            # Trying to lay off is the lesson: the engine refuses it (L-5.3) in its own words.
            return action.name == "lay_off" or (action.name == "discard" and str(action.card) == _DISCARD)
        if name == "draw":
            return action.name in ("draw_stock", "take_discard")
        if name == "lay_off":
            return action.name in ("lay_off", "discard")
        return True

    def object_to(self, model: TableModel, action: Action) -> str:
        """The coach's word on a move other than the lesson's ("" lets it through)."""
        if self.expects(model, action):
            return ""
        return _t("coach_not_now", lesson=self.say(model))

    def after(self, model: TableModel, action: Action) -> None:
        """Move on once the lesson's move is made."""
        name = self.name
        done = {
            "take": action.name == "take_discard",
            "go_down": action.name == "go_down",
            "no_lay_off": action.name == "discard",
            "buy": action.name == "buy",
            "draw": action.name in ("draw_stock", "take_discard"),
            "lay_off": action.name in ("lay_off", "discard"),
        }.get(name, False)
        if done:
            self.lesson += 1

    def snapshot(self) -> int:
        return self.lesson

    def restore(self, saved: int) -> None:
        self.lesson = saved


def guided_model(language: str = "en", pace: str = "normal") -> TableModel:
    """The guided game's model (no widget): the fixed deal, the coach, undo on."""
    return TableModel(
        guided_driver(),
        language=language,
        settings=Settings(pace=pace),
        bot_kinds=["greedy", "greedy", "greedy"],
        coach=Coach(),
    )


def guided_game(*, language: str | None = None, pace: str = "normal") -> Any:
    """The guided first game at the card table (a :class:`~liverpool.teach.widgets.table_widget.CardTable`)."""
    from liverpool.teach.widgets.table_widget import CardTable

    lang = i18n.get_language() if language is None else language
    return CardTable(guided_model(lang, pace))
