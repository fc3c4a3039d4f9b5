"""The `>>>` examples in the binding's docstrings (Rust `///` docs become Python docstrings) run as tests.

pytest's --doctest-modules does not look inside the compiled module, so this walks it explicitly.
"""

from __future__ import annotations

import doctest

import liverpool
from liverpool import _core


def test_binding_docstring_examples() -> None:
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = []
    for name in dir(_core):
        obj = getattr(_core, name)
        if name.startswith("__"):
            continue
        tests.extend(finder.find(obj, name=f"liverpool._core.{name}", module=False, globs={"liverpool": liverpool, **vars(liverpool)}))
    attempted = 0
    for test in tests:
        result = runner.run(test)
        attempted += result.attempted
        assert result.failed == 0, f"doctest failed in {test.name}"
    assert attempted >= 10, f"only {attempted} binding examples were found"
