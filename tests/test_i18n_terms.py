"""Rejected words and patterns stay out of every Portuguese and Spanish text (issue 15).

``docs/glossary.md`` chooses one term per concept in each language; a native review
found the classes below in the catalogues and notebooks. This test scans every pt and
es text a learner can read — every catalogue of every domain
(``python/liverpool/i18n/catalogues/<lang>/*.json``, each form of a plural template)
and every notebook source (``notebooks/src/*.txt``: the ``%% pt`` / ``%% es`` cells and
the ``⟦en|pt|es⟧`` texts of code cells) — and lists each hit with where it is.

The patterns are precise on purpose: Portuguese *vez* is rejected only where it means
a countable turn ("toda vez", "nesta vez", "o jogador da vez", "sua vez"), never in
"uma vez que", "de uma vez", "às vezes", "outra vez" or "duas vezes" (twice).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import notebook_generator
import pytest

from liverpool import i18n

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("pt", "es")


class Rule(NamedTuple):
    name: str
    pattern: re.Pattern[str]
    why: str


def _rule(name: str, pattern: str, why: str) -> Rule:
    return Rule(name, re.compile(pattern, re.IGNORECASE), why)


#: An article (and the contractions that hold one) before a card whose name's gender
#: the template cannot know: a placeholder, or a court card ("el Q♠" reads "el reina").
_CARD = r"(?:\{(?:card|other|top|up_card|penalty|stands)\}|[JQK](?:[♠♥♦♣]|\b))"
#: Placeholders that hold a count which can be 1 (or 0), and the nouns that then need a
#: plural template.
_COUNT = r"\{(?:count|n|size|samples|limit|buys|cut|bots|ids|threads)\}"
#: Catalogue entries whose count is never 1 by construction (catalogue file: key → why).
COUNTS_NEVER_ONE = {
    "engine.json: contract.runs": "the engine sends contract.one_run for one run",
    "engine.json: contract.runs_of": "the engine sends contract.one_run_of for one run",
    "engine.json: contract.sets": "the engine sends contract.one_set for one set",
    "engine.json: contract.sets_of": "the engine sends contract.one_set_of for one set",
    "engine.json: contract.runs_exactly": "the engine sends contract.one_run_exactly for one run",
    "engine.json: contract.sets_exactly": "the engine sends contract.one_set_exactly for one set",
    "tour.json: deck_size": "a deck has at least 52 cards",
}

BOTH: list[Rule] = [
    _rule("(s) plural", r"\w\((?:s|es|as|os)\)", 'a "(s)" plural: use a plural template (liverpool.i18n)'),
    _rule(
        "stutter",
        r"\b(?!(?:\d|bye)\b)([a-zà-ÿ]{3,}) \1\b",
        'a word said twice in a row ("quem baixa baixa"): rephrase',
    ),
]

PORTUGUESE: list[Rule] = [
    _rule(
        "vez as a turn",
        r"\buma vez é\b|\btoda vez\b|\bvezes por\b|\bnuma vez\b|\bnesta vez\b|\bnessa vez\b|\bna vez\b|\bda vez\b"
        r"|\b(?:sua|minha|tua|a) vez\b(?! que)|\blimite de vezes\b",
        "a turn is a *turno* (seed 002), never *vez*",
    ),
    _rule(
        "comprar for drawing",
        r"\bcompr\w* (?:uma carta |a carta |\{card\} )?do (?:monte|baralho|topo)\b|\bcomprar \(monte",
        "drawing is *puxar*; *comprar* is only the out-of-turn buy (L-6)",
    ),
    _rule(
        "jogo for a meld or the game",
        r"\bjogos? (?:\{\w+\}|\d|da mesa|na mesa|válid|de destino)|\bnov[oa] jogo\b|\bnenhum jogo\b|\bestes jogos\b"
        r"|\boutro jogo\b|\bo jogo (?:acabou|terminou|tem)\b|\bfim de jogo\b|\bao jogo \{",
        "a meld is a *combinação*, the game a *partida*",
    ),
    _rule(
        "monte for the cut packet",
        r"\bmonte (?:cortado|levantado|exato)\b",
        "the cards lifted at the cut are the *pacote*; the *monte* is the stock",
    ),
    _rule(
        "agreement with se",
        r"\bse (?:acrescenta|troca|compra|baixa|descarta|puxa) (?:cartas|coringas|combinações)\b",
        'a passive "se" agrees with its plural subject: "não se acrescentam cartas"',
    ),
    _rule("calque", r"\bvale o valor\b", 'a calque of "is worth the value": rephrase'),
    _rule(
        "article before a card",
        rf"\b(?:o|os|a|as|ao|aos|do|da|no|na|pelo|pela) {_CARD}",
        'an article whose gender may clash with the card ("o Q♠"): write "a carta Q♠" or the code alone',
    ),
    _rule(
        "fixed plural after a count",
        rf"{_COUNT} (?:cartas|trincas|sequências|jogadores|pontos|compras|rodadas|combinações|coringas|bots)\b",
        "a count that can be 1 needs a plural template",
    ),
]

SPANISH: list[Rule] = [
    _rule(
        "usted",
        r"\busted(?:es)?\b|\b(?:use|empiece|quiso|pulse|haga clic)\b|\bdé\b",
        "Spanish speaks to the learner as *tú* everywhere",
    ),
    _rule(
        "article before a card",
        rf"\b(?:el|la|los|las|al|del) {_CARD}",
        'an article whose gender may clash with the card ("el Q♠" reads "el reina"): write "la carta Q♠" or the code alone',
    ),
    _rule(
        "another name for the discard",
        r"\bcarta (?:volteada|descubierta|vuelta|boca arriba)\b|\bdescarte de arriba\b|\bpila de descartes?\b",
        "the face-up card and its pile are *el descarte* (seed 001), one name",
    ),
    _rule(
        "combinación for an arrangement",
        r"\bmejor combinación\b|\bcombinaci[oó]n(?:es)? de la mano\b",
        "a meld is a *combinación*; a way to split a hand into melds is an *agrupación*",
    ),
    _rule("calque", r"\bvale el valor\b", 'a calque of "is worth the value": rephrase'),
    _rule(
        "fixed plural after a count",
        rf"{_COUNT} (?:cartas|tríos|escaleras|jugadores|puntos|compras|rondas|combinaciones|comodines|bots)\b",
        "a count that can be 1 needs a plural template",
    ),
]

RULES = {"pt": BOTH + PORTUGUESE, "es": BOTH + SPANISH}


class Text(NamedTuple):
    where: str
    text: str
    plural_form: bool  # a form of a plural template (its count is chosen already)


def _catalogue_texts(lang: str) -> Iterator[Text]:
    folder = resources.files("liverpool.i18n").joinpath("catalogues", lang)
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, value in data.items():
            where = f"catalogues/{lang}/{path.name}: {key}"
            if isinstance(value, dict):
                for form, text in value.items():
                    if form != "plural_by":
                        yield Text(f"{where} [{form}]", text, True)
            else:
                yield Text(where, value, False)


def _build_notebooks() -> object:
    return notebook_generator.load()


_INLINE = re.compile(r"⟦([^⟦⟧]*)⟧")


def _notebook_texts(lang: str) -> Iterator[Text]:
    build = _build_notebooks()
    index = ("en", "pt", "es").index(lang)
    for path in sorted((ROOT / "notebooks" / "src").glob("*.txt")):
        source = path.read_text(encoding="utf-8")
        for number, cell in enumerate(build.parse_source(source, path.name), start=1):  # type: ignore[attr-defined]
            if cell.kind == "markdown":
                for line_number, line in enumerate(cell.text[lang].splitlines(), start=1):
                    yield Text(f"notebooks/src/{path.name}: cell {number}, line {line_number}", line, False)
        # The ⟦en|pt|es⟧ texts of code cells, where they are written.
        for line_number, line in enumerate(source.splitlines(), start=1):
            for match in _INLINE.finditer(line):
                parts = match.group(1).split("|")
                if len(parts) == 3:
                    yield Text(f"notebooks/src/{path.name}: line {line_number} ⟦…⟧", parts[index], False)


def texts(lang: str) -> list[Text]:
    return [*_catalogue_texts(lang), *_notebook_texts(lang)]


def hits(lang: str, rule: Rule) -> list[str]:
    found = []
    for item in texts(lang):
        if rule.name == "fixed plural after a count" and (
            item.plural_form or item.where.split("/", 2)[-1] in COUNTS_NEVER_ONE
        ):
            continue
        for match in rule.pattern.finditer(item.text):
            found.append(f"{item.where}: …{item.text[max(0, match.start() - 30):match.end() + 30]}…")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_scan_sees_every_catalogue_and_notebook(lang: str) -> None:
    everything = texts(lang)
    domains = {t.where.split(": ")[0] for t in everything if t.where.startswith("catalogues/")}
    assert {f"catalogues/{lang}/{d}.json" for d in i18n.domains()} <= domains
    notebooks = {t.where.split(": ")[0] for t in everything if t.where.startswith("notebooks/")}
    assert len(notebooks) == len(list((ROOT / "notebooks" / "src").glob("*.txt")))
    assert any("⟦…⟧" in t.where for t in everything)


@pytest.mark.parametrize(
    ("lang", "rule", "text"),
    [
        ("pt", "vez as a turn", "Uma vez é assim"),
        ("pt", "vez as a turn", "Toda vez das rodadas"),
        ("pt", "vez as a turn", "Mediana de vezes por rodada"),
        ("pt", "vez as a turn", "o jogador da vez ainda não comprou"),
        ("pt", "vez as a turn", "sua vez: pegue o descarte"),
        ("pt", "vez as a turn", "o motor chegou ao limite de vezes"),
        ("pt", "comprar for drawing", "o jogador compra do monte"),
        ("pt", "comprar for drawing", "Comprar (monte vazio)"),
        ("pt", "jogo for a meld or the game", "acrescentou 4♣ ao jogo 0 da mesa"),
        ("pt", "jogo for a meld or the game", "Novo jogo"),
        ("pt", "jogo for a meld or the game", "um jogo na mesa"),
        ("pt", "agreement with se", "não se acrescenta cartas na rodada 7"),
        ("pt", "stutter", "nesta rodada, quem baixa baixa a mão inteira"),
        ("pt", "calque", "o coringa vale o valor da trinca"),
        ("pt", "article before a card", "Compre o {card}"),
        ("pt", "article before a card", "descarte o Q♠"),
        ("pt", "(s) plural", "1 carta(s) completariam"),
        ("pt", "fixed plural after a count", "cortou {count} cartas"),
        ("es", "usted", "dé un tamaño por ronda"),
        ("es", "usted", "¿quiso decir 'deal'?"),
        ("es", "article before a card", "Compra el {card}"),
        ("es", "article before a card", "el Q♠ completa el trío"),
        ("es", "stutter", "quien se baja baja toda la mano"),
        ("es", "another name for the discard", "la carta descubierta es 7♦"),
        ("es", "combinación for an arrangement", "Mejor combinación: 1 trío"),
        ("es", "(s) plural", "Falta: 2 trío(s)"),
    ],
)
def test_each_rule_catches_what_the_review_found(lang: str, rule: str, text: str) -> None:
    (found,) = [r for r in RULES[lang] if r.name == rule]
    assert found.pattern.search(text), (rule, text)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("pt", "uma vez que você baixou, só acrescenta"),
        ("pt", "baixe tudo de uma vez"),
        ("pt", "às vezes vale a pena esperar"),
        ("pt", "o jogador 3 aparece duas vezes"),
        ("pt", "tente outra vez"),
        ("pt", "pela primeira vez"),
        ("pt", "O Rummy Progressivo é um jogo de rummy de sete rodadas"),
        ("pt", "o jogador puxa do monte e compra o descarte fora de turno"),
        ("pt", "Descarte 8♦"),
        ("pt", "a carta Q♠ completa a trinca"),
        ("pt", "{count} cartas"),
        ("es", "la carta Q♠ completa el trío"),
        ("es", "Descarta 8♦ y roba del mazo"),
        ("es", "el 7♦ y el 9♠"),
        ("es", "toma el descarte"),
        ("es", "una agrupación de la mano en combinaciones"),
    ],
)
def test_the_rules_leave_correct_wording_alone(lang: str, text: str) -> None:
    caught = [r.name for r in RULES[lang] if r.pattern.search(text) and r.name != "fixed plural after a count"]
    assert not caught, (text, caught)


@pytest.mark.parametrize("rule", RULES["pt"], ids=lambda r: r.name)
def test_portuguese_texts_avoid_rejected_terms(rule: Rule) -> None:
    found = hits("pt", rule)
    assert not found, f"{rule.why}:\n" + "\n".join(found)


@pytest.mark.parametrize("rule", RULES["es"], ids=lambda r: r.name)
def test_spanish_texts_avoid_rejected_terms(rule: Rule) -> None:
    found = hits("es", rule)
    assert not found, f"{rule.why}:\n" + "\n".join(found)
