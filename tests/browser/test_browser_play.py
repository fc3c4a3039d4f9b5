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

from browser_support import NOTEBOOKS, notebooks_using, screenshot_path

CHANGE_TIMEOUT_MS = 30_000
# A round between greedy bots ends in a few dozen turns; this only stops a stuck loop.
MAX_TABLE_MOVES = 300
SETTLE_MS = 250


def _params(paths: list[Path], what: str) -> list[Any]:
    if not paths:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no notebook uses {what} yet"), id="none")]
    return [pytest.param(path, id=path.relative_to(NOTEBOOKS).as_posix()) for path in paths]


def _no_errors(view: Any) -> None:
    errors = view.stderr_outputs()
    assert not errors, f"Python wrote to stderr: {errors}"
    assert not view.console_errors, f"the browser reported errors: {view.console_errors}"


# --- the card table -------------------------------------------------------------------

# What the table shows, as one string: it changes whenever the kernel answers a click.
TABLE_SIGNATURE_JS = """
(root) => {
  const text = (selector) => [...root.querySelectorAll(selector)].map((e) => e.innerText).join("/");
  const cards = [...root.querySelectorAll(".lp-hand .lp-card")]
    .map((c) => c.dataset.card + (c.classList.contains("lp-selected") ? "*" : "")).join(" ");
  const enabled = [...root.querySelectorAll("button.lp-action")]
    .filter((b) => !b.disabled && b.offsetParent !== null).map((b) => b.className).join(" ");
  return [root.querySelectorAll(".lp-log li").length, text(".lp-message"), cards, enabled,
          text(".lp-board"), text(".lp-hint-panel")].join("|");
}
"""


class Table:
    """The ``.lp-table`` on a page, driven through its DOM hooks (docs/card-table.md)."""

    def __init__(self, view: Any, index: int = 0) -> None:
        self.view = view
        self.root = view.page.locator(".lp-table").nth(index)

    def signature(self) -> str:
        value: str = self.root.evaluate(TABLE_SIGNATURE_JS)
        return value

    def wait_for_change(self, before: str) -> None:
        handle = self.root.element_handle()
        self.view.page.wait_for_function(
            f"([root, before]) => ({TABLE_SIGNATURE_JS})(root) !== before", arg=[handle, before], timeout=CHANGE_TIMEOUT_MS
        )

    def settle(self) -> None:
        """Wait until the table stops changing: the kernel may send several updates
        (bots' moves, paced) after one click."""
        previous = self.signature()
        for _ in range(int(CHANGE_TIMEOUT_MS / SETTLE_MS)):
            self.view.page.wait_for_timeout(SETTLE_MS)
            current = self.signature()
            if current == previous:
                return
            previous = current

    def click(self, locator: Any) -> None:
        """Click, then wait until the table has redrawn with the kernel's answer."""
        before = self.signature()
        locator.click()
        self.wait_for_change(before)
        self.settle()

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


def _play_one_move(table: Table, tried_go_down: set[tuple[str, ...]]) -> str:
    """Seat 0's next move, chosen as a cautious beginner: never buy, draw from the stock,
    go down when the engine offers a go-down, throw away the last card of the hand."""
    enabled = table.enabled_actions()
    hand = tuple(table.hand())
    for name in ("cut", "pass", "draw_stock", "decline_discard"):
        if name in enabled:
            table.click(table.action(name))
            return name
    if "go_down" in enabled and hand not in tried_go_down:
        tried_go_down.add(hand)  # with nothing selected the table offers the engine's go-downs of the hand
        table.click(table.action("go_down"))
        return "go_down"
    if "discard" in enabled:
        last = table.root.locator(".lp-hand .lp-card").last
        table.click(last)
        assert "lp-selected" in (last.get_attribute("class") or ""), "a clicked card was not selected"
        table.click(table.action("discard"))
        return "discard"
    if enabled:  # e.g. only take_discard: the engine allows nothing else now
        table.click(table.action(enabled[0]))
        return enabled[0]
    return ""


TABLE_NOTEBOOKS = notebooks_using("card_table")


@pytest.mark.parametrize("notebook", _params(TABLE_NOTEBOOKS, "the card table (card_table)"))
def test_a_whole_round_at_the_card_table(notebook: Path, open_notebook: Any) -> None:
    view = open_notebook(notebook)
    table = Table(view)
    table.root.scroll_into_view_if_needed()
    assert table.root.locator(".lp-hand .lp-card").count() > 0 or "cut" in table.enabled_actions(), "no hand, no cut"
    table.root.screenshot(path=str(screenshot_path(view.notebook, "-table-start")))

    table.click(table.root.locator("button.lp-hint"))
    assert table.root.locator(".lp-hint-panel").first.inner_text().strip(), "the hint showed nothing"

    moves: list[str] = []
    tried_go_down: set[tuple[str, ...]] = set()
    mid_game_shot = False
    for _ in range(MAX_TABLE_MOVES):
        if table.round_is_over():
            break
        move = _play_one_move(table, tried_go_down)
        if move:
            moves.append(move)
        else:  # the bots are still playing (the table may pace their moves)
            table.wait_for_change(table.signature())
            table.settle()
        if not mid_game_shot and moves.count("discard") == 3:
            table.root.screenshot(path=str(screenshot_path(view.notebook, "-table-mid")))
            mid_game_shot = True
    else:
        pytest.fail(f"the round did not end after {MAX_TABLE_MOVES} moves: {moves[-10:]}")

    table.root.screenshot(path=str(screenshot_path(view.notebook, "-table-end")))
    assert "discard" in moves, f"seat 0 never discarded: {moves}"
    assert table.root.locator(".lp-log li").count() > len(moves), "the log does not narrate the bots' moves"
    scores = table.root.locator(".lp-scores").first.inner_text()
    assert re.search(r"\d", scores), f"no scores after the round: {scores!r}"
    _no_errors(view)


# --- the step-through player ----------------------------------------------------------

STEP_NOTEBOOKS = notebooks_using("scenario_player")


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
        next_button.click()
        clicks += 1
        page.wait_for_function(
            "([player, n]) => player.querySelectorAll('ol.lp-log > li').length === n",
            arg=[player.element_handle(), clicks],
            timeout=CHANGE_TIMEOUT_MS,
        )
        assert player.inner_text() != board_before
        if clicks == 2:
            view.screenshot("-step-2", whole=False)
    assert clicks >= 3, "the player has fewer than three steps"
    assert not next_button.is_enabled(), "Next is still enabled after 50 steps"
    assert player.locator(".lp-mismatch").count() == 0, "a step's expectation disagrees with the engine"
    assert player.locator(".lp-refused").count() >= 1, "the worked example's refused lay-off (L-5.3) is not shown"
    player.screenshot(path=str(screenshot_path(view.notebook, "-steps-done")))
    _no_errors(view)


# --- the rules tour -------------------------------------------------------------------

TOUR_NOTEBOOKS = notebooks_using("widgets.tour", "widgets import tour", "go_down_explorer")


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
    return "pressed " + buttons[-1].inner_text().strip()


def _result_changes(tour: Any, before: str, timeout_ms: int) -> bool:
    try:
        tour.page.wait_for_function(
            "([tour, before]) => { const r = tour.querySelector('.lp-result'); return r && r.innerHTML !== before; }",
            arg=[tour.element_handle(), before],
            timeout=timeout_ms,
        )
    except Exception:  # playwright's TimeoutError
        return False
    return True


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
        how = _change_input(tour)
        # Controls that answer as the input changes need no button; the others do.
        if not (how and _result_changes(tour, before, 3_000)):
            how = ", ".join(filter(None, [how, _press_button(tour)]))
            if not _result_changes(tour, before, CHANGE_TIMEOUT_MS // 3):
                silent.append(f"{name} ({how or 'nothing to use'})")
        used += 1
        assert _result_text(tour).strip(), f"{name}: the result area is empty after: {how}"
    assert used >= 1, "no tour control has a result area"
    assert not silent, f"these tour controls did not answer a changed question: {silent}"
    view.screenshot("-tour-used")
    _no_errors(view)
