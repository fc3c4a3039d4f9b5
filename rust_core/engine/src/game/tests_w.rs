//! Tests of the fair buying window (L-5.1, L-6.3, W-6 "Yo") and of profile W's own
//! rules (W-4, W-7, W-8, W-9), plus random playouts under every preset that check
//! the invariants of `tests.rs` with the W-9 exception (a refused go-down attempt
//! is charged).

use super::tests::{c, cs, discard, lay, ok, refused, sorted, state};
use super::*;
use crate::card::Card;
use crate::error::ErrorCode;
use crate::rng::Rng;
use crate::rules::{BuyPriority, RuleSet};
use serde_json::json;
use std::sync::Arc;

/// A profile W state from a position given as JSON (the profile is set here).
fn w_state(mut v: serde_json::Value) -> GameState {
    v["profile"] = json!("liverpool-classic");
    state(v)
}

fn go_down(melds: &[&str]) -> Action {
    Action::GoDown {
        melds: melds.iter().map(|m| cs(m)).collect(),
    }
}

// ----- L-5.1 / L-6.3: nobody takes another player's right away ---------------------

#[test]
fn l63_only_the_seat_asked_may_buy_or_pass_under_every_buying_rule() {
    for profile in ["liverpool", "contract", "liverpool-classic"] {
        let mut g = GameState::from_position(
            &Position::from_value(json!({
                "profile": profile, "round": 2, "active": 0, "phase": "draw",
                "hands": [["2♠"], ["3♠"], ["4♠"], ["5♠"]],
                "stock": ["6♦", "7♦", "8♦"], "discard": ["9♥", "K♣"]
            }))
            .unwrap(),
        )
        .unwrap();
        ok(&mut g, 0, Action::DrawStock);
        assert_eq!(g.to_act(), Some(1), "{profile}");
        for seat in [2, 3] {
            let e = refused(&mut g, seat, Action::Buy, ErrorCode::NotYourTurn);
            // The priority rule of the game's profile: L-6.3 (C-5 refers to it), W-6.
            let rule = if profile == "liverpool-classic" { "W-6" } else { "L-6.3" };
            assert_eq!(e.rule, Some(rule), "{profile}");
            refused(&mut g, seat, Action::Pass, ErrorCode::NotYourTurn);
        }
        refused(&mut g, 0, Action::DrawStock, ErrorCode::NotYourTurn);
        ok(&mut g, 1, Action::Pass);
        ok(&mut g, 2, Action::Buy);
        // C-5 / W-6: one buy closes the window; L-6.4: the chain goes on with 9♥.
        if profile == "liverpool" {
            assert_eq!(g.to_act(), Some(1));
            ok(&mut g, 1, Action::Pass);
            let e = ok(&mut g, 3, Action::Pass);
            assert!(e.then.is_some());
        }
        assert_eq!((g.phase(), g.active()), (Phase::Play, 0), "{profile}");
        assert_eq!(
            g.hand_sizes()[0],
            2,
            "{profile}: the stock card came at the window's end"
        );
    }
}

#[test]
fn w6_yo_the_first_caller_wins_and_to_act_follows_the_call_order() {
    let mut rules = RuleSet::liverpool_classic();
    rules.buy_priority = BuyPriority::FirstCaller;
    rules.call_order = vec![3, 1];
    let pos = Position::from_value(json!({
        "profile": "liverpool-classic", "round": 2, "active": 0, "phase": "draw",
        "hands": [["2♠"], ["3♠"], ["4♠"], ["5♠"]],
        "stock": ["6♦", "7♦", "8♦"], "discard": ["9♥", "K♣"]
    }))
    .unwrap();
    let mut g = GameState::from_position_with_rules(&pos, Arc::new(rules.clone())).unwrap();
    ok(&mut g, 0, Action::DrawStock);
    assert_eq!(g.to_act(), Some(3), "the rule set's call order asks seat 3 first");
    // Seat 2 calls first: it wins the card, whoever would have been asked.
    let e = ok(&mut g, 2, Action::Buy);
    assert_eq!(
        e.kind,
        EventKind::Bought {
            card: c("K♣"),
            penalty: c("6♦")
        }
    );
    assert_eq!(
        e.then.map(|t| t.seat),
        Some(0),
        "W-6: one buy, then the active player's draw"
    );
    // A pass from any seat still in the window is accepted too, and the order of
    // `to_act` is 3, 1, 2 (those not listed follow clockwise from the active player).
    let mut h = GameState::from_position_with_rules(&pos, Arc::new(rules)).unwrap();
    ok(&mut h, 0, Action::DeclineDiscard);
    ok(&mut h, 1, Action::Pass);
    assert_eq!(h.to_act(), Some(3));
    ok(&mut h, 3, Action::Pass);
    assert_eq!(h.to_act(), Some(2));
    refused(&mut h, 0, Action::Buy, ErrorCode::BuyNotAllowed);
    refused(&mut h, 1, Action::Buy, ErrorCode::BuyNotAllowed); // passed
    let mut bad = RuleSet::liverpool_classic();
    bad.call_order = vec![1, 1];
    assert_eq!(bad.validate().unwrap_err().code, ErrorCode::InvalidRules);
}

// ----- W-4: jokers, longer melds, no L-4.4 --------------------------------------------

#[test]
fn w4_only_another_players_joker_on_the_go_down_turn_and_longer_melds() {
    let mut g = w_state(json!({
        "round": 2, "active": 0, "phase": "play",
        "hands": [["5♥","6♥","7♥","8♥","9♥","Q♠","Q♥","Q♦","Q♣","3♣","K♦"], ["2♦"], ["3♥"], ["4♥"]],
        "stock": ["5♦"], "discard": ["9♣"],
        "table": [{"owner": 1, "cards": ["2♣","JK","4♣","5♣"]}],
        "down": [false, true, false, false]
    }));
    // W-4: a 5-card run and a 4-card set at go-down.
    ok(&mut g, 0, go_down(&["5♥ 6♥ 7♥ 8♥ 9♥", "Q♠ Q♥ Q♦ Q♣"]));
    // Another player's joker, on the go-down turn: swapped for 3♣ and laid on the new run.
    let swap = Action::SwapJoker {
        meld: 0,
        card: c("3♣"),
        to_meld: 1,
        end: None,
    };
    ok(&mut g, 0, swap);
    assert_eq!(g.table()[1].meld.len(), 6);
    assert!(g.table()[1].meld.cards().contains(&Card::JOKER));
    // The joker is now on seat 0's own run: seat 0 may not take it back (own_joker) —
    // even with the card it stands for in hand.
    let mut h = g.clone();
    h.seats[0].hand.0[c("TH").id() as usize] += 1;
    let own = Action::SwapJoker {
        meld: 1,
        card: c("TH"),
        to_meld: 0,
        end: None,
    };
    let e = refused(&mut h, 0, own, ErrorCode::OwnJoker);
    assert_eq!(e.rule, Some("W-4"));
    // On a later turn no swap at all (W-4: only on the go-down turn).
    ok(&mut g, 0, discard("K♦"));
}

#[test]
fn w4_adjacent_same_suit_runs_are_a_legal_go_down() {
    let mut g = w_state(json!({
        "round": 3, "active": 0, "phase": "play",
        "hands": [["3♥","4♥","5♥","6♥","7♥","8♥","9♥","10♥","K♣"], ["2♦"], ["3♦"], ["4♦"]],
        "stock": ["5♦"], "discard": ["9♣"]
    }));
    ok(&mut g, 0, go_down(&["3♥ 4♥ 5♥ 6♥", "7♥ 8♥ 9♥ 10♥"]));
    assert_eq!(g.table().len(), 2);
}

// ----- W-7: the calls -----------------------------------------------------------------

/// Seat 0 is down (7s and 9s) and discards; seat 2 is down too.
fn calls_position() -> GameState {
    w_state(json!({
        "round": 1, "active": 0, "phase": "play",
        "hands": [["7♣","K♠","2♦"], ["3♥","4♥"], ["9♣","5♠","6♠"], ["8♦","8♠"]],
        "stock": ["10♦","J♦","Q♦","K♦","A♦"], "discard": ["4♣"],
        "table": [
            {"owner": 0, "cards": ["7♠","7♥","7♦"]}, {"owner": 0, "cards": ["9♠","9♥","9♦"]},
            {"owner": 2, "cards": ["K♥","K♦","K♣"]}, {"owner": 2, "cards": ["5♥","5♦","5♣"]}
        ],
        "down": [true, false, true, false]
    }))
}

#[test]
fn w71_rummy_the_offender_takes_the_discard_back_plus_a_penalty_card() {
    let mut g = calls_position();
    let e = ok(&mut g, 0, discard("7♣"));
    assert!(matches!(
        e.kind,
        EventKind::Discarded {
            calls: Some(CallKind::Rummy),
            ..
        }
    ));
    assert_eq!((g.phase().name(), g.active(), g.to_act()), ("calling", 1, Some(1)));
    // Not the seat asked: not_your_turn; the discarder: call_not_allowed.
    refused(&mut g, 2, Action::CallRummy, ErrorCode::NotYourTurn);
    refused(&mut g, 0, Action::CallRummy, ErrorCode::CallNotAllowed);
    refused(&mut g, 1, Action::DrawStock, ErrorCode::WrongPhase);
    refused(&mut g, 1, Action::TakeDiscard, ErrorCode::WrongPhase);
    refused(&mut g, 2, Action::Buy, ErrorCode::WrongPhase);
    ok(&mut g, 1, Action::Pass);
    let e = ok(&mut g, 2, Action::CallRummy);
    assert_eq!(
        e.kind,
        EventKind::CalledRummy {
            discarder: 0,
            card: c("7♣"),
            penalty: c("10♦")
        }
    );
    assert_eq!(sorted(g.hand_cards(0)), sorted(cs("7♣ K♠ 2♦ 10♦")));
    assert_eq!(g.discard_top(), Some(c("4♣")));
    // Play goes on with the next player, who has not drawn; the chance has passed.
    assert_eq!((g.phase(), g.active()), (Phase::Draw { declined: false }, 1));
    let e = refused(&mut g, 3, Action::CallRummy, ErrorCode::CallNotAllowed);
    assert_eq!(e.rule, Some("W-7"));
}

#[test]
fn w72_liverpool_the_caller_lays_off_discards_and_rotation_resumes() {
    let mut g = calls_position();
    // K♠ fits seat 2's kings; seat 0 is down, so rummy is offered first.
    ok(&mut g, 0, discard("K♠"));
    // Seat 3 is not down: it may never call Liverpool.
    refused(
        &mut g,
        3,
        Action::CallLiverpool { meld: 2, end: None },
        ErrorCode::CallNotAllowed,
    );
    // Seat 2 may, but only once everyone has passed on rummy.
    refused(
        &mut g,
        2,
        Action::CallLiverpool { meld: 2, end: None },
        ErrorCode::NotYourTurn,
    );
    for seat in [1, 2, 3] {
        ok(&mut g, seat, Action::Pass);
    }
    let Phase::Calling(w) = g.phase() else {
        panic!("the Liverpool offer follows")
    };
    assert_eq!((w.kind, g.to_act()), (CallKind::Liverpool, Some(2)));
    // Rummy's chance has passed.
    refused(&mut g, 1, Action::CallRummy, ErrorCode::CallNotAllowed);
    refused(
        &mut g,
        2,
        Action::CallLiverpool { meld: 3, end: None },
        ErrorCode::InvalidLayOff,
    );
    let e = ok(&mut g, 2, Action::CallLiverpool { meld: 2, end: None });
    assert_eq!(
        e.kind,
        EventKind::CalledLiverpool {
            card: c("K♠"), meld: 2
        }
    );
    assert_eq!(g.table()[2].meld.len(), 4);
    assert_eq!((g.phase().name(), g.to_act()), ("call_discard", Some(2)));
    refused(&mut g, 1, Action::DrawStock, ErrorCode::WrongPhase);
    refused(&mut g, 1, discard("3♥"), ErrorCode::NotYourTurn);
    ok(&mut g, 2, discard("6♠"));
    // Rotation resumes with the player after the original discarder.
    assert_eq!((g.phase(), g.active()), (Phase::Draw { declined: false }, 1));
    assert_eq!(g.hand_sizes(), vec![2, 2, 2, 2]);
}

#[test]
fn w7_no_call_on_a_card_that_fits_nothing_nor_on_a_discard_that_goes_out() {
    let mut g = calls_position();
    ok(&mut g, 0, discard("2♦"));
    assert_eq!(g.phase(), Phase::Draw { declined: false });
    let e = refused(&mut g, 2, Action::CallRummy, ErrorCode::CallNotAllowed);
    assert!(e.message.contains("fits no table meld"), "{e}");
    // A discard that takes its player out ends the round: no call applies.
    let mut h = w_state(json!({
        "round": 1, "active": 0, "phase": "play",
        "hands": [["7♣"], ["3♥"], ["9♣"], ["8♦"]], "stock": ["10♦"], "discard": ["4♣"],
        "table": [{"owner": 0, "cards": ["7♠","7♥","7♦"]}, {"owner": 0, "cards": ["9♠","9♥","9♦"]},
                  {"owner": 2, "cards": ["K♥","K♦","K♣"]}, {"owner": 2, "cards": ["5♥","5♦","5♣"]}],
        "down": [true, false, true, false]
    }));
    let e = ok(&mut h, 0, discard("7♣"));
    assert!(matches!(
        e.kind,
        EventKind::Discarded {
            went_out: true,
            calls: None,
            ..
        }
    ));
    refused(&mut h, 2, Action::CallRummy, ErrorCode::CallNotAllowed);
    refused(
        &mut h,
        2,
        Action::CallLiverpool { meld: 0, end: None },
        ErrorCode::CallNotAllowed,
    );
    // Once the next player has drawn, the chance has passed.
    let mut k = calls_position();
    ok(&mut k, 0, discard("7♣"));
    for seat in [1, 2, 3] {
        ok(&mut k, seat, Action::Pass);
    }
    ok(&mut k, 2, Action::Pass); // the Liverpool offer: only seat 2 is down
    ok(&mut k, 1, Action::TakeDiscard);
    let e = refused(
        &mut k,
        2,
        Action::CallLiverpool { meld: 0, end: None },
        ErrorCode::CallNotAllowed,
    );
    assert!(e.message.contains("chance has passed"), "{e}");
}

// ----- W-8: floating --------------------------------------------------------------------

#[test]
fn w8_laying_off_every_card_floats_the_turn_ends_and_a_later_discard_goes_out() {
    let mut g = w_state(json!({
        "round": 1, "active": 0, "phase": "play",
        "hands": [["7♣","9♣"], ["3♥","4♥"], ["2♣","5♠"], ["8♦","8♠"]],
        "stock": ["J♠","10♦","Q♦"], "discard": ["4♣"],
        "table": [{"owner": 0, "cards": ["7♠","7♥","7♦"]}, {"owner": 0, "cards": ["9♠","9♥","9♦"]}],
        "down": [true, false, false, false]
    }));
    ok(&mut g, 0, lay(0, "7♣"));
    let e = ok(&mut g, 0, lay(1, "9♣"));
    assert!(e.floating, "W-8: the hand is empty, the player floats");
    assert_eq!((g.phase(), g.active()), (Phase::Draw { declined: false }, 1));
    assert_eq!(g.hand_sizes()[0], 0);
    assert!(!g.is_round_over());
    for seat in 1..4 {
        ok(&mut g, seat, Action::DrawStock);
        while g.phase().name() == "buying" {
            let s = g.to_act().unwrap();
            ok(&mut g, s, Action::Pass);
        }
        let card = g.hand_cards(seat)[0];
        ok(&mut g, seat, Action::Discard { card });
    }
    // The floating player may not take a discard it could neither lay off nor discard.
    assert_eq!(g.active(), 0);
    let e = refused(&mut g, 0, Action::TakeDiscard, ErrorCode::DiscardTakenCard);
    assert_eq!(e.rule, Some("W-8"));
    assert_eq!(g.legal_actions(None), vec![Action::DrawStock]);
    // It draws from the stock and goes out by discarding that card.
    ok(&mut g, 0, Action::DrawStock);
    while g.phase().name() == "buying" {
        let s = g.to_act().unwrap();
        ok(&mut g, s, Action::Pass);
    }
    let card = g.hand_cards(0)[0];
    let e = ok(&mut g, 0, Action::Discard { card });
    assert_eq!(e.round_end.map(|r| r.winner), Some(Some(0)));
}

#[test]
fn w8_a_floating_player_may_take_a_discard_it_lays_off() {
    let mut g = w_state(json!({
        "round": 1, "active": 0, "phase": "draw",
        "hands": [[], ["3♥","4♥"], ["2♣","5♠"], ["8♦","8♠"]],
        "stock": ["J♠","10♦","Q♦"], "discard": ["7♣"],
        "table": [{"owner": 0, "cards": ["7♠","7♥","7♦"]}, {"owner": 0, "cards": ["9♠","9♥","9♦"]}],
        "down": [true, false, false, false]
    }));
    ok(&mut g, 0, Action::TakeDiscard);
    refused(&mut g, 0, discard("7♣"), ErrorCode::DiscardTakenCard);
    assert_eq!(g.legal_actions(None), vec![lay(0, "7♣")]);
    let e = ok(&mut g, 0, lay(0, "7♣"));
    assert!(e.floating);
    assert_eq!(g.active(), 1);
}

// ----- W-9: the failed go-down penalty ------------------------------------------------

#[test]
fn w9_a_refused_go_down_costs_50_but_check_and_can_never_charge() {
    let mut g = w_state(json!({
        "round": 1, "active": 0, "phase": "play",
        "hands": [["7♠","7♥","8♦","9♠","9♥","9♦","K♣"], ["3♥"], ["4♥"], ["5♥"]],
        "stock": ["10♦"], "discard": ["4♣"]
    }));
    let bad = go_down(&["7♠ 7♥ 8♦", "9♠ 9♥ 9♦"]);
    for _ in 0..3 {
        assert_eq!(g.check(0, &bad).unwrap_err().code, ErrorCode::InvalidMeld);
        assert!(!g.can(0, &bad));
    }
    assert_eq!(g.penalties(), vec![0, 0, 0, 0]);
    let before = g.clone();
    let e = g.apply(0, &bad).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidMeld);
    assert!(e.message.contains("W-9") && e.message.contains("50"), "{e}");
    assert_eq!(g.penalties(), vec![50, 0, 0, 0]);
    assert_eq!(g.hand_cards(0), before.hand_cards(0));
    assert_eq!(g.history_len(), before.history_len() + 1);
    // Not an attempt: a card not held, another seat, or an action outside play.
    g.apply(0, &go_down(&["7♠ 7♥ 7♦", "9♠ 9♥ 9♦"])).unwrap_err();
    g.apply(1, &bad).unwrap_err();
    assert_eq!(g.penalties(), vec![50, 0, 0, 0]);
    // The round score carries it: 7♠ 7♥ 8♦ 9♠ 9♥ 9♦ score 5 each, K♣ 10 (W-10): 40 + 50.
    let end = g.clone().end_round(None, RoundEndReason::TurnLimit);
    assert_eq!(end.scores, vec![40 + 50, 5, 5, 5]);
    // Replay charges it again; positions carry it.
    let mut p = GameState::new(Arc::new(RuleSet::liverpool_classic()), 4, 5).unwrap();
    let cutter = p.cutter();
    ok(&mut p, cutter, Action::Cut { size: Some(30) });
    let a = p.active();
    ok(&mut p, a, Action::TakeDiscard);
    let first = p.hand_cards(a)[0];
    p.apply(
        a,
        &Action::GoDown {
            melds: vec![vec![first; 1]],
        },
    )
    .unwrap_err();
    assert_eq!(p.penalties()[a], 50);
    let again = GameState::replay(p.rules_arc(), 4, 5, &p.history()).unwrap();
    assert_eq!(again, p);
    assert_eq!(GameState::from_position(&p.to_position()).unwrap(), p);
    // Off in profile L.
    let mut pos = before.to_position();
    pos.profile = "liverpool".into();
    let mut l = GameState::from_position(&pos).unwrap();
    l.apply(0, &bad).unwrap_err();
    assert_eq!(l.penalties(), vec![0, 0, 0, 0]);
}

// ----- random playouts under every preset ------------------------------------------------

/// The game tests' probes plus the moves only profile W has (W-7 calls) and the
/// explicit decline: illegal in most states, to check that refusals change nothing.
fn probes(g: &GameState) -> Vec<Action> {
    let mut probes = super::tests::probes(g);
    probes.extend([
        Action::DeclineDiscard,
        Action::CallRummy,
        Action::CallLiverpool { meld: 0, end: None },
    ]);
    probes
}

fn choose(g: &GameState, rng: &mut Rng) -> Action {
    let legal = g.legal_actions(None);
    assert!(!legal.is_empty(), "no legal action in phase {:?}", g.phase());
    let eager = legal.iter().find(|a| {
        matches!(
            a,
            Action::GoDown { .. } | Action::LayOff { .. } | Action::SwapJoker { .. } | Action::CallLiverpool { .. }
        )
    });
    match eager {
        Some(a) if rng.below(4) > 0 => a.clone(),
        _ => legal[rng.below(legal.len() as u32) as usize].clone(),
    }
}

fn total_cards(g: &GameState) -> usize {
    g.hand_sizes().iter().sum::<usize>()
        + g.stock().len()
        + g.discard_pile().len()
        + g.table().iter().map(|m| m.meld.len()).sum::<usize>()
}

fn playouts(mut rules: RuleSet, players: usize, seeds: std::ops::Range<u64>) {
    // Random play rarely goes out; a lower turn cap (L-9.3) keeps the games short.
    rules.max_turns_per_round = 150;
    let deck = rules.deck_size(players as u8);
    let rules = Arc::new(rules);
    for seed in seeds {
        let mut g = GameState::new(rules.clone(), players, seed).unwrap();
        let mut rng = Rng::from_seed(500 + seed);
        let mut steps = 0;
        while !g.is_game_over() {
            steps += 1;
            assert!(steps < 40_000, "{} seed {seed}: the game does not end", rules.name);
            let seat = g.to_act().unwrap();
            let legal = g.legal_actions(None);
            for a in &legal {
                assert!(
                    g.check(seat, a).is_ok(),
                    "{}: listed but refused: {a:?}: {:?}",
                    rules.name,
                    g.check(seat, a)
                );
            }
            // Only the seat the engine waits for has moves (L-6.3, W-7).
            let other = (seat + 1) % players;
            assert!(g.legal_actions(Some(other)).is_empty());
            // The seat to act and its neighbours: every refusal code path is reached.
            for s in [seat, (seat + 1) % players, (seat + players - 1) % players] {
                for p in probes(&g) {
                    let mut h = g.clone();
                    if let Err(e) = h.apply(s, &p) {
                        let mut expected = g.clone();
                        if g.is_failed_go_down(s, &p, &e) {
                            // W-9: the only change a refusal may make.
                            expected.seats[s].penalty += i32::from(rules.failed_go_down_penalty);
                            expected.history.push(s as u8, &p);
                            assert!(e.message.contains("W-9"));
                        }
                        assert!(
                            h == expected && h.history_len() == expected.history_len(),
                            "{p:?} by {s}: {e}"
                        );
                        assert!(g.check(s, &p).is_err(), "check agrees with apply");
                    }
                }
            }
            if g.phase() != Phase::Cut {
                assert_eq!(total_cards(&g), deck, "{}: cards are conserved", rules.name);
            }
            let a = choose(&g, &mut rng);
            ok(&mut g, seat, a);
            if steps % 89 == 0 {
                assert_eq!(GameState::from_json(&g.to_json()).unwrap(), g);
                let back = GameState::from_position_with_rules(&g.to_position(), rules.clone()).unwrap();
                assert_eq!(back, g);
            }
        }
        assert_eq!(g.round(), rules.rounds());
        assert!(!g.winners().is_empty());
        let again = GameState::replay(rules.clone(), players, seed, &g.history()).unwrap();
        assert_eq!(again, g, "{}: replay gives the same state", rules.name);
    }
}

#[test]
fn random_playouts_under_profile_w_keep_every_invariant() {
    playouts(RuleSet::liverpool_classic(), 4, 0..2);
    playouts(RuleSet::liverpool_classic(), 5, 2..3);
}

#[test]
fn random_playouts_under_the_yo_variation_and_profile_c_keep_every_invariant() {
    let mut yo = RuleSet::liverpool_classic();
    yo.buy_priority = BuyPriority::FirstCaller;
    yo.call_order = vec![2, 0];
    playouts(yo, 4, 0..2);
    playouts(RuleSet::contract(), 4, 0..1);
}
