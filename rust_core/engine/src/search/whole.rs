//! The whole-hand go-down (L-8) as a cover of the hand, for goals that only care
//! which go-downs exist.
//!
//! Every go-down of a whole-hand contract leaves nothing in hand, so all of them tie
//! on points and the points bound of the slot search (`dfs.rs`) prunes nothing: it
//! would try every way of filling the slots. Here the walk is the one of
//! `arrange.rs` without deadwood: the smallest natural card `c` left in the pool must
//! be in some meld, and a meld that still fits and holds `c` has `c` as its smallest
//! natural, so the only choices are the candidates whose smallest natural is `c` (in
//! list order, never below the previous choice for the same `c`, so each multiset of
//! melds is met once). Whatever is chosen covers `c`, and no path is walked that
//! leaves a card no meld can take.
//!
//! It reaches the same go-downs as the slot search, in another order, so only goals
//! whose result does not depend on the order use it ([`Goal::ORDER_FREE`]), and only
//! when every meld of a kind has the same length range (a candidate then fits any
//! meld of its kind, so counting melds per kind is enough).

use super::cands::{Cand, Pool};
use super::dfs::{GoDownSearch, Goal, Node};
use crate::card::{CARD_KINDS, JOKER_ID};
use crate::meld::MeldKind;

/// Candidate references grouped by smallest natural id, built once per search.
pub(crate) struct Groups<'a> {
    /// `(kind, index)` packed: bit 31 set for a set, the rest the index in its list.
    refs: &'a [u32],
    /// `refs[first[c]..first[c + 1]]` are the candidates whose smallest natural is `c`.
    first: [u32; CARD_KINDS + 1],
}

const SET_BIT: u32 = 1 << 31;

/// Fill `refs` with every candidate of `search`, grouped by smallest natural id.
pub(crate) fn group<'a>(search: &GoDownSearch, refs: &'a mut Vec<u32>) -> Groups<'a> {
    let mut first = [0u32; CARD_KINDS + 1];
    for c in search.runs.iter().chain(search.sets) {
        first[c.min_id() as usize + 1] += 1;
    }
    for id in 0..CARD_KINDS {
        first[id + 1] += first[id];
    }
    let mut next = first;
    refs.clear();
    refs.resize(first[CARD_KINDS] as usize, 0);
    let tagged = search
        .runs
        .iter()
        .enumerate()
        .map(|(k, c)| (c, k as u32))
        .chain(search.sets.iter().enumerate().map(|(k, c)| (c, k as u32 | SET_BIT)));
    for (c, tag) in tagged {
        let slot = &mut next[c.min_id() as usize];
        refs[*slot as usize] = tag;
        *slot += 1;
    }
    Groups { refs, first }
}

/// The walk's state besides the node: the chosen runs and sets, in walk order.
struct Walk<'s, 'g> {
    search: &'s GoDownSearch<'s>,
    groups: &'g Groups<'g>,
    runs: Vec<u32>,
    sets: Vec<u32>,
    /// Bit `id` set while the pool holds a natural of that id.
    present: u64,
}

/// Report every whole-hand go-down of `node.pool` to `goal` (each once); `true` when
/// the goal said stop.
pub(crate) fn walk_whole_hand<G: Goal>(search: &GoDownSearch, groups: &Groups, node: &mut Node, goal: &mut G) -> bool {
    let present = (0..JOKER_ID as usize)
        .filter(|&id| node.pool[id] > 0)
        .fold(0u64, |m, id| m | 1 << id);
    let mut walk = Walk {
        search,
        groups,
        runs: Vec::with_capacity(search.n_runs),
        sets: Vec::with_capacity(search.n_sets),
        present,
    };
    walk.step(node, 0, 0, goal)
}

impl Walk<'_, '_> {
    /// L-4.4: would this run touch, end to end, a same-suit run already chosen?
    fn touches_chosen_run(&self, cand: &Cand) -> bool {
        let (lo, hi) = cand.span();
        self.runs.iter().any(|&k| {
            let other = &self.search.runs[k as usize];
            let (olo, ohi) = other.span();
            other.key == cand.key && (lo == ohi + 1 || olo == hi + 1)
        })
    }

    /// Cover the smallest natural left, from `from` on; `floor` is the first group
    /// position allowed for it (the previous choice for the same card).
    fn step<G: Goal>(&mut self, node: &mut Node, from: usize, floor: u32, goal: &mut G) -> bool {
        let search = self.search;
        let later = self.present & (u64::MAX << from);
        if later == 0 {
            if node.pool[JOKER_ID as usize] != 0 || self.runs.len() != search.n_runs || self.sets.len() != search.n_sets
            {
                return false;
            }
            // The goals read the chosen melds in slot order: runs, then sets.
            node.chosen.clear();
            node.chosen.extend_from_slice(&self.runs);
            node.chosen.extend_from_slice(&self.sets);
            return goal.leaf(search, node);
        }
        let runs_left = search.n_runs - self.runs.len();
        let sets_left = search.n_sets - self.sets.len();
        if runs_left + sets_left == 0 {
            return false;
        }
        let c = later.trailing_zeros() as usize;
        let floor = if c == from { floor } else { 0 };
        let (lo, hi) = (self.groups.first[c] + floor, self.groups.first[c + 1]);
        for at in lo..hi {
            let tag = self.groups.refs[at as usize];
            let is_set = tag & SET_BIT != 0;
            let k = tag & !SET_BIT;
            let cand = if is_set {
                if sets_left == 0 {
                    continue;
                }
                &search.sets[k as usize]
            } else {
                if runs_left == 0 {
                    continue;
                }
                &search.runs[k as usize]
            };
            if !cand.fits(&node.pool) {
                continue;
            }
            if !is_set && search.adjacency && self.touches_chosen_run(cand) {
                continue;
            }
            cand.take_tracked(&mut node.pool, &mut self.present);
            node.cards -= cand.len;
            node.used += cand.points;
            match cand.kind {
                MeldKind::Set => self.sets.push(k),
                MeldKind::Run => self.runs.push(k),
            }
            let stop = self.step(node, c, at - self.groups.first[c], goal);
            match cand.kind {
                MeldKind::Set => self.sets.pop(),
                MeldKind::Run => self.runs.pop(),
            };
            node.used -= cand.points;
            node.cards += cand.len;
            cand.put_back_tracked(&mut node.pool, &mut self.present);
            if stop {
                return true;
            }
        }
        false
    }
}

/// A quick proof that `pool` holds no whole hand of `runs` runs (and no sets) of at
/// least `run_min` cards each, before any candidate is built. A run holds one natural
/// of each id, save the ace, which can stand at both ends of a 14-card run; so a suit
/// needs at least as many runs as it has copies of a rank (half its aces, rounded
/// up), and together the suits may not need more than `runs`. When they need exactly
/// `runs`, a suit that needs one run has all its naturals in that run, which spans
/// them all (the ace read low or high) and is at least `run_min` long: the jokers
/// must fill the rest of those runs.
pub(crate) fn runs_cannot_cover(pool: &Pool, runs: usize, run_min: u32) -> bool {
    let mut needed = 0usize;
    let mut jokers_needed = 0u32;
    for suit in 0..4 {
        let counts = &pool[suit * 13..suit * 13 + 13];
        let naturals: u32 = counts.iter().map(|&n| n as u32).sum();
        if naturals == 0 {
            continue;
        }
        let most = counts[1..].iter().copied().max().unwrap_or(0) as usize;
        let runs_here = most.max((counts[0] as usize).div_ceil(2));
        needed += runs_here;
        if runs_here == 1 {
            // Positions 1..=13 of the naturals, as a bit set.
            let at: u16 = (0..13).filter(|&r| counts[r] > 0).fold(0, |m, r| m | 1 << (r + 1));
            let span_of = |bits: u16| 16 - bits.leading_zeros() - bits.trailing_zeros();
            let span = match counts[0] {
                0 => span_of(at),
                // One ace: low (position 1) or high (position 14), whichever is shorter.
                1 => span_of(at).min(span_of(at & !0b10 | 1 << 14)),
                // Both aces in one run: the whole suit.
                _ => 14,
            };
            jokers_needed += span.max(run_min).saturating_sub(naturals);
        }
    }
    needed > runs || (needed == runs && jokers_needed > pool[JOKER_ID as usize] as u32)
}
