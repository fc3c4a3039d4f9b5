//! best_arrangement: melds of any number and length that leave the least deadwood.
//!
//! The walk resolves the hand's natural cards in id order. At each step, `c` is the
//! smallest natural still in the pool; since every smaller card is already placed or
//! declared deadwood, a meld that still fits and holds `c` has `c` as its smallest
//! card. So the only choices are: one of the melds whose smallest card is `c` (in list
//! order, never below the previous choice for the same `c`, so each multiset of melds
//! is met once), or "every remaining copy of `c` is deadwood". When only jokers remain
//! they are deadwood too. Declared deadwood only grows along a path, which makes it a
//! lower bound to prune on; cards that no candidate meld can hold are deadwood from
//! the start.

use super::cands::{push_runs, push_sets, Cand, Pool, Sizes};
use super::dfs::{melds_cmp, multiset_cmp, pool_points, Scratch};
use crate::card::{CARD_KINDS, JOKER_ID};
use crate::rules::RuleSet;
use std::cmp::Ordering;

/// An arrangement kept by the search: its deadwood and canonical melds list.
#[derive(Clone)]
pub(crate) struct Arranged {
    pub deadwood_points: u32,
    pub deadwood: Pool,
    pub melds: Vec<Cand>,
}

/// Fewest deadwood points, then smallest deadwood ids, then fewest melds, then smallest
/// melds list (then the most sets, for card groups that read both ways).
fn arranged_cmp(a: &Arranged, b: &Arranged) -> Ordering {
    a.deadwood_points
        .cmp(&b.deadwood_points)
        .then_with(|| multiset_cmp(&a.deadwood, &b.deadwood))
        .then_with(|| a.melds.len().cmp(&b.melds.len()))
        .then_with(|| melds_cmp(&a.melds, &b.melds))
}

/// Whether the search wants only the deadwood points or the full tie-broken arrangement.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArrangeMode {
    PointsOnly,
    Exact,
}

struct Walk<'a> {
    points: [u16; CARD_KINDS],
    /// Candidates grouped by smallest card id, best-scoring first within a group.
    cands: &'a [Cand],
    /// `cands[first[c]..first[c + 1]]` are the candidates whose smallest card is `c`.
    first: [u32; CARD_KINDS + 1],
    mode: ArrangeMode,
}

struct State {
    pool: Pool,
    /// Bit `id` set while `pool[id] > 0`, naturals only (finds the next card fast).
    present: u64,
    /// Cards declared deadwood so far, and their points.
    dead: Pool,
    dead_points: u32,
    chosen: Vec<u32>,
    /// Points of the best arrangement found (PointsOnly: starts at "no melds at all").
    best_points: u32,
    best: Option<Arranged>,
    scratch: Vec<Cand>,
}

/// The best arrangement of `hand`. In `PointsOnly` mode only `deadwood_points` of the
/// result is meaningful.
pub(crate) fn search_arrangement(hand: &Pool, rules: &RuleSet, scratch: &mut Scratch, mode: ArrangeMode) -> Arranged {
    let points = rules.points_by_id();
    let sizes = Sizes::any_length(rules);
    let cands = &mut scratch.sets;
    cands.clear();
    push_sets(hand, rules, &sizes, &points, cands);
    push_runs(hand, rules, &sizes, &points, cands);
    if cands.is_empty() {
        // Nothing melds: the whole hand is deadwood (the common case for random hands).
        let total = pool_points(hand, &points);
        return Arranged {
            deadwood_points: total,
            deadwood: *hand,
            melds: Vec::new(),
        };
    }
    cands.sort_unstable_by_key(|c| (c.min_id(), std::cmp::Reverse(c.points)));

    let mut first = [0u32; CARD_KINDS + 1];
    let mut meldable = 0u64;
    for c in cands.iter() {
        first[c.min_id() as usize + 1] += 1;
        meldable |= c.id_mask();
    }
    for id in 0..CARD_KINDS {
        first[id + 1] += first[id];
    }

    // Cards no meld can hold are deadwood whatever the walk does.
    let mut pool = *hand;
    let mut dead = [0u8; CARD_KINDS];
    for id in 0..CARD_KINDS {
        if meldable >> id & 1 == 0 {
            dead[id] = pool[id];
            pool[id] = 0;
        }
    }
    let total = pool_points(hand, &points);
    let dead_points = pool_points(&dead, &points);
    let walk = Walk {
        points,
        cands,
        first,
        mode,
    };
    let present = (0..JOKER_ID as usize)
        .filter(|&id| pool[id] > 0)
        .fold(0u64, |m, id| m | 1 << id);
    let mut st = State {
        pool,
        present,
        dead,
        dead_points,
        chosen: std::mem::take(&mut scratch.chosen),
        best_points: if mode == ArrangeMode::PointsOnly {
            total
        } else {
            u32::MAX
        },
        best: None,
        scratch: Vec::new(),
    };
    st.chosen.clear();
    walk.step(&mut st, 0, 0);
    scratch.chosen = std::mem::take(&mut st.chosen);
    match st.best {
        Some(best) => best,
        None => Arranged {
            deadwood_points: st.best_points,
            deadwood: *hand,
            melds: Vec::new(),
        },
    }
}

impl Walk<'_> {
    /// Can a path whose deadwood is already `dead_points` still matter?
    fn hopeless(&self, st: &State) -> bool {
        match self.mode {
            ArrangeMode::PointsOnly => st.dead_points >= st.best_points,
            ArrangeMode::Exact => st.dead_points > st.best_points,
        }
    }

    /// Resolve the smallest natural card from `from` on; `floor` is the first candidate
    /// index allowed for that card (the previous choice for the same card).
    fn step(&self, st: &mut State, from: usize, floor: u32) {
        if self.hopeless(st) {
            return;
        }
        let later = st.present & (u64::MAX << from);
        if later == 0 {
            self.finish(st);
            return;
        }
        let c = later.trailing_zeros() as usize;
        let floor = if c == from { floor } else { 0 };
        let (lo, hi) = (self.first[c] + floor, self.first[c + 1]);
        for k in lo..hi {
            let cand = &self.cands[k as usize];
            if !cand.fits(&st.pool) {
                continue;
            }
            cand.take_tracked(&mut st.pool, &mut st.present);
            st.chosen.push(k);
            self.step(st, c, k - self.first[c]);
            st.chosen.pop();
            cand.put_back_tracked(&mut st.pool, &mut st.present);
        }
        // Or every copy of `c` left is deadwood.
        let n = st.pool[c];
        st.pool[c] = 0;
        st.present &= !(1u64 << c);
        st.dead[c] += n;
        let p = n as u32 * self.points[c] as u32;
        st.dead_points += p;
        self.step(st, c + 1, 0);
        st.dead_points -= p;
        st.dead[c] -= n;
        st.present |= 1u64 << c;
        st.pool[c] = n;
    }

    /// Every natural is placed: the jokers left are deadwood and the arrangement is complete.
    fn finish(&self, st: &mut State) {
        let jokers = st.pool[JOKER_ID as usize];
        let points = st.dead_points + jokers as u32 * self.points[JOKER_ID as usize] as u32;
        match self.mode {
            ArrangeMode::PointsOnly => st.best_points = st.best_points.min(points),
            ArrangeMode::Exact => {
                if points > st.best_points {
                    return;
                }
                let mut deadwood = st.dead;
                deadwood[JOKER_ID as usize] += jokers;
                let mut melds = std::mem::take(&mut st.scratch);
                melds.clear();
                melds.extend(st.chosen.iter().map(|&k| self.cands[k as usize]));
                melds.sort_by(|a, b| a.kind_order().cmp(&b.kind_order()).then_with(|| a.tuple_cmp(b)));
                let here = Arranged {
                    deadwood_points: points,
                    deadwood,
                    melds,
                };
                if st
                    .best
                    .as_ref()
                    .is_none_or(|b| arranged_cmp(&here, b) == Ordering::Less)
                {
                    st.best_points = points;
                    st.scratch = st.best.take().map(|b| b.melds).unwrap_or_default();
                    st.best = Some(here);
                } else {
                    st.scratch = here.melds;
                }
            }
        }
    }
}
