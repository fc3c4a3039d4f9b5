"""Liverpool Rummy: a fast Rust rules engine with a Pythonic face.

>>> from liverpool import Card, Meld
>>> Card("7♦")
Card('7♦')
>>> Meld.run(["JK", "5♥", "6♥", "7♥"]).joker_stands_for(0)
Card('4♥')
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

# The modules grouped by audience (liverpool.teach, liverpool.agents, liverpool.tools) keep
# their old paths as deprecated aliases (liverpool.display, liverpool.envs, ...).
from liverpool import _moved

_moved.install()

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
    ConcurrentUseError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidRulesError,
    LiverpoolError,
    PositionError,
)

# Contract search
from liverpool._core import (
    Arrangement,
    GoDown,
    best_arrangement,
    best_go_down,
    best_go_down_points_left_batch,
    deadwood_batch,
    has_contract,
    has_contract_batch,
    outs,
)
from liverpool.search import GoDowns, all_go_downs, best_go_down_points_batch

# Shuffling and dealing
from liverpool._core import Deal, deal, new_deck, shuffled_deck, shuffled_decks

# The game: state machine, positions, scenarios
from liverpool._core import Action, Event, GameState, ScenarioReport, TableMeld
from liverpool._core import VecEnv, action_layout, action_names, action_space_size
from liverpool.tools.scenarios import run_scenario, run_scenarios

# Native bots, Python bot interface, simulation (local or on Ray)
from liverpool._core import NativeBot, SimulationResult
from liverpool.agents.distributed import simulate
from liverpool.agents.bots import Bot, BotError, BotFault, RandomBot, play_game

# The learner's language (messages of refusals, widget labels)
from liverpool.i18n import get_language, set_language

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
    "ConcurrentUseError",
    # search
    "GoDown",
    "GoDowns",
    "Arrangement",
    "has_contract",
    "best_go_down",
    "all_go_downs",
    "outs",
    "best_arrangement",
    "best_go_down_points_left_batch",
    "best_go_down_points_batch",
    "has_contract_batch",
    "deadwood_batch",
    # deal
    "Deal",
    "deal",
    "new_deck",
    "shuffled_deck",
    "shuffled_decks",
    # game
    "Action",
    "Event",
    "GameState",
    "ScenarioReport",
    "TableMeld",
    "run_scenario",
    "run_scenarios",
    # reinforcement learning (docs/action-space.md)
    "action_space_size",
    "action_layout",
    "action_names",
    "VecEnv",
    # bots
    "Bot",
    "BotError",
    "BotFault",
    "NativeBot",
    "RandomBot",
    "SimulationResult",
    "play_game",
    "simulate",
    # language
    "set_language",
    "get_language",
]


if not TYPE_CHECKING:  # hidden from type checkers, which would take any name as a module

    def __getattr__(name: str) -> object:
        """``liverpool.bots``, ``liverpool.cli``, ...: a module that moved, at its new path,
        with a DeprecationWarning (liverpool._moved)."""
        return _moved.moved_attribute(name)


del TYPE_CHECKING  # not one of the package's names


def _register_notebook_display() -> None:
    """In a running IPython (a notebook), show lists of cards as cards. IPython is never
    imported here: only a shell that is already running is used."""
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if get_ipython is not None else None
    if shell is not None:
        from liverpool.teach.display import register_ipython_formatter

        register_ipython_formatter(shell)


_register_notebook_display()
