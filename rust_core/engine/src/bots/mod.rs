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

mod estimate;
mod expert;
mod greedy;
mod random;
#[cfg(test)]
mod tests;

pub use estimate::{cards_missing, connections, could_help, could_meld, estimate, every_card_could_run, Estimate};
pub use expert::{Advice, ExpertBot, ExpertBudget};
pub use greedy::GreedyBot;
pub use random::RandomBot;

use crate::error::{Error, ErrorCode, Result};
use crate::game::{Action, GameState};
use crate::msg;

/// A player: chooses the action of `seat`, which must be `state.to_act()`.
///
/// Implementations must be deterministic given their own seed, and should return a
/// legal action; an illegal one is refused by `GameState::apply` with its reason.
pub trait Bot {
    fn choose(&mut self, state: &GameState, seat: usize) -> Action;
}

/// The native bots by name, for simulations and the Python binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    Random,
    Greedy,
    Expert,
}

impl BotKind {
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Greedy, BotKind::Expert];

    /// `"random"`, `"greedy"` or `"expert"`.
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Expert => "expert",
        }
    }

    /// A bot kind from its name (case-insensitive); `invalid_argument` otherwise.
    pub fn parse(name: &str) -> Result<BotKind> {
        let wanted = name.trim().to_ascii_lowercase();
        BotKind::ALL.into_iter().find(|k| k.name() == wanted).ok_or_else(|| {
            let known: Vec<&str> = BotKind::ALL.iter().map(|k| k.name()).collect();
            Error::with(
                ErrorCode::InvalidArgument,
                None,
                msg!("bot.unknown", name = name, known = known.join(", ")),
            )
        })
    }

    /// A bot of this kind seeded with `seed`.
    pub fn build(self, seed: u64) -> NativeBot {
        match self {
            BotKind::Random => NativeBot::Random(RandomBot::new(seed)),
            BotKind::Greedy => NativeBot::Greedy(GreedyBot::new(seed)),
            BotKind::Expert => NativeBot::Expert(ExpertBot::new(seed)),
        }
    }
}

/// Any native bot, without dynamic dispatch (the simulation's hot path). The greedy
/// bot is a few hundred bytes (its remembered estimates); a game holds one bot per
/// seat, so boxing it would only add an indirection.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum NativeBot {
    Random(RandomBot),
    Greedy(GreedyBot),
    Expert(ExpertBot),
}

impl NativeBot {
    pub fn kind(&self) -> BotKind {
        match self {
            NativeBot::Random(_) => BotKind::Random,
            NativeBot::Greedy(_) => BotKind::Greedy,
            NativeBot::Expert(_) => BotKind::Expert,
        }
    }
}

impl Bot for NativeBot {
    fn choose(&mut self, state: &GameState, seat: usize) -> Action {
        match self {
            NativeBot::Random(b) => b.choose(state, seat),
            NativeBot::Greedy(b) => b.choose(state, seat),
            NativeBot::Expert(b) => b.choose(state, seat),
        }
    }
}
