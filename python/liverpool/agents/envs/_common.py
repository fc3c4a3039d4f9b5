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

from liverpool._core import Event, GameState, RuleSet, action_layout, action_names
from liverpool.errors import IllegalMoveError, InvalidArgumentError, LiverpoolError

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


def action_arg(action: object, size: int) -> int:
    """An action id given to ``step``: a Python or numpy integer (or a 0-d or
    one-element integer array, what ``policy.predict`` returns for one observation)
    in ``0..size-1``. A float (``0.7``, ``inf``), a string, bytes or a bool is not an
    id (``InvalidArgumentError``, code ``invalid_argument``), and an integer outside
    the action space names no move in any state (code ``invalid_action_id``): both
    are a caller's mistake, raised in every ``illegal_action`` mode, never an
    illegal move to penalize."""
    if isinstance(action, np.ndarray) and action.size == 1 and action.ndim <= 1:
        action = action.reshape(())[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise InvalidArgumentError(
            f"an action is an integer id of the action space, not {action!r}", "invalid_argument"
        )
    action_id = int(action)
    if not 0 <= action_id < size:
        raise InvalidArgumentError(
            f"action id {action_id} is outside the action space (0..{size - 1})", "invalid_action_id"
        )
    return action_id


def actions_arg(actions: object, num_envs: int, size: int) -> npt.NDArray[np.int64]:
    """The actions of a vector step: one integer id per game, shape ``(num_envs,)``
    (a list or an array of any integer dtype), each in ``0..size-1``. Anything else
    (floats, bools, strings, objects, ragged lists, another shape) is refused with
    ``InvalidArgumentError`` (``invalid_argument``; an id outside the space:
    ``invalid_action_id``) before any game moves. Returns a new int64 array."""
    try:
        array = np.asarray(actions)
    except (ValueError, TypeError) as exc:  # ragged lists, objects numpy cannot hold
        raise InvalidArgumentError(f"actions must be {num_envs} integer ids: {exc}", "invalid_argument") from exc
    if array.dtype.kind not in "iu" or array.shape != (num_envs,):
        raise InvalidArgumentError(
            f"actions must be an integer array of shape ({num_envs},), not {array.dtype} {array.shape}",
            "invalid_argument",
        )
    if array.size and (array.min() < 0 or array.max() >= size):
        bad = int(array[(array < 0) | (array >= size)][0])
        raise InvalidArgumentError(
            f"action id {bad} is outside the action space (0..{size - 1})", "invalid_action_id"
        )
    return array.astype(np.int64)


def check_seed(seed: object) -> int | None:
    """A reset seed: ``None`` or a non-negative Python or numpy integer below 2**64
    (not a bool, a float or a string: ``InvalidArgumentError``)."""
    return None if seed is None else check_int("seed", seed, 0, 2**64 - 1)


def closed_error() -> LiverpoolError:
    """What ``reset`` and ``step`` raise after ``close()`` (code ``env_closed``)."""
    return LiverpoolError("the environment is closed: make a new one", "env_closed")


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


#: Observation blocks that are one-hot codes or 0/1 flags (docs/action-space.md).
FLAG_BLOCKS = ("discard_top", "down", "active", "to_act", "phase", "flags", "round", "selecting")
#: Observation blocks of 53 entries that count copies of one card id.
CARD_COUNT_BLOCKS = ("hand", "discard_pile", "table", "selected", "selected_meld")


def observation_high(rules: RuleSet, players: int) -> npt.NDArray[np.float32]:
    """The largest value of every observation entry for ``rules`` and ``players``
    (the lowest is 0 everywhere): 1 for flags and one-hot blocks; for a card-count
    block, how many copies of that card the deck holds (2 of each natural with two
    decks, all the jokers for the joker entry); the deck size for hand sizes and the
    stock. Divide an observation by it to bring every entry into ``[0, 1]``.

    >>> from liverpool import RuleSet
    >>> high = observation_high(RuleSet("liverpool"), 4)
    >>> float(high[0]), float(high[52]), float(high.max())
    (2.0, 3.0, 107.0)
    """
    state = new_state(rules, players, 0)
    deck = state.stock  # before the cut the stock is the whole deck
    copies = np.bincount([card.id for card in deck], minlength=53).astype(np.float32)
    layout = state.observation_layout()
    high = np.full(state.observation_tensor(0).shape[0], float(len(deck)), dtype=np.float32)
    for name, block in layout.items():
        if name in FLAG_BLOCKS:
            high[block] = 1.0
        elif name in CARD_COUNT_BLOCKS:
            high[block] = copies
    return high


def observation_space(state: GameState) -> spaces.Dict:
    """``{"observation": float32 (obs_size,), "action_mask": int8 (action_space_size,)}``.

    Every field of the observation tensor counts cards, seats or rounds, or is a
    0/1 flag; the box's ``high`` is each entry's own bound (:func:`observation_high`)."""
    high = observation_high(state.rules, state.players)
    return spaces.Dict(
        {
            "observation": spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32),
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


#: Characters per line of an ``rgb_array`` frame; longer lines wrap.
FRAME_COLUMNS = 96


def frame_rows(rules: RuleSet, players: int) -> int:
    """Lines of an ``rgb_array`` frame: the information state's ten or so fixed
    lines, one per table meld the round can hold, and the discard pile (the whole
    deck at most, about four characters a card) wrapped at :data:`FRAME_COLUMNS`."""
    calls = action_layout(rules, players)["call_liverpool"]  # three ids per table meld slot
    slots = (int(calls.stop) - int(calls.start)) // 3
    pile_lines = -(-rules.deck_size(players) * 4 // FRAME_COLUMNS)
    return 12 + slots + pile_lines


def wrap_lines(text: str, columns: int) -> list[str]:
    """``text``'s lines, each longer one cut into pieces of ``columns`` characters."""
    lines: list[str] = []
    for line in text.splitlines() or [""]:
        lines.extend(line[k : k + columns] for k in range(0, max(len(line), 1), columns))
    return lines


def render_rgb(text: str, rows: int) -> npt.NDArray[np.uint8]:
    """``text`` drawn in black on white as an RGB array ``(height, width, 3)`` uint8
    (Pillow's built-in font: no font files needed). What ``render_mode="rgb_array"``
    returns: the same information as ``"ansi"``, as a frame for video recorders.

    Every frame of an environment has the same size (``rows`` lines of
    :data:`FRAME_COLUMNS` characters, even sides for video encoders), as video
    recorders and SB3's tiling of several environments' frames need: long lines
    wrap, and lines beyond ``rows`` (never, with :func:`frame_rows`) are cut."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    for symbol, letter in {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.items():
        text = text.replace(symbol, letter)  # the built-in font has no suit glyphs
    lines = wrap_lines(text, FRAME_COLUMNS)[:rows]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    left, top, right, bottom = probe.textbbox((0, 0), "M" * FRAME_COLUMNS + "g", font=font)
    line_height = int(bottom - top) + 4
    width = int(right - left) + 16
    width += width % 2
    height = line_height * rows + 16
    height += height % 2
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for k, line in enumerate(lines):
        draw.text((8, 8 + k * line_height), line, fill="black", font=font)
    return np.asarray(image, dtype=np.uint8).copy()
