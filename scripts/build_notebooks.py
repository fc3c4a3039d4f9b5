"""Write the teaching notebooks of every language from one source per notebook.

Each notebook has one source file, ``notebooks/src/NN-name.txt``, holding its cells in
order. A line that starts with ``%%`` opens a cell:

``%% code``
    a code cell, the same in every language. Inside it ``⟦english|português|español⟧``
    becomes the text of the notebook's language (for the few words code prints or
    passes to a widget), so the code itself is written once.
``%% en``, ``%% pt``, ``%% es``
    one markdown cell, written three times: an ``en`` block followed by its ``pt`` and
    ``es`` blocks (in that order) is one cell of the notebook.
``%% glossary``
    (nothing under it) a markdown cell holding the table of ``docs/glossary.md``, the
    notebook's language in the first column: the welcome page shows the one glossary.

Every notebook but the welcome page (``00-welcome``) ends with a generated "where next"
cell: links to the previous and the next notebook and to the welcome page, named by
their titles (each source's first heading). A notebook's ``metadata.title`` is that
heading too, so a browser tab says words, not a file name.

The script writes ``notebooks/<lang>/NN-name.ipynb`` for every language, with no
outputs and deterministic bytes (fixed cell ids, sorted keys), so that
``tests/test_notebooks.py`` can check the committed files equal its output.

    python scripts/build_notebooks.py            # write the notebooks
    python scripts/build_notebooks.py --check    # exit 1 if a committed notebook is stale
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

LANGUAGES = ("en", "pt", "es")
ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / "src"
GLOSSARY = ROOT / "docs" / "glossary.md"
#: The welcome page's stem: ``liverpool serve`` opens ``<lang>/00-welcome.ipynb``.
WELCOME = "00-welcome"

_MARKER = re.compile(r"^%%\s*(code|en|pt|es|glossary)\s*$")
# A rule id in a title, "(L-11)": kept in the page title, left out of the navigation links.
_TITLE_RULE = re.compile(r"\s*\([LCW]-\d+(?:\.\d+)?\)")
#: The generated navigation's few words, per language.
NAVIGATION = {
    "en": {"previous": "Previous", "next": "Next", "welcome": "All notebooks and the glossary"},
    "pt": {"previous": "Anterior", "next": "Próximo", "welcome": "Todos os cadernos e o glossário"},
    "es": {"previous": "Anterior", "next": "Siguiente", "welcome": "Todos los cuadernos y el glosario"},
}
# ⟦en|pt|es⟧ — brackets that never occur in Python or in card notation.
_INLINE = re.compile(r"⟦([^⟦⟧]*)⟧")


class SourceError(ValueError):
    """A notebook source that does not follow the format above."""


@dataclass(frozen=True)
class Cell:
    kind: str  # "code" or "markdown"
    text: dict[str, str]  # language -> source text


def _translate_inline(code: str, where: str) -> dict[str, str]:
    texts: dict[str, str] = {}
    for index, lang in enumerate(LANGUAGES):

        def pick(match: re.Match[str], index: int = index) -> str:
            parts = match.group(1).split("|")
            if len(parts) != len(LANGUAGES):
                raise SourceError(f"{where}: ⟦…⟧ needs {len(LANGUAGES)} texts separated by '|': {match.group(0)}")
            return parts[index]

        texts[lang] = _INLINE.sub(pick, code)
    return texts


def parse_source(text: str, name: str = "<source>") -> list[Cell]:
    """The cells of one notebook source."""
    blocks: list[tuple[str, int, list[str]]] = []  # (marker, line number, lines)
    for number, line in enumerate(text.splitlines(), start=1):
        match = _MARKER.match(line)
        if match:
            blocks.append((match.group(1), number, []))
        elif line.startswith("%%"):
            raise SourceError(f"{name}:{number}: unknown marker {line!r}")
        elif blocks:
            blocks[-1][2].append(line)
        elif line.strip():
            raise SourceError(f"{name}:{number}: text before the first %% marker")

    cells: list[Cell] = []
    position = 0
    while position < len(blocks):
        marker, number, lines = blocks[position]
        where = f"{name}:{number}"
        body = "\n".join(lines).strip("\n")
        if marker == "glossary":
            if body.strip():
                raise SourceError(f"{where}: %% glossary takes no text (the table comes from docs/glossary.md)")
            cells.append(Cell("markdown", {lang: glossary_table(lang) for lang in LANGUAGES}))
            position += 1
            continue
        if not body.strip():
            raise SourceError(f"{where}: empty {marker} block")
        if marker == "code":
            cells.append(Cell("code", _translate_inline(body, where)))
            position += 1
            continue
        group = blocks[position : position + len(LANGUAGES)]
        markers = tuple(block[0] for block in group)
        if markers != LANGUAGES:
            raise SourceError(f"{where}: a markdown cell needs blocks {' '.join(LANGUAGES)} in that order, got {markers}")
        texts = {lang: "\n".join(block[2]).strip("\n") for lang, block in zip(LANGUAGES, group)}
        empty = [lang for lang, body in texts.items() if not body.strip()]
        if empty:
            raise SourceError(f"{where}: empty markdown for {', '.join(empty)}")
        if "⟦" in "".join(texts.values()):
            raise SourceError(f"{where}: ⟦…⟧ belongs in code cells; markdown is written per language")
        cells.append(Cell("markdown", texts))
        position += len(LANGUAGES)
    if not cells or cells[0].kind != "markdown":
        raise SourceError(f"{name}: a notebook starts with a markdown cell (its title)")
    return cells


def glossary_table(lang: str, glossary: Path = GLOSSARY) -> str:
    """The language columns of ``docs/glossary.md``'s table with ``lang``'s column first (the
    others follow in their order), as markdown."""
    # The first table of the doc (the terms); later tables (seat phrases…) are for writers.
    rows = list(itertools.takewhile(lambda line: line.startswith("|"), itertools.dropwhile(
        lambda line: not line.startswith("|"), glossary.read_text(encoding="utf-8").splitlines()
    )))
    if len(rows) < 3:
        raise SourceError(f"{glossary}: no table")
    table = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]
    header, body = table[0], table[2:]
    # One column per language (the learner's first); the doc's notes on rejected words
    # are for writers, not for the welcome page.
    first = LANGUAGES.index(lang)
    order = [first, *(i for i in range(len(LANGUAGES)) if i != first)]
    lines = ["| " + " | ".join(header[i] for i in order) + " |", "|" + "---|" * len(order)]
    lines += ["| " + " | ".join(row[i] for i in order) + " |" for row in body]
    return "\n".join(lines)


def title_of(cells: list[Cell], lang: str) -> str:
    """A notebook's title in ``lang``: the first ``# `` heading of its first cell."""
    for line in cells[0].text[lang].splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise SourceError(f"the first cell has no '# ' title in {lang}")


def navigation_cell(stems: list[str], titles: dict[str, dict[str, str]], stem: str) -> Cell:
    """The "where next" cell ending notebook ``stem``: previous, next, the welcome page."""
    numbered = [s for s in stems if s != WELCOME]
    at = numbered.index(stem)
    texts = {}
    for lang in LANGUAGES:
        words = NAVIGATION[lang]

        def link(target: str, lang: str = lang) -> str:
            name = _TITLE_RULE.sub("", titles[target][lang])
            return f"[{target[:2]} · {name}]({target}.ipynb)"

        parts = []
        if at > 0:
            parts.append(f"← {words['previous']}: {link(numbered[at - 1])}")
        if at + 1 < len(numbered):
            parts.append(f"{words['next']}: {link(numbered[at + 1])} →")
        if WELCOME in stems:
            parts.append(f"[{words['welcome']}]({WELCOME}.ipynb)")
        texts[lang] = "---\n" + " · ".join(parts)
    return Cell("markdown", texts)


def _lines(text: str) -> list[str]:
    # nbformat's on-disk convention: a list of lines, each but the last keeping its newline.
    return text.splitlines(keepends=True)


def build_notebook(cells: list[Cell], lang: str, stem: str, title: str | None = None) -> str:
    """The .ipynb text of one notebook in ``lang``: no outputs, stable ids, sorted keys."""
    notebook_cells = []
    for index, cell in enumerate(cells):
        entry: dict[str, object] = {
            "cell_type": cell.kind,
            "id": f"{stem[:2]}-{index:03d}",
            "metadata": {},
            "source": _lines(cell.text[lang]),
        }
        if cell.kind == "code":
            entry["execution_count"] = None
            entry["outputs"] = []
        notebook_cells.append(entry)
    notebook = {
        "cells": notebook_cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "liverpool": {"language": lang, "source": f"notebooks/src/{stem}.txt"},
            # The page title (Voila's browser tab), in words.
            "title": title if title is not None else title_of(cells, lang),
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def sources(folder: Path = SOURCES) -> list[Path]:
    return sorted(folder.glob("*.txt"))


def build_all(folder: Path = SOURCES) -> dict[Path, str]:
    """Every notebook file (path under notebooks/) and its text."""
    files: dict[Path, str] = {}
    parsed = {source.stem: parse_source(source.read_text(encoding="utf-8"), source.name) for source in sources(folder)}
    stems = list(parsed)
    titles = {stem: {lang: title_of(cells, lang) for lang in LANGUAGES} for stem, cells in parsed.items()}
    for stem, cells in parsed.items():
        if stem != WELCOME:
            cells = [*cells, navigation_cell(stems, titles, stem)]
        for lang in LANGUAGES:
            files[NOTEBOOKS / lang / f"{stem}.ipynb"] = build_notebook(cells, lang, stem)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the committed notebooks are current")
    args = parser.parse_args(argv)
    files = build_all()
    stale = [path for path, text in files.items() if not path.is_file() or path.read_text(encoding="utf-8") != text]
    expected = set(files)
    strays = [p for lang in LANGUAGES for p in sorted((NOTEBOOKS / lang).glob("*.ipynb")) if p not in expected]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}")
        for path in strays:
            print(f"no source: {path.relative_to(ROOT)}")
        return 1 if stale or strays else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    for path in strays:
        path.unlink()
        print(f"removed {path.relative_to(ROOT)} (no source)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
