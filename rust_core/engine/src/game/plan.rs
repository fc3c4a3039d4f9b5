//! Validating an action: `check` / `can`, and `plan`, which decides whether `seat`
//! may do an action now and, if so, turns it into a `Plan` that `apply.rs` carries
//! out without further failure. Nothing here changes the state.

use super::action::Action;
use super::phase::{call_name, BuyWindow, CallKind, CallWindow, Phase};
use super::state::GameState;
use crate::card::{Card, CardCounts, CARD_KINDS};
use crate::deal::{bad_cut, deal_round, draw_cut, Dealt};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::meld::{go_down_shapes, End, GoDownShapes, Meld, OneCardLayOff};
use crate::msg;
use crate::rng::Rng;
use crate::rules::{BuyPriority, BuyingRule, JokerSwapRule};

/// A validated action, ready to be carried out without further failure. It may
/// borrow the action's cards (a go-down's melds are built only when it is carried out).
pub(super) enum Plan<'a> {
    /// The deal, and the RNG after drawing the cut size (when the cutter named none).
    Cut(Box<Dealt>, Rng),
    TakeDiscard,
    /// Decline the top discard; `draw_after`: it was a `draw_stock` (L-5.1 Decision).
    Decline {
        draw_after: bool,
    },
    Buy,
    Pass,
    /// A draw from the stock with no discard on offer (or after the window closed).
    DrawStock,
    PassCall,
    CallRummy,
    CallLiverpool {
        meld: usize,
        grown: Meld,
    },
    /// `floats`: the go-down, lay-off or swap empties the hand (W-8).
    GoDown {
        groups: &'a [Vec<Card>],
        shapes: GoDownShapes,
        ends_round: bool,
        floats: bool,
    },
    LayOff {
        meld: usize,
        cards: &'a [Card],
        grown: Grown,
        floats: bool,
    },
    /// `melds`: the source meld with `card` in the joker's place, and the target
    /// meld with the joker (boxed: swaps are rare, and a small plan moves cheaply).
    Swap {
        meld: usize,
        card: Card,
        to_meld: usize,
        melds: Box<(Meld, Meld)>,
        floats: bool,
    },
    Discard(Card),
    NextRound,
}

/// A table meld after a lay-off: one card's place and the new shape (the meld grows
/// in place when the lay-off is carried out), or the grown meld built in full.
pub(super) enum Grown {
    One(OneCardLayOff),
    Built(Meld),
}

/// A refusal (cold: the checks' usual path is the one that passes).
#[cold]
fn refuse<T>(code: ErrorCode, rule: &'static str, msg: Message) -> Result<T> {
    Err(Error::refused(code, rule, msg))
}

/// Counts of a card list without overflow; `None` if some card appears more than 255 times.
fn counts_of(cards: impl IntoIterator<Item = Card>) -> Option<CardCounts> {
    let mut wide = [0u32; CARD_KINDS];
    for c in cards {
        wide[c.id() as usize] += 1;
    }
    let mut out = CardCounts::default();
    for (o, w) in out.0.iter_mut().zip(wide) {
        *o = u8::try_from(w).ok()?;
    }
    Some(out)
}

impl GameState {
    // ----- check and apply ---------------------------------------------------

    /// Would `seat` be allowed to do `action` now? The error carries the stable
    /// CONFORMANCE.md code and the rule id that forbids it. Never charges the W-9
    /// penalty of a failed go-down.
    pub fn check(&self, seat: usize, action: &Action) -> Result<()> {
        self.plan(seat, action).map(|_| ())
    }

    /// Is the action legal now? (`check` without the explanation.)
    pub fn can(&self, seat: usize, action: &Action) -> bool {
        self.plan(seat, action).is_ok()
    }

    /// L-6.3: refuse `seat`'s answer in window `w` when another seat answers first.
    /// Under W-6 "Yo" any seat still in the window may answer: the first caller wins.
    fn require_asked(&self, seat: u8, w: &BuyWindow, buying: bool) -> Result<()> {
        if self.rules.buy_priority == BuyPriority::FirstCaller {
            return Ok(());
        }
        match self.next_asked(w) {
            Some(first) if first != seat as usize => refuse(
                ErrorCode::NotYourTurn,
                // C-5's Decision: priority as L-6.3; W-6 states its own.
                self.rules.cite("L-6.3", "L-6.3", "W-6"),
                if buying {
                    msg!("buy.asked_first", first = first, seat = seat)
                } else {
                    msg!("pass.asked_first", first = first, seat = seat)
                },
            ),
            _ => Ok(()),
        }
    }

    /// The plan of the most frequent actions when they are plainly allowed: the pass
    /// of the seat asked in a buying window (L-6.3), the active player's discard of a
    /// card it holds (L-5.5; not W-8's taken card) and its draw from the stock
    /// (L-5.1). `None`: ask [`Self::plan`], which decides everything (and the same
    /// for these).
    #[inline(always)]
    pub(super) fn usual_plan(&self, seat: usize, action: &Action) -> Option<Plan<'static>> {
        let plan = match (action, self.phase) {
            (Action::Pass, Phase::Buying(w)) if self.next_asked(&w) == Some(seat) => Plan::Pass,
            (Action::Discard { card }, Phase::Play)
                if seat == self.active as usize
                    && self.seats[seat].hand.get(*card) > 0
                    && !(self.rules.no_discard_of_taken_card && self.taken_discard == Some(*card)) =>
            {
                Plan::Discard(*card)
            }
            // L-5.1 (Decision): a draw while the discard is on offer declines it first
            // when someone may buy it.
            (Action::DrawStock, Phase::Draw { declined }) if seat == self.active as usize => {
                if !declined && self.someone_could_buy() {
                    Plan::Decline { draw_after: true }
                } else {
                    Plan::DrawStock
                }
            }
            _ => return None,
        };
        debug_assert!(
            match (&plan, self.plan(seat, action)) {
                (Plan::Pass, Ok(Plan::Pass)) | (Plan::DrawStock, Ok(Plan::DrawStock)) => true,
                (Plan::Discard(a), Ok(Plan::Discard(b))) => *a == b,
                (Plan::Decline { draw_after: a }, Ok(Plan::Decline { draw_after: b })) => *a == b,
                _ => false,
            },
            "usual_plan and plan disagree on {action:?}"
        );
        Some(plan)
    }

    pub(super) fn plan<'a>(&self, seat: usize, action: &'a Action) -> Result<Plan<'a>> {
        self.check_seat(seat)?;
        let seat = seat as u8;
        if matches!(self.phase, Phase::RoundOver | Phase::GameOver) {
            self.require_round_going_on(action)?;
        }
        match action {
            Action::Cut { size } => self.plan_cut(seat, *size),
            Action::TakeDiscard => self.plan_take(seat),
            Action::DeclineDiscard => {
                self.require_active(seat)?;
                match self.phase {
                    Phase::Draw { declined: false } => Ok(Plan::Decline { draw_after: false }),
                    Phase::Draw { declined: true } | Phase::Buying(_) => {
                        refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.already_declined"))
                    }
                    _ => Err(self.wrong_phase(msg!("doing.decline_discard"), "L-5.1")),
                }
            }
            Action::Buy => self.plan_buy(seat),
            Action::Pass => self.plan_pass(seat),
            Action::DrawStock => self.plan_draw(seat),
            Action::GoDown { melds } => self.plan_go_down(seat, melds),
            Action::LayOff { meld, cards, end } => self.plan_lay_off(seat, *meld, cards, *end),
            Action::SwapJoker {
                meld,
                card,
                to_meld,
                end,
            } => self.plan_swap(seat, *meld, *card, *to_meld, *end),
            Action::Discard { card } => self.plan_discard(seat, *card),
            Action::NextRound => {
                if self.phase != Phase::RoundOver {
                    return refuse(
                        ErrorCode::WrongPhase,
                        self.rules.cite("L-2.1", "C-2", "L-2.1"),
                        msg!("round.not_over"),
                    );
                }
                let next_dealer = (self.dealer + 1) % self.players;
                if seat != next_dealer {
                    return refuse(
                        ErrorCode::NotYourTurn,
                        self.rules.cite("L-2.1", "C-2", "L-2.1"),
                        msg!("round.next_dealer_starts", seat = next_dealer),
                    );
                }
                Ok(Plan::NextRound)
            }
            Action::CallRummy => self.plan_call_rummy(seat),
            Action::CallLiverpool { meld, end } => self.plan_call_liverpool(seat, *meld, *end),
        }
    }

    /// Does the rule set have either call of W-7?
    pub(super) fn has_calls(&self) -> bool {
        self.rules.rummy_call || self.rules.liverpool_call
    }

    fn plan_take(&self, seat: u8) -> Result<Plan<'static>> {
        self.require_active(seat)?;
        match self.phase {
            Phase::Draw { declined: false } => {}
            Phase::Draw { declined: true } | Phase::Buying(_) => {
                return refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.declined"))
            }
            _ => return Err(self.wrong_phase(msg!("doing.take_discard"), "L-5.1")),
        }
        let Some(top) = self.discard_top() else {
            return refuse(ErrorCode::WrongPhase, "L-5.1", msg!("discard.pile_empty"));
        };
        // W-8: a floating player (no cards) could neither discard the taken card this
        // turn nor, unless it fits a table meld, lay it off: it would have no move.
        let hand = &self.seats[seat as usize].hand;
        if self.rules.no_discard_of_taken_card && hand.total() == 0 && !self.fits_table(top) {
            return refuse(
                ErrorCode::DiscardTakenCard,
                "W-8",
                msg!("take.floating_no_move", seat = seat, card = top),
            );
        }
        Ok(Plan::TakeDiscard)
    }

    fn plan_draw(&self, seat: u8) -> Result<Plan<'static>> {
        match self.phase {
            Phase::Buying(w) => {
                let asked = self.next_asked(&w).unwrap_or(self.active as usize);
                refuse(
                    ErrorCode::NotYourTurn,
                    "L-5.1",
                    if w.draw_after {
                        msg!("draw.window_open_pending", asked = asked, active = self.active)
                    } else {
                        msg!("draw.window_open", asked = asked, active = self.active)
                    },
                )
            }
            _ => {
                self.require_active(seat)?;
                match self.phase {
                    // L-5.1 (Decision): a draw while a discard is on offer declines it;
                    // the buying window runs first when someone may buy.
                    Phase::Draw { declined: false } if self.someone_could_buy() => {
                        Ok(Plan::Decline { draw_after: true })
                    }
                    Phase::Draw { .. } => Ok(Plan::DrawStock),
                    _ => Err(self.wrong_phase(msg!("doing.draw_stock"), "L-5.1")),
                }
            }
        }
    }

    fn plan_pass(&self, seat: u8) -> Result<Plan<'static>> {
        match self.phase {
            Phase::Buying(w) => {
                // The seat asked now may pass (L-6.3); only another seat needs the
                // checks that explain a refusal.
                if self.next_asked(&w) == Some(seat as usize) {
                    debug_assert!(self.buy_refusal(seat, &w).is_none() && self.require_asked(seat, &w, false).is_ok());
                    return Ok(Plan::Pass);
                }
                if let Some(e) = self.buy_refusal(seat, &w) {
                    // The rule that keeps this seat out of the window decides (the
                    // previous buyer: L-6.4; the limit: C-5; …).
                    return refuse(
                        ErrorCode::NotYourTurn,
                        e.rule.unwrap_or("L-6.3"),
                        msg!("pass.not_asked", seat = seat, reason = e.to_message()),
                    );
                }
                self.require_asked(seat, &w, false)?;
                Ok(Plan::Pass)
            }
            Phase::Calling(w) => {
                if !self.in_call(seat, &w) {
                    return refuse(
                        ErrorCode::NotYourTurn,
                        "W-7",
                        msg!("call.not_asked", seat = seat, call = call_name(w.kind)),
                    );
                }
                self.require_call_turn(seat, &w)?;
                Ok(Plan::PassCall)
            }
            _ => refuse(
                ErrorCode::WrongPhase,
                self.rules.cite("L-6", "C-5", "W-6"),
                msg!("pass.no_window"),
            ),
        }
    }

    /// W-7 (Decision): the calls are offered nearest clockwise first; only the seat
    /// asked answers.
    fn require_call_turn(&self, seat: u8, w: &CallWindow) -> Result<()> {
        match self.next_call_asked(w) {
            Some(first) if first != seat as usize => refuse(
                ErrorCode::NotYourTurn,
                "W-7",
                msg!("call.asked_first", first = first, seat = seat, call = call_name(w.kind)),
            ),
            _ => Ok(()),
        }
    }

    /// Why no call can be made now, outside a call offer (W-7).
    fn no_call_now(&self, which: CallKind) -> Error {
        let why = match (self.phase, self.discard_top()) {
            (Phase::Cut, _) => msg!("phase.not_dealt"),
            (Phase::Draw { declined: false }, None) => msg!("call.why_no_discard"),
            (Phase::Draw { declined: false }, Some(top)) if !self.fits_table(top) => {
                msg!("call.why_no_fit", card = top)
            }
            // Nobody was asked when the offer could not be made: say why, never that
            // everyone passed (W-7 details).
            (Phase::Draw { declined: false }, Some(_)) if self.turn == 0 => msg!("call.why_up_card"),
            (Phase::Draw { declined: false }, Some(_))
                if which == CallKind::Rummy && !self.seats[self.previous_seat() as usize].down =>
            {
                msg!("call.discarder_not_down", seat = self.previous_seat())
            }
            (Phase::Draw { declined: false }, Some(_)) if which == CallKind::Rummy && !self.penalty_available() => {
                msg!("call.why_no_penalty_card")
            }
            (Phase::Draw { declined: false }, Some(top)) => msg!("call.why_everyone_passed", card = top),
            _ => msg!("call.why_chance_passed"),
        };
        Error::refused(
            ErrorCode::CallNotAllowed,
            "W-7",
            msg!("call.none_now", call = call_name(which), why = why),
        )
    }

    /// The seat before the active player: the discarder of the top discard, except
    /// after a Liverpool call (W-7.2), whose caller discarded it.
    fn previous_seat(&self) -> u8 {
        (self.active + self.players - 1) % self.players
    }

    fn plan_call_rummy(&self, seat: u8) -> Result<Plan<'static>> {
        if !self.rules.rummy_call {
            return refuse(ErrorCode::NotAllowed, "W-7.1", msg!("call.rummy_not_in_rules"));
        }
        let Phase::Calling(w) = self.phase else {
            return Err(self.no_call_now(CallKind::Rummy));
        };
        let no = |msg: Message| refuse(ErrorCode::CallNotAllowed, "W-7.1", msg);
        if w.kind == CallKind::Liverpool {
            return no(if self.seats[w.discarder as usize].down {
                msg!("call.rummy_passed_before_liverpool")
            } else {
                msg!("call.discarder_not_down", seat = w.discarder)
            });
        }
        if seat == w.discarder {
            return no(msg!("call.own_discard_rummy", seat = seat));
        }
        if w.passed >> seat & 1 == 1 {
            return no(msg!("call.already_passed", seat = seat, call = call_name(w.kind)));
        }
        self.require_call_turn(seat, &w)?;
        Ok(Plan::CallRummy)
    }

    fn plan_call_liverpool(&self, seat: u8, meld: usize, end: Option<End>) -> Result<Plan<'static>> {
        if !self.rules.liverpool_call {
            return refuse(ErrorCode::NotAllowed, "W-7.2", msg!("liverpool_call.not_in_rules"));
        }
        let Phase::Calling(w) = self.phase else {
            return Err(self.no_call_now(CallKind::Liverpool));
        };
        let no = |msg: Message| refuse(ErrorCode::CallNotAllowed, "W-7.2", msg);
        if seat == w.discarder {
            return no(msg!("call.own_discard_liverpool", seat = seat));
        }
        let caller = &self.seats[seat as usize];
        if !caller.down {
            return no(msg!("call.caller_not_down", seat = seat));
        }
        if caller.hand.total() == 0 {
            return no(msg!("call.caller_floating", seat = seat));
        }
        if w.kind == CallKind::Liverpool && w.passed >> seat & 1 == 1 {
            return no(msg!("call.already_passed", seat = seat, call = call_name(w.kind)));
        }
        if w.kind == CallKind::Rummy {
            // The rummy offer comes first; this seat's Liverpool turn comes after it.
            let first = self.next_call_asked(&w).unwrap_or(self.active as usize);
            return refuse(ErrorCode::NotYourTurn, "W-7", msg!("call.rummy_first", first = first));
        }
        self.require_call_turn(seat, &w)?;
        let card = self.discard_top().expect("a call offer has a discard");
        let Some(target) = self.table.get(meld) else {
            return refuse(
                ErrorCode::InvalidLayOff,
                "W-7.2",
                msg!("lay_off.no_such_meld", meld = meld, count = self.table.len()),
            );
        };
        let grown = target.meld.lay_off(&[card], end, &self.rules)?;
        Ok(Plan::CallLiverpool { meld, grown })
    }

    /// After a round (L-5.6) or the game (L-10.3) only `next_round` is left. Out of
    /// line, as are the other refusals below, so that `plan`'s usual path stays
    /// short.
    #[cold]
    #[inline(never)]
    fn require_round_going_on(&self, action: &Action) -> Result<()> {
        match (self.phase, action) {
            (Phase::GameOver, Action::NextRound) => refuse(
                ErrorCode::GameOver,
                self.rules.cite("L-10.3", "C-7", "W-10"),
                msg!("game.over_no_next_round"),
            ),
            (Phase::RoundOver | Phase::GameOver, Action::CallRummy | Action::CallLiverpool { .. })
                if self.has_calls() && self.went_out.is_some() =>
            {
                refuse(ErrorCode::CallNotAllowed, "W-7", msg!("call.after_going_out"))
            }
            (Phase::GameOver, _) => refuse(
                ErrorCode::RoundOver,
                self.rules.cite("L-10.3", "C-7", "W-10"),
                msg!("game.over"),
            ),
            (Phase::RoundOver, a) if *a != Action::NextRound => {
                refuse(ErrorCode::RoundOver, "L-5.6", msg!("round.over_only_next_round"))
            }
            _ => Ok(()),
        }
    }

    #[inline]
    fn require_active(&self, seat: u8) -> Result<()> {
        if seat != self.active {
            return Err(self.not_your_turn(seat));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn not_your_turn(&self, seat: u8) -> Error {
        Error::refused(
            ErrorCode::NotYourTurn,
            "L-1.3",
            msg!("turn.not_your_turn", active = self.active, seat = seat),
        )
    }

    #[cold]
    #[inline(never)]
    fn wrong_phase(&self, what: Message, rule: &'static str) -> Error {
        let now = match self.phase {
            Phase::Cut => msg!("phase.not_dealt"),
            Phase::Draw { declined: false } => msg!("phase.not_drawn"),
            Phase::Draw { declined: true } => msg!("phase.declined_not_drawn"),
            Phase::Buying(_) => msg!("phase.buying_open"),
            Phase::Calling(w) => msg!("phase.calling", call = call_name(w.kind)),
            Phase::CallDiscard { caller } => msg!("phase.call_discard", seat = caller),
            Phase::Play => msg!("phase.already_drawn"),
            Phase::RoundOver | Phase::GameOver => msg!("phase.round_over"),
        };
        Error::refused(ErrorCode::WrongPhase, rule, msg!("phase.wrong", what = what, now = now))
    }

    /// `what` names the refused play; it is built only for a refusal.
    fn require_play(&self, seat: u8, what: impl FnOnce() -> Message, rule: &'static str) -> Result<()> {
        self.require_active(seat)?;
        if self.phase != Phase::Play {
            return Err(self.wrong_phase(what(), rule));
        }
        Ok(())
    }

    /// L-5.5 / L-7.3: after giving up `used`, does the hand still hold a card it may
    /// discard? Under W-8's `no_discard_of_taken_card` a lone copy of the card taken
    /// from the discard pile does not count, so no player is ever left without a
    /// legal move.
    /// `left`: the cards left in hand after giving up `used`.
    fn keeps_a_discard(&self, seat: u8, used: &CardCounts, left: usize) -> bool {
        let hand = &self.seats[seat as usize].hand;
        match (left, self.taken_discard) {
            (0, _) => false,
            (1, Some(taken)) if self.rules.no_discard_of_taken_card => hand.get(taken) - used.get(taken) != 1,
            _ => true,
        }
    }

    /// Whether a play that gives up `used` is allowed by L-5.5 / W-8, and whether it
    /// leaves the player floating: `Some(false)` when a card the player may discard
    /// is left, `Some(true)` when the hand is empty and the rules allow floating
    /// (W-8), `None` when the play must be refused (`must_keep_discard`).
    pub(super) fn after_play(&self, seat: u8, used: &CardCounts) -> Option<bool> {
        let left = self.seats[seat as usize].hand.total() - used.total();
        self.after_play_of(seat, used, left)
    }

    /// [`Self::after_play`] with the cards `left` in hand already counted.
    fn after_play_of(&self, seat: u8, used: &CardCounts, left: usize) -> Option<bool> {
        if left == 0 && self.rules.floating && !self.contract().whole_hand {
            Some(true)
        } else if self.keeps_a_discard(seat, used, left) {
            Some(false)
        } else {
            None
        }
    }

    /// [`Self::after_play`] as a refusal.
    fn require_after_play(&self, seat: u8, used: &CardCounts, rule: &'static str) -> Result<bool> {
        let left = self.seats[seat as usize].hand.total() - used.total();
        self.after_play_of(seat, used, left).ok_or_else(|| {
            let msg = if left > 0 {
                msg!("discard.must_keep_lay_taken_first")
            } else {
                msg!("discard.must_keep")
            };
            Error::refused(ErrorCode::MustKeepDiscard, rule, msg)
        })
    }

    /// The cards of `cards` as counts, if the seat holds them all (counting copies).
    fn require_cards(&self, seat: u8, cards: impl IntoIterator<Item = Card> + Clone) -> Result<CardCounts> {
        let hand = &self.seats[seat as usize].hand;
        // One pass when the seat holds every card (each count stays within the hand's,
        // so it fits a byte); only a refusal takes the slower path below, which names
        // the first card named too often.
        let mut named = CardCounts::default();
        let held = cards.clone().into_iter().all(|c| {
            let n = &mut named.0[c.id() as usize];
            let fits = *n < hand.get(c);
            *n += u8::from(fits);
            fits
        });
        if held {
            return Ok(named);
        }
        self.cards_not_held(seat, cards)
    }

    /// [`Self::require_cards`]'s refusal: the first card named more often than held.
    #[cold]
    #[inline(never)]
    fn cards_not_held(&self, seat: u8, cards: impl IntoIterator<Item = Card> + Clone) -> Result<CardCounts> {
        let hand = &self.seats[seat as usize].hand;
        let named = |c: Card| cards.clone().into_iter().filter(|&x| x == c).count();
        if let Some(c) = cards.clone().into_iter().find(|&c| named(c) > hand.get(c) as usize) {
            let held = hand.get(c);
            let msg = if held == 0 {
                msg!("hand.card_not_held", seat = seat, card = c)
            } else {
                msg!(
                    "hand.card_not_held_times",
                    seat = seat,
                    card = c,
                    times = named(c),
                    held = held
                )
            };
            return Err(Error::with(ErrorCode::CardNotInHand, None, msg));
        }
        Ok(counts_of(cards).expect("each card is held, so counts fit"))
    }

    /// [`Self::require_cards`] for one card, without counting.
    fn require_card(&self, seat: u8, card: Card) -> Result<()> {
        if self.seats[seat as usize].hand.get(card) == 0 {
            self.require_cards(seat, [card])?;
        }
        Ok(())
    }

    fn plan_cut(&self, seat: u8, size: Option<i64>) -> Result<Plan<'static>> {
        if self.phase != Phase::Cut {
            return refuse(
                ErrorCode::WrongPhase,
                self.rules.cite("L-2.2", "C-2", "L-2.2"),
                msg!("cut.already_dealt", round = self.round),
            );
        }
        let cutter = self.cutter();
        if seat as usize != cutter {
            return refuse(
                ErrorCode::NotYourTurn,
                self.rules.cite("L-2.2", "C-2", "L-2.2"),
                msg!("cut.not_the_cutter", cutter = cutter, seat = seat),
            );
        }
        let mut rng = self.rng.clone();
        let size = match size {
            None => draw_cut(&mut rng, self.stock.len(), self.rules.cut_range),
            Some(k) if k >= 1 && (k as u64) < self.stock.len() as u64 => k as usize,
            Some(k) => {
                let e = bad_cut(k, self.stock.len());
                return Err(Error {
                    rule: Some(self.rules.cite("L-2.2", "C-2", "L-2.2")),
                    ..e
                });
            }
        };
        let deck: Vec<Card> = self.stock.iter().rev().copied().collect(); // top first
        let dealt = deal_round(&deck, &self.rules, self.players, self.round, self.dealer, size)?;
        Ok(Plan::Cut(Box::new(dealt), rng))
    }

    fn plan_buy(&self, seat: u8) -> Result<Plan<'static>> {
        let cite = |l, c, w| self.rules.cite(l, c, w);
        if self.rules.buying == BuyingRule::Off {
            return refuse(
                ErrorCode::BuyNotAllowed,
                cite("L-6", "C-8", "W-6"),
                msg!("buy.off_in_rules"),
            );
        }
        if seat == self.active {
            return refuse(
                ErrorCode::BuyNotAllowed,
                cite("L-6.2", "C-5", "W-6"),
                msg!("buy.active_player", seat = seat),
            );
        }
        let w = match self.phase {
            Phase::Buying(w) => w,
            Phase::Draw { declined: true } if !self.discard.is_empty() && !self.penalty_available() => {
                return refuse(ErrorCode::BuyNotAllowed, "L-6.6", msg!("buy.no_penalty_card"))
            }
            Phase::Draw { declined: true } => {
                return refuse(
                    ErrorCode::BuyNotAllowed,
                    cite("L-6.4", "C-5", "W-6"),
                    msg!("buy.window_closed"),
                )
            }
            Phase::Calling(w) => {
                return refuse(
                    ErrorCode::WrongPhase,
                    "W-7",
                    msg!("buy.calls_first", call = call_name(w.kind)),
                )
            }
            _ => {
                return refuse(
                    ErrorCode::WrongPhase,
                    cite("L-6.1", "C-5", "W-6"),
                    msg!("buy.before_decline"),
                )
            }
        };
        // As for a pass: the seat asked now may buy.
        if self.next_asked(&w) == Some(seat as usize) {
            debug_assert!(self.buy_refusal(seat, &w).is_none() && self.require_asked(seat, &w, true).is_ok());
            return Ok(Plan::Buy);
        }
        if let Some(e) = self.buy_refusal(seat, &w) {
            return Err(e);
        }
        self.require_asked(seat, &w, true)?;
        Ok(Plan::Buy)
    }

    fn plan_go_down<'a>(&self, seat: u8, groups: &'a [Vec<Card>]) -> Result<Plan<'a>> {
        self.require_play(seat, || msg!("doing.go_down"), "L-5.2")?;
        if self.seats[seat as usize].down {
            return refuse(
                ErrorCode::AlreadyDown,
                "L-4.6",
                msg!("go_down.already_down", seat = seat),
            );
        }
        if groups.iter().all(|g| g.is_empty()) {
            return refuse(
                ErrorCode::ContractNotMet,
                "L-4.6",
                msg!(
                    "go_down.no_cards",
                    contract = self.rules.contract_message(&self.contract())
                ),
            );
        }
        let used = self.require_cards(seat, groups.iter().flatten().copied())?;
        let contract = self.contract();
        let shapes = go_down_shapes(groups, &contract, &self.rules).map_err(|e| {
            if contract.whole_hand && e.code == ErrorCode::ContractNotMet {
                let reason = e.to_message();
                Error::refused(
                    ErrorCode::WholeHandRequired,
                    self.rules.whole_hand_rule(self.round),
                    reason,
                )
            } else {
                e
            }
        })?;
        let hand = &self.seats[seat as usize].hand;
        let left = hand.total() - used.total();
        if contract.whole_hand && left > 0 {
            return refuse(
                ErrorCode::WholeHandRequired,
                self.rules.whole_hand_rule(self.round),
                if left == 1 {
                    msg!("go_down.whole_hand_one_left")
                } else {
                    msg!("go_down.whole_hand", left = left)
                },
            );
        }
        let floats = if contract.whole_hand {
            false
        } else {
            self.require_after_play(seat, &used, self.rules.cite("L-5.5", "C-6", "L-5.5"))?
        };
        Ok(Plan::GoDown {
            groups,
            shapes,
            ends_round: contract.whole_hand,
            floats,
        })
    }

    /// Shared checks of lay-offs and swaps: phase, round 7, down, and timing (L-5.3, L-7.2, L-8.3).
    fn require_after_go_down(&self, seat: u8, swap: bool, rule: &'static str) -> Result<()> {
        let what = || {
            if swap {
                msg!("doing.joker_swap")
            } else {
                msg!("doing.lay_off")
            }
        };
        self.require_play(seat, what, rule)?;
        if self.contract().whole_hand {
            let round = self.round;
            let msg = if swap {
                msg!("round.no_joker_swap", round = round)
            } else {
                msg!("round.no_lay_off", round = round)
            };
            return refuse(ErrorCode::WrongPhase, self.rules.cite("L-8.3", "C-6", "L-8.3"), msg);
        }
        if !self.seats[seat as usize].down {
            return refuse(ErrorCode::NotDown, rule, msg!("seat.not_down", seat = seat));
        }
        Ok(())
    }

    fn plan_lay_off<'a>(&self, seat: u8, meld: usize, cards: &'a [Card], end: Option<End>) -> Result<Plan<'a>> {
        let timing = self.rules.cite("L-5.3", "C-6", "W-5");
        self.require_after_go_down(seat, false, timing)?;
        if self.down_this_turn && !self.rules.lay_off_on_go_down_turn {
            return refuse(ErrorCode::SameTurnAsGoDown, timing, msg!("lay_off.same_turn"));
        }
        let Some(target) = self.table.get(meld) else {
            return refuse(
                ErrorCode::InvalidLayOff,
                "L-5.3",
                msg!("lay_off.no_such_meld", meld = meld, count = self.table.len()),
            );
        };
        if cards.is_empty() {
            return refuse(ErrorCode::InvalidArgument, "L-5.3", msg!("lay_off.no_cards"));
        }
        let used = self.require_cards(seat, cards.iter().copied())?;
        // One card (the usual lay-off) is judged without building the grown meld.
        let one = match cards {
            [card] => target.meld.judge_lay_off_one(*card, end, &self.rules),
            _ => None,
        };
        let grown = match one {
            Some(one) => {
                debug_assert_eq!(
                    target.meld.lay_off(cards, end, &self.rules).ok(),
                    Some(target.meld.grown_by(&one))
                );
                Grown::One(one)
            }
            None => Grown::Built(target.meld.lay_off(cards, end, &self.rules)?),
        };
        let floats = self.require_after_play(seat, &used, self.rules.cite("L-5.5", "C-6", "L-5.5"))?;
        Ok(Plan::LayOff {
            meld,
            cards,
            grown,
            floats,
        })
    }

    fn plan_swap(&self, seat: u8, meld: usize, card: Card, to_meld: usize, end: Option<End>) -> Result<Plan<'static>> {
        let swap_rule = self.rules.cite("L-7.2", "C-4", "W-4");
        self.require_after_go_down(seat, true, swap_rule)?;
        match self.rules.joker_swap {
            JokerSwapRule::Off => {
                return refuse(
                    ErrorCode::NotAllowed,
                    self.rules.cite("L-7", "C-4", "W-4"),
                    msg!("swap.off_in_rules"),
                )
            }
            JokerSwapRule::AfterGoDownTurn if self.down_this_turn => {
                return refuse(ErrorCode::SameTurnAsGoDown, "L-7.2", msg!("swap.same_turn"))
            }
            JokerSwapRule::OnGoDownTurn if !self.down_this_turn => {
                return refuse(ErrorCode::NotAllowed, "W-4", msg!("swap.only_go_down_turn"))
            }
            _ => {}
        }
        let used = self.require_cards(seat, [card])?;
        let Some(source) = self.table.get(meld) else {
            return refuse(
                ErrorCode::SwapMismatch,
                swap_rule,
                msg!("swap.no_such_meld", meld = meld),
            );
        };
        if !self.rules.swap_own_jokers && source.owner == seat as usize {
            return refuse(
                ErrorCode::OwnJoker,
                "W-4",
                msg!("swap.own_joker", meld = meld, seat = seat),
            );
        }
        let swapped = source.meld.swap_joker(card).map_err(|e| {
            // W-4 decides both refusals in profile W (only a run's joker, for the exact card).
            Error {
                rule: e.rule.map(|r| self.rules.cite(r, r, "W-4")),
                ..e
            }
        })?;
        if to_meld == meld {
            return refuse(ErrorCode::JokerUnplaced, swap_rule, msg!("swap.same_meld"));
        }
        let Some(target) = self.table.get(to_meld) else {
            return refuse(
                ErrorCode::JokerUnplaced,
                swap_rule,
                msg!("swap.no_target_meld", meld = to_meld),
            );
        };
        let grown = target.meld.lay_off(&[Card::JOKER], end, &self.rules).map_err(|e| {
            Error::refused(
                ErrorCode::JokerUnplaced,
                swap_rule,
                msg!("swap.joker_unplaced", meld = to_meld, reason = e.to_message()),
            )
        })?;
        let floats = self.require_after_play(seat, &used, "L-7.3")?;
        Ok(Plan::Swap {
            meld,
            card,
            to_meld,
            melds: Box::new((swapped, grown)),
            floats,
        })
    }

    fn plan_discard(&self, seat: u8, card: Card) -> Result<Plan<'static>> {
        if let Phase::CallDiscard { caller } = self.phase {
            // W-7.2: the Liverpool caller discards one card.
            if seat != caller {
                return refuse(
                    ErrorCode::NotYourTurn,
                    "W-7.2",
                    msg!("call.discards_now", seat = caller),
                );
            }
            self.require_card(seat, card)?;
            return Ok(Plan::Discard(card));
        }
        self.require_play(seat, || msg!("doing.discard"), "L-5.5")?;
        self.require_card(seat, card)?;
        if self.rules.no_discard_of_taken_card
            && self.taken_discard == Some(card)
            && self.seats[seat as usize].hand.get(card) == 1
        {
            return refuse(
                ErrorCode::DiscardTakenCard,
                "W-8",
                msg!("discard.taken_this_turn", card = card),
            );
        }
        Ok(Plan::Discard(card))
    }
}
