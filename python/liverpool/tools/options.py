"""The command-line options the subcommands share (``--rules``, ``--ray``, ``--progress``)
and their helpers.

A subcommand's module (``liverpool.agents.tournament``, ``liverpool.teach.play``, ...)
imports these from here, not from :mod:`liverpool.tools.cli`, which imports the
subcommands: so no module imports one that imports it back (tests/test_layout_python.py).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from liverpool._core import RuleSet

__all__ = [
    "RULES_HELP",
    "add_rules_argument",
    "add_ray_argument",
    "add_progress_argument",
    "write_json",
    "load_rules",
]


RULES_HELP = (
    "rule set: a preset (liverpool, contract, liverpool-classic, shanghai, california, "
    "no-buy, double-progressive) or a rule set file, TOML or JSON (docs/rule-options.md)"
)


def add_rules_argument(parser: argparse.ArgumentParser, default: str = "liverpool") -> None:
    """The ``--rules NAME|FILE`` option every command that plays or searches takes."""
    parser.add_argument("--rules", default=default, metavar="NAME|FILE", help=f"{RULES_HELP} (default {default})")


def add_ray_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--ray [ADDRESS]``: ``None`` when absent, ``""`` for a new local Ray, else the address."""
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS", help=help_text)


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--progress/--no-progress``: a tqdm bar on stderr (``None``: when stderr is a terminal)."""
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )


def write_json(path: Path, data: object) -> None:
    """Write ``data`` as indented JSON to ``path`` (creating its folder) and say so."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def load_rules(spec: str) -> RuleSet:
    """The rule set ``--rules`` names: a preset, else a file (``RuleSet.load``).

    Raises :class:`~liverpool.InvalidRulesError` (unknown name, refused file, with
    the key and the reason) or :class:`~liverpool.InvalidArgumentError` (unreadable file).
    """
    from liverpool._core import RuleSet as _RuleSet

    return _RuleSet.load(spec)
