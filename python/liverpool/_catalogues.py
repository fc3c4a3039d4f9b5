"""The catalogues as data: templates, plural forms and the current language.

The layer under :mod:`liverpool.errors` and :mod:`liverpool.i18n`. It raises nothing and
imports nothing of ``liverpool``, so ``errors`` renders its sentences from it and
``i18n`` (which checks a language name and raises ``InvalidArgumentError``) builds on
both, with no module importing one that imports it back (tests/test_layout_python.py).
Everything here is public as :mod:`liverpool.i18n`'s; the module docs are there.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Union

from babel import Locale

#: A catalogue entry: a ``str.format`` template, or a plural template (a dict of
#: CLDR plural categories and exact values, see :mod:`liverpool.i18n`).
Template = Union[str, dict[str, str]]

#: The languages every catalogue must cover, the default first.
LANGUAGES: tuple[str, ...] = ("en", "pt", "es")
DEFAULT = "en"

_current = DEFAULT


def set_current(lang: str) -> None:
    """Make ``lang`` (already checked, :func:`liverpool.i18n.set_language`) the current language."""
    global _current
    _current = lang


def get_language() -> str:
    """The language in use ("en" unless :func:`liverpool.set_language` changed it)."""
    return _current


@cache
def catalogue(lang: str, domain: str) -> dict[str, Template]:
    """The message templates of ``domain`` in ``lang`` (an empty dict if there is no such file)."""
    path = resources.files("liverpool").joinpath("i18n", "catalogues", lang, f"{domain}.json")
    if not path.is_file():
        return {}
    data: dict[str, Template] = json.loads(path.read_text(encoding="utf-8"))
    return data


def template(lang: str, domain: str, key: str, *, fallback: bool = True) -> Template | None:
    """The template of ``key`` in ``domain`` for ``lang``; with ``fallback``, the English
    one when ``lang`` lacks it. ``None`` when there is none."""
    found = catalogue(lang, domain).get(key)
    if found is None and fallback:
        found = catalogue(DEFAULT, domain).get(key)
    return found


def fill(template: Template, lang: str, values: Mapping[str, Any]) -> str:
    """``template`` with ``values`` in place (the plural form their count selects in
    ``lang``). Raises ``KeyError``/``IndexError``/``ValueError`` if they do not fit."""
    return string.Formatter().vformat(choose(template, lang, values), (), dict(values))


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse({"pt": "pt_BR"}.get(lang, lang))


def plural_category(lang: str, count: int | float) -> str:
    """The CLDR plural category of ``count`` in ``lang`` (Babel's data): "one",
    "many", "other", …  Portuguese is Brazilian Portuguese (0 and 1 are "one")."""
    return str(_locale(lang).plural_form(count))


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            try:
                return float(value.replace(",", "."))
            except ValueError:
                return None
    return None


def choose(template: Template, lang: str, params: Mapping[str, Any]) -> str:
    """The ``str.format`` template to use: ``template`` itself, or the form of a plural
    template that the count in ``params`` selects in ``lang``."""
    if isinstance(template, str):
        return template
    count = _number(params.get(template.get("plural_by", "count")))
    if count is None:
        return template["other"]
    exact = template.get(f"={count:g}" if isinstance(count, float) else f"={count}")
    if exact is not None:
        return exact
    return template.get(plural_category(lang, count), template["other"])


def seat_number(seat: int) -> int:
    """The number people read for the API's seat index ``seat``: seats are shown from 1.

    The only place the shift is defined (docs/glossary.md, docs/errors.md)."""
    return seat + 1


def placeholders(template: Template) -> set[str]:
    """The ``{name}`` fields a template uses (of a plural template: of all its forms,
    and the count that selects the form)."""
    if isinstance(template, dict):
        fields = {template.get("plural_by", "count")}
        for form, text in template.items():
            if form != "plural_by":
                fields |= placeholders(text)
        return fields
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}
