"""docs/rule-options.md: every rule set option with its value in every preset (issue 7 part 4).

The file is generated from the engine by ``scripts/build_rule_options.py``; this test
rebuilds it and compares, so a new option, a changed preset or a new preset shows up
as a failure until the file is regenerated.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from liverpool import RuleSet

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "build_rule_options.py"
DOC = ROOT / "docs" / "rule-options.md"


def _builder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_rule_options", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_is_what_the_engine_says() -> None:
    assert DOC.read_text(encoding="utf-8") == _builder().build(), "run python scripts/build_rule_options.py"


def test_every_option_and_every_preset_is_in_the_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| option |"))
    for name in RuleSet.presets():
        assert f"`{name}`" in header
    rows = {line.split("|")[1].strip().strip("`") for line in text.splitlines() if line.startswith("| `")}
    keys = [key for key, _, _ in RuleSet.options()]
    assert rows == set(keys)
    # The options are exactly the keys of a rule set's JSON (nothing undocumented).
    assert set(keys) == set(json.loads(RuleSet().to_json()))


def test_a_changed_value_would_show() -> None:
    # The builder reads the values from the presets: Shanghai's 8th contract is in it.
    assert "3S+1R*" in _builder().build()
    assert _builder().value_text("wild_rank", None) == "none"
