"""What both environments share: the rule set and table size, the spaces, one
observation, rewards from round ends, and the game's seed.

The engine is the referee: masks, action ids and the moves they stand for come
from :class:`liverpool.GameState` (``legal_action_mask``, ``apply_id``; see
docs/action-space.md); nothing here decides a rule.
"""

from __future__ import annotations

import os
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from liverpool._core import Event, GameState, RuleSet, action_names
from liverpool.errors import IllegalMoveError, InvalidArgumentError

RewardMode = Literal["round", "ranking"]
IllegalMode = Literal["penalize", "raise"]

REWARD_MODES: tuple[str, ...] = ("round", "ranking")
ILLEGAL_MODES: tuple[str, ...] = ("penalize", "raise")

#: Game seeds are drawn below this bound (any u64 works; 2**63 keeps numpy simple).
SEED_BOUND = 2**63


RENDER_MODES: tuple[str, ...] = ("human", "ansi", "rgb_array")


def resolve_rules(rules: RuleSet | str | os.PathLike[str] | None) -> RuleSet:
    """A rule set from a ``RuleSet``, a preset name or file (``RuleSet.load``), or ``None`` (liverpool)."""
    if rules is None:
        return RuleSet()
    if isinstance(rules, RuleSet):
        return rules
    if not isinstance(rules, (str, os.PathLike)):
        raise InvalidArgumentError(
            f"rules must be a RuleSet, a preset name or a rule set file, not {type(rules).__name__}", "invalid_argument"
        )
    return RuleSet.load(rules)


def check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` as an ``int`` in ``low..high`` (inclusive): a Python or numpy integer,
    never a bool, a float or a string (``InvalidArgumentError``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidArgumentError(f"{name} must be an integer, not {value!r}", "invalid_argument")
    number = int(value)
    if number < low or (high is not None and number > high):
        limit = f"{low}.." + ("" if high is None else str(high))
        raise InvalidArgumentError(f"{name} must be in {limit}, not {number}", "invalid_argument")
    return number


def check_float(name: str, value: object) -> float:
    """A finite real number (``int`` or ``float``, numpy's included; not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidArgumentError(f"{name} must be a number, not {value!r}", "invalid_argument")
    number = float(value)
    if not np.isfinite(number):
        raise InvalidArgumentError(f"{name} must be finite, not {number}", "invalid_argument")
    return number


def action_arg(action: object) -> int:
    """An action id given to ``step``: a Python or numpy integer (or a 0-d integer
    array, what ``policy.predict`` returns). A float (``0.7``, ``inf``), a string, bytes
    or a bool is not an id: ``InvalidArgumentError`` in every ``illegal_action`` mode
    (a caller's mistake, not an illegal move). A negative integer is an illegal id."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise InvalidArgumentError(
            f"an action is an integer id of the action space, not {action!r}", "invalid_argument"
        )
    return int(action)


def game_over_error() -> IllegalMoveError:
    """What a step after the end of the game raises (Gymnasium: reset first)."""
    return IllegalMoveError("the game is over: call reset() before step()", "game_over", "L-10.3")


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


def names_of(rules: RuleSet, players: int) -> list[str]:
    """The name of every action id (``liverpool.action_names``), for ``info``."""
    return action_names(rules, players)


def legal_names(mask: npt.NDArray[Any], names: list[str]) -> list[str]:
    """The names of the legal ids of ``mask``, in id order."""
    return [names[i] for i in np.flatnonzero(mask)]


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


def render_rgb(text: str) -> npt.NDArray[np.uint8]:
    """``text`` drawn in black on white as an RGB array ``(height, width, 3)`` uint8
    (Pillow's built-in font: no font files needed). What ``render_mode="rgb_array"``
    returns: the same information as ``"ansi"``, as a frame for video recorders."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    for symbol, letter in {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.items():
        text = text.replace(symbol, letter)  # the built-in font has no suit glyphs
    lines = text.splitlines() or [""]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    boxes = [probe.textbbox((0, 0), line or " ", font=font) for line in lines]
    line_height = int(max(b[3] - b[1] for b in boxes)) + 4
    width = int(max(b[2] - b[0] for b in boxes)) + 16
    # Even sizes suit video encoders.
    width += width % 2
    height = line_height * len(lines) + 16
    height += height % 2
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for k, line in enumerate(lines):
        draw.text((8, 8 + k * line_height), line, fill="black", font=font)
    return np.asarray(image, dtype=np.uint8).copy()
