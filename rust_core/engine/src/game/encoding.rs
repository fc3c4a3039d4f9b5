//! A fixed, discrete action space for reinforcement learning: every move of every
//! profile has an integer id, the same id always means the same kind of move, and
//! `legal_action_mask` says which ids are legal now (docs/action-space.md).
//!
//! The space depends only on the rule set and the player count ([`ActionSpace::new`]).
//! Its blocks, in id order:
//!
//! | block | ids | meaning |
//! |---|---|---|
//! | `draw_stock`, `take_discard`, `buy`, `pass`, `call_rummy`, `next_round` | 1 each | the action of that name |
//! | `cut` | deck size − 1 | `cut(size = 1 + i)` (L-2.2) |
//! | `discard` | 53 | `discard(card id i)` (L-5.5) |
//! | `lay_off` | slots × 55 | table meld `i / 55`; `i % 55` is a card id (no end), 53 = joker at the low end of a run, 54 = joker at the high end (L-5.3) |
//! | `call_liverpool` | slots × 3 | W-7.2 on table meld `i / 3`; `i % 3`: no end, low end, high end |
//! | `swap_joker` | [`SWAP_JOKER_CAP`] | the i-th joker swap in `legal_actions` order (L-7.2) |
//! | `go_down` | [`GO_DOWN_CAP`] | the i-th go-down in `legal_actions` order (L-4.6) |
//!
//! `slots` is the most melds the table can hold in one round: players × the largest
//! contract (only one seat's melds for a whole-hand contract, L-8). Only the moves
//! `legal_actions` lists have ids: `decline_discard` (a `draw_stock` during an offer
//! already declines, L-5.1), a cut with no size, lay-offs of several cards at once and
//! a joker laid off on a run without an end are accepted by `apply` but have none.

use super::action::{Action, Event};
use super::legal::GO_DOWN_LIMIT;
use super::state::{CallKind, GameState, Phase};
use crate::card::{Card, CardCounts, CARD_KINDS};
use crate::error::{Error, ErrorCode, Result};
use crate::meld::{End, Meld};
use crate::msg;
use crate::rules::{JokerSwapRule, RuleSet};
use crate::search::count::{count_go_downs, nth_go_down};
use crate::search::{all_go_downs, GoDown};
use std::ops::Range;

/// Go-down ids: as many as `legal_actions` ever lists ([`GO_DOWN_LIMIT`], the best
/// ones by points left), so every listed go-down has an id. Random play reaches 512
/// listed go-downs in one hand under six presets (docs/action-space.md has the
/// measured figures).
pub const GO_DOWN_CAP: usize = GO_DOWN_LIMIT;

/// At most this many joker swaps have an id: at most 63 were ever legal at once in
/// simulated games of every preset (profile W, 8 players; docs/action-space.md).
pub const SWAP_JOKER_CAP: usize = 96;

/// Lay-off ids per table meld: 53 card kinds with no end, then the joker at the low
/// and at the high end of a run.
pub const LAY_OFF_PER_MELD: usize = CARD_KINDS + 2;

/// Call ids per table meld: no end, low end, high end (only a joker on a run has one).
pub const CALL_PER_MELD: usize = 3;

/// The moves with one id each, in id order (ids 0..6).
pub const FIXED_ACTIONS: [&str; 6] = ["draw_stock", "take_discard", "buy", "pass", "call_rummy", "next_round"];

const DRAW_STOCK: usize = 0;
const TAKE_DISCARD: usize = 1;
const BUY: usize = 2;
const PASS: usize = 3;
const CALL_RUMMY: usize = 4;
const NEXT_ROUND: usize = 5;

/// What a mask knew of the go-downs, kept for decoding the id chosen from it: only
/// how many there were (the go-downs themselves are built when a go-down id is
/// chosen, which is rare next to the steps that only need the mask).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoDownCache {
    /// The go-down ids of the mask: `space.go_down + 0..count`.
    count: usize,
}

/// The action space of a rule set and a player count: sizes and offsets of the blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    /// Table meld slots: the most melds the table can hold in one round.
    pub slots: usize,
    /// Cut sizes 1..=`max_cut` (the deck for this many players, minus one).
    pub max_cut: usize,
    pub cut: usize,
    pub discard: usize,
    pub lay_off: usize,
    pub call_liverpool: usize,
    pub swap_joker: usize,
    pub go_down: usize,
    /// The number of ids.
    pub size: usize,
}

impl ActionSpace {
    pub fn new(rules: &RuleSet, players: usize) -> ActionSpace {
        let slots = rules
            .contracts
            .iter()
            .map(|c| if c.whole_hand { c.count() } else { c.count() * players })
            .max()
            .unwrap_or(0);
        let max_cut = rules.deck_size(players.min(u8::MAX as usize) as u8).saturating_sub(1);
        let cut = FIXED_ACTIONS.len();
        let discard = cut + max_cut;
        let lay_off = discard + CARD_KINDS;
        let call_liverpool = lay_off + slots * LAY_OFF_PER_MELD;
        let swap_joker = call_liverpool + slots * CALL_PER_MELD;
        let go_down = swap_joker + SWAP_JOKER_CAP;
        ActionSpace {
            slots,
            max_cut,
            cut,
            discard,
            lay_off,
            call_liverpool,
            swap_joker,
            go_down,
            size: go_down + GO_DOWN_CAP,
        }
    }

    /// The blocks in id order: `(name, ids)`.
    pub fn blocks(&self) -> Vec<(&'static str, Range<usize>)> {
        let mut out: Vec<(&'static str, Range<usize>)> = FIXED_ACTIONS
            .iter()
            .enumerate()
            .map(|(i, &name)| (name, i..i + 1))
            .collect();
        out.extend([
            ("cut", self.cut..self.discard),
            ("discard", self.discard..self.lay_off),
            ("lay_off", self.lay_off..self.call_liverpool),
            ("call_liverpool", self.call_liverpool..self.swap_joker),
            ("swap_joker", self.swap_joker..self.go_down),
            ("go_down", self.go_down..self.size),
        ]);
        out
    }

    /// The name of the block holding `id` (`None` beyond the space).
    pub fn block_of(&self, id: usize) -> Option<&'static str> {
        self.blocks().into_iter().find(|(_, r)| r.contains(&id)).map(|(n, _)| n)
    }

    fn lay_off_id(&self, slot: usize, card: Card, end: Option<End>) -> Option<usize> {
        let code = match (card.is_joker(), end) {
            (_, None) => card.id() as usize,
            (true, Some(End::Low)) => CARD_KINDS,
            (true, Some(End::High)) => CARD_KINDS + 1,
            (false, Some(_)) => return None,
        };
        (slot < self.slots).then_some(self.lay_off + slot * LAY_OFF_PER_MELD + code)
    }

    fn call_id(&self, slot: usize, end: Option<End>) -> Option<usize> {
        let code = match end {
            None => 0,
            Some(End::Low) => 1,
            Some(End::High) => 2,
        };
        (slot < self.slots).then_some(self.call_liverpool + slot * CALL_PER_MELD + code)
    }

    fn out_of_range(&self, id: usize) -> Error {
        Error::with(
            ErrorCode::InvalidActionId,
            None,
            msg!("action_id.out_of_range", id = id, last = self.size - 1),
        )
    }
}

/// The `end` values a card may be laid off with on `meld`: a joker on a run goes to
/// one end or the other, everything else has none.
fn ends_for(card: Card, meld: &Meld) -> &'static [Option<End>] {
    if card.is_joker() && meld.is_run() {
        &[Some(End::Low), Some(End::High)]
    } else {
        &[None]
    }
}

/// Could a lone natural `card` extend `meld`? A cheap necessary condition of
/// `Meld::lay_off` (which builds an error message on every refusal): a set takes its
/// rank only; a run takes its suit only, at the position just below or above it
/// (an ace at 1 or 14) — without jokers in hand no gap can be filled.
fn may_fit(card: Card, meld: &Meld, rules: &RuleSet) -> bool {
    if meld.is_wild(card) || rules.is_wild(card) {
        return true;
    }
    match (meld.rank(), meld.span()) {
        (Some(rank), _) => card.rank() == rank,
        (None, Some((low, high))) => {
            let suit_ok = meld.suit().is_some_and(|s| card.suit() == Some(s));
            let at = |pos: u8| pos + 1 == low || pos == high + 1;
            suit_ok && (at(card.rank()) || (card.rank() == 1 && at(14)))
        }
        (None, None) => true,
    }
}

impl GameState {
    /// The action space of this game's rule set and player count.
    pub fn action_space(&self) -> ActionSpace {
        ActionSpace::new(&self.rules, self.players())
    }

    /// The legal ids of `seat` (default: `to_act()`) as one flag per id; all false
    /// when the engine does not wait for `seat`. Equal to the ids of
    /// `legal_actions(seat)` (a property test checks it), computed without building them.
    pub fn legal_action_mask(&self, seat: Option<usize>) -> Vec<bool> {
        let space = self.action_space();
        let mut mask = vec![false; space.size];
        self.write_legal_action_mask(&space, seat, &mut mask);
        mask
    }

    /// [`GameState::legal_action_mask`] into `mask` (of `space.size` flags, cleared
    /// first); returns how many ids are legal.
    pub fn write_legal_action_mask(&self, space: &ActionSpace, seat: Option<usize>, mask: &mut [bool]) -> usize {
        mask.fill(false);
        let mut count = 0;
        self.for_each_legal_id(space, seat, |id| {
            if let Some(flag) = mask.get_mut(id) {
                count += usize::from(!*flag);
                *flag = true;
            }
        });
        count
    }

    /// Call `set` once with every legal id of `seat` (default: `to_act()`), in no
    /// particular order; nothing when the engine does not wait for `seat`. What
    /// the mask is made of, for callers that keep the ids in their own form.
    pub fn for_each_legal_id(&self, space: &ActionSpace, seat: Option<usize>, set: impl FnMut(usize)) {
        self.legal_ids(space, seat, None, set);
    }

    /// [`GameState::for_each_legal_id`] that also keeps in `cache` how many go-downs
    /// it found, for [`GameState::apply_cached_id`].
    pub fn for_each_legal_id_cached(
        &self,
        space: &ActionSpace,
        seat: Option<usize>,
        cache: &mut GoDownCache,
        set: impl FnMut(usize),
    ) {
        cache.count = 0;
        self.legal_ids(space, seat, Some(&mut cache.count), set);
    }

    /// Apply id `id` of `seat`, a legal id of the mask `for_each_legal_id_cached`
    /// listed with `cache` in this very state (the caller checked it): what the
    /// VecEnv does on every step. A refused id changes nothing.
    pub fn apply_cached_id(&mut self, seat: usize, id: usize, cache: &mut GoDownCache) -> Result<Event> {
        let space = self.action_space();
        let count = std::mem::take(&mut cache.count);
        let action = match id.checked_sub(space.go_down).filter(|_| id < space.size) {
            Some(k) if k < count => {
                // Built only now that one is chosen: the k-th in id order, without
                // sorting (or copying) the others.
                let Some(go_down) = self.legal_go_down_nth(seat, k) else {
                    // A cache from another state.
                    return Err(Error::with(
                        ErrorCode::InvalidActionId,
                        None,
                        msg!("action_id.not_legal", id = id, block = "go_down"),
                    ));
                };
                let action = Action::GoDown {
                    melds: go_down.melds.iter().map(|m| m.cards().to_vec()).collect(),
                };
                // A cache from another state could name a go-down that is not legal
                // here: `check` refuses it without the W-9 charge `apply` would make.
                self.check(seat, &action)?;
                action
            }
            _ => self.action_from_id_for(Some(seat), id)?,
        };
        self.apply(seat, &action)
    }

    fn legal_ids(
        &self,
        space: &ActionSpace,
        seat: Option<usize>,
        go_down_count: Option<&mut usize>,
        mut set: impl FnMut(usize),
    ) {
        let Some(decider) = self.to_act() else { return };
        if seat.is_some_and(|s| s != decider) {
            return;
        }
        match self.phase {
            Phase::Cut => {
                let max = self.stock.len().saturating_sub(1).min(space.max_cut);
                (0..max).for_each(|k| set(space.cut + k));
            }
            Phase::Draw { declined: false } => {
                if self.can(decider, &Action::TakeDiscard) {
                    set(TAKE_DISCARD);
                }
                set(DRAW_STOCK);
            }
            Phase::Draw { declined: true } => set(DRAW_STOCK),
            Phase::Buying(_) => {
                if self.can(decider, &Action::Buy) {
                    set(BUY);
                }
                set(PASS);
            }
            Phase::Calling(w) => {
                set(PASS);
                match w.kind {
                    CallKind::Rummy => set(CALL_RUMMY),
                    CallKind::Liverpool => {
                        if let Some(card) = self.discard_top() {
                            for (i, target) in self.table.iter().enumerate() {
                                if !may_fit(card, &target.meld, &self.rules) {
                                    continue;
                                }
                                for &end in ends_for(card, &target.meld) {
                                    if target.meld.can_lay_off(&[card], end, &self.rules) {
                                        if let Some(id) = space.call_id(i, end) {
                                            set(id);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Phase::CallDiscard { .. } => {
                let hand = &self.seats[decider].hand;
                for id in (0..CARD_KINDS).filter(|&id| hand.0[id] > 0) {
                    set(space.discard + id);
                }
            }
            Phase::Play => {
                let go_downs = self.legal_go_down_count(decider);
                if let Some(count) = go_down_count {
                    *count = go_downs;
                }
                (0..go_downs.min(GO_DOWN_CAP)).for_each(|k| set(space.go_down + k));
                self.play_moves(decider, |m| match m {
                    PlayMove::LayOff { slot, card, end } => {
                        if let Some(id) = space.lay_off_id(slot, card, end) {
                            set(id);
                        }
                    }
                    PlayMove::Discard(card) => set(space.discard + card.id() as usize),
                });
                let swaps = self.swap_moves(decider).len();
                (0..swaps.min(SWAP_JOKER_CAP)).for_each(|k| set(space.swap_joker + k));
            }
            Phase::RoundOver => set(NEXT_ROUND),
            Phase::GameOver => {}
        }
    }

    /// The id of `action` in this game's action space, now (go-downs and joker swaps
    /// are numbered in the order of the deciding seat's legal ones).
    /// `invalid_action_id` for a move that has no id (see the module docs).
    pub fn action_id(&self, action: &Action) -> Result<usize> {
        let space = self.action_space();
        let no_id = || {
            Error::with(
                ErrorCode::InvalidActionId,
                None,
                msg!("action_id.no_id", action = action.to_json()),
            )
        };
        let id = match action {
            Action::DrawStock => Some(DRAW_STOCK),
            Action::TakeDiscard => Some(TAKE_DISCARD),
            Action::Buy => Some(BUY),
            Action::Pass => Some(PASS),
            Action::CallRummy => Some(CALL_RUMMY),
            Action::NextRound => Some(NEXT_ROUND),
            Action::DeclineDiscard => None,
            Action::Cut { size } => size
                .filter(|&s| s >= 1 && s as u64 <= space.max_cut as u64)
                .map(|s| space.cut + s as usize - 1),
            Action::Discard { card } => Some(space.discard + card.id() as usize),
            Action::LayOff { meld, cards, end } => match cards.as_slice() {
                [card] => space.lay_off_id(*meld, *card, *end),
                _ => None,
            },
            Action::CallLiverpool { meld, end } => space.call_id(*meld, *end),
            Action::SwapJoker { .. } => {
                let seat = self.to_act().unwrap_or(0);
                self.swap_moves(seat)
                    .iter()
                    .position(|a| a == action)
                    .filter(|&k| k < SWAP_JOKER_CAP)
                    .map(|k| space.swap_joker + k)
            }
            Action::GoDown { melds } => {
                let seat = self.to_act().unwrap_or(0);
                self.go_down_list(seat)
                    .iter()
                    .position(|m| m == melds)
                    .filter(|&k| k < GO_DOWN_CAP)
                    .map(|k| space.go_down + k)
            }
        };
        id.ok_or_else(no_id)
    }

    /// The action id `id` stands for now, for the seat the engine waits for.
    /// Go-down and swap ids need the current state (the k-th legal one); the other
    /// blocks decode the same way in every state (the engine still judges the move).
    pub fn action_from_id(&self, id: usize) -> Result<Action> {
        self.action_from_id_for(self.to_act(), id)
    }

    fn action_from_id_for(&self, seat: Option<usize>, id: usize) -> Result<Action> {
        let space = self.action_space();
        let not_legal = |block: &str| {
            Error::with(
                ErrorCode::InvalidActionId,
                None,
                msg!("action_id.not_legal", id = id, block = block),
            )
        };
        if id >= space.size {
            return Err(space.out_of_range(id));
        }
        let card = |cid: usize| Card::from_id(cid as u8);
        let end_of = |code: usize| match code {
            1 => Some(End::Low),
            2 => Some(End::High),
            _ => None,
        };
        Ok(match id {
            DRAW_STOCK => Action::DrawStock,
            TAKE_DISCARD => Action::TakeDiscard,
            BUY => Action::Buy,
            PASS => Action::Pass,
            CALL_RUMMY => Action::CallRummy,
            NEXT_ROUND => Action::NextRound,
            _ if id < space.discard => Action::Cut {
                size: Some((id - space.cut + 1) as i64),
            },
            _ if id < space.lay_off => Action::Discard {
                card: card(id - space.discard)?,
            },
            _ if id < space.call_liverpool => {
                let (slot, code) = (
                    (id - space.lay_off) / LAY_OFF_PER_MELD,
                    (id - space.lay_off) % LAY_OFF_PER_MELD,
                );
                let (card, end) = match code {
                    c if c < CARD_KINDS => (card(c)?, None),
                    c => (Card::JOKER, end_of(c - CARD_KINDS + 1)),
                };
                Action::LayOff {
                    meld: slot,
                    cards: vec![card],
                    end,
                }
            }
            _ if id < space.swap_joker => {
                let k = id - space.call_liverpool;
                Action::CallLiverpool {
                    meld: k / CALL_PER_MELD,
                    end: end_of(k % CALL_PER_MELD),
                }
            }
            _ if id < space.go_down => {
                let k = id - space.swap_joker;
                let swaps = seat.map(|s| self.swap_moves(s)).unwrap_or_default();
                swaps.into_iter().nth(k).ok_or_else(|| not_legal("swap_joker"))?
            }
            _ => {
                let k = id - space.go_down;
                let list = seat.map(|s| self.go_down_list(s)).unwrap_or_default();
                let melds = list.into_iter().nth(k).ok_or_else(|| not_legal("go_down"))?;
                Action::GoDown { melds }
            }
        })
    }

    /// Apply the action `id` stands for (see [`GameState::action_from_id`]) by
    /// `seat`. Exactly the ids of `legal_action_mask(seat)` are accepted; a refused
    /// id changes nothing: the engine's own refusal of the decoded move when it has
    /// one (`not_your_turn`, `card_not_in_hand`, … with the rule id), else
    /// `invalid_action_id` (an id beyond the space, a k-th go-down or swap that does
    /// not exist, a move `apply` would take in another form, e.g. a joker laid off
    /// on a run without an end).
    pub fn apply_id(&mut self, seat: usize, id: usize) -> Result<Event> {
        self.check_seat(seat)?;
        let decider = self.to_act().filter(|&d| d == seat);
        let action = self.action_from_id_for(decider, id)?;
        // `check` never charges the W-9 penalty of a failed go-down (and a decoded
        // go-down is one of `seat`'s legal ones anyway).
        self.check(seat, &action)?;
        if decider.is_none() || !self.is_canonical(&action) {
            let block = self.action_space().block_of(id).unwrap_or("?");
            return Err(Error::with(
                ErrorCode::InvalidActionId,
                None,
                msg!("action_id.not_legal", id = id, block = block),
            ));
        }
        self.apply(seat, &action)
    }

    /// A legal move in the form `legal_actions` lists it: a joker laid off (or
    /// called) with an end exactly when the meld is a run.
    fn is_canonical(&self, action: &Action) -> bool {
        let (meld, card, end) = match action {
            Action::LayOff { meld, cards, end } => (*meld, cards[0], *end),
            Action::CallLiverpool { meld, end } => match self.discard_top() {
                Some(card) => (*meld, card, *end),
                None => return false,
            },
            _ => return true,
        };
        self.table
            .get(meld)
            .is_some_and(|t| ends_for(card, &t.meld).contains(&end))
    }

    // ----- the moves of the play phase, as legal_actions lists them -------------

    /// The legal go-downs of `seat` in `legal_actions` order (the melds' cards).
    pub(crate) fn go_down_list(&self, seat: usize) -> Vec<Vec<Vec<Card>>> {
        self.sorted_go_downs(self.legal_go_downs(seat))
    }

    /// The legal go-downs of `seat` as the search gives them (best first, at most
    /// [`GO_DOWN_LIMIT`] searched, as `legal_actions` does), not yet in id order.
    fn legal_go_downs(&self, seat: usize) -> Vec<GoDown> {
        if self.phase != Phase::Play || self.to_act() != Some(seat) || self.seats[seat].down {
            return Vec::new();
        }
        let hand = self.seats[seat].hand;
        let contract = self.contract();
        if hand.total() < self.rules.min_cards(&contract) {
            return Vec::new();
        }
        let mut found = all_go_downs(&hand, &contract, &self.rules, GO_DOWN_LIMIT);
        found.retain(|gd| {
            if contract.whole_hand {
                gd.left.total() == 0
            } else {
                let mut used = hand;
                used.try_remove(&gd.left);
                self.after_play(seat as u8, &used).is_some()
            }
        });
        found
    }

    /// `legal_go_downs(seat).len()` without building the go-downs.
    pub(crate) fn legal_go_down_count(&self, seat: usize) -> usize {
        if !self.may_go_down(seat) {
            return 0;
        }
        let (hand, contract) = (self.seats[seat].hand, self.contract());
        count_go_downs(&hand, &contract, &self.rules, GO_DOWN_LIMIT, |left| {
            self.go_down_leaves(seat, contract.whole_hand, left)
        })
    }

    /// `go_down_list(seat)[k]`, building only that go-down.
    pub(crate) fn legal_go_down_nth(&self, seat: usize, k: usize) -> Option<GoDown> {
        if !self.may_go_down(seat) {
            return None;
        }
        let (hand, contract) = (self.seats[seat].hand, self.contract());
        nth_go_down(
            &hand,
            &contract,
            &self.rules,
            GO_DOWN_LIMIT,
            |left| self.go_down_leaves(seat, contract.whole_hand, left),
            k,
        )
    }

    /// Could `seat` go down now, if its hand holds the contract?
    fn may_go_down(&self, seat: usize) -> bool {
        self.phase == Phase::Play
            && self.to_act() == Some(seat)
            && !self.seats[seat].down
            && self.seats[seat].hand.total() >= self.rules.min_cards(&self.contract())
    }

    /// Does a go-down of `seat` that leaves `left` in hand leave what L-5.5 (a card
    /// to discard) or L-8 (nothing, for a whole-hand contract) need?
    fn go_down_leaves(&self, seat: usize, whole_hand: bool, left: &CardCounts) -> bool {
        let kept = left.total();
        if whole_hand {
            kept == 0
        } else if kept >= 2 {
            // Most go-downs: a card to discard is left whichever was taken (only a
            // last card can be the taken discard that may not be thrown, L-5.5).
            true
        } else {
            let mut used = self.seats[seat].hand;
            used.try_remove(left);
            self.after_play(seat as u8, &used).is_some()
        }
    }

    /// Go-downs in id order (`Action`'s order: by card ids), without repeats.
    fn sorted_go_downs(&self, found: Vec<GoDown>) -> Vec<Vec<Vec<Card>>> {
        let mut out: Vec<Vec<Vec<Card>>> = found
            .into_iter()
            .map(|gd| gd.melds.iter().map(|m| m.cards().to_vec()).collect())
            .collect();
        out.sort_by_cached_key(|m| go_down_key(m));
        out.dedup();
        out
    }

    /// The legal joker swaps of `seat`, in `legal_actions` order.
    pub(crate) fn swap_moves(&self, seat: usize) -> Vec<Action> {
        let mut out = Vec::new();
        if self.phase != Phase::Play || self.to_act() != Some(seat) || !self.may_add(seat) {
            return out;
        }
        let swap_now = match self.rules.joker_swap {
            JokerSwapRule::Off => false,
            JokerSwapRule::AfterGoDownTurn => !self.down_this_turn,
            JokerSwapRule::OnGoDownTurn => self.down_this_turn,
        };
        if !swap_now {
            return out;
        }
        let hand = &self.seats[seat].hand;
        for (i, source) in self.table.iter().enumerate() {
            if (!self.rules.swap_own_jokers && source.owner == seat) || source.meld.jokers() == 0 {
                continue; // W-4: only another player's joker
            }
            for index in 0..source.meld.len() {
                let Some(natural) = source.meld.joker_stands_for(index) else {
                    continue;
                };
                if hand.get(natural) == 0 || !self.allowed_without(seat, natural) {
                    continue;
                }
                for (j, target) in self.table.iter().enumerate() {
                    if j == i {
                        continue;
                    }
                    for &end in ends_for(Card::JOKER, &target.meld) {
                        if target.meld.can_lay_off(&[Card::JOKER], end, &self.rules) {
                            out.push(Action::SwapJoker {
                                meld: i,
                                card: natural,
                                to_meld: j,
                                end,
                            });
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// L-5.5 / L-7.3: lay-offs and swaps need a seat that is down, outside a
    /// whole-hand round, with a card in hand.
    fn may_add(&self, seat: usize) -> bool {
        self.seats[seat].down && !self.contract().whole_hand && self.seats[seat].hand.total() >= 1
    }

    fn allowed_without(&self, seat: usize, card: Card) -> bool {
        let mut used = CardCounts::default();
        used.0[card.id() as usize] = 1;
        self.after_play(seat as u8, &used).is_some()
    }

    /// Visit the single-card lay-offs and the discards of `seat` in play (what
    /// `legal_actions` lists besides go-downs and swaps).
    fn play_moves(&self, seat: usize, mut visit: impl FnMut(PlayMove)) {
        let hand = &self.seats[seat].hand;
        let lay_now = self.may_add(seat) && (!self.down_this_turn || self.rules.lay_off_on_go_down_turn);
        for id in 0..CARD_KINDS {
            if hand.0[id] == 0 {
                continue;
            }
            let card = Card::from_id(id as u8).expect("id < 53");
            if lay_now && !self.table.is_empty() && self.allowed_without(seat, card) {
                for (i, target) in self.table.iter().enumerate() {
                    if !may_fit(card, &target.meld, &self.rules) {
                        continue;
                    }
                    for &end in ends_for(card, &target.meld) {
                        if target.meld.can_lay_off(&[card], end, &self.rules) {
                            visit(PlayMove::LayOff { slot: i, card, end });
                        }
                    }
                }
            }
            let taken = self.rules.no_discard_of_taken_card && self.taken_discard == Some(card) && hand.0[id] == 1;
            if !taken {
                visit(PlayMove::Discard(card));
            }
        }
    }
}

/// A lay-off or a discard found by `play_moves`.
enum PlayMove {
    LayOff { slot: usize, card: Card, end: Option<End> },
    Discard(Card),
}

/// `Action`'s order for go-downs: the card ids, each meld closed by -1.
fn go_down_key(melds: &[Vec<Card>]) -> Vec<i16> {
    let mut key = Vec::with_capacity(16);
    for m in melds {
        key.extend(m.iter().map(|c| c.id() as i16));
        key.push(-1);
    }
    key
}
