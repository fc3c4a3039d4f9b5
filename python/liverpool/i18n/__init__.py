"""The learner's language: English (the default), Portuguese and Spanish.

Every sentence the package shows a person (engine refusals, widget labels, the
card table's log) is looked up here, in catalogues kept as data: one JSON file per
*domain* (``engine``, ``cards``, ``table``, ``tour``, …) per language, under
``catalogues/<language>/<domain>.json``, mapping a stable message id to a
``str.format`` template. Codes and rule ids never change with the language.

A message whose words depend on a number is a *plural template*: a JSON object of
CLDR plural categories (``"one"``, ``"few"``, ``"many"``, ``"other"``, as Babel's
:meth:`babel.Locale.plural_form` names them for the language) and, optionally, exact
values (``"=0"``), chosen by the placeholder ``count`` (or the one ``"plural_by"``
names). ``"other"`` is required and is the fallback. So a catalogue never writes
"carta(s)": ``{"one": "{count} carta", "other": "{count} cartas", "=0": "nenhuma carta"}``.
Portuguese is Brazilian, whose CLDR rule puts 0 in ``"one"``: a count that can be 0
gets an ``"=0"`` form ("nenhuma carta"), never "0 carta".

**Seats.** The API counts seats from 0; people count them from 1 ("jogador 1" is the
first seat). The shift happens in one place, :func:`seat_number`, when a seat is
rendered for a person: :func:`text` shows an integer ``seat`` parameter as
``seat_number(seat)`` (and so an integer table-meld index, ``meld`` and ``to_meld``:
melds are counted from 1 too), and :meth:`liverpool.errors.Message.render` does the same for
the seat placeholders of the refusals a player reads. The engine's own English
(``LiverpoolError.english``, logs) and every API field keep the index.

**Articles and prepositions.** A placeholder never needs an article the template
cannot see: the ``common`` catalogue has one phrase per grammatical case for a seat
and for the learner, and the sentence picks the case it needs (see
:func:`seat_phrase`)::

    case        en        pt                  es
    label       seat 2    jogador 2           jugador 2          (lists, table rows)
    subject     seat 2    o jogador 2 / você  el jugador 2 / tú  ("{who} puxou")
    object      seat 2    o jogador 2 / você  el jugador 2 / ti  (after para, por, for)
    to          seat 2    ao jogador 2 / a você  al jugador 2 / a ti

A template that holds the bare label may write the article itself ("pergunta ao
{seat}" with "jogador 2"). Cards are never preceded by an article whose gender could
clash with the card's name ("el Q♠" reads "el reina"): templates write "a carta Q♠" /
"la carta Q♠", or the code alone as the rules texts do ("Descarte 8♦").

>>> from liverpool import i18n
>>> with i18n.language("pt"):
...     i18n.text("common", "seat", seat=1), seat_phrase(1, "to")
('jogador 2', 'ao jogador 2')
>>> i18n.text("common", "seat", seat=0)
'seat 1'
>>> with i18n.language("es"):
...     seat_phrase(0, "object", you=True), seat_phrase(2, "subject")
('ti', 'el jugador 3')
>>> with i18n.language("es"):
...     i18n.text("common", "cards", count=1), i18n.text("common", "cards", count=3)
('1 carta', '3 cartas')
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

from liverpool._catalogues import (
    DEFAULT as DEFAULT,
    LANGUAGES,
    Template,
    catalogue,
    choose,
    get_language,
    placeholders,
    plural_category,
    seat_number,
    set_current,
)
from liverpool.errors import InvalidArgumentError

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
    "choose",
    "plural_category",
    "seat_number",
    "meld_label",
    "seat_phrase",
    "SEAT_CASES",
    "Template",
]


def _check(lang: str) -> str:
    if not isinstance(lang, str) or lang.lower() not in LANGUAGES:
        raise InvalidArgumentError(
            f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}", code="invalid_argument"
        )
    return lang.lower()


def set_language(lang: str) -> None:
    """Make every refusal message and widget label speak ``lang`` ("en", "pt" or "es")."""
    set_current(_check(lang))


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Use ``lang`` inside a ``with`` block, then restore the previous language."""
    previous = get_language()
    set_current(_check(lang))
    try:
        yield get_language()
    finally:
        set_current(previous)


def meld_label(index: int, lang: str | None = None) -> str:
    """A table meld's API index as people read it, counted from 1 like seats: "#1",
    "nº 1", "n.º 1" for index 0 (as :func:`text` shows an integer ``meld``)."""
    return text("cards", "meld_number", lang=lang, index=seat_number(index))


#: The grammatical cases of a seat phrase (the ``common`` keys ``seat_<case>`` and
#: ``you_<case>``): see the module's doc.
SEAT_CASES: tuple[str, ...] = ("label", "subject", "object", "to")


def seat_phrase(seat: int, case: str = "label", /, lang: str | None = None, *, you: bool = False) -> str:
    """Seat ``seat`` (an API index) as people read it, in grammatical ``case`` of
    :data:`SEAT_CASES`; with ``you`` the learner's own pronoun in that case."""
    if case not in SEAT_CASES:
        raise InvalidArgumentError(
            f"unknown seat case {case!r}: choose one of {', '.join(SEAT_CASES)}", code="invalid_argument"
        )
    if you:
        return text("common", "you" if case in ("label", "subject") else f"you_{case}", lang=lang)
    return text("common", "seat" if case == "label" else f"seat_{case}", lang=lang, seat=seat)


#: Parameters that carry an API index (from 0) which people read from 1.
INDEX_PARAMS: tuple[str, ...] = ("seat", "meld", "to_meld")


def _for_people(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with an integer seat or table-meld index (``INDEX_PARAMS``) shown from 1."""
    shifted = {
        name: seat_number(value)
        for name, value in params.items()
        if name in INDEX_PARAMS and isinstance(value, int) and not isinstance(value, bool)
    }
    return {**params, **shifted} if shifted else params


def domains() -> list[str]:
    """Every catalogue domain (the file names of the default language)."""
    folder = resources.files(__name__).joinpath("catalogues", DEFAULT)
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


def has_text(domain: str, key: str) -> bool:
    """Whether the default catalogue of ``domain`` has ``key``."""
    return key in catalogue(DEFAULT, domain)


def text(domain: str, key: str, /, lang: str | None = None, **params: Any) -> str:
    """The message ``key`` of ``domain`` in ``lang`` (default: the current language),
    filled with ``params``. Falls back to English, then to the key itself, so a missing
    translation shows something readable instead of failing (the catalogue tests make
    sure nothing is missing). An integer ``seat`` is an API index and is shown from 1
    (:func:`seat_number`); a seat already written as words is left as it is."""
    lang = get_language() if lang is None else _check(lang)
    params = _for_people(params)
    template = catalogue(lang, domain).get(key)
    if template is None:
        template = catalogue(DEFAULT, domain).get(key, key)
    form = choose(template, lang, params)
    try:
        return form.format(**params)
    except (KeyError, IndexError, ValueError):
        return form
