//! Cheap hand estimates for the greedy bot: how far a hand is from the round's
//! contract, and how connected a card is to the rest of the hand.
//!
//! These are heuristics, not rules: they only guide the bot's choices, and every
//! action the bot takes is still checked by the engine. The exact questions ("does
//! the hand hold the contract?") are answered by `crate::search`.

use crate::card::{Card, CardCounts, CARD_KINDS, JOKER_ID};
use crate::rules::{Contract, MeldKind, RuleSet, MAX_CONTRACT_MELDS};
use std::sync::OnceLock;

/// Bit `p` set: run position `p` (1..=14) of one suit is present. The ace sets 1 and 14.
type PositionMask = u16;

/// The card id at run position `pos` (1..=14) of suit `suit`.
#[inline]
fn id_at(suit: u8, pos: u8) -> usize {
    let rank = if pos == 14 { 1 } else { pos };
    (suit * 13 + rank - 1) as usize
}

/// The run positions of a card rank: the ace is both 1 and 14.
#[inline]
fn rank_bits(rank: u8) -> PositionMask {
    if rank == 1 {
        (1 << 1) | (1 << 14)
    } else {
        1 << rank
    }
}

/// The positions within `reach - 1` of the positions in `bits` (a run of `reach`
/// cards through one of them), without the positions themselves.
#[inline]
fn window(bits: PositionMask, reach: u8) -> PositionMask {
    let mut out = 0u32;
    for d in 1..reach {
        out |= (bits as u32) << d | (bits as u32) >> d;
    }
    (out & !(bits as u32) & 0x7FFE) as PositionMask
}

/// [`window`]`(rank_bits(rank), reach)` for every reach (0..=13) and rank (0..=13;
/// rank 0 is no card and has no neighbours), computed once at compile time.
static NEAR_RANK: [[PositionMask; 14]; 14] = {
    let mut table = [[0; 14]; 14];
    let mut reach = 1;
    while reach < 14 {
        let mut rank = 1;
        while rank < 14 {
            let bits = if rank == 1 { (1u32 << 1) | (1 << 14) } else { 1 << rank };
            let mut out = 0u32;
            let mut d = 1;
            while d < reach {
                out |= bits << d | bits >> d;
                d += 1;
            }
            table[reach][rank] = (out & !bits & 0x7FFE) as PositionMask;
            rank += 1;
        }
        reach += 1;
    }
    table
};

/// The positions that share a run of `reach` cards with a card of `rank` (1..=13),
/// not its own: [`window`] of its [`rank_bits`], looked up.
#[inline(always)]
fn near_rank(rank: u8, reach: u8) -> PositionMask {
    let near = NEAR_RANK[reach.min(13) as usize][rank.min(13) as usize];
    debug_assert_eq!(near, window(rank_bits(rank), reach.min(13)));
    near
}

/// [`near_rank`] as byte masks over a suit's thirteen counts read as two words (see
/// [`suit_words`]): 0xFF at the byte of each rank near the card (the ace's byte for
/// position 1 or 14), bytes 0..=7 in the first word, 8..=12 at bytes 3..=7 of the
/// second (its bytes 0..=2 repeat the first word's 5..=7 and stay 0), so that no
/// count is read twice.
static NEAR_BYTES: [[(u64, u64); 14]; 14] = {
    let mut table = [[(0u64, 0u64); 14]; 14];
    let mut reach = 1;
    while reach < 14 {
        let mut rank = 1;
        while rank < 14 {
            let near = NEAR_RANK[reach][rank];
            let mut pos = 1;
            while pos <= 14 {
                if near >> pos & 1 == 1 {
                    let byte = if pos == 14 { 0 } else { pos - 1 };
                    if byte < 8 {
                        table[reach][rank].0 |= 0xFF << (8 * byte);
                    } else {
                        table[reach][rank].1 |= 0xFF << (8 * (byte - 5));
                    }
                }
                pos += 1;
            }
            rank += 1;
        }
        reach += 1;
    }
    table
};

/// The counts of `suit` as two words, with no shift by the suit: its ids 0..=7 and
/// its ids 5..=12 (both inside the hand's 53 counts for every suit).
#[inline(always)]
fn suit_words(counts: &[u8; CARD_KINDS], suit: usize) -> (u64, u64) {
    let first = suit * 13;
    let word = |at: usize| u64::from_le_bytes(counts[at..at + 8].try_into().expect("eight bytes"));
    (word(first), word(first + 5))
}

/// How many bytes of `word` are not zero (the high bit of each byte of
/// `((x & 0x7f..) + 0x7f..) | x` says so; one multiplication adds them up).
#[inline(always)]
fn nonzero_bytes(word: u64) -> u32 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let flags = ((((word & LOW7) + LOW7) | word) >> 7) & 0x0101_0101_0101_0101;
    (flags.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// No mask of positions (bit 0 and bit 15 are never set): the estimate's mark of a
/// suit whose best window is not known.
const UNSCANNED: PositionMask = PositionMask::MAX;

/// A run window the estimate has committed to.
#[derive(Clone, Copy)]
struct ChosenRun {
    suit: u8,
    lo: u8,
    hi: u8,
}

/// The cards of a hand still free while the estimate picks melds, with per-suit
/// position masks and per-rank totals kept up to date so each pick is cheap.
struct Pool {
    counts: [u8; CARD_KINDS],
    masks: [PositionMask; 4],
    /// Byte `r` counts rank `r` (1..=13); bytes 0, 14 and 15 stay 0.
    rank_totals: [u8; 16],
}

impl Pool {
    /// The pool with both parts kept (the tests' reference for `for_kinds`).
    #[cfg(test)]
    fn new(hand: &CardCounts) -> Pool {
        Pool::for_kinds(hand, true, true)
    }

    /// The pool of `hand` with only what picks of the meld kinds asked for read:
    /// the rank totals for sets, the position masks for runs. The other stays
    /// empty (the masks) or meaningless (the totals), and `take` keeps it so.
    #[inline(always)]
    fn for_kinds(hand: &CardCounts, sets: bool, runs: bool) -> Pool {
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
    fn take(&mut self, suit: u8, rank: u8) {
        let id = (suit * 13 + rank - 1) as usize;
        self.counts[id] -= 1;
        // Wrapping: the totals are not kept for a pool without sets (`for_kinds`).
        self.rank_totals[rank as usize] = self.rank_totals[rank as usize].wrapping_sub(1);
        if self.counts[id] == 0 {
            self.masks[suit as usize] &= !rank_bits(rank);
        }
    }

    #[inline]
    fn has(&self, suit: u8, pos: u8) -> bool {
        self.counts[id_at(suit, pos)] > 0
    }

    /// Take one copy of every card the pool has in the window of `run`, all at once:
    /// the present positions found from the suit's mask, one subtraction from the
    /// suit's thirteen counts and one from the rank totals, then the suit's mask
    /// read again. A window never holds both of the ace's positions (at most 13
    /// long), so no card is taken twice.
    #[inline(always)]
    fn take_run(&mut self, run: ChosenRun) {
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
    fn take_at(&mut self, suit: u8, pos: u8) -> bool {
        let here = self.has(suit, pos);
        if here {
            self.take(suit, if pos == 14 { 1 } else { pos });
        }
        here
    }
}

/// The counts of `suit` (13 card ids from `suit * 13`) in the low 13 bytes of a
/// word read straight from the hand; the bytes above belong to the next suit (or the
/// joker) and are the caller's to ignore.
#[inline]
fn suit_bytes(counts: &[u8; CARD_KINDS], suit: usize) -> u128 {
    // Sixteen bytes from the suit's first id, or for the last suit the sixteen
    // bytes that end the array, shifted down to it.
    let first = (suit * 13).min(CARD_KINDS - 16);
    let word = u128::from_le_bytes(counts[first..first + 16].try_into().expect("sixteen bytes"));
    word >> (8 * (suit * 13 - first))
}

/// Bit `i` (`i < 13`) set iff byte `i` of `word` is not zero, eight bytes at a time:
/// the high bit of each byte of `((x & 0x7f..) + 0x7f..) | x` says whether it is
/// non-zero, and one multiplication gathers those high bits into the top byte (the
/// high bit of byte `i` lands on bit `56 + i`; every other product falls below bit
/// 56 or above bit 63, and no two land on the same bit).
#[inline]
fn nonzero_bits(word: u128) -> PositionMask {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let gather = |x: u64| {
        let flags = (((x & LOW7) + LOW7) | x) & HIGH;
        (flags.wrapping_mul(0x0002_0408_1020_4081) >> 56) as PositionMask
    };
    (gather(word as u64) | gather((word >> 64) as u64) << 8) & 0x1FFF
}

/// The natural cards `hand` holds, as a bit set of their ids (bit `id` set when the
/// hand holds at least one copy), eight counts at a time.
pub fn natural_ids_held(hand: &CardCounts) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let h = &hand.0;
    // Eight ids at a time (see `nonzero_bits`), seven words instead of two per suit:
    // ids 0..=47 from six words, 48..=51 from bits 3..=6 of the word from id 45
    // (its bit 7 is the joker, left out).
    let held = |at: usize| {
        let x = u64::from_le_bytes(h[at..at + 8].try_into().expect("eight bytes"));
        let flags = (((x & LOW7) + LOW7) | x) & HIGH;
        flags.wrapping_mul(0x0002_0408_1020_4081) >> 56
    };
    let ids = (0..6).fold(0u64, |ids, k| ids | held(8 * k) << (8 * k)) | (held(45) >> 3) << 48;
    let ids = ids & ((1 << JOKER_ID) - 1);
    debug_assert_eq!(
        ids,
        (0..4).fold(0u64, |ids, suit| {
            ids | u64::from(nonzero_bits(suit_bytes(h, suit))) << (13 * suit)
        })
    );
    ids
}

/// Each byte of a value spread into one byte lane: bit `i` of `b` becomes byte `i`
/// of `SPREAD[b]` (0 or 1), so that the windows of a suit can be counted in parallel.
static SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                table[b] |= 1 << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    table
};

/// The number of set bits of every byte (the generic x86-64 target has no popcount).
static BITS_SET_8: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    table
};

/// The set bits of a mask of run positions (bits 0..=15), looked up a byte at a time:
/// cheaper than `count_ones` on the generic x86-64 target, which has no popcount.
#[inline(always)]
fn ones(mask: u32) -> u32 {
    debug_assert!(mask < 1 << 16);
    BITS_SET_8[mask as usize & 0xFF] as u32 + BITS_SET_8[(mask >> 8) as usize & 0xFF] as u32
}

/// 1 in every byte lane of a `u128`.
const LANE_ONES: u128 = u128::MAX / 255;
/// Byte lane `i` holds `i`.
#[cfg(test)]
const LANE_INDEX: u128 = {
    let mut v = 0u128;
    let mut i = 0;
    while i < 16 {
        v |= (i as u128) << (8 * i);
        i += 1;
    }
    v
};

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
fn sets_and_runs(contract: &Contract) -> (u32, u32) {
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
fn closest_set(totals: &[u8; 16], set_len: u32) -> (u32, u8) {
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

/// The window of `run_len` positions of `suit` holding the most present positions
/// of `mask`, as `(present, low position)`; ties go to the higher window. With
/// `gap_rule` (L-4.4), windows touching a chosen run of the suit end to end are
/// skipped.
#[cfg(test)]
fn best_window(mask: PositionMask, suit: u8, run_len: u8, chosen: &[ChosenRun], gap_rule: bool) -> Option<(u32, u8)> {
    Windows::new(run_len).best(mask, suit, chosen, gap_rule)
}

/// The run windows of one length, with what finding the best one needs, looked up
/// once per estimate rather than once per suit and pick.
struct Windows {
    run_len: u8,
    /// Every window's low position (1..=15 - run_len) as a bit.
    all_lows: PositionMask,
    table: &'static [u8; WINDOW_TABLE_SIZE],
}

impl Windows {
    #[inline(always)]
    fn new(run_len: u8) -> Windows {
        Windows {
            run_len,
            all_lows: ((1u32 << (16 - run_len as u32)) - 2) as PositionMask,
            table: window_table(run_len),
        }
    }

    /// [`best_window`] of `mask`.
    #[cfg(test)]
    fn best(&self, mask: PositionMask, suit: u8, chosen: &[ChosenRun], gap_rule: bool) -> Option<(u32, u8)> {
        let best = self.best_key(mask, suit, chosen, gap_rule);
        (best > 0).then(|| ((best as u32 >> 4) - 1, best & 0xF))
    }

    /// The low positions of the windows that touch `run` end to end (L-4.4): the
    /// window just above it and the one just below it.
    #[inline(always)]
    fn closed_by(&self, run: ChosenRun) -> PositionMask {
        let above = 1 << (run.hi + 1);
        let below = if run.lo > self.run_len {
            1 << (run.lo - self.run_len)
        } else {
            0
        };
        above | below
    }

    /// [`best_window`] of `mask` as its key `(present + 1) << 4 | lo` (0: none), the
    /// windows starting at the positions of `blocked` left out (see [`Windows::closed_by`]).
    #[inline(always)]
    fn best_key_blocked(&self, mask: PositionMask, blocked: PositionMask) -> u8 {
        // The best of all windows, looked up, is the answer when it is not closed
        // (nearly always: a closed window touches a run whose cards are gone).
        let best = self.table[(mask >> 1) as usize & (WINDOW_TABLE_SIZE - 1)];
        if blocked & self.all_lows & 1 << (best & 0xF) == 0 {
            best
        } else {
            best_window_key(mask, self.run_len, lanes_of(self.all_lows & !blocked))
        }
    }

    /// [`best_window`] of `mask` as its key `(present + 1) << 4 | lo` (0: none), the
    /// gap rule applied by a walk of the chosen runs (the reference of
    /// [`Windows::best_key_blocked`]).
    #[inline(always)]
    fn best_key(&self, mask: PositionMask, suit: u8, chosen: &[ChosenRun], gap_rule: bool) -> u8 {
        let run_len = self.run_len;
        let all = window_lanes(run_len);
        let mut valid = all;
        if gap_rule {
            for c in chosen.iter().filter(|c| c.suit == suit) {
                valid &= !(0xFF << (8 * (c.hi as u32 + 1)));
                if c.lo > run_len {
                    valid &= !(0xFF << (8 * (c.lo - run_len) as u32));
                }
            }
        }
        // Every window allowed (the usual case): the answer depends on the mask alone,
        // and is looked up.
        if valid == all {
            self.table[(mask >> 1) as usize & (WINDOW_TABLE_SIZE - 1)]
        } else {
            best_window_key(mask, run_len, valid)
        }
    }
}

/// Byte lanes `1..=15 - run_len`: the low positions of the windows of `run_len`.
#[inline]
fn window_lanes(run_len: u8) -> u128 {
    ((1u128 << (8 * (16 - run_len as u32))) - 1) & !0xFF
}

/// Byte lane `p` of the result is 0xFF when bit `p` of `bits` is set, else 0.
#[inline(always)]
fn lanes_of(bits: PositionMask) -> u128 {
    let b = bits as usize;
    (SPREAD[b & 0xFF] as u128 | (SPREAD[b >> 8] as u128) << 64) * 0xFF
}

/// The best window of `mask` among the lanes of `valid` (each 0 or 0xFF), as the
/// byte `(present + 1) << 4 | lo` (0: no window), computed with one byte lane per
/// position. Out of line: the estimate needs it only when its gap rule closes a
/// window (L-4.4).
#[inline(never)]
fn best_window_key(mask: PositionMask, run_len: u8, valid: u128) -> u8 {
    const HIGH: u128 = LANE_ONES << 7;
    let m = mask as usize;
    let bits = SPREAD[m & 0xFF] as u128 | (SPREAD[m >> 8 & 0xFF] as u128) << 64;
    // Lane `p` of `upto`: the positions present up to `p` (at most 14, no carry).
    let upto = bits.wrapping_mul(LANE_ONES);
    // Lane `lo`: upto[lo + run_len - 1] - upto[lo - 1], the window starting at `lo`.
    // No lane of a window (lo + run_len - 1 <= 14) or below goes negative, so a
    // borrow only reaches lanes above the windows, which `valid` clears.
    let counts = (upto >> (8 * (run_len as u32 - 1))).wrapping_sub(upto << 8) & valid;
    // The most present positions first, all lanes at once: the high bit of each
    // byte of `(counts | 0x80..) - present` says whether that window has as many;
    // the highest such lane is the highest window.
    let mut level = (counts | HIGH) - LANE_ONES * run_len as u128;
    for present in (0..=run_len as u32).rev() {
        let enough = level & HIGH & valid;
        if enough != 0 {
            let lo = (127 - enough.leading_zeros()) / 8;
            return ((present + 1) << 4 | lo) as u8;
        }
        level += LANE_ONES;
    }
    0
}

/// [`best_window_key`] as first written: every window's lane summed position by
/// position, then the largest key byte.
#[cfg(test)]
fn best_window_key_by_sums(mask: PositionMask, run_len: u8, valid: u128) -> u8 {
    let m = mask as usize;
    let bits = SPREAD[m & 0xFF] as u128 | (SPREAD[m >> 8 & 0xFF] as u128) << 64;
    let mut counts = 0u128;
    for k in 0..run_len {
        counts += bits >> (8 * k as u32);
    }
    // Windows compared as `(present + 1) << 4 | lo` (present <= 13, lo <= 14, so a
    // key fits its byte): the largest byte has the most present positions, ties to
    // the higher window; 0 means no window.
    let keys = (((counts + LANE_ONES) << 4) | LANE_INDEX) & valid;
    keys.to_le_bytes().into_iter().max().unwrap_or(0)
}

/// Masks are looked up by positions 1..=14 (bit 0 is never set).
const WINDOW_TABLE_SIZE: usize = 1 << 14;

/// [`best_window_key`] of every mask with every window allowed, one table per run
/// length (1..=13), each built on first use: 16 KiB that replace the byte-lane
/// arithmetic the estimate did for each suit of each pick.
fn window_table(run_len: u8) -> &'static [u8; WINDOW_TABLE_SIZE] {
    static TABLES: [OnceLock<Box<[u8; WINDOW_TABLE_SIZE]>>; 13] = [const { OnceLock::new() }; 13];
    TABLES[run_len as usize - 1].get_or_init(|| {
        let mut table = Box::new([0u8; WINDOW_TABLE_SIZE]);
        for (index, key) in table.iter_mut().enumerate() {
            *key = best_window_key((index as PositionMask) << 1, run_len, window_lanes(run_len));
        }
        table
    })
}

/// A lower bound on the jokers that `runs` runs of `run_len` cards (L-4.2) need in
/// `hand`, or `None` when it is not computed (more than two runs). A relaxation of
/// the real question: each run is cut to a window of exactly `run_len` positions, the
/// ace counts in full at both ends, and the gap rule (L-4.4) and the naturals a run
/// must keep (L-4.5) are ignored; each of those only makes runs harder to form. The
/// windows may share positions only where the hand holds enough copies; each copy
/// lacking costs a joker. So when the bound exceeds the hand's jokers, no run part
/// of any contract fits the hand, and the exact search (costly when it fails) can be
/// skipped.
pub fn runs_jokers_needed_at_least(hand: &CardCounts, runs: u8, run_len: u8) -> Option<u32> {
    match runs {
        0 => return Some(0),
        1 | 2 => {}
        _ => return None,
    }
    let len = run_len.clamp(1, 13);
    let h = &hand.0;
    // The positions held (the ace at both ends) of a suit's counts.
    let at = |ranks: PositionMask| {
        let r = (ranks as u32) << 1;
        r | (r >> 1 & 1) << 14
    };
    // Per suit: its counts, the positions with at least one copy, its best window's gap.
    let words = [0, 1, 2, 3].map(|suit| suit_bytes(h, suit));
    let one = words.map(|word| at(nonzero_bits(word)));
    let table = window_table(len);
    let gap = one.map(|have| {
        let best = table[(have >> 1) as usize & (WINDOW_TABLE_SIZE - 1)] as u32;
        len as u32 - ((best >> 4) - 1)
    });
    if runs == 1 {
        return gap.iter().copied().min();
    }
    // Two suits, each with its best window...
    let mut sorted = gap;
    sorted.sort_unstable();
    let mut best = sorted[0] + sorted[1];
    // ...or both windows in one suit (never fewer than twice its best gap).
    let full = (1u32 << len) - 1;
    let last = 15 - len as u32;
    for suit in 0..4 {
        if 2 * gap[suit] >= best {
            continue;
        }
        let have = one[suit];
        // Positions with at least two copies: a byte is at least 2 when a bit above
        // its lowest is set.
        let twice = at(nonzero_bits(words[suit] & (LANE_ONES * 0xFE)));
        // The positions each window lacks. Two windows lack at least their sum (a
        // position both cover also needs a second copy), exactly that when they
        // share none: apart pairs are the window and the best one above it, and only
        // overlapping pairs under the best so far are counted.
        let mut lacks = [0u32; 16];
        for lo in 1..=last {
            lacks[lo as usize] = ones(full << lo & !have);
        }
        // `fewest[w]`: the fewest positions lacking among the windows from `w` on.
        let mut fewest = [u32::MAX; 17];
        for w in (1..=last as usize).rev() {
            fewest[w] = lacks[w].min(fewest[w + 1]);
        }
        for lo in 1..=last {
            let low = lacks[lo as usize];
            if low + fewest[lo as usize] >= best {
                continue;
            }
            // The best window apart from this one, above it.
            let above = lo + len as u32;
            if above <= last {
                best = best.min(low + fewest[above as usize]);
            }
            for hi in lo..above.min(last + 1) {
                if low + lacks[hi as usize] >= best {
                    continue;
                }
                let (a, b) = (full << lo, full << hi);
                let (both, either) = (a & b, a ^ b);
                best = best.min(ones(either & !have) + ones(both & !have) + ones(both & !twice));
            }
            if best == 0 {
                break;
            }
        }
    }
    Some(best)
}

/// Could `hand` lay `sets` sets of `set_len` and `runs` runs of `run_len` (L-4.1,
/// L-4.2) with the jokers it holds, under the relaxation of
/// [`runs_jokers_needed_at_least`] (melds cut to their minimum size, the ace at both
/// ends, no gap rule, no minimum of naturals)? `None` when not computed (more than two
/// sets or two runs). `Some(false)` means no go-down exists: every go-down, cut down
/// so, is some choice of run windows and set ranks whose missing cards the jokers
/// fill, and a run may always take the hand's own card where it has one (a set that
/// held that card takes the joker instead), which is the choice counted here.
pub fn sets_and_runs_within_jokers(hand: &CardCounts, sets: u8, runs: u8, set_len: u8, run_len: u8) -> Option<bool> {
    if sets > 2 || runs > 2 {
        return None;
    }
    let jokers = hand.jokers() as u32;
    let len = run_len.clamp(1, 13);
    let set_len = set_len.max(1) as u32;
    // Windows lacking at most `jokers` positions: no other can be part of a go-down.
    let mut windows = [(0u8, 0u8); 44];
    let mut n = 0;
    let full = (1u32 << len) - 1;
    for suit in 0..4u8 {
        let ranks = nonzero_bits(suit_bytes(&hand.0, suit as usize)) as u32;
        let have = ranks << 1 | (ranks & 1) << 14;
        for lo in 1..=15 - len {
            if ones(full << lo & !have) <= jokers && n < windows.len() {
                windows[n] = (suit, lo);
                n += 1;
            }
        }
    }
    let windows = &windows[..n];
    // The jokers the sets lack once the runs took their cards.
    let sets_short_by_scan = |counts: &[u8; CARD_KINDS]| -> u32 {
        let mut short = [0u32; 13];
        for (rank, s) in short.iter_mut().enumerate() {
            let total = (0..4).map(|suit| counts[suit * 13 + rank] as u32).sum::<u32>();
            *s = set_len - total.min(set_len);
        }
        match sets {
            0 => 0,
            1 => short.iter().copied().min().unwrap_or(0),
            _ => {
                let mut sorted = short;
                sorted.sort_unstable();
                let same_rank = (0..13)
                    .map(|rank| {
                        let total = (0..4).map(|suit| counts[suit * 13 + rank] as u32).sum::<u32>();
                        2 * set_len - total.min(2 * set_len)
                    })
                    .min()
                    .unwrap_or(0);
                (sorted[0] + sorted[1]).min(same_rank)
            }
        }
    };
    // The same from the ranks' totals added a suit's word at a time (each below 64,
    // so no byte carries; else the scan), the sets lacking the fewest: the ranks with
    // the most copies up to a set, or twice the set from one rank.
    let sets_short = |counts: &[u8; CARD_KINDS]| -> u32 {
        if sets == 0 {
            return 0;
        }
        let words = [0, 1, 2, 3].map(|suit| suit_bytes(counts, suit));
        let thirteen = (1u128 << 104) - 1;
        if words.iter().fold(0, |big, w| big | w) & (LANE_ONES * 0xC0) & thirteen != 0 {
            return sets_short_by_scan(counts);
        }
        let totals = words.iter().fold(0u128, |sum, w| sum + (w & thirteen)).to_le_bytes();
        let (mut most, mut first, mut second) = (0u32, 0u32, 0u32);
        for &total in &totals[..13] {
            let (total, capped) = (total as u32, (total as u32).min(set_len));
            most = most.max(total);
            if capped > first {
                second = first;
                first = capped;
            } else {
                second = second.max(capped);
            }
        }
        let short = if sets == 1 {
            set_len - first
        } else {
            (2 * set_len - first - second).min(2 * set_len - most.min(2 * set_len))
        };
        debug_assert_eq!(short, sets_short_by_scan(counts));
        short
    };
    // Lay the windows from the hand's counts; each copy lacking costs a joker.
    let fits = |chosen: &[(u8, u8)]| -> bool {
        let mut counts = hand.0;
        let mut short = 0u32;
        for &(suit, lo) in chosen {
            for pos in lo..lo + len {
                let id = id_at(suit, pos);
                if counts[id] > 0 {
                    counts[id] -= 1;
                } else {
                    short += 1;
                }
            }
        }
        short <= jokers && short + sets_short(&counts) <= jokers
    };
    Some(match runs {
        0 => fits(&[]),
        1 => windows.iter().any(|&w| fits(&[w])),
        _ => (0..n).any(|i| (i..n).any(|j| fits(&[windows[i], windows[j]]))),
    })
}

/// [`estimate`]'s `missing` alone.
pub fn cards_missing(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> u32 {
    estimate(hand, contract, rules).missing
}

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
fn covered_by_windows(mask: PositionMask, len: u8, need: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{parse_cards, Suit};

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
}
