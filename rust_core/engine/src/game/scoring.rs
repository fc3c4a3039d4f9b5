//! Scoring (L-10): the end of a round (cards left in hand, the cut bonus, W-9
//! penalties, the totals) and the winners of the game.

use super::action::{RoundEnd, RoundEndReason};
use super::phase::Phase;
use super::state::GameState;
use crate::rules::TieBreak;

impl GameState {
    /// L-10.3: at game over, the seat(s) with the lowest total (several for a draw;
    /// C-7 breaks ties by the last round's score). Empty before the game is over.
    pub fn winners(&self) -> Vec<usize> {
        if !self.is_game_over() {
            return Vec::new();
        }
        let best = self.seats.iter().map(|s| s.total).min().unwrap_or(0);
        let mut tied: Vec<usize> = (0..self.players()).filter(|&s| self.seats[s].total == best).collect();
        if self.rules.tie_break == TieBreak::LowerLastRound && tied.len() > 1 {
            let last = tied.iter().map(|&s| self.seats[s].round_score).min().unwrap_or(0);
            tied.retain(|&s| self.seats[s].round_score == last);
        }
        tied
    }

    /// L-10: score the round (cards left in hand, the cut bonus, W-9 penalties), add
    /// to the totals, and move to `RoundOver`, or `GameOver` after the last round.
    pub(crate) fn end_round(&mut self, winner: Option<u8>, reason: RoundEndReason) -> RoundEnd {
        let points = self.rules.points_by_id();
        for (i, seat) in self.seats.iter_mut().enumerate() {
            let left: i32 = seat
                .hand
                .0
                .iter()
                .zip(points.iter())
                .map(|(&n, &p)| n as i32 * p as i32)
                .sum();
            let bonus = if self.cut_bonus == Some(i as u8) {
                self.rules.cut_bonus
            } else {
                0
            };
            // Saturating: loaded totals are bounded (MAX_SCORE), but never wrap.
            seat.round_score = left.saturating_add(bonus).saturating_add(seat.penalty);
            seat.total = seat.total.saturating_add(seat.round_score);
        }
        self.went_out = winner;
        // The turn ended with the round: its turn-scoped flags no longer apply (and
        // positions only allow them in phase play).
        self.down_this_turn = false;
        self.taken_discard = None;
        let game_over = self.round >= self.rules.rounds();
        self.phase = if game_over { Phase::GameOver } else { Phase::RoundOver };
        let n = self.players();
        let bonus = self.cut_bonus.map_or(Vec::new(), |c| {
            (0..n)
                .map(|s| if s == c as usize { self.rules.cut_bonus } else { 0 })
                .collect()
        });
        let penalties = self.penalties();
        RoundEnd {
            round: self.round,
            winner: winner.map(usize::from),
            reason,
            scores: self.seats.iter().map(|s| s.round_score).collect(),
            totals: self.totals(),
            game_over,
            winners: self.winners(),
            cut_bonus: if bonus.iter().any(|&b| b != 0) {
                bonus
            } else {
                Vec::new()
            },
            penalties: if penalties.iter().any(|&p| p != 0) {
                penalties
            } else {
                Vec::new()
            },
        }
    }
}
