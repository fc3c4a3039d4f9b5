//! Run windows: the best window of a suit's positions for a run of a given length
//! (looked up in a table built once per length), with the gap rule (L-4.4) that
//! closes windows touching a chosen run end to end.

use super::bits::*;
use std::sync::OnceLock;

/// A run window the estimate has committed to.
#[derive(Clone, Copy)]
pub(super) struct ChosenRun {
    pub(super) suit: u8,
    pub(super) lo: u8,
    pub(super) hi: u8,
}

/// The window of `run_len` positions of `suit` holding the most present positions
/// of `mask`, as `(present, low position)`; ties go to the higher window. With
/// `gap_rule` (L-4.4), windows touching a chosen run of the suit end to end are
/// skipped.
#[cfg(test)]
pub(super) fn best_window(
    mask: PositionMask,
    suit: u8,
    run_len: u8,
    chosen: &[ChosenRun],
    gap_rule: bool,
) -> Option<(u32, u8)> {
    Windows::new(run_len).best(mask, suit, chosen, gap_rule)
}

/// The run windows of one length, with what finding the best one needs, looked up
/// once per estimate rather than once per suit and pick.
pub(super) struct Windows {
    run_len: u8,
    /// Every window's low position (1..=15 - run_len) as a bit.
    all_lows: PositionMask,
    table: &'static [u8; WINDOW_TABLE_SIZE],
}

impl Windows {
    #[inline(always)]
    pub(super) fn new(run_len: u8) -> Windows {
        Windows {
            run_len,
            all_lows: ((1u32 << (16 - run_len as u32)) - 2) as PositionMask,
            table: window_table(run_len),
        }
    }

    /// [`best_window`] of `mask`.
    #[cfg(test)]
    pub(super) fn best(&self, mask: PositionMask, suit: u8, chosen: &[ChosenRun], gap_rule: bool) -> Option<(u32, u8)> {
        let best = self.best_key(mask, suit, chosen, gap_rule);
        (best > 0).then(|| ((best as u32 >> 4) - 1, best & 0xF))
    }

    /// The low positions of the windows that touch `run` end to end (L-4.4): the
    /// window just above it and the one just below it.
    #[inline(always)]
    pub(super) fn closed_by(&self, run: ChosenRun) -> PositionMask {
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
    pub(super) fn best_key_blocked(&self, mask: PositionMask, blocked: PositionMask) -> u8 {
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
    pub(super) fn best_key(&self, mask: PositionMask, suit: u8, chosen: &[ChosenRun], gap_rule: bool) -> u8 {
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
pub(super) fn window_lanes(run_len: u8) -> u128 {
    ((1u128 << (8 * (16 - run_len as u32))) - 1) & !0xFF
}

/// Byte lane `p` of the result is 0xFF when bit `p` of `bits` is set, else 0.
#[inline(always)]
pub(super) fn lanes_of(bits: PositionMask) -> u128 {
    let b = bits as usize;
    (SPREAD[b & 0xFF] as u128 | (SPREAD[b >> 8] as u128) << 64) * 0xFF
}

/// The best window of `mask` among the lanes of `valid` (each 0 or 0xFF), as the
/// byte `(present + 1) << 4 | lo` (0: no window), computed with one byte lane per
/// position. Out of line: the estimate needs it only when its gap rule closes a
/// window (L-4.4).
#[inline(never)]
pub(super) fn best_window_key(mask: PositionMask, run_len: u8, valid: u128) -> u8 {
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
pub(super) fn best_window_key_by_sums(mask: PositionMask, run_len: u8, valid: u128) -> u8 {
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
pub(super) const WINDOW_TABLE_SIZE: usize = 1 << 14;

/// [`best_window_key`] of every mask with every window allowed, one table per run
/// length (1..=13), each built on first use: 16 KiB that replace the byte-lane
/// arithmetic the estimate did for each suit of each pick.
pub(super) fn window_table(run_len: u8) -> &'static [u8; WINDOW_TABLE_SIZE] {
    static TABLES: [OnceLock<Box<[u8; WINDOW_TABLE_SIZE]>>; 13] = [const { OnceLock::new() }; 13];
    TABLES[run_len as usize - 1].get_or_init(|| {
        let mut table = Box::new([0u8; WINDOW_TABLE_SIZE]);
        for (index, key) in table.iter_mut().enumerate() {
            *key = best_window_key((index as PositionMask) << 1, run_len, window_lanes(run_len));
        }
        table
    })
}
