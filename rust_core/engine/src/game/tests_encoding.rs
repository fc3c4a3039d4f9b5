//! The action space (docs/action-space.md): the mask is exactly the ids `apply_id`
//! accepts; every move the engine accepts has one id sequence, which plays to the
//! same game; ids decode the same way in every state — over random, go-down-happy
//! and bot play under every preset.

use super::*;
use crate::bots::{Bot, BotKind};
use crate::card::Card;
use crate::error::ErrorCode;
use crate::meld::{End, Meld};
use crate::rng::Rng;
use crate::rules::RuleSet;
use proptest::prelude::*;
use std::sync::Arc;

/// The game with its table in a canonical form: each set's cards by id, the melds
/// by (owner, cards). Two moves that put the same melds on the table (a go-down's
/// melds in another order, a set's cards in another order) give equal forms.
fn normalized(g: &GameState) -> GameState {
    let mut n = g.clone();
    for t in &mut n.table {
        if t.meld.is_set() {
            let mut cards = t.meld.cards().to_vec();
            cards.sort_by_key(|c| c.id());
            t.meld = Meld::set(&cards, &g.rules).expect("a set in another order is the same set");
        }
    }
    n.table
        .sort_by_cached_key(|t| (t.owner, t.meld.cards().iter().map(|c| c.id()).collect::<Vec<_>>()));
    n
}

/// `action` (accepted by the engine) as ids: each id is in the mask when it is
/// played, the ids decode back to the move, and they make the same game as the
/// move itself. Returns the game after the move and whether the table came out in
/// another (equivalent) order.
pub(crate) fn check_move_ids(g: &GameState, seat: usize, action: &Action) -> GameState {
    let ids = g
        .action_ids(action)
        .unwrap_or_else(|e| panic!("{action:?} (accepted) has no ids: {e}"));
    let mut by_move = g.clone();
    let expected = by_move.apply(seat, action).unwrap();
    let decoded = g.action_from_ids(&ids).unwrap();
    assert_eq!(
        g.action_ids(&decoded).unwrap(),
        ids,
        "{action:?}: ids decode to {decoded:?}"
    );
    let mut by_ids = g.clone();
    let mut last = None;
    for (k, &id) in ids.iter().enumerate() {
        assert!(
            by_ids.legal_action_mask(Some(seat))[id],
            "{action:?}: id {id} ({:?}) not in the mask",
            g.action_space().id_name(id)
        );
        let event = by_ids
            .apply_id(seat, id)
            .unwrap_or_else(|e| panic!("{action:?}: id {id} refused: {e}"));
        assert_eq!(
            event.is_some(),
            k + 1 == ids.len(),
            "{action:?}: only the last id makes the move"
        );
        last = event;
    }
    assert!(!by_ids.has_selection());
    if ids.len() == 1 || matches!(action, Action::SwapJoker { .. }) {
        assert_eq!(last.as_ref(), Some(&expected), "{action:?}: apply_id and apply differ");
    }
    if by_ids != by_move {
        assert!(
            normalized(&by_ids) == normalized(&by_move),
            "{action:?}: ids {ids:?} give another game"
        );
    }
    by_move
}

/// Every check of one state: the mask is exactly the ids apply_id accepts, every
/// legal action has ids that play it. Returns how many ids were legal.
fn check_state(g: &GameState, rng: &mut Rng) -> usize {
    let space = g.action_space();
    let mask = g.legal_action_mask(None);
    assert_eq!(mask.len(), space.size);
    let decider = g.to_act();
    let legal_ids: Vec<usize> = (0..space.size).filter(|&i| mask[i]).collect();
    if let Some(d) = decider {
        assert!(
            !legal_ids.is_empty(),
            "the seat to act has no legal id ({:?})",
            g.phase()
        );
        // Every masked id is accepted (a sample of a long mask: the first, the
        // last and a few more).
        let mut sample: Vec<usize> = legal_ids.clone();
        if sample.len() > 10 {
            let picks: Vec<usize> = (0..6)
                .map(|_| sample[rng.below(sample.len() as u32) as usize])
                .collect();
            sample = [sample[0], sample[sample.len() - 1]].into_iter().chain(picks).collect();
        }
        for &id in &sample {
            let mut h = g.clone();
            h.apply_id(d, id)
                .unwrap_or_else(|e| panic!("masked id {id} ({:?}) refused: {e}", space.id_name(id)));
        }
        if !g.has_selection() {
            for a in &g.legal_actions(None) {
                let ids = g.action_ids(a).unwrap_or_else(|e| panic!("{a:?} has no ids: {e}"));
                assert!(mask[ids[0]], "{a:?}: first id {} not in the mask", ids[0]);
            }
        }
        for seat in (0..g.players()).filter(|&s| s != d) {
            assert!(
                g.legal_action_mask(Some(seat)).iter().all(|&f| !f),
                "seat {seat} is not asked but has ids"
            );
            // Another seat never acts by id (even where the engine takes a W-7 call out of turn).
            let mut h = g.clone();
            assert!(h.apply_id(seat, legal_ids[0]).is_err());
            assert!(h == *g && h.history_len() == g.history_len());
        }
    }
    // A refused id changes nothing: an illegal id, an id beyond the space.
    let illegal: Vec<usize> = (0..space.size).filter(|&i| !mask[i]).collect();
    let mut probes = vec![space.size, space.size + 7];
    for _ in 0..4 {
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
            assert_eq!((e.code, e.key), (ErrorCode::InvalidActionId, "action_id.out_of_range"));
        }
    }
    legal_ids.len()
}

/// Random play by ids (`by_ids`) or by legal actions converted to ids; `eager`
/// prefers going down, laying off and swapping.
fn play_and_check(rules: RuleSet, players: usize, seed: u64, steps: usize, eager: bool) {
    let mut g = GameState::new(Arc::new(rules), players, seed).unwrap();
    let mut rng = Rng::from_seed(seed ^ 0xac71_0a5e);
    let space = g.action_space();
    for _ in 0..steps {
        if g.is_game_over() {
            break;
        }
        let n = check_state(&g, &mut rng);
        let seat = g.to_act().unwrap();
        if g.has_selection() || rng.below(2) == 0 {
            let mask = g.legal_action_mask(Some(seat));
            let ids: Vec<usize> = (0..space.size).filter(|&i| mask[i]).collect();
            // Lay-offs, calls, swaps and go-downs: every block after `discard`.
            let melding: Vec<usize> = ids.iter().copied().filter(|&i| i >= space.lay_off).collect();
            let pool = if eager && !melding.is_empty() && rng.below(4) > 0 {
                &melding
            } else {
                &ids
            };
            assert_eq!(ids.len(), n);
            let id = pool[rng.below(pool.len() as u32) as usize];
            g.apply_id(seat, id).unwrap();
        } else {
            let legal = g.legal_actions(None);
            let action = legal[rng.below(legal.len() as u32) as usize].clone();
            g = check_move_ids(&g, seat, &action);
        }
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
            for id in 0..space.size {
                assert!(space.id_name(id).is_some());
            }
        }
    }
    // Profile L, 4 players: 107 cards, 3 melds at most per seat (L-3).
    let l = ActionSpace::new(&RuleSet::liverpool(), 4);
    assert_eq!((l.slots, l.max_cut, l.size), (12, 106, 1590));
    assert_eq!(l.block_of(0), Some("draw_stock"));
    assert_eq!(l.block_of(l.cut + 40), Some("cut"));
    assert_eq!(l.block_of(l.size), None);
    assert_eq!(l.id_name(l.cut + 40).unwrap(), "cut 41");
    assert_eq!(l.id_name(l.lay_off + 55 + 54).unwrap(), "lay_off JK high on meld 1");
    assert_eq!(
        l.id_name(l.swap_joker + 2 * 53 + 19).unwrap(),
        "swap_joker 7♥ into meld 2"
    );
}

#[test]
fn ids_decode_the_same_way_in_every_state() {
    let g = GameState::new_liverpool(3);
    let space = g.action_space();
    for (i, name) in FIXED_ACTIONS.iter().enumerate() {
        assert_eq!(space.decode(&[i]).unwrap().name(), name.trim_end_matches("_random"));
    }
    assert_eq!(
        space.decode(&[space.cut + 40]).unwrap(),
        Action::Cut { size: Some(41) },
        "L-2.3"
    );
    let jk = Card::JOKER;
    assert_eq!(
        space.decode(&[space.lay_off + 55 + 53]).unwrap(),
        Action::LayOff {
            meld: 1,
            cards: vec![jk],
            end: Some(End::Low)
        }
    );
    let seven = Card::from_id(19).unwrap();
    let swap = [space.swap_joker + 2 * 53 + 19, space.place_joker + 4 * 3 + 2];
    assert_eq!(
        space.decode(&swap).unwrap(),
        Action::SwapJoker {
            meld: 2,
            card: seven,
            to_meld: 4,
            end: Some(End::High)
        }
    );
    let c = |id: usize| space.go_down_card + id;
    let go = [
        space.go_down,
        c(0),
        c(13),
        c(26),
        space.go_down_meld,
        c(1),
        c(14),
        c(52),
        space.go_down_meld,
    ];
    assert_eq!(space.decode(&go).unwrap().name(), "go_down");
    for partial in [&go[..1], &go[..4], &go[1..], &swap[..1], &[], &[0, 0][..]] {
        let e = space.decode(partial).unwrap_err();
        assert_eq!(
            (e.code, e.key),
            (ErrorCode::InvalidActionId, "action_id.partial"),
            "{partial:?}"
        );
    }
    // In the cut phase every size 1..=106 is legal, and the cut of L-2.4.
    let mask = g.legal_action_mask(None);
    let legal: Vec<usize> = (0..space.size).filter(|&i| mask[i]).collect();
    let mut expected: Vec<usize> = (space.cut..space.cut + 106).collect();
    expected.insert(0, 7);
    assert_eq!(legal, expected);
    assert_eq!(g.action_id(&Action::Cut { size: None }).unwrap(), 7);
}

#[test]
fn a_refused_move_has_no_id_and_a_joker_without_an_end_is_where_the_engine_puts_it() {
    let g = GameState::new_liverpool(5);
    // Not the cut phase: the engine's own refusal (L-5.1).
    let e = g.action_id(&Action::DrawStock).unwrap_err();
    assert!(matches!(e.code, ErrorCode::WrongPhase | ErrorCode::NotYourTurn), "{e}");
    let e = g.action_id(&Action::Cut { size: Some(0) }).unwrap_err();
    assert_eq!(e.code, ErrorCode::BadCut);
    // Unfinished ids are refused, and change nothing.
    let space = g.action_space();
    for id in [space.go_down, space.go_down_meld, space.place_joker, space.swap_joker] {
        let mut h = g.clone();
        assert_eq!(
            h.apply_id(h.to_act().unwrap(), id).unwrap_err().code,
            ErrorCode::InvalidActionId
        );
        assert_eq!(h, g);
    }
}

#[test]
fn every_preset_plays_by_ids_with_the_mask_equal_to_the_accepted_ids() {
    for (i, name) in RuleSet::preset_names().iter().enumerate() {
        let rules = RuleSet::preset(name).unwrap();
        let players = rules.default_players as usize;
        play_and_check(rules, players, 11 + i as u64, 400, true);
    }
}

/// Bots' games: every move a bot makes converts to ids that the masks allow and
/// that make the same game (the teachers of imitation learning).
fn bots_round_trip(preset: &str, kind: BotKind, games: u64, players: usize) -> (u64, u64) {
    bots_round_trip_moves(preset, kind, games, players, u64::MAX)
}

/// [`bots_round_trip`], each game stopped after `max_moves` moves.
fn bots_round_trip_moves(preset: &str, kind: BotKind, games: u64, players: usize, max_moves: u64) -> (u64, u64) {
    let rules = Arc::new(RuleSet::preset(preset).unwrap());
    let (mut moves, mut ids_longer) = (0u64, 0u64);
    for seed in 0..games {
        let mut g = GameState::new(Arc::clone(&rules), players, seed).unwrap();
        let mut bots: Vec<_> = (0..players as u64).map(|s| kind.build(seed * 31 + s)).collect();
        let mut game_moves = 0u64;
        while let Some(seat) = g.to_act() {
            if game_moves == max_moves {
                break;
            }
            game_moves += 1;
            let action = bots[seat].choose(&g, seat);
            moves += 1;
            ids_longer += u64::from(g.action_ids(&action).unwrap().len() > 1);
            g = check_move_ids(&g, seat, &action);
        }
    }
    (moves, ids_longer)
}

#[test]
fn every_move_of_greedy_and_expert_games_has_ids_that_play_it() {
    let mut total = 0;
    for preset in RuleSet::preset_names() {
        let (moves, longer) = bots_round_trip(preset, BotKind::Greedy, 1, 4);
        assert!(longer > 0, "{preset}: no go-down or swap by greedy bots");
        total += moves;
    }
    let (moves, _) = bots_round_trip_moves("liverpool", BotKind::Expert, 1, 4, expert_moves());
    total += moves;
    assert!(total > 2_000, "{total} moves");
}

/// How many moves of the expert's game the test above checks: its first 400 (part of
/// its first round) in `make test`, the whole game (about 11,000 moves, a minute in a
/// debug build, half of the engine's unit tests' time) in `make test-long`, which sets
/// `LIVERPOOL_LONG=1` (docs/testing.md).
fn expert_moves() -> u64 {
    if crate::long_test_run() {
        u64::MAX
    } else {
        400
    }
}

/// The long run (behind a flag): `LIVERPOOL_ROUND_TRIP_GAMES=1000 cargo test --release
/// -p liverpool-engine many_bot_games -- --ignored`.
#[test]
#[ignore]
fn many_bot_games_round_trip() {
    let games: u64 = std::env::var("LIVERPOOL_ROUND_TRIP_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    for preset in RuleSet::preset_names() {
        for kind in [BotKind::Greedy, BotKind::Expert, BotKind::Random] {
            let n = if kind == BotKind::Expert { games / 10 + 1 } else { games };
            let (moves, longer) = bots_round_trip(preset, kind, n, 4);
            println!(
                "{preset} {}: {n} games, {moves} moves, {longer} of several ids",
                kind.name()
            );
        }
    }
}

#[test]
fn profile_w_calls_swaps_and_floating_have_ids() {
    // W-4 swaps, W-7 calls and W-8 floating all happen in eager profile W play.
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
            let legal = g.legal_actions(None);
            let melding: Vec<&Action> = legal
                .iter()
                .filter(|a| !matches!(a, Action::Discard { .. } | Action::DrawStock | Action::Pass))
                .collect();
            let action = if !melding.is_empty() && rng.below(4) > 0 {
                melding[rng.below(melding.len() as u32) as usize].clone()
            } else {
                legal[rng.below(legal.len() as u32) as usize].clone()
            };
            seen.insert(action.name());
            g = check_move_ids(&g, seat, &action);
        }
    }
    for name in [
        "go_down",
        "lay_off",
        "call_liverpool",
        "call_rummy",
        "discard",
        "buy",
        "swap_joker",
    ] {
        assert!(seen.contains(name), "no {name} in eager profile W play: {seen:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_mask_is_the_accepted_ids_in_random_play(
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
