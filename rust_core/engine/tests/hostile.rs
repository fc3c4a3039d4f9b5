//! Issue 8: every reproducer of the hostile-input report, as a regression test. Each
//! one was accepted (or answered wrongly) before the fix; now it gets a typed refusal
//! (stable code, message id, rule id where a rule applies) or the right answer.

use liverpool_engine::card::parse_cards;
use liverpool_engine::game::{Action, GameState, Position};
use liverpool_engine::limits::MAX_INPUT_BYTES;
use liverpool_engine::rules::{RuleSet, MAX_CUT_BONUS, MAX_TURNS_PER_ROUND};
use liverpool_engine::search::{cached_pools, with_threads, MAX_CACHED_POOLS};
use liverpool_engine::sim::{check_batch, MAX_GAMES};
use liverpool_engine::{check_go_down, Error, ErrorCode, Meld};

fn load(json: &str) -> Result<GameState, Error> {
    GameState::from_position(&Position::from_json(json)?)
}

fn refused(json: &str) -> Error {
    match load(json) {
        Ok(g) => panic!("accepted an unreachable position: {}", g.to_position().to_json()),
        Err(e) => e,
    }
}

fn cards(text: &str) -> Vec<liverpool_engine::Card> {
    parse_cards(&text.split_whitespace().collect::<Vec<_>>()).unwrap()
}

// ----- defect 1: a round_over position in the last round ----------------------------

#[test]
fn round_over_in_the_last_round_is_refused() {
    // L-10.3: after the last round the game is over; next_round used to reach round 8
    // and panic reading its contract.
    let e = refused(r#"{"players":2,"round":7,"phase":"round_over","hands":[["2♣"],["4♣"]]}"#);
    assert_eq!((e.code, e.key), (ErrorCode::BadPosition, "position.round_over_last"));
    // The same position one round earlier is reachable and plays on.
    let mut g = load(r#"{"players":2,"round":6,"phase":"round_over","hands":[["2♣"],["4♣"]]}"#).unwrap();
    let seat = g.to_act().unwrap();
    g.apply(seat, &Action::NextRound).unwrap();
    assert_eq!(g.round(), 7);
    assert!(GameState::from_json(&g.to_json()).is_ok());
}

#[test]
fn game_over_before_the_last_round_is_refused() {
    let e = refused(r#"{"players":2,"round":3,"phase":"game_over","hands":[["2♣"],["4♣"]]}"#);
    assert_eq!(e.key, "position.game_over_early");
    assert!(load(r#"{"players":2,"round":7,"phase":"game_over","hands":[[],["4♣"]]}"#).is_ok());
}

// ----- defect 2: dead states ---------------------------------------------------------

#[test]
fn empty_hand_in_a_live_round_is_refused() {
    // L-5.6: emptying the hand goes out and ends the round.
    let e = refused(r#"{"players":2,"phase":"play","hands":[[],["4♣"]],"stock":["A♠"],"discard":["K♦"]}"#);
    assert_eq!(e.code, ErrorCode::BadPosition, "{e}");
    // liverpool-classic: an empty hand in draw led to a dead state after take_discard.
    // Under W-8 only a seat that is down floats (issue 17): not down, it is refused;
    // down, the position is reachable, and no legal action from it leads to a state
    // without a legal move.
    let e = refused(
        r#"{"profile":"liverpool-classic","players":3,"phase":"draw","hands":[[],["4♣"],["5♣"]],"stock":["A♠"],"discard":["K♦"]}"#,
    );
    assert_eq!(e.key, "position.empty_hand_not_down");
    let g = load(
        r#"{"profile":"liverpool-classic","players":3,"phase":"draw","hands":[[],["4♣"],["5♣"]],"stock":["A♠"],"discard":["K♦"],
            "table":[{"owner":0,"cards":["7♠","7♥","7♦"]},{"owner":0,"cards":["9♠","9♥","9♦"]}],"down":[true,false,false]}"#,
    )
    .unwrap();
    let legal = g.legal_actions(None);
    assert!(!legal.is_empty());
    for a in legal {
        let mut next = g.clone();
        next.apply(next.to_act().unwrap(), &a).unwrap();
        assert!(
            next.is_game_over() || !next.legal_actions(None).is_empty(),
            "{a:?} leads to a dead state"
        );
    }
    // Profile L: a seat with no cards waiting for its turn plays on (it draws, and may
    // discard what it drew to go out), so such a position loads and is not dead.
    let mut g =
        load(r#"{"players":2,"phase":"draw","hands":[["5♥","6♥"],[]],"stock":["A♠","2♠"],"discard":["K♦"]}"#).unwrap();
    for _ in 0..40 {
        if g.is_round_over() {
            break;
        }
        let legal = g.legal_actions(None);
        assert!(!legal.is_empty(), "a dead state: {}", g.to_position().to_json());
        g.apply(g.to_act().unwrap(), &legal[0]).unwrap();
    }
}

#[test]
fn every_loaded_live_state_has_a_legal_move() {
    for json in [
        r#"{"players":2,"phase":"play","hands":[["5♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"]}"#,
        r#"{"players":2,"phase":"draw","hands":[["5♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"]}"#,
        r#"{"players":2,"phase":"draw","hands":[["5♥"],["4♣"]],"stock":[],"discard":["K♦"]}"#,
    ] {
        let g = load(json).unwrap();
        assert!(!g.legal_actions(None).is_empty(), "{json}");
    }
}

// ----- defect 3: overflow ------------------------------------------------------------

#[test]
fn totals_near_the_integer_limit_are_refused() {
    let e = refused(
        r#"{"players":2,"phase":"draw","hands":[["5♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"],"totals":[2147483600,0]}"#,
    );
    assert_eq!(e.key, "position.score_range");
    let e = refused(
        r#"{"players":2,"phase":"draw","hands":[["5♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"],"totals":[-2147483648,0]}"#,
    );
    assert_eq!(e.key, "position.score_range");
}

#[test]
fn buys_beyond_the_limit_are_refused() {
    // L-6: every buy takes two cards of the deck (and C-5 limits them where it applies).
    let limit = 3;
    let e = refused(&format!(
        r#"{{"players":2,"phase":"draw","hands":[["5♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"],"buys":[{},0]}}"#,
        255
    ));
    assert_eq!(e.key, "position.buys_range");
    let ok = format!(
        r#"{{"players":2,"phase":"draw","hands":[["5♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"],"buys":[{limit},0]}}"#
    );
    assert!(load(&ok).is_ok());
}

#[test]
fn a_turn_count_at_the_safeguard_is_refused() {
    // L-9.3: the turn that reaches max_turns_per_round ends the round.
    let e = refused(
        r#"{"players":2,"phase":"play","hands":[["5♥","6♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"],"turn":4294967295}"#,
    );
    assert_eq!(e.key, "position.turn_range");
    let max = RuleSet::liverpool().max_turns_per_round;
    let json = format!(
        r#"{{"players":2,"phase":"play","hands":[["5♥","6♥"],["4♣"]],"stock":["A♠"],"discard":["K♦"],"turn":{}}}"#,
        max - 1
    );
    let mut g = load(&json).unwrap();
    // The last allowed turn ends the round with no winner (no wrap to turn 0).
    g.apply(0, &Action::Discard { card: cards("5♥")[0] }).unwrap();
    assert!(g.is_round_over());
    assert_eq!(g.turn(), max);
}

#[test]
fn cut_bonus_out_of_range_is_refused() {
    let e = RuleSet::from_json(r#"{"base":"liverpool","cut_bonus":-2147483648}"#).unwrap_err();
    assert_eq!((e.code, e.rule), (ErrorCode::InvalidRules, Some("L-2.3")));
    let ok = RuleSet::from_json(&format!(r#"{{"base":"liverpool","cut_bonus":-{MAX_CUT_BONUS}}}"#));
    assert!(ok.is_ok());
}

// ----- defect 4: rule sets out of range ----------------------------------------------

#[test]
fn too_many_rounds_are_refused() {
    for rounds in [256usize, 300] {
        let mut rules = RuleSet::liverpool();
        let (c, d) = (rules.contracts[0], rules.deal_sizes[0]);
        rules.contracts = vec![c; rounds];
        rules.deal_sizes = vec![d; rounds];
        let e = RuleSet::from_json(&rules.to_json()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRules, "{rounds} rounds");
        let e = RuleSet::from_toml(&rules.to_toml()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRules, "{rounds} rounds (TOML)");
    }
}

#[test]
fn max_turns_out_of_range_is_refused() {
    let e = RuleSet::from_json(r#"{"base":"liverpool","max_turns_per_round":4294967295}"#).unwrap_err();
    assert_eq!((e.code, e.rule), (ErrorCode::InvalidRules, Some("L-9.3")));
    let ok = format!(r#"{{"base":"liverpool","max_turns_per_round":{MAX_TURNS_PER_ROUND}}}"#);
    assert!(RuleSet::from_json(&ok).is_ok());
}

// ----- defect 5: resources -----------------------------------------------------------

#[test]
fn thread_pools_are_bounded() {
    for n in 1..=MAX_CACHED_POOLS + 5 {
        assert_eq!(with_threads(Some(n), rayon::current_num_threads).unwrap(), n);
    }
    assert!(cached_pools().len() <= MAX_CACHED_POOLS);
}

#[test]
fn the_batch_limit_is_the_whole_batch() {
    assert_eq!(check_batch(u64::MAX).unwrap_err().code, ErrorCode::BatchTooLarge);
    assert!(check_batch(MAX_GAMES).is_ok());
}

#[test]
fn oversized_inputs_are_refused_before_parsing() {
    let big = format!("{{\"pad\":\"{}\"}}", "x".repeat(MAX_INPUT_BYTES));
    let e = Position::from_json(&big).unwrap_err();
    assert_eq!((e.code, e.key), (ErrorCode::BadPosition, "input.too_large"));
    let report = liverpool_engine::game::run_scenario(&big);
    assert!(report.failure.unwrap().contains("limit"));
}

#[test]
fn copy_counts_in_messages_do_not_saturate() {
    let mut counts = [0u32; 53];
    counts[0] = 300;
    let e = RuleSet::liverpool()
        .check_copies_wide(&counts, 4, "the hand")
        .unwrap_err();
    assert!(e.message.contains("300"), "{}", e.message);
}

// ----- defect 6: meld APIs and the deck's copy limit (L-1.2) --------------------------

#[test]
fn go_down_respects_the_copy_limit() {
    let rules = RuleSet::liverpool();
    let groups = vec![cards("7S 7S 7S"), cards("7S 7S 7S")];
    let e = check_go_down(&groups, &rules.contracts[0], &rules).unwrap_err();
    assert_eq!((e.code, e.rule), (ErrorCode::TooManyCopies, Some("L-1.2")));
}

#[test]
fn a_meld_respects_the_copy_limit() {
    let rules = RuleSet::liverpool();
    let e = Meld::set(&vec![cards("7S")[0]; 1_000_000], &rules).unwrap_err();
    assert_eq!((e.code, e.rule), (ErrorCode::TooManyCopies, Some("L-1.2")));
    assert!(e.message.contains("1000000"));
    // L-4.1: duplicates within the deck are fine.
    assert!(Meld::set(&cards("7S 7S 7H"), &rules).is_ok());
}

// ----- issue 17: positions play cannot reach, in every profile ----------------------

/// A position (round 2, seat 0 to draw; seats 0 and 2 are down) in `profile`, with
/// the fields of the JSON object `changes` replacing its own.
fn w_position(profile: &str, changes: &str) -> String {
    let mut base: serde_json::Value = serde_json::from_str(
        r#"{"round":2,"dealer":3,"active":0,"phase":"draw",
        "hands":[["7♣","K♠","2♦"],["3♥","4♥"],["9♣","6♠","6♣"],["8♦","8♠"]],
        "stock":["10♦","J♦","Q♦"],"discard":["4♣"],
        "table":[{"owner":0,"cards":["7♠","7♥","7♦"]},{"owner":0,"cards":["9♠","9♥","9♦"]},{"owner":2,"cards":["K♥","K♦","K♣"]}],
        "down":[true,false,true,false],"totals":[10,20,30,40]}"#,
    )
    .unwrap();
    base["profile"] = profile.into();
    let changes: serde_json::Value = serde_json::from_str(&format!("{{{changes}}}")).unwrap();
    for (key, value) in changes.as_object().unwrap() {
        base[key.as_str()] = value.clone();
    }
    base.to_string()
}

#[test]
fn issue_17_unreachable_positions_are_refused() {
    let cases = [
        (
            "liverpool-classic",
            r#""hands":[["7♣"],[],["9♣"],["8♦"]]"#,
            "position.empty_hand_not_down",
        ),
        (
            "liverpool-classic",
            r#""penalties":[-50,0,0,0]"#,
            "position.penalty_value",
        ),
        (
            "liverpool-classic",
            r#""penalties":[0,30,0,0]"#,
            "position.penalty_value",
        ),
        ("liverpool", r#""penalties":[0,50,0,0]"#, "position.penalty_profile"),
        (
            "liverpool",
            r#""phase":"play","taken_discard":"K♠""#,
            "position.taken_discard_profile",
        ),
        ("liverpool", r#""round_scores":[0,5,0,0]"#, "position.unset_field"),
        ("liverpool", r#""winner":1"#, "position.unset_field"),
        ("liverpool", r#""cut_bonus":0"#, "position.cut_bonus_seat"),
        ("shanghai", r#""cut_bonus":2"#, "position.cut_bonus_off"),
        ("no-buy", r#""buys":[0,1,0,0]"#, "position.buys_range"),
    ];
    for (profile, extra, key) in cases {
        let e = refused(&w_position(profile, extra));
        assert_eq!((e.code, e.key), (ErrorCode::BadPosition, key), "{profile} {extra}: {e}");
    }
    // Their reachable neighbours load.
    for (profile, extra) in [
        ("liverpool-classic", r#""penalties":[0,100,0,0]"#),
        ("liverpool-classic", r#""phase":"play","taken_discard":"K♠""#),
        (
            "liverpool-classic",
            r#""hands":[[],["3♥","4♥"],["9♣"],["8♦"]],"active":1"#,
        ),
        ("liverpool", r#""cut_bonus":2"#),
        ("shanghai", r#""buys":[0,3,0,0]"#),
    ] {
        assert!(load(&w_position(profile, extra)).is_ok(), "{profile} {extra}");
    }
}

#[test]
fn issue_17_the_engine_records_the_taken_card_only_under_w8() {
    for (profile, recorded) in [("liverpool", false), ("liverpool-classic", true)] {
        let mut g = load(&w_position(profile, "")).unwrap();
        g.apply(0, &Action::TakeDiscard).unwrap();
        assert_eq!(g.taken_discard().is_some(), recorded, "{profile}");
        // Every state the engine reaches writes a position that loads again.
        let back = GameState::from_position(&g.to_position()).unwrap();
        assert_eq!(back.to_position(), g.to_position());
    }
}
