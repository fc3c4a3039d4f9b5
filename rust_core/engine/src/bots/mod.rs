//! Native bots: players that choose an action for a seat of a [`GameState`].
//!
//! - [`RandomBot`]: a uniformly random legal action (a baseline).
//! - [`GreedyBot`]: goes down as soon as it can, sheds cards, buys and takes the
//!   discard when it helps, discards its least useful card. Cheap enough for
//!   thousands of full games per second per core (see `examples/greedy_games.rs`).
//! - [`ExpertBot`]: determinized Monte Carlo search over the cards its seat cannot
//!   see (only its [`crate::game::InfoSet`]), greedy play-outs to the end of the round.
//!
//! Every bot is deterministic given its seed: all its randomness comes from its own
//! [`crate::rng::Rng`]. Bots only choose; the engine still checks every action.
//! `docs/bots.md` describes the strategies and the Python side.
//!
//! ```
//! use liverpool_engine::bots::{Bot, BotKind};
//! use liverpool_engine::game::GameState;
//!
//! let mut game = GameState::new_liverpool(7);
//! let mut bots: Vec<_> = (0..4).map(|seat| BotKind::Greedy.build(seat)).collect();
//! while let Some(seat) = game.to_act() {
//!     let action = bots[seat].choose(&game, seat);
//!     game.apply(seat, &action).unwrap();
//! }
//! assert!(game.is_game_over());
//! ```

mod bot;
mod estimate;
mod expert;
mod greedy;
mod kind;
mod random;
#[cfg(test)]
mod tests;

pub use bot::Bot;
pub use estimate::{cards_missing, connections, could_help, could_meld, estimate, every_card_could_run, Estimate};
pub use expert::{Advice, ExpertBot, ExpertBudget};
pub use greedy::GreedyBot;
pub use kind::{BotKind, NativeBot};
pub use random::RandomBot;
