//! The depth-first search behind every public search function.
//!
//! A go-down search fills the contract's slots in a fixed order, runs first, then
//! sets, longest minimum first. A slot is one meld of the contract with its length
//! range ([`RuleSet::meld_range`]); consecutive slots with the same kind and range
//! form a class. Each slot takes a candidate meld (see `cands.rs`) of its length
//! whose index in its list is not below the previous slot's of the same class, so
//! each multiset of melds is met once per way of sharing it between classes (once in
//! every preset, where a kind has one class; `Collect` removes the repeats a custom
//! contract with several lengths of one kind can give). A [`Goal`] decides what a complete go-down means (stop at the first,
//! keep the best, collect all) and which partial ones are still worth extending,
//! given an upper bound on the points they can still put into melds.
//!
//! The arrangement search (any number of melds) is in `arrange.rs`.

use super::cands::{push_runs, push_sets, Cand, Pool, Sizes};
use super::goal::{joker_bucket, JokerBuckets, Slot, JOKER_BUCKETS};
pub(crate) use super::goal::{GoDownSearch, Goal, Node};
use super::sweep;
use super::whole;
use crate::card::{CARD_KINDS, JOKER_ID};
use crate::meld::MeldKind;
use crate::rules::{Contract, RuleSet, MAX_CONTRACT_MELDS};
use std::cmp::Ordering;

/// Reusable buffers, so that a batch allocates once per worker, not once per hand.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(crate) runs: Vec<Cand>,
    pub(crate) sets: Vec<Cand>,
    pub(crate) chosen: Vec<u32>,
    /// The whole-hand walk's buffers (`whole.rs`).
    pub(crate) walk: whole::WalkBuffers,
    /// The sweep's per-suit tables (`sweep.rs`).
    pub(crate) sweep: sweep::SweepBuffers,
    /// What the last points table seen gives the search: one rule set asks again and again.
    tables: Option<PointsTables>,
}

/// What the search reads from a rule set's points table (L-10.1), built once per table.
#[derive(Clone, Copy)]
pub(crate) struct PointsTables {
    /// The table they were built from (0 = joker, 1..=13 = ace..king).
    rank_points: [u16; 14],
    /// Points by card id ([`RuleSet::points_by_id`]).
    pub(crate) by_id: [u16; CARD_KINDS],
    /// [`class_order`].
    order: [u8; 14],
    /// [`ids_by_points`].
    ids: [u8; CARD_KINDS],
    /// The classes of `order`, each as the bits of its card ids.
    class_ids: [u64; 14],
}

impl Scratch {
    /// The tables of `rules`' points, from the last search when the points are the same.
    pub(crate) fn points_tables(&mut self, rules: &RuleSet) -> PointsTables {
        match self.tables {
            Some(tables) if tables.rank_points == rules.points => {
                debug_assert_eq!(tables.by_id, rules.points_by_id());
                tables
            }
            _ => {
                let order = class_order(rules);
                let tables = PointsTables {
                    rank_points: rules.points,
                    by_id: rules.points_by_id(),
                    order,
                    ids: ids_by_points(&order),
                    class_ids: order.map(|class| {
                        if class == 0 {
                            1 << JOKER_ID
                        } else {
                            (0..4).fold(0u64, |m, suit| m | 1 << (suit * 13 + class as u64 - 1))
                        }
                    }),
                };
                self.tables = Some(tables);
                tables
            }
        }
    }
}

/// Order candidates by joker bucket, most jokers first, then by points, most first, and
/// say where each bucket starts ([`JokerBuckets`]): the bounds below rely on it. A slot
/// skips the buckets the pool's jokers cannot pay for at once (most candidates a pool
/// left by the slots before cannot take lack jokers, not naturals). (The order among
/// equal keys changes which path finds a result first, never the result: ties are
/// decided by the full key.)
fn sort_candidates(list: &mut [Cand]) -> JokerBuckets {
    list.sort_unstable_by_key(|c| std::cmp::Reverse((joker_bucket(c.jokers), c.points)));
    let mut buckets = JokerBuckets {
        first_at_most: [list.len() as u32; JOKER_BUCKETS],
        best_at_most: [0; JOKER_BUCKETS],
    };
    for (k, c) in list.iter().enumerate().rev() {
        let j = joker_bucket(c.jokers);
        buckets.first_at_most[j] = k as u32;
        buckets.best_at_most[j] = buckets.best_at_most[j].max(c.points);
    }
    for j in 1..JOKER_BUCKETS {
        buckets.first_at_most[j] = buckets.first_at_most[j].min(buckets.first_at_most[j - 1]);
        buckets.best_at_most[j] = buckets.best_at_most[j].max(buckets.best_at_most[j - 1]);
    }
    buckets
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

/// Every card id (the joker is 52), by the points of its class in `order`, highest first.
fn ids_by_points(order: &[u8; 14]) -> [u8; CARD_KINDS] {
    let mut ids = [0u8; CARD_KINDS];
    let mut n = 0;
    for &class in order {
        if class == 0 {
            ids[n] = JOKER_ID;
            n += 1;
        } else {
            for suit in 0..4u8 {
                ids[n] = suit * 13 + class - 1;
                n += 1;
            }
        }
    }
    ids
}

/// Bit `id` set for every card id the pool holds (the joker's is bit 52).
fn ids_held(pool: &Pool) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Eight ids a word: a byte's high bit says it is not zero, and one multiplication
    // gathers the eight high bits into the top byte.
    let word = |at: usize| {
        let x = u64::from_le_bytes(pool[at..at + 8].try_into().expect("eight bytes"));
        let flags = (((x & LOW7) + LOW7) | x) & HIGH;
        flags.wrapping_mul(0x0002_0408_1020_4081) >> 56
    };
    // Ids 0..=47 from six words, 48..=52 from the top five bytes of the word at 45.
    (0..6).fold(0u64, |ids, k| ids | word(8 * k) << (8 * k)) | (word(45) >> 3) << 48
}

/// By joker bucket `j`: the most points of a candidate of `list` (sorted, see
/// [`sort_candidates`]) of bucket `j` or lower that fits `pool` (`held`: its ids) — the
/// first that fits in each bucket; `None` if none fits.
fn best_fitting_by_jokers(
    list: &[Cand],
    buckets: &JokerBuckets,
    pool: &Pool,
    held: u64,
) -> Option<[u32; JOKER_BUCKETS]> {
    let mut best = [0u32; JOKER_BUCKETS];
    let mut any = false;
    let top = joker_bucket(pool[JOKER_ID as usize]);
    let mut k = buckets.first_at_most[top] as usize;
    while k < list.len() {
        let bucket = joker_bucket(list[k].jokers);
        let end = buckets.end_of(bucket, list.len());
        if let Some(c) = list[k..end].iter().find(|c| c.fits_held(pool, held)) {
            best[bucket] = c.points;
            any = true;
        }
        k = end;
    }
    for j in 1..=top {
        best[j] = best[j].max(best[j - 1]);
    }
    // Budgets above the pool's jokers buy nothing more.
    for j in top + 1..JOKER_BUCKETS {
        best[j] = best[top];
    }
    any.then_some(best)
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
    let tables = scratch.points_tables(rules);
    let points = tables.by_id;
    // Slots: runs then sets, longest minimum first (on the stack: no allocation per search).
    let specs = contract.melds();
    let mut ranges_buf = [(MeldKind::Run, 0u32, 0u32); MAX_CONTRACT_MELDS];
    for (range, spec) in ranges_buf.iter_mut().zip(specs) {
        let (min, max) = rules.meld_range(spec, contract.whole_hand);
        let top = match spec.kind {
            MeldKind::Run => 14,
            MeldKind::Set => u32::MAX,
        };
        *range = (spec.kind, min as u32, max.map_or(top, |m| (m as u32).min(top)));
    }
    let ranges = &mut ranges_buf[..specs.len()];
    ranges.sort_by_key(|&(kind, min, max)| (kind == MeldKind::Set, std::cmp::Reverse(min), std::cmp::Reverse(max)));
    let n_runs = ranges.iter().filter(|r| r.0 == MeldKind::Run).count();
    let n_sets = ranges.len() - n_runs;
    let cards: u32 = hand.iter().map(|&n| n as u32).sum();

    // Count-based feasibility: enough cards for the minimum sizes; a whole hand must
    // also fit the maximum sizes.
    let min_cards: u64 = ranges.iter().map(|r| r.1 as u64).sum();
    if (cards as u64) < min_cards {
        return;
    }
    if contract.whole_hand {
        let max_cards: u64 = ranges.iter().map(|r| r.2 as u64).fold(0, u64::saturating_add);
        if cards as u64 > max_cards {
            return;
        }
    }

    // Candidates of each kind, within the widest range of that kind's slots.
    let sizes_of = |kind: MeldKind| {
        let of_kind = ranges.iter().filter(|r| r.0 == kind);
        (
            of_kind.clone().map(|r| r.1).min().unwrap_or(u32::MAX),
            of_kind.map(|r| r.2).max().unwrap_or(0),
        )
    };
    let (run_min, run_max) = sizes_of(MeldKind::Run);
    let (set_min, set_max) = sizes_of(MeldKind::Set);
    // Most whole hands of runs that fail, fail on the suits' duplicates and gaps alone.
    if contract.whole_hand && n_sets == 0 && whole::runs_cannot_cover(hand, n_runs, run_min) {
        return;
    }
    let sizes = Sizes {
        set_min,
        set_max,
        run_min,
        run_max,
    };
    // The whole-hand walk (`whole.rs`) needs every meld of a kind to take the same
    // lengths; it does not bound on points, so its candidates need no order.
    let one_range_per_kind = ranges.iter().all(|r| ranges.iter().all(|o| o.0 != r.0 || o == r));
    let walk_whole_hand = G::ORDER_FREE && contract.whole_hand && one_range_per_kind;
    let sort = G::BOUNDED && !walk_whole_hand;
    scratch.runs.clear();
    scratch.sets.clear();
    let (mut run_buckets, mut set_buckets) = (JokerBuckets::default(), JokerBuckets::default());
    // The whole-hand walk of runs builds its runs step by step from the pool.
    if n_runs > 0 && !(walk_whole_hand && n_sets == 0) {
        push_runs(hand, rules, &sizes, &points, &mut scratch.runs);
        if scratch.runs.is_empty() {
            return;
        }
        if sort {
            run_buckets = sort_candidates(&mut scratch.runs);
        }
    }
    if n_sets > 0 {
        push_sets(hand, rules, &sizes, &points, &mut scratch.sets);
        if scratch.sets.is_empty() {
            return;
        }
        if sort {
            set_buckets = sort_candidates(&mut scratch.sets);
        }
    }
    // The best of each kind (read by bounded goals only, whose lists are sorted).
    let best_run = run_buckets.best_at_most[JOKER_BUCKETS - 1];
    let best_set = set_buckets.best_at_most[JOKER_BUCKETS - 1];
    let mut slots = [Slot::default(); MAX_CONTRACT_MELDS];
    let total = ranges.len();
    for i in (0..total).rev() {
        let (_, min, max) = ranges[i];
        let same_as_previous = i > 0 && ranges[i - 1] == ranges[i];
        let same_as_next = i + 1 < total && ranges[i + 1] == ranges[i];
        let (class_left, others_best) = if same_as_next {
            (slots[i + 1].class_left + 1, slots[i + 1].others_best)
        } else {
            let after: u32 = ranges[i + 1..]
                .iter()
                .map(|r| if r.0 == MeldKind::Run { best_run } else { best_set })
                .sum();
            (1, after)
        };
        let (min_after, cap_after) = if i + 1 < total {
            let next = &slots[i + 1];
            let (nmin, nmax) = (ranges[i + 1].1, ranges[i + 1].2);
            (next.min_after + nmin, next.cap_after.saturating_add(nmax))
        } else {
            (0, 0)
        };
        // The candidates of a kind were built within its slots' widest range.
        let any_len = match ranges[i].0 {
            MeldKind::Run => min <= run_min && max >= run_max,
            MeldKind::Set => min <= set_min && max >= set_max,
        };
        slots[i] = Slot {
            min,
            max,
            any_len,
            same_as_previous,
            class_left,
            others_best,
            min_after,
            cap_after,
        };
    }
    // The ids the hand holds, in points order: a class's ids from the bits held.
    let mut held_by_points = [0u8; CARD_KINDS];
    let mut held = 0;
    if G::BOUNDED {
        let held_ids = ids_held(hand);
        debug_assert_eq!(
            held_ids,
            (0..CARD_KINDS).fold(0u64, |m, id| m | u64::from(hand[id] != 0) << id)
        );
        for &class in &tables.class_ids {
            let mut ids = held_ids & class;
            while ids != 0 {
                held_by_points[held] = ids.trailing_zeros() as u8;
                held += 1;
                ids &= ids - 1;
            }
        }
        debug_assert!(tables
            .ids
            .iter()
            .filter(|&&id| hand[id as usize] != 0)
            .eq(held_by_points[..held].iter()));
    }
    let search = GoDownSearch {
        points,
        order: tables.order,
        held_by_points,
        held,
        runs: &scratch.runs,
        sets: &scratch.sets,
        run_buckets,
        set_buckets,
        n_runs,
        n_sets,
        whole_hand: contract.whole_hand,
        adjacency: rules.same_suit_runs_need_gap,
        run_min,
        slots,
        total_points: pool_points(hand, &points),
    };
    scratch.chosen.clear();
    let mut node = Node {
        pool: *hand,
        cards,
        used: 0,
        chosen: std::mem::take(&mut scratch.chosen),
    };
    if walk_whole_hand && n_sets == 0 {
        sweep::sweep_whole_hand_of_runs(&search, rules, &sizes, &mut scratch.sweep, &mut node, goal);
    } else if walk_whole_hand {
        let groups = whole::group(&search, &mut scratch.walk, G::LEAST_MELDS);
        whole::walk_whole_hand(&search, &groups, &mut node, goal);
    } else {
        search.slot(&mut node, 0, goal);
    }
    scratch.chosen = node.chosen;
}

impl GoDownSearch<'_> {
    /// This search with another list of runs (the whole-hand walk of runs reports its
    /// chosen runs to the goals as the search's list).
    pub(crate) fn with_runs<'b>(&'b self, runs: &'b [Cand]) -> GoDownSearch<'b> {
        GoDownSearch { runs, ..*self }
    }

    /// Points of the `cap` best cards of the pool: no melds holding `cap` cards can score more.
    /// Walks the ids the hand held, best first (the pool holds no others).
    #[inline]
    fn top_points(&self, pool: &Pool, cap: u32, pool_total: u32) -> u32 {
        if cap == u32::MAX {
            return pool_total;
        }
        let mut left = cap;
        let mut sum = 0;
        for &id in &self.held_by_points[..self.held] {
            let n = (pool[id as usize] as u32).min(left);
            sum += n * self.points[id as usize] as u32;
            left -= n;
            if left == 0 {
                break;
            }
        }
        debug_assert_eq!(sum, self.top_points_by_class(pool, cap, pool_total));
        sum
    }

    /// [`GoDownSearch::top_points`] class by class: the plain form it is checked against.
    fn top_points_by_class(&self, pool: &Pool, mut cap: u32, pool_total: u32) -> u32 {
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

    /// By joker budget `j`: the most points slots `from..` can put in melds using at
    /// most `j` jokers, each the best candidate of its kind with at most `j` jokers —
    /// among those that fit `pool` (`held`: its ids, [`ids_held`]), or, with `pool`
    /// `None`, in the hand. `None` if some slot has no candidate that fits.
    fn others_by_jokers(&self, from: usize, pool: Option<(&Pool, u64)>) -> Option<[u32; JOKER_BUCKETS]> {
        let total = self.n_runs + self.n_sets;
        let runs = self.n_runs.saturating_sub(from) as u32;
        let sets = (total - from.max(self.n_runs)) as u32;
        let mut sum = [0u32; JOKER_BUCKETS];
        for (list, buckets, count) in [
            (self.runs, &self.run_buckets, runs),
            (self.sets, &self.set_buckets, sets),
        ] {
            if count == 0 {
                continue;
            }
            let best = match pool {
                Some((pool, held)) => best_fitting_by_jokers(list, buckets, pool, held)?,
                None => buckets.best_at_most,
            };
            for (s, b) in sum.iter_mut().zip(best) {
                *s += b * count;
            }
        }
        Some(sum)
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
        let spec = &self.slots[slot];
        let list = if is_run { self.runs } else { self.sets };
        let from = if spec.same_as_previous {
            node.chosen[slot - 1] as usize
        } else {
            0
        };
        let last = slot + 1 == total;
        let (cap_after, min_after) = (spec.cap_after, spec.min_after);
        let held = ids_held(&node.pool);
        // The slots after this class score at most the best candidate of their kind
        // that still fits the pool (the pool only loses cards below): below the root
        // that is often less than the hand's best. None fits: no go-down below.
        // By the jokers they may use (the pool's, less this slot's candidate's): the
        // jokers a candidate takes are often what the slots after it lack.
        let jokers_here = node.pool[JOKER_ID as usize];
        let others_by_jokers = if G::BOUNDED && spec.others_best > 0 {
            let pool = if slot > 0 { Some((&node.pool, held)) } else { None };
            match self.others_by_jokers(slot + spec.class_left as usize, pool) {
                Some(points) => points,
                None => return false,
            }
        } else {
            [0; JOKER_BUCKETS]
        };
        let others_best = others_by_jokers[joker_bucket(jokers_here)];
        // A bounded goal's lists are sorted by joker bucket (most first), then points:
        // the candidates before the pool's bucket need more jokers than it holds.
        let buckets = if is_run { &self.run_buckets } else { &self.set_buckets };
        let first = if G::BOUNDED {
            from.max(buckets.first_at_most[joker_bucket(jokers_here)] as usize)
        } else {
            from
        };
        let mut next = first;
        while next < list.len() {
            let k = next;
            next += 1;
            let cand = &list[k];
            if G::BOUNDED {
                // The later slots of this class take candidates from here on: the rest
                // of this bucket (no more points than this one) or a lower bucket the
                // jokers left can pay for.
                let bucket = joker_bucket(cand.jokers);
                let later = if spec.class_left > 1 && bucket > 0 {
                    let affordable = joker_bucket(jokers_here.saturating_sub(cand.jokers));
                    cand.points.max(buckets.best_at_most[(bucket - 1).min(affordable)])
                } else {
                    cand.points
                };
                let others = others_by_jokers[joker_bucket(jokers_here.saturating_sub(cand.jokers))];
                if !goal.worth(node.used + cand.points + (spec.class_left - 1) * later + others) {
                    // The last bucket mixes joker counts, so `others` may grow within it:
                    // each of its candidates is judged alone.
                    if bucket == JOKER_BUCKETS - 1 {
                        continue;
                    }
                    // Nor can the rest of this bucket; the lower buckets score at most their best.
                    if bucket == 0
                        || !goal.worth(node.used + buckets.best_at_most[bucket - 1] * spec.class_left + others_best)
                    {
                        break;
                    }
                    next = buckets.end_of(bucket, list.len());
                    continue;
                }
            }
            debug_assert!(!spec.any_len || (spec.min..=spec.max).contains(&cand.len));
            if (!spec.any_len && (cand.len < spec.min || cand.len > spec.max)) || !cand.fits_held(&node.pool, held) {
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
    const ORDER_FREE: bool = true;
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
    const ORDER_FREE: bool = true;
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
    // Keeps the least go-down of a total order: the same whatever the order met.
    const ORDER_FREE: bool = true;
    const LEAST_MELDS: bool = true;
    fn least_melds(&self) -> Option<&[Cand]> {
        self.best.as_ref().map(|b| &b.melds[..])
    }
    fn worth(&self, ub: u32) -> bool {
        self.best.as_ref().is_none_or(|b| ub >= b.used)
    }
    fn leaf(&mut self, search: &GoDownSearch, node: &Node) -> bool {
        let mut tie_built = false;
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
                        tie_built = true;
                        melds_cmp(&self.scratch, &b.melds) == Ordering::Less
                    }
                },
            },
        };
        if better {
            // The beaten go-down's list is reused (no allocation per go-down kept).
            let mut melds = self.best.take().map(|b| b.melds).unwrap_or_default();
            if tie_built {
                std::mem::swap(&mut melds, &mut self.scratch);
            } else {
                search.canonical(&node.chosen, &mut melds);
            }
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
    /// Were go-downs beyond `limit` dropped?
    pub truncated: bool,
}

impl Collect {
    /// Sort, drop repeats (a custom contract can meet one go-down twice) and keep the
    /// `limit` smallest; remember whether any was dropped.
    pub fn trim(&mut self) {
        self.found.sort_by(found_cmp);
        self.found.dedup_by(|a, b| found_cmp(a, b) == Ordering::Equal);
        if self.found.len() > self.limit {
            self.truncated = true;
            self.found.truncate(self.limit);
        }
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
