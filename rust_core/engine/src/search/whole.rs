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
use super::goal::{GoDownSearch, Goal, Node};
use crate::card::{CARD_KINDS, JOKER_ID};
use crate::meld::MeldKind;
use crate::rules::MAX_CONTRACT_MELDS;
use std::cmp::Ordering;

/// Reusable buffers of the walk (in [`super::dfs::Scratch`]).
#[derive(Default)]
pub(crate) struct WalkBuffers {
    refs: Vec<u32>,
    filters: Vec<u64>,
    run_keys: Vec<u128>,
    set_keys: Vec<u128>,
}

/// Candidate references grouped by smallest natural id, built once per search.
pub(crate) struct Groups<'a> {
    /// `(kind, index)` packed: bit 31 set for a set, the rest the index in its list.
    refs: &'a [u32],
    /// For each of `refs`: the candidate's natural ids as bits (0..=51), and the jokers
    /// it needs from bit [`JOKERS_AT`] on. Scanning these, not the candidates, refuses
    /// the many that do not fit with one test each.
    filters: &'a [u64],
    /// `refs[first[c]..first[c + 1]]` are the candidates whose smallest natural is `c`.
    first: [u32; CARD_KINDS + 1],
    /// [`Cand::tuple_key`] of every run and set, when the walk keeps the least melds
    /// list (empty otherwise: then nothing is pruned on the melds list).
    run_keys: &'a [u128],
    set_keys: &'a [u128],
    /// Were the keys built (the walk prunes on the melds list)?
    keyed: bool,
}

const SET_BIT: u32 = 1 << 31;
/// Where a filter keeps the number of jokers.
const JOKERS_AT: u32 = 56;
const NATURAL_BITS: u64 = (1 << JOKER_ID) - 1;

/// Fill the buffers with every candidate of `search`, grouped by smallest natural id;
/// with `least_melds_first`, each group in canonical tuple order and the tuple keys
/// kept (see [`Goal::LEAST_MELDS`]), unless a candidate is too long for a key.
pub(crate) fn group<'a>(search: &GoDownSearch, buffers: &'a mut WalkBuffers, least_melds_first: bool) -> Groups<'a> {
    let mut first = [0u32; CARD_KINDS + 1];
    for c in search.runs.iter().chain(search.sets) {
        first[c.min_id() as usize + 1] += 1;
    }
    for id in 0..CARD_KINDS {
        first[id + 1] += first[id];
    }
    let WalkBuffers {
        refs,
        filters,
        run_keys,
        set_keys,
    } = buffers;
    run_keys.clear();
    set_keys.clear();
    let mut keyed = false;
    if least_melds_first {
        let keys = |list: &[Cand], out: &mut Vec<u128>| {
            for c in list {
                match c.tuple_key() {
                    Some(key) => out.push(key),
                    None => return false,
                }
            }
            true
        };
        keyed = keys(search.runs, run_keys) && keys(search.sets, set_keys);
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
    if keyed {
        let key = |tag: u32| {
            if tag & SET_BIT != 0 {
                set_keys[(tag & !SET_BIT) as usize]
            } else {
                run_keys[tag as usize]
            }
        };
        for id in 0..CARD_KINDS {
            refs[first[id] as usize..first[id + 1] as usize].sort_unstable_by_key(|&tag| key(tag));
        }
    }
    filters.clear();
    filters.extend(refs.iter().map(|&tag| {
        let c = if tag & SET_BIT != 0 {
            &search.sets[(tag & !SET_BIT) as usize]
        } else {
            &search.runs[tag as usize]
        };
        c.id_mask() & NATURAL_BITS | (c.jokers as u64) << JOKERS_AT
    }));
    Groups {
        refs,
        filters,
        first,
        run_keys,
        set_keys,
        keyed,
    }
}

/// The walk's state besides the node: the chosen runs and sets, in walk order.
struct Walk<'s, 'g> {
    search: &'s GoDownSearch<'s>,
    groups: &'g Groups<'g>,
    runs: Vec<u32>,
    sets: Vec<u32>,
    /// Bit `id` set while the pool holds a natural of that id.
    present: u64,
    /// The tuple keys of the goal's least melds list so far (sets, then runs), for
    /// [`Walk::may_come_first`]; empty until the goal keeps one.
    best_keys: Vec<u128>,
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
        best_keys: Vec::new(),
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

    /// Can a go-down that keeps the melds chosen so far have a melds list smaller than
    /// `best` (sets by tuple, then runs by tuple), when `c` is the smallest natural
    /// left? Every meld still to come covers naturals from `c` on, so its canonical
    /// tuple starts with a card id of `c` or more (a natural, or the joker, 52); so do
    /// the chosen melds that start at `c` or later. The chosen melds that start below
    /// `c` are therefore the first of their kind in the final list, in tuple order, and
    /// the next place of that kind holds a tuple that starts at `c` or later.
    fn may_come_first(&self, c: u8) -> bool {
        let set_keys = self.sets.iter().map(|&k| self.groups.set_keys[k as usize]);
        let run_keys = self.runs.iter().map(|&k| self.groups.run_keys[k as usize]);
        may_come_first(set_keys, run_keys, &self.best_keys, self.search.n_sets, c)
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
            let stop = goal.leaf(search, node);
            if G::LEAST_MELDS && self.groups.keyed {
                self.best_keys.clear();
                if let Some(best) = goal.least_melds() {
                    self.best_keys
                        .extend(best.iter().map(|c| c.tuple_key().expect("no candidate is too long")));
                }
            }
            return stop;
        }
        let runs_left = search.n_runs - self.runs.len();
        let sets_left = search.n_sets - self.sets.len();
        if runs_left + sets_left == 0 {
            return false;
        }
        if search.n_sets == 0 && runs_cannot_cover(&node.pool, runs_left, search.run_min) {
            return false;
        }
        let c = later.trailing_zeros() as usize;
        if G::LEAST_MELDS && !self.best_keys.is_empty() && !self.may_come_first(c as u8) {
            return false;
        }
        let floor = if c == from { floor } else { 0 };
        let (lo, hi) = (self.groups.first[c] + floor, self.groups.first[c + 1]);
        let jokers = node.pool[JOKER_ID as usize] as u64;
        for at in lo..hi {
            let filter = self.groups.filters[at as usize];
            if filter & !self.present & NATURAL_BITS != 0 || filter >> JOKERS_AT > jokers {
                continue;
            }
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
            if !cand.fits_held(&node.pool, self.present) {
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

/// [`Walk::may_come_first`] from the tuple keys of the chosen sets and runs and of the
/// best melds list (its `n_sets` sets, then its runs).
fn may_come_first(
    sets: impl Iterator<Item = u128>,
    runs: impl Iterator<Item = u128>,
    best_keys: &[u128],
    n_sets: usize,
    c: u8,
) -> bool {
    let (best_sets, best_runs) = best_keys.split_at(n_sets);
    let first_id = |key: u128| (key >> (7 * 17)) as u8 - 1;
    let mut fixed_sets = [0u128; MAX_CONTRACT_MELDS];
    let mut fixed_runs = [0u128; MAX_CONTRACT_MELDS];
    let keep = |keys: &mut dyn Iterator<Item = u128>, fixed: &mut [u128; MAX_CONTRACT_MELDS]| {
        let mut n = 0;
        for key in keys {
            if first_id(key) < c {
                fixed[n] = key;
                n += 1;
            }
        }
        fixed[..n].sort_unstable();
        n
    };
    let n_fixed_sets = keep(&mut { sets }, &mut fixed_sets);
    let n_fixed_runs = keep(&mut { runs }, &mut fixed_runs);
    let kinds = [
        (&fixed_sets[..n_fixed_sets], best_sets),
        (&fixed_runs[..n_fixed_runs], best_runs),
    ];
    for (fixed, best_of_kind) in kinds {
        for (mine, theirs) in fixed.iter().zip(best_of_kind) {
            match mine.cmp(theirs) {
                Ordering::Less => return true,
                Ordering::Greater => return false,
                Ordering::Equal => {}
            }
        }
        if let Some(&next) = best_of_kind.get(fixed.len()) {
            // Ours at this place starts at `c` or later.
            return first_id(next) >= c;
        }
    }
    // Equal to the best in every place: the same go-down, which cannot beat it.
    false
}
