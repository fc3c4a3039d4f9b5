"""``scripts/build_notebooks.py`` loaded as a module, once, for the tests that read the
notebook sources (tests/test_notebooks.py, tests/test_i18n_terms.py)."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@cache
def load() -> Any:
    spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "scripts" / "build_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_notebooks", module)
    spec.loader.exec_module(module)
    return module
