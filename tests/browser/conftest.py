"""The real-browser test's machinery: one Voila server on the whole ``notebooks/``
tree and one headless Chromium for the session (docs/browser-test.md).

Every test here carries the ``browser`` marker (``pytest -m "not browser"`` leaves them
out). Without ``/usr/bin/chromium`` or playwright they are skipped, unless
``LIVERPOOL_REQUIRE_BROWSER=1`` (set by ``scripts/test.sh``) turns that into a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from liverpool.tools.serve import stop

from .browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    KNOWN_CONSOLE_NOISE,
    NOTEBOOKS,
    RENDER_TIMEOUT_MS,
    SCREENSHOTS,
    VIEWPORT,
    discover_notebooks,
    screenshot_path,
)

# Pages rendering at once, ahead of the test that needs them (the machine has 2 cores).
PREFETCH = 2


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives the notebooks in a real browser (Voila + Chromium)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def worker_group(nodeid: str) -> str:
    """Which of two workers runs a browser test (``scripts/test.sh`` runs them with
    ``pytest -n 2``): the English pages and the way-in on one, the Portuguese and Spanish
    pages on the other (about the same time each). A language's tests stay together, in
    their collection order, so a page kept by one test is there for the next (each page is
    loaded once) and the language test reads the texts the render test saved."""
    if "tests/browser/" not in nodeid:
        return nodeid
    param = nodeid.partition("[")[2].rstrip("]")
    return "translations" if param.split("/")[0] in ("pt", "es") else "english and the way in"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under pytest-xdist, whole groups of :func:`worker_group` go to a worker.
    (``--dist loadgroup`` cannot be used: the pytest-xdist installed here renames test ids
    in a way this pytest no longer reads, so its groups are ignored.)"""
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid)

    return ByGroup(config, log)


def _free_port() -> int:
    # LIVERPOOL_VOILA_PORT pins the port (e.g. to a range of one's own on a shared machine);
    # under pytest-xdist worker gwN uses that port + N.
    if os.environ.get("LIVERPOOL_VOILA_PORT"):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
        return int(os.environ["LIVERPOOL_VOILA_PORT"]) + (int(worker) if worker.isdigit() else 0)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _require(reason: str) -> None:
    if os.environ.get("LIVERPOOL_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (LIVERPOOL_REQUIRE_BROWSER=1); run scripts/setup.sh")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser_work_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("browser")


@pytest.fixture(scope="session")
def voila_url(browser_work_dir: Path) -> Iterator[str]:
    """A Voila server on 127.0.0.1 serving the whole notebooks tree; stopped by PID."""
    voila = Path(sys.executable).parent / "voila"
    if not voila.exists():
        _require("voila is not installed (the 'notebooks' extra)")
    port = _free_port()
    env = dict(os.environ)
    for name in ("RUNTIME", "CONFIG", "DATA"):
        folder = browser_work_dir / f"jupyter-{name.lower()}"
        folder.mkdir(exist_ok=True)
        env[f"JUPYTER_{name}_DIR"] = str(folder)
    env["IPYTHONDIR"] = str(browser_work_dir / "ipython")
    log = (browser_work_dir / "voila.log").open("w")
    command = [
        str(voila),
        str(NOTEBOOKS),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--show_tracebacks=True",  # so a failing cell's traceback is in the test's message
        # Voila's own "shut the kernel down when the page closes" beacon carries no
        # XSRF token; without this every closed page leaves its kernel running.
        "--Voila.tornado_settings={'disable_check_xsrf': True}",
    ]
    server = subprocess.Popen(command, cwd=NOTEBOOKS, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                pytest.fail(f"voila exited with {server.returncode}; see {log.name}")
            try:
                urllib.request.urlopen(url + "/", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"voila did not answer on {url} within 60 s; see {log.name}")
                time.sleep(0.2)
        yield url
    finally:
        stop(server)  # the same SIGTERM-then-kill as `liverpool serve`
        log.close()


def remove_stale_screenshots() -> None:
    """Delete the pictures of notebooks that no longer exist. Only those: another run
    (a teammate's `make test` in the same checkout) may be writing the others now."""
    current = {(screenshot_path(path).parent, path.stem) for path in discover_notebooks()}
    for picture in [*SCREENSHOTS.glob("*/*.png"), *SCREENSHOTS.glob("*/*.txt")]:
        if not any(folder == picture.parent and picture.stem.startswith(stem) for folder, stem in current):
            picture.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _require("playwright is not installed (the 'dev' extra)")
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        _require(f"{CHROMIUM} is missing: apt-get install -y chromium")
    remove_stale_screenshots()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


MESSAGE_ID = re.compile(r'"msg_id":\s*"([^"]+)"')
EXECUTION_STATE = re.compile(r'"execution_state":\s*"(\w+)"')
# A click that sends nothing to the kernel (a purely visual control) is known as such after this.
NOTHING_SENT_MS = 1_000


@dataclass
class NotebookPage:
    """One notebook rendered by Voila in its own browser page, with what went wrong on it.

    It also watches the kernel's websocket: the messages the page sends, and the
    kernel's "idle" status for each, so a test can wait until the kernel has handled a
    click and the page has drawn the answer, with no guessing at delays."""

    page: Any
    notebook: Path
    console_errors: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    handled: set[str] = field(default_factory=set)

    def watch_websocket(self, websocket: Any) -> None:
        websocket.on("framesent", self._on_sent)
        websocket.on("framereceived", self._on_received)

    @staticmethod
    def _text(payload: str | bytes) -> str:
        return payload if isinstance(payload, str) else payload.decode("utf-8", "replace")

    def _on_sent(self, payload: str | bytes) -> None:
        found = MESSAGE_ID.search(self._text(payload))
        if found:
            self.sent.append(found.group(1))

    def _on_received(self, payload: str | bytes) -> None:
        text = self._text(payload)
        state = EXECUTION_STATE.search(text)
        ids = MESSAGE_ID.findall(text)  # the status's own id, then its parent's: the request's
        if state and state.group(1) == "idle" and len(ids) >= 2:
            self.handled.add(ids[1])

    def mark(self) -> int:
        return len(self.sent)

    def wait_kernel(self, mark: int, timeout_ms: int = RENDER_TIMEOUT_MS) -> None:
        """Wait until the kernel has handled every message sent since ``mark`` (the kernel
        handles them in order, so also all sent before), then for the page to draw."""
        start = time.monotonic()
        while True:
            since = self.sent[mark:]
            waited_ms = (time.monotonic() - start) * 1000
            if since and all(message in self.handled for message in since):
                break
            if not since and waited_ms >= NOTHING_SENT_MS:
                break
            if waited_ms >= timeout_ms:
                raise AssertionError(f"the kernel did not answer within {timeout_ms} ms")
            self.page.wait_for_timeout(20)  # lets playwright deliver the websocket events
        # Two animation frames: the widget views apply the updates, the browser paints.
        self.page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

    def click(self, locator: Any, timeout_ms: int = 30_000) -> None:
        """Click as a person would, then wait for the kernel's answer to be on the page."""
        mark = self.mark()
        locator.click(timeout=timeout_ms)
        self.wait_kernel(mark)

    def text(self) -> str:
        text: str = self.page.inner_text("#rendered_cells")
        return text

    def prose_text(self) -> str:
        """The page's text without code (``<code>``: identifiers such as ``seat`` in a
        Portuguese sentence are Python, not English) and without the welcome page's
        glossary table, which shows the three languages side by side on purpose (its
        header names all three); printed output stays."""
        text: str = self.page.evaluate(
            """() => {
                const copy = document.querySelector('#rendered_cells').cloneNode(true);
                copy.querySelectorAll('code').forEach((code) => code.remove());
                const languages = ['English', 'Português', 'Español'];
                copy.querySelectorAll('table').forEach((table) => {
                    const header = [...table.querySelectorAll('th')].map((th) => th.textContent.trim());
                    if (languages.every((name) => header.includes(name))) table.remove();
                });
                document.body.appendChild(copy);  // innerText needs the layout
                const text = copy.innerText;
                copy.remove();
                return text;
            }"""
        )
        return text

    def stderr_outputs(self) -> list[str]:
        outputs = self.page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
        return [outputs.nth(i).inner_text() for i in range(outputs.count())]

    def screenshot(self, suffix: str = "", whole: bool = True, element: Any = None) -> Path:
        """The whole page (or the viewport, or one ``element``) into target/screenshots."""
        target = screenshot_path(self.notebook, suffix)
        if whole or element is not None:
            # Voila scrolls inside #rendered_cells, and a screenshot only sees the
            # viewport: grow the viewport to show all of it.
            height = self.page.evaluate("document.querySelector('#rendered_cells').scrollHeight")
            self.page.set_viewport_size({"width": VIEWPORT["width"], "height": max(int(height) + 40, 400)})
        try:
            if element is not None:
                element.screenshot(path=str(target))
            else:
                self.page.screenshot(path=str(target), full_page=True)
        finally:
            self.page.set_viewport_size(VIEWPORT)
        return target


class PagePool:
    """The session's notebook pages. Voila runs a notebook's cells before it sends the
    page, so pages are started ahead (``PREFETCH`` at a time, the kernels run in
    parallel) and a page that a later test will click on is kept instead of rendered
    again."""

    def __init__(self, browser: Any, voila_url: str) -> None:
        self.browser = browser
        self.voila_url = voila_url
        self.started: dict[Path, NotebookPage] = {}
        self.kept: dict[Path, NotebookPage] = {}
        self.texts: dict[Path, str] = {}

    def _start(self, notebook: Path) -> NotebookPage:
        page = self.browser.new_page(viewport=VIEWPORT)
        # Voila asks a CDN for fonts: nothing leaves this machine.
        page.route(
            "**/*",
            lambda route: route.continue_()
            if route.request.url.startswith(self.voila_url)
            else route.fulfill(status=200, body=""),
        )
        view = NotebookPage(page=page, notebook=notebook)

        def on_console(message: Any) -> None:
            if message.type == "error" and not KNOWN_CONSOLE_NOISE.search(message.text):
                view.console_errors.append(message.text)

        page.on("console", on_console)
        page.on("pageerror", lambda error: view.console_errors.append(f"pageerror: {error}"))
        page.on("websocket", view.watch_websocket)
        relative = notebook.relative_to(NOTEBOOKS).as_posix()
        page.goto(f"{self.voila_url}/voila/render/{relative}", timeout=RENDER_TIMEOUT_MS, wait_until="commit")
        return view

    def open(self, notebook: Path, prefetch_from: list[Path] | None = None) -> NotebookPage:
        """The notebook's page, rendered and idle; kept pages are handed out once."""
        if notebook in self.kept:
            return self.kept.pop(notebook)
        view = self.started.pop(notebook, None) or self._start(notebook)
        if prefetch_from and notebook in prefetch_from:
            ahead = prefetch_from[prefetch_from.index(notebook) + 1 :]
            for upcoming in ahead:
                if len(self.started) >= PREFETCH:
                    break
                if upcoming not in self.started and upcoming not in self.kept:
                    self.started[upcoming] = self._start(upcoming)
        view.page.wait_for_selector("#rendered_cells", state="visible", timeout=RENDER_TIMEOUT_MS)
        view.page.wait_for_load_state("networkidle", timeout=RENDER_TIMEOUT_MS)
        return view

    def close(self) -> None:
        for view in [*self.started.values(), *self.kept.values()]:
            view.page.close()


@pytest.fixture(scope="session")
def page_pool(browser: Any, voila_url: str) -> Iterator[PagePool]:
    pool = PagePool(browser, voila_url)
    yield pool
    pool.close()


@pytest.fixture
def open_notebook(page_pool: PagePool) -> Iterator[Any]:
    """``open_notebook(path, keep=False, prefetch_from=None)`` renders a notebook and
    returns a :class:`NotebookPage`. ``keep=True`` (for tests that only look) hands
    the untouched page to the next test that opens the same notebook."""
    opened: list[tuple[NotebookPage, bool]] = []

    def open_(notebook: Path, keep: bool = False, prefetch_from: list[Path] | None = None) -> NotebookPage:
        view = page_pool.open(notebook, prefetch_from)
        opened.append((view, keep))
        return view

    yield open_
    for view, keep in opened:
        if keep:
            page_pool.kept[view.notebook] = view
        else:
            view.page.close()
