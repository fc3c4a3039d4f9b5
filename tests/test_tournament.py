"""``liverpool tournament`` and :func:`liverpool.agents.tournament.play`: seatings, shared
wins (L-10.3), intervals, the native and Python paths, the command's files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from liverpool import InvalidArgumentError, RuleSet
from liverpool.tools import cli
from liverpool.agents.bots import play_game
from liverpool.agents.tournament import load_bot_class, play, seating_orders


def test_identical_bots_in_every_seat_order_score_exactly_alike() -> None:
    # With all 3! seatings the two greedy entries play the same games with the seats
    # swapped: the engine and the bots are deterministic, so their numbers are equal.
    result = play(["greedy", "random", "greedy"], deals=3, seed=4, seatings="all")
    assert result.games == 18 and result.seatings == 6
    first, weak, second = result.stats()
    assert (first.win_rate, first.mean_score) == (second.win_rate, second.mean_score)
    assert first.win_rate_ci == second.win_rate_ci
    assert weak.mean_score > first.mean_score


def test_each_game_shares_one_win_and_the_numbers_are_its_means() -> None:
    result = play(["greedy", "random", "greedy", "random"], deals=5, seed=2)
    share = result.win_share
    assert np.allclose(share.sum(axis=1), 1.0), "L-10.3: a shared win is split, so a game's shares add up to 1"
    assert share.shape == (20, 4) and result.entries == ("greedy", "random", "greedy#2", "random#2")
    for e, stats in enumerate(result.stats()):
        assert stats.win_rate == pytest.approx(share[:, e].mean())
        assert stats.mean_score == pytest.approx(result.totals[:, e].mean())
        low, high = stats.mean_score_ci
        assert low <= stats.mean_score <= high
        # Deal means vary, so the interval has a width.
        assert high > low
    # Lowest total wins (L-10.3).
    lowest = result.totals == result.totals.min(axis=1, keepdims=True)
    assert np.array_equal(lowest, result.winners)


def test_every_entry_sits_in_every_seat_of_a_deal() -> None:
    result = play(["greedy", "random", "greedy"], deals=2, seed=0)
    for deal in range(2):
        seats = result.seats[deal * 3 : deal * 3 + 3]
        for e in range(3):
            assert sorted(seats[:, e].tolist()) == [0, 1, 2]
    assert seating_orders(3) == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert sorted(map(tuple, seating_orders(3, "all"))) == sorted(
        {(a, b, c) for a in range(3) for b in range(3) for c in range(3) if len({a, b, c}) == 3}
    )
    with pytest.raises(InvalidArgumentError):
        seating_orders(3, "random")


def test_the_native_path_plays_the_games_play_game_plays() -> None:
    # Native line-ups go through simulate; each game must be the game play_game
    # replays for that deal and seating.
    bots = ["greedy", "random", "greedy"]
    rules = RuleSet("shanghai")
    result = play(bots, deals=2, seed=8, rules=rules)
    for g in range(result.games):
        deal, seating = divmod(g, result.seatings)
        order = seating_orders(3)[seating]
        state = play_game([bots[e] for e in order], seed=8, rules=rules, game=deal)
        for e in range(3):
            assert result.totals[g, e] == state.totals[order.index(e)]


def test_python_bots_play_through_the_python_loop() -> None:
    result = play(["greedy", "liverpool.agents.bots:RandomBot", "greedy"], deals=2, seed=1)
    again = play(["greedy", "liverpool.agents.bots:RandomBot", "greedy"], deals=2, seed=1)
    assert np.array_equal(result.totals, again.totals), "Python bots are seeded per game and seat"
    assert result.stats()[1].mean_score > result.stats()[0].mean_score


def test_one_deal_has_no_interval() -> None:
    stats = play(["greedy", "random", "greedy"], deals=1, seed=0).stats()[0]
    assert math.isnan(stats.win_rate_ci[0]) and not math.isnan(stats.win_rate)


@pytest.mark.parametrize(
    "spec", ["liverpool.agents.bots:NoSuchBot", "no_such_module_anywhere:Bot", "liverpool.agents.bots:", ":RandomBot"]
)
def test_bad_python_bots_are_refused(spec: str) -> None:
    with pytest.raises(InvalidArgumentError):
        load_bot_class(spec)
    with pytest.raises(InvalidArgumentError):
        play(["greedy", spec, "greedy"], deals=1)


def test_command_writes_json_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out, plot = tmp_path / "t.json", tmp_path / "t.png"
    code = cli.main(
        ["tournament", "greedy", "random", "greedy", "--deals", "3", "--json", str(out), "--plot", str(plot), "--no-progress"]
    )
    printed = capsys.readouterr().out
    assert code == 0
    data = json.loads(out.read_text())
    assert data["games"] == 9 and [s["entry"] for s in data["stats"]] == ["greedy", "random", "greedy#2"]
    assert "win rate" in printed and "greedy#2" in printed
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    expected = play(["greedy", "random", "greedy"], deals=3, seed=0).to_dict()["stats"]
    assert data["stats"] == json.loads(json.dumps(expected))


def test_command_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tournament", "greedy", "grumpy", "greedy", "--deals", "1", "--no-progress"]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--help"], ["tournament", "--help"], ["simulate", "--help"]])
def test_help_texts_format(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # argparse expands % in help strings: a bare "95%" once broke `liverpool --help`.
    with pytest.raises(SystemExit) as done:
        cli.main(argv)
    assert done.value.code == 0
    assert "tournament" in capsys.readouterr().out or argv[0] != "--help"
