"""Train sb3-contrib's MaskablePPO on Liverpool, plot its learning curve, and export
the policy to a numpy file that plays without torch.

One seat per game learns against native bots (``--opponents``, greedy by default),
all games stepped together in Rust through the SB3 adapter over the native
``liverpool.VecEnv`` (``liverpool.agents.envs.sb3.sb3_vec_env``). Only legal ids are ever
sampled: MaskablePPO reads the engine's masks through ``action_masks()``.

    python examples/train_maskable_ppo.py --timesteps 200000 --envs 16 --seed 0 --out runs/ppo

writes into ``--out``:

- ``curve.csv``: after every rollout, the timesteps so far, the wall time, the games
  finished, and the mean return (minus the learner's final total, L-10.3: higher is
  better) and win rate of the last ``--window`` finished games;
- ``curve.png``: that learning curve (matplotlib);
- ``model.zip`` and ``vecnormalize.pkl``: the SB3 model and its observation
  statistics (``MaskablePPO.load`` / ``VecNormalize.load``);
- ``policy.npz``: the policy for :class:`liverpool.agents.policy_bot.PolicyBot` — the MLP's
  and the action net's weights, the observation normalisation, the observation and
  action sizes, the rule set and the number of players it was trained for — so
  ``liverpool tournament greedy expert random policy:runs/ppo/policy.npz`` plays it
  with numpy alone.

Observations are normalised by running statistics (SB3's ``VecNormalize``, frozen
in the export) because the raw features are counts up to the deck size; rewards
are the round scores times ``--reward-scale`` (0.01: a round costs a few points, not
hundreds).

Needs the ``rl`` extra and torch: ``pip install 'liverpool-rummy[rl]'``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import platform
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

#: The file format written by :func:`export_policy` and read by ``liverpool.agents.policy_bot``.
POLICY_FORMAT = "liverpool-maskable-ppo-mlp/1"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timesteps", type=int, default=200_000, help="learner steps in all (default 200000)")
    parser.add_argument("--envs", type=int, default=16, help="games stepped together (default 16)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games and of the network (default 0)")
    parser.add_argument("--out", type=Path, default=Path("runs/maskable_ppo"), help="output directory")
    parser.add_argument("--rules", default="liverpool", help="preset name or rule set file (default liverpool)")
    parser.add_argument("--players", type=int, default=None, help="table size (default: the rule set's)")
    parser.add_argument("--opponents", default="greedy", help="native bots in the other seats (default greedy)")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per game per rollout (default 256)")
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout (default 4)")
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--net", default="128,128", help="hidden layer sizes of the MLP (default 128,128)")
    parser.add_argument("--reward-scale", type=float, default=0.01)
    parser.add_argument("--window", type=int, default=200, help="finished games in each curve point (default 200)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument(
        "--max-minutes", type=float, default=None, help="stop after this much wall time, whatever --timesteps says"
    )
    parser.add_argument(
        "--baseline-games", type=int, default=1000,
        help="games of the greedy bot in the learner's seat, drawn as a reference line (0: none; default 1000)",
    )
    args = parser.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else list(argv)
    for name in ("timesteps", "envs", "n_steps", "batch_size", "epochs", "window", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.baseline_games < 0:
        parser.error("--baseline-games must be at least 0")
    if args.max_minutes is not None and not args.max_minutes > 0:
        parser.error("--max-minutes must be positive")
    try:
        args.net_arch = [int(size) for size in args.net.split(",")]
    except ValueError:
        parser.error(f"--net must be sizes separated by commas, not {args.net!r}")
    if not args.net_arch or min(args.net_arch) < 1:
        parser.error(f"--net must be sizes separated by commas, not {args.net!r}")
    return args


class CurveLog:
    """The learning curve: one point per rollout, over the last ``window`` finished games."""

    def __init__(self, path: Path, window: int, agent_seat: int) -> None:
        self.path = path
        self.agent_seat = agent_seat
        self.returns: deque[float] = deque(maxlen=window)
        self.wins: deque[float] = deque(maxlen=window)
        self.games = 0
        self.rows: list[dict[str, float]] = []
        self.started = time.monotonic()

    def game_over(self, totals: list[int]) -> None:
        """One finished game: the learner's return is minus its final total; a win
        shared by ``k`` seats (L-10.3) counts ``1/k``."""
        mine = totals[self.agent_seat]
        best = min(totals)
        self.returns.append(-float(mine))
        self.wins.append(1.0 / totals.count(best) if mine == best else 0.0)
        self.games += 1

    def point(self, timesteps: int) -> dict[str, float]:
        """The curve's point now (NaN means before the first game ends), also written to the CSV."""
        row = {
            "timesteps": float(timesteps),
            "seconds": round(time.monotonic() - self.started, 1),
            "games": float(self.games),
            "mean_return": float(np.mean(self.returns)) if self.returns else math.nan,
            "win_rate": float(np.mean(self.wins)) if self.wins else math.nan,
        }
        if self.rows and self.rows[-1]["timesteps"] == row["timesteps"]:
            self.rows[-1] = row
        else:
            self.rows.append(row)
        with self.path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(self.rows)
        return row


def make_callback(log: CurveLog, max_seconds: float | None) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class CurveCallback(BaseCallback):
        """Reads every finished game's totals from the adapter's ``infos``."""

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                totals = info.get("totals")
                if totals is not None:
                    log.game_over(list(totals))
            # Stopping inside a rollout is SB3's way to end ``learn`` early.
            return max_seconds is None or time.monotonic() - log.started < max_seconds

        def _on_rollout_end(self) -> None:
            row = log.point(self.num_timesteps)
            if row["games"]:
                print(
                    f"{int(row['timesteps']):>9} steps  {row['seconds']:>7.0f} s  {int(row['games']):>6} games  "
                    f"mean return {row['mean_return']:8.1f}  win rate {row['win_rate']:.1%}",
                    flush=True,
                )

    return CurveCallback()


def greedy_baseline(args: argparse.Namespace, rules: Any, players: int, agent_seat: int) -> float | None:
    """The mean return of the engine's greedy bot in the learner's seat against the
    same opponents (``--baseline-games`` games, native): the line to beat."""
    if args.baseline_games == 0:
        return None
    import liverpool

    opponents = args.opponents.split(",")
    if len(opponents) == 1:
        opponents *= players - 1
    bots = opponents[:agent_seat] + ["greedy"] + opponents[agent_seat:]
    result = liverpool.simulate(args.baseline_games, seed=args.seed + 1, bots=",".join(bots), rules=rules)
    return -float(np.mean(result.totals[:, agent_seat]))


def plot_curve(
    rows: list[dict[str, float]], path: Path, title: str, window: int, baseline: float | None = None
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [row["timesteps"] for row in rows]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(steps, [row["mean_return"] for row in rows], color="tab:blue", label="mean game return")
    if baseline is not None:
        ax.axhline(baseline, color="tab:green", linestyle="--", label="greedy bot in that seat")
    ax.set_xlabel("learner timesteps")
    ax.set_ylabel(f"mean return of the last {window} games\n(minus the final total; higher is better)")
    ax.grid(alpha=0.3)
    wins = ax.twinx()
    wins.plot(steps, [100 * row["win_rate"] for row in rows], color="tab:orange", alpha=0.7, label="win rate")
    wins.set_ylabel("win rate (%)")
    wins.set_ylim(0, 100)
    handles = ax.get_legend_handles_labels()[0] + wins.get_legend_handles_labels()[0]
    ax.legend(handles, [str(h.get_label()) for h in handles], loc="lower right")
    if not any(row["games"] for row in rows):
        ax.text(0.5, 0.5, "no game finished yet", transform=ax.transAxes, ha="center", va="center")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def export_policy(model: Any, normalizer: Any, path: Path, rules: Any, players: int, agent_seat: int) -> None:
    """The deterministic policy as plain arrays (``numpy.savez_compressed``, no pickled
    objects): ``hidden_{i}_weight`` ``(out, in)`` / ``hidden_{i}_bias`` of the policy
    MLP (tanh after each), ``action_weight`` / ``action_bias`` of the action net (the
    logits), ``obs_mean`` / ``obs_var`` / ``clip_obs`` / ``obs_epsilon`` of the
    frozen observation normalisation, and what the policy was trained for."""
    import torch

    policy = model.policy
    layers = [module for module in policy.mlp_extractor.policy_net if isinstance(module, torch.nn.Linear)]
    activations = {type(module).__name__ for module in policy.mlp_extractor.policy_net} - {"Linear"}
    if activations != {"Tanh"}:
        raise RuntimeError(f"the export knows tanh MLPs only, not {sorted(activations)}")
    arrays: dict[str, npt.NDArray[Any]] = {
        "format": np.array(POLICY_FORMAT),
        "activation": np.array("tanh"),
        "obs_size": np.array(policy.observation_space.shape[0], dtype=np.int64),
        "action_size": np.array(policy.action_space.n, dtype=np.int64),
        "players": np.array(players, dtype=np.int64),
        "agent_seat": np.array(agent_seat, dtype=np.int64),
        "rules_name": np.array(rules.name),
        "rules_json": np.array(rules.to_json()),
        "hidden_layers": np.array(len(layers), dtype=np.int64),
        "obs_mean": normalizer.obs_rms.mean.astype(np.float32),
        "obs_var": normalizer.obs_rms.var.astype(np.float32),
        "clip_obs": np.array(normalizer.clip_obs, dtype=np.float32),
        "obs_epsilon": np.array(normalizer.epsilon, dtype=np.float32),
        "action_weight": policy.action_net.weight.detach().cpu().numpy().astype(np.float32),
        "action_bias": policy.action_net.bias.detach().cpu().numpy().astype(np.float32),
    }
    for index, layer in enumerate(layers):
        arrays[f"hidden_{index}_weight"] = layer.weight.detach().cpu().numpy().astype(np.float32)
        arrays[f"hidden_{index}_bias"] = layer.bias.detach().cpu().numpy().astype(np.float32)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def train(args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecNormalize
    from stable_baselines3.common.logger import Logger

    from liverpool.agents.envs.sb3 import sb3_vec_env

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    env = sb3_vec_env(
        args.envs,
        rules=args.rules,
        players=args.players,
        opponents=args.opponents,
        seed=args.seed,
        reward_scale=args.reward_scale,
    )
    vector = env.vector
    normalizer = VecNormalize(env, norm_obs=True, norm_reward=False, clip_obs=10.0, gamma=args.gamma)
    model = MaskablePPO(
        "MlpPolicy",
        normalizer,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.learning_rate,
        gamma=args.gamma,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": {"pi": args.net_arch, "vf": args.net_arch}},
        seed=args.seed,
        verbose=0,
    )
    # The curve is written by CurveLog; SB3's default logger would only leave an empty
    # folder in the temp directory.
    model.set_logger(Logger(folder=None, output_formats=[]))
    log = CurveLog(args.out / "curve.csv", args.window, vector.agent_seat)
    started = time.monotonic()
    max_seconds = None if args.max_minutes is None else 60 * args.max_minutes
    model.learn(total_timesteps=args.timesteps, callback=make_callback(log, max_seconds))
    seconds = time.monotonic() - started
    log.point(model.num_timesteps)

    model.save(args.out / "model.zip")
    normalizer.save(str(args.out / "vecnormalize.pkl"))
    export_policy(model, normalizer, args.out / "policy.npz", vector.rules, vector.players, vector.agent_seat)
    title = (
        f"MaskablePPO, {vector.rules.name} {vector.players} players vs {args.opponents}: "
        f"{model.num_timesteps:,} steps, {seconds / 60:.0f} min"
    )
    baseline = greedy_baseline(args, vector.rules, vector.players, vector.agent_seat)
    plot_curve(log.rows, args.out / "curve.png", title, args.window, baseline)
    summary = {
        "command": " ".join(["examples/train_maskable_ppo.py", *args.argv]),
        "timesteps": int(model.num_timesteps),
        "seconds": round(seconds, 1),
        "games": log.games,
        "final": {key: None if math.isnan(value) else value for key, value in log.rows[-1].items()},
        "greedy_baseline_return": baseline,
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "torch": torch.__version__,
        "torch_threads": args.threads,
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    env.close()
    return summary


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    summary = train(args)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
