//! Shared pieces of the fuzz targets (`tests/fuzz_*.rs`, docs/guarantees.md): the case
//! count, random play mixing legal and illegal actions, and the invariants checked
//! after every step.
//!
//! The number of inputs per target is `LIVERPOOL_FUZZ_CASES` (default: a bounded CI
//! run). A long run: `LIVERPOOL_FUZZ_CASES=20000 cargo test --release -p
//! liverpool-engine --test fuzz_positions` (and the other `fuzz_*` targets).
#![allow(dead_code)]

use liverpool_engine::card::{Card, CARD_KINDS};
use liverpool_engine::game::{Action, GameState};
use liverpool_engine::meld::End;
use liverpool_engine::rng::Rng;
use proptest::test_runner::Config;

/// The proptest configuration of a target: `LIVERPOOL_FUZZ_CASES` cases, else `default`.
pub fn config(default: u32) -> Config {
    let cases = std::env::var("LIVERPOOL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    Config {
        cases,
        // Inputs are seeds and byte strings: shrinking is cheap, keep it short.
        max_shrink_iters: 256,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Every card the state holds (hands, stock, discard pile, table).
pub fn card_count(g: &GameState) -> usize {
    let p = g.to_position();
    p.hands.iter().map(Vec::len).sum::<usize>()
        + p.stock.len()
        + p.discard.len()
        + p.table.iter().map(|m| m.cards.len()).sum::<usize>()
}

/// A card from a byte (any id, jokers included).
pub fn card_of(b: u8) -> Card {
    Card::from_id(b % CARD_KINDS as u8).expect("id in range")
}

/// An arbitrary action, legal or not, built from random numbers.
pub fn random_action(rng: &mut Rng) -> Action {
    let card = |rng: &mut Rng| card_of(rng.below(256) as u8);
    let cards = |rng: &mut Rng| (0..rng.below(5)).map(|_| card(rng)).collect::<Vec<_>>();
    let end = |rng: &mut Rng| match rng.below(3) {
        0 => None,
        1 => Some(End::Low),
        _ => Some(End::High),
    };
    match rng.below(13) {
        0 => Action::Cut {
            size: match rng.below(4) {
                0 => None,
                1 => Some(i64::MIN + rng.below(3) as i64),
                2 => Some(i64::MAX - rng.below(3) as i64),
                _ => Some(rng.below(140) as i64 - 10),
            },
        },
        1 => Action::TakeDiscard,
        2 => Action::DeclineDiscard,
        3 => Action::Buy,
        4 => Action::Pass,
        5 => Action::DrawStock,
        6 => Action::GoDown {
            melds: (0..rng.below(5)).map(|_| cards(rng)).collect(),
        },
        7 => Action::LayOff {
            meld: rng.below(8) as usize,
            cards: cards(rng),
            end: end(rng),
        },
        8 => Action::SwapJoker {
            meld: rng.below(8) as usize,
            card: card(rng),
            to_meld: rng.below(8) as usize,
            end: end(rng),
        },
        9 => Action::Discard { card: card(rng) },
        10 => Action::NextRound,
        11 => Action::CallRummy,
        _ => Action::CallLiverpool {
            meld: rng.below(8) as usize,
            end: end(rng),
        },
    }
}

/// The invariants of a state the engine accepted: it is over or someone may act,
/// and its JSON reads back as exactly the same state.
pub fn check_state(g: &GameState) {
    if !g.is_game_over() {
        assert!(
            !g.legal_actions(None).is_empty(),
            "a live state with no legal move: {}",
            g.to_position().to_json()
        );
    }
    let json = g.to_json();
    let back = GameState::from_json(&json).unwrap_or_else(|e| panic!("{e}: the state's own JSON is refused: {json}"));
    assert_eq!(back.to_json(), json, "JSON round trip changed the state");
}

/// Play up to `steps` steps from `g`: mostly legal moves, sometimes an arbitrary
/// action (usually refused) or a legal move by the wrong seat. Checks after every
/// step: a refused action changes nothing; cards are conserved within a round (a new
/// round deals a whole deck); the state invariants hold.
pub fn play(g: &mut GameState, rng: &mut Rng, steps: usize) -> (usize, usize) {
    let (mut applied, mut refused) = (0, 0);
    for _ in 0..steps {
        if g.is_game_over() {
            break;
        }
        let seat = g.to_act().expect("a live state has a seat to act");
        let legal = g.legal_actions(None);
        let (seat, action) = match rng.below(10) {
            0..=1 => (rng.below(g.players() as u32 + 1) as usize, random_action(rng)),
            2 => (
                (seat + 1 + rng.below(g.players() as u32 - 1) as usize) % g.players(),
                legal[0].clone(),
            ),
            _ => (seat, legal[rng.below(legal.len() as u32) as usize].clone()),
        };
        let before = g.to_json();
        let cards = card_count(g);
        let players = g.players();
        match g.apply(seat, &action) {
            Ok(_) => {
                applied += 1;
                if action == Action::NextRound {
                    assert_eq!(
                        card_count(g),
                        g.rules().deck_size(players as u8),
                        "a new round deals one deck"
                    );
                } else {
                    assert_eq!(card_count(g), cards, "{action:?} by {seat} changed the number of cards");
                }
                check_state(g);
            }
            Err(e) => {
                refused += 1;
                assert!(!e.message.is_empty());
                // W-9: a refused go-down costs its penalty (and changes nothing else).
                let charged = g.rules().failed_go_down_penalty > 0 && matches!(action, Action::GoDown { .. });
                if !charged {
                    assert_eq!(
                        g.to_json(),
                        before,
                        "refused {action:?} by {seat} ({e}) changed the state"
                    );
                }
                assert!(
                    legal.iter().all(|a| *a != action) || seat != g.to_act().unwrap(),
                    "a legal action was refused: {action:?} ({e})"
                );
            }
        }
    }
    (applied, refused)
}

/// A hostile JSON value: extremes, wrong types, empty and long containers.
pub fn nasty_value(rng: &mut Rng) -> serde_json::Value {
    use serde_json::json;
    match rng.below(16) {
        0 => json!(null),
        1 => json!(true),
        2 => json!(-1),
        3 => json!(0),
        4 => json!(u32::MAX),
        5 => json!(u64::MAX),
        6 => json!(i64::MIN),
        7 => json!(i32::MAX),
        8 => json!(255),
        9 => json!(256),
        10 => json!("7♠"),
        11 => json!(""),
        12 => json!([]),
        13 => json!({}),
        14 => json!(rng.below(20)),
        _ => json!(1.5),
    }
}

/// Every path to a leaf or container of `v` (object keys and array indexes).
pub fn paths(v: &serde_json::Value, prefix: &mut Vec<serde_json::Value>, out: &mut Vec<Vec<serde_json::Value>>) {
    out.push(prefix.clone());
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                prefix.push(serde_json::Value::String(k.clone()));
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                prefix.push(serde_json::Value::from(i));
                paths(x, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut serde_json::Value, path: &[serde_json::Value]) -> Option<&'a mut serde_json::Value> {
    let mut cur = v;
    for p in path {
        cur = match p {
            serde_json::Value::String(k) => cur.get_mut(k.as_str())?,
            serde_json::Value::Number(i) => cur.get_mut(i.as_u64()? as usize)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Apply `count` random mutations to `v`: replace a node with a hostile value, nudge
/// a number, delete an entry, duplicate an array element, or swap two array elements.
pub fn mutate(v: &mut serde_json::Value, rng: &mut Rng, count: usize) {
    for _ in 0..count {
        let mut all = Vec::new();
        paths(v, &mut Vec::new(), &mut all);
        let path = all[rng.below(all.len() as u32) as usize].clone();
        let kind = rng.below(6);
        let Some(node) = at(v, &path) else { continue };
        match kind {
            0 | 1 => *node = nasty_value(rng),
            2 => {
                if let Some(n) = node.as_i64() {
                    *node = serde_json::Value::from(n.saturating_add(rng.below(5) as i64 - 2));
                } else {
                    *node = nasty_value(rng);
                }
            }
            3 => match node {
                serde_json::Value::Object(m) if !m.is_empty() => {
                    let k = m
                        .keys()
                        .nth(rng.below(m.len() as u32) as usize)
                        .cloned()
                        .expect("non-empty");
                    m.remove(&k);
                }
                serde_json::Value::Array(a) if !a.is_empty() => {
                    a.remove(rng.below(a.len() as u32) as usize);
                }
                _ => *node = nasty_value(rng),
            },
            4 => {
                if let serde_json::Value::Array(a) = node {
                    if !a.is_empty() {
                        let x = a[rng.below(a.len() as u32) as usize].clone();
                        a.push(x);
                    }
                }
            }
            _ => {
                if let serde_json::Value::Array(a) = node {
                    if a.len() >= 2 {
                        let (i, j) = (rng.below(a.len() as u32) as usize, rng.below(a.len() as u32) as usize);
                        a.swap(i, j);
                    }
                }
            }
        }
    }
}
