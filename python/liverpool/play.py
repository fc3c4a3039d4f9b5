"""``liverpool play``: play seat 0 in the terminal against native bots.

::

    liverpool play --seed 3 --bots greedy,greedy,greedy

Each time you have a decision to make, the table is shown and a command is read
from standard input (so a session can also be scripted: ``liverpool play < moves``).
The bots play their turns at once and their moves are printed. A move the rules
refuse is explained by the engine: its code and the rule (RULES.md) that forbids it.

Commands (cards as ``7♠``, ``7S``, ``10h``, ``TS``, ``JK``)::

    cut [N]                      cut N cards (1..stock-1), or a random cut
    take | draw                  take the top discard, or draw from the stock (the
                                 others may buy the discard first: L-5.1)
    decline                      decline the top discard; 'draw' once the others have answered
    buy | pass                   in a buying window: buy the top discard, or not
    call rummy                   profile W: the discarder takes its card back (W-7.1)
    call liverpool M [low|high]  profile W: take the discard onto table meld M (W-7.2)
    down 7♠ 7♥ 7♦ / 9♠ 9♥ 9♦      go down with these melds (runs low to high)
    layoff M CARD... [low|high]  lay cards off on table meld M
    swap M CARD TO [low|high]    put CARD in place of meld M's joker, joker to meld TO
    discard CARD                 discard and end the turn
    next                         deal the next round (when you are the next dealer)
    legal | show | help | quit
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from liverpool import narration
from liverpool._core import Action, Card, GameState, NativeBot, RuleSet
from liverpool.errors import LiverpoolError
from liverpool.cli import add_rules_argument, load_rules
from liverpool.game_loop import HUMAN, GameDriver, Step, make_game

__all__ = ["HUMAN", "CommandError", "Session", "make_game", "parse_command", "command_for", "describe_move", "describe_round_end"]

HELP = __doc__.split("Commands", 1)[1].split("\n", 1)[1].rstrip() if __doc__ else ""


class CommandError(ValueError):
    """A command that could not be read (not a refusal by the rules)."""


# ----- reading commands -------------------------------------------------------------


def _card(text: str) -> Card:
    try:
        return Card(text)
    except LiverpoolError as exc:
        raise CommandError(exc.message) from None


def _int(text: str, what: str) -> int:
    if not text.isdigit():
        raise CommandError(f"{what} must be a number, not '{text}'")
    return int(text)


def _end(words: list[str]) -> tuple[list[str], Any]:
    if words and words[-1].lower() in ("low", "high"):
        return words[:-1], words[-1].lower()
    return words, None


def parse_command(line: str) -> Action | str:
    """An :class:`Action`, or the name of a session command (``help``, ``legal``,
    ``show``, ``quit``). Raises :class:`CommandError` for what it cannot read.

    >>> parse_command("down 7♠ 7♥ 7♦ / 9S 9H 9D")
    Action.go_down([['7♠', '7♥', '7♦'], ['9♠', '9♥', '9♦']])
    >>> parse_command("layoff 1 4♣")
    Action.lay_off(1, ['4♣'])
    >>> parse_command("swap 0 6♥ 1 low") == Action.swap_joker(0, "6♥", 1, "low")
    True
    >>> parse_command("pass"), parse_command("?")
    (Action.pass_(), 'help')
    >>> parse_command("call liverpool 2 low"), parse_command("call rummy")
    (Action.call_liverpool(2, end='low'), Action.call_rummy())
    """
    words = line.replace("/", " / ").replace("|", " / ").split()
    if not words:
        return "show"
    verb, args = words[0].lower(), words[1:]
    simple = {
        "take": Action.take_discard,
        "decline": Action.decline_discard,
        "draw": Action.draw_stock,
        "buy": Action.buy,
        "pass": Action.pass_,
        "next": Action.next_round,
    }
    if verb in simple and not args:
        return simple[verb]()
    if verb in ("help", "?", "h"):
        return "help"
    if verb in ("legal", "moves"):
        return "legal"
    if verb in ("show", "table", "look"):
        return "show"
    if verb in ("quit", "exit", "q"):
        return "quit"
    if verb == "cut" and len(args) <= 1:
        return Action.cut(_int(args[0], "the cut") if args else None)
    if verb == "discard" and len(args) == 1:
        return Action.discard(_card(args[0]))
    if verb == "call" and args:
        verb, args = args[0].lower(), args[1:]
    if verb == "rummy" and not args:
        return Action.call_rummy()
    if verb == "liverpool":
        rest, end = _end(args)
        if len(rest) != 1:
            raise CommandError("call liverpool M [low|high]: the table meld that takes the discard")
        return Action.call_liverpool(_int(rest[0], "the meld number"), end)
    if verb in ("down", "godown", "go_down") and args:
        groups: list[list[Card]] = [[]]
        for word in args:
            if word == "/":
                groups.append([])
            else:
                groups[-1].append(_card(word))
        if any(not g for g in groups):
            raise CommandError("separate the melds with '/', e.g. down 7♠ 7♥ 7♦ / 9♠ 9♥ 9♦")
        return Action.go_down(groups)
    if verb in ("layoff", "lay", "lay_off") and len(args) >= 2:
        rest, end = _end(args[1:])
        if not rest:
            raise CommandError("layoff needs cards: layoff M CARD...")
        return Action.lay_off(_int(args[0], "the meld number"), [_card(w) for w in rest], end)
    if verb == "swap" and len(args) in (3, 4):
        rest, end = _end(args)
        if len(rest) != 3:
            raise CommandError("swap M CARD TO [low|high]")
        return Action.swap_joker(_int(rest[0], "the meld number"), _card(rest[1]), _int(rest[2], "the target meld"), end)
    raise CommandError(f"cannot read '{line.strip()}': type help for the commands")


def command_for(action: Action) -> str:
    """The command that makes ``action`` (the inverse of :func:`parse_command`).

    >>> command_for(Action.go_down([["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]]))
    'down 7♠ 7♥ 7♦ / 9♠ 9♥ 9♦'
    """
    name = action.name
    if name == "cut":
        return "cut" if action.size is None else f"cut {action.size}"
    if name == "go_down":
        return "down " + " / ".join(" ".join(str(c) for c in m) for m in action.melds or [])
    end = f" {action.end}" if action.end else ""
    if name == "lay_off":
        return f"layoff {action.meld} {' '.join(str(c) for c in action.cards or [])}{end}"
    if name == "swap_joker":
        return f"swap {action.meld} {action.card} {action.to_meld}{end}"
    if name == "discard":
        return f"discard {action.card}"
    if name == "call_liverpool":
        return f"call liverpool {action.meld}{end}"
    return {
        "take_discard": "take",
        "decline_discard": "decline",
        "draw_stock": "draw",
        "buy": "buy",
        "pass": "pass",
        "next_round": "next",
        "call_rummy": "call rummy",
    }.get(name, name)


# ----- showing the game ------------------------------------------------------------


def _sorted_hand(cards: list[Card]) -> str:
    order = "♠♥♦♣"
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (c.suit is None, order.find(c.suit or ""), c.rank)))


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _who(seat: int) -> str:
    return "you" if seat == HUMAN else f"seat {seat}"


def describe_table(state: GameState) -> str:
    """What the human sees: round and contract, the table, the discard, the hands."""
    lines = [f"--- round {state.round} of {state.rules.rounds}: {state.contract} ---"]
    if state.phase == "cut":
        cutter = "you cut" if state.cutter == HUMAN else f"seat {state.cutter} cuts"
        lines.append(f"{_who(state.dealer)} deals, {cutter} the {_cards(state.stock_size)}")
        lines.append(f"totals: {' · '.join(f'{_who(s)} {t}' for s, t in enumerate(state.totals))}")
        return "\n".join(lines)
    if state.table:
        lines.append("table:")
        lines += [f"  [{i}] {_who(t.owner)}: {' '.join(str(c) for c in t.meld.cards)}" for i, t in enumerate(state.table)]
    else:
        lines.append("table: (no melds)")
    top = state.discard_top
    lines.append(
        f"discard: {top if top is not None else '(empty)'} ({_cards(len(state.discard))})   stock: {_cards(state.stock_size)}"
    )
    sizes = " · ".join(f"{_who(s)} {n}{' (down)' if state.down[s] else ''}" for s, n in enumerate(state.hand_sizes))
    lines.append(f"hands: {sizes}")
    limit = _rule_options(state.rules).get("buy_limit_per_round")
    if limit is not None:
        # C-5: at most this many buys per player per round.
        left = " · ".join(f"{_who(s)} {max(limit - b, 0)}" for s, b in enumerate(state.buys))
        lines.append(f"buys left (C-5): {left}")
    if any(state.penalties):
        charged = " · ".join(f"{_who(s)} +{p}" for s, p in enumerate(state.penalties) if p)
        lines.append(f"failed go-downs this round (W-9): {charged}")
    lines.append(f"totals: {' · '.join(f'{_who(s)} {t}' for s, t in enumerate(state.totals))}")
    lines.append(f"your hand: {_sorted_hand(state.hand(HUMAN))}")
    return "\n".join(lines)


def _rule_options(rules: RuleSet) -> dict[str, Any]:
    """The rule set's options by name (read for display only; the engine decides)."""
    options: dict[str, Any] = json.loads(rules.to_json())
    return options


def prompt_for(state: GameState) -> str:
    """One line on the decision the human faces now."""
    phase = state.phase
    top = state.discard_top
    if phase == "cut":
        return f"you cut: 'cut N' (1..{state.stock_size - 1}) or 'cut' for a random size"
    if phase == "draw":
        if top is None:
            return "your turn: 'draw' from the stock"
        if state.declined:
            return f"you declined {top}: 'draw' from the stock"
        return f"your turn: 'take' {top}, or 'draw' from the stock (the others may buy {top} first, L-5.1)"
    if phase == "buying":
        return f"buy {top} plus a penalty card? 'buy' or 'pass'"
    if phase == "calling":
        offer = state.call_offer
        assert offer is not None
        kind, discarder = offer
        if kind == "rummy":
            return f"{_who(discarder)} discarded {top}, which fits a table meld: 'call rummy' or 'pass' (W-7.1)"
        return f"{top} fits a table meld: 'call liverpool M [low|high]' or 'pass' (W-7.2)"
    if phase == "call_discard":
        return "you called Liverpool: 'discard CARD' (W-7.2)"
    if phase == "play":
        return "go down, lay off or swap, then 'discard CARD'"
    if phase == "round_over":
        return "the round is over: 'next' deals the next round"
    return ""


def describe_move(seat: int, action: Action, event: dict[str, Any]) -> str:
    """One line on a move as the human at seat 0 sees it (no hidden card of a bot)."""
    return narration.describe_event(event, viewer=HUMAN, action=action, round_end=False)


def describe_round_end(end: dict[str, Any], cut_bonus_seat: int | None = None) -> str:
    """The round's end: ``=== `` then how it ended, scores, totals (and the winners)."""
    return "\n".join("=== " + line for line in narration.round_end_lines(end, viewer=HUMAN, cut_bonus_seat=cut_bonus_seat))


# ----- the session -----------------------------------------------------------------


class Session:
    """A terminal game: reads commands from ``input``, writes to ``output``."""

    def __init__(self, state: GameState, bots: dict[int, NativeBot], input: TextIO, output: TextIO) -> None:
        self.driver = GameDriver(state, bots, HUMAN)
        self.state = state
        self.bots = bots
        self.input = input
        self.output = output

    def say(self, text: str) -> None:
        print(text, file=self.output)

    def show_step(self, step: Step) -> None:
        self.say(step.text)
        for line in step.round_end:
            self.say("=== " + line)

    def lines(self) -> Iterator[str]:
        while True:
            self.output.write("> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                return
            yield line

    def play_bots(self) -> None:
        """Let the bots move until the human has a decision (or the game ends)."""
        for step in self.driver.run_bots():
            self.show_step(step)

    def legal(self) -> str:
        actions = self.state.legal_actions(HUMAN)
        cuts = [a for a in actions if a.name == "cut"]
        lines = [command_for(a) for a in actions if a.name != "cut"]
        if cuts:
            lines.insert(0, f"cut N (N = {cuts[0].size}..{cuts[-1].size}) or cut")
        return "legal: " + "; ".join(lines)

    def run(self) -> int:
        self.say(f"Liverpool: you are seat {HUMAN}; bots: " + ", ".join(f"seat {s} {b.kind}" for s, b in self.bots.items()))
        self.say("type help for the commands")
        self.play_bots()
        if self.state.is_game_over:
            return 0
        self.say(describe_table(self.state))
        self.say(prompt_for(self.state))
        for line in self.lines():
            try:
                command = parse_command(line)
            except CommandError as exc:
                self.say(f"? {exc}")
                continue
            if command == "quit":
                self.say("bye")
                return 0
            if command == "help":
                self.say(HELP)
                continue
            if command == "legal":
                self.say(self.legal())
                continue
            if command == "show":
                self.say(describe_table(self.state))
                self.say(prompt_for(self.state))
                continue
            assert isinstance(command, Action)
            try:
                step = self.driver.play(command)
            except LiverpoolError as exc:
                # The engine's sentence ends with the rule id, e.g. "(L-5.5)".
                self.say(narration.describe_refusal(exc))
                continue
            self.show_step(step)
            self.play_bots()
            if self.state.is_game_over:
                return 0
            self.say(describe_table(self.state))
            self.say(prompt_for(self.state))
        self.say("bye (end of input)")
        return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="seed of the game (default 0)")
    parser.add_argument(
        "--bots", default="greedy,greedy,greedy", help="the native bots of seats 1, 2, …: greedy or random"
    )
    add_rules_argument(parser)


def run(args: argparse.Namespace) -> int:
    try:
        rules = load_rules(args.rules)
        state, bots = make_game(args.seed, [b.strip() for b in args.bots.split(",")], rules)
    except LiverpoolError as exc:
        print(f"liverpool play: error: {exc} [{exc.code}]", file=sys.stderr)
        return 2
    return Session(state, bots, sys.stdin, sys.stdout).run()
