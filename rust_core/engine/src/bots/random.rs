//! `RandomBot`: a uniformly random legal action.

use super::bot::Bot;
use crate::game::{Action, GameState};
use crate::rng::Rng;

/// Picks uniformly among `GameState::legal_actions` with its own seeded [`Rng`].
/// A baseline: it buys, goes down and discards at random, so it rarely goes out.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot::with_rng(Rng::from_seed(seed))
    }

    pub fn with_rng(rng: Rng) -> RandomBot {
        RandomBot { rng }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, state: &GameState, seat: usize) -> Action {
        let mut legal = state.legal_actions(Some(seat));
        if legal.is_empty() {
            // Not this seat's decision (or the game is over): whatever we return is
            // refused by the engine with its explanation.
            return Action::NextRound;
        }
        let pick = self.rng.below(legal.len() as u32) as usize;
        legal.swap_remove(pick)
    }
}
