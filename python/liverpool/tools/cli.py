"""The ``liverpool`` command line.

Each subcommand lives in its own module, which provides ``add_arguments(parser)``
and ``run(args) -> int``; modules are imported only when their command runs, so
``liverpool --help`` stays fast and optional dependencies stay optional.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from liverpool._core import RuleSet

# command name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("liverpool.tools.demo", "a short tour of the API on the worked example of RULES.md L-11"),
    "bench": ("liverpool.tools.bench", "benchmark the engine against baselines measured in the same run"),
    "conformance": ("liverpool.tools.scenarios", "run rule-conformance scenario files (CONFORMANCE.md)"),
    "simulate": ("liverpool.agents.simulation_report", "simulate many bot games natively and summarise them"),
    "tournament": ("liverpool.agents.tournament", "bots against each other in rotating seats: win rates and mean scores with confidence intervals"),
    "play": ("liverpool.teach.play", "play a game in the terminal against bots"),
    "serve": ("liverpool.tools.serve", "serve the teaching notebooks on 127.0.0.1 (Voila, or JupyterLab with --lab)"),
}


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="liverpool", description="Liverpool Rummy engine")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            command_parser.set_defaults(_unavailable=module_name)
            continue
        module.add_arguments(command_parser)
        command_parser.set_defaults(_module=module_name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "_unavailable", None):
        print(f"liverpool {args.command}: not available in this build", file=sys.stderr)
        return 2
    module = importlib.import_module(args._module)
    result: int = module.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
