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

pub use card::{Card, CardCounts, Suit};
pub use error::{Arg, Error, ErrorCode, Message, Result};
pub use meld::{check_go_down, End, Meld, MeldKind};
pub use rules::{BuyingRule, Contract, JokerSwapRule, RuleSet, TieBreak};
