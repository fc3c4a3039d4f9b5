//! Cheap hand estimates for the greedy bot: how far a hand is from the round's
//! contract, and how connected a card is to the rest of the hand.
//!
//! These are heuristics, not rules: they only guide the bot's choices, and every
//! action the bot takes is still checked by the engine. The exact questions ("does
//! the hand hold the contract?") are answered by `crate::search`.
//!
//! A facade: the files below each answer one question, and use each other in this
//! order only (never this file): `bits` <- `windows` <- `missing` <- `usefulness`,
//! and `bounds` (bits, windows).
//!
//! - `bits.rs`: the hand as bits (position masks, byte lanes, lookup tables);
//! - `windows.rs`: the best run window of a suit, with the gap rule (L-4.4);
//! - `missing.rs`: `estimate`, `cards_missing`: the cards a hand lacks for the contract;
//! - `bounds.rs`: lower bounds the greedy bot refuses hands with, cheaply;
//! - `usefulness.rs`: how useful one card is (`could_help`, `connections`, ...).

mod bits;
mod bounds;
mod missing;
#[cfg(test)]
mod tests;
mod usefulness;
mod windows;

pub use bits::natural_ids_held;
pub use bounds::{runs_jokers_needed_at_least, sets_and_runs_within_jokers};
pub use missing::{cards_missing, estimate, estimate_below, Estimate};
pub use usefulness::{connections, could_help, could_meld, every_card_could_run};
