"""Liverpool Rummy: a fast Rust rules engine with a Pythonic face.

>>> from liverpool import Card, Meld
>>> Card("7♦")
Card('7♦')
>>> Meld.run(["JK", "5♥", "6♥", "7♥"]).joker_stands_for(0)
Card('4♥')
"""

from __future__ import annotations

from liverpool import errors
from liverpool._core import (
    Card,
    Meld,
    RuleSet,
    __version__,
    check_go_down,
    error_codes,
    parse_cards,
)
from liverpool.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidRulesError,
    LiverpoolError,
    PositionError,
)

# --- section: search (contract search) ---
from liverpool._core import (
    Arrangement,
    GoDown,
    all_go_downs,
    best_arrangement,
    best_go_down,
    best_go_down_points_batch,
    deadwood_batch,
    has_contract,
    has_contract_batch,
    outs,
)
# --- end section: search ---

# --- section: deal (shuffling and dealing) ---
from liverpool._core import Deal, deal, new_deck, shuffled_deck, shuffled_decks
# --- end section: deal ---

# --- section: game (state machine, positions, scenarios, bots, simulation) ---
from liverpool._core import Action, Event, GameState, ScenarioReport, TableMeld
from liverpool.scenarios import run_scenario, run_scenarios
# --- end section: game ---

# --- section: bots (native bots, Python bot interface, simulation) ---
# The `liverpool simulate` command is the submodule liverpool.simulate. Import it
# first, so that importing it later cannot rebind `liverpool.simulate` (the
# function below) to the module.
import liverpool.simulate as _simulate_command  # noqa: F401
from liverpool._core import NativeBot, SimulationResult, simulate
from liverpool.bots import Bot, RandomBot, play_game
# --- end section: bots ---

__all__ = [
    "Card",
    "Meld",
    "RuleSet",
    "__version__",
    "check_go_down",
    "error_codes",
    "parse_cards",
    "errors",
    "LiverpoolError",
    "InvalidCardError",
    "InvalidRulesError",
    "InvalidArgumentError",
    "PositionError",
    "IllegalMoveError",
    # --- section: search exports ---
    "GoDown",
    "Arrangement",
    "has_contract",
    "best_go_down",
    "all_go_downs",
    "outs",
    "best_arrangement",
    "best_go_down_points_batch",
    "has_contract_batch",
    "deadwood_batch",
    # --- end section: search exports ---
    # --- section: deal exports ---
    "Deal",
    "deal",
    "new_deck",
    "shuffled_deck",
    "shuffled_decks",
    # --- end section: deal exports ---
    # --- section: game exports ---
    "Action",
    "Event",
    "GameState",
    "ScenarioReport",
    "TableMeld",
    "run_scenario",
    "run_scenarios",
    # --- end section: game exports ---
    # --- section: bots exports ---
    "Bot",
    "NativeBot",
    "RandomBot",
    "SimulationResult",
    "play_game",
    "simulate",
    # --- end section: bots exports ---
]
