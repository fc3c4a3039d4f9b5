//! A fixed, discrete action space for reinforcement learning: every id means the
//! same thing in every state, `legal_action_mask` says which ids the engine accepts
//! now, and every move the engine accepts is named by exactly one short sequence of
//! ids (docs/action-space.md).
//!
//! The space depends only on the rule set and the player count ([`ActionSpace::new`]).
//! Its blocks, in id order:
//!
//! | block | ids | meaning |
//! |---|---|---|
//! | [`FIXED_ACTIONS`] | 1 each | the action of that name (`cut_random`: a cut whose size the engine draws, L-2.4) |
//! | `cut` | deck size − 1 | `cut(size = 1 + i)` (L-2.2) |
//! | `discard` | 53 | `discard(card id i)` (L-5.5) |
//! | `lay_off` | slots × per meld | table meld `i / per`; code `i % per` < 53: that card, no end; then a low and a high end for each wild card kind (the joker; C-8's wild queens) on a run (L-5.3) |
//! | `call_liverpool` | slots × 3 | W-7.2 on table meld `i / 3`; `i % 3`: no end, low end, high end |
//! | `swap_joker` | slots × 53 | first id of a swap (L-7.2): natural card `i % 53` takes a joker's place in table meld `i / 53` |
//! | `place_joker` | slots × 3 | second id of a swap: the freed joker goes to table meld `i / 3`; no end, low end, high end |
//! | `go_down` | 1 | first id of a go-down (L-4.6): start choosing its melds |
//! | `go_down_card` | 53 | the next card (id `i`) of the meld being chosen |
//! | `go_down_meld` | 1 | the meld being chosen is complete; after the contract's last meld the go-down is made |
//!
//! A swap takes two ids and a go-down `2 + cards + melds`; between them the game
//! holds the *selection* (the ids chosen so far), which only the seat to act can
//! continue and which the observation shows. `slots` is the most melds the table can
//! hold in one round: players × the largest contract (one seat's melds for a
//! whole-hand contract, L-8).

use super::action::{Action, Event};
use super::phase::{CallKind, Phase};
use super::selection::Selection;
use super::state::GameState;
use crate::card::{Card, CardCounts, Suit, CARD_KINDS};
use crate::error::{Error, ErrorCode, Result};
use crate::meld::{check_go_down, End, Meld};
use crate::msg;
use crate::rules::{JokerSwapRule, RuleSet};
use crate::search::{all_go_downs, GoDown};
use std::ops::Range;

use super::legal::GO_DOWN_LIMIT;

/// Call and joker-placing ids per table meld: no end, low end, high end (only a
/// wild card on a run has an end).
pub const CALL_PER_MELD: usize = 3;

/// Swap ids per table meld: the natural card (by id) that takes a joker's place.
pub const SWAP_PER_MELD: usize = CARD_KINDS;

/// The moves with one id each, in id order (ids 0..8).
pub const FIXED_ACTIONS: [&str; 8] = [
    "draw_stock",
    "take_discard",
    "buy",
    "pass",
    "call_rummy",
    "next_round",
    "decline_discard",
    "cut_random",
];

const DRAW_STOCK: usize = 0;
const TAKE_DISCARD: usize = 1;
const BUY: usize = 2;
const PASS: usize = 3;
const CALL_RUMMY: usize = 4;
const NEXT_ROUND: usize = 5;
const DECLINE_DISCARD: usize = 6;
const CUT_RANDOM: usize = 7;

/// The action space of a rule set and a player count: sizes and offsets of the blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    /// Table meld slots: the most melds the table can hold in one round.
    pub slots: usize,
    /// Cut sizes 1..=`max_cut` (the deck for this many players, minus one).
    pub max_cut: usize,
    /// The rule set's wild rank (C-8), whose four cards have lay-off ends like the joker.
    pub wild_rank: Option<u8>,
    /// Lay-off ids per table meld: 53 cards, then a low and a high end per wild kind.
    pub lay_off_per_meld: usize,
    pub cut: usize,
    pub discard: usize,
    pub lay_off: usize,
    pub call_liverpool: usize,
    pub swap_joker: usize,
    pub place_joker: usize,
    pub go_down: usize,
    pub go_down_card: usize,
    pub go_down_meld: usize,
    /// The number of ids.
    pub size: usize,
}

fn end_code(end: Option<End>) -> usize {
    usize::from(super::action::end_code(end))
}

fn code_end(code: usize) -> Option<End> {
    u8::try_from(code).ok().and_then(super::action::end_from_code)
}

fn card_of(id: usize) -> Card {
    Card::from_id(id as u8).expect("a card id below 53")
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
        let wild_kinds = 1 + if rules.wild_rank.is_some() { 4 } else { 0 };
        let lay_off_per_meld = CARD_KINDS + 2 * wild_kinds;
        let cut = FIXED_ACTIONS.len();
        let discard = cut + max_cut;
        let lay_off = discard + CARD_KINDS;
        let call_liverpool = lay_off + slots * lay_off_per_meld;
        let swap_joker = call_liverpool + slots * CALL_PER_MELD;
        let place_joker = swap_joker + slots * SWAP_PER_MELD;
        let go_down = place_joker + slots * CALL_PER_MELD;
        let go_down_card = go_down + 1;
        let go_down_meld = go_down_card + CARD_KINDS;
        ActionSpace {
            slots,
            max_cut,
            wild_rank: rules.wild_rank,
            lay_off_per_meld,
            cut,
            discard,
            lay_off,
            call_liverpool,
            swap_joker,
            place_joker,
            go_down,
            go_down_card,
            go_down_meld,
            size: go_down_meld + 1,
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
            ("swap_joker", self.swap_joker..self.place_joker),
            ("place_joker", self.place_joker..self.go_down),
            ("go_down", self.go_down..self.go_down_card),
            ("go_down_card", self.go_down_card..self.go_down_meld),
            ("go_down_meld", self.go_down_meld..self.size),
        ]);
        out
    }

    /// The name of the block holding `id` (`None` beyond the space).
    pub fn block_of(&self, id: usize) -> Option<&'static str> {
        if id < self.cut {
            return FIXED_ACTIONS.get(id).copied();
        }
        self.blocks().into_iter().find(|(_, r)| r.contains(&id)).map(|(n, _)| n)
    }

    /// A short name of what `id` means, the same in every state: `discard 7♦`,
    /// `lay_off JK low on meld 3`, `go_down_card 7♦`, … (`None` beyond the space).
    pub fn id_name(&self, id: usize) -> Option<String> {
        let block = self.block_of(id)?;
        Some(match block {
            "cut" => format!("cut {}", id - self.cut + 1),
            "discard" => format!("discard {}", card_of(id - self.discard)),
            "lay_off" => {
                let (slot, code) = (
                    (id - self.lay_off) / self.lay_off_per_meld,
                    (id - self.lay_off) % self.lay_off_per_meld,
                );
                let (card, end) = self.lay_off_decode(code);
                match end {
                    None => format!("lay_off {card} on meld {slot}"),
                    Some(e) => format!("lay_off {card} {} on meld {slot}", end_name(e)),
                }
            }
            "call_liverpool" | "place_joker" => {
                let start = if block == "place_joker" {
                    self.place_joker
                } else {
                    self.call_liverpool
                };
                let (slot, end) = ((id - start) / CALL_PER_MELD, code_end((id - start) % CALL_PER_MELD));
                match end {
                    None => format!("{block} on meld {slot}"),
                    Some(e) => format!("{block} {} on meld {slot}", end_name(e)),
                }
            }
            "swap_joker" => {
                let k = id - self.swap_joker;
                format!(
                    "swap_joker {} into meld {}",
                    card_of(k % SWAP_PER_MELD),
                    k / SWAP_PER_MELD
                )
            }
            "go_down_card" => format!("go_down_card {}", card_of(id - self.go_down_card)),
            name => name.to_string(),
        })
    }

    /// The wild kinds' index: 0 the joker, 1 + suit for a card of the wild rank.
    fn wild_index(&self, card: Card) -> Option<usize> {
        if card.is_joker() {
            Some(0)
        } else if self.wild_rank == Some(card.rank()) {
            Some(1 + card.suit_index() as usize)
        } else {
            None
        }
    }

    fn lay_off_code(&self, card: Card, end: Option<End>) -> Option<usize> {
        match end {
            None => Some(card.id() as usize),
            Some(e) => self
                .wild_index(card)
                .map(|k| CARD_KINDS + 2 * k + usize::from(e == End::High)),
        }
    }

    fn lay_off_decode(&self, code: usize) -> (Card, Option<End>) {
        if code < CARD_KINDS {
            return (card_of(code), None);
        }
        let (k, high) = ((code - CARD_KINDS) / 2, (code - CARD_KINDS) % 2 == 1);
        let card = match (k, self.wild_rank) {
            (0, _) | (_, None) => Card::JOKER,
            (k, Some(rank)) => Card::new(rank, Suit::from_index(k as u8 - 1)),
        };
        (card, Some(if high { End::High } else { End::Low }))
    }

    fn lay_off_id(&self, slot: usize, card: Card, end: Option<End>) -> Option<usize> {
        let code = self.lay_off_code(card, end)?;
        (slot < self.slots).then_some(self.lay_off + slot * self.lay_off_per_meld + code)
    }

    fn call_id(&self, slot: usize, end: Option<End>) -> Option<usize> {
        (slot < self.slots).then_some(self.call_liverpool + slot * CALL_PER_MELD + end_code(end))
    }

    fn swap_id(&self, slot: usize, card: Card) -> Option<usize> {
        (slot < self.slots).then_some(self.swap_joker + slot * SWAP_PER_MELD + card.id() as usize)
    }

    fn place_id(&self, slot: usize, end: Option<End>) -> Option<usize> {
        (slot < self.slots).then_some(self.place_joker + slot * CALL_PER_MELD + end_code(end))
    }

    fn out_of_range(&self, id: usize) -> Error {
        Error::with(
            ErrorCode::InvalidActionId,
            None,
            msg!("action_id.out_of_range", id = id, last = self.size - 1),
        )
    }

    fn not_legal(&self, id: usize) -> Error {
        Error::with(
            ErrorCode::InvalidActionId,
            None,
            msg!("action_id.not_legal", id = id, block = self.block_of(id).unwrap_or("?")),
        )
    }

    /// The move one id names by itself (`None` for the ids of swaps and go-downs).
    fn single(&self, id: usize) -> Option<Action> {
        Some(match id {
            DRAW_STOCK => Action::DrawStock,
            TAKE_DISCARD => Action::TakeDiscard,
            BUY => Action::Buy,
            PASS => Action::Pass,
            CALL_RUMMY => Action::CallRummy,
            NEXT_ROUND => Action::NextRound,
            DECLINE_DISCARD => Action::DeclineDiscard,
            CUT_RANDOM => Action::Cut { size: None },
            _ if id < self.discard => Action::Cut {
                size: Some((id - self.cut + 1) as i64),
            },
            _ if id < self.lay_off => Action::Discard {
                card: card_of(id - self.discard),
            },
            _ if id < self.call_liverpool => {
                let k = id - self.lay_off;
                let (card, end) = self.lay_off_decode(k % self.lay_off_per_meld);
                Action::LayOff {
                    meld: k / self.lay_off_per_meld,
                    cards: vec![card],
                    end,
                }
            }
            _ if id < self.swap_joker => {
                let k = id - self.call_liverpool;
                Action::CallLiverpool {
                    meld: k / CALL_PER_MELD,
                    end: code_end(k % CALL_PER_MELD),
                }
            }
            _ => return None,
        })
    }

    /// The move a whole sequence of ids names, in any state (the engine judges it
    /// when it is applied). `action_id.partial` when the ids are not one whole move.
    pub fn decode(&self, ids: &[usize]) -> Result<Action> {
        let partial = || {
            Error::with(
                ErrorCode::InvalidActionId,
                None,
                msg!("action_id.partial", ids = format!("{ids:?}")),
            )
        };
        if let Some(&bad) = ids.iter().find(|&&i| i >= self.size) {
            return Err(self.out_of_range(bad));
        }
        let (&first, rest) = ids.split_first().ok_or_else(partial)?;
        if let Some(action) = self.single(first) {
            return if rest.is_empty() { Ok(action) } else { Err(partial()) };
        }
        if (self.swap_joker..self.place_joker).contains(&first) {
            let k = first - self.swap_joker;
            return match rest {
                [place] if (self.place_joker..self.go_down).contains(place) => {
                    let p = place - self.place_joker;
                    Ok(Action::SwapJoker {
                        meld: k / SWAP_PER_MELD,
                        card: card_of(k % SWAP_PER_MELD),
                        to_meld: p / CALL_PER_MELD,
                        end: code_end(p % CALL_PER_MELD),
                    })
                }
                _ => Err(partial()),
            };
        }
        if first != self.go_down {
            return Err(partial());
        }
        let mut melds = Vec::new();
        let mut open = Vec::new();
        for &id in rest {
            if id == self.go_down_meld && !open.is_empty() {
                melds.push(std::mem::take(&mut open));
            } else if (self.go_down_card..self.go_down_meld).contains(&id) {
                open.push(card_of(id - self.go_down_card));
            } else {
                return Err(partial());
            }
        }
        if melds.is_empty() || !open.is_empty() {
            return Err(partial());
        }
        Ok(Action::GoDown { melds })
    }
}

fn end_name(end: End) -> &'static str {
    match end {
        End::Low => "low",
        End::High => "high",
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

/// The `end` values one card may be laid on `meld` with, as the ids name them: a
/// wild card (a joker, C-8's wild rank) on a run goes to one end or the other;
/// everything else has none.
fn ends_for(card: Card, meld: &Meld, rules: &RuleSet) -> &'static [Option<End>] {
    if rules.is_wild(card) && meld.is_run() {
        &[Some(End::Low), Some(End::High)]
    } else {
        &[None]
    }
}

/// The end a card laid on `meld` with `end` really takes (what the engine does with
/// it, L-5.3): a wild card on a run without an end goes high when there is room,
/// else low; any other card has no end (the engine ignores one).
fn placed_end(card: Card, meld: &Meld, end: Option<End>, rules: &RuleSet) -> Option<End> {
    if !(rules.is_wild(card) && meld.is_run()) {
        return None;
    }
    match (end, meld.span()) {
        (Some(e), _) => Some(e),
        (None, Some((_, high))) if high < 14 => Some(End::High),
        _ => Some(End::Low),
    }
}

/// A go-down's melds in the form the ids name them: a set's cards by card id, a
/// run's low to high (its order fixes the jokers' places), the melds by their cards.
/// Two go-downs with the same canonical form put the same melds on the table.
fn canonical_groups(melds: &[Meld]) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = melds
        .iter()
        .map(|m| {
            let mut cards = m.cards().to_vec();
            if m.is_set() {
                cards.sort_by_key(|c| c.id());
            }
            cards
        })
        .collect();
    out.sort_by_cached_key(|m| m.iter().map(|c| c.id()).collect::<Vec<u8>>());
    out
}

impl GameState {
    /// The action space of this game's rule set and player count.
    pub fn action_space(&self) -> ActionSpace {
        ActionSpace::new(&self.rules, self.players())
    }

    /// The legal ids of `seat` (default: `to_act()`) as one flag per id; all false
    /// when the engine does not wait for `seat`: exactly the ids `apply_id` accepts
    /// now (property tests check both ways).
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

    /// Is a move being chosen id by id (a swap or a go-down begun and not finished)?
    pub fn has_selection(&self) -> bool {
        self.selection.is_some()
    }

    /// The ids chosen so far of the move being chosen (empty when none is).
    pub fn selection_ids(&self) -> Vec<usize> {
        let space = self.action_space();
        match self.selection.as_deref() {
            None => Vec::new(),
            Some(Selection::Swap { meld, card }) => space.swap_id(*meld, *card).into_iter().collect(),
            Some(Selection::GoDown { closed, open, .. }) => {
                let mut ids = vec![space.go_down];
                for m in closed {
                    ids.extend(m.iter().map(|c| space.go_down_card + c.id() as usize));
                    ids.push(space.go_down_meld);
                }
                ids.extend(open.iter().map(|c| space.go_down_card + c.id() as usize));
                ids
            }
        }
    }

    /// The cards of the selection (all chosen cards; those of the meld being
    /// chosen), for the observation.
    pub(crate) fn selection_cards(&self) -> Option<(bool, Vec<Card>, &[Card])> {
        match self.selection.as_deref()? {
            Selection::Swap { card, .. } => Some((false, vec![*card], &[])),
            Selection::GoDown { closed, open, .. } => {
                let mut all: Vec<Card> = closed.iter().flatten().copied().collect();
                all.extend(open);
                Some((true, all, open))
            }
        }
    }

    /// Call `set` once with every legal id of `seat` (default: `to_act()`), in no
    /// particular order; nothing when the engine does not wait for `seat`. What
    /// the mask is made of, for callers that keep the ids in their own form.
    pub fn for_each_legal_id(&self, space: &ActionSpace, seat: Option<usize>, mut set: impl FnMut(usize)) {
        let Some(decider) = self.to_act() else { return };
        if seat.is_some_and(|s| s != decider) {
            return;
        }
        if let Some(selection) = self.selection.as_deref() {
            self.selection_next_ids(space, decider, selection, set);
            return;
        }
        match self.phase {
            Phase::Cut => {
                let max = self.stock.len().saturating_sub(1).min(space.max_cut);
                (0..max).for_each(|k| set(space.cut + k));
                set(CUT_RANDOM);
            }
            Phase::Draw { declined: false } => {
                if self.can(decider, &Action::TakeDiscard) {
                    set(TAKE_DISCARD);
                }
                set(DRAW_STOCK);
                if self.can(decider, &Action::DeclineDiscard) {
                    set(DECLINE_DISCARD);
                }
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
                                for &end in ends_for(card, &target.meld, &self.rules) {
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
                if self.has_go_down(decider) {
                    set(space.go_down);
                }
                self.play_moves(decider, |m| match m {
                    PlayMove::LayOff { slot, card, end } => {
                        if let Some(id) = space.lay_off_id(slot, card, end) {
                            set(id);
                        }
                    }
                    PlayMove::Discard(card) => set(space.discard + card.id() as usize),
                });
                for swap in self.swap_moves(decider) {
                    if let Action::SwapJoker { meld, card, .. } = swap {
                        if let Some(id) = space.swap_id(meld, card) {
                            set(id);
                        }
                    }
                }
            }
            Phase::RoundOver => set(NEXT_ROUND),
            Phase::GameOver => {}
        }
    }

    /// The ids that continue `selection` (the only legal ids while it is held).
    fn selection_next_ids(&self, space: &ActionSpace, seat: usize, selection: &Selection, mut set: impl FnMut(usize)) {
        match selection {
            Selection::Swap { meld, card } => {
                for swap in self.swap_moves(seat) {
                    if let Action::SwapJoker {
                        meld: m,
                        card: c,
                        to_meld,
                        end,
                    } = swap
                    {
                        if m == *meld && c == *card {
                            if let Some(id) = space.place_id(to_meld, end) {
                                set(id);
                            }
                        }
                    }
                }
            }
            Selection::GoDown {
                closed,
                open,
                candidates,
            } => {
                for go_down in candidates {
                    match go_down.get(closed.len()) {
                        Some(meld) if open.len() < meld.len() => {
                            set(space.go_down_card + meld[open.len()].id() as usize)
                        }
                        Some(_) => set(space.go_down_meld),
                        None => {}
                    }
                }
            }
        }
    }

    /// The ids of `action` now, in the order they are applied: one id for most
    /// moves, two for a joker swap (L-7.2), `2 + cards + melds` for a go-down, one
    /// per card for a lay-off of several cards. Moves that put the same cards in the
    /// same places get the same ids (a joker without an end goes where the engine puts
    /// it; a go-down's melds in canonical order). A move the engine refuses is
    /// refused with the engine's error; ids are counted from a state with no
    /// selection (any pending one is ignored).
    pub fn action_ids(&self, action: &Action) -> Result<Vec<usize>> {
        let mut base = self.clone();
        base.selection = None;
        let seat = base.to_act().unwrap_or(base.active as usize);
        base.check(seat, action)?;
        base.ids_of_accepted(seat, action)
    }

    fn ids_of_accepted(&self, seat: usize, action: &Action) -> Result<Vec<usize>> {
        let space = self.action_space();
        let no_id = || {
            Error::with(
                ErrorCode::InvalidActionId,
                None,
                msg!("action_id.no_id", action = action.to_json()),
            )
        };
        let meld_at = |i: usize| self.table.get(i).map(|t| &t.meld).ok_or_else(no_id);
        let one = |id: Option<usize>| id.map(|i| vec![i]).ok_or_else(no_id);
        match action {
            Action::DrawStock => Ok(vec![DRAW_STOCK]),
            Action::TakeDiscard => Ok(vec![TAKE_DISCARD]),
            Action::Buy => Ok(vec![BUY]),
            Action::Pass => Ok(vec![PASS]),
            Action::CallRummy => Ok(vec![CALL_RUMMY]),
            Action::NextRound => Ok(vec![NEXT_ROUND]),
            Action::DeclineDiscard => Ok(vec![DECLINE_DISCARD]),
            Action::Cut { size: None } => Ok(vec![CUT_RANDOM]),
            Action::Cut { size: Some(k) } => one(usize::try_from(*k)
                .ok()
                .filter(|&k| (1..=space.max_cut).contains(&k))
                .map(|k| space.cut + k - 1)),
            Action::Discard { card } => Ok(vec![space.discard + card.id() as usize]),
            Action::CallLiverpool { meld, end } => {
                let card = self.discard_top().ok_or_else(no_id)?;
                one(space.call_id(*meld, placed_end(card, meld_at(*meld)?, *end, &self.rules)))
            }
            Action::LayOff { meld, cards, end } => match cards.as_slice() {
                [card] => one(space.lay_off_id(*meld, *card, placed_end(*card, meld_at(*meld)?, *end, &self.rules))),
                _ => self.several_lay_off_ids(&space, seat, *meld, cards, *end, action),
            },
            Action::SwapJoker {
                meld,
                card,
                to_meld,
                end,
            } => {
                let end = placed_end(Card::JOKER, meld_at(*to_meld)?, *end, &self.rules);
                Ok(vec![
                    space.swap_id(*meld, *card).ok_or_else(no_id)?,
                    space.place_id(*to_meld, end).ok_or_else(no_id)?,
                ])
            }
            Action::GoDown { melds } => {
                let read = check_go_down(melds, &self.contract(), &self.rules)?;
                let mut ids = vec![space.go_down];
                for group in canonical_groups(&read) {
                    ids.extend(group.iter().map(|c| space.go_down_card + c.id() as usize));
                    ids.push(space.go_down_meld);
                }
                Ok(ids)
            }
        }
    }

    /// A lay-off of several cards as one-card lay-offs: on a run from the meld
    /// outwards (low cards high to low, then high cards low to high), on a set
    /// naturals first; checked by playing them on a copy.
    fn several_lay_off_ids(
        &self,
        space: &ActionSpace,
        seat: usize,
        meld: usize,
        cards: &[Card],
        end: Option<End>,
        action: &Action,
    ) -> Result<Vec<usize>> {
        let no_id = || {
            Error::with(
                ErrorCode::InvalidActionId,
                None,
                msg!("action_id.no_id", action = action.to_json()),
            )
        };
        let target = &self.table.get(meld).ok_or_else(no_id)?.meld;
        let grown = target.lay_off(cards, end, &self.rules)?;
        let mut singles: Vec<(Card, Option<End>)> = Vec::new();
        if target.is_run() {
            let old = target.len();
            let low = grown
                .span()
                .zip(target.span())
                .map_or(0, |((g, _), (t, _))| usize::from(t - g));
            let wild_end = |c: Card, e: End| if self.rules.is_wild(c) { Some(e) } else { None };
            for &c in grown.cards()[..low].iter().rev() {
                singles.push((c, wild_end(c, End::Low)));
            }
            for &c in &grown.cards()[low + old..] {
                singles.push((c, wild_end(c, End::High)));
            }
        } else {
            let mut sorted = cards.to_vec();
            sorted.sort_by_key(|&c| (self.rules.is_wild(c), c.id()));
            singles.extend(sorted.into_iter().map(|c| (c, None)));
        }
        let ids: Vec<usize> = singles
            .iter()
            .map(|&(c, e)| space.lay_off_id(meld, c, e))
            .collect::<Option<_>>()
            .ok_or_else(no_id)?;
        // The one-card lay-offs must give the same game as the move itself.
        let mut by_ids = self.clone();
        let mut by_move = self.clone();
        by_move.apply(seat, action)?;
        for &id in &ids {
            by_ids.apply_id(seat, id).map_err(|_| no_id())?;
        }
        if by_ids == by_move {
            Ok(ids)
        } else {
            Err(no_id())
        }
    }

    /// The one id of `action` (see [`GameState::action_ids`]); a move that takes
    /// several ids is refused (`action_id.several`: use `action_ids`).
    pub fn action_id(&self, action: &Action) -> Result<usize> {
        let ids = self.action_ids(action)?;
        match ids.as_slice() {
            [id] => Ok(*id),
            _ => Err(Error::with(
                ErrorCode::InvalidActionId,
                None,
                msg!("action_id.several", action = action.to_json(), count = ids.len()),
            )),
        }
    }

    /// The move that `id` completes now: the move it names by itself, or the
    /// move being chosen that it finishes (the last id of a swap or a go-down).
    /// An id that starts or continues a move without finishing it is
    /// `action_id.partial`. The engine still judges the move when it is applied.
    pub fn action_from_id(&self, id: usize) -> Result<Action> {
        let mut ids = self.selection_ids();
        ids.push(id);
        self.action_space().decode(&ids)
    }

    /// The move a whole sequence of ids names (see [`ActionSpace::decode`]).
    pub fn action_from_ids(&self, ids: &[usize]) -> Result<Action> {
        self.action_space().decode(ids)
    }

    /// Apply id `id` by `seat`. Exactly the ids of `legal_action_mask(seat)` are
    /// accepted. `Some(event)` when the id completes a move (which the engine then
    /// applies), `None` when it only chose part of one (a swap's natural, a
    /// go-down's card or meld). A refused id changes nothing: the engine's own
    /// refusal of the move when it has one (`not_your_turn`, `card_not_in_hand`, …
    /// with the rule id), else `invalid_action_id`.
    pub fn apply_id(&mut self, seat: usize, id: usize) -> Result<Option<Event>> {
        self.check_seat(seat)?;
        let space = self.action_space();
        self.apply_id_checked(&space, seat, id, true)
    }

    /// [`GameState::apply_id`] for an id the caller found in this state's mask of
    /// `seat` (the VecEnv, which passes this game's `space`): the move is not judged twice.
    pub fn apply_legal_id(&mut self, space: &ActionSpace, seat: usize, id: usize) -> Result<Option<Event>> {
        self.apply_id_checked(space, seat, id, false)
    }

    fn apply_id_checked(&mut self, space: &ActionSpace, seat: usize, id: usize, judge: bool) -> Result<Option<Event>> {
        if id >= space.size {
            return Err(space.out_of_range(id));
        }
        let decider = self.to_act().filter(|&d| d == seat);
        if self.selection.is_some() {
            return self.continue_selection(space, decider.ok_or_else(|| space.not_legal(id))?, id);
        }
        if let Some(action) = space.single(id) {
            if judge && (decider.is_none() || !self.is_canonical(&action)) {
                // The engine's own refusal when it has one, else: not this id.
                self.check(seat, &action)?;
                return Err(space.not_legal(id));
            }
            // A refused move changes nothing (a single id is never a go-down, so no
            // W-9 charge either).
            return self.apply(seat, &action).map(Some);
        }
        let seat = decider.ok_or_else(|| space.not_legal(id))?;
        if (space.swap_joker..space.place_joker).contains(&id) {
            let k = id - space.swap_joker;
            let (meld, card) = (k / SWAP_PER_MELD, card_of(k % SWAP_PER_MELD));
            let any = self
                .swap_moves(seat)
                .iter()
                .any(|a| matches!(a, Action::SwapJoker { meld: m, card: c, .. } if *m == meld && *c == card));
            if !any {
                return Err(space.not_legal(id));
            }
            self.selection = Some(Box::new(Selection::Swap { meld, card }));
            return Ok(None);
        }
        if id == space.go_down {
            let candidates = self.canonical_go_downs(seat);
            if candidates.is_empty() {
                return Err(space.not_legal(id));
            }
            self.selection = Some(Box::new(Selection::GoDown {
                closed: Vec::new(),
                open: Vec::new(),
                candidates,
            }));
            return Ok(None);
        }
        // A continuation id with nothing being chosen.
        Err(space.not_legal(id))
    }

    /// Apply the id that continues the game's selection: update it, or make the move
    /// it completes. Nothing changes when the id does not continue it.
    fn continue_selection(&mut self, space: &ActionSpace, seat: usize, id: usize) -> Result<Option<Event>> {
        let (closed, open, candidates) = match self.selection.as_deref_mut() {
            Some(Selection::Swap { meld, card }) => {
                let (meld, card) = (*meld, *card);
                if !(space.place_joker..space.go_down).contains(&id) {
                    return Err(space.not_legal(id));
                }
                let k = id - space.place_joker;
                let action = Action::SwapJoker {
                    meld,
                    card,
                    to_meld: k / CALL_PER_MELD,
                    end: code_end(k % CALL_PER_MELD),
                };
                self.check(seat, &action).map_err(|_| space.not_legal(id))?;
                if !self.is_canonical(&action) {
                    return Err(space.not_legal(id));
                }
                return self.apply(seat, &action).map(Some);
            }
            Some(Selection::GoDown {
                closed,
                open,
                candidates,
            }) => (closed, open, candidates),
            None => return Err(space.not_legal(id)),
        };
        let i = closed.len();
        if (space.go_down_card..space.go_down_meld).contains(&id) {
            let card = card_of(id - space.go_down_card);
            let n = open.len();
            let fits = |g: &Vec<Vec<Card>>| {
                g.get(i)
                    .is_some_and(|m| m.len() > n && m[..n] == open[..] && m[n] == card)
            };
            if !candidates.iter().any(fits) {
                return Err(space.not_legal(id));
            }
            candidates.retain(fits);
            open.push(card);
            return Ok(None);
        }
        if id != space.go_down_meld || open.is_empty() || !candidates.iter().any(|g| g.get(i) == Some(&*open)) {
            return Err(space.not_legal(id));
        }
        let complete = candidates
            .iter()
            .any(|g| g.len() == i + 1 && g[..i] == closed[..] && g[i] == *open);
        if complete {
            // The go-down's last meld: the engine makes the move (which drops the
            // selection); were it refused, the selection would stay as it was.
            let mut melds = closed.clone();
            melds.push(open.clone());
            return self.apply(seat, &Action::GoDown { melds }).map(Some);
        }
        candidates.retain(|g| g.get(i) == Some(&*open));
        closed.push(std::mem::take(open));
        Ok(None)
    }

    /// A legal move in the form the ids name it: a wild card laid off (or called,
    /// or a freed joker placed) with an end exactly when the meld is a run.
    fn is_canonical(&self, action: &Action) -> bool {
        let (meld, card, end) = match action {
            Action::LayOff { meld, cards, end } => (*meld, cards[0], *end),
            Action::CallLiverpool { meld, end } => match self.discard_top() {
                Some(card) => (*meld, card, *end),
                None => return false,
            },
            Action::SwapJoker { to_meld, end, .. } => (*to_meld, Card::JOKER, *end),
            _ => return true,
        };
        self.table
            .get(meld)
            .is_some_and(|t| ends_for(card, &t.meld, &self.rules).contains(&end))
    }

    // ----- the moves of the play phase -------------------------------------------

    /// The legal go-downs of `seat` in canonical form (in no particular order; a
    /// go-down the search met twice may be listed twice, which the trie of the
    /// selection does not mind).
    fn canonical_go_downs(&self, seat: usize) -> Vec<Vec<Vec<Card>>> {
        let mut found = self.legal_go_downs(seat, GO_DOWN_LIMIT);
        if found.is_empty() && self.has_go_down(seat) {
            // A hand of more than GO_DOWN_LIMIT go-downs whose best ones all leave
            // no card to discard (L-5.5): the mask's `go_down` saw a legal one past them.
            found = self.legal_go_downs(seat, 1 << 16);
            found.truncate(GO_DOWN_LIMIT);
        }
        found.iter().map(|gd| canonical_groups(&gd.melds)).collect()
    }

    /// The legal go-downs of `seat` as the search gives them (best first, the
    /// `limit` best searched; `legal_actions` searches [`GO_DOWN_LIMIT`]).
    fn legal_go_downs(&self, seat: usize, limit: usize) -> Vec<GoDown> {
        if self.phase != Phase::Play || self.to_act() != Some(seat) || self.seats[seat].down {
            return Vec::new();
        }
        let hand = self.seats[seat].hand;
        let contract = self.contract();
        if hand.total() < self.rules.min_cards(&contract) {
            return Vec::new();
        }
        let mut found = all_go_downs(&hand, &contract, &self.rules, limit);
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

    /// Has `seat` a legal go-down now? Stops at the first one found.
    fn has_go_down(&self, seat: usize) -> bool {
        if !self.may_go_down(seat) {
            return false;
        }
        let (hand, contract) = (self.seats[seat].hand, self.contract());
        crate::search::count::any_go_down(&hand, &contract, &self.rules, GO_DOWN_LIMIT, |left| {
            self.go_down_leaves(seat, contract.whole_hand, left)
        })
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

    /// The legal joker swaps of `seat`, sorted (a wild card placed on a run with an end).
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
                    for &end in ends_for(Card::JOKER, &target.meld, &self.rules) {
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

    /// Visit the single-card lay-offs (a wild card on a run at either end) and the
    /// discards of `seat` in play.
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
                    for &end in ends_for(card, &target.meld, &self.rules) {
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
