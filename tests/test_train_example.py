"""examples/train_maskable_ppo.py end to end with a tiny budget (seconds, never a
long training), the exported policy against the SB3 model it came from, and the
leaderboard on the committed policy (docs/agents.md).

The training smoke needs torch and sb3-contrib (the ``rl`` extra and torch); it is
skipped without them. The leaderboard needs neither: the committed policy plays with
numpy (liverpool.agents.policy_bot).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from liverpool import GameState
from liverpool.tools.cli import main as cli_main
from liverpool.agents.policy_bot import PolicyBot, load_policy
from liverpool.agents.tournament import play

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "train_maskable_ppo.py"
COMMITTED = ROOT / "examples" / "policies" / "maskable_ppo_liverpool_4p.npz"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def decisions(seed: int, steps: int) -> list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    """(observation, mask) of the seat to act along a random legal game: first ids of
    moves and the ids in the middle of a go-down alike."""
    rng = np.random.default_rng(seed)
    game = GameState(seed=seed)
    found: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = []
    while len(found) < steps and not game.is_game_over:
        seat = game.to_act
        assert seat is not None
        mask = game.legal_action_mask(seat)
        found.append((game.observation_tensor(seat), mask))
        game.apply_id(seat, int(rng.choice(np.flatnonzero(mask))))
    return found


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    out = tmp_path_factory.mktemp("ppo")
    example = load_example()
    example.main(
        [
            "--timesteps", "256", "--envs", "2", "--n-steps", "64", "--batch-size", "64",
            "--net", "32,32", "--window", "5", "--baseline-games", "4", "--seed", "3", "--out", str(out),
        ]
    )  # fmt: skip
    return out


def test_example_writes_curve_model_and_policy(trained: Path) -> None:
    for name in ("curve.png", "curve.csv", "model.zip", "vecnormalize.pkl", "policy.npz", "summary.json"):
        assert (trained / name).stat().st_size > 0, name
    assert (trained / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = list(csv.DictReader((trained / "curve.csv").read_text().splitlines()))
    assert rows and int(float(rows[-1]["timesteps"])) >= 256
    summary = json.loads((trained / "summary.json").read_text())
    assert summary["timesteps"] >= 256 and summary["torch_threads"] == 1
    assert summary["command"].startswith("examples/train_maskable_ppo.py --timesteps 256 ")
    # The greedy bot's mean return in the learner's seat: minus a final total.
    assert summary["greedy_baseline_return"] < 0
    policy = load_policy(trained / "policy.npz")
    assert (policy.players, policy.rules.name, policy.agent_seat) == (4, "liverpool", 0)
    assert [w.shape[0] for w, _ in policy.hidden] == [32, 32]


def test_exported_policy_chooses_as_the_sb3_model(trained: Path) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecNormalize

    from liverpool.agents.envs.sb3 import sb3_vec_env

    model = MaskablePPO.load(trained / "model.zip", device="cpu")
    normalizer = VecNormalize.load(str(trained / "vecnormalize.pkl"), sb3_vec_env(1))
    normalizer.training = False
    policy = load_policy(trained / "policy.npz")
    samples = decisions(seed=5, steps=150) + decisions(seed=6, steps=150)
    observations = np.stack([obs for obs, _ in samples])
    masks = np.stack([mask for _, mask in samples])

    normalized = normalizer.normalize_obs(observations)
    with torch.no_grad():
        features = model.policy.extract_features(torch.as_tensor(normalized), model.policy.pi_features_extractor)
        assert isinstance(features, torch.Tensor)  # one extractor for the policy, not a (pi, vf) pair
        torch_logits = model.policy.action_net(model.policy.mlp_extractor.forward_actor(features)).numpy()
    numpy_logits = policy.logits(observations)
    np.testing.assert_allclose(numpy_logits, torch_logits, rtol=1e-4, atol=1e-5)

    sb3_choices, _ = model.predict(normalized, action_masks=masks, deterministic=True)
    compared = 0
    for i, (obs, mask) in enumerate(samples):
        legal = np.sort(numpy_logits[i][mask])[::-1]
        if len(legal) > 1 and legal[0] - legal[1] < 1e-5:
            continue  # a near-tie that float rounding may break either way
        chosen = policy.choose_id(obs, mask)
        assert mask[chosen]
        assert chosen == int(sb3_choices[i]), i
        compared += 1
    assert compared > 200


def test_exported_policy_plays_a_legal_tournament(trained: Path) -> None:
    # The driver applies every move and the engine referees it; an illegal move would
    # be a fault (on_error="stop" raises), so a clean result is a legal game.
    result = play([f"policy:{trained / 'policy.npz'}", "greedy", "random", "greedy"], deals=1, seed=4)
    assert result.games == 4 and not result.faults
    assert PolicyBot(trained / "policy.npz").policy.action_size == 1590


def test_leaderboard_on_the_committed_policy(capsys: pytest.CaptureFixture[str]) -> None:
    entry = f"policy:{COMMITTED.relative_to(ROOT)}"
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        status = cli_main(["tournament", "random", "greedy", "expert", entry, "--deals", "2", "--seed", "0"])
    finally:
        os.chdir(cwd)
    printed = capsys.readouterr().out
    assert status == 0
    rows = [line.split() for line in printed.splitlines() if re.match(r"^\d+\s+\S+\s+\d+\.\d%", line)]
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert {row[1] for row in rows} == {"random", "greedy", "expert", entry}
    assert "8 games (2 deals × 4 seatings)" in printed
    # Ranked: win rates never increase down the table.
    rates = [float(row[2].rstrip("%")) for row in rows]
    assert rates == sorted(rates, reverse=True)
