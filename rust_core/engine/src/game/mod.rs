//! The game state machine (RULES.md profile L; rules read from a `RuleSet`), positions
//! and the conformance scenario runner. See docs/state-machine.md and docs/positions.md.
//!
//! ```
//! use liverpool_engine::game::{Action, GameState};
//! let mut g = GameState::new_liverpool(7);
//! let cutter = g.to_act().unwrap();
//! g.apply(cutter, &Action::Cut { size: Some(41) }).unwrap(); // L-2.3: the exact cut
//! assert_eq!(g.cut_bonus(), Some(cutter));
//! assert_eq!(g.hand_sizes(), vec![10, 10, 10, 10]);
//! assert_eq!(g.phase().name(), "draw");
//! ```

mod action;
mod apply;
mod encoding;
mod infoset;
mod invariants;
mod legal;
mod phase;
mod plan;
mod position;
mod reachable;
pub mod scenario;
mod scoring;
mod selection;
mod serde_cards;
mod snapshot;
mod state;
mod view;
mod windows;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_encoding;
#[cfg(test)]
mod tests_rule_ids;
#[cfg(test)]
mod tests_w;

pub use action::{Action, Event, EventKind, RoundEnd, RoundEndReason};
pub use encoding::{ActionSpace, CALL_PER_MELD, FIXED_ACTIONS, SWAP_PER_MELD};
pub use infoset::InfoSet;
pub use legal::GO_DOWN_LIMIT;
pub use phase::{BuyWindow, CallKind, CallWindow, Phase};
pub use position::{Position, PositionCalls, PositionMeld, PositionRng, PositionWindow};
pub use reachable::MAX_SCORE;
pub use scenario::{
    apply_step, run_file, run_file_with, run_paths, run_paths_with, run_scenario, run_scenario_with, RunSummary,
    ScenarioReport,
};
pub use snapshot::Step;
pub use state::{GameState, TableMeld, MAX_SEATS};
pub use view::{observation_layout, MeldView, ObservationLayout, PlayerView, PHASE_NAMES};
