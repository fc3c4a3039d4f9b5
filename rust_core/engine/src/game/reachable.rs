//! Only states that play can reach are loaded (issue 8): a position or snapshot that
//! passes [`GameState::validate`] (shape, seats, copies) must also be one that some
//! sequence of legal actions could produce, or later actions misbehave (a
//! `round_over` in the last round would start a round the rule set does not have; a
//! live round where nobody may act never ends). See docs/guarantees.md.

use super::state::{GameState, Phase};
use crate::error::{Error, ErrorCode, Message, Result};
use crate::msg;

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
        let live = matches!(self.phase, Phase::Draw { .. } | Phase::Play | Phase::Buying(_));
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
        for (s, seat) in self.seats.iter().enumerate() {
            let out_of_range = |v: i32| v.unsigned_abs() > MAX_SCORE as u32;
            if out_of_range(seat.total) || out_of_range(seat.round_score) || out_of_range(seat.penalty) {
                return bad(msg!("position.score_range", seat = s, max = MAX_SCORE));
            }
            // C-5: never more buys than the limit; without one, every buy takes two
            // cards of the deck.
            let max_buys = match self.rules.buy_limit_per_round {
                Some(limit) => limit as usize,
                None => self.rules.deck_size(self.players) / 2,
            };
            if seat.buys as usize > max_buys {
                return bad(msg!("position.buys_range", seat = s, buys = seat.buys, max = max_buys));
            }
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
            }
        }
        // Every state that is not over has a seat that can act, with a legal action.
        if self.phase != Phase::GameOver && self.legal_actions(None).is_empty() {
            return bad(msg!("position.no_legal_move"));
        }
        Ok(())
    }
}

/// W-8: may a player hold no cards in a live round (floating)?
fn floating_allowed(state: &GameState) -> bool {
    state.rules.floating
}
