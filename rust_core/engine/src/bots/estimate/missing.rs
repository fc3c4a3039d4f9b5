//! How many cards a hand lacks for the round's contract (`estimate`,
//! `cards_missing`): the contract's melds picked greedily, one at a time.

use super::bits::*;
use super::windows::*;
use crate::card::{Card, CardCounts, CARD_KINDS, JOKER_ID};
use crate::rules::{Contract, RuleSet, MAX_CONTRACT_MELDS};

/// No mask of positions (bit 0 and bit 15 are never set): the estimate's mark of a
/// suit whose best window is not known.
pub(super) const UNSCANNED: PositionMask = PositionMask::MAX;

/// The cards of a hand still free while the estimate picks melds, with per-suit
/// position masks and per-rank totals kept up to date so each pick is cheap.
pub(super) struct Pool {
    pub(super) counts: [u8; CARD_KINDS],
    pub(super) masks: [PositionMask; 4],
    /// Byte `r` counts rank `r` (1..=13); bytes 0, 14 and 15 stay 0.
    pub(super) rank_totals: [u8; 16],
}

impl Pool {
    /// The pool with both parts kept (the tests' reference for `for_kinds`).
    #[cfg(test)]
    pub(super) fn new(hand: &CardCounts) -> Pool {
        Pool::for_kinds(hand, true, true)
    }

    /// The pool of `hand` with only what picks of the meld kinds asked for read:
    /// the rank totals for sets, the position masks for runs. The other stays
    /// empty (the masks) or meaningless (the totals), and `take` keeps it so.
    #[inline(always)]
    pub(super) fn for_kinds(hand: &CardCounts, sets: bool, runs: bool) -> Pool {
        let mut pool = Pool {
            counts: hand.0,
            masks: [0; 4],
            rank_totals: [0; 16],
        };
        pool.counts[JOKER_ID as usize] = 0;
        let h = &hand.0;
        if runs {
            // Branch-free, a suit of 13 counts at a time.
            for (suit, mask) in pool.masks.iter_mut().enumerate() {
                let ranks = nonzero_bits(suit_bytes(h, suit)) << 1;
                // The ace is also position 14.
                *mask = ranks | (ranks >> 1 & 1) << 14;
            }
        }
        if sets {
            // The four suits of a rank sit 13 ids apart: the suits' words added byte by
            // byte give every rank's total at once (a hand holds a few copies of a card,
            // so no byte carries into the next; the bytes above 13 are ignored).
            let totals = (0..4).fold(0u128, |sum, suit| sum.wrapping_add(suit_bytes(h, suit)));
            // Rank `r` (1..=13) at byte `r`, byte 0 (no rank) zero.
            let bytes = (totals << 8).to_le_bytes();
            pool.rank_totals[..14].copy_from_slice(&bytes[..14]);
        }
        pool
    }

    /// Take one copy of the card of `suit` and `rank` (it must be there).
    #[inline]
    pub(super) fn take(&mut self, suit: u8, rank: u8) {
        let id = (suit * 13 + rank - 1) as usize;
        self.counts[id] -= 1;
        // Wrapping: the totals are not kept for a pool without sets (`for_kinds`).
        self.rank_totals[rank as usize] = self.rank_totals[rank as usize].wrapping_sub(1);
        if self.counts[id] == 0 {
            self.masks[suit as usize] &= !rank_bits(rank);
        }
    }

    #[inline]
    pub(super) fn has(&self, suit: u8, pos: u8) -> bool {
        self.counts[id_at(suit, pos)] > 0
    }

    /// Take one copy of every card the pool has in the window of `run`, all at once:
    /// the present positions found from the suit's mask, one subtraction from the
    /// suit's thirteen counts and one from the rank totals, then the suit's mask
    /// read again. A window never holds both of the ace's positions (at most 13
    /// long), so no card is taken twice.
    #[inline(always)]
    pub(super) fn take_run(&mut self, run: ChosenRun) {
        debug_assert!(run.hi - run.lo < 13);
        let suit = run.suit as usize;
        let window = ((1u32 << (run.hi - run.lo + 1)) - 1) << run.lo;
        let present = self.masks[suit] as u32 & window;
        // Bit `rank - 1` per card taken: positions 1..=13 are ranks 1..=13, 14 the ace.
        let taken = (present >> 1 & 0x1FFF | present >> 14) as usize;
        let ones = SPREAD[taken & 0xFF] as u128 | (SPREAD[taken >> 8] as u128) << 64;
        let first = suit * 13;
        let mut bytes = [0u8; 16];
        bytes[..13].copy_from_slice(&self.counts[first..first + 13]);
        // Every count taken from is at least 1: no byte borrows from the next.
        let left = u128::from_le_bytes(bytes) - ones;
        self.counts[first..first + 13].copy_from_slice(&left.to_le_bytes()[..13]);
        let ranks = nonzero_bits(left) << 1;
        self.masks[suit] = ranks | (ranks >> 1 & 1) << 14;
        // Rank `r` at byte `r` (wrapping: a pool without sets keeps no totals).
        let totals = u128::from_le_bytes(self.rank_totals).wrapping_sub(ones << 8);
        self.rank_totals = totals.to_le_bytes();
    }

    /// Take the card at run position `pos` of `suit` if the pool has it.
    #[inline]
    pub(super) fn take_at(&mut self, suit: u8, pos: u8) -> bool {
        let here = self.has(suit, pos);
        if here {
            self.take(suit, if pos == 14 { 1 } else { pos });
        }
        here
    }
}

/// The result of [`estimate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Estimated cards the hand lacks (see [`estimate`]).
    pub missing: u32,
    /// The natural cards the chosen melds use (for a whole-hand contract, also the
    /// cards the runs were stretched over). Removing a card not used here cannot
    /// raise `missing`: the same picks remain, and a whole-hand stray goes away.
    pub used: CardCounts,
}

impl Estimate {
    /// `missing` after removing one copy of `card` from the hand, without a new
    /// estimate when the card is not used by the chosen melds (`None`: it is, ask
    /// [`estimate`] again).
    pub fn without_unused(&self, hand: &CardCounts, card: Card, contract: &Contract) -> Option<u32> {
        if card.is_joker() || self.used.get(card) >= hand.get(card) {
            return None;
        }
        // A whole-hand stray no longer needs to be placed.
        Some(self.missing - u32::from(contract.whole_hand))
    }
}

/// The sets and the runs `contract` asks for, its melds counted once: every meld
/// that is not a set is a run.
#[inline(always)]
pub(super) fn sets_and_runs(contract: &Contract) -> (u32, u32) {
    let sets = contract.sets() as u32;
    let runs = contract.count() as u32 - sets;
    debug_assert_eq!(runs, contract.runs() as u32);
    (sets, runs)
}

/// How many cards `hand` lacks for `contract`, estimated greedily:
///
/// - the contract's melds are picked one at a time, each time the requirement that
///   the remaining cards come closest to (a set of the rank with the most copies, or
///   the window of one suit, as long as the minimum run, with the most positions
///   present; a same-suit window touching an already chosen one end to end is
///   skipped when the rules ask for a gap, L-4.4), and its cards are taken out
///   before the next pick;
/// - each meld lacks `size - present` cards; jokers fill those gaps, except that each
///   meld keeps the rules' minimum of natural cards (L-4.5);
/// - for a whole-hand contract (L-8) every natural card that ends up in no chosen
///   window, even after stretching the windows over neighbouring cards, counts as
///   one more card to get rid of, since the whole hand must be laid.
///
/// `missing` is 0 for a hand that holds the contract in the greedy's eyes; greedy
/// picks can miss a contract the exact search finds, which is why the bot confirms
/// with `search::has_contract`.
pub fn estimate(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> Estimate {
    estimate_below(hand, contract, rules, u32::MAX).expect("no estimate reaches u32::MAX")
}

/// [`estimate`] when its `missing` is below `bound`, else `None`, found without
/// finishing the estimate as soon as the melds picked so far, plus the melds left
/// each lacking at least as many cards as the closest one now, lack `bound` cards:
/// each pick only adds to the cards missing, and the pool it picks from only
/// shrinks. For questions such as "does this card lower the cards missing?".
#[inline(always)]
pub fn estimate_below(hand: &CardCounts, contract: &Contract, rules: &RuleSet, bound: u32) -> Option<Estimate> {
    let (mut sets_left, mut runs_left) = sets_and_runs(contract);
    let mut pool = Pool::for_kinds(hand, sets_left > 0, runs_left > 0);
    let jokers = hand.jokers() as u32;
    let set_len = rules.set_size_min.max(1) as u32;
    let run_len = if contract.whole_hand {
        rules.whole_hand_run_min
    } else {
        rules.run_size_min
    }
    .clamp(1, 13);
    let set_naturals = rules.min_naturals_set.max(1) as u32;
    let run_naturals = rules.min_naturals_run.max(1) as u32;
    let windows = Windows::new(run_len);

    // A contract asks for at most `MAX_CONTRACT_MELDS` melds, so as many runs.
    let mut chosen = [ChosenRun { suit: 0, lo: 0, hi: 0 }; MAX_CONTRACT_MELDS];
    let mut n_chosen = 0usize;
    // Per suit: the low positions of the windows its chosen runs close (L-4.4).
    let mut blocked = [0 as PositionMask; 4];
    let gap_rule = rules.same_suit_runs_need_gap;
    // Per suit: the best window as `(present + 1) << 6 | suit << 4 | lo` (`suit << 4`: none)
    // and the mask it was computed for.
    let mut suit_best = [0u32; 4];
    // (`UNSCANNED`: none yet, or its windows changed.)
    let mut scanned = [UNSCANNED; 4];
    let mut fillable = 0u32; // gaps a joker may fill
    let mut natural_gaps = 0u32; // gaps only a natural card may fill
    while sets_left + runs_left > 0 {
        // The closest set: the rank with the most copies (ties: the higher rank,
        // whose cards score more).
        let mut best_set = (0u32, 1u8);
        if sets_left > 0 {
            best_set = closest_set(&pool.rank_totals, set_len);
        }
        // The closest run window (ties: the higher suit, then the higher window).
        // A suit is scanned again only when its cards or its chosen runs changed.
        let mut best_run: Option<(u32, ChosenRun)> = None;
        if runs_left > 0 {
            // Compared as `(present + 1) << 6 | suit << 4 | lo`: a branch-free max, ties
            // to the higher suit; below 64 when no suit has a window.
            let mut best = 0u32;
            for suit in 0..4u8 {
                let s = suit as usize;
                debug_assert_ne!(pool.masks[s], UNSCANNED);
                if scanned[s] != pool.masks[s] {
                    let key = windows.best_key_blocked(pool.masks[s], blocked[s]);
                    debug_assert_eq!(
                        key,
                        windows.best_key(pool.masks[s], suit, &chosen[..n_chosen], gap_rule)
                    );
                    // Branch-free: a suit without a window keeps only `suit << 4`, below
                    // the key of every window (64 and up).
                    let key = key as u32;
                    suit_best[s] = (key & 0xF0) << 2 | (suit as u32) << 4 | (key & 0xF);
                    debug_assert_eq!(suit_best[s] >> 6, key >> 4, "present + 1 (0: no window)");
                    debug_assert_eq!(
                        (suit_best[s] >> 4 & 3, suit_best[s] & 0xF),
                        (suit as u32, key & 0xF),
                        "suit and low position"
                    );
                    scanned[s] = pool.masks[s];
                }
                best = best.max(suit_best[s]);
            }
            if best >= 1 << 6 {
                let lo = (best & 0xF) as u8;
                let run = ChosenRun {
                    suit: (best >> 4 & 3) as u8,
                    lo,
                    hi: lo + run_len - 1,
                };
                best_run = Some(((best >> 6) - 1, run));
            }
            // The same choice as a scan of the suits in order, keeping the last of the
            // most present positions.
            debug_assert_eq!(
                best_run.map(|(present, run)| (present, run.suit, run.lo)),
                (0..4u8).fold(None, |kept: Option<(u32, u8, u8)>, suit| {
                    let key = suit_best[suit as usize];
                    match ((key >> 6).checked_sub(1), kept) {
                        (Some(present), Some((p, ..))) if present < p => kept,
                        (Some(present), _) => Some((present, suit, (key & 0xF) as u8)),
                        (None, _) => kept,
                    }
                })
            );
        }
        // The pool only shrinks and chosen runs only close windows (L-4.4), so no later
        // set or run lacks fewer cards than the closest one now: when even that many
        // for every meld left reach the bound, the estimate does too.
        let set_gap = set_len - best_set.0;
        let run_gap = best_run.map_or(0, |(present, _)| run_len as u32 - present);
        let ahead = sets_left * set_gap + runs_left * run_gap;
        if natural_gaps + (fillable + ahead).saturating_sub(jokers) >= bound {
            return None;
        }
        let take_set = sets_left > 0 && best_run.is_none_or(|(present, _)| set_gap <= run_len as u32 - present);
        let (present, size, naturals) = if take_set {
            let (copies, rank) = best_set;
            let mut need = copies;
            // When a run still matters, take first the copies whose suit has the
            // fewest neighbours of this rank (they are the least use to a run).
            let mut suits = [0u8, 1, 2, 3];
            if runs_left > 0 {
                let near = near_rank(rank, run_len) as usize;
                let links = suits.map(|s| {
                    BITS_SET_8[(pool.masks[s as usize] as usize & near) & 0xFF]
                        + BITS_SET_8[(pool.masks[s as usize] as usize & near) >> 8]
                });
                // A stable insertion sort of four suits by their links.
                for i in 1..4 {
                    let mut j = i;
                    while j > 0 && links[suits[j - 1] as usize] > links[suits[j] as usize] {
                        suits.swap(j - 1, j);
                        j -= 1;
                    }
                }
            }
            for suit in suits {
                while need > 0 && pool.counts[(suit * 13 + rank - 1) as usize] > 0 {
                    pool.take(suit, rank);
                    need -= 1;
                }
            }
            sets_left -= 1;
            (copies, set_len, set_naturals)
        } else {
            let (present, run) = best_run.expect("runs_left > 0 gives a window");
            pool.take_run(run);
            if n_chosen < chosen.len() {
                chosen[n_chosen] = run;
                n_chosen += 1;
            }
            if gap_rule {
                blocked[run.suit as usize] |= windows.closed_by(run);
            }
            scanned[run.suit as usize] = UNSCANNED; // its windows now depend on this run (L-4.4)
            runs_left -= 1;
            (present, run_len as u32, run_naturals)
        };
        let gaps = size - present;
        let only_natural = naturals.saturating_sub(present).min(gaps);
        natural_gaps += only_natural;
        fillable += gaps - only_natural;
        // Neither count ever falls, and whole-hand strays only add to them.
        if natural_gaps + fillable.saturating_sub(jokers) >= bound {
            return None;
        }
    }
    let mut missing = natural_gaps + fillable.saturating_sub(jokers);

    if contract.whole_hand {
        // Stretch each chosen window over neighbouring cards of its suit; what is
        // left over must still be placed somewhere before the hand can be laid.
        for run in &chosen[..n_chosen] {
            let mut lo = run.lo;
            while lo > 1 && pool.take_at(run.suit, lo - 1) {
                lo -= 1;
            }
            let mut hi = run.hi;
            while hi < 14 && pool.take_at(run.suit, hi + 1) {
                hi += 1;
            }
        }
        missing += pool.counts.iter().map(|&n| n as u32).sum::<u32>();
    }
    let mut used = *hand;
    for (u, p) in used.0.iter_mut().zip(pool.counts.iter()) {
        *u -= p;
    }
    used.0[JOKER_ID as usize] = 0;
    (missing < bound).then_some(Estimate { missing, used })
}

/// The closest set of `totals` (byte `r` counts rank `r`, bytes 0, 14 and 15 are 0)
/// as `(copies, rank)`: the most copies, counted up to `set_len`, ties to the higher
/// rank (13 when no rank has a copy). All ranks at once, one number of copies at a
/// time from `set_len` down: the high bit of each byte of `(totals | 0x80..) - copies`
/// says whether that rank has as many.
#[inline(always)]
pub(super) fn closest_set(totals: &[u8; 16], set_len: u32) -> (u32, u8) {
    const HIGH: u128 = LANE_ONES << 7;
    let lanes = u128::from_le_bytes(*totals);
    let by_scan = || {
        // Compared as `copies << 4 | rank`: the most copies, ties to the higher rank.
        let best = (1..=13u32)
            .map(|rank| (totals[rank as usize] as u32).min(set_len) << 4 | rank)
            .max()
            .unwrap_or(0);
        (best >> 4, (best & 0xF) as u8)
    };
    // Bytes below 0x80 and at most 8 levels (every profile; else the scan).
    if set_len > 8 || lanes & HIGH != 0 {
        return by_scan();
    }
    let mut found = (0, 13);
    let mut level = (lanes | HIGH) - LANE_ONES * set_len as u128;
    for copies in (1..=set_len).rev() {
        let enough = level & HIGH;
        if enough != 0 {
            found = (copies, ((127 - enough.leading_zeros()) / 8) as u8);
            break;
        }
        level += LANE_ONES;
    }
    debug_assert_eq!(found, by_scan());
    found
}

/// [`estimate`]'s `missing` alone.
pub fn cards_missing(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> u32 {
    estimate(hand, contract, rules).missing
}
