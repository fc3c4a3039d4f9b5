"""The card table's model: what the learner sees and what their clicks mean, with no
widget in sight (so each part can be tested in plain Python).

Three small parts, each with one job:

* :class:`TableModel` holds the game (a :class:`~liverpool.teach.game_loop.GameDriver`, the one
  game loop), the learner's selection and go-down slots, the settings, the undo stack and
  the log, and turns **intents** (``{"kind": "stock"}``, ``{"kind": "meld", "index": 2}``,
  …, what the front end sends when a card or pile is clicked) into engine actions.
  :meth:`TableModel.handle` is the only way in.
* :meth:`TableModel.view` is the **view state**: one JSON-able dict that the front end
  draws, built from the engine's view for the learner's seat (``GameState.view(0)``),
  the legal actions and the engine's answers (``can``, ``hint``). Nothing in it is
  decided here: a pile is clickable because the engine lists or accepts that move.
* :class:`LogBook` turns the driver's steps into log lines: a discard and its buying
  window in one line, each bot move with its reason.

The engine is the referee: a move the learner builds is applied by the engine, and a
refusal is shown as its sentence and rule id (never a raw code), with nothing changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import liverpool
from liverpool import i18n
from liverpool.teach import display
from liverpool._core import Action, Card, GameState, Meld, NativeBot, RuleSet
from liverpool.errors import LiverpoolError
from liverpool.teach.game_loop import GameDriver, Snapshot, Step
from liverpool.teach.narration import DOMAIN, who

__all__ = [
    "BUYING_CHOICES",
    "PACES",
    "Settings",
    "LogBook",
    "TableModel",
    "buy_helps",
    "bot_reason",
]

Buying = Literal["always", "helps", "never"]
#: The buying setting's choices: ask me always, only when the card would help my hand, never.
BUYING_CHOICES: tuple[Buying, ...] = ("always", "helps", "never")
#: The bots' pace: seconds between two bot moves drawn on the table.
PACES: dict[str, float] = {"fast": 0.0, "normal": 0.35, "slow": 0.9}


def _t(key: str, **params: Any) -> str:
    return i18n.text(DOMAIN, key, **params)


def buy_helps(state: GameState, seat: int) -> bool:
    """Whether buying the card on offer would help ``seat``'s hand, as the engine's greedy
    bot judges it (the same test it uses for its own buys: the card brings its contract
    closer). Asked of the engine, never decided here."""
    return NativeBot("greedy", seed=0).choose(state, seat).name == "buy"


@dataclass
class Settings:
    """The learner's choices at the table."""

    #: "always", "helps" (only when the card would help my hand, the default) or "never".
    buying: Buying = "helps"
    #: Undo of the learner's last decision (on at the teaching table; off: "no undo").
    undo: bool = True
    #: The bots' pace, a key of :data:`PACES`.
    pace: str = "normal"
    #: The hand's order: "suit" or "rank".
    sort: str = "suit"


# ----- the log ------------------------------------------------------------------------


def bot_reason(kind: str, step: Step, offered: Card | None, state: GameState | None = None) -> str:
    """Why a bot made its move, in the learner's language. For a greedy bot's take, buy
    and discard the engine says what the card does in the bot's hand, given ``state``
    (the game just after the move): ``best_arrangement`` puts a taken card in a set or a
    run, a discarded card in the deadwood or not. Otherwise the bot's own policy, as the
    engine's bots follow it (docs/bots.md): greedy takes or buys a card only when it
    brings its contract closer, goes down as soon as it holds the contract, lays off
    whatever fits and throws away its least useful card; random picks any legal move."""
    name = step.action.name
    if name in ("pass", "cut", "next_round"):
        return ""
    if kind == "random":
        return _t("why_random")
    if kind == "expert":
        return _t("why_expert")
    if state is not None:
        found = _arranged_reason(step, state)
        if found:
            return found
    card = str(offered) if offered is not None else ""
    keys = {
        "take_discard": "why_take",
        "draw_stock": "why_draw" if card else "",
        "decline_discard": "why_draw" if card else "",
        "buy": "why_buy",
        "go_down": "why_go_down",
        "lay_off": "why_lay_off",
        "swap_joker": "why_swap",
        "discard": "why_discard",
    }
    key = keys.get(name, "")
    return _t(key, card=card) if key else ""


def _arranged_reason(step: Step, state: GameState) -> str:
    """What the engine's arrangement of the bot's hand says about the card it took,
    bought or threw away ("" when it says nothing more than the policy)."""
    event = step.event
    name = step.action.name
    seat = step.seat
    card_text = event.get("card")
    if not card_text or seat >= state.players:
        return ""
    card = Card(card_text)
    hand = list(state.hand(seat))
    rules = state.rules
    down = state.down[seat]
    if name in ("take_discard", "buy"):
        if down:
            return _t("why_fits_table") if name == "take_discard" else ""
        if card.is_joker:
            return ""
        arranged = liverpool.best_arrangement(hand, rules)
        meld = next((m for m in arranged.melds if card in m.cards), None)
        if meld is None:
            return ""
        if meld.kind == "set":
            return _t("why_makes_set", rank=str(card)[:-1])
        return _t("why_makes_run", suit=str(card)[-1])
    if name == "discard" and event.get("event") == "discarded":
        if down:
            return "" if rules.whole_hand(state.round) else _t("why_discard_down")
        arranged = liverpool.best_arrangement([*hand, card], rules)
        if card in arranged.deadwood:
            return _t("why_discard_loose")
    return ""


@dataclass
class LogLine:
    """One line of the log: the sentence, whose move (``seat``, None for the table's own
    news), its kind (``move``, ``round``, ``game``) and a reason."""

    text: str
    seat: int | None = None
    kind: str = "move"
    reason: str = ""
    #: The discard this line carries, while its buying window is open.
    window_card: str | None = None
    passes: int = 0
    buyer: int | None = None

    def as_view(self, viewer: int) -> dict[str, Any]:
        return {
            "text": self.text,
            "reason": self.reason,
            "kind": self.kind,
            "you": self.seat == viewer,
        }


class LogBook:
    """The log, oldest first. A discard opens a buying window; the passes and the buy in
    it are folded into the discard's line ("nobody bought 10♥", "seat 3 bought 10♥ + a
    penalty card") instead of one line each."""

    def __init__(self, viewer: int, bot_kinds: dict[int, str]) -> None:
        self.viewer = viewer
        self.bot_kinds = bot_kinds
        self.lines: list[LogLine] = []
        self._window: LogLine | None = None
        self._state: GameState | None = None  # the game just after the step being logged

    def _close_window(self) -> None:
        line = self._window
        if line is None:
            return
        self._window = None
        if line.buyer is None and line.passes:
            line.text += _t("window_nobody_bought", card=line.window_card or "")

    def add(self, step: Step, offered: Card | None, state: GameState | None = None) -> None:
        event = step.event
        kind = event.get("event")
        seat = step.seat
        self._state = state
        if kind == "passed":
            # A pass is folded into the window's line (or, after a buy, needs no line).
            if self._window is not None:
                self._window.passes += 1
            self._then(event)
            return
        if kind == "bought" and self._window is not None:
            window = self._window
            window.buyer = seat
            window.text += self._say("window_bought", seat, card=event["card"])
            if seat != self.viewer:
                window.text += self._reason_suffix(seat, step, offered)
            self._then(event)
            return
        if kind == "declined_discard":
            # The next player draws from the stock: the others are asked first (L-5.1).
            if self._window is not None:
                self._window.text += self._say("window_declined", seat)
            else:  # the up-card of a new deal: no discard line to join
                line = LogLine(self._say("left_card", seat, card=event.get("card") or ""), seat)
                line.window_card = event.get("card")
                self.lines.append(line)
                self._window = line
            if not event.get("window_open"):
                self._close_window()
            self._then(event)
            return
        if kind == "took_discard" and self._window is not None:
            window = self._window
            window.buyer = seat
            window.text += self._say("window_taken", seat)
            if seat != self.viewer:
                window.text += self._reason_suffix(seat, step, offered)
            self._close_window()
            return
        self._close_window()
        quiet = seat == self.viewer or step.automatic or event.get("went_out")
        reason = "" if quiet else self._reason(seat, step, offered)
        line_kind = "round" if kind == "round_started" else "move"
        line = LogLine(step.text, seat, line_kind, reason)
        self.lines.append(line)
        if kind == "discarded" and not event.get("went_out") and not event.get("round_end"):
            # The discard's reason stays next to it, before what the others did with it.
            if reason:
                line.text, line.reason = f"{step.text} ({reason})", ""
            line.window_card = event.get("card")
            self._window = line
        self._round_end(step)

    def _say(self, key: str, seat: int, **params: Any) -> str:
        """``key`` about ``seat``; the ``_you`` form (its verb agrees with "you") for the learner.
        ``{who}`` is the sentence's subject, so it takes its article ("o jogador 3 comprou")."""
        if seat == self.viewer:
            return _t(f"{key}_you", **params)
        return _t(key, who=who(seat, self.viewer, "subject"), **params)

    def _then(self, event: dict[str, Any]) -> None:
        """The stock draw that the window's close let through (L-5.1) gets its own line."""
        then = event.get("then")
        if then:
            self._close_window()
            from liverpool.teach.narration import describe_event

            self.lines.append(LogLine(describe_event(then, viewer=self.viewer, round_end=False), then.get("seat")))

    def _reason(self, seat: int, step: Step, offered: Card | None) -> str:
        kind = self.bot_kinds.get(seat)
        return bot_reason(kind, step, offered, self._state) if kind else ""

    def _reason_suffix(self, seat: int, step: Step, offered: Card | None) -> str:
        reason = self._reason(seat, step, offered)
        return f" ({reason})" if reason else ""

    def _round_end(self, step: Step) -> None:
        for index, text in enumerate(step.round_end):
            last = index == len(step.round_end) - 1
            self.lines.append(LogLine(text, None, "game" if last and "game_over" in str(step.event) else "round"))

    def copy_state(self) -> tuple[list[LogLine], LogLine | None]:
        import copy

        lines = copy.deepcopy(self.lines)
        window = None
        if self._window is not None:
            window = lines[self.lines.index(self._window)]
        return lines, window

    def restore(self, saved: tuple[list[LogLine], LogLine | None]) -> None:
        self.lines, self._window = saved


# ----- the model ----------------------------------------------------------------------


@dataclass
class UndoPoint:
    snapshot: Snapshot
    log: tuple[list[LogLine], LogLine | None]
    coach: Any = None


@dataclass
class Stats:
    """What the benchmark and the browser test count: the learner's clicks, how many of
    them answered a buying question, and the seconds each click took to answer."""

    clicks: int = 0
    buy_answers: int = 0
    buy_questions_skipped: int = 0
    seconds: list[float] = field(default_factory=list)


@dataclass
class Pending:
    """A question the table asks before it can build the move: which end of a run
    (``ends``), or where a swapped joker goes (``targets``)."""

    kind: str
    meld: int
    cards: list[str]
    choices: list[Any]


class TableModel:
    """One game at the card table, seen from the learner's seat (``driver.human``)."""

    def __init__(
        self,
        driver: GameDriver,
        *,
        language: str = "en",
        settings: Settings | None = None,
        bot_kinds: Sequence[str] | None = None,
        seed: int = 0,
        rules: str | RuleSet = "liverpool",
        coach: Any = None,
        sleep: Callable[[float], None] = time.sleep,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.language = language
        self.settings = settings or Settings()
        self.seed = seed
        self.rules = rules
        self.kinds = list(bot_kinds) if bot_kinds is not None else [b.kind for _, b in sorted(driver.bots.items())]
        self.coach = coach
        self._sleep = sleep
        #: Called after each bot move is logged, so a front end can draw the table at the bots' pace.
        self.on_change = on_change
        self.stats = Stats()
        self.start(driver)

    # ----- the game -----

    def start(self, driver: GameDriver) -> None:
        """Sit at ``driver``'s game: a clean selection, log and undo stack; the bots play
        until the learner has a decision."""
        self.driver = driver
        self.helper = NativeBot("greedy", seed=self.seed)
        self.selection: list[str] = []  # hand keys ("7♥#0"), in click order
        self.slots: list[list[str]] = []  # go-down slots, hand keys each
        self.pending: Pending | None = None
        self.message = ""  # a refusal or a request for more input, until the next click
        self.hint_text = ""
        self.hint_cards: list[str] = []
        self.gained: list[str] = []
        self.round_news: list[str] = []
        self.undo_stack: list[UndoPoint] = []
        self.log = LogBook(driver.human, {seat: bot.kind for seat, bot in driver.bots.items()})
        self._reset_slots()
        with self.speaking():
            self._run_bots()

    @contextmanager
    def speaking(self) -> Iterator[None]:
        with i18n.language(self.language):
            yield

    @property
    def state(self) -> GameState:
        return self.driver.state

    @property
    def seat(self) -> int:
        return self.driver.human

    def hand_cards(self) -> list[Card]:
        return self.state.hand(self.seat)

    def hand_keys(self) -> list[str]:
        return display.card_keys(self.hand_cards())

    # ----- intents -----

    def handle(self, intent: dict[str, Any]) -> None:
        """Apply one intent from the front end (a click or a key press). Unknown intents
        and intents that do not apply now are explained in ``message``, never raised."""
        started = time.perf_counter()
        kind = str(intent.get("kind", ""))
        handler = self._intents().get(kind)
        with self.speaking():
            if kind not in ("setting", "sort"):
                self.stats.clicks += 1
            if kind != "select":
                self.message = ""
            if handler is None:
                self.message = _t("intent_unknown")
            else:
                handler(intent)
        self.stats.seconds.append(time.perf_counter() - started)

    def _intents(self) -> dict[str, Callable[[dict[str, Any]], None]]:
        return {
            "select": self.on_select,
            "stock": self.on_stock,
            "discard_pile": self.on_discard_pile,
            "meld": self.on_meld,
            "end": self.on_end,
            "slot": self.on_slot,
            "unslot": self.on_unslot,
            "suggest": self.on_suggest,
            "go_down": self.on_go_down,
            "buy": lambda _: self._answer_buy(Action.buy()),
            "pass": lambda _: self._answer_buy(Action.pass_()),
            "action": self.on_action,
            "undo": self.on_undo,
            "hint": self.on_hint,
            "auto": self.on_auto,
            "play_again": self.on_play_again,
            "setting": self.on_setting,
            "sort": self.on_setting,
            "clear": self.on_clear,
        }

    def on_select(self, intent: dict[str, Any]) -> None:
        key = str(intent.get("key", ""))
        if key not in self.hand_keys() or any(key in slot for slot in self.slots):
            return
        if key in self.selection:
            self.selection.remove(key)
        else:
            self.selection.append(key)
        self.pending = None

    def on_clear(self, _: dict[str, Any]) -> None:
        self.selection.clear()
        self._reset_slots()
        self.pending = None

    def on_stock(self, _: dict[str, Any]) -> None:
        """The stock: draw from it (while a discard is on offer this declines it first,
        and the others may buy it, L-5.1)."""
        self._play(Action.draw_stock())

    def on_discard_pile(self, _: dict[str, Any]) -> None:
        """The discard pile: take it when drawing; discard the one selected card when the
        turn ends with a discard."""
        phase = self.state.phase
        if phase == "draw" and self.driver.waiting_for_human:
            self._play(Action.take_discard())
            return
        cards = self.selected_cards()
        if len(cards) != 1:
            self.message = _t("need_one_card_discard")
            return
        self._play(Action.discard(cards[0]))

    def on_meld(self, intent: dict[str, Any]) -> None:
        """A table meld clicked with cards selected: lay them off there, at the end where
        they fit (asked only when both ends fit); or, with one card that can take a joker's
        place, swap it (asking where the joker goes when it can go to several melds); in a
        call window (W-7), call Liverpool onto it."""
        index = int(intent.get("index", -1))
        state = self.state
        if not 0 <= index < len(state.table):
            return
        if self.pending is not None and self.pending.kind == "swap":
            self._finish_swap(index)
            return
        legal = self.driver.legal()
        calls = [a for a in legal if a.name == "call_liverpool" and a.meld == index]
        if calls:
            self._play_one_of(calls, lambda a: a.end)
            return
        cards = self.selected_cards()
        if not cards:
            self.message = _t("need_cards_lay_off")
            return
        ends: tuple[Literal["low", "high"], ...] = ("low", "high")
        fits = [end for end in ends if state.can(self.seat, Action.lay_off(index, cards, end))]
        if len(fits) == 2 and _ends_differ(state, self.seat, index, cards):
            # Both ends take the cards and make different melds (a joker on a run): ask.
            self.pending = Pending("end", index, [str(c) for c in cards], list(fits))
            self.message = _t("ask_end")
            return
        if state.can(self.seat, Action.lay_off(index, cards, None)):
            self._play(Action.lay_off(index, cards, None))
            return
        if len(fits) == 1:
            self._play(Action.lay_off(index, cards, fits[0]))
            return
        swaps = [a for a in legal if a.name == "swap_joker" and a.meld == index and len(cards) == 1 and a.card == cards[0]]
        if swaps:
            targets = sorted({a.to_meld for a in swaps if a.to_meld is not None})
            if len(swaps) == 1:
                self._play(swaps[0])
            else:
                self.pending = Pending("swap", index, [str(cards[0])], targets)
                self.message = _t("ask_joker_target")
            return
        # Neither fits: let the engine say why (its sentence and rule, e.g. L-5.3).
        self._play(Action.lay_off(index, cards, None))

    def _finish_swap(self, to_meld: int) -> None:
        pending = self.pending
        assert pending is not None
        self.pending = None
        swaps = [
            a
            for a in self.driver.legal()
            if a.name == "swap_joker" and a.meld == pending.meld and str(a.card) == pending.cards[0] and a.to_meld == to_meld
        ]
        if swaps:
            self._play_one_of(swaps, lambda a: a.end)
        else:
            self._play(Action.swap_joker(pending.meld, Card(pending.cards[0]), to_meld, None))

    def _play_one_of(self, actions: list[Action], end: Callable[[Action], Any]) -> None:
        """Play the only one; when they differ by the run's end only, ask which end."""
        if len(actions) == 1:
            self._play(actions[0])
            return
        first = actions[0]
        self.pending = Pending("action", first.meld or 0, [], [a.to_dict() for a in actions])
        self.message = _t("ask_end")

    def on_end(self, intent: dict[str, Any]) -> None:
        pending = self.pending
        end = intent.get("end")
        if pending is None:
            return
        self.pending = None
        if pending.kind == "end" and end in ("low", "high"):
            self._play(Action.lay_off(pending.meld, [Card(c) for c in pending.cards], "low" if end == "low" else "high"))
        elif pending.kind == "action":
            chosen = [Action.from_dict(a) for a in pending.choices if a.get("end") == end]
            if chosen:
                self._play(chosen[0])

    def _reset_slots(self) -> None:
        state = self.state
        count = 0
        if 1 <= state.round <= len(state.rules.contracts):
            count = len(state.rules.contract_melds(state.round))
        self.slots = [[] for _ in range(count)]

    def on_slot(self, intent: dict[str, Any]) -> None:
        """Drop the selected cards into go-down slot ``index`` (the contract's melds)."""
        index = int(intent.get("index", -1))
        if not 0 <= index < len(self.slots):
            return
        if not self.selection:
            self.message = _t("need_cards_meld")
            return
        self.slots[index].extend(self.selection)
        self.selection = []

    def on_unslot(self, intent: dict[str, Any]) -> None:
        index = int(intent.get("index", -1))
        if 0 <= index < len(self.slots):
            self.slots[index] = []

    def on_suggest(self, _: dict[str, Any]) -> None:
        """Fill the slots with the engine's go-down (one it accepts now)."""
        action = self.suggested_go_down()
        if action is None:
            self.message = _t("no_go_down_yet")
            return
        keys = self.hand_keys()
        free = list(keys)
        slots: list[list[str]] = []
        for meld in action.melds or []:
            slot = []
            for card in meld:
                key = next(k for k in free if k.rsplit("#", 1)[0] == str(card))
                free.remove(key)
                slot.append(key)
            slots.append(slot)
        self.slots = slots
        self.selection = []

    def suggested_go_down(self) -> Action | None:
        """The engine's go-down for the learner now: its best, when the engine accepts it
        as it is, else the first the engine lists (one card is kept to discard)."""
        state = self.state
        if not self.driver.waiting_for_human or state.phase != "play" or state.down[self.seat]:
            return None
        legal = [a for a in self.driver.legal() if a.name == "go_down"]
        if not legal:
            return None
        best = liverpool.best_go_down(self.hand_cards(), state.round, state.rules)
        if best is not None:
            action = Action.go_down([m.cards for m in best.melds])
            if state.can(self.seat, action):
                return action
        return legal[0]

    def slot_melds(self) -> list[list[Card]]:
        """The slots' cards as melds, each in an order the engine reads (a run clicked out
        of order is put in the engine's order when the engine sees exactly one meld)."""
        rules = self.state.rules
        melds = []
        for slot in self.slots:
            cards = [Card(k.rsplit("#", 1)[0]) for k in slot]
            if not cards:
                continue
            try:
                Meld.parse(cards, rules)
            except LiverpoolError:
                arranged = liverpool.best_arrangement(cards, rules)
                if len(arranged.melds) == 1 and not arranged.deadwood:
                    cards = list(arranged.melds[0].cards)
            melds.append(cards)
        return melds

    def on_go_down(self, _: dict[str, Any]) -> None:
        melds = self.slot_melds()
        if not melds:
            self.message = _t("need_go_down")
            return
        self._play(Action.go_down(melds))

    def on_action(self, intent: dict[str, Any]) -> None:
        """A move with no card to pick (next round, cut, call rummy, …): by its engine name."""
        name = str(intent.get("name", ""))
        makers: dict[str, Callable[[], Action]] = {
            "next_round": Action.next_round,
            "cut": lambda: Action.cut(_cut_size(intent.get("size"))),
            "call_rummy": Action.call_rummy,
            "decline_discard": Action.decline_discard,
            "take_discard": Action.take_discard,
            "draw_stock": Action.draw_stock,
            "pass": Action.pass_,
        }
        maker = makers.get(name)
        if maker is None:
            self.message = _t("intent_unknown")
            return
        self._play(maker())

    def _answer_buy(self, action: Action) -> None:
        if self.state.phase == "buying" and self.driver.waiting_for_human:
            self.stats.buy_answers += 1
        self._play(action)

    def on_undo(self, _: dict[str, Any]) -> None:
        """Back to before the learner's last decision (the bots' moves after it go too)."""
        if not self.settings.undo or not self.undo_stack:
            self.message = _t("undo_none")
            return
        point = self.undo_stack.pop()
        self.driver.restore(point.snapshot)
        self.log.restore(point.log)
        if self.coach is not None:
            self.coach.restore(point.coach)
        self.selection = []
        self._reset_slots()
        self.pending = None
        self.gained = []
        self.hint_text = ""
        self.hint_cards = []
        self.round_news = []
        self.message = _t("undone")

    def on_hint(self, _: dict[str, Any]) -> None:
        """One recommendation, the expert's, with its reason; its cards are marked."""
        if not self.driver.waiting_for_human:
            self.hint_text = _t("hint_wait")
            return
        hint = self.state.hint(self.seat)
        action = hint.action
        self.hint_text = hint.reason
        if "samples" in hint.args:  # the search's words, glossed once
            self.hint_text += " " + _t("hint_gloss")
        cards = [action.card] if action.card is not None else list(action.cards or [])
        for meld in action.melds or []:
            cards.extend(meld)
        self.hint_cards = [str(c) for c in cards if c is not None]

    def on_auto(self, _: dict[str, Any]) -> None:
        if self.driver.waiting_for_human:
            self._play(self.helper.choose(self.state, self.seat))

    def on_play_again(self, intent: dict[str, Any]) -> None:
        """A new game with the next seed, the same rules and bots (before the game's end
        only when the intent confirms it)."""
        guided_over = self.coach is not None and self.coach.finished(self)
        if not self.state.is_game_over and not guided_over and not intent.get("confirm"):
            self.message = _t("play_again_confirm")
            return
        self.coach = None  # after the guided game, a real one
        self.seed += 1
        rules = self.rules
        driver = GameDriver.new(seed=self.seed, bots=[k for k in self.kinds if k], rules=rules)
        self.start(driver)

    def on_setting(self, intent: dict[str, Any]) -> None:
        name = str(intent.get("name", "sort" if intent.get("kind") == "sort" else ""))
        value = intent.get("value")
        if name == "buying" and value in BUYING_CHOICES:
            self.settings.buying = value
        elif name == "undo" and isinstance(value, bool):
            self.settings.undo = value
            if not value:
                self.undo_stack.clear()
        elif name == "pace" and value in PACES:
            self.settings.pace = str(value)
        elif name == "sort" and value in ("suit", "rank"):
            self.settings.sort = str(value)

    # ----- moving -----

    def selected_cards(self) -> list[Card]:
        keys = set(self.hand_keys())
        return [Card(k.rsplit("#", 1)[0]) for k in self.selection if k in keys]

    def _play(self, action: Action) -> None:
        """Apply the learner's move through the driver; the engine refuses or accepts."""
        if not self.driver.waiting_for_human:
            self.message = _t("prompt_wait")
            return
        if self.coach is not None:
            objection = self.coach.object_to(self, action)
            if objection:
                self.message = objection
                return
        point = UndoPoint(
            self.driver.snapshot(), self.log.copy_state(), self.coach.snapshot() if self.coach is not None else None
        )
        offered = self.state.discard_top
        try:
            step = self.driver.play(action)
        except LiverpoolError as exc:
            self.message = _refusal(exc)
            return
        if self.settings.undo:
            self.undo_stack.append(point)
        self.pending = None
        self.hint_text = ""
        self.hint_cards = []
        self.round_news = []
        self.gained = [str(c) for c in step.gained]
        if action.name in ("go_down", "lay_off", "swap_joker", "discard"):
            self.selection = []
        if action.name in ("go_down", "discard", "next_round") or self.state.phase in ("cut", "round_over"):
            self._reset_slots()
        self.log.add(step, offered)
        if step.round_end:
            self.round_news = list(step.round_end)
        if self.coach is not None:
            self.coach.after(self, action)
        self._run_bots()
        # Cards no longer in the hand leave the selection and the slots.
        keys = set(self.hand_keys())
        self.selection = [k for k in self.selection if k in keys]
        self.slots = [[k for k in slot if k in keys] for slot in self.slots]

    def standing_answer(self, state: GameState) -> Action | None:
        """The buying setting, answering the engine's buying question for the learner:
        "never" passes, "helps" passes when the engine's greedy test says the card would
        not help the hand, "always" asks."""
        if state.phase != "buying" or (self.coach is not None and not self.coach.free):
            return None  # the coach's lessons ask every buying question
        buying = self.settings.buying
        if buying == "never" or (buying == "helps" and not buy_helps(state, self.seat)):
            self.stats.buy_questions_skipped += 1
            return Action.pass_()
        return None

    def _run_bots(self) -> None:
        pace = PACES.get(self.settings.pace, 0.0)
        for step in self.driver.run_bots(self.standing_answer):
            offered = _offered(step)
            self.log.add(step, offered, self.state)
            if step.round_end:
                self.round_news = list(step.round_end)
                self._reset_slots()
            if step.gained:  # the learner's stock card may come with a bot's answer (L-5.1)
                self.gained = [str(c) for c in step.gained]
            # Pause on the moves worth watching; passes are folded into the discard's line.
            if pace > 0 and self.on_change is not None and step.seat != self.seat and step.event.get("event") != "passed":
                self.on_change()
                self._sleep(pace)
        if self.state.phase in ("cut", "round_over"):
            self.selection = []

    # ----- the view state -----

    def view(self) -> dict[str, Any]:
        """Everything the front end draws, as JSON-able data (see docs/card-table.md)."""
        with self.speaking():
            return build_view(self)


def _cut_size(size: Any) -> int | None:
    """The cut's size as typed (0 or nothing: at random); the engine judges the number."""
    try:
        value = int(size)
    except (TypeError, ValueError):
        return None
    return value if value > 0 else None


def _ends_differ(state: GameState, seat: int, index: int, cards: list[Card]) -> bool:
    """Whether laying ``cards`` off at the low end and at the high end of table meld
    ``index`` gives two different melds: tried by the engine on copies of the game."""
    made = set()
    for end in ("low", "high"):
        trial = state.clone()
        trial.apply(seat, Action.lay_off(index, cards, "low" if end == "low" else "high"))
        made.add(tuple(str(c) for c in trial.table[index].meld.cards))
    return len(made) == 2


def _offered(step: Step) -> Card | None:
    card = step.event.get("card")
    if step.event.get("event") in ("declined_discard", "bought", "took_discard") and card:
        return Card(card)
    return None


def _refusal(exc: LiverpoolError) -> str:
    """The engine's sentence and its rule id (added when the sentence lacks it), never the raw code."""
    message = exc.message
    if exc.rule and exc.rule not in message:
        message = f"{message} ({exc.rule})"
    return _t("refused_plain", message=message)


# ----- the view state ------------------------------------------------------------------

_HAND_WIDTH = 64
_TABLE_WIDTH = 40


def _svg(card: str, width: int) -> str:
    return display.card_svg(card, width=width)


def build_view(model: TableModel) -> dict[str, Any]:
    """The view state: the engine's view for the learner's seat, the moves the engine
    allows now as the places to click, and the words in the learner's language."""
    driver = model.driver
    state = driver.state
    seat = model.seat
    engine_view = state.view(seat)
    mine = driver.waiting_for_human and not state.is_game_over
    legal = driver.legal() if mine else []
    names = {a.name for a in legal}
    phase = state.phase
    if mine and phase == "draw" and "draw_stock" not in names and state.can(seat, Action.draw_stock()):
        names.add("draw_stock")  # accepted while a discard is on offer: it declines it (L-5.1)
    selected = model.selected_cards()
    slots_shown = mine and phase == "play" and not state.down[seat]
    slot_keys = {k for slot in model.slots for k in slot} if slots_shown else set()
    keys = model.hand_keys()
    cards = model.hand_cards()
    hand = []
    for key, card in zip(keys, cards):
        if key in slot_keys:
            continue
        hand.append(
            {
                "key": key,
                "card": str(card),
                "svg": _svg(str(card), _HAND_WIDTH),
                "label": display.card_name(card),
                "selected": key in model.selection,
                "gained": str(card) in model.gained,
                "hinted": str(card) in model.hint_cards,
            }
        )
    hand = _sorted_hand(hand, model.settings.sort)
    # Where the selected cards may go now: the engine is asked, meld by meld.
    lay_targets: list[int] = []
    if mine and phase == "play" and selected:
        for index in range(len(state.table)):
            if any(state.can(seat, Action.lay_off(index, selected, end)) for end in (None, "low", "high")):
                lay_targets.append(index)
            elif len(selected) == 1 and any(
                a.name == "swap_joker" and a.meld == index and a.card == selected[0] for a in legal
            ):
                lay_targets.append(index)
    call_targets = sorted({a.meld for a in legal if a.name == "call_liverpool" and a.meld is not None})
    swap_targets = list(model.pending.choices) if model.pending is not None and model.pending.kind == "swap" else []
    melds = []
    for index, table_meld in enumerate(state.table):
        melds.append(
            {
                "index": index,
                "owner": table_meld.owner,
                "owner_name": who(table_meld.owner, seat),
                "cards": [{"card": str(c), "svg": _svg(str(c), _TABLE_WIDTH)} for c in table_meld.meld.cards],
                "target": index in lay_targets or index in call_targets or index in swap_targets,
            }
        )
    can_go_down = "go_down" in names
    contract_melds = state.rules.contract_melds(state.round) if 1 <= state.round <= len(state.rules.contracts) else []
    slots = []
    for index, slot in enumerate(model.slots):
        kind = contract_melds[index][0] if index < len(contract_melds) else "meld"
        slots.append(
            {
                "index": index,
                "label": _t(f"slot_{kind}") if kind in ("set", "run") else _t("slot_meld"),
                "cards": [{"key": k, "svg": _svg(k.rsplit("#", 1)[0], _TABLE_WIDTH)} for k in slot],
            }
        )
    buying_question = mine and phase == "buying"
    actions = {
        "stock": "draw_stock" in names,
        "take": "take_discard" in names,
        "discard": "discard" in names,
        "buy": buying_question and "buy" in names,
        "pass": buying_question and "pass" in names,
        "go_down": can_go_down,
        "lay_off": bool(lay_targets),
        "undo": model.settings.undo and bool(model.undo_stack),
        "play_again": state.is_game_over or (model.coach is not None and model.coach.finished(model)),
        "hint": mine and phase in ("draw", "play", "buying", "calling", "call_discard"),
        "auto": mine and phase not in ("round_over",),
        "simple": sorted(names & {"next_round", "cut", "call_rummy"} | ({"pass"} if mine and phase == "calling" else set())),
    }
    top = state.discard_top
    seats = []
    for other in range(state.players):
        seats.append(
            {
                "seat": other,
                "name": who(other, seat),
                "you": other == seat,
                "cards": engine_view["hand_sizes"][other],
                "cards_text": _t("seat_cards", count=engine_view["hand_sizes"][other]),
                "down": engine_view["down"][other],
                "buys": engine_view["buys"][other],
                "total": engine_view["totals"][other],
                "to_act": state.to_act == other,
                "bot": model.kinds[other - 1] if 0 < other <= len(model.kinds) else "",
            }
        )
    return {
        "guided": model.coach is not None,
        "lesson": model.coach.name if model.coach is not None else "",
        "language": model.language,
        "round": state.round,
        "rounds": len(state.rules.contracts),
        "banner": _t("banner_round", round=state.round, rounds=len(state.rules.contracts), contract=display.contract_words(state, state.round))
        if 1 <= state.round <= len(state.rules.contracts)
        else "",
        "phase": phase,
        "mine": mine,
        "prompt": prompt(model, names),
        "message": model.message,
        "coach": model.coach.say(model) if model.coach is not None else "",
        "hint": model.hint_text,
        "can_go_down": can_go_down and not state.down[seat],
        "seats": seats,
        "stock": {"count": state.stock_size, "back": display.card_back_svg(width=_HAND_WIDTH)},
        "discard": {
            "top": str(top) if top is not None else None,
            "svg": _svg(str(top), _HAND_WIDTH) if top is not None else "",
            "count": len(state.discard),
        },
        "buy_offer": {
            "card": str(top),
            "svg": _svg(str(top), _HAND_WIDTH),
            "text": _t("buy_question", card=str(top)),
        }
        if buying_question and top is not None
        else None,
        "melds": melds,
        "slots": slots if slots_shown else [],
        "pending": {"kind": model.pending.kind, "choices": [c if isinstance(c, str) or c is None else c.get("end") for c in model.pending.choices] if model.pending.kind != "swap" else []}
        if model.pending is not None and model.pending.kind in ("end", "action")
        else None,
        "hand": hand,
        "actions": actions,
        "log": [line.as_view(seat) for line in model.log.lines[-60:]][::-1],
        "round_news": model.round_news,
        "scores": _scores(model),
        "winners": list(state.winners) if state.is_game_over else [],
        "banner_winner": _winner_words(model) if state.is_game_over else "",
        "settings": {
            "buying": model.settings.buying,
            "undo": model.settings.undo,
            "pace": model.settings.pace,
            "sort": model.settings.sort,
        },
        "stats": {"clicks": model.stats.clicks, "buy_answers": model.stats.buy_answers},
        "words": _words(model),
    }


def _sorted_hand(hand: list[dict[str, Any]], order: str) -> list[dict[str, Any]]:
    by: display.SortOrder = "rank" if order == "rank" else "suit"
    sorted_cards = display.sort_cards([item["card"] for item in hand], by)
    pool = list(hand)
    result = []
    for card in sorted_cards:
        item = next(i for i in pool if i["card"] == str(card))
        pool.remove(item)
        result.append(item)
    return result


def prompt(model: TableModel, names: set[str]) -> str:
    """The learner's decision now, in one plain sentence."""
    driver = model.driver
    state = driver.state
    if state.is_game_over:
        return _t("prompt_game_over", winners=", ".join(who(s, driver.human) for s in state.winners))
    if not driver.waiting_for_human:
        return _t("prompt_wait")
    phase = state.phase
    top = state.discard_top
    if phase == "cut":
        return _t("prompt_cut", most=state.stock_size - 1)
    if phase == "draw" and "take_discard" in names and top is not None:
        return _t("prompt_draw_click", card=str(top))
    if phase == "draw":
        return _t("prompt_draw_stock_click")
    if phase == "buying":
        return _t("buy_question", card=str(top))
    if phase == "calling" and state.call_offer is not None:
        kind, discarder = state.call_offer
        if kind == "rummy":
            return _t("prompt_call_rummy", seat=who(discarder, driver.human), card=str(top))
        return _t("prompt_call_liverpool", card=str(top))
    if phase == "call_discard":
        return _t("prompt_discard_click")
    if phase == "play":
        if "go_down" in names and not state.down[driver.human]:
            return _t("prompt_can_go_down")
        return _t("prompt_discard_click")
    if phase == "round_over":
        return _t("prompt_next_round")
    return ""


def _winner_words(model: TableModel) -> str:
    state = model.state
    winners = list(state.winners)
    others = [who(s, model.seat) for s in winners if s != model.seat]
    if model.seat in winners:
        return _t("banner_you_share", others=", ".join(others)) if others else _t("banner_you_win")
    if len(winners) == 1:
        return _t("banner_winner", winner=others[0])
    return _t("banner_winners", winners=", ".join(others))


def _scores(model: TableModel) -> dict[str, Any]:
    driver = model.driver
    state = driver.state
    return {
        "seats": [who(s, driver.human) for s in range(state.players)],
        "rounds": [
            {"round": r.round, "scores": r.scores, "winner": r.winner, "cut_bonus": r.cut_bonus_seat} for r in driver.rounds
        ],
        "totals": list(state.totals),
    }


_WORD_KEYS = (
    "w_stock",
    "w_discard",
    "w_your_hand",
    "w_table",
    "w_log",
    "w_scores",
    "w_round",
    "w_total",
    "w_buy",
    "w_pass",
    "w_go_down",
    "w_suggest",
    "w_clear",
    "w_undo",
    "w_hint",
    "w_auto",
    "w_play_again",
    "w_settings",
    "w_buying",
    "w_buying_always",
    "w_buying_helps",
    "w_buying_never",
    "w_undo_on",
    "w_pace",
    "w_pace_fast",
    "w_pace_normal",
    "w_pace_slow",
    "w_sort_suit",
    "w_sort_rank",
    "w_end_low",
    "w_end_high",
    "w_down",
    "w_buys",
    "w_can_go_down",
    "w_no_melds",
    "w_empty",
    "w_keys",
    "w_penalty",
    "button_next_round",
    "button_cut",
    "button_call_rummy",
    "button_pass",
)


def _words(model: TableModel) -> dict[str, str]:
    words = {key: _t(key) for key in _WORD_KEYS}
    words["hand_label"] = i18n.text("cards", "hand_label")
    return words


# ----- a learner who clicks (tests and the benchmark) ---------------------------------


def clicks_for(model: TableModel, action: Action) -> list[dict[str, Any]]:
    """The intents a person would send to make ``action`` at this table: select the
    cards, then click the pile, the meld or the slot. Used by the tests and the
    benchmark to play whole games by clicking."""
    name = action.name
    hand_keys = model.hand_keys()

    def select(cards: Sequence[Card | str]) -> list[dict[str, Any]]:
        free = [k for k in hand_keys if not any(k in slot for slot in model.slots)]
        out = []
        for card in cards:
            key = next(k for k in free if k.rsplit("#", 1)[0] == str(card))
            free.remove(key)
            out.append({"kind": "select", "key": key})
        return out

    if name == "draw_stock" or name == "decline_discard":
        return [{"kind": "stock"}]
    if name == "take_discard":
        return [{"kind": "discard_pile"}]
    if name in ("buy", "pass") and model.state.phase == "buying":
        return [{"kind": name}]
    if name == "discard":
        deselect = [{"kind": "select", "key": k} for k in model.selection]
        return [*deselect, *select([action.card] if action.card is not None else []), {"kind": "discard_pile"}]
    if name == "go_down":
        if model.suggested_go_down() is not None and model.suggested_go_down() == action:
            return [{"kind": "suggest"}, {"kind": "go_down"}]
        intents: list[dict[str, Any]] = []
        for index, meld in enumerate(action.melds or []):
            intents += select(meld)
            intents.append({"kind": "slot", "index": min(index, max(len(model.slots) - 1, 0))})
        return [*intents, {"kind": "go_down"}]
    if name == "lay_off":
        intents = [*select(action.cards or []), {"kind": "meld", "index": action.meld}]
        if action.end is not None:
            intents.append({"kind": "end", "end": action.end})
        return intents
    if name == "swap_joker":
        card = action.card
        return [*select([card] if card is not None else []), {"kind": "meld", "index": action.meld}, {"kind": "meld", "index": action.to_meld}]
    if name == "call_liverpool":
        return [{"kind": "meld", "index": action.meld}]
    return [{"kind": "action", "name": name}]
