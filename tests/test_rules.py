"""Rule sets as data (RULES.md profiles L, C, W)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liverpool import GameState, InvalidArgumentError, InvalidRulesError, NativeBot, RuleSet


def test_presets_and_default() -> None:
    assert RuleSet.presets() == [
        "liverpool", "contract", "liverpool-classic",
        "shanghai", "california", "no-buy", "double-progressive",  # C-8
    ]
    assert RuleSet() == RuleSet("liverpool")
    assert RuleSet("L") == RuleSet("liverpool")


def test_profile_l_numbers() -> None:
    rules = RuleSet()
    assert rules.deck_size() == 107  # L-1.2
    assert rules.deal_sizes == [10, 10, 10, 12, 12, 12, 12]  # L-2.5
    assert rules.contracts == [  # L-3
        (2, 0, False), (1, 1, False), (0, 2, False), (3, 0, False), (2, 1, False), (1, 2, False), (0, 3, True),
    ]
    assert [rules.exact_cut(r) for r in (1, 3, 4, 7)] == [41, 41, 49, 49]  # L-2.3
    assert rules.cut_bonus == -50
    assert rules.describe_contract(2) == "1 set + 1 run"


def test_profile_c_and_w_decks() -> None:
    assert RuleSet("contract").deck_size(6) == 108  # C-1
    assert RuleSet("contract").deck_size(7) == 162
    assert RuleSet("contract").deal_sizes == [10, 10, 10, 10, 12, 12, 12]  # C-3
    assert RuleSet("liverpool-classic").deck_size(4) == 108  # W-1 (Decision: 2 jokers per pack)
    assert RuleSet("contract").cut_bonus == 0  # C-2


def test_json_round_trip() -> None:
    for name in RuleSet.presets():
        rules = RuleSet(name)
        assert RuleSet.from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    "mutation",
    [
        lambda d: d.update(deal_sizes=d["deal_sizes"][:-1]),
        lambda d: d.update(min_players=1),
        lambda d: d.update(set_size_min=2),
        lambda d: d.update(run_size_max=3),
        lambda d: d.update(contracts=[]),
        lambda d: d.update(deal_sizes=[40] * 7),
        lambda d: d.pop("points"),
    ],
)
def test_invalid_rule_sets_are_refused(mutation: object) -> None:
    data = json.loads(RuleSet().to_json())
    mutation(data)  # type: ignore[operator]
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.from_json(json.dumps(data))
    assert info.value.code == "invalid_rules"


def test_unknown_preset_and_bad_round() -> None:
    with pytest.raises(InvalidRulesError) as unknown:
        RuleSet("canasta")
    assert "shanghai" in str(unknown.value)  # the message lists every preset
    # A round the rule set does not have is a wrong argument, not a wrong rule set.
    for call in (lambda: RuleSet().describe_contract(8), lambda: RuleSet().contract_melds(0)):
        with pytest.raises(InvalidArgumentError) as info:
            call()
        assert info.value.code == "invalid_round"
        assert not isinstance(info.value, InvalidRulesError)
    assert RuleSet("shanghai").describe_contract(8) == "3 sets + 1 run (whole hand, no discard)"


def test_cut_range_is_configurable_l24() -> None:
    data = json.loads(RuleSet().to_json())
    assert data["cut_range"] is None  # Decision: uniform over 1..106 by default
    data["cut_range"] = [40, 42]
    assert RuleSet.from_json(json.dumps(data)) != RuleSet()
    for bad in ([0, 5], [50, 40]):
        data["cut_range"] = bad
        with pytest.raises(InvalidRulesError):
            RuleSet.from_json(json.dumps(data))


def test_a_game_draws_its_cut_from_the_configured_range() -> None:
    from liverpool import Action, GameState

    data = json.loads(RuleSet().to_json())
    data["cut_range"] = [41, 41]  # every undrawn cut is exact: the L-2.3 bonus each time
    game = GameState(seed=5, rules=RuleSet.from_json(json.dumps(data)))
    cutter = game.to_act
    assert cutter is not None and game.phase == "cut"
    game.apply(cutter, Action.cut())
    assert game.cut_bonus == cutter


# --- C-8 presets --------------------------------------------------------------------


def test_c8_presets_are_profile_c_with_their_one_change() -> None:
    c = json.loads(RuleSet("contract").to_json())
    changes = {
        "shanghai": {"deal_sizes": c["deal_sizes"] + [12], "contracts": c["contracts"] + [{"sets": 3, "runs": 1, "whole_hand": True}]},
        "california": {
            "wild_rank": "Q",
            "deck_tiers": [{**t, "jokers": 0} for t in c["deck_tiers"]],
            "points": {**c["points"], "Q": 25},
        },
        "no-buy": {"buying": "off", "buy_limit_per_round": None},
        "double-progressive": {"deal_sizes": [7, *c["deal_sizes"][1:]]},
    }
    for name, change in changes.items():
        got = json.loads(RuleSet(name).to_json())
        assert got == {**c, "name": name, **change}, name


def test_c8_preset_numbers() -> None:
    assert RuleSet("shanghai").rounds == 8
    assert RuleSet("shanghai").whole_hand(8) and RuleSet("shanghai").whole_hand(7)
    california = RuleSet("california")
    assert california.deck_size(4) == 104 and california.deck_size(8) == 156  # no jokers
    assert california.is_wild("Q♥") and california.is_wild("JK") and not california.is_wild("K♥")
    assert california.card_points("Q♣") == 25
    assert RuleSet("double-progressive").deal_sizes[0] == 7
    assert RuleSet("no_buy") == RuleSet("no-buy")


# --- rule sets written by users (issue 7 part 4) --------------------------------------


ROUND_3_RUN_OF_7 = """
base = "contract"
name = "seven"
contracts = [
  { sets = 2 },
  { sets = 1, runs = 1 },
  { melds = [{ kind = "run", min = 7 }] },   # round 3: one run of 7 (C-8)
  { sets = 3 },
  { sets = 2, runs = 1 },
  { sets = 1, runs = 2 },
  { runs = 3, whole_hand = true },
]
"""


def test_from_toml_base_plus_changes_and_to_toml_round_trip() -> None:
    rules = RuleSet.from_toml(ROUND_3_RUN_OF_7)
    assert rules.name == "seven"
    assert rules.describe_contract(3) == "1 run of at least 7"
    assert rules.contract_melds(3) == [("run", 7, None)]
    assert rules.deal_sizes == RuleSet("contract").deal_sizes
    assert RuleSet.from_toml(rules.to_toml()) == rules
    assert RuleSet.from_json(rules.to_json()) == rules
    for name in RuleSet.presets():
        assert RuleSet.from_toml(RuleSet(name).to_toml()) == RuleSet(name)


def test_from_file_and_load(tmp_path: pytest.TempPathFactory) -> None:
    toml_file = tmp_path / "seven.toml"  # type: ignore[operator]
    toml_file.write_text(ROUND_3_RUN_OF_7, encoding="utf-8")
    json_file = tmp_path / "buy.json"  # type: ignore[operator]
    json_file.write_text('{"base": "no-buy", "name": "uk"}', encoding="utf-8")
    assert RuleSet.from_file(toml_file) == RuleSet.from_toml(ROUND_3_RUN_OF_7)
    assert RuleSet.from_file(str(json_file)).name == "uk"
    assert RuleSet.load("shanghai") == RuleSet("shanghai")
    assert RuleSet.load(str(toml_file)).name == "seven"
    with pytest.raises(InvalidRulesError, match="neither a preset"):
        RuleSet.load("no-such-rules")
    with pytest.raises(InvalidArgumentError):
        RuleSet.from_file(tmp_path / "missing.toml")  # type: ignore[operator]


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ('base = "contract"\ndeal_size = [7]', "deal_size: unknown key (did you mean 'deal_sizes'?)"),
        ('base = "contract"\ncontracts = [{ set = 2 }]', "contracts[0].set: unknown key"),
        ('base = "contract"\npoints = { Z = 1 }', "points.Z: unknown key"),
        ('base = "canasta"', "base: 'canasta' is not a preset"),
        ('base = "contract"\nbuying = "maybe"', "buying: wrong value"),
        ('base = "contract"\nmin_players = 1', "min_players: 1: a game needs at least 2 players"),
        ('base = "contract"\nwild_rank = "Q"', "points.Q: 10 but Q is wild"),
        # A deal needing more cards than the deck has (6 players x 20 + 2 > 108).
        ('base = "contract"\ndeal_sizes = [20, 10, 10, 10, 12, 12, 12]', "deal_sizes[0]: round 1: 6 players x 20 cards"),
        # A contract whose minimum cards exceed the hand (a run of 11 from 10 cards + 1 drawn).
        (
            'base = "contract"\ncontracts = [{ melds = [{ kind = "run", min = 11 }] }, { sets = 2 }, { sets = 2 },'
            ' { sets = 2 }, { sets = 2 }, { sets = 2 }, { sets = 2 }]',
            "deal_sizes[0]: round 1: 10 cards dealt, 11 after drawing, cannot lay the contract 1 run of at least 11",
        ),
        (
            'base = "contract"\ndeal_sizes = [10]\ncontracts = [{ melds = [{ kind = "run", min = 15 }] }]',
            "contracts[0].melds[0].min: 15: a run spans at most the 14 positions",
        ),
        ('deal_sizes = [10]', "name: missing"),
    ],
)
def test_rule_set_files_are_refused_with_the_key_and_the_reason(text: str, starts: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.from_toml(text)
    assert info.value.code == "invalid_rules"
    assert str(info.value).startswith(starts), str(info.value)


# --- issue 17: rule-set files as hostile input --------------------------------------


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        # L-8.2: a whole-hand run is still a run; a lower minimum broke the search.
        ('base = "liverpool"\nwhole_hand_run_min = 3', "whole_hand_run_min: 3 is below run_size_min (4)"),
        # L-2.2: never clamped; a cut leaves at least one card of the smallest deck.
        ('base = "liverpool"\ncut_range = [500, 600]', "cut_range: (500, 600) goes beyond the deck"),
        ('base = "contract"\ncut_range = [1, 108]', "cut_range: (1, 108) goes beyond the deck"),
        ('base = "liverpool"\ncut_bonus = inf', "cut_bonus: inf is not a number a rule set can use"),
        ('base = "liverpool"\ncut_range = [1, nan]', "cut_range[1]: NaN is not a number a rule set can use"),
        ('base = "liverpool"\npoints = { A = -inf }', "points.A: -inf is not a number a rule set can use"),
    ],
)
def test_inconsistent_or_non_finite_options_are_refused(text: str, starts: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.from_toml(text)
    assert str(info.value).startswith(starts), str(info.value)


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), "1e999"])
def test_json_infinities_are_named_not_a_syntax_error(value: object) -> None:
    text = '{"base": "liverpool", "cut_bonus": %s}' % (value if isinstance(value, str) else json.dumps(value))
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.from_json(text)
    assert "is not a number a rule set can use" in str(info.value), str(info.value)
    assert "null" not in str(info.value)


def test_the_largest_cut_range_that_fits_the_deck_loads() -> None:
    for base, high in (("liverpool", 106), ("contract", 107)):
        rules = RuleSet.from_toml(f'base = "{base}"\ncut_range = [1, {high}]')
        assert json.loads(rules.to_json())["cut_range"] == [1, high]


def test_rule_set_files_are_capped_before_parsing(tmp_path: Path) -> None:
    """256 KiB (docs/rule-options.md): a larger file or text is refused unread."""
    big = tmp_path / "big.toml"
    big.write_text('base = "liverpool"\n' + "# padding\n" * 30_000, encoding="utf-8")
    with pytest.raises(InvalidRulesError, match="more than the limit of 262144"):
        RuleSet.from_file(big)
    with pytest.raises(InvalidRulesError, match="more than the limit"):
        RuleSet.from_json('{"base": "liverpool", "name": "' + "x" * 300_000 + '"}')
    fits = tmp_path / "fits.toml"
    fits.write_text('base = "liverpool"\n' + "# padding\n" * 20_000, encoding="utf-8")
    assert RuleSet.from_file(fits) == RuleSet("liverpool")


def test_a_huge_unknown_key_is_refused_quickly_and_shown_short() -> None:
    key = "deal_sizez" + "q" * 200_000
    with pytest.raises(InvalidRulesError) as info:
        RuleSet.from_json(json.dumps({"base": "liverpool", key: 1}))
    message = str(info.value)
    assert message.startswith("deal_sizezq") and "(200010 bytes): unknown key;" in message
    assert len(message) < 1_000 and "did you mean" not in message
    # A short typo still gets its hint.
    with pytest.raises(InvalidRulesError, match="did you mean 'deal_sizes'"):
        RuleSet.from_json('{"base": "liverpool", "deal_sizez": 1}')


@pytest.mark.parametrize("path", [None, 3, b"rules.toml", bytearray(b"x"), "rules\udcff.toml", 1.5, ["a"]])
def test_from_file_and_load_refuse_a_path_that_is_not_text(path: object) -> None:
    for load in (RuleSet.from_file, RuleSet.load):
        with pytest.raises(InvalidArgumentError) as info:
            load(path)  # type: ignore[arg-type]
        assert info.value.code == "invalid_argument"


def test_from_file_takes_a_pathlike(tmp_path: Path) -> None:
    class Where:
        def __fspath__(self) -> str:
            return str(tmp_path / "w.json")

    (tmp_path / "w.json").write_text('{"base": "liverpool-classic"}', encoding="utf-8")
    assert RuleSet.from_file(Where()) == RuleSet("liverpool-classic")  # type: ignore[arg-type]


def test_profile_is_inherited_from_the_base_and_read_back() -> None:
    assert [RuleSet(n).profile for n in RuleSet.presets()] == ["L", "C", "W", "C", "C", "C", "C"]
    assert RuleSet.from_toml('base = "liverpool-classic"\nname = "house"').profile == "W"
    # A complete file written before `profile` existed: the preset it is named after.
    old = json.loads(RuleSet("contract").to_json())
    del old["profile"]
    assert RuleSet.from_json(json.dumps(old)).profile == "C"
    old["name"] = "house"
    assert RuleSet.from_json(json.dumps(old)).profile == "L"


# A hypothesis strategy of rule-set files: a preset as base, options changed to values
# near and beyond their limits. Every accepted one must play (issue 17).
OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "run_size_min": st.integers(2, 7),
    "whole_hand_run_min": st.integers(2, 7),
    "set_size_min": st.integers(2, 6),
    "set_size_max": st.one_of(st.just("none"), st.integers(2, 7)),
    "run_size_max": st.one_of(st.just("none"), st.integers(3, 8)),
    "min_naturals_set": st.integers(0, 4),
    "min_naturals_run": st.integers(0, 5),
    "run_naturals_window": st.one_of(st.just("none"), st.integers(1, 6)),
    "cut_range": st.tuples(st.integers(0, 120), st.integers(0, 160)).map(list),
    "buy_limit_per_round": st.one_of(st.just("none"), st.integers(0, 3)),
    "buying": st.sampled_from(["off", "chain", "single"]),
    "joker_swap": st.sampled_from(["off", "after_go_down_turn", "on_go_down_turn"]),
    "buy_priority": st.sampled_from(["nearest", "first_caller"]),
    "floating": st.booleans(),
    "rummy_call": st.booleans(),
    "liverpool_call": st.booleans(),
    "no_discard_of_taken_card": st.booleans(),
    "lay_off_on_go_down_turn": st.booleans(),
    "swap_own_jokers": st.booleans(),
    "wild_rank": st.sampled_from(["none", "Q", "7"]),
    "max_turns_per_round": st.integers(0, 80),
}


@st.composite
def rule_set_files(draw: st.DrawFn) -> dict[str, Any]:
    doc: dict[str, Any] = {"base": draw(st.sampled_from(RuleSet.presets()))}
    for key in draw(st.lists(st.sampled_from(sorted(OPTION_VALUES)), min_size=1, max_size=5, unique=True)):
        doc[key] = draw(OPTION_VALUES[key])
    doc.setdefault("max_turns_per_round", draw(st.integers(1, 80)))  # short games
    return doc


@settings(max_examples=40)
@given(rule_set_files(), st.integers(0, 2**32))
def test_every_accepted_rule_set_plays_greedy_games_to_the_end(doc: dict[str, Any], seed: int) -> None:
    try:
        rules = RuleSet.from_json(json.dumps(doc))
    except InvalidRulesError as e:
        assert e.code == "invalid_rules" and str(e)
        return
    assert RuleSet.from_toml(rules.to_toml()) == rules
    options = json.loads(rules.to_json())
    for game in range(2):
        players = (options["min_players"], options["max_players"])[game]
        state = GameState(rules=rules, players=players, seed=seed + game)
        bots = [NativeBot("greedy", seed + s) for s in range(players)]
        for _ in range(200_000):
            seat = state.to_act
            if seat is None:
                break
            for action in state.legal_actions(seat):
                assert state.can(seat, action), f"{doc}: offered {action!r} to seat {seat}, refused"
            state.apply(seat, bots[seat].choose(state, seat))
        assert state.is_game_over, doc
