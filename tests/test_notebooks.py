"""The teaching notebooks: generated from one source each, alike in every language, and
every one of them runs top to bottom in a real kernel showing nothing a learner should
not see (NOTEBOOK_TESTING.md, level 2).

Voila hides code cells, so outputs are all a learner gets: they must carry no Python
repr (``Card('7♦')``, ``Action.discard``, ``array(``, ``None``) and no stray return value.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import nbformat
import notebook_generator
import pytest
from nbclient import NotebookClient

import liverpool

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def _load_generator() -> Any:
    return notebook_generator.load()


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


# --- what the pages say (issue 15) -----------------------------------------------------
# Notebooks 01-03 are checked for their content, not only for the absence of errors: the
# worked example of notebook 03 must end as RULES.md L-11 and L-5.3 say, and no page may
# show a refusal it did not announce, a raw error code or a "(s)" plural.

CONTENT_STEMS = ["01-first-look", "02-rules-tour", "03-worked-example"]
CONTENT_PATHS = [NOTEBOOKS / lang / f"{stem}.ipynb" for stem in CONTENT_STEMS for lang in LANGUAGES]
# How a notebook marks a refused move: the class `lp-refused` (or, before issue 15, the
# refusal red alone); the text up to the element's first closing tag is the sentence.
REFUSAL = re.compile(r"<(?P<tag>\w+)[^>]*(?:lp-refused|color:\s*#c0392b)[^>]*>(?P<text>[^<]*)")
TAG = re.compile(r"<[^>]+>")
# "[invalid_meld, L-4.3]": the engine's code and rule id in brackets, as a log writes them.
CODE_TAG = re.compile(r"\[[a-z]+(?:_[a-z]+)+(?:,\s*[LCW]-[\d.]+)?\]")
MELD_TILE = re.compile(r'<div class="lp-meld" data-meld="(\d+)" data-owner="(\d+)"')
CHIP = re.compile(r'data-card="([^"]+)"')


def _plain(fragment: str) -> str:
    import html as html_module

    return html_module.unescape(TAG.sub(" ", fragment))


def _cell_htmls(cell: Any) -> list[str]:
    return [text for output in cell.get("outputs", []) for text in _visible_texts(output)]


def _refusals(notebook: Any) -> list[tuple[int, str]]:
    """(cell number, sentence) of every refusal the executed notebook shows."""
    found = []
    for number, cell in enumerate(notebook.cells):
        for text in _cell_htmls(cell):
            found += [(number, _plain(m.group("text")).strip()) for m in REFUSAL.finditer(text)]
    return found


def _announcement(notebook: Any, number: int) -> str:
    """The markdown a learner reads just before code cell ``number``."""
    for cell in reversed(notebook.cells[:number]):
        if cell.cell_type == "markdown":
            return str(cell.source)
    return ""


def _learner_texts(notebook: Any, widgets: bool = True) -> Iterator[str]:
    """Everything a learner reads: the markdown, the outputs and (``widgets``) the widgets' texts."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            yield str(cell.source)
        else:
            yield from (_plain(text) for text in _cell_htmls(cell))
    if widgets:
        yield from (_plain(text) for text in _widget_texts(notebook))


def _shown_codes(texts: Iterable[str]) -> list[str]:
    codes = list(liverpool.error_codes())
    found: set[str] = set()
    for text in texts:
        found |= {code for code in codes if re.search(rf"\b{code}\b", text)}
        found |= set(CODE_TAG.findall(text))
    return sorted(found)


@pytest.mark.parametrize("path", CONTENT_PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_pages_show_no_raw_codes_and_no_s_plurals(path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A learner reads the engine's sentence and its rule id, never `invalid_meld` or
    `[same_turn_as_go_down, L-5.3]`; counts are spelt by the plural templates, never "(s)"."""
    # The rules tour's widgets (widgets/tour.py) are checked on their own below.
    texts = list(_learner_texts(_execute(path, tmp_path_factory), widgets=path.stem != "02-rules-tour"))
    assert not _shown_codes(texts), f"raw error codes on the page: {_shown_codes(texts)}"
    plurals = [text[max(0, text.index("(s)") - 60) : text.index("(s)") + 3] for text in texts if "(s)" in text]
    assert not plurals, f'"(s)" on the page: {plurals}'


@pytest.mark.parametrize("path", CONTENT_PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_refusal_shown_was_announced(path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A refusal on the page is one the text just before it explains: it cites a rule id,
    and the markdown right above its cell cites the same rule."""
    notebook = _execute(path, tmp_path_factory)
    unannounced = []
    for number, sentence in _refusals(notebook):
        rules = RULE_ID.findall(sentence)
        if not rules or not set(rules) & set(RULE_ID.findall(_announcement(notebook, number))):
            unannounced.append(f"cell {number}: {sentence}")
    assert not unannounced, "refusals the page did not announce:\n" + "\n".join(unannounced)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_tour_controls_show_no_raw_codes(lang: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The rules tour's controls (widgets/tour.py) show the sentence and the rule id, no
    code and no "(s)" (issue 15)."""
    notebook = _execute(NOTEBOOKS / lang / "02-rules-tour.ipynb", tmp_path_factory)
    texts = [_plain(text) for text in _widget_texts(notebook)]
    assert texts, "the rules tour shows no control"
    assert not _shown_codes(texts), f"codes shown to the learner: {_shown_codes(texts)}"
    assert not [text for text in texts if "(s)" in text]


def _worked_example_refusal(lang: str) -> str:
    """The engine's own sentence for the lay-off on the go-down turn (L-5.3), in ``lang``."""
    state = liverpool.GameState.from_position(WORKED_EXAMPLE)
    state.apply(0, liverpool.Action.take_discard())
    state.apply(0, liverpool.Action.go_down([["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]]))
    with liverpool.i18n.language(lang):
        try:
            state.apply(0, liverpool.Action.lay_off(0, ["4♣"]))
        except liverpool.IllegalMoveError as error:
            assert error.code == "same_turn_as_go_down"
            return str(error)
    raise AssertionError("the engine accepted a lay-off on the go-down turn")


from worked_example import WORKED_EXAMPLE  # noqa: E402 - the one copy of L-11's position


def _table_melds(board: str) -> dict[int, tuple[int, list[str]]]:
    """meld number -> (owner, cards) of a board drawn by ``display.state_html``."""
    melds_part = board.split('class="lp-players"')[0]  # the hands come after the table
    tiles = MELD_TILE.split(melds_part)
    # split() with two groups: [before, meld, owner, tile, meld, owner, tile, ...]
    return {int(tiles[i]): (int(tiles[i + 1]), CHIP.findall(tiles[i + 2])) for i in range(1, len(tiles), 3)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_worked_example_ends_with_the_lay_off_and_one_refusal(lang: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Notebook 03 plays RULES.md L-11: the lay-off of 4♣ on the go-down turn is refused
    (L-5.3) — the page's only refusal — and on a later turn the same lay-off is accepted,
    so the board of section 5 shows 4♣ in seat 1's set of 4s (table meld 0)."""
    notebook = _execute(NOTEBOOKS / lang / "03-worked-example.ipynb", tmp_path_factory)
    refusals = _refusals(notebook)
    assert [sentence.lstrip("✗ ").strip() for _, sentence in refusals] == [_worked_example_refusal(lang)], refusals

    heading = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "markdown" and c.source.startswith("## 5."))
    section = notebook.cells[heading + 1]
    boards = [text for text in _cell_htmls(section) if 'class="lp-state"' in text]
    assert boards, "section 5 shows no board"
    melds = _table_melds(boards[-1])
    assert melds.get(0, (None, []))[0] == 1 and "4♣" in melds[0][1], f"section 5 ends with table melds {melds}"
    assert sorted(melds[0][1]) == sorted(["4♦", "4♠", "4♥", "4♣"]), melds[0]
    hand = re.search(r'<td class="lp-hand-0"[^>]*>(.*?)</td>', boards[-1], flags=re.S)
    # Nobody bought (L-6), so the stock gave 5♦ 6♦ J♣ to seats 1-3 and 2♠ to seat 0.
    assert hand and sorted(CHIP.findall(hand.group(1))) == sorted(["3♣", "5♣", "A♥", "2♠"]), "seat 0's hand"
    # One line per turn of seats 1, 2, 3 and 0 (each a buying window, L-5.1), then the lay-off.
    turns = [text for text in _cell_htmls(section) if text.lstrip().startswith("<ol")]
    assert len(turns) == 1 and turns[0].count("<li>") == 4, turns
