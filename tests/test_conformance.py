"""Conformance scenarios (CONFORMANCE.md) through the Python API, and the
``liverpool conformance`` command.

Each scenario file is checked twice: by the engine's runner (``run_scenarios``),
and by a small independent walker written here against the public Python API
(``GameState.from_position``, ``Action.from_dict``, ``apply``, the typed errors
and the properties). The walker proves that the Python API can express every
scenario, and that refused steps raise the documented code and change nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from liverpool import (
    Action,
    Card,
    GameState,
    LiverpoolError,
    RuleSet,
    run_scenario,
    run_scenarios,
)
from liverpool.tools.cli import main

REPO = Path(__file__).resolve().parents[1]
OURS = REPO / "tests" / "scenarios"
# The public example scenarios travel with the project (tests/scenarios/shared); when the
# shared folder they come from is beside the checkout, a test keeps the copies equal to it.
SHARED_COPIES = OURS / "shared"
SHARED_ORIGIN = REPO.parent / "shared" / "conformance"


def scenario_paths() -> list[Any]:
    params = [pytest.param(p, id=f"shared/{p.stem}") for p in sorted(SHARED_COPIES.glob("*.json"))]
    params += [pytest.param(p, id=f"tests/{p.stem}") for p in sorted(OURS.glob("*.json"))]
    return params


def test_the_public_examples_are_carried_by_the_project() -> None:
    copies = {p.name for p in SHARED_COPIES.glob("*.json")}
    assert len(copies) >= 6


@pytest.mark.skipif(not SHARED_ORIGIN.is_dir(), reason="no shared/ folder beside this checkout")
def test_the_copies_equal_the_shared_examples() -> None:
    origin = {p.name: p.read_bytes() for p in SHARED_ORIGIN.glob("*.json")}
    copies = {p.name: p.read_bytes() for p in SHARED_COPIES.glob("*.json")}
    assert copies == origin, "refresh tests/scenarios/shared from ../shared/conformance"


# --- every scenario file ----------------------------------------------------------


@pytest.mark.parametrize("path", scenario_paths())
def test_scenario_passes_the_engine_runner(path: Path) -> None:
    (report,) = run_scenarios(path)
    assert report.passed, report.line
    assert report.line == f"PASS {report.id}" and report.path == path


@pytest.mark.parametrize("path", scenario_paths())
def test_scenario_through_the_python_api(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    walk(scenario)


def expanded(g: GameState, seat: int, action: Action) -> list[tuple[int, Action]]:
    """The actions a scenario step stands for (CONFORMANCE.md "Steps"): `draw_stock`
    by the active player passes every seat still to answer and then draws; a `buy`
    or call by a seat the engine does not ask yet passes every seat asked before it.
    Played on a copy, so that the step stays atomic."""
    trial = g.clone()
    out: list[tuple[int, Action]] = []
    windows = ("buying", "calling")
    if action.name == "draw_stock" and seat == trial.active and trial.phase in ("draw", *windows):
        while trial.phase in ("draw", *windows):
            if trial.phase in windows:
                step = (trial.to_act, Action.pass_())
            else:
                step = (seat, action)
            assert step[0] is not None
            trial.apply(*step)
            out.append(step)
        return out
    if action.name in ("buy", "call_rummy", "call_liverpool"):
        # The seat asked passes (the caller too, when it is asked about rummy and calls
        # Liverpool, which is offered after it: W-7).
        while trial.phase in windows and trial.to_act is not None:
            try:
                trial.check(seat, action)
                break
            except LiverpoolError as e:
                if e.code != "not_your_turn":
                    break
            asked = trial.to_act
            assert asked is not None
            if not trial.can(asked, Action.pass_()):
                break
            trial.apply(asked, Action.pass_())
            out.append((asked, Action.pass_()))
    return [*out, (seat, action)]


def walk(scenario: dict[str, Any]) -> None:
    # CONFORMANCE.md: a scenario may carry its own rule set (the keys of a rule set file).
    rules = RuleSet.from_json(json.dumps(scenario["rule_set"])) if "rule_set" in scenario else None
    g = GameState.from_position(scenario["position"], rules)
    if "check" in scenario:
        check_state(g, scenario["check"], "position")
    for number, step in enumerate(scenario.get("steps") or [], start=1):
        where = f"step {number} ({step.get('do')} by seat {step.get('seat')})"
        action = Action.from_dict(step)
        seat = step["seat"]
        expect = step.get("expect", "ok")
        if expect == "ok":
            for who, part in expanded(g, seat, action):
                assert g.can(who, part), f"{where}: {part!r} by seat {who}"
                g.apply(who, part)
        else:
            code = expect["error"]
            *passes, (who, last) = expanded(g, seat, action)
            trial = g.clone()
            for s, p in passes:
                trial.apply(s, p)
            before = trial.clone()
            with pytest.raises(LiverpoolError) as info:
                trial.apply(who, last)
            assert info.value.code == code, f"{where}: {info.value}"
            assert not g.can(seat, action)
            if trial.penalties != before.penalties:
                # W-9: a failed go-down attempt is charged (and kept in the history);
                # nothing else changes.
                assert not passes and last.name == "go_down" and "W-9" in str(info.value), where
                assert trial.history == [*before.history, (who, last)], where
                changed, prior = trial.to_position(), before.to_position()
                changed.pop("penalties")
                prior.pop("penalties", None)
                assert changed == prior, f"{where}: a refused go-down changed more than the penalty"
                g = trial
            else:
                assert trial == before and trial.history == before.history, f"{where}: a refused step changed the state"
        if "check" in step:
            check_state(g, step["check"], where)


def cards(texts: list[str]) -> list[Card]:
    return [Card(t) for t in texts]


def check_state(g: GameState, check: dict[str, Any], where: str) -> None:
    """The `check` keys of CONFORMANCE.md (and the engine's extensions round, dealer,
    down, buys), read from the public properties."""
    simple: dict[str, Callable[[], object]] = {
        "hand_sizes": lambda: g.hand_sizes,
        "stock_size": lambda: g.stock_size,
        "active": lambda: g.active,
        "to_act": lambda: g.to_act,
        "round_over": lambda: g.is_round_over,
        "game_over": lambda: g.is_game_over,
        "round_scores": lambda: g.round_scores,
        "totals": lambda: g.totals,
        "cut_bonus": lambda: g.cut_bonus,
        "round": lambda: g.round,
        "dealer": lambda: g.dealer,
        "down": lambda: g.down,
        "buys": lambda: g.buys,
        "penalties": lambda: g.penalties,
    }
    for key, want in check.items():
        if key in simple:
            assert simple[key]() == want, f"{where}: {key}"
        elif key == "hands":
            assert len(want) == g.players, f"{where}: hands"
            for seat, hand in enumerate(want):
                if hand is not None:
                    assert Counter(cards(hand)) == Counter(g.hand(seat)), f"{where}: hands[{seat}]"
        elif key == "discard_top":
            assert g.discard_top == (None if want is None else Card(want)), f"{where}: discard_top"
        elif key == "phase":
            # The last round's end is game_over, which is also a round that is over.
            assert g.phase == want or (want == "round_over" and g.phase == "game_over"), f"{where}: phase"
        elif key == "winners":
            assert g.winners == sorted(want), f"{where}: winners"
        elif key == "table":
            assert len(g.table) == len(want), f"{where}: table size"
            for i, (got, meld) in enumerate(zip(g.table, want)):
                if "owner" in meld:
                    assert got.owner == meld["owner"], f"{where}: table[{i}].owner"
                # A set compares as a multiset, a run in order, low to high.
                if got.meld.kind == "set":
                    assert Counter(got.meld.cards) == Counter(cards(meld["cards"])), f"{where}: table[{i}]"
                else:
                    assert got.meld.cards == cards(meld["cards"]), f"{where}: table[{i}]"


def test_the_walker_catches_a_wrong_expectation() -> None:
    scenario = {
        "position": {"hands": [["7♠"], [], [], []], "discard": ["2♣"]},
        "steps": [{"seat": 0, "do": "take_discard", "check": {"hand_sizes": [1, 0, 0, 0]}}],
    }
    with pytest.raises(AssertionError, match="hand_sizes"):
        walk(scenario)
    refused = {
        "position": {"hands": [["7♠"], [], [], []], "discard": ["2♣"]},
        "steps": [{"seat": 1, "do": "take_discard", "expect": {"error": "wrong_phase"}}],
    }
    with pytest.raises(AssertionError, match="step 1"):
        walk(refused)


# --- run_scenario / run_scenarios -----------------------------------------------------

GOOD = {
    "id": "good",
    "position": {"hands": [["7♠"], [], [], []], "discard": ["2♣"]},
    "steps": [{"seat": 0, "do": "take_discard", "check": {"hand_sizes": [2, 0, 0, 0], "phase": "play"}}],
}
WRONG = {
    "id": "wrong",
    "position": {"hands": [["7♠"], [], [], []], "discard": ["2♣"]},
    "steps": [
        {"seat": 0, "do": "take_discard"},
        {"seat": 0, "do": "discard", "card": "9♦", "expect": {"error": "wrong_phase"}},
    ],
}


def test_run_scenario_reports_pass_and_the_failing_step() -> None:
    assert run_scenario(GOOD).passed
    report = run_scenario(WRONG)
    assert not report.passed and report.id == "wrong"
    assert report.message is not None and report.message.startswith("step 2:")
    assert "card_not_in_hand" in report.message
    assert report.line == f"FAIL wrong: {report.message}"
    assert report.steps_run == 2


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"id": "x"}', "position"),
        ('{"id": "x", "position": {"hands": [[], []], "phase": "lunch"}}', "lunch"),
        ('{"id": "x", "position": {"hands": [[], []]}, "steps": [{"seat": 0, "do": "fold"}]}', "fold"),
        ('{"id": "x", "position": {"hands": [[], []]}, "steps": [{"do": "buy"}]}', "seat"),
        ('{"id": "x", "position": {"hands": [[], []]}, "steps": [{"seat": 0, "do": "discard"}]}', "card"),
    ],
)
def test_invalid_scenarios_fail_with_a_reason(text: str, reason: str) -> None:
    report = run_scenario(text)
    assert not report.passed
    assert report.message is not None and reason in report.message


def write(folder: Path, name: str, content: Any) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def mixed_folder(tmp_path: Path) -> Path:
    write(tmp_path, "a_good.json", GOOD)
    write(tmp_path, "b_wrong.json", WRONG)
    write(tmp_path, "c_corrupt.json", '{"id": "corrupt", "position": ')
    write(tmp_path, "nested/d_good.json", dict(GOOD, id="nested-good"))
    write(tmp_path, "notes.txt", "not a scenario")
    return tmp_path


def test_run_scenarios_reads_folders_recursively_in_sorted_order(mixed_folder: Path) -> None:
    reports = run_scenarios(mixed_folder)
    assert [r.id for r in reports] == ["good", "wrong", "c_corrupt", "nested-good"]
    assert [r.passed for r in reports] == [True, False, False, True]
    assert reports[2].message is not None and "not valid JSON" in reports[2].message


# --- the command --------------------------------------------------------------------


def test_cli_all_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", str(OURS)]) == 0
    lines = capsys.readouterr().out.splitlines()
    files = sorted(OURS.rglob("*.json"))
    assert len(lines) == len(files) + 1
    assert all(line.startswith("PASS ") for line in lines[:-1])
    assert lines[-1] == f"{len(files)} passed, 0 failed"


def test_cli_mixed_folder(mixed_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", str(mixed_folder)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "PASS good"
    assert lines[1].startswith("FAIL wrong: step 2: ")
    assert lines[2].startswith("FAIL c_corrupt: not valid JSON")
    assert lines[3] == "PASS nested-good"
    assert lines[4] == "2 passed, 2 failed"
    assert len(lines) == 5


def test_cli_quiet_prints_only_failures(mixed_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--quiet", str(mixed_folder)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == ["FAIL wrong", "FAIL c_corrupt"]
    assert lines[-1] == "2 passed, 2 failed"


def test_cli_files_and_missing_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.json", GOOD)
    missing = tmp_path / "missing.json"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["conformance", str(good)]) == 0
    assert capsys.readouterr().out.splitlines() == ["PASS good", "1 passed, 0 failed"]
    assert main(["conformance", str(good), str(missing), str(empty)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "PASS good"
    assert lines[1].startswith("FAIL missing: cannot read")
    assert lines[2] == f"FAIL {empty}: no *.json scenario files in {empty}"
    assert lines[3] == "1 passed, 2 failed"


def test_cli_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["conformance"])
    assert info.value.code == 2
    assert "PATH" in capsys.readouterr().err


def test_cli_exit_status_from_a_real_process(mixed_folder: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "liverpool", "conformance", str(mixed_folder)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert run.returncode == 1
    assert run.stdout.splitlines()[-1] == "2 passed, 2 failed"
    assert "Traceback" not in run.stderr


# --- custom rule sets in scenarios (CONFORMANCE.md "A custom rule set") ----------------

# Round 1 of profile C allows a set of 4 at go-down (C-4); profile L refuses it (L-4.1).
SET_OF_FOUR: dict[str, Any] = {
    "id": "set-of-four",
    "position": {
        "round": 1, "dealer": 3, "active": 0, "phase": "play",
        "hands": [["7♠", "7♥", "7♦", "7♣", "9♠", "9♥", "9♦", "K♣"], ["2♠"], ["3♠"], ["4♠"]],
        "stock": ["5♦"], "discard": ["2♣"],
    },
    "steps": [{"seat": 0, "do": "go_down", "melds": [["7♠", "7♥", "7♦", "7♣"], ["9♠", "9♥", "9♦"]]}],
}


def test_a_scenario_plays_under_its_own_rule_set() -> None:
    assert not run_scenario(SET_OF_FOUR).passed  # the position's default profile, L
    assert run_scenario({**SET_OF_FOUR, "rule_set": {"base": "contract"}}).passed
    with_profile = {**SET_OF_FOUR, "rule_set": {"base": "contract"}}
    with_profile["position"] = {**SET_OF_FOUR["position"], "profile": "C"}
    assert run_scenario(with_profile).passed  # "C" names the same preset as the base


@pytest.mark.parametrize(
    ("rule_set", "profile", "reason"),
    [
        ({"base": "contract", "deal_sizes": [10]}, None, "rule_set: deal_sizes: 1 deal sizes"),
        ({"base": "contract", "buy_limit": 2}, None, "rule_set: buy_limit: unknown key (did you mean 'buy_limit_per_round'?)"),
        ({"base": "contract", "whole_hand_run_min": 3}, None, "rule_set: whole_hand_run_min: 3 is below run_size_min"),
        ({"base": "canasta"}, None, "rule_set: base: 'canasta' is not a preset"),
        ("contract", None, "rule_set: a rule set is an object"),
        ({"base": "contract"}, "liverpool", "position.profile \"liverpool\" differs from the rule set's base 'contract'"),
    ],
)
def test_a_scenario_rule_set_is_checked_as_a_file(rule_set: Any, profile: str | None, reason: str) -> None:
    scenario = {**SET_OF_FOUR, "rule_set": rule_set}
    if profile is not None:
        scenario["position"] = {**SET_OF_FOUR["position"], "profile": profile}
    report = run_scenario(scenario)
    assert not report.passed
    assert report.message is not None and report.message.startswith(reason), report.message


def test_rules_option_plays_scenarios_without_their_own_rule_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Precedence: the scenario's rule_set, then --rules, then the position's profile."""
    write(tmp_path, "plain.json", SET_OF_FOUR)
    write(tmp_path, "own.json", {**SET_OF_FOUR, "id": "own", "rule_set": {"base": "liverpool"}, "steps": [
        {**SET_OF_FOUR["steps"][0], "expect": {"error": "meld_size"}}]})
    assert main(["conformance", str(tmp_path)]) == 1
    capsys.readouterr()
    assert main(["conformance", "--rules", "contract", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["PASS own", "PASS set-of-four", "2 passed, 0 failed"]
    assert run_scenarios(tmp_path, RuleSet("contract"))[1].passed
    house = write(tmp_path / "rules", "house.toml", 'base = "contract"\nname = "house"\n')
    assert main(["conformance", "--rules", str(house), str(tmp_path / "plain.json")]) == 0
    capsys.readouterr()
    assert main(["conformance", "--rules", "canasta", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "neither a preset" in err and "PASS" not in err


def test_the_shared_examples_all_pass() -> None:
    """Every example of the shared conformance folder passes (when it is beside the checkout)."""
    folder = SHARED_ORIGIN if SHARED_ORIGIN.is_dir() else SHARED_COPIES
    reports = run_scenarios(folder)
    assert reports and all(r.passed for r in reports), [r.line for r in reports if not r.passed]
