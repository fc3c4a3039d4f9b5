//! The whole-hand go-down of a contract of runs only (L-8: round 7 of every preset but
//! Shanghai's eighth) by a sweep over each suit's positions.
//!
//! A run takes one card at each position of its interval, so a whole hand of runs is,
//! suit by suit, a set of intervals over the positions 1..=14 (the ace at both ends)
//! that covers each position at least as often as the hand holds its natural: the
//! naturals there, and a joker for every run too many. Walking the positions low to
//! high with the runs still open, a step only decides how many runs start at this
//! position, which of the runs here hold a joker, and which end here; a path that
//! needs more jokers than it was given, or leaves a natural no run can take, ends at
//! once. So the sweep never builds a run that cannot be completed, which is where the
//! walk over candidate runs (`whole.rs`) spent its time on joker-rich hands that split
//! in many ways (issue 19).
//!
//! The runs and jokers are shared between the suits first: a suit that holds naturals
//! takes at least one run (a run holds a natural, L-4.5), a suit without none. Each
//! suit is then swept on its own for exactly its share (for every way of reading its
//! aces low or high), keeping its least go-down: the one whose runs' canonical tuples,
//! sorted, are the least. That is exact: two melds lists of the same length compare
//! as their least tuple not in the other (as multisets), which adding the same tuples
//! to both does not change; so the least whole list joins the least list of each suit,
//! for the best sharing. While a suit is swept, a path ends as soon as the least list
//! it can still reach is not less than the one kept (each open run's tuple so far is a
//! prefix of its final tuple, and a run not started yet begins at the next position or
//! later).
//!
//! Every go-down of a whole hand leaves nothing, so the goals that only ask whether one
//! exists or how many points it lays (`Exists`, `MaxPoints`, any order-free goal
//! without [`Goal::LEAST_MELDS`]) are told one go-down; [`Goal::LEAST_MELDS`] goals,
//! the least one.

use super::cands::{run_key, Cand, Pool, Sizes, SuitRuns};
use super::goal::{GoDownSearch, Goal, Node};
use crate::card::{CARD_KINDS, JOKER_ID};
use crate::meld::position_rank;
use crate::rules::{RuleSet, MAX_CONTRACT_MELDS};

/// One run of a suit's go-down: its first position, length and joker places (bit `i`:
/// position `start + i`), with its canonical tuple key ([`Cand::tuple_key`]; for an
/// open run, the key of its cards so far).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Interval {
    start: u8,
    len: u8,
    jokers: u16,
    key: u128,
}

/// The go-down of one suit for its share: its runs by tuple key when the goal keeps
/// the least melds list.
type SuitGoDown = [Interval; MAX_CONTRACT_MELDS];

const NOT_SWEPT: u16 = u16::MAX;
const NO_GO_DOWN: u16 = u16::MAX - 1;

/// Reusable buffers of the sweep (in [`super::dfs::Scratch`]).
#[derive(Default)]
pub(crate) struct SweepBuffers {
    /// Per suit that holds naturals, per share (runs, jokers): [`NOT_SWEPT`],
    /// [`NO_GO_DOWN`], or the index in `found` of the suit's go-down for that share.
    shares: Vec<u16>,
    found: Vec<SuitGoDown>,
    dead: DeadStates,
    /// The readings of every suit that holds naturals; suit `i`'s are
    /// `readings[first[i]..first[i + 1]]`.
    readings: Vec<Reading>,
}

/// The key bits of the card at index `i` of a tuple ([`Cand::tuple_key`]).
#[inline]
fn card_key(id: u8, i: u8) -> u128 {
    (id as u128 + 1) << (7 * (17 - i as u32))
}

/// Report the whole-hand go-downs of `node.pool` (all runs) to `goal`: one, or the
/// least for a [`Goal::LEAST_MELDS`] goal. `true` when the goal said stop.
pub(crate) fn sweep_whole_hand_of_runs<G: Goal>(
    search: &GoDownSearch,
    rules: &RuleSet,
    sizes: &Sizes,
    buffers: &mut SweepBuffers,
    node: &mut Node,
    goal: &mut G,
) -> bool {
    debug_assert_eq!(search.n_sets, 0);
    let pool = node.pool;
    let runs = search.n_runs;
    let jokers = pool[JOKER_ID as usize] as usize;
    let mut suits_buf = [0u8; 4];
    let mut n_suits = 0;
    for s in 0..4u8 {
        if pool[s as usize * 13..s as usize * 13 + 13].iter().any(|&n| n != 0) {
            suits_buf[n_suits] = s;
            n_suits += 1;
        }
    }
    let suits = &suits_buf[..n_suits];
    if suits.is_empty() || suits.len() > runs || runs > MAX_CONTRACT_MELDS {
        return false;
    }
    let stride = jokers + 1;
    let per_suit = (runs + 1) * stride;
    buffers.shares.clear();
    buffers.shares.resize(per_suit * suits.len(), NOT_SWEPT);
    buffers.found.clear();
    buffers.readings.clear();
    let mut first = [0usize; 5];
    for (i, &suit) in suits.iter().enumerate() {
        Reading::all(&pool, suit, runs - (suits.len() - 1), &mut buffers.readings);
        first[i + 1] = buffers.readings.len();
    }
    let mut pick = Pick {
        shares: &mut buffers.shares,
        found: &mut buffers.found,
        dead: &mut buffers.dead,
        readings: &mut buffers.readings,
        first,
        suits,
        per_suit,
        stride,
        least: G::LEAST_MELDS,
        setup: Setup {
            run_min: sizes.run_min.clamp(1, 15) as u8,
            run_max: sizes.run_max.min(14) as u8,
            adjacency: search.adjacency,
            min_naturals: rules.min_naturals_run.max(1) as u32,
            window: rules.run_naturals_window,
        },
        chosen: [(0, 0); 4],
        best: None,
    };
    pick.choose(0, runs, jokers);
    let Some(best) = pick.best else {
        return false;
    };
    let mut chosen = [None; MAX_CONTRACT_MELDS];
    for (cand, &(suit, run)) in chosen.iter_mut().zip(&best[..runs]) {
        *cand = SuitRuns::new(&pool, suit, rules, &search.points).cand(
            run.start,
            run.len as u32,
            run.jokers,
            run.jokers.count_ones(),
        );
        debug_assert!(cand.is_some(), "the sweep keeps only legal runs");
    }
    let chosen: Vec<Cand> = chosen[..runs].iter().map_while(|c| *c).collect();
    if chosen.len() != runs {
        return false;
    }
    // The goals read the chosen runs through a search whose run list is them, with the
    // whole hand laid.
    let view = search.with_runs(&chosen);
    let (kept_pool, kept_cards, kept_used) = (node.pool, node.cards, node.used);
    node.pool = [0; CARD_KINDS];
    node.cards = 0;
    node.used = search.total_points;
    node.chosen.clear();
    node.chosen.extend(0..runs as u32);
    let stop = goal.leaf(&view, node);
    (node.pool, node.cards, node.used) = (kept_pool, kept_cards, kept_used);
    stop
}

/// What every suit's sweep reads.
#[derive(Clone, Copy)]
struct Setup {
    run_min: u8,
    run_max: u8,
    adjacency: bool,
    min_naturals: u32,
    window: Option<u8>,
}

/// The sharing of the runs and jokers between the suits.
struct Pick<'t> {
    shares: &'t mut [u16],
    found: &'t mut Vec<SuitGoDown>,
    dead: &'t mut DeadStates,
    readings: &'t mut [Reading],
    first: [usize; 5],
    /// The suits that hold naturals, in order; `shares` holds `per_suit` entries each.
    suits: &'t [u8],
    per_suit: usize,
    stride: usize,
    least: bool,
    setup: Setup,
    /// (runs, jokers) given to each suit so far.
    chosen: [(usize, usize); 4],
    /// The go-down chosen: (suit, run), by tuple key when the goal keeps the least.
    best: Option<[(u8, Interval); MAX_CONTRACT_MELDS]>,
}

impl Pick<'_> {
    /// Share `runs` runs and `jokers` jokers between suits `i..`. `true` once a go-down
    /// is found and any will do.
    fn choose(&mut self, i: usize, runs: usize, jokers: usize) -> bool {
        let n = self.suits.len();
        if i == n {
            return runs == 0 && jokers == 0 && self.consider();
        }
        // Each later suit needs a run at least; the last suit takes what is left.
        let Some(most) = runs.checked_sub(n - i - 1) else {
            return false;
        };
        let (fewest, fewest_jokers) = if i + 1 == n { (most, jokers) } else { (1, 0) };
        for k in fewest..=most {
            for j in fewest_jokers..=jokers {
                if !self.share(i, k, j) {
                    continue;
                }
                self.chosen[i] = (k, j);
                if self.choose(i + 1, runs - k, jokers - j) {
                    return true;
                }
            }
        }
        false
    }

    /// Has suit `i` a go-down with `runs` runs and `jokers` jokers? Swept once.
    fn share(&mut self, i: usize, runs: usize, jokers: usize) -> bool {
        let at = i * self.per_suit + runs * self.stride + jokers;
        match self.shares[at] {
            NOT_SWEPT => {}
            NO_GO_DOWN => return false,
            _ => return true,
        }
        let readings = &mut self.readings[self.first[i]..self.first[i + 1]];
        let found = sweep_suit(
            &self.setup,
            self.suits[i],
            readings,
            runs,
            jokers as u32,
            self.least,
            self.dead,
        );
        self.shares[at] = match found {
            Some(go_down) => {
                self.found.push(go_down);
                (self.found.len() - 1) as u16
            }
            None => NO_GO_DOWN,
        };
        found.is_some()
    }

    /// The go-down of the shares chosen: kept if it is the first, or less than the one
    /// kept. `true` when any go-down will do.
    fn consider(&mut self) -> bool {
        let mut all = [(0u8, Interval::default()); MAX_CONTRACT_MELDS];
        let mut n = 0;
        for (i, &suit) in self.suits.iter().enumerate() {
            let (k, j) = self.chosen[i];
            let kept = &self.found[self.shares[i * self.per_suit + k * self.stride + j] as usize];
            for run in &kept[..k] {
                all[n] = (suit, *run);
                n += 1;
            }
        }
        if !self.least {
            self.best = Some(all);
            return true;
        }
        all[..n].sort_unstable_by_key(|(_, run)| run.key);
        let better = self.best.as_ref().is_none_or(|best| {
            all[..n]
                .iter()
                .map(|(_, r)| r.key)
                .lt(best[..n].iter().map(|(_, r)| r.key))
        });
        if better {
            self.best = Some(all);
        }
        false
    }
}

/// What does not change while one suit is swept for one share.
struct Suit {
    /// Card id by position 1..=14 (the ace at both ends).
    id_at: [u8; 16],
    /// The naturals of the reading of the aces swept.
    counts: Counts,
    runs: usize,
    jokers: u32,
    setup: Setup,
    least: bool,
    /// A run's length matters to the rest of the sweep up to this many cards (its
    /// minimum, its naturals window, its maximum if below 14).
    len_cap: u8,
}

/// The fewest and most jokers the positions from `p` on can take, when `open` runs
/// cover `p` and `left` runs are still to start, with the run lengths, their naturals
/// and L-4.4 left out (so a bound, not the answer): each position is covered by the
/// runs open there, at least as many as its naturals, and every other card there is a
/// joker; runs only start (at most `left` more) or end, and all end by 14.
#[derive(Clone, Copy)]
struct JokerRange {
    /// Indexed by [`JokerRange::at`]; `u8::MAX` when no sweep of them gets through.
    fewest: [u8; JOKER_RANGE_LEN],
    most: [u8; JOKER_RANGE_LEN],
}

/// [`Reading::room_from`] counts up to this many open runs, less one.
const RUNS_COUNTED: usize = MAX_CONTRACT_MELDS + 1;

/// Positions 1..=15 (15: past the end), open and left runs 0..=3 each.
const RANGE_RUNS: usize = 4;
const JOKER_RANGE_LEN: usize = 16 * RANGE_RUNS * RANGE_RUNS;

impl JokerRange {
    #[inline]
    fn at(p: u8, open: usize, left: usize) -> usize {
        (p as usize * RANGE_RUNS + open) * RANGE_RUNS + left
    }

    /// The table for the naturals `count` (by position) and `runs` runs in all (at most
    /// `RANGE_RUNS - 1`).
    fn new(count: &[u8; 16], runs: usize) -> JokerRange {
        const NONE: u8 = u8::MAX;
        let mut range = JokerRange {
            fewest: [NONE; JOKER_RANGE_LEN],
            most: [0; JOKER_RANGE_LEN],
        };
        // Past the end: every run has ended, and all have started. `upto_*[x][left]`:
        // the best over 0..=x runs open at the position after (runs end freely).
        let mut upto_fewest = [[NONE; RANGE_RUNS]; RANGE_RUNS];
        let mut upto_most = [[0u8; RANGE_RUNS]; RANGE_RUNS];
        for row in upto_fewest.iter_mut() {
            row[0] = 0;
        }
        range.fewest[Self::at(15, 0, 0)] = 0;
        for p in (1..=14u8).rev() {
            let naturals = count[p as usize] as usize;
            for open in 0..=runs {
                for left in 0..=runs - open {
                    let (mut fewest, mut most) = (NONE, 0u8);
                    for start in 0..=left {
                        let here = open + start;
                        if here < naturals {
                            continue;
                        }
                        let jokers = (here - naturals) as u8;
                        let later = upto_fewest[here][left - start];
                        if later != NONE {
                            fewest = fewest.min(jokers.saturating_add(later));
                            most = most.max(jokers.saturating_add(upto_most[here][left - start]));
                        }
                    }
                    let at = Self::at(p, open, left);
                    range.fewest[at] = fewest;
                    range.most[at] = most;
                }
            }
            for left in 0..=runs {
                let (mut fewest, mut most) = (NONE, 0u8);
                for open in 0..=runs - left {
                    let at = Self::at(p, open, left);
                    if range.fewest[at] != NONE {
                        fewest = fewest.min(range.fewest[at]);
                        most = most.max(range.most[at]);
                    }
                    upto_fewest[open][left] = fewest;
                    upto_most[open][left] = most;
                }
            }
        }
        range
    }
}

/// One way of reading a suit's aces (how many stand low, at position 1, the others
/// high, at 14), with what the sweeps of every share read from it.
#[derive(Clone, Copy)]
struct Reading {
    counts: Counts,
    /// Built by the first sweep of a share with jokers and at most `RANGE_RUNS - 1` runs.
    joker_range: Option<JokerRange>,
    /// The most runs the table is built for.
    range_runs: usize,
}

/// A suit's naturals by position, for one reading of its aces.
#[derive(Clone, Copy)]
struct Counts {
    /// Naturals by position 1..=14, the aces split between 1 and 14 (0 and 15 unused).
    count: [u8; 16],
    /// Naturals at this position or later.
    left_from: [u8; 16],
    /// The most naturals of one position at this position or later.
    most_from: [u8; 16],
    /// `room_from[p][open]`: the jokers `open` runs take if they all go on from `p` to
    /// 14 (a joker wherever they outnumber the naturals).
    room_from: [[u8; RUNS_COUNTED]; 16],
}

impl Reading {
    /// Every reading of `suit`'s aces in `pool`, into `out`, for up to `runs` runs.
    fn all(pool: &Pool, suit: u8, runs: usize, out: &mut Vec<Reading>) {
        let base = suit as usize * 13;
        let aces = pool[base];
        let mut count = [0u8; 16];
        for rank in 2..=13 {
            count[rank] = pool[base + rank - 1];
        }
        for low in 0..=aces {
            count[1] = low;
            count[14] = aces - low;
            let (mut left_from, mut most_from) = ([0u8; 16], [0u8; 16]);
            let mut room_from = [[0u8; RUNS_COUNTED]; 16];
            for p in (1..=14).rev() {
                left_from[p] = left_from[p + 1].saturating_add(count[p]);
                most_from[p] = most_from[p + 1].max(count[p]);
                let (next, here) = (room_from[p + 1], &mut room_from[p]);
                for (open, room) in here.iter_mut().enumerate() {
                    *room = next[open].saturating_add((open as u8).saturating_sub(count[p]));
                }
            }
            // Each position's naturals need as many runs.
            if most_from[1] as usize > runs {
                continue;
            }
            out.push(Reading {
                counts: Counts {
                    count,
                    left_from,
                    most_from,
                    room_from,
                },
                joker_range: None,
                range_runs: runs.min(RANGE_RUNS - 1),
            });
        }
    }
}

/// The sweep of one suit: the runs open and closed along the path.
struct Sweep<'t> {
    at: &'t Suit,
    /// The runs as they start; `open[i].len` grows while run `i` is open.
    open: [Interval; MAX_CONTRACT_MELDS],
    /// Bit `i` set while run `i` is open.
    alive: u32,
    started: usize,
    /// The least go-down of the suit found so far (its runs by key).
    best: Option<SuitGoDown>,
    /// Did the current subtree reach a go-down of the share, kept or not?
    reached: bool,
    /// Did the melds-list bound end a path in the current subtree?
    cut: bool,
    /// States known to lead to no go-down of the share.
    dead: &'t mut DeadStates,
    /// Positions visited past their first checks.
    visits: u32,
    /// [`JokerRange`] of the reading, once built (only sweeps that grow past
    /// [`REMEMBER_AFTER`] visits build it) and when the share has jokers.
    joker_range: Option<JokerRange>,
    /// The runs to build it for; 0: it is not to be built.
    range_runs: usize,
}

/// How many positions a sweep visits before it remembers the states that lead nowhere.
const REMEMBER_AFTER: u32 = 24;

/// The numbers of the set bits of `mask` (the runs of an `alive` mask), low to high.
fn numbers_in(mask: u32) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}

/// A small set of sweep states (see [`Sweep::state`]) from which no go-down of the
/// share can be reached: paths that differ only in where their jokers stood, or in
/// which runs hold which naturals, meet the same state again. Open addressing over a
/// fixed table; a state that finds no room is simply not remembered.
pub(crate) struct DeadStates {
    slots: Vec<(u64, u32)>,
    /// Entries of other sweeps carry another generation and count as empty.
    generation: u32,
}

impl Default for DeadStates {
    fn default() -> Self {
        DeadStates {
            slots: vec![(0, 0); DEAD_SLOTS],
            generation: 0,
        }
    }
}

const DEAD_SLOTS: usize = 2048;
const DEAD_PROBES: usize = 8;

impl DeadStates {
    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill((0, 0));
            self.generation = 1;
        }
    }

    #[inline]
    fn home(state: u64) -> usize {
        (state.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 53) as usize
    }

    fn contains(&self, state: u64) -> bool {
        let home = Self::home(state);
        (0..DEAD_PROBES).any(|k| self.slots[(home + k) % DEAD_SLOTS] == (state, self.generation))
    }

    fn insert(&mut self, state: u64) {
        let home = Self::home(state);
        for k in 0..DEAD_PROBES {
            let slot = &mut self.slots[(home + k) % DEAD_SLOTS];
            if slot.1 != self.generation {
                *slot = (state, self.generation);
                return;
            }
        }
    }
}

/// The least go-down (or any, without `least`) of `suit` alone with exactly `runs`
/// runs and `jokers` jokers, every way of reading its aces.
fn sweep_suit(
    setup: &Setup,
    suit: u8,
    readings: &mut [Reading],
    runs: usize,
    jokers: u32,
    least: bool,
    dead: &mut DeadStates,
) -> Option<SuitGoDown> {
    if runs == 1 {
        return one_run(setup, suit, readings, jokers, least);
    }
    let mut at = Suit {
        id_at: std::array::from_fn(|p| {
            if (1..=14).contains(&p) {
                suit * 13 + position_rank(p as u8) - 1
            } else {
                0
            }
        }),
        counts: readings.first()?.counts,
        runs,
        jokers,
        setup: *setup,
        least,
        len_cap: setup
            .run_min
            .max(setup.window.unwrap_or(0))
            .max(if setup.run_max < 14 { setup.run_max } else { 0 })
            .min(15),
    };
    let mut best = None;
    for reading in readings {
        if reading.counts.most_from[1] as usize > runs {
            continue;
        }
        at.counts = reading.counts;
        // A share the joker table already rules out is not swept.
        let range = reading.joker_range.filter(|_| runs <= reading.range_runs && jokers > 0);
        if let Some(range) = &range {
            let start = JokerRange::at(1, 0, runs);
            let (fewest, most) = (range.fewest[start], range.most[start]);
            if fewest == u8::MAX || (fewest as u32) > jokers || (most as u32) < jokers {
                continue;
            }
        }
        let may_build_range = runs <= reading.range_runs && jokers > 0;
        dead.next_generation();
        let mut sweep = Sweep {
            at: &at,
            open: [Interval::default(); MAX_CONTRACT_MELDS],
            alive: 0,
            started: 0,
            best,
            reached: false,
            cut: false,
            dead,
            visits: 0,
            joker_range: range,
            range_runs: if may_build_range { reading.range_runs } else { 0 },
        };
        let stop = sweep.position(1, 0, false);
        if reading.joker_range.is_none() {
            reading.joker_range = sweep.joker_range;
        }
        if stop && !least {
            return sweep.best;
        }
        best = sweep.best;
    }
    best
}

/// [`sweep_suit`] for a share of one run, without a sweep: the run holds every natural
/// of the suit (so at most one a position), from the lowest to the highest, and the
/// jokers fill its gaps and make up its length, so only its start is a choice. The
/// least tuple starts as low as it can (a natural's id is below the joker's).
fn one_run(setup: &Setup, suit: u8, readings: &[Reading], jokers: u32, least: bool) -> Option<SuitGoDown> {
    let mut best: Option<Interval> = None;
    for reading in readings {
        if reading.counts.most_from[1] > 1 {
            continue;
        }
        let naturals = reading.counts.left_from[1] as u32;
        let len = naturals + jokers;
        let lo = (1..=14u8).find(|&p| reading.counts.count[p as usize] != 0)?;
        let hi = (1..=14u8).rev().find(|&p| reading.counts.count[p as usize] != 0)?;
        if len < (hi - lo + 1) as u32 || len < setup.run_min as u32 || len > setup.run_max as u32 {
            continue;
        }
        let len = len as u8;
        for start in hi.saturating_sub(len - 1).max(1)..=lo.min(15 - len) {
            let holes = (0..len).fold(0u16, |m, i| {
                m | u16::from(reading.counts.count[(start + i) as usize] == 0) << i
            });
            let window = setup.window.map_or(len, |w| w.min(len)) as u32;
            let in_window = (holes as u32 & ((1u32 << window) - 1)).count_ones();
            if window - in_window < setup.min_naturals {
                continue;
            }
            let run = Interval {
                start,
                len,
                jokers: holes,
                key: run_key(suit, start, len as u32, holes),
            };
            if !least {
                return Some(one(run));
            }
            if best.is_none_or(|b| run.key < b.key) {
                best = Some(run);
            }
        }
    }
    best.map(one)
}

/// A suit's go-down of one run.
fn one(run: Interval) -> SuitGoDown {
    let mut runs = [Interval::default(); MAX_CONTRACT_MELDS];
    runs[0] = run;
    runs
}

impl Sweep<'_> {
    /// Cover position `p` and go on; `jokers` used so far; `ended_before`: a run ended
    /// at `p - 1` (then none may start at `p`: L-4.4, same-suit runs never touch).
    /// `true` to stop (a go-down was found and any will do).
    fn position(&mut self, p: u8, jokers: u32, ended_before: bool) -> bool {
        let at = self.at;
        let runs_left = at.runs - self.started;
        if self.alive == 0 && (p == 15 || at.counts.left_from[p as usize] == 0) {
            return runs_left == 0 && jokers == at.jokers && self.keep();
        }
        // A position's naturals need as many runs, open or still to start.
        if at.counts.most_from[p as usize] as u32 > self.alive.count_ones() + runs_left as u32 {
            return false;
        }
        if self.jokers_cannot_match(p, jokers, runs_left) {
            return false;
        }
        if at.least && !self.may_beat_best(p) {
            self.cut = true;
            return false;
        }
        // Small sweeps end before remembering states, or the joker table, would pay
        // for themselves.
        self.visits += 1;
        if self.visits == REMEMBER_AFTER && self.range_runs > 0 && self.joker_range.is_none() {
            self.joker_range = Some(JokerRange::new(&at.counts.count, self.range_runs));
        }
        let state = (self.visits > REMEMBER_AFTER).then(|| self.state(p, jokers, ended_before));
        if state.is_some_and(|state| self.dead.contains(state)) {
            return false;
        }
        let (reached, cut) = (self.reached, self.cut);
        (self.reached, self.cut) = (false, false);
        let stop = self.cover(p, jokers, ended_before);
        if let Some(state) = state.filter(|_| !stop && !self.reached && !self.cut) {
            self.dead.insert(state);
        }
        self.reached |= reached;
        self.cut |= cut;
        stop
    }

    /// The runs and jokers at position `p`: [`Sweep::position`] past its checks.
    fn cover(&mut self, p: u8, jokers: u32, ended_before: bool) -> bool {
        let at = self.at;
        let runs_left = at.runs - self.started;
        let naturals = at.counts.count[p as usize] as u32;
        let open_now = self.alive.count_ones();
        let may_start = if (at.setup.adjacency && ended_before) || p + at.setup.run_min > 15 {
            0
        } else {
            runs_left as u32
        };
        // Most runs started first: a run that starts here has a smaller tuple than one
        // that starts later, so the least go-down tends to be met early.
        for new in (0..=may_start).rev() {
            let here = open_now + new;
            if here < naturals {
                break;
            }
            let joker_places = here - naturals;
            if jokers + joker_places > at.jokers {
                continue;
            }
            if here == 0 {
                if self.position(p + 1, jokers, false) {
                    return true;
                }
                continue;
            }
            let first_new = self.started;
            for k in first_new..first_new + new as usize {
                self.open[k] = Interval {
                    start: p,
                    len: 0,
                    jokers: 0,
                    key: 0,
                };
            }
            let new_bits = ((1u32 << new) - 1) << first_new;
            self.alive |= new_bits;
            self.started += new as usize;
            let stop = self.place_jokers(p, jokers + joker_places, self.alive, joker_places);
            self.started -= new as usize;
            self.alive &= !new_bits;
            if stop {
                return true;
            }
        }
        false
    }

    /// Give `places` of the runs in `candidates` (open at `p`) a joker at `p`, every way,
    /// the others the natural, then decide which runs end at `p`. Runs alike so far
    /// (same start, same jokers) are numbered next to each other, since they started
    /// together and were treated alike; giving the jokers to the last of them only
    /// gives each choice once. The last runs get jokers first: they started last, and a
    /// joker early in a run makes its tuple larger.
    fn place_jokers(&mut self, p: u8, jokers: u32, candidates: u32, places: u32) -> bool {
        if places == 0 {
            return self.extend_and_end(p, jokers);
        }
        let mut rest = candidates;
        while rest.count_ones() >= places {
            let i = 31 - rest.leading_zeros() as usize;
            rest &= !(1u32 << i);
            // The open run after it, if alike, was passed over (one that took a joker
            // here is no longer alike): giving this one the joker would repeat.
            if self.next_open(i).is_some_and(|j| self.alike(i, j)) {
                continue;
            }
            let bit = 1u16 << (p - self.open[i].start);
            self.open[i].jokers |= bit;
            let stop = self.place_jokers(p, jokers, rest, places - 1);
            self.open[i].jokers &= !bit;
            if stop {
                return true;
            }
        }
        false
    }

    /// Can the jokers used so far not end at exactly the share's? At least: the open
    /// runs shorter than the minimum must go on, and where they outnumber the naturals
    /// of a position, jokers stand. At most, once every run has started: the open runs
    /// run on to 14 with a joker wherever they outnumber the naturals.
    fn jokers_cannot_match(&self, p: u8, jokers: u32, runs_left: usize) -> bool {
        let at = self.at;
        let mut short = [0u8; MAX_CONTRACT_MELDS];
        let mut n_short = 0;
        for i in numbers_in(self.alive) {
            let len = p - self.open[i].start;
            if len < at.setup.run_min {
                short[n_short] = at.setup.run_min - len;
                n_short += 1;
            }
        }
        let mut fewest = 0u32;
        let longest = short[..n_short].iter().copied().max().unwrap_or(0);
        for d in 0..longest {
            let need = short[..n_short].iter().filter(|&&r| r > d).count() as u32;
            let q = (p + d).min(15) as usize;
            fewest += need.saturating_sub(at.counts.count[q] as u32);
        }
        if jokers + fewest > at.jokers {
            return true;
        }
        if let Some(range) = &self.joker_range {
            let k = JokerRange::at(p, self.alive.count_ones() as usize, runs_left);
            let (fewest, most) = (range.fewest[k], range.most[k]);
            if fewest == u8::MAX || jokers + fewest as u32 > at.jokers || jokers + (most as u32) < at.jokers {
                return true;
            }
        }
        if runs_left == 0 {
            let open = self.alive.count_ones() as usize;
            return open < RUNS_COUNTED && jokers + (at.counts.room_from[p as usize][open] as u32) < at.jokers;
        }
        false
    }

    /// The sweep state at position `p` as a number: what the rest of the sweep depends
    /// on (the melds-list bound aside). The open runs count by their length (up to
    /// [`Suit::len_cap`]) and their naturals (up to the minimum), sorted.
    fn state(&self, p: u8, jokers: u32, ended_before: bool) -> u64 {
        let at = self.at;
        let mut runs = [0u8; MAX_CONTRACT_MELDS];
        let mut n = 0;
        for i in numbers_in(self.alive) {
            let run = &self.open[i];
            let len = p - run.start;
            let window = at.setup.window.map_or(len, |w| w.min(len)) as u32;
            let naturals = window - (run.jokers as u32 & ((1u32 << window) - 1)).count_ones();
            let naturals = naturals.min(at.setup.min_naturals).min(15) as u8;
            runs[n] = len.min(at.len_cap) << 4 | naturals;
            n += 1;
        }
        runs[..n].sort_unstable();
        let mut state =
            (p as u64) | (jokers.min(255) as u64) << 4 | (self.started as u64) << 12 | (ended_before as u64) << 15;
        for (k, &r) in runs[..n].iter().enumerate() {
            state |= (r as u64) << (16 + 8 * k);
        }
        state
    }

    /// Do runs `i` and `j` have the same start and jokers so far?
    fn alike(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.open[i], &self.open[j]);
        a.start == b.start && a.jokers == b.jokers
    }

    fn next_open(&self, i: usize) -> Option<usize> {
        let after = self.alive & !((2u32 << i) - 1);
        (after != 0).then(|| after.trailing_zeros() as usize)
    }

    fn previous_open(&self, i: usize) -> Option<usize> {
        let before = self.alive & ((1u32 << i) - 1);
        (before != 0).then(|| 31 - before.leading_zeros() as usize)
    }

    /// Add position `p` to every open run (its natural, or the joker placed), then
    /// decide which runs end there.
    fn extend_and_end(&mut self, p: u8, jokers: u32) -> bool {
        let at = self.at;
        for i in numbers_in(self.alive) {
            let run = &mut self.open[i];
            let index = p - run.start;
            let id = if run.jokers >> index & 1 == 1 {
                JOKER_ID
            } else {
                at.id_at[p as usize]
            };
            run.key |= card_key(id, index);
            run.len = index + 1;
        }
        let stop = self.end_runs(p, jokers, self.alive, 0);
        for i in numbers_in(self.alive) {
            let run = &mut self.open[i];
            let index = p - run.start;
            run.key &= !(0x7Fu128 << (7 * (17 - index as u32)));
            run.len = index;
        }
        stop
    }

    /// Decide, in the order they are numbered, which of the runs in `candidates` end at
    /// `p` (`ended`: those that do so far), then sweep on. A run may end once it is at
    /// least `run_min` long and holds its naturals (L-4.5, W-4); it must end at 14 or at
    /// `run_max` cards. Ending first: a shorter run has the smaller tuple.
    fn end_runs(&mut self, p: u8, jokers: u32, candidates: u32, ended: u32) -> bool {
        let at = self.at;
        if candidates == 0 {
            let alive = self.alive;
            self.alive &= !ended;
            let stop = self.position(p + 1, jokers, ended != 0);
            self.alive = alive;
            return stop;
        }
        let i = candidates.trailing_zeros() as usize;
        let rest = candidates & (candidates - 1);
        let run = self.open[i];
        // Alike runs end first to last: ending this one while the alike one before it
        // stays open repeats the choice the other way round.
        let repeats = self
            .previous_open(i)
            .is_some_and(|j| self.alike(i, j) && ended >> j & 1 == 0);
        if run.len >= at.setup.run_min && !repeats && self.legal(&run) && self.end_runs(p, jokers, rest, ended | 1 << i)
        {
            return true;
        }
        let must_end = p == 14 || run.len >= at.setup.run_max;
        !must_end && self.end_runs(p, jokers, rest, ended)
    }

    /// Does the run hold enough naturals (in the first `window` cards, if the rule set
    /// counts there: L-4.5, W-4)?
    fn legal(&self, run: &Interval) -> bool {
        let window = self.at.setup.window.map_or(run.len, |w| w.min(run.len)) as u32;
        let in_window = (run.jokers as u32 & ((1u32 << window) - 1)).count_ones();
        window - in_window >= self.at.setup.min_naturals
    }

    /// Can a go-down through this path (before position `p`) have a smaller sorted list
    /// of tuples than the best kept? Bound each run's final tuple from below: a closed
    /// run's is known; an open run goes on with naturals at best (a natural's id is
    /// below the joker's) until it reaches the minimum length, and a tuple is never
    /// smaller than its prefix; a run still to start starts at `p` at best, with
    /// naturals for its minimum length. Sorted, these bounds are at most the final
    /// list place by place.
    fn may_beat_best(&self, p: u8) -> bool {
        let Some(best) = &self.best else {
            return true;
        };
        let at = self.at;
        let n = at.runs;
        // A run may be one card long only in a custom rule set: then the ace high can
        // start one, and its id is the suit's smallest.
        if at.setup.run_min <= 1 {
            return true;
        }
        let naturals_from = |key: u128, index: u8, count: u8| {
            let mut key = key;
            for k in 0..count.min(15 - p) {
                key |= card_key(at.id_at[(p + k) as usize], index + k);
            }
            key
        };
        let mut least = [0u128; MAX_CONTRACT_MELDS];
        for (k, slot) in least[..n].iter_mut().enumerate() {
            *slot = if k >= self.started {
                naturals_from(0, 0, at.setup.run_min)
            } else if self.alive >> k & 1 == 1 {
                let run = &self.open[k];
                let len = p - run.start;
                naturals_from(run.key, len, at.setup.run_min.saturating_sub(len))
            } else {
                self.open[k].key
            };
        }
        least[..n].sort_unstable();
        least[..n].iter().lt(best[..n].iter().map(|r| &r.key))
    }

    /// A go-down of the suit: keep it if it is the first, or less than the one kept.
    /// `true` when any will do.
    fn keep(&mut self) -> bool {
        self.reached = true;
        let n = self.at.runs;
        let mut runs = self.open;
        if !self.at.least {
            self.best = Some(runs);
            return true;
        }
        runs[..n].sort_unstable_by_key(|r| r.key);
        let better = self
            .best
            .as_ref()
            .is_none_or(|best| runs[..n].iter().map(|r| r.key).lt(best[..n].iter().map(|r| r.key)));
        if better {
            self.best = Some(runs);
        }
        false
    }
}
