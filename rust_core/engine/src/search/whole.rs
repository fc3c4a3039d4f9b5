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

use super::cands::{push_runs_through, Cand, Pool, Sizes, Through};
use super::goal::{GoDownSearch, Goal, Node};
use crate::card::{CARD_KINDS, JOKER_ID};
use crate::meld::MeldKind;
use crate::rules::{RuleSet, MAX_CONTRACT_MELDS};
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

/// The least tuple key of a meld whose first card is `id`: the one-card tuple `(id)`.
fn first_card_key(id: u8) -> u128 {
    (id as u128 + 1) << (7 * 17)
}

/// Can a melds list (of one kind) made of the tuple keys `chosen` and `left` more keys
/// be smaller than `best`, when `at_next` of the keys to come are at least `next` and
/// the others at least `others`? The least such list puts those bounds in place of the
/// keys to come; every list they stand for is, place by place once sorted, at least as
/// large.
fn least_list_may_beat(
    chosen: &[u128],
    left: usize,
    (at_next, next): (usize, u128),
    others: u128,
    best: &[u128],
) -> bool {
    let mut least = [0u128; MAX_CONTRACT_MELDS];
    let n = chosen.len() + left;
    debug_assert_eq!(n, best.len());
    debug_assert!(at_next <= left);
    least[..chosen.len()].copy_from_slice(chosen);
    least[chosen.len()..chosen.len() + at_next].fill(next);
    least[chosen.len() + at_next..n].fill(others);
    least[..n].sort_unstable();
    least[..n] < *best
}

/// The whole-hand walk for a contract of runs only (every preset's whole-hand round
/// but Shanghai's eighth), with no candidate list: at each step it builds the runs
/// that hold the smallest natural `c` left and fit the pool of that step
/// ([`push_runs_through`]), in tuple order. A second run for the same `c` may not have
/// a smaller tuple than the first, so each multiset of runs is met once.
pub(crate) fn walk_whole_hand_of_runs<G: Goal>(
    search: &GoDownSearch,
    rules: &RuleSet,
    sizes: &Sizes,
    built: &mut Vec<(u128, Cand)>,
    node: &mut Node,
    goal: &mut G,
) -> bool {
    debug_assert_eq!(search.n_sets, 0);
    let mut walk = RunWalk {
        search,
        rules,
        sizes: *sizes,
        chosen: Vec::with_capacity(search.n_runs),
        keys: Vec::with_capacity(search.n_runs),
        best_keys: Vec::new(),
        built,
        fresh: Vec::new(),
    };
    walk.built.clear();
    walk.step(node, JOKER_ID, 0, goal)
}

struct RunWalk<'s, 'b> {
    search: &'s GoDownSearch<'s>,
    rules: &'s RuleSet,
    sizes: Sizes,
    chosen: Vec<Cand>,
    keys: Vec<u128>,
    best_keys: Vec<u128>,
    /// The runs built at each step on the path, with their tuple keys (a stack).
    built: &'b mut Vec<(u128, Cand)>,
    fresh: Vec<(u128, Cand)>,
}

impl RunWalk<'_, '_> {
    fn touches_chosen_run(&self, cand: &Cand) -> bool {
        let (lo, hi) = cand.span();
        self.chosen.iter().any(|other| {
            let (olo, ohi) = other.span();
            other.key == cand.key && (lo == ohi + 1 || olo == hi + 1)
        })
    }

    /// Cover the smallest natural left; `prev_c` is the card the previous step covered
    /// and `floor` the tuple key of the run it took.
    fn step<G: Goal>(&mut self, node: &mut Node, prev_c: u8, floor: u128, goal: &mut G) -> bool {
        let search = self.search;
        let runs_left = search.n_runs - self.chosen.len();
        let Some(c) = (0..JOKER_ID).find(|&id| node.pool[id as usize] != 0) else {
            if node.pool[JOKER_ID as usize] != 0 || runs_left != 0 {
                return false;
            }
            // The goals read the chosen runs through a search whose run list is them.
            let view = search.with_runs(&self.chosen);
            node.chosen.clear();
            node.chosen.extend(0..self.chosen.len() as u32);
            let stop = goal.leaf(&view, node);
            if G::LEAST_MELDS {
                self.best_keys.clear();
                if let Some(best) = goal.least_melds() {
                    self.best_keys
                        .extend(best.iter().map(|m| m.tuple_key().expect("runs are short")));
                }
            }
            return stop;
        };
        if runs_left == 0 || runs_cannot_cover(&node.pool, runs_left, search.run_min) {
            return false;
        }
        let floor = if c == prev_c { floor } else { 0 };
        // Bounds on the tuples of the runs to come (see `least_list_may_beat`): each
        // holds `c` or a larger natural. One that holds `c` (at least one run per copy,
        // an ace aside: a run can hold it at both ends) comes at or after `floor` and
        // starts with `c` or a joker; one that does not starts with the next natural of
        // the pool or a joker.
        let (through_c, after_c) = if G::LEAST_MELDS {
            let copies = node.pool[c as usize] as usize;
            let through_c = if c % 13 == 0 { copies.div_ceil(2) } else { copies }.min(runs_left);
            let next_natural = (c + 1..JOKER_ID).find(|&id| node.pool[id as usize] != 0);
            (through_c, first_card_key(next_natural.unwrap_or(JOKER_ID)))
        } else {
            (0, 0)
        };
        if G::LEAST_MELDS && !self.best_keys.is_empty() {
            let next = floor.max(first_card_key(c));
            let others = next.min(after_c);
            if !least_list_may_beat(&self.keys, runs_left, (through_c, next), others, &self.best_keys) {
                return false;
            }
        }
        self.fresh.clear();
        // This run leaves enough cards for the runs after it, and not too many; the last
        // run takes every card left.
        let others = runs_left as u32 - 1;
        let sizes = Sizes {
            run_min: self
                .sizes
                .run_min
                .max(node.cards.saturating_sub(self.sizes.run_max.saturating_mul(others))),
            run_max: self
                .sizes
                .run_max
                .min(node.cards.saturating_sub(self.sizes.run_min * others)),
            ..self.sizes
        };
        if sizes.run_min > sizes.run_max {
            return false;
        }
        let must = naturals_every_run_holds(&node.pool, c / 13, runs_left);
        push_runs_through(
            &node.pool,
            self.rules,
            &sizes,
            &search.points,
            Through {
                c,
                every_joker: others == 0,
                must,
            },
            &mut self.fresh,
        );
        let base = self.built.len();
        for (key, cand) in self.fresh.drain(..) {
            if key >= floor && cand.fits(&node.pool) {
                self.built.push((key, cand));
            }
        }
        let end = self.built.len();
        if G::LEAST_MELDS {
            self.built[base..end].sort_unstable_by_key(|&(key, _)| key);
        }
        for at in base..end {
            let (key, cand) = self.built[at];
            // The same bound with this run's tuple known (the runs that hold `c` after it
            // come at or after it); the runs come in tuple order and the bound only grows
            // with the tuple, so once it fails it fails for the rest.
            if G::LEAST_MELDS && !self.best_keys.is_empty() {
                self.keys.push(key);
                let others = key.min(after_c);
                let may = least_list_may_beat(&self.keys, runs_left - 1, (through_c - 1, key), others, &self.best_keys);
                self.keys.pop();
                if !may {
                    break;
                }
            }
            if search.adjacency && self.touches_chosen_run(&cand) {
                continue;
            }
            cand.take(&mut node.pool);
            node.cards -= cand.len;
            node.used += cand.points;
            self.chosen.push(cand);
            self.keys.push(key);
            let stop = self.step(node, c, key, goal);
            self.keys.pop();
            self.chosen.pop();
            node.used -= cand.points;
            node.cards += cand.len;
            cand.put_back(&mut node.pool);
            if stop {
                self.built.truncate(base);
                return true;
            }
        }
        self.built.truncate(base);
        false
    }
}

/// The positions (bit p, 2..=13) whose natural every run of `suit` still to come must
/// hold, when `runs` runs are left to cover `pool`: a run holds one natural of each
/// position (the ace aside), so a suit needs as many runs as it has copies of a rank,
/// and the other suits take at least that many of the `runs`; a rank of `suit` with as
/// many copies as the runs left for it is in every one of them.
fn naturals_every_run_holds(pool: &Pool, suit: u8, runs: usize) -> u16 {
    let needs = |s: usize| {
        let counts = &pool[s * 13..s * 13 + 13];
        let most = counts[1..].iter().copied().max().unwrap_or(0) as usize;
        most.max((counts[0] as usize).div_ceil(2))
    };
    let others: usize = (0..4).filter(|&s| s != suit as usize).map(needs).sum();
    let Some(room) = runs.checked_sub(others).filter(|&r| r > 0) else {
        return 0;
    };
    let counts = &pool[suit as usize * 13..suit as usize * 13 + 13];
    (1..13)
        .filter(|&r| counts[r] as usize == room)
        .fold(0u16, |m, r| m | 1 << (r + 1))
}
