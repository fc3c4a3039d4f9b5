//! How useful one card is to a hand: whether it could help towards the contract,
//! whether cards could meld at all, whether every card could join a run, and how
//! connected a card is to the rest of the hand.

use super::bits::*;
use super::missing::*;
use super::windows::*;
use crate::card::{Card, CardCounts};
use crate::rules::{Contract, MeldKind, RuleSet};

/// Could `card` bring `hand` closer to `contract` in [`estimate`]'s eyes? A joker
/// always could; a natural card only if the contract has sets and the hand holds
/// its rank, or the contract has runs and the hand holds a card of its suit close
/// enough to share a run. A cheap filter before a new estimate.
pub fn could_help(hand: &CardCounts, card: Card, contract: &Contract, rules: &RuleSet) -> bool {
    if card.is_joker() {
        return true;
    }
    let rank = card.rank();
    let h = &hand.0;
    let of_rank = |suit: usize| h[suit * 13 + rank as usize - 1];
    // Whether the contract has a meld of a kind, asked only when it matters and
    // answered at the first such meld.
    let asks_for = |kind: MeldKind| contract.melds().iter().any(|m| m.kind == kind);
    if (of_rank(0) | of_rank(1) | of_rank(2) | of_rank(3)) > 0 && asks_for(MeldKind::Set) {
        return true;
    }
    if asks_for(MeldKind::Run) {
        let run_len = if contract.whole_hand {
            rules.whole_hand_run_min
        } else {
            rules.run_size_min
        }
        .clamp(1, 13);
        // The suit's counts at the positions close enough to the card's to share a
        // run with it (not its own; the ace at both ends).
        let (low, high) = suit_words(h, card.suit_index() as usize);
        let (near_low, near_high) = NEAR_BYTES[run_len as usize][rank.min(13) as usize];
        let helps = (low & near_low) | (high & near_high) != 0;
        debug_assert_eq!(helps, {
            let ranks = nonzero_bits(suit_bytes(h, card.suit_index() as usize)) << 1;
            let held = ranks | (ranks >> 1 & 1) << 14;
            held & near_rank(rank, run_len) != 0
        });
        return helps;
    }
    false
}

/// Could the natural cards of `cards` form any meld of the kinds given by
/// themselves: a set (`set_size_min` copies of a rank) or a run (`run_size_min`
/// consecutive positions of a suit)? Jokers are not counted. When not, their best
/// arrangement is no meld at all, and the search can be skipped.
pub fn could_meld(cards: &CardCounts, sets: bool, runs: bool, rules: &RuleSet) -> bool {
    let pool = Pool::for_kinds(cards, sets, runs);
    if sets
        && pool
            .rank_totals
            .iter()
            .any(|&n| n as u32 >= rules.set_size_min.max(1) as u32)
    {
        return true;
    }
    if runs {
        let len = rules.run_size_min.clamp(1, 14) as u32;
        // Some `len` consecutive positions all present, the four suits at once: their
        // masks side by side, 16 bits each. Bits 0 and 15 of a mask are never set and
        // the steps only clear bits, so no run reaches from one suit into the next.
        let mut run = (0..4).fold(0u64, |w, s| w | (pool.masks[s] as u64) << (16 * s));
        for _ in 1..len {
            run &= run >> 1;
        }
        debug_assert_eq!(
            run != 0,
            pool.masks
                .iter()
                .any(|&mask| (1..len).fold(mask as u32, |r, _| r & r >> 1) != 0)
        );
        return run != 0;
    }
    false
}

/// Could every natural card of `hand` sit in a run of `run_len` positions of its
/// suit, with the hand's jokers standing for the positions it lacks? A whole-hand
/// contract (L-8) needs this card by card (and more: the runs must not share cards),
/// so a hand that fails it cannot be laid whole.
pub fn every_card_could_run(hand: &CardCounts, run_len: u8) -> bool {
    let pool = Pool::for_kinds(hand, false, true);
    let len = run_len.clamp(1, 14);
    // At least one natural card per run (L-4.5), the rest may be jokers.
    let need = (len as u32).saturating_sub(hand.jokers() as u32).max(1);
    for mask in pool.masks {
        let covered = covered_by_windows(mask, len, need);
        let mask = mask as u32;
        // Ranks 2..K at their one position; the ace at position 1 or 14.
        let plain = 0x3FFC;
        if mask & plain & !covered != 0 {
            return false;
        }
        let ace = (1 << 1) | (1 << 14);
        if mask & ace != 0 && covered & ace == 0 {
            return false;
        }
    }
    true
}

/// The positions of the windows of `len` positions (1..=14) holding at least `need`
/// positions of `mask` (`need` <= `len`), all windows at once: one byte lane per
/// window counts its positions (as in [`best_window_key`]), the lanes with enough
/// are gathered into bits, and each bit is widened to its window.
#[inline]
pub(super) fn covered_by_windows(mask: PositionMask, len: u8, need: u32) -> u32 {
    const HIGH: u128 = LANE_ONES << 7;
    let windows = window_lanes(len);
    let m = mask as usize;
    let bits = SPREAD[m & 0xFF] as u128 | (SPREAD[m >> 8 & 0xFF] as u128) << 64;
    let upto = bits.wrapping_mul(LANE_ONES);
    let counts = (upto >> (8 * (len as u32 - 1))).wrapping_sub(upto << 8) & windows;
    // The high bit of each window's byte: it holds at least `need` positions.
    let enough = ((counts | HIGH) - LANE_ONES * need as u128) & HIGH & windows;
    let gather = |x: u64| (x.wrapping_mul(0x0002_0408_1020_4081) >> 56) as u32;
    let lows = gather(enough as u64) | gather((enough >> 64) as u64) << 8;
    let mut covered = 0u32;
    for k in 0..len {
        covered |= lows << k;
    }
    debug_assert_eq!(covered, {
        let window_bits = (1u32 << len) - 1;
        (1..=15 - len)
            .map(|lo| window_bits << lo)
            .filter(|&w| ones(mask as u32 & w) >= need)
            .fold(0, |c, w| c | w)
    });
    covered
}

/// How many other cards of `hand` could share a meld with `card`: copies and other
/// suits of its rank, and cards of its suit within two positions (ace low or high).
/// Jokers are always useful and score high. Used to break ties between discards.
pub fn connections(hand: &CardCounts, card: Card) -> u32 {
    if card.is_joker() {
        return u32::MAX / 2;
    }
    let rank = card.rank();
    let h = &hand.0;
    // The card itself is not its own mate.
    let of_rank = |suit: usize| h[suit * 13 + rank as usize - 1] as u32;
    let same_rank = (of_rank(0) + of_rank(1) + of_rank(2) + of_rank(3)).saturating_sub(1);
    // The suit's positions held within two of the card's (the ace at both ends).
    let (low, high) = suit_words(h, card.suit_index() as usize);
    let (near_low, near_high) = NEAR_BYTES[3][rank.min(13) as usize];
    let near = nonzero_bytes(low & near_low) + nonzero_bytes(high & near_high);
    debug_assert_eq!(near, {
        let ranks = nonzero_bits(suit_bytes(h, card.suit_index() as usize)) << 1;
        let held = ranks | (ranks >> 1 & 1) << 14;
        ones((held & near_rank(rank, 3)) as u32)
    });
    same_rank + near
}
