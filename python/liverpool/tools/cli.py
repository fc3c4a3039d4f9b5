"""The ``liverpool`` command line.

Each subcommand lives in its own module, which provides ``add_arguments(parser)``
and ``run(args) -> int``; modules are imported only when their command runs, so
``liverpool --help`` stays fast and optional dependencies stay optional.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# The shared options, kept importable from here too (liverpool.tools.cli.load_rules, ...).
from liverpool.tools.options import (
    RULES_HELP as RULES_HELP,
    add_progress_argument as add_progress_argument,
    add_ray_argument as add_ray_argument,
    add_rules_argument as add_rules_argument,
    load_rules as load_rules,
    write_json as write_json,
)

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
