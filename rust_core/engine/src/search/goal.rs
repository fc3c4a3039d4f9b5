//! What a go-down search is for ([`Goal`]), the state it walks ([`Node`]) and the
//! search over one hand and contract ([`GoDownSearch`]): shared by the slot search
//! (`dfs.rs`, which builds them and calls the walks) and the whole-hand walks
//! (`whole.rs`), which therefore need not import `dfs.rs` back.

use super::cands::{Cand, Pool};
use crate::card::CARD_KINDS;
use crate::rules::MAX_CONTRACT_MELDS;

/// What the search is for.
pub(crate) trait Goal {
    /// Does the goal prune on points? If not, candidates need no ordering and no
    /// bound is computed.
    const BOUNDED: bool = true;
    /// Does the result depend only on which go-downs are reached, not on their order
    /// nor on how often each is met? Such goals may use the whole-hand walk (`whole.rs`).
    const ORDER_FREE: bool = false;
    /// Does the goal keep the go-down with the least melds list among those that tie
    /// on points and cards left? Then the whole-hand walk, where all go-downs tie so,
    /// tries each card's melds in tuple order and prunes with [`Goal::least_melds`].
    const LEAST_MELDS: bool = false;
    /// The melds list (canonical) of the go-down kept so far, for [`Goal::LEAST_MELDS`].
    fn least_melds(&self) -> Option<&[Cand]> {
        None
    }
    /// Is a partial go-down that can reach at most `ub` points in melds worth extending?
    fn worth(&self, ub: u32) -> bool;
    /// A complete go-down; return `true` to stop the search.
    fn leaf(&mut self, search: &GoDownSearch, node: &Node) -> bool;
}

/// The state of the walk.
pub(crate) struct Node {
    pub pool: Pool,
    /// Cards left in the pool.
    pub cards: u32,
    /// Points of the cards placed in melds so far.
    pub used: u32,
    /// Candidate indices: the first `runs` slots index the run list, then the set list.
    pub chosen: Vec<u32>,
}

/// A go-down search over one hand and contract.
#[derive(Clone, Copy)]
pub(crate) struct GoDownSearch<'a> {
    pub points: [u16; CARD_KINDS],
    /// Rank classes (0 = joker, 1..=13) by points, highest first (the capacity bound's
    /// plain form, kept to check the fast one in debug builds).
    pub(crate) order: [u8; 14],
    /// The card ids the hand holds, highest points first: the capacity bound walks these
    /// (the pool only loses cards), not the classes the hand may not hold at all.
    pub(crate) held_by_points: [u8; CARD_KINDS],
    pub(crate) held: usize,
    pub runs: &'a [Cand],
    pub sets: &'a [Cand],
    /// Where each joker count starts in `runs` and `sets`, when the goal is bounded
    /// (the lists are then sorted by jokers, then points, see [`JokerBuckets`]).
    pub(crate) run_buckets: JokerBuckets,
    pub(crate) set_buckets: JokerBuckets,
    pub n_runs: usize,
    pub n_sets: usize,
    pub whole_hand: bool,
    pub adjacency: bool,
    /// The shortest run any run slot takes.
    pub run_min: u32,
    pub(crate) slots: [Slot; MAX_CONTRACT_MELDS],
    pub total_points: u32,
}

/// One meld of the contract as the search fills it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    pub(crate) min: u32,
    pub(crate) max: u32,
    /// Does its range hold every candidate of its kind (then no length is checked)?
    pub(crate) any_len: bool,
    /// Does it share kind and range with the slot before it?
    pub(crate) same_as_previous: bool,
    /// Slots of its class from this one on, this one included.
    pub(crate) class_left: u32,
    /// Most points the slots after its class can put in melds (best candidate of their kind each).
    pub(crate) others_best: u32,
    /// Fewest and most cards the slots after this one need and can hold.
    pub(crate) min_after: u32,
    pub(crate) cap_after: u32,
}

/// Joker counts told apart in a candidate list's order; candidates with more jokers
/// share the last bucket.
pub(crate) const JOKER_BUCKETS: usize = 16;

/// The bucket of a candidate with `jokers` jokers.
#[inline]
pub(crate) fn joker_bucket(jokers: u8) -> usize {
    (jokers as usize).min(JOKER_BUCKETS - 1)
}

/// A candidate list sorted by joker bucket, most jokers first, then by points, most
/// first: the candidates with at most `j` jokers are a suffix of the list, so a slot
/// skips at once those the pool's jokers cannot pay for, and within a bucket the
/// points only fall (`dfs.rs`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct JokerBuckets {
    /// Index of the first candidate of bucket `j` or lower (the list's length if none).
    pub(crate) first_at_most: [u32; JOKER_BUCKETS],
    /// The most points of a candidate of bucket `j` or lower (0 if none).
    pub(crate) best_at_most: [u32; JOKER_BUCKETS],
}

impl JokerBuckets {
    /// The index just past bucket `j` (the list holds `len` candidates).
    #[inline]
    pub(crate) fn end_of(&self, j: usize, len: usize) -> usize {
        if j == 0 {
            len
        } else {
            self.first_at_most[j - 1] as usize
        }
    }
}
