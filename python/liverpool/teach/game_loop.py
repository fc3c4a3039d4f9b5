"""The loop of a game between one person and native bots, shared by the terminal
game (``liverpool play``) and the card table widget.

A :class:`GameDriver` holds the ``GameState`` and the bots. The person's move goes
through :meth:`GameDriver.play` (the engine checks it: a refusal raises and changes
nothing); then :meth:`GameDriver.run_bots` yields the bots' moves one at a time, each
as a narrated :class:`Step`, until the person has a decision to make or the game is
over. No rule is decided here: who acts and what is legal come from the engine.

>>> driver = GameDriver.new(seed=3, bots=["greedy", "greedy"])
>>> steps = list(driver.run_bots())
>>> driver.state.to_act == driver.human or driver.state.is_game_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from liverpool._core import Action, Card, GameState, NativeBot, RuleSet, game_seeds
from liverpool.teach.narration import describe_event, round_end_lines

__all__ = ["HUMAN", "Step", "RoundResult", "GameDriver", "Snapshot", "make_game"]

#: The person's seat.
HUMAN = 0


def make_game(seed: int, bots: Sequence[str], rules: RuleSet | None = None) -> tuple[GameState, dict[int, NativeBot]]:
    """The game and the bots of ``liverpool play``: the human at seat 0, the named
    native bots at seats 1, 2, …, seeded like game 0 of ``simulate(seed=seed)``.

    >>> state, bots = make_game(3, ["greedy", "random"])
    >>> state.players, sorted(bots), bots[2].kind
    (3, [1, 2], 'random')
    """
    players = 1 + len(bots)
    game_seed, bot_seeds = game_seeds(seed, 0, players)
    state = GameState(seed=game_seed, players=players, rules=rules)
    return state, {seat: NativeBot(name, seed=bot_seeds[seat]) for seat, name in enumerate(bots, start=1)}


@dataclass(frozen=True)
class RoundResult:
    """One finished round, as the engine reported it."""

    round: int
    scores: list[int]
    totals: list[int]
    winner: int | None
    reason: str
    cut_bonus_seat: int | None


@dataclass(frozen=True)
class Step:
    """One applied move: who, what, the engine's event, and its narration."""

    seat: int
    action: Action
    event: dict[str, Any]
    text: str
    #: The round's end in sentences, when this move ended the round.
    round_end: list[str] = field(default_factory=list)
    #: Cards the person received with this move (a draw, the taken or bought card).
    gained: list[Card] = field(default_factory=list)
    #: True when the move was made for the person by a standing answer (e.g. the card
    #: table's buying setting), not by a click of theirs.
    automatic: bool = False

    @property
    def lines(self) -> list[str]:
        return [self.text, *self.round_end]


#: A standing answer for the person: given the game, the move to make for them now, or
#: None to wait for their own decision (see :meth:`GameDriver.run_bots`).
StandingAnswer = Callable[[GameState], "Action | None"]


@dataclass(frozen=True)
class Snapshot:
    """Everything :meth:`GameDriver.restore` needs to go back to an earlier moment."""

    state: GameState
    steps: int
    rounds: int
    cut_bonus_seat: int | None


class GameDriver:
    """A game of one person (seat ``human``) against native bots."""

    def __init__(self, state: GameState, bots: dict[int, NativeBot], human: int = HUMAN) -> None:
        self.state = state
        self.bots = bots
        self.human = human
        self.steps: list[Step] = []
        self.rounds: list[RoundResult] = []
        self._cut_bonus_seat: int | None = None

    @classmethod
    def new(cls, seed: int = 0, bots: Sequence[str] = ("greedy", "greedy", "greedy"), rules: RuleSet | str | None = None) -> GameDriver:
        """A new game as ``liverpool play --seed S --bots … --rules …`` starts it."""
        ruleset = RuleSet(rules) if isinstance(rules, str) else rules
        state, seated = make_game(seed, list(bots), ruleset)
        return cls(state, seated)

    # ----- asking -----

    @property
    def waiting_for_human(self) -> bool:
        """Whether the engine waits for the person's decision."""
        return self.state.to_act == self.human

    @property
    def is_over(self) -> bool:
        return self.state.is_game_over

    def legal(self) -> list[Action]:
        """The person's legal moves now (empty when it is not their decision)."""
        return self.state.legal_actions(self.human) if self.waiting_for_human else []

    def seen_by_human(self) -> list[Card]:
        """Every card the person can see besides their hand: the discard pile and the
        table melds (the other hands and the stock are hidden)."""
        seen = list(self.state.discard)
        for table_meld in self.state.table:
            seen.extend(table_meld.meld.cards)
        return seen

    # ----- moving -----

    def snapshot(self) -> Snapshot:
        """The game now, to come back to with :meth:`restore` (an undo)."""
        return Snapshot(self.state.clone(), len(self.steps), len(self.rounds), self._cut_bonus_seat)

    def restore(self, snapshot: Snapshot) -> None:
        """Back to ``snapshot``: the state, the steps and the finished rounds of then."""
        self.state = snapshot.state.clone()
        del self.steps[snapshot.steps :]
        del self.rounds[snapshot.rounds :]
        self._cut_bonus_seat = snapshot.cut_bonus_seat

    def _apply(self, seat: int, action: Action, automatic: bool = False) -> Step:
        state = self.state
        offered = state.discard_top if state.phase == "buying" else None
        event = state.apply(seat, action)  # raises on a refusal; the state is then unchanged
        data = event.to_dict()
        if data.get("event") == "dealt":
            self._cut_bonus_seat = data["cutter"] if data.get("cut_bonus") else None
        text = describe_event(data, viewer=self.human, action=action, state=state, offered=offered, round_end=False)
        end = event.round_end
        end_lines: list[str] = []
        if end is not None:
            end_lines = round_end_lines(end, viewer=self.human, cut_bonus_seat=self._cut_bonus_seat)
            self.rounds.append(
                RoundResult(end["round"], end["scores"], end["totals"], end.get("winner"), end["reason"], self._cut_bonus_seat)
            )
        step = Step(seat, action, data, text, end_lines, self._gained(data), automatic)
        self.steps.append(step)
        return step

    def _gained(self, data: dict[str, Any]) -> list[Card]:
        """The cards the person received with this move: a draw, the taken or bought
        card, the card taken back after a rummy call (W-7.1), or the stock card that
        came when the buying window the move closed had a pending draw (L-5.1)."""
        gained: list[Card] = []
        kind = data.get("event")
        if data.get("seat") == self.human:
            if kind in ("took_discard", "drew_stock") and data.get("card"):
                gained = [Card(data["card"])]
            elif kind == "bought":
                gained = [Card(data["card"]), Card(data["penalty"])]
        if kind == "called_rummy" and data.get("discarder") == self.human:
            gained = [Card(data["card"]), Card(data["penalty"])]
        then = data.get("then")
        if then:
            gained += self._gained(then)
        return gained

    def play(self, action: Action) -> Step:
        """Apply the person's move. Raises the engine's ``LiverpoolError`` (code, rule,
        message) if the rules refuse it; nothing changes then."""
        return self._apply(self.human, action)

    def bot_move(self) -> Step | None:
        """One bot move, or None when the person must decide or the game is over."""
        seat = self.state.to_act
        if seat is None or seat == self.human:
            return None
        return self._apply(seat, self.bots[seat].choose(self.state, seat))

    def run_bots(self, answer: StandingAnswer | None = None) -> Iterator[Step]:
        """The bots' moves, one at a time, until the person must decide (or game over).

        ``answer`` is the person's standing answer: when the engine asks the person and
        it returns a move, that move is played for them (a :class:`Step` marked
        ``automatic``) and the bots play on; when it returns None, the loop stops."""
        while True:
            step = self.bot_move()
            if step is None and answer is not None and self.waiting_for_human and not self.is_over:
                standing = answer(self.state)
                if standing is not None:
                    step = self._apply(self.human, standing, automatic=True)
            if step is None:
                return
            yield step
