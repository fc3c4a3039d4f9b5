"""The exceptions the engine raises.

Every error carries a stable machine-readable ``code`` (the codes of
``CONFORMANCE.md`` plus a few for malformed input) and, when a rule forbids the
action, the RULES.md ``rule`` id. The message is one sentence that cites it, in
the language of :func:`liverpool.set_language`: the engine sends a message id
(``key``) and its values (``params``), and the sentence comes from the ``engine``
catalogue of that language (``i18n/catalogues/<lang>/engine.json``). ``code``,
``rule``, ``key`` and ``params`` never depend on the language.

The sentence is for people: a player's refusal shows its seats from 1 ("it is seat 1's
turn" for seat index 0, :func:`people_seats`) and a count picks its plural form
(``"one"``/``"other"``, CLDR through Babel). ``english`` keeps the engine's own sentence
for programmers and logs, with indices from 0. A learner is shown the sentence and the
rule id, never the code (:func:`liverpool.teach.narration.describe_refusal`).

Hierarchy::

    LiverpoolError
    ├── InvalidCardError      (also ValueError)  malformed_card, too_many_copies, no_jokers_in_profile
    ├── InvalidRulesError     (also ValueError)  invalid_rules
    ├── InvalidArgumentError  (also ValueError)  invalid_argument, invalid_round, batch_too_large,
    │                                            invalid_action_id
    ├── PositionError         (also ValueError)  bad_position, bad_scenario
    ├── PolicyFileError       (also ValueError)  policy_not_found, policy_too_large, bad_policy,
    │                                            policy_mismatch
    └── IllegalMoveError                         every refusal of a move or meld by a rule

>>> from liverpool import Card
>>> from liverpool.i18n import language
>>> try:
...     Card("11♠")
... except InvalidCardError as e:
...     error = e
>>> error.code, error.key, error.params
('malformed_card', 'card.malformed', {'text': '11♠'})
>>> with language("es"):
...     print(error)
'11♠' no es una carta: se espera un valor (A 2-10 J Q K, T para el 10) y un palo (♠♥♦♣ o S H D C), o JK para un comodín
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple, Union

# The catalogue layer, not liverpool.i18n: i18n raises these errors, so it imports this module.
from liverpool import _catalogues

__all__ = [
    "LiverpoolError",
    "InvalidCardError",
    "InvalidRulesError",
    "InvalidArgumentError",
    "PositionError",
    "PolicyFileError",
    "IllegalMoveError",
    "ConcurrentUseError",
    "exception_class_for",
    "Message",
    "people_seats",
]

#: The catalogue domain of the engine's sentences.
DOMAIN = "engine"

#: A parameter that is a plain decimal number, such as the "7.6" points of a hint.
_DECIMAL = re.compile(r"-?\d+\.\d+")


def _localized(value: str, lang: str) -> str:
    """``value`` with the decimal separator of ``lang`` (Portuguese and Spanish write 7,6)."""
    if lang != "en" and _DECIMAL.fullmatch(value):
        separator = _catalogues.catalogue(lang, "common").get("decimal_separator", ".")
        return value.replace(".", _catalogues.choose(separator, lang, {}))
    return value

#: A placeholder value: text (numbers, cards, names) or a nested message.
ParamValue = Union[str, "Message"]

#: The placeholders that hold a seat index in the messages a player reads: the
#: refusals of moves and the hints, by message family (the key up to its first dot).
#: People count seats from 1 (:func:`liverpool._catalogues.seat_number`), so these are shown
#: as index + 1. Messages about a program's arguments and positions (``arg.*``,
#: ``position.*``, ``replay.*``, ``sim.*``, ``seat.no_such_seat``, …) name the indices
#: a program passes, next to ranges such as "0..4", and keep them.
_PEOPLE_SEATS: dict[str, frozenset[str]] = {
    "buy": frozenset({"seat", "first"}),
    "call": frozenset({"seat", "first"}),
    "pass": frozenset({"seat", "first"}),
    "cut": frozenset({"seat", "cutter"}),
    "draw": frozenset({"asked", "active"}),
    "turn": frozenset({"seat", "active"}),
    "go_down": frozenset({"seat"}),
    "hand": frozenset({"seat"}),
    "hint": frozenset({"seat"}),
    "phase": frozenset({"seat"}),
    "round": frozenset({"seat"}),
    "swap": frozenset({"seat"}),
    "take": frozenset({"seat"}),
    "seat.not_down": frozenset({"seat"}),
}


def people_seats(key: str) -> frozenset[str]:
    """The placeholders of message ``key`` shown to people as seat numbers from 1."""
    return _PEOPLE_SEATS.get(key, _PEOPLE_SEATS.get(key.split(".", 1)[0], frozenset()))


class Message(NamedTuple):
    """A message id and its placeholder values: one sentence (or a phrase inside one)."""

    key: str
    params: dict[str, ParamValue]

    def render(self, lang: str | None = None, *, fallback: bool = True, for_people: bool = True) -> str | None:
        """The sentence in ``lang`` (default: the current language); ``None`` if the
        catalogue has no such message or its placeholders do not fit ``params``.
        With ``fallback`` a message missing from ``lang`` is taken from English.

        ``for_people`` (the default) is what a learner reads: seats counted from 1 and
        the plural form the count asks for. ``for_people=False`` is the engine's own
        wording for programmers: seat indices as sent and, of a plural template, its
        ``"other"`` form, the engine's template (in English, ``error.english``)."""
        lang = _catalogues.get_language() if lang is None else lang
        template = _catalogues.template(lang, DOMAIN, self.key, fallback=fallback)
        if template is None:
            return None
        seats = people_seats(self.key) if for_people else frozenset()
        values: dict[str, str] = {}
        for name, value in self.params.items():
            if isinstance(value, Message):
                text = value.render(lang, fallback=fallback, for_people=for_people)
                if text is None:
                    return None
                values[name] = text
            elif name in seats and value.isdigit():
                values[name] = str(_catalogues.seat_number(int(value)))
            else:
                values[name] = _localized(value, lang)
        if _catalogues.placeholders(template) != set(values):
            return None
        if not for_people and isinstance(template, dict):
            template = template["other"]
        try:
            return _catalogues.fill(template, lang, values)
        except (KeyError, IndexError, ValueError):
            return None


class LiverpoolError(Exception):
    """Base class of every engine error.

    ``english`` is the engine's own sentence (with the rule id, seats as indices from 0);
    ``message`` and ``str(error)`` are the sentence people read, in the current language
    (seats from 1, counts in their plural form). An error made in
    Python without a ``key`` keeps its English text in every language.
    """

    code: str
    rule: str | None
    key: str | None
    params: dict[str, ParamValue]
    english: str

    def __init__(
        self,
        message: str,
        code: str = "invalid_argument",
        rule: str | None = None,
        key: str | None = None,
        params: dict[str, ParamValue] | None = None,
    ) -> None:
        super().__init__(message)
        self.english = message
        self.code = code
        self.rule = rule
        self.key = key
        self.params = dict(params or {})

    @property
    def message(self) -> str:
        """The sentence in the current language, citing the rule id."""
        if self.key is None:
            return self.english
        text = Message(self.key, self.params).render()
        if text is None:
            return self.english
        return f"{text} ({self.rule})" if self.rule else text

    def __str__(self) -> str:
        return self.message

    def __reduce__(
        self,
    ) -> tuple[type, tuple[str, str, str | None, str | None, dict[str, ParamValue]]]:
        return (type(self), (self.english, self.code, self.rule, self.key, self.params))


class InvalidCardError(LiverpoolError, ValueError):
    """A card string or id that is not a card, or more copies than the deck holds."""


class InvalidRulesError(LiverpoolError, ValueError):
    """An inconsistent rule set (``invalid_rules``): the message names the key and
    why, e.g. ``contracts[2].melds[0].min: ...``; an unknown preset name too."""


class InvalidArgumentError(LiverpoolError, ValueError):
    """An argument out of range or malformed (including a batch too large to allocate,
    and ``invalid_round``: a round the rule set does not have, such as ``round=8``
    in a 7-round profile)."""


class PositionError(LiverpoolError, ValueError):
    """A position or scenario that is inconsistent or not valid JSON of its format."""


def _bots_sentence(key: str, lang: str, values: Mapping[str, ParamValue]) -> str:
    """A sentence of the ``bots`` catalogue (English where ``lang`` lacks it); errors
    reads the catalogues directly, as ``i18n`` imports errors (docs/architecture.md)."""
    template = _catalogues.template(lang, "bots", key)
    if template is None:
        raise KeyError(key)  # a key of this module's own, missing from the English catalogue
    return _catalogues.fill(template, lang, values)


class PolicyFileError(LiverpoolError, ValueError):
    """A saved policy that cannot be played (``liverpool.agents.policy_bot.load_policy``):
    ``policy_not_found``, ``policy_too_large``, ``bad_policy`` (not an ``.npz`` of
    plain arrays in the policy format: damaged, pickled, a field missing or of the
    wrong shape) or ``policy_mismatch`` (trained for another rule set, number of
    players or action space). The sentence comes from the ``bots`` catalogue
    (``policy.*``), in the current language."""

    @classmethod
    def make(cls, code: str, key: str, **params: object) -> PolicyFileError:
        values: dict[str, ParamValue] = {name: str(value) for name, value in params.items()}
        return cls(_bots_sentence(key, _catalogues.DEFAULT, values), code, None, key, values)

    @property
    def message(self) -> str:
        if self.key is None:
            return self.english
        return _bots_sentence(self.key, _catalogues.get_language(), dict(self.params))


class ConcurrentUseError(LiverpoolError, RuntimeError):
    """``busy``: the object is in use by another thread (a second ``NativeBot.choose``
    on the same bot while one runs). Nothing changed; retry, or give each thread its
    own bot. See docs/guarantees.md."""


class IllegalMoveError(LiverpoolError):
    """A move or meld refused by a rule; ``rule`` names it. The state is unchanged."""


_BY_CODE: dict[str, type[LiverpoolError]] = {
    "malformed_card": InvalidCardError,
    "too_many_copies": InvalidCardError,
    "no_jokers_in_profile": InvalidCardError,
    "invalid_rules": InvalidRulesError,
    # A round the rule set does not have (round=8 in a 7-round profile) is a wrong
    # argument, not a wrong rule set: the code stays invalid_round.
    "invalid_round": InvalidArgumentError,
    "invalid_argument": InvalidArgumentError,
    "batch_too_large": InvalidArgumentError,
    # An action id (docs/action-space.md) outside the space or naming no move now: the
    # id is a wrong argument; a move a rule refuses keeps its own code.
    "invalid_action_id": InvalidArgumentError,
    "bad_position": PositionError,
    "bad_scenario": PositionError,
    "busy": ConcurrentUseError,
}


def exception_class_for(code: str) -> type[LiverpoolError]:
    """The exception class the engine raises for ``code`` (used by the binding)."""
    return _BY_CODE.get(code, IllegalMoveError)
