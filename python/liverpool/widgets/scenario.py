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
from liverpool import Action, Card, Event, GameState, LiverpoolError, RuleSet

_RED_SUITS = {"♥", "♦"}


_CHIP_STYLE = (
    "display:inline-block;min-width:2.2em;padding:2px 4px;margin:1px;border:1px solid #999;"
    "border-radius:4px;background:#fff;text-align:center;font-family:monospace;"
)


def card_html(card: Card | str) -> str:
    """One card as a small HTML chip (red for hearts and diamonds, purple for jokers).

    >>> 'color:#c0392b">7♦</span>' in card_html("7♦")
    True
    """
    card = card if isinstance(card, Card) else Card(card)
    color = "#8e44ad" if card.is_joker else ("#c0392b" if card.suit in _RED_SUITS else "#222")
    return f'<span class="lp-card" style="{_CHIP_STYLE}color:{color}">{html.escape(str(card))}</span>'


def cards_html(cards: Iterable[Card | str]) -> str:
    """A row of card chips."""
    return "".join(card_html(c) for c in cards)


def go_down_explorer(
    hand: str = "7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦", round: int = 1, rules: RuleSet | None = None
) -> SimpleNamespace:
    """A hand box, a round picker and a button that asks the engine for the best go-down.

    Returns a namespace with ``box`` (display it), ``hand``, ``round``, ``button``, ``result``.
    """
    import ipywidgets as widgets

    rules = rules or RuleSet()
    hand_box = widgets.Text(value=hand, description="Hand", layout=widgets.Layout(width="36em"))
    round_picker = widgets.Dropdown(
        options=[(f"{r}: {rules.describe_contract(r)}", r) for r in range(1, rules.rounds + 1)],
        value=round,
        description="Round",
    )
    button = widgets.Button(description="Best go-down", button_style="primary")
    result = widgets.HTML()

    def explain(_: Any = None) -> None:
        try:
            cards = liverpool.parse_cards(hand_box.value)
            best = liverpool.best_go_down(cards, round_picker.value, rules)
        except LiverpoolError as error:
            result.value = f"<b>{html.escape(type(error).__name__)}</b> [{error.code}]: {html.escape(str(error))}"
            return
        if best is None:
            result.value = f"No go-down: this hand does not hold <i>{rules.describe_contract(round_picker.value)}</i>."
            return
        melds = "<br>".join(f"{m.kind}: {cards_html(m.cards)}" for m in best.melds)
        result.value = f"{melds}<br>left in hand: {cards_html(best.left)} = <b>{best.points_left}</b> points"

    button.on_click(explain)
    explain()
    box = widgets.VBox([widgets.HBox([hand_box, round_picker, button]), result])
    return SimpleNamespace(box=box, hand=hand_box, round=round_picker, button=button, result=result)


# --- game widgets: a board view and a step-through scenario player (notebooks 02, 03) ---

_ACTIVE_ROW = "background:#fff8dc;"
_REFUSED = "color:#c0392b;"
_MESSAGE = "margin-top:4px;padding:4px 6px;border-left:3px solid #999;background:#f6f6f6;"
_MISMATCH = "color:#fff;background:#c0392b;padding:0 4px;border-radius:3px;"

_ROUND_END_REASONS = {
    "went_out": "seat {winner} went out (L-5.6)",
    "whole_hand": "seat {winner} laid the whole hand as three runs (L-8.1)",
    "stock_exhausted": "no stock could be formed: the round ends with no winner (L-9.2)",
    "turn_limit": "the engine's turn limit was reached: no winner (L-9.3)",
}


def _cards_text(cards: Iterable[Any]) -> str:
    return " ".join(str(c) for c in cards)


def describe_action(seat: int, action: Action | dict[str, Any]) -> str:
    """A short English sentence for ``action`` by ``seat`` (an ``Action`` or a step dict).

    >>> from liverpool import Action
    >>> describe_action(0, Action.lay_off(0, ["4♣"]))
    'seat 0: lay off 4♣ on table meld 0'
    """
    action = action if isinstance(action, Action) else Action.from_dict(action)
    name = action.name
    if name == "cut":
        what = f"cut {action.size} cards" if action.size is not None else "cut (size drawn at random)"
    elif name == "go_down":
        what = "go down with " + " | ".join(_cards_text(g) for g in action.melds or [])
    elif name == "lay_off":
        end = f" ({action.end} end)" if action.end else ""
        what = f"lay off {_cards_text(action.cards or [])} on table meld {action.meld}{end}"
    elif name == "swap_joker":
        what = f"swap {action.card} for the joker of meld {action.meld}, joker to meld {action.to_meld}"
    elif name == "discard":
        what = f"discard {action.card}"
    else:
        what = name.replace("_", " ")
    return f"seat {seat}: {what}"


def describe_event(event: Event | dict[str, Any], state: GameState | None = None) -> str:
    """What an applied action did, in one sentence, from ``GameState.apply``'s ``Event``
    (or its ``to_dict()``). Presentation only: every fact comes from the engine's event;
    ``state`` (the game after the event) lets a go-down name its melds' cards."""
    e = event if isinstance(event, dict) else event.to_dict()
    kind = e.get("event")
    if kind == "dealt":
        text = f"cut {e['size']} cards; dealt; up-card {e['up_card']}"
        if e.get("cut_bonus"):
            text += f" — an exact cut: cut bonus for seat {e['cutter']} (L-2.3)"
    elif kind == "took_discard":
        text = f"took {e['card']} from the discard pile"
    elif kind == "declined_discard":
        text = f"declined {e['card']}" + ("; the buying window opens (L-6)" if e.get("window_open") else "")
    elif kind == "bought":
        text = f"bought {e['card']} plus the penalty card {e['penalty']} (L-6.2)"
    elif kind == "passed":
        text = "passed (does not buy)"
    elif kind == "drew_stock":
        text = f"drew {e['card']} from the stock" if e.get("card") else "could not draw: no stock can be formed"
    elif kind == "went_down":
        numbers = ", ".join(str(m) for m in e["melds"])
        if state is not None:
            melds = " | ".join(_cards_text(state.table[m].meld.cards) for m in e["melds"])
            text = f"went down with {melds} (table melds {numbers})"
        else:
            text = f"went down: table melds {numbers}"
    elif kind == "laid_off":
        text = f"laid off {_cards_text(e['cards'])} on table meld {e['meld']}"
    elif kind == "swapped_joker":
        text = (
            f"put {e['card']} in place of the joker of meld {e['meld']};"
            f" the joker went to meld {e['to_meld']} (L-7.2)"
        )
    elif kind == "discarded":
        text = f"discarded {e['card']}" + (" and went out (L-5.6)" if e.get("went_out") else "")
    elif kind == "round_started":
        text = f"round {e['round']} starts; seat {e['dealer']} deals"
    else:
        text = str(kind)
    if e.get("recycled"):
        text += f" (the discard pile under its top card was shuffled into a new stock of {e['recycled']}, L-9.1)"
    end = e.get("round_end")
    if end:
        reason = _ROUND_END_REASONS.get(end["reason"], end["reason"]).format(winner=end.get("winner"))
        text += f". Round {end['round']} over: {reason}; scores {end['scores']}, totals {end['totals']}"
        if end.get("game_over"):
            text += f"; game over, winners {end['winners']} (L-10.3)"
    return f"seat {e['seat']} {text}"


def describe_refusal(error: LiverpoolError) -> str:
    """``refused [code, rule]: message`` for an engine error."""
    tag = f"{error.code}, {error.rule}" if error.rule else error.code
    return f"refused [{tag}]: {error}"


def board_html(state: GameState, message: str | None = None, refused: bool = False) -> str:
    """A ``GameState`` as HTML: round and phase, discard top and stock, the table melds
    (numbered, with owners), every hand as card chips (the active seat marked), the
    scores once the round is over, and an optional ``message`` line (escaped; red when
    it reports a ``refused`` move)."""
    top = state.discard_top
    header = (
        f"<b>Round {state.round}</b> — contract: {html.escape(state.contract)} — phase <code>{state.phase}</code>"
        f" — active seat {state.active}, to act: {state.to_act}<br>"
        f"discard top: {card_html(top) if top is not None else '<i>empty</i>'}"
        f" — stock: {state.stock_size} cards"
    )
    if state.cut_bonus is not None:
        header += f" — cut bonus: seat {state.cut_bonus}"
    if state.table:
        rows = "".join(
            f"<tr><td>#{i}</td><td>seat {m.owner}</td><td>{m.meld.kind}</td><td>{cards_html(m.meld.cards)}</td></tr>"
            for i, m in enumerate(state.table)
        )
        table = f"<table class='lp-table'>{rows}</table>"
    else:
        table = "<i>no melds on the table</i>"
    hand_rows = []
    for seat, hand in enumerate(state.hands):
        marker = "▶ " if seat == state.active else ""
        status = " (down)" if state.down[seat] else ""
        style = _ACTIVE_ROW if seat == state.active else ""
        hand_rows.append(
            f"<tr style='{style}'><td>{marker}seat {seat}{status}</td><td>{len(hand)}</td>"
            f"<td class='lp-hand-{seat}'>{cards_html(hand)}</td></tr>"
        )
    hands = f"<table class='lp-hands'>{''.join(hand_rows)}</table>"
    scores = ""
    if state.round_scores is not None:
        scores = f"<div class='lp-scores'>round scores: {state.round_scores} — totals: {state.totals}</div>"
    note = ""
    if message:
        style = _MESSAGE + (_REFUSED if refused else "")
        note = f"<div class='lp-message' style='{style}'>{html.escape(message)}</div>"
    return f"<div class='lp-board'>{header}<br><b>Table</b>{table}<b>Hands</b>{hands}{scores}{note}</div>"


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
    Each **Next** applies one step to a copy of the state; a refused step shows the
    engine's code and rule id and leaves the state as it was (the engine guarantees
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

    next_button = widgets.Button(description="Next step", button_style="primary", icon="step-forward")
    back_button = widgets.Button(description="Back", icon="step-backward")
    reset_button = widgets.Button(description="Reset", icon="undo")
    progress = widgets.Label()
    board = widgets.HTML()
    log = widgets.HTML()

    def render() -> None:
        done = len(states) - 1
        text, refused = messages[-1] if messages else ("Start position: press Next step.", False)
        board.value = board_html(states[-1], text, refused)
        log.value = "<ol class='lp-log'>" + "".join(f"<li>{item}</li>" for item in log_items) + "</ol>"
        progress.value = f"step {done} of {len(plan)}"
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
            event = state.apply(seat, action)
        except LiverpoolError as error:
            message, code = f"{what} — {describe_refusal(error)}", error.code
            item = f"<span class='lp-refused' style='{_REFUSED}'>{html.escape(message)}</span>"
        else:
            message = describe_event(event, state)
            item = html.escape(message)
        if code != expected:
            wanted = f"refused with {expected}" if expected else "accepted"
            item += f" <span class='lp-mismatch' style='{_MISMATCH}'>the scenario expected it to be {wanted}</span>"
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
