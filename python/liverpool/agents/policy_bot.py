"""A learned policy as a bot: a saved MLP played with numpy alone.

``examples/train_maskable_ppo.py`` trains sb3-contrib's MaskablePPO and exports its
policy to a ``.npz`` file of plain arrays (no pickled objects): the hidden layers
and the action net of the policy MLP, the frozen observation normalisation, and
what it was trained for (the rule set, the number of players, the observation and
action sizes). This module loads such a file, checks it, and plays it:

- :func:`load_policy` reads and checks a file; every problem is a
  :class:`~liverpool.errors.PolicyFileError` with a stable code
  (``policy_not_found``, ``policy_too_large``, ``bad_policy``, ``policy_mismatch``),
  never a bare numpy or zip error.
- :class:`Policy` scores the action ids of an observation (``logits``) and picks
  the best one the mask allows (``choose_id``): the deterministic policy of the
  trained model.
- :class:`PolicyBot` plays it under the :class:`liverpool.agents.bots.Bot` protocol: for
  the seat to act it scores the ids of the move id by id on its own copy of the
  state (a go-down takes several ids, docs/action-space.md) and returns the move
  they make; the driver applies it and the engine referees it. The policy only
  ever chooses among the ids the engine's mask offers.
- ``liverpool tournament greedy expert random policy:PATH.npz`` plays a saved
  policy as an entry (:func:`policy_bot_class`).

The policy trained for docs/agents.md is in the repository:

>>> from pathlib import Path
>>> from liverpool.agents.bots import play_game
>>> root = Path(__file__).resolve().parents[3]
>>> bot = PolicyBot(root / "examples/policies/maskable_ppo_liverpool_4p.npz")
>>> bot.policy.rules.name, bot.policy.players, bot.policy.action_size
('liverpool', 4, 1590)
>>> play_game([bot, "greedy", "greedy", "expert"], seed=3).is_game_over
True
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liverpool._core import Action, GameState, RuleSet, action_space_size
from liverpool.errors import InvalidArgumentError, LiverpoolError, PolicyFileError

__all__ = [
    "POLICY_FORMAT",
    "MAX_POLICY_BYTES",
    "POLICY_PREFIX",
    "Policy",
    "PolicyBot",
    "load_policy",
    "policy_bot_class",
]

#: The format tag the training example writes (``examples/train_maskable_ppo.py``).
POLICY_FORMAT = "liverpool-maskable-ppo-mlp/1"

#: The largest policy accepted, in bytes, both on disk and unpacked (a small archive
#: may unpack to gigabytes). The committed policy is about 1 MB.
MAX_POLICY_BYTES = 64 * 2**20

#: More hidden layers than any exported MLP has: a file claiming more is not one.
MAX_HIDDEN_LAYERS = 16

#: A tournament entry ``policy:PATH`` is the saved policy at ``PATH``.
POLICY_PREFIX = "policy:"

#: Ids of one move at most (a go-down of the longest contract takes a few dozen): a
#: policy that never completes its move is stopped instead of looping.
MAX_IDS_PER_MOVE = 512

_SCALARS = ("obs_size", "action_size", "players", "agent_seat", "hidden_layers")
_TEXTS = ("format", "activation", "rules_name", "rules_json")
_VECTORS = ("obs_mean", "obs_var")
_FLOATS = ("clip_obs", "obs_epsilon")

Array = npt.NDArray[np.float32]


def _bad(path: str, field: str, found: object, expected: object) -> PolicyFileError:
    return PolicyFileError.make("bad_policy", "policy.bad_field", path=path, field=field, found=found, expected=expected)


@dataclass(frozen=True, eq=False)
class Policy:
    """A saved MLP policy, checked (see :func:`load_policy`).

    ``hidden``: ``(weight (out, in), bias (out,))`` per hidden layer, tanh after
    each; ``action_weight`` / ``action_bias``: the logits of the ids.
    Observations are normalised as in training: ``clip((obs - obs_mean) * obs_scale,
    -clip_obs, clip_obs)``."""

    path: str
    rules: RuleSet
    players: int
    agent_seat: int
    obs_size: int
    action_size: int
    obs_mean: Array
    obs_scale: Array
    clip_obs: float
    hidden: tuple[tuple[Array, Array], ...]
    action_weight: Array
    action_bias: Array

    def logits(self, observations: npt.ArrayLike) -> Array:
        """The scores of every id, ``(action_size,)`` for one observation or ``(n,
        action_size)`` for a batch ``(n, obs_size)``."""
        obs = np.asarray(observations, dtype=np.float32)
        if obs.shape[-1:] != (self.obs_size,) or obs.ndim > 2:
            raise InvalidArgumentError(
                f"an observation of this policy has {self.obs_size} features, not shape {obs.shape}", "invalid_argument"
            )
        x = np.clip((obs - self.obs_mean) * self.obs_scale, -self.clip_obs, self.clip_obs)
        for weight, bias in self.hidden:
            x = np.tanh(x @ weight.T + bias)
        logits: Array = x @ self.action_weight.T + self.action_bias
        return logits

    def choose_id(self, observation: npt.ArrayLike, mask: npt.ArrayLike) -> int:
        """The highest-scoring id among those ``mask`` allows (its first on a tie)."""
        legal = np.asarray(mask)
        if legal.shape != (self.action_size,):
            raise InvalidArgumentError(
                f"a mask of this policy has {self.action_size} ids, not shape {legal.shape}", "invalid_argument"
            )
        legal = legal.astype(bool)
        if not legal.any():
            raise InvalidArgumentError("the mask allows no id: this seat has no decision to make", "invalid_argument")
        scores = np.where(legal, self.logits(observation), -np.inf)
        return int(np.argmax(scores))

    def check_table(self, rules: RuleSet | None, players: int) -> None:
        """Refuse (``policy_mismatch``) a table this policy was not trained for: another
        rule set, another number of players, or another action space."""
        rules = RuleSet() if rules is None else rules
        if rules.to_json() != self.rules.to_json():
            raise PolicyFileError.make(
                "policy_mismatch", "policy.mismatch_rules", path=self.path, found=self.rules.name, expected=rules.name
            )
        if players != self.players:
            raise PolicyFileError.make(
                "policy_mismatch", "policy.mismatch_players", path=self.path, found=self.players, count=players
            )
        size = action_space_size(rules, players)
        if size != self.action_size:
            raise PolicyFileError.make(
                "policy_mismatch", "policy.mismatch_actions", path=self.path, found=self.action_size, expected=size
            )
        probe = GameState(seed=0, players=players, rules=rules).observation_tensor(0).shape[0]
        if probe != self.obs_size:
            raise PolicyFileError.make(
                "policy_mismatch", "policy.mismatch_observation", path=self.path, found=self.obs_size, expected=probe
            )


def _read_arrays(path: str) -> dict[str, npt.NDArray[Any]]:
    """Every array of the archive, refusing what is not plain data before reading it."""
    if not os.path.isfile(path):
        raise PolicyFileError.make("policy_not_found", "policy.not_found", path=path)
    size = os.path.getsize(path)
    if size > MAX_POLICY_BYTES:
        raise PolicyFileError.make("policy_too_large", "policy.too_large", path=path, size=size, limit=MAX_POLICY_BYTES)
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise PolicyFileError.make("bad_policy", "policy.unreadable", path=path, detail=type(exc).__name__) from None
    if unpacked > MAX_POLICY_BYTES:
        raise PolicyFileError.make(
            "policy_too_large", "policy.too_large", path=path, size=unpacked, limit=MAX_POLICY_BYTES
        )
    arrays: dict[str, npt.NDArray[Any]] = {}
    try:
        with np.load(path, allow_pickle=False) as archive:
            for name in archive.files:
                value = archive[name]
                # A member that is not a .npy file comes back as raw bytes.
                if not isinstance(value, np.ndarray):
                    raise PolicyFileError.make(
                        "bad_policy", "policy.unreadable", path=path, detail=f"{name} is not an array"
                    )
                arrays[name] = value
    except ValueError as exc:
        # numpy's refusal of an object array (allow_pickle=False) is a ValueError
        # naming pickles; anything else here is a damaged array.
        if "pickle" in str(exc).lower():
            raise PolicyFileError.make("bad_policy", "policy.pickled", path=path) from None
        raise PolicyFileError.make("bad_policy", "policy.unreadable", path=path, detail=type(exc).__name__) from None
    except PolicyFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - zlib, zip and format errors of a damaged archive
        raise PolicyFileError.make("bad_policy", "policy.unreadable", path=path, detail=type(exc).__name__) from None
    return arrays


def _field(path: str, arrays: Mapping[str, npt.NDArray[Any]], name: str) -> npt.NDArray[Any]:
    if name not in arrays:
        raise PolicyFileError.make("bad_policy", "policy.missing_field", path=path, field=name)
    return arrays[name]


def _scalar_int(path: str, arrays: Mapping[str, npt.NDArray[Any]], name: str, low: int, high: int) -> int:
    value = _field(path, arrays, name)
    if value.shape != () or value.dtype.kind not in "iu":
        raise _bad(path, name, f"{value.dtype} {value.shape}", "int ()")
    number = int(value)
    if not low <= number <= high:
        raise _bad(path, name, number, f"{low}..{high}")
    return number


def _text(path: str, arrays: Mapping[str, npt.NDArray[Any]], name: str) -> str:
    value = _field(path, arrays, name)
    if value.shape != () or value.dtype.kind != "U":
        raise _bad(path, name, f"{value.dtype} {value.shape}", "str ()")
    return str(value)


def _matrix(path: str, arrays: Mapping[str, npt.NDArray[Any]], name: str, shape: tuple[int, ...]) -> Array:
    value = _field(path, arrays, name)
    if value.shape != shape or value.dtype.kind != "f":
        raise _bad(path, name, f"{value.dtype} {value.shape}", f"float {shape}")
    if not np.isfinite(value).all():
        raise _bad(path, name, "not finite", "finite numbers")
    return np.array(value, dtype=np.float32, order="C")


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """The policy saved at ``path`` by ``examples/train_maskable_ppo.py``, checked
    field by field. Refusals (:class:`~liverpool.errors.PolicyFileError`):

    - ``policy_not_found``: no file there;
    - ``policy_too_large``: more than :data:`MAX_POLICY_BYTES` on disk or unpacked;
    - ``bad_policy``: not a numpy ``.npz`` archive, damaged, holding pickled objects
      (never loaded: ``allow_pickle=False``), of another format, or with a field
      missing, of the wrong shape or type, or not finite;
    - ``policy_mismatch`` comes later, from :meth:`Policy.check_table`.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidArgumentError(f"a policy path is a str or a path, not {type(path).__name__}", "invalid_argument")
    text_path = os.fspath(path)
    arrays = _read_arrays(text_path)
    found_format = _text(text_path, arrays, "format")
    if found_format != POLICY_FORMAT:
        raise PolicyFileError.make(
            "bad_policy", "policy.format", path=text_path, found=found_format, expected=POLICY_FORMAT
        )
    activation = _text(text_path, arrays, "activation")
    if activation != "tanh":
        raise _bad(text_path, "activation", activation, "tanh")
    obs_size = _scalar_int(text_path, arrays, "obs_size", 1, 1_000_000)
    action_size = _scalar_int(text_path, arrays, "action_size", 1, 1_000_000)
    players = _scalar_int(text_path, arrays, "players", 1, 64)
    agent_seat = _scalar_int(text_path, arrays, "agent_seat", 0, players - 1)
    layers = _scalar_int(text_path, arrays, "hidden_layers", 0, MAX_HIDDEN_LAYERS)
    rules_json = _text(text_path, arrays, "rules_json")
    try:
        rules = RuleSet.from_json(rules_json)
    except LiverpoolError as exc:
        raise _bad(text_path, "rules_json", exc.code, "a rule set") from None
    obs_mean = _matrix(text_path, arrays, "obs_mean", (obs_size,))
    obs_var = _matrix(text_path, arrays, "obs_var", (obs_size,))
    epsilon = float(_matrix(text_path, arrays, "obs_epsilon", ()))
    clip_obs = float(_matrix(text_path, arrays, "clip_obs", ()))
    if (obs_var < 0).any() or epsilon <= 0:
        raise _bad(text_path, "obs_var", "negative", "variances ≥ 0 and epsilon > 0")
    if clip_obs <= 0:
        raise _bad(text_path, "clip_obs", clip_obs, "> 0")
    hidden = []
    width = obs_size
    for index in range(layers):
        weight = _field(text_path, arrays, f"hidden_{index}_weight")
        out = weight.shape[0] if weight.ndim == 2 else -1
        if out < 1:
            raise _bad(text_path, f"hidden_{index}_weight", f"{weight.dtype} {weight.shape}", f"float (n, {width})")
        hidden.append(
            (
                _matrix(text_path, arrays, f"hidden_{index}_weight", (out, width)),
                _matrix(text_path, arrays, f"hidden_{index}_bias", (out,)),
            )
        )
        width = out
    return Policy(
        path=text_path,
        rules=rules,
        players=players,
        agent_seat=agent_seat,
        obs_size=obs_size,
        action_size=action_size,
        obs_mean=obs_mean,
        obs_scale=(1.0 / np.sqrt(obs_var + epsilon)).astype(np.float32),
        clip_obs=clip_obs,
        hidden=tuple(hidden),
        action_weight=_matrix(text_path, arrays, "action_weight", (action_size, width)),
        action_bias=_matrix(text_path, arrays, "action_bias", (action_size,)),
    )


class PolicyBot:
    """A saved policy playing any seat (the :class:`liverpool.agents.bots.Bot` protocol).

    ``PolicyBot(policy_or_path, seed=None)``: a :class:`Policy` or the path of a
    saved one. The policy is deterministic, so ``seed`` changes nothing; it is
    accepted because tournaments build every bot with its seat's seed.

    ``choose(state, seat)`` reads the seat's observation and mask on a copy of
    ``state``, takes the best legal id, applies it to the copy, and repeats until
    the move is complete (a go-down or a joker swap is several ids); it returns
    that move. A game of another rule set or size is refused with
    ``policy_mismatch``."""

    def __init__(self, policy: Policy | str | os.PathLike[str], seed: int | None = None) -> None:
        self.policy = policy if isinstance(policy, Policy) else load_policy(policy)
        self.seed = seed
        self._checked: tuple[str, int] | None = None

    def _check(self, state: GameState) -> None:
        key = (state.rules.to_json(), state.players)
        if key != self._checked:
            self.policy.check_table(state.rules, state.players)
            self._checked = key

    def choose(self, state: GameState, seat: int) -> Action:
        self._check(state)
        work = state.clone()
        ids: list[int] = []
        for _ in range(MAX_IDS_PER_MOVE):
            action_id = self.policy.choose_id(work.observation_tensor(seat), work.legal_action_mask(seat))
            ids.append(action_id)
            if work.apply_id(seat, action_id) is not None:
                return state.action_from_ids(ids)
        raise InvalidArgumentError(
            f"the policy chose {MAX_IDS_PER_MOVE} ids without completing a move", "invalid_argument"
        )


def policy_bot_class(path: str | os.PathLike[str]) -> type[PolicyBot]:
    """A :class:`PolicyBot` class bound to the policy at ``path`` (loaded and checked
    once), built as ``cls(seed=...)`` like every tournament bot: what the entry
    ``policy:PATH`` of ``liverpool tournament`` plays."""
    loaded = load_policy(path)

    class SavedPolicyBot(PolicyBot):
        policy_file = str(Path(loaded.path))

        def __init__(self, seed: int | None = None) -> None:
            super().__init__(loaded, seed=seed)

        @classmethod
        def check_table(cls, rules: RuleSet | None, players: int) -> None:
            loaded.check_table(rules, players)

    SavedPolicyBot.__qualname__ = SavedPolicyBot.__name__ = f"PolicyBot[{Path(loaded.path).name}]"
    return SavedPolicyBot
