//! Unit tests of the state machine, one rule at a time, plus random playouts that
//! check invariants (legal actions are legal and sorted, cards are conserved,
//! refused actions change nothing, serialization and replay round-trip).

use super::*;
use crate::card::{parse_cards, Card};
use crate::error::ErrorCode;
use crate::meld::End;
use crate::rng::Rng;
use crate::rules::{BuyingRule, RuleSet};
use serde_json::json;
use std::sync::Arc;

pub(super) fn c(s: &str) -> Card {
    Card::parse(s).unwrap()
}
pub(super) fn cs(s: &str) -> Vec<Card> {
    parse_cards(&s.split_whitespace().collect::<Vec<_>>()).unwrap()
}
pub(super) fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}

/// The seeds `0..all` under `make test-long` (`crate::long_test_run`), the first `sample`
/// of them otherwise: the random playouts below check every seed there.
pub(super) fn seeds(sample: u64, all: u64) -> std::ops::Range<u64> {
    0..if crate::long_test_run() { all } else { sample }
}

/// A state from a position given as a JSON value (profile L unless it says otherwise).
pub(super) fn state(v: serde_json::Value) -> GameState {
    GameState::from_position(&Position::from_value(v).unwrap()).unwrap()
}

/// Apply, expecting success.
pub(super) fn ok(g: &mut GameState, seat: usize, a: Action) -> Event {
    g.apply(seat, &a)
        .unwrap_or_else(|e| panic!("{} by seat {seat} refused: {e}", a.name()))
}

/// Apply, expecting a refusal with `code` that changes nothing; returns the error.
pub(super) fn refused(g: &mut GameState, seat: usize, a: Action, code: ErrorCode) -> crate::error::Error {
    let before = g.clone();
    let e = g.apply(seat, &a).expect_err("the action should be refused");
    assert_eq!(e.code, code, "{}: {e}", a.name());
    assert!(
        *g == before && g.history() == before.history(),
        "a refused {} changed the state",
        a.name()
    );
    e
}

/// The active player's draw from the stock: the buying window it opens first (L-5.1)
/// is answered with passes until the stock card comes. Returns the draw's event.
fn draw(g: &mut GameState, seat: usize) -> Event {
    let mut e = ok(g, seat, Action::DrawStock);
    while let Phase::Buying(_) = g.phase() {
        let asked = g.to_act().unwrap();
        e = ok(g, asked, Action::Pass);
    }
    match e.then.take() {
        Some(mut then) => {
            then.round_end = e.round_end;
            *then
        }
        None => e,
    }
}

pub(super) fn lay(meld: usize, cards: &str) -> Action {
    Action::LayOff {
        meld,
        cards: cs(cards),
        end: None,
    }
}
pub(super) fn discard(card: &str) -> Action {
    Action::Discard { card: c(card) }
}

/// A round-2 draw position: seat 0 to act, four short hands, a small stock.
fn buying_position() -> GameState {
    state(json!({
        "round": 2, "dealer": 3, "active": 0, "phase": "draw",
        "hands": [["2♠","3♠"], ["2♥","3♥"], ["2♣","3♣"], ["4♦","5♣"]],
        "stock": ["2♦","3♦","5♦","6♦","7♦"],
        "discard": ["4♠","9♥","K♣"]
    }))
}

// ----- L-2: dealer, cut, deal --------------------------------------------------

#[test]
fn l2_new_game_draws_dealer_and_waits_for_the_cut() {
    let g = GameState::new_liverpool(11);
    assert_eq!(g.phase(), Phase::Cut);
    assert_eq!(g.stock().len(), 107); // L-1.2
    assert_eq!(g.to_act(), Some((g.dealer() + 3) % 4)); // L-2.2: the dealer's right neighbour
    assert_eq!(g.active(), (g.dealer() + 1) % 4); // L-2.7
                                                  // Different seeds give different first dealers somewhere (by lot, L-2.1).
    let dealers: std::collections::BTreeSet<usize> = (0..40).map(|s| GameState::new_liverpool(s).dealer()).collect();
    assert_eq!(dealers.len(), 4);
}

#[test]
fn l23_cut_bonus_is_41_in_rounds_1_to_3_and_49_in_rounds_4_to_7() {
    for round in 1..=7u8 {
        let exact = if round <= 3 { 41 } else { 49 };
        for (size, bonus) in [(exact, true), (exact - 1, false), (exact + 1, false)] {
            let mut g = GameState::new_liverpool(5);
            g.round = round;
            let cutter = g.cutter();
            let e = ok(&mut g, cutter, Action::Cut { size: Some(size) });
            assert_eq!(g.cut_bonus(), bonus.then_some(cutter), "round {round} cut {size}");
            assert!(matches!(e.kind, EventKind::Dealt { cut_bonus, .. } if cut_bonus == bonus));
            let hand = if round <= 3 { 10 } else { 12 };
            assert_eq!(g.hand_sizes(), vec![hand; 4]); // L-2.5
            assert_eq!(g.stock().len(), 107 - 4 * hand - 1); // L-2.6
            assert_eq!(g.phase(), Phase::Draw { declined: false });
            assert_eq!(g.active(), (g.dealer() + 1) % 4);
        }
    }
}

#[test]
fn l22_cut_never_changes_the_deal_and_bad_cuts_are_refused() {
    let mut a = GameState::new_liverpool(9);
    let mut b = a.clone();
    let cutter = a.cutter();
    refused(&mut a, cutter, Action::Cut { size: Some(0) }, ErrorCode::BadCut);
    refused(&mut a, cutter, Action::Cut { size: Some(107) }, ErrorCode::BadCut);
    refused(&mut a, cutter, Action::Cut { size: Some(-3) }, ErrorCode::BadCut);
    refused(
        &mut a,
        (cutter + 1) % 4,
        Action::Cut { size: Some(5) },
        ErrorCode::NotYourTurn,
    );
    ok(&mut a, cutter, Action::Cut { size: Some(1) });
    ok(&mut b, cutter, Action::Cut { size: Some(106) });
    for s in 0..4 {
        assert_eq!(a.hand(s), b.hand(s));
    }
    assert_eq!(a.discard_top(), b.discard_top());
}

#[test]
fn l24_an_unnamed_cut_is_drawn_from_the_game_rng() {
    let mut a = GameState::new_liverpool(3);
    let mut b = a.clone();
    let cutter = a.cutter();
    let ea = ok(&mut a, cutter, Action::Cut { size: None });
    let eb = ok(&mut b, cutter, Action::Cut { size: None });
    assert_eq!(ea, eb);
    assert_eq!(a, b);
    let EventKind::Dealt { size, .. } = ea.kind else {
        panic!("not a deal")
    };
    assert!((1..=106).contains(&size));
}

// ----- L-5 / L-6: drawing and buying --------------------------------------------

#[test]
fn l6_buy_chain_priority_penalty_and_no_two_in_succession() {
    let mut g = buying_position();
    ok(&mut g, 0, Action::DeclineDiscard);
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.legal_actions(None), vec![Action::Buy, Action::Pass]);
    assert!(g.legal_actions(Some(2)).is_empty()); // only the asked seat decides
    refused(&mut g, 0, Action::Buy, ErrorCode::BuyNotAllowed); // L-6.2: not the active player
    ok(&mut g, 1, Action::Pass);
    assert_eq!(g.to_act(), Some(2));
    refused(&mut g, 1, Action::Buy, ErrorCode::BuyNotAllowed); // passed on this card
                                                               // L-6.3: seat 3 could buy, but seat 2 is asked first.
    let e = refused(&mut g, 3, Action::Buy, ErrorCode::NotYourTurn);
    assert_eq!(e.rule, Some("L-6.3"));
    refused(&mut g, 3, Action::Pass, ErrorCode::NotYourTurn);
    ok(&mut g, 2, Action::Pass);
    let e = ok(&mut g, 3, Action::Buy);
    assert_eq!(
        e.kind,
        EventKind::Bought {
            card: c("K♣"),
            penalty: c("2♦"),
        }
    );
    assert_eq!(sorted(g.hand_cards(3)), sorted(cs("4♦ 5♣ K♣ 2♦")));
    // The newly exposed 9♥: priority restarts at seat 1; seat 3 is skipped (L-6.4).
    assert_eq!(g.discard_top(), Some(c("9♥")));
    assert_eq!(g.to_act(), Some(1));
    refused(&mut g, 3, Action::Buy, ErrorCode::BuyNotAllowed);
    ok(&mut g, 1, Action::Pass);
    ok(&mut g, 2, Action::Pass);
    // Nobody left to ask: the active player must draw from the stock.
    assert_eq!(g.phase(), Phase::Draw { declined: true });
    assert_eq!(g.legal_actions(None), vec![Action::DrawStock]);
    refused(&mut g, 0, Action::TakeDiscard, ErrorCode::WrongPhase);
    refused(&mut g, 2, Action::Buy, ErrorCode::BuyNotAllowed);
    ok(&mut g, 0, Action::DrawStock);
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.active(), 0); // L-6.5: buying never transfers the turn
    assert_eq!(g.hand_sizes(), vec![3, 2, 2, 4]);
}

#[test]
fn l51_draw_stock_never_closes_an_open_window() {
    // The active player cannot cut the window short: the seats asked decide first.
    let mut g = buying_position();
    ok(&mut g, 0, Action::DeclineDiscard);
    let e = refused(&mut g, 0, Action::DrawStock, ErrorCode::NotYourTurn);
    assert_eq!(e.rule, Some("L-5.1"));
    for seat in 1..4 {
        ok(&mut g, seat, Action::Pass);
    }
    assert_eq!(g.phase(), Phase::Draw { declined: true });
    let e = ok(&mut g, 0, Action::DrawStock);
    assert_eq!(e.kind, EventKind::DrewStock { card: Some(c("2♦")) });
    assert_eq!(g.phase(), Phase::Play);
    refused(&mut g, 1, Action::Buy, ErrorCode::WrongPhase);
}

#[test]
fn l51_draw_stock_from_draw_is_a_decline_and_the_card_comes_when_the_window_closes() {
    let mut g = buying_position();
    assert_eq!(g.legal_actions(None), vec![Action::TakeDiscard, Action::DrawStock]);
    let e = ok(&mut g, 0, Action::DrawStock);
    assert_eq!(
        e.kind,
        EventKind::DeclinedDiscard {
            card: Some(c("K♣")),
            window_open: true,
            draw_after: true
        }
    );
    assert_eq!((g.phase().name(), g.to_act()), ("buying", Some(1)));
    assert_eq!(g.hand_sizes(), vec![2, 2, 2, 2], "no card drawn yet");
    refused(&mut g, 0, Action::TakeDiscard, ErrorCode::WrongPhase);
    refused(&mut g, 0, Action::DrawStock, ErrorCode::NotYourTurn);
    refused(&mut g, 2, Action::Pass, ErrorCode::NotYourTurn);
    ok(&mut g, 1, Action::Pass);
    ok(&mut g, 2, Action::Pass);
    // The last pass closes the window and the stock card is the active player's.
    let e = ok(&mut g, 3, Action::Pass);
    assert_eq!(e.kind, EventKind::Passed { call: None });
    let then = e.then.expect("the pending draw");
    assert_eq!(
        (then.seat, then.kind),
        (0, EventKind::DrewStock { card: Some(c("2♦")) })
    );
    assert_eq!((g.phase(), g.active()), (Phase::Play, 0));
    assert_eq!(g.hand_sizes(), vec![3, 2, 2, 2]);
    // With a buy in between (chain), the draw still waits for the window's end.
    let mut h = buying_position();
    ok(&mut h, 0, Action::DrawStock);
    ok(&mut h, 1, Action::Buy);
    assert_eq!(h.phase().name(), "buying");
    assert_eq!(h.to_act(), Some(2)); // 9♥: seat 1 bought K♣ and is skipped (L-6.4)
    ok(&mut h, 2, Action::Pass);
    let e = ok(&mut h, 3, Action::Pass);
    assert_eq!(
        e.then.map(|t| t.kind),
        Some(EventKind::DrewStock { card: Some(c("3♦")) })
    );
    assert_eq!(h.phase(), Phase::Play);
    assert_eq!(h.hand_sizes(), vec![3, 4, 2, 2]);
}

#[test]
fn l61_buying_before_a_decline_and_other_seats_drawing_are_refused() {
    let mut g = buying_position();
    refused(&mut g, 1, Action::Buy, ErrorCode::WrongPhase);
    refused(&mut g, 1, Action::TakeDiscard, ErrorCode::NotYourTurn);
    refused(&mut g, 2, Action::Pass, ErrorCode::WrongPhase);
    refused(&mut g, 0, discard("2♠"), ErrorCode::WrongPhase); // discard before drawing
    ok(&mut g, 0, Action::TakeDiscard);
    refused(&mut g, 1, Action::Buy, ErrorCode::WrongPhase); // L-6.1
}

#[test]
fn c5_single_buy_per_discard_and_a_buy_limit() {
    let mut rules = RuleSet::liverpool();
    rules.buying = BuyingRule::Single;
    rules.buy_limit_per_round = Some(1);
    let pos = buying_position().to_position();
    let mut g = GameState::from_position_with_rules(&pos, Arc::new(rules.clone())).unwrap();
    ok(&mut g, 0, Action::DeclineDiscard);
    ok(&mut g, 1, Action::Pass);
    ok(&mut g, 2, Action::Buy);
    assert_eq!(g.phase(), Phase::Draw { declined: true }); // no chain
    refused(&mut g, 3, Action::Buy, ErrorCode::BuyNotAllowed);
    // A seat at its limit cannot buy, so it is not asked (C-5).
    let mut pos2 = pos.clone();
    pos2.buys = Some(vec![0, 1, 0, 0]);
    let mut h = GameState::from_position_with_rules(&pos2, Arc::new(rules.clone())).unwrap();
    ok(&mut h, 0, Action::DeclineDiscard);
    assert_eq!(h.to_act(), Some(2));
    let e = refused(&mut h, 1, Action::Buy, ErrorCode::BuyNotAllowed);
    assert_eq!(e.rule, Some("C-5"));
    refused(&mut h, 1, Action::Pass, ErrorCode::NotYourTurn);
    rules.buying = BuyingRule::Off;
    let mut off = GameState::from_position_with_rules(&pos, Arc::new(rules)).unwrap();
    assert_eq!(off.legal_actions(None), vec![Action::TakeDiscard, Action::DrawStock]);
    ok(&mut off, 0, Action::DeclineDiscard);
    assert_eq!(off.phase(), Phase::Draw { declined: true });
}

// ----- L-9: stock exhaustion -----------------------------------------------------

#[test]
fn l91_recycling_shuffles_the_pile_except_its_top() {
    let pos = json!({
        "round": 1, "active": 0, "phase": "draw", "seed": 77,
        "hands": [["2♠"], ["3♠"], ["4♠"], ["5♠"]],
        "stock": [], "discard": ["6♥","7♥","8♥","9♥","10♥"]
    });
    let mut a = state(pos.clone());
    let e = draw(&mut a, 0);
    assert_eq!(e.recycled, Some(4));
    assert_eq!(a.discard_pile(), &cs("10♥")[..]);
    assert_eq!(a.stock().len(), 3);
    let mut all = a.stock().to_vec();
    all.extend(a.hand_cards(0));
    assert_eq!(sorted(all), sorted(cs("6♥ 7♥ 8♥ 9♥ 2♠")));
    // Seeded: the same seed gives the same new stock, another seed may not.
    let mut b = state(pos);
    draw(&mut b, 0);
    assert_eq!(a, b);
}

#[test]
fn l92_no_stock_can_be_formed_the_round_ends_with_no_winner() {
    let mut g = state(json!({
        "round": 1, "active": 2, "dealer": 1, "phase": "draw",
        "hands": [["K♠","2♦"], ["3♥"], ["4♣","JK"], []],
        "stock": [], "discard": ["9♠"], "cut_bonus": 0, "totals": [5, 0, 0, 0]
    }));
    // The discard is still there to take (the round goes on).
    assert!(g.can(2, &Action::TakeDiscard));
    let e = draw(&mut g, 2);
    let end = e.round_end.expect("the round ended");
    assert_eq!(end.winner, None);
    assert_eq!(end.reason, RoundEndReason::StockExhausted);
    // L-10.1 / L-10.2: everyone scores their hand; the cutter's bonus still counts.
    assert_eq!(end.scores, vec![12 - 50, 3, 4 + 15, 0]);
    assert_eq!(g.totals(), vec![5 + 12 - 50, 3, 19, 0]);
    assert_eq!(g.phase(), Phase::RoundOver);
    refused(&mut g, 3, Action::TakeDiscard, ErrorCode::RoundOver);
}

#[test]
fn l66_a_buy_needs_a_penalty_card_after_recycling() {
    // Stock empty, pile of 3: the buyer takes the top, the other two form... one
    // card below the new top: a penalty can be drawn. With a pile of 2 it cannot.
    let base = json!({
        "round": 1, "active": 0, "phase": "draw", "seed": 1,
        "hands": [["2♠"], ["3♠"], ["4♠"], ["5♠"]], "stock": []
    });
    let mut three = base.clone();
    three["discard"] = json!(["6♥", "7♥", "8♥"]);
    let mut g = state(three);
    ok(&mut g, 0, Action::DeclineDiscard);
    let e = ok(&mut g, 1, Action::Buy);
    assert_eq!(e.recycled, Some(1));
    assert_eq!(sorted(g.hand_cards(1)), sorted(cs("3♠ 8♥ 6♥")));
    let mut two = base;
    two["discard"] = json!(["6♥", "7♥"]);
    let mut h = state(two);
    // Nobody could buy: declining opens no window, and a buy names L-6.6.
    let e = ok(&mut h, 0, Action::DeclineDiscard);
    assert!(matches!(e.kind, EventKind::DeclinedDiscard { window_open: false, .. }));
    let e = refused(&mut h, 1, Action::Buy, ErrorCode::BuyNotAllowed);
    assert_eq!(e.rule, Some("L-6.6"));
    assert!(!h.is_round_over()); // L-9.3: not a round end
}

#[test]
fn l93_the_turn_cap_ends_the_round_with_no_winner() {
    let mut rules = RuleSet::liverpool();
    rules.max_turns_per_round = 2;
    let mut g = GameState::new(Arc::new(rules), 4, 1).unwrap();
    let cutter = g.cutter();
    ok(&mut g, cutter, Action::Cut { size: Some(10) });
    for turn in 0..2 {
        let a = g.active();
        draw(&mut g, a);
        let card = g.hand_cards(a)[0];
        let e = ok(&mut g, a, Action::Discard { card });
        assert_eq!(e.round_end.is_some(), turn == 1);
    }
    assert_eq!(g.went_out(), None);
    assert!(g.is_round_over());
    assert_eq!(g.round_scores().unwrap().iter().filter(|&&s| s > 0).count(), 4);
}

// ----- L-4 / L-5: going down, laying off, going out ------------------------------

fn round1_play() -> GameState {
    state(json!({
        "round": 1, "dealer": 3, "active": 0, "phase": "play",
        "hands": [["7♠","7♥","7♦","9♠","9♥","9♦","4♣","8♦"], ["2♦"], ["3♥"], ["4♥"]],
        "stock": ["5♦","6♦","J♣","2♠","3♠"], "discard": ["9♣"],
        "table": [{"owner": 1, "cards": ["4♦","4♠","4♥"]}],
        "down": [false, true, false, false]
    }))
}

#[test]
fn l46_go_down_whole_contract_then_lay_off_only_on_a_later_turn() {
    let mut g = round1_play();
    refused(&mut g, 0, lay(0, "4♣"), ErrorCode::NotDown);
    refused(
        &mut g,
        0,
        Action::GoDown {
            melds: vec![cs("7♠ 7♥ 7♦")],
        },
        ErrorCode::ContractNotMet, // L-4.6: no partial go-down
    );
    refused(
        &mut g,
        0,
        Action::GoDown {
            melds: vec![cs("7♠ 7♥ 7♦"), cs("9♠ 9♥ 9♣")],
        },
        ErrorCode::CardNotInHand,
    );
    let e = ok(
        &mut g,
        0,
        Action::GoDown {
            melds: vec![cs("7♠ 7♥ 7♦"), cs("9♠ 9♥ 9♦")],
        },
    );
    assert_eq!(e.kind, EventKind::WentDown { melds: vec![1, 2] });
    assert!(g.down_this_turn());
    refused(
        &mut g,
        0,
        Action::GoDown {
            melds: vec![cs("7♠ 7♥ 7♦")],
        },
        ErrorCode::AlreadyDown,
    );
    refused(&mut g, 0, lay(0, "4♣"), ErrorCode::SameTurnAsGoDown); // L-5.3
    assert!(g
        .legal_actions(None)
        .iter()
        .all(|a| matches!(a, Action::Discard { .. })));
    ok(&mut g, 0, discard("8♦"));
    for seat in 1..4 {
        draw(&mut g, seat);
        let card = g.hand_cards(seat)[0];
        ok(&mut g, seat, Action::Discard { card });
    }
    draw(&mut g, 0);
    assert!(g.legal_actions(None).contains(&lay(0, "4♣")));
    ok(&mut g, 0, lay(0, "4♣")); // on another player's meld (L-5.3)
    assert_eq!(g.table()[0].meld.len(), 4);
    refused(&mut g, 0, lay(1, "2♠"), ErrorCode::InvalidLayOff);
    refused(&mut g, 0, lay(9, "2♠"), ErrorCode::InvalidLayOff);
}

#[test]
fn l55_must_keep_a_card_for_the_discard() {
    // Go-down leaving no card.
    let mut g = state(json!({
        "round": 1, "active": 0, "phase": "play",
        "hands": [["7♠","7♥","7♦","9♠","9♥","9♦"], [], [], []], "discard": ["2♣"]
    }));
    refused(
        &mut g,
        0,
        Action::GoDown {
            melds: vec![cs("7♠ 7♥ 7♦"), cs("9♠ 9♥ 9♦")],
        },
        ErrorCode::MustKeepDiscard,
    );
    // Lay-off of the whole hand; the last card may still be discarded to go out (L-5.6).
    let mut h = state(json!({
        "round": 1, "active": 0, "phase": "play",
        "hands": [["7♣","9♣"], ["5♦"], [], []], "discard": ["2♣"],
        "table": [{"owner": 0, "cards": ["7♠","7♥","7♦"]}, {"owner": 0, "cards": ["9♠","9♥","9♦"]}],
        "down": [true, false, false, false]
    }));
    refused(&mut h, 0, lay(0, "7♣ 9♣"), ErrorCode::InvalidLayOff);
    ok(&mut h, 0, lay(0, "7♣"));
    refused(&mut h, 0, lay(1, "9♣"), ErrorCode::MustKeepDiscard);
    let e = ok(&mut h, 0, discard("9♣"));
    assert_eq!(
        e.kind,
        EventKind::Discarded {
            card: c("9♣"),
            went_out: true,
            calls: None
        }
    );
    let end = e.round_end.unwrap();
    assert_eq!((end.winner, end.reason), (Some(0), RoundEndReason::WentOut));
    assert_eq!(end.scores, vec![0, 5, 0, 0]);
}

// ----- L-7: jokers ----------------------------------------------------------------

fn swap_position() -> serde_json::Value {
    json!({
        "round": 2, "active": 0, "phase": "play",
        "hands": [["6♥","Q♣","2♠"], [], [], []], "discard": ["2♣"],
        "table": [
            {"owner": 1, "cards": ["5♥","JK","7♥","8♥"]},
            {"owner": 1, "cards": ["Q♠","Q♥","JK"]},
            {"owner": 0, "cards": ["3♣","3♦","3♠"]},
            {"owner": 0, "cards": ["9♣","10♣","J♣","Q♣"]}
        ],
        "down": [true, true, false, false]
    })
}

#[test]
fn l7_swap_exact_card_joker_to_another_meld_set_jokers_locked() {
    let mut g = state(swap_position());
    let swap = |meld, card: &str, to_meld, end| Action::SwapJoker {
        meld,
        card: c(card),
        to_meld,
        end,
    };
    refused(&mut g, 0, swap(1, "Q♣", 3, None), ErrorCode::JokerLocked); // L-7.1
    refused(&mut g, 0, swap(0, "2♠", 3, None), ErrorCode::SwapMismatch);
    refused(&mut g, 0, swap(0, "6♥", 0, None), ErrorCode::JokerUnplaced);
    refused(&mut g, 0, swap(0, "6♥", 7, None), ErrorCode::JokerUnplaced);
    refused(&mut g, 0, swap(2, "6♥", 3, None), ErrorCode::JokerLocked);
    // The joker goes to the low end of 9-Q♣ as 8♣ when asked.
    let legal = g.legal_actions(None);
    assert!(legal.contains(&swap(0, "6♥", 3, Some(End::Low))));
    assert!(legal.contains(&swap(0, "6♥", 3, Some(End::High))));
    assert!(legal.contains(&swap(0, "6♥", 2, None)));
    ok(&mut g, 0, swap(0, "6♥", 3, Some(End::Low)));
    assert_eq!(g.table()[0].meld.cards(), &cs("5♥ 6♥ 7♥ 8♥")[..]);
    assert_eq!(g.table()[3].meld.cards(), &cs("JK 9♣ 10♣ J♣ Q♣")[..]);
    assert_eq!(g.table()[3].meld.joker_stands_for(0), Some(c("8♣")));
    assert_eq!(g.hand_sizes()[0], 2); // the joker never enters the hand
}

#[test]
fn l72_swap_only_on_a_later_turn_and_l73_keeps_a_discard() {
    let mut pos = swap_position();
    pos["down_this_turn"] = json!(true);
    pos["down"] = json!([false, true, false, false]);
    let mut g = state(pos);
    let swap = Action::SwapJoker {
        meld: 0,
        card: c("6♥"),
        to_meld: 2,
        end: None,
    };
    refused(&mut g, 0, swap.clone(), ErrorCode::SameTurnAsGoDown);
    let mut last = swap_position();
    last["hands"] = json!([["6♥"], [], [], []]);
    let mut h = state(last);
    refused(&mut h, 0, swap, ErrorCode::MustKeepDiscard);
}

// ----- L-8: round 7 -------------------------------------------------------------

#[test]
fn l8_round_7_whole_hand_as_three_runs_ends_the_round() {
    let hand = [
        "A♠", "2♠", "3♠", "4♠", "5♥", "6♥", "7♥", "8♥", "9♥", "9♦", "10♦", "J♦", "JK",
    ];
    let mut g = state(json!({
        "round": 7, "active": 1, "dealer": 0, "phase": "play",
        "hands": [["K♠","3♦"], hand, ["2♣"], ["4♣","JK"]], "discard": ["2♣"], "cut_bonus": 3,
        "totals": [100, 40, 60, 80]
    }));
    let runs = vec![cs("A♠ 2♠ 3♠ 4♠"), cs("5♥ 6♥ 7♥ 8♥ 9♥"), cs("9♦ 10♦ J♦ JK")];
    refused(
        &mut g,
        1,
        Action::GoDown {
            melds: runs[..2].to_vec(),
        },
        ErrorCode::WholeHandRequired,
    );
    refused(
        &mut g,
        1,
        Action::GoDown {
            melds: vec![runs[0].clone(), cs("5♥ 6♥ 7♥ 8♥"), runs[2].clone()],
        },
        ErrorCode::WholeHandRequired,
    );
    refused(&mut g, 1, discard("K♠"), ErrorCode::CardNotInHand);
    let mut legal = g.legal_actions(None);
    legal.retain(|a| matches!(a, Action::GoDown { .. }));
    // The joker can stand for Q♦ or for 8♦: two ways to lay the same hand.
    assert_eq!(legal.len(), 2, "{legal:?}");
    assert!(legal.contains(&Action::GoDown {
        melds: vec![runs[0].clone(), runs[1].clone(), cs("JK 9♦ 10♦ J♦")]
    }));
    let e = ok(&mut g, 1, Action::GoDown { melds: runs });
    let end = e.round_end.expect("L-8.1: the round ends at once");
    assert_eq!(end.reason, RoundEndReason::WholeHand);
    // L-10: 10 + 3 = 13 for seat 0, 2 for seat 2, 4 + 15 - 50 for the cutter.
    assert_eq!(end.scores, vec![13, 0, 2, -31]);
    assert!(end.game_over && g.is_game_over());
    assert_eq!(g.totals(), vec![113, 40, 62, 49]);
    assert_eq!(g.winners(), vec![1]); // L-10.3
    refused(&mut g, 1, Action::NextRound, ErrorCode::GameOver);
    refused(&mut g, 2, Action::DrawStock, ErrorCode::RoundOver);
}

#[test]
fn l83_no_lay_offs_or_swaps_in_round_7() {
    let mut g = state(json!({
        "round": 7, "active": 0, "phase": "play",
        "hands": [["6♥","Q♣","2♠"], [], [], []], "discard": ["2♣"],
        "table": [{"owner": 0, "cards": ["5♥","JK","7♥","8♥"]}],
        "down": [true, false, false, false]
    }));
    refused(&mut g, 0, lay(0, "6♥"), ErrorCode::WrongPhase);
    refused(
        &mut g,
        0,
        Action::SwapJoker {
            meld: 0,
            card: c("6♥"),
            to_meld: 0,
            end: None,
        },
        ErrorCode::WrongPhase,
    );
}

// ----- L-10: scoring, rounds, game over -------------------------------------------

#[test]
fn l103_equal_lowest_totals_share_the_win_and_rounds_rotate_the_dealer() {
    let mut g = state(json!({
        "round": 6, "dealer": 2, "active": 0, "phase": "play",
        "hands": [["2♦"], ["A♠"], ["5♥"], []], "discard": ["9♠"],
        "table": [{"owner": 0, "cards": ["7♠","7♥","7♦"]}], "down": [true, false, false, false],
        "totals": [20, 5, 10, 30]
    }));
    ok(&mut g, 0, discard("2♦"));
    assert_eq!(g.totals(), vec![20, 20, 15, 30]);
    assert_eq!(g.phase(), Phase::RoundOver);
    assert!(g.winners().is_empty());
    assert_eq!(g.to_act(), Some(3));
    refused(&mut g, 0, Action::NextRound, ErrorCode::NotYourTurn);
    let e = ok(&mut g, 3, Action::NextRound);
    assert_eq!(e.kind, EventKind::RoundStarted { round: 7, dealer: 3 });
    assert_eq!((g.phase(), g.stock().len(), g.to_act()), (Phase::Cut, 107, Some(2)));
    ok(&mut g, 2, Action::Cut { size: Some(49) });
    assert_eq!(g.hand_sizes(), vec![12; 4]);
    assert_eq!(g.active(), 0);
    // Fix the round's end by hand: seats 1 and 2 tie on the lowest total.
    g.seats[1].total = 15;
    g.end_round(None, RoundEndReason::TurnLimit);
    let t = g.totals();
    let best = *t.iter().min().unwrap();
    let expected: Vec<usize> = (0..4).filter(|&s| t[s] == best).collect();
    assert_eq!(g.winners(), expected);
    g.seats.iter_mut().for_each(|s| s.total = 7);
    assert_eq!(g.winners(), vec![0, 1, 2, 3]);
}

// ----- views ----------------------------------------------------------------------

#[test]
fn views_hide_other_hands_and_the_stock() {
    let g = round1_play();
    let v = g.view(1).unwrap();
    assert_eq!(v.hand, cs("2♦"));
    assert_eq!(v.hand_sizes, vec![8, 1, 1, 1]);
    let text = serde_json::to_string(&v).unwrap();
    assert!(!text.contains("7♠\",\"7♥") && !text.contains("5♦"), "{text}");
    assert_eq!(g.view(4).unwrap_err().code, ErrorCode::InvalidArgument);
    // The information state differs for the same seat only through what it sees.
    let mut other = g.clone();
    other.stock.reverse();
    assert_eq!(
        g.information_state_string(1).unwrap(),
        other.information_state_string(1).unwrap()
    );
    assert_ne!(
        g.information_state_string(0).unwrap(),
        g.information_state_string(1).unwrap()
    );
    let t = g.observation_tensor(0).unwrap();
    let lay = observation_layout(4, 7);
    assert_eq!(t.len(), lay.size);
    // The size docs/state-machine.md gives: 354 (with the selection blocks of docs/action-space.md).
    assert_eq!(lay.size, 4 * 53 + 4 * 4 + 8 + 2 + 7 + 1 + 53 + 53 + 2);
    assert!(t[lay.selected..].iter().all(|&x| x == 0.0), "nothing is being chosen");
    assert_eq!(t[lay.hand + c("7♠").id() as usize], 1.0);
    assert_eq!(t[lay.hand_sizes], 8.0);
    assert_eq!(t[lay.hand_sizes + 1], 1.0);
    assert_eq!(t[lay.down + 1], 1.0); // seat 1 is the observer's left neighbour
    assert_eq!(t[lay.phase + 3], 1.0); // play
    assert_eq!(t[lay.round], 1.0);
    assert_eq!(t[lay.stock_size], 5.0);
    assert_eq!(t[lay.table..lay.table + 53].iter().sum::<f32>(), 3.0);
}

// ----- positions and serialization -------------------------------------------------

#[test]
fn positions_are_validated_with_bad_position() {
    let bad = |v: serde_json::Value, needle: &str| {
        let e = Position::from_value(v)
            .and_then(|p| GameState::from_position(&p))
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::BadPosition, "{e}");
        assert!(
            e.message.contains(needle),
            "'{}' does not mention '{needle}'",
            e.message
        );
    };
    let base = || json!({"hands": [["7♠"], [], [], []], "discard": ["2♣"]});
    let mut v = base();
    v["hands"] = json!([["7♠", "7♠", "7♠"], [], [], []]);
    bad(v, "copies of 7♠");
    let mut v = base();
    v["stock"] = json!(["JK", "JK"]);
    v["discard"] = json!(["JK", "JK"]);
    bad(v, "jokers");
    let mut v = base();
    v["phase"] = json!("dancing");
    bad(v, "phase 'dancing'");
    let mut v = base();
    v["table"] = json!([{"owner": 1, "cards": ["4♦","4♠","4♥"]}]);
    bad(v, "not down");
    let mut v = base();
    v["down"] = json!([true, false, false, false]);
    bad(v, "owns no table meld");
    let mut v = base();
    v["table"] = json!([{"owner": 0, "cards": ["4♦","5♠","4♥"]}]);
    v["down"] = json!([true, false, false, false]);
    bad(v, "table meld 0");
    let mut v = base();
    v["hands"] = json!([["7X"], [], [], []]);
    bad(v, "not a card");
    let mut v = base();
    v["totals"] = json!([0, 0]);
    bad(v, "'totals' has 2 entries");
    let mut v = base();
    v["profile"] = json!("poker");
    bad(v, "poker");
    let mut v = base();
    v["phase"] = json!("cut");
    bad(v, "phase cut");
    assert_eq!(Position::from_json("{").unwrap_err().code, ErrorCode::BadPosition);
}

#[test]
fn positions_and_full_state_round_trip() {
    let mut g = buying_position();
    ok(&mut g, 0, Action::DrawStock);
    ok(&mut g, 1, Action::Pass);
    ok(&mut g, 2, Action::Buy);
    assert!(g.buy_window().is_some_and(|w| w.draw_after));
    let back = GameState::from_position(&Position::from_json(&g.to_position().to_json()).unwrap()).unwrap();
    assert_eq!(back, g);
    let full = GameState::from_json(&g.to_json()).unwrap();
    assert_eq!(full, g);
    assert_eq!(full.history(), g.history());
    assert_eq!(full.to_json(), g.to_json());
    // The RNG state travels too: the same future shuffles.
    assert_eq!(full.rng_state(), g.rng_state());
    assert_eq!(
        GameState::from_json("{\"format\": 1}").unwrap_err().code,
        ErrorCode::BadPosition
    );
}

#[test]
fn actions_serialize_in_the_step_shape() {
    let a = Action::LayOff {
        meld: 2,
        cards: cs("4♣ JK"),
        end: Some(End::Low),
    };
    let text = a.to_json();
    assert_eq!(text, r#"{"do":"lay_off","meld":2,"cards":["4♣","JK"],"end":"low"}"#);
    assert_eq!(Action::from_json(&text).unwrap(), a);
    assert_eq!(
        Action::from_json(r#"{"do":"cut","size":41,"seat":2}"#).unwrap(),
        Action::Cut { size: Some(41) }
    );
    assert_eq!(
        Action::from_json(r#"{"do":"take_discard"}"#).unwrap(),
        Action::TakeDiscard
    );
    assert!(Action::from_json(r#"{"do":"fly"}"#).is_err());
    assert!(Action::from_json(r#"{"do":"discard","card":"7X"}"#).is_err());
}

#[test]
fn calls_are_not_allowed_in_profile_l() {
    let mut g = round1_play();
    refused(
        &mut g,
        2,
        Action::CallLiverpool { meld: 0, end: None },
        ErrorCode::NotAllowed,
    );
    refused(&mut g, 2, Action::CallRummy, ErrorCode::NotAllowed);
}

// ----- the scenario runner ----------------------------------------------------------

#[test]
fn the_runner_reports_failures_without_panicking() {
    let fail = |text: &str, needle: &str| {
        let r = run_scenario(text);
        let line = r.line();
        assert!(line.starts_with("FAIL"), "{line}");
        assert!(line.contains(needle), "'{line}' does not mention '{needle}'");
    };
    fail("{not json", "not valid JSON");
    fail("[1]", "JSON object");
    fail(r#"{"id":"x"}"#, "no 'position'");
    let pos = r#""position": {"hands": [["7♠","8♠"], [], [], []], "discard": ["2♣"], "stock": ["3♦"]}"#;
    fail(
        &format!(r#"{{"id":"x", {pos}, "steps": [{{"seat": 0, "do": "fly"}}]}}"#),
        "step 1: unknown action 'fly'",
    );
    fail(
        &format!(r#"{{"id":"x", {pos}, "steps": [{{"do": "draw_stock"}}]}}"#),
        "needs a 'seat'",
    );
    fail(
        &format!(
            r#"{{"id":"x", {pos}, "steps": [{{"seat": 0, "do": "draw_stock", "expect": {{"error": "wrong_phase"}}}}]}}"#
        ),
        "expected error wrong_phase, but the action was accepted",
    );
    fail(
        &format!(r#"{{"id":"x", {pos}, "steps": [{{"seat": 1, "do": "draw_stock"}}]}}"#),
        "got error not_your_turn",
    );
    fail(
        &format!(
            r#"{{"id":"x", {pos}, "steps": [{{"seat": 0, "do": "draw_stock", "check": {{"hand_sizes": [2,0,0,0], "stock_size": 0}}}}]}}"#
        ),
        "step 1: hand_sizes: expected [2, 0, 0, 0], got [3, 0, 0, 0]",
    );
    fail(
        &format!(r#"{{"id":"x", {pos}, "check": {{"discard_top": "3♣"}}}}"#),
        "position check: discard_top",
    );
    let pass = run_scenario(&format!(
        r#"{{"id":"ok", "extra": 1, {pos}, "check": {{"phase": "draw", "to_act": 0, "whatever": 3}},
            "steps": [{{"seat": 0, "do": "draw_stock", "note": "x",
                        "check": {{"hands": [["7♠","8♠","3♦"], null, null, null], "phase": "play"}}}},
                      {{"seat": 0, "do": "lay_off", "meld": 0, "cards": ["7♠"], "expect": {{"error": "not_down"}}}}]}}"#
    ));
    assert_eq!(pass.line(), "PASS ok");
}

// ----- random playouts: invariants ------------------------------------------------

/// A simple policy: go down when possible, lay off, else random among the rest.
fn choose(g: &GameState, rng: &mut Rng) -> Action {
    let legal = g.legal_actions(None);
    assert!(!legal.is_empty(), "no legal action in phase {:?}", g.phase());
    if let Some(a) = legal.iter().find(|a| {
        matches!(
            a,
            Action::GoDown { .. } | Action::LayOff { .. } | Action::SwapJoker { .. }
        )
    }) {
        if rng.below(4) > 0 {
            return a.clone();
        }
    }
    legal[rng.below(legal.len() as u32) as usize].clone()
}

fn total_cards(g: &GameState) -> usize {
    g.hand_sizes().iter().sum::<usize>()
        + g.stock().len()
        + g.discard_pile().len()
        + g.table().iter().map(|m| m.meld.len()).sum::<usize>()
}

/// Actions that are illegal in most states, to check that refusals change nothing.
pub(super) fn probes(g: &GameState) -> Vec<Action> {
    vec![
        Action::TakeDiscard,
        Action::Buy,
        Action::Pass,
        Action::DrawStock,
        Action::Discard { card: c("JK") },
        Action::LayOff {
            meld: 0,
            cards: cs("5♥"),
            end: None,
        },
        Action::GoDown {
            melds: vec![cs("2♠ 2♥ 2♦"), cs("3♠ 3♥ 3♦")],
        },
        Action::SwapJoker {
            meld: 0,
            card: c("4♥"),
            to_meld: 1,
            end: None,
        },
        Action::Cut { size: Some(41) },
        Action::NextRound,
        Action::Discard {
            card: g.stock().first().copied().unwrap_or(c("AS")),
        },
    ]
}

/// `apply_for_round_end` (the simulator's path, which leaves out the event's `then`)
/// changes the state exactly as `apply` does, reports the same round end (also one
/// set off by the stock draw of a closing window, L-5.1 Decision / L-9.2) and refuses
/// the same actions with the same errors. Without `record_history` the state changes
/// the same way and the history is left as it was.
#[test]
fn applying_for_the_round_end_only_matches_apply() {
    let mut pending_draws = 0;
    // Every step of a whole game is probed three ways: a game is about 5 s of a debug
    // build. One game in `make test` (it closes windows with a pending draw), four in
    // `make test-long`.
    for seed in seeds(1, 4) {
        let mut g = GameState::new_liverpool(seed);
        let mut rng = Rng::from_seed(2000 + seed);
        while !g.is_game_over() {
            let seat = g.to_act().unwrap();
            for p in probes(&g) {
                let (mut full, mut quiet, mut unrecorded) = (g.clone(), g.clone(), g.clone());
                let unrecorded_result = unrecorded.apply_for_round_end(seat, &p, false);
                match (full.apply(seat, &p), quiet.apply_for_round_end(seat, &p, true)) {
                    (Ok(event), Ok(round_end)) => {
                        let round_end = round_end.map(|end| *end);
                        assert_eq!(event.round_end, round_end, "{p:?}");
                        assert_eq!(unrecorded_result.unwrap().map(|end| *end), round_end, "{p:?}");
                    }
                    (Err(a), Err(b)) => {
                        assert_eq!((a.code, a.to_message()), (b.code, b.to_message()));
                        let c = unrecorded_result.unwrap_err();
                        assert_eq!((a.code, a.to_message()), (c.code, c.to_message()));
                    }
                    (a, b) => panic!("{p:?}: apply gave {a:?}, apply_for_round_end {b:?}"),
                }
                assert!(full == quiet && full.history() == quiet.history(), "{p:?}");
                assert!(full == unrecorded && unrecorded.history() == g.history(), "{p:?}");
            }
            let a = choose(&g, &mut rng);
            let (mut quiet, mut unrecorded) = (g.clone(), g.clone());
            let before = g.history_len();
            let event = g.apply(seat, &a).unwrap();
            pending_draws += usize::from(event.then.is_some());
            assert_eq!(
                quiet.apply_for_round_end(seat, &a, true).unwrap().map(|end| *end),
                event.round_end,
                "{a:?}"
            );
            assert!(quiet == g && quiet.history() == g.history(), "{a:?}");
            assert_eq!(
                unrecorded.apply_for_round_end(seat, &a, false).unwrap().map(|end| *end),
                event.round_end,
                "{a:?}"
            );
            assert!(unrecorded == g && unrecorded.history_len() == before, "{a:?}");
        }
    }
    assert!(pending_draws > 0, "the playouts close a window with a pending draw");
}

#[test]
fn random_playouts_keep_every_invariant() {
    // Two whole games in `make test`, six in `make test-long`.
    for seed in seeds(2, 6) {
        let mut g = GameState::new_liverpool(seed);
        let mut rng = Rng::from_seed(1000 + seed);
        let mut steps = 0;
        while !g.is_game_over() {
            steps += 1;
            assert!(steps < 20_000, "seed {seed}: the game does not end");
            let legal = g.legal_actions(None);
            let mut sorted_legal = legal.clone();
            sorted_legal.sort();
            sorted_legal.dedup();
            assert_eq!(legal, sorted_legal, "legal actions are sorted and distinct");
            let seat = g.to_act().unwrap();
            for a in &legal {
                assert!(
                    g.check(seat, a).is_ok(),
                    "listed but refused: {a:?}: {:?}",
                    g.check(seat, a)
                );
            }
            for s in 0..4 {
                for p in probes(&g) {
                    let before = g.clone();
                    if g.clone().apply(s, &p).is_err() {
                        // Refusal leaves the state exactly as it was.
                        let mut h = g.clone();
                        assert!(h.apply(s, &p).is_err());
                        assert!(h == before && h.history_len() == before.history_len());
                    }
                }
            }
            if g.phase() != Phase::Cut {
                assert_eq!(total_cards(&g), 107, "cards are conserved");
            }
            let a = choose(&g, &mut rng);
            ok(&mut g, seat, a);
            if steps % 97 == 0 {
                assert_eq!(GameState::from_json(&g.to_json()).unwrap(), g);
                assert_eq!(GameState::from_position(&g.to_position()).unwrap(), g);
            }
        }
        assert_eq!(g.round(), 7);
        assert!(!g.winners().is_empty());
        let again = GameState::replay(g.rules_arc(), 4, seed, &g.history()).unwrap();
        assert_eq!(again, g, "replay from (seed, actions) gives the same state");
    }
}

#[test]
fn profiles_c_and_w_play_to_the_end_without_refusing_a_listed_action() {
    for (rules, players) in [
        (RuleSet::contract(), 5),
        (RuleSet::liverpool_classic(), 3),
        (RuleSet::contract(), 8),
    ] {
        let deck = rules.deck_size(players as u8);
        let rules = Arc::new(rules);
        for seed in 0..1u64 {
            let mut g = GameState::new(rules.clone(), players, seed).unwrap();
            let mut rng = Rng::from_seed(seed);
            while !g.is_game_over() {
                let seat = g.to_act().unwrap();
                let a = choose(&g, &mut rng);
                ok(&mut g, seat, a);
                if g.phase() != Phase::Cut {
                    assert_eq!(total_cards(&g), deck, "{}: cards are conserved", rules.name);
                }
            }
            assert_eq!(
                GameState::replay(rules.clone(), players, seed, &g.history()).unwrap(),
                g
            );
        }
    }
}

/// Measures `GameState::clone` in a mid-game state (run with `--ignored --nocapture`, release).
#[test]
#[ignore]
fn measure_clone() {
    let mut g = GameState::new_liverpool(1);
    let mut rng = Rng::from_seed(2);
    while g.round() < 4 || g.table().len() < 6 {
        if g.is_game_over() {
            break;
        }
        let a = choose(&g, &mut rng);
        g.apply(g.to_act().unwrap(), &a).unwrap();
    }
    let n = 200_000;
    let start = std::time::Instant::now();
    let mut keep = 0;
    for _ in 0..n {
        let h = std::hint::black_box(&g).clone();
        keep += h.history_len();
    }
    let per = start.elapsed().as_nanos() as f64 / n as f64;
    println!(
        "clone: {per:.0} ns (round {}, {} melds, {} actions of history, {keep})",
        g.round(),
        g.table().len(),
        g.history_len()
    );
}

/// Measures whole random games with `legal_actions` at every step (release, `--ignored --nocapture`).
#[test]
#[ignore]
fn measure_random_games() {
    let games = 20;
    let start = std::time::Instant::now();
    let mut actions = 0;
    for seed in 0..games {
        let mut g = GameState::new_liverpool(seed);
        let mut rng = Rng::from_seed(seed);
        while !g.is_game_over() {
            let a = choose(&g, &mut rng);
            g.apply(g.to_act().unwrap(), &a).unwrap();
            actions += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {actions} actions: {:.1} ms/game, {:.1} µs/action",
        secs * 1e3 / games as f64,
        secs * 1e6 / actions as f64
    );
}
