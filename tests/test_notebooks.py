"""The teaching notebooks: generated from one source each, alike in every language, and
every one of them runs top to bottom in a real kernel showing nothing a learner should
not see (NOTEBOOK_TESTING.md, level 2).

Voila hides code cells, so outputs are all a learner gets: they must carry no Python
repr (``Card('7♦')``, ``Action.discard``, ``array(``, ``None``) and no stray return value.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def _load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "scripts" / "build_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_notebooks", module)
    spec.loader.exec_module(module)
    return module


generator = _load_generator()
LANGUAGES: tuple[str, ...] = generator.LANGUAGES
STEMS = [source.stem for source in generator.sources()]
NOTEBOOK_PATHS = [NOTEBOOKS / lang / f"{stem}.ipynb" for stem in STEMS for lang in LANGUAGES]

# Text a learner must never see: Python reprs and stray values.
FORBIDDEN = [
    re.compile(pattern)
    for pattern in (
        r"Action\.",
        r"Card\(",
        r"Meld\.",
        r"GoDown\(",
        r"GameState\(",
        r"dtype\(",
        r"array\(",
        r"<liverpool",
        r"<matplotlib",
        r"<Figure",
        r"namespace\(",
        r"\bNone\b",
        r"Traceback",
    )
]
RULE_ID = re.compile(r"\b[LCW]-\d+(?:\.\d+)?\b")


# --- the generator ---------------------------------------------------------------------


def test_there_are_notebooks_in_every_language() -> None:
    assert len(STEMS) >= 5, STEMS
    for lang in LANGUAGES:
        assert sorted(p.stem for p in (NOTEBOOKS / lang).glob("*.ipynb")) == STEMS, lang


def test_committed_notebooks_are_the_generators_output() -> None:
    built = generator.build_all()
    stale = [str(path.relative_to(ROOT)) for path, text in built.items() if path.read_text(encoding="utf-8") != text]
    assert not stale, f"run `python scripts/build_notebooks.py`: {stale}"
    assert not list(NOTEBOOKS.glob("*.ipynb")), "notebooks live in notebooks/<lang>/ now"


def test_generator_output_is_deterministic() -> None:
    assert generator.build_all() == generator.build_all()


def test_source_format() -> None:
    source = "%% en\n# Hi\n%% pt\n# Oi\n%% es\n# Hola\n%% code\nprint('⟦one|um|uno⟧')\n"
    cells = generator.parse_source(source)
    assert [c.kind for c in cells] == ["markdown", "code"]
    assert cells[0].text == {"en": "# Hi", "pt": "# Oi", "es": "# Hola"}
    assert cells[1].text == {"en": "print('one')", "pt": "print('um')", "es": "print('uno')"}
    notebook = json.loads(generator.build_notebook(cells, "pt", "09-test"))
    assert notebook["cells"][1]["outputs"] == [] and notebook["cells"][1]["source"] == ["print('um')"]
    assert notebook["metadata"]["liverpool"]["language"] == "pt"


@pytest.mark.parametrize(
    "source",
    [
        "%% en\n# Hi\n%% es\n# Hola\n",  # a language missing
        "%% en\n# Hi\n%% es\n# Hola\n%% pt\n# Oi\n",  # out of order
        "%% en\n# Hi\n%% pt\n\n%% es\n# Hola\n",  # an empty translation
        "%% en\n# Hi\n%% pt\n# Oi\n%% es\n# Hola\n%% code\nprint('⟦one|um⟧')\n",  # two texts for three languages
        "%% code\nx = 1\n",  # no title
        "stray\n%% en\n# Hi\n%% pt\n# Oi\n%% es\n# Hola\n",
        "%% en\n# Hi\n%% pt\n# Oi\n%% es\n# Hola\n%% python\nx = 1\n",  # unknown marker
    ],
)
def test_malformed_sources_are_refused(source: str) -> None:
    with pytest.raises(generator.SourceError):
        generator.parse_source(source)


# --- the three languages stay alike ----------------------------------------------------


def _read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)


@pytest.mark.parametrize("stem", STEMS)
def test_languages_have_the_same_structure(stem: str) -> None:
    notebooks = {lang: _read(NOTEBOOKS / lang / f"{stem}.ipynb") for lang in LANGUAGES}
    english = notebooks["en"]
    for lang, notebook in notebooks.items():
        assert [c.cell_type for c in notebook.cells] == [c.cell_type for c in english.cells], lang
        for mine, theirs in zip(notebook.cells, english.cells):
            if mine.cell_type == "markdown":
                # the same headings and the same rule ids, in the same order
                assert [line.split(" ")[0] for line in mine.source.splitlines() if line.startswith("#")] == [
                    line.split(" ")[0] for line in theirs.source.splitlines() if line.startswith("#")
                ], (lang, mine.source[:60])
                assert RULE_ID.findall(mine.source) == RULE_ID.findall(theirs.source), (lang, mine.source[:60])
            else:
                assert len(mine.source.splitlines()) == len(theirs.source.splitlines()), (lang, mine.source[:60])


@pytest.mark.parametrize("path", NOTEBOOK_PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_first_code_cell_sets_the_language(path: Path) -> None:
    notebook = _read(path)
    lang = path.parent.name
    first = next(c for c in notebook.cells if c.cell_type == "code").source
    assert first.splitlines()[0] == f'language = "{lang}"'
    assert "liverpool.set_language(language)" in first
    assert notebook.metadata["liverpool"]["language"] == lang
    assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code"), "committed with outputs"


# --- execution -------------------------------------------------------------------------


def _visible_texts(output: dict[str, Any]) -> Iterator[str]:
    """The text a browser would show for one output (plain text only when nothing richer exists)."""
    kind = output.get("output_type")
    if kind == "stream":
        yield output.get("text", "")
    elif kind in ("display_data", "execute_result"):
        data = output.get("data", {})
        if "text/html" in data:
            yield data["text/html"]
        elif not ({"application/vnd.jupyter.widget-view+json", "image/png", "image/svg+xml"} & set(data)):
            yield data.get("text/plain", "")


def _widget_texts(notebook: Any) -> Iterator[str]:
    """What widgets show: HTML and label values, descriptions, option labels, captured outputs."""
    state = notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    for model in state.values():
        fields = model.get("state", {})
        for key in ("value", "description", "placeholder", "tooltip"):
            if isinstance(fields.get(key), str):
                yield fields[key]
        for label in fields.get("_options_labels", []):
            yield label
        for output in fields.get("outputs", []):
            yield from _visible_texts(output)


_EXECUTED: dict[Path, Any] = {}


def _execute(path: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Run a copy of the notebook in a real kernel, once per test session."""
    if path not in _EXECUTED:
        folder = tmp_path_factory.mktemp(f"{path.parent.name}-{path.stem}")
        copy = folder / path.name  # run a copy: execution must never rewrite the source
        shutil.copy(path, copy)
        notebook = _read(copy)
        client = NotebookClient(
            notebook, timeout=300, kernel_name="python3", allow_errors=True, resources={"metadata": {"path": str(folder)}}
        )
        client.execute()
        _EXECUTED[path] = notebook
    return _EXECUTED[path]


# The widget models a learner can operate (the anywidget hand counts as one control).
INTERACTIVE_MODELS = {
    "ButtonModel",
    "CheckboxModel",
    "DropdownModel",
    "SelectModel",
    "SelectMultipleModel",
    "RadioButtonsModel",
    "ToggleButtonModel",
    "ToggleButtonsModel",
    "TextModel",
    "TextareaModel",
    "IntTextModel",
    "BoundedIntTextModel",
    "IntSliderModel",
    "FloatSliderModel",
    "IntRangeSliderModel",
    "SelectionSliderModel",
    "AnyModel",
}


def _controls(notebook: Any) -> int:
    state = notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    return sum(1 for model in state.values() if model.get("model_name") in INTERACTIVE_MODELS)


@pytest.mark.parametrize("path", NOTEBOOK_PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_notebook_runs_and_shows_no_python_internals(path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    notebook = _execute(path, tmp_path_factory)
    problems: list[str] = []
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        if not cell.get("execution_count"):
            problems.append(f"cell {number} did not run")
        for output in cell.get("outputs", []):
            kind = output.get("output_type")
            if kind == "error":
                problems.append(f"cell {number}: {output.get('ename')}: {output.get('evalue')}")
            elif kind == "stream" and output.get("name") == "stderr":
                problems.append(f"cell {number} wrote to stderr: {output.get('text', '')[:200]!r}")
            elif kind == "execute_result":
                problems.append(f"cell {number} returns a value (end it with ';' or display it)")
            for text in _visible_texts(output):
                problems += [f"cell {number} shows {p.pattern!r}: {text[:160]!r}" for p in FORBIDDEN if p.search(text)]
    for text in _widget_texts(notebook):
        problems += [f"a widget shows {p.pattern!r}: {text[:160]!r}" for p in FORBIDDEN if p.search(text)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_notebooks_are_interactive(lang: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Issue 6: in every language each notebook but at most one has controls to operate,
    and the three sets together offer well over a hundred of them."""
    counts = {p.stem: _controls(_execute(p, tmp_path_factory)) for p in NOTEBOOK_PATHS if p.parent.name == lang}
    assert sum(1 for n in counts.values() if n == 0) <= 1, counts
    assert sum(counts.values()) >= 100, counts  # each language alone offers over a hundred


TABLE_CELL = re.compile(r"<t[dh]\b[^>]*>")


@pytest.mark.parametrize("path", NOTEBOOK_PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_tables_in_outputs_are_never_right_aligned(path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    # Jupyter's and Voila's page style right-aligns table cells in outputs; cards and words
    # must read from the left (or sit centred over their points), so each cell says so.
    notebook = _execute(path, tmp_path_factory)
    cells = [
        tag
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        for text in _visible_texts(output)
        for tag in TABLE_CELL.findall(text)
    ]
    unaligned = [tag for tag in cells if not re.search(r"text-align:\s*(left|center)", tag)]
    assert not unaligned, unaligned[:5]
