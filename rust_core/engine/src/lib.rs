//! # liverpool-engine
//!
//! The rules of Liverpool Rummy (see `RULES.md`, profile L by default) in pure Rust:
//! cards, rule sets as data, meld validation, contract search, shuffling and dealing,
//! the game state machine, bots and batch simulation. No Python here: the PyO3
//! binding lives in `rust_core/python` and only converts and delegates.
//!
//! No `unsafe` code (docs/guarantees.md).

#![forbid(unsafe_code)]

pub mod bots;
pub mod card;
pub mod deal;
pub mod error;
pub mod game;
pub mod limits;
pub mod meld;
pub mod messages;
pub mod rng;
pub mod rules;
pub mod search;
pub mod sim;
pub mod vec_env;

/// Whether the exhaustive test budgets are asked for: `make test-long` sets
/// `LIVERPOOL_LONG=1` (docs/testing.md). Tests that check a sample in `make test` check
/// more there; the checks themselves are the same.
#[cfg(test)]
pub(crate) fn long_test_run() -> bool {
    std::env::var("LIVERPOOL_LONG").is_ok_and(|v| v == "1")
}

pub use card::{Card, CardCounts, Suit};
pub use error::{Arg, Error, ErrorCode, Message, Result};
pub use meld::{check_go_down, End, Meld, MeldKind};
pub use rules::{BuyingRule, Contract, JokerSwapRule, RuleSet, TieBreak};
