"""Small ipywidgets helpers for the teaching notebooks.

ipywidgets is imported only inside these functions, so ``import liverpool`` never
needs Jupyter. Each builder returns its widgets in a :class:`types.SimpleNamespace`
as well as the assembled box, so tests can click buttons and read the output
(``ui.button.click(); ui.result.value``) without a browser.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import liverpool
from liverpool import Action, Card, Event, GameState, LiverpoolError, RuleSet, i18n
from liverpool.teach import display, narration
from liverpool.teach.narration import DOMAIN, seat_values


def _t(key: str, **params: Any) -> str:
    return i18n.text(DOMAIN, key, **params)


def _seat(seat: int | None) -> str:
    return "—" if seat is None else i18n.text("common", "seat", seat=seat)


def card_html(card: Card | str) -> str:
    """One card as a small SVG playing card (``liverpool.teach.display``).

    >>> 'data-card="7♦"' in card_html("7♦")
    True
    """
    return display.cards_html([card], width=36)


def cards_html(cards: Iterable[Card | str]) -> str:
    """A wrapping row of small SVG cards."""
    return display.cards_html(list(cards), width=36)


# --- game widgets: a board view and a step-through scenario player (notebooks 02, 03) ---

_REFUSED = "color:#c0392b;"
_MESSAGE = "margin-top:4px;padding:4px 6px;border-left:3px solid #999;background:#f6f6f6;"
_MISMATCH = "color:#fff;background:#c0392b;padding:0 4px;border-radius:3px;"


def describe_action(seat: int, action: Action | dict[str, Any]) -> str:
    """A short sentence for ``action`` by ``seat`` (an ``Action`` or a step dict), in the
    current language.

    >>> from liverpool import Action
    >>> describe_action(0, Action.lay_off(0, ["4♣"])).endswith(": lay off 4♣ on table meld 1")  # melds are shown from 1
    True
    """
    return narration.describe_action(seat, action, viewer=None)


def describe_event(event: Event | dict[str, Any], state: GameState | None = None) -> str:
    """What an applied action did, in one sentence, from ``GameState.apply``'s ``Event``
    (or its ``to_dict()``), told by the all-seeing narrator of a worked example (every
    card named). ``state`` (the game after the event) lets a go-down name its melds' cards."""
    return narration.describe_event(event, viewer=None, state=state)


def describe_refusal(error: LiverpoolError) -> str:
    """What a learner reads for an engine error: its sentence and rule id, no error code
    (:func:`liverpool.teach.narration.describe_refusal`)."""
    return narration.describe_refusal(error)


def board_html(state: GameState, message: str | None = None, refused: bool = False) -> str:
    """A ``GameState`` as HTML with every card face up, drawn like the card table's board
    (``display.state_html``: round, contract, whose turn in words, discard pile and stock,
    the table melds by owner, every hand), then the round's scores once it is over and
    an optional ``message`` line (escaped; red when it reports a ``refused`` move). The
    labels speak the current language."""
    board = display.state_html(state, seat=None)
    scores = ""
    if state.round_scores is not None:
        line = _t("board_scores", scores=seat_values(state.round_scores, None), totals=seat_values(state.totals, None))
        scores = f"<div class='lp-scores'>{html.escape(line)}</div>"
    note = ""
    if message:
        style = _MESSAGE + (_REFUSED if refused else "")
        note = f"<div class='lp-message' style='{style}'>{html.escape(message)}</div>"
    return f"<div class='lp-board'>{note}{board}{scores}</div>"


def _plan_steps(steps: Iterable[Any]) -> list[tuple[int, Action, str | None, str | None]]:
    """Each step as ``(seat, Action, expected error code or None, note)``.

    A step is a CONFORMANCE.md step dict (``{"seat": 0, "do": "discard", "card": "8♦"}``,
    optional ``expect`` and a free-text ``note``) or a ``(seat, action)`` pair.
    Malformed steps raise ``InvalidArgumentError`` here, before anything is shown.
    """
    planned = []
    for i, step in enumerate(steps):
        if isinstance(step, dict):
            seat = step.get("seat")
            if not isinstance(seat, int):
                raise liverpool.InvalidArgumentError(f"step {i + 1} has no integer 'seat'", "invalid_argument")
            action = Action.from_dict(step)
            expect = step.get("expect", "ok")
            expected = expect.get("error") if isinstance(expect, dict) else None
            planned.append((seat, action, expected, step.get("note")))
        elif isinstance(step, tuple) and len(step) == 2:
            seat, given = step
            action = given if isinstance(given, Action) else Action.from_dict(given)
            planned.append((seat, action, None, None))
        else:
            raise liverpool.InvalidArgumentError(
                f"step {i + 1} is neither a step dict nor a (seat, action) pair", "invalid_argument"
            )
    return planned


def scenario_player(
    position: GameState | str | dict[str, Any], steps: Iterable[Any], rules: RuleSet | None = None
) -> SimpleNamespace:
    """Step through ``steps`` from ``position`` on the real engine, one click at a time.

    ``position``: a CONFORMANCE.md position (dict or JSON text) or a ``GameState``
    (copied). ``steps``: CONFORMANCE.md step dicts (optional ``expect``, and a free-text
    ``note`` shown under the step) or ``(seat, action)`` pairs.
    Each **Next** applies one step to a copy of the state (``GameState.apply_step``:
    a ``draw_stock`` or ``buy`` step also applies the passes it stands for); a refused step shows the
    refusal as ``narration.describe_refusal`` words it and leaves the state as it was (the engine guarantees
    it). **Back** and **Reset** return to earlier states. A step whose ``expect``
    disagrees with the engine is flagged.

    Returns a namespace with ``box`` (display it), ``next_button``, ``back_button``,
    ``reset_button``, ``board`` (HTML of the current state), ``log`` (HTML list of
    the steps applied so far), ``progress`` (label) and ``current()`` (the current
    ``GameState``).
    """
    import ipywidgets as widgets

    if isinstance(position, GameState):
        start = position.clone()
    else:
        start = GameState.from_position(position, rules)
    plan = _plan_steps(steps)

    # states[k] is the state after k steps; messages[k-1] / log_items[k-1] tell what step k
    # did (a message is (text, refused)).
    states = [start]
    messages: list[tuple[str, bool]] = []
    log_items: list[str] = []

    next_button = widgets.Button(description=_t("player_next"), button_style="primary", icon="step-forward")
    back_button = widgets.Button(description=_t("player_back"), icon="step-backward")
    reset_button = widgets.Button(description=_t("player_reset"), icon="undo")
    progress = widgets.Label()
    board = widgets.HTML()
    log = widgets.HTML()

    def render() -> None:
        done = len(states) - 1
        text, refused = messages[-1] if messages else (_t("player_start"), False)
        board.value = board_html(states[-1], text, refused)
        log.value = "<ol class='lp-log'>" + "".join(f"<li>{item}</li>" for item in log_items) + "</ol>"
        progress.value = _t("player_progress", done=done, total=len(plan))
        next_button.disabled = done >= len(plan)
        back_button.disabled = reset_button.disabled = done == 0

    def apply_next(_: Any = None) -> None:
        done = len(states) - 1
        if done >= len(plan):
            return
        seat, action, expected, note = plan[done]
        state = states[-1].clone()
        what = describe_action(seat, action)
        code: str | None = None
        try:
            # A scenario step may stand for the passes before it (CONFORMANCE.md).
            events = state.apply_step(seat, action)
        except LiverpoolError as error:
            message, code = f"{what} — {describe_refusal(error)}", error.code
            item = f"<span class='lp-refused' style='{_REFUSED}'>{html.escape(message)}</span>"
        else:
            message = "; ".join(describe_event(event, state) for event in events)
            item = html.escape(message)
        if code != expected:
            wanted = _t("player_expected_refused", code=expected) if expected else _t("player_expected_ok")
            item += f" <span class='lp-mismatch' style='{_MISMATCH}'>{html.escape(wanted)}</span>"
        if note:
            item += f"<br><i>{html.escape(note)}</i>"
        states.append(state)
        messages.append((message, code is not None))
        log_items.append(item)
        render()

    def back(_: Any = None) -> None:
        if len(states) > 1:
            states.pop()
            messages.pop()
            log_items.pop()
        render()

    def reset(_: Any = None) -> None:
        del states[1:], messages[:], log_items[:]
        render()

    next_button.on_click(apply_next)
    back_button.on_click(back)
    reset_button.on_click(reset)
    render()
    box = widgets.VBox([widgets.HBox([back_button, next_button, reset_button, progress]), board, log])
    return SimpleNamespace(
        box=box,
        next_button=next_button,
        back_button=back_button,
        reset_button=reset_button,
        progress=progress,
        board=board,
        log=log,
        current=lambda: states[-1],
    )
