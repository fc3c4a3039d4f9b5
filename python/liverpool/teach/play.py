"""``liverpool play``: play seat 0 in the terminal against native bots.

::

    liverpool play --seed 3 --bots greedy,greedy,greedy

Each time you have a decision to make, the table is shown and a command is read
from standard input (so a session can also be scripted: ``liverpool play < moves``).
The bots play their turns at once and their moves are printed. A move the rules
refuse is explained by the engine: its code and the rule (RULES.md) that forbids it.

The table, the prompts and the help speak the language of ``--language`` (``en``, ``pt``
or ``es``; default ``$LIVERPOOL_LANG`` or English), and the commands may be typed in
any of the three languages (``take``, ``pegar``, ``tomar`` …). ``help`` lists them;
in English::

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
import os
import sys
from collections.abc import Iterator
from functools import cache
from typing import Any, TextIO

from liverpool.teach import display, narration
from liverpool.i18n import LANGUAGES, language, text
from liverpool._core import Action, Card, GameState, NativeBot, RuleSet
from liverpool.errors import LiverpoolError
from liverpool.tools.options import add_rules_argument, load_rules
from liverpool.teach.game_loop import HUMAN, GameDriver, Step, make_game

__all__ = [
    "HUMAN",
    "CommandError",
    "Session",
    "make_game",
    "parse_command",
    "command_for",
    "describe_move",
    "describe_round_end",
    "help_text",
]


class CommandError(ValueError):
    """A command that could not be read (not a refusal by the rules)."""


# ----- the command words -------------------------------------------------------------

#: The commands, by their catalogue name (``cmd_<name>`` in the ``play`` domain).
COMMANDS = (
    "take", "draw", "decline", "buy", "pass", "next", "cut", "discard", "down", "layoff", "swap",
    "call", "rummy", "liverpool", "help", "legal", "show", "quit", "low", "high",
)


def _t(key: str, **params: Any) -> str:
    return text("play", key, **params)


def word(name: str) -> str:
    """The command word ``name`` in the current language (the first of its spellings)."""
    return _t(f"cmd_{name}").split("|", 1)[0]


def _words() -> dict[str, str]:
    """Every command word as placeholders for the catalogue's templates."""
    return {name: word(name) for name in COMMANDS}


@cache
def _spellings() -> dict[str, str]:
    """Every spelling of every command, in every language -> the command's name."""
    found: dict[str, str] = {}
    for lang in LANGUAGES:
        for name in COMMANDS:
            for spelling in text("play", f"cmd_{name}", lang=lang).split("|"):
                found.setdefault(spelling.lower(), name)
    return found


def _verb(word_: str) -> str | None:
    return _spellings().get(word_.lower())


def help_text() -> str:
    """The commands in the current language."""
    return _t("help", **_words())


# ----- reading commands -------------------------------------------------------------


def _card(text_: str) -> Card:
    try:
        return Card(text_)
    except LiverpoolError as exc:
        raise CommandError(exc.message) from None


def _int(text_: str, what: str) -> int:
    if not text_.isdigit():
        raise CommandError(_t("not_a_number", what=_t(what), text=text_))
    return int(text_)


def _end(words: list[str]) -> tuple[list[str], Any]:
    if words and _verb(words[-1]) in ("low", "high"):
        return words[:-1], _verb(words[-1])
    return words, None


def parse_command(line: str) -> Action | str:
    """An :class:`Action`, or the name of a session command (``help``, ``legal``,
    ``show``, ``quit``). Raises :class:`CommandError` for what it cannot read.
    Command words are read in English, Portuguese and Spanish.

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
    >>> parse_command("pegar"), parse_command("robar"), parse_command("acrescentar 0 5♠ alto")
    (Action.take_discard(), Action.draw_stock(), Action.lay_off(0, ['5♠'], end='high'))
    """
    words = line.replace("/", " / ").replace("|", " / ").split()
    if not words:
        return "show"
    verb, args = _verb(words[0]), words[1:]
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
    if verb in ("help", "legal", "show", "quit"):
        return verb
    if verb == "cut" and len(args) <= 1:
        return Action.cut(_int(args[0], "what_cut") if args else None)
    if verb == "discard" and len(args) == 1:
        return Action.discard(_card(args[0]))
    if verb == "call" and args:
        verb, args = _verb(args[0]), args[1:]
    if verb == "rummy" and not args:
        return Action.call_rummy()
    if verb == "liverpool":
        rest, end = _end(args)
        if len(rest) != 1:
            raise CommandError(_t("usage_liverpool", **_words()))
        return Action.call_liverpool(_int(rest[0], "what_meld"), end)
    if verb == "down" and args:
        groups: list[list[Card]] = [[]]
        for item in args:
            if item == "/":
                groups.append([])
            else:
                groups[-1].append(_card(item))
        if any(not g for g in groups):
            raise CommandError(_t("usage_down", **_words()))
        return Action.go_down(groups)
    if verb == "layoff" and len(args) >= 2:
        rest, end = _end(args[1:])
        if not rest:
            raise CommandError(_t("usage_layoff", **_words()))
        return Action.lay_off(_int(args[0], "what_meld"), [_card(w) for w in rest], end)
    if verb == "swap" and len(args) in (3, 4):
        rest, end = _end(args)
        if len(rest) != 3:
            raise CommandError(_t("usage_swap", **_words()))
        return Action.swap_joker(_int(rest[0], "what_meld"), _card(rest[1]), _int(rest[2], "what_target"), end)
    raise CommandError(_t("unreadable", line=line.strip(), help=word("help")))


def command_for(action: Action) -> str:
    """The command that makes ``action`` in the current language (the inverse of
    :func:`parse_command`).

    >>> command_for(Action.go_down([["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]]))
    'down 7♠ 7♥ 7♦ / 9♠ 9♥ 9♦'
    """
    name = action.name
    if name == "cut":
        return word("cut") if action.size is None else f"{word('cut')} {action.size}"
    if name == "go_down":
        return word("down") + " " + " / ".join(" ".join(str(c) for c in m) for m in action.melds or [])
    end = f" {word(action.end)}" if action.end else ""
    if name == "lay_off":
        return f"{word('layoff')} {action.meld} {' '.join(str(c) for c in action.cards or [])}{end}"
    if name == "swap_joker":
        return f"{word('swap')} {action.meld} {action.card} {action.to_meld}{end}"
    if name == "discard":
        return f"{word('discard')} {action.card}"
    if name == "call_liverpool":
        return f"{word('call')} {word('liverpool')} {action.meld}{end}"
    if name == "call_rummy":
        return f"{word('call')} {word('rummy')}"
    simple = {
        "take_discard": "take",
        "decline_discard": "decline",
        "draw_stock": "draw",
        "buy": "buy",
        "pass": "pass",
        "next_round": "next",
    }
    return word(simple[name]) if name in simple else name


# ----- showing the game ------------------------------------------------------------


def _sorted_hand(cards: list[Card]) -> str:
    order = "♠♥♦♣"
    return " ".join(str(c) for c in sorted(cards, key=lambda c: (c.suit is None, order.find(c.suit or ""), c.rank)))


def _cards(n: int) -> str:
    return _t("cards", count=n)


def _who(seat: int, case: str = "label") -> str:
    """"you" or "seat N" (counted from 1): a ``label`` in lists, the ``subject`` of a sentence."""
    return narration.who(seat, HUMAN, case)


def _totals(state: GameState) -> str:
    return _t("totals", totals=" · ".join(f"{_who(s)} {t}" for s, t in enumerate(state.totals)))


def describe_table(state: GameState) -> str:
    """What the human sees: round and contract, the table, the discard, the hands."""
    contract = display.contract_words(state, state.round)
    lines = [_t("round_header", round=state.round, rounds=state.rules.rounds, contract=contract)]
    if state.phase == "cut":
        cutter = _t("you_cut") if state.cutter == HUMAN else _t("seat_cuts", seat=state.cutter)
        if state.dealer == HUMAN:
            lines.append(_t("you_deal", cutter=cutter, cards=_cards(state.stock_size)))
        else:
            lines.append(_t("deals", dealer=_who(state.dealer, "subject"), cutter=cutter, cards=_cards(state.stock_size)))
        lines.append(_totals(state))
        return "\n".join(lines)
    if state.table:
        lines.append(_t("table"))
        lines += [f"  [{i}] {_who(t.owner)}: {' '.join(str(c) for c in t.meld.cards)}" for i, t in enumerate(state.table)]
    else:
        lines.append(_t("table_empty"))
    top = state.discard_top
    lines.append(
        _t(
            "discard_line",
            top=top if top is not None else _t("empty"),
            count=_cards(len(state.discard)),
            stock=_cards(state.stock_size),
        )
    )
    down_mark = _t("down_mark")
    sizes = " · ".join(f"{_who(s)} {n}{down_mark if state.down[s] else ''}" for s, n in enumerate(state.hand_sizes))
    lines.append(_t("hands", sizes=sizes))
    limit = _rule_options(state.rules).get("buy_limit_per_round")
    if limit is not None:
        # C-5: at most this many buys per player per round.
        left = " · ".join(f"{_who(s)} {max(limit - b, 0)}" for s, b in enumerate(state.buys))
        lines.append(_t("buys_left", left=left))
    if any(state.penalties):
        charged = " · ".join(f"{_who(s)} +{p}" for s, p in enumerate(state.penalties) if p)
        lines.append(_t("failed_go_downs", charged=charged))
    lines.append(_totals(state))
    lines.append(_t("your_hand", hand=_sorted_hand(state.hand(HUMAN))))
    return "\n".join(lines)


def _rule_options(rules: RuleSet) -> dict[str, Any]:
    """The rule set's options by name (read for display only; the engine decides)."""
    options: dict[str, Any] = json.loads(rules.to_json())
    return options


def prompt_for(state: GameState) -> str:
    """One line on the decision the human faces now."""
    phase = state.phase
    top = state.discard_top
    words = _words()
    if phase == "cut":
        return _t("prompt_cut", most=state.stock_size - 1, **words)
    if phase == "draw":
        if top is None:
            return _t("prompt_draw_only", **words)
        if state.declined:
            return _t("prompt_declined", top=top, **words)
        return _t("prompt_draw", top=top, **words)
    if phase == "buying":
        return _t("prompt_buy", top=top, **words)
    if phase == "calling":
        offer = state.call_offer
        assert offer is not None
        kind, discarder = offer
        if kind == "rummy":
            return _t("prompt_call_rummy", who=_who(discarder, "subject"), top=top, **words)
        return _t("prompt_call_liverpool", top=top, **words)
    if phase == "call_discard":
        return _t("prompt_call_discard", **words)
    if phase == "play":
        return _t("prompt_play", **words)
    if phase == "round_over":
        return _t("prompt_round_over", **words)
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
            lines.insert(0, _t("legal_cuts", cut=word("cut"), low=cuts[0].size, high=cuts[-1].size))
        return _t("legal", moves="; ".join(lines))

    def run(self) -> int:
        bots = ", ".join(_t("bot_seat", seat=s, kind=b.kind) for s, b in self.bots.items())
        self.say(_t("welcome", seat=HUMAN, bots=bots))
        self.say(_t("type_help", help=word("help")))
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
                self.say(_t("bye"))
                return 0
            if command == "help":
                self.say(help_text())
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
        self.say(_t("bye_eof"))
        return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="seed of the game (default 0)")
    parser.add_argument(
        "--bots", default="greedy,greedy,greedy", help="the native bots of seats 1, 2, …: greedy, random, …"
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help="language of the table and the messages (default: $LIVERPOOL_LANG, else en)",
    )
    add_rules_argument(parser)


def _language(choice: str | None) -> str:
    wanted = choice or os.environ.get("LIVERPOOL_LANG", "en")
    return wanted if wanted in LANGUAGES else "en"


def run(args: argparse.Namespace) -> int:
    with language(_language(args.language)):
        try:
            rules = load_rules(args.rules)
            state, bots = make_game(args.seed, [b.strip() for b in args.bots.split(",")], rules)
        except LiverpoolError as exc:
            print(f"liverpool play: error: {exc} [{exc.code}]", file=sys.stderr)
            return 2
        return Session(state, bots, sys.stdin, sys.stdout).run()
