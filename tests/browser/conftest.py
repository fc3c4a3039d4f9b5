"""The real-browser test's machinery: one Voila server on the whole ``notebooks/``
tree and one headless Chromium for the session (docs/browser-test.md).

Every test here carries the ``browser`` marker (``pytest -m "not browser"`` leaves them
out). Without ``/usr/bin/chromium`` or playwright they are skipped, unless
``LIVERPOOL_REQUIRE_BROWSER=1`` (set by ``scripts/test.sh``) turns that into a failure.
"""

from __future__ import annotations

import os
import shutil
import signal
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

from browser_support import CHROMIUM, CHROMIUM_ARGS, KNOWN_CONSOLE_NOISE, NOTEBOOKS, RENDER_TIMEOUT_MS, VIEWPORT, screenshot_path


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives the notebooks in a real browser (Voila + Chromium)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
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
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _require("playwright is not installed (the 'dev' extra)")
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        _require(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class NotebookPage:
    """One notebook rendered by Voila in its own browser page, with what went wrong on it."""

    page: Any
    notebook: Path
    console_errors: list[str] = field(default_factory=list)

    def text(self) -> str:
        text: str = self.page.inner_text("#rendered_cells")
        return text

    def stderr_outputs(self) -> list[str]:
        outputs = self.page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
        return [outputs.nth(i).inner_text() for i in range(outputs.count())]

    def wait_idle(self) -> None:
        """Wait until no request is in flight (widget messages travel on a websocket,
        so also give the kernel's reply a moment to be drawn)."""
        self.page.wait_for_load_state("networkidle")

    def screenshot(self, suffix: str = "", whole: bool = True) -> Path:
        target = screenshot_path(self.notebook, suffix)
        if whole:
            # Voila scrolls inside #rendered_cells: grow the viewport to show all of it.
            height = self.page.evaluate("document.querySelector('#rendered_cells').scrollHeight")
            self.page.set_viewport_size({"width": VIEWPORT["width"], "height": max(int(height) + 40, 400)})
        self.page.screenshot(path=str(target), full_page=True)
        if whole:
            self.page.set_viewport_size(VIEWPORT)
        return target


@pytest.fixture
def open_notebook(browser: Any, voila_url: str) -> Iterator[Any]:
    """``open_notebook(path)`` renders a notebook and returns a :class:`NotebookPage`."""
    pages: list[Any] = []

    def open_(notebook: Path) -> NotebookPage:
        page = browser.new_page(viewport=VIEWPORT)
        pages.append(page)
        # Voila asks a CDN for fonts: nothing leaves this machine.
        page.route(
            "**/*",
            lambda route: route.continue_()
            if route.request.url.startswith(voila_url)
            else route.fulfill(status=200, body=""),
        )
        result = NotebookPage(page=page, notebook=notebook)

        def on_console(message: Any) -> None:
            if message.type == "error" and not KNOWN_CONSOLE_NOISE.search(message.text):
                result.console_errors.append(message.text)

        page.on("console", on_console)
        page.on("pageerror", lambda error: result.console_errors.append(f"pageerror: {error}"))
        relative = notebook.relative_to(NOTEBOOKS).as_posix()
        page.goto(f"{voila_url}/voila/render/{relative}", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_selector("#rendered_cells", state="visible", timeout=RENDER_TIMEOUT_MS)
        page.wait_for_load_state("networkidle", timeout=RENDER_TIMEOUT_MS)
        return result

    yield open_
    for page in pages:
        page.close()
