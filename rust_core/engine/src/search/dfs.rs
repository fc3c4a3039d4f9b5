//! The depth-first search behind every public search function.
//!
//! A go-down search fills the contract's slots in a fixed order, runs first, then
//! sets. Each slot takes a candidate meld (see `cands.rs`) whose index in its list is
//! not below the previous slot's of the same kind, so each multiset of melds is met
//! exactly once. A [`Goal`] decides what a complete go-down means (stop at the first,
//! keep the best, collect all) and which partial ones are still worth extending,
//! given an upper bound on the points they can still put into melds.
//!
//! The arrangement search (any number of melds) is in `arrange.rs`.

use super::cands::{push_runs, push_sets, Cand, Pool, Sizes};
use crate::card::{CARD_KINDS, JOKER_ID};
use crate::meld::MeldKind;
use crate::rules::{Contract, RuleSet};
use std::cmp::Ordering;

/// Reusable buffers, so that a batch allocates once per worker, not once per hand.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(crate) runs: Vec<Cand>,
    pub(crate) sets: Vec<Cand>,
    pub(crate) chosen: Vec<u32>,
}

/// Order candidates so that the best-scoring come first: the bounds below rely on it.
/// (The order among equal scores changes which path finds a result first, never the
/// result: ties are decided by the full key.)
fn sort_candidates(list: &mut [Cand]) {
    list.sort_unstable_by_key(|c| std::cmp::Reverse(c.points));
}

impl Cand {
    pub(crate) fn kind_order(&self) -> u8 {
        match self.kind {
            MeldKind::Set => 0,
            MeldKind::Run => 1,
        }
    }
}

/// Points of every card still in the pool.
pub(crate) fn pool_points(pool: &Pool, points: &[u16; CARD_KINDS]) -> u32 {
    pool.iter().zip(points).map(|(&n, &p)| n as u32 * p as u32).sum()
}

/// Compare two multisets as their sorted id lists (lexicographic; a prefix is smaller).
pub(crate) fn multiset_cmp(a: &Pool, b: &Pool) -> Ordering {
    for id in 0..CARD_KINDS {
        if a[id] != b[id] {
            // At the first differing id, the list with more copies of it is smaller,
            // unless the other list ends there (then the other is a prefix, so smaller).
            let (fewer, more_is) = if a[id] > b[id] {
                (b, Ordering::Less)
            } else {
                (a, Ordering::Greater)
            };
            let fewer_goes_on = fewer[id + 1..].iter().any(|&n| n > 0);
            return if fewer_goes_on { more_is } else { more_is.reverse() };
        }
    }
    Ordering::Equal
}

/// What the search is for.
pub(crate) trait Goal {
    /// Does the goal prune on points? If not, candidates need no ordering and no
    /// bound is computed.
    const BOUNDED: bool = true;
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
pub(crate) struct GoDownSearch<'a> {
    pub points: [u16; CARD_KINDS],
    /// Rank classes (0 = joker, 1..=13) by points, highest first (for the capacity bound).
    order: [u8; 14],
    pub runs: &'a [Cand],
    pub sets: &'a [Cand],
    pub n_runs: usize,
    pub n_sets: usize,
    pub whole_hand: bool,
    adjacency: bool,
    sizes: Sizes,
    pub total_points: u32,
}

/// Rank classes (0 = joker, 1..=13 = ace..king) by points, highest first. Points
/// depend on the rank only, so the capacity bound can work per class.
fn class_order(rules: &RuleSet) -> [u8; 14] {
    let mut order: [u8; 14] = std::array::from_fn(|i| i as u8);
    // Insertion sort: 14 entries, no allocation.
    for i in 1..14 {
        let mut j = i;
        while j > 0 && rules.points[order[j - 1] as usize] < rules.points[order[j] as usize] {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    order
}

/// Run a go-down search for `hand` and `contract`, reporting every complete go-down
/// it reaches to `goal`. Hands that are too small (or, for a whole hand, too large)
/// or lack a candidate for some kind of slot end before any enumeration.
pub(crate) fn search_go_down<G: Goal>(
    hand: &Pool,
    contract: &Contract,
    rules: &RuleSet,
    scratch: &mut Scratch,
    goal: &mut G,
) {
    let points = rules.points_by_id();
    let sizes = Sizes::go_down(rules, contract.whole_hand);
    let n_runs = contract.runs as usize;
    let n_sets = contract.sets as usize;
    let cards: u32 = hand.iter().map(|&n| n as u32).sum();

    // Count-based feasibility: enough cards for the minimum sizes; a whole hand must
    // also fit the maximum sizes.
    let min_cards = n_sets as u64 * sizes.set_min as u64 + n_runs as u64 * sizes.run_min as u64;
    if (cards as u64) < min_cards {
        return;
    }
    if contract.whole_hand {
        let max_cards = if n_sets > 0 { u64::MAX } else { n_runs as u64 * 14 };
        if cards as u64 > max_cards {
            return;
        }
    }

    scratch.runs.clear();
    scratch.sets.clear();
    if n_runs > 0 {
        push_runs(hand, rules, &sizes, &points, &mut scratch.runs);
        if scratch.runs.is_empty() {
            return;
        }
        if G::BOUNDED {
            sort_candidates(&mut scratch.runs);
        }
    }
    if n_sets > 0 {
        push_sets(hand, rules, &sizes, &points, &mut scratch.sets);
        if scratch.sets.is_empty() {
            return;
        }
        if G::BOUNDED {
            sort_candidates(&mut scratch.sets);
        }
    }
    let search = GoDownSearch {
        points,
        order: class_order(rules),
        runs: &scratch.runs,
        sets: &scratch.sets,
        n_runs,
        n_sets,
        whole_hand: contract.whole_hand,
        adjacency: rules.same_suit_runs_need_gap,
        sizes,
        total_points: pool_points(hand, &points),
    };
    scratch.chosen.clear();
    let mut node = Node {
        pool: *hand,
        cards,
        used: 0,
        chosen: std::mem::take(&mut scratch.chosen),
    };
    search.slot(&mut node, 0, goal);
    scratch.chosen = node.chosen;
}

impl GoDownSearch<'_> {
    /// Points of the `cap` best cards of the pool: no melds holding `cap` cards can score more.
    fn top_points(&self, pool: &Pool, mut cap: u32, pool_total: u32) -> u32 {
        if cap == u32::MAX {
            return pool_total;
        }
        let mut sum = 0;
        for &class in &self.order {
            if cap == 0 {
                break;
            }
            let copies = if class == 0 {
                pool[JOKER_ID as usize] as u32
            } else {
                (0..4).map(|suit| pool[suit * 13 + class as usize - 1] as u32).sum()
            };
            let n = copies.min(cap);
            sum += n * self.points[if class == 0 {
                JOKER_ID as usize
            } else {
                class as usize - 1
            }] as u32;
            cap -= n;
        }
        sum
    }

    /// Most cards the slots from `slot` on can hold.
    fn capacity_from(&self, slot: usize) -> u32 {
        let runs_left = self.n_runs.saturating_sub(slot) as u32;
        let sets_left = (self.n_runs + self.n_sets - slot.max(self.n_runs)) as u32;
        if sets_left > 0 && self.sizes.set_max == u32::MAX {
            return u32::MAX;
        }
        runs_left * self.sizes.run_max + sets_left * self.sizes.set_max
    }

    /// Fewest cards the slots from `slot` on need.
    fn min_cards_from(&self, slot: usize) -> u32 {
        let runs_left = self.n_runs.saturating_sub(slot) as u32;
        let sets_left = (self.n_runs + self.n_sets - slot.max(self.n_runs)) as u32;
        runs_left * self.sizes.run_min + sets_left * self.sizes.set_min
    }

    /// L-4.4: would this run touch, end to end, a same-suit run already chosen?
    fn touches_chosen_run(&self, cand: &Cand, node: &Node) -> bool {
        let (lo, hi) = cand.span();
        node.chosen.iter().take(self.n_runs.min(node.chosen.len())).any(|&k| {
            let other = &self.runs[k as usize];
            if other.key != cand.key {
                return false;
            }
            let (olo, ohi) = other.span();
            lo == ohi + 1 || olo == hi + 1
        })
    }

    /// Fill slot `slot` and the ones after it. Returns `true` when the goal says stop.
    fn slot<G: Goal>(&self, node: &mut Node, slot: usize, goal: &mut G) -> bool {
        let total = self.n_runs + self.n_sets;
        if slot == total {
            if self.whole_hand && node.cards != 0 {
                return false;
            }
            return goal.leaf(self, node);
        }
        let is_run = slot < self.n_runs;
        let (list, from, same_left, other_left, other_best) = if is_run {
            let from = if slot == 0 { 0 } else { node.chosen[slot - 1] as usize };
            let other_best = self.sets.first().map_or(0, |c| c.points);
            (
                self.runs,
                from,
                (self.n_runs - slot) as u32,
                self.n_sets as u32,
                other_best,
            )
        } else {
            let from = if slot == self.n_runs {
                0
            } else {
                node.chosen[slot - 1] as usize
            };
            (self.sets, from, (total - slot) as u32, 0, 0)
        };
        let last = slot + 1 == total;
        let cap_after = self.capacity_from(slot + 1);
        let min_after = self.min_cards_from(slot + 1);
        for (k, cand) in list.iter().enumerate().skip(from) {
            // Later candidates, and later slots of this kind, score no more than this one.
            if !goal.worth(node.used + cand.points * same_left + other_best * other_left) {
                break;
            }
            if !cand.fits(&node.pool) {
                continue;
            }
            if self.whole_hand {
                let rest = node.cards.wrapping_sub(cand.len);
                if cand.len > node.cards || rest < min_after || rest > cap_after {
                    continue;
                }
            }
            if is_run && self.adjacency && self.touches_chosen_run(cand, node) {
                continue;
            }
            cand.take(&mut node.pool);
            node.cards -= cand.len;
            node.used += cand.points;
            node.chosen.push(k as u32);
            let stop = if last {
                if self.whole_hand && node.cards != 0 {
                    false
                } else {
                    goal.leaf(self, node)
                }
            } else if G::BOUNDED {
                let pool_total = self.total_points - node.used;
                let ub = node.used + self.top_points(&node.pool, cap_after, pool_total);
                goal.worth(ub) && self.slot(node, slot + 1, goal)
            } else {
                self.slot(node, slot + 1, goal)
            };
            node.chosen.pop();
            node.used -= cand.points;
            node.cards += cand.len;
            cand.put_back(&mut node.pool);
            if stop {
                return true;
            }
        }
        false
    }

    /// The chosen sets and runs, each sorted by canonical tuple: the go-down's melds list.
    pub fn canonical(&self, chosen: &[u32], out: &mut Vec<Cand>) {
        out.clear();
        let split = self.n_runs.min(chosen.len());
        out.extend(chosen[split..].iter().map(|&k| self.sets[k as usize]));
        out.sort_by(|a, b| a.tuple_cmp(b));
        let sets = out.len();
        out.extend(chosen[..split].iter().map(|&k| self.runs[k as usize]));
        out[sets..].sort_by(|a, b| a.tuple_cmp(b));
    }
}

/// Compare two melds lists (already canonical) tuple by tuple, then by length, then by
/// kinds (a set before a run, for card groups that read both ways).
pub(crate) fn melds_cmp(a: &[Cand], b: &[Cand]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = x.tuple_cmp(y);
        if o != Ordering::Equal {
            return o;
        }
    }
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().map(Cand::kind_order).cmp(b.iter().map(Cand::kind_order)))
}

// ---------------------------------------------------------------------------------
// Goals

/// has_contract: stop at the first go-down.
pub(crate) struct Exists {
    pub found: bool,
}

impl Goal for Exists {
    const BOUNDED: bool = false;
    fn worth(&self, _ub: u32) -> bool {
        true
    }
    fn leaf(&mut self, _: &GoDownSearch, _: &Node) -> bool {
        self.found = true;
        true
    }
}

/// The most points a go-down can put into melds (so the fewest left in hand).
pub(crate) struct MaxPoints {
    pub best: Option<u32>,
}

impl Goal for MaxPoints {
    fn worth(&self, ub: u32) -> bool {
        self.best.is_none_or(|b| ub > b)
    }
    fn leaf(&mut self, search: &GoDownSearch, node: &Node) -> bool {
        if self.best.is_none_or(|b| node.used > b) {
            self.best = Some(node.used);
        }
        node.used == search.total_points // nothing can beat an empty hand
    }
}

/// A complete go-down kept by a goal.
#[derive(Clone)]
pub(crate) struct Found {
    pub used: u32,
    pub left: Pool,
    /// Canonical melds list.
    pub melds: Vec<Cand>,
}

/// Order of [`Found`] go-downs: fewest points left, then smallest left ids, then
/// smallest melds list.
pub(crate) fn found_cmp(a: &Found, b: &Found) -> Ordering {
    b.used
        .cmp(&a.used)
        .then_with(|| multiset_cmp(&a.left, &b.left))
        .then_with(|| melds_cmp(&a.melds, &b.melds))
}

/// best_go_down: the smallest go-down in [`found_cmp`] order.
#[derive(Default)]
pub(crate) struct BestKey {
    pub best: Option<Found>,
    scratch: Vec<Cand>,
}

impl Goal for BestKey {
    fn worth(&self, ub: u32) -> bool {
        self.best.as_ref().is_none_or(|b| ub >= b.used)
    }
    fn leaf(&mut self, search: &GoDownSearch, node: &Node) -> bool {
        let better = match &self.best {
            None => true,
            Some(b) => match node.used.cmp(&b.used) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => match multiset_cmp(&node.pool, &b.left) {
                    Ordering::Less => true,
                    Ordering::Greater => false,
                    Ordering::Equal => {
                        search.canonical(&node.chosen, &mut self.scratch);
                        melds_cmp(&self.scratch, &b.melds) == Ordering::Less
                    }
                },
            },
        };
        if better {
            let mut melds = Vec::new();
            search.canonical(&node.chosen, &mut melds);
            self.best = Some(Found {
                used: node.used,
                left: node.pool,
                melds,
            });
        }
        false
    }
}

/// all_go_downs: every go-down, keeping only the `limit` smallest.
pub(crate) struct Collect {
    pub found: Vec<Found>,
    pub limit: usize,
}

impl Collect {
    /// Sort and keep the `limit` smallest.
    pub fn trim(&mut self) {
        self.found.sort_by(found_cmp);
        self.found.truncate(self.limit);
    }
}

impl Goal for Collect {
    fn worth(&self, _ub: u32) -> bool {
        true
    }
    fn leaf(&mut self, search: &GoDownSearch, node: &Node) -> bool {
        let mut melds = Vec::with_capacity(node.chosen.len());
        search.canonical(&node.chosen, &mut melds);
        self.found.push(Found {
            used: node.used,
            left: node.pool,
            melds,
        });
        if self.found.len() >= self.limit.saturating_mul(2).max(1024) {
            self.trim();
        }
        false
    }
}
