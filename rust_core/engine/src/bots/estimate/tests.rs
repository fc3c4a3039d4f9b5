//! Tests of the hand estimates (moved out of estimate.rs unchanged).

use super::{bits::*, bounds::*, missing::*, usefulness::*, windows::*};
use crate::card::{parse_cards, Suit};
use crate::card::{Card, CardCounts, CARD_KINDS, JOKER_ID};
use crate::rules::{Contract, RuleSet};

fn hand(text: &str) -> CardCounts {
    let parts: Vec<&str> = text.split_whitespace().collect();
    CardCounts::from_cards(&parse_cards(&parts).unwrap())
}

fn round(r: u8) -> (Contract, RuleSet) {
    let rules = RuleSet::liverpool();
    (rules.contracts[r as usize - 1], rules)
}

#[test]
fn a_hand_holding_the_contract_misses_nothing() {
    // L-11: after taking 7♦ the hand holds both sets of round 1.
    let (c, rules) = round(1);
    assert_eq!(cards_missing(&hand("7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"), &c, &rules), 0);
    // Before taking it, exactly one 7 is missing.
    assert_eq!(cards_missing(&hand("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"), &c, &rules), 1);
}

#[test]
fn jokers_fill_gaps_but_every_meld_keeps_a_natural() {
    let (c, rules) = round(1);
    // 7 7 JK and 9 9 9: complete.
    assert_eq!(cards_missing(&hand("7♠ 7♥ JK 9♠ 9♥ 9♦ 2♣"), &c, &rules), 0);
    // One set of 9s and three jokers: the second set needs a natural (L-4.5), the
    // jokers cover its other two places.
    assert_eq!(cards_missing(&hand("9♠ 9♥ 9♦ JK JK JK"), &c, &rules), 1);
}

#[test]
fn runs_count_positions_and_aces_play_high_or_low() {
    let (c, rules) = round(3); // 2 runs
                               // 2-5♥ is a run; J-Q-K-A♠ is a run with the ace high.
    assert_eq!(cards_missing(&hand("2♥ 3♥ 4♥ 5♥ J♠ Q♠ K♠ A♠"), &c, &rules), 0);
    // A-2-3♦ lacks 4♦; 5-7♣ lacks one end.
    assert_eq!(cards_missing(&hand("A♦ 2♦ 3♦ 5♣ 6♣ 7♣"), &c, &rules), 2);
}

#[test]
fn same_suit_runs_may_not_touch_end_to_end() {
    // L-4.4: 3-6♥ and 7-10♥ are one long stretch, not two runs; a third card is
    // needed to leave a gap (or the second deck's copies to overlap).
    let (c, rules) = round(3);
    assert!(cards_missing(&hand("3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥"), &c, &rules) >= 1);
    assert_eq!(cards_missing(&hand("3♥ 4♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥"), &c, &rules), 0);
}

#[test]
fn whole_hand_counts_cards_that_fit_no_run() {
    let (c, rules) = round(7);
    let three_runs = "A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♥ 9♦ 10♦ J♦ Q♦";
    assert_eq!(cards_missing(&hand(three_runs), &c, &rules), 0);
    // Swap 9♥ (which stretched the hearts run) for a stray K♣: one card to shed.
    let stray = "A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ K♣ 9♦ 10♦ J♦ Q♦";
    assert_eq!(cards_missing(&hand(stray), &c, &rules), 1);
}

#[test]
fn could_meld_and_could_help_are_quick_filters() {
    let rules = RuleSet::liverpool();
    assert!(could_meld(&hand("7♠ 7♥ 7♠ 2♣"), true, false, &rules));
    assert!(!could_meld(&hand("7♠ 7♥ 7♠ 2♣"), false, true, &rules));
    assert!(
        could_meld(&hand("J♦ Q♦ K♦ A♦"), false, true, &rules),
        "ace high (L-4.3)"
    );
    assert!(
        !could_meld(&hand("Q♦ K♦ A♦ 2♦"), false, true, &rules),
        "no wrap (L-4.3)"
    );
    let (c, rules) = round(1);
    let h = hand("7♠ 7♥ 9♠ 2♣");
    assert!(could_help(&h, Card::parse("7♦").unwrap(), &c, &rules));
    assert!(could_help(&h, Card::JOKER, &c, &rules));
    assert!(
        !could_help(&h, Card::parse("8♠").unwrap(), &c, &rules),
        "round 1 has no runs"
    );
    let (c, rules) = round(3);
    assert!(could_help(&h, Card::parse("8♠").unwrap(), &c, &rules));
    assert!(!could_help(&h, Card::parse("K♥").unwrap(), &c, &rules));
}

/// `could_meld` as a scan: some rank with enough copies, some suit with enough
/// consecutive positions (the ace low or high, L-4.3).
fn could_meld_by_scan(cards: &CardCounts, sets: bool, runs: bool, rules: &RuleSet) -> bool {
    let set = (1..=13u8).any(|rank| {
        Suit::ALL
            .iter()
            .map(|&s| cards.get(Card::new(rank, s)) as u32)
            .sum::<u32>()
            >= rules.set_size_min.max(1) as u32
    });
    let len = rules.run_size_min.clamp(1, 14);
    let run = (0..4u8).any(|suit| (1..=15 - len).any(|lo| (lo..lo + len).all(|pos| cards.0[id_at(suit, pos)] > 0)));
    (sets && set) || (runs && run)
}

proptest::proptest! {
    /// The four suits' runs checked side by side find the runs a scan of each
    /// suit finds, for run lengths 1..=14 (L-4.2), and sets as before (L-4.1).
    #[test]
    fn could_meld_agrees_with_a_scan(
        suits in 1u8..=4,
        picks in proptest::collection::vec(0u8..52, 0..16),
        sets: bool,
        runs: bool,
        run_len in 1u8..=14,
        set_len in 1u8..=4,
    ) {
        let counts = few_suit_hand(suits, &picks, 0);
        let rules = RuleSet { run_size_min: run_len, set_size_min: set_len, ..RuleSet::liverpool() };
        proptest::prop_assert_eq!(
            could_meld(&counts, sets, runs, &rules),
            could_meld_by_scan(&counts, sets, runs, &rules),
            "{:?}", counts.to_cards()
        );
    }
}

#[test]
fn no_run_reaches_from_one_suit_into_the_next() {
    // A suit's high cards next to the next suit's low ones (K♠ A♠ A♥ 2♥ …) are no
    // run (L-4.2, L-4.3): small hands of cards at the suits' ends, every length.
    let mut rng = crate::rng::Rng::from_seed(27);
    let ends = [0u8, 1, 2, 10, 11, 12];
    for _ in 0..20000 {
        let mut counts = CardCounts([0; CARD_KINDS]);
        for _ in 0..2 + rng.below(5) {
            let id = 13 * rng.below(4) as u8 + ends[rng.below(6) as usize];
            counts.0[id as usize] = 1;
        }
        let rules = RuleSet {
            run_size_min: 2 + rng.below(4) as u8,
            ..RuleSet::liverpool()
        };
        assert_eq!(
            could_meld(&counts, false, true, &rules),
            could_meld_by_scan(&counts, false, true, &rules),
            "{:?} {}",
            counts.to_cards(),
            rules.run_size_min
        );
    }
}

#[test]
fn every_card_could_run_needs_a_run_for_each_card() {
    assert!(every_card_could_run(&hand("A♠ 2♠ 3♠ 4♠ J♥ Q♥ K♥ A♥"), 4));
    assert!(!every_card_could_run(&hand("A♠ 2♠ 3♠ 4♠ 9♦"), 4), "9♦ alone");
    assert!(
        every_card_could_run(&hand("A♠ 2♠ 3♠ 4♠ 9♦ JK JK JK"), 4),
        "9♦ with three jokers"
    );
    assert!(
        !every_card_could_run(&hand("Q♦ K♦ A♦ 2♦ 3♦"), 4),
        "no wrap K-A-2 (L-4.3)"
    );
    assert!(
        every_card_could_run(&hand("Q♦ K♦ A♦ 2♦ 3♦ JK"), 4),
        "J♦ or 4♦ from the joker"
    );
}

#[test]
fn covered_positions_agree_with_a_count_of_every_window() {
    // Every run length 1..=14 (the whole suit, the ace at both ends, L-4.3) and
    // every number of positions needed.
    let mut rng = crate::rng::Rng::from_seed(26);
    for _ in 0..4000 {
        let ranks = rng.below(1 << 13) as PositionMask;
        let mask = (ranks << 1) | (ranks & 1) << 14;
        let len = 1 + rng.below(14) as u8;
        let need = 1 + rng.below(len as u32);
        let window_bits = (1u32 << len) - 1;
        let want = (1..=15 - len)
            .map(|lo| window_bits << lo)
            .filter(|&w| (mask as u32 & w).count_ones() >= need)
            .fold(0, |c, w| c | w);
        assert_eq!(covered_by_windows(mask, len, need), want, "{mask:#b} {len} {need}");
    }
}

#[test]
fn window_table_agrees_with_the_direct_count() {
    // The looked-up best window equals a plain count over every window, for random
    // masks with the ace at both ends (L-4.3), and with windows blocked by chosen
    // runs of the suit (L-4.4).
    let mut rng = crate::rng::Rng::from_seed(8);
    for _ in 0..3000 {
        let ranks = rng.below(1 << 13) as PositionMask;
        let mask = (ranks << 1) | (ranks & 1) << 14;
        let run_len = 1 + rng.below(13) as u8;
        let naive = (1..=15 - run_len)
            .map(|lo| {
                let present = (lo..lo + run_len).filter(|p| mask >> p & 1 == 1).count() as u32;
                (present, lo)
            })
            .max()
            .unwrap();
        assert_eq!(
            best_window(mask, 0, run_len, &[], true),
            Some(naive),
            "{mask:#b} {run_len}"
        );
        let lo = 1 + rng.below(14 - run_len as u32 + 1) as u8;
        let chosen = [ChosenRun {
            suit: 0,
            lo,
            hi: lo + run_len - 1,
        }];
        let touching = |w: u8| w == chosen[0].hi + 1 || w + run_len == chosen[0].lo;
        let naive = (1..=15 - run_len)
            .filter(|&w| !touching(w))
            .map(|w| ((w..w + run_len).filter(|p| mask >> p & 1 == 1).count() as u32, w))
            .max();
        assert_eq!(
            best_window(mask, 0, run_len, &chosen, true),
            naive,
            "{mask:#b} {run_len} {lo}"
        );
    }
}

#[test]
fn blocked_windows_agree_with_a_walk_of_the_chosen_runs() {
    // L-4.4: the windows closed by a suit's chosen runs, kept as a mask of low
    // positions, give the walk's best window, for random masks (the ace at both
    // ends, L-4.3), run lengths and up to three chosen runs in any suit.
    let mut rng = crate::rng::Rng::from_seed(21);
    for _ in 0..4000 {
        let ranks = rng.below(1 << 13) as PositionMask;
        let mask = (ranks << 1) | (ranks & 1) << 14;
        let run_len = 1 + rng.below(13) as u8;
        let windows = Windows::new(run_len);
        let suit = rng.below(4) as u8;
        let mut chosen = Vec::new();
        let mut blocked = 0;
        for _ in 0..rng.below(4) {
            let lo = 1 + rng.below(15 - run_len as u32) as u8;
            let run = ChosenRun {
                suit: rng.below(4) as u8,
                lo,
                hi: lo + run_len - 1,
            };
            if run.suit == suit {
                blocked |= windows.closed_by(run);
            }
            chosen.push(run);
        }
        assert_eq!(
            windows.best_key_blocked(mask, blocked),
            windows.best_key(mask, suit, &chosen, true),
            "{mask:#b} {run_len}"
        );
        assert_eq!(
            windows.best_key_blocked(mask, 0),
            windows.best_key(mask, suit, &chosen, false),
            "{mask:#b} {run_len}, no gap rule"
        );
    }
}

#[test]
fn window_keys_from_prefix_counts_agree_with_summed_lanes() {
    // Any set of allowed windows (L-4.4 closes some), random masks with the ace
    // at both ends (L-4.3), every run length.
    let mut rng = crate::rng::Rng::from_seed(23);
    for _ in 0..5000 {
        let ranks = rng.below(1 << 13) as PositionMask;
        let mask = (ranks << 1) | (ranks & 1) << 14;
        let run_len = 1 + rng.below(13) as u8;
        let allowed = rng.below(1 << 16) as PositionMask;
        let valid = window_lanes(run_len) & lanes_of(allowed);
        assert_eq!(
            best_window_key(mask, run_len, valid),
            best_window_key_by_sums(mask, run_len, valid),
            "{mask:#b} {run_len} {allowed:#b}"
        );
    }
}

#[test]
fn a_pool_of_one_kind_keeps_what_that_kind_reads() {
    // Sets read the rank totals, runs the masks (L-4.1, L-4.2); every pool keeps
    // the counts.
    let mut rng = crate::rng::Rng::from_seed(24);
    for _ in 0..1000 {
        let mut counts = CardCounts([0; CARD_KINDS]);
        for n in counts.0.iter_mut() {
            *n = [0, 0, 1, 2][rng.below(4) as usize];
        }
        let full = Pool::new(&counts);
        let sets = Pool::for_kinds(&counts, true, false);
        let runs = Pool::for_kinds(&counts, false, true);
        assert_eq!(sets.rank_totals, full.rank_totals);
        assert_eq!(runs.masks, full.masks);
        assert_eq!((sets.counts, runs.counts), (full.counts, full.counts));
    }
}

#[test]
fn a_run_is_taken_as_its_positions_one_by_one() {
    // The run's present cards found from the suit's mask are the cards taken by
    // trying every position of the window (the ace low or high, L-4.3).
    let mut rng = crate::rng::Rng::from_seed(22);
    for _ in 0..3000 {
        let mut counts = CardCounts([0; CARD_KINDS]);
        for n in counts.0.iter_mut() {
            *n = [0, 0, 1, 1, 2, 3][rng.below(6) as usize];
        }
        let run_len = 1 + rng.below(13) as u8;
        let lo = 1 + rng.below(15 - run_len as u32) as u8;
        let run = ChosenRun {
            suit: rng.below(4) as u8,
            lo,
            hi: lo + run_len - 1,
        };
        let mut by_mask = Pool::new(&counts);
        by_mask.take_run(run);
        let mut by_position = Pool::new(&counts);
        for pos in run.lo..=run.hi {
            by_position.take_at(run.suit, pos);
        }
        assert_eq!(
            by_mask.counts,
            by_position.counts,
            "{:?} {lo} {run_len}",
            counts.to_cards()
        );
        assert_eq!(by_mask.masks, by_position.masks);
        assert_eq!(by_mask.rank_totals, by_position.rank_totals);
    }
}

#[test]
fn nonzero_bits_marks_the_non_zero_bytes() {
    let mut rng = crate::rng::Rng::from_seed(5);
    for _ in 0..2000 {
        let mut counts = [0u8; CARD_KINDS];
        for n in counts.iter_mut() {
            *n = [0, 0, 1, 2, 3, 128, 255][rng.below(7) as usize];
        }
        for suit in 0..4 {
            let bytes = &counts[suit * 13..suit * 13 + 13];
            let want = bytes
                .iter()
                .enumerate()
                .fold(0, |m, (i, &b)| m | ((b != 0) as PositionMask) << i);
            assert_eq!(nonzero_bits(suit_bytes(&counts, suit)), want, "{bytes:?}");
        }
    }
}

#[test]
fn runs_bound_counts_the_jokers_two_runs_lack() {
    // L-4.2: 3-6♥ and 9-Q♥ are two runs; 3-6♥ with 9-J♥ lacks one card, and
    // overlapping windows need the second deck's copies (L-4.4 aside).
    assert_eq!(
        runs_jokers_needed_at_least(&hand("3♥ 4♥ 5♥ 6♥ 9♥ 10♥ J♥ Q♥"), 2, 4),
        Some(0)
    );
    assert_eq!(
        runs_jokers_needed_at_least(&hand("3♥ 4♥ 5♥ 6♥ 9♥ 10♥ J♥ 2♣"), 2, 4),
        Some(1)
    );
    assert_eq!(runs_jokers_needed_at_least(&hand("3♥ 4♥ 5♥ 6♥ 5♥ 6♥"), 2, 4), Some(2));
    assert_eq!(
        runs_jokers_needed_at_least(&hand("J♠ Q♠ K♠ A♠ 2♦"), 1, 4),
        Some(0),
        "ace high (L-4.3)"
    );
    assert_eq!(runs_jokers_needed_at_least(&hand("J♠ Q♠ K♠ A♠ 2♦"), 3, 4), None);
}

/// A hand of the first `suits` suits (each kind at most twice) plus `jokers`:
/// the proptests' hands, drawn from few suits so that they often hold runs.
fn few_suit_hand(suits: u8, picks: &[u8], jokers: u8) -> CardCounts {
    let mut counts = CardCounts([0; CARD_KINDS]);
    for p in picks {
        let id = (p % (13 * suits)) as usize;
        counts.0[id] = (counts.0[id] + 1).min(2);
    }
    counts.0[JOKER_ID as usize] = jokers;
    counts
}

/// `runs_jokers_needed_at_least` as first written: every pair of windows of a
/// suit counted in full.
fn runs_jokers_needed_by_every_pair(hand: &CardCounts, runs: u8, run_len: u8) -> Option<u32> {
    let len = run_len.clamp(1, 13);
    let at = |ranks: PositionMask| {
        let r = (ranks as u32) << 1;
        r | (r >> 1 & 1) << 14
    };
    let mut one = [0u32; 4];
    let mut two = [0u32; 4];
    let mut gap = [0u32; 4];
    for suit in 0..4 {
        let word = suit_bytes(&hand.0, suit);
        one[suit] = at(nonzero_bits(word));
        two[suit] = at(nonzero_bits(word & (LANE_ONES * 0xFE)));
        let best = window_table(len)[(one[suit] >> 1) as usize] as u32;
        gap[suit] = len as u32 - ((best >> 4) - 1);
    }
    match runs {
        0 => Some(0),
        1 => gap.iter().copied().min(),
        2 => {
            let mut sorted = gap;
            sorted.sort_unstable();
            let mut best = sorted[0] + sorted[1];
            let full = (1u32 << len) - 1;
            for suit in 0..4 {
                for lo in 1..=15 - len as u32 {
                    for hi in lo..=15 - len as u32 {
                        let (a, b) = (full << lo, full << hi);
                        let (both, either) = (a & b, a ^ b);
                        let short = ones(either & !one[suit]) + ones(both & !one[suit]) + ones(both & !two[suit]);
                        best = best.min(short);
                    }
                }
            }
            Some(best)
        }
        _ => None,
    }
}

proptest::proptest! {
    /// The runs' joker bound that skips overlapping pairs under their windows' sum
    /// and counts apart pairs as that sum is the bound of every pair counted in
    /// full (L-4.2, the second deck's copies for overlapping runs).
    #[test]
    fn runs_bound_agrees_with_every_pair_counted(
        suits in 1u8..=4,
        picks in proptest::collection::vec(0u8..52, 0..20),
        jokers in 0u8..=2,
        runs in 0u8..=3,
        run_len in 2u8..=7,
    ) {
        let counts = few_suit_hand(suits, &picks, jokers);
        proptest::prop_assert_eq!(
            runs_jokers_needed_at_least(&counts, runs, run_len),
            runs_jokers_needed_by_every_pair(&counts, runs, run_len),
            "{:?}", counts.to_cards()
        );
    }
}

proptest::proptest! {
    /// The guard of the greedy bot's search filter: a hand that holds a contract
    /// with runs never needs, by the bound, more jokers than it has (L-4.2, L-4.5).
    /// Hands drawn from few suits, so that they often hold runs.
    #[test]
    fn runs_bound_never_exceeds_the_jokers_of_a_held_contract(
        suits in 1u8..=4,
        picks in proptest::collection::vec(0u8..52, 6..16),
        jokers in 0u8..=2,
        sets in 0u8..=1,
        runs in 1u8..=2,
        run_len in 3u8..=5,
    ) {
        let counts = few_suit_hand(suits, &picks, jokers);
        let rules = RuleSet { run_size_min: run_len, ..RuleSet::liverpool() };
        let contract = Contract::new(sets, runs);
        if crate::search::has_contract(&counts, &contract, &rules) {
            let needed = runs_jokers_needed_at_least(&counts, runs, run_len);
            proptest::prop_assert!(needed.is_some_and(|n| n <= jokers as u32), "{:?} {needed:?}", counts.to_cards());
        }
    }
}

proptest::proptest! {
    /// The closest set found a number of copies at a time, all ranks at once, is
    /// the one a scan of the ranks picks: the most copies up to the set's size,
    /// ties to the higher rank (L-4.1), 13 when the pool has no card.
    #[test]
    fn closest_set_agrees_with_a_scan_of_the_ranks(
        copies in proptest::collection::vec(0u8..10, 13), set_len in 1u32..=10
    ) {
        let mut totals = [0u8; 16];
        totals[1..14].copy_from_slice(&copies);
        let scan = (1..=13u8)
            .map(|rank| ((totals[rank as usize] as u32).min(set_len), rank))
            .max()
            .unwrap();
        proptest::prop_assert_eq!(closest_set(&totals, set_len), scan);
    }
}

#[test]
fn near_rank_table_agrees_with_the_window_of_every_rank() {
    // Every run length and rank; the ace reaches from both ends (L-4.2).
    for reach in 1..=13u8 {
        for rank in 1..=13u8 {
            assert_eq!(
                near_rank(rank, reach),
                window(rank_bits(rank), reach),
                "rank {rank}, reach {reach}"
            );
        }
    }
    assert_eq!(
        near_rank(1, 3),
        1 << 2 | 1 << 3 | 1 << 12 | 1 << 13,
        "A reaches 2, 3 and Q, K"
    );
}

#[test]
fn near_bytes_read_the_counts_of_the_near_positions_once() {
    // For every run length and rank, and random counts of one suit: the bytes the
    // two words' masks keep are the counts at the near positions, each read once
    // (the ace's count at position 1 or 14, L-4.3).
    let mut rng = crate::rng::Rng::from_seed(25);
    for reach in 1..=13u8 {
        for rank in 1..=13u8 {
            for _ in 0..20 {
                let mut counts = [0u8; CARD_KINDS];
                for n in counts.iter_mut() {
                    *n = [0, 1, 2, 3][rng.below(4) as usize];
                }
                let suit = rng.below(4) as usize;
                let (low, high) = suit_words(&counts, suit);
                let (near_low, near_high) = NEAR_BYTES[reach as usize][rank as usize];
                let kept: u32 = (low & near_low)
                    .to_le_bytes()
                    .iter()
                    .chain((high & near_high).to_le_bytes().iter())
                    .map(|&b| b as u32)
                    .sum();
                let near = near_rank(rank, reach);
                let want: u32 = (1..=13u8)
                    .filter(|&r| rank_bits(r) & near != 0)
                    .map(|r| counts[suit * 13 + r as usize - 1] as u32)
                    .sum();
                assert_eq!(kept, want, "reach {reach}, rank {rank}, suit {suit}");
            }
        }
    }
}

#[test]
fn sets_and_runs_bound_needs_both_parts_from_distinct_cards() {
    // Round 2 (L-3): a set and a run. 7♥ cannot be in both (L-4.1, L-4.2).
    let within = |text: &str| sets_and_runs_within_jokers(&hand(text), 1, 1, 3, 4);
    assert_eq!(within("7♠ 7♦ 7♥ 8♥ 9♥ 10♥"), Some(false));
    assert_eq!(within("7♠ 7♦ 7♥ 7♣ 8♥ 9♥ 10♥"), Some(true));
    assert_eq!(
        within("7♠ 7♦ 7♥ 8♥ 9♥ 10♥ JK"),
        Some(true),
        "the joker fills the set or the run"
    );
    assert_eq!(within("7♠ 7♦ 8♥ 9♥ 10♥ 2♣"), Some(false));
    assert_eq!(sets_and_runs_within_jokers(&hand("7♠"), 3, 0, 3, 4), None);
}

proptest::proptest! {
    /// The sets' shortfall from the ranks' totals added word by word agrees with a
    /// scan of the ranks (a debug_assert inside, so this fails in debug builds if
    /// they differ), for hands of up to four copies of a card (L-4.1).
    #[test]
    fn sets_and_runs_bound_counts_the_sets_as_a_scan_does(
        picks in proptest::collection::vec(0u8..52, 0..24),
        ranks in 1u8..=13,
        copies in 1u8..=4,
        jokers in 0u8..=3,
        sets in 0u8..=2,
        runs in 0u8..=2,
        set_len in 1u8..=5,
        run_len in 3u8..=5,
    ) {
        // Cards of the first `ranks` ranks only, so that a rank often holds many.
        let mut counts = CardCounts([0; CARD_KINDS]);
        for p in &picks {
            let id = (p % 4 * 13 + p / 4 % ranks) as usize;
            counts.0[id] = (counts.0[id] + 1).min(copies);
        }
        counts.0[JOKER_ID as usize] = jokers;
        let within = sets_and_runs_within_jokers(&counts, sets, runs, set_len, run_len);
        proptest::prop_assert!(within.is_some());
    }
}

proptest::proptest! {
    /// The guard of the greedy bot's other search filter: a hand that holds a
    /// contract of sets and runs always passes it (L-4.1, L-4.2, L-4.5).
    #[test]
    fn sets_and_runs_bound_passes_every_held_contract(
        suits in 1u8..=4,
        picks in proptest::collection::vec(0u8..52, 6..16),
        jokers in 0u8..=2,
        sets in 0u8..=2,
        runs in 0u8..=2,
        run_len in 3u8..=5,
    ) {
        let counts = few_suit_hand(suits, &picks, jokers);
        let rules = RuleSet { run_size_min: run_len, ..RuleSet::liverpool() };
        let contract = Contract::new(sets, runs);
        if sets + runs > 0 && crate::search::has_contract(&counts, &contract, &rules) {
            let within = sets_and_runs_within_jokers(&counts, sets, runs, rules.set_size_min, run_len);
            proptest::prop_assert_eq!(within, Some(true), "{:?}", counts.to_cards());
        }
    }
}

proptest::proptest! {
    /// The bounded estimate that buys and discards use is the estimate whenever it
    /// is below the bound, and `None` exactly when it is not, for every contract
    /// of profile L (whole hand included, L-8) and a gap rule either way (L-4.4).
    #[test]
    fn estimate_below_is_the_estimate_under_its_bound(
        suits in 1u8..=4,
        picks in proptest::collection::vec(0u8..52, 4..16),
        jokers in 0u8..=2,
        round in 0usize..7,
        bound in 0u32..8,
        gap_rule: bool,
    ) {
        let counts = few_suit_hand(suits, &picks, jokers);
        let rules = RuleSet { same_suit_runs_need_gap: gap_rule, ..RuleSet::liverpool() };
        let contract = rules.contracts[round];
        let full = estimate(&counts, &contract, &rules);
        let below = estimate_below(&counts, &contract, &rules, bound);
        proptest::prop_assert_eq!(below, (full.missing < bound).then_some(full), "{:?}", counts.to_cards());
    }
}

/// `could_help` as first written: a scan of the positions around the card.
fn could_help_by_scan(hand: &CardCounts, card: Card, contract: &Contract, rules: &RuleSet) -> bool {
    if card.is_joker() {
        return true;
    }
    let rank = card.rank();
    if contract.sets() > 0 && Suit::ALL.iter().any(|&s| hand.get(Card::new(rank, s)) > 0) {
        return true;
    }
    if contract.runs() > 0 {
        let run_len = if contract.whole_hand {
            rules.whole_hand_run_min
        } else {
            rules.run_size_min
        }
        .clamp(1, 13);
        let reach = run_len - 1;
        let suit = card.suit_index();
        let positions: &[u8] = if rank == 1 {
            &[1, 14]
        } else {
            std::slice::from_ref(&rank)
        };
        for &p in positions {
            for q in p.saturating_sub(reach).max(1)..=(p + reach).min(14) {
                if q != p && hand.0[id_at(suit, q)] > 0 && !(rank == 1 && (q == 1 || q == 14)) {
                    return true;
                }
            }
        }
    }
    false
}

proptest::proptest! {
    /// The bit-mask `could_help` answers as the scan of neighbouring positions does,
    /// aces at both ends (L-4.3), for every contract of profile L and run lengths 2..=6.
    #[test]
    fn could_help_agrees_with_a_scan_of_the_neighbours(
        suits in 1u8..=4,
        picks in proptest::collection::vec(0u8..52, 1..14),
        card in 0u8..=52,
        round in 0usize..7,
        run_len in 2u8..=6,
    ) {
        let counts = few_suit_hand(suits, &picks, 0);
        let rules = RuleSet { run_size_min: run_len, whole_hand_run_min: run_len, ..RuleSet::liverpool() };
        let contract = rules.contracts[round];
        let card = Card::from_id(card).unwrap();
        proptest::prop_assert_eq!(
            could_help(&counts, card, &contract, &rules),
            could_help_by_scan(&counts, card, &contract, &rules),
            "{:?} {}", counts.to_cards(), card
        );
    }
}

#[test]
fn natural_ids_held_marks_every_natural_card_held_and_no_joker() {
    let mut rng = crate::rng::Rng::from_seed(11);
    for _ in 0..500 {
        let mut counts = CardCounts([0; CARD_KINDS]);
        for n in counts.0.iter_mut() {
            *n = [0, 0, 0, 1, 2][rng.below(5) as usize];
        }
        let want = (0..JOKER_ID as usize).fold(0u64, |m, id| m | u64::from(counts.0[id] > 0) << id);
        assert_eq!(natural_ids_held(&counts), want, "{:?}", counts.to_cards());
    }
}

/// `connections` as first written: a scan of the rank and the positions around it.
fn connections_by_scan(hand: &CardCounts, card: Card) -> u32 {
    if card.is_joker() {
        return u32::MAX / 2;
    }
    let rank = card.rank();
    // The card itself is not its own mate.
    let same_rank = Suit::ALL
        .iter()
        .map(|&s| hand.get(Card::new(rank, s)) as u32)
        .sum::<u32>()
        .saturating_sub(1);
    let suit = card.suit_index();
    let positions: &[u8] = if rank == 1 {
        &[1, 14]
    } else {
        std::slice::from_ref(&rank)
    };
    let mut near = 0u32;
    for &p in positions {
        for q in p.saturating_sub(2).max(1)..=(p + 2).min(14) {
            if q != p && !(rank == 1 && (q == 1 || q == 14)) {
                near += (hand.0[id_at(suit, q)] > 0) as u32;
            }
        }
    }
    same_rank + near
}

proptest::proptest! {
    /// The bit-mask `connections` counts as the scan does, aces at both ends (L-4.3).
    #[test]
    fn connections_agree_with_a_scan(
        suits in 1u8..=4,
        picks in proptest::collection::vec(0u8..52, 1..16),
        card in 0u8..=52,
    ) {
        let counts = few_suit_hand(suits, &picks, 0);
        let card = Card::from_id(card).unwrap();
        proptest::prop_assert_eq!(connections(&counts, card), connections_by_scan(&counts, card), "{:?} {}", counts.to_cards(), card);
    }
}

#[test]
fn connections_count_rank_mates_and_suit_neighbours() {
    let h = hand("7♠ 7♥ 8♠ 9♠ K♦ A♣ 2♣");
    assert_eq!(connections(&h, Card::parse("7♠").unwrap()), 3); // 7♥, 8♠, 9♠
    assert_eq!(connections(&h, Card::parse("K♦").unwrap()), 0);
    assert_eq!(connections(&h, Card::parse("A♣").unwrap()), 1); // 2♣
}
