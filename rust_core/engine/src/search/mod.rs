//! Contract search: does a hand hold a round's contract, what is its best go-down,
//! which cards would complete it, and how little deadwood can any set of melds leave.
//!
//! Definitions (the Python reference in `liverpool.reference` implements the same ones;
//! `docs/search.md` explains the algorithm):
//!
//! - A **go-down** for a contract of S sets and R runs is S sets and R runs, disjoint
//!   sub-multisets of the hand, each a legal meld ([`Meld::set`], [`Meld::run`]: minimum
//!   naturals, ace low or high, no wrap) of an opening size (L-4.1, L-4.2), with no two
//!   same-suit runs touching end to end when the rule set says so (L-4.4). A whole-hand
//!   contract (L-8) uses the entire hand, runs of any length ≥ `whole_hand_run_min`.
//!   A contract's melds may each have their own minimum length (C-8): each meld of a
//!   go-down fills one of the contract's melds of its kind, of that meld's length
//!   range ([`RuleSet::meld_range`]).
//! - A meld is identified by its **canonical** cards: a set's sorted by card id (jokers
//!   last), a run's low to high with each joker where it stands. A go-down's `melds`
//!   list is its sets by card-id tuple, then its runs by card-id tuple.
//! - Go-downs are ordered by points left in hand, then the sorted ids of the cards left
//!   (lexicographic), then the melds list (lexicographic over the tuples).
//! - **Wild cards** (C-8 California: the wild rank): the search sees every wild card
//!   as a joker (id 52), so all the definitions above read the hand in that *joker
//!   form*; then the wild cards are named: reading the melds list in order (a set's
//!   cards naturals first, a run's low to high), each joker place takes the hand's
//!   next wild card by id, and the wild cards left over stay in hand.
//!
//! Hands are [`CardCounts`]; counts beyond the deck are the caller's concern (the
//! Python binding refuses them): the search stays correct, only slower.

mod arrange;
mod cands;
pub mod count;
mod dfs;
mod goal;
mod sweep;
#[cfg(test)]
mod tests;
mod whole;

use crate::card::{Card, CardCounts, CARD_KINDS, JOKER_ID};
use crate::error::{Error, ErrorCode, Result};
use crate::meld::Meld;
use crate::msg;
use crate::rules::{Contract, RuleSet};
use arrange::{search_arrangement, ArrangeMode};
use cands::{Cand, Pool};
use dfs::{search_go_down, BestKey, Collect, Exists, Found, MaxPoints, Scratch};
use rayon::prelude::*;
use std::cell::RefCell;
use std::sync::{Arc, Mutex, OnceLock};

/// A way to lay a round's contract: the melds and what stays in hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoDown {
    /// Sets (by card-id tuple), then runs (by card-id tuple), each in canonical order.
    pub melds: Vec<Meld>,
    /// The cards left in hand.
    pub left: CardCounts,
    /// Points of the cards left in hand (L-10.1).
    pub points_left: u32,
}

/// Melds of any number and length (no contract) and the deadwood they leave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    /// Sets (by card-id tuple), then runs (by card-id tuple), each in canonical order.
    pub melds: Vec<Meld>,
    /// The cards in no meld.
    pub deadwood: CardCounts,
    /// Points of the deadwood.
    pub points: u32,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Run `f` with this thread's reusable search buffers.
fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The hand as the search sees it: every wild card counted as a joker (id 52).
fn joker_form(hand: &CardCounts, rules: &RuleSet) -> Pool {
    let mut pool = hand.0;
    if let Some(rank) = rules.wild_rank {
        for suit in 0..4u8 {
            let id = (suit * 13 + rank - 1) as usize;
            pool[JOKER_ID as usize] = pool[JOKER_ID as usize].saturating_add(pool[id]);
            pool[id] = 0;
        }
    }
    pool
}

/// Name the joker places of joker-form melds with the hand's wild cards (see the
/// module docs) and return the melds with the cards left over. Without a wild rank
/// the joker form is the hand itself.
fn name_melds(cands: &[Cand], hand: &CardCounts, rules: &RuleSet) -> (Vec<Meld>, CardCounts) {
    // Without a wild rank the only wild cards are the jokers, which need no naming.
    let mut wilds = match rules.wild_rank {
        Some(_) => hand.to_cards().into_iter().filter(|&c| rules.is_wild(c)).collect(),
        None => Vec::new(),
    }
    .into_iter();
    let mut left = *hand;
    let melds = cands
        .iter()
        .map(|cand| {
            let mut cards: Vec<Card> = Vec::with_capacity(cand.len as usize);
            cards.extend(cand.ids().map(|id| {
                let card = Card::from_id(id).expect("search ids are 0..=52");
                if id == JOKER_ID && rules.wild_rank.is_some() {
                    wilds.next().expect("the hand holds every wild card the search used")
                } else {
                    card
                }
            }));
            for &c in &cards {
                left.0[c.id() as usize] -= 1;
            }
            // The search only produces legal melds (checked in debug builds); lengths
            // were checked by the search (whole-hand runs have their own minimum).
            Meld::from_search(cand.kind, cards, cand.key, cand.start, rules)
        })
        .collect();
    (melds, left)
}

/// `points`: the rule set's points by card id (the search's cached table).
fn go_down_of(found: &Found, hand: &CardCounts, rules: &RuleSet, points: &[u16; CARD_KINDS]) -> GoDown {
    let (melds, left) = name_melds(&found.melds, hand, rules);
    let points_left = dfs::pool_points(&left.0, points);
    debug_assert_eq!(points_left, rules.points_of(&left.to_cards()));
    GoDown {
        melds,
        left,
        points_left,
    }
}

/// Does `hand` hold `contract` (any go-down at all)?
pub fn has_contract(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> bool {
    with_scratch(|scratch| {
        let mut goal = Exists { found: false };
        search_go_down(&joker_form(hand, rules), contract, rules, scratch, &mut goal);
        goal.found
    })
}

/// The best go-down: fewest points left, then smallest left card ids, then smallest
/// melds list. `None` if the hand does not hold the contract.
pub fn best_go_down(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> Option<GoDown> {
    with_scratch(|scratch| {
        let mut goal = BestKey::default();
        search_go_down(&joker_form(hand, rules), contract, rules, scratch, &mut goal);
        let points = scratch.points_tables(rules).by_id;
        goal.best.map(|found| go_down_of(&found, hand, rules, &points))
    })
}

/// `best_go_down(..).points_left` without building the go-down (faster: no tie-break).
pub fn best_go_down_points_left(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> Option<u32> {
    with_scratch(|scratch| {
        let pool = joker_form(hand, rules);
        let mut goal = MaxPoints { best: None };
        search_go_down(&pool, contract, rules, scratch, &mut goal);
        let total = dfs::pool_points(&pool, &scratch.points_tables(rules).by_id);
        goal.best.map(|used| total - used)
    })
}

/// The old name of [`best_go_down_points_left`]: the points are those left in hand.
#[deprecated(note = "renamed best_go_down_points_left: the points are those left in hand")]
pub fn best_go_down_points(hand: &CardCounts, contract: &Contract, rules: &RuleSet) -> Option<u32> {
    best_go_down_points_left(hand, contract, rules)
}

/// Go-downs up to a limit, and whether the limit cut any off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoDownList {
    /// In [`best_go_down`] order.
    pub go_downs: Vec<GoDown>,
    /// `true` when the hand has more distinct go-downs than the limit let through.
    pub truncated: bool,
}

/// Every distinct go-down, in [`best_go_down`] order, at most `limit` of them.
pub fn all_go_downs(hand: &CardCounts, contract: &Contract, rules: &RuleSet, limit: usize) -> Vec<GoDown> {
    all_go_downs_limited(hand, contract, rules, limit).go_downs
}

/// [`all_go_downs`], saying whether it stopped at `limit` (more go-downs exist).
pub fn all_go_downs_limited(hand: &CardCounts, contract: &Contract, rules: &RuleSet, limit: usize) -> GoDownList {
    if limit == 0 {
        return GoDownList {
            go_downs: Vec::new(),
            truncated: has_contract(hand, contract, rules),
        };
    }
    with_scratch(|scratch| {
        let goal = collect_go_downs(hand, contract, rules, limit, scratch);
        let points = scratch.points_tables(rules).by_id;
        GoDownList {
            go_downs: goal
                .found
                .iter()
                .map(|found| go_down_of(found, hand, rules, &points))
                .collect(),
            truncated: goal.truncated,
        }
    })
}

/// Every go-down of `hand` found by the slot search, sorted, without repeats, and cut
/// at `limit` (`Collect::trim`): what `all_go_downs` lists and what `count.rs` picks
/// from when a contract can meet a go-down twice.
pub(crate) fn collect_go_downs(
    hand: &CardCounts,
    contract: &Contract,
    rules: &RuleSet,
    limit: usize,
    scratch: &mut Scratch,
) -> Collect {
    let mut goal = Collect {
        found: Vec::new(),
        limit,
        truncated: false,
    };
    search_go_down(&joker_form(hand, rules), contract, rules, scratch, &mut goal);
    goal.trim();
    goal
}

/// The cards that would give `hand` the contract: each card id `c` (naturals, and the
/// joker if the deck for `players` has jokers) such that `hand + c` holds the contract,
/// with how many copies are unseen: `max(0, deck copies - in hand - in seen)`. Sorted by
/// card id. A hand that already holds a contract of rounds 1–6 has no outs (every card
/// would do); for a whole-hand contract (L-8) the outs are the cards that keep a
/// whole-hand go-down, whether or not `hand` already makes one.
pub fn outs(
    hand: &CardCounts,
    contract: &Contract,
    rules: &RuleSet,
    seen: &CardCounts,
    players: u8,
) -> Vec<(Card, u8)> {
    if !contract.whole_hand && has_contract(hand, contract, rules) {
        return Vec::new();
    }
    let (_, deck_jokers) = rules.deck_for(players);
    let mut found = Vec::new();
    for id in 0..CARD_KINDS as u8 {
        if id == JOKER_ID && deck_jokers == 0 {
            continue;
        }
        let card = Card::from_id(id).expect("id < 53");
        let mut more = *hand;
        let Some(n) = more.0[id as usize].checked_add(1) else {
            continue;
        };
        more.0[id as usize] = n;
        if has_contract(&more, contract, rules) {
            let unseen = rules
                .copies(card, players)
                .saturating_sub(hand.get(card))
                .saturating_sub(seen.get(card));
            found.push((card, unseen));
        }
    }
    found
}

/// Melds of any number and length (sets ≥ `set_size_min`, runs ≥ `run_size_min`,
/// minimum naturals apply, L-4.4 does not) leaving the fewest deadwood points; ties go
/// to the smallest sorted deadwood ids, then the fewest melds, then the smallest melds
/// list, then (for card groups that read both as a set and a run) the most sets.
pub fn best_arrangement(hand: &CardCounts, rules: &RuleSet) -> Arrangement {
    with_scratch(|scratch| {
        let best = search_arrangement(&joker_form(hand, rules), rules, scratch, ArrangeMode::Exact);
        let (melds, deadwood) = name_melds(&best.melds, hand, rules);
        Arrangement {
            melds,
            deadwood,
            points: best.deadwood_points,
        }
    })
}

/// `best_arrangement(..).points` without the tie-break (faster).
pub fn deadwood(hand: &CardCounts, rules: &RuleSet) -> u32 {
    with_scratch(|scratch| {
        search_arrangement(&joker_form(hand, rules), rules, scratch, ArrangeMode::PointsOnly).deadwood_points
    })
}

// ---------------------------------------------------------------------------------
// Batches: one hand per row of `hand_width` card ids, 255 pads short hands.

/// The padding id of batch rows.
pub const PAD: u8 = 255;

fn check_batch_shape(hands: &[u8], hand_width: usize) -> Result<()> {
    if hand_width == 0 {
        if hands.is_empty() {
            return Ok(());
        }
        return Err(Error::with(ErrorCode::InvalidArgument, None, msg!("batch.hand_width")));
    }
    if hands.len() % hand_width != 0 {
        return Err(Error::with(
            ErrorCode::InvalidArgument,
            None,
            msg!("batch.row_split", ids = hands.len(), width = hand_width),
        ));
    }
    Ok(())
}

/// A batch row as a hand; ids must already be valid.
fn row_hand(row: &[u8]) -> CardCounts {
    let mut hand = CardCounts::default();
    for &id in row {
        if id != PAD {
            hand.0[id as usize] += 1;
        }
    }
    hand
}

/// Check every row: card ids 0..=52 or the pad, no more copies than the profile's
/// largest deck holds (which also keeps the counts small). The first bad row wins.
fn check_rows(hands: &[u8], hand_width: usize, rules: &RuleSet) -> Result<()> {
    check_batch_shape(hands, hand_width)?;
    if hand_width == 0 {
        return Ok(());
    }
    let (decks, jokers) = rules.largest_deck();
    let (max_copies, max_jokers) = (decks as u32, jokers as u32);
    let bad = hands.par_chunks(hand_width).enumerate().find_map_first(|(i, row)| {
        let mut counts = [0u32; CARD_KINDS];
        for (j, &id) in row.iter().enumerate() {
            if id == PAD {
                continue;
            }
            if id as usize >= CARD_KINDS {
                return Some(Error::with(
                    ErrorCode::MalformedCard,
                    None,
                    msg!("batch.bad_card_id", hand = i, position = j, id = id),
                ));
            }
            counts[id as usize] += 1;
        }
        // The common case (a legal hand) without building a message.
        if counts[..52].iter().all(|&n| n <= max_copies) && counts[JOKER_ID as usize] <= max_jokers {
            return None;
        }
        rules
            .check_copies_in_largest_deck(&counts, msg!("what.hand", index = i))
            .err()
    });
    bad.map_or(Ok(()), Err)
}

/// `best_go_down(hand).points_left` for every row, `-1` where there is none. Runs in
/// parallel on the current rayon pool; the result does not depend on the thread count.
pub fn best_go_down_points_left_batch(
    hands: &[u8],
    hand_width: usize,
    contract: &Contract,
    rules: &RuleSet,
) -> Result<Vec<i32>> {
    check_rows(hands, hand_width, rules)?;
    if hand_width == 0 {
        return Ok(Vec::new());
    }
    Ok(hands
        .par_chunks(hand_width)
        .map(|row| best_go_down_points_left(&row_hand(row), contract, rules).map_or(-1, |p| p as i32))
        .collect())
}

/// The old name of [`best_go_down_points_left_batch`].
#[deprecated(note = "renamed best_go_down_points_left_batch: the points are those left in hand")]
pub fn best_go_down_points_batch(
    hands: &[u8],
    hand_width: usize,
    contract: &Contract,
    rules: &RuleSet,
) -> Result<Vec<i32>> {
    best_go_down_points_left_batch(hands, hand_width, contract, rules)
}

/// `has_contract(hand)` for every row (see [`best_go_down_points_batch`]).
pub fn has_contract_batch(hands: &[u8], hand_width: usize, contract: &Contract, rules: &RuleSet) -> Result<Vec<bool>> {
    check_rows(hands, hand_width, rules)?;
    if hand_width == 0 {
        return Ok(Vec::new());
    }
    Ok(hands
        .par_chunks(hand_width)
        .map(|row| has_contract(&row_hand(row), contract, rules))
        .collect())
}

/// `best_arrangement(hand).points` for every row (see [`best_go_down_points_batch`]).
pub fn deadwood_batch(hands: &[u8], hand_width: usize, rules: &RuleSet) -> Result<Vec<i32>> {
    check_rows(hands, hand_width, rules)?;
    if hand_width == 0 {
        return Ok(Vec::new());
    }
    Ok(hands
        .par_chunks(hand_width)
        .map(|row| deadwood(&row_hand(row), rules) as i32)
        .collect())
}

/// Most threads one call may ask for.
pub const MAX_THREADS: usize = 1024;

/// Most rayon pools kept alive at once (one per thread count, least recently used
/// dropped first): a program that asks for many different counts does not pile up
/// OS threads (issue 8).
pub const MAX_CACHED_POOLS: usize = 4;

/// The kept pools, most recently used last. A dropped pool's threads exit once the
/// calls that still hold it (an `Arc`) return.
static POOLS: OnceLock<PoolCache> = OnceLock::new();

/// `(threads, pool)`, most recently used last.
type PoolCache = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;

/// Run `f` on a rayon pool of `threads` threads (`None`: the global pool, one thread
/// per core). Pools are built once per size and kept (at most [`MAX_CACHED_POOLS`]
/// of them), so repeated batches pay nothing.
pub fn with_threads<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T> {
    let Some(n) = threads else { return Ok(f()) };
    if n == 0 || n > MAX_THREADS {
        return Err(Error::with(
            ErrorCode::InvalidArgument,
            None,
            msg!("threads.out_of_range", threads = n),
        ));
    }
    let pool = {
        let mut pools = POOLS
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let pool = match pools.iter().position(|(k, _)| *k == n) {
            Some(i) => pools.remove(i).1,
            None => Arc::new(rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| {
                Error::with(
                    ErrorCode::InvalidArgument,
                    None,
                    msg!("threads.cannot_start", threads = n, error = e),
                )
            })?),
        };
        pools.push((n, Arc::clone(&pool)));
        if pools.len() > MAX_CACHED_POOLS {
            pools.remove(0);
        }
        pool
    };
    Ok(pool.install(f))
}

/// The thread counts whose pools [`with_threads`] keeps now, least recently used first.
pub fn cached_pools() -> Vec<usize> {
    let pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    pools.iter().map(|(n, _)| *n).collect()
}
