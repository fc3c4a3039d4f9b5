//! Fuzz target: rule sets (docs/guarantees.md). A preset, written as JSON or TOML and
//! mutated, either loads or is refused with `invalid_rules`; a rule set that loads
//! plays a game (random legal and illegal moves) without a panic or a dead state.

mod fuzz_common;

use fuzz_common::{config, mutate, play};
use liverpool_engine::game::GameState;
use liverpool_engine::rng::Rng;
use liverpool_engine::rules::RuleSet;
use liverpool_engine::ErrorCode;
use proptest::prelude::*;
use std::sync::Arc;

fn mutated_rules(seed: u64, preset: usize, mutations: usize) -> (serde_json::Value, Rng) {
    let names = RuleSet::preset_names();
    let rules = RuleSet::preset(names[preset % names.len()]).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&rules.to_json()).unwrap();
    let mut rng = Rng::from_seed(seed);
    mutate(&mut value, &mut rng, mutations);
    (value, rng)
}

fn play_with(rules: RuleSet, rng: &mut Rng) {
    let players = rules.default_players as usize;
    match GameState::new(Arc::new(rules), players, rng.next_u64()) {
        Ok(mut g) => {
            play(&mut g, rng, 300);
        }
        Err(e) => assert!(!e.message.is_empty()),
    }
}

proptest! {
    #![proptest_config(config(100))]

    #[test]
    fn mutated_json_rule_sets_load_and_play_or_are_refused(seed in any::<u64>(), preset in 0usize..16, mutations in 1usize..4) {
        let (value, mut rng) = mutated_rules(seed, preset, mutations);
        match RuleSet::from_json(&value.to_string()) {
            Ok(rules) => {
                prop_assert!(rules.validate().is_ok());
                // What loads writes back and reads again as the same rules.
                prop_assert_eq!(&RuleSet::from_json(&rules.to_json()).unwrap(), &rules);
                prop_assert_eq!(&RuleSet::from_toml(&rules.to_toml()).unwrap(), &rules);
                play_with(rules, &mut rng);
            }
            Err(e) => prop_assert_eq!(e.code, ErrorCode::InvalidRules, "{}", e),
        }
    }

    #[test]
    fn mutated_toml_rule_sets_load_and_play_or_are_refused(seed in any::<u64>(), preset in 0usize..16, mutations in 1usize..4) {
        let (value, mut rng) = mutated_rules(seed, preset, mutations);
        // TOML has no null: such a mutation is simply not a TOML text.
        let Ok(text) = toml::to_string(&value) else { return Ok(()) };
        match RuleSet::from_toml(&text) {
            Ok(rules) => play_with(rules, &mut rng),
            Err(e) => prop_assert_eq!(e.code, ErrorCode::InvalidRules, "{}", e),
        }
    }

    #[test]
    fn arbitrary_text_is_not_a_rule_set_or_is_refused(text in any::<String>()) {
        for r in [RuleSet::from_json(&text), RuleSet::from_toml(&text)] {
            if let Err(e) = r {
                prop_assert_eq!(e.code, ErrorCode::InvalidRules);
            }
        }
    }
}

/// Found by this target: tiers whose jokers shrink as players grow (4 jokers up to 6
/// players, none up to 8). A joker is legal in the 4-player game, so melds must be
/// judged against the largest deck of any tier, not the last tier's.
#[test]
fn a_last_tier_without_jokers_does_not_refuse_the_jokers_of_smaller_games() {
    let (value, mut rng) = mutated_rules(6125183280438372058, 5, 1);
    let rules = RuleSet::from_json(&value.to_string()).unwrap();
    assert_eq!(
        rules.deck_for(rules.max_players).1,
        0,
        "the case needs a last tier without jokers"
    );
    assert_eq!(rules.largest_deck().1, 4);
    play_with(rules, &mut rng);
}
