"""No module of ``python/liverpool`` imports a module that imports it back, directly or
through a longer cycle (docs/architecture.md: each layer calls only the layers under it).

The imports are read from the source with ``ast``, at every level: module level,
inside functions and methods, under ``if TYPE_CHECKING:``, and ``importlib.import_module``
with a literal name. A module that imports by a computed name (the command line imports
its subcommands by the names in its table) imports every package module a string in it
names exactly (a dotted name: a bare "liverpool" is the program's name). Not in
``liverpool._moved``: its table names every module that moved so that an old path can
load it, which is the deprecated way in, not something the package itself runs. An import of ``liverpool.a.b`` is an edge to that module; the
parent packages Python runs first are not counted (every submodule would otherwise be in
a cycle with ``liverpool/__init__.py``, which imports some of them): ``from liverpool
import Card`` is an edge to ``liverpool`` itself, ``from liverpool import i18n`` to
``liverpool.i18n``. An old module path (``liverpool.display``) counts as its new one.
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

from liverpool._moved import new_path

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "liverpool"
#: The deprecated aliases of the old module paths (see the module's doc).
ALIASES = "liverpool._moved"


def module_names(package: Path) -> dict[str, Path]:
    """Each module of the package (``liverpool.teach.display``) and its file; the compiled
    ``liverpool._core`` by its stub (it imports nothing of the package)."""
    modules = {}
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.pyi")]):
        if "notebooks" in path.relative_to(package).parts:
            continue
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` (or its new path, if it moved) when it is a module of the package."""
    name = new_path(name) or name
    return name if name in modules else None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules that ``module`` imports, at any level of its source."""
    if path.suffix == ".pyi":
        return set()
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    named: set[str] = set()  # package modules named by a string constant
    computed = False  # an import_module whose name is not a literal
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "." in node.value:
            if (target := _known(node.value, modules)) is not None:
                named.add(target)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (target := _known(alias.name, modules)) is not None:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                if (target := _known(f"{base}.{alias.name}", modules)) is not None:
                    found.add(target)  # from package import submodule
                elif (target := _known(base, modules)) is not None:
                    found.add(target)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Attribute, ast.Name))
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
        ):
            name = node.args[0]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                if (target := _known(name.value, modules)) is not None:
                    found.add(target)
            else:
                computed = True
    if computed and module != ALIASES:
        found |= named
    found.discard(module)
    return found


def import_graph(package: Path) -> dict[str, set[str]]:
    modules = module_names(package)
    return {module: imports_of(module, path, modules) for module, path in modules.items()}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted:
    every module in one imports every other, directly or through the others."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in sorted(graph):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(cycles)


def test_the_graph_sees_the_imports_it_must() -> None:
    """The reader finds module-level, function-level and ``from package import module``
    imports (so an empty result below means something)."""
    graph = import_graph(PACKAGE)
    assert "liverpool.errors" in graph["liverpool.i18n"]  # module level
    assert "liverpool.teach.display" in graph["liverpool"]  # inside _register_notebook_display
    assert {"liverpool.i18n", "liverpool.errors"} <= graph["liverpool.agents.bots"]  # from liverpool import i18n
    assert "liverpool.teach.widgets.table_widget" in graph["liverpool.teach.widgets.table"]  # TYPE_CHECKING and a function
    assert "liverpool.tools.serve_voila" not in graph["liverpool.tools.serve"]  # run as a subprocess, not imported
    # the subcommands, imported by the names in COMMANDS
    assert {"liverpool.agents.tournament", "liverpool.teach.play", "liverpool.tools.serve"} <= graph["liverpool.tools.cli"]


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    assert import_cycles(import_graph(PACKAGE)) == []


def test_errors_and_i18n_are_layered() -> None:
    """The sentences of errors come from the catalogue layer; i18n raises errors."""
    graph = import_graph(PACKAGE)
    assert graph["liverpool._catalogues"] == set()
    assert graph["liverpool.errors"] == {"liverpool._catalogues"}
    assert "liverpool.errors" in graph["liverpool.i18n"]


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "liverpool"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "notebooks", "*.so"))
    return copy


def _plant(path: Path, line: str, *, in_function: bool) -> None:
    source = path.read_text(encoding="utf-8")
    if in_function:
        line = f"\n\ndef _planted() -> None:\n    {line}\n"
    path.write_text(source + "\n" + line + "\n", encoding="utf-8")


@pytest.mark.parametrize(
    ("module", "line", "in_function", "cycle"),
    [
        # the cycle this layout broke: i18n raises errors, errors renders through i18n
        ("errors.py", "from liverpool import i18n", False, ["liverpool.errors", "liverpool.i18n"]),
        # a longer one, hidden in a function: errors -> teach.display -> i18n -> errors
        (
            "errors.py",
            "from liverpool.teach.display import card_name",
            True,
            ["liverpool.errors", "liverpool.i18n", "liverpool.teach.display"],
        ),
        # the cycle this layout broke: the command line imports its subcommands, which
        # imported their shared options from it (now from tools.options); through an
        # old path, which counts as the module it names
        ("agents/tournament.py", "from liverpool.cli import load_rules", True, ["liverpool.agents.tournament", "liverpool.tools.cli"]),
        # a literal import_module
        ("tools/options.py", 'importlib.import_module("liverpool.tools.cli")', True, ["liverpool.tools.cli", "liverpool.tools.options"]),
    ],
)
def test_a_planted_cycle_is_found(tmp_path: Path, module: str, line: str, in_function: bool, cycle: list[str]) -> None:
    copy = _copy(tmp_path)
    assert import_cycles(import_graph(copy)) == []
    _plant(copy / module, line, in_function=in_function)
    # one strongly connected component holds them all (it may hold more modules)
    assert any(set(cycle) <= set(component) for component in import_cycles(import_graph(copy)))


def test_the_audience_packages_import_nothing() -> None:
    """``import liverpool.agents.bots`` must not pull in gymnasium through
    ``liverpool.agents.envs``, nor ``liverpool.teach.display`` ipywidgets: the
    ``__init__`` of each audience package imports none of its modules."""
    graph = import_graph(PACKAGE)
    assert {name: graph[name] for name in ("liverpool.teach", "liverpool.agents", "liverpool.tools")} == {
        "liverpool.teach": set(),
        "liverpool.agents": set(),
        "liverpool.tools": set(),
    }
