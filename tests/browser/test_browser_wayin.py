"""The way in, in a real browser (issue 15 item 4): ``liverpool serve``'s printed address
opens the welcome page of each language with its links, its glossary and its language
switch; and at a phone's width (390 px) the rules tour's card picker wraps, so the last
card of a suit (K♠) can be picked. A handful of page loads; screenshots land in
``target/screenshots/way-in/``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_support import RENDER_TIMEOUT_MS, SCREENSHOTS

WELCOME = "00-welcome.ipynb"
TITLES = {
    "en": "Liverpool Rummy: learn the game here",
    "pt": "Liverpool Rummy: aprenda o jogo aqui",
    "es": "Liverpool Rummy: aprende el juego aquí",
}
GLOSSARY_HEADINGS = {"en": "Glossary", "pt": "Glossário", "es": "Glosario"}
LANGUAGE_NAMES = {"en": "English", "pt": "Português", "es": "Español"}
NOTEBOOK_STEMS = ["01-first-look", "02-rules-tour", "03-worked-example", "04-play", "05-explore", "06-your-own-bot"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``liverpool serve`` itself (Voila, token, Host check); yields the printed address."""
    work = tmp_path_factory.mktemp("way-in")
    env = dict(os.environ)
    for name in ("RUNTIME", "CONFIG", "DATA"):
        env[f"JUPYTER_{name}_DIR"] = str(work / f"jupyter-{name.lower()}")
    env["IPYTHONDIR"] = str(work / "ipython")
    command = [sys.executable, "-m", "liverpool", "serve", "--port", "0", "--language", "en"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    try:
        url = next((line.strip() for line in server.stdout if "http://" in line), "")
        assert url, "liverpool serve printed no address"
        yield url
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        server.stdout.close()


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 800, "height": 900})
    tab = context.new_page()
    yield tab
    context.close()


def _open(page: Any, url: str) -> None:
    page.goto(url, timeout=RENDER_TIMEOUT_MS, wait_until="commit")
    page.wait_for_selector("#rendered_cells", state="visible", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle", timeout=RENDER_TIMEOUT_MS)


def _shot(page: Any, name: str) -> Path:
    target = SCREENSHOTS / "way-in" / f"{name}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    height = page.evaluate("document.querySelector('#rendered_cells').scrollHeight")
    width = page.viewport_size["width"]
    page.set_viewport_size({"width": width, "height": max(int(height) + 40, 400)})
    page.screenshot(path=str(target), full_page=True)
    page.set_viewport_size({"width": width, "height": 900})
    return target


def _check_welcome(page: Any, lang: str, base: str) -> None:
    assert page.title() == TITLES[lang]  # a title in words, not a file name
    text = page.inner_text("#rendered_cells")
    assert GLOSSARY_HEADINGS[lang] in text and "src" not in text.split()
    links = page.eval_on_selector_all("#rendered_cells a[href]", "links => links.map(a => [a.textContent, a.href])")
    targets = {href for _, href in links}
    for stem in NOTEBOOK_STEMS:  # the six notebooks, each a real link in the page's language
        assert f"{base}/voila/render/{lang}/{stem}.ipynb" in targets, stem
    for other in set(LANGUAGE_NAMES) - {lang}:  # the language switch
        assert [LANGUAGE_NAMES[other], f"{base}/voila/render/{other}/{WELCOME}"] in links, other
    # The glossary table: this language's column first.
    header = page.eval_on_selector_all("#rendered_cells table th", "cells => cells.map(c => c.textContent.trim())")
    assert header[:3] == [LANGUAGE_NAMES[lang], *[LANGUAGE_NAMES[o] for o in ("en", "pt", "es") if o != lang]]


def test_the_printed_address_opens_the_welcome_page_in_every_language(served: str, page: Any) -> None:
    parts = urllib.parse.urlsplit(served)
    base = f"{parts.scheme}://{parts.netloc}"
    assert parts.path == f"/voila/render/en/{WELCOME}" and "token=" in parts.query
    _open(page, served)
    _check_welcome(page, "en", base)
    _shot(page, "welcome-en")
    # The language switch is a link a person clicks; the token's cookie carries the session.
    page.get_by_role("link", name=LANGUAGE_NAMES["pt"]).first.click()
    page.wait_for_url(f"{base}/voila/render/pt/{WELCOME}", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_selector("#rendered_cells", state="visible", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle", timeout=RENDER_TIMEOUT_MS)
    _check_welcome(page, "pt", base)
    _shot(page, "welcome-pt")
    _open(page, f"{base}/voila/render/es/{WELCOME}")
    _check_welcome(page, "es", base)
    _shot(page, "welcome-es")
    # On a phone the page's text (and the glossary table) wraps: no line is wider than the screen.
    page.set_viewport_size({"width": 390, "height": 900})
    # Voila's panels are resized by script after the window's resize event: wait for them.
    page.wait_for_function(
        "() => document.querySelector('#rendered_cells').getBoundingClientRect().right <= window.innerWidth + 1",
        timeout=RENDER_TIMEOUT_MS,
    )
    wide = page.evaluate(
        """() => [...document.querySelectorAll('#rendered_cells p, #rendered_cells li, #rendered_cells h1, #rendered_cells h2')]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => e.textContent.slice(0, 40))"""
    )
    _shot(page, "welcome-es-390")
    assert wide == [], wide
    page.set_viewport_size({"width": 800, "height": 900})


def test_the_meld_checker_king_of_spades_is_clickable_at_390_px(served: str, page: Any) -> None:
    parts = urllib.parse.urlsplit(served)
    base = f"{parts.scheme}://{parts.netloc}"
    page.set_viewport_size({"width": 390, "height": 900})
    _open(page, f"{base}/voila/render/en/02-rules-tour.ipynb?{parts.query}")  # the token: it may run alone
    checker = page.locator(".lp-tour-meld-checker")
    assert checker.locator(".lp-refusal").count() == 0  # it opens on a valid meld (7♠ 7♠ 7♥), no error
    king = checker.locator("button.lp-pick", has_text="K♠")
    king.scroll_into_view_if_needed(timeout=RENDER_TIMEOUT_MS)
    box = king.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box  # not cut off
    _shot(page, "rules-tour-390")  # before the checks: the picture shows what failed
    # Nothing in the rules tour is wider than the page.
    overflow = page.evaluate(
        """() => [...document.querySelectorAll('.lp-tour button, .lp-tour input, .lp-tour select')]
            .filter((e) => e.offsetParent !== null)
            .filter((e) => { const r = e.getBoundingClientRect(); return r.right > window.innerWidth + 1; })
            .map((e) => [e.closest('.lp-tour').className.match(/lp-tour-[\\w-]+/)[0], e.textContent || e.value || e.tagName,
                         Math.round(e.getBoundingClientRect().right)])"""
    )
    assert overflow == [], overflow
    king.click()
    checker.locator('.lp-result [data-card="K♠"], [data-card="K♠"]').first.wait_for(timeout=RENDER_TIMEOUT_MS)
    assert "K♠" in king.inner_text()
    page.set_viewport_size({"width": 800, "height": 900})
    _shot(page, "rules-tour-800")
