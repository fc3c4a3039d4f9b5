//! Tests of the contract search: worked examples checked by hand against RULES.md, and
//! a brute-force oracle (every combination of melds, each validated by `meld.rs`, no
//! pruning) that the pruned search must agree with exactly on random hands.

use super::*;
use crate::card::parse_cards;
use crate::meld::{adjacent_same_suit_runs, check_go_down, MeldKind};
use crate::rng::Rng;
use crate::rules::MeldSpec;
use dfs::{BestKey, Exists, Found, MaxPoints, Scratch};

fn hand(s: &str) -> CardCounts {
    CardCounts::from_cards(&parse_cards(&s.split_whitespace().collect::<Vec<_>>()).unwrap())
}
fn l() -> RuleSet {
    RuleSet::liverpool()
}
fn round(rules: &RuleSet, r: u8) -> Contract {
    rules.contract_for(r).unwrap()
}
fn texts(melds: &[Meld]) -> Vec<String> {
    melds.iter().map(|m| m.to_string()).collect()
}

// ---------------------------------------------------------------------------------
// Worked examples

#[test]
fn l11_worked_example_goes_down_with_the_two_sets() {
    // L-11: 7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ takes 7♦ in round 1.
    let h = hand("7S 7H 9S 9H 9D 3C 4C 5C 8D AH 7D");
    let best = best_go_down(&h, &round(&l(), 1), &l()).unwrap();
    assert_eq!(texts(&best.melds), ["7♠ 7♥ 7♦", "9♠ 9♥ 9♦"]);
    assert_eq!(best.left, hand("3C 4C 5C 8D AH"));
    assert_eq!(best.points_left, 3 + 4 + 5 + 8 + 15); // L-10.1
    assert!(has_contract(&h, &round(&l(), 1), &l()));
    // Before taking 7♦ there is only one set.
    assert!(!has_contract(
        &hand("7S 7H 9S 9H 9D 3C 4C 5C 8D AH"),
        &round(&l(), 1),
        &l()
    ));
}

#[test]
fn l44_same_suit_runs_must_overlap_or_leave_a_gap() {
    // The hand of the L-4.4 conformance scenario. 3-6♥ with 7-10♥ would leave only
    // 5♥ 6♥ K♠ (21) but the runs touch; the best legal go-down overlaps at 6♥.
    let h = hand("3H 4H 5H 6H 7H 8H 9H TH 5H 6H KS");
    let best = best_go_down(&h, &round(&l(), 3), &l()).unwrap();
    assert_eq!(texts(&best.melds), ["3♥ 4♥ 5♥ 6♥", "6♥ 7♥ 8♥ 9♥"]);
    assert_eq!(best.left, hand("5H TH KS"));
    assert_eq!(best.points_left, 25);
    // No go-down of all of them has touching runs.
    for g in all_go_downs(&h, &round(&l(), 3), &l(), 100) {
        let runs: Vec<&Meld> = g.melds.iter().collect();
        assert_eq!(adjacent_same_suit_runs(&runs), None, "{:?}", texts(&g.melds));
    }
    // Without L-4.4 the adjacent runs are the best.
    let no_gap = RuleSet {
        same_suit_runs_need_gap: false,
        ..l()
    };
    let best = best_go_down(&h, &round(&no_gap, 3), &no_gap).unwrap();
    assert_eq!(texts(&best.melds), ["3♥ 4♥ 5♥ 6♥", "7♥ 8♥ 9♥ 10♥"]);
    assert_eq!(best.points_left, 5 + 6 + 10);
}

#[test]
fn l44_a_joker_counts_where_it_stands() {
    // 3-6♥ and JK 8♥ 9♥ 10♥ (the joker is 7♥) touch; with the joker as J♥ they leave a gap.
    let h = hand("3H 4H 5H 6H JK 8H 9H TH");
    let all = all_go_downs(&h, &round(&l(), 3), &l(), 100);
    let listed: Vec<Vec<String>> = all.iter().map(|g| texts(&g.melds)).collect();
    assert!(!listed.contains(&vec!["3♥ 4♥ 5♥ 6♥".to_string(), "JK 8♥ 9♥ 10♥".to_string()]));
    assert!(listed.contains(&vec!["3♥ 4♥ 5♥ 6♥".to_string(), "8♥ 9♥ 10♥ JK".to_string()]));
}

#[test]
fn aces_are_low_or_high_but_never_wrap() {
    // L-4.3: A-4♥ uses the ace low, J-A♠ high.
    let h = hand("AH 2H 3H 4H JS QS KS AS 5D");
    let best = best_go_down(&h, &round(&l(), 3), &l()).unwrap();
    // Runs are listed by card-id tuple, and spades come first (J♠ is id 10, A♥ id 13).
    assert_eq!(texts(&best.melds), ["J♠ Q♠ K♠ A♠", "A♥ 2♥ 3♥ 4♥"]);
    assert_eq!(best.melds[0].span(), Some((11, 14)));
    assert_eq!(best.melds[1].span(), Some((1, 4)));
    // K-A-2 is never a run, so Q♥ K♥ A♥ 2♥ 3♥ holds no run of four.
    let wrap = hand("QH KH AH 2H 3H 7S 7D 7C");
    assert!(!has_contract(&wrap, &round(&l(), 2), &l()));
    // With a joker for J♥ it does: J-A♥ high.
    let with_joker = hand("QH KH AH 2H 3H 7S 7D 7C JK");
    let best = best_go_down(&with_joker, &round(&l(), 2), &l()).unwrap();
    assert_eq!(best.melds[1].span(), Some((11, 14)));
}

#[test]
fn both_aces_of_a_suit_make_the_full_run() {
    // L-4.3 Decision: A-2-...-K-A is one run of 14 (whole-hand contracts allow any length).
    let rules = RuleSet {
        contracts: vec![Contract::new(0, 1).whole_hand()],
        deal_sizes: vec![13],
        ..l()
    };
    let h = hand("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH");
    let best = best_go_down(&h, &rules.contracts[0], &rules).unwrap();
    assert_eq!(best.melds[0].span(), Some((1, 14)));
    // One ace is not enough for both ends.
    let short = hand("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH");
    let only = all_go_downs(&short, &rules.contracts[0], &rules, 10);
    assert_eq!(only.len(), 2); // ace low (A-K) or ace high (2-A)
}

#[test]
fn round_7_needs_the_whole_hand_as_three_runs() {
    let c7 = round(&l(), 7);
    // 13 cards: A-4♠, 5-9♥ (five cards: L-8.2 allows longer runs), 10-K♦.
    let yes = hand("AS 2S 3S 4S 5H 6H 7H 8H 9H TD JD QD KD");
    let best = best_go_down(&yes, &c7, &l()).unwrap();
    assert_eq!(texts(&best.melds), ["A♠ 2♠ 3♠ 4♠", "5♥ 6♥ 7♥ 8♥ 9♥", "10♦ J♦ Q♦ K♦"]);
    assert_eq!(best.left.total(), 0);
    assert_eq!(best.points_left, 0);
    // One stray card and there is no partition.
    let no = hand("AS 2S 3S 4S 5H 6H 7H 8H 9H TD JD QD 5C");
    assert!(!has_contract(&no, &c7, &l()));
    assert_eq!(best_go_down(&no, &c7, &l()), None);
    // L-4.4 holds in round 7 too: 3-6♥ 7-10♥ touch, so these 12 hearts are no go-down…
    let touching = hand("3H 4H 5H 6H 7H 8H 9H TH 2S 3S 4S 5S");
    assert!(!has_contract(&touching, &c7, &l()));
    // …unless the rule is off (A joker-free hand of three runs with touching hearts).
    let no_gap = RuleSet {
        same_suit_runs_need_gap: false,
        ..l()
    };
    assert!(has_contract(&touching, &c7, &no_gap));
}

#[test]
fn outs_of_a_hand_one_card_short() {
    // The L-11 hand before the 7♦: one more 7 (any suit) or a joker makes the second set.
    let h = hand("7S 7H 9S 9H 9D 3C 4C 5C 8D AH");
    let seen = hand("7C");
    let got = outs(&h, &round(&l(), 1), &l(), &seen, 4);
    let want: Vec<(Card, u8)> = vec![
        (Card::parse("7S").unwrap(), 1), // 2 copies, 1 in hand
        (Card::parse("7H").unwrap(), 1),
        (Card::parse("7D").unwrap(), 2),
        (Card::parse("7C").unwrap(), 1), // 1 seen
        (Card::JOKER, 3),                // L-1.2: 3 jokers
    ];
    assert_eq!(got, want);
    // A hand that already holds the contract has no outs.
    assert!(outs(
        &hand("7S 7H 7D 9S 9H 9D"),
        &round(&l(), 1),
        &l(),
        &CardCounts::default(),
        4
    )
    .is_empty());
}

#[test]
fn round_7_outs_of_a_hand_that_already_makes_three_runs() {
    // L-8.1: with 12 cards that already make three runs, the 13th card drawn must keep
    // a whole-hand arrangement: it extends a run (or is a joker).
    let h = hand("3H 4H 5H 6H 8S 9S TS JS 2D 3D 4D 5D");
    let c7 = round(&l(), 7);
    assert!(has_contract(&h, &c7, &l()));
    let got: Vec<String> = outs(&h, &c7, &l(), &CardCounts::default(), 4)
        .iter()
        .map(|(c, n)| format!("{c}x{n}"))
        .collect();
    assert_eq!(got, ["7♠x2", "Q♠x2", "2♥x2", "7♥x2", "A♦x2", "6♦x2", "JKx3"]);
    for (card, _) in outs(&h, &c7, &l(), &CardCounts::default(), 4) {
        let mut more = h;
        more.0[card.id() as usize] += 1;
        assert!(has_contract(&more, &c7, &l()), "{card}");
    }
}

#[test]
fn custom_contracts_give_each_meld_its_own_length() {
    // C-8: "round 3: one run of 7" on top of profile C.
    let mut rules = RuleSet::contract();
    rules.contracts[2] = Contract::from_melds(&[MeldSpec::with_min(MeldKind::Run, 7)], false).unwrap();
    let c = rules.contracts[2];
    assert!(!has_contract(&hand("3H 4H 5H 6H 7H 8H KS QD"), &c, &rules));
    let best = best_go_down(&hand("3H 4H 5H 6H 7H 8H 9H KS"), &c, &rules).unwrap();
    assert_eq!(texts(&best.melds), ["3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥"]);
    // A longer run fills it too (C-4: longer melds allowed).
    let eight = best_go_down(&hand("3H 4H 5H 6H 7H 8H 9H TH KS"), &c, &rules).unwrap();
    assert_eq!(eight.melds[0].len(), 8);
    // In profile L (opening melds of exactly their size) a run of 7 is exactly 7.
    let mut l7 = l();
    l7.contracts[2] = c;
    let exact = best_go_down(&hand("3H 4H 5H 6H 7H 8H 9H TH KS"), &c, &l7).unwrap();
    assert_eq!(exact.melds[0].len(), 7);
    assert_eq!(texts(&exact.melds), ["4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥"]);
}

#[test]
fn california_queens_are_wild_and_named_in_id_order() {
    // C-8 California: every queen is wild, exactly as a joker; the melds take the
    // hand's wild cards in id order and the rest stay in hand.
    let rules = RuleSet::california();
    let c1 = round(&rules, 1);
    let best = best_go_down(&hand("7S 7H QD 9S 9H QC QS 3C"), &c1, &rules).unwrap();
    // C-4: melds may be longer, so the third queen (25 points) goes down too; of the
    // two equal go-downs the smaller melds list puts it in the second set.
    assert_eq!(texts(&best.melds), ["7♠ 7♥ Q♠", "9♠ 9♥ Q♦ Q♣"]);
    assert_eq!(format_cards(&best.left.to_cards()), "3♣");
    assert_eq!(best.points_left, 5);
    // Queens are never naturals: no set of queens, and a queen in a run stands where it is.
    assert!(!has_contract(&hand("QS QH QD QC 9S"), &c1, &rules));
    let queens = parse_cards(&["QS", "QH", "QD"]).unwrap();
    assert_eq!(Meld::set(&queens, &rules).unwrap_err().code, ErrorCode::InvalidMeld);
    let c2 = round(&rules, 2);
    let run = best_go_down(&hand("9H TH JH QH 4S 4D 4C"), &c2, &rules).unwrap();
    assert_eq!(texts(&run.melds), ["4♠ 4♦ 4♣", "9♥ 10♥ J♥ Q♥"]);
    assert_eq!(run.melds[1].joker_stands_for(3), Some(Card::parse("QH").unwrap()));
}

#[test]
fn shanghai_round_8_is_three_sets_and_a_run_as_the_whole_hand() {
    let rules = RuleSet::shanghai();
    let c8 = round(&rules, 8);
    let h = hand("5S 5H 5D 8S 8H 8C KS KH KD 2C 3C 4C 5C");
    let best = best_go_down(&h, &c8, &rules).unwrap();
    assert_eq!(texts(&best.melds), ["5♠ 5♥ 5♦", "8♠ 8♥ 8♣", "K♠ K♥ K♦", "2♣ 3♣ 4♣ 5♣"]);
    assert!(best.left.total() == 0);
    // A card that fits no meld breaks the whole hand (no discard in this round).
    let mut more = h;
    more.0[Card::parse("JD").unwrap().id() as usize] += 1;
    assert!(!has_contract(&more, &c8, &rules));
    // Longer melds absorb extra cards (C-4).
    let mut longer = h;
    longer.0[Card::parse("KC").unwrap().id() as usize] += 1;
    assert!(has_contract(&longer, &c8, &rules));
}

#[test]
fn all_go_downs_says_when_it_stopped_at_its_limit() {
    let h = hand("7S 7H 7D 7C 9S 9H 9D");
    let c1 = round(&l(), 1);
    let every = all_go_downs_limited(&h, &c1, &l(), 100);
    assert_eq!((every.go_downs.len(), every.truncated), (4, false));
    let cut = all_go_downs_limited(&h, &c1, &l(), 3);
    assert_eq!((cut.go_downs.len(), cut.truncated), (3, true));
    assert_eq!(cut.go_downs[..], every.go_downs[..3]);
    let exact = all_go_downs_limited(&h, &c1, &l(), 4);
    assert!(!exact.truncated);
    assert!(all_go_downs_limited(&h, &c1, &l(), 0).truncated);
    assert!(!all_go_downs_limited(&hand("7S 7H"), &c1, &l(), 0).truncated);
}

#[test]
fn search_agrees_with_the_brute_force_oracle_custom_contracts() {
    // C-8 custom contracts: per-meld lengths, several lengths of one kind (the search
    // may meet a go-down twice and must list it once), whole-hand with sets.
    let custom = |melds: &[MeldSpec], whole_hand: bool, base: RuleSet| {
        let mut rules = base;
        rules.contracts = vec![Contract::from_melds(melds, whole_hand).unwrap()];
        rules.deal_sizes = vec![12];
        rules
    };
    let run = |n| MeldSpec::with_min(MeldKind::Run, n);
    let set = |n| MeldSpec::with_min(MeldKind::Set, n);
    let cases = [
        custom(&[run(7)], false, RuleSet::contract()),
        custom(&[run(5), MeldSpec::run()], false, RuleSet::contract()),
        custom(&[set(4), MeldSpec::set(), MeldSpec::run()], false, RuleSet::contract()),
        custom(&[run(5), MeldSpec::run()], false, l()),
        custom(&[set(4), run(5)], true, RuleSet::contract()),
        custom(&[run(6), run(4)], false, RuleSet::california()),
        RuleSet {
            contracts: vec![round(&RuleSet::shanghai(), 8)],
            deal_sizes: vec![12],
            ..RuleSet::shanghai()
        },
    ];
    for (n, rules) in cases.iter().enumerate() {
        let contract = rules.contracts[0];
        let mut rng = Rng::from_seed(40 + n as u64);
        let mut held = 0;
        for i in 0..60 {
            let size = if contract.whole_hand {
                12 + rng.below(2) as usize
            } else {
                8 + rng.below(4) as usize
            };
            let h = match i % 3 {
                0 => crowded_hand(&mut rng, rules, size),
                1 => random_hand(&mut rng, rules, size, true),
                // A whole hand is planted with nothing else (else it rarely partitions).
                _ => planted_hand(&mut rng, rules, &contract, if contract.whole_hand { 0 } else { size }),
            };
            held += check_against_oracle(&h, &contract, rules) as usize;
        }
        assert!(
            held >= 3,
            "case {n} ({}): only {held} hands held it",
            contract.describe()
        );
    }
}

#[test]
fn best_arrangement_small_hands_by_hand() {
    // Run 5-8♥ (deadwood 8♠ 8♦ = 16) beats set 8♠ 8♥ 8♦ (deadwood 5 6 7 = 18).
    let a = best_arrangement(&hand("5H 6H 7H 8H 8S 8D"), &l());
    assert_eq!(texts(&a.melds), ["5♥ 6♥ 7♥ 8♥"]);
    assert_eq!(a.deadwood, hand("8S 8D"));
    assert_eq!(a.points, 16);
    // With 8♣ both melds fit: no deadwood.
    let a = best_arrangement(&hand("5H 6H 7H 8H 8S 8D 8C"), &l());
    assert_eq!(texts(&a.melds), ["8♠ 8♦ 8♣", "5♥ 6♥ 7♥ 8♥"]);
    assert_eq!(a.points, 0);
    // Six sevens: one set of six beats two sets of three (fewest melds).
    let a = best_arrangement(&hand("7S 7H 7D 7C 7S 7H"), &l());
    assert_eq!(texts(&a.melds), ["7♠ 7♠ 7♥ 7♥ 7♦ 7♣"]);
    // Nothing melds: everything is deadwood (A♠ K♦ 4♥ of L-11 scores 29).
    let a = best_arrangement(&hand("AS KD 4H"), &l());
    assert!(a.melds.is_empty());
    assert_eq!(a.points, 29);
    // A run may be longer than 4, and jokers go where they cut most deadwood.
    let a = best_arrangement(&hand("5H 6H 7H 8H 9H JK 2C"), &l());
    assert_eq!(a.points, 2);
    assert_eq!(deadwood(&hand("5H 6H 7H 8H 9H JK 2C"), &l()), 2);
}

#[test]
fn a_joker_may_stand_where_a_natural_is_available() {
    // 2♥ 3♥ 4♥ 5♥ JK, round 3 needs two runs: none. Round 2 (set + run) with 9s:
    // JK 3♥ 4♥ 5♥ (joker as 2♥) or 3♥ 4♥ 5♥ JK leave the 2♥ (2 points), better than
    // leaving the joker (15).
    let h = hand("2H 3H 4H 5H JK 9S 9D 9C");
    let best = best_go_down(&h, &round(&l(), 2), &l()).unwrap();
    assert_eq!(best.points_left, 2);
    assert_eq!(best.left, hand("2H"));
    // Tie between JK 3♥ 4♥ 5♥ (ids 52,..) and 3♥ 4♥ 5♥ JK: the smaller tuple wins.
    assert_eq!(texts(&best.melds), ["9♠ 9♦ 9♣", "3♥ 4♥ 5♥ JK"]);
}

#[test]
fn profiles_with_longer_opening_melds() {
    // Profile C: sets of 3+ and runs of 4+ at go-down (C-4), so a long run takes more cards.
    let c = RuleSet::contract();
    let h = hand("4S 5S 6S 7S 8S 9S KH KD KC KS 2D");
    let best = best_go_down(&h, &round(&c, 2), &c).unwrap();
    assert_eq!(texts(&best.melds), ["K♠ K♥ K♦ K♣", "4♠ 5♠ 6♠ 7♠ 8♠ 9♠"]);
    assert_eq!(best.left, hand("2D"));
    // Profile W: a run needs 3 naturals in its first 4 cards (W-4).
    let w = RuleSet::liverpool_classic();
    assert!(!has_contract(&hand("4S JK JK 7S 9H 9D 9C"), &round(&w, 2), &w));
    assert!(has_contract(&hand("4S 5S JK 7S 9H 9D 9C"), &round(&w, 2), &w));
}

// ---------------------------------------------------------------------------------
// The brute-force oracle

/// A meld of the oracle: its kind and canonical card ids.
type Plain = (MeldKind, Vec<u8>);

fn ids_of(cards: &[Card]) -> Vec<u8> {
    cards.iter().map(|c| c.id()).collect()
}

/// Every legal meld `hand` can supply within the sizes, each validated by `meld.rs`.
fn oracle_melds(
    hand: &CardCounts,
    rules: &RuleSet,
    set_sizes: (usize, usize),
    run_sizes: (usize, usize),
    run_oracle_min: u8,
) -> Vec<Plain> {
    let total = hand.total();
    let jokers = hand.jokers() as usize;
    let mut out = Vec::new();
    // Sets: every sub-multiset of one rank's naturals, plus jokers.
    for rank in 1..=13u8 {
        let ids: Vec<u8> = (0..4).map(|s| s * 13 + rank - 1).collect();
        let c: Vec<u8> = ids.iter().map(|&id| hand.0[id as usize]).collect();
        for a0 in 0..=c[0] {
            for a1 in 0..=c[1] {
                for a2 in 0..=c[2] {
                    for a3 in 0..=c[3] {
                        for j in 0..=jokers {
                            let mut cs = Vec::new();
                            for (k, &a) in [a0, a1, a2, a3].iter().enumerate() {
                                for _ in 0..a {
                                    cs.push(Card::from_id(ids[k]).unwrap());
                                }
                            }
                            cs.extend(std::iter::repeat_n(Card::JOKER, j));
                            if cs.len() < set_sizes.0 || cs.len() > set_sizes.1 {
                                continue;
                            }
                            if Meld::set_unchecked(&cs, rules).is_ok() {
                                out.push((MeldKind::Set, ids_of(&cs)));
                            }
                        }
                    }
                }
            }
        }
    }
    // Runs: every suit, start, length and natural/joker choice per position.
    for suit in 0..4u8 {
        for start in 1..=14u8 {
            for len in run_sizes.0..=run_sizes.1.min(total).min(15 - start as usize) {
                for mask in 0u32..(1 << len) {
                    if mask.count_ones() as usize > jokers {
                        continue;
                    }
                    let cs: Vec<Card> = (0..len)
                        .map(|i| {
                            if mask >> i & 1 == 1 {
                                Card::JOKER
                            } else {
                                let pos = start + i as u8;
                                Card::new(if pos == 14 { 1 } else { pos }, Suit::from_index(suit))
                            }
                        })
                        .collect();
                    let mut need = CardCounts::from_cards(&cs);
                    if !need.try_remove(&CardCounts::default()) || hand.0.iter().zip(need.0.iter()).any(|(h, n)| n > h)
                    {
                        continue;
                    }
                    if let Ok(m) = Meld::run_min_len(&cs, rules, run_oracle_min) {
                        assert_eq!(m.span().unwrap().0, start, "a run's cards fix its start");
                        out.push((MeldKind::Run, ids_of(&cs)));
                    }
                }
            }
        }
    }
    out
}

/// The oracle's key: points left, sorted left ids, melds list (sets then runs, by tuple).
type Key = (u32, Vec<u8>, Vec<Vec<u8>>);

fn key_of(hand: &CardCounts, chosen: &[&Plain], rules: &RuleSet) -> Option<Key> {
    let mut left = *hand;
    for (_, ids) in chosen {
        let cs: Vec<Card> = ids.iter().map(|&i| Card::from_id(i).unwrap()).collect();
        if !left.try_remove(&CardCounts::from_cards(&cs)) {
            return None;
        }
    }
    let mut sets: Vec<Vec<u8>> = chosen
        .iter()
        .filter(|m| m.0 == MeldKind::Set)
        .map(|m| m.1.clone())
        .collect();
    let mut runs: Vec<Vec<u8>> = chosen
        .iter()
        .filter(|m| m.0 == MeldKind::Run)
        .map(|m| m.1.clone())
        .collect();
    sets.sort();
    runs.sort();
    sets.extend(runs);
    let left_cards = left.to_cards();
    Some((rules.points_of(&left_cards), ids_of(&left_cards), sets))
}

/// Every go-down by brute force: all multisets of candidate melds of the right kinds
/// and lengths (one slot per meld of the contract, C-8), checked for disjointness,
/// L-4.4 and (whole hand) for using every card. Wild cards are read as jokers (the
/// search's joker form); compare with [`key_of_go_down_in`].
fn oracle_go_downs(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> Vec<Key> {
    let hand = &CardCounts(joker_form(hand, rules));
    let mut ranges: Vec<(MeldKind, usize, usize)> = contract
        .melds()
        .iter()
        .map(|spec| {
            let (min, max) = rules.meld_range(spec, contract.whole_hand);
            let top = if spec.kind == MeldKind::Run { 14 } else { usize::MAX };
            (spec.kind, min as usize, max.map_or(top, |m| m as usize))
        })
        .collect();
    ranges.sort();
    let widest = |kind: MeldKind| {
        let of_kind: Vec<_> = ranges.iter().filter(|r| r.0 == kind).collect();
        (
            of_kind.iter().map(|r| r.1).min().unwrap_or(usize::MAX),
            of_kind.iter().map(|r| r.2).max().unwrap_or(0),
        )
    };
    let run_floor = if contract.whole_hand {
        rules.whole_hand_run_min
    } else {
        rules.run_size_min
    };
    let melds = oracle_melds(hand, rules, widest(MeldKind::Set), widest(MeldKind::Run), run_floor);
    let mut out = Vec::new();
    // One list per slot (the melds of its kind and length); consecutive equal slots
    // take non-decreasing indices; a branch stops as soon as its melds no longer fit.
    let lists: Vec<Vec<&Plain>> = ranges
        .iter()
        .map(|&(kind, min, max)| {
            melds
                .iter()
                .filter(|m| m.0 == kind && (min..=max).contains(&m.1.len()))
                .collect()
        })
        .collect();
    let same: Vec<bool> = (0..ranges.len()).map(|i| i > 0 && ranges[i] == ranges[i - 1]).collect();
    let mut stack: Vec<(usize, &Plain)> = Vec::new();
    #[allow(clippy::too_many_arguments)]
    fn walk<'m>(
        hand: &CardCounts,
        rules: &RuleSet,
        contract: &Contract,
        lists: &'m [Vec<&'m Plain>],
        same: &[bool],
        stack: &mut Vec<(usize, &'m Plain)>,
        out: &mut Vec<Key>,
    ) {
        let chosen: Vec<&Plain> = stack.iter().map(|x| x.1).collect();
        let Some(key) = key_of(hand, &chosen, rules) else {
            return;
        };
        let depth = stack.len();
        if depth == lists.len() {
            if contract.whole_hand && !key.1.is_empty() {
                return;
            }
            if rules.same_suit_runs_need_gap {
                let built: Vec<Meld> = chosen
                    .iter()
                    .filter(|m| m.0 == MeldKind::Run)
                    .map(|m| {
                        Meld::run_min_len(
                            &m.1.iter().map(|&x| Card::from_id(x).unwrap()).collect::<Vec<_>>(),
                            rules,
                            1,
                        )
                        .unwrap()
                    })
                    .collect();
                if adjacent_same_suit_runs(&built.iter().collect::<Vec<_>>()).is_some() {
                    return;
                }
            }
            out.push(key);
            return;
        }
        let from = if same[depth] { stack[depth - 1].0 } else { 0 };
        for i in from..lists[depth].len() {
            stack.push((i, lists[depth][i]));
            walk(hand, rules, contract, lists, same, stack, out);
            stack.pop();
        }
    }
    walk(hand, rules, contract, &lists, &same, &mut stack, &mut out);
    out.sort();
    out.dedup();
    out
}

/// A go-down's key in joker form (wild cards read as id 52), as the oracle writes it.
fn key_of_go_down_in(g: &GoDown, rules: &RuleSet) -> Key {
    let joker = |c: &Card| if rules.is_wild(*c) { JOKER_ID } else { c.id() };
    let mut left: Vec<u8> = g.left.to_cards().iter().map(joker).collect();
    left.sort();
    (
        g.points_left,
        left,
        g.melds.iter().map(|m| m.cards().iter().map(joker).collect()).collect(),
    )
}

/// A random hand of `n` cards from the rule set's deck for 4 players.
fn random_hand(rng: &mut Rng, rules: &RuleSet, n: usize, extra_jokers: bool) -> CardCounts {
    let (decks, jokers) = rules.deck_for(4);
    let mut deck: Vec<u8> = (0..52u8)
        .flat_map(|id| std::iter::repeat_n(id, decks as usize))
        .collect();
    deck.extend(std::iter::repeat_n(JOKER_ID, jokers as usize));
    rng.shuffle(&mut deck);
    let mut h = CardCounts::default();
    let mut taken = 0;
    if extra_jokers {
        // Jokers make the search branch most; give many hands one or more.
        let want = rng.below(jokers as u32 + 1) as u8;
        h.0[JOKER_ID as usize] = want;
        deck.retain(|&id| id != JOKER_ID);
        taken = want as usize;
    }
    for &id in deck.iter().take(n - taken) {
        h.0[id as usize] += 1;
    }
    h
}

/// Hands where the cards crowd into few suits and ranks, so that contracts are common.
fn crowded_hand(rng: &mut Rng, rules: &RuleSet, n: usize) -> CardCounts {
    let (decks, jokers) = rules.deck_for(4);
    let lo = rng.range_inclusive(1, 8) as u8;
    let mut deck: Vec<u8> = Vec::new();
    for suit in 0..2u8 {
        for rank in lo..lo + 6 {
            deck.extend(std::iter::repeat_n(suit * 13 + rank - 1, decks as usize));
        }
    }
    for rank in [lo, lo + 2] {
        for suit in 2..4u8 {
            deck.extend(std::iter::repeat_n(suit * 13 + rank - 1, decks as usize));
        }
    }
    deck.extend(std::iter::repeat_n(JOKER_ID, jokers as usize));
    rng.shuffle(&mut deck);
    CardCounts::from_cards(
        &deck[..n]
            .iter()
            .map(|&id| Card::from_id(id).unwrap())
            .collect::<Vec<_>>(),
    )
}

/// Compare every search function with the oracle; returns whether the hand has a go-down.
/// A hand of `n` cards with the contract's melds planted in it (jokers now and then),
/// topped up with random cards: most such hands hold the contract, some lose it to L-4.4.
/// The hand has at least the planted cards.
fn planted_hand(rng: &mut Rng, rules: &RuleSet, contract: &Contract, n: usize) -> CardCounts {
    let (decks, jokers) = rules.deck_for(4);
    let lengths: Vec<(MeldKind, u8)> = contract
        .melds()
        .iter()
        .map(|spec| (spec.kind, rules.meld_range(spec, contract.whole_hand).0))
        .collect();
    let n = n.max(lengths.iter().map(|&(_, len)| len as usize).sum());
    loop {
        let mut h = CardCounts::default();
        let maybe_joker = |rng: &mut Rng, card: Card| if rng.below(8) == 0 { Card::JOKER } else { card };
        for &(kind, len) in &lengths {
            if kind == MeldKind::Set {
                let rank = 1 + rng.below(13) as u8;
                for _ in 0..len {
                    let suit = Suit::from_index(rng.below(4) as u8);
                    let card = maybe_joker(rng, Card::new(rank, suit));
                    h.0[card.id() as usize] += 1;
                }
            } else {
                let suit = Suit::from_index(rng.below(4) as u8);
                let start = 1 + rng.below(15 - len as u32) as u8;
                for pos in start..start + len {
                    let card = maybe_joker(rng, Card::new(if pos == 14 { 1 } else { pos }, suit));
                    h.0[card.id() as usize] += 1;
                }
            }
        }
        while h.total() < n {
            h.0[rng.below(53) as usize] += 1;
        }
        if h.total() == n && h.jokers() <= jokers && h.0[..52].iter().all(|&c| c <= decks) {
            return h;
        }
    }
}

fn check_against_oracle(h: &CardCounts, contract: &Contract, rules: &RuleSet) -> bool {
    let want = oracle_go_downs(h, contract, rules);
    let key_of_go_down = |g: &GoDown| key_of_go_down_in(g, rules);
    let every = all_go_downs_limited(h, contract, rules, usize::MAX);
    assert!(!every.truncated);
    let got: Vec<Key> = every.go_downs.iter().map(key_of_go_down).collect();
    for g in &every.go_downs {
        check_named(g, h, contract, rules);
    }
    let text = format_cards(&h.to_cards());
    assert_eq!(got, want, "all_go_downs of {text} for {}", contract.describe());
    let best = best_go_down(h, contract, rules);
    assert_eq!(
        best.as_ref().map(key_of_go_down),
        want.first().cloned(),
        "best_go_down of {text}"
    );
    assert_eq!(
        has_contract(h, contract, rules),
        !want.is_empty(),
        "has_contract of {text}"
    );
    assert_eq!(
        best_go_down_points_left(h, contract, rules),
        want.first().map(|k| k.0),
        "points of {text}"
    );
    let limited = all_go_downs_limited(h, contract, rules, 3);
    let keys: Vec<Key> = limited.go_downs.iter().map(key_of_go_down).collect();
    assert_eq!(keys, want.iter().take(3).cloned().collect::<Vec<_>>());
    assert_eq!(limited.truncated, want.len() > 3, "truncated for {text}");
    !want.is_empty()
}

/// A named go-down: its cards are the hand's, its melds legal, and the wild cards in
/// its melds are the hand's lowest-id wild cards, in reading order.
fn check_named(g: &GoDown, h: &CardCounts, contract: &Contract, rules: &RuleSet) {
    let mut all = g.left;
    for m in &g.melds {
        all.add(&CardCounts::from_cards(m.cards()));
    }
    assert_eq!(all, *h, "melds + left = hand");
    let groups: Vec<Vec<Card>> = g.melds.iter().map(|m| m.cards().to_vec()).collect();
    check_go_down(&groups, contract, rules).unwrap();
    let used: Vec<Card> = groups.iter().flatten().copied().filter(|&c| rules.is_wild(c)).collect();
    let mut sorted_wilds: Vec<Card> = h.to_cards().into_iter().filter(|&c| rules.is_wild(c)).collect();
    sorted_wilds.truncate(used.len());
    assert_eq!(used, sorted_wilds, "melds take the lowest wild cards in reading order");
}

use crate::card::{format_cards, Suit};

#[test]
fn search_agrees_with_the_brute_force_oracle_profile_l() {
    let rules = l();
    let mut rng = Rng::from_seed(11);
    let mut with_go_down = [0; 6];
    for i in 0..300 {
        let r = 1 + (i % 6) as u8;
        let n = 8 + rng.below(4) as usize;
        let contract = round(&rules, r);
        let h = match (i / 7) % 3 {
            0 => crowded_hand(&mut rng, &rules, n),
            1 => random_hand(&mut rng, &rules, n, true),
            _ => planted_hand(&mut rng, &rules, &contract, n),
        };
        with_go_down[r as usize - 1] += check_against_oracle(&h, &contract, &rules) as usize;
    }
    // The comparison means something only if many hands do hold their contract.
    assert!(with_go_down.iter().all(|&n| n >= 8), "{with_go_down:?}");
}

#[test]
fn search_agrees_with_the_brute_force_oracle_round_7() {
    let rules = l();
    let c7 = round(&rules, 7);
    let mut rng = Rng::from_seed(7);
    for i in 0..100 {
        let n = 12 + rng.below(2) as usize;
        let h = if i % 2 == 0 {
            crowded_hand(&mut rng, &rules, n)
        } else {
            random_hand(&mut rng, &rules, n, true)
        };
        check_against_oracle(&h, &c7, &rules);
    }
    // A whole hand made of three runs of different suits (so L-4.4 cannot bite),
    // jokers included, always has a go-down.
    for _ in 0..50 {
        let mut h = CardCounts::default();
        let mut suits = [0u8, 1, 2, 3];
        rng.shuffle(&mut suits);
        for &suit in &suits[..3] {
            let start = 1 + rng.below(8) as u8;
            for pos in start..start + 4 {
                let card = if rng.below(6) == 0 {
                    Card::JOKER
                } else {
                    Card::new(pos, Suit::from_index(suit))
                };
                h.0[card.id() as usize] += 1;
            }
        }
        if h.jokers() <= 3 && h.0.iter().take(52).all(|&n| n <= 2) {
            assert!(check_against_oracle(&h, &c7, &rules), "{}", format_cards(&h.to_cards()));
        }
    }
}

#[test]
fn search_agrees_with_the_brute_force_oracle_other_profiles() {
    for rules in [
        RuleSet::contract(),
        RuleSet::liverpool_classic(),
        RuleSet::california(),
        RuleSet::double_progressive(),
    ] {
        let mut rng = Rng::from_seed(3);
        for i in 0..150 {
            let r = 1 + (i % 6) as u8;
            let contract = round(&rules, r);
            let n = 7 + rng.below(3) as usize;
            let h = match (i / 7) % 3 {
                0 => crowded_hand(&mut rng, &rules, n),
                1 => random_hand(&mut rng, &rules, n, true),
                _ => planted_hand(&mut rng, &rules, &contract, n),
            };
            check_against_oracle(&h, &contract, &rules);
        }
    }
}

/// The oracle's arrangement key: deadwood points, sorted deadwood ids, number of
/// melds, melds list (sets then runs, by tuple), then kinds (0 = set, 1 = run, sorted:
/// more sets first) for groups that read both ways.
type ArrangementKey = (u32, Vec<u8>, usize, Vec<Vec<u8>>, Vec<u8>);

/// The best arrangement by brute force: every multiset of candidate melds.
fn oracle_arrangement(hand: &CardCounts, rules: &RuleSet) -> (u32, Vec<u8>, usize, Vec<Vec<u8>>) {
    let melds = oracle_melds(
        hand,
        rules,
        (rules.set_size_min as usize, usize::MAX),
        (rules.run_size_min as usize, 14),
        rules.run_size_min,
    );
    fn walk(
        hand: &CardCounts,
        rules: &RuleSet,
        melds: &[Plain],
        stack: &mut Vec<usize>,
        from: usize,
        best: &mut Option<ArrangementKey>,
    ) {
        let chosen: Vec<&Plain> = stack.iter().map(|&i| &melds[i]).collect();
        let Some((pts, left, list)) = key_of(hand, &chosen, rules) else {
            return;
        };
        let mut kinds: Vec<u8> = chosen.iter().map(|m| (m.0 == MeldKind::Run) as u8).collect();
        kinds.sort();
        let here = (pts, left, chosen.len(), list, kinds);
        if best.as_ref().is_none_or(|b| here < *b) {
            *best = Some(here);
        }
        for i in from..melds.len() {
            stack.push(i);
            walk(hand, rules, melds, stack, i, best);
            stack.pop();
        }
    }
    let mut best = None;
    walk(hand, rules, &melds, &mut Vec::new(), 0, &mut best);
    let (points, deadwood, count, list, _) = best.expect("the empty arrangement always exists");
    (points, deadwood, count, list)
}

#[test]
fn best_arrangement_agrees_with_the_brute_force_oracle() {
    for rules in [l(), RuleSet::liverpool_classic()] {
        let mut rng = Rng::from_seed(5);
        for i in 0..200 {
            let n = 5 + rng.below(4) as usize;
            let h = if i % 2 == 0 {
                crowded_hand(&mut rng, &rules, n)
            } else {
                random_hand(&mut rng, &rules, n, true)
            };
            let want = oracle_arrangement(&h, &rules);
            let got = best_arrangement(&h, &rules);
            let got_key = (
                got.points,
                ids_of(&got.deadwood.to_cards()),
                got.melds.len(),
                got.melds.iter().map(|m| ids_of(m.cards())).collect::<Vec<_>>(),
            );
            assert_eq!(got_key, want, "best_arrangement of {}", format_cards(&h.to_cards()));
            assert_eq!(deadwood(&h, &rules), want.0);
        }
    }
}

// ---------------------------------------------------------------------------------
// Properties of every result

#[test]
fn every_go_down_is_legal_disjoint_and_of_opening_size() {
    for name in RuleSet::preset_names() {
        let rules = RuleSet::preset(name).unwrap();
        let mut rng = Rng::from_seed(21);
        for i in 0..400 {
            let r = 1 + (i % rules.rounds() as usize) as u8;
            let contract = round(&rules, r);
            let n = rules.deal_sizes[r as usize - 1] as usize + 1;
            let h = match (i / 7) % 3 {
                0 => crowded_hand(&mut rng, &rules, n),
                1 => random_hand(&mut rng, &rules, n, true),
                _ => planted_hand(&mut rng, &rules, &contract, n),
            };
            for g in all_go_downs(&h, &contract, &rules, 20) {
                let groups: Vec<Vec<Card>> = g.melds.iter().map(|m| m.cards().to_vec()).collect();
                check_go_down(&groups, &contract, &rules).unwrap();
                let sets = g.melds.iter().filter(|m| m.is_set()).count();
                assert_eq!(
                    (sets, g.melds.len() - sets),
                    (contract.sets() as usize, contract.runs() as usize)
                );
                for m in &g.melds {
                    let again = if m.is_set() {
                        Meld::set(m.cards(), &rules)
                    } else {
                        Meld::run(m.cards(), &rules)
                    };
                    assert_eq!(again.unwrap(), *m);
                    if !contract.whole_hand {
                        let (min, max) = if m.is_set() {
                            (rules.set_size_min, rules.set_size_max)
                        } else {
                            (rules.run_size_min, rules.run_size_max)
                        };
                        assert!(m.len() >= min as usize && max.is_none_or(|x| m.len() <= x as usize));
                    }
                }
                let mut back = g.left;
                for m in &g.melds {
                    back.add(&CardCounts::from_cards(m.cards()));
                }
                assert_eq!(back, h, "melds and left make up the hand");
                assert_eq!(g.points_left, rules.points_of(&g.left.to_cards()));
                if contract.whole_hand {
                    assert_eq!(g.left.total(), 0);
                }
            }
        }
    }
}

#[test]
fn outs_are_exactly_the_cards_that_complete_the_contract() {
    let rules = l();
    let mut rng = Rng::from_seed(9);
    for i in 0..120 {
        let r = 1 + (i % 7) as u8;
        let contract = round(&rules, r);
        let n = rules.deal_sizes[r as usize - 1] as usize;
        let h = crowded_hand(&mut rng, &rules, n);
        let seen = random_hand(&mut rng, &rules, 6, false);
        let got = outs(&h, &contract, &rules, &seen, 4);
        if !contract.whole_hand && has_contract(&h, &contract, &rules) {
            assert!(got.is_empty());
            continue;
        }
        for id in 0..53u8 {
            let card = Card::from_id(id).unwrap();
            let mut more = h;
            more.0[id as usize] += 1;
            let listed = got.iter().find(|(c, _)| *c == card);
            assert_eq!(listed.is_some(), has_contract(&more, &contract, &rules));
            if let Some(&(_, unseen)) = listed {
                let copies = if card.is_joker() { 3 } else { 2 };
                assert_eq!(
                    unseen as i32,
                    (copies - h.get(card) as i32 - seen.get(card) as i32).max(0)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Batches

fn rows(rng: &mut Rng, rules: &RuleSet, n: usize, width: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..n {
        let len = width - (i % 3 == 0) as usize; // some short rows, padded
        let h = if i % 2 == 0 {
            crowded_hand(rng, rules, len)
        } else {
            random_hand(rng, rules, len, true)
        };
        let mut row: Vec<u8> = ids_of(&h.to_cards());
        rng.shuffle(&mut row);
        row.resize(width, PAD);
        out.extend(row);
    }
    out
}

#[test]
fn batches_equal_single_calls_whatever_the_thread_count() {
    let rules = l();
    let mut rng = Rng::from_seed(1);
    for r in 1..=7u8 {
        let contract = round(&rules, r);
        let width = rules.deal_sizes[r as usize - 1] as usize + 1;
        let hands = rows(&mut rng, &rules, 200, width);
        let points = best_go_down_points_left_batch(&hands, width, &contract, &rules).unwrap();
        let has = has_contract_batch(&hands, width, &contract, &rules).unwrap();
        let dead = deadwood_batch(&hands, width, &rules).unwrap();
        for (i, row) in hands.chunks(width).enumerate() {
            let h = row_hand(row);
            let single = best_go_down(&h, &contract, &rules);
            assert_eq!(points[i], single.as_ref().map_or(-1, |g| g.points_left as i32));
            assert_eq!(has[i], single.is_some());
            assert_eq!(dead[i], best_arrangement(&h, &rules).points as i32);
        }
        for threads in [1, 2, 3] {
            let again = with_threads(Some(threads), || {
                best_go_down_points_left_batch(&hands, width, &contract, &rules)
            })
            .unwrap()
            .unwrap();
            assert_eq!(again, points);
            let again = with_threads(Some(threads), || deadwood_batch(&hands, width, &rules))
                .unwrap()
                .unwrap();
            assert_eq!(again, dead);
        }
    }
}

#[test]
fn batches_refuse_bad_input_with_stable_codes() {
    let rules = l();
    let c = round(&rules, 1);
    assert_eq!(
        best_go_down_points_left_batch(&[1, 2, 53], 3, &c, &rules)
            .unwrap_err()
            .code,
        ErrorCode::MalformedCard
    );
    assert_eq!(
        has_contract_batch(&[1, 2, 3, 4], 3, &c, &rules).unwrap_err().code,
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        deadwood_batch(&[1, 2, 3], 0, &rules).unwrap_err().code,
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        deadwood_batch(&[5, 5, 5], 3, &rules).unwrap_err().code,
        ErrorCode::TooManyCopies
    );
    assert_eq!(
        deadwood_batch(&[52, 52, 52, 52], 4, &rules).unwrap_err().code,
        ErrorCode::TooManyCopies
    );
    // The first bad row is reported.
    let e = deadwood_batch(&[1, 2, 3, 4, 99, 5, 6, 77, 7], 3, &rules).unwrap_err();
    assert!(e.message.starts_with("hand 1,"), "{}", e.message);
    assert_eq!(
        with_threads(Some(0), || ()).unwrap_err().code,
        ErrorCode::InvalidArgument
    );
    // Empty batches and all-padding rows are fine.
    assert_eq!(deadwood_batch(&[], 0, &rules).unwrap(), Vec::<i32>::new());
    assert_eq!(
        best_go_down_points_left_batch(&[PAD, PAD], 2, &c, &rules).unwrap(),
        vec![-1]
    );
    assert_eq!(deadwood_batch(&[PAD, PAD], 2, &rules).unwrap(), vec![0]);
}

/// Rough timing on random dealt hands (run with `--ignored --nocapture` in release).
/// Prints numbers; asserts nothing about time.
#[test]
#[ignore]
fn timing_random_dealt_hands() {
    let rules = l();
    let mut rng = Rng::from_seed(2024);
    let n = 50_000;
    for r in 1..=7u8 {
        let contract = round(&rules, r);
        let width = rules.deal_sizes[r as usize - 1] as usize + 1;
        let mut hands = Vec::with_capacity(n * width);
        for _ in 0..n {
            let h = random_hand(&mut rng, &rules, width, false);
            hands.extend(ids_of(&h.to_cards()));
        }
        let t = std::time::Instant::now();
        let p = best_go_down_points_left_batch(&hands, width, &contract, &rules).unwrap();
        let batch = t.elapsed().as_secs_f64() * 1e9 / n as f64;
        let t = std::time::Instant::now();
        let h1 = has_contract_batch(&hands, width, &contract, &rules).unwrap();
        let has = t.elapsed().as_secs_f64() * 1e9 / n as f64;
        let t = std::time::Instant::now();
        let _ = deadwood_batch(&hands, width, &rules).unwrap();
        let dw = t.elapsed().as_secs_f64() * 1e9 / n as f64;
        let t = std::time::Instant::now();
        let mut found = 0;
        for row in hands.chunks(width).take(n / 5) {
            found += best_go_down(&row_hand(row), &contract, &rules).is_some() as usize;
        }
        let single = t.elapsed().as_secs_f64() * 1e9 / (n / 5) as f64;
        let frac = p.iter().filter(|&&x| x >= 0).count() as f64 / n as f64;
        assert_eq!(h1.iter().filter(|&&b| b).count(), p.iter().filter(|&&x| x >= 0).count());
        let _ = found;
        println!(
            "round {r}: points batch {batch:.0} ns/hand, has batch {has:.0} ns/hand, deadwood batch {dw:.0} ns/hand, best_go_down single {single:.0} ns, {:.1}% have it",
            frac * 100.0
        );
    }
}

// ---------------------------------------------------------------------------------
// Fast paths against the slot search they replace

/// A goal as it is, but without [`dfs::Goal::ORDER_FREE`]: the search then fills the
/// contract's slots (`dfs.rs`) instead of taking a fast path.
struct SlotsOnly<G>(G);

impl<G: dfs::Goal> dfs::Goal for SlotsOnly<G> {
    const BOUNDED: bool = G::BOUNDED;
    fn worth(&self, ub: u32) -> bool {
        self.0.worth(ub)
    }
    fn leaf(&mut self, search: &dfs::GoDownSearch, node: &dfs::Node) -> bool {
        self.0.leaf(search, node)
    }
}

/// The whole-hand walk (`whole.rs`) and the slot search agree on the best go-down,
/// its points and whether there is one.
fn check_whole_hand_walk(h: &CardCounts, contract: &Contract, rules: &RuleSet) -> bool {
    let pool = joker_form(h, rules);
    let (mut fast, mut slow) = (BestKey::default(), SlotsOnly(BestKey::default()));
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut fast);
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut slow);
    let text = format_cards(&h.to_cards());
    let what = contract.describe();
    assert_eq!(
        found_key(&fast.best),
        found_key(&slow.0.best),
        "best of {text} for {what}"
    );
    let (mut fast, mut slow) = (Exists { found: false }, SlotsOnly(Exists { found: false }));
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut fast);
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut slow);
    assert_eq!(fast.found, slow.0.found, "has_contract of {text}");
    let (mut fast, mut slow) = (MaxPoints { best: None }, SlotsOnly(MaxPoints { best: None }));
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut fast);
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut slow);
    assert_eq!(fast.best, slow.0.best, "points of {text}");
    fast.best.is_some()
}

/// What two searches must agree on about a best go-down: its points, the cards left,
/// and its melds (cards and kinds, in the canonical order).
type FoundKey = Option<(u32, Pool, Vec<Vec<u8>>, Vec<u8>)>;

fn found_key(found: &Option<Found>) -> FoundKey {
    found.as_ref().map(|f| {
        (
            f.used,
            f.left,
            f.melds.iter().map(|c| c.ids().collect()).collect(),
            f.melds.iter().map(|c| c.kind_order()).collect(),
        )
    })
}

#[test]
fn the_whole_hand_walk_agrees_with_the_slot_search() {
    // L-8: every whole-hand contract of every profile (runs only, or sets and runs).
    let profiles = [
        RuleSet::liverpool(),
        RuleSet::liverpool_classic(),
        RuleSet::contract(),
        RuleSet::shanghai(),
        RuleSet::california(),
        RuleSet::double_progressive(),
        RuleSet {
            same_suit_runs_need_gap: false,
            ..RuleSet::liverpool()
        },
    ];
    let mut rng = Rng::from_seed(88);
    let mut with_go_down = 0;
    let mut tried = 0;
    for rules in &profiles {
        for contract in rules.contracts.iter().filter(|c| c.whole_hand) {
            let min: usize = contract
                .melds()
                .iter()
                .map(|spec| rules.meld_range(spec, true).0 as usize)
                .sum();
            for i in 0..60 {
                let n = min + rng.below(3) as usize;
                let h = match i % 3 {
                    0 => crowded_hand(&mut rng, rules, n),
                    1 => random_hand(&mut rng, rules, n, true),
                    _ => planted_hand(&mut rng, rules, contract, n),
                };
                with_go_down += check_whole_hand_walk(&h, contract, rules) as usize;
                tried += 1;
            }
        }
    }
    // Enough hands of each outcome for the comparison to mean something.
    assert!(tried >= 120, "{tried} hands");
    assert!(
        with_go_down >= 30 && with_go_down + 30 <= tried,
        "{with_go_down} of {tried}"
    );
}

#[test]
fn a_whole_hand_of_runs_is_refused_early_only_when_no_go_down_exists() {
    // L-8: whole::runs_cannot_cover is a proof of "no go-down"; the oracle checks it.
    let mut rng = Rng::from_seed(808);
    let (mut refused, mut without) = (0, 0);
    let longer_runs = RuleSet {
        whole_hand_run_min: 5,
        ..l()
    };
    for rules in [l(), longer_runs, RuleSet::california()] {
        for contract in rules.contracts.iter().filter(|c| c.whole_hand && c.sets() == 0) {
            let run_min = contract
                .melds()
                .iter()
                .map(|spec| rules.meld_range(spec, true).0 as u32)
                .min()
                .unwrap();
            for i in 0..90 {
                let n = 11 + rng.below(3) as usize;
                let h = match i % 3 {
                    0 => crowded_hand(&mut rng, &rules, n),
                    1 => random_hand(&mut rng, &rules, n, true),
                    _ => planted_hand(&mut rng, &rules, contract, n),
                };
                let pool = joker_form(&h, &rules);
                let cannot = whole::runs_cannot_cover(&pool, contract.runs() as usize, run_min);
                let none = oracle_go_downs(&h, contract, &rules).is_empty();
                let text = format_cards(&h.to_cards());
                assert!(!cannot || none, "{text} was refused but has a go-down");
                refused += cannot as usize;
                without += none as usize;
            }
        }
    }
    // Most hands without a go-down are refused early (the reason for the check).
    assert!(
        refused >= 40 && refused * 2 >= without,
        "{refused} refused of {without}"
    );
}

/// Times `best_go_down` on the hands of a file (`SEARCH_HANDS`: one hand a line,
/// `family round id id ...`, as `liverpool bench`'s `search_worst` section builds
/// them), each the fastest of 3 calls, and prints p50 / p99 / max per family; with
/// `SEARCH_ANSWERS` set, also writes every answer there (to compare two builds).
/// Run: `SEARCH_HANDS=FILE cargo test --release -p liverpool-engine time_hands_of_a_file -- --ignored --nocapture`.
#[test]
#[ignore]
fn time_hands_of_a_file() {
    use std::io::Write;
    let Ok(path) = std::env::var("SEARCH_HANDS") else {
        println!("SEARCH_HANDS is not set: nothing to time");
        return;
    };
    let rules = l();
    let text = std::fs::read_to_string(path).unwrap();
    let mut answers = std::env::var("SEARCH_ANSWERS")
        .ok()
        .map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap()));
    let mut families: Vec<(String, Vec<f64>)> = Vec::new();
    let only_has = std::env::var("SEARCH_FN").is_ok_and(|f| f == "has_contract");

    for line in text.lines() {
        let mut words = line.split_whitespace();
        let family = words.next().unwrap().to_string();
        let r: u8 = words.next().unwrap().parse().unwrap();
        let ids: Vec<u8> = words.map(|w| w.parse().unwrap()).collect();
        let h = row_hand(&ids);
        let contract = round(&rules, r);
        let mut best = f64::MAX;
        let mut answer = None;
        for _ in 0..3 {
            let t = std::time::Instant::now();
            if only_has {
                std::hint::black_box(has_contract(&h, &contract, &rules));
            } else {
                answer = std::hint::black_box(best_go_down(&h, &contract, &rules));
            }
            best = best.min(t.elapsed().as_secs_f64() * 1e6);
        }
        if let Some(out) = answers.as_mut() {
            let text = answer.map_or("none".to_string(), |g| texts(&g.melds).join(" | "));
            writeln!(out, "{line} => {text}").unwrap();
        }
        match families.last_mut() {
            Some((f, times)) if *f == family => times.push(best),
            _ => families.push((family, vec![best])),
        }
    }
    for (family, mut times) in families {
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{family:<16} p50 {:8.1} p99 {:8.1} max {:8.1}",
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}

/// A run-rich hand: `jokers` jokers (as many as the deck has at most) and naturals of
/// one or two suits laid as stretches of consecutive positions (the ace low or high)
/// while the deck's copies last, as `liverpool bench`'s `search_worst` section builds.
fn run_rich_hand(
    rules: &RuleSet,
    suits: &[u8],
    stretches: &[(usize, u8, u8)],
    naturals: usize,
    jokers: u8,
) -> CardCounts {
    let (decks, deck_jokers) = rules.largest_deck();
    let mut h = CardCounts::default();
    let mut placed = 0;
    for &(which, start, len) in stretches {
        let suit = suits[which % suits.len()];
        for pos in start..(start + len).min(15) {
            let id = (suit * 13 + (pos - 1) % 13) as usize;
            if placed < naturals && h.0[id] < decks {
                h.0[id] += 1;
                placed += 1;
            }
        }
    }
    h.0[JOKER_ID as usize] = jokers.min(deck_jokers);
    h
}

/// The rule sets of the run-rich proptests, by index: L, L without L-4.4, C (Contract),
/// Shanghai, W (Liverpool-classic, W-4's naturals window), L with 5-card whole-hand runs.
fn run_rich_rules(profile: usize) -> RuleSet {
    match profile {
        0 => l(),
        1 => RuleSet {
            same_suit_runs_need_gap: false,
            ..l()
        },
        2 => RuleSet::contract(),
        3 => RuleSet::shanghai(),
        4 => RuleSet::liverpool_classic(),
        _ => RuleSet {
            whole_hand_run_min: 5,
            ..l()
        },
    }
}

/// One suit, or it and the next.
fn run_rich_suits(two_suits: bool, first_suit: u8) -> Vec<u8> {
    if two_suits {
        vec![first_suit, (first_suit + 1) % 4]
    } else {
        vec![first_suit]
    }
}

/// Cases of the whole-hand proptest below: 32 in `make test` (about 6 s in a debug
/// build here), ten times as many under `make test-long`.
fn whole_hand_cases() -> u32 {
    if crate::long_test_run() {
        320
    } else {
        32
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(whole_hand_cases()))]
    /// L-8, issue 19: on joker-rich hands full of runs in one or two suits, with up to
    /// the deck's jokers and up to three buys, the whole-hand search (the sweep over each
    /// suit's positions for a contract of runs, `sweep.rs`; the walk of `whole.rs` when
    /// sets are asked too) agrees with the slot search, which prunes nothing there: the
    /// best go-down, its points, and whether there is one. Profiles L (with and without
    /// L-4.4, and with 5-card whole-hand runs), C, Shanghai and W (W-4's naturals window),
    /// and contracts of two and four runs besides the presets' (four: past the sweep's
    /// joker table).
    #[test]
    fn the_whole_hand_search_agrees_on_joker_rich_run_rich_hands(
        profile in 0usize..6,
        two_suits in proptest::bool::ANY,
        first_suit in 0u8..4,
        stretches in proptest::collection::vec((0usize..2, 1u8..15, 3u8..7), 8),
        naturals in 9usize..17,
        jokers in 0u8..7,
    ) {
        let rules = run_rich_rules(profile);
        let h = run_rich_hand(&rules, &run_rich_suits(two_suits, first_suit), &stretches, naturals, jokers);
        let extra = [Contract::new(0, 2).whole_hand(), Contract::new(0, 4).whole_hand()];
        for contract in rules.contracts.iter().filter(|c| c.whole_hand).chain(&extra) {
            check_whole_hand_walk(&h, contract, &rules);
        }
    }
}

// ---------------------------------------------------------------------------------
// The bounded slot search against the plain enumeration

/// A goal as it is, but unbounded: the slot search then prunes nothing and leaves its
/// candidates unsorted — the plain enumeration the bounded search (candidates by joker
/// bucket, bounds by joker budget, `dfs.rs`) must agree with.
struct Unbounded<G>(G);

impl<G: dfs::Goal> dfs::Goal for Unbounded<G> {
    const BOUNDED: bool = false;
    fn worth(&self, _ub: u32) -> bool {
        true
    }
    fn leaf(&mut self, search: &dfs::GoDownSearch, node: &dfs::Node) -> bool {
        self.0.leaf(search, node)
    }
}

/// The best go-down and its points, bounded and unbounded, on a contract the slot
/// search fills (not a whole hand). Returns whether there is a go-down.
fn check_bounded_slot_search(h: &CardCounts, contract: &Contract, rules: &RuleSet) -> bool {
    assert!(!contract.whole_hand);
    let pool = joker_form(h, rules);
    let (mut bounded, mut plain) = (BestKey::default(), Unbounded(BestKey::default()));
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut bounded);
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut plain);
    let text = format_cards(&h.to_cards());
    let what = contract.describe();
    assert_eq!(
        found_key(&bounded.best),
        found_key(&plain.0.best),
        "best of {text} for {what}"
    );
    let (mut bounded, mut plain) = (MaxPoints { best: None }, Unbounded(MaxPoints { best: None }));
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut bounded);
    search_go_down(&pool, contract, rules, &mut Scratch::default(), &mut plain);
    assert_eq!(bounded.best, plain.0.best, "points of {text} for {what}");
    bounded.best.is_some()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// L-3, L-4.4, L-4.5, issue 19: on joker-rich hands full of runs in one or two suits
    /// (the bench's slow corner), after up to three buys, the bounded slot search keeps
    /// the go-down and the points the plain enumeration keeps, in every round of 1–6.
    #[test]
    fn the_bounded_slot_search_agrees_on_joker_rich_run_rich_hands(
        profile in 0usize..3,
        two_suits in proptest::bool::ANY,
        first_suit in 0u8..4,
        stretches in proptest::collection::vec((0usize..2, 1u8..15, 3u8..7), 7),
        naturals in 8usize..17,
        jokers in 0u8..5,
    ) {
        let rules = run_rich_rules(profile);
        let h = run_rich_hand(&rules, &run_rich_suits(two_suits, first_suit), &stretches, naturals, jokers);
        for contract in rules.contracts.iter().filter(|c| !c.whole_hand) {
            check_bounded_slot_search(&h, contract, &rules);
        }
    }
}

#[test]
fn the_bounded_slot_search_agrees_with_more_jokers_than_it_tells_apart() {
    // A pool with more jokers than the joker buckets of `dfs.rs` (16): in profile C,
    // where melds at go-down may be longer (C-4), long sets and runs of jokers share
    // the last bucket, whose candidates differ in their jokers.
    let rules = RuleSet::contract();
    let mut found = 0;
    for (naturals, jokers) in [("7♥ 7♠ 9♥ 4♣ 5♣ K♦", 17u8), ("2♠ 3♠ 9♠ Q♥ Q♦", 20), ("A♣ 5♦ 5♦ J♠", 16)]
    {
        let mut h = hand(naturals);
        h.0[JOKER_ID as usize] = jokers;
        for r in 1..=6u8 {
            found += check_bounded_slot_search(&h, &round(&rules, r), &rules) as usize;
        }
    }
    // Every round has a go-down when jokers abound (each meld needs one natural only).
    assert!(found >= 15, "{found} go-downs");
}

#[test]
fn the_whole_hand_sweep_answers_hands_no_deck_could_deal() {
    // The Rust calls take any counts (the binding refuses them first): 255 copies of a
    // card, or 255 jokers, end in "no go-down" without overflowing a count (L-8: three
    // runs hold at most one natural of a position each, and at most 42 cards).
    let rules = l();
    let contract = round(&rules, 7);
    let mut hands = Vec::new();
    let mut many_of_one = hand("3♥ 4♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥ A♠ 2♠ 3♠ 4♠");
    let five_of_hearts = hand("5♥").0.iter().position(|&n| n == 1).unwrap();
    many_of_one.0[five_of_hearts] = 255;
    hands.push(many_of_one);
    let mut many_jokers = hand("3♥ 4♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥ A♠ 2♠ 3♠ 4♠");
    many_jokers.0[JOKER_ID as usize] = 255;
    hands.push(many_jokers);
    let mut everything = CardCounts::default();
    everything.0.fill(255);
    hands.push(everything);
    for h in &hands {
        assert!(!has_contract(h, &contract, &rules));
        assert!(best_go_down(h, &contract, &rules).is_none());
    }
    // And the same hand with the deck's counts has one: the refusals above are the counts'.
    let fine = hand("3♥ 4♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥ A♠ 2♠ 3♠ 4♠");
    assert!(has_contract(&fine, &contract, &rules));
}
