//! Fuzz target: rule sets (docs/guarantees.md). A preset, written as JSON or TOML and
//! mutated, either loads or is refused with `invalid_rules`; a rule set that loads
//! plays a game (random legal and illegal moves) without a panic or a dead state.

mod fuzz_common;

use fuzz_common::{config, mutate, play};
use liverpool_engine::bots::{Bot, BotKind};
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

/// Issue 17: a rule set that loads gives a game in which every offered action is
/// accepted and every game ends. Greedy bots (which use the contract search) play
/// `games` games to the end; at every decision every action `legal_actions` offers
/// must pass `check`, and the bot's choice must be accepted. The L-9.3 safeguard is
/// lowered so that a game stays short (it is still a valid rule set).
fn greedy_games_end(mut rules: RuleSet, seed: u64, games: u64) {
    rules.max_turns_per_round = rules.max_turns_per_round.min(60);
    rules.validate().expect("a lower safeguard keeps the rule set valid");
    let rules = Arc::new(rules);
    for game in 0..games {
        let players = [rules.min_players, rules.default_players, rules.max_players][(game % 3) as usize] as usize;
        let mut g = GameState::new(Arc::clone(&rules), players, seed ^ game).expect("a valid rule set deals");
        let mut bots: Vec<_> = (0..players).map(|s| BotKind::Greedy.build(seed + s as u64)).collect();
        let bound = (rules.max_turns_per_round as usize + 2) * rules.rounds() as usize * (8 * players + 16);
        let mut steps = 0;
        while let Some(seat) = g.to_act() {
            for action in g.legal_actions(Some(seat)) {
                if let Err(e) = g.check(seat, &action) {
                    panic!(
                        "{}: offered {action:?} to seat {seat} but refused: {e}",
                        rules.to_json()
                    );
                }
            }
            let action = bots[seat].choose(&g, seat);
            if let Err(e) = g.apply(seat, &action) {
                panic!("{}: greedy's {action:?} by seat {seat} refused: {e}", rules.to_json());
            }
            steps += 1;
            assert!(
                steps <= bound,
                "{}: the game did not end in {bound} actions",
                rules.to_json()
            );
        }
        assert!(g.is_game_over());
    }
}

/// A rule set file as a user might write it: a preset's name as `base`, then
/// options changed to values near (and beyond) their limits.
fn written_rule_set(rng: &mut Rng) -> serde_json::Value {
    let names = RuleSet::preset_names();
    let mut doc = serde_json::json!({ "base": names[rng.below(names.len() as u32) as usize] });
    let small = |rng: &mut Rng, lo: u32, span: u32| serde_json::Value::from(lo + rng.below(span));
    for _ in 0..1 + rng.below(5) {
        let (key, value) = match rng.below(17) {
            0 => ("run_size_min", small(rng, 2, 6)),
            1 => ("whole_hand_run_min", small(rng, 2, 6)),
            2 => ("set_size_min", small(rng, 2, 5)),
            3 => (
                "set_size_max",
                if rng.below(2) == 0 {
                    "none".into()
                } else {
                    small(rng, 2, 6)
                },
            ),
            4 => (
                "run_size_max",
                if rng.below(2) == 0 {
                    "none".into()
                } else {
                    small(rng, 3, 6)
                },
            ),
            5 => ("min_naturals_set", small(rng, 0, 4)),
            6 => ("min_naturals_run", small(rng, 0, 5)),
            7 => (
                "run_naturals_window",
                if rng.below(2) == 0 {
                    "none".into()
                } else {
                    small(rng, 1, 6)
                },
            ),
            8 => {
                let lo = rng.below(120);
                ("cut_range", serde_json::json!([lo, lo + rng.below(60)]))
            }
            9 => (
                "buy_limit_per_round",
                if rng.below(2) == 0 {
                    "none".into()
                } else {
                    small(rng, 0, 3)
                },
            ),
            10 => ("buying", ["off", "chain", "single"][rng.below(3) as usize].into()),
            11 => (
                "joker_swap",
                ["off", "after_go_down_turn", "on_go_down_turn"][rng.below(3) as usize].into(),
            ),
            12 => ("floating", (rng.below(2) == 0).into()),
            13 => ("rummy_call", (rng.below(2) == 0).into()),
            14 => ("liverpool_call", (rng.below(2) == 0).into()),
            15 => ("no_discard_of_taken_card", (rng.below(2) == 0).into()),
            _ => ("lay_off_on_go_down_turn", (rng.below(2) == 0).into()),
        };
        doc[key] = value;
    }
    doc
}

proptest! {
    #![proptest_config(config(40))]

    #[test]
    fn written_rule_sets_that_load_play_greedy_games_to_the_end(seed in any::<u64>()) {
        let mut rng = Rng::from_seed(seed);
        let doc = written_rule_set(&mut rng);
        match RuleSet::from_json(&doc.to_string()) {
            Ok(rules) => greedy_games_end(rules, seed, 2),
            Err(e) => prop_assert_eq!(e.code, ErrorCode::InvalidRules, "{}", e),
        }
    }

    #[test]
    fn mutated_rule_sets_that_load_play_greedy_games_to_the_end(seed in any::<u64>(), preset in 0usize..16, mutations in 1usize..3) {
        let (value, _) = mutated_rules(seed, preset, mutations);
        if let Ok(rules) = RuleSet::from_json(&value.to_string()) {
            greedy_games_end(rules, seed, 1);
        }
    }
}

/// Issue 17: a whole-hand run minimum below the run minimum was accepted, and then
/// the search offered go-downs the referee refused.
#[test]
fn a_whole_hand_run_minimum_below_the_run_minimum_is_refused() {
    let e = RuleSet::from_toml("base = \"liverpool\"\nwhole_hand_run_min = 3").unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidRules);
    assert!(
        e.message.starts_with("whole_hand_run_min: 3 is below run_size_min (4)"),
        "{e}"
    );
    // Equal or above is consistent and plays.
    let longer =
        "base = \"liverpool\"\nwhole_hand_run_min = 5\nmax_players = 6\ndeal_sizes = [10, 10, 10, 12, 12, 12, 14]";
    greedy_games_end(RuleSet::from_toml(longer).unwrap(), 7, 1);
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

/// Found by `written_rule_sets_that_load_play_greedy_games_to_the_end`: with
/// `min_naturals_run = 4` in profile C (runs of 4 or more, naturals counted anywhere)
/// the greedy bot's estimate skipped the search for a hand whose 5-card run holds 4
/// naturals and a joker (a debug assertion in the bot).
#[test]
fn runs_needing_four_naturals_anywhere_are_still_searched() {
    let rules = RuleSet::from_json(
        r#"{"base":"contract","min_naturals_run":4,"rummy_call":true,"set_size_max":"none","set_size_min":3}"#,
    )
    .unwrap();
    greedy_games_end(rules, 9191017296259656008, 2);
}

/// Found by the targets above with 6,000 cases: the greedy bot's estimate skipped the
/// search for hands that could go down when melds need two naturals or more (a set
/// needing 2 in profile C with runs of 3; profile W with three jokers in hand).
#[test]
fn melds_needing_two_naturals_are_still_searched() {
    let rules = RuleSet::from_json(
        r#"{"base":"contract","cut_range":[11,31],"floating":true,"joker_swap":"after_go_down_turn","min_naturals_set":2,"run_size_min":3}"#,
    )
    .unwrap();
    greedy_games_end(rules, 10106421275700348987, 2);
    let (value, _) = mutated_rules(11044417598522489812, 2, 1);
    greedy_games_end(RuleSet::from_json(&value.to_string()).unwrap(), 11044417598522489812, 1);
}
