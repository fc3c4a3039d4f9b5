//! The hand as bits: run positions of one suit as a mask (the ace is both 1 and
//! 14), byte lanes of card counts, and the tables that make the estimate's
//! questions a few word operations.

use crate::card::{CardCounts, CARD_KINDS, JOKER_ID};

/// Bit `p` set: run position `p` (1..=14) of one suit is present. The ace sets 1 and 14.
pub(super) type PositionMask = u16;

/// The card id at run position `pos` (1..=14) of suit `suit`.
#[inline]
pub(super) fn id_at(suit: u8, pos: u8) -> usize {
    let rank = if pos == 14 { 1 } else { pos };
    (suit * 13 + rank - 1) as usize
}

/// The run positions of a card rank: the ace is both 1 and 14.
#[inline]
pub(super) fn rank_bits(rank: u8) -> PositionMask {
    if rank == 1 {
        (1 << 1) | (1 << 14)
    } else {
        1 << rank
    }
}

/// The positions within `reach - 1` of the positions in `bits` (a run of `reach`
/// cards through one of them), without the positions themselves.
#[inline]
pub(super) fn window(bits: PositionMask, reach: u8) -> PositionMask {
    let mut out = 0u32;
    for d in 1..reach {
        out |= (bits as u32) << d | (bits as u32) >> d;
    }
    (out & !(bits as u32) & 0x7FFE) as PositionMask
}

/// [`window`]`(rank_bits(rank), reach)` for every reach (0..=13) and rank (0..=13;
/// rank 0 is no card and has no neighbours), computed once at compile time.
pub(super) static NEAR_RANK: [[PositionMask; 14]; 14] = {
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
pub(super) fn near_rank(rank: u8, reach: u8) -> PositionMask {
    let near = NEAR_RANK[reach.min(13) as usize][rank.min(13) as usize];
    debug_assert_eq!(near, window(rank_bits(rank), reach.min(13)));
    near
}

/// [`near_rank`] as byte masks over a suit's thirteen counts read as two words (see
/// [`suit_words`]): 0xFF at the byte of each rank near the card (the ace's byte for
/// position 1 or 14), bytes 0..=7 in the first word, 8..=12 at bytes 3..=7 of the
/// second (its bytes 0..=2 repeat the first word's 5..=7 and stay 0), so that no
/// count is read twice.
pub(super) static NEAR_BYTES: [[(u64, u64); 14]; 14] = {
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
pub(super) fn suit_words(counts: &[u8; CARD_KINDS], suit: usize) -> (u64, u64) {
    let first = suit * 13;
    let word = |at: usize| u64::from_le_bytes(counts[at..at + 8].try_into().expect("eight bytes"));
    (word(first), word(first + 5))
}

/// How many bytes of `word` are not zero (the high bit of each byte of
/// `((x & 0x7f..) + 0x7f..) | x` says so; one multiplication adds them up).
#[inline(always)]
pub(super) fn nonzero_bytes(word: u64) -> u32 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let flags = ((((word & LOW7) + LOW7) | word) >> 7) & 0x0101_0101_0101_0101;
    (flags.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// The counts of `suit` (13 card ids from `suit * 13`) in the low 13 bytes of a
/// word read straight from the hand; the bytes above belong to the next suit (or the
/// joker) and are the caller's to ignore.
#[inline]
pub(super) fn suit_bytes(counts: &[u8; CARD_KINDS], suit: usize) -> u128 {
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
pub(super) fn nonzero_bits(word: u128) -> PositionMask {
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
pub(super) static SPREAD: [u64; 256] = {
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
pub(super) static BITS_SET_8: [u8; 256] = {
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
pub(super) fn ones(mask: u32) -> u32 {
    debug_assert!(mask < 1 << 16);
    BITS_SET_8[mask as usize & 0xFF] as u32 + BITS_SET_8[(mask >> 8) as usize & 0xFF] as u32
}

/// 1 in every byte lane of a `u128`.
pub(super) const LANE_ONES: u128 = u128::MAX / 255;
/// Byte lane `i` holds `i`.
#[cfg(test)]
pub(super) const LANE_INDEX: u128 = {
    let mut v = 0u128;
    let mut i = 0;
    while i < 16 {
        v |= (i as u128) << (8 * i);
        i += 1;
    }
    v
};
