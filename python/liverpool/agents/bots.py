"""Bots: the interface a player program implements, the native bots, and a driver
that plays a whole game between any mix of them.

A **bot** is any object with a ``choose(state, seat)`` method returning the
:class:`~liverpool.Action` that ``seat`` takes (see :class:`Bot`). ``seat`` is the
seat the engine waits for: the cutter, the active player, the next seat in a buying
window, a caller (W-7), the next dealer.

**What a Python bot sees.** :func:`play_game` never hands a Python bot the game
itself. ``state`` is the seat's own copy, :meth:`GameState.sample_for`: everything
that seat knows (its hand, the discard pile, the table, every hand's size, the
stock's size, buys, scores, the phase) with the cards it cannot see dealt at random,
a fresh random generator and no history. Its legal actions are those of the real
game, so a bot written for the old protocol (reading ``state.hand(seat)``,
``state.legal_actions(seat)``, ``state.table``, ``state.view(seat)``, cloning the
state to look ahead) works unchanged; reading another hand gives a guess, and
changing ``state`` changes only the copy.

**The driver is the only one who moves.** It applies the returned action to the
real game for ``seat`` and no other, and the engine referees it. Whatever goes wrong
is a *fault* of that bot, reported with the bot, its seat and the deal
(:class:`BotFault`): it raised, it returned something that is not an action, the
engine refused its action, it did not answer within ``time_limit`` seconds, or the
game changed while it was thinking (a bot that reached the real game through the
interpreter's internals and moved). With ``on_error="stop"`` (the default) the
first fault raises :class:`BotError` (code ``bot_failed``); with
``on_error="fallback"`` the engine's greedy bot makes that decision instead, the
fault is recorded, and play goes on. A change of the game behind the driver's back
always stops the game. docs/agents.md ("Python bots") has the whole protocol.

- :class:`NativeBot` — the engine's bots, ``"expert"``, ``"greedy"`` and ``"random"``, seeded.
- :class:`RandomBot` — a uniformly random legal action, in Python: the smallest
  useful bot, and a template for your own.
- :func:`play_game` — drive any mix of Python and native bots to the end.

>>> from liverpool.agents.bots import NativeBot, RandomBot, play_game
>>> game = play_game(["greedy", "greedy", "greedy", RandomBot(seed=1)], seed=7)
>>> game.is_game_over, len(game.totals)
(True, 4)
"""

from __future__ import annotations

import inspect
import queue
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, runtime_checkable

from liverpool import i18n
from liverpool._core import Action, GameState, NativeBot, RuleSet, game_seeds
from liverpool.errors import InvalidArgumentError, LiverpoolError

__all__ = [
    "NATIVE_BOTS",
    "DEFAULT_TIME_LIMIT",
    "Bot",
    "BotError",
    "BotFault",
    "NativeBot",
    "RandomBot",
    "build_bot",
    "play_game",
]

#: The names of the engine's bots, for :class:`NativeBot` and :func:`liverpool.simulate`.
NATIVE_BOTS: tuple[str, ...] = ("expert", "greedy", "random")

#: Seconds a Python bot may think over one decision before it forfeits it.
DEFAULT_TIME_LIMIT = 10.0

#: What a fault does: stop the game with :class:`BotError`, or let the engine's greedy
#: bot make that decision and go on.
OnError = Literal["stop", "fallback"]

#: The kinds of fault, in the order the driver checks them.
FAULT_KINDS = ("build", "raised", "timeout", "bad_return", "illegal", "cheated")

#: The longest piece of a bot's exception or return value quoted in a report.
_QUOTE = 200


@runtime_checkable
class Bot(Protocol):
    """What :func:`play_game` needs from a player: one decision at a time.

    ``choose(state, seat)`` returns the action of ``seat``. ``state`` is the seat's
    own sample of the game (:meth:`GameState.sample_for`), never the game itself: a
    bot acts only by returning its action, which the driver submits for ``seat``.
    """

    def choose(self, state: GameState, seat: int) -> Action:
        """The action ``seat`` takes now."""
        ...


class RandomBot:
    """A uniformly random legal action, from Python's :class:`random.Random`.

    The Python twin of ``NativeBot("random")`` (which draws from the engine's own
    generator, so the two choose differently for the same seed).

    >>> from liverpool import GameState
    >>> state = GameState(seed=3)
    >>> RandomBot(seed=0).choose(state, state.to_act).name
    'cut'
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        return self.rng.choice(state.legal_actions(seat))

    def __repr__(self) -> str:
        return "RandomBot()"


# ----- faults ------------------------------------------------------------------------


def _quote(value: object) -> str:
    """A short text for a bot's exception or return value (never a traceback)."""
    if isinstance(value, BaseException):
        text = f"{type(value).__name__}: {value}" if str(value) else type(value).__name__
    else:
        try:
            text = repr(value)
        except Exception:  # noqa: BLE001 - a hostile __repr__ must not stop the report
            text = f"<{type(value).__name__}>"
    return text if len(text) <= _QUOTE else text[: _QUOTE - 1] + "…"


@dataclass(frozen=True)
class BotFault:
    """One thing a bot did wrong, and where.

    ``kind``: ``"build"`` (its class could not be built), ``"raised"``,
    ``"timeout"`` (no answer within the time limit), ``"bad_return"`` (not an
    ``Action`` or step dict), ``"illegal"`` (the engine refused the action; ``code``
    and ``rule`` are the engine's), ``"cheated"`` (the game changed while the bot was
    thinking). ``seat`` counts from 0 (the API's seats); ``deal`` is the game index
    of the batch (``play_game``'s ``game``); ``detail`` quotes the exception, the
    value returned or the engine's refusal; ``fallback`` is the action the greedy
    bot played instead (``None`` when the game stopped).
    """

    kind: str
    bot: str
    seat: int
    deal: int
    round: int
    detail: str
    code: str | None = None
    rule: str | None = None
    fallback: Action | None = None
    #: The engine's refusal of an ``illegal`` action (its sentence follows the language).
    error: LiverpoolError | None = field(default=None, compare=False, repr=False)

    def message(self) -> str:
        """The sentence for a person, in the current language (seats counted from 1)."""
        return i18n.text(
            "bots",
            f"fault.{self.kind}",
            reason="" if self.error is None else self.error.message,
            bot=self.bot,
            seat=self.seat,  # an API index: i18n.text shows it from 1
            deal=self.deal,
            round=self.round,
            detail=self.detail,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "bot": self.bot,
            "seat": self.seat,
            "deal": self.deal,
            "round": self.round,
            "detail": self.detail,
            "code": self.code,
            "rule": self.rule,
            "fallback": None if self.fallback is None else self.fallback.to_dict(),
        }


class BotError(LiverpoolError):
    """``bot_failed``: a Python bot's fault stopped the game (``on_error="stop"``, a
    class that cannot be built, or a game changed behind the driver's back).
    ``fault`` says which bot, seat and deal, and what happened; the message is in the
    current language."""

    fault: BotFault

    def __init__(self, fault: BotFault) -> None:
        with i18n.language(i18n.DEFAULT):
            english = fault.message()
        super().__init__(english, "bot_failed", fault.rule)
        self.fault = fault

    @property
    def message(self) -> str:
        return self.fault.message()

    def __reduce__(self) -> tuple[type, tuple[BotFault]]:  # type: ignore[override]
        return (type(self), (self.fault,))


# ----- running a bot's code under a time limit ----------------------------------------------


class _Runner:
    """One daemon thread that runs a bot's calls, so the driver can stop waiting
    for a call after the time limit. A call that never returns keeps its thread
    (Python cannot kill a thread); the driver then never calls that bot again, so a
    bot costs at most one such thread, and being a daemon it never keeps the
    interpreter from exiting."""

    def __init__(self, name: str) -> None:
        self._calls: queue.SimpleQueue[tuple[Callable[[], Any], list[Any], threading.Event] | None] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while (item := self._calls.get()) is not None:
            call, box, done = item
            try:
                box.append(("ok", call()))
            except BaseException as exc:  # noqa: BLE001 - reported as the bot's fault
                box.append(("raised", exc))
            done.set()

    def run(self, call: Callable[[], Any], limit: float) -> tuple[str, Any]:
        box: list[Any] = []
        done = threading.Event()
        self._calls.put((call, box, done))
        if not done.wait(limit):
            return ("timeout", None)
        result: tuple[str, Any] = box[0]
        return result

    def close(self) -> None:
        self._calls.put(None)


def _run_inline(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return ("ok", call())
    except (Exception, SystemExit) as exc:  # Ctrl-C (KeyboardInterrupt) still stops the game
        return ("raised", exc)


# ----- seating -----------------------------------------------------------------------------


def _label(bot: object) -> str:
    if isinstance(bot, str):
        return bot
    return type(bot).__qualname__


def build_bot(cls: type, seed: int, *, label: str, seat: int, deal: int) -> object:
    """``cls(seed=seed)``, or ``cls()`` when its constructor takes no ``seed``. A class
    that cannot be built raises :class:`BotError` (fault ``build``)."""
    try:
        params = inspect.signature(cls).parameters
        takes_seed = "seed" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    except Exception:  # noqa: BLE001 - no signature to read: try the documented call
        takes_seed = True
    try:
        return cls(seed=seed) if takes_seed else cls()
    except Exception as exc:  # noqa: BLE001 - reported as the bot's fault
        raise BotError(BotFault("build", label, seat, deal, 0, _quote(exc))) from None


def _has_choose(bot: object) -> bool:
    try:
        return callable(getattr(bot, "choose", None))
    except Exception:  # noqa: BLE001 - a hostile attribute is simply not a bot
        return False


def _seat_bots(bots: Sequence[Bot | str], bot_seeds: Sequence[int]) -> list[Bot]:
    seated: list[Bot] = []
    for seat, bot in enumerate(bots):
        if isinstance(bot, str):
            seated.append(NativeBot(bot, seed=bot_seeds[seat]))
        elif _has_choose(bot):
            seated.append(bot)
        else:
            raise InvalidArgumentError(
                f"seat {seat}: {_quote(bot)} is not a bot: give a native bot name ({', '.join(NATIVE_BOTS)}) "
                "or an object with a choose(state, seat) method",
                "invalid_argument",
            )
    return seated


def _check_options(time_limit: float | None, on_error: str) -> None:
    if on_error not in ("stop", "fallback"):
        raise InvalidArgumentError(f"on_error must be 'stop' or 'fallback', not {on_error!r}", "invalid_argument")
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not 0 < time_limit < float("inf")
    ):
        raise InvalidArgumentError(
            f"time_limit must be a positive number of seconds or None, not {time_limit!r}", "invalid_argument"
        )


def _sample_seed(game_seed: int, decision: int) -> int:
    """The seed of the sample handed to a bot at the game's ``decision``-th action:
    fixed by the game, so a game with Python bots replays exactly."""
    return (game_seed * 0x9E3779B97F4A7C15 + decision * 0xBF58476D1CE4E5B9 + 1) % 2**64


def _as_action(value: object) -> Action | None:
    if isinstance(value, Action):
        return value
    if isinstance(value, dict):
        try:
            return Action.from_dict(value)
        except Exception:  # noqa: BLE001 - a hostile dict (subclass) is a bad return too
            return None
    return None


def play_game(
    bots: Sequence[Bot | str],
    seed: int = 0,
    rules: RuleSet | None = None,
    players: int | None = None,
    game: int = 0,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    on_error: OnError = "stop",
    faults: list[BotFault] | None = None,
    names: Sequence[str] | None = None,
) -> GameState:
    """Play a whole game, one bot per seat, and return the final state.

    ``bots`` holds :class:`Bot` objects or native bot names (``"expert"``,
    ``"greedy"``, ``"random"``), one per seat; ``players`` defaults to ``len(bots)``. The game and
    the bots named by string are seeded exactly like game ``game`` of
    ``liverpool.simulate(..., seed=seed)``, so with native names only this replays
    that simulated game move by move (and its totals are the same). Bots passed as
    objects keep their own seeds.

    A Python bot gets its seat's sample of the game (:meth:`GameState.sample_for`),
    never the game; :class:`NativeBot` objects and names are the engine's own and
    read the game directly. ``time_limit``: seconds a Python bot may take per
    decision (``None``: no limit, and its code runs in this thread). ``on_error``:
    ``"stop"`` raises :class:`BotError` at a bot's first fault; ``"fallback"`` lets
    the greedy bot (seeded as that seat's native bot) make the decision, appends the
    :class:`BotFault` to ``faults`` if given, and goes on; a bot that timed out is not
    asked again in this game (the greedy bot plays its seat). A game that changed
    while a bot was thinking always stops (fault ``cheated``). ``names``: how faults
    name each seat's bot (default: the native name or the class name).

    The final state holds the whole history (``state.history``), the totals and the
    winners (``state.totals``, ``state.winners``).
    """
    _check_options(time_limit, on_error)
    if players is None:
        players = len(bots)
    if players != len(bots):
        raise InvalidArgumentError(
            f"{players} players but {len(bots)} bots: give one bot per seat", "invalid_argument"
        )
    game_seed, bot_seeds = game_seeds(seed, game, players)
    seated = _seat_bots(bots, bot_seeds)
    labels = list(names) if names is not None else [_label(b) for b in bots]
    if len(labels) != players:
        raise InvalidArgumentError(f"{len(labels)} names for {players} seats", "invalid_argument")
    state = GameState(seed=game_seed, players=players, rules=rules)
    trusted = [type(bot) is NativeBot for bot in seated]
    fallbacks: dict[int, NativeBot] = {}
    runners: dict[int, _Runner] = {}
    benched: set[int] = set()

    def fallback(seat: int) -> Action:
        if seat not in fallbacks:
            fallbacks[seat] = NativeBot("greedy", seed=bot_seeds[seat])
        return fallbacks[seat].choose(state, seat)

    try:
        while (seat := state.to_act) is not None:
            if trusted[seat]:
                state.apply(seat, seated[seat].choose(state, seat))
                continue
            if seat in benched:
                state.apply(seat, fallback(seat))
                continue
            fault = _python_decision(state, seat, seated[seat], labels[seat], game, game_seed, time_limit, runners)
            if fault is None:
                continue
            if fault.kind == "timeout":
                benched.add(seat)
                runners.pop(seat, None)  # its thread is still busy: never reused
            if on_error == "stop" or fault.kind == "cheated":
                raise BotError(fault)
            played = fallback(seat)
            state.apply(seat, played)
            if faults is not None:
                faults.append(replace(fault, fallback=played))
    finally:
        for runner in runners.values():
            runner.close()
    return state


def _python_decision(
    state: GameState,
    seat: int,
    bot: Bot,
    label: str,
    deal: int,
    game_seed: int,
    time_limit: float | None,
    runners: dict[int, _Runner],
) -> BotFault | None:
    """Ask a Python bot for ``seat``'s decision and apply it; the fault, if any (then
    the game is as it was, but for a W-9 penalty the engine charged)."""
    decision = state.history_len
    # What changes when anyone acts on the game: the history, and (a refused go-down
    # attempt under W-9) the penalties.
    before = (decision, state.penalties)
    sample = state.sample_for(seat, seed=_sample_seed(game_seed, decision))

    def fault(kind: str, detail: str, error: LiverpoolError | None = None) -> BotFault:
        code, rule = (None, None) if error is None else (error.code, error.rule)
        return BotFault(kind, label, seat, deal, state.round, detail, code, rule, error=error)

    def call() -> object:
        return bot.choose(sample, seat)

    if time_limit is None:
        outcome, value = _run_inline(call)
    else:
        if seat not in runners:
            runners[seat] = _Runner(f"liverpool-bot-{seat}")
        outcome, value = runners[seat].run(call, time_limit)
    if (state.history_len, state.penalties) != before:
        return fault("cheated", str(state.history_len - decision))
    if outcome == "timeout":
        return fault("timeout", f"{time_limit:g}")
    if outcome == "raised":
        return fault("raised", _quote(value))
    action = _as_action(value)
    if action is None:
        return fault("bad_return", _quote(value))
    try:
        state.apply(seat, action)
    except LiverpoolError as exc:
        return fault("illegal", repr(action), exc)
    return None
