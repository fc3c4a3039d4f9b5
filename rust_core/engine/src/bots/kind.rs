//! The native bots by name (`BotKind`) and any one of them without dynamic dispatch
//! (`NativeBot`), for simulations and the Python binding.

use super::bot::Bot;
use super::expert::ExpertBot;
use super::greedy::GreedyBot;
use super::random::RandomBot;
use crate::error::{Error, ErrorCode, Result};
use crate::game::{Action, GameState};
use crate::msg;

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
