"""Imitation data: the native bots' games as (observation, mask, action id) arrays,
to pretrain a policy on the expert before reinforcement learning.

Every decision of the seats recorded becomes one row per id of its move (a go-down
is several rows, docs/action-space.md): the seat's observation tensor and legal
action mask *before* the id, and the id the bot's move takes there. Every row's id
is in its mask (the bots' moves all have ids that play them; tests check it).

    python -m liverpool.agents.envs.imitation --games 200 --bot expert --out expert.npz

>>> from liverpool.agents.envs.imitation import record
>>> data = record(1, bot="greedy", seats=[0])
>>> bool(data["mask"][np.arange(len(data["action"])), data["action"]].all())
True
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from liverpool._core import GameState, NativeBot, RuleSet, game_seeds
from liverpool.agents.envs._common import check_int, resolve_rules


def record(
    games: int,
    bot: str = "expert",
    rules: RuleSet | str | os.PathLike[str] | None = None,
    players: int | None = None,
    seed: int = 0,
    seats: Sequence[int] | None = None,
    budget: int | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """Play ``games`` games of native ``bot`` s in every seat (game ``i`` seeded like
    ``simulate``'s: ``game_seeds(seed, i, players)``; ``budget``: the expert's
    determinizations, ``NativeBot``'s, e.g. 1 for fast and weaker data) and return the arrays
    ``obs`` float32 ``(rows, obs_size)``, ``mask`` bool ``(rows, size)``, ``action``
    int64 ``(rows,)``, ``seat`` int8 and ``game`` int32 ``(rows,)``, for the decisions
    of ``seats`` (default: every seat)."""
    games = check_int("games", games, 0)
    rule_set = resolve_rules(rules)
    n = rule_set.default_players if players is None else check_int("players", players, 1)
    wanted = set(range(n) if seats is None else (check_int("seat", s, 0, n - 1) for s in seats))
    obs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    actions: list[int] = []
    who: list[int] = []
    which: list[int] = []
    for i in range(games):
        game_seed, bot_seeds = game_seeds(check_int("seed", seed, 0), i, n)
        state = GameState(seed=game_seed, players=n, rules=rule_set)
        bots = [NativeBot(bot, seed=s, budget=budget) for s in bot_seeds]
        while (seat := state.to_act) is not None:
            action = bots[seat].choose(state, seat)
            if seat not in wanted:
                state.apply(seat, action)
                continue
            for action_id in state.action_ids(action):
                obs.append(state.observation_tensor(seat))
                masks.append(state.legal_action_mask(seat))
                actions.append(action_id)
                who.append(seat)
                which.append(i)
                state.apply_id(seat, action_id)
    size = GameState(players=n, rules=rule_set).action_space_size
    width = GameState(players=n, rules=rule_set).observation_tensor(0).shape[0]
    return {
        "obs": np.array(obs, dtype=np.float32).reshape(-1, width),
        "mask": np.array(masks, dtype=np.bool_).reshape(-1, size),
        "action": np.array(actions, dtype=np.int64),
        "seat": np.array(who, dtype=np.int8),
        "game": np.array(which, dtype=np.int32),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record native bots' games as imitation data (.npz).")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot", default="expert", help="a native bot: greedy, expert, random")
    parser.add_argument("--rules", default=None, help="a preset name or a rule set file")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=None, help="the expert's determinizations (default: its own)")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    data = record(args.games, bot=args.bot, rules=args.rules, players=args.players, seed=args.seed, budget=args.budget)
    np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
    print(f"{len(data['action'])} decisions of {args.games} games by {args.bot} bots -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
