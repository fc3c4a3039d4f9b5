//! `GreedyBot`: a fast, simple, rule-aware player for profile L (it reads every
//! parameter from the state's `RuleSet`, so it also plays legal games under the
//! other profiles). It looks one card ahead and never searches the game tree.
//!
//! Decisions, in the order of a turn (docs/bots.md has the rationale):
//!
//! - **Cut**: a size drawn uniformly from `1..=stock - 1` with its own RNG (the
//!   L-2.4 default distribution; it does not aim for the exact cut).
//! - **Take the discard** when it *helps*: before going down, when the card lowers
//!   [`cards_missing`](super::estimate::cards_missing) (to 0 when it completes the contract); after going down,
//!   when the card fits a table meld (it will be laid off at once). Otherwise
//!   decline (so others may buy) and draw.
//! - **Buy** (L-6) under the same test before going down; for a whole-hand contract
//!   (L-8) the penalty card is counted as one more card to place. Never after going
//!   down: a buy adds two cards to a hand that is trying to empty.
//! - **Go down** as soon as `search::best_go_down` finds the contract (fewest points
//!   left); in a whole-hand round only when it lays the entire hand.
//! - **Shed** once down (each a separate action, while a card stays for the discard,
//!   L-5.5): swap a run's joker for the natural it stands for when the joker can go
//!   on another meld (L-7.2), then lay off any single card that fits (L-5.3).
//! - **Discard**: before going down, a natural card the estimate's melds do not
//!   need and that forms no meld with the other spare cards (`search::best_arrangement`
//!   of the meld kinds the contract uses): the most points, then the fewest
//!   [`connections`]; a needed card only if its loss leaves no more cards missing and
//!   it scores more; a joker only if nothing else is left. After going down, the
//!   highest-points card that fits no table meld (those are laid off next turn).

use super::bot::Bot;
use super::estimate::{
    connections, could_help, could_meld, estimate, estimate_below, every_card_could_run, natural_ids_held,
    runs_jokers_needed_at_least, sets_and_runs_within_jokers, Estimate,
};
use crate::card::{Card, CardCounts, CARD_KINDS, JOKER_ID};
use crate::deal::draw_cut;
use crate::game::{Action, GameState, Phase};
use crate::meld::{Meld, MeldKind};
use crate::rng::Rng;
use crate::rules::{Contract, JokerSwapRule, MeldSpec, RuleSet, MAX_CONTRACT_MELDS};
use crate::search::{best_arrangement, best_go_down, GoDown};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::sync::Arc;

/// The exact contract search is only asked about hands whose [`cards_missing`](super::estimate::cards_missing) is at
/// most this: on hands that hold the contract the greedy estimate is never further
/// off (checked on random hands by `estimate_is_close_whenever_the_contract_is_held`).
/// Sets alone are estimated exactly (the ranks with the most copies are the best
/// choice); runs alone can be off by one, a mix of sets and runs by two. A whole
/// hand (L-8) is always searched: with jokers its estimate can be off by three.
pub(crate) fn exact_check_missing(contract: &Contract) -> u32 {
    match (contract.whole_hand, contract.sets() > 0, contract.runs() > 0) {
        (true, ..) => u32::MAX,
        (false, true, true) => 2,
        (false, false, true) => 1,
        _ => 0,
    }
}

/// Is the exact search worth asking whether `hand` holds `contract` (`missing`: the
/// hand's estimate)? Not when the estimate is further off than any hand holding the
/// contract ever is ([`exact_check_missing`]); for a mix of sets and runs, not
/// unless each part is within reach on its own (the sets alone, estimated exactly;
/// the runs alone, within their bound): leaving a part out only makes a contract
/// easier to hold. For a whole hand of runs (L-8), not unless every card has a run
/// it could be in. These checks cost much less than a failed search.
pub(crate) fn worth_searching(hand: &CardCounts, contract: &Contract, rules: &RuleSet, missing: u32) -> bool {
    if rules.wild_rank.is_some() {
        // C-8 California: the estimate counts only jokers as wild, so it is no guide.
        return true;
    }
    // Melds that need more than one natural card (W-4, or a rule set's
    // `min_naturals_set` / `min_naturals_run`): the estimate looks only at
    // minimum-length melds, while a longer one may hold the naturals every
    // minimum-length window lacks (4♥ 5♥ 6♥ JK 8♥ has 4 naturals, no 4 of its cards
    // do), so it is no guide either. Found by the rule-set fuzz target (issue 17):
    // min_naturals_run = 4 in profile C, and hands of profile W with three jokers.
    if rules.min_naturals_run > 1 || rules.min_naturals_set > 1 {
        return true;
    }
    if contract.whole_hand {
        // The estimate is no guide here; each card must at least have a run to be in,
        // and the cards must not need more runs than the contract has (L-8.1).
        return contract.sets() > 0
            || (every_card_could_run(hand, rules.whole_hand_run_min)
                && runs_needed_at_least(hand) <= contract.runs() as u32);
    }
    if missing > exact_check_missing(contract) {
        return false;
    }
    // Most hands the estimate finds one or two cards short really are: when even the
    // runs alone, relaxed, need more jokers than the hand holds, no search is needed.
    if missing > 0
        && contract.runs() > 0
        && runs_jokers_needed_at_least(hand, contract.runs(), rules.run_size_min)
            .is_some_and(|needed| needed > hand.jokers() as u32)
    {
        return false;
    }
    // And when the sets and the runs, relaxed, cannot share the hand out between them.
    if missing > 0
        && sets_and_runs_within_jokers(
            hand,
            contract.sets(),
            contract.runs(),
            rules.set_size_min,
            rules.run_size_min,
        ) == Some(false)
    {
        return false;
    }
    if contract.sets() == 0 || contract.runs() == 0 {
        return true;
    }
    let sets = only(contract, MeldKind::Set);
    let runs = only(contract, MeldKind::Run);
    estimate_below(hand, &sets, rules, 1).is_some()
        && estimate_below(hand, &runs, rules, exact_check_missing(&runs) + 1).is_some()
}

/// A lower bound on the runs that can hold every natural card of `hand`, as a whole
/// hand of runs must (L-8.1). The ranks 2..K held in a suit fall into stretches of
/// consecutive ranks; a run holds the cards of one stretch only, unless jokers stand
/// for every rank missing between two stretches (L-4.5), so each bridge costs its
/// gap in jokers and the cheapest bridges are counted. Aces are left out: an ace
/// extends a stretch at one end and never links two. Cards held twice, which need
/// two runs, and runs too short are left out too: the bound only gets lower.
pub(super) fn runs_needed_at_least(hand: &CardCounts) -> u32 {
    let ids = natural_ids_held(hand);
    let mut gaps = [0u32; 24];
    let mut n = 0;
    let mut stretches = 0;
    for suit in 0..4 {
        // Ranks 2..=13 at bits 0..=11.
        let mut rest = (ids >> (13 * suit + 1)) as u32 & 0xFFF;
        let mut end_before = None;
        while rest != 0 {
            let start = rest.trailing_zeros();
            let len = (rest >> start).trailing_ones();
            if let Some(end) = end_before {
                gaps[n] = start - end - 1;
                n += 1;
            }
            end_before = Some(start + len - 1);
            rest &= !(((1u32 << len) - 1) << start);
            stretches += 1;
        }
    }
    let gaps = &mut gaps[..n];
    gaps.sort_unstable();
    let mut jokers = hand.jokers() as u32;
    let mut bridged = 0;
    for &gap in gaps.iter() {
        if gap > jokers {
            break;
        }
        jokers -= gap;
        bridged += 1;
    }
    stretches - bridged
}

/// `contract.only(kind)` without the list it collects on the heap (the same melds,
/// in order, given to `Contract::from_melds`).
fn only(contract: &Contract, kind: MeldKind) -> Contract {
    let mut kept = [MeldSpec::set(); MAX_CONTRACT_MELDS];
    let mut n = 0;
    for spec in contract.melds().iter().filter(|m| m.kind == kind) {
        kept[n] = *spec;
        n += 1;
    }
    let only = Contract::from_melds(&kept[..n], contract.whole_hand).expect("a sub-list is not longer");
    debug_assert_eq!(only, contract.only(kind));
    only
}

/// Discard tie-breaks, smaller first: the most points, the fewest connections, the
/// highest card id (so that the choice never depends on iteration order).
type TieBreak = (Reverse<u16>, u32, Reverse<u8>);

/// At most this many discard candidates that the estimate's melds use are estimated
/// again (the ones that would win the tie-breaks): each costs a new estimate.
const RECHECKED: usize = 3;

/// The greedy player. Deterministic: its only randomness (the cut) comes from its
/// own seeded [`Rng`].
#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: Rng,
    /// Derived from the rule set of the last state seen (rebuilt when it changes;
    /// shared with the thread's other bots under the same rule set).
    focus: Option<Arc<Focus>>,
    /// The last two estimates kept, by hand and contract: a seat's hand does not
    /// change between its discard and its next draw (and the buying windows in
    /// between), and a hand that took the discard is the hand it then plays. An
    /// estimate not yet made (`None`: only a bound was needed) is made in full when
    /// its hand is asked about again, so the memo answers as if it had been.
    memo: [Option<Remembered>; 2],
    /// The slot of `memo` written last (the newest entry, asked first): the older
    /// slot is overwritten next, so no entry is moved.
    newest: usize,
}

/// A memo entry: a hand, its round's contract and its estimate (if made yet).
type Remembered = (CardCounts, Round, Option<Estimate>);

/// The contract a hand is estimated for, with the number of its round: under one
/// rule set (the memo is emptied when it changes) the same round means the same
/// contract, which the memo then need not compare field by field.
#[derive(Clone, Copy, Debug)]
struct Round {
    contract: Contract,
    number: u8,
}

impl Round {
    fn of(state: &GameState) -> Round {
        Round {
            contract: state.contract(),
            number: state.round(),
        }
    }

    /// The same contract (asked of two rounds under one rule set).
    #[inline]
    fn same_contract(&self, other: &Round) -> bool {
        let same = self.number == other.number || contracts_equal(&self.contract, &other.contract);
        debug_assert_eq!(same, self.contract == other.contract);
        same
    }
}

/// `a == b`, out of line: asked only when a hand is remembered from another round,
/// so the memo's usual path does not load both contracts.
#[cold]
#[inline(never)]
fn contracts_equal(a: &Contract, b: &Contract) -> bool {
    a == b
}

/// The rule set the bot last saw, and variants that restrict `best_arrangement` to
/// one meld kind, built once per rule set and kept.
#[derive(Clone, Debug)]
struct Focus {
    source: Arc<RuleSet>,
    sets_only: RuleSet,
    runs_only: RuleSet,
    /// The natural cards' ids grouped by their points, most points first (the first
    /// `n_groups` entries): the discards are walked best first without a sort.
    by_points: [(u16, u64); 13],
    n_groups: usize,
}

impl Focus {
    fn new(source: Arc<RuleSet>) -> Focus {
        // A minimum size no hand can reach switches a meld kind off in the search.
        let sets_only = RuleSet {
            run_size_min: u8::MAX,
            ..(*source).clone()
        };
        let runs_only = RuleSet {
            set_size_min: u8::MAX,
            ..(*source).clone()
        };
        let (by_points, n_groups) = ids_by_points(&source);
        Focus {
            source,
            sets_only,
            runs_only,
            by_points,
            n_groups,
        }
    }

    fn by_points(&self) -> &[(u16, u64)] {
        &self.by_points[..self.n_groups]
    }

    /// The focus of the state's rule set: the one last built on this thread when it
    /// is for the same rule set (a simulation's bots all share one), else a new one
    /// (then kept for the next bot). The kept `Arc` holds its rule set, so no other
    /// rule set can take its address meanwhile.
    fn shared(state: &GameState) -> Arc<Focus> {
        thread_local! {
            static LAST: RefCell<Option<Arc<Focus>>> = const { RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match &*last {
                Some(focus) if std::ptr::eq(Arc::as_ptr(&focus.source), state.rules()) => focus.clone(),
                _ => {
                    let focus = Arc::new(Focus::new(state.rules_arc()));
                    *last = Some(focus.clone());
                    focus
                }
            }
        })
    }
}

/// The natural cards' ids grouped by their points (L-10.1), most points first, as
/// `(points, bit set of ids)`, and how many groups there are.
pub(super) fn ids_by_points(rules: &RuleSet) -> ([(u16, u64); 13], usize) {
    // The ids of rank 1 (aces) in the four suits, 13 apart.
    const ACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
    let mut groups = [(0u16, 0u64); 13];
    let mut n = 0;
    for rank in 1..=13u8 {
        let points = rules.points[rank as usize];
        let ids = ACES << (rank - 1);
        match groups[..n].iter_mut().find(|(p, _)| *p == points) {
            Some((_, group)) => *group |= ids,
            None => {
                groups[n] = (points, ids);
                n += 1;
            }
        }
    }
    groups[..n].sort_unstable_by_key(|&(points, _)| Reverse(points));
    (groups, n)
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot::with_rng(Rng::from_seed(seed))
    }

    pub fn with_rng(rng: Rng) -> GreedyBot {
        GreedyBot {
            rng,
            focus: None,
            memo: [None, None],
            newest: 0,
        }
    }

    fn decide(&mut self, state: &GameState, seat: usize) -> Action {
        self.sync_rules(state);
        match state.phase() {
            Phase::Cut => Action::Cut {
                size: Some(draw_cut(&mut self.rng, state.stock().len(), state.rules().cut_range) as i64),
            },
            // A draw from the stock runs the buying window first (L-5.1).
            Phase::Draw { declined: false } => match state.discard_top() {
                Some(card) if self.wants_discard(state, seat, card) && state.can(seat, &Action::TakeDiscard) => {
                    Action::TakeDiscard
                }
                _ => Action::DrawStock,
            },
            Phase::Draw { declined: true } => Action::DrawStock,
            Phase::Buying(_) => match state.discard_top() {
                Some(card) if self.wants_to_buy(state, seat, card) && state.can(seat, &Action::Buy) => Action::Buy,
                _ => Action::Pass,
            },
            Phase::Calling(_) => call(state, seat),
            Phase::CallDiscard { .. } => Action::Discard {
                card: self.pick_discard_when_down(state, seat),
            },
            Phase::Play => self.play(state, seat),
            Phase::RoundOver | Phase::GameOver => Action::NextRound,
        }
    }

    fn play(&mut self, state: &GameState, seat: usize) -> Action {
        let hand = state.hand(seat);
        let contract = state.contract();
        let rules = state.rules();
        if state.is_down(seat) {
            // W-8: where floating is allowed the last card may be laid off too.
            if !contract.whole_hand && (hand.total() >= 2 || rules.floating) {
                if let Some(action) = shed(state, seat) {
                    return action;
                }
            }
            return Action::Discard {
                card: self.pick_discard_when_down(state, seat),
            };
        }
        let now = *self.estimate(hand, &Round::of(state), rules);
        // The exact search only when it could succeed (see `worth_searching`).
        let worth = worth_searching(hand, &contract, rules, now.missing);
        debug_assert!(
            worth || best_go_down(hand, &contract, rules).is_none(),
            "{:?}",
            hand.to_cards()
        );
        if worth {
            if let Some(go_down) = best_go_down(hand, &contract, rules) {
                // L-5.5 / L-8.1: a go-down keeps a card for the discard (unless W-8
                // floating allows none), except the whole-hand go-down, which must
                // lay every card. The engine has the last word (W-8's taken card).
                let action = Action::GoDown {
                    melds: go_down.melds.iter().map(|m| m.cards().to_vec()).collect(),
                };
                // The engine checks the go-down again when it is applied; the bot asks
                // it first only where the search's go-down could be refused.
                if surely_accepted(state, seat, &go_down) {
                    debug_assert!(state.can(seat, &action), "{:?}", state.check(seat, &action));
                    return action;
                }
                if state.can(seat, &action) {
                    return action;
                }
            }
        }
        Action::Discard {
            card: self.pick_discard(state, seat, &now),
        }
    }

    /// Keep `focus` in step with the state's rule set (and forget estimates made
    /// under another one).
    fn sync_rules(&mut self, state: &GameState) {
        let stale = self
            .focus
            .as_ref()
            .is_none_or(|f| !std::ptr::eq(Arc::as_ptr(&f.source), state.rules()));
        if stale {
            self.focus = Some(Focus::shared(state));
            self.memo = [None, None];
        }
    }

    /// The rules `best_arrangement` should use for the current contract: only the
    /// meld kinds the contract asks for.
    fn arrangement_rules<'a>(&'a self, state: &'a GameState, contract: &Contract) -> &'a RuleSet {
        match (&self.focus, contract.sets() > 0, contract.runs() > 0) {
            (Some(focus), true, false) => &focus.sets_only,
            (Some(focus), false, true) => &focus.runs_only,
            _ => state.rules(),
        }
    }

    /// [`Focus::by_points`] of the rules last synced.
    fn by_points(&self) -> &[(u16, u64)] {
        self.focus
            .as_ref()
            .expect("the rules are synced before a decision")
            .by_points()
    }

    /// `estimate(hand)`, remembered for the next two hands asked about.
    fn estimate(&mut self, hand: &CardCounts, round: &Round, rules: &RuleSet) -> &Estimate {
        let slot = match self.slot_of(hand, round) {
            Some(slot) => slot,
            None => {
                let e = estimate(hand, &round.contract, rules);
                self.remember(*hand, *round, Some(e));
                self.newest
            }
        };
        self.made(slot, rules)
    }

    /// The slot of `memo` that keeps `hand` under the contract of `round`, if one of the
    /// two does. The newest first: a hand remembered twice answers with its latest entry.
    /// Always inlined: on its own it cost a call and a frame per question (measured).
    #[inline(always)]
    fn slot_of(&self, hand: &CardCounts, round: &Round) -> Option<usize> {
        let newest = self.newest;
        [newest, 1 - newest]
            .into_iter()
            .find(|&slot| matches!(&self.memo[slot], Some((h, r, _)) if same_counts(h, hand) && r.same_contract(round)))
    }

    /// The estimate kept in `slot`, made now if only a bound was needed before (so
    /// the memo answers as if it had been made at once). Read in place: most
    /// questions need only its `missing`.
    #[inline]
    fn made(&mut self, slot: usize, rules: &RuleSet) -> &Estimate {
        let (hand, round, e) = self.memo[slot].as_mut().expect("a kept slot");
        e.get_or_insert_with(|| estimate(hand, &round.contract, rules))
    }

    /// The estimate of `hand` under the contract of `round` if the memo keeps it made
    /// (an entry kept with only a bound answers `None`).
    #[inline(always)]
    fn remembered(&self, hand: &CardCounts, round: &Round) -> Option<&Estimate> {
        let slot = self.slot_of(hand, round)?;
        self.memo[slot].as_ref().and_then(|(_, _, e)| e.as_ref())
    }

    fn remember(&mut self, hand: CardCounts, round: Round, estimate: Option<Estimate>) {
        self.newest = 1 - self.newest;
        self.memo[self.newest] = Some((hand, round, estimate));
    }

    /// Does `card` bring a not-yet-down hand closer to the contract: fewer cards
    /// missing by the estimate (0 when it completes it)? `penalty`: the card comes
    /// with a penalty card (a buy), which a whole-hand contract must also place.
    ///
    /// No exact search here: asking it whether each offered card completes a
    /// contract the estimate does not see cost a tenth of all the bot's time for
    /// about one better decision per game; such a contract is still found by the
    /// go-down check of the bot's own turn.
    ///
    /// Always inlined into its two callers (the take and the buy): fewer instructions
    /// measured, most questions end at `could_help`.
    #[inline(always)]
    fn improves(&mut self, hand: &CardCounts, card: Card, round: &Round, rules: &RuleSet, penalty: bool) -> bool {
        let contract = &round.contract;
        if !could_help(hand, card, contract, rules) {
            return false;
        }
        let extra = u32::from(penalty && contract.whole_hand);
        // Usually remembered; when the hand lacks nothing (or only the penalty card's
        // place), no card can lower it and the new hand need not be estimated.
        let now = self.estimate(hand, round, rules).missing;
        if now <= extra {
            return false;
        }
        let more = with_card(hand, card);
        // A buy's hand is not the hand of the next decision (a penalty card joins it):
        // it need not be remembered, so its estimate stops once it cannot improve.
        if penalty {
            // The seat that just discarded the card is asked too (L-6.3): the hand it
            // discarded from is usually still remembered, its estimate made.
            if let Some(made) = self.remembered(&more, round) {
                let lowers = made.missing + extra < now;
                debug_assert_eq!(lowers, bounded(&more, contract, rules, now - extra).is_some());
                return lowers;
            }
            return bounded(&more, contract, rules, now - extra).is_some();
        }
        // The hand of the next decision if the card is taken: kept like any estimate,
        // but made in full only if it improves (or is asked about again).
        if let Some(slot) = self.slot_of(&more, round) {
            return self.made(slot, rules).missing + extra < now;
        }
        let below = bounded(&more, contract, rules, now - extra);
        self.remember(more, *round, below);
        below.is_some()
    }

    fn wants_discard(&mut self, state: &GameState, seat: usize, card: Card) -> bool {
        let contract = state.contract();
        if state.is_down(seat) {
            // Taken and laid off this turn: the hand shrinks by one more than a stock draw.
            return !contract.whole_hand && fits_table(state, card);
        }
        self.improves(state.hand(seat), card, &Round::of(state), state.rules(), false)
    }

    fn wants_to_buy(&mut self, state: &GameState, seat: usize, card: Card) -> bool {
        !state.is_down(seat) && self.improves(state.hand(seat), card, &Round::of(state), state.rules(), true)
    }

    /// The discard of a seat that has gone down: the highest-points card that fits no
    /// table meld (cards that fit are laid off next turn); a joker only if nothing
    /// else is left.
    fn pick_discard_when_down(&self, state: &GameState, seat: usize) -> Card {
        let hand = state.hand(seat);
        let rules = state.rules();
        let later = !state.contract().whole_hand;
        // The choices by points then id, highest first: the first that fits no table
        // meld wins, else the first (each table check costs a trial lay-off per meld).
        let choices = discard_choices(state, seat).0;
        let mut by_rank = self
            .by_points()
            .iter()
            .flat_map(|&(_, ids)| HighestFirst(choices & ids));
        let first = by_rank.next();
        let best = if later && first.is_some_and(|c| fits_table(state, c)) {
            by_rank.find(|&c| !fits_table(state, c)).or(first)
        } else {
            first
        };
        debug_assert_eq!(
            best,
            discard_choices(state, seat).max_by_key(|&c| (
                !(later && fits_table(state, c)),
                rules.card_points(c),
                c.id()
            ))
        );
        best.unwrap_or_else(|| joker_or_anything(hand))
    }

    /// The discard of a seat that has not gone down (`now`: the hand's estimate).
    ///
    /// First choices are the natural cards the estimate's melds leave free, minus
    /// those that form melds of their own (`best_arrangement` of the free cards, with
    /// the contract's meld kinds): losing one cannot raise [`cards_missing`](super::estimate::cards_missing). Among
    /// them the most points win, then the fewest [`connections`]. A card the estimate
    /// does use competes when it would win those tie-breaks: it is estimated again
    /// and wins if its loss leaves no more cards missing.
    fn pick_discard(&mut self, state: &GameState, seat: usize, now: &Estimate) -> Card {
        let hand = *state.hand(seat);
        let contract = state.contract();
        let rules = state.rules();
        let mut free = hand;
        for (f, u) in free.0.iter_mut().zip(now.used.0.iter()) {
            *f -= u;
        }
        free.0[JOKER_ID as usize] = 0;
        let free_ids = natural_ids_held(&free);
        // Searching only the free cards keeps the arrangement small and cheap; most
        // of the time they cannot form a meld at all and need no search.
        let (sets, runs) = (contract.sets() > 0, contract.runs() > 0);
        let loose = if !no_meld_among(&free, free_ids, sets, runs, rules) && could_meld(&free, sets, runs, rules) {
            Some(best_arrangement(&free, self.arrangement_rules(state, &contract)).deadwood)
        } else {
            None
        };
        let choices = discard_choices(state, seat);
        // As bit sets of card ids: a choice is spare when the estimate leaves a copy of
        // it free (and it is in `from`: `loose` is part of `free`), else used.
        let loose_ids = match &loose {
            Some(loose) if *loose != free => natural_ids_held(loose),
            _ => free_ids,
        };
        let loose = loose.unwrap_or(free);
        let from_ids = if choices.0 & loose_ids != 0 {
            loose_ids
        } else {
            free_ids
        };
        let spare_ids = CardIds(choices.0 & from_ids);
        let used_ids = CardIds(choices.0 & !free_ids);
        let tie_break =
            |c: Card| -> TieBreak { (Reverse(rules.card_points(c)), connections(&hand, c), Reverse(c.id())) };
        let by_points = self.by_points();

        // The smallest `(missing, tie_break)` among the spare cards: every one leaves
        // the same cards missing, so the most points, then the fewest connections
        // (they cost a scan of the hand: counted only when cards tie on points).
        // `top`: the index in `by_points` of the spare cards' points.
        let top = by_points.iter().position(|&(_, ids)| spare_ids.0 & ids != 0);
        let spare = top.map(|top| {
            let (points, ids) = by_points[top];
            let tied = spare_ids.0 & ids;
            let card = if tied & (tied - 1) == 0 {
                HighestFirst(tied).next().expect("a spare card")
            } else {
                CardIds(tied)
                    .map(|c| (connections(&hand, c), Reverse(c.id()), c))
                    .min()
                    .expect("spare cards")
                    .2
            };
            let missing = now
                .without_unused(&hand, card, &contract)
                .expect("the estimate leaves a copy of a spare card");
            (missing, points, card)
        });
        debug_assert_eq!(
            spare.map(|(missing, _, c)| (missing, c)),
            {
                let from = if { choices }.any(|c| loose.get(c) > 0) {
                    loose
                } else {
                    free
                };
                let spare_missing = |c: Card| now.without_unused(&hand, c, &contract).filter(|_| from.get(c) > 0);
                let leading = choices
                    .filter_map(|c| spare_missing(c).map(|missing| (missing, Reverse(rules.card_points(c)))))
                    .min();
                leading.and_then(|lead| {
                    choices
                        .filter(|&c| {
                            spare_missing(c).map(|missing| (missing, Reverse(rules.card_points(c)))) == Some(lead)
                        })
                        .map(|c| ((lead.0, tie_break(c)), c))
                        .min()
                })
            }
            .map(|((missing, _), c)| (missing, c))
        );
        // A used card competes only if it scores more than the best free one (its
        // loss never leaves fewer cards missing): the few that score most are
        // estimated again. With no free card at all, the few least connected are.
        // Ordered by their tie-breaks (computed once each), or by connections first.
        //
        // With a free card, the used ones that score more are taken a points group at a
        // time, most points first, and their connections counted only where two or more
        // tie on points: a card alone with its points, like the best free card, gets 0
        // (never compared: every card it meets in the loop below has other points).
        let none_free = spare.is_none();
        let mut used = [(0u32, (Reverse(0u16), 0u32, Reverse(0u8)), Card::JOKER); JOKER_ID as usize];
        let mut n_used = 0;
        if let Some(top) = top {
            for &(points, ids) in &by_points[..top] {
                let group = used_ids.0 & ids;
                if n_used == RECHECKED {
                    break;
                }
                if group == 0 {
                    continue;
                }
                if group & (group - 1) == 0 {
                    let c = HighestFirst(group).next().expect("a used card");
                    used[n_used] = (0, (Reverse(points), 0, Reverse(c.id())), c);
                    n_used += 1;
                    continue;
                }
                let start = n_used;
                for c in CardIds(group) {
                    used[n_used] = (0, tie_break(c), c);
                    n_used += 1;
                }
                used[start..n_used].sort_unstable();
                n_used = n_used.min(RECHECKED);
            }
        } else {
            for c in used_ids {
                let t = tie_break(c);
                used[n_used] = (t.1, t, c);
                n_used += 1;
            }
            used[..n_used].sort_unstable();
        }
        let used = &used[..n_used.min(RECHECKED)];
        debug_assert_eq!(used.iter().map(|u| u.2).collect::<Vec<_>>(), {
            // As first written: every used card that scores more than the best free one
            // (every one when none is free), all tie-breaks counted, then sorted.
            let best_free = spare.map(|(_, points, _)| points);
            let mut all: Vec<_> = used_ids
                .filter(|&c| best_free.is_none_or(|best| rules.card_points(c) > best))
                .map(|c| {
                    debug_assert!(now.without_unused(&hand, c, &contract).is_none());
                    let t = tie_break(c);
                    (if none_free { t.1 } else { 0 }, t, c)
                })
                .collect();
            all.sort_unstable();
            all.iter().take(RECHECKED).map(|u| u.2).collect::<Vec<_>>()
        });
        // The smallest `(missing, tie_break, card)`: the best free card, then each used
        // card re-estimated only as far as it could still win.
        let mut best = spare.map(|(missing, points, c)| {
            (
                (missing, (Reverse(points), 0, Reverse(c.id()))),
                c,
                Estimate {
                    missing,
                    used: now.used,
                },
            )
        });
        for &(_, tie, c) in used {
            // The fewest cards missing that would lose to the best so far.
            let bound = match &best {
                None => u32::MAX,
                Some(((missing, best_tie), best_card, _)) if (tie, c) < (*best_tie, *best_card) => missing + 1,
                Some(((missing, ..), ..)) => *missing,
            };
            if bound == 0 {
                continue;
            }
            let mut less = hand;
            less.0[c.id() as usize] -= 1;
            if let Some(after) = bounded(&less, &contract, rules, bound) {
                best = Some(((after.missing, tie), c, after));
            }
        }
        // Keep the estimate of the hand after the discard: it is the hand of the next
        // decisions. (A free card's loss leaves the same melds, so the same `used`.)
        match best {
            Some((_, card, after)) => {
                let mut less = hand;
                less.0[card.id() as usize] -= 1;
                self.remember(less, Round::of(state), Some(after));
                card
            }
            None => joker_or_anything(&hand),
        }
    }
}

/// `estimate_below`, out of line: the bounded questions (buy, take, a used card's
/// discard) share one copy of the estimate instead of one inlined into each caller
/// (fewer instructions measured: the callers keep their registers).
#[inline(never)]
fn bounded(hand: &CardCounts, contract: &Contract, rules: &RuleSet, bound: u32) -> Option<Estimate> {
    estimate_below(hand, contract, rules, bound)
}

/// Does the engine surely accept `go_down`, a go-down `search::best_go_down` found in
/// the hand of `seat`, whose turn it is to play and who is not down? The search lays
/// only legal melds that meet the contract from cards the hand holds (L-4.6), so what
/// is left to check is the cards it leaves: all of them laid in a whole-hand round
/// (L-8.1), else at least two left, which always keep a discard (L-5.5; W-8's taken
/// card is one card). Other cases are left to `GameState::can`.
fn surely_accepted(state: &GameState, seat: usize, go_down: &GoDown) -> bool {
    let left = go_down.left.total();
    let contract = state.contract();
    state.to_act() == Some(seat) && if contract.whole_hand { left == 0 } else { left >= 2 }
}

/// The natural cards `seat` may discard (W-8: not the card just taken from the pile),
/// in id order. Built once per decision and copied for each pass over it: a bit set
/// of card ids costs less than a scan of the hand's counts every time.
///
/// Always inlined (measured: cheaper than the call for its two callers).
#[inline(always)]
fn discard_choices(state: &GameState, seat: usize) -> CardIds {
    let hand = state.hand(seat);
    let mut ids = natural_ids_held(hand);
    if let Some(taken) = state.taken_discard() {
        if state.rules().no_discard_of_taken_card && hand.get(taken) == 1 {
            ids &= !(1u64 << taken.id());
        }
    }
    CardIds(ids)
}

/// Surely no meld among the natural `cards` (`ids`: those held): [`could_meld`] would
/// say so. Read from the bit set of ids: runs need only the positions held; sets too
/// when no card is held twice (then a rank's total is the number of its suits held),
/// else `false`, for `could_meld` to answer. Cheaper than `could_meld`, which counts
/// every rank and suit first.
pub(super) fn no_meld_among(cards: &CardCounts, ids: u64, sets: bool, runs: bool, rules: &RuleSet) -> bool {
    let [a, b, c, d] = [0, 1, 2, 3].map(|suit| (ids >> (13 * suit)) as u32 & 0x1FFF);
    if sets {
        // A byte of 2 or more has a bit above its lowest set (the last word overlaps).
        const HIGH7: u128 = u128::MAX / 255 * 0xFE;
        let word = |at: usize| u128::from_le_bytes(cards.0[at..at + 16].try_into().expect("sixteen counts"));
        if [0, 16, 32, CARD_KINDS - 16].iter().any(|&at| word(at) & HIGH7 != 0) {
            return false;
        }
        // The ranks held in at least `set_size_min` suits (L-4.1).
        let enough = match rules.set_size_min.max(1) {
            1 => a | b | c | d,
            2 => (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d),
            3 => (a & b & (c | d)) | (c & d & (a | b)),
            4 => a & b & c & d,
            _ => 0,
        };
        if enough != 0 {
            return false;
        }
    }
    if runs {
        // `run_size_min` consecutive positions of a suit, the ace at both ends (L-4.2):
        // the four suits' positions 0..=15 side by side in one word, where positions 0
        // and 15, never held, keep a run from reaching into the next suit.
        let positions = |ranks: u32| (ranks << 1 | (ranks & 1) << 14) as u64;
        let mut run = positions(a) | positions(b) << 16 | positions(c) << 32 | positions(d) << 48;
        for _ in 1..rules.run_size_min.clamp(1, 14) {
            run &= run >> 1;
        }
        if run != 0 {
            return false;
        }
    }
    debug_assert!(!could_meld(cards, sets, runs, rules), "{:?}", cards.to_cards());
    true
}

/// Natural cards as a bit set of their ids, iterated in id order.
#[derive(Clone, Copy)]
struct CardIds(u64);

impl Iterator for CardIds {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card::from_id(id).expect("id < 52"))
    }
}

/// Natural cards as a bit set of their ids, iterated from the highest id down.
struct HighestFirst(u64);

impl Iterator for HighestFirst {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let id = 63 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << id);
        Some(Card::from_id(id).expect("id < 52"))
    }
}

/// When no natural card may be discarded: a joker (L-5.7 allows it), or whatever is
/// left (the engine explains if that is refused; it never is in profile L).
fn joker_or_anything(hand: &CardCounts) -> Card {
    if hand.jokers() > 0 {
        Card::JOKER
    } else {
        hand.to_cards().first().copied().unwrap_or(Card::JOKER)
    }
}

impl Bot for GreedyBot {
    fn choose(&mut self, state: &GameState, seat: usize) -> Action {
        let action = self.decide(state, seat);
        debug_assert!(
            state.to_act() != Some(seat) || state.can(seat, &action),
            "greedy chose an illegal action {action:?}: {:?}",
            state.check(seat, &action)
        );
        action
    }
}

/// `a == b`, sixteen counts at a time (the last word overlaps the one before it):
/// fewer instructions than the derived byte-array comparison, on the memo's path.
#[inline]
pub(super) fn same_counts(a: &CardCounts, b: &CardCounts) -> bool {
    let word = |c: &CardCounts, at: usize| u128::from_le_bytes(c.0[at..at + 16].try_into().expect("sixteen counts"));
    let same = [0, 16, 32, CARD_KINDS - 16]
        .iter()
        .all(|&at| word(a, at) == word(b, at));
    debug_assert_eq!(same, a == b);
    same
}

/// `hand` plus one `card` (a hand never holds 255 copies; saturate rather than wrap).
fn with_card(hand: &CardCounts, card: Card) -> CardCounts {
    let mut more = *hand;
    let slot = &mut more.0[card.id() as usize];
    *slot = slot.saturating_add(1);
    more
}

/// W-7: call "rummy" whenever it is offered (it costs the caller nothing), and
/// "Liverpool" on the first meld the card fits (the hand shrinks by one); else pass.
fn call(state: &GameState, seat: usize) -> Action {
    state
        .legal_actions(Some(seat))
        .into_iter()
        .find(|a| matches!(a, Action::CallRummy | Action::CallLiverpool { .. }))
        .unwrap_or(Action::Pass)
}

/// A quick necessary condition for laying `card` off on `meld` (L-5.3); the engine's
/// `lay_off` has the last word.
fn may_fit(card: Card, meld: &Meld) -> bool {
    match meld.kind() {
        MeldKind::Set => card.is_joker() || meld.rank() == Some(card.rank()),
        MeldKind::Run => {
            let (lo, hi) = meld.span().expect("a run has a span");
            if card.is_joker() {
                return lo > 1 || hi < 14;
            }
            if meld.suit() != card.suit() {
                return false;
            }
            let rank = card.rank();
            let below = lo > 1 && (lo - 1 == rank || (rank == 1 && lo == 2));
            let above = hi < 14 && (hi + 1 == rank || (rank == 1 && hi == 13));
            below || above
        }
    }
}

/// Does `card` fit some table meld (L-5.3)?
fn fits_table(state: &GameState, card: Card) -> bool {
    state
        .table()
        .iter()
        .any(|t| may_fit(card, &t.meld) && t.meld.can_lay_off(&[card], None, state.rules()))
}

/// The next shedding action of a seat that is down: a joker swap that frees a
/// natural card from the hand (L-7.2), else a single-card lay-off (L-5.3).
fn shed(state: &GameState, seat: usize) -> Option<Action> {
    let hand = state.hand(seat);
    let table = state.table();
    let rules = state.rules();
    // A swap the rules forbid on this turn is refused whatever its cards (L-7.2, W-4).
    let swaps_now = match rules.joker_swap {
        JokerSwapRule::Off => false,
        JokerSwapRule::AfterGoDownTurn => !state.down_this_turn(),
        JokerSwapRule::OnGoDownTurn => state.down_this_turn(),
    };
    if swaps_now {
        for (i, source) in table.iter().enumerate() {
            if !source.meld.is_run() || source.meld.jokers() == 0 {
                continue;
            }
            for index in 0..source.meld.len() {
                let Some(natural) = source.meld.joker_stands_for(index) else {
                    continue;
                };
                if hand.get(natural) == 0 {
                    continue;
                }
                for (j, target) in table.iter().enumerate() {
                    if j == i || !may_fit(Card::JOKER, &target.meld) {
                        continue;
                    }
                    let swap = Action::SwapJoker {
                        meld: i,
                        card: natural,
                        to_meld: j,
                        end: None,
                    };
                    if state.can(seat, &swap) {
                        return Some(swap);
                    }
                }
            }
        }
    }
    // L-5.3: on the go-down turn every lay-off is refused unless the rules allow it.
    if state.down_this_turn() && !rules.lay_off_on_go_down_turn {
        return None;
    }
    // On the seat's turn, with two cards or more staying in hand (a discard is kept,
    // L-5.5), only the meld decides whether a card it holds may be laid off.
    let meld_decides = hand.total() >= 3 && state.to_act() == Some(seat);
    // Naturals first (id order), the joker last: a natural may need the place a
    // joker would take.
    let jokers = (hand.jokers() > 0).then_some(Card::JOKER);
    for card in CardIds(natural_ids_held(hand)).chain(jokers) {
        for (j, target) in table.iter().enumerate() {
            if !may_fit(card, &target.meld) {
                continue;
            }
            let lay_off = || Action::LayOff {
                meld: j,
                cards: vec![card],
                end: None,
            };
            let fits = if meld_decides {
                target.meld.can_lay_off(&[card], None, rules)
            } else {
                state.can(seat, &lay_off())
            };
            debug_assert_eq!(fits, state.can(seat, &lay_off()), "{card} on meld {j}");
            if fits {
                return Some(lay_off());
            }
        }
    }
    None
}
