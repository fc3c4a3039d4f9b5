"""The learner's language: English (the default), Portuguese and Spanish.

Every sentence the package shows a person (engine refusals, widget labels, the
card table's log) is looked up here, in catalogues kept as data: one JSON file per
*domain* (``engine``, ``cards``, ``table``, ``tour``, …) per language, under
``catalogues/<language>/<domain>.json``, mapping a stable message id to a
``str.format`` template. Codes and rule ids never change with the language.

>>> from liverpool import i18n
>>> with i18n.language("pt"):
...     i18n.text("common", "seat", seat=2)
'jogador 2'
>>> i18n.text("common", "seat", seat=2)
'seat 2'
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "LANGUAGES",
    "set_language",
    "get_language",
    "language",
    "text",
    "has_text",
    "catalogue",
    "domains",
    "placeholders",
]

#: The languages every catalogue must cover, the default first.
LANGUAGES: tuple[str, ...] = ("en", "pt", "es")
DEFAULT = "en"

_current = DEFAULT


def _check(lang: str) -> str:
    if not isinstance(lang, str) or lang.lower() not in LANGUAGES:
        from liverpool.errors import InvalidArgumentError

        raise InvalidArgumentError(
            f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}", code="invalid_argument"
        )
    return lang.lower()


def set_language(lang: str) -> None:
    """Make every refusal message and widget label speak ``lang`` ("en", "pt" or "es")."""
    global _current
    _current = _check(lang)


def get_language() -> str:
    """The language in use ("en" unless :func:`set_language` changed it)."""
    return _current


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Use ``lang`` inside a ``with`` block, then restore the previous language."""
    global _current
    previous, _current = _current, _check(lang)
    try:
        yield _current
    finally:
        _current = previous


@cache
def catalogue(lang: str, domain: str) -> dict[str, str]:
    """The message templates of ``domain`` in ``lang`` (an empty dict if there is no such file)."""
    path = resources.files(__name__).joinpath("catalogues", lang, f"{domain}.json")
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def domains() -> list[str]:
    """Every catalogue domain (the file names of the default language)."""
    folder = resources.files(__name__).joinpath("catalogues", DEFAULT)
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


def placeholders(template: str) -> set[str]:
    """The ``{name}`` fields a template uses."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def has_text(domain: str, key: str) -> bool:
    """Whether the default catalogue of ``domain`` has ``key``."""
    return key in catalogue(DEFAULT, domain)


def text(domain: str, key: str, /, lang: str | None = None, **params: Any) -> str:
    """The message ``key`` of ``domain`` in ``lang`` (default: the current language),
    filled with ``params``. Falls back to English, then to the key itself, so a missing
    translation shows something readable instead of failing (the catalogue tests make
    sure nothing is missing)."""
    lang = _current if lang is None else _check(lang)
    template = catalogue(lang, domain).get(key)
    if template is None:
        template = catalogue(DEFAULT, domain).get(key, key)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
