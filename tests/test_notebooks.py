"""Every notebook runs top to bottom in a real kernel (NOTEBOOK_TESTING.md, level 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "notebooks/ holds no notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes_without_errors(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name  # run a copy: execution must never rewrite the source
    shutil.copy(path, copy)
    notebook = nbformat.read(copy, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors
    code_cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code_cells), "a code cell did not run"
