//! Lower bounds for the greedy bot's quick refusals: the jokers a number of runs
//! needs at least, and whether some sets and runs fit within the hand's jokers.

use super::bits::*;
use super::windows::*;
use crate::card::{CardCounts, CARD_KINDS};

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
