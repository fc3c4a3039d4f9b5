"""Engine messages in English, Portuguese and Spanish.

The engine sends every refusal as a message id (``key``) and its values
(``params``); ``python/liverpool/i18n/catalogues/<lang>/engine.json`` hold the
templates. These tests check that

- the catalogues cover exactly the ids the engine can emit, with the same
  placeholders (``_core.message_templates()`` comes from the engine's one table,
  which a Rust test keeps equal to the ids used in its sources);
- on many real refusals (scenario steps, random illegal actions on random games,
  malformed cards, rule sets, positions) the English catalogue renders exactly the
  engine's own sentence, and Portuguese and Spanish render completely;
- a few refusals read as written by hand, and keep their code and rule id.
"""

from __future__ import annotations

import json
import pickle
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import liverpool
from liverpool import Action, Card, GameState, LiverpoolError, Meld, RuleSet, _core, i18n
from liverpool.i18n import language
from liverpool.errors import Message

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "tests" / "scenarios").glob("**/*.json"))
OTHER_LANGUAGES = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
LEFTOVER_FIELD = re.compile(r"\{[a-z_]*\}")


# --- completeness -----------------------------------------------------------------


def engine_form(template: i18n.Template) -> str:
    """The engine's own wording of a catalogue entry: a plain template, or the
    ``"other"`` form of a plural template (the engine writes one form for every count)."""
    return template if isinstance(template, str) else template["other"]


def test_engine_table_is_the_english_catalogue() -> None:
    templates = _core.message_templates()
    assert len(templates) > 100
    english = i18n.catalogue("en", "engine")
    assert set(english) == set(templates)
    assert {key: engine_form(value) for key, value in english.items()} == templates


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_each_catalogue_has_every_id_with_the_same_placeholders(lang: str) -> None:
    templates = _core.message_templates()
    catalogue = i18n.catalogue(lang, "engine")
    assert set(catalogue) == set(templates)
    wrong = {key for key in templates if i18n.placeholders(catalogue[key]) != i18n.placeholders(templates[key])}
    assert not wrong


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_translations_are_translated(lang: str) -> None:
    """A translation equal to the English is allowed only where nothing is a word."""
    templates = _core.message_templates()
    catalogue = i18n.catalogue(lang, "engine")
    same = {key for key in templates if engine_form(catalogue[key]) == templates[key]}
    wordless = {key for key in same if not re.search(r"[a-z]{3,}", LEFTOVER_FIELD.sub("", templates[key]))}
    assert same == wordless, same - wordless


# --- consistency on real refusals ---------------------------------------------------


def rendered(error: LiverpoolError, lang: str, *, for_people: bool = True) -> str | None:
    """The error's sentence from the catalogue of ``lang`` alone (no fallback)."""
    assert error.key is not None
    text = Message(error.key, error.params).render(lang, fallback=False, for_people=for_people)
    if text is None:
        return None
    return f"{text} ({error.rule})" if error.rule else text


def check_refusal(error: LiverpoolError, *, engine_made: bool = True) -> None:
    """English catalogue in the engine's wording == engine text; what people read
    renders fully in every language; code and rule fixed."""
    assert error.key is not None, error
    if engine_made:
        assert error.key != "text", f"the engine sent free text: {error.english}"
    assert rendered(error, "en", for_people=False) == error.english
    people = rendered(error, "en")
    assert people is not None and not LEFTOVER_FIELD.search(people), people
    assert str(error) == error.message == people
    for lang in OTHER_LANGUAGES:
        text = rendered(error, lang)
        assert text is not None, (lang, error.key, error.params)
        assert not LEFTOVER_FIELD.search(text.replace(error.english, "")), (lang, text)
        with language(lang):
            assert str(error) == error.message == text


def refusal(call: Callable[[], object]) -> LiverpoolError:
    with pytest.raises(LiverpoolError) as info:
        call()
    return info.value


def scenario_refusals() -> Iterator[tuple[str, LiverpoolError]]:
    for path in SCENARIOS:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        # A scenario may carry its own rule set (CONFORMANCE.md "A custom rule set").
        rules = RuleSet.from_json(json.dumps(scenario["rule_set"])) if "rule_set" in scenario else None
        g = GameState.from_position(scenario["position"], rules)
        for number, step in enumerate(scenario.get("steps") or [], start=1):
            action = Action.from_dict(step)
            # A scenario step may stand for the passes before it (CONFORMANCE.md).
            if step.get("expect", "ok") == "ok":
                g.apply_step(step["seat"], action)
            else:
                yield f"{path.stem} step {number}", refusal(lambda: g.apply_step(step["seat"], action))


def test_scenario_refusals_render_in_every_language() -> None:
    seen = list(scenario_refusals())
    assert len(seen) >= 10
    for where, error in seen:
        try:
            check_refusal(error)
        except AssertionError as failure:
            raise AssertionError(f"{where}: {failure}") from None
    assert {"adjacent_runs", "bad_cut", "buy_not_allowed"} <= {e.code for _, e in seen}


def candidate_actions(g: GameState, rng: random.Random) -> list[Action]:
    """Actions of every kind, mostly illegal: real and random cards, real and bad meld indices."""
    hand = g.hand(g.active) or [Card("5♥")]
    some = [rng.choice(hand) for _ in range(3)]
    stranger = Card.from_id(rng.randrange(53))
    meld = rng.randrange(len(g.table) + 2)
    groups = [hand[i : i + 3] for i in range(0, min(len(hand), 9), 3)] or [[stranger]]
    return [
        Action.cut(rng.choice([None, 0, 1, 41, 200])),
        Action.take_discard(),
        Action.decline_discard(),
        Action.buy(),
        Action.pass_(),
        Action.draw_stock(),
        Action.go_down(groups),
        Action.go_down([some, [stranger, stranger, stranger]]),
        Action.lay_off(meld, some[:1], rng.choice([None, "low", "high"])),
        Action.lay_off(meld, [Card("JK")]),
        Action.swap_joker(meld, some[0], rng.randrange(len(g.table) + 1)),
        Action.discard(some[0]),
        Action.discard(stranger),
        Action.next_round(),
        Action.call_liverpool(meld, rng.choice([None, "low", "high"])),
        Action.call_rummy(),
    ]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(["liverpool", "contract", "liverpool-classic"]))
def test_random_illegal_actions_render_in_every_language(seed: int, preset: str) -> None:
    rng = random.Random(seed)
    rules = RuleSet(preset)
    g = GameState(seed=seed, players=rng.choice([3, 4, 5]), rules=rules)
    keys: set[str] = set()
    for _ in range(60):
        seat = rng.randrange(g.players)
        for action in candidate_actions(g, rng):
            if not g.can(seat, action):
                error = refusal(lambda: g.apply(seat, action))
                check_refusal(error)
                keys.add(error.key or "")
        to_act = g.to_act
        if to_act is None:
            break
        g.apply(to_act, rng.choice(g.legal_actions(to_act)))
    assert len(keys) >= 5


def malformed_inputs() -> list[Callable[[], object]]:
    profile_l = json.loads(RuleSet("liverpool").to_json())

    def rules_with(**change: Any) -> Callable[[], object]:
        return lambda: RuleSet.from_json(json.dumps({**profile_l, **change}))

    def position_with(**change: Any) -> Callable[[], object]:
        scenario = json.loads(SCENARIOS[0].read_text(encoding="utf-8"))
        return lambda: GameState.from_position({**scenario["position"], **change})

    return [
        lambda: Card("11♠"),
        lambda: Card("Z"),
        lambda: Card.from_id(60),
        lambda: RuleSet("nope"),
        lambda: RuleSet.from_json("{"),
        rules_with(contracts=[]),
        rules_with(deal_sizes=[10]),
        rules_with(min_players=1),
        rules_with(set_size_min=2),
        rules_with(cut_range=[5, 2]),
        rules_with(max_turns_per_round=0),
        rules_with(call_order=[1, 1]),
        lambda: Meld.set(["3♥", "4♥", "5♥"]),
        lambda: Meld.set(["JK", "JK", "JK"]),
        lambda: Meld.run(["3♥", "4♥", "6♥", "8♥"]),
        lambda: Meld.run(["3♥", "4♠", "5♥", "6♥"]),
        lambda: Meld.run(["Q♥", "K♥", "A♥", "2♥"]),
        lambda: Meld.run(["JK", "JK", "JK", "JK"]),
        lambda: liverpool.check_go_down([["3♥", "4♥", "5♥", "6♥"], ["7♥", "8♥", "9♥", "10♥"]], 3),
        lambda: liverpool.check_go_down([["3♥", "3♠", "3♦"]], 3),
        lambda: liverpool.check_go_down([["3♥", "3♠", "3♦"], ["5♠", "5♥", "5♦"]], 3),
        lambda: liverpool.check_go_down([["3♥", "3♠", "3♦", "3♣"], ["5♠", "5♥", "5♦"]], 1),
        position_with(phase="dreaming"),
        position_with(dealer=9),
        position_with(profile="nope"),
        position_with(players=40),
        position_with(hands=[["A♠", "A♠", "A♠"], [], [], []]),
        position_with(table=[{"owner": 0, "cards": ["3♥", "9♠", "K♦"]}]),
        lambda: GameState(seed=1, players=12),
        lambda: GameState.from_json('{"format": 99}'),
    ]


@pytest.mark.parametrize("index", range(len(malformed_inputs())))
def test_malformed_input_renders_in_every_language(index: int) -> None:
    error = refusal(malformed_inputs()[index])
    # A few checks of input shape happen in the binding, which still sends free text.
    check_refusal(error, engine_made=error.key != "text")


# --- by hand -------------------------------------------------------------------------


def test_adjacent_runs_in_portuguese_and_spanish() -> None:
    error = refusal(lambda: liverpool.check_go_down([["3♥", "4♥", "5♥", "6♥"], ["7♥", "8♥", "9♥", "10♥"]], 3))
    assert (error.code, error.rule, error.key) == ("adjacent_runs", "L-4.4", "go_down.adjacent_runs")
    with language("pt"):
        assert str(error) == (
            "as sequências do mesmo naipe 3♥ 4♥ 5♥ 6♥ e 7♥ 8♥ 9♥ 10♥ são contíguas: "
            "no mesmo contrato, precisam se sobrepor ou deixar um buraco entre elas (L-4.4)"
        )
    with language("es"):
        assert str(error) == (
            "las escaleras del mismo palo 3♥ 4♥ 5♥ 6♥ y 7♥ 8♥ 9♥ 10♥ son contiguas: "
            "en un mismo contrato deben solaparse o dejar un hueco (L-4.4)"
        )


def refused_step(scenario_stem: str, code: str) -> LiverpoolError:
    for where, error in scenario_refusals():
        if where.startswith(scenario_stem) and error.code == code:
            return error
    raise AssertionError(f"no {code} refusal in {scenario_stem}")


def play_position(**position: Any) -> GameState:
    return GameState.from_position({"profile": "liverpool", "players": 4, "round": 1, "dealer": 3, **position})


def test_same_turn_as_go_down_in_portuguese_and_spanish() -> None:
    g = play_position(
        active=0,
        phase="play",
        hands=[["3♥", "3♠", "3♦", "7♣", "7♦", "7♥", "9♠", "K♠"], [], [], []],
        discard=["2♣"],
    )
    g.apply(0, Action.go_down([["3♥", "3♠", "3♦"], ["7♣", "7♦", "7♥"]]))
    error = refusal(lambda: g.apply(0, Action.lay_off(0, ["3♥"])))
    assert (error.code, error.rule) == ("same_turn_as_go_down", "L-5.3")
    with language("pt"):
        assert str(error) == "só se acrescentam cartas num turno depois daquele em que se baixou (L-5.3)"
    with language("es"):
        assert str(error) == "solo se añaden cartas en un turno posterior al de la bajada (L-5.3)"
    assert str(error) == "lay-offs are only allowed on a turn after the go-down turn (L-5.3)"


def test_must_keep_discard_in_portuguese_and_spanish() -> None:
    g = play_position(active=0, phase="play", hands=[["3♥", "3♠", "3♦", "7♣", "7♦", "7♥"], [], [], []], discard=["2♣"])
    error = refusal(lambda: g.apply(0, Action.go_down([["3♥", "3♠", "3♦"], ["7♣", "7♦", "7♥"]])))
    assert (error.code, error.rule) == ("must_keep_discard", "L-5.5")
    with language("pt"):
        assert str(error) == "é preciso guardar uma carta para o descarte (L-5.5)"
    with language("es"):
        assert str(error) == "hay que guardar una carta para el descarte (L-5.5)"


def test_buy_not_allowed_in_portuguese_and_spanish() -> None:
    g = play_position(active=0, phase="draw", hands=[["3♥"] * 2, ["4♥"], ["5♥"], ["6♥"]], discard=["2♣"], stock=["9♠"] * 2)
    error = refusal(lambda: g.apply(0, Action.buy()))
    assert (error.code, error.rule) == ("buy_not_allowed", "L-6.2")
    # Seats are shown to people from 1: seat index 0 is "jogador 1" / "jugador 1" / "seat 1",
    # while the engine's own English and the params keep the index.
    assert error.params["seat"] == "0" and error.english == "seat 0 is the active player: it may not buy (L-6.2)"
    assert str(error) == "seat 1 is the active player: it may not buy (L-6.2)"
    with language("pt"):
        assert str(error) == "o turno é do jogador 1: ele não pode comprar (L-6.2)"
    with language("es"):
        assert str(error) == "el jugador 1 tiene el turno: no puede comprar (L-6.2)"


def test_nested_phrases_are_translated_too() -> None:
    g = play_position(active=0, phase="draw", hands=[["3♥", "5♠"], ["4♥"], ["5♥"], ["6♥"]], discard=["2♣"], stock=["9♠"] * 2)
    error = refusal(lambda: g.apply(0, Action.discard("3♥")))
    assert error.code == "wrong_phase" and isinstance(error.params["what"], Message)
    with language("pt"):
        assert str(error) == "não é possível descartar agora: o jogador do turno ainda não puxou do monte nem pegou o descarte (L-5.5)"
    with language("es"):
        assert str(error) == "no se puede descartar ahora: el jugador de turno todavía no robó del mazo ni tomó el descarte (L-5.5)"
    contract = refusal(lambda: liverpool.check_go_down([["3♥", "3♠", "3♦"]], 2))
    with language("pt"):
        assert "1 trinca + 1 sequência" in str(contract)
    with language("es"):
        assert "1 trío + 1 escalera" in str(contract)


# --- the exception object -------------------------------------------------------------


def test_pickling_keeps_key_params_and_translates_after() -> None:
    error = refusal(lambda: liverpool.check_go_down([["3♥", "4♥", "5♥", "6♥"], ["7♥", "8♥", "9♥", "10♥"]], 3))
    clone = pickle.loads(pickle.dumps(error))
    assert (type(clone), clone.code, clone.rule, clone.key, clone.params, clone.english) == (
        type(error),
        error.code,
        error.rule,
        error.key,
        error.params,
        error.english,
    )
    with language("es"):
        assert str(clone) == str(error) != error.english


def test_a_missing_translation_falls_back_to_the_engine_english() -> None:
    error = refusal(lambda: Card("11♠"))
    lost = type(error)(error.english, error.code, error.rule, "no.such.key", {"text": "11♠"})
    with language("pt"):
        assert str(lost) == error.english
    broken = type(error)(error.english, error.code, error.rule, error.key, {"wrong": "x"})
    with language("es"):
        assert str(broken) == error.english


def test_errors_made_in_python_keep_their_text() -> None:
    error = liverpool.errors.InvalidArgumentError("plain words", code="invalid_argument")
    with language("pt"):
        assert (str(error), error.key, error.params) == ("plain words", None, {})


@pytest.mark.parametrize(("lang", "gain"), [("en", "7.6"), ("pt", "7,6"), ("es", "7,6")])
def test_decimals_are_written_the_way_each_language_writes_them(lang: str, gain: str) -> None:
    """A hint's "7.6 points" reads "7,6" in Portuguese and Spanish; cards, counts and
    anything that is not a plain decimal number are left as the engine sent them."""
    hint = Message("hint.buy", {"card": "10♠", "samples": "16", "gain": "7.6"})
    text = hint.render(lang, fallback=False)
    assert text is not None
    assert f" {gain} " in text
    assert "10♠" in text and "16" in text
    if lang != "en":
        assert "7.6" not in text


# --- seats and counts as people read them ----------------------------------------------


def test_seats_in_a_players_refusal_count_from_1_and_api_messages_keep_indices() -> None:
    """Seats shown to people count from 1 (docs/glossary.md); a message about a program's
    argument names the index it was given, next to the range of indices."""
    g = play_position(active=0, phase="play", hands=[["3♥", "5♠"], ["4♥"], ["5♥"], ["6♥"]], discard=["2♣"])
    error = refusal(lambda: g.apply(1, Action.discard("4♥")))
    assert (error.code, error.rule, error.params) == ("not_your_turn", "L-1.3", {"active": "0", "seat": "1"})
    assert error.english == "it is seat 0's turn, not seat 1's (L-1.3)"
    assert str(error) == "it is seat 1's turn, not seat 2's (L-1.3)"
    with language("pt"):
        assert str(error) == "o turno é do jogador 1, não do jogador 2 (L-1.3)"
    with language("es"):
        assert str(error) == "es el turno del jugador 1, no del jugador 2 (L-1.3)"
    api = Message("arg.seat", {"seat": "4", "players": "3"})
    assert api.render("en") == "seat 4 does not exist: seats are 0..3"
    asked = Message("buy.asked_first", {"first": "2", "seat": "3"})
    assert asked.render("es") == "primero se pregunta al jugador 3: el jugador 4 solo puede comprar cuando le toque responder"
    assert asked.render("es", for_people=False) == "primero se pregunta al jugador 2: el jugador 3 solo puede comprar cuando le toque responder"


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("en", "seat 2 has made its only buy this round", "seat 2 has made its 3 buys this round"),
        ("pt", "o jogador 2 já fez a única compra que podia nesta rodada", "o jogador 2 já fez as 3 compras que podia nesta rodada"),
        ("es", "el jugador 2 ya hizo la única compra que podía en esta ronda", "el jugador 2 ya hizo las 3 compras que podía en esta ronda"),
    ],
)
def test_counts_sent_by_the_engine_pick_their_plural_form(lang: str, one: str, many: str) -> None:
    """A count the engine sends as text ("1") chooses the CLDR form of the language; the
    engine's own English keeps its single wording (the template's "other" form)."""
    assert Message("buy.limit_reached", {"seat": "1", "limit": "1"}).render(lang) == one
    assert Message("buy.limit_reached", {"seat": "1", "limit": "3"}).render(lang) == many
    engine = Message("buy.limit_reached", {"seat": "1", "limit": "1"}).render("en", for_people=False)
    assert engine == "seat 1 has made its 1 buys this round"


def test_a_count_of_zero_is_never_singular_in_portuguese() -> None:
    """CLDR puts 0 in Portuguese's "one": a count that can be 0 has an exact "=0" form."""
    message = Message("lay_off.no_such_meld", {"meld": "3", "count": "0"})
    assert message.render("pt") == "não há combinação 3: a mesa ainda não tem nenhuma"
    assert Message("lay_off.no_such_meld", {"meld": "3", "count": "1"}).render("es") == "no hay combinación 3 en la mesa (solo hay 1)"
