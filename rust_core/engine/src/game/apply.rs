//! Carrying an action out: `apply` validates it into a plan (`plan.rs`) and only
//! then mutates, with code that cannot fail, so a refused action leaves the state
//! exactly as it was (but for W-9's charged go-down attempt). Also the turn's end,
//! the stock draw when a window closes, and the deal of a new round.

use super::action::{Action, Event, EventKind, RoundEnd, RoundEndReason};
use super::phase::{BuyWindow, CallKind, Phase};
use super::plan::{Grown, Plan};
use super::state::{GameState, SeatState, TableMeld};
use crate::card::{Card, CardCounts};
use crate::deal::{shuffled_deck_with, Dealt};
use crate::error::{Error, ErrorCode, Result};
use crate::msg;
use crate::rules::BuyingRule;

/// What carrying out an action returns: the whole [`Event`] (`apply`), or only the
/// round end it caused (`apply_for_round_end`: the simulator reads nothing else, so
/// no event is built, copied or dropped, and no card list allocated).
pub(crate) trait Outcome: Sized {
    /// Does the outcome show the event's card lists (a go-down's melds, the cards
    /// laid off)?
    const FULL: bool;
    /// `then`: what the action set off (a closing window's stock draw). The round
    /// end comes boxed: it is large and rare, so `execute` passes one word around.
    fn new(
        seat: usize,
        kind: EventKind,
        recycled: Option<usize>,
        round_end: Option<Box<RoundEnd>>,
        floating: bool,
        then: Option<Self>,
    ) -> Self;
    fn has_round_end(&self) -> bool;
    /// The round end, moved out (the outcome of a stock draw that `then` holds: the
    /// action that set it off reports it).
    fn take_round_end(&mut self) -> Option<Box<RoundEnd>>;
}

impl Outcome for Event {
    const FULL: bool = true;
    #[inline(always)]
    fn new(
        seat: usize,
        kind: EventKind,
        recycled: Option<usize>,
        round_end: Option<Box<RoundEnd>>,
        floating: bool,
        then: Option<Event>,
    ) -> Event {
        let mut event = Event {
            seat,
            kind,
            recycled,
            round_end: None,
            floating,
            then: then.map(Box::new),
        };
        // A `RoundEnd` is large: it is moved only when there is one, not copied as a
        // `None` on every action.
        if let Some(end) = round_end {
            event.round_end = Some(*end);
        }
        event
    }
    fn has_round_end(&self) -> bool {
        self.round_end.is_some()
    }
    fn take_round_end(&mut self) -> Option<Box<RoundEnd>> {
        self.round_end.take().map(Box::new)
    }
}

/// The round end an action caused, if any, and nothing else (boxed, as `execute`
/// keeps it).
pub(crate) struct RoundEndOnly(pub Option<Box<RoundEnd>>);

impl Outcome for RoundEndOnly {
    const FULL: bool = false;
    #[inline(always)]
    fn new(
        _seat: usize,
        _kind: EventKind,
        _recycled: Option<usize>,
        round_end: Option<Box<RoundEnd>>,
        _floating: bool,
        _then: Option<RoundEndOnly>,
    ) -> RoundEndOnly {
        // `execute` has already moved a round end set off by `then` into `round_end`.
        RoundEndOnly(round_end)
    }
    fn has_round_end(&self) -> bool {
        self.0.is_some()
    }
    fn take_round_end(&mut self) -> Option<Box<RoundEnd>> {
        self.0.take()
    }
}

/// A new table meld's cards, with room for a few lay-offs (L-5.3) so that they grow
/// it without moving it.
fn with_room_to_grow(cards: &[Card]) -> Vec<Card> {
    let mut room = Vec::with_capacity(cards.len() + 4);
    room.extend_from_slice(cards);
    room
}

impl GameState {
    /// Apply `action` by `seat`. Validated completely before anything changes: on
    /// error the state is exactly as before — with one rule-made exception: under
    /// W-9 (`RuleSet::failed_go_down_penalty`) a refused go-down attempt of the
    /// active player adds the penalty to that player's round score (and is kept in
    /// the history, so that `replay` charges it again); the error's message says so.
    pub fn apply(&mut self, seat: usize, action: &Action) -> Result<Event> {
        self.apply_keeping::<Event>(seat, action, true)
    }

    /// [`Self::apply`] for a caller that reads only the round end (`sim::play_game`):
    /// the same state change and the same errors, but the event's `then` is left out,
    /// so the stock draw a closing window sets off is not boxed. `record_history`:
    /// false when no one will read this state's history (a simulated game whose bots
    /// never look at it): the action is then not appended, so `history()` stays as
    /// it was, while everything else changes exactly as under `apply`.
    pub(crate) fn apply_for_round_end(
        &mut self,
        seat: usize,
        action: &Action,
        record_history: bool,
    ) -> Result<Option<Box<RoundEnd>>> {
        self.apply_keeping::<RoundEndOnly>(seat, action, record_history)
            .map(|outcome| outcome.0)
    }

    #[inline(always)]
    fn apply_keeping<O: Outcome>(&mut self, seat: usize, action: &Action, record: bool) -> Result<O> {
        let plan = match self.usual_plan(seat, action) {
            Some(plan) => Ok(plan),
            None => self.plan(seat, action),
        };
        match plan {
            Ok(plan) => {
                if record {
                    self.history.push(seat as u8, action);
                }
                if self.selection.is_some() {
                    self.selection = None; // a move made: any half-chosen one is dropped
                }
                Ok(self.execute::<O>(seat as u8, plan))
            }
            Err(e) => Err(self.charge_failed_go_down(seat, action, e, record)),
        }
    }

    /// W-9: whether a refusal of `action` by `seat` is a failed go-down attempt that
    /// costs the penalty: the active player, in play, not yet down, holding every
    /// card named, whose melds are not a legal go-down.
    pub fn is_failed_go_down(&self, seat: usize, action: &Action, error: &Error) -> bool {
        matches!(action, Action::GoDown { .. })
            && self.rules.failed_go_down_penalty > 0
            && seat == self.active()
            && self.phase == Phase::Play
            && !self.seats[seat].down
            && matches!(
                error.code,
                ErrorCode::InvalidMeld
                    | ErrorCode::ContractNotMet
                    | ErrorCode::MeldSize
                    | ErrorCode::AdjacentRuns
                    | ErrorCode::WholeHandRequired
                    | ErrorCode::MustKeepDiscard
            )
    }

    fn charge_failed_go_down(&mut self, seat: usize, action: &Action, e: Error, record: bool) -> Error {
        if seat >= self.players() || !self.is_failed_go_down(seat, action, &e) {
            return e;
        }
        let points = self.rules.failed_go_down_penalty;
        self.seats[seat].penalty = self.seats[seat].penalty.saturating_add(i32::from(points));
        if record {
            self.history.push(seat as u8, action);
        }
        let reason = e.to_message();
        e.reworded(msg!(
            "go_down.failed_penalty",
            reason = reason,
            points = points,
            seat = seat
        ))
    }

    // ----- carrying a plan out (never fails) ---------------------------------

    // Inlined into `apply`, its only caller, so the event is built where `apply`
    // returns it instead of being copied there (it holds a whole `RoundEnd`).
    /// `O`: the whole event (`apply`), or only the round end (the simulator's
    /// `apply_for_round_end`, which builds no event and no card lists).
    #[inline(always)]
    fn execute<O: Outcome>(&mut self, seat: u8, plan: Plan<'_>) -> O {
        let mut recycled = None;
        let mut round_end = None;
        let mut floating = false;
        let mut then: Option<O> = None;
        let s = seat as usize;
        let kind = match plan {
            Plan::Cut(dealt, rng) => {
                self.rng = rng;
                self.deal(*dealt)
            }
            Plan::TakeDiscard => {
                let card = self.discard.pop().expect("checked: pile not empty");
                self.seats[s].hand.0[card.id() as usize] += 1;
                // W-8: remembered only where it may not be discarded (a loaded position
                // refuses it elsewhere, so positions round-trip).
                self.taken_discard = self.rules.no_discard_of_taken_card.then_some(card);
                self.phase = Phase::Play;
                EventKind::TookDiscard { card }
            }
            Plan::Decline { draw_after } => {
                let card = self.discard_top();
                self.window_changed(
                    BuyWindow {
                        last_buyer: None,
                        passed: 0,
                        draw_after,
                    },
                    &mut then,
                );
                EventKind::DeclinedDiscard {
                    card,
                    window_open: matches!(self.phase, Phase::Buying(_)),
                    draw_after,
                }
            }
            Plan::Buy => {
                let Phase::Buying(w) = self.phase else {
                    unreachable!("checked: a buy happens in an open window")
                };
                let card = self.discard.pop().expect("checked: pile not empty");
                self.seats[s].hand.0[card.id() as usize] += 1;
                let (penalty, r) = self.draw_from_stock();
                recycled = r;
                let penalty = penalty.expect("checked: a penalty card is available");
                self.seats[s].hand.0[penalty.id() as usize] += 1;
                self.seats[s].buys = self.seats[s].buys.saturating_add(1);
                if self.rules.buying == BuyingRule::Single {
                    // C-5 / W-6: one buy closes the window.
                    then = self.close_window(w.draw_after);
                } else {
                    self.window_changed(
                        BuyWindow {
                            last_buyer: Some(seat),
                            passed: 0,
                            draw_after: w.draw_after,
                        },
                        &mut then,
                    );
                }
                EventKind::Bought { card, penalty }
            }
            Plan::Pass => {
                let Phase::Buying(mut w) = self.phase else {
                    unreachable!("checked: a pass happens in an open window")
                };
                w.passed |= 1 << seat;
                self.window_changed(w, &mut then);
                EventKind::Passed { call: None }
            }
            Plan::DrawStock => {
                let drawn: Event = self.draw_for_active();
                recycled = drawn.recycled;
                if let Some(end) = drawn.round_end {
                    round_end = Some(Box::new(end));
                }
                drawn.kind
            }
            Plan::PassCall => {
                let Phase::Calling(mut w) = self.phase else {
                    unreachable!("checked: a call pass happens in a call offer")
                };
                w.passed |= 1 << seat;
                self.phase = if self.next_call_asked(&w).is_some() {
                    Phase::Calling(w)
                } else {
                    // W-7 (Decision): rummy is offered before Liverpool.
                    let next = match w.kind {
                        CallKind::Rummy => self.liverpool_offer(w.discarder),
                        CallKind::Liverpool => None,
                    };
                    next.map_or(Phase::Draw { declined: false }, Phase::Calling)
                };
                EventKind::Passed { call: Some(w.kind) }
            }
            Plan::CallRummy => {
                let Phase::Calling(w) = self.phase else {
                    unreachable!("checked: a call happens in a call offer")
                };
                // W-7.1: the offender takes the discard back plus a penalty card; play
                // goes on with the next player.
                let offender = w.discarder as usize;
                let card = self.discard.pop().expect("a call offer has a discard");
                self.seats[offender].hand.0[card.id() as usize] += 1;
                let (penalty, r) = self.draw_from_stock();
                recycled = r;
                let penalty = penalty.expect("checked: the offer needs a penalty card");
                self.seats[offender].hand.0[penalty.id() as usize] += 1;
                self.phase = Phase::Draw { declined: false };
                EventKind::CalledRummy {
                    discarder: offender,
                    card,
                    penalty,
                }
            }
            Plan::CallLiverpool { meld, grown } => {
                // W-7.2: the caller takes the card and lays it off at once, then discards.
                let card = self.discard.pop().expect("a call offer has a discard");
                self.table[meld].meld = grown;
                self.phase = Phase::CallDiscard { caller: seat };
                EventKind::CalledLiverpool { card, meld }
            }
            Plan::GoDown {
                groups,
                shapes,
                ends_round,
                floats,
            } => {
                let first = self.table.len();
                let count = groups.len();
                // Checked: the hand holds every card (the plan carries no counts, to
                // stay small).
                groups
                    .iter()
                    .flatten()
                    .for_each(|c| self.seats[s].hand.0[c.id() as usize] -= 1);
                self.table
                    .extend(groups.iter().zip(shapes.shapes()).map(|(cards, shape)| TableMeld {
                        owner: s,
                        meld: shape.with_cards(with_room_to_grow(cards)),
                    }));
                self.seats[s].down = true;
                self.down_this_turn = true;
                if ends_round {
                    round_end = Some(Box::new(self.end_round(Some(seat), RoundEndReason::WholeHand)));
                } else if floats {
                    floating = true;
                    round_end = self.end_turn();
                }
                EventKind::WentDown {
                    // The simulator's path reads no event: no list built.
                    melds: if O::FULL {
                        (first..first + count).collect()
                    } else {
                        Vec::new()
                    },
                }
            }
            Plan::LayOff {
                meld,
                cards,
                grown,
                floats,
            } => {
                cards.iter().for_each(|c| self.seats[s].hand.0[c.id() as usize] -= 1);
                match grown {
                    Grown::One(one) => self.table[meld].meld.grow(&one),
                    Grown::Built(grown) => self.table[meld].meld = grown,
                }
                if floats {
                    floating = true;
                    round_end = self.end_turn();
                }
                // The cards in id order, as `CardCounts::to_cards` lists them,
                // without walking every card kind (none for the simulator's path).
                let laid = if O::FULL {
                    let mut laid = cards.to_vec();
                    laid.sort_unstable();
                    debug_assert_eq!(laid, CardCounts::from_cards(cards).to_cards());
                    laid
                } else {
                    Vec::new()
                };
                EventKind::LaidOff { meld, cards: laid }
            }
            Plan::Swap {
                meld,
                card,
                to_meld,
                melds,
                floats,
            } => {
                let (swapped, grown) = *melds;
                self.seats[s].hand.0[card.id() as usize] -= 1;
                self.table[meld].meld = swapped;
                self.table[to_meld].meld = grown;
                if floats {
                    floating = true;
                    round_end = self.end_turn();
                }
                EventKind::SwappedJoker { meld, card, to_meld }
            }
            Plan::Discard(card) => {
                self.seats[s].hand.0[card.id() as usize] -= 1;
                self.discard.push(card);
                // No count left (cheaper than summing them).
                let went_out = self.seats[s].hand.0.iter().all(|&n| n == 0);
                let liverpool_discard = matches!(self.phase, Phase::CallDiscard { .. });
                if went_out {
                    if !liverpool_discard {
                        self.turn += 1;
                    }
                    round_end = Some(Box::new(self.end_round(Some(seat), RoundEndReason::WentOut)));
                } else if liverpool_discard {
                    // W-7.2: rotation resumes with the player after the original discarder.
                    self.phase = Phase::Draw { declined: false };
                } else {
                    round_end = self.end_turn();
                }
                // W-7: a discard that fits a table meld is offered to the calls (checked
                // here first: most rule sets have none, and the offer is out of line).
                let calls = if round_end.is_none() && self.has_calls() {
                    self.call_offer(seat).inspect(|w| self.phase = Phase::Calling(*w))
                } else {
                    None
                };
                EventKind::Discarded {
                    card,
                    went_out,
                    calls: calls.map(|w| w.kind),
                }
            }
            Plan::NextRound => {
                self.start_round(self.round + 1, (self.dealer + 1) % self.players);
                EventKind::RoundStarted {
                    round: self.round,
                    dealer: self.dealer(),
                }
            }
        };
        // The outer event reports any round end the action caused, also one caused
        // by the stock draw that followed it (L-9.2).
        if round_end.is_none() {
            if let Some(t) = then.as_mut().filter(|t| t.has_round_end()) {
                round_end = t.take_round_end();
            }
        }
        O::new(s, kind, recycled, round_end, floating, then)
    }

    /// The turn of the active player ends (a discard, or W-8 floating): the next seat
    /// is to draw, or the round ends at the turn cap (L-9.3). Boxed, as `execute`
    /// keeps a round end.
    fn end_turn(&mut self) -> Option<Box<RoundEnd>> {
        self.turn += 1;
        if self.turn >= self.rules.max_turns_per_round {
            return Some(Box::new(self.end_round(None, RoundEndReason::TurnLimit)));
        }
        self.active = (self.active + 1) % self.players;
        self.phase = Phase::Draw { declined: false };
        self.down_this_turn = false;
        self.taken_discard = None;
        None
    }

    /// The window changed: it stays open while someone is left to ask, else it
    /// closes (see [`Self::close_window`]) and `then` gets the stock draw it set off,
    /// if any. Inlined: after most passes the window stays open, and that case is a
    /// few instructions (no event is moved).
    #[inline(always)]
    fn window_changed<O: Outcome>(&mut self, w: BuyWindow, then: &mut Option<O>) {
        if self.rules.buying != BuyingRule::Off && self.next_asked(&w).is_some() {
            self.phase = Phase::Buying(w);
        } else {
            *then = self.close_window(w.draw_after);
        }
    }

    /// The buying window closes: the active player is to draw from the stock, or,
    /// when it already asked to (L-5.1 Decision), gets the stock card now: the
    /// returned event.
    #[inline(never)]
    fn close_window<O: Outcome>(&mut self, draw_after: bool) -> Option<O> {
        self.phase = Phase::Draw { declined: true };
        draw_after.then(|| self.draw_for_active())
    }

    /// L-5.1 / L-6.5: the active player draws the top card of the stock (recycling
    /// the pile if needed, L-9.1); with no stock to form, the round ends (L-9.2).
    fn draw_for_active<O: Outcome>(&mut self) -> O {
        let s = self.active as usize;
        let (card, recycled) = self.draw_from_stock();
        let round_end = match card {
            Some(c) => {
                self.seats[s].hand.0[c.id() as usize] += 1;
                self.phase = Phase::Play;
                None
            }
            None => Some(Box::new(self.end_round(None, RoundEndReason::StockExhausted))),
        };
        O::new(s, EventKind::DrewStock { card }, recycled, round_end, false, None)
    }

    /// Draw the top card of the stock; if the stock is empty, first shuffle the
    /// discard pile except its top card into a new stock (L-9.1). `None` when no
    /// stock can be formed. Also returns how many cards were recycled.
    fn draw_from_stock(&mut self) -> (Option<Card>, Option<usize>) {
        let mut recycled = None;
        if self.stock.is_empty() && self.discard.len() >= 2 {
            let top = self.discard.pop().expect("len >= 2");
            std::mem::swap(&mut self.stock, &mut self.discard);
            self.rng.shuffle(&mut self.stock);
            self.discard.push(top);
            recycled = Some(self.stock.len());
        }
        (self.stock.pop(), recycled)
    }

    /// L-2.2 … L-2.7: carry out the cut and the deal computed by `deal::deal_round`.
    fn deal(&mut self, dealt: Dealt) -> EventKind {
        self.cut_bonus = dealt.cut_bonus.then_some(dealt.cutter);
        for (seat, hand) in self.seats.iter_mut().zip(&dealt.hands) {
            hand.iter().for_each(|c| seat.hand.0[c.id() as usize] += 1);
        }
        self.stock = dealt.stock.iter().rev().copied().collect(); // top last
        self.discard.push(dealt.up_card);
        self.active = (self.dealer + 1) % self.players;
        self.phase = Phase::Draw { declined: false };
        EventKind::Dealt {
            cutter: dealt.cutter as usize,
            size: dealt.cut,
            cut_bonus: dealt.cut_bonus,
            up_card: dealt.up_card,
        }
    }

    /// Start round `round` with `dealer`: a fresh deck shuffled by the game's RNG,
    /// waiting for the cut.
    fn start_round(&mut self, round: u8, dealer: u8) {
        self.round = round;
        self.dealer = dealer;
        self.active = (dealer + 1) % self.players;
        for seat in &mut self.seats {
            *seat = SeatState::new(seat.total);
        }
        self.stock = shuffled_deck_with(&mut self.rng, &self.rules, self.players);
        self.discard.clear();
        self.table.clear();
        self.down_this_turn = false;
        self.taken_discard = None;
        self.cut_bonus = None;
        self.turn = 0;
        self.went_out = None;
        self.phase = Phase::Cut;
    }
}
