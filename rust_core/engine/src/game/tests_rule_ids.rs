//! Issue 17: a refusal cites the rule that decides it *in the game's profile* — one
//! test per kind of refusal, each run under profiles L, C and W (RULES.md: C and W
//! list their differences from L; what they do not restate is L's).

use super::tests::{cs, ok, refused, state};
use super::*;
use crate::error::ErrorCode;
use crate::rules::{Contract, MeldKind, MeldSpec, RuleSet};
use serde_json::json;
use std::sync::Arc;

const PROFILES: [&str; 3] = ["liverpool", "contract", "liverpool-classic"];

fn in_profile(profile: &str, mut v: serde_json::Value) -> GameState {
    v["profile"] = json!(profile);
    state(v)
}

/// The refusal of `a` by the check-only call (a W-9 go-down attempt is not charged).
fn checked(g: &GameState, seat: usize, a: Action, code: ErrorCode) -> crate::error::Error {
    let e = g.check(seat, &a).expect_err("the action should be refused");
    assert_eq!(e.code, code, "{}: {e}", a.name());
    e
}

fn go_down(melds: &[&str]) -> Action {
    Action::GoDown {
        melds: melds.iter().map(|m| cs(m)).collect(),
    }
}

#[test]
fn player_counts_cite_l11_c1_w1() {
    for (profile, rule) in PROFILES.iter().zip(["L-1.1", "C-1", "W-1"]) {
        let rules = Arc::new(RuleSet::preset(profile).unwrap());
        let e = GameState::new(Arc::clone(&rules), 1, 3).unwrap_err();
        assert_eq!((e.code, e.rule), (ErrorCode::InvalidArgument, Some(rule)), "{profile}");
        let e = crate::deal::check_players(&rules, 17).unwrap_err();
        assert_eq!(e.rule, Some(rule), "{profile}");
    }
}

#[test]
fn joker_counts_cite_the_profiles_deck_rule() {
    for (name, rule) in [
        ("liverpool", "L-1.2"),
        ("contract", "C-1"),
        ("liverpool-classic", "W-1"),
        ("california", "C-8"),
        ("shanghai", "C-1"),
    ] {
        let rules = RuleSet::preset(name).unwrap();
        let mut counts = [0u8; 53];
        counts[52] = 9;
        let e = rules.check_copies(&counts, 4, "the hand").unwrap_err();
        assert_eq!(e.rule, Some(rule), "{name}: {e}");
        counts = [0; 53];
        counts[0] = 4;
        assert_eq!(rules.check_copies(&counts, 4, "the hand").unwrap_err().rule, Some(rule));
    }
}

fn buying_position(profile: &str) -> GameState {
    in_profile(
        profile,
        json!({"round": 1, "active": 0, "phase": "draw",
               "hands": [["2♠"], ["3♠"], ["4♠"], ["5♠"]],
               "stock": ["6♦", "7♦", "8♦", "9♦", "10♦"], "discard": ["Q♥", "9♥", "K♣"]}),
    )
}

#[test]
fn a_closed_buying_window_cites_l64_c5_w6() {
    for (profile, rule) in PROFILES.iter().zip(["L-6.4", "C-5", "W-6"]) {
        let mut g = buying_position(profile);
        ok(&mut g, 0, Action::DeclineDiscard);
        for seat in 1..4 {
            ok(&mut g, seat, Action::Pass);
        }
        let e = refused(&mut g, 2, Action::Buy, ErrorCode::BuyNotAllowed);
        assert_eq!(e.rule, Some(rule), "{profile}: {e}");
        // The active player's own buy: L-6.2, C-5 (first refusal), W-6.
        let e = refused(&mut g, 0, Action::Buy, ErrorCode::BuyNotAllowed);
        let own = ["L-6.2", "C-5", "W-6"][PROFILES.iter().position(|p| p == profile).unwrap()];
        assert_eq!(e.rule, Some(own), "{profile}: {e}");
    }
}

#[test]
fn the_previous_buyers_pass_cites_l64() {
    let mut g = buying_position("liverpool");
    ok(&mut g, 0, Action::DeclineDiscard);
    ok(&mut g, 1, Action::Buy);
    // L-6.4: seat 1 bought K♣, so it is skipped for 9♥: its pass is refused under L-6.4.
    let e = refused(&mut g, 1, Action::Pass, ErrorCode::NotYourTurn);
    assert_eq!(e.rule, Some("L-6.4"), "{e}");
    assert!(e.message.contains("bought the previous card"), "{e}");
}

#[test]
fn meld_refusals_cite_each_profiles_meld_rule() {
    // A set of two cards and a run with too few naturals, at go-down in round 2.
    for (i, profile) in PROFILES.iter().enumerate() {
        let g = in_profile(
            profile,
            json!({"round": 2, "active": 0, "phase": "play",
                   "hands": [["7♠", "7♥", "JK", "JK", "6♥", "7♥", "8♥", "9♥", "K♦"], ["3♠"], ["4♠"], ["5♠"]],
                   "stock": ["6♦"], "discard": ["Q♥"]}),
        );
        let e = checked(&g, 0, go_down(&["7♠ 7♥", "6♥ 7♥ 8♥ 9♥"]), ErrorCode::InvalidMeld);
        assert_eq!(e.rule, Some(["L-4.1", "C-4", "W-4"][i]), "{profile}: {e}");
        if *profile == "liverpool-classic" {
            // W-4: three naturals in the first four cards of a run.
            let g = in_profile(
                profile,
                json!({"round": 2, "active": 0, "phase": "play",
                       "hands": [["7♠", "7♥", "7♦", "JK", "JK", "7♥", "8♥", "9♥", "K♦"], ["3♠"], ["4♠"], ["5♠"]],
                       "stock": ["6♦"], "discard": ["Q♥"]}),
            );
            let e = checked(&g, 0, go_down(&["7♠ 7♥ 7♦", "JK JK 7♥ 8♥ 9♥"]), ErrorCode::InvalidMeld);
            assert_eq!(e.rule, Some("W-4"), "{e}");
        }
    }
}

#[test]
fn lay_off_and_swap_timing_cite_each_profiles_rule() {
    let position = json!({"round": 2, "active": 0, "phase": "play",
        "hands": [["9♠", "9♥", "9♦", "5♥", "6♥", "7♥", "8♥", "4♣", "9♣", "K♦"], ["3♠"], ["4♠"], ["5♠"]],
        "stock": ["6♦"], "discard": ["Q♥"],
        "table": [{"owner": 1, "cards": ["2♣", "3♣", "JK", "5♣"]}], "down": [false, true, false, false]});
    for (i, profile) in PROFILES.iter().enumerate() {
        let mut g = in_profile(profile, position.clone());
        ok(&mut g, 0, go_down(&["9♠ 9♥ 9♦", "5♥ 6♥ 7♥ 8♥"]));
        let lay = Action::LayOff {
            meld: 1,
            cards: cs("9♣"),
            end: None,
        };
        let swap = Action::SwapJoker {
            meld: 0,
            card: cs("4♣")[0],
            to_meld: 2,
            end: None,
        };
        match i {
            0 => {
                assert_eq!(refused(&mut g, 0, lay, ErrorCode::SameTurnAsGoDown).rule, Some("L-5.3"));
                assert_eq!(
                    refused(&mut g, 0, swap, ErrorCode::SameTurnAsGoDown).rule,
                    Some("L-7.2")
                );
            }
            1 => {
                assert_eq!(refused(&mut g, 0, lay, ErrorCode::SameTurnAsGoDown).rule, Some("C-6"));
                assert_eq!(refused(&mut g, 0, swap, ErrorCode::NotAllowed).rule, Some("C-4"));
            }
            _ => {
                ok(&mut g, 0, lay); // W-5: lay-offs on the go-down turn
                let wrong = Action::SwapJoker {
                    meld: 0,
                    card: cs("K♦")[0],
                    to_meld: 2,
                    end: None,
                };
                assert_eq!(refused(&mut g, 0, wrong, ErrorCode::SwapMismatch).rule, Some("W-4"));
                ok(&mut g, 0, swap);
            }
        }
    }
}

#[test]
fn a_rummy_call_without_a_penalty_card_does_not_say_everyone_passed() {
    let mut g = in_profile(
        "liverpool-classic",
        json!({"round": 1, "active": 0, "phase": "play",
               "hands": [["7♣", "K♠"], ["3♥", "4♥"], ["9♣"], ["8♦"]],
               "stock": [], "discard": [],
               "table": [{"owner": 0, "cards": ["7♠", "7♥", "7♦"]}, {"owner": 0, "cards": ["9♠", "9♥", "9♦"]}],
               "down": [true, false, false, false]}),
    );
    ok(&mut g, 0, Action::Discard { card: cs("7♣")[0] });
    let e = refused(&mut g, 2, Action::CallRummy, ErrorCode::CallNotAllowed);
    assert_eq!(e.rule, Some("W-7"));
    assert!(!e.message.contains("everyone passed"), "{e}");
    assert!(e.message.contains("nobody was asked"), "{e}");
}

#[test]
fn a_custom_profile_l_contract_says_exactly_where_the_length_is_exact() {
    let mut l = RuleSet::liverpool();
    l.contracts[2] = Contract::from_melds(&[MeldSpec::with_min(MeldKind::Run, 7)], false).unwrap();
    l.validate().unwrap();
    assert_eq!(l.describe_contract(&l.contracts[2]), "1 run of exactly 7");
    let mut c = RuleSet::contract();
    c.contracts[2] = l.contracts[2];
    assert_eq!(c.describe_contract(&c.contracts[2]), "1 run of at least 7");
    let mut g = GameState::from_position_with_rules(
        &Position::from_value(json!({"round": 3, "active": 0, "phase": "play",
            "hands": [["3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "K♠"], ["3♠"], ["4♠"], ["5♠"]],
            "stock": ["6♦"], "discard": ["Q♥"]}))
        .unwrap(),
        Arc::new(l),
    )
    .unwrap();
    let e = refused(&mut g, 0, go_down(&["3♥ 4♥ 5♥ 6♥ 7♥ 8♥"]), ErrorCode::ContractNotMet);
    assert!(
        e.message.contains("1 run of exactly 7") && !e.message.contains("at least"),
        "{e}"
    );
    assert!(e.message.contains("has exactly 7"), "{e}");
}

#[test]
fn a_whole_hand_refusal_cites_l81_c6_and_shanghais_c8() {
    for (name, round, rule) in [
        ("liverpool", 7, "L-8.1"),
        ("contract", 7, "C-6"),
        ("liverpool-classic", 7, "L-8.1"),
        ("shanghai", 8, "C-8"),
    ] {
        let g = in_profile(
            name,
            json!({"round": round, "active": 0, "phase": "play",
                   "hands": [["3♥", "4♥", "5♥", "6♥", "K♠", "2♣"], ["3♠"], ["4♠"], ["5♠"]],
                   "stock": ["6♦"], "discard": ["Q♥"]}),
        );
        let e = checked(&g, 0, go_down(&["3♥ 4♥ 5♥ 6♥"]), ErrorCode::WholeHandRequired);
        assert_eq!(e.rule, Some(rule), "{name}: {e}");
    }
}

#[test]
fn a_snapshot_written_before_profile_existed_keeps_its_profile() {
    let g = in_profile(
        "liverpool-classic",
        json!({"round": 1, "active": 0, "phase": "draw",
        "hands": [["2♠"], ["3♠"], ["4♠"], ["5♠"]], "stock": ["6♦"], "discard": ["Q♥"]}),
    );
    let mut old: serde_json::Value = serde_json::from_str(&g.to_json()).unwrap();
    old["rules"].as_object_mut().unwrap().remove("profile");
    let back = GameState::from_json(&old.to_string()).unwrap();
    assert_eq!(back.rules().profile, crate::rules::Profile::W);
    assert_eq!(back, g);
}
