"""Rule sets as data (RULES.md profiles L, C, W)."""

from __future__ import annotations

import json

import pytest

from liverpool import InvalidRulesError, RuleSet


def test_presets_and_default() -> None:
    assert RuleSet.presets() == ["liverpool", "contract", "liverpool-classic"]
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
    with pytest.raises(InvalidRulesError):
        RuleSet("canasta")
    with pytest.raises(InvalidRulesError) as info:
        RuleSet().describe_contract(8)
    assert info.value.code == "invalid_round"


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
