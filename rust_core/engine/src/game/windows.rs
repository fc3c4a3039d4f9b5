//! The buying window (L-6, W-6) and the calls of profile W (W-7): who is asked
//! next, who may answer, why a seat may not buy, and which call a discard offers.

use super::phase::{BuyWindow, CallKind, CallWindow};
use super::state::{GameState, MAX_SEATS};
use crate::card::Card;
use crate::error::{Error, ErrorCode, Message};
use crate::msg;
use crate::rules::{BuyPriority, BuyingRule};

/// A short list of seats in asking order, without allocation (`to_act` builds one
/// on every query).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SeatOrder {
    seats: [u8; MAX_SEATS],
    len: u8,
}

impl SeatOrder {
    fn push(&mut self, seat: u8) {
        self.seats[self.len as usize] = seat;
        self.len += 1;
    }
    fn contains(&self, seat: u8) -> bool {
        self.seats[..self.len as usize].contains(&seat)
    }
    pub(crate) fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.seats[..self.len as usize].iter().copied()
    }
}

impl GameState {
    // ----- the buying window -------------------------------------------------

    /// Seats in the order they are asked about the current top discard, never the
    /// active player: L-6.3 / W-6, clockwise from the active player's left; under the
    /// W-6 "Yo" variation (`BuyPriority::FirstCaller`) the rule set's `call_order`
    /// first, then the others clockwise.
    fn priority_order(&self) -> SeatOrder {
        let mut order = SeatOrder::default();
        if self.rules.buy_priority == BuyPriority::FirstCaller {
            for &s in &self.rules.call_order {
                if s < self.players && s != self.active {
                    order.push(s);
                }
            }
        }
        for k in 1..self.players {
            let s = (self.active + k) % self.players;
            if !order.contains(s) {
                order.push(s);
            }
        }
        order
    }

    /// L-6.6 / L-9.1: a penalty card can be drawn after the buyer takes the top
    /// discard: from the stock, or from a new stock formed from the rest of the pile
    /// (all but the new top card).
    pub(super) fn penalty_available(&self) -> bool {
        !self.stock.is_empty() || self.discard.len() >= 3
    }

    /// Whether `seat` is still to answer in window `w`: not the active player, not the
    /// previous buyer (L-6.4), not a seat that passed, and able to buy the top discard
    /// (C-5 limit, L-6.6 penalty card). A seat that could not buy is not asked. Cheap:
    /// `to_act` calls it on every query, so no error message is built here.
    #[inline]
    fn in_window(&self, seat: u8, w: &BuyWindow) -> bool {
        self.seat_may_answer(seat, w) && !self.discard.is_empty() && self.penalty_available()
    }

    /// [`Self::in_window`] without the checks that do not depend on the seat (a card
    /// to buy, a penalty card to draw).
    #[inline]
    fn seat_may_answer(&self, seat: u8, w: &BuyWindow) -> bool {
        seat != self.active
            && w.last_buyer != Some(seat)
            && w.passed >> seat & 1 == 0
            && self
                .rules
                .buy_limit_per_round
                .is_none_or(|limit| self.seats[seat as usize].buys < limit)
    }

    /// Why `seat` may not buy the current top discard in window `w` (None: it may, if
    /// it is its turn to answer, L-6.3).
    pub(super) fn buy_refusal(&self, seat: u8, w: &BuyWindow) -> Option<Error> {
        let no = |rule: &'static str, msg: Message| Some(Error::refused(ErrorCode::BuyNotAllowed, rule, msg));
        let cite = |l, c, w| self.rules.cite(l, c, w);
        let refusal = if seat == self.active {
            no(
                cite("L-6.2", "C-5", "W-6"),
                msg!("buy.active_player_takes_or_draws", seat = seat),
            )
        } else if w.last_buyer == Some(seat) {
            no("L-6.4", msg!("buy.bought_previous", seat = seat))
        } else if w.passed >> seat & 1 == 1 {
            no(cite("L-6.3", "L-6.3", "W-6"), msg!("buy.already_passed", seat = seat))
        } else if self
            .rules
            .buy_limit_per_round
            .is_some_and(|limit| self.seats[seat as usize].buys >= limit)
        {
            let limit = self.rules.buy_limit_per_round.unwrap_or(0);
            no("C-5", msg!("buy.limit_reached", seat = seat, limit = limit))
        } else if self.discard.is_empty() {
            no(cite("L-6.4", "C-5", "W-6"), msg!("discard.pile_empty"))
        } else if !self.penalty_available() {
            no("L-6.6", msg!("buy.no_penalty_card"))
        } else {
            None
        };
        debug_assert_eq!(
            refusal.is_none(),
            self.in_window(seat, w),
            "in_window and buy_refusal disagree"
        );
        refusal
    }

    /// The next seat asked in the window (L-6.3, skipping the previous buyer, L-6.4,
    /// and seats that cannot buy); `None` when nobody is left (the window closes).
    #[inline]
    pub(crate) fn next_asked(&self, w: &BuyWindow) -> Option<usize> {
        if self.discard.is_empty() || !self.penalty_available() {
            return None;
        }
        let may_answer = self.answering_seats(w);
        // `to_act` asks this on every query (three times per pass): the usual
        // clockwise order is the lowest answering seat after the active player's,
        // else the lowest one before it.
        let found = match self.rules.buy_priority {
            BuyPriority::Nearest => {
                let after_active = may_answer & !(((2u32 << self.active) - 1) as u16);
                let pick = if after_active != 0 { after_active } else { may_answer };
                (pick != 0).then(|| pick.trailing_zeros() as usize)
            }
            BuyPriority::FirstCaller => self.first_caller_asked(may_answer),
        };
        debug_assert_eq!(found, self.next_asked_one_by_one(w), "L-6.3: the asking order");
        found
    }

    /// W-6 "Yo": the first seat of [`Self::priority_order`] among `may_answer` (bits).
    /// Out of line, so that the usual clockwise case stays small enough to inline.
    #[inline(never)]
    fn first_caller_asked(&self, may_answer: u16) -> Option<usize> {
        self.priority_order()
            .iter()
            .find(|&s| may_answer >> s & 1 == 1)
            .map(usize::from)
    }

    /// [`Self::seat_may_answer`] for every seat at once, as bits (bit `s` = seat `s`).
    #[inline]
    fn answering_seats(&self, w: &BuyWindow) -> u16 {
        let seat_bit = |s: u8| 1u16.checked_shl(u32::from(s)).unwrap_or(0);
        let mut bits = (((1u32 << self.players) - 1) as u16) & !w.passed & !seat_bit(self.active);
        if let Some(buyer) = w.last_buyer {
            bits &= !seat_bit(buyer);
        }
        if let Some(limit) = self.rules.buy_limit_per_round {
            for (s, seat) in self.seats.iter().enumerate() {
                if seat.buys >= limit {
                    bits &= !seat_bit(s as u8);
                }
            }
        }
        bits
    }

    /// [`Self::next_asked`] seat by seat, without the bit arithmetic: the reference
    /// the fast version is checked against in debug builds.
    fn next_asked_one_by_one(&self, w: &BuyWindow) -> Option<usize> {
        if self.discard.is_empty() || !self.penalty_available() {
            return None;
        }
        let found = match self.rules.buy_priority {
            BuyPriority::Nearest => (self.active + 1..self.players)
                .chain(0..self.active)
                .find(|&s| self.seat_may_answer(s, w)),
            BuyPriority::FirstCaller => self.priority_order().iter().find(|&s| self.seat_may_answer(s, w)),
        };
        found.map(usize::from)
    }

    /// Could any seat buy the top discard if the active player declined it now?
    pub(crate) fn someone_could_buy(&self) -> bool {
        self.rules.buying != BuyingRule::Off && self.next_asked(&BuyWindow::default()).is_some()
    }

    // ----- the calls of profile W (W-7) ---------------------------------------

    /// Seats in the order a call on the top discard is offered: nearest clockwise to
    /// the player about to draw (the active player) first, never the discarder.
    fn call_order(&self, discarder: u8) -> SeatOrder {
        let mut order = SeatOrder::default();
        for k in 0..self.players {
            let s = (self.active + k) % self.players;
            if s != discarder {
                order.push(s);
            }
        }
        order
    }

    /// Whether `seat` is still to answer the call offer `w`: any seat but the
    /// discarder for "rummy" (W-7.1), a seat that is down and holds a card to discard
    /// afterwards for "Liverpool" (W-7.2); not a seat that passed.
    #[inline]
    pub(super) fn in_call(&self, seat: u8, w: &CallWindow) -> bool {
        seat != w.discarder
            && w.passed >> seat & 1 == 0
            && match w.kind {
                CallKind::Rummy => true,
                CallKind::Liverpool => self.seats[seat as usize].down && self.seats[seat as usize].hand.total() > 0,
            }
    }

    /// The next seat asked about the call offer `w`; `None` when everyone has answered.
    pub(crate) fn next_call_asked(&self, w: &CallWindow) -> Option<usize> {
        self.call_order(w.discarder)
            .iter()
            .find(|&s| self.in_call(s, w))
            .map(usize::from)
    }

    /// Does `card` fit some meld on the table (W-7: the discard "could be laid off")?
    pub(super) fn fits_table(&self, card: Card) -> bool {
        self.table
            .iter()
            .any(|m| m.meld.can_lay_off(&[card], None, &self.rules))
    }

    /// W-7: the call offer that follows `discarder`'s discard (which did not take
    /// them out), if any: "rummy" first when the discarder is down and a penalty card
    /// can be drawn, else "Liverpool" when some other seat is down; only when the
    /// discard fits a table meld.
    pub(super) fn call_offer(&self, discarder: u8) -> Option<CallWindow> {
        if !self.rules.rummy_call && !self.rules.liverpool_call {
            return None;
        }
        let top = self.discard_top()?;
        if !self.fits_table(top) {
            return None;
        }
        let rummy = CallWindow {
            kind: CallKind::Rummy,
            discarder,
            passed: 0,
        };
        if self.rules.rummy_call
            && self.seats[discarder as usize].down
            && self.penalty_available()
            && self.next_call_asked(&rummy).is_some()
        {
            return Some(rummy);
        }
        self.liverpool_offer(discarder)
    }

    /// W-7.2: the Liverpool offer on `discarder`'s discard, if some seat may call it.
    pub(super) fn liverpool_offer(&self, discarder: u8) -> Option<CallWindow> {
        let w = CallWindow {
            kind: CallKind::Liverpool,
            discarder,
            passed: 0,
        };
        (self.rules.liverpool_call && self.next_call_asked(&w).is_some()).then_some(w)
    }
}
