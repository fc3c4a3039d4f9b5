//! The action space (docs/action-space.md): the mask agrees with `legal_actions`,
//! ids round-trip, `apply_id` is `apply` of the decoded move, refused ids change
//! nothing — over random and go-down-happy play under every preset.

use super::*;
use crate::error::ErrorCode;
use crate::rng::Rng;
use crate::rules::RuleSet;
use proptest::prelude::*;
use std::sync::Arc;

/// Random legal play; `eager` prefers going down, laying off and swapping (so the
/// blocks of the play phase are reached often).
fn pick(g: &GameState, rng: &mut Rng, eager: bool) -> Action {
    let legal = g.legal_actions(None);
    if eager {
        let melding: Vec<&Action> = legal
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Action::GoDown { .. }
                        | Action::LayOff { .. }
                        | Action::SwapJoker { .. }
                        | Action::CallLiverpool { .. }
                )
            })
            .collect();
        if !melding.is_empty() && rng.below(4) > 0 {
            return melding[rng.below(melding.len() as u32) as usize].clone();
        }
    }
    legal[rng.below(legal.len() as u32) as usize].clone()
}

/// Every check of one state; returns how many legal actions it had.
fn check_state(g: &GameState, rng: &mut Rng) -> usize {
    let space = g.action_space();
    let legal = g.legal_actions(None);
    let mask = g.legal_action_mask(None);
    assert_eq!(mask.len(), space.size);
    let mut encoded = vec![false; space.size];
    for a in &legal {
        let id = g.action_id(a).unwrap_or_else(|e| panic!("{a:?} has no id: {e}"));
        assert!(!encoded[id], "two legal actions share id {id}");
        encoded[id] = true;
        assert_eq!(&g.action_from_id(id).unwrap(), a, "id {id} decodes to another move");
    }
    assert_eq!(mask, encoded, "mask != encoded legal_actions in phase {:?}", g.phase());
    let decider = g.to_act();
    for seat in 0..g.players() {
        let theirs = g.legal_action_mask(Some(seat));
        if Some(seat) == decider {
            assert_eq!(theirs, mask);
        } else {
            assert!(theirs.iter().all(|&f| !f), "seat {seat} is not asked but has ids");
        }
    }
    // A refused id changes nothing: an illegal id, an id beyond the space, a wrong seat.
    let illegal: Vec<usize> = (0..space.size).filter(|&i| !mask[i]).collect();
    let mut probes = vec![space.size, space.size + 7];
    for _ in 0..3 {
        if !illegal.is_empty() {
            probes.push(illegal[rng.below(illegal.len() as u32) as usize]);
        }
    }
    for id in probes {
        let mut h = g.clone();
        let e = h.apply_id(decider.unwrap_or(0), id).unwrap_err();
        assert!(
            h == *g && h.history_len() == g.history_len(),
            "refused id {id} changed the state"
        );
        if id >= space.size {
            assert_eq!(e.code, ErrorCode::InvalidActionId);
            assert_eq!(e.key, "action_id.out_of_range");
        }
    }
    // The cached path of the VecEnv decodes every id as `action_from_id` does.
    if let Some(d) = decider {
        let mut cache = GoDownCache::default();
        let mut cached_ids = Vec::new();
        g.for_each_legal_id_cached(&space, Some(d), &mut cache, |id| cached_ids.push(id));
        cached_ids.sort_unstable();
        let listed: Vec<usize> = (0..space.size).filter(|&i| mask[i]).collect();
        assert_eq!(cached_ids, listed);
        let go_downs: Vec<usize> = listed.iter().copied().filter(|&i| i >= space.go_down).collect();
        let samples = [
            go_downs.first(),
            go_downs.last(),
            listed.get(rng.below(listed.len() as u32) as usize),
        ];
        for &id in samples.into_iter().flatten() {
            let (mut by_cache, mut by_action) = (g.clone(), g.clone());
            let mut c = cache.clone();
            let e1 = by_cache.apply_cached_id(d, id, &mut c).unwrap();
            let e2 = by_action.apply(d, &g.action_from_id(id).unwrap()).unwrap();
            assert_eq!(e1, e2);
            assert!(by_cache == by_action && by_cache.history() == by_action.history());
        }
    }
    // Another seat never acts by id (even where the engine takes a W-7 call out of turn).
    if let (Some(d), Some(a)) = (decider, legal.first()) {
        let id = g.action_id(a).unwrap();
        let other = (d + 1) % g.players();
        let mut h = g.clone();
        assert!(h.apply_id(other, id).is_err(), "seat {other} acted by id out of turn");
        assert!(h == *g && h.history_len() == g.history_len());
    }
    legal.len()
}

fn play_and_check(rules: RuleSet, players: usize, seed: u64, steps: usize, eager: bool) {
    let name = rules.name.clone();
    let mut g = GameState::new(Arc::new(rules), players, seed).unwrap();
    let mut rng = Rng::from_seed(seed ^ 0xac71_0a5e);
    for _ in 0..steps {
        if g.is_game_over() {
            break;
        }
        check_state(&g, &mut rng);
        let seat = g.to_act().unwrap();
        let action = pick(&g, &mut rng, eager);
        let id = g.action_id(&action).unwrap();
        let mut by_action = g.clone();
        let expected = by_action.apply(seat, &action).unwrap();
        let event = g
            .apply_id(seat, id)
            .unwrap_or_else(|e| panic!("{name}: id {id} ({action:?}) refused: {e}"));
        assert_eq!(event, expected, "{name}: apply_id and apply differ");
        assert!(g == by_action && g.history() == by_action.history());
    }
}

#[test]
fn the_space_has_named_blocks_that_tile_it() {
    for name in RuleSet::preset_names() {
        let rules = RuleSet::preset(name).unwrap();
        for players in rules.min_players..=rules.max_players {
            let space = ActionSpace::new(&rules, players as usize);
            let blocks = space.blocks();
            assert_eq!(blocks[0].1.start, 0);
            for pair in blocks.windows(2) {
                assert_eq!(
                    pair[0].1.end, pair[1].1.start,
                    "{name}: {} then {}",
                    pair[0].0, pair[1].0
                );
            }
            assert_eq!(blocks.last().unwrap().1.end, space.size);
            assert_eq!(space.max_cut, rules.deck_size(players) - 1);
            assert!(space.size <= 2_500, "{name} with {players} players: {} ids", space.size);
        }
    }
    // Profile L, 4 players: 107 cards, 3 melds at most per seat (L-3).
    let l = ActionSpace::new(&RuleSet::liverpool(), 4);
    assert_eq!((l.slots, l.max_cut), (12, 106));
    assert_eq!(l.block_of(0), Some("draw_stock"));
    assert_eq!(l.block_of(l.cut + 40), Some("cut"));
    assert_eq!(l.block_of(l.size), None);
}

#[test]
fn fixed_ids_mean_the_same_move_in_every_state() {
    let g = GameState::new_liverpool(3);
    for (i, name) in FIXED_ACTIONS.iter().enumerate() {
        assert_eq!(g.action_from_id(i).unwrap().name(), *name);
    }
    let space = g.action_space();
    assert_eq!(
        g.action_from_id(space.cut + 40).unwrap(),
        Action::Cut { size: Some(41) },
        "L-2.3: the exact cut"
    );
    // L-5.1: decline_discard is accepted by the engine but has no id.
    let e = g.action_id(&Action::DeclineDiscard).unwrap_err();
    assert_eq!((e.code, e.key), (ErrorCode::InvalidActionId, "action_id.no_id"));
    let e = g.action_id(&Action::Cut { size: None }).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidActionId);
    // In the cut phase every size 1..=106 is legal and nothing else (L-2.2).
    let mask = g.legal_action_mask(None);
    let legal: Vec<usize> = (0..space.size).filter(|&i| mask[i]).collect();
    assert_eq!(legal, (space.cut..space.cut + 106).collect::<Vec<_>>());
}

#[test]
fn k_th_ids_beyond_the_legal_ones_are_refused_with_invalid_action_id() {
    let mut g = GameState::new_liverpool(5);
    let space = g.action_space();
    for id in [space.go_down, space.swap_joker, space.go_down + GO_DOWN_CAP - 1] {
        let e = g.action_from_id(id).unwrap_err();
        assert_eq!((e.code, e.key), (ErrorCode::InvalidActionId, "action_id.not_legal"));
        let before = g.clone();
        assert_eq!(
            g.apply_id(g.to_act().unwrap(), id).unwrap_err().code,
            ErrorCode::InvalidActionId
        );
        assert_eq!(g, before);
    }
}

#[test]
fn every_preset_mask_equals_encoded_legal_actions() {
    for (i, name) in RuleSet::preset_names().iter().enumerate() {
        let rules = RuleSet::preset(name).unwrap();
        let players = rules.default_players as usize;
        play_and_check(rules, players, 11 + i as u64, 500, true);
    }
}

#[test]
fn profile_w_calls_swaps_and_floating_have_ids() {
    // W-4 swaps, W-7 calls and W-8 floating all happen in eager play of profile W.
    let mut seen = std::collections::HashSet::new();
    for seed in 0..3u64 {
        let mut g = GameState::new(Arc::new(RuleSet::liverpool_classic()), 4, seed).unwrap();
        let mut rng = Rng::from_seed(seed);
        for _ in 0..3000 {
            if g.is_game_over() {
                break;
            }
            check_state(&g, &mut rng);
            let seat = g.to_act().unwrap();
            let action = pick(&g, &mut rng, true);
            seen.insert(action.name());
            let id = g.action_id(&action).unwrap();
            g.apply_id(seat, id).unwrap();
        }
    }
    for name in ["go_down", "lay_off", "call_liverpool", "call_rummy", "discard", "buy"] {
        assert!(seen.contains(name), "no {name} in eager profile W play: {seen:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mask_equals_encoded_legal_actions_in_random_play(
        seed in any::<u64>(),
        preset in 0usize..7,
        players in 2usize..=8,
        eager in any::<bool>(),
    ) {
        let rules = RuleSet::preset(RuleSet::preset_names()[preset]).unwrap();
        let players = players.clamp(rules.min_players as usize, rules.max_players as usize);
        play_and_check(rules, players, seed, 150, eager);
    }
}
