"""The package grouped by audience (docs/architecture.md) keeps every import that worked
before: each old module path is a deprecated alias of its new path, the same module
object, with a DeprecationWarning naming the new path; ``liverpool``'s own names are
unchanged."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import liverpool
from liverpool import _moved

PACKAGE = Path(liverpool.__file__).parent

#: Every module path of the flat package -> where it lives now.
OLD_TO_NEW: dict[str, str] = {
    "liverpool.display": "liverpool.teach.display",
    "liverpool.narration": "liverpool.teach.narration",
    "liverpool.game_loop": "liverpool.teach.game_loop",
    "liverpool.play": "liverpool.teach.play",
    "liverpool.explore": "liverpool.teach.explore",
    "liverpool.widgets": "liverpool.teach.widgets",
    "liverpool.widgets.cards": "liverpool.teach.widgets.cards",
    "liverpool.widgets.explorer": "liverpool.teach.widgets.explorer",
    "liverpool.widgets.guided": "liverpool.teach.widgets.guided",
    "liverpool.widgets.scenario": "liverpool.teach.widgets.scenario",
    "liverpool.widgets.table": "liverpool.teach.widgets.table",
    "liverpool.widgets.table_model": "liverpool.teach.widgets.table_model",
    "liverpool.widgets.table_widget": "liverpool.teach.widgets.table_widget",
    "liverpool.widgets.tour": "liverpool.teach.widgets.tour",
    "liverpool.widgets.tourkit": "liverpool.teach.widgets.tourkit",
    "liverpool.bots": "liverpool.agents.bots",
    "liverpool.distributed": "liverpool.agents.distributed",
    "liverpool.simulation_report": "liverpool.agents.simulation_report",
    "liverpool.tournament": "liverpool.agents.tournament",
    "liverpool.envs": "liverpool.agents.envs",
    "liverpool.envs._common": "liverpool.agents.envs._common",
    "liverpool.envs.aec": "liverpool.agents.envs.aec",
    "liverpool.envs.gym_env": "liverpool.agents.envs.gym_env",
    "liverpool.envs.imitation": "liverpool.agents.envs.imitation",
    "liverpool.envs.sb3": "liverpool.agents.envs.sb3",
    "liverpool.envs.vector": "liverpool.agents.envs.vector",
    "liverpool.cli": "liverpool.tools.cli",
    "liverpool.progress": "liverpool.tools.progress",
    "liverpool.scenarios": "liverpool.tools.scenarios",
    "liverpool.bench": "liverpool.tools.bench",
    "liverpool.demo": "liverpool.tools.demo",
    "liverpool.serve": "liverpool.tools.serve",
    "liverpool.serve_voila": "liverpool.tools.serve_voila",
    "liverpool.serve_kernels": "liverpool.tools.serve_kernels",
}

#: Modules written with the new layout, which had no old path.
NEW_MODULES = {"liverpool.tools.options", "liverpool.agents.policy_bot"}

#: The public names of ``dir(liverpool)`` after ``import liverpool``, before the move.
PUBLIC_BEFORE = {
    "Action", "Arrangement", "Bot", "BotError", "BotFault", "Card", "ConcurrentUseError",
    "Deal", "Event", "GameState", "GoDown", "GoDowns", "IllegalMoveError",
    "InvalidArgumentError", "InvalidCardError", "InvalidRulesError", "LiverpoolError", "Meld",
    "NativeBot", "PositionError", "RandomBot", "RuleSet", "ScenarioReport", "SimulationResult",
    "TableMeld", "VecEnv", "action_layout", "action_names", "action_space_size",
    "all_go_downs", "annotations", "best_arrangement", "best_go_down",
    "best_go_down_points_batch", "best_go_down_points_left_batch", "bots", "check_go_down",
    "cli", "deadwood_batch", "deal", "distributed", "error_codes", "errors", "get_language",
    "has_contract", "has_contract_batch", "i18n", "new_deck", "outs", "parse_cards",
    "play_game", "run_scenario", "run_scenarios", "scenarios", "search", "set_language",
    "shuffled_deck", "shuffled_decks", "simulate", "sys",
}  # fmt: skip

#: ``liverpool.__all__`` before the move.
ALL_BEFORE = {
    "Card", "Meld", "RuleSet", "__version__", "check_go_down", "error_codes", "parse_cards",
    "errors", "LiverpoolError", "InvalidCardError", "InvalidRulesError",
    "InvalidArgumentError", "PositionError", "IllegalMoveError", "ConcurrentUseError",
    "GoDown", "GoDowns", "Arrangement", "has_contract", "best_go_down", "all_go_downs",
    "outs", "best_arrangement", "best_go_down_points_left_batch", "best_go_down_points_batch",
    "has_contract_batch", "deadwood_batch", "Deal", "deal", "new_deck", "shuffled_deck",
    "shuffled_decks", "Action", "Event", "GameState", "ScenarioReport", "TableMeld",
    "run_scenario", "run_scenarios", "action_space_size", "action_layout", "action_names",
    "VecEnv", "Bot", "BotError", "BotFault", "NativeBot", "RandomBot", "SimulationResult",
    "play_game", "simulate", "set_language", "get_language",
}  # fmt: skip

#: Submodules the package imported itself, which ``liverpool.<name>`` reached without an import.
MODULES_BEFORE = {"bots", "cli", "distributed", "scenarios"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_table_names_every_module_that_moved() -> None:
    """Each Python module of the audience packages is the new path of one old path (the
    packages themselves, liverpool.teach/agents/tools, are new)."""
    moved = {
        _module_name(path)
        for audience in ("teach", "agents", "tools")
        for path in (PACKAGE / audience).rglob("*.py")
        if path.parent != PACKAGE / audience or path.name != "__init__.py"
    }
    assert moved == set(OLD_TO_NEW.values()) | NEW_MODULES
    assert {old: _moved.new_path(old) for old in OLD_TO_NEW} == OLD_TO_NEW
    assert not any((PACKAGE / old.split(".", 1)[1].replace(".", "/")).with_suffix(".py").exists() for old in OLD_TO_NEW)


def _import_new(new: str) -> object:
    try:
        return importlib.import_module(new)
    except ImportError as exc:  # an optional extra (gymnasium, voila, ipywidgets) is missing
        pytest.skip(f"{new} needs {exc.name}")


@pytest.mark.parametrize("old", sorted(OLD_TO_NEW))
def test_an_old_path_gives_the_same_module_and_names_the_new_one(old: str) -> None:
    new = OLD_TO_NEW[old]
    module = _import_new(new)
    for name in [name for name in sys.modules if name == old or name.startswith(old + ".")]:
        del sys.modules[name]  # so the import below runs the alias again
    parent = old.rpartition(".")[0]
    if parent != "liverpool":
        # An old submodule path imports its old parent first, which warns about itself;
        # import it beforehand so this test sees only the warning of ``old``.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            importlib.import_module(parent)
    with pytest.warns(DeprecationWarning, match=rf"^{re.escape(old)} is deprecated: import {re.escape(new)}$"):
        assert importlib.import_module(old) is module
    assert sys.modules[old] is module and sys.modules[new] is module


def test_an_old_from_import_gives_the_same_objects() -> None:
    sys.modules.pop("liverpool.tournament", None)
    with pytest.warns(DeprecationWarning, match="liverpool.agents.tournament"):
        from liverpool.tournament import seating_orders  # type: ignore[import-not-found]
    from liverpool.agents.tournament import seating_orders as moved

    assert seating_orders is moved


@pytest.mark.parametrize("name", sorted(MODULES_BEFORE | {"widgets", "display", "envs"}))
def test_a_moved_module_as_an_attribute_of_the_package(name: str) -> None:
    """``import liverpool; liverpool.bots`` worked when the package imported ``bots``
    itself; it still gives that module (now ``liverpool.agents.bots``), with the warning."""
    new = OLD_TO_NEW[f"liverpool.{name}"]
    module = _import_new(new)
    vars(liverpool).pop(name, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert getattr(liverpool, name) is module
    warned = [str(w.message) for w in caught if w.category is DeprecationWarning]
    assert warned == [f"liverpool.{name} is deprecated: import {new}"]
    with pytest.raises(AttributeError, match="no attribute 'no_such_module'"):
        liverpool.no_such_module  # type: ignore[attr-defined]  # noqa: B018


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120)


def test_the_package_names_are_unchanged() -> None:
    """A fresh ``import liverpool`` shows the same public names, less the four modules it
    used to import itself (still reachable, above) and plus the audience packages it
    imports now; ``__all__`` is the same."""
    shown = _python("-c", "import liverpool; print(' '.join(dir(liverpool)))")
    assert shown.returncode == 0, shown.stderr
    public = {name for name in shown.stdout.split() if not name.startswith("_")}
    assert public == (PUBLIC_BEFORE - MODULES_BEFORE) | {"agents", "tools"}
    assert set(liverpool.__all__) == ALL_BEFORE and len(liverpool.__all__) == len(ALL_BEFORE)


def test_python_dash_m_runs_a_module_at_its_old_path() -> None:
    """``python -m liverpool.envs.imitation`` (docs/agents.md before the move) still runs
    the recorder, and says where it lives now."""
    pytest.importorskip("liverpool.agents.envs.imitation")
    ran = _python("-W", "always::DeprecationWarning", "-m", "liverpool.envs.imitation", "--help")
    assert ran.returncode == 0, ran.stderr
    assert "Record native bots' games as imitation data" in ran.stdout
    assert "liverpool.envs.imitation is deprecated: import liverpool.agents.envs.imitation" in ran.stderr
    cli = _python("-W", "always::DeprecationWarning", "-m", "liverpool.cli", "--help")
    assert cli.returncode == 0 and "tournament" in cli.stdout and "import liverpool.tools.cli" in cli.stderr


def test_the_binding_imports_display_at_its_new_path() -> None:
    """The compiled binding's ``_repr_html_`` imports ``liverpool.teach.display``
    (rust_core/python/src/cards.rs), so a notebook showing a card warns about nothing."""
    binary = Path(liverpool._core.__file__).read_bytes()
    assert b"liverpool.teach.display" in binary
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert liverpool.Card("7♦")._repr_html_().startswith("<")
