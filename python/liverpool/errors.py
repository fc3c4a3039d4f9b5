"""The exceptions the engine raises.

Every error carries a stable machine-readable ``code`` (the codes of
``CONFORMANCE.md`` plus a few for malformed input) and, when a rule forbids the
action, the RULES.md ``rule`` id. The message is one sentence that cites it.

Hierarchy::

    LiverpoolError
    ├── InvalidCardError      (also ValueError)  malformed_card, too_many_copies, no_jokers_in_profile
    ├── InvalidRulesError     (also ValueError)  invalid_rules, invalid_round
    ├── InvalidArgumentError  (also ValueError)  invalid_argument, batch_too_large
    ├── PositionError         (also ValueError)  bad_position, bad_scenario
    └── IllegalMoveError                         every refusal of a move or meld by a rule

>>> from liverpool import Card
>>> try:
...     Card("11♠")
... except InvalidCardError as e:
...     e.code
'malformed_card'
"""

from __future__ import annotations

__all__ = [
    "LiverpoolError",
    "InvalidCardError",
    "InvalidRulesError",
    "InvalidArgumentError",
    "PositionError",
    "IllegalMoveError",
    "exception_class_for",
]


class LiverpoolError(Exception):
    """Base class of every engine error."""

    code: str
    rule: str | None

    def __init__(self, message: str, code: str = "invalid_argument", rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.rule = rule

    def __reduce__(self) -> tuple[type, tuple[str, str, str | None]]:
        return (type(self), (self.message, self.code, self.rule))


class InvalidCardError(LiverpoolError, ValueError):
    """A card string or id that is not a card, or more copies than the deck holds."""


class InvalidRulesError(LiverpoolError, ValueError):
    """An inconsistent rule set, or a round the rule set does not have."""


class InvalidArgumentError(LiverpoolError, ValueError):
    """An argument out of range or malformed (including a batch too large to allocate)."""


class PositionError(LiverpoolError, ValueError):
    """A position or scenario that is inconsistent or not valid JSON of its format."""


class IllegalMoveError(LiverpoolError):
    """A move or meld refused by a rule; ``rule`` names it. The state is unchanged."""


_BY_CODE: dict[str, type[LiverpoolError]] = {
    "malformed_card": InvalidCardError,
    "too_many_copies": InvalidCardError,
    "no_jokers_in_profile": InvalidCardError,
    "invalid_rules": InvalidRulesError,
    "invalid_round": InvalidRulesError,
    "invalid_argument": InvalidArgumentError,
    "batch_too_large": InvalidArgumentError,
    "bad_position": PositionError,
    "bad_scenario": PositionError,
}


def exception_class_for(code: str) -> type[LiverpoolError]:
    """The exception class the engine raises for ``code`` (used by the binding)."""
    return _BY_CODE.get(code, IllegalMoveError)
