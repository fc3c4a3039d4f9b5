"""The module paths from before the package was grouped by audience, kept working.

``liverpool.display`` is now ``liverpool.teach.display`` (docs/architecture.md draws the
layout). Importing an old path gives the module at its new path itself (the same module
object, so the same classes and functions, ``isinstance`` keeps working) and a
:class:`DeprecationWarning` that names the new path. ``python -m liverpool.envs.imitation``
still runs the module. ``liverpool.bots`` as an attribute of the package works too
(``liverpool.__getattr__``), as it did when the package imported that module itself.

No file is left at an old path: :class:`MovedModuleFinder`, first on ``sys.meta_path``,
answers for the old names. Git therefore records each move as a rename, and a branch that
edits a module at its old path merges into the module at its new path.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import CodeType, ModuleType

__all__ = ["MOVED", "MovedModuleFinder", "new_path", "install", "moved_attribute"]

#: Every module that moved: old path -> new path. A moved package takes its submodules
#: along (``liverpool.envs.aec`` -> ``liverpool.agents.envs.aec``, :func:`new_path`).
MOVED: dict[str, str] = {
    # learners
    "liverpool.display": "liverpool.teach.display",
    "liverpool.narration": "liverpool.teach.narration",
    "liverpool.game_loop": "liverpool.teach.game_loop",
    "liverpool.play": "liverpool.teach.play",
    "liverpool.explore": "liverpool.teach.explore",
    "liverpool.widgets": "liverpool.teach.widgets",
    # agent builders
    "liverpool.bots": "liverpool.agents.bots",
    "liverpool.envs": "liverpool.agents.envs",
    "liverpool.distributed": "liverpool.agents.distributed",
    "liverpool.simulation_report": "liverpool.agents.simulation_report",
    "liverpool.tournament": "liverpool.agents.tournament",
    # tools
    "liverpool.cli": "liverpool.tools.cli",
    "liverpool.progress": "liverpool.tools.progress",
    "liverpool.scenarios": "liverpool.tools.scenarios",
    "liverpool.bench": "liverpool.tools.bench",
    "liverpool.demo": "liverpool.tools.demo",
    "liverpool.serve": "liverpool.tools.serve",
    "liverpool.serve_voila": "liverpool.tools.serve_voila",
    "liverpool.serve_kernels": "liverpool.tools.serve_kernels",
}

def new_path(old: str) -> str | None:
    """Where the module ``old`` lives now; ``None`` if it did not move.

    >>> new_path("liverpool.envs.imitation"), new_path("liverpool.errors")
    ('liverpool.agents.envs.imitation', None)
    """
    if old in MOVED:
        return MOVED[old]
    for before, after in MOVED.items():
        if old.startswith(before + "."):
            return after + old[len(before) :]
    return None


def _warn(old: str, new: str, stacklevel: int) -> None:
    warnings.warn(f"{old} is deprecated: import {new}", DeprecationWarning, stacklevel=stacklevel + 1)


class _MovedModuleLoader(importlib.abc.Loader):
    """Loads an old path by putting the module of its new path in its place."""

    def __init__(self, old: str, new: str) -> None:
        self.old = old
        self.new = new

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return None  # a placeholder module, replaced in sys.modules by exec_module

    def exec_module(self, module: ModuleType) -> None:
        # The import system returns what sys.modules holds after exec_module (the
        # documented "sys.modules replacement"), so the importer gets the moved module
        # itself, its own __spec__ untouched. stacklevel 2 skips the import machinery's
        # frames and names the importing line.
        _warn(self.old, self.new, stacklevel=2)
        sys.modules[self.old] = importlib.import_module(self.new)

    def is_package(self, fullname: str) -> bool:
        spec = importlib.util.find_spec(self.new)
        return spec is not None and spec.submodule_search_locations is not None

    def get_code(self, fullname: str) -> CodeType | None:
        """The moved module's code, for ``python -m <old path>`` (runpy)."""
        _warn(self.old, self.new, stacklevel=2)
        spec = importlib.util.find_spec(self.new)
        get_code = getattr(spec.loader, "get_code", None) if spec is not None else None
        code: CodeType | None = get_code(self.new) if get_code is not None else None
        return code


class MovedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds the old paths of :data:`MOVED` (first on ``sys.meta_path``, so the file
    finder never loads a moved file a second time under its old name)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        new = new_path(fullname)
        if new is None:
            return None
        moved = importlib.util.find_spec(new)
        if moved is None:
            return None  # no such module at the new path either: the usual ModuleNotFoundError
        return ModuleSpec(
            fullname,
            _MovedModuleLoader(fullname, new),
            origin=moved.origin,
            is_package=moved.submodule_search_locations is not None,
        )


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())


def moved_attribute(name: str) -> ModuleType:
    """``liverpool.<name>`` for a module that moved (the package's ``__getattr__``):
    the module at its new path, with the warning. ``AttributeError`` for anything else."""
    old = f"liverpool.{name}"
    if old not in MOVED:
        raise AttributeError(f"module 'liverpool' has no attribute {name!r}")
    _warn(old, MOVED[old], stacklevel=3)
    module = importlib.import_module(MOVED[old])
    # Bound on the package, as an import of the old path would: `from liverpool import
    # widgets` reads the attribute twice and should warn once.
    setattr(sys.modules["liverpool"], name, module)
    return module
