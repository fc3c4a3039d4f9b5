"""Rule-conformance scenarios (``docs/conformance.md``) and the ``liverpool conformance`` command.

A scenario is a position, steps played from it, and what must be true after each
step. The engine runs them (``liverpool._core.run_scenario_file``); this module
only finds the files, and prints one line per scenario.

Run a scenario given as a dict (here: the worked example of RULES.md L-11):

>>> from liverpool.tools.scenarios import run_scenario
>>> report = run_scenario({
...     "id": "L-11-in-a-doctest",
...     "position": {
...         "round": 1, "dealer": 3, "active": 0, "phase": "draw",
...         "hands": [["7♠", "7♥", "9♠", "9♥", "9♦", "3♣", "4♣", "5♣", "8♦", "A♥"],
...                   ["A♠", "K♦", "4♥"], ["2♠"], ["3♠"]],
...         "stock": ["5♦", "6♦"],
...         "discard": ["2♣", "7♦"],
...     },
...     "steps": [
...         {"seat": 0, "do": "take_discard"},
...         {"seat": 0, "do": "go_down", "melds": [["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]],
...          "check": {"hand_sizes": [5, 3, 1, 1]}},
...         {"seat": 0, "do": "lay_off", "meld": 0, "cards": ["3♣"],
...          "expect": {"error": "same_turn_as_go_down"}},
...         {"seat": 0, "do": "discard", "card": "8♦", "check": {"hand_sizes": [4, 3, 1, 1]}},
...     ],
... })
>>> report.line
'PASS L-11-in-a-doctest'

A wrong expectation fails with the step and what differed:

>>> bad = run_scenario({"id": "wrong", "position": {"hands": [["7♠"], [], [], []], "discard": ["2♣"]},
...                     "steps": [{"seat": 0, "do": "take_discard", "check": {"hand_sizes": [1, 0, 0, 0]}}]})
>>> bad.line
'FAIL wrong: step 1: hand_sizes: expected [1, 0, 0, 0], got [2, 0, 0, 0]'
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from liverpool._core import RuleSet, ScenarioReport, run_scenario_file, run_scenario_text
from liverpool.tools.options import load_rules
from liverpool.errors import LiverpoolError

__all__ = ["ScenarioReport", "add_arguments", "run", "run_scenario", "run_scenarios", "scenario_files"]

StrPath = str | os.PathLike[str]


def scenario_files(path: StrPath) -> list[Path]:
    """The scenario files under ``path``: a folder's ``*.json`` files, recursively,
    in sorted order; a file (or a path that does not exist) as itself, so that the
    runner reports it."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob("*.json") if f.is_file())
    return [p]


def run_scenario(scenario: str | Mapping[str, Any], rules: RuleSet | None = None) -> ScenarioReport:
    """Run one scenario given as JSON text or as a dict.

    ``rules`` plays a scenario that carries no ``"rule_set"`` of its own under that
    rule set instead of its position's ``profile`` (what ``--rules`` does).
    """
    text = scenario if isinstance(scenario, str) else json.dumps(scenario, ensure_ascii=False)
    return run_scenario_text(text, rules)


def run_scenarios(paths: StrPath | Iterable[StrPath], rules: RuleSet | None = None) -> list[ScenarioReport]:
    """Run every scenario of the given files and folders; one report per file.

    An unreadable or invalid file is a failed report, never an exception. A folder
    with no ``*.json`` file gives one failed report, so that a mistyped folder is
    not a silent success. ``rules`` as for :func:`run_scenario`.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    reports: list[ScenarioReport] = []
    for path in paths:
        files = scenario_files(path)
        if not files:
            reports.append(ScenarioReport(str(path), f"no *.json scenario files in {path}", path))
        reports.extend(run_scenario_file(f, rules) for f in files)
    return reports


# --- the `liverpool conformance` command ---------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="scenario files, or folders searched recursively for *.json",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    parser.add_argument(
        "--rules",
        default=None,
        metavar="NAME|FILE",
        help=(
            "a preset or rule set file for the scenarios without a \"rule_set\" of their own "
            "(instead of their position's profile); a scenario's own rule_set always wins"
        ),
    )


def run(args: argparse.Namespace) -> int:
    """Print ``PASS id`` / ``FAIL id: …`` lines and ``N passed, M failed``; exit 1 on any failure.

    A ``--rules`` that is neither a preset nor a readable rule set is reported on
    stderr with exit status 2, before any scenario runs.
    """
    rules = None
    if args.rules is not None:
        try:
            rules = load_rules(args.rules)
        except LiverpoolError as exc:
            print(f"liverpool conformance: error: {exc} [{exc.code}]", file=sys.stderr)
            return 2
    reports = run_scenarios(args.paths, rules)
    passed = sum(r.passed for r in reports)
    failed = len(reports) - passed
    for r in reports:
        if not (args.quiet and r.passed):
            print(r.line)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
