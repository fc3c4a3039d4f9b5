"""Playing in the browser, by clicking as a person would: a whole round at the card table,
the worked example's step-through player, and the rules-tour controls.

The notebooks holding each widget are found by the builder's name in their source, so
the tests follow the notebooks as they move or get translated; while no notebook holds
a widget yet, its test is skipped and says so.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the fixtures skip (or fail) with the reason; collection must not break
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

from .browser_support import NOTEBOOKS, STEP_NOTEBOOKS, TABLE_NOTEBOOKS, TOUR_NOTEBOOKS, notebook_language

CHANGE_TIMEOUT_MS = 30_000
# A round between greedy bots ends in a few dozen turns; this only stops a stuck loop.
MAX_TABLE_MOVES = 300
QUICK_CLICK_MS = 5_000


def _params(paths: list[Path], what: str) -> list[Any]:
    if not paths:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no notebook uses {what} yet"), id="none")]
    return [pytest.param(path, id=path.relative_to(NOTEBOOKS).as_posix()) for path in paths]


def _no_errors(view: Any) -> None:
    errors = view.stderr_outputs()
    assert not errors, f"Python wrote to stderr: {errors}"
    assert not view.console_errors, f"the browser reported errors: {view.console_errors}"


# --- the card table -------------------------------------------------------------------

class Table:
    """The ``.lp-table`` on a page, driven through its DOM hooks (docs/card-table.md)."""

    def __init__(self, view: Any, index: int = 0) -> None:
        self.view = view
        self.root = view.page.locator(".lp-table").nth(index)

    def click(self, locator: Any) -> bool:
        """Click and wait for the kernel's answer (the bots' moves included) to be drawn.
        False when the element was not clickable."""
        try:
            self.view.click(locator, timeout_ms=QUICK_CLICK_MS)
        except PlaywrightTimeout:
            return False
        return True

    def enabled_actions(self) -> list[str]:
        names: list[str] = self.root.evaluate(
            """(root) => [...root.querySelectorAll("button.lp-action")]
                 .filter((b) => !b.disabled && b.offsetParent !== null)
                 .map((b) => [...b.classList].find((c) => c.startsWith("lp-action-")).slice("lp-action-".length))"""
        )
        return names

    def hand(self) -> list[str]:
        cards: list[str] = self.root.locator(".lp-hand .lp-card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
        return cards

    def round_is_over(self) -> bool:
        return self.root.locator(".lp-log li.lp-log-round-end").count() > 0 or "next_round" in self.enabled_actions()

    def action(self, name: str) -> Any:
        return self.root.locator(f"button.lp-action-{name}")

    def message(self) -> str:
        text: str = self.root.locator(".lp-message").first.inner_text()
        return text


def _play_one_move(table: Table, tried_go_down: set[tuple[str, ...]], seen_selected: list[str]) -> str:
    """Seat 0's next move, chosen as a cautious beginner: never buy, draw from the stock,
    go down when the engine offers a go-down, throw away the last card of the hand.
    Returns the move clicked ("" when there was nothing to click)."""
    enabled = table.enabled_actions()
    hand = tuple(table.hand())
    for name in ("cut", "pass", "draw_stock", "decline_discard"):
        if name in enabled:
            return name if table.click(table.action(name)) else ""
    if "go_down" in enabled and hand not in tried_go_down:
        tried_go_down.add(hand)  # with nothing selected the table offers the engine's go-downs of the hand
        return "go_down" if table.click(table.action("go_down")) else ""
    if "discard" in enabled and hand:
        last = table.root.locator(".lp-hand .lp-card").last
        card = last.get_attribute("data-card") or "?"
        if not table.click(last):
            return ""
        assert "lp-selected" in (last.get_attribute("class") or ""), f"the clicked {card} is not drawn as selected"
        seen_selected.append(card)
        return "discard" if table.click(table.action("discard")) else ""
    if enabled:  # e.g. only take_discard: the engine allows nothing else now
        return enabled[0] if table.click(table.action(enabled[0])) else ""
    return ""


def _full_round_notebook() -> Path | None:
    """One table notebook plays a whole round (English if there is one); in the others,
    whose bots' moves take as long, a few moves and the translated buttons are enough."""
    english = [path for path in TABLE_NOTEBOOKS if notebook_language(path) == "en"]
    candidates = english or TABLE_NOTEBOOKS
    return candidates[0] if candidates else None


def _catalogue_text(lang: str, key: str) -> str:
    from liverpool import i18n
    from liverpool.narration import DOMAIN

    with i18n.language(lang):
        return i18n.text(DOMAIN, key)


def _catalogue_label(lang: str, action: str) -> str:
    return _catalogue_text(lang, f"button_{action}")


@pytest.mark.parametrize("notebook", _params(TABLE_NOTEBOOKS, "the card table (card_table)"))
def test_playing_at_the_card_table(notebook: Path, open_notebook: Any) -> None:
    whole_round = notebook == _full_round_notebook()
    lang = notebook_language(notebook)
    view = open_notebook(notebook)
    table = Table(view)
    table.root.scroll_into_view_if_needed()
    assert table.root.locator(".lp-hand .lp-card").count() > 0 or "cut" in table.enabled_actions(), "no hand, no cut"
    view.screenshot("-table-start", element=table.root)
    for action in ("draw_stock", "discard", "go_down"):
        label = table.action(action).inner_text().strip()
        assert label == _catalogue_label(lang, action), f"the {action} button is not in {lang}: {label!r}"
        if lang != "en":
            assert label != _catalogue_label("en", action), f"the {action} button is still English: {label!r}"

    assert table.click(table.root.locator("button.lp-hint")), "the hint button cannot be clicked"
    assert table.root.locator(".lp-hint-panel").first.inner_text().strip(), "the hint showed nothing"
    # Issue 10: the hint opens with the expert's move and its reason, in the page's language.
    expert = table.root.locator(".lp-expert-hint").first
    assert expert.count() == 1, "the hint has no expert suggestion"
    with_label = expert.inner_text()
    assert _catalogue_text(lang, "hint_expert") in with_label, f"the expert's hint is not in {lang}: {with_label!r}"
    view.screenshot("-table-hint", element=table.root)

    moves: list[str] = []
    tried_go_down: set[tuple[str, ...]] = set()
    seen_selected: list[str] = []
    for _ in range(MAX_TABLE_MOVES):
        if table.round_is_over() or (not whole_round and "discard" in moves):
            break
        move = _play_one_move(table, tried_go_down, seen_selected)
        if not move:
            view.screenshot("-table-stuck", element=table.root)
            pytest.fail(
                f"seat 0 has no move to click and the round is not over; message "
                f"{table.message()!r}, enabled {table.enabled_actions()}, last moves {moves[-8:]}"
            )
        moves.append(move)
        if moves.count("discard") == 3:
            view.screenshot("-table-mid", element=table.root)
    else:
        pytest.fail(f"the round did not end after {MAX_TABLE_MOVES} moves: {moves[-10:]}")

    view.screenshot("-table-end" if whole_round else "-table-moves", element=table.root)
    assert "discard" in moves, f"seat 0 never discarded: {moves}"
    assert seen_selected, "a clicked hand card was never drawn as selected (.lp-selected)"
    assert table.root.locator(".lp-log li").count() > len(moves), "the log does not narrate the bots' moves"
    if whole_round:
        assert table.round_is_over()
        scores = table.root.locator(".lp-scores").first.inner_text()
        assert re.search(r"\d", scores), f"no scores after the round: {scores!r}"
    _no_errors(view)


# --- the step-through player ----------------------------------------------------------

@pytest.mark.parametrize("notebook", _params(STEP_NOTEBOOKS, "the step-through player (scenario_player)"))
def test_step_through_the_worked_example(notebook: Path, open_notebook: Any) -> None:
    view = open_notebook(notebook)
    page = view.page
    # The Next button is found by its icon, which no translation changes.
    next_button = page.locator("button:has(i.fa-step-forward)").first
    player = page.locator(".widget-vbox", has=next_button).last
    next_button.scroll_into_view_if_needed()
    steps = player.locator("ol.lp-log > li")
    assert steps.count() == 0
    clicks = 0
    while next_button.is_enabled() and clicks < 50:
        board_before = player.inner_text()
        view.click(next_button)
        clicks += 1
        assert steps.count() == clicks, f"step {clicks} is not in the log"
        assert player.inner_text() != board_before
        if clicks == 2:
            view.screenshot("-step-2", whole=False)
    assert clicks >= 3, "the player has fewer than three steps"
    assert not next_button.is_enabled(), "Next is still enabled after 50 steps"
    assert player.locator(".lp-mismatch").count() == 0, "a step's expectation disagrees with the engine"
    assert player.locator(".lp-refused").count() >= 1, "the worked example's refused lay-off (L-5.3) is not shown"
    view.screenshot("-steps-done", element=player)
    _no_errors(view)


# --- the rules tour -------------------------------------------------------------------

def _result_text(tour: Any) -> str:
    text: str = tour.locator(".lp-result").first.inner_text() if tour.locator(".lp-result").count() else ""
    return text


def _result_html(tour: Any) -> str:
    # HTML, not text: a card's suit is drawn in SVG, so two answers can read the same as text.
    markup: str = tour.locator(".lp-result").first.inner_html()
    return markup


def _visible(locator: Any) -> list[Any]:
    return [locator.nth(i) for i in range(locator.count()) if locator.nth(i).is_visible()]


def _change_input(tour: Any) -> str:
    """Change what a tour control asks the engine, as a person would; return what was done.

    The tours answer on load, so pressing the button on the same input may rightly show
    the same answer: the question has to change first."""
    done = []
    texts = _visible(tour.locator("input[type=text], input:not([type])"))
    picks = _visible(tour.locator("button.lp-pick"))
    handles = _visible(tour.locator(".noUi-handle"))
    selects = _visible(tour.locator("select"))
    if texts and texts[0].input_value().split():
        # One card fewer: a different question (and often a refusal worth showing).
        texts[0].fill(" ".join(texts[0].input_value().split()[:-1]))
        texts[0].press("Enter")
        done.append("typed")
    elif picks:
        picks[-1].click()  # add the last card of the picker (a joker)
        done.append("picked")
    elif handles:
        # Drag the handle to the far right end of its slider.
        handle = handles[0].bounding_box()
        track = tour.locator(".noUi-target").first.bounding_box()
        page = tour.page
        page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
        page.mouse.down()
        page.mouse.move(track["x"] + track["width"] + 20, handle["y"] + handle["height"] / 2, steps=5)
        page.mouse.up()
        done.append("slid")
    elif selects:
        selects[0].select_option(index=selects[0].locator("option").count() - 1)
        done.append("selected")
    return ", ".join(done)


def _press_button(tour: Any) -> str:
    buttons = [b for b in _visible(tour.locator("button.lp-try, button.lp-buy, button.lp-pass")) if b.is_enabled()]
    if not buttons:
        return ""
    # The last button: on tours with several (Buy/Pass, two lay-offs, two draws) the
    # first one's answer is often already on show.
    buttons[-1].click()
    label: str = buttons[-1].inner_text().strip()
    return "pressed " + label


def _use_and_wait(view: Any, act: Any) -> str:
    mark = view.mark()
    done: str = act()
    view.wait_kernel(mark)
    return done


@pytest.mark.parametrize("notebook", _params(TOUR_NOTEBOOKS, "the rules tour (liverpool.widgets.tour)"))
def test_rules_tour_controls_answer(notebook: Path, open_notebook: Any) -> None:
    view = open_notebook(notebook)
    tours = view.page.locator(".lp-tour")
    if tours.count() == 0:
        pytest.skip(f"{notebook.name} mentions the tour but shows no .lp-tour control")
    silent: list[str] = []
    used = 0
    for index in range(tours.count()):
        tour = tours.nth(index)
        name = next(c for c in (tour.get_attribute("class") or "").split() if c.startswith("lp-tour-"))
        if tour.locator(".lp-result").count() == 0:
            continue
        tour.scroll_into_view_if_needed()
        before = _result_html(tour)
        how = _use_and_wait(view, lambda: _change_input(tour))
        # Controls that answer as the input changes need no button; the others do.
        if not how or _result_html(tour) == before:
            how = ", ".join(filter(None, [how, _use_and_wait(view, lambda: _press_button(tour))]))
            if _result_html(tour) == before:
                silent.append(f"{name} ({how or 'nothing to use'})")
        used += 1
        assert _result_text(tour).strip(), f"{name}: the result area is empty after: {how}"
    assert used >= 1, "no tour control has a result area"
    assert not silent, f"these tour controls did not answer a changed question: {silent}"
    view.screenshot("-tour-used")
    _no_errors(view)
