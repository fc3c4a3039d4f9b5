//! Fuzz target: positions and snapshots (docs/guarantees.md). A real state, reached by
//! random play under a random preset, is written as a position or a snapshot, mutated
//! (hostile values, deleted and duplicated entries), and loaded. A refusal is typed; an
//! accepted state has a legal move or is over, round-trips exactly through JSON, and
//! then survives random legal and illegal play (refusals change nothing, cards are
//! conserved).

mod fuzz_common;

use fuzz_common::{check_state, config, mutate, play};
use liverpool_engine::game::{GameState, Position};
use liverpool_engine::rng::Rng;
use liverpool_engine::rules::RuleSet;
use liverpool_engine::ErrorCode;
use proptest::prelude::*;
use std::sync::Arc;

/// A state reached by `steps` random legal moves of a fresh game.
fn reached(seed: u64, preset: usize, players: usize, steps: usize) -> GameState {
    let names = RuleSet::preset_names();
    let rules = RuleSet::preset(names[preset % names.len()]).unwrap();
    let players = players.clamp(rules.min_players as usize, rules.max_players as usize);
    let mut g = GameState::new(Arc::new(rules), players, seed).unwrap();
    let mut rng = Rng::from_seed(seed ^ 0x5eed);
    for _ in 0..steps {
        let legal = g.legal_actions(None);
        if legal.is_empty() {
            break;
        }
        let a = &legal[rng.below(legal.len() as u32) as usize];
        g.apply(g.to_act().unwrap(), a).unwrap();
    }
    g
}

fn refused_kindly(code: ErrorCode) {
    assert!(
        matches!(
            code,
            ErrorCode::BadPosition | ErrorCode::InvalidRound | ErrorCode::InvalidRules
        ) || code.as_str().starts_with("too_many")
            || code == ErrorCode::NoJokersInProfile
            || code == ErrorCode::MalformedCard
            || code == ErrorCode::InvalidMeld,
        "unexpected refusal code {code}"
    );
}

proptest! {
    #![proptest_config(config(80))]

    #[test]
    fn mutated_positions_load_only_if_playable(
        seed in any::<u64>(), preset in 0usize..16, players in 2usize..9,
        steps in 0usize..400, mutations in 0usize..4,
    ) {
        let g = reached(seed, preset, players, steps);
        check_state(&g);
        let mut value = serde_json::to_value(g.to_position()).unwrap();
        let mut rng = Rng::from_seed(seed.rotate_left(17));
        mutate(&mut value, &mut rng, mutations);
        let loaded = Position::from_value(value).and_then(|p| GameState::from_position(&p));
        match loaded {
            Ok(mut state) => {
                check_state(&state);
                play(&mut state, &mut rng, 80);
            }
            Err(e) => refused_kindly(e.code),
        }
    }

    #[test]
    fn mutated_snapshots_load_only_if_playable(
        seed in any::<u64>(), preset in 0usize..16, players in 2usize..9,
        steps in 0usize..300, mutations in 1usize..4,
    ) {
        let g = reached(seed, preset, players, steps);
        let mut value: serde_json::Value = serde_json::from_str(&g.to_json()).unwrap();
        let mut rng = Rng::from_seed(seed.rotate_left(29));
        mutate(&mut value, &mut rng, mutations);
        match GameState::from_json(&value.to_string()) {
            Ok(mut state) => {
                check_state(&state);
                play(&mut state, &mut rng, 60);
            }
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }

}

proptest! {
    // Each case checks every step of a long game: fewer cases.
    #![proptest_config(config(12))]

    #[test]
    fn random_play_keeps_every_invariant(seed in any::<u64>(), preset in 0usize..16, players in 2usize..9) {
        let mut g = reached(seed, preset, players, 0);
        let mut rng = Rng::from_seed(seed);
        play(&mut g, &mut rng, 250);
    }
}
