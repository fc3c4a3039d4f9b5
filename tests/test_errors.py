"""The error hierarchy and its stable codes (CONFORMANCE.md "Error codes")."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import liverpool
from liverpool import errors

# The project's copy of CONFORMANCE.md (tests/test_rules_doc.py keeps it equal to the original).
CONFORMANCE = Path(__file__).resolve().parents[1] / "docs" / "conformance.md"


def conformance_codes() -> set[str]:
    table = CONFORMANCE.read_text(encoding="utf-8").split("## Error codes", 1)[1]
    return set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE))


def test_every_conformance_code_is_known_to_the_engine() -> None:
    codes = conformance_codes()
    assert len(codes) >= 20
    assert codes <= set(liverpool.error_codes())


def test_each_code_maps_to_one_documented_class() -> None:
    for code, description in liverpool.error_codes().items():
        cls = errors.exception_class_for(code)
        assert issubclass(cls, errors.LiverpoolError) and description
        assert cls.__name__ in errors.__all__


def test_input_errors_are_value_errors_and_moves_are_not() -> None:
    assert issubclass(errors.InvalidCardError, ValueError)
    assert issubclass(errors.PositionError, ValueError)
    assert not issubclass(errors.IllegalMoveError, ValueError)
    assert errors.exception_class_for("adjacent_runs") is errors.IllegalMoveError
    assert errors.exception_class_for("malformed_card") is errors.InvalidCardError


def test_errors_carry_code_and_rule_and_pickle() -> None:
    with pytest.raises(errors.IllegalMoveError) as info:
        liverpool.check_go_down([["3♥", "4♥", "5♥", "6♥"], ["7♥", "8♥", "9♥", "10♥"]], 3)
    error = info.value
    assert (error.code, error.rule) == ("adjacent_runs", "L-4.4")
    assert "(L-4.4)" in str(error)
    clone = pickle.loads(pickle.dumps(error))
    assert (type(clone), clone.code, clone.rule, str(clone)) == (type(error), error.code, error.rule, str(error))
