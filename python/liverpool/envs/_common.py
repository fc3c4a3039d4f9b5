"""What both environments share: the rule set and table size, the spaces, one
observation, rewards from round ends, and the game's seed.

The engine is the referee: masks, action ids and the moves they stand for come
from :class:`liverpool.GameState` (``legal_action_mask``, ``apply_id``; see
docs/action-space.md); nothing here decides a rule.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from liverpool._core import Event, GameState, RuleSet
from liverpool.errors import InvalidArgumentError

RewardMode = Literal["round", "ranking"]
IllegalMode = Literal["penalize", "raise"]

REWARD_MODES: tuple[str, ...] = ("round", "ranking")
ILLEGAL_MODES: tuple[str, ...] = ("penalize", "raise")

#: Game seeds are drawn below this bound (any u64 works; 2**63 keeps numpy simple).
SEED_BOUND = 2**63


def resolve_rules(rules: RuleSet | str | None) -> RuleSet:
    """A rule set from a ``RuleSet``, a preset name or file (``RuleSet.load``), or ``None`` (liverpool)."""
    if rules is None:
        return RuleSet()
    if isinstance(rules, RuleSet):
        return rules
    return RuleSet.load(rules)


def check_choice(name: str, value: str, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InvalidArgumentError(
            f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}", "invalid_argument"
        )


def new_state(rules: RuleSet, players: int, seed: int) -> GameState:
    return GameState(seed=seed, players=players, rules=rules)


def observation_space(state: GameState) -> spaces.Dict:
    """``{"observation": float32 (obs_size,), "action_mask": int8 (action_space_size,)}``.

    Every field of the observation tensor counts cards, seats or rounds, or is a
    0/1 flag, so none exceeds the number of cards in play: the box's bound."""
    size = state.observation_tensor(0).shape[0]
    high = float(max(state.rules.deck_size(state.players), state.rules.rounds))
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0.0, high=high, shape=(size,), dtype=np.float32),
            "action_mask": spaces.MultiBinary(state.action_space_size),  # int8 0/1
        }
    )


def observe(state: GameState, seat: int) -> dict[str, npt.NDArray[Any]]:
    """The seat's observation tensor and its mask (all zeros when the seat has no decision)."""
    return {
        "observation": state.observation_tensor(seat).astype(np.float32, copy=False),
        "action_mask": state.legal_action_mask(seat).astype(np.int8),
    }


def round_rewards(event: Event, players: int) -> list[float]:
    """Minus each seat's round score (L-10.1, L-10.2) when ``event`` ended a round, else zeros."""
    end = event.round_end
    if end is None:
        return [0.0] * players
    return [-float(score) for score in end["scores"]]


def ranking_rewards(totals: list[int]) -> list[float]:
    """End-of-game rewards from the final totals (L-10.3, lowest wins): for each seat,
    (seats with a higher total − seats with a lower total) / (players − 1), in
    [-1, 1], zero-sum; tied seats gain nothing against each other.

    >>> ranking_rewards([10, 50, 10, 90])
    [0.6666666666666666, -0.3333333333333333, 0.6666666666666666, -1.0]
    """
    n = len(totals)
    if n < 2:
        return [0.0] * n
    return [(sum(t > mine for t in totals) - sum(t < mine for t in totals)) / (n - 1) for mine in totals]
