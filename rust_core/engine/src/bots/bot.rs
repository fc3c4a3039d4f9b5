//! The `Bot` trait: what every player of the engine implements.

use crate::game::{Action, GameState};

/// A player: chooses the action of `seat`, which must be `state.to_act()`.
///
/// Implementations must be deterministic given their own seed, and should return a
/// legal action; an illegal one is refused by `GameState::apply` with its reason.
pub trait Bot {
    fn choose(&mut self, state: &GameState, seat: usize) -> Action;
}
