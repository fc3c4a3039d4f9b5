"""``liverpool demo``: a short tour of the engine on RULES.md's worked example (L-11)."""

from __future__ import annotations

import argparse
import sys

import liverpool
from liverpool import Card, Meld
from liverpool.tools.options import add_rules_argument, load_rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=2026, help="seed for the dealing part of the tour")
    add_rules_argument(parser)


def _show(title: str) -> None:
    print(f"\n--- {title}")


def run(args: argparse.Namespace) -> int:
    try:
        rules = load_rules(args.rules)
    except liverpool.LiverpoolError as exc:
        print(f"liverpool demo: error: {exc} [{exc.code}]", file=sys.stderr)
        return 2
    print(f"liverpool {liverpool.__version__}: profile '{rules.name}', {rules.deck_size()} cards (L-1.2)")

    _show("Contracts (L-3)")
    for round_number in range(1, rules.rounds + 1):
        print(f"round {round_number}: deal {rules.deal_sizes[round_number - 1]:>2}, {rules.describe_contract(round_number)}")

    _show("Melds (L-4)")
    run_with_joker = Meld.run(["JK", "5♥", "6♥", "7♥"])
    print(f"{run_with_joker!r}: the joker stands for {run_with_joker.joker_stands_for(0)}")
    try:
        Meld.run("Q♥ K♥ A♥ 2♥")
    except liverpool.IllegalMoveError as error:
        print(f"Q♥ K♥ A♥ 2♥ is refused: {error.code} — {error}")

    _show("The worked example (L-11): take 7♦ and find the best go-down")
    hand = liverpool.parse_cards("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥") + [Card("7♦")]
    best = liverpool.best_go_down(hand, 1, rules)
    assert best is not None
    print("hand:     ", " ".join(map(str, hand)))
    print("go down:  ", " | ".join(str(m) for m in best.melds))
    print("left:     ", " ".join(map(str, best.left)), f"({best.points_left} points)")
    left_after_discard = [c for c in best.left if c != Card("8♦")]
    print("discard 8♦, keep:", " ".join(map(str, left_after_discard)))
    print("A♠ K♦ 4♥ left in a hand scores", sum(Card(c).points(rules) for c in ["A♠", "K♦", "4♥"]), "(L-10.1)")

    _show("Shuffling and dealing (L-2)")
    deck = liverpool.shuffled_deck(args.seed)
    dealt = liverpool.deal(deck, round=1, dealer=3, cut=41)
    print(f"seed {args.seed}: dealer 3, seat {dealt.cutter} cuts 41 -> cut bonus: {dealt.cut_bonus}")
    for seat, seat_hand in enumerate(dealt.hands):
        print(f"seat {seat}: {' '.join(map(str, seat_hand))}")
    print(f"up-card {dealt.up_card}, stock {len(dealt.stock)} cards")
    decks = liverpool.shuffled_decks(100_000, seed=args.seed)
    print(f"a batch of {decks.shape[0]:,} shuffled decks as a numpy array {decks.shape}, dtype {decks.dtype}")

    _show("A whole game between native bots (L-5 … L-10)")
    bots = ["greedy", "greedy", "random", "greedy"]
    game = liverpool.play_game(bots, seed=args.seed, rules=rules)
    print(f"seats {bots}: {len(game.history)} actions, totals {game.totals}, winners {game.winners}")
    try:
        game.apply(0, liverpool.Action.draw_stock())
    except liverpool.IllegalMoveError as error:
        print(f"a move after the end is refused: {error.code} — {error}")
    many = liverpool.simulate(500, seed=args.seed, bots=bots, rules=rules)
    print(f"500 such games simulated natively in {many.seconds:.2f} s; win rate per seat: {many.winners.mean(axis=0).round(2)}")
    return 0
