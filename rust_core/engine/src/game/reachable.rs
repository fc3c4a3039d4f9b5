//! Only states that play can reach are loaded (issue 8): a position or snapshot that
//! passes [`GameState::validate`] (shape, seats, copies) must also be one that some
//! sequence of legal actions could produce, or later actions misbehave (a
//! `round_over` in the last round would start a round the rule set does not have; a
//! live round where nobody may act never ends). See docs/guarantees.md.

use super::action::Action;
use super::phase::Phase;
use super::state::GameState;
use crate::error::{Error, ErrorCode, Message, Result};
use crate::msg;
use crate::rules::BuyingRule;

/// Largest total or round score a loaded state may carry (in absolute value). Real
/// games stay far below it (a round scores at most a few thousand points), and the
/// engine adds scores with saturating arithmetic, so no total can wrap around.
pub const MAX_SCORE: i32 = 10_000_000;

fn bad<T>(msg: Message) -> Result<T> {
    Err(Error::with(ErrorCode::BadPosition, None, msg))
}

impl GameState {
    /// The reachability checks of a loaded state (after [`GameState::validate`]).
    pub(crate) fn check_reachable(&self) -> Result<()> {
        let rounds = self.rules.rounds();
        // The phases of a round in play, W-7's call window included.
        let live = matches!(
            self.phase,
            Phase::Draw { .. } | Phase::Play | Phase::Buying(_) | Phase::Calling(_) | Phase::CallDiscard { .. }
        );
        // L-3 / L-10.3: a round that is over waits for the next round, which must exist;
        // the game is over only after the last round.
        match self.phase {
            Phase::RoundOver if self.round >= rounds => {
                return bad(msg!("position.round_over_last", round = self.round, rounds = rounds));
            }
            Phase::GameOver if self.round != rounds => {
                return bad(msg!("position.game_over_early", round = self.round, rounds = rounds));
            }
            _ => {}
        }
        // Bounded fields. L-9.3: a live round has played fewer turns than the safeguard
        // allows (the turn that reaches it ends the round).
        let max_turns = self.rules.max_turns_per_round;
        if (live && self.turn >= max_turns) || self.turn > max_turns || (self.phase == Phase::Cut && self.turn != 0) {
            return bad(msg!("position.turn_range", turn = self.turn, max = max_turns));
        }
        let max_buys = match (self.rules.buying, self.rules.buy_limit_per_round) {
            // No buying at all: nobody has bought.
            (BuyingRule::Off, _) => 0,
            // C-5: never more buys than the limit.
            (_, Some(limit)) => limit as usize,
            // Without a limit, every buy takes two cards of the deck.
            (_, None) => self.rules.deck_size(self.players) / 2,
        };
        let penalty_size = i32::from(self.rules.failed_go_down_penalty);
        for (s, seat) in self.seats.iter().enumerate() {
            let out_of_range = |v: i32| v.unsigned_abs() > MAX_SCORE as u32;
            if out_of_range(seat.total) || out_of_range(seat.round_score) || out_of_range(seat.penalty) {
                return bad(msg!("position.score_range", seat = s, max = MAX_SCORE));
            }
            if seat.buys as usize > max_buys {
                return bad(msg!("position.buys_range", seat = s, buys = seat.buys, max = max_buys));
            }
            // W-9: a failed go-down attempt adds the rule set's penalty, nothing else
            // does: a rule set without one (profile L) never charges any, and with one
            // the points are a whole number of attempts, never negative.
            if seat.penalty != 0 && penalty_size == 0 {
                return bad(msg!("position.penalty_profile", seat = s, penalty = seat.penalty));
            }
            if penalty_size > 0 && (seat.penalty < 0 || seat.penalty % penalty_size != 0) {
                return bad(msg!(
                    "position.penalty_value",
                    seat = s,
                    penalty = seat.penalty,
                    size = penalty_size
                ));
            }
        }
        // What a round records as it goes is empty before its deal, and its result
        // (scores, who went out) exists only once it is over.
        let unset = |field: &'static str| -> Result<()> {
            bad(msg!("position.unset_field", field = field, phase = self.phase.name()))
        };
        if self.phase == Phase::Cut {
            if self.seats.iter().any(|seat| seat.buys != 0) {
                return unset("buys");
            }
            if self.seats.iter().any(|seat| seat.penalty != 0) {
                return unset("penalties");
            }
            if self.cut_bonus.is_some() {
                return unset("cut_bonus");
            }
        }
        if live || self.phase == Phase::Cut {
            if self.seats.iter().any(|seat| seat.round_score != 0) {
                return unset("round_scores");
            }
            if self.went_out.is_some() {
                return unset("winner");
            }
        }
        // L-5.6: the seat that went out holds no cards.
        if let Some(seat) = self.went_out {
            if self.seats.get(seat as usize).is_some_and(|s| s.hand.total() != 0) {
                return bad(msg!("position.winner_holds_cards", seat = seat));
            }
        }
        // L-2.3: only the cutter of the round can have earned its cut bonus, and only
        // under a rule set that gives one.
        if let Some(seat) = self.cut_bonus {
            if self.rules.cut_bonus == 0 {
                return bad(msg!("position.cut_bonus_off", seat = seat));
            }
            if seat as usize != self.cutter() {
                return bad(msg!("position.cut_bonus_seat", seat = seat, cutter = self.cutter()));
            }
        }
        // W-8: the card taken from the discard pile is remembered only where it may not
        // be discarded.
        if self.taken_discard.is_some() && !self.rules.no_discard_of_taken_card {
            return bad(msg!("position.taken_discard_profile"));
        }
        if live {
            // L-5.5: the active player in phase play keeps a card for the discard (W-8
            // floating ends the turn at once, so it never waits in play with no cards).
            // Other empty hands are allowed where play goes on from them (the seat draws
            // and may discard what it drew to go out), but not where W-8's "the card
            // taken from the discard pile may not be discarded" without floating would
            // leave it, after taking the discard, with no legal move.
            let dead_end_on_take = self.rules.no_discard_of_taken_card && !floating_allowed(self);
            for (s, seat) in self.seats.iter().enumerate() {
                let active_in_play = self.phase == Phase::Play && s == self.active as usize;
                if seat.hand.total() == 0 && (active_in_play || dead_end_on_take) {
                    return bad(msg!("position.empty_hand", seat = s));
                }
                // W-8: only a player who is down floats (empties the hand and plays on).
                // A seat not down with no cards would take a discard it may neither
                // discard nor lay off: a dead state. (Without floating, conformance
                // positions leave the seats a scenario does not use empty, and play goes
                // on from them: such a seat draws and may discard what it drew.)
                if seat.hand.total() == 0 && floating_allowed(self) && !seat.down {
                    return bad(msg!("position.empty_hand_not_down", seat = s));
                }
            }
        }
        // Every state that is not over has a seat that can act, with a legal action,
        // and (one step on) no legal action leads to a state where nobody can act.
        if self.phase != Phase::GameOver {
            let actions = self.legal_actions(None);
            if actions.is_empty() {
                return bad(msg!("position.no_legal_move"));
            }
            self.check_no_dead_end(&actions)?;
        }
        Ok(())
    }
}

impl GameState {
    /// One step of look-ahead from a loaded state: every legal action of the seat to
    /// act leads to a state that is over or has a legal action. The field checks above
    /// refuse what play cannot reach; this is the net under them, for combinations of
    /// fields no single check sees (such as a card taken from the pile that leaves a
    /// floating player nothing to do). Cheap: one copy and one action per legal move,
    /// with the round-starting moves (cut, next round) skipped, whose states are new deals.
    fn check_no_dead_end(&self, actions: &[Action]) -> Result<()> {
        let Some(seat) = self.to_act() else {
            return Ok(());
        };
        for action in actions {
            if matches!(action, Action::Cut { .. } | Action::NextRound) {
                continue;
            }
            let mut next = self.clone();
            // The history plays no part in what is legal next; a saved game's can be long.
            next.history = Default::default();
            if next.apply(seat, action).is_ok() && !next.is_game_over() && next.legal_actions(None).is_empty() {
                return bad(msg!("position.dead_end", seat = seat, action = action.to_json()));
            }
        }
        Ok(())
    }
}

/// W-8: may a player hold no cards in a live round (floating)?
fn floating_allowed(state: &GameState) -> bool {
    state.rules.floating
}
