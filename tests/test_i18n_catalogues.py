"""Every message catalogue speaks every language (issue 6, part 5).

Catalogues are data (``liverpool/i18n/catalogues/<lang>/<domain>.json``): for each
domain, every language must have exactly the same message ids, each with the same
``{placeholders}``, and no empty text. Portuguese and Spanish must really be
translations: a catalogue that is mostly English copies is caught here.
"""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from liverpool import i18n
from liverpool.errors import InvalidArgumentError

DOMAINS = i18n.domains()
OTHER_LANGUAGES = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]


def test_the_domains_are_the_ones_the_package_uses() -> None:
    assert {"common", "cards", "engine", "table", "tour", "explore"} <= set(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_same_ids_and_placeholders_in_every_language(domain: str, lang: str) -> None:
    english = i18n.catalogue("en", domain)
    other = i18n.catalogue(lang, domain)
    assert english, f"{domain} has no English text"
    assert sorted(other) == sorted(english), f"{lang}/{domain}.json has other ids than en/{domain}.json"
    for key, template in english.items():
        assert i18n.placeholders(other[key]) == i18n.placeholders(template), f"{lang}/{domain}.json: {key}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_empty_text_and_valid_json(domain: str, lang: str) -> None:
    path = resources.files("liverpool.i18n").joinpath("catalogues", lang, f"{domain}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, value in data.items():
        if isinstance(value, dict):  # a plural template: CLDR categories and exact values
            assert "other" in value, f"{key}: a plural template needs 'other'"
            forms = {form: text for form, text in value.items() if form != "plural_by"}
            assert set(forms) <= {"zero", "one", "two", "few", "many", "other"} | {
                form for form in forms if re.fullmatch(r"=\d+", form)
            }, key
            assert all(isinstance(text, str) and text.strip() for text in forms.values()), key
        else:
            assert isinstance(value, str) and value.strip(), key


def _words(template: i18n.Template) -> str:
    return template if isinstance(template, str) else template["other"]


def test_plural_templates_follow_cldr() -> None:
    """One form per CLDR category of the language (Babel's data): Portuguese (Brazil)
    says 0 and 1 in the singular, Spanish only 1; an exact "=0" wins over both."""
    assert [i18n.text("common", "cards", lang="en", count=n) for n in (0, 1, 2)] == ["no cards", "1 card", "2 cards"]
    assert i18n.plural_category("pt", 0) == "one" and i18n.plural_category("es", 0) == "other"
    assert i18n.text("common", "cards", lang="pt", count="1") == "1 carta"
    assert i18n.text("common", "cards", lang="es", count=1_000_000) == "1000000 cartas"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_translations_are_not_english_copies(domain: str, lang: str) -> None:
    """Short labels may coincide (\"OK\", \"{card}\"), so only sentences of three words or
    more are compared, and most of them must differ from the English."""
    english = i18n.catalogue("en", domain)
    other = i18n.catalogue(lang, domain)
    sentences = [k for k, v in english.items() if len(re.findall(r"[A-Za-z]{2,}", _words(v))) >= 3]
    if not sentences:
        pytest.skip(f"{domain} has no sentences")
    copies = [k for k in sentences if _words(other[k]) == _words(english[k])]
    assert len(copies) <= len(sentences) // 10, f"{lang}/{domain}.json copies English: {copies[:5]}"


def test_language_switch_and_restore() -> None:
    before = i18n.get_language()
    with i18n.language("es"):
        assert i18n.get_language() == "es"
        assert i18n.text("common", "seat", seat=3) == "jugador 4"  # seat index 3, shown from 1
    assert i18n.get_language() == before


@given(st.text(max_size=5).filter(lambda s: s.lower() not in i18n.LANGUAGES))
def test_unknown_language_is_a_typed_error(lang: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        i18n.set_language(lang)
    assert info.value.code == "invalid_argument"
