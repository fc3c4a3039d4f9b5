"""Every notebook, in every language, rendered by Voila in Chromium (NOTEBOOK_TESTING.md,
level 3): no Python error, no browser error, no Python repr on the page; a screenshot of
each page lands in ``target/screenshots/<lang>/<notebook>.png`` for people to look at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .browser_support import INTERACTIVE_NOTEBOOKS, NOTEBOOKS, discover_notebooks, notebook_language

ALL_NOTEBOOKS = discover_notebooks()

# Text that only a Python repr (not a sentence meant for a reader) puts on a page.
REPR_MARKERS = re.compile(r"Action\.|Card\('|dtype\(|<liverpool|RuleSet\(|GameState\(|Meld\(")
TRACEBACK_MARKERS = re.compile(r"Traceback \(most recent call last\)|\w+Error: ")

# Words of docs/glossary.md (and everyday words) that a translated page cannot do without.
TRANSLATED_WORDS = {
    "pt": ["rodada", "trinca", "sequência", "coringa", "carta", "mão", "contrato", "baixar", "monte", "descarte"],
    "es": ["ronda", "trío", "escalera", "comodín", "carta", "mano", "contrato", "bajarse", "mazo", "descarte"],
}
# English words no Portuguese or Spanish sentence uses; each is counted as a whole word.
ENGLISH_ONLY = ["the", "and", "with", "round", "hand", "cards", "player", "discard", "run", "set", "seat"]


def test_there_are_notebooks() -> None:
    assert ALL_NOTEBOOKS, f"no notebook under {NOTEBOOKS}"


@pytest.mark.parametrize("notebook", ALL_NOTEBOOKS, ids=lambda p: p.relative_to(NOTEBOOKS).as_posix())
def test_notebook_renders_cleanly(notebook: Path, open_notebook: Any, page_pool: Any) -> None:
    # Pages the play tests click on are kept for them, untouched. The pages rendered ahead
    # are those of the same language: on two workers the others are the other's
    # (conftest.py, ``_worker_group``).
    same_language = [path for path in ALL_NOTEBOOKS if notebook_language(path) == notebook_language(notebook)]
    view = open_notebook(notebook, keep=notebook in INTERACTIVE_NOTEBOOKS, prefetch_from=same_language)
    text = view.text()
    page_pool.texts[notebook] = view.prose_text()
    # The page's text next to its picture: easy to grep for English on a pt/es page.
    view.screenshot().with_suffix(".txt").write_text(text, encoding="utf-8")

    assert text.strip(), "the page shows nothing"
    errors = view.stderr_outputs()
    assert not errors, f"Python wrote to stderr (error outputs on the page): {errors}"
    tracebacks = TRACEBACK_MARKERS.findall(text)
    assert not tracebacks, f"an error reached the page: {tracebacks}"
    reprs = sorted({match.group(0) for match in REPR_MARKERS.finditer(text)})
    assert not reprs, f"a Python repr reached the page: {reprs} — show it in words or cards instead"
    assert not view.console_errors, f"the browser reported errors: {view.console_errors}"


def _pages_of(lang: str) -> list[Path]:
    return [path for path in ALL_NOTEBOOKS if notebook_language(path) == lang and path.parent.name == lang]


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_translated_notebooks_speak_their_language(lang: str, open_notebook: Any, page_pool: Any) -> None:
    notebooks = _pages_of(lang)
    if not notebooks:
        pytest.skip(f"notebooks/{lang}/ holds no notebook yet")
    english_hits: dict[str, list[str]] = {}
    found_words: set[str] = set()
    for notebook in notebooks:
        # The render test has read most pages already.
        text = page_pool.texts.get(notebook) or open_notebook(notebook).prose_text()
        lowered = text.lower()
        found_words |= {word for word in TRANSLATED_WORDS[lang] if word in lowered}
        hits = [word for word in ENGLISH_ONLY if re.search(rf"\b{word}\b", lowered)]
        if hits:
            english_hits[notebook.name] = hits
    missing = sorted(set(TRANSLATED_WORDS[lang]) - found_words)
    assert len(missing) <= len(TRANSLATED_WORDS[lang]) // 2, f"{lang} pages lack the glossary's words {missing}"
    assert not english_hits, f"English words on the {lang} pages: {english_hits}"
