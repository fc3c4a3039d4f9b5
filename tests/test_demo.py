"""`liverpool demo` (`make demo`, the terminal tour) runs and tells the worked example right."""

from __future__ import annotations

import pytest

from liverpool.tools.cli import main


def test_demo_tour(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "go down:   7♠ 7♥ 7♦ | 9♠ 9♥ 9♦" in out  # L-11
    assert "(35 points)" in out and "scores 29" in out  # L-11, L-10.1
    assert "seat 2 cuts 41 -> cut bonus: True" in out  # L-2.2, L-2.3
    assert "winners [" in out and "round_over" in out
