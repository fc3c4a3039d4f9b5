//! Candidate melds: every legal set and run a pool of cards can supply, in a compact,
//! copyable form the search takes from and puts back into the pool without allocating.

use crate::card::{CARD_KINDS, JOKER_ID};
use crate::meld::{position_rank, MeldKind};
use crate::rules::RuleSet;
use std::cmp::Ordering;

/// A pool of cards: copies per card id (the joker is id 52).
pub(crate) type Pool = [u8; CARD_KINDS];

/// Most distinct natural ids one meld can need: a run spans at most 14 positions and
/// its two aces share an id, so 13; a set needs at most 4 (one per suit).
const MAX_NEED: usize = 13;

/// Size limits for the melds a search may use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    pub set_min: u32,
    pub set_max: u32,
    pub run_min: u32,
    pub run_max: u32,
}

impl Sizes {
    /// Any legal meld, of any length (best_arrangement).
    pub fn any_length(rules: &RuleSet) -> Sizes {
        Sizes {
            set_min: rules.set_size_min as u32,
            set_max: u32::MAX,
            run_min: rules.run_size_min as u32,
            run_max: 14,
        }
    }
}

/// One legal meld the pool can supply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cand {
    pub kind: MeldKind,
    /// Set: the rank 1..=13. Run: the suit index 0..=3.
    pub key: u8,
    /// Run: the position (1..=14) of its first card.
    pub start: u8,
    /// Run: bit `i` set = the card at position `start + i` is a joker.
    pub joker_mask: u16,
    /// Set: natural cards per suit.
    pub per_suit: [u8; 4],
    pub jokers: u8,
    /// Number of cards.
    pub len: u32,
    /// Points of its cards (what it removes from the hand's score).
    pub points: u32,
    need_ids: [u8; MAX_NEED],
    need_copies: [u8; MAX_NEED],
    n_need: u8,
    /// Bit `id` set for every natural id it needs: [`Cand::fits_held`] refuses most
    /// candidates that do not fit with one test.
    need_mask: u64,
}

impl Cand {
    fn empty(kind: MeldKind, key: u8) -> Cand {
        Cand {
            kind,
            key,
            start: 0,
            joker_mask: 0,
            per_suit: [0; 4],
            jokers: 0,
            len: 0,
            points: 0,
            need_ids: [0; MAX_NEED],
            need_copies: [0; MAX_NEED],
            n_need: 0,
            need_mask: 0,
        }
    }

    fn need(&mut self, id: u8, copies: u8) {
        // Runs list ids in position order, so the only repeat (the ace at 1 and 14)
        // is the first entry.
        if self.n_need > 0 && self.need_ids[0] == id {
            self.need_copies[0] += copies;
            return;
        }
        self.need_mask |= 1 << id;
        self.need_ids[self.n_need as usize] = id;
        self.need_copies[self.n_need as usize] = copies;
        self.n_need += 1;
    }

    /// [`Cand::need`] for an id that cannot be the first one listed (no merge to try).
    #[inline]
    fn need_new(&mut self, id: u8, copies: u8) {
        debug_assert!(self.n_need == 0 || self.need_ids[0] != id);
        self.need_mask |= 1 << id;
        self.need_ids[self.n_need as usize] = id;
        self.need_copies[self.n_need as usize] = copies;
        self.n_need += 1;
    }

    /// Does the pool hold every card of this meld?
    #[inline(always)]
    pub fn fits(&self, pool: &Pool) -> bool {
        if pool[JOKER_ID as usize] < self.jokers {
            return false;
        }
        for i in 0..self.n_need as usize {
            if pool[self.need_ids[i] as usize] < self.need_copies[i] {
                return false;
            }
        }
        true
    }

    /// [`Cand::fits`], given `held`: bit `id` set for every natural id the pool holds
    /// (other bits are ignored). Most candidates that do not fit lack a natural
    /// altogether, and one test refuses them.
    #[inline(always)]
    pub fn fits_held(&self, pool: &Pool, held: u64) -> bool {
        self.need_mask & !held == 0 && self.fits(pool)
    }

    /// Remove this meld's cards from the pool (the caller checked [`Cand::fits`]).
    #[inline(always)]
    pub fn take(&self, pool: &mut Pool) {
        pool[JOKER_ID as usize] -= self.jokers;
        for i in 0..self.n_need as usize {
            pool[self.need_ids[i] as usize] -= self.need_copies[i];
        }
    }

    /// Undo [`Cand::take`].
    #[inline(always)]
    pub fn put_back(&self, pool: &mut Pool) {
        pool[JOKER_ID as usize] += self.jokers;
        for i in 0..self.n_need as usize {
            pool[self.need_ids[i] as usize] += self.need_copies[i];
        }
    }

    /// [`Cand::take`], also clearing in `present` (bit per card id) the ids it empties.
    #[inline]
    pub fn take_tracked(&self, pool: &mut Pool, present: &mut u64) {
        self.take(pool);
        for i in 0..self.n_need as usize {
            let id = self.need_ids[i];
            if pool[id as usize] == 0 {
                *present &= !(1u64 << id);
            }
        }
    }

    /// Undo [`Cand::take_tracked`].
    #[inline]
    pub fn put_back_tracked(&self, pool: &mut Pool, present: &mut u64) {
        self.put_back(pool);
        for i in 0..self.n_need as usize {
            *present |= 1u64 << self.need_ids[i];
        }
    }

    /// Bit `id` set for every card id this meld uses (bit 52 for the joker).
    pub fn id_mask(&self) -> u64 {
        let mut m = if self.jokers > 0 { 1u64 << JOKER_ID } else { 0 };
        for i in 0..self.n_need as usize {
            m |= 1u64 << self.need_ids[i];
        }
        m
    }

    /// The smallest natural card id it uses (every meld holds a natural, L-4.5): the
    /// first it needs, since a set lists its suits in order and a run its positions low
    /// to high, the ace high first (the ace is its suit's smallest id).
    #[inline]
    pub fn min_id(&self) -> u8 {
        let first = if self.n_need == 0 { JOKER_ID } else { self.need_ids[0] };
        debug_assert_eq!(first, self.min_id_by_scan());
        first
    }

    /// [`Cand::min_id`] as the least of every id it needs: the plain form it is checked against.
    fn min_id_by_scan(&self) -> u8 {
        self.need_ids[..self.n_need as usize]
            .iter()
            .copied()
            .min()
            .unwrap_or(JOKER_ID)
    }

    /// A run's (low, high) positions.
    #[inline]
    pub fn span(&self) -> (u8, u8) {
        (self.start, self.start + self.len as u8 - 1)
    }

    /// The card id at index `i` of the canonical meld: a set's cards by id (jokers
    /// last), a run's low to high with each joker where it stands.
    fn card_at(&self, mut i: u32) -> u8 {
        match self.kind {
            MeldKind::Set => {
                for (suit, &n) in self.per_suit.iter().enumerate() {
                    if i < n as u32 {
                        return suit as u8 * 13 + self.key - 1;
                    }
                    i -= n as u32;
                }
                JOKER_ID
            }
            MeldKind::Run => {
                if self.joker_mask >> i & 1 == 1 {
                    JOKER_ID
                } else {
                    self.key * 13 + position_rank(self.start + i as u8) - 1
                }
            }
        }
    }

    /// The canonical tuple as one number that orders as the tuples do (lexicographic, a
    /// prefix first): 7 bits a card, `id + 1` (0 past the end), the first card highest.
    /// `None` for a meld of more than 18 cards.
    pub fn tuple_key(&self) -> Option<u128> {
        if self.len > 18 {
            return None;
        }
        Some(
            self.ids()
                .enumerate()
                .fold(0u128, |key, (i, id)| key | (id as u128 + 1) << (7 * (17 - i))),
        )
    }

    /// The canonical card ids, in order.
    pub fn ids(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len).map(move |i| self.card_at(i))
    }

    /// Compare canonical card-id tuples (lexicographic; a prefix is smaller).
    #[inline]
    pub fn tuple_cmp(&self, other: &Cand) -> Ordering {
        self.ids().cmp(other.ids())
    }
}

/// Append every legal set of `pool` within `sizes` to `out`.
pub(crate) fn push_sets(pool: &Pool, rules: &RuleSet, sizes: &Sizes, points: &[u16; CARD_KINDS], out: &mut Vec<Cand>) {
    let jokers = pool[JOKER_ID as usize] as u32;
    let min_naturals = rules.min_naturals_set.max(1) as u32;
    for rank in 1..=13u8 {
        let at = |suit: u8| pool[(suit * 13 + rank - 1) as usize];
        let c = [at(0), at(1), at(2), at(3)];
        let available = c[0] as u32 + c[1] as u32 + c[2] as u32 + c[3] as u32;
        if available < min_naturals || available + jokers < sizes.set_min {
            continue;
        }
        let rank_points = points[(rank - 1) as usize] as u32;
        for a0 in 0..=c[0] {
            for a1 in 0..=c[1] {
                for a2 in 0..=c[2] {
                    for a3 in 0..=c[3] {
                        let per_suit = [a0, a1, a2, a3];
                        let naturals: u32 = per_suit.iter().map(|&n| n as u32).sum();
                        if naturals < min_naturals {
                            continue;
                        }
                        for j in 0..=jokers {
                            let len = naturals + j;
                            if len < sizes.set_min {
                                continue;
                            }
                            if len > sizes.set_max {
                                break;
                            }
                            let mut cand = Cand::empty(MeldKind::Set, rank);
                            cand.per_suit = per_suit;
                            cand.jokers = j as u8;
                            cand.len = len;
                            cand.points = naturals * rank_points + j * points[JOKER_ID as usize] as u32;
                            for (s, &n) in per_suit.iter().enumerate() {
                                if n > 0 {
                                    // One entry per suit: never a repeat.
                                    cand.need_new(s as u8 * 13 + rank - 1, n);
                                }
                            }
                            out.push(cand);
                        }
                    }
                }
            }
        }
    }
}

/// Set bits of a 16-bit mask, by table: the generic x86-64 target has no popcount
/// instruction, and `count_ones` there is a dozen instructions.
#[inline]
fn bits16(m: u16) -> u32 {
    const BYTE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u32).count_ones() as u8;
            i += 1;
        }
        t
    };
    BYTE[(m & 0xFF) as usize] as u32 + BYTE[(m >> 8) as usize] as u32
}

/// Append every legal run of `pool` within `sizes` to `out`: each suit, start, length
/// and choice of joker positions (a joker may stand where a natural is available).
/// The jokers a run needs are counted as it grows and as its optional jokers are
/// chosen, not recounted from its mask ([`push_runs_by_masks`] is the plain version
/// the tests compare it with).
pub(crate) fn push_runs(pool: &Pool, rules: &RuleSet, sizes: &Sizes, points: &[u16; CARD_KINDS], out: &mut Vec<Cand>) {
    let jokers = pool[JOKER_ID as usize] as u32;
    let run_min = sizes.run_min.max(1);
    let run_max = sizes.run_max.min(14);
    if run_min > run_max {
        return;
    }
    for suit in 0..4u8 {
        // Bit p (1..=14) set when the natural of position p is in the pool.
        // Branch-free: random hands make a data-dependent branch here mispredict often.
        let base = suit as usize * 13;
        let mut present: u16 = 0;
        for (r, &n) in pool[base..base + 13].iter().enumerate() {
            present |= ((n != 0) as u16) << (r + 1);
        }
        // Every run holds a natural (L-4.5), and jokers fill only what naturals leave.
        let naturals = bits16(present);
        if naturals == 0 || naturals + jokers < run_min {
            continue;
        }
        let suit_runs = SuitRuns::new(pool, suit, rules, points);
        if present & 0b10 != 0 {
            present |= 1 << 14;
        }
        let missing = !present & 0x7FFE;
        for start in 1..=(15 - run_min) as u8 {
            let missing_here = missing >> start;
            // Positions with no natural must be jokers; a longer run from the same
            // start needs at least as many, so stop at the first that needs too many.
            let mut forced_count = bits16(missing_here & ((1u32 << (run_min - 1)) - 1) as u16);
            for len in run_min..=run_max.min(15 - start as u32) {
                forced_count += (missing_here >> (len - 1)) as u32 & 1;
                if forced_count > jokers {
                    break;
                }
                let all = ((1u32 << len) - 1) as u16;
                let forced = missing_here & all;
                let optional = all & !forced;
                let spare = jokers - forced_count;
                let mut emit = |mask: u16, mask_jokers: u32| {
                    debug_assert_eq!(mask_jokers, mask.count_ones());
                    if let Some(cand) = suit_runs.cand(start, len, mask, mask_jokers) {
                        out.push(cand);
                    }
                };
                for_each_subset_counted(optional, spare, forced, forced_count, &mut emit);
            }
        }
    }
}

/// One suit of the pool as [`push_runs`] and the whole-hand sweep (`sweep.rs`) build its runs:
/// enough to turn a start, a length and a choice of joker positions into a candidate.
pub(crate) struct SuitRuns {
    suit: u8,
    /// Card id and points by position 1..=14 (index 0 unused; the ace at both ends).
    pos_id: [u8; 15],
    pos_points: [u32; 15],
    /// Does the pool hold both aces of the suit (the full A..A run needs them)?
    two_aces: bool,
    min_naturals: u32,
    /// W-4: the naturals are counted in the first cards of a run only.
    naturals_window: Option<u8>,
    joker_points: u32,
}

impl SuitRuns {
    pub(crate) fn new(pool: &Pool, suit: u8, rules: &RuleSet, points: &[u16; CARD_KINDS]) -> SuitRuns {
        let pos_id: [u8; 15] = std::array::from_fn(|p| {
            if p == 0 {
                0
            } else {
                suit * 13 + position_rank(p as u8) - 1
            }
        });
        SuitRuns {
            suit,
            pos_id,
            pos_points: std::array::from_fn(|p| points[pos_id[p] as usize] as u32),
            two_aces: pool[suit as usize * 13] >= 2,
            min_naturals: rules.min_naturals_run.max(1) as u32,
            naturals_window: rules.run_naturals_window,
            joker_points: points[JOKER_ID as usize] as u32,
        }
    }

    /// The run of `len` cards from position `start` with jokers at the positions of
    /// `mask` (bit `i`: position `start + i`), `mask_jokers` of them; `None` when it is
    /// not legal: both aces natural from one copy, or too few naturals (in the window,
    /// if any: L-4.5, W-4).
    #[inline(always)]
    pub(crate) fn cand(&self, start: u8, len: u32, mask: u16, mask_jokers: u32) -> Option<Cand> {
        // Both aces of the suit (positions 1 and 14) as naturals need two copies.
        if start == 1 && len == 14 && mask & 1 == 0 && mask >> 13 & 1 == 0 && !self.two_aces {
            return None;
        }
        let window = self.naturals_window.map_or(len, |w| (w as u32).min(len));
        let window_jokers = if window == len {
            mask_jokers
        } else {
            bits16(mask & ((1u32 << window) - 1) as u16)
        };
        if window - window_jokers < self.min_naturals {
            return None;
        }
        let mut cand = Cand::empty(MeldKind::Run, self.suit);
        cand.start = start;
        cand.len = len;
        cand.joker_mask = mask;
        cand.jokers = mask_jokers as u8;
        cand.points = mask_jokers * self.joker_points;
        let mut naturals = ((1u32 << len) - 1) as u16 & !mask;
        // Ace high first so that, when both aces are natural, the shared id is merged
        // into the first entry. Only a run with the ace high can meet the ace again (at
        // position 1).
        let ace_high = if start as u32 + len - 1 == 14 {
            1u16 << (len - 1)
        } else {
            0
        };
        let may_repeat = naturals & ace_high != 0;
        if may_repeat {
            naturals &= !ace_high;
            cand.need(self.pos_id[14], 1);
            cand.points += self.pos_points[14];
        }
        while naturals != 0 {
            let pos = start as usize + naturals.trailing_zeros() as usize;
            naturals &= naturals - 1;
            if may_repeat {
                cand.need(self.pos_id[pos], 1);
            } else {
                cand.need_new(self.pos_id[pos], 1);
            }
            cand.points += self.pos_points[pos];
        }
        Some(cand)
    }
}

/// The [`Cand::tuple_key`] of the run of `suit` from position `start`, `len` cards, with
/// jokers at the positions of `mask` (bit `i`: position `start + i`), without building it.
#[inline]
pub(crate) fn run_key(suit: u8, start: u8, len: u32, mask: u16) -> u128 {
    let mut key = 0u128;
    for i in 0..len as usize {
        let id = if mask >> i & 1 == 1 {
            JOKER_ID
        } else {
            suit * 13 + position_rank(start + i as u8) - 1
        };
        key |= (id as u128 + 1) << (7 * (17 - i));
    }
    key
}

/// Call `f(base | x, count + |x|)` for every subset `x` of `bits` with at most `room`
/// elements (`count`: the set bits of `base`).
fn for_each_subset_counted(bits: u16, room: u32, base: u16, count: u32, f: &mut impl FnMut(u16, u32)) {
    f(base, count);
    if room == 0 {
        return;
    }
    let mut rest = bits;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        rest ^= low;
        // Only higher bits are added below, so each subset is produced once.
        for_each_subset_counted(rest, room - 1, base | low, count + 1, f);
    }
}

/// [`push_runs`] counting each mask's jokers with `count_ones`: the reference the
/// tests compare it with.
#[cfg(test)]
pub(crate) fn push_runs_by_masks(
    pool: &Pool,
    rules: &RuleSet,
    sizes: &Sizes,
    points: &[u16; CARD_KINDS],
    out: &mut Vec<Cand>,
) {
    let jokers = pool[JOKER_ID as usize] as u32;
    let min_naturals = rules.min_naturals_run.max(1) as u32;
    let run_min = sizes.run_min.max(1);
    let run_max = sizes.run_max.min(14);
    if run_min > run_max {
        return;
    }
    let joker_points = points[JOKER_ID as usize] as u32;
    for suit in 0..4u8 {
        let id_at = |pos: u8| suit * 13 + position_rank(pos) - 1;
        // Card id and points by position 1..=14 (index 0 unused).
        let pos_id: [u8; 15] = std::array::from_fn(|p| if p == 0 { 0 } else { id_at(p as u8) });
        let pos_points: [u32; 15] = std::array::from_fn(|p| points[pos_id[p] as usize] as u32);
        let two_aces = pool[id_at(1) as usize] >= 2;
        // Bit p (1..=14) set when the natural of position p is in the pool.
        // Branch-free: random hands make a data-dependent branch here mispredict often.
        let base = suit as usize * 13;
        let mut present: u16 = 0;
        for (r, &n) in pool[base..base + 13].iter().enumerate() {
            present |= ((n != 0) as u16) << (r + 1);
        }
        // Every run holds a natural (L-4.5), and jokers fill only what naturals leave.
        let naturals = present.count_ones();
        if naturals == 0 || naturals + jokers < run_min {
            continue;
        }
        if present & 0b10 != 0 {
            present |= 1 << 14;
        }
        let missing = !present & 0x7FFE;
        for start in 1..=(15 - run_min) as u8 {
            // Positions with no natural must be jokers; a longer run from the same
            // start needs at least as many, so stop at the first that needs too many.
            for len in run_min..=run_max.min(15 - start as u32) {
                let all = ((1u32 << len) - 1) as u16;
                let forced = (missing >> start) & all;
                if forced.count_ones() > jokers {
                    break;
                }
                let optional = all & !forced;
                let spare = jokers - forced.count_ones();
                let window = rules.run_naturals_window.map_or(len, |w| (w as u32).min(len));
                let window_mask = ((1u32 << window) - 1) as u16;
                // The bit of position 14 within the run, if the run reaches it.
                let ace_high = if start as u32 + len - 1 == 14 {
                    1u16 << (len - 1)
                } else {
                    0
                };
                let mut emit = |mask: u16| {
                    // Both aces of the suit (positions 1 and 14) as naturals need two copies.
                    if start == 1 && len == 14 && mask & 1 == 0 && mask >> 13 & 1 == 0 && !two_aces {
                        return;
                    }
                    if window - (mask & window_mask).count_ones() < min_naturals {
                        return;
                    }
                    let mut cand = Cand::empty(MeldKind::Run, suit);
                    cand.start = start;
                    cand.len = len;
                    cand.joker_mask = mask;
                    cand.jokers = mask.count_ones() as u8;
                    cand.points = cand.jokers as u32 * joker_points;
                    let mut naturals = all & !mask;
                    // Ace high first so that, when both aces are natural, the shared id
                    // is merged into the first entry.
                    if naturals & ace_high != 0 {
                        naturals &= !ace_high;
                        cand.need(pos_id[14], 1);
                        cand.points += pos_points[14];
                    }
                    while naturals != 0 {
                        let pos = start as usize + naturals.trailing_zeros() as usize;
                        naturals &= naturals - 1;
                        cand.need(pos_id[pos], 1);
                        cand.points += pos_points[pos];
                    }
                    out.push(cand);
                };
                for_each_subset(optional, spare, forced, &mut emit);
            }
        }
    }
}

/// Call `f(base | x)` for every subset `x` of `bits` with at most `room` elements.
#[cfg(test)]
fn for_each_subset(bits: u16, room: u32, base: u16, f: &mut impl FnMut(u16)) {
    f(base);
    if room == 0 {
        return;
    }
    let mut rest = bits;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        rest ^= low;
        // Only higher bits are added below, so each subset is produced once.
        for_each_subset(rest, room - 1, base | low, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What tells two candidates apart (`Cand` has no `PartialEq`: the search never
    /// compares them whole).
    fn fields(c: &Cand) -> (u8, u8, u16, [u8; 4], u8, u32, u32, Vec<u8>, u64) {
        (
            c.key,
            c.start,
            c.joker_mask,
            c.per_suit,
            c.jokers,
            c.len,
            c.points,
            c.ids().collect(),
            c.id_mask(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// L-4.2 / L-4.5 (and W-4's naturals window): the runs built with the jokers
        /// counted as they are chosen are the runs built by counting each mask.
        #[test]
        fn runs_counted_as_built_match_runs_counted_by_mask(
            preset in 0..RuleSet::preset_names().len(),
            naturals in proptest::collection::vec(0u8..52, 0..16),
            jokers in 0u8..5,
            run_min in 1u32..8,
            extra in 0u32..12,
        ) {
            let rules = RuleSet::preset(RuleSet::preset_names()[preset]).unwrap();
            let mut pool: Pool = [0; CARD_KINDS];
            for id in naturals {
                pool[id as usize] += 1;
            }
            pool[JOKER_ID as usize] = jokers;
            let sizes = Sizes { set_min: 3, set_max: u32::MAX, run_min, run_max: run_min + extra };
            let points = rules.points_by_id();
            let (mut fast, mut plain) = (Vec::new(), Vec::new());
            push_runs(&pool, &rules, &sizes, &points, &mut fast);
            push_runs_by_masks(&pool, &rules, &sizes, &points, &mut plain);
            let fast: Vec<_> = fast.iter().map(fields).collect();
            let plain: Vec<_> = plain.iter().map(fields).collect();
            prop_assert_eq!(fast, plain);
        }
    }
}
