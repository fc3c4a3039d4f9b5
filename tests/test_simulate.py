"""``liverpool simulate``: the printed summary and the JSON file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from liverpool import RuleSet, simulate
from liverpool.tools import cli
from liverpool.agents.simulation_report import format_summary, summarize


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_summary_output_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "out" / "sim.json"
    code, out, err = run_cli(
        capsys, "--games", "60", "--seed", "3", "--bots", "greedy,random,greedy,greedy", "--threads", "2",
        "--json", str(path), "--no-progress",
    )
    assert code == 0 and err == ""
    assert out.startswith("60 games, seed 3, rules liverpool, 4 players: greedy, random, greedy, greedy (2 threads)")
    for heading in ("win rate", "mean total", "mean turns", "buys/round", "no winner", "cut bonus", "games/s"):
        assert heading in out
    assert "3 runs (whole hand, no discard)" in out  # round 7's contract (L-3)
    data = json.loads(path.read_text(encoding="utf-8"))
    # The JSON holds the same numbers as a direct simulation with the same seed.
    result = simulate(60, seed=3, bots=["greedy", "random", "greedy", "greedy"], threads=1)
    assert data["games"] == 60 and data["bots"] == ["greedy", "random", "greedy", "greedy"]
    for seat in range(4):
        assert data["seats"][seat]["wins"] == int(result.winners[:, seat].sum())
        assert data["seats"][seat]["mean_total"] == pytest.approx(result.totals[:, seat].mean())
    assert [r["no_winner"] for r in data["rounds"]] == result.no_winner.sum(axis=0).tolist()
    assert [r["max_turns"] for r in data["rounds"]] == result.turns.max(axis=0).tolist()
    assert data["by_bot"]["random"]["seats"] == 1 and data["by_bot"]["greedy"]["seats"] == 3
    assert data["by_bot"]["greedy"]["mean_total"] == pytest.approx(result.totals[:, [0, 2, 3]].mean())
    assert data["games_per_second"] > 0
    assert f"wrote {path}" in out


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "--games", "10", "--bots", "greedy,greedy,greedy,greedy", "--progress")
    assert code == 0
    assert "10/10" in err and "100%" in err
    assert "10/10" not in out


def test_bad_arguments_exit_2_with_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "--games", "5", "--bots", "greedy,smart,greedy,greedy")
    assert code == 2 and out == ""
    assert "unknown bot 'smart'" in err and "[invalid_argument]" in err
    code, _, err = run_cli(capsys, "--games", "5", "--rules", "poker")
    assert code == 2 and "invalid_rules" in err
    code, _, err = run_cli(capsys, "--games", "5", "--threads", "0")
    assert code == 2 and "threads" in err


def test_summary_counts_shared_wins_for_every_seat() -> None:
    result = simulate(40, seed=8, bots=["greedy"] * 4)
    s = summarize(result)
    shared = int((result.winners.sum(axis=1) > 1).sum())
    assert s["draws"] == shared
    assert sum(seat["wins"] for seat in s["seats"]) == int(result.winners.sum())
    assert sum(seat["outright_wins"] for seat in s["seats"]) == 40 - shared
    assert s["no_winner_rounds"] == int(result.no_winner.sum())
    assert s["mean_turns_per_round"] == pytest.approx(float(np.mean(result.turns)))
    assert "drawn games" in format_summary(s)


def test_zero_games() -> None:
    s = summarize(simulate(0, bots=["greedy"] * 4))
    assert s["games"] == 0 and all(seat["wins"] == 0 for seat in s["seats"])
    format_summary(s)


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_every_preset_simulates_whole_games(preset: str) -> None:
    # C-8: the native bots play every preset to the end (8 rounds in Shanghai, wild
    # queens in California, no buying in no-buy), and the CLI takes the preset by name.
    rules = RuleSet(preset)
    result = simulate(12, seed=4, bots=["greedy", "greedy", "random", "greedy"], rules=rules, threads=2)
    assert result.round_scores.shape[:2] == (12, rules.rounds)
    assert (result.winners.sum(axis=1) >= 1).all()


def test_simulate_takes_a_rule_set_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('base = "shanghai"\nname = "house"\nbuying = "off"\nbuy_limit_per_round = "none"\n', encoding="utf-8")
    code, out, _ = run_cli(capsys, "--games", "6", "--seed", "1", "--rules", str(house))
    assert code == 0 and "rules house" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "shanghai"\nbuyng = "off"\n', encoding="utf-8")
    code, _, err = run_cli(capsys, "--games", "6", "--rules", str(bad))
    assert code == 2 and "buyng: unknown key (did you mean 'buying'?)" in err
