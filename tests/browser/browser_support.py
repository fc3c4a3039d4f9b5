"""Paths, notebook discovery and settings shared by the browser tests and their fixtures."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# LIVERPOOL_BROWSER_NOTEBOOKS points the test at another tree (e.g. a notebook being written).
NOTEBOOKS = Path(os.environ.get("LIVERPOOL_BROWSER_NOTEBOOKS") or ROOT / "notebooks").resolve()
SCREENSHOTS = ROOT / "target" / "screenshots"
CHROMIUM = Path(os.environ.get("LIVERPOOL_CHROMIUM", "/usr/bin/chromium"))
LANGUAGES = ("en", "pt", "es")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1200, "height": 900}
# Generous: the first page of a session also waits for the kernel's first imports.
RENDER_TIMEOUT_MS = 120_000
# Voila logs these on every page (its bundled JupyterLab packages are older than the
# widget extensions'); they are warnings, and the widgets render.
KNOWN_CONSOLE_NOISE = re.compile(r"Unsatisfied version .* shared singleton|No satisfying version .* shared module")



def notebook_language(path: Path) -> str:
    """``notebooks/pt/x.ipynb`` is Portuguese; a notebook directly in ``notebooks/`` is English."""
    folder = path.parent.name
    return folder if folder in LANGUAGES else "en"


def discover_notebooks() -> list[Path]:
    """Every notebook served: ``notebooks/<lang>/*.ipynb`` and any left in ``notebooks/`` itself."""
    found = sorted(NOTEBOOKS.glob("*.ipynb"))
    for lang in LANGUAGES:
        found += sorted((NOTEBOOKS / lang).glob("*.ipynb"))
    return found


def screenshot_path(notebook: Path, suffix: str = "") -> Path:
    relative = notebook.relative_to(NOTEBOOKS)
    # Notebooks left directly in notebooks/ go to "en" unless notebooks/en/ exists too.
    folder = relative.parent.name or ("root" if (NOTEBOOKS / "en").is_dir() else "en")
    target = SCREENSHOTS / folder / f"{notebook.stem}{suffix}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def notebooks_using(*names: str) -> list[Path]:
    """The notebooks whose source mentions one of ``names`` (a widget builder)."""
    return [path for path in discover_notebooks() if any(name in path.read_text(encoding="utf-8") for name in names)]


# The notebooks each interaction test clicks on, found by the widget builder's name.
TABLE_NOTEBOOKS = notebooks_using("card_table")
STEP_NOTEBOOKS = notebooks_using("scenario_player")
TOUR_NOTEBOOKS = notebooks_using("widgets.tour", "widgets import tour", "go_down_explorer")
INTERACTIVE_NOTEBOOKS = {*TABLE_NOTEBOOKS, *STEP_NOTEBOOKS, *TOUR_NOTEBOOKS}
