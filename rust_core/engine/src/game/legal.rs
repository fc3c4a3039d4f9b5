//! `legal_actions`: every action the deciding seat may take now, sorted and
//! deduplicated, for bots and reinforcement learning.
//!
//! The list holds the *canonical* moves: before drawing, `take_discard` and
//! `draw_stock` (a draw while a discard is on offer declines it and runs the buying
//! window first, L-5.1; `decline_discard` is accepted too but never listed, since it
//! only splits that draw in two). Only the seat the engine waits for has moves.

use super::action::Action;
use super::phase::{CallKind, Phase};
use super::state::GameState;
use crate::card::{Card, CardCounts};
use crate::meld::{End, Meld};
use crate::rules::JokerSwapRule;
use crate::search::all_go_downs;

/// At most this many go-downs are listed for one hand (the best ones, in
/// `search::all_go_downs` order: fewest points left first).
pub const GO_DOWN_LIMIT: usize = 512;

impl GameState {
    /// The legal actions of `seat` (default: `to_act()`), sorted by `Action`'s order.
    /// Empty when `seat` is not the seat the engine waits for.
    pub fn legal_actions(&self, seat: Option<usize>) -> Vec<Action> {
        let Some(decider) = self.to_act() else {
            return Vec::new();
        };
        let seat = seat.unwrap_or(decider);
        if seat != decider {
            return Vec::new();
        }
        let mut out = Vec::new();
        match self.phase {
            Phase::Cut => {
                let max = self.stock.len().saturating_sub(1);
                out.extend((1..=max).map(|k| Action::Cut { size: Some(k as i64) }));
            }
            Phase::Draw { declined: false } => {
                if self.can(seat, &Action::TakeDiscard) {
                    out.push(Action::TakeDiscard);
                }
                out.push(Action::DrawStock);
            }
            Phase::Draw { declined: true } => out.push(Action::DrawStock),
            Phase::Buying(_) => {
                if self.can(seat, &Action::Buy) {
                    out.push(Action::Buy);
                }
                out.push(Action::Pass);
            }
            Phase::Calling(w) => {
                out.push(Action::Pass);
                match w.kind {
                    CallKind::Rummy => out.push(Action::CallRummy),
                    CallKind::Liverpool => {
                        if let Some(card) = self.discard_top() {
                            for (i, target) in self.table.iter().enumerate() {
                                for &end in self.joker_ends(card, &target.meld) {
                                    if target.meld.can_lay_off(&[card], end, &self.rules) {
                                        out.push(Action::CallLiverpool { meld: i, end });
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Phase::CallDiscard { .. } => {
                let hand = self.seats[seat].hand;
                out.extend(
                    (0..53u8)
                        .filter(|&id| hand.0[id as usize] > 0)
                        .map(|id| Action::Discard {
                            card: Card::from_id(id).expect("id < 53"),
                        }),
                );
            }
            Phase::Play => self.play_actions(seat, &mut out),
            Phase::RoundOver => out.push(Action::NextRound),
            Phase::GameOver => {}
        }
        out.sort();
        out.dedup();
        out
    }

    fn play_actions(&self, seat: usize, out: &mut Vec<Action>) {
        let hand = self.seats[seat].hand;
        let contract = self.contract();
        let down = self.seats[seat].down;
        if !down {
            for gd in all_go_downs(&hand, &contract, &self.rules, GO_DOWN_LIMIT) {
                let mut used = hand;
                used.try_remove(&gd.left);
                let keeps = if contract.whole_hand {
                    gd.left.total() == 0
                } else {
                    self.after_play(seat as u8, &used).is_some()
                };
                if keeps {
                    out.push(Action::GoDown {
                        melds: gd.melds.iter().map(|m| m.cards().to_vec()).collect(),
                    });
                }
            }
        }
        // L-5.5 / L-7.3: lay-offs and swaps must leave a card for the discard, or
        // (W-8) may empty the hand.
        let may_add = down && !contract.whole_hand && hand.total() >= 1;
        let allowed_without = |card: Card| self.after_play(seat as u8, &CardCounts::from_cards(&[card])).is_some();
        let distinct: Vec<Card> = (0..53u8)
            .filter(|&id| hand.0[id as usize] > 0)
            .map(|id| Card::from_id(id).expect("id < 53"))
            .collect();
        if may_add && (!self.down_this_turn || self.rules.lay_off_on_go_down_turn) {
            for &card in distinct.iter().filter(|&&c| allowed_without(c)) {
                for (i, target) in self.table.iter().enumerate() {
                    for &end in self.joker_ends(card, &target.meld) {
                        if target.meld.can_lay_off(&[card], end, &self.rules) {
                            out.push(Action::LayOff {
                                meld: i,
                                cards: vec![card],
                                end,
                            });
                        }
                    }
                }
            }
        }
        let swap_now = match self.rules.joker_swap {
            JokerSwapRule::Off => false,
            JokerSwapRule::AfterGoDownTurn => !self.down_this_turn,
            JokerSwapRule::OnGoDownTurn => self.down_this_turn,
        };
        if may_add && swap_now {
            for (i, source) in self.table.iter().enumerate() {
                if !self.rules.swap_own_jokers && source.owner == seat {
                    continue; // W-4: only another player's joker
                }
                for index in 0..source.meld.len() {
                    let Some(natural) = source.meld.joker_stands_for(index) else {
                        continue;
                    };
                    if hand.get(natural) == 0 || !allowed_without(natural) {
                        continue;
                    }
                    for (j, target) in self.table.iter().enumerate() {
                        if j == i {
                            continue;
                        }
                        for &end in self.joker_ends(Card::JOKER, &target.meld) {
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
        }
        for &card in &distinct {
            let taken = self.rules.no_discard_of_taken_card && self.taken_discard == Some(card) && hand.get(card) == 1;
            if !taken {
                out.push(Action::Discard { card });
            }
        }
    }

    /// The `end` values worth listing: a joker on a run may go to either end.
    fn joker_ends(&self, card: Card, meld: &Meld) -> &'static [Option<End>] {
        if card.is_joker() && meld.is_run() {
            &[Some(End::Low), Some(End::High)]
        } else {
            &[None]
        }
    }
}
