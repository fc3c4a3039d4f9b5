"""The project carries its rules (docs/rules.md) and scenario format (docs/conformance.md).

They are copies of the shared texts the project was specified by; whenever those are
beside the checkout, the copies must be equal to them, so a user who only has the
project reads the same rules the engine implements.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
COPIES = {"rules.md": "RULES.md", "conformance.md": "CONFORMANCE.md"}


@pytest.mark.parametrize("copy, origin", COPIES.items())
def test_copy_equals_the_shared_text_when_present(copy: str, origin: str) -> None:
    if not (SHARED / origin).is_file():
        pytest.skip(f"no {SHARED / origin} beside this checkout")
    assert (REPO / "docs" / copy).read_text(encoding="utf-8") == (SHARED / origin).read_text(encoding="utf-8")


def test_rules_doc_has_every_rule_of_profile_l() -> None:
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^### (L-\d+)\b", text, flags=re.M))
    assert sections >= {f"L-{n}" for n in range(1, 12)}


def test_scenarios_cite_rule_ids_that_exist() -> None:
    """Every scenario file name starts with a rule id that docs/rules.md defines."""
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\b([LCW]-\d+(?:\.\d+)?)\b", text))
    for path in (REPO / "tests" / "scenarios").glob("*.json"):
        rule = re.match(r"([LCW]-\d+(?:\.\d+)?)", path.name)
        assert rule and rule.group(1) in ids, path.name
