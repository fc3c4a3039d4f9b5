"""Bots: the interface a player program implements, the native bots, and a driver
that plays a whole game between any mix of them.

A **bot** is any object with a ``choose(state, seat)`` method returning the
:class:`~liverpool.Action` that ``seat`` takes in ``state`` (see :class:`Bot`).
``seat`` is always ``state.to_act``: the engine asks one seat at a time (the cutter,
the active player, the next seat in a buying window, the next dealer). A bot must
not change ``state``; it may read it (``state.hand(seat)``, ``state.table``,
``state.legal_actions(seat)``, ``state.view(seat)``) and clone it to look ahead.

- :class:`NativeBot` — the engine's bots, ``"expert"``, ``"greedy"`` and ``"random"``, seeded.
- :class:`RandomBot` — a uniformly random legal action, in Python: the smallest
  useful bot, and a template for your own.
- :func:`play_game` — drive any mix of Python and native bots to the end.

``docs/bots.md`` describes the strategies and has a worked example of a bot of
your own.

>>> from liverpool.bots import NativeBot, RandomBot, play_game
>>> game = play_game(["greedy", "greedy", "greedy", RandomBot(seed=1)], seed=7)
>>> game.is_game_over, len(game.totals)
(True, 4)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from liverpool._core import Action, GameState, NativeBot, RuleSet, game_seeds
from liverpool.errors import InvalidArgumentError

__all__ = ["NATIVE_BOTS", "Bot", "NativeBot", "RandomBot", "play_game"]

#: The names of the engine's bots, for :class:`NativeBot` and :func:`liverpool.simulate`.
NATIVE_BOTS: tuple[str, ...] = ("expert", "greedy", "random")


@runtime_checkable
class Bot(Protocol):
    """What :func:`play_game` needs from a player: one decision at a time.

    ``choose(state, seat)`` returns the action of ``seat`` (which is
    ``state.to_act``). An illegal action is refused by the engine with an
    :class:`~liverpool.IllegalMoveError` naming the rule, and the game stops there.
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


def _seat_bots(bots: Sequence[Bot | str], bot_seeds: Sequence[int]) -> list[Bot]:
    seated: list[Bot] = []
    for seat, bot in enumerate(bots):
        if isinstance(bot, str):
            seated.append(NativeBot(bot, seed=bot_seeds[seat]))
        elif isinstance(bot, Bot):
            seated.append(bot)
        else:
            raise InvalidArgumentError(
                f"seat {seat}: {bot!r} is not a bot: give a native bot name ({', '.join(NATIVE_BOTS)}) "
                "or an object with a choose(state, seat) method",
                "invalid_argument",
            )
    return seated


def play_game(
    bots: Sequence[Bot | str],
    seed: int = 0,
    rules: RuleSet | None = None,
    players: int | None = None,
    game: int = 0,
) -> GameState:
    """Play a whole game, one bot per seat, and return the final state.

    ``bots`` holds :class:`Bot` objects or native bot names (``"expert"``,
    ``"greedy"``, ``"random"``), one per seat; ``players`` defaults to ``len(bots)``. The game and
    the bots named by string are seeded exactly like game ``game`` of
    ``liverpool.simulate(..., seed=seed)``, so with native names only this replays
    that simulated game move by move (and its totals are the same). Bots passed as
    objects keep their own seeds.

    The final state holds the whole history (``state.history``), the totals and the
    winners (``state.totals``, ``state.winners``).
    """
    if players is None:
        players = len(bots)
    if players != len(bots):
        raise InvalidArgumentError(
            f"{players} players but {len(bots)} bots: give one bot per seat", "invalid_argument"
        )
    game_seed, bot_seeds = game_seeds(seed, game, players)
    seated = _seat_bots(bots, bot_seeds)
    state = GameState(seed=game_seed, players=players, rules=rules)
    while (seat := state.to_act) is not None:
        state.apply(seat, seated[seat].choose(state, seat))
    return state
